/*
 * input.c - the deck reader: recorded decks, standard input, a program's
 * output (the contract is in input.h).
 *
 * Reading must never be what limits a run: a statistic battery counts
 * about a million 52-card decks a second on one core, so the reader has to
 * turn bytes into checked samples faster than that.  It is built for it:
 *
 *   - read(2) into one large buffer (1 MiB, doubled for a longer line up
 *     to 64 MiB), lines found with memchr, every value parsed in place by
 *     hand - no per-number strtol, no copy of the line, no allocation per
 *     sample;
 *   - duplicates found with a "stamp" per card: sample g marks card c by
 *     writing g into stamp[c], so a card seen twice is one whose stamp
 *     already reads g, and nothing is cleared between samples (the stamps
 *     are cleared once every 2^32 samples, when the counter wraps);
 *   - binary records checked straight from the buffer.
 * A memory input (tests, the fuzzer) is read in place through the same
 * code, as a buffer that is already full and whose source has ended.
 *
 * Waiting: with a file descriptor the reader waits in poll(2) at most
 * 0.2 s at a time and looks at the caller's stop flag between waits, so a
 * Ctrl-C while the producing program is silent ends the read (with every
 * sample read so far) instead of hanging; EINTR and EAGAIN only mean
 * "wait again".  The flag is also looked at before every read(2), so a
 * producer that never pauses cannot keep a stopped reader going.  After
 * each wait without a byte the caller's 'waiting' hook, when given, may
 * end the input there or stop the reading (a program gone silent, or gone
 * while what it left in the background holds the pipe).  An end is not
 * taken at once: bytes may have come between the wait and the hook's
 * answer (a program that wrote its last samples, then exited), so the
 * reader goes on reading whatever is ready without waiting, and ends at
 * the first look that finds nothing.
 *
 * Checking: every sample is checked in full before it is counted - the
 * number of values, each value's range, no card twice, every hand of a
 * deal holding its n / H cards.  The first fault met reading from the
 * left is the one reported, with the offending token quoted as written;
 * a wrong number of values is known only at the end of the line (values
 * past the expected number are counted, not checked), and a hand holding
 * the wrong number of cards only once every card is placed.  Numbers are
 * accumulated with saturation (any value of 10^9 or more reads as "too
 * large"), so 99999999999 is out of range, never a small number after
 * wrapping.  Cards and hands are named in the user's numbering (from 1
 * with 'one_based').  Messages give the line L (counting every line,
 * blank and comment lines too) and the sample S (counting only sample
 * lines, valid or bad) in the text formats; in the binary formats the
 * sample and the byte offset from the start of the input (from 0, as od
 * and xxd show it) of the offending value, or of the record when the
 * fault is the whole record's (a hand's count, a record cut short).
 *
 * Card names (cards format): rank 2..9, 10 or T, J, Q, K, A, then suit C,
 * D, H, S in either case or a suit symbol in UTF-8 (black or white:
 * U+2660..U+2667).  Card = suit * 13 + rank, with ranks 2..A = 0..12 and
 * suits clubs, diamonds, hearts, spades, as in stats/cards.h: 2C = 0,
 * AC = 12, 2D = 13, AS = 51.  Only names are read there; a number is an
 * error that says so.  A deal in card names always lists its hands,
 * separated by '|' (the hand-number form needs no card names: it is read
 * with the text format).  In the text format a deal line that holds '|'
 * outside its comment lists the hands, any other line gives the hand of
 * each card.  A card order maps every card name through 'number' (the
 * default is the identity); PBN deals go through it too.
 *
 * PBN (pbn format): a deal "F:hand hand hand hand" is read hand by hand
 * into the card -> seat map, stamping cards as the other formats do, so
 * a card twice is caught where it is met and a hand's count once the
 * deal is placed.  The only state across lines is whether a tag was seen
 * (then only Deal tags are deals) and whether a {commentary} is open.
 *
 * Quoting: every byte of the input a message shows goes through shown(),
 * which escapes what a terminal would hide or act on (C0 and C1
 * controls, DEL, the byte-order mark, bytes of no valid UTF-8 character)
 * as \xNN and never cuts an escape or a character in two.  Hints for
 * common mistakes (1-based numbers, card names or PBN read as numbers, a
 * byte-order mark, a first sample of another size) are added only where
 * the sample is already known to be bad, so the hot path pays nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include "sources/input.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shufflebias/status.h"
#include "stats/cards.h"

#define BUF_FIRST ((size_t)1 << 20)   /* the buffer's first size */
#define BUF_MAX ((size_t)64 << 20)    /* the longest line held */
#define WAIT_MS 200                   /* longest wait between stop looks */
#define TOKEN_SHOWN 40                /* bytes of a token quoted, at most */
#define LAST_SHOWN 120                /* characters of the last line kept */
#define WHY_MAX 200                   /* a reason, before its position */
#define NAME_SHOWN 60                 /* bytes of the input's name shown */
/* Numbers are accumulated while below this, then saturate at UINT32_MAX:
   exact up to 999,999,999, and every larger one is out of any range. */
#define SATURATE 100000000u

/* What parsing a line or record found. */
enum { LINE_OK = 0, LINE_BAD = 1, LINE_BLANK = 2 };

/* What waiting for a line found (an error is kept in 'status'). */
enum { MORE = 1, NO_MORE = 0, STOPPED = -1, FAILED = -2 };

/* Bytes that end a word in the text formats: blanks, the separators, and
   the start of a comment. */
static const unsigned char ends_word[256] = {
    [' '] = 1, ['\t'] = 1, [','] = 1, ['|'] = 1, ['#'] = 1
};

static const char *const format_names[] = { "text", "cards", "u8", "u16",
                                            "pbn" };
#define N_FORMATS 5u

/* Whether 'f' is one of the binary formats (no lines). */
static int binary(sb_format f)
{
    return f == SB_FORMAT_U8 || f == SB_FORMAT_U16;
}

struct sb_input {
    sb_input_spec spec;       /* as opened ('stop' included) */
    sb_shape shape;           /* len settled once known (0: not yet) */
    int fd;                   /* -1 for a memory input */
    const unsigned char *buf; /* the bytes: 'own', or the caller's */
    unsigned char *own;       /* the buffer read(2) fills (fd only) */
    size_t cap;               /* size of 'own' */
    size_t pos, lim;          /* unread bytes are buf[pos..lim) */
    size_t scanned;           /* bytes after pos known to hold no '\n' */
    uint64_t base;            /* offset in the input of buf[0] */
    int ended;                /* the source has no more bytes */
    int draining;             /* 'waiting' said SB_INPUT_END: read what is
                                 ready, then end (no more waits) */
    int eof;                  /* ... and every sample was returned */
    int status;               /* a sticky error, else SB_OK */
    uint64_t line;            /* lines read (text) */
    uint64_t seen;            /* samples read, valid and bad */
    uint64_t invalid;         /* bad samples skipped */
    uint32_t *stamp;          /* per card: the last sample that held it */
    uint32_t gen;             /* the current sample's stamp */
    uint32_t *count;          /* per hand: cards counted (deals) */
    sb_card *scratch;         /* a sample checked ahead (DRAW, len 0) */
    unsigned char number[52];  /* card of stats/cards.h -> its number in
                                  the card order (cards, pbn) */
    unsigned char card_of[52]; /* ... and back */
    int pbn_tags;             /* pbn: a tag line was read, so only Deal
                                 tags hold deals */
    int pbn_brace;            /* pbn: inside a {commentary} */
    const unsigned char *last_ptr; /* the last sample line, not yet kept */
    size_t last_len;
    char last[LAST_SHOWN + 1];     /* the last sample line, kept */
    char why[WHY_MAX];             /* what is wrong with the sample */
    char error[SB_INPUT_MSG];
    char listed[SB_INPUT_LISTED][SB_INPUT_MSG];
};

