/* pathcheck._speedups, part of the one translation unit _speedups.c: Records msgspec has decoded (set_layout, trace_records). */

/* ---- records ---------------------------------------------------------------------------- */

/* Where the fields of the msgspec structs lie (member descriptors' offsets), so a record's
 * fields are read directly instead of through attribute look-ups; set by set_layout(). */
enum { F_TILES, F_FORMAT, F_ADVANCED, F_RULES, F_TILESET, F_PLAYERS, F_LOST, NFIELDS };
static PyTypeObject *record_type, *placement_type;
static Py_ssize_t record_offset[NFIELDS], tile_offset, dir_offset;

static PyObject *S_tiles, *S_format, *S_advanced, *S_rules, *S_tileset, *S_players, *S_lost,
    *S_tile, *S_dir, *S_dungeon1, *S_standard;

static Py_ssize_t member_offset(PyTypeObject *type, PyObject *name) {
    PyObject *descr = PyObject_GetAttr((PyObject *)type, name);
    if (!descr) return -1;
    Py_ssize_t offset = -1;
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type == T_OBJECT_EX || member->type == T_OBJECT) offset = member->offset;
    }
    Py_DECREF(descr);
    if (offset < 0) PyErr_Format(PyExc_TypeError, "set_layout: %U is not a plain field", name);
    return offset;
}

/* set_layout(record_type, placement_type): remember where their fields lie. */
static PyObject *set_layout(PyObject *Py_UNUSED(self), PyObject *args) {
    PyTypeObject *rt, *pt;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &rt, &PyType_Type, &pt)) return NULL;
    PyObject *names[NFIELDS] = {S_tiles, S_format, S_advanced, S_rules, S_tileset, S_players,
                                S_lost};
    Py_ssize_t offsets[NFIELDS];
    for (int i = 0; i < NFIELDS; i++)
        if ((offsets[i] = member_offset(rt, names[i])) < 0) return NULL;
    Py_ssize_t t_off = member_offset(pt, S_tile), d_off = member_offset(pt, S_dir);
    if (t_off < 0 || d_off < 0) return NULL;
    memcpy(record_offset, offsets, sizeof offsets);
    tile_offset = t_off;
    dir_offset = d_off;
    Py_INCREF(rt);
    Py_INCREF(pt);
    Py_XSETREF(record_type, rt);
    Py_XSETREF(placement_type, pt);
    Py_RETURN_NONE;
}

/* A field of a struct of the registered type (a new reference), or NULL: fall back. */
static inline PyObject *field(PyObject *obj, Py_ssize_t offset) {
    PyObject *v;
    memcpy(&v, (char *)obj + offset, sizeof v);
    Py_XINCREF(v);
    return v;
}

static int dir_of(PyObject *d) {
    if (!PyUnicode_Check(d) || PyUnicode_GET_LENGTH(d) != 1) return -1;
    switch (PyUnicode_READ_CHAR(d, 0)) {
        case 'N': return 0;
        case 'E': return 1;
        case 'S': return 2;
        case 'W': return 3;
        default: return -1;
    }
}

