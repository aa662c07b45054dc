/* pathcheck._speedups, part of the one translation unit _speedups.c: One dungeon of a solo record traced (trace_dungeon). */

/* ---- one dungeon of a solo record ------------------------------------------------------- */

/* The int items tuple[start:start+n], each in [0, limit), into out[]; -1 with an exception set. */
static int small_ints(PyObject *tuple, Py_ssize_t start, Py_ssize_t n, int *out, long limit,
                      const char *what) {
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, start + i);
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "trace_dungeon: %s must be ints", what);
            return -1;
        }
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v >= limit) {
            PyErr_Format(PyExc_ValueError, "trace_dungeon: %s out of range", what);
            return -1;
        }
        out[i] = (int)v;
    }
    return 0;
}

/* trace_dungeon(tables, tiles, dirs, start, stop, rules, initial_move)
 *   -> (lost_at, reason, last_move) | None
 * pathcheck.tracer.fast.trace_indices(compiled, tiles[start:stop], dirs[start:stop], rules,
 * initial_move) without the cells: tiles and dirs are tuples of equal length (tile numbers of
 * the tables, arrows 0-3; a solo record's placements, every dungeon in one run), rules a
 * mask of pathcheck.tracer.constants.AdditionalRule bits, initial_move 0-3. lost_at is the 1-based
 * index in the dungeon of the tile that made it Lost (0: it held). None when the dungeon is
 * longer than the C grid holds: the caller traces it with the Python tracer. */
static PyObject *trace_dungeon(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *tiles_obj, *dirs_obj;
    Py_ssize_t start, stop, rules, move;
    if (!PyArg_ParseTuple(args, "OO!O!nnnn", &capsule, &PyTuple_Type, &tiles_obj, &PyTuple_Type,
                          &dirs_obj, &start, &stop, &rules, &move))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return NULL;
    Py_ssize_t total = PyTuple_GET_SIZE(tiles_obj);
    if (PyTuple_GET_SIZE(dirs_obj) != total || start < 0 || start > stop || stop > total ||
        rules < 0 || rules > 31 || move < 0 || move > 3) {
        PyErr_SetString(PyExc_ValueError, "trace_dungeon: argument out of range");
        return NULL;
    }
    Py_ssize_t n = stop - start;
    if (n > MAX_TILES) Py_RETURN_NONE;
    int tiles[MAX_TILES], dirs[MAX_TILES], cells[MAX_TILES];
    if (small_ints(tiles_obj, start, n, tiles, (long)t->ntiles, "tiles") < 0 ||
        small_ints(dirs_obj, start, n, dirs, 4, "dirs") < 0)
        return NULL;
    /* The grid lives as long as the module (a fresh one would cost page faults per call);
     * the GIL is held throughout, so nothing else uses it. */
    static Grid *g = NULL;
    if (!g && !(g = grid_new())) return NULL;
    int last_move = (int)move, ncells = 0, lost_at = 0;
    int reason = trace(t, g, tiles, dirs, (int)n, (int)rules, 0, &last_move, cells, &ncells,
                       &lost_at);
    return Py_BuildValue("(iii)", lost_at, reason, last_move);
}
