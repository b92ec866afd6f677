/* taash.rummy._solver: the compiled values of 13-card Indian Rummy's exact hand solver.
 *
 * The pure solver (solver.py) is the reference: this file gives the same least points and validity of a hand of 13
 * (section 5 of shared/rummy-rules.md), and the same for each discard of 14 cards; it builds no arrangement (the
 * pure solver shows the one hand finally chosen). It is its own exact search, not a translation: the tests hold the
 * two together over many thousands of hands, and both to the brute-force reference.
 *
 * The search. Jokers (printed, and cards of the wild rank) score 0, so a hand's points are those of its natural
 * cards left outside melds. The hand's *items* are its natural cards and, under R2 (wild_as_natural), its wild
 * cards, which may also stand as themselves in a run of their suit (then using up one of the hand's jokers), sorted
 * by face. For the items still to place (a bit mask), the jokers left and the progress towards the declaration
 * requirement made so far, the most weight that can still be covered such that the requirement is met at the end
 * is: the lowest item left unmatched, or in one of the melds holding it (every run and set of items left, holes and
 * any of its other positions filled by jokers), whichever covers most. Of equal cards (twins) a meld always takes
 * the first left, so that the items left of each face are always its last ones: one state per hand position. The
 * answers are kept (a hash table, cleared for each hand by a new generation number), and shared by all the
 * discards of a 14-card hand, each of which starts from the items less the discarded card.
 *
 * A natural card's weight is its points times 16, plus one (as solver.py): covering more points wins, then more
 * cards; the hand is a valid declaration when the best weight covers every natural card.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The hash of this file's text, given by setup.py (taash.rummy.core uses no solver built from other source). */
#ifndef TAASH_SOLVER_SOURCE
#define TAASH_SOLVER_SOURCE "unknown"
#endif

#define JOKER 52
#define ACE_HIGH 13
#define MOST_ITEMS 14
#define PER_POINT 16
#define NONE (-1000000)
#define MEMO_BITS 18
#define MEMO_SIZE (1u << MEMO_BITS)
#define MEMO_PROBES 32
#define MOST_PROGRESS 64

/* What the search reads of a set of rules. */
typedef struct {
    int min_naturals, max_set, meld_jokers, wild_as_natural, ace_points, max_points, long_run, runs_needed,
        pure_needed;
    int nothing;                         /* the progress code of no run yet */
    uint8_t met[MOST_PROGRESS];          /* whether a progress meets the requirement */
    uint8_t after_run[MOST_PROGRESS][4]; /* progress after one more run: [pure * 2 + long] */
} Game;

/* One hand's items (sorted by face) and what the search needs of them. */
typedef struct {
    const Game *game;
    int wild;
    int n;
    int face[MOST_ITEMS];
    int wild_item[MOST_ITEMS];
    int weight[MOST_ITEMS];        /* 0 for a wild card */
    uint32_t of_face[JOKER];       /* the items of each face */
    int longest_padded;            /* a run longer than this with a joker at an end is no better without it */
} Hand;

static uint32_t *memo_key;
static int32_t *memo_value;
static uint32_t *memo_stamp;
static uint32_t generation;

static void new_generation(void) {
    if (++generation == 0) {
        memset(memo_stamp, 0, MEMO_SIZE * sizeof(uint32_t));
        generation = 1;
    }
}

static int points_of(const Game *g, int face) {
    int rank = face % 13;
    if (rank == 0) return g->ace_points;
    return rank >= 9 ? 10 : rank + 1;
}

static int progress_code(const Game *g, int runs, int pure, int long_run) {
    return (runs * (g->pure_needed + 1) + pure) * 2 + long_run;
}