/* 1: record read into tiles/dirs/n/rules; 0: leave it to the Python path; -1: error. */
static int read_record(const Tables *t, PyObject *rec, int rules_override, int adv_override,
                       int *tiles, int *dirs, int *n, int *rules) {
    int result = 0;
    PyObject *v = NULL;
    int advanced;
    if (Py_TYPE(rec) != record_type) return 0;

    v = field(rec, record_offset[F_FORMAT]);
    if (!v) return 0;
    if (PyUnicode_Compare(v, S_dungeon1) != 0) goto done;
    Py_DECREF(v);
    v = field(rec, record_offset[F_TILESET]);
    if (!v) return 0;
    if (v != Py_None && (!PyUnicode_Check(v) || PyUnicode_Compare(v, S_standard) != 0)) goto done;
    Py_DECREF(v);
    v = field(rec, record_offset[F_PLAYERS]);
    if (!v) return 0;
    if (v != Py_None) goto done;
    Py_DECREF(v);
    v = field(rec, record_offset[F_LOST]);
    if (!v) return 0;
    if (v != Py_None) goto done;
    Py_DECREF(v);

    v = field(rec, record_offset[F_ADVANCED]);
    if (!v) return 0;
    if (!PyBool_Check(v)) goto done;
    advanced = adv_override >= 0 ? adv_override : (v == Py_True);
    Py_DECREF(v);

    if (rules_override >= 0) {
        *rules = rules_override;
    } else {
        v = field(rec, record_offset[F_RULES]);
        if (!v) return 0;
        if (v != Py_None && !PyList_Check(v)) goto done;
        int mask = 0;
        for (Py_ssize_t i = 0; v != Py_None && i < PyList_GET_SIZE(v); i++) {
            PyObject *r = PyList_GET_ITEM(v, i);
            if (!PyLong_CheckExact(r)) goto done;
            long rule = PyLong_AsLong(r);
            if (rule == -1 && PyErr_Occurred()) { PyErr_Clear(); goto done; }
            if (rule < 1 || rule > 4 || (mask >> (rule - 1) & 1)) goto done;
            mask |= 1 << (rule - 1);
        }
        *rules = mask;  /* bit r - 1 set for rule r */
        Py_DECREF(v);
    }
    if ((*rules & t->rule_advanced_only) && !advanced) { v = NULL; goto done; }

    v = field(rec, record_offset[F_TILES]);
    if (!v) return 0;
    if (!PyList_Check(v)) goto done;
    Py_ssize_t count = PyList_GET_SIZE(v);
    if (count < 1 || count > MAX_TILES) goto done;
    uint64_t seen[4] = {0, 0, 0, 0};
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *p = PyList_GET_ITEM(v, i);
        if (Py_TYPE(p) != placement_type) goto done;
        PyObject *tile = field(p, tile_offset);
        if (!tile) goto done;
        PyObject *num = PyUnicode_Check(tile) ? PyDict_GetItemWithError(t->index, tile) : NULL;
        Py_DECREF(tile);
        if (!num) {
            if (PyErr_Occurred()) { Py_DECREF(v); return -1; }
            goto done;
        }
        long number = PyLong_AsLong(num);
        if (number < 0 || number >= t->ntiles) goto done;
        if (seen[number >> 6] >> (number & 63) & 1) goto done;
        seen[number >> 6] |= (uint64_t)1 << (number & 63);
        if (t->adv_only[number] && !advanced) goto done;
        PyObject *d = field(p, dir_offset);
        if (!d) goto done;
        int dir = dir_of(d);
        Py_DECREF(d);
        if (dir < 0) goto done;
        tiles[i] = (int)number;
        dirs[i] = dir;
    }
    *n = (int)count;
    result = 1;
done:
    Py_XDECREF(v);
    if (PyErr_Occurred()) return -1;
    return result;
}

