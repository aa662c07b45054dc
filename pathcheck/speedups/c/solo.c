/* pathcheck.speedups._speedups, part of the one translation unit _speedups.c: Perfect solo play of many seeds (solo_kernel). */

/* ---- perfect solo play of many seeds ------------------------------------------------------ */

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL
#define MAX_STACK 64

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
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck.speedups._speedups.Tables");
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
    if (!g) { Py_DECREF(keys); Py_DECREF(shapes); return NULL; }
    int order[MAX_STACK], stack[MAX_STACK], dirs[MAX_STACK], cells[MAX_STACK];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t d = 0; d < count; d++) {
        uint64_t state = first_seed + (uint64_t)d;
        int m = (int)n - 1;
        for (int i = 0; i < m; i++) order[i] = i;
        for (int i = m - 1; i > 0; i--) {
            state += GOLDEN_GAMMA;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * MIX1;
            z = (z ^ (z >> 27)) * MIX2;
            z ^= z >> 31;
            int j = (int)(z % (uint64_t)(i + 1));
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        stack[0] = base[0];
        for (int i = 0; i < m; i++) stack[i + 1] = base[1 + order[i]];
        int start = 0, move = 0, ndungeons = 0, revisits = 0, path_lost = 0, rule_lost = 0;
        int bite_mask = 0, reason_mask = 0;
        int64_t sumsq = 0;
        while (start < n) {
            int ncells = 0, lost_at = 0;
            int reason = trace(t, g, stack + start, dirs, (int)n - start, mask, 1, &move, cells,
                               &ncells, &lost_at);
            int length = lost_at ? lost_at : (int)n - start;
            for (int k = 0; k + 1 < length; k++)
                if (cells[k + 1] - STEP[dirs[k + 1]] != cells[k]) revisits++;
            lengths[length]++;
            reasons[reason]++;
            reason_mask |= 1 << reason;
            sumsq += (int64_t)length * length;
            if (reason == t->code[DEAD_END] || reason == t->code[LOOP] ||
                reason == t->code[REVERSE])
                path_lost++;
            if (reason == t->code[OUT_OF_BOUNDS] || reason == t->code[GHOST_FIVE] ||
                reason == t->code[GHOST_TWICE]) {
                rule_lost++;
                bite_mask |= reason == t->code[OUT_OF_BOUNDS] ? t->rule_bound
                             : reason == t->code[GHOST_FIVE] ? t->rule_ghost_five
                                                             : t->rule_ghost_twice;
            }
            ndungeons++;
            start += length;
        }
        dungeon_counts[ndungeons]++;
        for (int b = 0; b < 8; b++)
            if (bite_mask >> b & 1) bites[b]++;
        int64_t packed = sumsq | (int64_t)revisits << 16 | (int64_t)path_lost << 24 |
                         (int64_t)rule_lost << 32;
        memcpy(key + 8 * d, &packed, sizeof packed);
        shape[2 * d] = (unsigned char)ndungeons;
        shape[2 * d + 1] = (unsigned char)reason_mask;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    return Py_BuildValue("(y#y#y#y#NN)", (const char *)dungeon_counts,
                         (Py_ssize_t)sizeof dungeon_counts, (const char *)lengths,
                         (Py_ssize_t)sizeof lengths, (const char *)reasons,
                         (Py_ssize_t)sizeof reasons, (const char *)bites,
                         (Py_ssize_t)sizeof bites, keys, shapes);
}

