/*
 * input.h - decks made outside: recorded files, standard input, the output
 * of a user's program.
 *
 * A reader turns bytes into samples of a given shape (src/../stat.h) and
 * checks every one of them before a statistic sees it: the right number of
 * values, each in range, no card twice, every hand of a deal holding its
 * share.  A sample that fails is never counted.  By default the first bad
 * sample ends the reading with a message "line L (sample S): what is
 * wrong"; with 'skip_invalid' bad samples are counted, the first few
 * messages kept, and reading goes on.
 *
 * Formats (sb_format):
 *   text   one sample per line, numbers separated by spaces, commas or tabs
 *          (any mix, runs allowed; an empty field such as "1,,2" is an
 *          error); 0-based, or 1-based with 'one_based'.
 *   cards  one sample per line, card names: rank 2-9, 10 or T, J, Q, K, A
 *          then suit C, D, H, S (either case, or the symbols of the four
 *          suits); the numbering is that of stats/cards.h, card 0 = 2C ...
 *          card 51 = AS, so n is at most 52.
 *   u8     binary, one byte per value, 'len' values per sample (no lines:
 *          messages say "sample S (byte B)"); values 0-based (1-based with
 *          'one_based').
 *   u16    the same with little-endian 16-bit values.
 *   pbn    bridge deals in Portable Bridge Notation (kind DEAL, n 52, 4
 *          hands only): "F:hand hand hand hand", F the first seat (N, E,
 *          S, W), the hands clockwise from it, each "spades.hearts.
 *          diamonds.clubs" with ranks AKQJT98765432 (or 10), a void
 *          empty; one deal per line, or in [Deal "..."] tag lines.  A
 *          hand written '-' (unknown) is given the 13 cards the other
 *          three leave, when it is the only one.  Seats map to hands
 *          N = 0, E = 1, S = 2, W = 3, whatever the first seat.  Once a
 *          tag line was read, only Deal tags hold deals: other tags, the
 *          lines of sections after them (auction, play), '%' lines, ';'
 *          comments and {commentary} are skipped.
 * In cards and pbn, a card order ('card_order', "SUITS:RANKS" such as
 * "shdc:akqjt98765432") declares the numbering: card = the suit's index
 * in SUITS * 13 + the rank's index in RANKS.  Without one it is that of
 * stats/cards.h, "cdhs:23456789tjqka".
 * In the text formats, blank lines are skipped, '#' starts a comment that
 * runs to the end of the line, and a carriage return before the line feed
 * is ignored.
 *
 * What a sample line holds, by kind:
 *   PERMUTATION  the n cards from top to bottom (deck[j] = card at j);
 *   DRAW         the k cards drawn (k = shape.len <= n), in order;
 *   DEAL         either the hand (0..H-1, or 1..H) of each card in card
 *                order, or - in text and cards, when the line holds '|' -
 *                the H hands as lists of cards separated by '|'.  Every
 *                hand must hold n / H cards.  The sample written is always
 *                the card -> hand map.
 */
#ifndef SB_SOURCES_INPUT_H
#define SB_SOURCES_INPUT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"
#include "shufflebias/stat.h"

typedef enum sb_format {
    SB_FORMAT_TEXT = 0,
    SB_FORMAT_CARDS,
    SB_FORMAT_U8,
    SB_FORMAT_U16,
    SB_FORMAT_PBN
} sb_format;

/* "text", "cards", "u8", "u16", "pbn". */
const char *sb_format_str(sb_format f);
/* The format called 'name': SB_OK, or SB_ENOTFOUND. */
int sb_format_find(const char *name, sb_format *out);

/* SB_INPUT_LISTED (how many bad-sample messages a reader keeps under
   'skip_invalid') and SB_INPUT_MSG (the longest message kept) come from
   report.h, which holds them for the report. */

/* Under 'skip_invalid', reading ends with SB_EINVAL once more than this
   many samples were bad and more were bad than good: the spec is then
   wrong, and a source writing nothing but bad samples would otherwise be
   read for ever. */
#define SB_INPUT_GIVE_UP 1000u

typedef struct sb_input_spec {
    sb_format format;
    sb_shape shape;      /* kind, n, len (n, or k for a DRAW: 0 asks the
                            reader to take k from the first sample line of
                            a text format), hands (DEAL) */
    int one_based;       /* numbers count from 1 (text, u8, u16) */
    int skip_invalid;    /* count and list bad samples, go on */
    /* Set from a signal handler to end a blocked read early; may be NULL.
       The reader waits for data at most about 0.2 s between looks. */
    volatile sig_atomic_t *stop;
    /* The input's name for messages ("decks.txt:7 (sample 5): ..."), or
       NULL ("line 7 (sample 5): ..."). */
    const char *name;
    /* "SUITS:RANKS" for the cards and pbn formats, or NULL. */
    const char *card_order;
    /* May be NULL.  Called each time the reader has waited about 0.2 s on
       the file descriptor without a byte, with the bytes read so far (a
       change since the last call means some came between), so that the
       caller can give up on a source that would never end: it answers
       SB_INPUT_WAIT to wait on, SB_INPUT_END to take the input as ended
       (as at end-of-file) once nothing more is ready - bytes already
       there, or come since the wait, are still read, with no further wait
       and no further call - SB_INPUT_STOP to stop as 'stop' does. */
    int (*waiting)(void *ctx, uint64_t bytes_read);
    void *waiting_ctx;
} sb_input_spec;

