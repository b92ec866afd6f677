/* taash.seep._core: the compiled core of the Seep engine's hot path.
 *
 * The pure-Python engine (plays.py, groups.py, deal.py) is the reference: this file gives the same legal plays in
 * the same order and the same outcomes, and draws random choices from the same Mersenne Twister stream as
 * Python's random.Random (its state is passed in and handed back), so that a compiled play-out is the very
 * play-out the pure engine would have played. Cards are 0..51 (suit * 13 + rank, capture value rank + 1), sets of
 * cards 52-bit masks, sets of values masks with bit v for value v.
 *
 * Groups of loose cards are worked out on the floor's canonical form (the same values, the cards of each value in
 * the first suits: groups.py's `canonical`), in the canonical order (ascending canonical masks, as groups.py keeps
 * them), kept in a cache, and translated to the real cards of the floor.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

/* The hash of this file's text, given by setup.py (taash.seep.core uses no core built from other source). */
#ifndef TAASH_CORE_SOURCE
#define TAASH_CORE_SOURCE "unknown"
#endif

enum { CAPTURE = 0, THROW = 1, ESTABLISH = 2, ADD = 3, BREAK = 4 };
enum { ESTABLISH_OPTIONS = 0, ADD_OPTIONS = 1, MAXIMAL = 2, OPTIONAL = 3 };
enum { PHASE_BID = 0, PHASE_PLAY = 1, PHASE_OVER = 2 };

#define PLAYS_PER_DEAL 48
#define LAST_PLAY 47
#define FIRST_HALF_PLAYS 24
#define SPREAD ((u64)1 | (u64)1 << 13 | (u64)1 << 26 | (u64)1 << 39)
#define ROW 0x1FFFULL

typedef struct {
    uint8_t kind, card, house, broken;
    u64 loose;
} Play;

static int VAL[64];
static u64 VALUE_MASK[14];
static u64 UP_TO[14];

/* -- growable arrays -------------------------------------------------------------------------------------- */

typedef struct {
    u64 *a;
    size_t n, cap;
} Vec;

static int vec_push(Vec *v, u64 x) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        u64 *a = realloc(v->a, cap * sizeof(u64));
        if (!a) return -1;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return 0;
}

static void vec_free(Vec *v) {
    free(v->a);
    v->a = NULL;
    v->n = v->cap = 0;
}

typedef struct {
    Play *a;
    size_t n, cap;
} Plays;

/* Room for `need` plays in all. */
static __attribute__((noinline)) int plays_reserve(Plays *p, size_t need) {
    size_t cap = p->cap ? p->cap * 2 : 64;
    while (cap < need) cap *= 2;
    Play *a = realloc(p->a, cap * sizeof(Play));
    if (!a) return -1;
    p->a = a;
    p->cap = cap;
    return 0;
}

/* A play at the end of `p` (the plays of the rarer paths: push_plays below writes those of plays_of). */
static inline int plays_push(Plays *p, int kind, int card, int house, int broken, u64 loose) {
    if (p->n == p->cap && plays_reserve(p, p->n + 1)) return -1;
    Play q = {(uint8_t)kind, (uint8_t)card, (uint8_t)house, (uint8_t)broken, loose};
    p->a[p->n++] = q;
    return 0;
}

static int popcount(u64 x) { return __builtin_popcountll(x); }
static int low_index(u64 x) { return __builtin_ctzll(x); }

/* The plays (kind, c, house, broken, loose & groups[i]) for each card c of `cards` and each of the n groups, in
 * that order, at the end of `out`: the inner loops of plays_of. The room is made once and the plays written
 * through a local pointer, which the compiler keeps in a register (through `out`, it would read the length and the
 * array again after every play, since a play's bytes could be anything's). */
static inline int push_plays(Plays *out, int kind, u64 cards, int house, int broken, u64 loose, const u64 *groups,
                             uint32_t n) {
    size_t need = out->n + (size_t)popcount(cards) * n;
    if (need > out->cap && plays_reserve(out, need)) return -1;
    Play *q = out->a + out->n;
    for (; cards; cards &= cards - 1) {
        uint8_t c = (uint8_t)low_index(cards);
        for (uint32_t i = 0; i < n; i++) {
            Play play = {(uint8_t)kind, c, (uint8_t)house, (uint8_t)broken, loose & groups[i]};
            *q++ = play;
        }
    }
    out->n = need;
    return 0;
}

static u64 mask_value_sum(u64 m) {
    u64 s = 0;
    while (m) {
        s += (u64)VAL[low_index(m)];
        m &= m - 1;
    }
    return s;
}

/* -- groups of loose cards (groups.py) ---------------------------------------------------------------------- */

/* The cards summing() chooses from, from the lowest: their values, and below[i], the sum of the values of the first
 * i. */
typedef struct {
    uint8_t card[52], value[52];
    int below[53];
} SumCards;

static int summing_from(const SumCards *s, int i, int need, u64 mask, Vec *out) {
    if (!need) return vec_push(out, mask);
    if (s->below[i] < need) return 0; /* the cards left cannot add up to what is still needed */
    if (summing_from(s, i - 1, need, mask, out)) return -1;
    int v = s->value[i - 1];
    return v <= need ? summing_from(s, i - 1, need - v, mask | (u64)1 << s->card[i - 1], out) : 0;
}

/* Every non-empty subset of `floor` (only cards of values up to `total` count) adding up to `total`, in ascending
 * order of masks: groups.py's subsets_adding_up. Depth first from the highest card down, each card left out before
 * it is taken: a subset without a card is a smaller mask than one with it (the higher cards alike), so the subsets
 * come in ascending order with no sort, and a branch ends as soon as the cards below it cannot add up to the rest
 * of the total (no subset that cannot reach the total is made, nor any memory taken but `out`). */
static int summing(u64 floor, int total, Vec *out) {
    SumCards s;
    int n = 0;
    s.below[0] = 0;
    if (total < 0) return 0;
    if (total < 14) floor &= UP_TO[total];
    for (u64 m = floor; m; m &= m - 1, n++) {
        s.card[n] = (uint8_t)low_index(m);
        s.value[n] = (uint8_t)VAL[s.card[n]];
        s.below[n + 1] = s.below[n] + s.value[n];
    }
    return summing_from(&s, n, total, 0, out);
}

static int cmp_u64(const void *x, const void *y) {
    u64 a = *(const u64 *)x, b = *(const u64 *)y;
    return a < b ? -1 : a > b;
}

static int grow(const u64 *groups, size_t n, size_t start, u64 used, int maximal, Vec *out) {
    int keep = 1;
    if (maximal)
        for (size_t i = 0; i < n; i++)
            if (!(groups[i] & used)) { keep = 0; break; }
    if (keep && vec_push(out, used)) return -1;
    for (size_t j = start; j < n; j++)
        if (!(groups[j] & used) && grow(groups, n, j + 1, used | groups[j], maximal, out)) return -1;
    return 0;
}

/* Working space of options() and the functions it calls, and the answer it gives groups_of() and fill_run()
 * (answer_buf), kept from one answer worked out to the next so that working one out takes no memory from malloc:
 * none of them is entered again while it runs, and each empties its own before use. */
static Vec unions_all, canonical_groups, options_subs, options_groups, options_picked, options_us, answer_buf;

/* Unions of disjoint selections of `groups` (with `maximal`, those no group is disjoint from), ascending and
 * each once: groups.py's _unions. */
static int unions(const u64 *groups, size_t n, int maximal, Vec *out) {
    if (n == 0) return vec_push(out, 0);
    if (n == 1) {
        if (!maximal && vec_push(out, 0)) return -1;
        return vec_push(out, groups[0]);
    }
    Vec *all = &unions_all;
    all->n = 0;
    if (grow(groups, n, 0, 0, maximal, all)) return -1;
    qsort(all->a, all->n, sizeof(u64), cmp_u64);
    for (size_t i = 0; i < all->n; i++)
        if ((i == 0 || all->a[i] != all->a[i - 1]) && vec_push(out, all->a[i])) return -1;
    return 0;
}

static int canonical_unions(u64 floor, int value, int maximal, Vec *out) {
    Vec *groups = &canonical_groups;
    groups->n = 0;
    if (summing(floor, value, groups)) return -1;
    return unions(groups->a, groups->n, maximal, out);
}

/* groups.py's _options: `floor` canonical and cut down to the values up to t. */
static int options(u64 floor, int what, int v, int t, Vec *out) {
    if (what >= MAXIMAL || v == t) return canonical_unions(floor & UP_TO[t], t, what == MAXIMAL, out);
    int maximal = what == ESTABLISH_OPTIONS;
    int k = t - v;
    Vec *subs = &options_subs, *groups = &options_groups, *picked = &options_picked, *us = &options_us;
    subs->n = groups->n = 0;
    int rc = summing(floor & UP_TO[k], k, subs);
    u64 rest = floor & UP_TO[t];
    if (!rc) rc = summing(rest, t, groups);
    for (size_t i = 0; !rc && i < subs->n; i++) {
        u64 sub = subs->a[i];
        picked->n = 0;
        us->n = 0;
        for (size_t j = 0; !rc && j < groups->n; j++)
            if (!(groups->a[j] & sub)) rc = vec_push(picked, groups->a[j]);
        if (!rc) rc = unions(picked->a, picked->n, maximal, us);
        for (size_t j = 0; !rc && j < us->n; j++) {
            u64 o = sub | us->a[j];
            int seen = 0;
            for (size_t q = 0; q < out->n; q++)
                if (out->a[q] == o) { seen = 1; break; }
            if (!seen) rc = vec_push(out, o);
        }
    }
    return rc;
}

/* The cache of canonical answers: key ((floor << 2 | what) << 4 | v) << 4 | t -> a run of masks in the arena.
 * Runs are addressed by offset (the arena may move as it grows); both are emptied between top-level calls once
 * they hold more than their limits. */
typedef struct {
    u64 key;
    uint32_t off, n;
} Slot;

#define EMPTY_KEY (~(u64)0)
static Slot *slots;
static size_t slot_bits = 16, slot_used;
static u64 *arena;
static size_t arena_n, arena_cap;
#define ARENA_LIMIT ((size_t)1 << 22)
#define SLOTS_LIMIT ((size_t)1 << 20)

static int cache_init(void) {
    size_t n = (size_t)1 << slot_bits;
    slots = malloc(n * sizeof(Slot));
    if (!slots) return -1;
    for (size_t i = 0; i < n; i++) slots[i].key = EMPTY_KEY;
    slot_used = 0;
    arena_cap = 1 << 16;
    arena = malloc(arena_cap * sizeof(u64));
    arena_n = 0;
    return arena ? 0 : -1;
}

/* Called only between top-level calls, when no run is in use. */
static void cache_trim(void) {
    if (arena_n < ARENA_LIMIT && slot_used < SLOTS_LIMIT) return;
    free(slots);
    free(arena);
    slot_bits = 16;
    cache_init();
}

static size_t slot_of(u64 key) { return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> (64 - slot_bits)); }

static int cache_grow_slots(void) {
    size_t old_n = (size_t)1 << slot_bits;
    Slot *old = slots;
    slot_bits++;
    size_t n = (size_t)1 << slot_bits;
    slots = malloc(n * sizeof(Slot));
    if (!slots) { slots = old; slot_bits--; return -1; }
    for (size_t i = 0; i < n; i++) slots[i].key = EMPTY_KEY;
    for (size_t i = 0; i < old_n; i++) {
        if (old[i].key == EMPTY_KEY) continue;
        size_t j = slot_of(old[i].key);
        while (slots[j].key != EMPTY_KEY) j = (j + 1) & (n - 1);
        slots[j] = old[i];
    }
    free(old);
    return 0;
}

/* The canonical answer of (floor, what, v, t): its offset and length in the arena (-1 on no memory). */
static int groups_of(u64 floor, int what, int v, int t, uint32_t *off, uint32_t *count) {
    if (what >= MAXIMAL) v = 0;
    floor &= UP_TO[t];
    u64 key = ((floor << 2 | (u64)what) << 4 | (u64)v) << 4 | (u64)t;
    size_t mask = ((size_t)1 << slot_bits) - 1;
    size_t i = slot_of(key);
    while (slots[i].key != EMPTY_KEY) {
        if (slots[i].key == key) {
            *off = slots[i].off;
            *count = slots[i].n;
            return 0;
        }
        i = (i + 1) & mask;
    }
    Vec *out = &answer_buf;
    out->n = 0;
    if (options(floor, what, v, t, out)) return -1;
    if (arena_n + out->n > arena_cap) {
        size_t cap = arena_cap;
        while (arena_n + out->n > cap) cap *= 2;
        u64 *a = realloc(arena, cap * sizeof(u64));
        if (!a) return -1;
        arena = a;
        arena_cap = cap;
    }
    memcpy(arena + arena_n, out->a, out->n * sizeof(u64));
    slots[i].key = key;
    slots[i].off = (uint32_t)arena_n;
    slots[i].n = (uint32_t)out->n;
    *off = (uint32_t)arena_n;
    *count = (uint32_t)out->n;
    arena_n += out->n;
    if (++slot_used * 2 > ((size_t)1 << slot_bits) && cache_grow_slots()) return -1;
    return 0;
}

/* -- one floor ------------------------------------------------------------------------------------------------ */

/* The answers of value floors (no two loose cards of one value: nearly every floor in play), spread over every
 * suit (`loose & mask` is the real cards), worked out when first asked for and kept for good. An answer about value
 * t depends only on the floor's values up to t, so it is kept by those ("the cut"): the capture groups of value v
 * in caps_table[v][cut], the rest in t_table[t][cut * T_SLOTS + slot]. Floors that differ only in higher values
 * share their answers, and the tables (8 bytes an answer) are small enough to stay mostly in the cache. */
typedef struct {
    /* up to three answers inline, as rows of values (bit v - 1 for value v: a value floor's groups); more are
     * spread masks in varena from the offset rows[0] | rows[1] << 16 */
    uint16_t rows[3];
    uint16_t n1; /* the number of masks plus one; 0 until worked out */
} Run;
#define T_SLOTS 27 /* OPTIONAL, then ESTABLISH_OPTIONS and ADD_OPTIONS for v = 1..13 */
static Run *caps_table[14];
static Run *t_table[14];
static u64 *varena;
static size_t varena_n, varena_cap;

typedef struct {
    u64 loose, canon;
    u64 copies[4];
    int reach, value_floor;
    u64 fold;
    const uint16_t *builders;
} Floor;

static u64 canonical(u64 loose) {
    u64 a = loose & ROW, b = loose >> 13 & ROW, c = loose >> 26 & ROW, d = loose >> 39;
    u64 once = a | b | c | d;
    u64 twice = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    u64 thrice = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
    return once | twice << 13 | thrice << 26 | (a & b & c & d) << 39;
}

static int sums_reached(u64 loose) {
    u64 reached = 1;
    for (u64 m = loose; m; m &= m - 1) reached |= reached << VAL[low_index(m)] & 0x3FFF;
    return (int)(reached & 0x3FFE);
}

static uint16_t (*builders_table)[32];
static uint8_t *builders_done;

/* For the sums reached `bits`: per set of target house values (bit t - 9), the values v with t - v reached. */
static const uint16_t *builders_of(int bits) {
    int key = bits >> 1;
    if (!builders_done[key]) {
        uint16_t per_target[5];
        for (int t = 9; t < 14; t++) {
            int vals = 0;
            for (int sm = 1; sm < t; sm++)
                if (bits >> sm & 1) vals |= 1 << (t - sm);
            per_target[t - 9] = (uint16_t)vals;
        }
        builders_table[key][0] = 0;
        for (int targets = 1; targets < 32; targets++) {
            int low = targets & -targets;
            builders_table[key][targets] =
                builders_table[key][targets ^ low] | per_target[__builtin_ctz((unsigned)low)];
        }
        builders_done[key] = 1;
    }
    return builders_table[key];
}

static void floor_copies(Floor *f, u64 loose) {
    f->loose = loose;
    f->canon = canonical(loose);
    u64 a = loose & ROW, b = loose >> 13 & ROW, c = loose >> 26 & ROW, d = loose >> 39;
    u64 ab = a | b, abc = ab | c;
    u64 two = (a & b) | (ab & c), three = a & b & c;
    f->copies[0] = a | (b & ~a) << 13 | (c & ~ab) << 26 | (d & ~abc) << 39;
    f->copies[1] = (a & b) << 13 | (c & (a ^ b)) << 26 | (d & abc & ~two) << 39;
    f->copies[2] = (a & b & c) << 26 | (d & two & ~three) << 39;
    f->copies[3] = (d & three) << 39;
}

