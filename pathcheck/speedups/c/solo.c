/* pathcheck._speedups, part of the one translation unit _speedups.c: Perfect solo play of many seeds (solo_kernel). */

/* ---- perfect solo play of many seeds ------------------------------------------------------ */

/* The kernel is the hot loop of `solo stats` and of a census (2^35 deals): it does not call
 * trace() but plays perfectly with a walk of its own, specialised for perfect play (every
 * arrow along the heading, so no misplaced check and no cells or arrows to keep). It mirrors
 * trace() step for step; tests/test_solo_kernel.py compares it with the Python deal and with
 * the outputs of the kernel before issue #33 (fixtures/seeds/kernel_digests.json), and
 * tests/bench/solo_exact.py with that kernel itself on any range. What the profiles showed
 * and what was done is in docs/seeds.md, section 7. */

/* A cell of the kernel's grid is one word: the dungeon's stamp (above SOLO_STAMP_SHIFT), the
 * laid bit, the tile (kind * 4 + arrow) and the directions the path has left the cell by.
 * A word below the dungeon's stamp is an empty cell, so one load and one comparison tell the
 * common case (the path goes on to an empty cell) apart. A path crosses an edge in one
 * direction at most (a second crossing is a loop or a reverse), so the edges trace() stamps
 * are the exits of the cells: leaving cell c heading h again is a loop, leaving c + STEP[h]
 * heading h ^ 2 a reverse. trace()'s first edge stamp, the entrance into the origin heading 0,
 * is checked by name: the cell before the origin is stamped (not laid) so that a path getting
 * there leaves the common case. Under rule #2 the cells beyond the bound hold SOLO_OUTSIDE,
 * which no stamp reaches: the path never lays a tile there (the next tile is Lost first), so
 * the bound costs nothing until a path gets there. */
#define SOLO_EXITS 0xFu
#define SOLO_TILE_SHIFT 4
#define SOLO_LAID 0x400u
#define SOLO_STAMP_SHIFT 11
#define SOLO_STAMPS (1u << 20)      /* stamps 1 .. SOLO_STAMPS - 1, then the grid is cleared */
#define SOLO_OUTSIDE 0xFFFFFFFFu
#define SOLO_ORIGIN (GRID_OFF * GRID_W + GRID_OFF)
#define SOLO_ENTRANCE (SOLO_ORIGIN - 1)   /* SOLO_ORIGIN - STEP[0] */
#if defined(__GNUC__) || defined(__clang__)
#define SOLO_RARELY(x) __builtin_expect(!!(x), 0)
#define SOLO_NOINLINE __attribute__((noinline))  /* its own registers, not the caller's */
#define SX_ALIGNED __attribute__((aligned(32)))  /* the vector draws' whole-vector stores */
#else
#define SX_ALIGNED
#define SOLO_RARELY(x) (x)
#define SOLO_NOINLINE
#endif

/* The ghost rules in one 64-bit word g, checked with one AND: bits 0-30 hold the ghosts seen
 * (rule #4), bits 40-63 a count H of the ghosts laid (rule #3) that sets bit 63 when a ghost
 * tile is Lost. With a ghost limit L >= 2, H starts at 2^23 - (L - 1) and a ghost adds 1:
 * bit 63 is set from L - 1 ghosts on, and a check never sees more (the first tile adds at most
 * one, and a ghost at L - 1 is Lost before it adds). With L = 1, H starts at 2^23 and a ghost
 * takes 1 off: bit 63 is set while no ghost is laid (the first tile may be one, unchecked).
 * Bit 31 is always set, and only the stack's end checks it: the deck holds each tile's place
 * in the base stack (SoloRun's info is by place), and after its last tile SOLO_END, which is
 * "Lost" by bit 31, so the walk's one rare test a tile finds both a ghost rule's Lost tile
 * and the end of the stack (no test of the stack's length a placement).
 * What a tile adds to g and the bits it is Lost by: */
#define SOLO_COUNT_SHIFT 40
#define SOLO_COUNT_TOP ((uint64_t)1 << 63)
#define SOLO_END_BIT ((uint64_t)1 << 31)
#define SOLO_END 255  /* the place after a stack's last tile (a stack has at most 64) */
typedef struct {
    uint64_t check, add;
    uint32_t move;  /* the byte offset of its kind's SoloMoves in SoloRun */
} SoloTile;