static int make_game(Game *g, PyObject *params) {
    int wild_as_natural, long_run;
    if (!PyArg_ParseTuple(params, "iiipiipii;the solver's rules are 9 numbers", &g->min_naturals, &g->max_set,
                          &g->meld_jokers, &wild_as_natural, &g->ace_points, &g->max_points, &long_run,
                          &g->runs_needed, &g->pure_needed))
        return -1;
    g->wild_as_natural = wild_as_natural;
    g->long_run = long_run;
    if (g->runs_needed < 0 || g->runs_needed > 4 || g->pure_needed < 0 || g->pure_needed > g->runs_needed ||
        g->min_naturals < 1 || g->max_set < 3 || g->max_set > 4 || g->meld_jokers < 0) {
        PyErr_SetString(PyExc_ValueError, "the solver's rules are out of range");
        return -1;
    }
    if (g->meld_jokers == 0) g->meld_jokers = MOST_ITEMS; /* no limit */
    g->nothing = progress_code(g, 0, 0, 0);
    memset(g->met, 0, sizeof g->met);
    for (int r = 0; r <= g->runs_needed; r++)
        for (int p = 0; p <= g->pure_needed; p++)
            for (int l = 0; l < 2; l++) {
                int code = progress_code(g, r, p, l);
                g->met[code] = r == g->runs_needed && p == g->pure_needed && (l || !g->long_run);
                for (int pure = 0; pure < 2; pure++)
                    for (int longer = 0; longer < 2; longer++) {
                        int r2 = r + 1 > g->runs_needed ? g->runs_needed : r + 1;
                        int p2 = p + pure > g->pure_needed ? g->pure_needed : p + pure;
                        g->after_run[code][pure * 2 + longer] = (uint8_t)progress_code(g, r2, p2, l | longer);
                    }
            }
    return 0;
}

static int best(const Hand *h, uint32_t mask, int jokers, int progress);

/* The items of a face still left: the first of them (or -1). */
static inline int first_left(const Hand *h, int face, uint32_t mask) {
    uint32_t left = h->of_face[face] & mask;
    return left ? __builtin_ctz(left) : -1;
}

/* A meld of the best arrangement, as the walk back through the search finds it: the items it takes, the jokers it
 * uses from the pool, the progress after it, its kind (0 pure run, 1 impure run, 2 set) and its cards in the
 * order shown (a joker's slot -1). */
typedef struct {
    int target, hit;
    uint32_t taken;
    int used, progress, kind, size;
    int cards[ACE_HIGH + 1];
} Step;

/* A run's search state: the window's positions, which hold an item left (its number) or none (-1). */
typedef struct {
    const Hand *h;
    uint32_t mask;
    int jokers, progress, length, most_generic;
    int holder[ACE_HIGH + 1];
    int open[ACE_HIGH + 1]; /* the window's positions with an item other than the lowest item's own */
    int opens;
    int found;
    Step *seek; /* when walking back: the first run reaching seek->target with the rest is recorded there */
} RunSearch;

/* Every choice of which of the window's other cards the run takes (the rest filled by jokers), from open[k] on. */
static void choose_cards(RunSearch *s, int k, uint32_t taken, int generic, int wilds, int weight, int ends) {
    if (k == s->opens) {
        const Hand *h = s->h;
        const Game *g = h->game;
        int length = s->length;
        int naturals = length - generic;
        if (naturals < g->min_naturals || generic > g->meld_jokers || generic + wilds > s->jokers) return;
        /* ends: bit 0 the first position holds a card, bit 1 the last */
        if (length > h->longest_padded && ends != 3) return;
        int progress = g->after_run[s->progress][(generic == 0) * 2 + (length >= 4)];
        int rest = best(h, s->mask & ~taken, s->jokers - generic - wilds, progress);
        if (rest != NONE && rest + weight > s->found) s->found = rest + weight;
        Step *seek = s->seek;
        if (seek && !seek->hit && rest != NONE && rest + weight == seek->target) {
            seek->hit = 1;
            seek->taken = taken;
            seek->used = generic + wilds;
            seek->progress = progress;
            seek->kind = generic == 0 ? 0 : 1;
            seek->size = length;
            for (int p = 0; p < length; p++) {
                int item = s->holder[p];
                seek->cards[p] = item >= 0 && taken >> item & 1 ? h->face[item] : -1;
            }
        }
        return;
    }
    int position = s->open[k];
    int item = s->holder[position];
    int end = (position == 0 ? 1 : 0) | (position == s->length - 1 ? 2 : 0);
    /* the card itself */
    choose_cards(s, k + 1, taken | 1u << item, generic, wilds + s->h->wild_item[item], weight + s->h->weight[item],
                 ends | end);
    /* a joker in its place (the card left to another meld) */
    if (generic < s->most_generic) choose_cards(s, k + 1, taken, generic + 1, wilds, weight, ends);
}