const char *sb_format_str(sb_format f)
{
    return (unsigned)f < N_FORMATS ? format_names[f] : "?";
}

int sb_format_find(const char *name, sb_format *out)
{
    for (unsigned i = 0; i < N_FORMATS; i++)
        if (strcmp(name, format_names[i]) == 0) {
            *out = (sb_format)i;
            return SB_OK;
        }
    return SB_ENOTFOUND;
}

/* ---- messages ---------------------------------------------------------- */

/* The first unit of the 'len' > 0 bytes at 's' as a message shows it:
   its length in bytes, and whether it is shown escaped (each byte as
   \xNN).  A unit is one valid UTF-8 character, shown as it is unless it
   is a control character (C0, DEL, C1) or the byte-order mark U+FEFF,
   which would be invisible or would move the terminal; or one byte that
   starts no valid character (overlong forms, surrogates and values past
   U+10FFFF included), shown escaped. */
static size_t text_unit(const unsigned char *s, size_t len, int *esc)
{
    const unsigned c = s[0];
    *esc = 1;
    if (c < 0x80u) {
        *esc = c < 0x20u || c == 0x7Fu;
        return 1;
    }
    size_t need;
    unsigned lo = 0x80u, hi = 0xBFu;     /* the range of the second byte */
    if (c >= 0xC2u && c <= 0xDFu)
        need = 1;
    else if (c >= 0xE0u && c <= 0xEFu) {
        need = 2;
        if (c == 0xE0u)
            lo = 0xA0u;
        else if (c == 0xEDu)
            hi = 0x9Fu;
    } else if (c >= 0xF0u && c <= 0xF4u) {
        need = 3;
        if (c == 0xF0u)
            lo = 0x90u;
        else if (c == 0xF4u)
            hi = 0x8Fu;
    } else {
        return 1;
    }
    if (len <= need || s[1] < lo || s[1] > hi)
        return 1;
    for (size_t i = 2; i <= need; i++)
        if ((s[i] & 0xC0u) != 0x80u)
            return 1;
    const int c1 = c == 0xC2u && s[1] < 0xA0u;
    const int bom = c == 0xEFu && s[1] == 0xBBu && s[2] == 0xBFu;
    *esc = c1 || bom;
    return need + 1;
}

/* Copy 'len' bytes of 'src' into 'dst' (room for 'max' >= 8 characters
   and the terminator), escaped as text_unit says, a longer text cut with
   "..." between two units. */
static void shown(char *dst, size_t max, const unsigned char *src,
                  size_t len)
{
    size_t full = 0;            /* characters of the whole text shown */
    for (size_t i = 0, u; i < len && full <= max; i += u) {
        int esc;
        u = text_unit(src + i, len - i, &esc);
        full += esc ? 4 * u : u;
    }
    const size_t room = full <= max ? max : max - 3;
    size_t k = 0, i = 0;
    while (i < len) {
        int esc;
        const size_t u = text_unit(src + i, len - i, &esc);
        const size_t w = esc ? 4 * u : u;
        if (k + w > room)
            break;
        for (size_t j = 0; j < u; j++) {
            if (esc) {
                snprintf(dst + k, 5, "\\x%02X", src[i + j]);
                k += 4;
            } else {
                dst[k++] = (char)src[i + j];
            }
        }
        i += u;
    }
    if (i < len)
        memcpy(dst + k, "...", 3), k += 3;
    dst[k] = '\0';
}

/* The token [w, e) as written, cut to TOKEN_SHOWN. */
typedef struct token_text {
    char s[TOKEN_SHOWN + 1];
} token_text;

static token_text token(const unsigned char *w, const unsigned char *e)
{
    token_text t;
    shown(t.s, TOKEN_SHOWN, w, (size_t)(e - w));
    return t;
}

/* Set the reason the current sample is bad; returns LINE_BAD. */
__attribute__((format(printf, 2, 3)))
static int bad(sb_input *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->why, sizeof in->why, fmt, ap);
    va_end(ap);
    return LINE_BAD;
}

static int empty_field(sb_input *in)
{
    return bad(in, "an empty field (a comma with no value before or "
               "after it)");
}

static int unexpected_bar(sb_input *in)
{
    return bad(in, "unexpected '|' (only the hands of a deal are "
               "separated by '|')");
}

/* The name of card c (c < 52): "10D", "AS". */
static void card_name(char out[4], unsigned c)
{
    static const char *const ranks[SB_CARD_RANKS] = {
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"
    };
    snprintf(out, 4, "%s%c", ranks[sb_card_rank(c)], "CDHS"[sb_card_suit(c)]);
}

/* The sample just read is bad (the reason in 'why'): under skip_invalid
   count and list it and return 0; else keep the message as the reader's
   error and return 1. */
static int reject(sb_input *in, const char *where)
{
    char msg[SB_INPUT_MSG];
    /* Only a long name with a long reason fills it: the end of the reason
       is then cut, never the place. */
    if (snprintf(msg, sizeof msg, "%s: %s", where, in->why)
        >= (int)sizeof msg)
        memcpy(msg + sizeof msg - 4, "...", 4);
    if (in->spec.skip_invalid) {
        if (in->invalid < SB_INPUT_LISTED)
            memcpy(in->listed[in->invalid], msg, sizeof msg);
        in->invalid++;
        const uint64_t good = in->seen - in->invalid;
        if (in->invalid <= SB_INPUT_GIVE_UP || in->invalid <= good)
            return 0;
        snprintf(in->error, sizeof in->error, "%llu of the %llu samples "
                 "read were bad: check --n, --kind, --hands and --format",
                 (unsigned long long)in->invalid,
                 (unsigned long long)in->seen);
        in->status = SB_EINVAL;
        return 1;
    }
    memcpy(in->error, msg, sizeof msg);
    in->status = SB_EINVAL;
    return 1;
}

/* The input's name as messages show it: escaped, and a long one cut to
   its last NAME_SHOWN bytes or so, so that the reason after it is never
   the part cut off. */
typedef struct name_text {
    char s[NAME_SHOWN + 8];
} name_text;

