/*
 * example_shuffles.c - a shufflebias plug-in with three shuffles: one
 * fair, one with the classic mistake, and one with the classic rand() % k.
 *
 * A plug-in is a shared object that describes each of its shuffles with a
 * const sb_shuffle_type (<shufflebias/shuffle.h>) and lists them with
 * SB_PLUGIN (<shufflebias/plugin.h>).  shufflebias loads it with
 * 'test --plugin' or 'exact --plugin' and drives each shuffle exactly as
 * it drives its own algorithms.  What to know before writing one:
 *
 *   - Draw only through sb_below, sb_bits and sb_weighted (and sb_unit, but
 *     a shuffle that draws reals cannot be enumerated in exact mode).  Here
 *     they are calls to functions the shufflebias program exports, so the
 *     same code runs on every randomness source (--rng: the fast built-in
 *     generator, every GSL generator, the deliberately weak ones) and in
 *     exact mode, where every draw becomes a branch point: below(n) has n
 *     branches, bits(k) 2^k, weighted(w, m) m.  Never call rand() or keep
 *     a generator of your own: the program could not seed it, reproduce
 *     it, or enumerate it, and it refuses a plug-in whose first samples
 *     make no draw, or differ when made again from the same seed.  For
 *     code that draws rand() % k, sb_rand_mod(src, bits, k) is that draw,
 *     modulo bias included, with k branches in exact mode.
 *   - Write exactly the sample the kind says (a permutation of 0..n-1
 *     here), and nothing past it: every sample is checked, and the first
 *     bad one ends the run with exit code 2.
 *   - run() writes one sample and must not allocate: exact mode may abandon
 *     a run in the middle of a draw.  Scratch space belongs in a state made
 *     by init() (and released by free()); reset() returns it to its start
 *     before every chunk of samples and every enumerated path.
 *   - Names are kebab-case and must differ from the built-in algorithms'
 *     (shufflebias list): a report must say unambiguously what was tested.
 *   - The 'literature' field is not read for a plug-in: the program reports
 *     an outside shuffle as of unknown fairness, and the tests decide.
 *   - SB_PLUGIN records the interface version and the size of
 *     sb_shuffle_type this file was compiled with; a program that speaks
 *     another version refuses the plug-in and says so.  Rebuild against the
 *     installed header when that happens.
 *
 * Build (no library to link: the draws are resolved when the program
 * loads the plug-in):
 *
 *     cc -std=c11 -shared -fPIC -I<prefix>/include \
 *        -o libexample_shuffles.so example_shuffles.c
 *
 * The shuffles:
 *
 * example-fisher-yates - Durstenfeld's shuffle (CACM 7(7), 1964, Algorithm
 * 235; Knuth, TAOCP vol. 2, 3.4.2, Algorithm P), with a parameter to show
 * how one is declared: 'direction' = back (the default: for i = n-1 down
 * to 1, swap i with a uniform j in [0, i]) or front (for i = 0 to n-2, swap
 * i with a uniform j in [i, n-1]).  Either way the n! sequences of draws
 * give n! different orders: fair.  3 cards: 6 paths, each order once.
 *
 * example-off-by-one - the same loop with the bound written wrong: every
 * card, from the front, is swapped with a uniform j in [0, n) - the whole
 * deck - instead of [0, i] (the "naive swap" of Atwood, "The Danger of
 * Naivete", 2007).  Its n^n equally likely draw sequences cannot split
 * evenly over the n! orders (27 over 6 for 3 cards), so it is biased.
 * Exact bias for 3 cards (deck ABC, 27 paths): ABC 4, ACB 5, BAC 5,
 * BCA 5, CAB 4, CBA 4 out of 27; total-variation distance 1/18.
 *
 * example-rand-mod - Fisher-Yates as C code often writes it, with
 * j = rand() % (i + 1) on a 15-bit rand() (RAND_MAX 32767; the C FAQ,
 * question 13.16): sb_rand_mod(src, 15, i + 1).  Residue r of m comes up
 * floor(32768 / m) + (r < 32768 mod m) times in 32768, so whenever m does
 * not divide 32768 the low residues are favoured.  Exact bias for 3 cards
 * (6 paths; 10923, 10923, 10922 in 32768 at m = 3): ABC, BAC 5461/32768,
 * ACB, BCA, CAB, CBA 10923/65536 each - the built-in fisher-yates-mod.
 */
#include <shufflebias/plugin.h>

enum { P_DIRECTION };
enum { FROM_BACK, FROM_FRONT };

static const char *const directions[] = { "back", "front", NULL };

/* A choices parameter: its value is an index into 'directions', so min is
   0, max is the last index, and the default one of them. */