/* The most weight the runs holding item i (the lowest left) can cover with the rest, or NONE. */
static int best_runs(const Hand *h, int i, uint32_t mask, int jokers, int progress, Step *seek) {
    const Game *g = h->game;
    int suit = h->face[i] / 13, rank = h->face[i] % 13;
    RunSearch s;
    s.h = h;
    s.mask = mask;
    s.jokers = jokers;
    s.progress = progress;
    s.found = NONE;
    s.seek = seek;
    s.most_generic = jokers < g->meld_jokers ? jokers : g->meld_jokers;
    /* The first item left at each position of the suit's run line (13: the ace played high). Item i, the lowest
     * item left, is the first of its face: it stands at its rank, and an ace at 13 as well. */
    int holder_at[ACE_HIGH + 1];
    for (int p = 0; p < ACE_HIGH; p++) holder_at[p] = first_left(h, suit * 13 + p, mask);
    holder_at[ACE_HIGH] = holder_at[0];
    for (int place = rank; place <= ACE_HIGH; place += ACE_HIGH) { /* an ace: low, then high */
        for (int low = place; low >= 0; low--) {
            int holes = 0;
            for (int p = low; p < place; p++) holes += holder_at[p] < 0;
            if (holes > s.most_generic) break;
            for (int high = place; high <= ACE_HIGH; high++) {
                if (low == 0 && high == ACE_HIGH) break; /* K-A-2: an ace is low or high, never both */
                if (high > place) holes += holder_at[high] < 0;
                if (holes > s.most_generic) break;
                int length = high - low + 1;
                if (length < 3) continue;
                s.length = length;
                s.opens = 0;
                for (int p = low; p <= high; p++) {
                    s.holder[p - low] = holder_at[p];
                    if (p != place && holder_at[p] >= 0) s.open[s.opens++] = p - low;
                }
                int ends = (low == place ? 1 : 0) | (high == place ? 2 : 0);
                choose_cards(&s, 0, 1u << i, holes, h->wild_item[i], h->weight[i], ends);
            }
        }
        if (rank != 0) break;
    }
    return s.found;
}

/* The most weight the sets holding item i (a natural card, the lowest left) can cover with the rest, or NONE. */
static int best_sets(const Hand *h, int i, uint32_t mask, int jokers, int progress, Step *seek) {
    const Game *g = h->game;
    int suit = h->face[i] / 13, rank = h->face[i] % 13;
    int others[3], count = 0;
    for (int t = 0; t < 4; t++) {
        if (t == suit) continue;
        int item = first_left(h, t * 13 + rank, mask);
        if (item >= 0) others[count++] = item;
    }
    int free_jokers = jokers < g->meld_jokers ? jokers : g->meld_jokers;
    int found = NONE;
    int fewest = g->min_naturals > 1 ? g->min_naturals : 1;
    for (int chosen = 0; chosen < 1 << count; chosen++) {
        int size = 1 + __builtin_popcount((unsigned)chosen);
        if (size < fewest || size > g->max_set) continue;
        int need = size >= 3 ? 0 : 3 - size; /* more jokers than needed for 3 cards cover nothing more */
        if (need > free_jokers) continue;
        uint32_t taken = 1u << i;
        for (int k = 0; k < count; k++)
            if (chosen >> k & 1) taken |= 1u << others[k];
        int rest = best(h, mask & ~taken, jokers - need, progress);
        if (rest != NONE && rest + size * h->weight[i] > found) found = rest + size * h->weight[i];
        if (seek && !seek->hit && rest != NONE && rest + size * h->weight[i] == seek->target) {
            seek->hit = 1;
            seek->taken = taken;
            seek->used = need;
            seek->progress = progress;
            seek->kind = 2;
            seek->size = 0;
            for (int k = 0; k < 4; k++) /* the cards in suit order, as the pure solver shows a set */
                for (int item = 0; item < h->n; item++)
                    if (taken >> item & 1 && h->face[item] / 13 == k) seek->cards[seek->size++] = h->face[item];
            for (int k = 0; k < need; k++) seek->cards[seek->size++] = -1;
        }
    }
    return found;
}

