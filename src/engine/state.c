/*
 * state.c - writing and reading state files (see state.h for the format).
 *
 * The whole file is built in memory and read into memory: a state is at
 * most the size of its accumulators (tens of megabytes for the largest
 * tables), and a reader that holds the file can check its length and hash
 * before parsing a single field.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "engine/escalate.h"
#include "engine/outfile.h"
#include "stats/registry.h"

static const char magic[8] = { 'S', 'B', 'S', 'T', 'A', 'T', 'E', '\n' };

/* Header: magic, format, payload length; trailer: the hash. */
#define HEADER_BYTES 24u
#define TRAILER_BYTES 8u

/* FNV-1a, 64 bits: catches a damaged or cut file, not a forged one. */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

void sb_state_describe(sb_state *st, const sb_run_config *cfg,
                       const sb_shape *shape)
{
    memset(st, 0, sizeof *st);
    snprintf(st->algorithm, sizeof st->algorithm, "%s", cfg->alg->name);
    snprintf(st->plugin, sizeof st->plugin, "%s",
             cfg->plugin ? cfg->plugin : "");
    sb_shuffle_format_params(cfg->alg, &cfg->args, st->params,
                             sizeof st->params);
    snprintf(st->rng, sizeof st->rng, "%s", cfg->rng);
    st->shape = *shape;
    st->stream_version = (uint64_t)sb_stream_version(
        cfg->alg ? cfg->alg->name : NULL, cfg->plugin != NULL, cfg->rng);
    st->chunk_samples = SB_CHUNK_SAMPLES;
    st->block_samples = SB_BLOCK_SAMPLES;
    st->seed = st->stage_seed = cfg->seed;
    st->samples = st->stage_samples = cfg->samples;
    st->n_stats = cfg->n_stats;
    memcpy(st->stats, cfg->stats, cfg->n_stats * sizeof st->stats[0]);
}

/* ---- writing ----------------------------------------------------------- */

typedef struct out_buf {
    unsigned char *p;
    size_t len, cap;
    int failed;            /* an allocation failed: the buffer is junk */
} out_buf;