static name_text input_name(const sb_input *in)
{
    name_text t;
    const unsigned char *name = (const unsigned char *)in->spec.name;
    size_t len = strlen(in->spec.name), cut = 0;
    if (len > NAME_SHOWN) {
        cut = len - (NAME_SHOWN - 3);
        while (cut < len && (name[cut] & 0xC0u) == 0x80u)
            cut++;
        memcpy(t.s, "...", 3);
    }
    shown(t.s + (cut ? 3 : 0), NAME_SHOWN + 4 - (cut ? 3 : 0), name + cut,
          len - cut);
    return t;
}

/* Where the current line is: "NAME:L (sample S)", or "line L (sample S)"
   without a name. */
static void line_where(const sb_input *in, char *where, size_t size)
{
    if (in->spec.name)
        snprintf(where, size, "%s:%llu (sample %llu)", input_name(in).s,
                 (unsigned long long)in->line, (unsigned long long)in->seen);
    else
        snprintf(where, size, "line %llu (sample %llu)",
                 (unsigned long long)in->line, (unsigned long long)in->seen);
}

static int reject_line(sb_input *in)
{
    char where[NAME_SHOWN + 64];
    line_where(in, where, sizeof where);
    return reject(in, where);
}

static int reject_record(sb_input *in, uint64_t byte)
{
    char where[NAME_SHOWN + 64];
    snprintf(where, sizeof where, "%s%ssample %llu (byte %llu)",
             in->spec.name ? input_name(in).s : "",
             in->spec.name ? ": " : "", (unsigned long long)in->seen,
             (unsigned long long)byte);
    return reject(in, where);
}

/* Keep the last sample line before the buffer under it moves. */
static void keep_last_line(sb_input *in)
{
    if (in->last_ptr) {
        shown(in->last, LAST_SHOWN, in->last_ptr, in->last_len);
        in->last_ptr = NULL;
    }
}

/* ---- checking one sample --------------------------------------------- */

/* A new stamp for the next sample. */
static inline uint32_t next_gen(sb_input *in)
{
    if (++in->gen == 0) {
        memset(in->stamp, 0, in->shape.n * sizeof *in->stamp);
        in->gen = 1;
    }
    return in->gen;
}

/* What to add to "card 52 is out of range 0..51" when the value 'v' is
   the one past the top of a 0-based range (most likely the numbers count
   from 1), or 0 in a 1-based one (they count from 0). */
static const char *one_based_hint(const sb_input *in, uint32_t v, size_t lim,
                                  int deal)
{
    if (in->spec.one_based)
        return v != 0 ? ""
             : deal ? "; hands from 0? drop --one-based"
                    : "; numbers from 0? drop --one-based";
    if (v != lim)
        return "";
    return deal ? "; hands from 1? use --one-based"
                : "; numbers from 1? use --one-based";
}

/* The value 'v' as written (token [w, e)) is out of 0..lim-1 (shifted by
   one when one-based). */
static int out_of_range(sb_input *in, const char *what, const unsigned char *w,
                        const unsigned char *e, uint32_t v, size_t lim)
{
    const unsigned ob = in->spec.one_based ? 1u : 0u;
    return bad(in, "%s %s is out of range %u..%zu%s", what, token(w, e).s, ob,
               lim - 1 + ob, one_based_hint(in, v, lim, what[0] == 'h'));
}

/* After a deal's cards are placed: every hand holds n / H cards. */
static int check_hands(sb_input *in)
{
    const unsigned H = in->shape.hands, ob = in->spec.one_based ? 1u : 0u;
    const uint32_t share = (uint32_t)(in->shape.n / H);
    for (unsigned h = 0; h < H; h++)
        if (in->count[h] != share)
            return bad(in, "hand %u holds %u cards, %u expected", h + ob,
                       in->count[h], share);
    return LINE_OK;
}

/* A sample of 'found' values where shape.len were expected.  When no
   sample before it was valid, the size given is the likelier mistake
   than the sample: say which option would take it. */
static int wrong_count(sb_input *in, size_t found)
{
    char hint[96] = "";
    if (in->seen == in->invalid && found > 0)
        snprintf(hint, sizeof hint, "; the sample has %zu values: is --%s "
                 "%zu meant?", found,
                 in->shape.kind == SB_KIND_DRAW ? "draw" : "n", found);
    if (in->shape.kind == SB_KIND_DEAL)
        return bad(in, "%zu values expected (the hand of each card), %zu "
                   "found%s", in->shape.len, found, hint);
    return bad(in, "%zu cards expected, %zu found%s", in->shape.len, found,
               hint);
}

static int read_card_name(const unsigned char *w, const unsigned char *e);

/* What to add to "'AS' is not a card number": the format that reads the
   token [w, e), when it is a card name, a PBN deal or starts with a
   byte-order mark. */
static const char *number_hint(const unsigned char *w, const unsigned char *e)
{
    const size_t len = (size_t)(e - w);
    if (len >= 3 && w[0] == 0xEFu && w[1] == 0xBBu && w[2] == 0xBFu)
        return "; the input starts with a UTF-8 byte-order mark: save it "
               "without one";
    if (read_card_name(w, e) >= 0)
        return "; card names? use --format cards";
    if (len > 2 && w[1] == ':' && w[0] && strchr("NESWnesw", w[0]))
        return "; a PBN deal? use --format pbn";
    return "";
}

/* A text line of numbers: the cards of a permutation or a draw, or the
   hand of each card of a deal.  The hot path of the text format. */
static int count_words(sb_input *in, const unsigned char *p, size_t n,
                       size_t *found);

static int parse_numbers(sb_input *in, const unsigned char *p,
                         const unsigned char *end, sb_card *out)
{
    const unsigned char *const line = p;
    const int deal = in->shape.kind == SB_KIND_DEAL;
    const size_t len = in->shape.len;
    const uint32_t ob = in->spec.one_based ? 1u : 0u;
    const uint32_t lim = deal ? in->shape.hands : (uint32_t)in->shape.n;
    uint32_t *const stamp = in->stamp, *const count = in->count;
    const uint32_t gen = next_gen(in);
    if (deal)
        memset(count, 0, in->shape.hands * sizeof *count);
    size_t i = 0;
    int comma = 0;          /* a comma seen, no value after it yet */
    while (p < end) {
        const unsigned c = *p;
        if (c == ' ' || c == '\t') {
            p++;
            continue;
        }
        if (c == ',') {
            if (comma || i == 0)
                return empty_field(in);
            comma = 1;
            p++;
            continue;
        }
        if (c == '#')
            break;
        if (c == '|')
            return unexpected_bar(in);
        const unsigned char *w = p;
        uint32_t v = 0;
        while (p < end && (unsigned)(*p - '0') < 10u) {
            v = v < SATURATE ? v * 10u + (uint32_t)(*p - '0') : UINT32_MAX;
            p++;
        }
        if (p == w || (p < end && !ends_word[*p])) {
            while (p < end && !ends_word[*p])
                p++;
            return bad(in, "'%s' is not a %s number%s", token(w, p).s,
                       deal ? "hand" : "card", number_hint(w, p));
        }
        comma = 0;
        if (i < len) {
            /* One comparison also catches a 0 read one-based: it wraps
               to the top of the range. */
            const uint32_t x = v - ob;
            if (x >= lim) {
                /* A sample of another size than the deck: the value out
                   of range only follows from that (52 cards read with
                   --n 51), and so does the fix. */
                size_t found;
                if (count_words(in, line, (size_t)(end - line), &found)
                        == LINE_OK && found != len)
                    return wrong_count(in, found);
                return out_of_range(in, deal ? "hand" : "card", w, p, v,
                                    lim);
            }
            if (deal) {
                count[x]++;
            } else {
                if (stamp[x] == gen)
                    return bad(in, "card %s appears twice", token(w, p).s);
                stamp[x] = gen;
            }
            out[i] = (sb_card)x;
        }
        i++;
    }
    if (comma)
        return empty_field(in);
    if (i == 0)
        return LINE_BLANK;
    if (i != len)
        return wrong_count(in, i);
    return deal ? check_hands(in) : LINE_OK;
}

