/* pathcheck._speedups, part of the one translation unit _speedups.c: A solo/1 record as msgspec
 * decoded it, read and traced in one call (solo_trace; pathcheck.games.dungeon.solo). */

/* ---- a whole solo record ----------------------------------------------------------------- */

/* The tile number of a placement's tile (-1: not a tile of the tables, or not ASCII text) and
 * its arrow (-1: not one of N, E, S, W); -2 with an exception set. */
static int solo_placement(const Tables *t, PyObject *placement, int *arrow) {
    PyObject *tile = PyObject_GetAttr(placement, S_tile);
    if (!tile) return -2;
    PyObject *dir = PyObject_GetAttr(placement, S_dir);
    if (!dir) {
        Py_DECREF(tile);
        return -2;
    }
    int number = -1;
    *arrow = -1;
    if (PyUnicode_Check(tile) && PyUnicode_IS_ASCII(tile) && PyUnicode_Check(dir) &&
        PyUnicode_IS_ASCII(dir) && PyUnicode_GET_LENGTH(dir) == 1) {
        number = id_lookup(t, (const char *)PyUnicode_1BYTE_DATA(tile),
                           PyUnicode_GET_LENGTH(tile));
        const char *at = memchr("NESW", PyUnicode_1BYTE_DATA(dir)[0], 4);
        if (at) *arrow = (int)(at - "NESW");
    }
    Py_DECREF(tile);
    Py_DECREF(dir);
    return number;
}

static const char ARROW_LETTER[4] = {'N', 'E', 'S', 'W'};

/* ID@DIR of tiles[from:to], a space between each, as one ASCII str (the ids are checked
 * ASCII when the tables index them: id_lookup matched them against ASCII text). */
static PyObject *solo_tokens(const Tables *t, const int *tiles, const int *dirs, int from,
                             int to) {
    Py_ssize_t size = 0;
    for (int k = from; k < to; k++) size += t->id_len[tiles[k]] + 2 + (k > from);
    PyObject *text = PyUnicode_New(size, 127);
    if (!text) return NULL;
    char *out = (char *)PyUnicode_1BYTE_DATA(text);
    for (int k = from; k < to; k++) {
        if (k > from) *out++ = ' ';
        memcpy(out, t->id_ptr[tiles[k]], (size_t)t->id_len[tiles[k]]);
        out += t->id_len[tiles[k]];
        *out++ = '@';
        *out++ = ARROW_LETTER[dirs[k]];
    }
    return text;
}

/* solo_trace(tables, dungeons, rules) -> (tiles, ((length, lost_at, reason, display, token),
 * ...)) | None
 * dungeons: a solo/1 record's dungeons as msgspec decoded them (SoloEntry.dungeons: a tuple
 * of tuples of placements with .tile and .dir), rules a mask of AdditionalRule bits. Every
 * dungeon is traced in order as pathcheck.games.dungeon.solo.traced_dungeons traces it (the
 * last movement carried into the next), to its end whatever the check would say of it: each
 * one's length, Lost point (1-based, 0: it held), reason code, its tiles as ID@DIR joined by
 * spaces and the ID@DIR of the tile it got Lost at (None: it held); tiles is how many tiles
 * all hold. None (no exception) where the Python reading must decide: a tile not of the
 * tables, a tile placed twice, a direction other than N, E, S, W, an empty dungeon, or one
 * longer than the C grid. */
static PyObject *solo_trace(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *dungeons;
    Py_ssize_t rules;
    if (!PyArg_ParseTuple(args, "OO!n", &capsule, &PyTuple_Type, &dungeons, &rules))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return NULL;
    if (rules < 0 || rules > 31) {
        PyErr_SetString(PyExc_ValueError, "solo_trace: rules out of range");
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(dungeons);
    unsigned char seen[256] = {0};
    /* The grid lives as long as the module, as trace_dungeon's (the GIL is held). */
    static Grid *g = NULL;
    if (!g && !(g = grid_new())) return NULL;
    PyObject *traced = PyTuple_New(count);
    if (!traced) return NULL;
    int move = 0;
    Py_ssize_t total = 0;
    for (Py_ssize_t d = 0; d < count; d++) {
        PyObject *dungeon = PyTuple_GET_ITEM(dungeons, d);
        if (!PyTuple_Check(dungeon)) goto decline;
        Py_ssize_t n = PyTuple_GET_SIZE(dungeon);
        if (n < 1 || n > MAX_TILES) goto decline;
        int tiles[MAX_TILES], dirs[MAX_TILES], cells[MAX_TILES];
        for (Py_ssize_t k = 0; k < n; k++) {
            int number = solo_placement(t, PyTuple_GET_ITEM(dungeon, k), &dirs[k]);
            if (number == -2) goto fail;
            if (number < 0 || number >= t->ntiles || dirs[k] < 0 || seen[number]) goto decline;
            seen[number] = 1;
            tiles[k] = number;
        }
        int ncells = 0, lost_at = 0;
        int reason = trace(t, g, tiles, dirs, (int)n, (int)rules, 0, &move, cells, &ncells,
                           &lost_at);
        PyObject *display = solo_tokens(t, tiles, dirs, 0, (int)n);
        if (!display) goto fail;
        PyObject *token;
        if (lost_at) {
            token = solo_tokens(t, tiles, dirs, lost_at - 1, lost_at);
            if (!token) {
                Py_DECREF(display);
                goto fail;
            }
        } else {
            token = Py_NewRef(Py_None);
        }
        PyObject *one = Py_BuildValue("(niiNN)", n, lost_at, reason, display, token);
        if (!one) goto fail;
        PyTuple_SET_ITEM(traced, d, one);
        total += n;
    }
    return Py_BuildValue("(nN)", total, traced);
decline:
    Py_DECREF(traced);
    Py_RETURN_NONE;
fail:
    Py_DECREF(traced);
    return NULL;
}
