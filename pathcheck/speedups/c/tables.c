/* pathcheck._speedups, part of the one translation unit _speedups.c: The compiled tile tables (make_tables) and the tile-id index. */

/* ---- tables ---------------------------------------------------------------------------- */

typedef struct {
    PyObject *index;            /* dict: tile id -> tile number */
    Py_ssize_t ntiles;
    unsigned char kind[256];
    signed char ghost[256];
    unsigned char adv_only[256];
    PyObject *tile_json[256];   /* bytes: the id as a JSON string */
    int nkinds;
    signed char exit_table[MAX_KINDS * 16];
    unsigned char primary_move[MAX_KINDS];
    unsigned char is_repeat[MAX_KINDS];
    PyObject *reason_json[NREASONS];   /* bytes: "null" or "\"loop\"" */
    PyObject *rule_json[NREASONS];     /* bytes: {"section":..,"quote":..} or null */
    int nreasons;
    int code[NCHECKS];                  /* the reason code of each check */
    int bound, ghost_limit;             /* rules #2 and #3 */
    int rule_bound, rule_ghost_five, rule_ghost_twice, rule_advanced_only;  /* rule bits */
    /* Tile ids as UTF-8 (owned by the keys of `index`) in an open-addressing hash table,
     * for the JSON Lines scanner. */
    const char *id_ptr[256];
    Py_ssize_t id_len[256];
    short id_slot[ID_SLOTS];            /* tile number + 1, 0: empty */
} Tables;