static inline int t_slot(int what, int v) {
    return what == OPTIONAL ? 0 : what == ESTABLISH_OPTIONS ? v : 13 + v;
}

/* The sums reached by each value floor, by its values (all 8192, worked out at import). */
static uint16_t reach_of_fold[1 << 13];

static int floor_setup(Floor *f, u64 loose) {
    u64 fold = (loose | loose >> 13 | loose >> 26 | loose >> 39) & ROW;
    f->loose = loose;
    if (popcount(fold) == popcount(loose)) {
        f->value_floor = 1;
        f->fold = fold;
        f->reach = reach_of_fold[fold];
    } else {
        floor_copies(f, loose);
        f->value_floor = 0;
        f->reach = sums_reached(loose);
    }
    f->builders = builders_of(f->reach);
    return 0;
}

/* Work out the answer of (what, v, t) of a value floor into its run. */
/* Work out the answer of (what, v, t) of the value floor `fold` (its values as a row) into its run. */
static __attribute__((noinline)) int fill_run(u64 fold, Run *r, int what, int v, int t) {
    Vec *out = &answer_buf;
    out->n = 0;
    if (options(fold & UP_TO[t], what, what >= MAXIMAL ? 0 : v, t, out)) return -1;
    if (out->n >= 0xFFFF) return -1;
    if (out->n <= 3) {
        for (size_t i = 0; i < out->n; i++) r->rows[i] = (uint16_t)out->a[i];
        r->n1 = (uint16_t)(out->n + 1);
        return 0;
    }
    if (varena_n + out->n > varena_cap) {
        size_t cap = varena_cap ? varena_cap : 4096;
        while (varena_n + out->n > cap) cap *= 2;
        u64 *a = realloc(varena, cap * sizeof(u64));
        if (!a) return -1;
        varena = a;
        varena_cap = cap;
    }
    for (size_t i = 0; i < out->n; i++) varena[varena_n + i] = out->a[i] * SPREAD;
    r->rows[0] = (uint16_t)(varena_n & 0xFFFF);
    r->rows[1] = (uint16_t)(varena_n >> 16);
    r->n1 = (uint16_t)(out->n + 1);
    varena_n += out->n;
    return 0;
}

/* The real cards of the floor's canonical group g. */
static inline u64 real_of(const Floor *f, u64 g) {
    u64 real = f->copies[0] & (g & ROW) * SPREAD;
    if (g >> 13)
        real |= (f->copies[1] & (g >> 13 & ROW) * SPREAD) | (f->copies[2] & (g >> 26 & ROW) * SPREAD) |
                (f->copies[3] & (g >> 39) * SPREAD);
    return real;
}

/* The groups of a floor with two loose cards of one value, translated to its real cards (reused per lookup). */
static Vec dup_buf;

/* The answer of (what, v, t) on the floor: masks m whose real cards are `loose & m`, valid until the next lookup.
 * The answer depends only on the loose cards of values up to t: when those hold no two of one value (always on a
 * value floor, most often on the others too), it is a value floor's answer, from the shared tables. */
static inline __attribute__((always_inline)) int lookup(const Floor *f, int what, int v, int t, const u64 **arr,
                                                        uint32_t *n, u64 tmp[3]) {
    u64 cut = f->value_floor ? f->fold & (((u64)1 << t) - 1) : f->canon & UP_TO[t];
    if (__builtin_expect(!(cut >> 13), 1)) {
        Run *r = what == MAXIMAL ? &caps_table[t][cut] : &t_table[t][cut * T_SLOTS + (u64)t_slot(what, v)];
        if (__builtin_expect(!r->n1, 0) && fill_run(cut, r, what, v, t)) return -1;
        *n = (uint32_t)r->n1 - 1;
        if (*n <= 3) {
            tmp[0] = r->rows[0] * SPREAD;
            tmp[1] = r->rows[1] * SPREAD;
            tmp[2] = r->rows[2] * SPREAD;
            *arr = tmp;
        } else {
            *arr = varena + ((size_t)r->rows[0] | (size_t)r->rows[1] << 16);
        }
        return 0;
    }
    uint32_t off;
    if (groups_of(cut, what, v, t, &off, n)) return -1;
    dup_buf.n = 0;
    for (uint32_t i = 0; i < *n; i++)
        if (vec_push(&dup_buf, real_of(f, arena[off + i]))) return -1;
    *arr = dup_buf.a;
    return 0;
}

#define REAL(f, g) ((f).loose & (g))

/* -- legal plays (plays.py) ------------------------------------------------------------------------------------ */

static u64 locked_values(u64 others) {
    u64 locked = 0;
    for (u64 m = others; m; m &= m - 1) locked |= (u64)1 << VAL[low_index(m)];
    return locked;
}

/* The maximal groups of `value` of any floor, real cards, in the floor's canonical order ("maximal_groups"). With
 * `maximal` 0, the optional ones ("optional_groups"). */
static int real_groups(u64 loose, int value, int maximal, Vec *out) {
    Floor f;
    uint32_t off, n;
    floor_copies(&f, loose);
    if (groups_of(f.canon, maximal ? MAXIMAL : OPTIONAL, 0, value, &off, &n)) return -1;
    for (uint32_t i = 0; i < n; i++)
        if (vec_push(out, real_of(&f, arena[off + i]))) return -1;
    return 0;
}

static int restricted_plays(Plays *out, int c, int v, int bid, const u64 *caps, size_t ncaps, int holds_two,
                            int may_build) {
    if (bid && v != bid) return 0;
    if (plays_push(out, THROW, c, 0, 0, 0)) return -1;
    if (may_build && holds_two)
        for (size_t i = 0; i < ncaps; i++)
            if (caps[i] && plays_push(out, ESTABLISH, c, v, 0, caps[i])) return -1;
    return 0;
}

static int break_with_loose(Plays *out, int c, int v, int h, u64 loose, u64 house_bits, u64 add_same_ok,
                            u64 new_ok, u64 twice) {
    int maximal;
    if (house_bits >> v & 1) {
        if (!(add_same_ok >> v & 1)) return 0;
        maximal = 0;
    } else if ((new_ok >> v & 1) && (twice >> v & 1)) {
        maximal = 1;
    } else {
        return 0;
    }
    Vec subs = {0}, extras = {0}, seen = {0};
    /* subsets_summing(loose, v - h): the canonical floor's subsets, translated */
    Floor f;
    floor_copies(&f, loose);
    Vec canon = {0};
    int rc = summing(f.canon, v - h, &canon);
    for (size_t i = 0; !rc && i < canon.n; i++) rc = vec_push(&subs, real_of(&f, canon.a[i]));
    vec_free(&canon);
    for (size_t i = 0; !rc && i < subs.n; i++) {
        u64 s = subs.a[i];
        extras.n = 0;
        rc = real_groups(loose ^ s, v, maximal, &extras);
        for (size_t j = 0; !rc && j < extras.n; j++) {
            u64 o = s | extras.a[j];
            int dup = 0;
            for (size_t q = 0; q < seen.n; q++)
                if (seen.a[q] == o) { dup = 1; break; }
            if (!dup) {
                rc = vec_push(&seen, o);
                if (!rc) rc = plays_push(out, BREAK, c, v, h, o);
            }
        }
    }
    vec_free(&subs);
    vec_free(&extras);
    vec_free(&seen);
    return rc;
}

/* plays.py's plays_of: every legal play after the bid play. */
static int plays_of(Plays *out, u64 hand, int seat, u64 loose, u64 house_bits, u64 uncemented, const u64 owned_by[4],
                    int max_houses, int bwl, u64 restricted) {
    u64 lo = hand & 0x3FFFFFFULL, hi = hand >> 26;
    u64 either = lo | hi, both = lo & hi;
    u64 present = (either | either >> 13) << 1;
    u64 twice = (both | both >> 13 | (either & either >> 13)) << 1;
    Floor f;
    if (floor_setup(&f, loose)) return -1;
    u64 reach = (u64)f.reach;
    const uint16_t *builders = f.builders;
    u64 free_cards = restricted ? hand & ~restricted : hand;
    u64 add_ok = 0, add_same_ok = 0, breakable = 0, new_ok = 0, est_ok = 0, build_vals = 0, merge_or_new = 0;
    const u64 *arr;
    u64 tmp[3];
    uint32_t n;
    if (house_bits) {
        u64 owned = owned_by[seat];
        u64 not_owned = ~owned;
        u64 partners = owned_by[seat ^ 2] & not_owned;
        breakable = uncemented & not_owned;
        new_ok = present & (0x3E00 ^ house_bits);
        if (restricted) new_ok &= ~locked_values(restricted & ~hand);
        est_ok = (!max_houses || popcount(house_bits) < max_houses) ? new_ok : 0;
        add_ok = house_bits & (partners | present);
        add_same_ok = house_bits & (partners | twice);
        build_vals = builders[(est_ok | add_ok) >> 9] | (est_ok & twice) | add_same_ok;
        merge_or_new = add_ok | new_ok;
        for (u64 hb = breakable; hb; hb &= hb - 1) {
            int h = low_index(hb);
            build_vals |= merge_or_new >> h;
            if (bwl) build_vals |= (0x3FFFULL << (h + 1)) & 0x3E00;
        }
        build_vals &= present & (not_owned | twice);
    } else if (reach) {
        new_ok = est_ok = restricted ? present & 0x3E00 & ~locked_values(restricted & ~hand) : present & 0x3E00;
        build_vals = (builders[est_ok >> 9] | (est_ok & twice)) & present;
    }
    /* Capture, else throw. */
    u64 takers = reach | house_bits;
    for (u64 vs = present & takers & 0x3FFE; vs; vs &= vs - 1) {
        int v = low_index(vs);
        if (lookup(&f, MAXIMAL, 0, v, &arr, &n, tmp)) return -1;
        if (push_plays(out, CAPTURE, free_cards & VALUE_MASK[v], 0, 0, f.loose, arr, n)) return -1;
    }
    u64 x = (~takers & 0x3FFE) >> 1;
    static const u64 nothing[1] = {0};
    if (push_plays(out, THROW, free_cards & x * SPREAD, 0, 0, 0, nothing, 1)) return -1;
    if (restricted && (hand & restricted)) {
        for (u64 cs = hand & restricted; cs; cs &= cs - 1) {
            int c = low_index(cs), v = VAL[c];
            Vec caps = {0};
            int rc = loose ? real_groups(loose, v, 1, &caps) : vec_push(&caps, 0);
            if (!rc) rc = restricted_plays(out, c, v, 0, caps.a, caps.n, (int)(twice >> v & 1), (int)(est_ok >> v & 1));
            vec_free(&caps);
            if (rc) return -1;
        }
    }
    if (!build_vals) return 0;
    /* Establish a new house of value t. */
    for (u64 ts = est_ok & 0x3E00; ts; ts &= ts - 1) {
        int t = low_index(ts);
        for (u64 vs = builders[1 << (t - 9)] & build_vals; vs; vs &= vs - 1) {
            int v = low_index(vs);
            if (lookup(&f, ESTABLISH_OPTIONS, v, t, &arr, &n, tmp)) return -1;
            if (push_plays(out, ESTABLISH, free_cards & VALUE_MASK[v], t, 0, f.loose, arr, n)) return -1;
        }
    }
    /* A house cemented at once. */
    if ((est_ok & twice) && loose) {
        for (u64 vs = est_ok & twice & build_vals & 0x3FFE; vs; vs &= vs - 1) {
            int v = low_index(vs);
            if (lookup(&f, MAXIMAL, 0, v, &arr, &n, tmp)) return -1;
            if (!arr[0]) continue;
            if (push_plays(out, ESTABLISH, free_cards & VALUE_MASK[v], v, 0, f.loose, arr, n)) return -1;
        }
    }
    if (!house_bits) return 0;
    /* Add to the house of value w. */
    for (u64 ws = add_ok & 0x3E00; ws; ws &= ws - 1) {
        int w = low_index(ws);
        u64 vals = builders[1 << (w - 9)] | (add_same_ok & (u64)1 << w);
        for (u64 vs = vals & build_vals & 0x3FFE; vs; vs &= vs - 1) {
            int v = low_index(vs);
            if (lookup(&f, ADD_OPTIONS, v, w, &arr, &n, tmp)) return -1;
            if (push_plays(out, ADD, free_cards & VALUE_MASK[v], w, 0, f.loose, arr, n)) return -1;
        }
    }
    if (!breakable) return 0;
    /* Break the ordinary house of value h. */
    for (u64 hs = breakable & 0x3E00; hs; hs &= hs - 1) {
        int h = low_index(hs);
        for (u64 vs = (merge_or_new >> h) & build_vals & 0x3FFE; vs; vs &= vs - 1) {
            int v = low_index(vs);
            int nv = h + v;
            int what = (house_bits >> nv & 1) ? OPTIONAL : MAXIMAL;
            if (lookup(&f, what, 0, nv, &arr, &n, tmp)) return -1;
            if (push_plays(out, BREAK, free_cards & VALUE_MASK[v], nv, h, f.loose, arr, n)) return -1;
        }
        if (bwl) {
            for (u64 vs = present & build_vals & (0x3FFFULL << (h + 1)) & 0x3E00; vs; vs &= vs - 1) {
                int v = low_index(vs);
                for (u64 cs = free_cards & VALUE_MASK[v]; cs; cs &= cs - 1)
                    if (break_with_loose(out, low_index(cs), v, h, loose, house_bits, add_same_ok, new_ok, twice))
                        return -1;
            }
        }
    }
    return 0;
}

/* plays.py's _restricted_bid_plays. */
static int restricted_bid_plays(Plays *out, u64 hand, u64 loose, int bid, u64 restricted) {
    int reach = sums_reached(loose);
    u64 locked = restricted ? locked_values(restricted & ~hand) : 0;
    int may_build = !(locked >> bid & 1);
    Vec caps = {0}, subs = {0}, us = {0}, seen = {0};
    int rc = loose ? real_groups(loose, bid, 1, &caps) : vec_push(&caps, 0);
    for (u64 cs = hand; !rc && cs; cs &= cs - 1) {
        int c = low_index(cs), v = VAL[c];
        if (restricted >> c & 1) {
            rc = restricted_plays(out, c, v, bid, caps.a, caps.n, popcount(hand & VALUE_MASK[v]) > 1, may_build);
            continue;
        }
        if (v == bid) {
            if (caps.a[0]) {
                for (size_t i = 0; !rc && i < caps.n; i++) rc = plays_push(out, CAPTURE, c, 0, 0, caps.a[i]);
            } else {
                rc = plays_push(out, THROW, c, 0, 0, 0);
            }
            if (!rc && may_build && popcount(hand & VALUE_MASK[v]) > 1 && caps.a[0])
                for (size_t i = 0; !rc && i < caps.n; i++) rc = plays_push(out, ESTABLISH, c, v, 0, caps.a[i]);
        } else if (v < bid && may_build && (reach >> (bid - v) & 1)) {
            seen.n = 0;
            subs.n = 0;
            rc = summing(loose, bid - v, &subs);
            for (size_t i = 0; !rc && i < subs.n; i++) {
                u64 s = subs.a[i];
                us.n = 0;
                rc = real_groups(loose ^ s, bid, 1, &us);
                for (size_t j = 0; !rc && j < us.n; j++) {
                    u64 o = s | us.a[j];
                    int dup = 0;
                    for (size_t q = 0; q < seen.n; q++)
                        if (seen.a[q] == o) { dup = 1; break; }
                    if (!dup) {
                        rc = vec_push(&seen, o);
                        if (!rc) rc = plays_push(out, ESTABLISH, c, bid, 0, o);
                    }
                }
            }
        }
    }
    vec_free(&caps);
    vec_free(&subs);
    vec_free(&us);
    vec_free(&seen);
    return rc;
}