/* Rank + 1 of a rank letter or digit, suit + 1 of a suit letter, 0 for
   any other byte: table lookups, as a switch on random cards mispredicts
   at every card. */
static const unsigned char rank_code[256] = {
    ['2'] = 1, ['3'] = 2, ['4'] = 3, ['5'] = 4, ['6'] = 5, ['7'] = 6,
    ['8'] = 7, ['9'] = 8, ['T'] = 9, ['t'] = 9, ['J'] = 10, ['j'] = 10,
    ['Q'] = 11, ['q'] = 11, ['K'] = 12, ['k'] = 12, ['A'] = 13, ['a'] = 13
};
static const unsigned char suit_code[256] = {
    ['C'] = 1, ['c'] = 1, ['D'] = 2, ['d'] = 2, ['H'] = 3, ['h'] = 3,
    ['S'] = 4, ['s'] = 4
};

/* The card named [w, e): 0..51, -1 for no card name, -2 for a number. */
static int read_card_name(const unsigned char *w, const unsigned char *e)
{
    const size_t len = (size_t)(e - w);
    if (len == 0)
        return -1;
    unsigned rank = rank_code[w[0]];
    size_t k = 1;
    if (len >= 2 && w[0] == '1' && w[1] == '0') {
        rank = SB_RANK_TEN + 1;
        k = 2;
    }
    unsigned suit = 0;
    if (len - k == 1) {
        suit = suit_code[w[k]];
    } else if (len - k == 3 && w[k] == 0xE2u && w[k + 1] == 0x99u &&
               w[k + 2] >= 0xA0u && w[k + 2] <= 0xA7u) {
        /* U+2660..U+2667: black spade, white heart, white diamond, black
           club, white spade, black heart, black diamond, white club. */
        static const unsigned char symbol_suit[8] = { 4, 3, 2, 1, 4, 3, 2, 1 };
        suit = symbol_suit[w[k + 2] - 0xA0u];
    }
    if (rank && suit)
        return (int)((suit - 1) * SB_CARD_RANKS + rank - 1);
    for (size_t i = 0; i < len; i++)
        if ((unsigned)(w[i] - '0') >= 10u)
            return -1;
    return -2;
}

/* The card written [w, e) in the reader's format, in 0..n-1; LINE_BAD
   with the reason when it is none. */
static int read_card(sb_input *in, const unsigned char *w,
                     const unsigned char *e, uint32_t *card)
{
    const size_t n = in->shape.n;
    if (in->spec.format == SB_FORMAT_CARDS) {
        const int c = read_card_name(w, e);
        if (c == -2)
            return bad(in, "'%s' is a number; the cards format reads card "
                       "names such as AS or 10D", token(w, e).s);
        if (c < 0)
            return bad(in, "unknown card name '%s'%s", token(w, e).s,
                       number_hint(w, e));
        const unsigned x = in->number[c];
        if (x >= n) {
            char first[4], top[4];
            card_name(first, in->card_of[0]);
            card_name(top, in->card_of[n - 1]);
            return bad(in, "card %s is out of range %s..%s", token(w, e).s,
                       first, top);
        }
        *card = x;
        return LINE_OK;
    }
    uint32_t v = 0;
    for (const unsigned char *p = w; p < e; p++) {
        if ((unsigned)(*p - '0') >= 10u)
            return bad(in, "'%s' is not a card number%s", token(w, e).s,
                       number_hint(w, e));
        v = v < SATURATE ? v * 10u + (uint32_t)(*p - '0') : UINT32_MAX;
    }
    const uint32_t x = v - (in->spec.one_based ? 1u : 0u);
    if (x >= n)
        return out_of_range(in, "card", w, e, v, n);
    *card = x;
    return LINE_OK;
}

/* A text line of words: card names of a permutation or a draw (cards),
   or - 'lists' - a deal as H hands of cards separated by '|' (card
   numbers in text, names in cards). */
static int parse_words(sb_input *in, const unsigned char *p,
                       const unsigned char *end, sb_card *out, int lists)
{
    const size_t len = in->shape.len;
    const unsigned H = in->shape.hands;
    uint32_t *const stamp = in->stamp, *const count = in->count;
    const uint32_t gen = next_gen(in);
    if (lists)
        memset(count, 0, H * sizeof *count);
    size_t i = 0;           /* cards on the line */
    size_t g = 0;           /* the hand being read (lists) */
    size_t in_group = 0;    /* cards in it so far */
    int comma = 0;
    while (p < end) {
        const unsigned c = *p;
        if (c == ' ' || c == '\t') {
            p++;
            continue;
        }
        if (c == ',') {
            if (comma || (lists ? in_group : i) == 0)
                return empty_field(in);
            comma = 1;
            p++;
            continue;
        }
        if (c == '#')
            break;
        if (c == '|') {
            if (!lists)
                return unexpected_bar(in);
            if (comma)
                return empty_field(in);
            g++;
            in_group = 0;
            p++;
            continue;
        }
        const unsigned char *w = p;
        while (p < end && !ends_word[*p])
            p++;
        comma = 0;
        if (!lists && i >= len) {
            i++;             /* too many: only counted */
            continue;
        }
        uint32_t x = 0;
        if (read_card(in, w, p, &x) != LINE_OK)
            return LINE_BAD;
        if (stamp[x] == gen)
            return bad(in, "card %s appears twice", token(w, p).s);
        stamp[x] = gen;
        if (lists) {
            if (g < H)
                count[g]++;
            out[x] = (sb_card)g;
            in_group++;
        } else {
            out[i] = (sb_card)x;
        }
        i++;
    }
    if (comma)
        return empty_field(in);
    if (i == 0 && g == 0)
        return LINE_BLANK;
    if (!lists)
        return i == len ? LINE_OK : wrong_count(in, i);
    if (g + 1 != H) {
        if (g == 0)
            return bad(in, "%u hands separated by '|' expected, 1 found", H);
        return bad(in, "%u hands expected, %zu found", H, g + 1);
    }
    return check_hands(in);
}

