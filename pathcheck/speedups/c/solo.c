/* pathcheck._speedups, part of the one translation unit _speedups.c: Perfect solo play of many seeds (solo_kernel). */

/* ---- perfect solo play of many seeds ------------------------------------------------------ */

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL
#define MAX_STACK 64

/* The kernel is the hot loop of `solo stats` and of a census (2^35 deals): it does not call
 * trace() but plays perfectly with a walk of its own, specialised for perfect play (every
 * arrow along the heading, so no misplaced check and no cells or arrows to keep). It mirrors
 * trace() step for step; tests/test_solo_kernel.py compares it with the Python deal. What the
 * profile showed (docs/seeds.md, section 7): the 64-bit division of the shuffle's modulo, the
 * bound check's division by the grid width, and the arrays trace() fills for a caller that
 * needs them and the revisit pass over them afterwards. */

/* One SplitMix64 output and the Fisher-Yates swap of position i, the modulo by the constant
 * i + 1 (a multiplication, where a variable divisor costs a 64-bit division). */
#define SHUFFLE_STEP(i)                                                              \
    do {                                                                             \
        state += GOLDEN_GAMMA;                                                       \
        uint64_t z_ = state;                                                         \
        z_ = (z_ ^ (z_ >> 30)) * MIX1;                                               \
        z_ = (z_ ^ (z_ >> 27)) * MIX2;                                               \
        z_ ^= z_ >> 31;                                                              \
        unsigned j_ = (unsigned)(z_ % (uint64_t)((i) + 1));                          \
        unsigned char tmp_ = deck[i];                                                \
        deck[i] = deck[j_];                                                          \
        deck[j_] = tmp_;                                                             \
    } while (0)

/* pathcheck.solo.seed_codes.permutation(seed, m) applied to deck[0..m-1] in place:
 * SplitMix64 from the seed, Fisher-Yates from the top (m <= MAX_STACK - 1). */