/* plays.py's _bid_plays: the bid play. */
static int bid_plays(Plays *out, u64 hand, u64 loose, int bid, u64 restricted) {
    if (restricted || !loose) return restricted_bid_plays(out, hand, loose, bid, restricted);
    Floor f;
    if (floor_setup(&f, loose)) return -1;
    const u64 *caps, *arr;
    u64 tmp[3];
    uint32_t cn, n;
    if (lookup(&f, MAXIMAL, 0, bid, &caps, &cn, tmp)) return -1;
    Vec real_caps = {0};
    for (uint32_t i = 0; i < cn; i++)
        if (vec_push(&real_caps, REAL(f, caps[i]))) { vec_free(&real_caps); return -1; }
    int holds_two = popcount(hand & VALUE_MASK[bid]) > 1;
    for (u64 cs = hand; cs; cs &= cs - 1) {
        int c = low_index(cs), v = VAL[c];
        if (v == bid) {
            if (real_caps.a[0]) {
                for (uint32_t i = 0; i < cn; i++)
                    if (plays_push(out, CAPTURE, c, 0, 0, real_caps.a[i])) goto fail;
                if (holds_two)
                    for (uint32_t i = 0; i < cn; i++)
                        if (plays_push(out, ESTABLISH, c, v, 0, real_caps.a[i])) goto fail;
            } else if (plays_push(out, THROW, c, 0, 0, 0)) {
                goto fail;
            }
        } else if (v < bid && (f.reach >> (bid - v) & 1)) {
            if (lookup(&f, ESTABLISH_OPTIONS, v, bid, &arr, &n, tmp)) goto fail;
            for (uint32_t i = 0; i < n; i++)
                if (plays_push(out, ESTABLISH, c, bid, 0, REAL(f, arr[i]))) goto fail;
        }
    }
    vec_free(&real_caps);
    return 0;
fail:
    vec_free(&real_caps);
    return -1;
}

/* -- rules and deals (deal.py) ------------------------------------------------------------------------------------ */

typedef struct {
    int max_houses, break_with_loose;
    int sweep_points, bid_sweep_points, last_sweep_points, sweep_scores_card_value;
    int majority_points, satthi_points, total_card_points;
    u64 restricted, redeal_cards;
    int points[52];
} Rules;

typedef struct {
    u64 cards;
    uint8_t cemented, owners;
} House;

typedef struct {
    uint8_t seat, index;
    int16_t points;
} Sweep;

typedef struct {
    const Rules *rules;
    int players, dealer, bid, phase, to_move, last_capturer, nplays, nsweeps;
    uint8_t deck[52];
    u64 hands[4];
    u64 loose;
    House houses[14];
    u64 house_bits, uncemented, owned_by[4];
    u64 piles[2];
    u64 restricted;
    Sweep sweeps[PLAYS_PER_DEAL + 1];
    Play plays[PLAYS_PER_DEAL];
} Deal;

static int next_seat(const Deal *d, int p) { return (p + 1) % d->players; }

static void deal_setup(Deal *d, const Rules *rules, int players, int dealer, const uint8_t deck[52]) {
    memset(d, 0, sizeof(*d));
    d->rules = rules;
    d->players = players;
    d->dealer = dealer;
    memcpy(d->deck, deck, 52);
    int bidder = (dealer + 1) % players;
    d->hands[bidder] = (u64)1 << deck[0] | (u64)1 << deck[1] | (u64)1 << deck[2] | (u64)1 << deck[3];
    d->loose = (u64)1 << deck[4] | (u64)1 << deck[5] | (u64)1 << deck[6] | (u64)1 << deck[7];
    d->phase = PHASE_BID;
    d->to_move = bidder;
    d->last_capturer = -1;
    d->restricted = rules->restricted;
}

static u64 legal_bids(const Deal *d) {
    u64 out = 0;
    if (d->phase != PHASE_BID) return 0;
    for (int v = 9; v < 14; v++)
        if (d->hands[d->to_move] & VALUE_MASK[v]) out |= (u64)1 << v;
    return out;
}

/* deal.py's make_bid, for a bid from the legal bids: the floor is turned face up and the bid play is due. */
static void deal_bid(Deal *d, int value) {
    d->bid = value;
    d->phase = PHASE_PLAY;
}

static int deal_legal_plays(const Deal *d, Plays *out) {
    out->n = 0;
    if (d->phase != PHASE_PLAY) return 0;
    int p = d->to_move;
    if (d->nplays)
        return plays_of(out, d->hands[p], p, d->loose, d->house_bits, d->uncemented, d->owned_by,
                        d->rules->max_houses, d->rules->break_with_loose, d->restricted);
    return bid_plays(out, d->hands[p], d->loose, d->bid, d->restricted);
}

static int joined_owners(int owners, int seat, int players) {
    int me = 1 << seat;
    int team = players == 4 ? me | 1 << ((seat + 2) % 4) : me;
    if ((owners & team & ~me) && !(owners & me)) return owners;
    return owners | me;
}

static void join_house(Deal *d, int value, u64 cards, int owners, int seat) {
    owners = joined_owners(owners, seat, d->players);
    d->houses[value].cards = cards;
    d->houses[value].cemented = 1;
    d->houses[value].owners = (uint8_t)owners;
    d->uncemented &= ~((u64)1 << value);
    if (owners >> seat & 1) d->owned_by[seat] |= (u64)1 << value;
}

static void drop_house(Deal *d, int value) {
    u64 keep = ~((u64)1 << value);
    d->house_bits &= keep;
    d->uncemented &= keep;
    for (int s = 0; s < 4; s++) d->owned_by[s] &= keep;
}

static int sweep_value(const Rules *r, int card, int index) {
    if (index == LAST_PLAY) return r->last_sweep_points;
    if (r->sweep_scores_card_value) return VAL[card];
    return index == 0 ? r->bid_sweep_points : r->sweep_points;
}

static u64 mask_of_deck(const uint8_t *deck, int from, int to) {
    u64 m = 0;
    for (int i = from; i < to; i++) m |= (u64)1 << deck[i];
    return m;
}

static void deal_turn(Deal *d, int index) {
    if (index == LAST_PLAY) {
        if (d->loose && d->last_capturer >= 0) {
            d->piles[d->last_capturer] |= d->loose;
            d->loose = 0;
        }
        d->phase = PHASE_OVER;
        return;
    }
    if (index == 0) {
        int i = 8;
        if (d->players == 4) {
            static const int ks[11] = {1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
            for (int j = 0; j < 11; j++, i += 4)
                d->hands[(d->dealer + 1 + ks[j]) % 4] |= mask_of_deck(d->deck, i, i + 4);
        } else {
            int order[5] = {d->dealer, 1 - d->dealer, d->dealer, 1 - d->dealer, d->dealer};
            for (int j = 0; j < 5; j++, i += 4) d->hands[order[j]] |= mask_of_deck(d->deck, i, i + 4);
        }
    } else if (d->players == 2) {
        int bidder = (d->dealer + 1) % 2;
        d->hands[bidder] = mask_of_deck(d->deck, 28, 40);
        d->hands[1 - bidder] = mask_of_deck(d->deck, 40, 52);
    }
    d->to_move = next_seat(d, d->to_move);
}

/* deal.py's Deal.play, for a play taken from the legal plays. */
static void deal_play(Deal *d, const Play *play) {
    int p = d->to_move;
    int kind = play->kind, c = play->card, value = play->house, broken = play->broken;
    u64 m = play->loose;
    u64 bit = (u64)1 << c;
    d->hands[p] ^= bit;
    int index = d->nplays;
    d->plays[d->nplays++] = *play;
    if (kind == THROW) {
        d->loose |= bit;
        if (d->restricted) d->restricted &= ~bit;
    } else {
        d->loose ^= m;
        if (kind == CAPTURE) {
            u64 taken = m | bit;
            int v = VAL[c];
            if (d->house_bits >> v & 1) {
                taken |= d->houses[v].cards;
                d->houses[v].cards = 0;
                drop_house(d, v);
            }
            d->piles[p & 1] |= taken;
            d->last_capturer = p & 1;
            if (!d->loose && !d->house_bits) {
                Sweep *s = &d->sweeps[d->nsweeps++];
                s->seat = (uint8_t)p;
                s->index = (uint8_t)index;
                s->points = (int16_t)sweep_value(d->rules, c, index);
            }
        } else {
            if (kind == ADD) {
                join_house(d, value, d->houses[value].cards | m | bit, d->houses[value].owners, p);
            } else {
                u64 cards;
                int has_target;
                if (kind == ESTABLISH) {
                    cards = m | bit;
                    has_target = 0;
                } else {
                    cards = d->houses[broken].cards | m | bit;
                    d->houses[broken].cards = 0;
                    drop_house(d, broken);
                    has_target = (int)(d->house_bits >> value & 1);
                }
                if (!has_target) {
                    int cemented = mask_value_sum(cards) != (u64)value;
                    d->houses[value].cards = cards;
                    d->houses[value].cemented = (uint8_t)cemented;
                    d->houses[value].owners = (uint8_t)(1 << p);
                    d->house_bits |= (u64)1 << value;
                    if (!cemented) d->uncemented |= (u64)1 << value;
                    d->owned_by[p] |= (u64)1 << value;
                } else {
                    join_house(d, value, d->houses[value].cards | cards, d->houses[value].owners, p);
                }
            }
            if (d->restricted && kind != ADD) d->restricted &= ~VALUE_MASK[value];
        }
    }
    if (index == 0 || index == FIRST_HALF_PLAYS - 1 || index == LAST_PLAY)
        deal_turn(d, index);
    else
        d->to_move = next_seat(d, p);
}

static int card_points(const Rules *r, u64 cards) {
    int s = 0;
    for (u64 m = cards; m; m &= m - 1) s += r->points[low_index(m)];
    return s;
}

/* Card points (majority and Satthi included), sweep points and cards taken of each team of a finished deal. */
static void deal_score(const Deal *d, int out[6]) {
    const Rules *r = d->rules;
    int taken[2] = {popcount(d->piles[0]), popcount(d->piles[1])};
    int cp[2] = {card_points(r, d->piles[0]), card_points(r, d->piles[1])};
    for (int t = 0; t < 2; t++)
        if (taken[t] > 26) cp[t] += r->majority_points;
    if (r->satthi_points)
        for (int t = 0; t < 2; t++)
            if (cp[t] == r->total_card_points) cp[t] = r->satthi_points;
    int sp[2] = {0, 0};
    for (int i = 0; i < d->nsweeps; i++) sp[d->sweeps[i].seat & 1] += d->sweeps[i].points;
    out[0] = cp[0];
    out[1] = cp[1];
    out[2] = sp[0];
    out[3] = sp[1];
    out[4] = taken[0];
    out[5] = taken[1];
}

/* -- Python's random.Random (MT19937), state passed in and handed back ------------------------------------------- */

typedef struct {
    uint32_t mt[624];
    int index;
} MT;

/* The next 624 words of the generator (the twist), once every 624 draws: apart from genrand, which is inlined. */
static __attribute__((noinline)) void mt_twist(MT *s) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    uint32_t *mt = s->mt;
    int kk;
    for (kk = 0; kk < 624 - 397; kk++) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1u];
    }
    for (; kk < 623; kk++) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1u];
    }
    y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
    mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1u];
    s->index = 0;
}

