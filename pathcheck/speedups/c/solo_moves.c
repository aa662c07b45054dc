/* solo_moves: a solo/1 record's analysed moves written as JSON (included after
 * dungeon_marks_json.c, whose output buffer and string escaping it uses).
 *
 * pathcheck.analysis.dungeon_solo words each tile laid from one template a case, msgspec's
 * own encoding of its constant parts with %d and %s where the dungeon, the tile, its
 * placement and its Lost point go (_words). Here the same templates are filled for every
 * tile of a record solo_trace traced, so that a record of forty tiles costs no Python loop:
 * the same bytes (tests/analysis/test_dungeon_solo_json.py compares them with the values'
 * encoding). */

enum { SM_PREMATURE, SM_NEW_DUNGEON, SM_LATE, SM_MISPLACED, SM_SOUND, SM_TEMPLATES };

typedef struct {
    const char *p;
    Py_ssize_t n;
} SmText;

/* `template` filled in order: %d from `ints`, %s from `texts`, %% as %. 0, or -1 (no memory). */
static int sm_fill(Out *o, PyObject *template, const long *ints, const SmText *texts) {
    const char *t = PyBytes_AS_STRING(template), *end = t + PyBytes_GET_SIZE(template);
    while (t < end) {
        const char *pc = memchr(t, '%', (size_t)(end - t));
        if (!pc) return out_put(o, t, end - t);
        if (out_put(o, t, pc - t) < 0) return -1;
        char kind = pc + 1 < end ? pc[1] : '%';
        if (kind == 'd') {
            if (out_long(o, *ints++) < 0) return -1;
        } else if (kind == 's') {
            if (out_put(o, texts->p, texts->n) < 0) return -1;
            texts++;
        } else if (OUT_LIT(o, "%") < 0) {
            return -1;
        }
        t = pc + 2;
    }
    return 0;
}

/* `s` escaped as msgspec escapes it, without the quotes, at w (room for 6 * s.n + 1); the end. */
static char *sm_escaped(char *w, Str s) {
    char before = w[-1];  /* put_json_str writes the opening quote there: put back */
    char *end = put_json_str(w - 1, s) - 1;
    w[-1] = before;
    return end;
}

/* `"lays TILE@DIR"` (with ` as a new dungeon` when `new`) as msgspec writes it, into `o`
 * after a reset; 0, 1 (not texts: declined) or -1. */
static int sm_did(Out *o, PyObject *placement, int new) {
    static PyObject **const names[] = {&S_tile, &S_dir};
    static DgLayout layout;
    PyObject *f[2];
    if (dg_fields(placement, names, 2, &layout, f) < 0) return -1;
    int status = 1;
    Py_ssize_t nt = 0, nd = 0;
    const char *tile = PyUnicode_CheckExact(f[0]) ? PyUnicode_AsUTF8AndSize(f[0], &nt) : NULL;
    const char *dir = tile && PyUnicode_CheckExact(f[1]) ? PyUnicode_AsUTF8AndSize(f[1], &nd)
                                                        : NULL;
    o->len = 0;
    if (!tile || !dir) {
        PyErr_Clear();  /* no text, or a lone surrogate (msgspec refuses it too) */
    } else if (out_reserve(o, 6 * (nt + nd) + 32) < 0) {
        status = -1;
    } else {
        char *w = o->buf;
        memcpy(w, "\"lays ", 6);
        w = sm_escaped(w + 6, (Str){tile, nt});
        *w++ = '@';
        w = sm_escaped(w, (Str){dir, nd});
        if (new) {
            memcpy(w, " as a new dungeon", 17);
            w += 17;
        }
        *w++ = '"';
        o->len = w - o->buf;
        status = 0;
    }
    Py_DECREF(f[0]);
    Py_DECREF(f[1]);
    if (status < 0) PyErr_NoMemory();
    return status;
}

/* solo_moves(dungeons, traced, templates, reasons, misplaced) -> (json, moves, slips) or
 * None: the moves' JSON array (bytes), their number and the slips among them, of a record whose dungeons (tuples of placements) solo_trace
 * traced into `traced` ((length, Lost point, reason code, ...) a dungeon); `templates` the
 * five cases' (SM_*), `reasons` each reason's text escaped, `misplaced` its code. None where
 * a value is not as a traced record has it (Python then makes the moves as values). */