static void solo_shuffle(unsigned char *deck, int m, uint64_t state) {
    switch (m - 1) {
        case 62: SHUFFLE_STEP(62); /* fall through */
        case 61: SHUFFLE_STEP(61); /* fall through */
        case 60: SHUFFLE_STEP(60); /* fall through */
        case 59: SHUFFLE_STEP(59); /* fall through */
        case 58: SHUFFLE_STEP(58); /* fall through */
        case 57: SHUFFLE_STEP(57); /* fall through */
        case 56: SHUFFLE_STEP(56); /* fall through */
        case 55: SHUFFLE_STEP(55); /* fall through */
        case 54: SHUFFLE_STEP(54); /* fall through */
        case 53: SHUFFLE_STEP(53); /* fall through */
        case 52: SHUFFLE_STEP(52); /* fall through */
        case 51: SHUFFLE_STEP(51); /* fall through */
        case 50: SHUFFLE_STEP(50); /* fall through */
        case 49: SHUFFLE_STEP(49); /* fall through */
        case 48: SHUFFLE_STEP(48); /* fall through */
        case 47: SHUFFLE_STEP(47); /* fall through */
        case 46: SHUFFLE_STEP(46); /* fall through */
        case 45: SHUFFLE_STEP(45); /* fall through */
        case 44: SHUFFLE_STEP(44); /* fall through */
        case 43: SHUFFLE_STEP(43); /* fall through */
        case 42: SHUFFLE_STEP(42); /* fall through */
        case 41: SHUFFLE_STEP(41); /* fall through */
        case 40: SHUFFLE_STEP(40); /* fall through */
        case 39: SHUFFLE_STEP(39); /* fall through */
        case 38: SHUFFLE_STEP(38); /* fall through */
        case 37: SHUFFLE_STEP(37); /* fall through */
        case 36: SHUFFLE_STEP(36); /* fall through */
        case 35: SHUFFLE_STEP(35); /* fall through */
        case 34: SHUFFLE_STEP(34); /* fall through */
        case 33: SHUFFLE_STEP(33); /* fall through */
        case 32: SHUFFLE_STEP(32); /* fall through */
        case 31: SHUFFLE_STEP(31); /* fall through */
        case 30: SHUFFLE_STEP(30); /* fall through */
        case 29: SHUFFLE_STEP(29); /* fall through */
        case 28: SHUFFLE_STEP(28); /* fall through */
        case 27: SHUFFLE_STEP(27); /* fall through */
        case 26: SHUFFLE_STEP(26); /* fall through */
        case 25: SHUFFLE_STEP(25); /* fall through */
        case 24: SHUFFLE_STEP(24); /* fall through */
        case 23: SHUFFLE_STEP(23); /* fall through */
        case 22: SHUFFLE_STEP(22); /* fall through */
        case 21: SHUFFLE_STEP(21); /* fall through */
        case 20: SHUFFLE_STEP(20); /* fall through */
        case 19: SHUFFLE_STEP(19); /* fall through */
        case 18: SHUFFLE_STEP(18); /* fall through */
        case 17: SHUFFLE_STEP(17); /* fall through */
        case 16: SHUFFLE_STEP(16); /* fall through */
        case 15: SHUFFLE_STEP(15); /* fall through */
        case 14: SHUFFLE_STEP(14); /* fall through */
        case 13: SHUFFLE_STEP(13); /* fall through */
        case 12: SHUFFLE_STEP(12); /* fall through */
        case 11: SHUFFLE_STEP(11); /* fall through */
        case 10: SHUFFLE_STEP(10); /* fall through */
        case 9: SHUFFLE_STEP(9); /* fall through */
        case 8: SHUFFLE_STEP(8); /* fall through */
        case 7: SHUFFLE_STEP(7); /* fall through */
        case 6: SHUFFLE_STEP(6); /* fall through */
        case 5: SHUFFLE_STEP(5); /* fall through */
        case 4: SHUFFLE_STEP(4); /* fall through */
        case 3: SHUFFLE_STEP(3); /* fall through */
        case 2: SHUFFLE_STEP(2); /* fall through */
        case 1: SHUFFLE_STEP(1); /* fall through */
        default: break;
    }
}

/* The per-deal counts of perfect play, as analyse_stack counts them. */
typedef struct {
    int ndungeons, revisits, path_lost, rule_lost, bite_mask, reason_mask;
    int64_t sumsq;
} SoloDeal;

/* What the walk reads of a tile, in one place: its kind * 4, how it sets the movement (a
 * Repeat tile keeps it: keep 3, move 0; another sets it: keep 0, move its primary move), and
 * its ghost as a bit (0: none). Branch-free updates: a ghost or a Repeat tile comes at random
 * in a shuffled stack, and a branch on it was the kernel's most mispredicted one. */
typedef struct {
    unsigned char kind4, keep, move, is_ghost;
    uint32_t ghost_bit;
} SoloTile;

/* Perfect play of one dungeon: trace(t, g, tiles, dirs, n, rules, 1, move, ...) without the
 * arrows and cells, counting its revisits (placements after the first whose path ran over
 * laid tiles: analyse_stack's cells[k+1] - STEP[dirs[k+1]] != cells[k]) into *revisits.
 * `outside` marks the cells beyond rule #2's bound (all 0 without the rule). Returns the
 * reason code, *lost_at as trace() sets it. */