/* A tile laid in the walk's state (heading * 4 + the last movement, as a byte offset:
 * * sizeof(SoloMove)): the step to the next cell (in bytes), the grid word it leaves (laid,
 * kind * 4 + heading, the exit taken) and the next state. A Repeat tile keeps the movement;
 * another sets it to its primary move; the heading turns by the movement. */
typedef struct {
    intptr_t step;
    uint32_t word, next;
} SoloMove;

/* A path through a laid tile (kind * 4 + arrow) in a state: the step to the next cell, the
 * exit taken as a bit and the next state (exit_step's heading and movement), or SOLO_DEAD. */
#define SOLO_DEAD 0xFFFFFFFFu
typedef struct {
    intptr_t step;
    uint32_t out, next;
} SoloPass;

/* What a dungeon's end adds to the deal, by the check that ended it. */
typedef struct {
    int64_t key;       /* path Lost 1 << 24, rule Lost 1 << 32 */
    int reason, bite;  /* its reason code, the rule bit it bites */
} SoloEnd;

#define SOLO_BLOCK 16  /* deals whose draws the vector shuffle makes at once */

/* The next deal's shuffle, spread over this deal's walk: solo_deal takes a swap of it a
 * dungeon and a placement, at least n a deal (a dungeon lays its first tile, and a tile not
 * laid ends a dungeon), where the shuffle has m - 1 = n - 2. Swap t swaps deck position
 * m - 1 - t with draw t (a byte every SX_DRAW_STRIDE); past the shuffle's, the swaps
 * (position -q with itself, draw -q) change nothing: the deck has SOLO_PAD bytes in front of it
 * and the draws room for them (SOLO_DRAWS, solo_shuffle.c). */
typedef struct {
    const signed char *draw;  /* the next swap's draw */
    unsigned char *deck;      /* the next deal's stack + 1 */
    unsigned char *at;        /* the next swap's position */
} SoloSwaps;

/* Everything of one kernel call the walk reads or counts. */
typedef struct {
    const Tables *t;
    uint32_t *grid;
    uint32_t stamp;
    uint64_t ghosts;               /* g at the start of a dungeon */
    SoloTile info[256];            /* by the tile's place in the base stack; SOLO_END */
    SoloMove moves[MAX_KINDS * 16];
    SoloPass passes[MAX_KINDS * 4 * 16];
    SoloEnd ends[NCHECKS];
    int64_t dungeon_counts[MAX_STACK + 1], lengths[MAX_STACK + 1], reasons[NREASONS];
    int64_t bite_masks[256];       /* deals by the set of rule bits that bit them */
} SoloRun;

