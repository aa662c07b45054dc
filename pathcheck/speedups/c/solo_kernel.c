/* pathcheck._speedups, part of the one translation unit _speedups.c: solo_kernel, perfect solo
 * play of many seeds (the walk: solo_lanes.c; the tables and the key histogram: solo.c). */

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
    unsigned char padded[MAX_STACK + 1] = {0};
    for (int place = 0; place < n; place++) padded[place] = (unsigned char)place;
    padded[n] = SOLO_END;
    const int m = (int)n - 1;  /* the tiles shuffled, after the first */
#if SOLO_SIMD
    SoloDraws draws;
    solo_draws_init(&draws, m);
    const void *vector = !portable && solo_simd_available() ? &draws : NULL;
#else
    const void *vector = NULL;
    (void)portable;
#endif
    SoloLaneWork *work = PyMem_RawCalloc(1, sizeof(SoloLaneWork));
    uint32_t *grids[2] = {PyMem_RawCalloc(GRID_CELLS, sizeof(uint32_t)),
                          PyMem_RawCalloc(GRID_CELLS, sizeof(uint32_t))};
    if (!work || !grids[0] || !grids[1]) {
        PyMem_RawFree(work);
        PyMem_RawFree(grids[0]);
        PyMem_RawFree(grids[1]);
        PyMem_RawFree(histogram.slot);
        PyMem_RawFree(grid);
        PyMem_RawFree(run);
        Py_DECREF(keys);
        Py_DECREF(shapes);
        return PyErr_NoMemory();
    }
    solo_lane_tables(&work->lt, run, base, (int)n);
    const uint32_t entrance = solo_lane_grids(run, mask, grids);
    SoloLane lanes[2];
    for (int l = 0; l < 2; l++) {
        SoloLane *L = &lanes[l];
        *L = (SoloLane){0};
        L->origin = L->cur = L->laid = (uintptr_t)(grids[l] + SOLO_ORIGIN);
        L->S = 1u << SOLO_STAMP_SHIFT;
        grids[l][SOLO_ENTRANCE] = L->S | 1u | entrance;
        L->g = run->ghosts;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t d0 = 0; d0 < count; d0 += SOLO_LANE_BLOCK) {
        const int cnt = count - d0 < SOLO_LANE_BLOCK ? (int)(count - d0) : SOLO_LANE_BLOCK;
        if (m >= 2) solo_draws(work->drawn, m, first_seed + (uint64_t)d0, cnt, vector);
        for (int k = 0; k <= cnt; k++) {
            memcpy(work->decks[k], padded, sizeof padded);
            if (m >= 2 && k < cnt) solo_swaps_from(work->decks[k] + 1, work->drawn[k], m, m - 1);
        }
        solo_lanes_walk(&work->lt, lanes, grids, work->decks, work->recs, work->nd, work->rv,
                        cnt, run->ghosts, entrance);
        solo_lanes_count(run, work, cnt, key + 8 * d0, shape + 2 * d0);
        const Py_ssize_t d1 = d0 + cnt;  /* the key histogram per SOLO_KEY_BLOCK deals */
        if (d1 % SOLO_KEY_BLOCK == 0 || d1 == count)
            for (Py_ssize_t e = (d1 - 1) - (d1 - 1) % SOLO_KEY_BLOCK; e < d1; e++) {
                int64_t k;
                memcpy(&k, key + 8 * e, sizeof k);
                failed |= solo_keys_add(&histogram, k, (int64_t)e) < 0;
            }
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(work);
    PyMem_RawFree(grids[0]);
    PyMem_RawFree(grids[1]);
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