/* ---- PBN ---------------------------------------------------------------- */

static const char seat_letter[4] = { 'N', 'E', 'S', 'W' };

/* The seat of a letter N, E, S, W (either case), or -1. */
static int seat_of(unsigned c)
{
    switch (c | 0x20u) {
    case 'n': return 0;
    case 'e': return 1;
    case 's': return 2;
    case 'w': return 3;
    default: return -1;
    }
}

/* The rank (0 = two .. 12 = ace) of a PBN rank letter, or -1. */
static int pbn_rank(unsigned c)
{
    const unsigned r = rank_code[c];
    return r ? (int)r - 1 : -1;
}

static int is_blank(unsigned c)
{
    return c == ' ' || c == '\t';
}

/* A PBN deal "F:h h h h" in [p, e) into 'out' (the card -> seat map, in
   the reader's card order).  A hand '-' is unknown: the only one may be,
   and gets the cards the others leave. */
static int pbn_deal(sb_input *in, const unsigned char *p,
                    const unsigned char *e, sb_card *out)
{
    uint32_t *const stamp = in->stamp, *const count = in->count;
    const uint32_t gen = next_gen(in);
    memset(count, 0, 4 * sizeof *count);
    const int first = p < e ? seat_of(*p) : -1;
    if (first < 0 || e - p < 2 || p[1] != ':') {
        const unsigned char *w = p;
        while (w < e && !is_blank(*w))
            w++;
        return bad(in, "'%s' is not a PBN deal: it starts with the first "
                   "seat and a colon, such as N:", token(p, w).s);
    }
    p += 2;
    int unknown = -1;
    unsigned h = 0;
    for (;; h++) {
        while (p < e && is_blank(*p))
            p++;
        if (p == e)
            break;
        if (h == 4)
            return bad(in, "more than 4 hands in the deal");
        const int seat = (first + (int)h) % 4;
        const unsigned char *w = p;
        while (p < e && !is_blank(*p))
            p++;
        if (p - w == 1 && *w == '-') {
            if (unknown >= 0)
                return bad(in, "the hands of %c and %c are both unknown "
                           "('-'): the deal cannot be completed",
                           seat_letter[unknown], seat_letter[seat]);
            unknown = seat;
            continue;
        }
        unsigned suit = 3;                  /* spades first, in cards.h's */
        for (const unsigned char *q = w; q < p; q++) {
            if (*q == '.') {
                if (suit == 0)
                    return bad(in, "the hand of %c '%s' has more than 4 "
                               "suits", seat_letter[seat], token(w, p).s);
                suit--;
                continue;
            }
            int rank = pbn_rank(*q);
            if (*q == '1' && q + 1 < p && q[1] == '0') {
                rank = SB_RANK_TEN;
                q++;
            }
            if (rank < 0)
                return bad(in, "'%s' in the hand of %c '%s' is not a rank "
                           "(AKQJT98765432)", token(q, q + 1).s,
                           seat_letter[seat], token(w, p).s);
            const unsigned c = suit * SB_CARD_RANKS + (unsigned)rank;
            const unsigned x = in->number[c];
            if (stamp[x] == gen) {
                char name[4];
                card_name(name, c);
                return bad(in, "card %s appears twice", name);
            }
            stamp[x] = gen;
            out[x] = (sb_card)seat;
            count[seat]++;
        }
        if (suit != 0)
            return bad(in, "the hand of %c '%s' has %u suits, 4 expected "
                       "(spades.hearts.diamonds.clubs)", seat_letter[seat],
                       token(w, p).s, 4 - suit);
    }
    if (h != 4)
        return bad(in, "4 hands expected, %u found", h);
    if (unknown >= 0)
        for (unsigned x = 0; x < 52; x++)
            if (stamp[x] != gen) {
                out[x] = (sb_card)unknown;
                count[unknown]++;
            }
    for (unsigned s = 0; s < 4; s++)
        if (count[s] != 13)
            return bad(in, "the hand of %c holds %u cards, 13 expected",
                       seat_letter[s], count[s]);
    return LINE_OK;
}

/* One line of PBN: a deal, a [Deal "..."] tag, or something skipped
   (LINE_BLANK): another tag, once a tag was read any line that is not
   one, '%' lines, ';' comments, {commentary} over any lines. */
static int parse_pbn(sb_input *in, const unsigned char *p, size_t n,
                     sb_card *out)
{
    const unsigned char *end = p + n;
    for (;;) {
        if (in->pbn_brace) {
            const unsigned char *close = memchr(p, '}', (size_t)(end - p));
            if (!close)
                return LINE_BLANK;
            in->pbn_brace = 0;
            p = close + 1;
        }
        while (p < end && is_blank(*p))
            p++;
        if (p == end || *p == '%' || *p == ';')
            return LINE_BLANK;
        if (*p != '{')
            break;
        in->pbn_brace = 1;
        p++;
    }
    if (*p == '[') {
        in->pbn_tags = 1;
        const unsigned char *q = p + 1;
        while (q < end && is_blank(*q))
            q++;
        if (end - q < 4 || memcmp(q, "Deal", 4) != 0
            || (q + 4 < end && !is_blank(q[4]) && q[4] != '"'))
            return LINE_BLANK;
        q += 4;
        while (q < end && is_blank(*q))
            q++;
        const unsigned char *v = q < end && *q == '"' ? q + 1 : NULL;
        const unsigned char *ve = v ? memchr(v, '"', (size_t)(end - v))
                                    : NULL;
        const unsigned char *r = ve ? ve + 1 : end;
        while (r < end && is_blank(*r))
            r++;
        if (!ve || r == end || *r != ']')
            return bad(in, "a Deal tag is written [Deal \"N:...\"]: '%s'",
                       token(p, end).s);
        return pbn_deal(in, v, ve, out);
    }
    if (in->pbn_tags)
        return LINE_BLANK;
    const unsigned char *semi = memchr(p, ';', (size_t)(end - p));
    if (semi)
        end = semi;
    while (end > p && is_blank(end[-1]))
        end--;
    return pbn_deal(in, p, end, out);
}

/* One text line (CR and LF cut off) into 'out'. */
static int parse_line(sb_input *in, const unsigned char *p, size_t n,
                      sb_card *out)
{
    const unsigned char *end = p + n;
    if (in->spec.format == SB_FORMAT_PBN)
        return parse_pbn(in, p, n, out);
    if (in->spec.format == SB_FORMAT_CARDS)
        return parse_words(in, p, end, out, in->shape.kind == SB_KIND_DEAL);
    if (in->shape.kind == SB_KIND_DEAL) {
        const unsigned char *bar = memchr(p, '|', n);
        if (bar && !memchr(p, '#', (size_t)(bar - p)))
            return parse_words(in, p, end, out, 1);
    }
    return parse_numbers(in, p, end, out);
}