static void solo_run_tables(SoloRun *run, int mask, const unsigned char *base, int n) {
    const Tables *t = run->t;
    const int twice = (mask & t->rule_ghost_twice) != 0;
    /* A limit past 2^23 is never reached (a deal has at most 64 tiles). */
    const int five = (mask & t->rule_ghost_five) != 0 && t->ghost_limit - 1 < (1 << 23);
    uint64_t inc = 0;
    run->ghosts = 0;
    if (five) {
        int first = t->ghost_limit >= 2 ? (1 << 23) - (t->ghost_limit - 1) : 1 << 23;
        run->ghosts = (uint64_t)first << SOLO_COUNT_SHIFT;
        inc = t->ghost_limit >= 2 ? (uint64_t)1 << SOLO_COUNT_SHIFT
                                  : (uint64_t)0 - ((uint64_t)1 << SOLO_COUNT_SHIFT);
    }
    run->ghosts |= SOLO_END_BIT;
    run->info[SOLO_END] = (SoloTile){SOLO_END_BIT, 0, (uint32_t)offsetof(SoloRun, moves)};
    for (int place = 0; place < n; place++) {
        const int i = base[place];
        int ghost = t->ghost[i];
        SoloTile *tile = &run->info[place];
        uint64_t bit = ghost >= 0 && twice ? (uint64_t)1 << ghost : 0;
        tile->check = bit | (ghost >= 0 && five ? SOLO_COUNT_TOP : 0);
        tile->add = bit + (ghost >= 0 ? inc : 0);
        tile->move = (uint32_t)(offsetof(SoloRun, moves) + t->kind[i] * 16 * sizeof(SoloMove));
    }
    for (int kind = 0; kind < t->nkinds; kind++)
        for (int heading = 0; heading < 4; heading++)
            for (int lm = 0; lm < 4; lm++) {
                SoloMove *m = &run->moves[kind * 16 + heading * 4 + lm];
                int move = t->is_repeat[kind] ? lm : t->primary_move[kind];
                int nh = (heading + move) & 3;
                m->step = (intptr_t)(STEP[nh] * (int)sizeof(uint32_t));
                m->word = SOLO_LAID | (uint32_t)(kind * 4 + heading) << SOLO_TILE_SHIFT | 1u << nh;
                m->next = (uint32_t)((nh * 4 + move) * sizeof(SoloMove));
            }
    for (int tile = 0; tile < t->nkinds * 4; tile++)
        for (int heading = 0; heading < 4; heading++)
            for (int lm = 0; lm < 4; lm++) {
                SoloPass *pass = &run->passes[tile * 16 + heading * 4 + lm];
                int move = lm, nh = exit_step(t, tile, heading, &move);
                pass->step = nh == DEAD_CODE ? 0 : (intptr_t)(STEP[nh] * (int)sizeof(uint32_t));
                pass->out = nh == DEAD_CODE ? 0 : 1u << nh;
                pass->next = nh == DEAD_CODE ? SOLO_DEAD
                                             : (uint32_t)((nh * 4 + move) * sizeof(SoloMove));
            }
    for (int check = 0; check < NCHECKS; check++) {
        SoloEnd *e = &run->ends[check];
        e->reason = t->code[check];
        e->key = check == DEAD_END || check == LOOP || check == REVERSE ? (int64_t)1 << 24
                 : check == OUT_OF_BOUNDS || check == GHOST_FIVE || check == GHOST_TWICE
                     ? (int64_t)1 << 32 : 0;
        e->bite = check == OUT_OF_BOUNDS ? t->rule_bound
                  : check == GHOST_FIVE  ? t->rule_ghost_five
                  : check == GHOST_TWICE ? t->rule_ghost_twice : 0;
    }
    if (mask & t->rule_bound)
        for (int c = 0; c < GRID_CELLS; c++) {
            int x = c / GRID_W - GRID_OFF, y = c % GRID_W - GRID_OFF;
            if (x > t->bound || x < -t->bound || y > t->bound || y < -t->bound)
                run->grid[c] = SOLO_OUTSIDE;
        }
}

/* Clears the grid's stamps (not the cells beyond the bound); returns the first stamp. */
static uint32_t solo_grid_restart(SoloRun *run) {
    for (int c = 0; c < GRID_CELLS; c++)
        if (run->grid[c] != SOLO_OUTSIDE) run->grid[c] = 0;
    return run->stamp = 1;
}

/* Perfect play of a stack of n tiles (all its dungeons, the movement carried from one to the
 * next), counted into the run's histograms; returns the deal key (see solo_kernel) and writes
 * the deal's shape. Each dungeon is trace(..., perfect=1, ...) without arrows and cells,
 * counting the revisits (placements after the first whose path ran over laid tiles) as it
 * goes: analyse_stack's cells[k+1] - STEP[dirs[k+1]] != cells[k]. Meanwhile it takes the
 * swaps of the next deal's shuffle (SoloSwaps), which fill the time the walk waits on its
 * loads. */