static PyObject *solo_moves(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *dungeons, *traced, *templates, *reasons;
    int misplaced;
    if (!PyArg_ParseTuple(args, "O!O!O!O!i", &PyTuple_Type, &dungeons, &PyTuple_Type, &traced,
                          &PyTuple_Type, &templates, &PyTuple_Type, &reasons, &misplaced))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(traced);
    if (PyTuple_GET_SIZE(templates) != SM_TEMPLATES || PyTuple_GET_SIZE(dungeons) != count) {
        PyErr_SetString(PyExc_ValueError, "solo_moves: arguments of the wrong shape");
        return NULL;
    }
    for (int k = 0; k < SM_TEMPLATES; k++) {
        if (!PyBytes_CheckExact(PyTuple_GET_ITEM(templates, k))) {
            PyErr_SetString(PyExc_TypeError, "solo_moves: a template that is no bytes");
            return NULL;
        }
    }
    Out o = {0}, did = {0};
    PyObject *result = NULL;
    long slips = 0, moves = 0;
    int status = 0, previous_held = 0;
    if (OUT_LIT(&o, "[") < 0) goto nomem;
    for (Py_ssize_t k = 0; k < count && status == 0; k++) {
        PyObject *one = PyTuple_GET_ITEM(traced, k), *placements = PyTuple_GET_ITEM(dungeons, k);
        long d = (long)k + 1;
        int n, lost, code;
        if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) < 3 || !PyTuple_Check(placements) ||
            PyTuple_GET_SIZE(reasons) < 1 ||
            (status = dm_int(PyTuple_GET_ITEM(one, 0), 1, 100000, &n)) != 1 ||
            (status = dm_int(PyTuple_GET_ITEM(one, 1), 0, n, &lost)) != 1 ||
            (status = dm_int(PyTuple_GET_ITEM(one, 2), 0, PyTuple_GET_SIZE(reasons) - 1,
                             &code)) != 1 ||
            PyTuple_GET_SIZE(placements) != n) {
            status = status < 0 ? -1 : 1;
            break;
        }
        status = 0;
        PyObject *reason = PyTuple_GET_ITEM(reasons, code);
        if (!PyBytes_CheckExact(reason)) {
            status = 1;
            break;
        }
        for (long i = d == 1 ? 2 : 1; i <= n; i++) {  /* START is no move */
            if ((status = sm_did(&did, PyTuple_GET_ITEM(placements, i - 1), i == 1)) != 0) break;
            if (o.len > 1 && OUT_LIT(&o, ",") < 0) goto nomem;
            moves++;
            SmText texts[2] = {{did.buf, did.len}, {PyBytes_AS_STRING(reason),
                                                    PyBytes_GET_SIZE(reason)}};
            int which;
            if (i == 1) {
                which = previous_held ? SM_PREMATURE : SM_NEW_DUNGEON;
                slips += previous_held;
                long ints[3] = {d, d - 1, d - 1};
                if (sm_fill(&o, PyTuple_GET_ITEM(templates, which), ints, texts) < 0) goto nomem;
                continue;
            }
            long ints[7] = {d, i, d, d - 1, i - 1, 0, 0};
            if (lost && lost < i) {
                which = SM_LATE;
                long late[7] = {d, i, d, lost, d - 1, i - 1, i - lost};
                memcpy(ints, late, sizeof ints);
                slips++;
            } else if (lost == i && code == misplaced) {
                which = SM_MISPLACED;
                slips++;
            } else {
                which = SM_SOUND;
            }
            if (sm_fill(&o, PyTuple_GET_ITEM(templates, which), ints, texts) < 0) goto nomem;
        }
        previous_held = !lost;
    }
    if (status < 0) goto done;
    if (status > 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (OUT_LIT(&o, "]") < 0) goto nomem;
    result = Py_BuildValue("(y#ll)", o.buf, o.len, moves, slips);
    goto done;
nomem:
    PyErr_NoMemory();
done:
    PyMem_RawFree(o.buf);
    PyMem_RawFree(did.buf);
    return result;
}
