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
    Py_ssize_t at, len;  /* where its JSON lies in the table's `store` */
} DmjSeen;

typedef struct DmJson {
    Out out;
    PyObject *encoded;   /* dict: kit value -> its JSON (bytes) */
    PyObject *encode;    /* NULL, or msgspec's encoder of a float no whole number (kept in
                          * `encoded` once made) */
    int declined;
    int nknown;          /* the first of `encoded`'s items, found by identity (borrowed) */
    PyObject *known[DMJ_KNOWN], *known_json[DMJ_KNOWN];
    /* The texts written so far, by address (open addressing), with their JSON: a log's
     * moves repeat a few dozen texts hundreds of times, and most (the pointers, the tiles
     * laid, the stacks, the kit's words) recur from log to log. The table is taken at the
     * first text (af_seen_take: the one kept from call to call) and given back by dmj_free;
     * it is emptied when three quarters full (the players' names of each log fill it). */
    struct AfSeenTable *seen;
    /* The move written last (dmj_move): where its head ({"round":...,"player":) and its
     * tail (from ,"did": to its end) lie in `out`, with what they were written of (strong
     * references: no other value takes their addresses). The next move of the same round
     * and index copies the head, and of the same values but the player the tail too:
     * every player who stays in a turn whose path holds. */
    PyObject *af_prev[7];
    long af_round, af_index;
    double af_cost, af_value;
    PyObject *af_grade;
    int af_age, af_has_prev;
    Py_ssize_t af_head_at, af_head_len, af_tail_at, af_tail_len;
    struct GjSection *sections;  /* NULL, or GJ_SECTIONS of them (dmj_move), those of the
                                  * bits of `filled` set */
    uint64_t filled[2];
} DmJson;

/* A move's fields from "knew" to "rule" as first written in `out`, by the five values they
 * are written of (strong references: no other value takes their addresses; the first key
 * is None, "did" being written on its own); in a turn whose path holds, every player but
 * the active one stays in the team with the same five, and the same stacks recur from
 * exploration to exploration, laid or stayed on. */
#define GJ_SECTIONS 128  /* a power of two */
typedef struct GjSection {
    PyObject *key[6];
    Py_ssize_t at, len;
} GjSection;

typedef struct AfSeenTable {
    int nused;
    short used[DMJ_SEEN];  /* the slots filled, to empty them */
    DmjSeen slot[DMJ_SEEN];
    Out store;             /* the texts' JSON (raw allocator) */
} AfSeenTable;

static AfSeenTable *af_kept_seen;  /* the table kept from call to call (taken and given back
                                    * under the GIL, so a second call at once makes its own) */

static AfSeenTable *af_seen_take(void) {
    AfSeenTable *t = af_kept_seen;
    if (t) {
        af_kept_seen = NULL;
        return t;
    }
    return PyMem_Calloc(1, sizeof *t);
}

static void af_seen_empty(AfSeenTable *t) {
    for (int k = 0; k < t->nused; k++) Py_CLEAR(t->slot[t->used[k]].text);
    t->nused = 0;
    t->store.len = 0;
}

static void af_seen_give(AfSeenTable *t) {
    if (!af_kept_seen) {
        af_kept_seen = t;
        return;
    }
    af_seen_empty(t);  /* another call's table is kept already */
    PyMem_RawFree(t->store.buf);
    PyMem_Free(t);
}

