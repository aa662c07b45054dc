/*
 * pathcheck._speedups: the fast tracer of pathcheck.fasttrace, in C, for batch work.
 *
 * It reads dungeon/1 JSON Lines (scan_block) and .dgn lines (scan_dgn) itself, or records
 * that msgspec has already decoded (trace_records); checks what the Python path checks
 * (known, unrepeated, in-mode tiles; the rules; players and LOST cards), traces them with the
 * same compiled tables as the Python fast tracer, scores the LOST cards and writes the JSON
 * Lines results byte for byte as the Python path would.
 *
 * Any record it is not sure about (an invalid one, a custom tile set, a solo line, ...) stops
 * the run: the caller verifies that record with the Python path and calls again after it.
 * So this module never decides anything the Python path would decide differently; the
 * tests compare both on random records.
 *
 * The compiled tables are handed over by pathcheck.speedups (derived from KIND_PATHS there).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>
#include <stdint.h>

#define MAX_TILES 64           /* longer dungeons go to the Python path */
#define GRID_OFF (MAX_TILES + 2)
#define GRID_W (2 * GRID_OFF + 1)
#define GRID_CELLS (GRID_W * GRID_W)
#define NREASONS 8             /* room for the reason codes Python hands over */
#define MAX_KINDS 16
#define ID_SLOTS 1024

/* The checks of the tracer. Their reason codes (the order of pathcheck.constants.REASONS),
 * the rule bits, the bound and the ghost limit come from Python with the tables. */
enum { HELD, MISPLACED, OUT_OF_BOUNDS, GHOST_FIVE, GHOST_TWICE, DEAD_END, LOOP, REVERSE, NCHECKS };
static const char *const CHECK_NAMES[NCHECKS] = {
    NULL, "misplaced", "out-of-bounds", "ghost-five", "ghost-twice", "dead-end", "loop",
    "reverse"};
#define REPEAT_CODE (-2)
#define DEAD_CODE (-1)

static const int STEP[4] = {1, GRID_W, -1, -GRID_W};
static const int EDGE_KEY[4] = {0, 1, -2, -2 * GRID_W + 1};
static const int SIGN[4] = {1, 1, -1, -1};

/* ---- output buffer ------------------------------------------------------------------- */

typedef struct {
    char *buf;
    Py_ssize_t len, cap;
} Out;

/* Raw allocators only: scan_block writes with the GIL released. -1 (no Python error set)
 * when memory runs out; the caller raises MemoryError once it holds the GIL. */
static int out_reserve(Out *o, Py_ssize_t extra) {
    if (o->len + extra <= o->cap) return 0;
    Py_ssize_t cap = o->cap ? o->cap : 1 << 16;
    while (cap < o->len + extra) cap *= 2;
    char *nb = PyMem_RawRealloc(o->buf, cap);
    if (!nb) return -1;
    o->buf = nb;
    o->cap = cap;
    return 0;
}

static inline int out_put(Out *o, const char *s, Py_ssize_t n) {
    if (out_reserve(o, n) < 0) return -1;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return 0;
}

#define OUT_LIT(o, s) out_put((o), (s), (Py_ssize_t)(sizeof(s) - 1))

static inline int out_bytes(Out *o, PyObject *b) {
    return out_put(o, PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b));
}

static inline int write_long(char *dst, long v) {
    char tmp[24];
    int n = 0, neg = v < 0;
    unsigned long u = neg ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    int len = 0;
    if (neg) dst[len++] = '-';
    while (n) dst[len++] = tmp[--n];
    return len;
}

static int out_long(Out *o, long v) {
    if (out_reserve(o, 24) < 0) return -1;
    o->len += write_long(o->buf + o->len, v);
    return 0;
}

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
 * the rule_* arguments are the bits of pathcheck.constants.AdditionalRule. */
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

/* ---- the tracer -------------------------------------------------------------------------- */

typedef struct {
    uint32_t stamp;
    uint32_t cell_stamp[GRID_CELLS];
    signed char cell_tile[GRID_CELLS];     /* kind * 4 + arrow */
    uint32_t edge_stamp[2 * GRID_CELLS];
    signed char edge_sign[2 * GRID_CELLS];
} Grid;

static Grid *grid_new(void) {
    Grid *g = PyMem_RawCalloc(1, sizeof(Grid));
    if (!g) PyErr_NoMemory();
    return g;
}

/* Trace n tiles (tile numbers and arrows); fills cells[] and returns the reason,
 * *lost_at set to the 1-based Lost index or 0. Mirrors fasttrace.trace_indices: with
 * `perfect`, every arrow is laid along the heading (the first north) and written to dirs[].
 * *move holds the movement a first Repeat tile repeats, and receives the last movement. */
