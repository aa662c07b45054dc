/* dungeon_marks_json: the moves of a clean game/1 log's analysis written straight as the JSON
 * array msgspec would encode of them (included after dungeon_report.c, before
 * dungeon_marks.c, whose dm_add calls dmj_move when asked for JSON).
 *
 * `pathcheck analyse --format jsonl|json` writes every move of a log (a hundred-odd, 15 fields
 * each) and keeps none: making each an AnalysedMove only for msgspec to encode it cost more
 * than making the analysis. Here a move is written as msgspec writes an AnalysedMove: its
 * fields in order, strings escaped as put_json_str does (check.c), ints in decimal, the
 * floats (0, 1 or a point count: whole numbers) as "N.0". Values that are not str, int,
 * None or such a float (the Rule and Mark members) are looked up in `encoded`, the kit's
 * values as msgspec encodes them (pathcheck.analysis.dungeon._encoded_kit). Anything else
 * (a name that is no UTF-8 text, a float that is not a small whole number) sets `declined`:
 * dungeon_marks then answers None and Python makes the moves as values.
 * tests/analysis/test_dungeon_fast.py compares the bytes with msgspec's. */

#define DMJ_KNOWN 16
#define DMJ_SEEN 512     /* a power of two */

typedef struct {
    PyObject *text;      /* a strong reference, so that no other text takes its address */
    Py_ssize_t at, len;  /* where its JSON was first written in `out` */
} DmjSeen;

typedef struct DmJson {
    Out out;
    PyObject *encoded;   /* dict: kit value -> its JSON (bytes) */
    PyObject *encode;    /* NULL, or msgspec's encoder of a float no whole number (kept in
                          * `encoded` once made) */
    int declined;
    int nknown;          /* the first of `encoded`'s items, found by identity (borrowed) */
    PyObject *known[DMJ_KNOWN], *known_json[DMJ_KNOWN];
    /* The texts written so far, by address (open addressing): a log's moves repeat a few
     * dozen texts hundreds of times, copied from their first writing. */
    int nseen;
    DmjSeen seen[DMJ_SEEN];
} DmJson;

static void dmj_free(DmJson *j) {
    for (int k = 0; k < DMJ_SEEN; k++) Py_XDECREF(j->seen[k].text);
    PyMem_RawFree(j->out.buf);
}

/* j->known from `encoded` (held by the caller): the kit's own objects come back as they are,
 * so a pointer comparison finds them without hashing a Rule. */
static void dmj_know(DmJson *j) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (j->nknown < DMJ_KNOWN && PyDict_Next(j->encoded, &pos, &key, &value)) {
        j->known[j->nknown] = key;
        j->known_json[j->nknown] = value;
        j->nknown++;
    }
}

/* `obj` (a str) as msgspec writes it; 0, or 1 when it cannot be written here (declined). */
static int dmj_str(DmJson *j, PyObject *obj) {
    size_t slot = (size_t)(((uintptr_t)obj >> 4) * 0x9E3779B97F4A7C15ULL >> 32) & (DMJ_SEEN - 1);
    while (j->seen[slot].text && j->seen[slot].text != obj) slot = (slot + 1) & (DMJ_SEEN - 1);
    DmjSeen *seen = &j->seen[slot];
    if (seen->text) {
        if (out_reserve(&j->out, seen->len) < 0) return -1;
        memcpy(j->out.buf + j->out.len, j->out.buf + seen->at, (size_t)seen->len);
        j->out.len += seen->len;
        return 0;
    }
    Py_ssize_t at = j->out.len, n;
    const char *p = PyUnicode_AsUTF8AndSize(obj, &n);
    if (!p) {  /* a lone surrogate: msgspec refuses it too; Python's way words that */
        PyErr_Clear();
        return 1;
    }
    if (n > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(&j->out, 6 * n + 2) < 0) return -1;
    char *end = put_json_str(j->out.buf + j->out.len, (Str){p, n});
    j->out.len = end - j->out.buf;
    if (j->nseen < DMJ_SEEN * 3 / 4) {
        seen->text = Py_NewRef(obj);
        seen->at = at;
        seen->len = j->out.len - at;
        j->nseen++;
    }
    return 0;
}

/* A whole number below 10^15 as msgspec writes a float ("3.0", "-0.0"); 1 if not one. */
static int dmj_float(DmJson *j, double v) {
    if (!(v > -1e15 && v < 1e15) || v != (double)(long long)v ||  /* msgspec: 1e16 "1e16" */
        v < (double)LONG_MIN || v > (double)LONG_MAX)  /* (a 32-bit long: not written here) */
        return 1;
    if (out_reserve(&j->out, 32) < 0) return -1;
    char *w = j->out.buf + j->out.len;
    if (v == 0.0 && signbit(v)) *w++ = '-';
    w += write_long(w, (long)(long long)v);
    memcpy(w, ".0", 2);
    j->out.len = w + 2 - j->out.buf;
    return 0;
}