/* The next word, as CPython's genrand_uint32: a random deal draws over two hundred. */
static inline uint32_t genrand(MT *s) {
    if (__builtin_expect(s->index >= 624, 0)) mt_twist(s);
    uint32_t y = s->mt[s->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static double rng_random(MT *s) {
    uint32_t a = genrand(s) >> 5, b = genrand(s) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random._randbelow(n), n >= 1 (getrandbits of n's bit length until below n). */
static size_t rng_below(MT *s, size_t n) {
    int k = 64 - __builtin_clzll((unsigned long long)n);
    uint32_t r;
    do r = genrand(s) >> (32 - k);
    while (r >= n);
    return r;
}

/* How a random index into a list of n is drawn: "floor" as the bench does (floor(random() * n)), "below" as
 * random.choice and random.randrange do. */
enum { DRAW_FLOOR = 0, DRAW_BELOW = 1 };

static size_t draw(MT *s, int how, size_t n) {
    if (how == DRAW_FLOOR) return (size_t)(rng_random(s) * (double)n);
    return rng_below(s, n);
}

static int mt_from_state(PyObject *state, MT *s) {
    /* The inner state of random.Random.getstate(): 624 words and the index. */
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 625) {
        PyErr_SetString(PyExc_ValueError, "a random state is random.Random().getstate()[1]: 625 integers");
        return -1;
    }
    for (int i = 0; i < 625; i++) {
        unsigned long x = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (PyErr_Occurred()) return -1;
        if (i < 624)
            s->mt[i] = (uint32_t)x;
        else
            s->index = (int)x;
    }
    if (s->index > 624 || s->index < 0) {
        PyErr_SetString(PyExc_ValueError, "bad random state index");
        return -1;
    }
    return 0;
}

static PyObject *mt_to_state(const MT *s) {
    PyObject *t = PyTuple_New(625);
    if (!t) return NULL;
    for (int i = 0; i < 624; i++) {
        PyObject *x = PyLong_FromUnsignedLong(s->mt[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    PyObject *x = PyLong_FromLong(s->index);
    if (!x) { Py_DECREF(t); return NULL; }
    PyTuple_SET_ITEM(t, 624, x);
    return t;
}

/* deal.py's shuffled_pack: 52 draws of random() as keys, the cards sorted (stably) by their keys. A key's 53 bits
 * order as the float does; with the card below them, equal keys keep the cards' order, as Python's stable sort. */
static void shuffled_pack(MT *s, uint8_t deck[52]) {
    u64 keys[52], sorted[52];
    int count[65] = {0};
    for (int c = 0; c < 52; c++) {
        uint32_t a = genrand(s) >> 5, b = genrand(s) >> 6;
        keys[c] = ((u64)a << 26 | b) << 6 | (u64)c;
        count[(keys[c] >> 53) + 1]++;
    }
    /* a counting sort on the top 6 bits, then insertion sort (the keys are uniform: the runs are short) */
    for (int i = 0; i < 64; i++) count[i + 1] += count[i];
    for (int c = 0; c < 52; c++) sorted[count[keys[c] >> 53]++] = keys[c];
    for (int i = 1; i < 52; i++) {
        u64 k = sorted[i];
        int j = i - 1;
        while (j >= 0 && sorted[j] > k) {
            sorted[j + 1] = sorted[j];
            j--;
        }
        sorted[j + 1] = k;
    }
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)(sorted[i] & 63);
}

static int redeal_needed(const Rules *r, const uint8_t deck[52]) {
    if (VAL[deck[0]] < 9 && VAL[deck[1]] < 9 && VAL[deck[2]] < 9 && VAL[deck[3]] < 9) return 1;
    if (r->redeal_cards && (mask_of_deck(deck, 4, 8) & r->redeal_cards)) return 1;
    return 0;
}

/* -- conversions ---------------------------------------------------------------------------------------------------- */

static PyObject *throw_tuples[52];
static PyObject *zero_int;

/* The play tuples made, kept for the next time the same play is legal: a play is one of a finite set (a kind, a
 * card, a house, a broken house, a mask of loose cards), its tuple is immutable, and the same plays come again and
 * again (the same floors, the same hands), so handing back the tuple already made saves making a tuple and its
 * mask's int, and freeing them when the list is done with. A table of PLAY_BUCKETS buckets of two plays each, a
 * bucket to a cache line, the play used last first: a new play put in a full bucket pushes out the one used less
 * lately (its tuple is freed when no list holds it any more). At most 2 * PLAY_BUCKETS tuples are kept (32,768:
 * about 4 MB, and 1 MB of table; -DPLAY_BUCKET_BITS=n sets another size, for experiments). Throws, 52 plays in
 * all, are made once at import. */
#ifndef PLAY_BUCKET_BITS
#define PLAY_BUCKET_BITS 14
#endif
#define PLAY_BUCKETS ((size_t)1 << PLAY_BUCKET_BITS)
typedef struct {
    u64 loose;
    uint32_t head; /* play_head: the play's kind, card, house and broken house */
    PyObject *tuple; /* NULL: empty */
} KeptPlay;
typedef struct {
    KeptPlay way[2];
    char pad[64 - 2 * sizeof(KeptPlay)];
} PlayBucket;
static PlayBucket *play_buckets;

static PyObject *new_play_tuple(const Play *p) {
    PyObject *t = PyTuple_New(5);
    if (!t) return NULL;
    PyObject *m = PyLong_FromUnsignedLongLong(p->loose);
    if (!m) { Py_DECREF(t); return NULL; }
    PyTuple_SET_ITEM(t, 0, PyLong_FromLong(p->kind));
    PyTuple_SET_ITEM(t, 1, PyLong_FromLong(p->card));
    PyTuple_SET_ITEM(t, 2, PyLong_FromLong(p->house));
    PyTuple_SET_ITEM(t, 3, PyLong_FromLong(p->broken));
    PyTuple_SET_ITEM(t, 4, m);
    PyObject_GC_UnTrack(t); /* ints only: it can be in no cycle (the collector would find so itself, later) */
    return t;
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address, write) __builtin_prefetch((address), (write))
#else
#define PREFETCH(address, write) ((void)(address))
#endif

/* A play's kind, card, house and broken house as one word: its first four bytes, read at once. */
static inline uint32_t play_head(const Play *p) {
    uint32_t head;
    memcpy(&head, p, sizeof head);
    return head;
}

static inline PlayBucket *play_bucket(const Play *p) {
    u64 h = p->loose * 0x9E3779B97F4A7C15ULL ^ (u64)play_head(p) * 0xC2B2AE3D27D4EB4FULL;
    return &play_buckets[h >> (64 - PLAY_BUCKET_BITS)];
}

/* The tuple (kind, card, house, broken, loose) of `p` (not a throw), kept in `b` (its bucket): a new reference. */
static PyObject *kept_play_tuple(const Play *p, PlayBucket *b) {
    uint32_t head = play_head(p);
    KeptPlay *w = b->way;
    if (w[0].tuple && w[0].loose == p->loose && w[0].head == head) {
        Py_INCREF(w[0].tuple);
        return w[0].tuple;
    }
    if (w[1].tuple && w[1].loose == p->loose && w[1].head == head) {
        KeptPlay hit = w[1];
        w[1] = w[0];
        w[0] = hit;
        Py_INCREF(hit.tuple);
        return hit.tuple;
    }
    PyObject *t = new_play_tuple(p);
    if (!t) return NULL;
    PyObject *old = w[1].tuple;
    w[1] = w[0];
    Py_INCREF(t);
    w[0].tuple = t;
    w[0].loose = p->loose;
    w[0].head = head;
    Py_XDECREF(old); /* a tuple of ints: freeing it runs no Python code */
    return t;
}

/* The plays as a list of tuples (kind, card, house, broken, loose), as plays.py makes them. The buckets of up to
 * PLAY_BATCH plays are fetched from memory together, then their tuples, so that the waits for memory overlap
 * (they are most of the time a list takes to make). */
#define PLAY_BATCH 32
static PyObject *plays_to_list(const Play *a, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    PlayBucket *buckets[PLAY_BATCH];
    for (size_t start = 0; start < n; start += PLAY_BATCH) {
        size_t m = n - start < PLAY_BATCH ? n - start : PLAY_BATCH;
        const Play *batch = a + start;
        for (size_t j = 0; j < m; j++) {
            buckets[j] = batch[j].kind == THROW ? NULL : play_bucket(&batch[j]);
            PREFETCH(buckets[j] ? (void *)buckets[j] : (void *)throw_tuples[batch[j].card], 1);
        }
        for (size_t j = 0; j < m; j++)
            if (buckets[j]) {
                const KeptPlay *w = buckets[j]->way;
                PREFETCH(w[w[0].loose != batch[j].loose].tuple, 1);
            }
        for (size_t j = 0; j < m; j++) {
            PyObject *t;
            if (buckets[j]) {
                t = kept_play_tuple(&batch[j], buckets[j]);
                if (!t) { Py_DECREF(list); return NULL; }
            } else {
                t = throw_tuples[batch[j].card];
                Py_INCREF(t);
            }
            PyList_SET_ITEM(list, (Py_ssize_t)(start + j), t);
        }
    }
    return list;
}

/* CPython before 3.12 keeps an int as its digits (ob_digit, PyLong_SHIFT bits each, the lowest first) and their
 * number, negative for a negative int (Py_SIZE): an int of at most two digits (every card mask, seat, value and
 * owner mask of a legal_plays call) is read here in a few instructions, where the API's general loops and checks
 * cost a fifth of the call. 1: read into *out; 0: not such an int (the caller asks the API). */
#if PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
static inline int small_int(PyObject *o, u64 *out) {
    if (!PyLong_CheckExact(o)) return 0;
    Py_ssize_t size = Py_SIZE(o);
    const digit *d = ((PyLongObject *)o)->ob_digit;
    if (size == 0) *out = 0;
    else if (size == 1) *out = d[0];
    else if (size == 2) *out = (u64)d[0] | (u64)d[1] << PyLong_SHIFT;
    else return 0;
    return 1;
}
#else
static inline int small_int(PyObject *o, u64 *out) { (void)o; (void)out; return 0; }
#endif

/* PyLong_AsLong(o), the common case (a small non-negative int) read directly. */
static inline long long_arg(PyObject *o) {
    u64 v;
    if (small_int(o, &v) && v >> 31 == 0) return (long)v;
    return PyLong_AsLong(o);
}

/* A flag: True and False by identity, anything else by its truth. */
static inline int flag_arg(PyObject *o) { return o == Py_False ? 0 : o == Py_True ? 1 : PyObject_IsTrue(o); }

/* A card mask given as an int. PyLong_AsLongLongAndOverflow reads an int of two or three digits directly, where
 * PyLong_AsUnsignedLongLong goes through a byte array: a mask of 52 bits is read a few times faster so. */
static int mask_arg(PyObject *o, u64 *out) {
    if (small_int(o, out) && *out >> 52 == 0) return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && !overflow && PyErr_Occurred()) return -1;
    if (overflow || v < 0 || (u64)v >> 52) {
        PyErr_SetString(PyExc_ValueError, "a card mask has 52 bits");
        return -1;
    }
    *out = (u64)v;
    return 0;
}

/* Rules from the tuple that taash.seep.core.core_rules makes. */
static int rules_from_tuple(PyObject *o, Rules *r) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 12) {
        PyErr_SetString(PyExc_TypeError, "rules are taash.seep.core.core_rules(rules)");
        return -1;
    }
    long v[9];
    for (int i = 0; i < 9; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (PyErr_Occurred()) return -1;
    }
    r->max_houses = (int)v[0];
    r->break_with_loose = (int)v[1];
    r->sweep_points = (int)v[2];
    r->bid_sweep_points = (int)v[3];
    r->last_sweep_points = (int)v[4];
    r->sweep_scores_card_value = (int)v[5];
    r->majority_points = (int)v[6];
    r->satthi_points = (int)v[7];
    r->total_card_points = (int)v[8];
    if (mask_arg(PyTuple_GET_ITEM(o, 9), &r->restricted) || mask_arg(PyTuple_GET_ITEM(o, 10), &r->redeal_cards))
        return -1;
    PyObject *pts = PyTuple_GET_ITEM(o, 11);
    if (!PyTuple_Check(pts) || PyTuple_GET_SIZE(pts) != 52) {
        PyErr_SetString(PyExc_TypeError, "card points: 52 integers");
        return -1;
    }
    for (int i = 0; i < 52; i++) {
        r->points[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(pts, i));
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

static int house_summary(PyObject *houses, u64 *house_bits, u64 *uncemented, u64 owned_by[4]) {
    *house_bits = *uncemented = 0;
    owned_by[0] = owned_by[1] = owned_by[2] = owned_by[3] = 0;
    if (!PyDict_Check(houses)) {
        PyErr_SetString(PyExc_TypeError, "houses: a dict {value: (cards, cemented, owners)}");
        return -1;
    }
    if (!PyDict_GET_SIZE(houses)) return 0; /* most floors: no house (and the dict's table need not be read) */
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(houses, &pos, &k, &v)) {
        long w = long_arg(k);
        if (w == -1 && PyErr_Occurred()) return -1;
        if (w < 9 || w > 13 || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 3) {
            PyErr_SetString(PyExc_ValueError, "a house is value 9..13: (cards, cemented, owners)");
            return -1;
        }
        int cemented = flag_arg(PyTuple_GET_ITEM(v, 1));
        long owners = long_arg(PyTuple_GET_ITEM(v, 2));
        if (cemented < 0 || (owners == -1 && PyErr_Occurred())) return -1;
        u64 bit = (u64)1 << w;
        *house_bits |= bit;
        if (!cemented) *uncemented |= bit;
        for (int s = 0; s < 4; s++)
            if (owners >> s & 1) owned_by[s] |= bit;
    }
    return 0;
}

static Plays scratch;

/* The plays in `scratch` as a list of tuples. They are copied out first: making Python objects may run the garbage
 * collector, and a finalizer could ask for legal plays again, which would reuse `scratch`. */
static PyObject *scratch_to_list(void) {
    Play local[128];
    Play *copy = scratch.n <= 128 ? local : malloc(scratch.n * sizeof(Play));
    if (!copy) return PyErr_NoMemory();
    size_t n = scratch.n;
    memcpy(copy, scratch.a, n * sizeof(Play));
    PyObject *list = plays_to_list(copy, n);
    if (copy != local) free(copy);
    return list;
}

/* -- the module's functions ------------------------------------------------------------------------------------ */

PyDoc_STRVAR(plays_of_doc,
             "plays_of(hand, seat, loose, house_bits, uncemented, owned_by, max_houses, break_with_loose, restricted)"
             "\n--\n\nplays.plays_of with the floor's facts worked out here: every legal play after the bid play.");

static PyObject *py_plays_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "plays_of takes 9 arguments");
        return NULL;
    }
    u64 hand, loose, house_bits, uncemented, restricted, owned[4] = {0, 0, 0, 0};
    if (mask_arg(args[0], &hand) || mask_arg(args[2], &loose) || mask_arg(args[3], &house_bits) ||
        mask_arg(args[4], &uncemented) || mask_arg(args[8], &restricted))
        return NULL;
    long seat = long_arg(args[1]);
    long max_houses = long_arg(args[6]);
    int bwl = flag_arg(args[7]);
    if (((seat == -1 || max_houses == -1) && PyErr_Occurred()) || bwl < 0) return NULL;
    PyObject *seq = PySequence_Fast(args[5], "owned_by: 4 masks");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n && i < 4; i++)
        if (mask_arg(PySequence_Fast_GET_ITEM(seq, i), &owned[i])) { Py_DECREF(seq); return NULL; }
    Py_DECREF(seq);
    if (seat < 0 || seat > 3 || (house_bits & ~(u64)0x3E00) || (uncemented & ~house_bits)) {
        PyErr_SetString(PyExc_ValueError, "seat 0..3, house values 9..13");
        return NULL;
    }
    cache_trim();
    scratch.n = 0;
    if (plays_of(&scratch, hand, (int)seat, loose, house_bits, uncemented, owned, (int)max_houses, bwl, restricted))
        return PyErr_NoMemory();
    return scratch_to_list();
}

PyDoc_STRVAR(bid_plays_doc, "bid_plays(hand, loose, bid, restricted)\n--\n\nplays._bid_plays: the bid play.");

static PyObject *py_bid_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "bid_plays takes 4 arguments");
        return NULL;
    }
    u64 hand, loose, restricted;
    if (mask_arg(args[0], &hand) || mask_arg(args[1], &loose) || mask_arg(args[3], &restricted)) return NULL;
    long bid = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (bid < 9 || bid > 13) {
        PyErr_SetString(PyExc_ValueError, "a bid is 9 to 13");
        return NULL;
    }
    cache_trim();
    scratch.n = 0;
    if (bid_plays(&scratch, hand, loose, (int)bid, restricted)) return PyErr_NoMemory();
    return scratch_to_list();
}

PyDoc_STRVAR(legal_plays_doc,
             "legal_plays(hand, seat, players, loose, houses, bid=0, max_houses=0, break_with_loose=False, "
             "restricted=0)\n--\n\nplays.legal_plays.");

static PyObject *py_legal_plays(PyObject *self, PyObject *const *given, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *names[9] = {"hand", "seat", "players", "loose", "houses", "bid", "max_houses",
                                   "break_with_loose", "restricted"};
    PyObject *args[9] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    nargs = PyVectorcall_NARGS(nargs);
    if (nargs > 9) {
        PyErr_SetString(PyExc_TypeError, "legal_plays takes at most 9 arguments");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) args[i] = given[i];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nk; k++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        if (!name) return NULL;
        int j = 0;
        while (j < 9 && strcmp(names[j], name)) j++;
        if (j == 9 || args[j]) {
            PyErr_Format(PyExc_TypeError, "legal_plays() got an unexpected or repeated argument '%s'", name);
            return NULL;
        }
        args[j] = given[nargs + k];
    }
    for (int j = 0; j < 5; j++)
        if (!args[j]) {
            PyErr_Format(PyExc_TypeError, "legal_plays() missing argument '%s'", names[j]);
            return NULL;
        }
    nargs = 9;
    while (nargs > 5 && !args[nargs - 1]) nargs--;
    for (int j = 5; j < nargs; j++)
        if (!args[j]) args[j] = j == 7 ? Py_False : zero_int;
    u64 hand, loose, restricted = 0, house_bits, uncemented, owned[4];
    if (mask_arg(args[0], &hand) || mask_arg(args[3], &loose)) return NULL;
    long seat = long_arg(args[1]);
    long bid = nargs > 5 ? long_arg(args[5]) : 0;
    long max_houses = nargs > 6 ? long_arg(args[6]) : 0;
    int bwl = nargs > 7 ? flag_arg(args[7]) : 0;
    if (((seat == -1 || bid == -1 || max_houses == -1) && PyErr_Occurred()) || bwl < 0) return NULL;
    if (nargs > 8 && mask_arg(args[8], &restricted)) return NULL;
    if (seat < 0 || seat > 3 || (bid && (bid < 9 || bid > 13))) {
        PyErr_SetString(PyExc_ValueError, "seat 0..3, a bid 9..13");
        return NULL;
    }
    cache_trim();
    scratch.n = 0;
    if (bid) {
        if (bid_plays(&scratch, hand, loose, (int)bid, restricted)) return PyErr_NoMemory();
    } else {
        if (house_summary(args[4], &house_bits, &uncemented, owned)) return NULL;
        if (plays_of(&scratch, hand, (int)seat, loose, house_bits, uncemented, owned, (int)max_houses, bwl,
                     restricted))
            return PyErr_NoMemory();
    }
    return scratch_to_list();
}

/* A packed position for timing legal-play generation alone: what plays_of and bid_plays read. */
typedef struct {
    u64 hand, loose, house_bits, uncemented, owned[4], restricted;
    int seat, bid, max_houses, bwl;
} Packed;

PyDoc_STRVAR(pack_positions_doc,
             "pack_positions(samples)\n--\n\nPositions given as the arguments of legal_plays, packed for "
             "count_legal.");

static PyObject *py_pack_positions(PyObject *self, PyObject *samples) {
    PyObject *seq = PySequence_Fast(samples, "samples: a sequence of legal_plays argument tuples");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(Packed));
    if (!bytes) { Py_DECREF(seq); return NULL; }
    Packed *out = (Packed *)PyBytes_AS_STRING(bytes);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        Packed *p = &out[i];
        memset(p, 0, sizeof(*p));
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 9 || mask_arg(PyTuple_GET_ITEM(t, 0), &p->hand) ||
            mask_arg(PyTuple_GET_ITEM(t, 3), &p->loose) ||
            house_summary(PyTuple_GET_ITEM(t, 4), &p->house_bits, &p->uncemented, p->owned) ||
            mask_arg(PyTuple_GET_ITEM(t, 8), &p->restricted)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a sample is the 9 arguments of legal_plays");
            Py_DECREF(seq);
            Py_DECREF(bytes);
            return NULL;
        }
        p->seat = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        p->bid = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 5));
        p->max_houses = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 6));
        p->bwl = PyObject_IsTrue(PyTuple_GET_ITEM(t, 7));
        if (PyErr_Occurred()) { Py_DECREF(seq); Py_DECREF(bytes); return NULL; }
    }
    Py_DECREF(seq);
    return bytes;
}

PyDoc_STRVAR(count_legal_doc,
             "count_legal(packed)\n--\n\nGenerate the legal plays of every packed position once (in C, no Python "
             "objects); the total number of plays.");