static void put_bytes(out_buf *b, const void *src, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put_u64(out_buf *b, uint64_t v)
{
    unsigned char le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(v >> (8 * i));
    put_bytes(b, le, 8);
}

static void put_str(out_buf *b, const char *s)
{
    const size_t n = strlen(s);
    static const unsigned char zeros[8];
    put_u64(b, n);
    put_bytes(b, s, n);
    put_bytes(b, zeros, (8 - n % 8) % 8);
}

static void put_f64(out_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put_u64(b, u);
}

/* The counts of a run: samples, tally, chunks, then each statistic's
   name and accumulator (sb_stat_type.save). */
static void put_counts(out_buf *b, const sb_run_counts *c,
                       const sb_stat_type *const *stats, size_t n_stats)
{
    put_u64(b, c->done);
    put_u64(b, (uint64_t)c->has_tally);
    put_u64(b, c->tally.samples);
    put_u64(b, c->tally.sum);
    put_u64(b, c->tally.sum_sq);
    put_u64(b, c->tally.max);
    put_u64(b, c->chunks.count);
    for (size_t k = 0; k < c->chunks.count; k++) {
        put_u64(b, c->chunks.r[k].lo);
        put_u64(b, c->chunks.r[k].hi);
    }
    put_u64(b, n_stats);
    for (size_t i = 0; i < n_stats; i++) {
        uint64_t *words = NULL;
        size_t count = 0;
        put_str(b, stats[i]->name);
        if (stats[i]->save(c->acc[i], &words, &count) != SB_OK) {
            b->failed = 1;
            return;
        }
        put_u64(b, count);
        for (size_t k = 0; k < count; k++)
            put_u64(b, words[k]);
        free(words);
    }
}

static void put_payload(out_buf *b, const sb_state *st)
{
    put_str(b, st->algorithm);
    put_str(b, st->plugin);
    put_str(b, st->params);
    put_str(b, st->rng);
    put_u64(b, (uint64_t)st->shape.kind);
    put_u64(b, st->shape.n);
    put_u64(b, st->shape.len);
    put_u64(b, st->shape.hands);
    put_u64(b, st->stream_version);
    put_u64(b, st->chunk_samples);
    put_u64(b, st->block_samples);
    put_u64(b, st->seed);
    put_u64(b, st->samples);
    put_u64(b, st->escalations);
    put_u64(b, st->part_first);
    put_u64(b, st->part_end);
    put_u64(b, st->part);
    put_u64(b, st->parts);
    put_u64(b, st->stage);
    for (unsigned k = 0; k < st->stage; k++) {
        const sb_stage *s = &st->prior[k];
        put_u64(b, s->seed);
        put_u64(b, s->samples);
        put_u64(b, s->done);
        put_u64(b, (uint64_t)s->verdict);
        put_f64(b, s->min_p_adjusted);
        put_str(b, s->worst ? s->worst : "");
    }
    put_u64(b, st->stage_seed);
    put_u64(b, st->stage_samples);
    put_counts(b, &st->counts, st->stats, st->n_stats);
    /* Format 2: a sequential source's place (sb_rng_save), or none. */
    static const unsigned char zeros[8];
    const sb_run_counts *c = &st->counts;
    put_u64(b, c->rng_len ? c->rng_next : 0);
    put_u64(b, c->rng_len);
    if (c->rng_len) {
        put_bytes(b, c->rng_state, c->rng_len);
        put_bytes(b, zeros, (8 - c->rng_len % 8) % 8);
    }
}

int sb_counts_encode(const sb_run_counts *c,
                     const sb_stat_type *const *stats, size_t n_stats,
                     unsigned char **out, size_t *len)
{
    out_buf b = { 0 };
    put_counts(&b, c, stats, n_stats);
    if (b.failed) {
        free(b.p);
        return SB_ENOMEM;
    }
    *out = b.p;
    *len = b.len;
    return SB_OK;
}

int sb_state_write(const char *path, const sb_state *st, char *err,
                   size_t len)
{
    out_buf b = { 0 };
    put_bytes(&b, magic, sizeof magic);
    put_u64(&b, SB_STATE_FORMAT);
    put_u64(&b, 0);                 /* the payload's length, set below */
    put_payload(&b, st);
    if (!b.failed) {
        const size_t payload = b.len - HEADER_BYTES;
        for (int i = 0; i < 8; i++)
            b.p[16 + i] = (unsigned char)((uint64_t)payload >> (8 * i));
        put_u64(&b, fnv1a(b.p + HEADER_BYTES, payload));
    }
    if (b.failed) {
        free(b.p);
        snprintf(err, len, "out of memory saving the state");
        return SB_ENOMEM;
    }
    /* Through a temporary file renamed over the old state (outfile.h),
       so that a crash leaves the old state or the new, never half of
       one. */
    sb_outfile out;
    char why[600];
    int rc = sb_outfile_open(&out, path, 0, why, sizeof why);
    if (rc == SB_OK) {
        if (fwrite(b.p, 1, b.len, out.f) == b.len)
            rc = sb_outfile_commit(&out, why, sizeof why);
        else {
            snprintf(why, sizeof why, "cannot write '%s': %s", path,
                     strerror(errno));
            sb_outfile_abort(&out);
            rc = SB_EIO;
        }
    }
    free(b.p);
    if (rc != SB_OK) {
        snprintf(err, len, "cannot save the state: %s", why);
        return SB_EIO;
    }
    return SB_OK;
}

/* ---- reading ----------------------------------------------------------- */

typedef struct in_buf {
    const unsigned char *p;
    size_t len, at;
    int bad;               /* read past the end: every later field is 0 */
} in_buf;

static uint64_t get_u64(in_buf *b)
{
    if (b->bad || b->len - b->at < 8) {
        b->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b->p[b->at + (size_t)i] << (8 * i);
    b->at += 8;
    return v;
}

static double get_f64(in_buf *b)
{
    uint64_t u = get_u64(b);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* A string into 'out' (room for 'size' with its terminator). */
static void get_str(in_buf *b, char *out, size_t size)
{
    const uint64_t n = get_u64(b);
    const uint64_t padded = n + (8 - n % 8) % 8;
    if (b->bad || n >= size || padded > b->len - b->at
        || memchr(b->p + b->at, '\0', (size_t)n)) {
        b->bad = 1;
        out[0] = '\0';
        return;
    }
    memcpy(out, b->p + b->at, (size_t)n);
    out[n] = '\0';
    b->at += (size_t)padded;
}

/* A whole file in memory: its header first, then as many bytes as the
   header says (and one more, to see that nothing follows), so that a
   huge or endless file is never read whole. */
static int slurp(const char *path, unsigned char **data, size_t *size,
                 char *err, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, len, "cannot read the state file '%s': %s", path,
                 strerror(errno));
        return SB_EIO;
    }
    unsigned char *p = NULL;
    size_t n = 0, cap = 0;
    /* Bytes to read: the header, then what it announces. */
    uint64_t want = HEADER_BYTES;
    for (;;) {
        if (n >= HEADER_BYTES && want == HEADER_BYTES
            && memcmp(p, magic, sizeof magic) == 0) {
            uint64_t payload = 0;
            for (int i = 0; i < 8; i++)
                payload |= (uint64_t)p[16 + i] << (8 * i);
            want = payload < (UINT64_C(1) << 40)
                 ? HEADER_BYTES + payload + TRAILER_BYTES + 1 : n;
        }
        if (n >= want)
            break;
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            unsigned char *q = realloc(p, cap);
            if (!q) {
                free(p);
                fclose(f);
                snprintf(err, len, "out of memory reading '%s'", path);
                return SB_ENOMEM;
            }
            p = q;
        }
        const size_t room = want - n < cap - n ? (size_t)(want - n)
                                               : cap - n;
        size_t got = fread(p + n, 1, room, f);
        n += got;
        if (got == 0)
            break;
    }
    /* The reason of a failed read, such as "Is a directory". */
    const int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (failed) {
        free(p);
        snprintf(err, len, "cannot read the state file '%s': %s", path,
                 strerror(failed));
        return SB_EIO;
    }
    *data = p;
    *size = n;
    return SB_OK;
}