/* The answers of sb_input_spec.waiting. */
enum { SB_INPUT_WAIT = 0, SB_INPUT_END = 1, SB_INPUT_STOP = 2 };

/* Parse a card order "SUITS:RANKS": SUITS the four letters c, d, h, s
   and RANKS the thirteen 2-9, t, j, q, k, a, each exactly once, in
   either case.  Sets number[c] for every card c of stats/cards.h to its
   number in that order.  SB_OK, or SB_EINVAL with the reason in 'err'. */
int sb_card_order_parse(const char *order, unsigned char number[52],
                        char *err, size_t len);

typedef struct sb_input sb_input;

/* Whether a reader can be opened on 'spec': SB_OK, or SB_EINVAL with the
   reason in 'err' (the refusals listed under sb_input_open_fd).  Lets a
   caller refuse a spec before it starts the program that would feed it. */
int sb_input_check(const sb_input_spec *spec, char *err, size_t len);

/* A reader over the file descriptor 'fd' (not closed by the reader), or
   over 'size' bytes at 'data' (not copied: they must outlive the reader;
   used by tests and the fuzzer).  Returns SB_OK; SB_EINVAL with a reason
   in 'err' when the spec cannot be read (n above 52 in 'cards', above 256
   in 'u8', hands not dividing n, 'one_based' with 'cards' or 'pbn', len 0
   with a binary format, 'pbn' for anything but a deal of 52 cards into 4
   hands, a card order that is bad or given with a format of numbers);
   SB_ENOMEM. */
int sb_input_open_fd(sb_input **in, const sb_input_spec *spec, int fd,
                     char *err, size_t len);
int sb_input_open_mem(sb_input **in, const sb_input_spec *spec,
                      const void *data, size_t size, char *err, size_t len);
void sb_input_close(sb_input *in);

/* The shape of the samples, with len settled: for a DRAW opened with
   len 0, this reads ahead to the first sample line (which is still
   returned by sb_input_read) and takes its number of cards.  Returns SB_OK;
   SB_EINVAL with the reason in sb_input_error when that line is bad or the
   input holds no sample; SB_EIO; SB_EINTR when 'stop' was set before the
   first line came. */
int sb_input_shape(sb_input *in, sb_shape *out);

/* Read up to 'want' valid samples into 'out' (shape.len values each) and
   set *got.  Returns:
     SB_OK      *got == want; or *got < want when the input ended
                (sb_input_eof) or 'stop' was set;
     SB_EINVAL  a bad sample (without skip_invalid): *got samples before it
                are valid and written, and sb_input_error says what is wrong;
                later calls return SB_EINVAL again without reading;
     SB_EIO     a read error (sb_input_error says which);
     SB_ENOMEM  a line too long to hold (more than 64 MiB).
   An input that ends inside a sample (a binary record cut short, a last
   text line without its line feed is fine) is a bad sample. */
int sb_input_read(sb_input *in, sb_card *out, size_t want, size_t *got);

/* 1 once the input has ended and every sample in it was returned. */
int sb_input_eof(const sb_input *in);

/* What ended the reading ("line 7 (sample 5): card 12 appears twice",
   "decks.txt:7 (sample 5): ..." with a name; a read error: "cannot read
   'decks.txt': Is a directory"), "" when nothing did.  Text quoted from
   the input is escaped: control bytes, invalid UTF-8 and a byte-order
   mark as \xNN. */
const char *sb_input_error(const sb_input *in);

/* Samples seen so far, valid and bad (the number S of the last one). */
uint64_t sb_input_samples_seen(const sb_input *in);

/* Under skip_invalid: bad samples skipped, and the first SB_INPUT_LISTED
   of their messages (i < count, i < SB_INPUT_LISTED). */
uint64_t sb_input_invalid(const sb_input *in);
const char *sb_input_invalid_msg(const sb_input *in, size_t i);

/* The last sample line read (text formats; at most 120 characters, cut
   with "...", escaped as messages are), "" before any: reported when a
   program's output goes wrong. */
const char *sb_input_last_line(const sb_input *in);

#endif /* SB_SOURCES_INPUT_H */