static PyObject *py_count_legal(PyObject *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE)) return NULL;
    const Packed *ps = view.buf;
    size_t n = (size_t)view.len / sizeof(Packed);
    long long total = 0;
    int rc = 0;
    cache_trim();
    for (size_t i = 0; i < n && !rc; i++) {
        const Packed *p = &ps[i];
        scratch.n = 0;
        if (p->bid)
            rc = bid_plays(&scratch, p->hand, p->loose, p->bid, p->restricted);
        else
            rc = plays_of(&scratch, p->hand, p->seat, p->loose, p->house_bits, p->uncemented, p->owned,
                          p->max_houses, p->bwl, p->restricted);
        total += (long long)scratch.n;
    }
    PyBuffer_Release(&view);
    if (rc) return PyErr_NoMemory();
    return PyLong_FromLongLong(total);
}

/* One random deal from the generator, as benchmarks.seep.random_deals and Deal.shuffled deal it. */
static int random_deal(Deal *d, const Rules *rules, int players, int dealer, MT *rng, int how, int *scores) {
    uint8_t deck[52];
    do shuffled_pack(rng, deck);
    while (redeal_needed(rules, deck));
    deal_setup(d, rules, players, dealer, deck);
    u64 bids = legal_bids(d);
    int vals[5], nb = 0;
    for (u64 b = bids; b; b &= b - 1) vals[nb++] = low_index(b);
    deal_bid(d, vals[draw(rng, how, (size_t)nb)]);
    while (d->phase == PHASE_PLAY) {
        if (deal_legal_plays(d, &scratch)) return -1;
        deal_play(d, &scratch.a[draw(rng, how, scratch.n)]);
    }
    deal_score(d, scores);
    return 0;
}

PyDoc_STRVAR(random_deals_doc,
             "random_deals(rules, players, n, state, scores=False)\n--\n\nPlay n random full deals as "
             "taash.benchmarks.seep.random_deals does (dealer i % players, every choice floor(random() * count)) "
             "from the random state `state` (random.Random().getstate()[1]). Returns (plays made, the state after, "
             "the deals' scores or None): each score is (card points, card points, sweep points, sweep points, "
             "cards taken, cards taken).");

static PyObject *py_random_deals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 4 || nargs > 5) {
        PyErr_SetString(PyExc_TypeError, "random_deals takes 4 or 5 arguments");
        return NULL;
    }
    Rules rules;
    MT rng;
    if (rules_from_tuple(args[0], &rules)) return NULL;
    long players = PyLong_AsLong(args[1]);
    long long n = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (players != 2 && players != 4) {
        PyErr_SetString(PyExc_ValueError, "Seep is played by 2 or 4 players");
        return NULL;
    }
    if (mt_from_state(args[3], &rng)) return NULL;
    int want = nargs > 4 ? PyObject_IsTrue(args[4]) : 0;
    if (want < 0) return NULL;
    PyObject *scores = want ? PyList_New(0) : (Py_INCREF(Py_None), Py_None);
    if (!scores) return NULL;
    cache_trim();
    long long plays = 0;
    Deal d;
    for (long long i = 0; i < n; i++) {
        int s[6];
        if (random_deal(&d, &rules, (int)players, (int)(i % players), &rng, DRAW_FLOOR, s)) {
            Py_DECREF(scores);
            return PyErr_NoMemory();
        }
        plays += d.nplays;
        if (want) {
            PyObject *t = Py_BuildValue("(iiiiii)", s[0], s[1], s[2], s[3], s[4], s[5]);
            if (!t || PyList_Append(scores, t)) { Py_XDECREF(t); Py_DECREF(scores); return NULL; }
            Py_DECREF(t);
        }
    }
    PyObject *state = mt_to_state(&rng);
    if (!state) { Py_DECREF(scores); return NULL; }
    return Py_BuildValue("(LNN)", plays, state, scores);
}

/* A deal in progress from a tuple (rules, players, dealer, deck, hands, loose, houses, plays made, bid, to_move,
 * last_capturer, restricted, piles, sweeps): what deal.py's Deal holds. The plays made are only counted (their index
 * matters: the turning points and the sweep values). */
static int deal_from_tuple(PyObject *o, Rules *rules, Deal *d) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 14) {
        PyErr_SetString(PyExc_TypeError, "a deal is the 14-tuple Deal.core_state() makes");
        return -1;
    }
    memset(d, 0, sizeof(*d));
    if (rules_from_tuple(PyTuple_GET_ITEM(o, 0), rules)) return -1;
    d->rules = rules;
    d->players = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    d->dealer = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 2));
    PyObject *deck = PyTuple_GET_ITEM(o, 3);
    if (PyErr_Occurred()) return -1;
    if ((d->players != 2 && d->players != 4) || d->dealer < 0 || d->dealer >= d->players || !PyTuple_Check(deck) ||
        PyTuple_GET_SIZE(deck) != 52) {
        PyErr_SetString(PyExc_ValueError, "players 2 or 4, a dealer seat, a deck of 52 cards");
        return -1;
    }
    u64 seen = 0;
    for (int i = 0; i < 52; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(deck, i));
        if (PyErr_Occurred()) return -1;
        if (c < 0 || c > 51) {
            PyErr_SetString(PyExc_ValueError, "a card is 0 to 51");
            return -1;
        }
        d->deck[i] = (uint8_t)c;
        seen |= (u64)1 << c;
    }
    if (seen != ((u64)1 << 52) - 1) {
        PyErr_SetString(PyExc_ValueError, "the deck must hold each of the 52 cards once");
        return -1;
    }
    PyObject *hands = PyTuple_GET_ITEM(o, 4);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != d->players) {
        PyErr_SetString(PyExc_ValueError, "a hand per seat");
        return -1;
    }
    for (int s = 0; s < d->players; s++)
        if (mask_arg(PyTuple_GET_ITEM(hands, s), &d->hands[s])) return -1;
    if (mask_arg(PyTuple_GET_ITEM(o, 5), &d->loose)) return -1;
    PyObject *houses = PyTuple_GET_ITEM(o, 6);
    if (house_summary(houses, &d->house_bits, &d->uncemented, d->owned_by)) return -1;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(houses, &pos, &k, &v)) {
        long w = PyLong_AsLong(k);
        if (mask_arg(PyTuple_GET_ITEM(v, 0), &d->houses[w].cards)) return -1;
        d->houses[w].cemented = (uint8_t)PyObject_IsTrue(PyTuple_GET_ITEM(v, 1));
        d->houses[w].owners = (uint8_t)PyLong_AsLong(PyTuple_GET_ITEM(v, 2));
    }
    d->nplays = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 7));
    d->bid = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 8));
    d->to_move = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 9));
    d->last_capturer = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 10));
    if (mask_arg(PyTuple_GET_ITEM(o, 11), &d->restricted)) return -1;
    PyObject *piles = PyTuple_GET_ITEM(o, 12);
    if (!PyTuple_Check(piles) || PyTuple_GET_SIZE(piles) != 2 || mask_arg(PyTuple_GET_ITEM(piles, 0), &d->piles[0]) ||
        mask_arg(PyTuple_GET_ITEM(piles, 1), &d->piles[1])) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "two piles");
        return -1;
    }
    PyObject *sweeps = PySequence_Fast(PyTuple_GET_ITEM(o, 13), "sweeps: (seat, index, points) each");
    if (!sweeps) return -1;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(sweeps);
    if (ns > d->nplays || d->nplays > PLAYS_PER_DEAL) {
        Py_DECREF(sweeps);
        PyErr_SetString(PyExc_ValueError, "at most a sweep per play made, at most 48 plays");
        return -1;
    }
    for (Py_ssize_t i = 0; i < ns; i++) {
        int seat, index, points;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(sweeps, i), "iii", &seat, &index, &points)) {
            Py_DECREF(sweeps);
            return -1;
        }
        d->sweeps[i].seat = (uint8_t)seat;
        d->sweeps[i].index = (uint8_t)index;
        d->sweeps[i].points = (int16_t)points;
    }
    d->nsweeps = (int)ns;
    Py_DECREF(sweeps);
    if (PyErr_Occurred()) return -1;
    if (d->nplays < 0 || d->nplays > PLAYS_PER_DEAL || d->bid < 9 || d->bid > 13 || d->to_move < 0 ||
        d->to_move >= d->players || d->last_capturer < -1 || d->last_capturer > 1) {
        PyErr_SetString(PyExc_ValueError, "a deal in its play: 0 to 48 plays made, a bid 9 to 13, a seat to move");
        return -1;
    }
    d->phase = d->nplays == PLAYS_PER_DEAL ? PHASE_OVER : PHASE_PLAY;
    return 0;
}

PyDoc_STRVAR(play_out_doc,
             "play_out(deal, state, count=1, draw_below=True, keep_plays=True)\n--\n\nFrom the deal in progress "
             "`deal` (Deal.core_state()), `count` random play-outs to the end, each from the same start, "
             "every play drawn from random state `state` (random.Random().getstate()[1]) as random.randrange does "
             "(or as floor(random() * count) with draw_below=False). Returns (the state after, [per play-out: "
             "(plays made or None, piles, sweeps, last_capturer, score, loose, houses, hands, restricted, to_move)])"
             ": what the deal holds at its end, its plays from `deal` on, its sweeps all (those before `deal` too) as "
             "(seat, index, points), its score as random_deals gives it.");

static PyObject *py_play_out(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 2 || nargs > 5) {
        PyErr_SetString(PyExc_TypeError, "play_out takes 2 to 5 arguments");
        return NULL;
    }
    Rules rules;
    Deal start, d;
    MT rng;
    if (deal_from_tuple(args[0], &rules, &start) || mt_from_state(args[1], &rng)) return NULL;
    long long count = nargs > 2 ? PyLong_AsLongLong(args[2]) : 1;
    int below = nargs > 3 ? PyObject_IsTrue(args[3]) : 1;
    int keep = nargs > 4 ? PyObject_IsTrue(args[4]) : 1;
    if (PyErr_Occurred() || below < 0 || keep < 0) return NULL;
    PyObject *results = PyList_New(0);
    if (!results) return NULL;
    cache_trim();
    int first = start.nplays;
    for (long long i = 0; i < count; i++) {
        d = start;
        d.rules = &rules;
        while (d.phase == PHASE_PLAY) {
            if (deal_legal_plays(&d, &scratch)) { Py_DECREF(results); return PyErr_NoMemory(); }
            if (!scratch.n) {
                Py_DECREF(results);
                PyErr_SetString(PyExc_ValueError, "no legal play in this position (the parts do not fit together)");
                return NULL;
            }
            deal_play(&d, &scratch.a[draw(&rng, below ? DRAW_BELOW : DRAW_FLOOR, scratch.n)]);
        }
        int s[6];
        deal_score(&d, s);
        PyObject *plays = keep ? plays_to_list(d.plays + first, (size_t)(d.nplays - first)) : (Py_INCREF(Py_None), Py_None);
        PyObject *sweeps = PyList_New(d.nsweeps);
        if (!plays || !sweeps) { Py_XDECREF(plays); Py_XDECREF(sweeps); Py_DECREF(results); return NULL; }
        for (int j = 0; j < d.nsweeps; j++)
            PyList_SET_ITEM(sweeps, j, Py_BuildValue("(iii)", d.sweeps[j].seat, d.sweeps[j].index, d.sweeps[j].points));
        PyObject *houses = PyDict_New();
        if (!houses) { Py_DECREF(plays); Py_DECREF(sweeps); Py_DECREF(results); return NULL; }
        for (u64 hb = d.house_bits; hb; hb &= hb - 1) {
            int w = low_index(hb);
            PyObject *k = PyLong_FromLong(w);
            PyObject *h = Py_BuildValue("(KOi)", (unsigned long long)d.houses[w].cards,
                                        d.houses[w].cemented ? Py_True : Py_False, d.houses[w].owners);
            if (!k || !h || PyDict_SetItem(houses, k, h)) {
                Py_XDECREF(k); Py_XDECREF(h); Py_DECREF(houses); Py_DECREF(plays); Py_DECREF(sweeps);
                Py_DECREF(results);
                return NULL;
            }
            Py_DECREF(k);
            Py_DECREF(h);
        }
        PyObject *hands = PyTuple_New(d.players);
        if (!hands) { Py_DECREF(houses); Py_DECREF(plays); Py_DECREF(sweeps); Py_DECREF(results); return NULL; }
        for (int j = 0; j < d.players; j++) PyTuple_SET_ITEM(hands, j, PyLong_FromUnsignedLongLong(d.hands[j]));
        PyObject *r = Py_BuildValue("(N(KK)Ni(iiiiii)KNNKi)", plays, (unsigned long long)d.piles[0],
                                    (unsigned long long)d.piles[1], sweeps, d.last_capturer, s[0], s[1], s[2], s[3],
                                    s[4], s[5], (unsigned long long)d.loose, houses, hands,
                                    (unsigned long long)d.restricted, d.to_move);
        if (!r || PyList_Append(results, r)) { Py_XDECREF(r); Py_DECREF(results); return NULL; }
        Py_DECREF(r);
    }
    PyObject *state = mt_to_state(&rng);
    if (!state) { Py_DECREF(results); return NULL; }
    return Py_BuildValue("(NN)", state, results);
}

/* -- the greedy play-out of the search (bots/seep/rollout.py's greedy_play and greedy_scores) ------------------- */

/* Whether `loose` splits wholly into groups each adding up to `v` (a card of value v takes all of it). */
static int splits_wholly(u64 loose, int v);

/* Groups holding the cards picked so far and adding up to `need` more, from `avail` (cards above the last picked),
 * leaving `rest` for the other groups. */
static int split_pick(u64 avail, int need, u64 rest, int v) {
    if (!need) return splits_wholly(rest, v);
    for (u64 m = avail; m; m &= m - 1) {
        int c = low_index(m);
        if (VAL[c] > need) continue;
        u64 bit = (u64)1 << c;
        if (split_pick(avail & ~((bit << 1) - 1), need - VAL[c], rest ^ bit, v)) return 1;
    }
    return 0;
}

static int splits_wholly(u64 loose, int v) {
    if (!loose) return 1;
    int c = low_index(loose);
    u64 rest = loose & (loose - 1);
    if (VAL[c] > v) return 0;
    return split_pick(rest, v - VAL[c], rest, v);
}

/* groups.py's sweep_values: bit v for each value v whose card, capturing, takes every one of `loose`. */
static u64 sweep_values_of(u64 loose) {
    if (!loose) return 0;
    int total = (int)mask_value_sum(loose);
    u64 row = (loose | loose >> 13 | loose >> 26 | loose >> 39) & ROW;
    u64 found = 0;
    for (int v = 64 - __builtin_clzll(row); v < 14; v++)
        if (total % v == 0 && splits_wholly(loose, v)) found |= (u64)1 << v;
    return found;
}

static size_t *greedy_ties;
static size_t greedy_ties_cap;

/* heuristic.py's holds_probability: the chance that a hand of `hand_size` cards drawn from `unknown` cards holds one
 * of `of_value` of them (the same arithmetic, so the same float). */
static double holds_probability(int unknown, int of_value, int hand_size) {
    if (of_value <= 0 || hand_size <= 0 || unknown <= 0) return 0.0;
    if (hand_size >= unknown) return 1.0;
    double miss = 1.0;
    for (int i = 0; i < hand_size; i++) {
        miss *= (double)(unknown - of_value - i) / (double)(unknown - i);
        if (miss <= 0) return 1.0;
    }
    return 1.0 - miss;
}

/* The cards `seat` has not seen (view.py's unseen): those in the other hands and those still to be dealt. */
static u64 unseen_by(const Deal *d, int seat) {
    u64 unseen = d->nplays == 0 ? mask_of_deck(d->deck, 8, 52)
                 : d->players == 2 && d->nplays < FIRST_HALF_PLAYS ? mask_of_deck(d->deck, 28, 52) : 0;
    for (int s = 0; s < d->players; s++)
        if (s != seat) unseen |= d->hands[s];
    return unseen;
}

/* rollout.py's greedy_play: the index of the play of `legal` (more than one) that the greedy play-out makes. With
 * `counted` (rollout.py's counted_play), the mover does not read the next hand: it counts the cards it has not seen
 * and holds a sweep the next player could make against a play in proportion to the chance that he can. */