/* The counts put_counts wrote, of a run of 'samples' on samples of
   'shape': into 'c' and the statistics into 'stats' (room for
   SB_STATE_STATS_MAX), as get_payload's status and reason. */
static int get_counts(in_buf *b, sb_run_counts *c, const sb_shape *shape,
                      uint64_t samples, const sb_stat_type **stats,
                      size_t *n_stats, char *err, size_t len)
{
    c->done = get_u64(b);
    c->has_tally = get_u64(b) != 0;
    c->tally.samples = get_u64(b);
    c->tally.sum = get_u64(b);
    c->tally.sum_sq = get_u64(b);
    c->tally.max = get_u64(b);
    const uint64_t ranges = get_u64(b);
    if (b->bad || ranges > (b->len - b->at) / 16) {
        snprintf(err, len, "its list of chunks is damaged");
        return SB_EINVAL;
    }
    /* Written sorted, apart from one another: read as such, each range
       after the last one. */
    for (uint64_t k = 0, last = 0; k < ranges; k++) {
        const uint64_t lo = get_u64(b), hi = get_u64(b);
        if (lo >= hi || hi > sb_chunk_count(samples)
            || (k > 0 && lo <= last)
            || sb_chunks_add(&c->chunks, lo, hi) != SB_OK) {
            snprintf(err, len, "its list of chunks is damaged");
            return SB_EINVAL;
        }
        last = hi;
    }
    if (c->done != sb_chunks_samples(&c->chunks, samples)) {
        snprintf(err, len, "it counts %llu samples but its chunks hold %llu",
                 (unsigned long long)c->done,
                 (unsigned long long)sb_chunks_samples(&c->chunks,
                                                       samples));
        return SB_EINVAL;
    }
    const uint64_t listed = get_u64(b);
    if (b->bad || listed < 1 || listed > SB_STATE_STATS_MAX) {
        snprintf(err, len, "its list of statistics is damaged");
        return SB_EINVAL;
    }
    c->acc = calloc((size_t)listed, sizeof *c->acc);
    if (!c->acc) {
        snprintf(err, len, "out of memory");
        return SB_ENOMEM;
    }
    *n_stats = (size_t)listed;
    for (size_t i = 0; i < *n_stats; i++) {
        char name[128];
        get_str(b, name, sizeof name);
        const uint64_t count = get_u64(b);
        if (b->bad || count > (b->len - b->at) / 8) {
            snprintf(err, len, "its counts are cut short");
            return SB_EINVAL;
        }
        const sb_stat_type *t = sb_stat_find(name);
        if (!t) {
            snprintf(err, len, "it holds the statistic '%s', which this "
                     "version does not have", name);
            return SB_ENOTFOUND;
        }
        for (size_t k = 0; k < i; k++)
            if (stats[k] == t) {
                snprintf(err, len, "it holds the statistic '%s' twice", name);
                return SB_EINVAL;
            }
        stats[i] = t;
        uint64_t *words = malloc(count ? (size_t)count * 8 : 1);
        if (!words) {
            snprintf(err, len, "out of memory");
            return SB_ENOMEM;
        }
        for (uint64_t k = 0; k < count; k++)
            words[k] = get_u64(b);
        int rc = t->alloc(&c->acc[i], shape);
        if (rc == SB_OK)
            rc = t->load(c->acc[i], words, (size_t)count);
        free(words);
        if (rc != SB_OK) {
            snprintf(err, len, "the counts of '%s' are damaged or do not "
                     "fit %s samples of %zu cards", name,
                     sb_kind_str(shape->kind), shape->n);
            return SB_EINVAL;
        }
    }
    return SB_OK;
}