static int write_result(const Tables *t, Out *o, PyObject *prefix, long line, const int *tiles,
                        const int *dirs, const int *cells, int ncells, int lost_at, int reason) {
    static const char DIRS[4] = {'N', 'E', 'S', 'W'};
    if (out_bytes(o, prefix) < 0 || out_long(o, line) < 0 ||
        OUT_LIT(o, ",\"kind\":\"dungeon\",\"lost_at\":") < 0)
        return -1;
    if (lost_at ? out_long(o, lost_at) : OUT_LIT(o, "null")) return -1;
    if (OUT_LIT(o, ",\"reason\":") < 0 || out_bytes(o, t->reason_json[reason]) < 0 ||
        OUT_LIT(o, ",\"layout\":[") < 0)
        return -1;
    for (int i = 0; i < ncells; i++) {
        int x = cells[i] / GRID_W - GRID_OFF, y = cells[i] % GRID_W - GRID_OFF;
        PyObject *id = t->tile_json[tiles[i]];
        if (out_reserve(o, PyBytes_GET_SIZE(id) + 80) < 0) return -1;
        char *p = o->buf + o->len;
        if (i) *p++ = ',';
        memcpy(p, "{\"tile\":", 8);
        p += 8;
        memcpy(p, PyBytes_AS_STRING(id), PyBytes_GET_SIZE(id));
        p += PyBytes_GET_SIZE(id);
        memcpy(p, ",\"dir\":\"", 8);
        p += 8;
        *p++ = DIRS[dirs[i]];
        memcpy(p, "\",\"x\":", 6);
        p += 6;
        p += write_long(p, x);
        memcpy(p, ",\"y\":", 5);
        p += 5;
        p += write_long(p, y);
        *p++ = '}';
        o->len = p - o->buf;
    }
    if (OUT_LIT(o, "],\"rule\":") < 0 || out_bytes(o, t->rule_json[reason]) < 0 ||
        OUT_LIT(o, "}\n") < 0)
        return -1;
    return 0;
}

/* trace_records(tables, records, start, first_line, prefix, rules_override, adv_override)
 *   -> (bytes, stop, counts)
 * Results for records[start:stop] (line numbers first_line + index); stop < len(records)
 * names the record to verify with the Python path. rules_override: -1 or a mask with bit r - 1
 * for rule r (pathcheck.tracer.constants.AdditionalRule); adv_override: -1, 0 or 1. counts: records per reason code. */
static PyObject *trace_records(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *records, *prefix;
    Py_ssize_t start;
    long first_line;
    int rules_override, adv_override;
    if (!PyArg_ParseTuple(args, "OO!nlSii", &capsule, &PyList_Type, &records, &start,
                          &first_line, &prefix, &rules_override, &adv_override))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return NULL;
    Py_ssize_t total = PyList_GET_SIZE(records);
    if (start < 0 || start > total || first_line < 0 || first_line > LONG_MAX - total ||
        rules_override < -1 || rules_override > 31 || adv_override < -1 || adv_override > 1) {
        PyErr_SetString(PyExc_ValueError, "trace_records: argument out of range");
        return NULL;
    }
    /* The grid and the output buffer live as long as the module: fresh ones would cost
     * page faults on every call. The GIL is held throughout, so nothing else uses them. */
    static Grid *g = NULL;
    static Out o = {NULL, 0, 0};
    if (!g && !(g = grid_new())) return NULL;
    o.len = 0;
    long counts[NREASONS] = {0};
    int tiles[MAX_TILES], dirs[MAX_TILES], cells[MAX_TILES];
    Py_ssize_t i;
    for (i = start; i < total; i++) {
        int n = 0, rules = 0;
        int ok = read_record(t, PyList_GET_ITEM(records, i), rules_override, adv_override, tiles,
                             dirs, &n, &rules);
        if (ok < 0) goto error;
        if (ok == 0) break;
        int ncells = 0, lost_at = 0, move = 0;
        int reason = trace(t, g, tiles, dirs, n, rules, 0, &move, cells, &ncells, &lost_at);
        counts[reason]++;
        if (write_result(t, &o, prefix, first_line + (long)i, tiles, dirs, cells, ncells, lost_at,
                         reason) < 0) {
            PyErr_NoMemory();
            goto error;
        }
    }
    PyObject *out = PyBytes_FromStringAndSize(o.buf ? o.buf : "", o.len);
    if (!out) return NULL;
    PyObject *c = PyTuple_New(t->nreasons);
    if (!c) { Py_DECREF(out); return NULL; }
    for (int r = 0; r < t->nreasons; r++) PyTuple_SET_ITEM(c, r, PyLong_FromLong(counts[r]));
    return Py_BuildValue("(NnN)", out, i, c);
error:
    return NULL;
}