static inline uint32_t id_hash(const char *s, Py_ssize_t n) {
    uint32_t h = 2166136261u;
    for (Py_ssize_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The tile number of the id s[0:n], or -1. */
static inline int id_lookup(const Tables *t, const char *s, Py_ssize_t n) {
    uint32_t h = id_hash(s, n);
    for (;;) {
        int slot = t->id_slot[h & (ID_SLOTS - 1)];
        if (!slot) return -1;
        int number = slot - 1;
        if (t->id_len[number] == n && memcmp(t->id_ptr[number], s, n) == 0) return number;
        h++;
    }
}

static void tables_free(PyObject *capsule) {
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return;
    Py_XDECREF(t->index);
    for (Py_ssize_t i = 0; i < t->ntiles; i++) Py_XDECREF(t->tile_json[i]);
    for (int i = 0; i < NREASONS; i++) {
        Py_XDECREF(t->reason_json[i]);
        Py_XDECREF(t->rule_json[i]);
    }
    PyMem_Free(t);
}

static int bytes_arg(PyObject *obj, Py_ssize_t want, const char *name) {
    if (!PyBytes_Check(obj) || (want >= 0 && PyBytes_GET_SIZE(obj) != want)) {
        PyErr_Format(PyExc_ValueError, "make_tables: bad %s", name);
        return -1;
    }
    return 0;
}

/* make_tables(index, kinds, ghosts, adv_only, tile_json, exit_table, primary_move,
 *             is_repeat, reason_json, rule_json, reasons, bound, ghost_limit, rule_bound,
 *             rule_ghost_five, rule_ghost_twice, rule_advanced_only) -> capsule
 * reasons: the name of each reason code (None: held), reason_json and rule_json in that order;
 * the rule_* arguments are the bits of pathcheck.tracer.constants.AdditionalRule. */
static PyObject *make_tables(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *index, *kinds, *ghosts, *adv, *tile_json, *exit_table, *primary, *repeat;
    PyObject *reason_json, *rule_json, *reasons;
    int bound, ghost_limit, rule_bound, rule_ghost_five, rule_ghost_twice, rule_adv;
    if (!PyArg_ParseTuple(args, "O!SSSO!SSSO!O!O!iiiiii", &PyDict_Type, &index, &kinds, &ghosts,
                          &adv, &PyList_Type, &tile_json, &exit_table, &primary, &repeat,
                          &PyList_Type, &reason_json, &PyList_Type, &rule_json, &PyTuple_Type,
                          &reasons, &bound, &ghost_limit, &rule_bound, &rule_ghost_five,
                          &rule_ghost_twice, &rule_adv))
        return NULL;
    Py_ssize_t nreasons = PyTuple_GET_SIZE(reasons);
    int code[NCHECKS];
    if (nreasons > NREASONS || PyList_GET_SIZE(reason_json) != nreasons ||
        PyList_GET_SIZE(rule_json) != nreasons || bound < 0 || bound >= GRID_OFF ||
        ghost_limit < 1) {
        PyErr_SetString(PyExc_ValueError, "make_tables: bad reasons or rule constants");
        return NULL;
    }
    for (int c = 0; c < NCHECKS; c++) {
        code[c] = -1;
        for (Py_ssize_t i = 0; i < nreasons; i++) {
            PyObject *name = PyTuple_GET_ITEM(reasons, i);
            if (CHECK_NAMES[c] ? (PyUnicode_Check(name) &&
                                  PyUnicode_CompareWithASCIIString(name, CHECK_NAMES[c]) == 0)
                               : name == Py_None)
                code[c] = (int)i;
        }
        if (code[c] < 0) {
            PyErr_Format(PyExc_ValueError, "make_tables: no reason code for %s",
                         CHECK_NAMES[c] ? CHECK_NAMES[c] : "held");
            return NULL;
        }
    }
    Py_ssize_t n = PyBytes_GET_SIZE(kinds);
    Py_ssize_t nk = PyBytes_GET_SIZE(primary);
    if (n > 256 || nk > MAX_KINDS) {
        PyErr_SetString(PyExc_ValueError, "make_tables: too many tiles or kinds");
        return NULL;
    }
    if (bytes_arg(ghosts, n, "ghosts") < 0 || bytes_arg(adv, n, "adv_only") < 0 ||
        bytes_arg(exit_table, nk * 16, "exit_table") < 0 ||
        bytes_arg(repeat, nk, "is_repeat") < 0 || PyList_GET_SIZE(tile_json) != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "make_tables: bad sizes");
        return NULL;
    }
    Tables *t = PyMem_Calloc(1, sizeof(Tables));
    if (!t) return PyErr_NoMemory();
    t->ntiles = n;
    t->nkinds = (int)nk;
    t->nreasons = (int)nreasons;
    memcpy(t->code, code, sizeof code);
    t->bound = bound;
    t->ghost_limit = ghost_limit;
    t->rule_bound = rule_bound;
    t->rule_ghost_five = rule_ghost_five;
    t->rule_ghost_twice = rule_ghost_twice;
    t->rule_advanced_only = rule_adv;
    memcpy(t->kind, PyBytes_AS_STRING(kinds), n);
    memcpy(t->ghost, PyBytes_AS_STRING(ghosts), n);
    memcpy(t->adv_only, PyBytes_AS_STRING(adv), n);
    memcpy(t->exit_table, PyBytes_AS_STRING(exit_table), nk * 16);
    memcpy(t->primary_move, PyBytes_AS_STRING(primary), nk);
    memcpy(t->is_repeat, PyBytes_AS_STRING(repeat), nk);
    /* Every value indexes a table or shifts a bit mask: check them all here, once. */
    for (Py_ssize_t i = 0; i < n; i++)
        if (t->kind[i] >= nk || t->ghost[i] < -1 || t->ghost[i] > 30) {
            PyErr_SetString(PyExc_ValueError, "make_tables: kind or ghost out of range");
            goto fail;
        }
    for (Py_ssize_t i = 0; i < nk * 16; i++)
        if (t->exit_table[i] < REPEAT_CODE || t->exit_table[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "make_tables: exit_table value out of range");
            goto fail;
        }
    for (Py_ssize_t i = 0; i < nk; i++)
        if (t->primary_move[i] > 3 || t->is_repeat[i] > 1) {
            PyErr_SetString(PyExc_ValueError, "make_tables: primary_move/is_repeat out of range");
            goto fail;
        }
    /* A private copy: the tile ids' UTF-8 below stays owned by its keys whatever the caller
     * does with its dict afterwards. */
    if (!(t->index = PyDict_Copy(index))) goto fail;
    index = t->index;
    {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(index, &pos, &key, &value)) {
            long number = PyLong_AsLong(value);
            Py_ssize_t len;
            const char *utf8 = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, &len) : NULL;
            if (!utf8 || number < 0 || number >= n || t->id_ptr[number]) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "make_tables: index");
                goto fail;
            }
            t->id_ptr[number] = utf8;
            t->id_len[number] = len;
            uint32_t h = id_hash(utf8, len);
            while (t->id_slot[h & (ID_SLOTS - 1)]) h++;
            t->id_slot[h & (ID_SLOTS - 1)] = (short)(number + 1);
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = PyList_GET_ITEM(tile_json, i);
        if (!PyBytes_Check(b)) { PyErr_SetString(PyExc_TypeError, "tile_json"); goto fail; }
        Py_INCREF(b);
        t->tile_json[i] = b;
    }
    for (int i = 0; i < nreasons; i++) {
        PyObject *a = PyList_GET_ITEM(reason_json, i), *b = PyList_GET_ITEM(rule_json, i);
        if (!PyBytes_Check(a) || !PyBytes_Check(b)) {
            PyErr_SetString(PyExc_TypeError, "reason/rule json");
            goto fail;
        }
        Py_INCREF(a);
        Py_INCREF(b);
        t->reason_json[i] = a;
        t->rule_json[i] = b;
    }
    PyObject *capsule = PyCapsule_New(t, "pathcheck._speedups.Tables", tables_free);
    if (capsule) return capsule;
fail:
    {
        PyObject *tmp = PyCapsule_New(t, "pathcheck._speedups.Tables", tables_free);
        Py_XDECREF(tmp);
    }
    return NULL;
}