static int trace(const Tables *t, Grid *g, const int *tiles, int *dirs, int n, int rules,
                 int perfect, int *move, int *cells, int *ncells, int *lost_at) {
    uint32_t s = ++g->stamp;
    if (s == 0) {  /* wrapped: clear and start again */
        memset(g->cell_stamp, 0, sizeof g->cell_stamp);
        memset(g->edge_stamp, 0, sizeof g->edge_stamp);
        s = g->stamp = 1;
    }
    const int origin = GRID_OFF * GRID_W + GRID_OFF;
    int heading = (n && !perfect) ? dirs[0] : 0;
    int frontier = origin;
    int last_move = *move;
    int ghost_count = 0, ghost_seen = 0;
    *ncells = 0;
    *lost_at = 0;
    {
        int e = 2 * (origin - STEP[heading]) + EDGE_KEY[heading];
        g->edge_stamp[e] = s;
        g->edge_sign[e] = (signed char)SIGN[heading];
    }
    for (int k = 0; k < n; k++) {
        int tile = tiles[k], ghost = t->ghost[tile];
        int arrow = perfect ? (dirs[k] = heading) : dirs[k];
        if (k) {
            if (arrow != heading) {
                cells[(*ncells)++] = frontier;
                *lost_at = k + 1;
                *move = last_move;
                return t->code[MISPLACED];
            }
            if (rules & t->rule_bound) {
                int x = frontier / GRID_W - GRID_OFF, y = frontier % GRID_W - GRID_OFF;
                int b = t->bound;
                if (x > b || x < -b || y > b || y < -b) {
                    cells[(*ncells)++] = frontier;
                    *lost_at = k + 1;
                    *move = last_move;
                    return t->code[OUT_OF_BOUNDS];
                }
            }
            if (ghost >= 0) {
                if ((rules & t->rule_ghost_five) && ghost_count == t->ghost_limit - 1) {
                    cells[(*ncells)++] = frontier;
                    *lost_at = k + 1;
                    *move = last_move;
                    return t->code[GHOST_FIVE];
                }
                if ((rules & t->rule_ghost_twice) && ((ghost_seen >> ghost) & 1)) {
                    cells[(*ncells)++] = frontier;
                    *lost_at = k + 1;
                    *move = last_move;
                    return t->code[GHOST_TWICE];
                }
            }
        }
        if (ghost >= 0) {
            ghost_count++;
            ghost_seen |= 1 << ghost;
        }
        int kind = t->kind[tile];
        g->cell_stamp[frontier] = s;
        g->cell_tile[frontier] = (signed char)(kind * 4 + arrow);
        cells[(*ncells)++] = frontier;
        if (!t->is_repeat[kind]) last_move = t->primary_move[kind];
        heading = (heading + last_move) & 3;
        int cell = frontier;
        for (;;) {
            int e = 2 * cell + EDGE_KEY[heading];
            if (g->edge_stamp[e] == s) {
                *lost_at = k + 1;
                *move = last_move;
                return t->code[g->edge_sign[e] == SIGN[heading] ? LOOP : REVERSE];
            }
            g->edge_stamp[e] = s;
            g->edge_sign[e] = (signed char)SIGN[heading];
            cell += STEP[heading];
            if (g->cell_stamp[cell] != s) {
                frontier = cell;
                break;
            }
            int nh = t->exit_table[g->cell_tile[cell] * 4 + heading];
            if (nh == REPEAT_CODE) {
                nh = (heading + last_move) & 3;
            } else if (nh == DEAD_CODE) {
                *lost_at = k + 1;
                *move = last_move;
                return t->code[DEAD_END];
            } else {
                last_move = (nh - heading) & 3;
            }
            heading = nh;
        }
    }
    *move = last_move;
    return t->code[HELD];
}

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
 * for rule r (pathcheck.constants.AdditionalRule); adv_override: -1, 0 or 1. counts: records per reason code. */
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

/* ---- the JSON Lines scanner ------------------------------------------------------------------ */

/* A strict reader for dungeon/1 lines as people write them: an object whose keys are among
 * format, tileset, advanced, rules, tiles, players, lost, id and note (each at most once, in
 * any order); strings with or without escapes (valid UTF-8, surrogate pairs joined); rules as
 * single digits 1-4; tiles as objects with exactly "tile" and "dir"; LOST cards as objects with
 * exactly "player" and "after"; id and note any JSON value. It accepts only lines that are
 * valid JSON *and* valid records that the Python path would verify without an error; every
 * other line (anything unusual, however valid) is left to the msgspec + Python paths, so it
 * never decides anything differently. */

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

#define MAX_PLAYERS 32   /* more players or LOST cards in a record: the Python path */
#define MAX_DEPTH 32     /* id or note values nested deeper: the Python path */
#define MAX_KEYS 16      /* objects in id or note values with more keys: the Python path */
#define MAX_NAME 100     /* player names of more bytes: the Python path */
#define RULE_BIT(r) (1 << ((r) - 1))   /* rule r's bit (pathcheck.constants.AdditionalRule) */

typedef struct {
    const char *p, *end;
    char *scratch;       /* unescaped strings: room for the whole line (unescaping never grows) */
    Py_ssize_t used;
} Scan;

typedef struct {
    const char *p;
    Py_ssize_t n;
} Str;

/* A record's players and LOST cards, as UTF-8 (pointing into the line or the scratch). */
typedef struct {
    int has_players, nplayers, ncards;
    Str player[MAX_PLAYERS];
    Str card[MAX_PLAYERS];
    int after[MAX_PLAYERS];
    int card_of[MAX_PLAYERS];   /* with players: each player's card (-1 none), by cards_ok */
} Cards;

static inline int same_str(Str a, Str b) {
    return a.n == b.n && (!a.n || (a.p[0] == b.p[0] && memcmp(a.p, b.p, a.n) == 0));
}

static inline void ws(Scan *s) {
    if (s->p < s->end && (unsigned char)*s->p > ' ') return;  /* the usual case: no space */
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
        s->p++;
}

static inline int eat(Scan *s, char c) {
    ws(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return 1;
    }
    return 0;
}

/* The length of the valid UTF-8 sequence at s (*s >= 0x80), 0 if invalid, as strict as
 * Python's decoder (no overlong forms, no surrogates, nothing above U+10FFFF). */
static inline int utf8_seq(const unsigned char *s, const unsigned char *end, uint32_t *cp) {
    unsigned char c = s[0];
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        if (end - s < 2 || (s[1] & 0xC0) != 0x80) return 0;
        *cp = ((uint32_t)(c & 0x1F) << 6) | (s[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (end - s < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        uint32_t v = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
                     (s[2] & 0x3F);
        if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF)) return 0;
        *cp = v;
        return 3;
    }
    if (c < 0xF5) {
        if (end - s < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
            (s[3] & 0xC0) != 0x80)
            return 0;
        uint32_t v = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
                     ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        if (v < 0x10000 || v > 0x10FFFF) return 0;
        *cp = v;
        return 4;
    }
    return 0;
}

static inline int utf8_put(char *w, uint32_t v) {
    if (v < 0x80) {
        w[0] = (char)v;
        return 1;
    }
    if (v < 0x800) {
        w[0] = (char)(0xC0 | v >> 6);
        w[1] = (char)(0x80 | (v & 0x3F));
        return 2;
    }
    if (v < 0x10000) {
        w[0] = (char)(0xE0 | v >> 12);
        w[1] = (char)(0x80 | (v >> 6 & 0x3F));
        w[2] = (char)(0x80 | (v & 0x3F));
        return 3;
    }
    w[0] = (char)(0xF0 | v >> 18);
    w[1] = (char)(0x80 | (v >> 12 & 0x3F));
    w[2] = (char)(0x80 | (v >> 6 & 0x3F));
    w[3] = (char)(0x80 | (v & 0x3F));
    return 4;
}

