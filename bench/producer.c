/*
 * producer.c - a fast outside shuffle, for measuring how fast shufflebias
 * reads decks (scripts/read-speed).
 *
 * A fair Fisher-Yates on xoshiro256** (seeded from SHUFFLEBIAS_SEED through
 * SplitMix64), bounded draws by Lemire's method, writing SHUFFLEBIAS_SAMPLES
 * decks of SHUFFLEBIAS_N cards in SHUFFLEBIAS_FORMAT ("text" or "u8") to
 * standard output through a large buffer.  It is a stand-in for "a user's
 * program that is as fast as it gets", so that the measured rate is the
 * reader's, not the producer's.  Built on its own: cc -O2 producer.c.
 *
 * PRODUCER_POOL=P makes it shuffle P decks once, format them once, and
 * then write them over and over: as fast as a pipe can be filled, for a
 * reader faster than any real shuffle.  The decks then repeat every P
 * samples, so the verdict of such a run means nothing; only its rate does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next(uint64_t s[4])
{
    const uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

static uint64_t below(uint64_t s[4], uint64_t n)
{
    for (;;) {
        unsigned __int128 m = (unsigned __int128)next(s) * n;
        uint64_t low = (uint64_t)m;
        if (low >= n || low >= (0 - n) % n)
            return (uint64_t)(m >> 64);
    }
}

static void shuffle(uint64_t s[4], unsigned char *deck, size_t n)
{
    for (size_t i = 0; i < n; i++)
        deck[i] = (unsigned char)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = below(s, i + 1);
        unsigned char t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* 'pool' decks made and formatted once, written again and again. */
static int write_pool(uint64_t s[4], size_t n, unsigned long long samples,
                      unsigned long pool, int binary, char names[][5],
                      const unsigned char *lens)
{
    char *text = malloc(pool * (5 * n + 1));
    size_t *end = malloc(pool * sizeof *end);
    if (!text || !end)
        return 2;
    size_t used = 0;
    unsigned char deck[256];
    for (unsigned long d = 0; d < pool; d++) {
        shuffle(s, deck, n);
        if (binary) {
            memcpy(text + used, deck, n);
            used += n;
        } else {
            for (size_t i = 0; i < n; i++) {
                memcpy(text + used, names[deck[i]], 4);
                used += lens[deck[i]];
            }
            text[used - 1] = '\n';
        }
        end[d] = used;
    }
    for (unsigned long long k = 0; k < samples; k += pool) {
        unsigned long long left = samples - k;
        size_t bytes = left >= pool ? used : end[left - 1];
        if (fwrite(text, 1, bytes, stdout) != bytes)
            return 0;                /* the reader closed the pipe */
    }
    free(text);
    free(end);
    return fflush(stdout) != 0;
}

static unsigned long env(const char *name, unsigned long def)
{
    const char *v = getenv(name);
    return v ? strtoul(v, NULL, 10) : def;
}

int main(void)
{
    const size_t n = env("SHUFFLEBIAS_N", 52);
    const unsigned long long samples = env("SHUFFLEBIAS_SAMPLES", 1000000);
    const char *format = getenv("SHUFFLEBIAS_FORMAT");
    const int binary = format && strcmp(format, "u8") == 0;
    if (n < 1 || n > 256) {
        fprintf(stderr, "producer: n must be 1..256\n");
        return 2;
    }
    uint64_t seed = env("SHUFFLEBIAS_SEED", 1), s[4];
    for (int i = 0; i < 4; i++)
        s[i] = splitmix(&seed);
    /* "17 " for every card number: a deck line is n copies. */
    char names[256][5];
    unsigned char lens[256];
    for (size_t c = 0; c < n; c++)
        lens[c] = (unsigned char)snprintf(names[c], sizeof names[c], "%zu ",
                                          c);
    static char buf[1 << 20];
    size_t used = 0;
    unsigned char deck[256];
    const unsigned long pool = env("PRODUCER_POOL", 0);
    if (pool > 0)
        return write_pool(s, n, samples, pool, binary, names, lens);
    for (unsigned long long k = 0; k < samples; k++) {
        shuffle(s, deck, n);
        if (sizeof buf - used < 5 * n + 1) {
            if (fwrite(buf, 1, used, stdout) != used)
                return 0;           /* the reader closed the pipe */
            used = 0;
        }
        if (binary) {
            memcpy(buf + used, deck, n);
            used += n;
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(buf + used, names[deck[i]], 4);
            used += lens[deck[i]];
        }
        buf[used - 1] = '\n';
    }
    fwrite(buf, 1, used, stdout);
    return fflush(stdout) != 0;
}