static int solo_dungeon(const Tables *t, Grid *g, const unsigned char *outside,
                        const SoloTile *info, const unsigned char *tiles, int n, int rules,
                        int *move, int *revisits, int *lost_at) {
    uint32_t s = ++g->stamp;
    if (s == 0) {
        memset(g->cell_stamp, 0, sizeof g->cell_stamp);
        memset(g->edge_stamp, 0, sizeof g->edge_stamp);
        s = g->stamp = 1;
    }
    const int origin = GRID_OFF * GRID_W + GRID_OFF;
    const int five = (rules & t->rule_ghost_five) != 0;
    const uint32_t twice = (rules & t->rule_ghost_twice) ? ~(uint32_t)0 : 0;
    const int ghost_last = t->ghost_limit - 1;
    int heading = 0, frontier = origin, last_move = *move;
    int ghost_count = 0, turned = 0;
    uint32_t ghost_seen = 0;
    {
        int e = 2 * (origin - STEP[0]) + EDGE_KEY[0];
        g->edge_stamp[e] = s;
        g->edge_sign[e] = (signed char)SIGN[0];
    }
    for (int k = 0; k < n; k++) {
        const SoloTile *tile = &info[tiles[k]];
        if (k) {
            *revisits += turned;
            int ghost_five = five & tile->is_ghost & (ghost_count == ghost_last);
            uint32_t ghost_twice = twice & ghost_seen & tile->ghost_bit;
            if (outside[frontier] | ghost_five | (ghost_twice != 0)) {  /* rarely */
                *lost_at = k + 1;
                *move = last_move;
                return t->code[outside[frontier] ? OUT_OF_BOUNDS
                               : ghost_five      ? GHOST_FIVE
                                                 : GHOST_TWICE];
            }
        }
        ghost_count += tile->is_ghost;
        ghost_seen |= tile->ghost_bit;
        g->cell_stamp[frontier] = s;
        g->cell_tile[frontier] = (signed char)(tile->kind4 + heading);
        last_move = (last_move & tile->keep) | tile->move;
        heading = (heading + last_move) & 3;
        int cell = frontier;
        for (;;) {
            int e = 2 * cell + EDGE_KEY[heading];
            if (g->edge_stamp[e] == s) {
                *lost_at = k + 1;
                *move = last_move;
                return t->code[g->edge_sign[e] == SIGN[heading] ? LOOP : REVERSE];
            }
            g->edge_stamp[e] = s;
            g->edge_sign[e] = (signed char)SIGN[heading];
            int next = cell + STEP[heading];
            if (g->cell_stamp[next] != s) {
                turned = cell != frontier;  /* the path left laid tiles other than this one */
                frontier = next;
                break;
            }
            cell = next;
            int nh = t->exit_table[g->cell_tile[cell] * 4 + heading];
            if (nh == REPEAT_CODE) {
                nh = (heading + last_move) & 3;
            } else if (nh == DEAD_CODE) {
                *lost_at = k + 1;
                *move = last_move;
                return t->code[DEAD_END];
            } else {
                last_move = (nh - heading) & 3;
            }
            heading = nh;
        }
    }
    *lost_at = 0;
    *move = last_move;
    return t->code[HELD];
}

/* solo_kernel(tables, base, first_seed, count, rules_mask)
 *   -> (dungeon_counts, lengths, reasons, bites, keys, shapes)
 * Perfect play (spec section 5) of the stacks of seeds first_seed .. first_seed+count-1:
 * pathcheck.solo.seed_codes.permutation (SplitMix64, Fisher-Yates from the top) of base[1:] after
 * base[0], traced as pathcheck.solo.stats.analyse_stack does. Histograms come back as bytes
 * of int64 (dungeons per deal, dungeon lengths, reason codes, deals each rule bit bit), and
 * one int64 key per deal: sum of squared lengths | revisits << 16 | path-Lost << 24 |
 * rule-Lost << 32, and two bytes per deal: its number of dungeons and a bit mask of the
 * reason codes its dungeons end with (for seed searches). rules_mask and the bites (index: bit) use the bits of
 * pathcheck.tracer.constants.AdditionalRule. */