static inline int hex4(const unsigned char *q, uint32_t *v) {
    uint32_t x = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = q[i];
        x <<= 4;
        if (c >= '0' && c <= '9') x |= c - '0';
        else if (c >= 'a' && c <= 'f') x |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') x |= c - 'A' + 10;
        else return 0;
    }
    *v = x;
    return 1;
}

static int json_string_rest(Scan *s, Str *out, const char *start, const unsigned char *q);

/* 1 for the bytes a string without escapes goes on with: ASCII from space on, but " and \. */
static unsigned char PLAIN[256];

static void plain_init(void) {
    for (int c = 0x20; c < 0x80; c++) PLAIN[c] = c != '"' && c != '\\';
}

/* A JSON string, its value as UTF-8 in *out (in the line itself when it has no escapes, else
 * unescaped into the scratch); 0 if it is not a valid string msgspec would decode. */
static ALWAYS_INLINE int json_string(Scan *s, Str *out) {
    ws(s);
    if (s->p >= s->end || *s->p != '"') return 0;
    const char *start = ++s->p;
    const unsigned char *q = (const unsigned char *)start, *end = (const unsigned char *)s->end;
    while (q < end && PLAIN[*q]) q++;
    if (q < end && *q == '"') {
        out->p = start;
        out->n = (const char *)q - start;
        s->p = (const char *)q + 1;
        return 1;
    }
    return json_string_rest(s, out, start, q);
}

/* The rest of a string from q on: non-ASCII, escapes, or an error. */
static int json_string_rest(Scan *s, Str *out, const char *start, const unsigned char *q) {
    const unsigned char *end = (const unsigned char *)s->end;
    uint32_t cp;
    for (;;) {
        if (q >= end) return 0;
        unsigned char c = *q;
        if (c == '"') {
            out->p = start;
            out->n = (const char *)q - start;
            s->p = (const char *)q + 1;
            return 1;
        }
        if (c == '\\') break;
        if (c < 0x20) return 0;
        if (c < 0x80) {
            q++;
        } else {
            int k = utf8_seq(q, end, &cp);
            if (!k) return 0;
            q += k;
        }
    }
    char *dst = s->scratch + s->used, *w = dst;
    memcpy(w, start, (const char *)q - start);
    w += (const char *)q - start;
    while (q < end) {
        unsigned char c = *q;
        if (c == '"') {
            out->p = dst;
            out->n = w - dst;
            s->used += out->n;
            s->p = (const char *)q + 1;
            return 1;
        }
        if (c < 0x20) return 0;
        if (c >= 0x80) {
            int k = utf8_seq(q, end, &cp);
            if (!k) return 0;
            memcpy(w, q, k);
            w += k;
            q += k;
            continue;
        }
        if (c != '\\') {
            *w++ = (char)c;
            q++;
            continue;
        }
        if (end - q < 2) return 0;
        switch (q[1]) {
            case '"': *w++ = '"'; break;
            case '\\': *w++ = '\\'; break;
            case '/': *w++ = '/'; break;
            case 'b': *w++ = '\b'; break;
            case 'f': *w++ = '\f'; break;
            case 'n': *w++ = '\n'; break;
            case 'r': *w++ = '\r'; break;
            case 't': *w++ = '\t'; break;
            case 'u': {
                uint32_t v, lo;
                if (end - q < 6 || !hex4(q + 2, &v)) return 0;
                q += 6;
                if (v >= 0xD800 && v <= 0xDBFF) {  /* must be the first of a pair */
                    if (end - q < 6 || q[0] != '\\' || q[1] != 'u' || !hex4(q + 2, &lo) ||
                        lo < 0xDC00 || lo > 0xDFFF)
                        return 0;
                    q += 6;
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                } else if (v >= 0xDC00 && v <= 0xDFFF) {
                    return 0;
                }
                w += utf8_put(w, v);
                continue;
            }
            default: return 0;
        }
        q += 2;
    }
    return 0;
}

/* A literal (true, false, null) followed by a delimiter. */
static inline int literal(Scan *s, const char *word, Py_ssize_t n) {
    ws(s);
    if (s->end - s->p < n || memcmp(s->p, word, n) != 0) return 0;
    const char *after = s->p + n;
    if (after < s->end && !(*after == ',' || *after == '}' || *after == ']' || *after == ' ' ||
                            *after == '\t' || *after == '\r' || *after == '\n'))
        return 0;
    s->p = after;
    return 1;
}

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A JSON number msgspec decodes (ints of any size; floats with at most two exponent digits
 * and 40 characters in all, so that none is out of range). The caller checks what follows. */
static int json_number(Scan *s) {
    const char *p = s->p, *e = s->end;
    if (p < e && *p == '-') p++;
    if (p >= e || !is_digit(*p)) return 0;
    if (*p == '0') p++;
    else while (p < e && is_digit(*p)) p++;
    if (p < e && *p == '.') {
        if (++p >= e || !is_digit(*p)) return 0;
        while (p < e && is_digit(*p)) p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        if (++p < e && (*p == '+' || *p == '-')) p++;
        const char *digits = p;
        while (p < e && is_digit(*p)) p++;
        if (p == digits || p - digits > 2) return 0;
    }
    if (p - s->p > 40) return 0;
    s->p = p;
    return 1;
}

/* Any JSON value (for id and note, which nothing reads). */
static int skip_value(Scan *s, int depth) {
    Str x;
    ws(s);
    if (s->p >= s->end) return 0;
    switch (*s->p) {
        case '"': return json_string(s, &x);
        case 't': return literal(s, "true", 4);
        case 'f': return literal(s, "false", 5);
        case 'n': return literal(s, "null", 4);
        case '[':
            if (depth >= MAX_DEPTH) return 0;
            s->p++;
            if (eat(s, ']')) return 1;
            for (;;) {
                if (!skip_value(s, depth + 1)) return 0;
                if (eat(s, ']')) return 1;
                if (!eat(s, ',')) return 0;
            }
        case '{': {
            /* a key given twice, or more than MAX_KEYS keys: left to Python */
            Str keys[MAX_KEYS];
            int nkeys = 0;
            if (depth >= MAX_DEPTH) return 0;
            s->p++;
            if (eat(s, '}')) return 1;
            for (;;) {
                if (nkeys >= MAX_KEYS || !json_string(s, &x) || !eat(s, ':')) return 0;
                for (int i = 0; i < nkeys; i++)
                    if (same_str(keys[i], x)) return 0;
                keys[nkeys++] = x;
                if (!skip_value(s, depth + 1)) return 0;
                if (eat(s, '}')) return 1;
                if (!eat(s, ',')) return 0;
            }
        }
        default: return json_number(s);
    }
}