SOLO_NOINLINE static int64_t solo_deal(SoloRun *run, const unsigned char *stack, int n,
                                      unsigned char *shape, SoloSwaps *swaps) {
    /* A swap of the next deal's shuffle a placement and a dungeon (see SoloSwaps). */
    const signed char *draw = swaps->draw;
    unsigned char *const deck = swaps->deck;
    unsigned char *at = swaps->at;
#define SOLO_SWAP()                                                                  \
    do {                                                                             \
        const int k_ = *draw;                                                        \
        draw += SX_DRAW_STRIDE;                                                      \
        const unsigned char t_ = *at;                                                \
        *at-- = deck[k_];                                                            \
        deck[k_] = t_;                                                               \
    } while (0)
    uint32_t *const grid = run->grid, *const origin = grid + SOLO_ORIGIN;
    uint32_t *const entrance = grid + SOLO_ENTRANCE;
    int start = 0, ndungeons = 0, revisits = 0, bites = 0;
    uint32_t state = 0;  /* (heading * 4 + last movement) * sizeof(SoloMove) */
    unsigned reason_mask = 0;
    int64_t key = 0;
    while (start < n) {
        const unsigned char *tiles = stack + start, *end = stack + n, *p = tiles;
        int code, length;  /* the check that ended the dungeon and its length */
        SOLO_SWAP();
        uint32_t s = ++run->stamp;
        if (s == SOLO_STAMPS) s = solo_grid_restart(run);
        const uint32_t S = s << SOLO_STAMP_SHIFT;
        if (*entrance != SOLO_OUTSIDE) *entrance = S;
        uint32_t *frontier = origin;
        uint64_t g = run->ghosts;
        state &= 3 * sizeof(SoloMove);  /* heading 0, the movement carried */
        const SoloTile *ti = &run->info[*p];  /* the first tile of a dungeon is not checked */
        for (;;) {
            SOLO_SWAP();
            g += ti->add;
            const SoloMove *m = (const SoloMove *)((const char *)run + ti->move + state);
            *frontier = S | m->word;
            state = m->next;
            uint32_t *next = (uint32_t *)((char *)frontier + m->step);
            uint32_t wn = *next;
            if (SOLO_RARELY(wn >= S)) {
                /* The path runs on over laid tiles, out of the bound or to the entrance. */
                uint32_t *cell = frontier;
                for (;;) {
                    const int heading = (int)(state / (4 * sizeof(SoloMove)));
                    if (SOLO_RARELY((wn == SOLO_OUTSIDE) | (next == entrance) | (next == origin))) {
                        if (next == entrance && heading == 2) {
                            code = REVERSE; length = (int)(p - tiles) + 1; goto ended;
                        }
                        if (next == origin && heading == 0) {  /* from the entrance */
                            code = LOOP; length = (int)(p - tiles) + 1; goto ended;
                        }
                        if (wn == SOLO_OUTSIDE) {
                            if (p + 1 == end) {
                                code = HELD; length = (int)(end - tiles); goto ended;
                            }
                            revisits += cell != frontier;
                            code = OUT_OF_BOUNDS;  /* the next tile is Lost */
                            length = (int)(p - tiles) + 2;
                            goto ended;
                        }
                        if (!(wn & SOLO_LAID)) break;  /* the entrance, empty */
                    }
                    if (wn & (1u << (heading ^ 2))) {
                        code = REVERSE; length = (int)(p - tiles) + 1; goto ended;
                    }
                    const SoloPass *pass =
                        &run->passes[(wn >> SOLO_TILE_SHIFT & 63) * 16 + state / sizeof(SoloMove)];
                    if (pass->next == SOLO_DEAD) {
                        code = DEAD_END; length = (int)(p - tiles) + 1; goto ended;
                    }
                    state = pass->next;  /* the movement carried on */
                    cell = next;
                    if (wn & pass->out) { code = LOOP; length = (int)(p - tiles) + 1; goto ended; }
                    *cell = wn | pass->out;
                    next = (uint32_t *)((char *)cell + pass->step);
                    wn = *next;
                    if (wn < S) break;
                }
                revisits += (cell != frontier) & (p + 1 < end);
            }
            frontier = next;
            ti = &run->info[*++p];
            if (SOLO_RARELY(g & ti->check)) {  /* a ghost rule's Lost tile, or the end */
                if (p == end) { code = HELD; length = (int)(end - tiles); goto ended; }
                code = g & ti->check & SOLO_COUNT_TOP ? GHOST_FIVE : GHOST_TWICE;
                length = (int)(p - tiles) + 1;
                goto ended;
            }
        }
    ended:;
        const SoloEnd *e = &run->ends[code];
        run->lengths[length]++;
        run->reasons[e->reason]++;
        reason_mask |= 1u << e->reason;
        key += (int64_t)length * length + e->key;
        bites |= e->bite;
        ndungeons++;
        start += length;
    }
    run->dungeon_counts[ndungeons]++;
    run->bite_masks[bites & 0xFF]++;
    swaps->draw = draw;
    swaps->at = at;
#undef SOLO_SWAP
    shape[0] = (unsigned char)ndungeons;
    shape[1] = (unsigned char)reason_mask;
    return key + ((int64_t)revisits << 16);
}