/* The number of values on a text line (the syntax checked, not the
   values): LINE_OK, LINE_BLANK or LINE_BAD. */
static int count_words(sb_input *in, const unsigned char *p, size_t n,
                       size_t *found)
{
    const unsigned char *end = p + n;
    size_t i = 0;
    int comma = 0;
    while (p < end) {
        const unsigned c = *p;
        if (c == ' ' || c == '\t') {
            p++;
        } else if (c == ',') {
            if (comma || i == 0)
                return empty_field(in);
            comma = 1;
            p++;
        } else if (c == '#') {
            break;
        } else if (c == '|') {
            return unexpected_bar(in);
        } else {
            while (p < end && !ends_word[*p])
                p++;
            comma = 0;
            i++;
        }
    }
    if (comma)
        return empty_field(in);
    *found = i;
    return i ? LINE_OK : LINE_BLANK;
}

/* One binary record at 'r' into 'out'; 'at' is the input offset of r. */
static int parse_record(sb_input *in, const unsigned char *r, sb_card *out,
                        uint64_t *at)
{
    const int deal = in->shape.kind == SB_KIND_DEAL;
    const int wide = in->spec.format == SB_FORMAT_U16;
    const size_t len = in->shape.len;
    const uint32_t ob = in->spec.one_based ? 1u : 0u;
    const uint32_t lim = deal ? in->shape.hands : (uint32_t)in->shape.n;
    uint32_t *const stamp = in->stamp, *const count = in->count;
    const uint32_t gen = next_gen(in);
    if (deal)
        memset(count, 0, in->shape.hands * sizeof *count);
    for (size_t i = 0; i < len; i++) {
        const uint32_t v = wide ? (uint32_t)r[2 * i] |
                                  (uint32_t)r[2 * i + 1] << 8
                                : r[i];
        const uint32_t x = v - ob;
        if (x >= lim) {
            *at += wide ? 2 * i : i;
            return bad(in, "%s %u is out of range %u..%u%s",
                       deal ? "hand" : "card", v, ob, lim - 1 + ob,
                       one_based_hint(in, v, lim, deal));
        }
        if (deal) {
            count[x]++;
        } else {
            if (stamp[x] == gen) {
                *at += wide ? 2 * i : i;
                return bad(in, "card %u appears twice", v);
            }
            stamp[x] = gen;
        }
        out[i] = (sb_card)x;
    }
    return deal ? check_hands(in) : LINE_OK;
}

/* ---- the bytes --------------------------------------------------------- */

static int io_error(sb_input *in, int e)
{
    if (in->spec.name)
        snprintf(in->error, sizeof in->error, "cannot read '%s': %s",
                 input_name(in).s, strerror(e));
    else
        snprintf(in->error, sizeof in->error, "cannot read the input: %s",
                 strerror(e));
    in->status = SB_EIO;
    return FAILED;
}

/* More bytes after buf[lim] (moving the unread ones to the front, and
   growing the buffer when they fill it): 0 when some came or the source
   ended, STOPPED, or FAILED with the status set. */
static int refill(sb_input *in)
{
    keep_last_line(in);
    if (in->pos > 0) {
        memmove(in->own, in->own + in->pos, in->lim - in->pos);
        in->base += in->pos;
        in->lim -= in->pos;
        in->pos = 0;
    }
    if (in->lim == in->cap) {
        if (in->cap >= BUF_MAX) {
            snprintf(in->error, sizeof in->error,
                     "line %llu is longer than %zu MiB",
                     (unsigned long long)in->line + 1, BUF_MAX >> 20);
            in->status = SB_ENOMEM;
            return FAILED;
        }
        const size_t cap = 2 * in->cap < BUF_MAX ? 2 * in->cap : BUF_MAX;
        unsigned char *own = realloc(in->own, cap);
        if (!own) {
            snprintf(in->error, sizeof in->error, "out of memory");
            in->status = SB_ENOMEM;
            return FAILED;
        }
        in->own = own;
        in->buf = own;
        in->cap = cap;
    }
    for (;;) {
        if (in->spec.stop && *in->spec.stop)
            return STOPPED;
        struct pollfd pfd = { .fd = in->fd, .events = POLLIN };
        const int ready = poll(&pfd, 1, in->draining ? 0
                                        : in->spec.stop || in->spec.waiting
                                        ? WAIT_MS : -1);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            return io_error(in, errno);
        }
        /* Draining, nothing ready is the end; a byte that came after the
           hook's answer (a program that wrote its last samples and exited
           between the wait and the hook's look) is read first. */
        if (ready == 0 && in->draining) {
            in->ended = 1;
            return 0;
        }
        if (ready == 0 && in->spec.waiting) {
            const int w = in->spec.waiting(in->spec.waiting_ctx,
                                           in->base + in->lim);
            if (w == SB_INPUT_STOP)
                return STOPPED;
            if (w == SB_INPUT_END) {
                in->draining = 1;
                continue;
            }
        }
        if (ready == 0)
            continue;
        const ssize_t got = read(in->fd, in->own + in->lim, in->cap - in->lim);
        if (got > 0) {
            in->lim += (size_t)got;
            return 0;
        }
        if (got == 0) {
            in->ended = 1;
            return 0;
        }
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
            return io_error(in, errno);
    }
}

/* The next line, its LF and a CR before it cut off: MORE, NO_MORE at the
   end of the input, STOPPED, FAILED. */
static int next_line(sb_input *in, const unsigned char **line, size_t *len)
{
    for (;;) {
        const size_t avail = in->lim - in->pos;
        const unsigned char *start = in->buf + in->pos;
        const unsigned char *nl =
            in->scanned < avail
                ? memchr(start + in->scanned, '\n', avail - in->scanned)
                : NULL;
        if (nl) {
            *line = start;
            *len = (size_t)(nl - start);
            in->pos += *len + 1;
            break;
        }
        in->scanned = avail;
        if (in->ended) {
            if (avail == 0)
                return NO_MORE;
            *line = start;       /* the last line, without its LF */
            *len = avail;
            in->pos = in->lim;
            break;
        }
        const int r = refill(in);
        if (r != 0)
            return r;
    }
    in->scanned = 0;
    in->line++;
    if (*len > 0 && (*line)[*len - 1] == '\r')
        (*len)--;
    return MORE;
}