/* A LOST card's tile index: a plain positive integer (others go to the Python path). */
static inline int small_int(Scan *s, int *value) {
    ws(s);
    const char *p = s->p;
    int x = 0, digits = 0;
    if (p >= s->end || *p < '1' || *p > '9') return 0;
    while (p < s->end && is_digit(*p)) {
        if (++digits > 6) return 0;
        x = x * 10 + (*p++ - '0');
    }
    if (p < s->end && (*p == '.' || *p == 'e' || *p == 'E')) return 0;
    s->p = p;
    *value = x;
    return 1;
}

/* Whether the string s is the literal lit (a memcmp of constant size: inlined). */
#define str_is(s, lit) \
    ((s).n == (Py_ssize_t)sizeof(lit) - 1 && memcmp((s).p, (lit), sizeof(lit) - 1) == 0)


enum { K_TILES = 1, K_FORMAT = 2, K_ADVANCED = 4, K_RULES = 8, K_TILESET = 16, K_PLAYERS = 32,
       K_LOST = 64, K_ID = 128, K_NOTE = 256 };

static inline int key_bit(Str k) {
    switch (k.n) {
        case 2: return str_is(k, "id") ? K_ID : 0;
        case 4: return str_is(k, "lost") ? K_LOST : str_is(k, "note") ? K_NOTE : 0;
        case 5: return str_is(k, "tiles") ? K_TILES : str_is(k, "rules") ? K_RULES : 0;
        case 6: return str_is(k, "format") ? K_FORMAT : 0;
        case 7: return str_is(k, "tileset") ? K_TILESET : str_is(k, "players") ? K_PLAYERS : 0;
        case 8: return str_is(k, "advanced") ? K_ADVANCED : 0;
        default: return 0;
    }
}

/* 1: a valid-looking record read into tiles/dirs/n/rules (RULE_BIT)/advanced and
 * its players and LOST cards (checked later by cards_ok). */
