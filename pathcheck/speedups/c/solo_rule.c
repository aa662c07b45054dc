/* pathcheck._speedups, part of the one translation unit _speedups.c: A solo/1 record as msgspec
 * decoded it, read and traced in one call (solo_trace; pathcheck.games.dungeon.solo). */

/* ---- a whole solo record ----------------------------------------------------------------- */

/* Where the placements' type keeps .tile and .dir (dungeon_replay.c's dg_fields: from their
 * slots once the type is known to read attributes the generic way, else by getattr). */
static DgLayout solo_placement_layout;

/* The tile number of a placement's tile (-1: not a tile of the tables, or not ASCII text) and
 * its arrow (-1: not one of N, E, S, W); -2 with an exception set. */
static int solo_placement(const Tables *t, PyObject *placement, int *arrow) {
    static PyObject **const names[] = {&S_tile, &S_dir};
    PyObject *f[2];
    if (dg_fields(placement, names, 2, &solo_placement_layout, f) < 0) return -2;
    PyObject *tile = f[0], *dir = f[1];
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

/* An int item of a tuple in [lo, hi]; -1 with an error set otherwise (hi >= lo >= 0). */
static long solo_int(PyObject *tuple, Py_ssize_t i, long lo, long hi) {
    PyObject *item = PyTuple_GET_ITEM(tuple, i);
    long v = PyLong_Check(item) ? PyLong_AsLong(item) : -1;
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_SetString(PyExc_ValueError, "solo_word: not a trace of solo_trace");
        return -1;
    }
    return v;
}

enum { SW_EVENT, SW_ROUND, SW_FACT, SW_WHY, SW_RULES, SW_PLAYER, SW_MISPLACED, SW_KIT };

/* A text built in a fixed buffer (snprintf costs ten times as much); p is NULL once a piece
 * did not fit. */
typedef struct {
    char *p, *end;
} SoloText;

static void st_add(SoloText *b, const char *s, size_t n) {
    if (!b->p || (size_t)(b->end - b->p) < n) {
        b->p = NULL;
        return;
    }
    memcpy(b->p, s, n);
    b->p += n;
}

#define ST_LIT(b, lit) st_add((b), (lit), sizeof(lit) - 1)

static void st_int(SoloText *b, int v) {  /* v >= 0 */
    char digits[12];
    int k = (int)sizeof digits;
    do {
        digits[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    st_add(b, digits + k, sizeof digits - (size_t)k);
}

/* An ASCII str (which it is: the caller added ASCII alone) the text built in buf, NULL with
 * no error set if it did not fit; NULL with an error set on no memory. */
static PyObject *st_done(const SoloText *b, const char *buf) {
    if (!b->p) return NULL;
    Py_ssize_t n = b->p - buf;
    PyObject *text = PyUnicode_New(n, 127);
    if (text) memcpy(PyUnicode_1BYTE_DATA(text), buf, (size_t)n);
    return text;
}

/* One round of a clean record (dungeon d, from 1, its tiles start+1 .. start+n), or NULL with
 * an error set. */
static PyObject *solo_round(PyObject *const *kit, PyObject *one, int d, int start, int n,
                            int lost_at, int code) {
    PyObject *display = PyTuple_GET_ITEM(one, 3), *token = PyTuple_GET_ITEM(one, 4);
    PyObject *text = NULL, *fact = NULL, *event = NULL, *points = NULL, *events = NULL;
    PyObject *title = NULL, *scores = NULL, *last = NULL, *round = NULL, *rule = Py_None;
    PyObject *nums[4] = {NULL, NULL, NULL, NULL};  /* d, n, lost_at, its tile in the stack */
    if (!PyUnicode_Check(display) || (lost_at && !PyUnicode_Check(token))) {
        PyErr_SetString(PyExc_TypeError, "solo_word: not a trace of solo_trace");
        return NULL;
    }
    if (!(nums[0] = PyLong_FromLong(d)) || !(nums[1] = PyLong_FromLong(n))) goto done;
    if (lost_at) {
        PyObject *why = PyTuple_GET_ITEM(kit[SW_WHY], code);
        rule = PyTuple_GET_ITEM(kit[SW_RULES], code);
        if (!PyUnicode_Check(why)) {
            PyErr_SetString(PyExc_TypeError, "solo_word: a reason's words must be a str");
            goto done;
        }
        if (!(nums[2] = PyLong_FromLong(lost_at)) || !(nums[3] = PyLong_FromLong(start + lost_at)))
            goto done;
        if (PyUnicode_IS_ASCII(token) && PyUnicode_IS_ASCII(why)) {
            char buf[256];
            SoloText b = {buf, buf + sizeof buf};
            ST_LIT(&b, "dungeon ");
            st_int(&b, d);
            ST_LIT(&b, " is Lost at its tile ");
            st_int(&b, lost_at);
            ST_LIT(&b, " (");
            st_add(&b, (const char *)PyUnicode_1BYTE_DATA(token), (size_t)PyUnicode_GET_LENGTH(token));
            ST_LIT(&b, ", tile ");
            st_int(&b, start + lost_at);
            ST_LIT(&b, " of the stack): ");
            st_add(&b, (const char *)PyUnicode_1BYTE_DATA(why), (size_t)PyUnicode_GET_LENGTH(why));
            text = st_done(&b, buf);
            if (!text && PyErr_Occurred()) goto done;
        }
        if (!text && !(text = PyUnicode_FromFormat("dungeon %d is Lost at its tile %d (%U, tile "
                                                   "%d of the stack): %U", d, lost_at, token,
                                                   start + lost_at, why)))
            goto done;
        PyObject *args[6] = {nums[0], nums[1], nums[2], token, nums[3], why};
        fact = PyObject_Vectorcall(kit[SW_FACT], args, 6, NULL);
    } else {
        char buf[64];
        SoloText b = {buf, buf + sizeof buf};
        ST_LIT(&b, "dungeon ");
        st_int(&b, d);
        ST_LIT(&b, " (");
        st_int(&b, n);
        if (n == 1)
            ST_LIT(&b, " tile) is never Lost");
        else
            ST_LIT(&b, " tiles) is never Lost");
        if (!(text = st_done(&b, buf))) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "solo_word: too long");
            goto done;
        }
        PyObject *args[6] = {nums[0], nums[1], Py_None, Py_None, Py_None, Py_None};
        fact = PyObject_Vectorcall(kit[SW_FACT], args, 6, NULL);
    }
    if (!fact || !(points = PyDict_New())) goto done;
    {
        PyObject *args[5] = {text, Py_None, rule, points, fact};
        if (!(event = PyObject_Vectorcall(kit[SW_EVENT], args, 5, NULL))) goto done;
    }
    char buf[64];
    SoloText b = {buf, buf + sizeof buf};
    ST_LIT(&b, "Dungeon ");
    st_int(&b, d);
    ST_LIT(&b, " (tiles ");
    st_int(&b, start + 1);
    ST_LIT(&b, "-");
    st_int(&b, start + n);
    ST_LIT(&b, ")");
    if (!(title = st_done(&b, buf)) && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "solo_word: too long");
    if (!title || !(events = PyTuple_Pack(1, event)) ||
        !(last = PyLong_FromLong(start + n)) || !(scores = PyDict_New()) ||
        PyDict_SetItem(scores, kit[SW_PLAYER], last) < 0)
        goto done;
    {
        PyObject *args[5] = {nums[0], title, events, scores, display};
        round = PyObject_Vectorcall(kit[SW_ROUND], args, 5, NULL);
    }
done:
    for (int i = 0; i < 4; i++) Py_XDECREF(nums[i]);
    Py_XDECREF(text);
    Py_XDECREF(fact);
    Py_XDECREF(event);
    Py_XDECREF(points);
    Py_XDECREF(events);
    Py_XDECREF(title);
    Py_XDECREF(scores);
    Py_XDECREF(last);
    return round;
}