/* The draws of `count` seeds from `seed` on (m >= 2) to drawn[0 ..]: the vector ones with
 * `vector` (the SoloDraws of m), else the portable ones. */
static void solo_draws(signed char (*drawn)[SOLO_DRAWS * SX_DRAW_STRIDE], int m, uint64_t seed,
                       int count, const void *vector) {
#if SOLO_SIMD
    if (vector) {
        solo_draws_avx2((const SoloDraws *)vector, seed, count, drawn[0]);
        return;
    }
#else
    (void)vector;
#endif
    for (int k = 0; k < count; k++) solo_draws_portable(drawn[k], m, seed + (uint64_t)k);
}

/* ---- the histogram of deal keys ---------------------------------------------------------- */

/* Deal keys, each with its number of deals and the indices of its first and last deal (so
 * that a census finds a rare key's deals without a search), open addressing (a key is never
 * 0: a deal has tiles). A million deals have about 8,000 distinct keys; the table doubles at
 * half full. */
#define SOLO_KEY_WORDS 4  /* key, deals, first, last */
#ifndef SOLO_KEY_BLOCK
#define SOLO_KEY_BLOCK 4096
#endif
typedef struct {
    int64_t *slot;
    size_t mask, used;
} SoloKeys;

static int solo_keys_init(SoloKeys *h, size_t size) {
    h->slot = PyMem_RawCalloc(SOLO_KEY_WORDS * size, sizeof(int64_t));
    h->mask = size - 1;
    h->used = 0;
    return h->slot ? 0 : -1;
}

static inline size_t solo_key_slot(const SoloKeys *h, int64_t key) {
    size_t i = (size_t)(((uint64_t)key * GOLDEN_GAMMA) >> 40) & h->mask;
    while (h->slot[SOLO_KEY_WORDS * i] && h->slot[SOLO_KEY_WORDS * i] != key)
        i = (i + 1) & h->mask;
    return i;
}

/* Adds deal number d of `key`; -1 when the table cannot grow (no memory). */
static int solo_keys_add(SoloKeys *h, int64_t key, int64_t d) {
    size_t i = solo_key_slot(h, key);
    int64_t *slot = &h->slot[SOLO_KEY_WORDS * i];
    if (!slot[0]) {
        if (2 * (h->used + 1) > h->mask + 1) {
            SoloKeys bigger;
            if (solo_keys_init(&bigger, 2 * (h->mask + 1)) < 0) return -1;
            for (size_t j = 0; j <= h->mask; j++)
                if (h->slot[SOLO_KEY_WORDS * j]) {
                    size_t b = solo_key_slot(&bigger, h->slot[SOLO_KEY_WORDS * j]);
                    memcpy(&bigger.slot[SOLO_KEY_WORDS * b], &h->slot[SOLO_KEY_WORDS * j],
                           SOLO_KEY_WORDS * sizeof(int64_t));
                }
            bigger.used = h->used;
            PyMem_RawFree(h->slot);
            *h = bigger;
            slot = &h->slot[SOLO_KEY_WORDS * solo_key_slot(h, key)];
        }
        slot[0] = key;
        slot[2] = d;
        h->used++;
    }
    slot[1]++;
    slot[3] = d;
    return 0;
}