static int scan_line(const Tables *t, Scan *s, int *tiles, int *dirs, int *n, int *rules,
                     int *advanced, Cards *c) {
    int seen_keys = 0, count = 0;
    Str v;
    *rules = 0;
    *advanced = 0;
    c->has_players = c->nplayers = c->ncards = 0;
    if (!eat(s, '{')) return 0;
    if (eat(s, '}')) return 0;  /* no tiles */
    for (;;) {
        Str k;
        if (!json_string(s, &k) || !eat(s, ':')) return 0;
        int bit = key_bit(k);
        if (!bit || (seen_keys & bit)) return 0;
        seen_keys |= bit;
        switch (bit) {
            case K_FORMAT:
                if (!json_string(s, &v) || !str_is(v, "dungeon/1")) return 0;
                break;
            case K_TILESET:
                if (!literal(s, "null", 4) && !(json_string(s, &v) && str_is(v, "standard")))
                    return 0;
                break;
            case K_ADVANCED:
                if (literal(s, "true", 4)) *advanced = 1;
                else if (!literal(s, "false", 5)) return 0;
                break;
            case K_RULES:
                if (literal(s, "null", 4)) break;
                if (!eat(s, '[')) return 0;
                if (eat(s, ']')) break;
                for (;;) {
                    ws(s);
                    if (s->p >= s->end || *s->p < '1' || *s->p > '4') return 0;
                    int rule = *s->p++ - '0';
                    if (s->p < s->end && (is_digit(*s->p) || *s->p == '.' || *s->p == 'e' ||
                                          *s->p == 'E'))
                        return 0;
                    if (*rules & RULE_BIT(rule)) return 0;
                    *rules |= RULE_BIT(rule);
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            case K_TILES:
                if (!eat(s, '[')) return 0;
                if (eat(s, ']')) return 0;  /* empty */
                for (;;) {
                    int tile = -1, dir = -1;
                    if (count >= MAX_TILES || !eat(s, '{')) return 0;
                    for (int member = 0; member < 2; member++) {
                        Str pk;
                        if (member && !eat(s, ',')) return 0;
                        if (!json_string(s, &pk) || !eat(s, ':') || !json_string(s, &v))
                            return 0;
                        if (str_is(pk, "tile") && tile < 0) {
                            if ((tile = id_lookup(t, v.p, v.n)) < 0) return 0;
                        } else if (str_is(pk, "dir") && dir < 0 && v.n == 1) {
                            switch (*v.p) {
                                case 'N': dir = 0; break;
                                case 'E': dir = 1; break;
                                case 'S': dir = 2; break;
                                case 'W': dir = 3; break;
                                default: return 0;
                            }
                        } else {
                            return 0;
                        }
                    }
                    if (!eat(s, '}')) return 0;
                    tiles[count] = tile;
                    dirs[count] = dir;
                    count++;
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            case K_PLAYERS:
                if (literal(s, "null", 4)) break;
                if (!eat(s, '[')) return 0;
                c->has_players = 1;
                if (eat(s, ']')) break;
                for (;;) {
                    if (c->nplayers >= MAX_PLAYERS || !json_string(s, &c->player[c->nplayers]))
                        return 0;
                    c->nplayers++;
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            case K_LOST:
                if (literal(s, "null", 4)) break;
                if (!eat(s, '[')) return 0;
                if (eat(s, ']')) break;
                for (;;) {
                    int i = c->ncards, got = 0;
                    if (i >= MAX_PLAYERS || !eat(s, '{')) return 0;
                    for (int member = 0; member < 2; member++) {
                        Str pk;
                        if (member && !eat(s, ',')) return 0;
                        if (!json_string(s, &pk) || !eat(s, ':')) return 0;
                        if (str_is(pk, "player") && !(got & 1)) {
                            if (!json_string(s, &c->card[i])) return 0;
                            got |= 1;
                        } else if (str_is(pk, "after") && !(got & 2)) {
                            if (!small_int(s, &c->after[i])) return 0;
                            got |= 2;
                        } else {
                            return 0;
                        }
                    }
                    if (!eat(s, '}')) return 0;
                    c->ncards++;
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            default:  /* id, note: any value */
                if (!skip_value(s, 0)) return 0;
        }
        if (eat(s, '}')) break;
        if (!eat(s, ',')) return 0;
    }
    ws(s);
    if (s->p != s->end || !(seen_keys & K_TILES)) return 0;
    *n = count;
    return 1;
}

/* Mode and repeat checks shared with read_record: 1 if the Python path accepts them. */
static int record_ok(const Tables *t, const int *tiles, int n, int rules, int advanced) {
    uint64_t seen[4] = {0, 0, 0, 0};
    if ((rules & t->rule_advanced_only) && !advanced) return 0;
    for (int i = 0; i < n; i++) {
        int number = tiles[i];
        if (seen[number >> 6] >> (number & 63) & 1) return 0;
        seen[number >> 6] |= (uint64_t)1 << (number & 63);
        if (t->adv_only[number] && !advanced) return 0;
    }
    return 1;
}

/* ---- the check of LOST cards (pathcheck.records._lost_cards, pathcheck.check) ------------- */

/* 1 if the Python path accepts these players and LOST cards for n tiles. */
static int cards_ok(Cards *c, int n, int rules) {
    for (int i = 0; i < c->nplayers; i++) {
        if (!c->player[i].n || c->player[i].n > MAX_NAME) return 0;
        for (int j = 0; j < i; j++)
            if (same_str(c->player[i], c->player[j])) return 0;
        c->card_of[i] = -1;
    }
    for (int i = 0; i < c->ncards; i++) {
        if (!c->card[i].n || c->card[i].n > MAX_NAME || c->after[i] < 1 || c->after[i] > n)
            return 0;
        if (c->has_players) {  /* among the players, one card each */
            int j = 0;
            while (j < c->nplayers && !same_str(c->card[i], c->player[j])) j++;
            if (j == c->nplayers || c->card_of[j] >= 0) return 0;
            c->card_of[j] = i;
        }
        for (int j = 0; j < i; j++) {
            if (!c->has_players && same_str(c->card[i], c->card[j])) return 0;
            if ((rules & RULE_BIT(1)) && c->after[i] == c->after[j]) return 0;
        }
    }
    return 1;
}

/* s as msgspec writes a JSON string, at w (room for 6 * s.n + 2 bytes); the end. */
static char *put_json_str(char *w, Str s) {
    static const char HEX[] = "0123456789abcdef";
    *w++ = '"';
    for (Py_ssize_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *w++ = (char)c;
            continue;
        }
        *w++ = '\\';
        switch (c) {
            case '"': *w++ = '"'; break;
            case '\\': *w++ = '\\'; break;
            case '\b': *w++ = 'b'; break;
            case '\f': *w++ = 'f'; break;
            case '\n': *w++ = 'n'; break;
            case '\r': *w++ = 'r'; break;
            case '\t': *w++ = 't'; break;
            default:
                memcpy(w, "u00", 3);
                w[3] = HEX[c >> 4];
                w[4] = HEX[c & 15];
                w += 5;
        }
    }
    *w++ = '"';
    return w;
}

#define PUT_LIT(w, s) (memcpy((w), (s), sizeof(s) - 1), (w) += sizeof(s) - 1)

enum { EARLY, SCORED, TOO_LATE, HELD_ON, STAYED };

/* The "points" and "outcomes" of pathcheck.check.score_lost_cards for a dungeon Lost at
 * lost_at (0: never), written as the Python path writes them. */
static int write_check(Out *o, const Cards *c, int lost_at) {
    const Str *names = c->has_players ? c->player : c->card;
    int nnames = c->has_players ? c->nplayers : c->ncards;
    int scoring = 0, kind[MAX_PLAYERS], after[MAX_PLAYERS];
    Py_ssize_t room = 48;
    if (lost_at)
        for (int i = 0; i < c->ncards; i++)
            if (c->after[i] >= lost_at && (!scoring || c->after[i] < scoring))
                scoring = c->after[i];
    for (int i = 0; i < nnames; i++) {
        int j = c->has_players ? c->card_of[i] : i;
        if (j < 0) {
            after[i] = 0;
            kind[i] = lost_at ? STAYED : HELD_ON;
        } else {
            after[i] = c->after[j];
            kind[i] = (!lost_at || after[i] < lost_at) ? EARLY
                      : after[i] == scoring           ? SCORED
                                                      : TOO_LATE;
        }
        room += 2 * (6 * names[i].n + 2) + 96;
    }
    if (out_reserve(o, room) < 0) return -1;
    char *w = o->buf + o->len, *name_at[MAX_PLAYERS];
    Py_ssize_t name_len[MAX_PLAYERS];
    PUT_LIT(w, ",\"points\":{");
    for (int i = 0; i < nnames; i++) {
        if (i) *w++ = ',';
        name_at[i] = w;
        w = put_json_str(w, names[i]);
        name_len[i] = w - name_at[i];
        if (kind[i] == SCORED || kind[i] == HELD_ON) PUT_LIT(w, ":1");
        else PUT_LIT(w, ":0");
    }
    PUT_LIT(w, "},\"outcomes\":[");
    for (int i = 0; i < nnames; i++) {
        if (i) *w++ = ',';
        PUT_LIT(w, "{\"player\":");
        memcpy(w, name_at[i], name_len[i]);
        w += name_len[i];
        switch (kind[i]) {
            case EARLY: PUT_LIT(w, ",\"outcome\":\"early\",\"after\":"); break;
            case SCORED: PUT_LIT(w, ",\"outcome\":\"scored\",\"after\":"); break;
            case TOO_LATE: PUT_LIT(w, ",\"outcome\":\"too-late\",\"after\":"); break;
            case HELD_ON: PUT_LIT(w, ",\"outcome\":\"held-on\",\"after\":"); break;
            default: PUT_LIT(w, ",\"outcome\":\"stayed\",\"after\":");
        }
        if (after[i]) w += write_long(w, after[i]);
        else PUT_LIT(w, "null");
        if (kind[i] == SCORED || kind[i] == HELD_ON) PUT_LIT(w, ",\"points\":1}");
        else PUT_LIT(w, ",\"points\":0}");
    }
    *w++ = ']';
    o->len = w - o->buf;
    return 0;
}

/* Check, trace and write one record read by a scanner: 1 done, 0 leave it to the Python
 * path, -1 out of memory. */
static int verify_scanned(const Tables *t, Grid *g, Out *o, PyObject *prefix, long line,
                          const int *tiles, int *dirs, int n, int rules, int advanced,
                          Cards *c, long *counts) {
    int cells[MAX_TILES];
    int check = c->ncards || c->has_players;
    if (!record_ok(t, tiles, n, rules, advanced) || (check && !cards_ok(c, n, rules))) return 0;
    int ncells = 0, lost_at = 0, move = 0;
    int reason = trace(t, g, tiles, dirs, n, rules, 0, &move, cells, &ncells, &lost_at);
    counts[reason]++;
    if (write_result(t, o, prefix, line, tiles, dirs, cells, ncells, lost_at, reason) < 0)
        return -1;
    if (check) {  /* the check's fields go before the closing "}\n" */
        o->len -= 2;
        if (write_check(o, c, lost_at) < 0 || OUT_LIT(o, "}\n") < 0) return -1;
    }
    return 1;
}

#define STACK_SCRATCH 8192

/* Room for the unescaped strings of a line of `need` bytes: `local` (STACK_SCRATCH bytes) or,
 * for a longer line, *heap (grown as needed; freed by the caller). NULL if memory runs out. */
static char *scratch_for(char *local, char **heap, Py_ssize_t *cap, Py_ssize_t need) {
    if (need <= STACK_SCRATCH) return local;
    if (need > *cap) {
        char *nb = PyMem_RawRealloc(*heap, need * 2);
        if (!nb) return NULL;
        *heap = nb;
        *cap = need * 2;
    }
    return *heap;
}

static PyObject *block_result(const Tables *t, Out *o, long *counts, Py_ssize_t stop,
                              long line) {
    PyObject *out = PyBytes_FromStringAndSize(o->buf ? o->buf : "", o->len);
    PyMem_RawFree(o->buf);
    if (!out) return NULL;
    PyObject *c = PyTuple_New(t->nreasons);
    if (!c) { Py_DECREF(out); return NULL; }
    for (int r = 0; r < t->nreasons; r++) PyTuple_SET_ITEM(c, r, PyLong_FromLong(counts[r]));
    return Py_BuildValue("(NnlN)", out, stop, line, c);
}

/* scan_block(tables, block, offset, line, prefix, rules_override, adv_override)
 *   -> (bytes, stop_offset, stop_line, counts)
 * Verifies the lines of block[offset:] (the first numbered `line`) until one the scanner
 * leaves to Python: stop_offset is where that line starts (len(block) when all were done),
 * stop_line its number. Blank lines are skipped, as the Python path skips them. */
static PyObject *scan_block(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *prefix;
    Py_buffer block;
    Py_ssize_t offset;
    long line;
    int rules_override, adv_override;
    if (!PyArg_ParseTuple(args, "Oy*nlSii", &capsule, &block, &offset, &line, &prefix,
                          &rules_override, &adv_override))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (t && (offset < 0 || offset > block.len || line < 0 || line > LONG_MAX - block.len ||
              rules_override < -1 || rules_override > 31 || adv_override < -1 ||
              adv_override > 1)) {
        PyErr_SetString(PyExc_ValueError, "scan_block: argument out of range");
        t = NULL;
    }
    Grid *g = t ? grid_new() : NULL;
    if (!g) {
        PyBuffer_Release(&block);
        return NULL;
    }
    /* Everything below works on C data only, so other threads run meanwhile (--jobs). */
    Out o = {NULL, 0, 0};
    char local_scratch[STACK_SCRATCH], *heap_scratch = NULL;
    Py_ssize_t scratch_cap = 0;
    int failed = 0;
    long counts[NREASONS] = {0};
    int tiles[MAX_TILES], dirs[MAX_TILES];
    Cards cards;
    const char *data = block.buf, *end = data + block.len;
    const char *p = data + offset;
    Py_BEGIN_ALLOW_THREADS
    failed = out_reserve(&o, (end - p) + (end - p) / 2 + 4096);
    while (!failed && p < end) {
        const char *nl = memchr(p, '\n', end - p);
        const char *line_end = nl ? nl : end;
        const char *q = p;
        while (q < line_end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
        if (q == line_end) {  /* blank */
            p = nl ? nl + 1 : end;
            line++;
            continue;
        }
        char *scratch = scratch_for(local_scratch, &heap_scratch, &scratch_cap, line_end - p);
        if (!scratch) {
            failed = 1;
            break;
        }
        Scan s = {p, line_end, scratch, 0};
        int n = 0, rules = 0, advanced = 0;
        if (!scan_line(t, &s, tiles, dirs, &n, &rules, &advanced, &cards)) break;
        if (rules_override >= 0) rules = rules_override;
        if (adv_override >= 0) advanced = adv_override;
        int done = verify_scanned(t, g, &o, prefix, line, tiles, dirs, n, rules, advanced, &cards,
                                  counts);
        if (done <= 0) {
            failed = done < 0;
            break;
        }
        p = nl ? nl + 1 : end;
        line++;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    PyMem_RawFree(heap_scratch);
    Py_ssize_t stop = p - data;
    PyBuffer_Release(&block);
    if (failed) {
        PyMem_RawFree(o.buf);
        return PyErr_NoMemory();
    }
    return block_result(t, &o, counts, stop, line);
}

/* ---- the .dgn reader ---------------------------------------------------------------------- */

/* Lines of compact notation (pathcheck.records.dgn_lines and parse_dgn_line): `#!` settings
 * lines, blank and comment lines, and dungeons of ID@DIR tokens with !NAME LOST cards. Like
 * the JSON Lines scanner it takes only what the Python path would verify without an error
 * (and settings lines it reads exactly as Python does), and stops at anything else: solo
 * lines (with |), unusual settings, any mistake. */

/* Whether the code point is whitespace to str.split(). */
static inline int is_uspace(uint32_t cp) {
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

static inline int is_aspace(unsigned char c) {
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
}

/* The next token of [*pp, end) split as str.split() splits: 1 and *tok, 0 when none is
 * left, -1 on invalid UTF-8. */
static int dgn_token(const char **pp, const char *end, Str *tok) {
    const unsigned char *p = (const unsigned char *)*pp, *e = (const unsigned char *)end;
    const unsigned char *start = NULL;
    uint32_t cp;
    while (p < e) {
        int k = 1, space;
        if (*p < 0x80) {
            space = is_aspace(*p);
        } else {
            if (!(k = utf8_seq(p, e, &cp))) return -1;
            space = is_uspace(cp);
        }
        if (space && start) break;
        if (!space && !start) start = p;
        p += k;
    }
    *pp = (const char *)p;
    if (!start) return 0;
    tok->p = (const char *)start;
    tok->n = (const char *)p - (const char *)start;
    return 1;
}

/* The settings of a `#!` line (pathcheck.records.parse_pragma). */
typedef struct {
    int known;         /* 0: this line is left to Python, and so are the records under it */
    int has_adv, adv, has_rules, rules, rules_ok, tileset_ok, has_players, nplayers;
    Str player[MAX_PLAYERS];
} Pragma;

static inline int ascii_lower_is(Str s, const char *word) {
    if (s.n != (Py_ssize_t)strlen(word)) return 0;
    for (Py_ssize_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return 0;
    }
    return 1;
}

/* Read the `#!` line [p, end) into *g; 0 if it is not one C reads exactly as Python does
 * (then Python reads it, and reports it if it is wrong). */
static int read_pragma(const char *p, const char *end, Pragma *g) {
    Str w;
    int got;
    memset(g, 0, sizeof *g);
    g->rules_ok = g->tileset_ok = 1;
    p += 2;
    while ((got = dgn_token(&p, end, &w)) > 0) {
        const char *eq = memchr(w.p, '=', w.n);
        Str key = {w.p, eq ? eq - w.p : w.n};
        Str val = {eq ? eq + 1 : w.p + w.n, eq ? w.p + w.n - eq - 1 : 0};
        if (str_is(key, "advanced")) {
            for (Py_ssize_t i = 0; i < val.n; i++)
                if ((unsigned char)val.p[i] >= 0x80) return 0;
            g->has_adv = 1;
            g->adv = !(ascii_lower_is(val, "false") || ascii_lower_is(val, "0") ||
                       ascii_lower_is(val, "no"));
        } else if (str_is(key, "basic")) {
            g->has_adv = 1;
            g->adv = 0;
        } else if (str_is(key, "rules")) {
            g->has_rules = g->rules_ok = 1;
            g->rules = 0;
            for (const char *q = val.p, *e = val.p + val.n; q < e;) {
                int rule = 0, digits = 0;
                while (q < e && *q != ',') {
                    if (!is_digit(*q) || ++digits > 3) return 0;
                    rule = rule * 10 + (*q++ - '0');
                }
                if (q < e) q++;
                if (!digits) continue;
                if (rule < 1 || rule > 4 || (g->rules & RULE_BIT(rule))) g->rules_ok = 0;
                else g->rules |= RULE_BIT(rule);
            }
        } else if (str_is(key, "players")) {
            g->has_players = 1;
            g->nplayers = 0;
            for (const char *q = val.p, *e = val.p + val.n; q < e;) {
                const char *comma = memchr(q, ',', e - q), *stop = comma ? comma : e;
                if (stop > q) {
                    if (g->nplayers >= MAX_PLAYERS) return 0;
                    g->player[g->nplayers].p = q;
                    g->player[g->nplayers++].n = stop - q;
                }
                q = comma ? comma + 1 : e;
            }
        } else if (str_is(key, "tileset")) {
            g->tileset_ok = str_is(val, "standard");
        } else {
            return 0;
        }
    }
    return got == 0;
}

/* 1: a dungeon line read (tiles, LOST cards into c); 2: no token (a blank line to Python
 * too: pathcheck.records.dgn_blank); 0: leave it to Python. */
static int scan_dgn_line(const Tables *t, const char *p, const char *end, int *tiles,
                         int *dirs, int *n, Cards *c) {
    Str tok;
    int got, count = 0;
    c->ncards = 0;
    while ((got = dgn_token(&p, end, &tok)) > 0) {
        if (tok.p[0] == '!') {
            if (!count || tok.n < 2 || c->ncards >= MAX_PLAYERS) return 0;
            c->card[c->ncards].p = tok.p + 1;
            c->card[c->ncards].n = tok.n - 1;
            c->after[c->ncards++] = count;
            continue;
        }
        const char *at = tok.p + tok.n - 1;
        while (at > tok.p && *at != '@') at--;
        /* one direction letter after the last @, a known tile before it (| and mistakes: 0) */
        if (at == tok.p || at != tok.p + tok.n - 2 || count >= MAX_TILES) return 0;
        switch (at[1]) {
            case 'N': dirs[count] = 0; break;
            case 'E': dirs[count] = 1; break;
            case 'S': dirs[count] = 2; break;
            case 'W': dirs[count] = 3; break;
            default: return 0;
        }
        if ((tiles[count] = id_lookup(t, tok.p, at - tok.p)) < 0) return 0;
        count++;
    }
    if (got < 0) return 0;
    if (!count) return 2;
    *n = count;
    return 1;
}

/* Whether [p, end) is valid UTF-8 (a record line's comment: Python decodes the whole line). */
static int utf8_ok(const char *p, const char *end) {
    const unsigned char *q = (const unsigned char *)p, *e = (const unsigned char *)end;
    uint32_t cp;
    while (q < e) {
        if (*q < 0x80) {
            q++;
            continue;
        }
        int k = utf8_seq(q, e, &cp);
        if (!k) return 0;
        q += k;
    }
    return 1;
}

/* scan_dgn(tables, block, offset, line, prefix, rules_override, adv_override, pragma)
 *   -> (bytes, stop_offset, stop_line, counts, pragma_start, pragma_end)
 * Verifies the .dgn lines of block[offset:] (the first numbered `line`) under the `#!` line
 * `pragma` (b"": none) until a line it leaves to Python, as scan_block does. pragma_start and
 * pragma_end locate in the block the last `#!` line it read (-1, -1: none), which is in force
 * from there on. */
static PyObject *scan_dgn(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *prefix;
    Py_buffer block, pragma_text;
    Py_ssize_t offset, pragma_start = -1, pragma_end = -1;
    long line;
    int rules_override, adv_override;
    if (!PyArg_ParseTuple(args, "Oy*nlSiiy*", &capsule, &block, &offset, &line, &prefix,
                          &rules_override, &adv_override, &pragma_text))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    Grid *g = t ? grid_new() : NULL;
    if (!g) {
        PyBuffer_Release(&block);
        PyBuffer_Release(&pragma_text);
        return NULL;
    }
    Out o = {NULL, 0, 0};
    int failed = 0;
    long counts[NREASONS] = {0};
    int tiles[MAX_TILES], dirs[MAX_TILES];
    Cards cards;
    Pragma pragma;
    const char *data = block.buf, *end = data + block.len;
    const char *p = data + (offset < 0 ? 0 : offset > block.len ? block.len : offset);
    Py_BEGIN_ALLOW_THREADS
    {
        const char *text = pragma_text.buf;
        if (pragma_text.len == 0) {
            memset(&pragma, 0, sizeof pragma);
            pragma.known = pragma.rules_ok = pragma.tileset_ok = 1;
        } else {
            pragma.known = pragma_text.len >= 2 && text[0] == '#' && text[1] == '!' &&
                           read_pragma(text, text + pragma_text.len, &pragma);
        }
    }
    failed = out_reserve(&o, 3 * (end - p) + 4096);
    while (!failed && p < end) {
        const char *nl = memchr(p, '\n', end - p);
        const char *line_end = nl ? nl : end;
        if (line_end - p >= 2 && p[0] == '#' && p[1] == '!') {
            Pragma next;
            if (!read_pragma(p, line_end, &next)) break;
            next.known = 1;
            pragma = next;
            pragma_start = p - data;
            pragma_end = line_end - data;
        } else {
            const char *hash = memchr(p, '#', line_end - p), *body_end = hash ? hash : line_end;
            const char *q = p;
            while (q < body_end && (*q == ' ' || (*q >= 9 && *q <= 13))) q++;
            if (q == hash && line_end - q >= 2 && q[1] == '!') break;  /* an indented #! */
            int n = 0, got = q < body_end ? scan_dgn_line(t, p, body_end, tiles, dirs, &n,
                                                           &cards) : 2;
            if (got != 2) {  /* not a blank or comment line */
                if (!got || !pragma.known || !pragma.tileset_ok ||
                    (rules_override < 0 && !pragma.rules_ok) || (hash && !utf8_ok(hash, line_end)))
                    break;
                int advanced = adv_override >= 0 ? adv_override : pragma.has_adv && pragma.adv;
                int rules = rules_override >= 0 ? rules_override
                            : pragma.has_rules ? pragma.rules : 0;
                cards.has_players = pragma.has_players;
                cards.nplayers = pragma.nplayers;
                memcpy(cards.player, pragma.player, pragma.nplayers * sizeof(Str));
                int done = verify_scanned(t, g, &o, prefix, line, tiles, dirs, n, rules,
                                          advanced, &cards, counts);
                if (done <= 0) {
                    failed = done < 0;
                    break;
                }
            }
        }
        p = nl ? nl + 1 : end;
        line++;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    Py_ssize_t stop = p - data;
    PyBuffer_Release(&block);
    PyBuffer_Release(&pragma_text);
    if (failed) {
        PyMem_RawFree(o.buf);
        return PyErr_NoMemory();
    }
    PyObject *r = block_result(t, &o, counts, stop, line);
    if (!r) return NULL;
    PyObject *full = Py_BuildValue("(OOOOnn)", PyTuple_GET_ITEM(r, 0), PyTuple_GET_ITEM(r, 1),
                                   PyTuple_GET_ITEM(r, 2), PyTuple_GET_ITEM(r, 3), pragma_start,
                                   pragma_end);
    Py_DECREF(r);
    return full;
}

/* ---- perfect solo play of many seeds ------------------------------------------------------ */

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL
#define MAX_STACK 64

/* solo_kernel(tables, base, first_seed, count, rules_mask)
 *   -> (dungeon_counts, lengths, reasons, bites, keys, shapes)
 * Perfect play (spec section 5) of the stacks of seeds first_seed .. first_seed+count-1:
 * pathcheck.seeds.permutation (SplitMix64, Fisher-Yates from the top) of base[1:] after
 * base[0], traced as pathcheck.solo_stats.analyse_stack does. Histograms come back as bytes
 * of int64 (dungeons per deal, dungeon lengths, reason codes, deals each rule bit bit), and
 * one int64 key per deal: sum of squared lengths | revisits << 16 | path-Lost << 24 |
 * rule-Lost << 32, and two bytes per deal: its number of dungeons and a bit mask of the
 * reason codes its dungeons end with (for seed searches). rules_mask and the bites (index: bit) use the bits of
 * pathcheck.constants.AdditionalRule. */
static PyObject *solo_kernel(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *base_obj;
    unsigned long long first_seed;
    Py_ssize_t count;
    int mask;
    if (!PyArg_ParseTuple(args, "OSKni", &capsule, &base_obj, &first_seed, &count, &mask))
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

static PyMethodDef methods[] = {
    {"solo_kernel", solo_kernel, METH_VARARGS, "Perfect solo play of many seeds."},
    {"make_tables", make_tables, METH_VARARGS, "Compile tile tables into a capsule."},
    {"set_layout", set_layout, METH_VARARGS, "Register the record and placement struct types."},
    {"scan_block", scan_block, METH_VARARGS, "Verify dungeon/1 JSON Lines of a block."},
    {"scan_dgn", scan_dgn, METH_VARARGS, "Verify .dgn lines of a block."},
    {"trace_records", trace_records, METH_VARARGS,
     "Trace decoded dungeon records and write their JSON Lines results."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    plain_init();
#define INTERN(var, text) if (!(var = PyUnicode_InternFromString(text))) return NULL
    INTERN(S_tiles, "tiles");
    INTERN(S_format, "format");
    INTERN(S_advanced, "advanced");
    INTERN(S_rules, "rules");
    INTERN(S_tileset, "tileset");
    INTERN(S_players, "players");
    INTERN(S_lost, "lost");
    INTERN(S_tile, "tile");
    INTERN(S_dir, "dir");
    INTERN(S_dungeon1, "dungeon/1");
    INTERN(S_standard, "standard");
#undef INTERN
    return PyModule_Create(&module);
}