static long greedy_index(const Deal *d, const Plays *legal, MT *rng, int counted) {
    const Rules *r = d->rules;
    int index = d->nplays, last = index == LAST_PLAY, n_houses = popcount(d->house_bits);
    u64 nxt = d->hands[(d->to_move + 1) % d->players];
    u64 house_cards = 0;
    for (u64 hb = d->house_bits; hb; hb &= hb - 1) house_cards |= d->houses[low_index(hb)].cards;
    u64 unseen = 0;
    if (counted) unseen = unseen_by(d, d->to_move);
    u64 known = counted ? unseen : nxt;
    u64 nxt_values = nxt && !last ? ((known | known >> 13 | known >> 26 | known >> 39) & ROW) << 1 : 0;
    int by_value = r->sweep_scores_card_value;
    int sweep_next = by_value || index + 1 >= LAST_PLAY ? 0 : sweep_value(r, 0, index + 1);
    if (greedy_ties_cap < legal->n) {
        size_t *a = realloc(greedy_ties, legal->n * sizeof(size_t));
        if (!a) return -1;
        greedy_ties = a;
        greedy_ties_cap = legal->n;
    }
    double best = -1e9;
    size_t nties = 0;
    for (size_t i = 0; i < legal->n; i++) {
        const Play *p = &legal->a[i];
        int kind = p->kind, c = p->card, value = p->house;
        u64 bit = (u64)1 << c, m = p->loose, left, taken = 0;
        int houses_left, check;
        double score;
        if (kind == CAPTURE) {
            int v = VAL[c];
            taken = m | bit;
            if (d->house_bits >> v & 1) {
                taken |= d->houses[v].cards;
                houses_left = n_houses - 1;
            } else {
                houses_left = n_houses;
            }
            left = d->loose ^ m;
            score = (double)card_points(r, taken) + 0.1 * popcount(taken);
            if (!left && !houses_left) {
                if (!last) score += sweep_value(r, c, index);
                check = 0;
            } else {
                check = 1;
            }
        } else {
            score = -0.05 * (r->points[c] + 1);
            if (kind == THROW) {
                left = d->loose | bit;
                houses_left = n_houses;
            } else {
                left = d->loose ^ m;
                if (kind == ESTABLISH) houses_left = n_houses + 1;
                else if (kind == ADD) houses_left = n_houses;
                else houses_left = d->house_bits >> value & 1 ? n_houses - 1 : n_houses;
            }
            check = 1;
        }
        if (check && nxt_values && houses_left <= 1) {
            int total = (int)mask_value_sum(left);
            u64 divides = 0;
            for (int v = 1; v < 14; v++)
                if (total % v == 0) divides |= (u64)1 << v;
            u64 values;
            if (houses_left == 0) {
                values = divides & nxt_values ? sweep_values_of(left) & nxt_values : 0;
            } else {
                int house;
                if (kind == CAPTURE) house = low_index(d->house_bits & ~((u64)1 << VAL[c]));
                else if (kind == ESTABLISH || kind == BREAK) house = value;
                else house = low_index(d->house_bits);
                values = nxt_values & divides & (u64)1 << house;
                if (values && left && !(sweep_values_of(left) & values)) values = 0;
            }
            if (values) {
                u64 on_floor = left | house_cards;
                if (kind == CAPTURE) on_floor &= ~taken;
                else if (kind != THROW) on_floor |= m | bit;
                int lost = card_points(r, on_floor) + (by_value ? 63 - __builtin_clzll(values) : sweep_next);
                if (counted) {
                    u64 sweepers = 0;
                    for (u64 vb = values; vb; vb &= vb - 1) sweepers |= VALUE_MASK[low_index(vb)];
                    score -= holds_probability(popcount(unseen), popcount(unseen & sweepers), popcount(nxt)) * lost;
                } else {
                    score -= lost;
                }
            }
        }
        if (score > best + 1e-9) {
            best = score;
            greedy_ties[0] = i;
            nties = 1;
        } else if (score > best - 1e-9) {
            greedy_ties[nties++] = i;
        }
    }
    return (long)(nties == 1 ? greedy_ties[0] : greedy_ties[draw(rng, DRAW_FLOOR, nties)]);
}

/* -- the lite heuristic play-out (bots/seep/lite.py's lite_scores and lite_play) ----------------------------------- */

/* The heuristic bot's score of each of `legal` (heuristic.py's HeuristicBot(inference=False).evaluate, its
 * houses summed in the order of their values) for the seat to move, from what that seat sees of `d`. With `sharp`
 * (lite.py's sharp_play) it reads the other hands instead of counting chances: a chance is 1 when the next hand
 * (for a house's safety, an opponent's) holds a card of the value, else 0. */
static int lite_scores(const Deal *d, const Plays *legal, double *scores, int sharp, u64 unseen) {
    const Rules *r = d->rules;
    int seat = d->to_move, players = d->players, index = d->nplays;
    int unknown = popcount(unseen);
    int nxt = (seat + 1) % players;
    int nxt_hand = popcount(d->hands[nxt]) - (index == 0 && players == 4 ? 1 : 0);
    if (index == 0) nxt_hand = 12;
    int remaining = LAST_PLAY - index;
    int ours = players == 4 ? 1 << seat | 1 << ((seat + 2) % 4) : 1 << seat;
    int by_value = r->sweep_scores_card_value;
    int sweep_next = sweep_value(r, 0, index + 1 < LAST_PLAY ? index + 1 : LAST_PLAY);
    int unseen_of[14];
    for (int v = 1; v < 14; v++) unseen_of[v] = popcount(unseen & VALUE_MASK[v]);
    u64 theirs = 0;
    for (int s = 0; s < players; s++)
        if (!(ours >> s & 1)) theirs |= d->hands[s];
    Vec groups = {NULL, 0, 0};
    for (size_t i = 0; i < legal->n; i++) {
        const Play *p = &legal->a[i];
        int kind = p->kind, c = p->card, value = p->house;
        u64 bit = (u64)1 << c, m = p->loose, loose, taken = 0;
        House h[14];
        memcpy(h, d->houses, sizeof(h));
        u64 hbits = d->house_bits;
        if (kind == CAPTURE) {
            int v = VAL[c];
            taken = m | bit;
            if (hbits >> v & 1) {
                taken |= h[v].cards;
                hbits &= ~((u64)1 << v);
            }
            loose = d->loose ^ m;
        } else if (kind == THROW) {
            loose = d->loose | bit;
        } else {
            loose = d->loose ^ m;
            if (kind == ADD) {
                h[value].cards |= m | bit;
                h[value].cemented = 1;
                h[value].owners = (uint8_t)joined_owners(h[value].owners, seat, players);
            } else {
                u64 cards = m | bit;
                if (kind == BREAK) {
                    cards |= h[p->broken].cards;
                    hbits &= ~((u64)1 << p->broken);
                }
                if (hbits >> value & 1) {
                    h[value].cards |= cards;
                    h[value].cemented = 1;
                    h[value].owners = (uint8_t)joined_owners(h[value].owners, seat, players);
                } else {
                    h[value].cards = cards;
                    h[value].cemented = mask_value_sum(cards) != (u64)value;
                    h[value].owners = (uint8_t)(1 << seat);
                    hbits |= (u64)1 << value;
                }
            }
        }
        int gained = card_points(r, taken);
        int n_houses = popcount(hbits);
        double score = (double)gained;
        if (taken && !loose && !hbits) score += sweep_value(r, c, index < LAST_PLAY ? index : LAST_PLAY);
        double danger = 0.0;
        if (remaining > 0 && nxt_hand > 0) {
            for (int v = 1; v < 14; v++) {
                int k = unseen_of[v];
                if (!k) continue;
                int has_house = (int)(hbits >> v & 1);
                u64 hc = has_house ? h[v].cards : 0;
                int others = n_houses - has_house;
                double best = 0.0;
                if (loose) {
                    groups.n = 0;
                    if (real_groups(loose, v, 1, &groups)) { free(groups.a); return -1; }
                    if (!groups.n) {  /* maximal_groups gives (0,) when no group adds up to v */
                        if (vec_push(&groups, 0)) { free(groups.a); return -1; }
                    }
                    for (size_t g = 0; g < groups.n; g++) {
                        u64 u = groups.a[g];
                        if (!u && !has_house) continue;
                        double got = (double)card_points(r, u | hc);
                        if (!(loose & ~u) && !others && remaining > 1) got += by_value ? v : sweep_next;
                        got += 0.1 * popcount(u);
                        if (got > best) best = got;
                    }
                } else if (has_house) {
                    double got = (double)card_points(r, hc);
                    if (n_houses == 1 && remaining > 1) got += by_value ? v : sweep_next;
                    best = got;
                }
                if (best != 0.0) {
                    double chance = sharp ? (d->hands[nxt] & VALUE_MASK[v] ? 1.0 : 0.0)
                                          : holds_probability(unknown, k, nxt_hand);
                    if (best * chance > danger) danger = best * chance;
                }
            }
        }
        score -= danger;
        for (u64 hb = hbits; hb; hb &= hb - 1) {
            int v = low_index(hb);
            if (!(h[v].owners & ours)) continue;
            int hp = card_points(r, h[v].cards);
            double safe = sharp ? (theirs & VALUE_MASK[v] ? 0.0 : 1.0)
                                : 1.0 - holds_probability(unknown, unseen_of[v], unknown / 2 > 1 ? unknown / 2 : 1);
            int had = (int)(d->house_bits >> v & 1);
            int bp = had && d->houses[v].owners & ours ? card_points(r, d->houses[v].cards) : 0;
            score += 0.5 * (double)(hp - bp) * (2 * safe - 1);
            if (h[v].cemented && (!had || !d->houses[v].cemented)) score += 1.0;
        }
        if (remaining > 0 && (loose || hbits) && popcount(loose) + n_houses <= 2) score += 0.5;
        if (kind == THROW) {
            score -= 0.5 * (double)r->points[c];
            if (VAL[c] >= 9) score -= 0.5;
        }
        if (kind == CAPTURE) {
            score += 0.05 * popcount(taken);
            if (remaining < 4) score += 0.5;
        }
        scores[i] = score;
    }
    free(groups.a);
    return 0;
}

static double *lite_buf;
static size_t lite_cap;

/* lite.py's lite_play: the index of the play of `legal` (more than one) of the best lite score, ties (within
 * 1e-9 of the best) drawn as floor(random() * count). */
static long lite_index(const Deal *d, const Plays *legal, MT *rng, int sharp) {
    if (lite_cap < legal->n) {
        double *a = realloc(lite_buf, legal->n * sizeof(double));
        if (!a) return -1;
        lite_buf = a;
        lite_cap = legal->n;
    }
    if (lite_scores(d, legal, lite_buf, sharp, unseen_by(d, d->to_move))) return -1;
    double best = -1e300;
    for (size_t i = 0; i < legal->n; i++)
        if (lite_buf[i] > best) best = lite_buf[i];
    size_t nties = 0, pick;
    for (size_t i = 0; i < legal->n; i++)
        if (lite_buf[i] >= best - 1e-9) nties++;
    pick = nties == 1 ? 0 : draw(rng, DRAW_FLOOR, nties);
    for (size_t i = 0; i < legal->n; i++)
        if (lite_buf[i] >= best - 1e-9 && !pick--) return (long)i;
    return -1;
}

/* -- the lite opponent model (bots/seep/opponent_model.py's log_likelihood with model "lite") ------------------- */

/* One past play of another seat, packed by pack_pasts: what opponent_model.PastPlay holds. */
typedef struct {
    int index, seat, next_seat;
    Play play;
    u64 loose, house_bits, uncemented, owned_by[4], restricted, played_since, next_played_since, seen;
    House houses[14];
} PastC;

PyDoc_STRVAR(pack_pasts_doc,
             "pack_pasts(pasts)\n--\n\nThe past plays `pasts` (tuples (index, seat, play, loose, houses, restricted, "
             "played_since, next_seat, next_played_since, seen), as opponent_model.PastPlay holds them) packed as "
             "bytes for lite_log_likelihood.");

static PyObject *py_pack_pasts(PyObject *self, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "pasts: a sequence of tuples");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(PastC));
    if (!out) { Py_DECREF(seq); return NULL; }
    PastC *a = (PastC *)PyBytes_AS_STRING(out);
    memset(a, 0, (size_t)n * sizeof(PastC));
    for (Py_ssize_t i = 0; i < n; i++) {
        PastC *p = &a[i];
        int kind, card, house, broken;
        unsigned long long pl, loose, restricted, since, next_since, seen;
        PyObject *houses;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii(iiiiK)KO!KKiKK", &p->index, &p->seat, &kind,
                              &card, &house, &broken, &pl, &loose, &PyDict_Type, &houses, &restricted, &since,
                              &p->next_seat, &next_since, &seen))
            goto fail;
        if (p->seat < 0 || p->seat > 3 || p->next_seat < 0 || p->next_seat > 3 || p->index < 1 ||
            p->index > LAST_PLAY || kind < 0 || kind > BREAK || card < 0 || card > 51) {
            PyErr_SetString(PyExc_ValueError, "a past play: seats 0..3, play 1..47, a play tuple");
            goto fail;
        }
        p->play.kind = (uint8_t)kind;
        p->play.card = (uint8_t)card;
        p->play.house = (uint8_t)house;
        p->play.broken = (uint8_t)broken;
        p->play.loose = pl;
        p->loose = loose;
        p->restricted = restricted;
        p->played_since = since;
        p->next_played_since = next_since;
        p->seen = seen;
        if (house_summary(houses, &p->house_bits, &p->uncemented, p->owned_by)) goto fail;
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(houses, &pos, &k, &v)) {
            long w = PyLong_AsLong(k);
            unsigned long long cards = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(v, 0));
            if (PyErr_Occurred()) goto fail;
            p->houses[w].cards = cards;
            p->houses[w].cemented = !(p->uncemented >> w & 1);
            p->houses[w].owners = (uint8_t)PyLong_AsLong(PyTuple_GET_ITEM(v, 2));
        }
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

PyDoc_STRVAR(lite_log_likelihood_doc,
             "lite_log_likelihood(rules, players, packed, hands, temperature, epsilon)\n--\n\nopponent_model.py's "
             "log_likelihood with model \"lite\": the log of the probability of every past play of `packed` "
             "(pack_pasts) when the hidden hands are `hands` today, each play chosen with probability epsilon / n + "
             "(1 - epsilon) * softmax(lite score / temperature) among its n legal plays.");

static PyObject *py_lite_log_likelihood(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "lite_log_likelihood takes 6 arguments");
        return NULL;
    }
    Rules rules;
    if (rules_from_tuple(args[0], &rules)) return NULL;
    long players = PyLong_AsLong(args[1]);
    double temperature = PyFloat_AsDouble(args[4]), epsilon = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred()) return NULL;
    if ((players != 2 && players != 4) || !PyBytes_Check(args[2]) ||
        PyBytes_GET_SIZE(args[2]) % (Py_ssize_t)sizeof(PastC) || !(temperature > 0)) {
        PyErr_SetString(PyExc_ValueError, "players 2 or 4, pasts packed by pack_pasts, a temperature above 0");
        return NULL;
    }
    u64 hands[4] = {0, 0, 0, 0};
    PyObject *seq = PySequence_Fast(args[3], "hands: a sequence of masks");
    if (!seq) return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < nh && i < 4; i++)
        if (mask_arg(PySequence_Fast_GET_ITEM(seq, i), &hands[i])) { Py_DECREF(seq); return NULL; }
    Py_DECREF(seq);
    const PastC *a = (const PastC *)PyBytes_AS_STRING(args[2]);
    size_t n = (size_t)PyBytes_GET_SIZE(args[2]) / sizeof(PastC);
    cache_trim();
    Deal d;
    memset(&d, 0, sizeof(d));
    d.rules = &rules;
    d.players = (int)players;
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        const PastC *p = &a[i];
        u64 hand = hands[p->seat] | p->played_since;
        scratch.n = 0;
        if (plays_of(&scratch, hand, p->seat, p->loose, p->house_bits, p->uncemented, p->owned_by, rules.max_houses,
                     rules.break_with_loose, p->restricted))
            return PyErr_NoMemory();
        size_t count = scratch.n;
        long found = -1;
        for (size_t j = 0; j < count && found < 0; j++) {
            const Play *q = &scratch.a[j];
            if (q->kind == p->play.kind && q->card == p->play.card && q->house == p->play.house &&
                q->broken == p->play.broken && q->loose == p->play.loose)
                found = (long)j;
        }
        if (found < 0) {
            total += log(epsilon / (double)(count + 1));
            continue;
        }
        if (count == 1) continue;
        if (lite_cap < count) {
            double *b = realloc(lite_buf, count * sizeof(double));
            if (!b) return PyErr_NoMemory();
            lite_buf = b;
            lite_cap = count;
        }
        d.to_move = p->seat;
        d.nplays = p->index;
        d.loose = p->loose;
        d.house_bits = p->house_bits;
        memcpy(d.houses, p->houses, sizeof(d.houses));
        memset(d.hands, 0, sizeof(d.hands));
        d.hands[p->seat] = hand;
        d.hands[p->next_seat] = hands[p->next_seat] | p->next_played_since;
        if (lite_scores(&d, &scratch, lite_buf, 0, ~(hand | p->seen) & ((1ULL << 52) - 1))) return PyErr_NoMemory();
        double top = lite_buf[0], sum = 0.0;
        for (size_t j = 1; j < count; j++)
            if (lite_buf[j] > top) top = lite_buf[j];
        for (size_t j = 0; j < count; j++) sum += exp((lite_buf[j] - top) / temperature);
        double chosen = exp((lite_buf[found] - top) / temperature);
        total += log(epsilon / (double)count + (1 - epsilon) * chosen / sum);
    }
    return PyFloat_FromDouble(total);
}