int sb_counts_decode(const unsigned char *p, size_t n,
                     const sb_stat_type *const *stats, size_t n_stats,
                     const sb_shape *shape, uint64_t samples,
                     sb_run_counts *c, char *err, size_t len)
{
    memset(c, 0, sizeof *c);
    in_buf b = { p, n, 0, 0 };
    const sb_stat_type *got[SB_STATE_STATS_MAX] = { 0 };
    size_t n_got = 0;
    int rc = get_counts(&b, c, shape, samples, got, &n_got, err, len);
    if (rc == SB_OK && (n_got != n_stats
                        || memcmp(got, stats, n_stats * sizeof *got) != 0)) {
        snprintf(err, len, "they are counts of other statistics");
        rc = SB_EINVAL;
    } else if (rc == SB_OK && b.at != b.len) {
        snprintf(err, len, "they have data after their end");
        rc = SB_EINVAL;
    }
    if (rc != SB_OK) {
        /* The accumulators made so far, of the statistics read. */
        if (c->acc)
            for (size_t i = 0; i < n_got; i++)
                if (c->acc[i])
                    got[i]->free(c->acc[i]);
        free(c->acc);
        sb_chunks_free(&c->chunks);
        memset(c, 0, sizeof *c);
    }
    return rc;
}

/* The fields after the header: SB_OK; or, with the reason in 'err',
   SB_ENOTFOUND (a statistic this program does not have), SB_ENOMEM, or
   SB_EINVAL (anything else wrong with them).  The status is decided
   where the reason is written, so the two cannot disagree. */