/* solo_word(traced, kit) -> [Round, ...] | None
 * The rounds of a clean solo record's ruling from solo_trace's traced dungeons, as
 * pathcheck.games.dungeon.solo.rule_read words them (one event a dungeon: where it got Lost,
 * or that it never was; the running score; its tiles); None (no exception) if a dungeon fails
 * the solo check (misplaced, Lost before its last tile, or holding before the last dungeon):
 * then the Python wording rules. kit: (Event, Round, SoloDungeonFact, the words of each
 * reason code, the Rule of each code (or None), the player's name, the code of "misplaced"),
 * pathcheck.games.dungeon.solo_fast._KIT. */
static PyObject *solo_word(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *traced, *kit_obj;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &traced, &PyTuple_Type, &kit_obj))
        return NULL;
    if (PyTuple_GET_SIZE(kit_obj) != SW_KIT || !PyTuple_Check(PyTuple_GET_ITEM(kit_obj, SW_WHY)) ||
        !PyTuple_Check(PyTuple_GET_ITEM(kit_obj, SW_RULES)) ||
        PyTuple_GET_SIZE(PyTuple_GET_ITEM(kit_obj, SW_WHY)) !=
            PyTuple_GET_SIZE(PyTuple_GET_ITEM(kit_obj, SW_RULES))) {
        PyErr_SetString(PyExc_TypeError, "solo_word: not the kit of solo_fast");
        return NULL;
    }
    PyObject *const *kit = &PyTuple_GET_ITEM(kit_obj, 0);
    long codes = (long)PyTuple_GET_SIZE(kit[SW_WHY]);
    long misplaced = PyLong_Check(kit[SW_MISPLACED]) ? PyLong_AsLong(kit[SW_MISPLACED]) : -1;
    if (misplaced == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(traced);
    if (count > 256 || codes < 1) {  /* (a record has at most a dungeon a tile) */
        PyErr_SetString(PyExc_ValueError, "solo_word: not a trace of solo_trace");
        return NULL;
    }
    PyObject *rounds = PyList_New(count);
    if (!rounds) return NULL;
    int start = 0;
    for (Py_ssize_t d = 0; d < count; d++) {
        PyObject *one = PyTuple_GET_ITEM(traced, d);
        if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) != 5) {
            PyErr_SetString(PyExc_TypeError, "solo_word: not a trace of solo_trace");
            goto fail;
        }
        long n = solo_int(one, 0, 1, MAX_TILES), lost_at = solo_int(one, 1, 0, MAX_TILES);
        long code = solo_int(one, 2, 0, codes - 1);
        if (n < 0 || lost_at < 0 || code < 0) goto fail;
        if (lost_at > n) {
            PyErr_SetString(PyExc_ValueError, "solo_word: not a trace of solo_trace");
            goto fail;
        }
        if (lost_at ? code == misplaced || lost_at < n : d + 1 < count) {
            Py_DECREF(rounds);
            Py_RETURN_NONE;
        }
        PyObject *round = solo_round(kit, one, (int)d + 1, start, (int)n, (int)lost_at,
                                     (int)code);
        if (!round) goto fail;
        PyList_SET_ITEM(rounds, d, round);
        start += (int)n;
    }
    return rounds;
fail:
    Py_DECREF(rounds);
    return NULL;
}