static int solo_key_order(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The histogram as bytes: (key, deals, first, last) int64 quadruples in key order. */
static PyObject *solo_keys_bytes(SoloKeys *h) {
    size_t n = 0;
    for (size_t j = 0; j <= h->mask; j++)
        if (h->slot[SOLO_KEY_WORDS * j]) {
            memmove(&h->slot[SOLO_KEY_WORDS * n], &h->slot[SOLO_KEY_WORDS * j],
                    SOLO_KEY_WORDS * sizeof(int64_t));
            n++;
        }
    qsort(h->slot, n, SOLO_KEY_WORDS * sizeof(int64_t), solo_key_order);
    return PyBytes_FromStringAndSize((const char *)h->slot,
                                     (Py_ssize_t)(n * SOLO_KEY_WORDS * sizeof(int64_t)));
}

/* ---- the kernel ---------------------------------------------------------------------------- */

/* solo_kernel(tables, base, first_seed, count, rules_mask, portable=False)
 *   -> (dungeon_counts, lengths, reasons, bites, keys, shapes, key_counts)
 * Perfect play (spec section 5) of the stacks of seeds first_seed .. first_seed+count-1:
 * pathcheck.solo.seed_codes.permutation (SplitMix64, Fisher-Yates from the top) of base[1:] after
 * base[0], traced as pathcheck.solo.stats.analyse_stack does. Histograms come back as bytes
 * of int64 (dungeons per deal, dungeon lengths, reason codes, deals each rule bit bit), and
 * one int64 key per deal: sum of squared lengths | revisits << 16 | path-Lost << 24 |
 * rule-Lost << 32, and two bytes per deal: its number of dungeons and a bit mask of the
 * reason codes its dungeons end with (for seed searches); key_counts is the histogram of the
 * keys, (key, deals, index of its first deal, of its last) int64 quadruples in key order
 * (indices from 0 at first_seed). rules_mask and the bites (index: bit) use the
 * bits of pathcheck.tracer.constants.AdditionalRule. A true `portable` shuffles without the
 * vector instructions even where they are there (solo_simd() tells whether they are). */
static PyObject *solo_kernel(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *base_obj;
    unsigned long long first_seed;
    Py_ssize_t count;
    int mask, portable = 0;
    if (!PyArg_ParseTuple(args, "OSKni|p", &capsule, &base_obj, &first_seed, &count, &mask,
                          &portable))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(base_obj);
    if (n < 1 || n > MAX_STACK || count < 0 || count > PY_SSIZE_T_MAX / 8) {
        PyErr_SetString(PyExc_ValueError, "solo_kernel: bad stack or count");
        return NULL;
    }
    const unsigned char *base = (const unsigned char *)PyBytes_AS_STRING(base_obj);
    for (Py_ssize_t i = 0; i < n; i++)
        if (base[i] >= t->ntiles) {
            PyErr_SetString(PyExc_ValueError, "solo_kernel: unknown tile number");
            return NULL;
        }
    PyObject *keys = PyBytes_FromStringAndSize(NULL, count * 8);
    if (!keys) return NULL;
    PyObject *shapes = PyBytes_FromStringAndSize(NULL, count * 2);
    if (!shapes) { Py_DECREF(keys); return NULL; }
    char *key = PyBytes_AS_STRING(keys);  /* int64 each; bytes data need not be aligned */
    unsigned char *shape = (unsigned char *)PyBytes_AS_STRING(shapes);
    SoloRun *run = PyMem_RawCalloc(1, sizeof(SoloRun));
    uint32_t *grid = PyMem_RawCalloc(GRID_CELLS, sizeof(uint32_t));
    SoloKeys histogram = {NULL, 0, 0};
    if (!run || !grid || solo_keys_init(&histogram, 1 << 12) < 0) {
        PyMem_RawFree(run);
        PyMem_RawFree(grid);
        PyMem_RawFree(histogram.slot);
        Py_DECREF(keys);
        Py_DECREF(shapes);
        return PyErr_NoMemory();
    }
    run->t = t;
    run->grid = grid;
    solo_run_tables(run, mask, base, (int)n);
    int failed = 0;
    /* The decks hold places in the base stack (see SOLO_END). */
    unsigned char padded[MAX_STACK + 1] = {0}, decks[2][SOLO_PAD + MAX_STACK + 1];
    unsigned char *stack = decks[0] + SOLO_PAD, *next = decks[1] + SOLO_PAD;
    for (int place = 0; place < n; place++) padded[place] = (unsigned char)place;
    padded[n] = SOLO_END;
    const int m = (int)n - 1;  /* the tiles shuffled, after the first */
    /* The draws of SOLO_BLOCK deals at once (the vector ones where the processor has them),
     * and the swaps of the next deal's stack during this deal's walk (solo_deal). Past
     * draw m - 2, the swaps change nothing (see SoloSwaps). */
    SX_ALIGNED signed char drawn[SOLO_BLOCK][SOLO_DRAWS * SX_DRAW_STRIDE];
    for (int b = 0; b < SOLO_BLOCK; b++)
        for (int t = 0; t < SOLO_DRAWS; t++)
            drawn[b][SX_DRAW_STRIDE * t] = (signed char)(m - 1 - t);
#if SOLO_SIMD
    SoloDraws draws;
    solo_draws_init(&draws, m);
    const void *vector = !portable && solo_simd_available() ? &draws : NULL;
#else
    const void *vector = NULL;
    (void)portable;
#endif
    Py_BEGIN_ALLOW_THREADS
    memcpy(stack, padded, sizeof padded);
    if (count > 0 && m >= 2) {  /* the first deal's stack, at once */
        solo_draws(drawn, m, first_seed, 1, vector);
        solo_swaps_from(stack + 1, drawn[0], m, m - 1);
    }
    for (Py_ssize_t d = 0; d < count; d++) {
        const int b = (int)(d % SOLO_BLOCK);
        if (b == 0 && m >= 2) {  /* the draws of the next SOLO_BLOCK deals */
            const Py_ssize_t left = count - d - 1;
            solo_draws(drawn, m, first_seed + (uint64_t)d + 1,
                       left < SOLO_BLOCK ? (int)left : SOLO_BLOCK, vector);
        }
        memcpy(next, padded, sizeof padded);
        SoloSwaps swaps = {drawn[b], next + 1, next + m};  /* position m - 1 of the deck */
        int64_t packed = solo_deal(run, stack, (int)n, shape + 2 * d, &swaps);
        const int left = (int)(swaps.at - swaps.deck);  /* positions not swapped yet */
        if (SOLO_RARELY(left > 0))  /* never (see SoloSwaps), but cheap to be sure of */
            solo_swaps_from(swaps.deck, swaps.draw - SX_DRAW_STRIDE * (m - 1 - left), m, left);
        unsigned char *played = stack;
        stack = next;
        next = played;
        memcpy(key + 8 * d, &packed, sizeof packed);
        if (SOLO_RARELY((d + 1) % SOLO_KEY_BLOCK == 0 || d + 1 == count))
            for (Py_ssize_t e = d - d % SOLO_KEY_BLOCK; e <= d; e++) {
                int64_t k;
                memcpy(&k, key + 8 * e, sizeof k);
                failed |= solo_keys_add(&histogram, k, (int64_t)e) < 0;
            }
    }
    Py_END_ALLOW_THREADS
    int64_t bites[8] = {0};
    for (int m = 0; m < 256; m++)
        for (int b = 0; b < 8; b++)
            if (m >> b & 1) bites[b] += run->bite_masks[m];
    PyObject *key_counts = failed ? PyErr_NoMemory() : solo_keys_bytes(&histogram);
    PyObject *result = NULL;
    if (key_counts) {  /* "N" takes the three references, also when it fails */
        result = Py_BuildValue(
            "(y#y#y#y#NNN)", (const char *)run->dungeon_counts,
            (Py_ssize_t)sizeof run->dungeon_counts, (const char *)run->lengths,
            (Py_ssize_t)sizeof run->lengths, (const char *)run->reasons,
            (Py_ssize_t)sizeof run->reasons, (const char *)bites, (Py_ssize_t)sizeof bites,
            keys, shapes, key_counts);
    } else {
        Py_DECREF(keys);
        Py_DECREF(shapes);
    }
    PyMem_RawFree(histogram.slot);
    PyMem_RawFree(grid);
    PyMem_RawFree(run);
    return result;
}

/* solo_simd() -> bool: whether solo_kernel shuffles with the vector instructions here. */
static PyObject *solo_simd(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(args)) {
    return PyBool_FromLong(SOLO_SIMD && solo_simd_available());
}