static PyObject *solo_kernel(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *base_obj;
    unsigned long long first_seed;
    Py_ssize_t count;
    int mask;
    if (!PyArg_ParseTuple(args, "OSKni", &capsule, &base_obj, &first_seed, &count, &mask))
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
    int64_t dungeon_counts[MAX_STACK + 1] = {0}, lengths[MAX_STACK + 1] = {0};
    int64_t reasons[NREASONS] = {0}, bites[8] = {0};
    Grid *g = grid_new();
    unsigned char *outside = PyMem_RawMalloc(GRID_CELLS);
    if (!g || !outside) {
        if (g && !outside) PyErr_NoMemory();
        PyMem_RawFree(g);
        Py_DECREF(keys);
        Py_DECREF(shapes);
        return NULL;
    }
    int bounded = (mask & t->rule_bound) != 0;
    for (int c = 0; c < GRID_CELLS; c++) {
        int x = c / GRID_W - GRID_OFF, y = c % GRID_W - GRID_OFF;
        outside[c] = bounded && (x > t->bound || x < -t->bound || y > t->bound || y < -t->bound);
    }
    SoloTile info[256];
    for (Py_ssize_t i = 0; i < t->ntiles; i++) {
        int kind = t->kind[i], ghost = t->ghost[i];
        info[i].kind4 = (unsigned char)(kind * 4);
        info[i].keep = t->is_repeat[kind] ? 3 : 0;
        info[i].move = t->is_repeat[kind] ? 0 : t->primary_move[kind];
        info[i].is_ghost = ghost >= 0;
        info[i].ghost_bit = ghost >= 0 ? (uint32_t)1 << ghost : 0;
    }
    /* Per reason code: what it counts for (path Lost 1, rule Lost 2) and the rule bit it bites. */
    unsigned char reason_kind[NREASONS] = {0};
    int reason_bite[NREASONS] = {0};
    reason_kind[t->code[DEAD_END]] = reason_kind[t->code[LOOP]] = reason_kind[t->code[REVERSE]] = 1;
    reason_kind[t->code[OUT_OF_BOUNDS]] = reason_kind[t->code[GHOST_FIVE]] = 2;
    reason_kind[t->code[GHOST_TWICE]] = 2;
    reason_bite[t->code[OUT_OF_BOUNDS]] = t->rule_bound;
    reason_bite[t->code[GHOST_FIVE]] = t->rule_ghost_five;
    reason_bite[t->code[GHOST_TWICE]] = t->rule_ghost_twice;
    unsigned char stack[MAX_STACK];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t d = 0; d < count; d++) {
        memcpy(stack, base, (size_t)n);
        solo_shuffle(stack + 1, (int)n - 1, first_seed + (uint64_t)d);
        int start = 0, move = 0;
        SoloDeal deal = {0, 0, 0, 0, 0, 0, 0};
        while (start < n) {
            int lost_at;
            int reason = solo_dungeon(t, g, outside, info, stack + start, (int)n - start, mask, &move,
                                      &deal.revisits, &lost_at);
            int length = lost_at ? lost_at : (int)n - start;
            lengths[length]++;
            reasons[reason]++;
            deal.reason_mask |= 1 << reason;
            deal.sumsq += (int64_t)length * length;
            deal.path_lost += reason_kind[reason] == 1;
            deal.rule_lost += reason_kind[reason] == 2;
            deal.bite_mask |= reason_bite[reason];
            deal.ndungeons++;
            start += length;
        }
        dungeon_counts[deal.ndungeons]++;
        for (int b = 0; b < 8 && deal.bite_mask >> b; b++)
            if (deal.bite_mask >> b & 1) bites[b]++;
        int64_t packed = deal.sumsq | (int64_t)deal.revisits << 16 |
                         (int64_t)deal.path_lost << 24 | (int64_t)deal.rule_lost << 32;
        memcpy(key + 8 * d, &packed, sizeof packed);
        shape[2 * d] = (unsigned char)deal.ndungeons;
        shape[2 * d + 1] = (unsigned char)deal.reason_mask;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    PyMem_RawFree(outside);
    return Py_BuildValue("(y#y#y#y#NN)", (const char *)dungeon_counts,
                         (Py_ssize_t)sizeof dungeon_counts, (const char *)lengths,
                         (Py_ssize_t)sizeof lengths, (const char *)reasons,
                         (Py_ssize_t)sizeof reasons, (const char *)bites,
                         (Py_ssize_t)sizeof bites, keys, shapes);
}