/* The most weight the items of mask can cover with these jokers, the requirement met at the end (else NONE). */
static int best(const Hand *h, uint32_t mask, int jokers, int progress) {
    if (mask == 0) return h->game->met[progress] ? 0 : NONE;
    uint32_t key = mask | (uint32_t)jokers << MOST_ITEMS | (uint32_t)progress << (MOST_ITEMS + 4);
    uint32_t slot = (key * 2654435761u) >> (32 - MEMO_BITS);
    for (int probe = 0; probe < MEMO_PROBES; probe++) {
        uint32_t at = (slot + (uint32_t)probe) & (MEMO_SIZE - 1);
        if (memo_stamp[at] != generation) break;
        if (memo_key[at] == key) return memo_value[at];
    }
    int i = __builtin_ctz(mask);
    int found = best(h, mask & (mask - 1), jokers, progress); /* the lowest item unmatched */
    int runs = best_runs(h, i, mask, jokers, progress, NULL);
    if (runs > found) found = runs;
    if (!h->wild_item[i]) {
        int sets = best_sets(h, i, mask, jokers, progress, NULL);
        if (sets > found) found = sets;
    }
    for (int probe = 0; probe < MEMO_PROBES; probe++) { /* the search below may have filled the slot found */
        uint32_t at = (slot + (uint32_t)probe) & (MEMO_SIZE - 1);
        if (memo_stamp[at] != generation) {
            memo_stamp[at] = generation;
            memo_key[at] = key;
            memo_value[at] = found;
            break;
        }
    }
    return found;
}

/* The melds of a best arrangement of the items of mask (its weight `found`, not NONE), as a tuple of (kind, cards)
 * (a joker's slot -1), or NULL with an exception set. */
static PyObject *walk(const Hand *h, uint32_t mask, int jokers, int progress, int found) {
    PyObject *melds = PyList_New(0);
    if (!melds) return NULL;
    while (mask) {
        int i = __builtin_ctz(mask);
        if (best(h, mask & (mask - 1), jokers, progress) == found) { /* the lowest item unmatched */
            mask &= mask - 1;
            continue;
        }
        Step step;
        step.target = found;
        step.hit = 0;
        best_runs(h, i, mask, jokers, progress, &step);
        if (!step.hit && !h->wild_item[i]) best_sets(h, i, mask, jokers, progress, &step);
        if (!step.hit) {
            Py_DECREF(melds);
            PyErr_SetString(PyExc_RuntimeError, "the compiled solver lost its way back through its search");
            return NULL;
        }
        PyObject *cards = PyTuple_New(step.size);
        if (!cards) {
            Py_DECREF(melds);
            return NULL;
        }
        for (int k = 0; k < step.size; k++) PyTuple_SET_ITEM(cards, k, PyLong_FromLong(step.cards[k]));
        PyObject *meld = Py_BuildValue("(iN)", step.kind, cards);
        if (!meld || PyList_Append(melds, meld)) {
            Py_XDECREF(meld);
            Py_DECREF(melds);
            return NULL;
        }
        Py_DECREF(meld);
        int weight = 0;
        for (int item = 0; item < h->n; item++)
            if (step.taken >> item & 1) weight += h->weight[item];
        found -= weight;
        mask &= ~step.taken;
        jokers -= step.used;
        progress = step.progress;
    }
    PyObject *out = PyList_AsTuple(melds);
    Py_DECREF(melds);
    return out;
}

/* -- the Python side -------------------------------------------------------------------------------------- */