/* ---- opening ------------------------------------------------------------ */

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int sb_card_order_parse(const char *order, unsigned char number[52],
                        char *err, size_t len)
{
    static const char suits[] = "cdhs", ranks[] = "23456789tjqka";
    const char *colon = strchr(order, ':');
    if (!colon) {
        snprintf(err, len, "'%.40s' is not SUITS:RANKS, such as "
                 "shdc:akqjt98765432", order);
        return SB_EINVAL;
    }
    int suit_at[4] = { -1, -1, -1, -1 }, rank_at[13];
    for (unsigned r = 0; r < 13; r++)
        rank_at[r] = -1;
    const size_t n_suits = (size_t)(colon - order);
    const size_t n_ranks = strlen(colon + 1);
    for (size_t i = 0; i < n_suits; i++) {
        const char c = lower(order[i]);
        const char *at = c ? strchr(suits, c) : NULL;
        if (!at) {
            snprintf(err, len, "'%c' is not a suit: c, d, h, s",
                     (unsigned char)order[i] >= 0x20u
                     && (unsigned char)order[i] < 0x7Fu ? order[i] : '?');
            return SB_EINVAL;
        }
        if (suit_at[at - suits] >= 0) {
            snprintf(err, len, "suit '%c' appears twice", *at);
            return SB_EINVAL;
        }
        suit_at[at - suits] = (int)i;
    }
    for (size_t i = 0; i < n_ranks; i++) {
        const char c = lower(colon[1 + i]);
        const char *at = c ? strchr(ranks, c) : NULL;
        if (!at) {
            snprintf(err, len, "'%c' is not a rank: 2-9, t, j, q, k, a",
                     (unsigned char)colon[1 + i] >= 0x20u
                     && (unsigned char)colon[1 + i] < 0x7Fu ? colon[1 + i]
                                                            : '?');
            return SB_EINVAL;
        }
        if (rank_at[at - ranks] >= 0) {
            snprintf(err, len, "rank '%c' appears twice", *at);
            return SB_EINVAL;
        }
        rank_at[at - ranks] = (int)i;
    }
    if (n_suits != 4 || n_ranks != 13) {
        snprintf(err, len, "%s: every one of the %s exactly once",
                 n_suits != 4 ? "4 suits expected" : "13 ranks expected",
                 n_suits != 4 ? "suits c, d, h, s"
                              : "ranks 2-9, t, j, q, k, a");
        return SB_EINVAL;
    }
    for (unsigned su = 0; su < 4; su++)
        for (unsigned r = 0; r < 13; r++)
            number[su * SB_CARD_RANKS + r] =
                (unsigned char)(suit_at[su] * 13 + rank_at[r]);
    return SB_OK;
}

/* Check the spec and settle the shape; SB_OK or SB_EINVAL with a reason. */
static int settle(const sb_input_spec *spec, sb_shape *shape, char *err,
                  size_t len)
{
    *shape = spec->shape;
    const size_t n = shape->n;
    const unsigned ob = spec->one_based ? 1u : 0u;
    if ((unsigned)spec->format >= N_FORMATS) {
        snprintf(err, len, "unknown input format %d", (int)spec->format);
        return SB_EINVAL;
    }
    const char *fmt = format_names[spec->format];
    if (shape->kind != SB_KIND_PERMUTATION && shape->kind != SB_KIND_DRAW &&
        shape->kind != SB_KIND_DEAL) {
        snprintf(err, len, "unknown kind of sample %d", (int)shape->kind);
        return SB_EINVAL;
    }
    if (n == 0 || n > 65536) {
        snprintf(err, len, "a deck of %zu cards cannot be read: 1 to 65536 "
                 "cards", n);
        return SB_EINVAL;
    }
    if (spec->format == SB_FORMAT_PBN) {
        if (shape->kind != SB_KIND_DEAL || n != 52 || shape->hands != 4) {
            snprintf(err, len, "the pbn format reads bridge deals, 52 cards "
                     "into 4 hands; not a %s of %zu cards%s",
                     sb_kind_str(shape->kind), n,
                     shape->kind == SB_KIND_DEAL && shape->hands != 4
                     ? " into other than 4 hands" : "");
            return SB_EINVAL;
        }
        if (ob) {
            snprintf(err, len, "the pbn format reads card names: "
                     "one-based numbering does not apply");
            return SB_EINVAL;
        }
    }
    if (spec->card_order) {
        if (spec->format != SB_FORMAT_CARDS
            && spec->format != SB_FORMAT_PBN) {
            snprintf(err, len, "a card order numbers card names: it goes "
                     "with the cards and pbn formats, not %s", fmt);
            return SB_EINVAL;
        }
        unsigned char number[52];
        char why[160];
        if (sb_card_order_parse(spec->card_order, number, why, sizeof why)
            != SB_OK) {
            snprintf(err, len, "card order: %s", why);
            return SB_EINVAL;
        }
    }
    if (spec->format == SB_FORMAT_CARDS) {
        if (n > 52) {
            snprintf(err, len, "card names cover 52 cards, not %zu; use the "
                     "text format", n);
            return SB_EINVAL;
        }
        if (ob) {
            snprintf(err, len, "the cards format reads card names: "
                     "one-based numbering does not apply");
            return SB_EINVAL;
        }
    }
    if (shape->kind == SB_KIND_DEAL) {
        if (shape->hands == 0 || n % shape->hands != 0) {
            snprintf(err, len, "%u hands cannot share %zu cards equally",
                     shape->hands, n);
            return SB_EINVAL;
        }
    } else {
        shape->hands = 0;
    }
    if (shape->kind == SB_KIND_DRAW) {
        if (shape->len > n) {
            snprintf(err, len, "%zu cards cannot be drawn from %zu",
                     shape->len, n);
            return SB_EINVAL;
        }
        if (shape->len == 0 && binary(spec->format)) {
            snprintf(err, len, "the %s format needs the number of cards "
                     "drawn", fmt);
            return SB_EINVAL;
        }
    } else {
        if (shape->len != 0 && shape->len != n) {
            snprintf(err, len, "a %s of %zu cards has %zu values, not %zu",
                     sb_kind_str(shape->kind), n, n, shape->len);
            return SB_EINVAL;
        }
        shape->len = n;
    }
    /* The largest value written must fit the binary format: a card, or
       for a deal the hand. */
    const size_t top = (shape->kind == SB_KIND_DEAL ? shape->hands : n) - 1
                       + ob;
    const size_t fits = spec->format == SB_FORMAT_U8 ? 255 : 65535;
    if (binary(spec->format) && top > fits) {
        snprintf(err, len, "the %s format holds values 0..%zu, and this "
                 "%s needs %zu%s", fmt, fits, sb_kind_str(shape->kind), top,
                 spec->format == SB_FORMAT_U8 ? "; use u16" : "");
        return SB_EINVAL;
    }
    return SB_OK;
}

static int open_common(sb_input **out, const sb_input_spec *spec, char *err,
                       size_t len)
{
    *out = NULL;
    sb_shape shape;
    int rc = settle(spec, &shape, err, len);
    if (rc != SB_OK)
        return rc;
    sb_input *in = calloc(1, sizeof *in);
    if (!in)
        goto nomem;
    in->spec = *spec;
    in->shape = shape;
    in->fd = -1;
    for (unsigned c = 0; c < 52; c++)
        in->number[c] = (unsigned char)c;
    if (spec->card_order)
        sb_card_order_parse(spec->card_order, in->number, err, len);
    for (unsigned c = 0; c < 52; c++)
        in->card_of[in->number[c]] = (unsigned char)c;
    in->stamp = calloc(shape.n, sizeof *in->stamp);
    in->count = calloc(shape.hands + 1u, sizeof *in->count);
    if (!in->stamp || !in->count)
        goto nomem;
    if (shape.len == 0) {
        in->scratch = malloc(shape.n * sizeof *in->scratch);
        if (!in->scratch)
            goto nomem;
    }
    *out = in;
    return SB_OK;
nomem:
    sb_input_close(in);
    snprintf(err, len, "out of memory");
    return SB_ENOMEM;
}