PyDoc_STRVAR(greedy_outcomes_doc,
             "greedy_outcomes(deal, state, plays, team)\n--\n\nFor each play of `plays` (legal in the deal in "
             "progress `deal`, Deal.core_state()): make it, then play the deal to its end with the greedy play-out "
             "(rollout.py's play_out with greedy_play), its ties drawn as floor(random() * count) from random state "
             "`state` (random.Random().getstate()[1]; every play starts from that same state). Returns the list of "
             "what team `team` gained from `deal` on (card points of the cards taken, no majority, and sweep "
             "points) minus what the other team gained, as floats: ismcts.py's outcome of each play.");

PyDoc_STRVAR(counted_outcomes_doc,
             "counted_outcomes(deal, state, plays, team)\n--\n\ngreedy_outcomes with the counting play-out "
             "(rollout.py's counted_play for every seat): the mover does not read the next hand, it holds a sweep "
             "the next player could make against a play in proportion to the chance, from the cards it has not "
             "seen, that he can.");

static PyObject *playout_outcomes(PyObject *const *args, Py_ssize_t nargs, int counted);

static PyObject *py_greedy_outcomes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return playout_outcomes(args, nargs, 0);
}

static PyObject *py_counted_outcomes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return playout_outcomes(args, nargs, 1);
}

PyDoc_STRVAR(lite_outcomes_doc,
             "lite_outcomes(deal, state, plays, team)\n--\n\ngreedy_outcomes with the lite heuristic play-out "
             "(lite.py's lite_play for every seat: the heuristic bot's rules, without its reading of the others' "
             "plays, from what the seat to move sees).");

static PyObject *py_lite_outcomes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return playout_outcomes(args, nargs, 2);
}

PyDoc_STRVAR(sharp_outcomes_doc,
             "sharp_outcomes(deal, state, plays, team)\n--\n\nlite_outcomes where every seat reads the other "
             "hands of the deal (lite.py's sharp_play) instead of counting its chances.");

static PyObject *py_sharp_outcomes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return playout_outcomes(args, nargs, 3);
}

PyDoc_STRVAR(model_outcomes_doc,
             "model_outcomes(deal, state, plays, team)\n--\n\nThe play-outs of lite_outcomes where the seats of "
             "`team` play as sharp_outcomes has them, the others as lite_outcomes (lite.py's model_play).");

static PyObject *py_model_outcomes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return playout_outcomes(args, nargs, 4);
}

/* greedy_outcomes, counted_outcomes (`counted` 1), lite_outcomes (2), sharp_outcomes (3) and model_outcomes (4):
 * the play-outs of `plays`. */
static PyObject *playout_outcomes(PyObject *const *args, Py_ssize_t nargs, int counted) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, counted == 4 ? "model_outcomes takes 4 arguments"
                                          : counted == 3 ? "sharp_outcomes takes 4 arguments"
                                          : counted == 2 ? "lite_outcomes takes 4 arguments"
                                          : counted ? "counted_outcomes takes 4 arguments"
                                                    : "greedy_outcomes takes 4 arguments");
        return NULL;
    }
    Rules rules;
    Deal start, d;
    MT rng0, rng;
    if (deal_from_tuple(args[0], &rules, &start) || mt_from_state(args[1], &rng0)) return NULL;
    long team = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    if (team != 0 && team != 1) {
        PyErr_SetString(PyExc_ValueError, "a team is 0 or 1");
        return NULL;
    }
    PyObject *plays = PySequence_Fast(args[2], "plays: a sequence of plays");
    if (!plays) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(plays);
    start.rules = &rules;
    cache_trim();
    if (deal_legal_plays(&start, &scratch)) { Py_DECREF(plays); return PyErr_NoMemory(); }
    Plays first = {NULL, 0, 0};
    for (size_t i = 0; i < scratch.n; i++)
        if (plays_push(&first, scratch.a[i].kind, scratch.a[i].card, scratch.a[i].house, scratch.a[i].broken,
                       scratch.a[i].loose)) {
            free(first.a);
            Py_DECREF(plays);
            return PyErr_NoMemory();
        }
    PyObject *results = PyList_New(n);
    if (!results) { free(first.a); Py_DECREF(plays); return NULL; }
    int before = start.nsweeps;
    for (Py_ssize_t k = 0; k < n; k++) {
        int kind, card, house, broken;
        unsigned long long loose;
        long found = -1;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(plays, k), "iiiiK", &kind, &card, &house, &broken, &loose))
            goto fail;
        for (size_t i = 0; i < first.n && found < 0; i++) {
            const Play *q = &first.a[i];
            if (q->kind == kind && q->card == card && q->house == house && q->broken == broken && q->loose == loose)
                found = (long)i;
        }
        if (found < 0) {
            PyErr_SetString(PyExc_ValueError, "a play that is not legal in this deal");
            goto fail;
        }
        d = start;
        rng = rng0;
        deal_play(&d, &first.a[found]);
        while (d.phase == PHASE_PLAY) {
            if (deal_legal_plays(&d, &scratch)) { PyErr_NoMemory(); goto fail; }
            if (!scratch.n) {
                PyErr_SetString(PyExc_ValueError, "no legal play in this position (the parts do not fit together)");
                goto fail;
            }
            int sharp = counted == 3 || (counted == 4 && (d.to_move & 1) == team);
            long j = scratch.n == 1 ? 0 : counted >= 2 ? lite_index(&d, &scratch, &rng, sharp)
                                                       : greedy_index(&d, &scratch, &rng, counted);
            if (j < 0) { PyErr_NoMemory(); goto fail; }
            deal_play(&d, &scratch.a[j]);
        }
        int gain[2] = {card_points(&rules, d.piles[0] & ~start.piles[0]),
                       card_points(&rules, d.piles[1] & ~start.piles[1])};
        for (int s = before; s < d.nsweeps; s++) gain[d.sweeps[s].seat & 1] += d.sweeps[s].points;
        PyObject *x = PyFloat_FromDouble((double)(gain[team] - gain[1 - team]));
        if (!x) goto fail;
        PyList_SET_ITEM(results, k, x);
    }
    free(first.a);
    Py_DECREF(plays);
    return results;
fail:
    free(first.a);
    Py_DECREF(plays);
    Py_DECREF(results);
    return NULL;
}

/* -- the batched environment (taash.env.seep_batch) -------------------------------------------------------------
 *
 * N single-deal matches stepped here, each as taash.env.seep_v0 steps one: the same deals from the same seeds, the
 * same action indices (taash.env.seep's module docstring), the same observation (docs/env.md), the same rewards
 * per deal. The rules are the functions above (legal_bids, deal_legal_plays, deal_play, deal_score); this section
 * only deals, numbers the actions and writes the arrays that taash.env.seep_batch hands out. */

/* Python's random.Random(seed) for a seed from 0 to 2**64 - 1: CPython's init_by_array on the seed's 32-bit words,
 * the lowest first (one word for a seed below 2**32). */