static const sb_param_def fisher_yates_params[] = {
    [P_DIRECTION] = { "direction", "walk the deck from the back (Durstenfeld) "
                      "or from the front", FROM_BACK, 0, 1, directions },
};

static void identity(sb_card *out, size_t n)
{
    for (size_t j = 0; j < n; j++)
        out[j] = (sb_card)j;
}

static void swap(sb_card *d, size_t i, size_t j)
{
    const sb_card t = d[i];
    d[i] = d[j];
    d[j] = t;
}

/* Path counts for exact mode, saturating: the program refuses a walk over
   its budget before starting when it knows the size of the tree. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Durstenfeld's step for sb_below_falling: of the b cards not yet
   settled, the last one (at b - 1) takes the card at j <= b - 1.  A swap
   is its own undo. */
static void settle_last(void *deck, uint64_t b, uint64_t j)
{
    swap(deck, (size_t)b - 1, (size_t)j);
}

static int fisher_yates_run(void *state, const sb_shuffle_args *a,
                            sb_src *src, sb_card *out)
{
    (void)state;
    const size_t n = a->n;
    identity(out, n);
    if (a->param[P_DIRECTION] == FROM_FRONT) {
        for (size_t i = 0; i + 1 < n; i++)
            swap(out, i, i + (size_t)sb_below(src, n - i));
    } else if (n > 1) {
        /* below(n), below(n - 1), ..., below(2), a step each: the plain
           loop's draws on every source, taken several from one word on
           the fast built-in generator, as the built-in fisher-yates takes
           them. */
        sb_below_falling(src, n, n - 1, settle_last, settle_last, out);
    }
    return SB_OK;
}

/* One draw among m cards for each m from n down to 2: n! paths. */
static uint64_t fisher_yates_paths(const sb_shuffle_args *a)
{
    uint64_t r = 1;
    for (uint64_t m = 2; m <= a->n; m++)
        r = mul_sat(r, m);
    return r;
}

static int off_by_one_run(void *state, const sb_shuffle_args *a,
                          sb_src *src, sb_card *out)
{
    (void)state;
    identity(out, a->n);
    for (size_t i = 0; i < a->n; i++)
        swap(out, i, (size_t)sb_below(src, a->n));   /* should be i + 1 */
    return SB_OK;
}

/* n draws of n branches each: n^n paths. */
static uint64_t off_by_one_paths(const sb_shuffle_args *a)
{
    uint64_t r = 1;
    for (size_t k = 0; k < a->n; k++)
        r = mul_sat(r, a->n);
    return r;
}

static int rand_mod_run(void *state, const sb_shuffle_args *a, sb_src *src,
                        sb_card *out)
{
    (void)state;
    identity(out, a->n);
    for (size_t i = a->n; i-- > 1;)
        swap(out, i, (size_t)sb_rand_mod(src, 15, i + 1));  /* rand() % (i+1) */
    return SB_OK;
}

static const sb_shuffle_type example_fisher_yates = {
    .name = "example-fisher-yates",
    .summary = "Durstenfeld's shuffle as a plug-in: swap i with a random j "
               "in [0, i] (or, from the front, in [i, n-1])",
    .source = "Durstenfeld, CACM 7(7) 1964, Algorithm 235; Knuth TAOCP 3.4.2 P",
    .bias = "Each of the n! sequences of draws gives a different order, so "
            "every order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = fisher_yates_params,
    .n_params = sizeof fisher_yates_params / sizeof fisher_yates_params[0],
    .exact_paths = fisher_yates_paths,
    .run = fisher_yates_run,
};

static const sb_shuffle_type example_off_by_one = {
    .name = "example-off-by-one",
    .summary = "the Fisher-Yates loop with the bound wrong: swap each i with "
               "a random j in [0, n)",
    .source = "common mistake; Atwood, \"The Danger of Naivete\" (2007)",
    .bias = "Its n^n equally likely paths cannot split evenly over the n! "
            "orders (27 paths over 6 orders for 3 cards), so some orders "
            "come up more often.",
    .kind = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_paths = off_by_one_paths,
    .run = off_by_one_run,
};

static const sb_shuffle_type example_rand_mod = {
    .name = "example-rand-mod",
    .summary = "Fisher-Yates drawing j = rand() % (i + 1) on a 15-bit rand()",
    .source = "the rand() % n idiom; C FAQ 13.16",
    .bias = "A 15-bit rand() reduced with % m favours the low residues "
            "whenever m does not divide 32768, so some orders are slightly "
            "more likely.",
    .kind = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = 32768,
    .exact_paths = fisher_yates_paths,
    .run = rand_mod_run,
};

SB_PLUGIN(&example_fisher_yates, &example_off_by_one, &example_rand_mod)