static void dmj_free(DmJson *j) {
    if (j->seen) af_seen_give(j->seen);
    j->seen = NULL;
    if (j->af_has_prev) {
        for (int f = 0; f < 7; f++) Py_DECREF(j->af_prev[f]);
        Py_DECREF(j->af_grade);
        j->af_has_prev = 0;
    }
    if (j->sections) {
        for (int k = 0; k < GJ_SECTIONS; k++)
            if (j->filled[k >> 6] >> (k & 63) & 1)
                for (int f = 0; f < 6; f++) Py_DECREF(j->sections[k].key[f]);
        PyMem_Free(j->sections);
    }
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
    if (!j->seen && !(j->seen = af_seen_take())) {
        PyErr_NoMemory();
        return -1;
    }
    AfSeenTable *t = j->seen;
    size_t slot = (size_t)(((uintptr_t)obj >> 4) * 0x9E3779B97F4A7C15ULL >> 32) & (DMJ_SEEN - 1);
    while (t->slot[slot].text && t->slot[slot].text != obj) slot = (slot + 1) & (DMJ_SEEN - 1);
    DmjSeen *seen = &t->slot[slot];
    if (seen->text)
        return out_put(&j->out, t->store.buf + seen->at, seen->len) < 0 ? -1 : 0;
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(obj, &n);
    if (!p) {  /* a lone surrogate: msgspec refuses it too; Python's way words that */
        PyErr_Clear();
        return 1;
    }
    if (n > 4096) {  /* a long text: written, not kept */
        if (n > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(&j->out, 6 * n + 2) < 0) return -1;
        j->out.len = put_json_str(j->out.buf + j->out.len, (Str){p, n}) - j->out.buf;
        return 0;
    }
    if (t->nused >= DMJ_SEEN * 3 / 4) {  /* full: emptied, and looked up again */
        af_seen_empty(t);
        slot = (size_t)(((uintptr_t)obj >> 4) * 0x9E3779B97F4A7C15ULL >> 32) & (DMJ_SEEN - 1);
        seen = &t->slot[slot];
    }
    if (out_reserve(&t->store, 6 * n + 2) < 0) return -1;
    Py_ssize_t at = t->store.len;
    t->store.len = put_json_str(t->store.buf + at, (Str){p, n}) - t->store.buf;
    seen->text = Py_NewRef(obj);
    seen->at = at;
    seen->len = t->store.len - at;
    t->used[t->nused++] = (short)slot;
    return out_put(&j->out, t->store.buf + at, seen->len) < 0 ? -1 : 0;
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

/* AnalysedMove's fields in msgspec's order, each written with what comes before its value. */
enum {
    DMJ_ROUND, DMJ_INDEX, DMJ_PLAYER, DMJ_DID, DMJ_KNEW, DMJ_BEST, DMJ_MARK, DMJ_WHY,
    DMJ_CHANCE, DMJ_RULE, DMJ_POINTER, DMJ_COST, DMJ_VALUE, DMJ_GRADE, DMJ_AGE, DMJ_FIELDS
};
#define DMJ_KEY(text) {text, (Py_ssize_t)sizeof(text) - 1}
static const struct {
    const char *text;
    Py_ssize_t len;
} DMJ_KEYS[DMJ_FIELDS] = {
    DMJ_KEY("{\"round\":"), DMJ_KEY(",\"index\":"), DMJ_KEY(",\"player\":"), DMJ_KEY(",\"did\":"),
    DMJ_KEY(",\"knew\":"), DMJ_KEY(",\"best\":"), DMJ_KEY(",\"mark\":"), DMJ_KEY(",\"why\":"),
    DMJ_KEY(",\"chance\":"), DMJ_KEY(",\"rule\":"), DMJ_KEY(",\"pointer\":"),
    DMJ_KEY(",\"cost\":"), DMJ_KEY(",\"value\":"), DMJ_KEY(",\"grade\":"), DMJ_KEY(",\"age\":")};

static inline int dmj_key(DmJson *j, int field) {
    return out_put(&j->out, DMJ_KEYS[field].text, DMJ_KEYS[field].len);
}

/* Field `field` holding `value`; 0 written, 1 declined, -1 error. */
static int dmj_field(DmJson *j, int field, PyObject *value) {
    return dmj_key(j, field) < 0 ? -1 : dmj_value(j, value);
}

/* A float of a move as msgspec writes it: 0.0 and 1.0 at once, any other by dmj_float. */
static inline int gj_float(DmJson *j, double v) {
    if (v == 0.0 && !signbit(v)) return OUT_LIT(&j->out, "0.0") < 0 ? -1 : 0;
    if (v == 1.0) return OUT_LIT(&j->out, "1.0") < 0 ? -1 : 0;
    return dmj_float(j, v);
}

static inline int af_copy(Out *o, Py_ssize_t at, Py_ssize_t len);
static int af_move_tail(DmJson *j, PyObject *const *texts, PyObject *did, PyObject *knew,
                        PyObject *best, PyObject *mark, PyObject *why, PyObject *rule,
                        PyObject *pointer, double cost, double value, PyObject *grade,
                        int age);

/* One AnalysedMove as msgspec encodes it, with a comma before all but the first; 0 written,
 * 1 declined, -1 error. The ints, floats and age are given as C values (`age` <= 0: null).
 * The fields from "did" to "rule" are copied from an earlier move of the same six values
 * when there is one (GjSection), and the tail of a move with no cost is one literal. */
static int dmj_move(DmJson *j, long round, long index, PyObject *player, PyObject *did,
                    PyObject *knew, PyObject *best, PyObject *mark, PyObject *why,
                    PyObject *rule, PyObject *pointer, double cost, double value,
                    PyObject *grade, int age) {
    PyObject *texts[] = {player, did, knew, best, mark, why, Py_None, rule, pointer};
    int status;
    if (j->out.len > 1 && OUT_LIT(&j->out, ",") < 0) return -1;
    PyObject *same[7] = {did, knew, best, mark, why, rule, pointer};
    int head_same = j->af_has_prev && round == j->af_round && index == j->af_index;
    if (head_same) {  /* {"round":R,"index":I,"player": as the move before */
        if (af_copy(&j->out, j->af_head_at, j->af_head_len) < 0) return -1;
    } else {
        Py_ssize_t head_at = j->out.len;
        if (OUT_LIT(&j->out, "{\"round\":") < 0 || out_long(&j->out, round) < 0 ||
            OUT_LIT(&j->out, ",\"index\":") < 0 || out_long(&j->out, index) < 0 ||
            OUT_LIT(&j->out, ",\"player\":") < 0)
            return -1;
        j->af_head_at = head_at;
        j->af_head_len = j->out.len - head_at;
    }
    if ((status = dmj_value(j, player)) != 0) return status;
    if (head_same && memcmp(same, j->af_prev, sizeof same) == 0 && grade == j->af_grade &&
        age == j->af_age && memcmp(&cost, &j->af_cost, sizeof cost) == 0 &&
        memcmp(&value, &j->af_value, sizeof value) == 0)  /* all but the player the same */
        return af_copy(&j->out, j->af_tail_at, j->af_tail_len);
    Py_ssize_t tail_at = j->out.len;
    status = af_move_tail(j, texts, did, knew, best, mark, why, rule, pointer, cost, value,
                          grade, age);
    if (status) {
        if (j->af_has_prev) {  /* forget the move before: its tail is not whole */
            for (int f = 0; f < 7; f++) Py_DECREF(j->af_prev[f]);
            Py_DECREF(j->af_grade);
            j->af_has_prev = 0;
        }
        return status;
    }
    for (int f = 0; f < 7; f++) {
        PyObject *was = j->af_has_prev ? j->af_prev[f] : NULL;
        j->af_prev[f] = Py_NewRef(same[f]);
        Py_XDECREF(was);
    }
    PyObject *was_grade = j->af_has_prev ? j->af_grade : NULL;
    j->af_grade = Py_NewRef(grade);
    Py_XDECREF(was_grade);
    j->af_has_prev = 1;
    j->af_round = round;
    j->af_index = index;
    j->af_cost = cost;
    j->af_value = value;
    j->af_age = age;
    j->af_tail_at = tail_at;
    j->af_tail_len = j->out.len - tail_at;
    return 0;
}

/* `len` bytes written before at `at` in `o`, written again at its end. */
static inline int af_copy(Out *o, Py_ssize_t at, Py_ssize_t len) {
    if (out_reserve(o, len) < 0) return -1;
    memcpy(o->buf + o->len, o->buf + at, (size_t)len);
    o->len += len;
    return 0;
}

/* A move's fields from "did" to its end (dmj_move); 0 written, 1 declined, -1 error. */
static int af_move_tail(DmJson *j, PyObject *const *texts, PyObject *did, PyObject *knew,
                        PyObject *best, PyObject *mark, PyObject *why, PyObject *rule,
                        PyObject *pointer, double cost, double value, PyObject *grade,
                        int age) {
    int status;
    if (!j->sections && !(j->sections = PyMem_Malloc(GJ_SECTIONS * sizeof *j->sections))) {
        PyErr_NoMemory();
        return -1;
    }
    /* "did" on its own (a placement's is its tile's), the section keyed by the other five
     * (the sixth key left None): a placement's knew ... rule recur like a stay's */
    if ((status = dmj_field(j, DMJ_DID, did)) != 0) return status;
    PyObject *key[6] = {Py_None, knew, best, mark, why, rule};
    uintptr_t h = 0;
    for (int f = 0; f < 6; f++) h = (h ^ ((uintptr_t)key[f] >> 4)) * 0x9E3779B97F4A7C15ULL;
    unsigned slot = (unsigned)(h >> 40) & (GJ_SECTIONS - 1);
    GjSection *section = &j->sections[slot];
    int filled = j->filled[slot >> 6] >> (slot & 63) & 1;
    if (filled && memcmp(section->key, key, sizeof key) == 0) {
        if (out_reserve(&j->out, section->len) < 0) return -1;
        memcpy(j->out.buf + j->out.len, j->out.buf + section->at, (size_t)section->len);
        j->out.len += section->len;
    } else {
        Py_ssize_t at = j->out.len;
        for (int field = DMJ_KNEW; field <= DMJ_RULE; field++) {
            if ((status = dmj_field(j, field, texts[field - DMJ_PLAYER])) != 0) return status;
        }
        for (int f = 0; f < 6; f++) {  /* (the last of a slot is kept) */
            PyObject *was = filled ? section->key[f] : NULL;
            section->key[f] = Py_NewRef(key[f]);
            Py_XDECREF(was);
        }
        j->filled[slot >> 6] |= (uint64_t)1 << (slot & 63);
        section->at = at;
        section->len = j->out.len - at;
    }
    if ((status = dmj_field(j, DMJ_POINTER, pointer)) != 0) return status;
    if (cost == 0.0 && !signbit(cost) && value == 0.0 && !signbit(value) && grade == Py_None &&
        age <= 0)
        return OUT_LIT(&j->out, ",\"cost\":0.0,\"value\":0.0,\"grade\":null,\"age\":null}") < 0
                   ? -1 : 0;
    if (OUT_LIT(&j->out, ",\"cost\":") < 0) return -1;
    if ((status = gj_float(j, cost)) != 0) return status;
    if (OUT_LIT(&j->out, ",\"value\":") < 0) return -1;
    if ((status = gj_float(j, value)) != 0) return status;
    if ((status = dmj_field(j, DMJ_GRADE, grade)) != 0) return status;
    if (OUT_LIT(&j->out, ",\"age\":") < 0) return -1;
    if (age > 0 ? out_long(&j->out, age) < 0 : OUT_LIT(&j->out, "null") < 0) return -1;
    return OUT_LIT(&j->out, "}") < 0 ? -1 : 0;
}

/* An AnalysedMove of the DMJ_FIELDS values `f` (its fields in order) as msgspec encodes it,
 * with a comma before all but the first; 0 written, 1 declined, -1 error (memoarrr_marks.c). */
static int dmj_fields(DmJson *j, PyObject *const *f) {
    if (j->out.len > 1 && OUT_LIT(&j->out, ",") < 0) return -1;
    for (int field = 0; field < DMJ_FIELDS; field++) {
        int status = dmj_field(j, field, f[field]);
        if (status) return status;
    }
    return OUT_LIT(&j->out, "}") < 0 ? -1 : 0;
}