/* Any field's value; 0 written, 1 declined, -1 error. */
static int dmj_value(DmJson *j, PyObject *obj) {
    if (obj == Py_None) return OUT_LIT(&j->out, "null") < 0 ? -1 : 0;
    if (PyUnicode_CheckExact(obj)) return dmj_str(j, obj);
    if (PyLong_CheckExact(obj)) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(obj, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 1;
        }
        return out_long(&j->out, v) < 0 ? -1 : 0;
    }
    if (PyFloat_CheckExact(obj)) {
        int whole = dmj_float(j, PyFloat_AS_DOUBLE(obj));
        if (whole <= 0 || !j->encode) return whole;
    }
    PyObject *known = NULL;
    for (int k = 0; k < j->nknown && !known; k++) {
        if (j->known[k] == obj) known = j->known_json[k];
    }
    if (!known) known = PyDict_GetItemWithError(j->encoded, obj);
    if (!known && !PyErr_Occurred() && j->encode && PyFloat_CheckExact(obj)) {
        PyObject *made = PyObject_CallOneArg(j->encode, obj);  /* a float: msgspec's digits */
        if (!made) return -1;
        int kept = PyBytes_CheckExact(made) && PyDict_GET_SIZE(j->encoded) < 65536 &&
                   PyDict_SetItem(j->encoded, obj, made) == 0;
        int status = !PyBytes_CheckExact(made) ? 1 : out_bytes(&j->out, made) < 0 ? -1 : 0;
        Py_DECREF(made);
        if (!kept) PyErr_Clear();
        return status;
    }
    if (!known) {
        if (!PyErr_Occurred()) return 1;
        PyErr_Clear();  /* an unhashable value: not the kit's */
        return 1;
    }
    if (!PyBytes_CheckExact(known)) return 1;
    return out_bytes(&j->out, known) < 0 ? -1 : 0;
}

#define DMJ_FIELD(j, key, value)                                        \
    do {                                                                \
        if (OUT_LIT(&(j)->out, key) < 0) return -1;                     \
        int dmj_status_ = dmj_value((j), (value));                      \
        if (dmj_status_) return dmj_status_;                            \
    } while (0)

/* One AnalysedMove as msgspec encodes it, with a comma before all but the first; 0 written,
 * 1 declined, -1 error. The floats and age are given as C values (`age` <= 0: null). */
static int dmj_move(DmJson *j, long round, long index, PyObject *player, PyObject *did,
                    PyObject *knew, PyObject *best, PyObject *mark, PyObject *why,
                    PyObject *rule, PyObject *pointer, double cost, double value,
                    PyObject *grade, int age) {
    int status;
    if (j->out.len > 1 && OUT_LIT(&j->out, ",") < 0) return -1;
    if (OUT_LIT(&j->out, "{\"round\":") < 0 || out_long(&j->out, round) < 0 ||
        OUT_LIT(&j->out, ",\"index\":") < 0 || out_long(&j->out, index) < 0)
        return -1;
    DMJ_FIELD(j, ",\"player\":", player);
    DMJ_FIELD(j, ",\"did\":", did);
    DMJ_FIELD(j, ",\"knew\":", knew);
    DMJ_FIELD(j, ",\"best\":", best);
    DMJ_FIELD(j, ",\"mark\":", mark);
    DMJ_FIELD(j, ",\"why\":", why);
    DMJ_FIELD(j, ",\"chance\":", Py_None);
    DMJ_FIELD(j, ",\"rule\":", rule);
    DMJ_FIELD(j, ",\"pointer\":", pointer);
    if (OUT_LIT(&j->out, ",\"cost\":") < 0) return -1;
    if ((status = dmj_float(j, cost)) != 0) return status;
    if (OUT_LIT(&j->out, ",\"value\":") < 0) return -1;
    if ((status = dmj_float(j, value)) != 0) return status;
    DMJ_FIELD(j, ",\"grade\":", grade);
    if (OUT_LIT(&j->out, ",\"age\":") < 0) return -1;
    if (age > 0 ? out_long(&j->out, age) < 0 : OUT_LIT(&j->out, "null") < 0) return -1;
    return OUT_LIT(&j->out, "}") < 0 ? -1 : 0;
}

/* An AnalysedMove of the 15 values `f` (its fields in order) as msgspec encodes it, with a
 * comma before all but the first; 0 written, 1 declined, -1 error (memoarrr_marks.c). */
static int dmj_fields(DmJson *j, PyObject *const *f) {
    static const char *const keys[15] = {
        "{\"round\":", ",\"index\":", ",\"player\":", ",\"did\":", ",\"knew\":", ",\"best\":",
        ",\"mark\":", ",\"why\":", ",\"chance\":", ",\"rule\":", ",\"pointer\":", ",\"cost\":",
        ",\"value\":", ",\"grade\":", ",\"age\":"};
    if (j->out.len > 1 && OUT_LIT(&j->out, ",") < 0) return -1;
    for (int k = 0; k < 15; k++) {
        if (out_put(&j->out, keys[k], (Py_ssize_t)strlen(keys[k])) < 0) return -1;
        int status = dmj_value(j, f[k]);
        if (status) return status;
    }
    return OUT_LIT(&j->out, "}") < 0 ? -1 : 0;
}