static int compare_ints(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* Read a hand of `size` faces; fills faces (in the order given). */
static int read_faces(PyObject *seq, int size, int *faces) {
    PyObject *fast = PySequence_Fast(seq, "a hand is a sequence of card faces");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        PyErr_Format(PyExc_ValueError, "a hand here is %d cards, not %zd", size, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (int k = 0; k < size; k++) {
        long face = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (face == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (face < 0 || face > JOKER) {
            PyErr_Format(PyExc_ValueError, "a card face is 0 to %d, not %ld", JOKER, face);
            Py_DECREF(fast);
            return -1;
        }
        faces[k] = (int)face;
    }
    Py_DECREF(fast);
    return 0;
}

/* The hand's items, jokers, natural cards and their points. */
static void make_hand(Hand *h, const Game *g, const int *faces, int size, int wild, int *jokers, int *naturals,
                      int *total) {
    int sorted[MOST_ITEMS];
    memcpy(sorted, faces, (size_t)size * sizeof(int));
    qsort(sorted, (size_t)size, sizeof(int), compare_ints);
    h->game = g;
    h->wild = wild;
    h->n = 0;
    h->longest_padded = g->long_run ? 4 : 3;
    memset(h->of_face, 0, sizeof h->of_face);
    *jokers = *naturals = *total = 0;
    for (int k = 0; k < size; k++) {
        int face = sorted[k];
        int is_wild = face != JOKER && face % 13 == wild;
        if (face == JOKER || is_wild) ++*jokers;
        if (face == JOKER || (is_wild && !g->wild_as_natural)) continue;
        if (!is_wild) {
            ++*naturals;
            *total += points_of(g, face);
        }
        h->face[h->n] = face;
        h->wild_item[h->n] = is_wild;
        h->weight[h->n] = is_wild ? 0 : points_of(g, face) * PER_POINT + 1;
        h->of_face[face] |= 1u << h->n;
        h->n++;
    }
}

/* The least points and validity from the best weight covered. */
static void value_of(const Game *g, int found, int naturals, int total, int *points, int *valid) {
    if (found == NONE) {
        *points = total < g->max_points ? total : g->max_points;
        *valid = 0;
        return;
    }
    int left = total - found / PER_POINT;
    *points = left < g->max_points ? left : g->max_points;
    *valid = found % PER_POINT == naturals;
}

PyDoc_STRVAR(hand_value_doc,
             "hand_value(faces, wild, rules) -> (points, valid)\n\n"
             "The least points of 13 cards and whether they are a valid declaration; rules is the 9-tuple of\n"
             "taash.rummy.core.solver_rules.");

static PyObject *py_hand_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "hand_value(faces, wild, rules)");
        return NULL;
    }
    Game g;
    int faces[MOST_ITEMS];
    long wild = PyLong_AsLong(args[1]);
    if (wild == -1 && PyErr_Occurred()) return NULL;
    if (wild < 0 || wild > 12) {
        PyErr_Format(PyExc_ValueError, "the wild rank is 0 (ace) to 12 (king), not %ld", wild);
        return NULL;
    }
    if (make_game(&g, args[2]) || read_faces(args[0], 13, faces)) return NULL;
    Hand h;
    int jokers, naturals, total, points, valid;
    make_hand(&h, &g, faces, 13, (int)wild, &jokers, &naturals, &total);
    new_generation();
    int found = best(&h, (1u << h.n) - 1, jokers, g.nothing);
    value_of(&g, found, naturals, total, &points, &valid);
    return Py_BuildValue("(iO)", points, valid ? Py_True : Py_False);
}

PyDoc_STRVAR(discard_values_doc,
             "discard_values(faces, wild, rules, keep) -> ((face, points, valid), ...)\n\n"
             "For each distinct discard allowed from 14 cards, in the order the faces first come, the least points\n"
             "of the 13 left and whether they are a valid declaration. keep: a face that may not go unless the hand\n"
             "holds two of it (-1: none).");