static void mt_seed(MT *s, u64 seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int words = seed >> 32 ? 2 : 1;
    uint32_t *mt = s->mt;
    mt[0] = 19650218u;
    for (int i = 1; i < 624; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    int i = 1, j = 0;
    for (int k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        if (++i >= 624) { mt[0] = mt[623]; i = 1; }
        if (++j >= words) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        if (++i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000u;
    s->index = 624;
}

/* random.Random.randrange(2**63): getrandbits(64) (two words, the lower first) until below 2**63. */
static u64 rng_below_2_63(MT *s) {
    u64 r;
    do {
        u64 low = genrand(s);
        r = (u64)genrand(s) << 32 | low;
    } while (r >> 63);
    return r;
}

/* Match(rules, players, seed, 0)'s first deal (match.py): the first dealer rng.randrange(players), then packs
 * shuffled until none needs a redeal (4.2, 7.1), all from random.Random(seed). */
static void match_deal(Deal *d, const Rules *rules, int players, u64 seed) {
    MT rng;
    uint8_t deck[52];
    mt_seed(&rng, seed);
    int dealer = (int)rng_below(&rng, (size_t)players);
    do shuffled_pack(&rng, deck);
    while (redeal_needed(rules, deck));
    deal_setup(d, rules, players, dealer, deck);
}

/* The action indices (taash/env/seep.py): the bids 9..13, the throws, then OPTIONS_MAX blocks of the plays of each
 * card at each of its TARGETS targets. */
#define FIRST_THROW 5
#define FIRST_PLAY (FIRST_THROW + 52)
#define TARGETS 21
#define OPTIONS_MAX 64
/* The first target of breaking the house of h (9..12) into a higher one: the pairs h < n in order. */
static const int FIRST_BREAK_TARGET[13] = {[9] = 11, [10] = 15, [11] = 18, [12] = 20};

/* seep.py's target_of: the target of a play other than a throw. */
static int target_of(const Play *p) {
    switch (p->kind) {
    case CAPTURE: return 0;
    case ESTABLISH: return 1 + p->house - 9;
    case ADD: return 6 + p->house - 9;
    default: return FIRST_BREAK_TARGET[p->broken] + p->house - p->broken - 1;
    }
}

/* The observation's parts (seep.py's SeepEncoding.LAYOUT, docs/env.md), by their offsets. */
enum {
    OBS_HAND = 0, OBS_LOOSE = 52, OBS_HOUSES = 104, OBS_MINE = 364, OBS_THEIRS = 416, OBS_UNSEEN = 468,
    OBS_RESTRICTED = 520, OBS_HOUSE_FACTS = 572, OBS_PHASE = 597, OBS_BID = 599, OBS_BID_PLAY_DUE = 604,
    OBS_TO_MOVE = 605, OBS_DEALER = 609, OBS_HAND_SIZES = 613, OBS_PLAYS_MADE = 617, OBS_CARD_POINTS = 618,
    OBS_SWEEP_POINTS = 620, OBS_MATCH = 622, OBS_SIZE = 626
};
/* seep.py's SWEEP_SCALE: sweep points are observed / 200, at most 1. */
#define SWEEP_SCALE 200.0

/* A legal action of the seat to act: its index and, in the play phase, its play. */
typedef struct {
    int32_t index;
    Play play;
} Action;

typedef struct {
    Deal deal;
    MT seeds;       /* the match seeds, drawn as seep_v0's reset() draws them */
    u64 chooser;    /* random_actions' generator (splitmix64) */
    Action *legal;  /* the legal actions of the seat to act, by ascending index (only those with an index) */
    int nlegal, cap;
} BatchGame;

typedef struct {
    PyObject_HEAD
    Rules rules;
    int players, options, size, action_size;
    double card_scale;
    BatchGame *games;
    /* The arrays written: observations (size x OBS_SIZE float32), action masks (size x action_size int8),
     * rewards (size x players float32), dones (size bool), to_move (size int32). */
    Py_buffer obs, masks, rewards, dones, to_move;
    int held; /* how many of the buffers are held, in that order */
} BatchObject;

static int action_room(BatchGame *g, size_t need) {
    if ((size_t)g->cap >= need) return 0;
    size_t cap = g->cap ? (size_t)g->cap : 64;
    while (cap < need) cap *= 2;
    Action *a = realloc(g->legal, cap * sizeof(Action));
    if (!a) return -1;
    g->legal = a;
    g->cap = (int)cap;
    return 0;
}

/* The order of seep.py's play_indices: throws by card, then the plays by card and target, those of one card at
 * one target by the mask of their loose cards. */
static u64 play_order(const Play *p) {
    if (p->kind == THROW) return (u64)p->card << 52;
    return (u64)(52 + p->card * TARGETS + target_of(p)) << 52 | p->loose;
}

static void sort_actions(Action *a, u64 *keys, int n) {
    for (int i = 1; i < n; i++) {
        Action x = a[i];
        u64 k = keys[i];
        int j = i - 1;
        for (; j >= 0 && keys[j] > k; j--) {
            a[j + 1] = a[j];
            keys[j + 1] = keys[j];
        }
        a[j + 1] = x;
        keys[j + 1] = k;
    }
}

/* The legal actions of the seat to act, numbered (the k-th play of a card at a target, k below `options`). */
static int number_actions(BatchGame *g, int options) {
    const Deal *d = &g->deal;
    g->nlegal = 0;
    if (d->phase == PHASE_BID) {
        if (action_room(g, 5)) return -1;
        for (u64 bids = legal_bids(d); bids; bids &= bids - 1)
            g->legal[g->nlegal++].index = low_index(bids) - 9;
        return 0;
    }
    if (deal_legal_plays(d, &scratch) || action_room(g, scratch.n)) return -1;
    u64 local[256];
    u64 *keys = scratch.n <= 256 ? local : malloc(scratch.n * sizeof(u64));
    if (!keys) return -1;
    int n = (int)scratch.n;
    for (int i = 0; i < n; i++) {
        g->legal[i].play = scratch.a[i];
        keys[i] = play_order(&scratch.a[i]);
    }
    sort_actions(g->legal, keys, n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const Play *p = &g->legal[i].play;
        int index;
        if (p->kind == THROW) {
            index = FIRST_THROW + p->card;
        } else {
            k = i && keys[i] >> 52 == keys[i - 1] >> 52 ? k + 1 : 0;
            if (k >= options) continue; /* past the options of its card and target: no index */
            index = FIRST_PLAY + (p->card * TARGETS + target_of(p)) * options + k;
        }
        g->legal[g->nlegal] = g->legal[i];
        g->legal[g->nlegal++].index = index;
    }
    if (keys != local) free(keys);
    return 0;
}

static void card_plane(float *o, u64 cards) {
    for (; cards; cards &= cards - 1) o[low_index(cards)] = 1.0f;
}

/* seep.py's _relative: a one-hot of `seat` counted from `me`. */
static void relative(float *o, int seat, int me, int players) { o[(seat - me + players) % players] = 1.0f; }

/* Each house's five facts: it exists, cemented, owned by the seat, by its partner, by an opponent. */
static void house_facts(float *o, const Deal *d, int seat) {
    for (int v = 9; v < 14; v++, o += 5) {
        if (!(d->house_bits >> v & 1)) continue;
        int owners = d->houses[v].owners, theirs = 0;
        for (int s = 0; s < d->players; s++)
            if (s % 2 != seat % 2 && owners >> s & 1) theirs = 1;
        o[0] = 1.0f;
        o[1] = d->houses[v].cemented ? 1.0f : 0.0f;
        o[2] = (float)(owners >> seat & 1);
        o[3] = d->players == 4 ? (float)(owners >> ((seat + 2) % 4) & 1) : 0.0f;
        o[4] = (float)theirs;
    }
}

/* SeepEncoding.observation: what `seat` sees of a deal in progress, the match's score 0 (a single deal). */
static void write_observation(const BatchObject *b, const Deal *d, int seat, float *o) {
    int me = seat % 2, bidding = d->phase == PHASE_BID;
    memset(o, 0, OBS_SIZE * sizeof(float));
    u64 loose = bidding ? 0 : d->loose; /* the floor lies face down while the bidder bids */
    u64 seen = d->hands[seat] | loose | (bidding ? 0 : mask_of_deck(d->deck, 4, 8));
    card_plane(o + OBS_HAND, d->hands[seat]);
    card_plane(o + OBS_LOOSE, loose);
    for (int v = 9; v < 14; v++)
        if (d->house_bits >> v & 1) {
            card_plane(o + OBS_HOUSES + 52 * (v - 9), d->houses[v].cards);
            seen |= d->houses[v].cards;
        }
    for (int i = 0; i < d->nplays; i++) seen |= (u64)1 << d->plays[i].card;
    card_plane(o + OBS_MINE, d->piles[me]);
    card_plane(o + OBS_THEIRS, d->piles[1 - me]);
    card_plane(o + OBS_UNSEEN, ~seen & (((u64)1 << 52) - 1));
    card_plane(o + OBS_RESTRICTED, d->restricted);
    house_facts(o + OBS_HOUSE_FACTS, d, seat);
    o[OBS_PHASE + (bidding ? 0 : 1)] = 1.0f;
    if (d->bid) o[OBS_BID + d->bid - 9] = 1.0f;
    o[OBS_BID_PLAY_DUE] = !bidding && !d->nplays ? 1.0f : 0.0f;
    relative(o + OBS_TO_MOVE, d->to_move, seat, d->players);
    relative(o + OBS_DEALER, d->dealer, seat, d->players);
    for (int s = 0; s < d->players; s++)
        o[OBS_HAND_SIZES + (s - seat + d->players) % d->players] = (float)(popcount(d->hands[s]) / 12.0);
    o[OBS_PLAYS_MADE] = (float)(d->nplays / (double)PLAYS_PER_DEAL);
    int sweeps[2] = {0, 0};
    for (int i = 0; i < d->nsweeps; i++) sweeps[d->sweeps[i].seat % 2 == me ? 0 : 1] += d->sweeps[i].points;
    for (int t = 0; t < 2; t++) {
        double points = card_points(d->rules, d->piles[t == 0 ? me : 1 - me]) / b->card_scale;
        o[OBS_CARD_POINTS + t] = (float)(points < 1.0 ? points : 1.0);
        double swept = sweeps[t] / SWEEP_SCALE;
        o[OBS_SWEEP_POINTS + t] = (float)(swept < 1.0 ? swept : 1.0);
    }
    /* OBS_MATCH: the running difference and the baazis stay 0 in a single deal */
}

/* Game i's arrays: its observation, mask, rewards, done flag and seat to act. */
#define OBS_OF(b, i) ((float *)(b)->obs.buf + (size_t)(i) * OBS_SIZE)
#define MASK_OF(b, i) ((int8_t *)(b)->masks.buf + (size_t)(i) * (size_t)(b)->action_size)
#define REWARDS_OF(b, i) ((float *)(b)->rewards.buf + (size_t)(i) * (size_t)(b)->players)

/* Number the legal actions of game i's seat to act and write its observation and mask (the last mask cleared
 * first, by the indices it set). */
static int write_game(BatchObject *b, int i) {
    BatchGame *g = &b->games[i];
    int8_t *mask = MASK_OF(b, i);
    for (int j = 0; j < g->nlegal; j++) mask[g->legal[j].index] = 0;
    if (number_actions(g, b->options)) return -1;
    for (int j = 0; j < g->nlegal; j++) mask[g->legal[j].index] = 1;
    write_observation(b, &g->deal, g->deal.to_move, OBS_OF(b, i));
    ((int32_t *)b->to_move.buf)[i] = g->deal.to_move;
    return 0;
}

/* The next match of game i: a new seed from its series, as seep_v0's reset() without a seed. */
static int next_match(BatchObject *b, int i) {
    BatchGame *g = &b->games[i];
    match_deal(&g->deal, &b->rules, b->players, rng_below_2_63(&g->seeds));
    return write_game(b, i);
}

/* Game i's legal action of index `action`, or NULL. */
static const Action *find_action(const BatchGame *g, long long action) {
    for (int j = 0; j < g->nlegal; j++)
        if (g->legal[j].index == action) return &g->legal[j];
    return NULL;
}

/* Make game i's action; when it ends the deal, hand out each seat's team's margin and deal the next match. */
static int step_game(BatchObject *b, int i, const Action *a) {
    BatchGame *g = &b->games[i];
    Deal *d = &g->deal;
    float *rewards = REWARDS_OF(b, i);
    memset(rewards, 0, (size_t)b->players * sizeof(float));
    ((uint8_t *)b->dones.buf)[i] = 0;
    if (d->phase == PHASE_BID) {
        deal_bid(d, a->index + 9);
        return write_game(b, i);
    }
    deal_play(d, &a->play);
    if (d->phase != PHASE_OVER) return write_game(b, i);
    int s[6];
    deal_score(d, s);
    int margin = s[0] + s[2] - (s[1] + s[3]); /* DealScore.score: card points plus sweep points */
    for (int seat = 0; seat < b->players; seat++) rewards[seat] = (float)(seat % 2 == 0 ? margin : -margin);
    ((uint8_t *)b->dones.buf)[i] = 1;
    return next_match(b, i);
}

static int batch_buffer(PyObject *array, Py_buffer *view, Py_ssize_t bytes, const char *format, const char *what) {
    if (PyObject_GetBuffer(array, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) return -1;
    if (view->len != bytes || !view->format || strcmp(view->format, format)) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous array of %zd bytes of format '%s'", what, bytes, format);
        return -1;
    }
    return 0;
}

static void batch_dealloc(BatchObject *b) {
    Py_buffer *held[5] = {&b->obs, &b->masks, &b->rewards, &b->dones, &b->to_move};
    for (int k = 0; k < b->held; k++) PyBuffer_Release(held[k]);
    if (b->games)
        for (int i = 0; i < b->size; i++) free(b->games[i].legal);
    free(b->games);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *rules, *obs, *masks, *rewards, *dones, *to_move;
    int size, players, options;
    if (kwargs && PyDict_GET_SIZE(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "Batch takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OiiiOOOOO", &rules, &size, &players, &options, &obs, &masks, &rewards, &dones,
                          &to_move))
        return NULL;
    if (size < 1 || (players != 2 && players != 4) || options < 1 || options > OPTIONS_MAX) {
        PyErr_SetString(PyExc_ValueError, "a batch: 1 game or more, 2 or 4 players, options 1 to 64");
        return NULL;
    }
    BatchObject *b = (BatchObject *)type->tp_alloc(type, 0);
    if (!b) return NULL;
    b->size = size;
    b->players = players;
    b->options = options;
    b->action_size = FIRST_PLAY + 52 * TARGETS * options;
    Py_ssize_t n = size, cells = n * b->action_size;
    if (rules_from_tuple(rules, &b->rules)) goto fail;
    b->card_scale = b->rules.total_card_points > 1 ? b->rules.total_card_points : 1;
    if (batch_buffer(obs, &b->obs, n * OBS_SIZE * 4, "f", "observations")) goto fail;
    b->held++;
    if (batch_buffer(masks, &b->masks, cells, "b", "action masks")) goto fail;
    b->held++;
    if (batch_buffer(rewards, &b->rewards, n * players * 4, "f", "rewards")) goto fail;
    b->held++;
    if (batch_buffer(dones, &b->dones, n, "?", "dones")) goto fail;
    b->held++;
    if (batch_buffer(to_move, &b->to_move, n * 4, "i", "to_move")) goto fail;
    b->held++;
    if (!(b->games = calloc((size_t)size, sizeof(BatchGame)))) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)b;
fail:
    Py_DECREF(b);
    return NULL;
}

PyDoc_STRVAR(batch_reset_doc,
             "reset(seed)\n--\n\nA new match in every game: game i's from the series of random.Random(seed + i), "
             "as seep_v0's reset(seed=seed + i) and the reset() calls after it deal them; random_actions' draws "
             "start again from seed + i too. With seed None, each game's next match of its series. Writes every "
             "array.");

static PyObject *batch_reset(BatchObject *b, PyObject *arg) {
    int reseed = arg != Py_None;
    unsigned long long seed = reseed ? PyLong_AsUnsignedLongLong(arg) : 0;
    if (PyErr_Occurred()) return NULL;
    if (reseed && seed + (unsigned long long)b->size - 1 < seed) {
        PyErr_SetString(PyExc_ValueError, "seed + games must stay below 2**64");
        return NULL;
    }
    cache_trim();
    memset(b->masks.buf, 0, (size_t)b->masks.len);
    memset(b->rewards.buf, 0, (size_t)b->rewards.len);
    memset(b->dones.buf, 0, (size_t)b->dones.len);
    for (int i = 0; i < b->size; i++) {
        BatchGame *g = &b->games[i];
        g->nlegal = 0;
        if (reseed) {
            g->chooser = seed + (u64)i;
            mt_seed(&g->seeds, seed + (u64)i);
        }
        if (next_match(b, i)) return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

PyDoc_STRVAR(batch_step_doc,
             "step(actions)\n--\n\nOne action in every game (`actions`: int64, one per game, each legal in its "
             "game's mask). Checks them all first: an illegal one raises ValueError and nothing changes. Writes "
             "every array: the rewards and done flags of this step, then each game's next observation and mask "
             "(a game whose deal ended has already started its next match).");

static PyObject *batch_step(BatchObject *b, PyObject *arg) {
    Py_buffer actions;
    if (PyObject_GetBuffer(arg, &actions, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) return NULL;
    if (actions.len != (Py_ssize_t)b->size * 8 || !actions.format || (strcmp(actions.format, "l") &&
                                                                       strcmp(actions.format, "q"))) {
        PyBuffer_Release(&actions);
        PyErr_Format(PyExc_ValueError, "actions: %d int64 numbers, one per game", b->size);
        return NULL;
    }
    const int64_t *a = actions.buf;
    const Action **chosen = malloc((size_t)b->size * sizeof(*chosen));
    if (!chosen) { PyBuffer_Release(&actions); return PyErr_NoMemory(); }
    for (int i = 0; i < b->size; i++) {
        if (!(chosen[i] = find_action(&b->games[i], a[i]))) {
            PyErr_Format(PyExc_ValueError, "game %d: action %lld is not legal now (the legal ones are in its action "
                         "mask)", i, (long long)a[i]);
            free(chosen);
            PyBuffer_Release(&actions);
            return NULL;
        }
    }
    cache_trim();
    int rc = 0;
    for (int i = 0; i < b->size && !rc; i++) {
        Action act = *chosen[i]; /* a copy: write_game renumbers the game's actions */
        rc = step_game(b, i, &act);
    }
    free(chosen);
    PyBuffer_Release(&actions);
    if (rc) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* splitmix64: random_actions' generator, one per game. */
static u64 splitmix64(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

PyDoc_STRVAR(batch_random_actions_doc,
             "random_actions(out)\n--\n\nA legal action of each game drawn uniformly into `out` (int64, one per "
             "game): the k-th smallest legal index, k = (splitmix64() * count) >> 64 from the game's own generator.");

static PyObject *batch_random_actions(BatchObject *b, PyObject *arg) {
    Py_buffer out;
    if (PyObject_GetBuffer(arg, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) return NULL;
    if (out.len != (Py_ssize_t)b->size * 8 || !out.format || (strcmp(out.format, "l") && strcmp(out.format, "q"))) {
        PyBuffer_Release(&out);
        PyErr_Format(PyExc_ValueError, "out: %d int64 numbers, one per game", b->size);
        return NULL;
    }
    int64_t *o = out.buf;
    for (int i = 0; i < b->size; i++)
        if (!b->games[i].nlegal) {
            PyBuffer_Release(&out);
            PyErr_SetString(PyExc_ValueError, "no legal actions: reset() the batch first");
            return NULL;
        }
    for (int i = 0; i < b->size; i++) {
        BatchGame *g = &b->games[i];
        u64 k = (u64)(((unsigned __int128)splitmix64(&g->chooser) * (u64)g->nlegal) >> 64);
        o[i] = g->legal[k].index;
    }
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyMethodDef batch_methods[] = {
    {"reset", (PyCFunction)batch_reset, METH_O, batch_reset_doc},
    {"step", (PyCFunction)batch_step, METH_O, batch_step_doc},
    {"random_actions", (PyCFunction)batch_random_actions, METH_O, batch_random_actions_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "taash.seep._core.Batch",
    .tp_doc = PyDoc_STR("Batch(rules, games, players, options, observations, masks, rewards, dones, to_move): "
                        "single-deal Seep matches stepped together, writing the given NumPy arrays (see "
                        "taash.env.seep_batch, which makes them). Call reset(seed) first."),
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = batch_new,
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_methods = batch_methods,
};

static PyMethodDef methods[] = {
    {"plays_of", (PyCFunction)(void (*)(void))py_plays_of, METH_FASTCALL, plays_of_doc},
    {"bid_plays", (PyCFunction)(void (*)(void))py_bid_plays, METH_FASTCALL, bid_plays_doc},
    {"legal_plays", (PyCFunction)(void (*)(void))py_legal_plays, METH_FASTCALL | METH_KEYWORDS, legal_plays_doc},
    {"pack_positions", py_pack_positions, METH_O, pack_positions_doc},
    {"count_legal", py_count_legal, METH_O, count_legal_doc},
    {"random_deals", (PyCFunction)(void (*)(void))py_random_deals, METH_FASTCALL, random_deals_doc},
    {"play_out", (PyCFunction)(void (*)(void))py_play_out, METH_FASTCALL, play_out_doc},
    {"greedy_outcomes", (PyCFunction)(void (*)(void))py_greedy_outcomes, METH_FASTCALL, greedy_outcomes_doc},
    {"counted_outcomes", (PyCFunction)(void (*)(void))py_counted_outcomes, METH_FASTCALL, counted_outcomes_doc},
    {"lite_outcomes", (PyCFunction)(void (*)(void))py_lite_outcomes, METH_FASTCALL, lite_outcomes_doc},
    {"sharp_outcomes", (PyCFunction)(void (*)(void))py_sharp_outcomes, METH_FASTCALL, sharp_outcomes_doc},
    {"model_outcomes", (PyCFunction)(void (*)(void))py_model_outcomes, METH_FASTCALL, model_outcomes_doc},
    {"pack_pasts", py_pack_pasts, METH_O, pack_pasts_doc},
    {"lite_log_likelihood", (PyCFunction)(void (*)(void))py_lite_log_likelihood, METH_FASTCALL,
     lite_log_likelihood_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of the Seep engine's hot path (legal plays, plays, random play-outs); see taash.seep.core.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    for (int c = 0; c < 64; c++) VAL[c] = c < 52 ? c % 13 + 1 : 0;
    for (int v = 0; v < 14; v++) {
        VALUE_MASK[v] = 0;
        UP_TO[v] = 0;
        if (v)
            for (int s = 0; s < 4; s++) VALUE_MASK[v] |= (u64)1 << (s * 13 + v - 1);
        for (int s = 0; s < 4; s++)
            for (int r = 0; r < v; r++) UP_TO[v] |= (u64)1 << (13 * s + r);
    }
    if (!slots && cache_init()) return PyErr_NoMemory();
    if (!builders_table) {
        builders_table = calloc(1 << 13, sizeof(*builders_table));
        builders_done = calloc(1 << 13, 1);
        if (!builders_table || !builders_done) return PyErr_NoMemory();
    }
    if (!zero_int && !(zero_int = PyLong_FromLong(0))) return NULL;
    if (!play_buckets) { /* buckets on cache lines: 64-byte aligned */
        char *raw = calloc(PLAY_BUCKETS + 1, sizeof(PlayBucket));
        if (!raw) return PyErr_NoMemory();
        play_buckets = (PlayBucket *)(raw + (64 - (uintptr_t)raw % 64) % 64);
    }
    for (u64 fold = 0; fold < (1 << 13); fold++) reach_of_fold[fold] = (uint16_t)sums_reached(fold);
    for (int v = 1; v < 14; v++) {
        if (!caps_table[v] && !(caps_table[v] = calloc((size_t)1 << v, sizeof(Run)))) return PyErr_NoMemory();
        if (v >= 9 && !t_table[v] && !(t_table[v] = calloc(((size_t)1 << v) * T_SLOTS, sizeof(Run))))
            return PyErr_NoMemory();
    }
    for (int c = 0; c < 52; c++) {
        if (!throw_tuples[c]) {
            throw_tuples[c] = Py_BuildValue("(iiiii)", THROW, c, 0, 0, 0);
            if (!throw_tuples[c]) return NULL;
        }
    }
    if (PyType_Ready(&BatchType)) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&BatchType);
    if (PyModule_AddStringConstant(m, "SOURCE", TAASH_CORE_SOURCE) ||
        PyModule_AddObject(m, "Batch", (PyObject *)&BatchType)) {
        Py_DECREF(&BatchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