static int get_payload(in_buf *b, sb_state *st, uint64_t format, char *err,
                       size_t len)
{
    get_str(b, st->algorithm, sizeof st->algorithm);
    get_str(b, st->plugin, sizeof st->plugin);
    get_str(b, st->params, sizeof st->params);
    get_str(b, st->rng, sizeof st->rng);
    const uint64_t kind = get_u64(b);
    st->shape.n = (size_t)get_u64(b);
    st->shape.len = (size_t)get_u64(b);
    const uint64_t hands = get_u64(b);
    st->stream_version = get_u64(b);
    st->chunk_samples = get_u64(b);
    st->block_samples = get_u64(b);
    st->seed = get_u64(b);
    st->samples = get_u64(b);
    const uint64_t escalations = get_u64(b);
    st->part_first = get_u64(b);
    st->part_end = get_u64(b);
    const uint64_t part = get_u64(b), parts = get_u64(b);
    const uint64_t stage = get_u64(b);
    if (b->bad || (kind != SB_KIND_PERMUTATION && kind != SB_KIND_DRAW
                   && kind != SB_KIND_DEAL)
        || st->shape.n < 1 || st->shape.n > SB_DECK_MAX
        || st->shape.len < 1 || st->shape.len > st->shape.n
        || hands > SB_DECK_MAX || escalations >= SB_STAGES_MAX
        || stage > escalations || parts > SB_DECK_MAX || part > parts
        || st->samples < 1 || st->samples > (UINT64_C(1) << 62)) {
        snprintf(err, len, "its run description is damaged");
        return SB_EINVAL;
    }
    st->shape.kind = (sb_kind)kind;
    st->shape.hands = (unsigned)hands;
    st->escalations = (unsigned)escalations;
    st->part = (unsigned)part;
    st->parts = (unsigned)parts;
    st->stage = (unsigned)stage;
    for (unsigned k = 0; k < st->stage; k++) {
        sb_stage *s = &st->prior[k];
        char worst[128];
        s->seed = get_u64(b);
        s->samples = get_u64(b);
        s->done = get_u64(b);
        const uint64_t verdict = get_u64(b);
        s->min_p_adjusted = get_f64(b);
        get_str(b, worst, sizeof worst);
        const sb_stat_type *t = worst[0] ? sb_stat_find(worst) : NULL;
        if (b->bad || verdict > SB_VERDICT_NA || (worst[0] && !t)) {
            snprintf(err, len, "its record of earlier stages is damaged");
            return SB_EINVAL;
        }
        s->verdict = (sb_verdict)verdict;
        s->worst = t ? t->name : NULL;
    }
    st->stage_seed = get_u64(b);
    st->stage_samples = get_u64(b);
    /* What the run's seed and samples make of its stage and part. */
    const uint64_t chunks = sb_chunk_count(st->stage_samples);
    if (b->bad || st->stage_seed != sb_escalation_seed(st->seed, st->stage)
        || st->stage_samples != sb_escalation_samples(st->samples,
                                                      st->stage)
        || (st->parts == 0) != (st->part == 0)
        || (st->parts ? st->part_first >= st->part_end
                        || st->part_end > chunks || st->stage != 0
                      : st->part_first != 0 || st->part_end != 0)) {
        snprintf(err, len, "its stage or part does not fit its seed and "
                 "samples");
        return SB_EINVAL;
    }
    int rc = get_counts(b, &st->counts, &st->shape, st->stage_samples,
                        st->stats, &st->n_stats, err, len);
    if (rc != SB_OK)
        return rc;
    sb_run_counts *c = &st->counts;
    if (format >= 2) {
        c->rng_next = get_u64(b);
        const uint64_t n = get_u64(b);
        if (b->bad || n > b->len - b->at
            || c->rng_next > sb_chunk_count(st->stage_samples)) {
            snprintf(err, len, "its source's saved place is damaged");
            return SB_EINVAL;
        }
        if (n) {
            c->rng_state = malloc((size_t)n);
            if (!c->rng_state) {
                snprintf(err, len, "out of memory");
                return SB_ENOMEM;
            }
            memcpy(c->rng_state, b->p + b->at, (size_t)n);
            c->rng_len = (size_t)n;
            b->at += (size_t)n;
            const size_t pad = (8 - (size_t)n % 8) % 8;
            if (b->len - b->at < pad) {
                snprintf(err, len, "its source's saved place is damaged");
                return SB_EINVAL;
            }
            b->at += pad;
        }
    }
    if (b->at != b->len) {
        snprintf(err, len, "it has data after its counts");
        return SB_EINVAL;
    }
    return SB_OK;
}

int sb_state_read(const char *path, sb_state *st, char *err, size_t len)
{
    memset(st, 0, sizeof *st);
    unsigned char *data;
    size_t size;
    int rc = slurp(path, &data, &size, err, len);
    if (rc != SB_OK)
        return rc;
    char why[400] = "";
    int status = SB_EINVAL;     /* of a reason written into 'why' */
    in_buf head = { data, size, 0, 0 };
    if (size < HEADER_BYTES || memcmp(data, magic, sizeof magic) != 0) {
        snprintf(why, sizeof why, "not a shufflebias state file");
    } else {
        head.at = sizeof magic;
        const uint64_t format = get_u64(&head);
        const uint64_t payload = get_u64(&head);
        if (format < 1 || format > SB_STATE_FORMAT)
            snprintf(why, sizeof why, "state format %llu, this program "
                     "reads 1 to %u", (unsigned long long)format,
                     SB_STATE_FORMAT);
        else if (payload > UINT64_MAX - HEADER_BYTES - TRAILER_BYTES)
            /* A length no file can have: said as it is, not as the small
               number its sum with the header wraps around to. */
            snprintf(why, sizeof why, "damaged: its header gives a "
                     "length of %llu bytes, more than any file holds",
                     (unsigned long long)payload);
        else if (payload > size - HEADER_BYTES
                 || size - HEADER_BYTES - payload < TRAILER_BYTES)
            snprintf(why, sizeof why, "cut short: %zu bytes of %llu", size,
                     (unsigned long long)(payload + HEADER_BYTES
                                          + TRAILER_BYTES));
        else if (size - HEADER_BYTES - payload > TRAILER_BYTES)
            snprintf(why, sizeof why, "it has data after its end");
        else {
            in_buf tail = { data, size, HEADER_BYTES + (size_t)payload, 0 };
            if (get_u64(&tail) != fnv1a(data + HEADER_BYTES,
                                        (size_t)payload))
                snprintf(why, sizeof why, "damaged: its checksum does not "
                         "match");
            else {
                in_buf b = { data + HEADER_BYTES, (size_t)payload, 0, 0 };
                char inner[300];
                status = get_payload(&b, st, format, inner, sizeof inner);
                if (status != SB_OK)
                    snprintf(why, sizeof why, "%s", inner);
            }
        }
    }
    free(data);
    if (why[0]) {
        snprintf(err, len, "state file '%s': %s", path, why);
        sb_state_free(st);
        return status;
    }
    return SB_OK;
}