int sb_input_open_fd(sb_input **in, const sb_input_spec *spec, int fd,
                     char *err, size_t len)
{
    int rc = open_common(in, spec, err, len);
    if (rc != SB_OK)
        return rc;
    sb_input *r = *in;
    r->fd = fd;
    r->own = malloc(BUF_FIRST);
    if (!r->own) {
        sb_input_close(r);
        *in = NULL;
        snprintf(err, len, "out of memory");
        return SB_ENOMEM;
    }
    r->cap = BUF_FIRST;
    r->buf = r->own;
    return SB_OK;
}

int sb_input_check(const sb_input_spec *spec, char *err, size_t len)
{
    sb_shape shape;
    return settle(spec, &shape, err, len);
}

int sb_input_open_mem(sb_input **in, const sb_input_spec *spec,
                      const void *data, size_t size, char *err, size_t len)
{
    int rc = open_common(in, spec, err, len);
    if (rc != SB_OK)
        return rc;
    sb_input *r = *in;
    static const unsigned char nothing[1];
    r->buf = size ? data : nothing;
    r->lim = size;
    r->ended = 1;
    return SB_OK;
}

void sb_input_close(sb_input *in)
{
    if (!in)
        return;
    free(in->own);
    free(in->stamp);
    free(in->count);
    free(in->scratch);
    free(in);
}

/* ---- reading ------------------------------------------------------------ */

int sb_input_shape(sb_input *in, sb_shape *out)
{
    if (in->shape.len == 0 && in->status == SB_OK) {
        const unsigned char *line;
        size_t n, k = 0;
        int r, parsed = LINE_BLANK;
        while ((r = next_line(in, &line, &n)) == MORE) {
            parsed = count_words(in, line, n, &k);
            if (parsed != LINE_BLANK)
                break;
        }
        if (r == STOPPED)
            return SB_EINTR;
        if (r == FAILED)
            return in->status;
        if (parsed == LINE_BLANK) {
            snprintf(in->error, sizeof in->error,
                     "the input holds no sample");
            in->status = SB_EINVAL;
            return SB_EINVAL;
        }
        if (parsed == LINE_OK && k > in->shape.n)
            parsed = bad(in, "%zu cards drawn, more than the %zu of the deck",
                         k, in->shape.n);
        if (parsed == LINE_OK) {
            in->shape.len = k;
            if (!in->spec.skip_invalid)
                parsed = parse_line(in, line, n, in->scratch);
        }
        if (parsed != LINE_OK) {
            in->seen = 1;
            in->last_ptr = line;
            in->last_len = n;
            keep_last_line(in);
            char where[NAME_SHOWN + 64];
            line_where(in, where, sizeof where);
            if (snprintf(in->error, sizeof in->error, "%s: %s", where,
                         in->why) >= (int)sizeof in->error)
                memcpy(in->error + sizeof in->error - 4, "...", 4);
            in->status = SB_EINVAL;
            return SB_EINVAL;
        }
        /* Leave the line to be read again as the first sample. */
        in->pos = (size_t)(line - in->buf);
        in->scanned = 0;
        in->line--;
    }
    if (in->status != SB_OK && in->shape.len == 0)
        return in->status;
    *out = in->shape;
    return SB_OK;
}

static int read_text(sb_input *in, sb_card *out, size_t want, size_t *got)
{
    const size_t len = in->shape.len;
    while (*got < want) {
        const unsigned char *line;
        size_t n;
        const int r = next_line(in, &line, &n);
        if (r == NO_MORE) {
            in->eof = 1;
            break;
        }
        if (r == STOPPED)
            break;
        if (r == FAILED)
            return in->status;
        const int parsed = parse_line(in, line, n, out + *got * len);
        if (parsed == LINE_BLANK)
            continue;
        in->seen++;
        in->last_ptr = line;
        in->last_len = n;
        if (parsed == LINE_OK)
            (*got)++;
        else if (reject_line(in))
            return SB_EINVAL;
    }
    return SB_OK;
}

static int read_binary(sb_input *in, sb_card *out, size_t want, size_t *got)
{
    const size_t len = in->shape.len;
    const size_t rec = len * (in->spec.format == SB_FORMAT_U16 ? 2u : 1u);
    while (*got < want) {
        const size_t avail = in->lim - in->pos;
        if (avail < rec) {
            if (!in->ended) {
                const int r = refill(in);
                if (r == STOPPED)
                    break;
                if (r == FAILED)
                    return in->status;
                continue;
            }
            if (avail == 0) {
                in->eof = 1;
                break;
            }
            in->seen++;
            const uint64_t at = in->base + in->pos;
            in->pos = in->lim;
            bad(in, "the input ends inside this sample: %zu of %zu bytes",
                avail, rec);
            if (reject_record(in, at))
                return SB_EINVAL;
            continue;
        }
        in->seen++;
        uint64_t at = in->base + in->pos;
        const int parsed = parse_record(in, in->buf + in->pos,
                                        out + *got * len, &at);
        in->pos += rec;
        if (parsed == LINE_OK)
            (*got)++;
        else if (reject_record(in, at))
            return SB_EINVAL;
    }
    return SB_OK;
}

int sb_input_read(sb_input *in, sb_card *out, size_t want, size_t *got)
{
    *got = 0;
    if (in->status != SB_OK)
        return in->status;
    if (in->shape.len == 0) {
        sb_shape shape;
        const int rc = sb_input_shape(in, &shape);
        if (rc != SB_OK)
            return rc == SB_EINTR ? SB_OK : rc;
    }
    if (in->eof)
        return SB_OK;
    int rc;
    if (binary(in->spec.format)) {
        rc = read_binary(in, out, want, got);
    } else {
        rc = read_text(in, out, want, got);
        keep_last_line(in);
    }
    /* Say so at once when the last sample was just returned. */
    if (rc == SB_OK && in->ended && in->pos == in->lim)
        in->eof = 1;
    return rc;
}

int sb_input_eof(const sb_input *in)
{
    return in->eof;
}

const char *sb_input_error(const sb_input *in)
{
    return in->error;
}

uint64_t sb_input_samples_seen(const sb_input *in)
{
    return in->seen;
}

uint64_t sb_input_invalid(const sb_input *in)
{
    return in->invalid;
}

const char *sb_input_invalid_msg(const sb_input *in, size_t i)
{
    if (i >= in->invalid || i >= SB_INPUT_LISTED)
        return "";
    return in->listed[i];
}

const char *sb_input_last_line(const sb_input *in)
{
    return in->last;
}