static PyObject *py_discard_values(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "discard_values(faces, wild, rules, keep)");
        return NULL;
    }
    Game g;
    int faces[MOST_ITEMS];
    long wild = PyLong_AsLong(args[1]);
    if (wild == -1 && PyErr_Occurred()) return NULL;
    long keep = PyLong_AsLong(args[3]);
    if (keep == -1 && PyErr_Occurred()) return NULL;
    if (wild < 0 || wild > 12) {
        PyErr_Format(PyExc_ValueError, "the wild rank is 0 (ace) to 12 (king), not %ld", wild);
        return NULL;
    }
    if (make_game(&g, args[2]) || read_faces(args[0], 14, faces)) return NULL;
    Hand h;
    int jokers, naturals, total;
    make_hand(&h, &g, faces, 14, (int)wild, &jokers, &naturals, &total);
    int copies[JOKER + 1] = {0};
    for (int k = 0; k < 14; k++) copies[faces[k]]++;
    PyObject *out = PyTuple_New(14);
    if (!out) return NULL;
    Py_ssize_t count = 0;
    int done[JOKER + 1] = {0};
    new_generation();
    uint32_t all = (1u << h.n) - 1;
    for (int k = 0; k < 14; k++) {
        int face = faces[k];
        if (done[face]) continue;
        done[face] = 1;
        if (face == keep && copies[face] < 2) continue; /* R3: the card just taken stays */
        int is_wild = face != JOKER && face % 13 == wild;
        uint32_t mask = all;
        int left_jokers = jokers, left_naturals = naturals, left_total = total;
        if (face == JOKER || is_wild) left_jokers--;
        if (face != JOKER && (!is_wild || g.wild_as_natural)) mask &= ~(1u << __builtin_ctz(h.of_face[face]));
        if (face != JOKER && !is_wild) {
            left_naturals--;
            left_total -= points_of(&g, face);
        }
        int points, valid;
        value_of(&g, best(&h, mask, left_jokers, g.nothing), left_naturals, left_total, &points, &valid);
        PyObject *item = Py_BuildValue("(iiO)", face, points, valid ? Py_True : Py_False);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, count++, item);
    }
    if (_PyTuple_Resize(&out, count)) return NULL;
    return out;
}

PyDoc_STRVAR(arrange_doc,
             "arrange(faces, wild, rules) -> (points, valid, melds)\n\n"
             "hand_value's answer for 13 cards with the melds of one best arrangement: each (kind, cards), kind 0 a\n"
             "pure run, 1 an impure run, 2 a set, cards in the order shown with -1 for a joker's slot (the jokers\n"
             "are not placed). No melds when no arrangement meets the declaration requirement.");

static PyObject *py_arrange(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "arrange(faces, wild, rules)");
        return NULL;
    }
    Game g;
    int faces[MOST_ITEMS];
    long wild = PyLong_AsLong(args[1]);
    if (wild == -1 && PyErr_Occurred()) return NULL;
    if (wild < 0 || wild > 12) {
        PyErr_Format(PyExc_ValueError, "the wild rank is 0 (ace) to 12 (king), not %ld", wild);
        return NULL;
    }
    if (make_game(&g, args[2]) || read_faces(args[0], 13, faces)) return NULL;
    Hand h;
    int jokers, naturals, total, points, valid;
    make_hand(&h, &g, faces, 13, (int)wild, &jokers, &naturals, &total);
    new_generation();
    int found = best(&h, (1u << h.n) - 1, jokers, g.nothing);
    value_of(&g, found, naturals, total, &points, &valid);
    PyObject *melds = found == NONE ? PyTuple_New(0) : walk(&h, (1u << h.n) - 1, jokers, g.nothing, found);
    if (!melds) return NULL;
    return Py_BuildValue("(iON)", points, valid ? Py_True : Py_False, melds);
}

static PyMethodDef methods[] = {
    {"arrange", (PyCFunction)(void (*)(void))py_arrange, METH_FASTCALL, arrange_doc},
    {"hand_value", (PyCFunction)(void (*)(void))py_hand_value, METH_FASTCALL, hand_value_doc},
    {"discard_values", (PyCFunction)(void (*)(void))py_discard_values, METH_FASTCALL, discard_values_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver",
    "The compiled values of the 13-card Rummy hand solver (least points, validity, each discard's); see "
    "taash.rummy.core.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__solver(void) {
    if (!memo_key) {
        memo_key = calloc(MEMO_SIZE, sizeof(uint32_t));
        memo_value = calloc(MEMO_SIZE, sizeof(int32_t));
        memo_stamp = calloc(MEMO_SIZE, sizeof(uint32_t));
        if (!memo_key || !memo_value || !memo_stamp) return PyErr_NoMemory();
    }
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE", TAASH_SOLVER_SOURCE)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