/* ---- comparing ------------------------------------------------------- */

/* Whether the field 'what' differs between the two runs; if so, says how
   in 'why' (the second run's value first, as merge reports it). */
static int differ_str(const char *what, const char *a, const char *b,
                      char *why, size_t len)
{
    if (strcmp(a, b) == 0)
        return 0;
    snprintf(why, len, "%s '%s' against '%s'", what, b, a);
    return 1;
}

static int differ_num(const char *what, uint64_t a, uint64_t b, char *why,
                      size_t len)
{
    if (a == b)
        return 0;
    snprintf(why, len, "%s %llu against %llu", what, (unsigned long long)b,
             (unsigned long long)a);
    return 1;
}

int sb_state_compatible(const sb_state *a, const sb_state *b, char *why,
                        size_t len)
{
    if (differ_str("algorithm", a->algorithm, b->algorithm, why, len))
        return SB_EINVAL;
    /* A plug-in's path may differ from machine to machine; its file name
       may not. */
    const char *pa = strrchr(a->plugin, '/'), *pb = strrchr(b->plugin, '/');
    pa = pa ? pa + 1 : a->plugin;
    pb = pb ? pb + 1 : b->plugin;
    if (strcmp(pa, pb) != 0) {
        snprintf(why, len, "plug-in '%s' against '%s'",
                 b->plugin[0] ? b->plugin : "(built-in)",
                 a->plugin[0] ? a->plugin : "(built-in)");
        return SB_EINVAL;
    }
    if (differ_str("parameters", a->params, b->params, why, len)
        || differ_str("randomness source", a->rng, b->rng, why, len)
        || differ_num("n =", a->shape.n, b->shape.n, why, len)
        || differ_num("sample kind", (uint64_t)a->shape.kind,
                      (uint64_t)b->shape.kind, why, len)
        || differ_num("sample length", a->shape.len, b->shape.len, why, len)
        || differ_num("hands", a->shape.hands, b->shape.hands, why, len)
        || differ_num("chunk size", a->chunk_samples, b->chunk_samples, why,
                      len)
        || differ_num("block size", a->block_samples, b->block_samples, why,
                      len))
        return SB_EINVAL;
    if (a->stream_version != b->stream_version) {
        snprintf(why, len, "stream version %llu against %llu: made by "
                 "programs whose samples for this run differ",
                 (unsigned long long)b->stream_version,
                 (unsigned long long)a->stream_version);
        return SB_EINVAL;
    }
    char ta[1024], tb[1024];
    sb_state_tests(a, ta, sizeof ta);
    sb_state_tests(b, tb, sizeof tb);
    if (strcmp(ta, tb) != 0) {
        snprintf(why, len, "statistics '%s' against '%s'", tb, ta);
        return SB_EINVAL;
    }
    return SB_OK;
}

void sb_state_tests(const sb_state *st, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < st->n_stats && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s",
                                 i ? "," : "", st->stats[i]->name);
}

void sb_state_free(sb_state *st)
{
    sb_run_counts_free(&st->counts, st->stats, st->n_stats);
    /* An accumulator array whose statistics were not all read: the ones
       read are freed above; the array itself is too. */
    st->n_stats = 0;
}
