/* pathcheck._speedups, part of the one translation unit _speedups.c (after robot_word.c, whose
 * grid and table it draws with): a clean robot-memory/1 log's ruling rounds written straight
 * as the JSON msgspec would encode of them, for `adjudicate --format json|jsonl` (nothing
 * kept: the values would only be encoded).
 *
 * robot_replay_json replays as robot_replay does (rm_replay), then words each round as
 * robot_word.c does, but writes the Round, its Events, MoveRefs and facts as JSON (fields in
 * msgspec's order, strings escaped as put_json_str does) instead of making them. What a guess
 * on a card says comes from `said_json` (by said's index: the end of the event's text as JSON
 * without its quotes, the rule's JSON, the points' JSON, the guess fact's JSON from "card"
 * on), which Python fills (games/robot_memory/fast.py, _word_json) from `said` the first time
 * a guess meets a card. A name with no UTF-8 form, or two sides of one name, declines (False):
 * Python then makes the rounds as values. tests/games/test_robot_memory_json.py compares the
 * bytes with msgspec's of the Python values. */

enum { RJ_FEWEST, RJ_SIZE };  /* the kit: the rule of the next round's first player (JSON) */

#define RJ_LIT(o, s) OUT_LIT((o), s)

/* UTF-8 text as a JSON string (quoted and escaped as msgspec writes it). */
static int rj_utf8(Out *o, const char *p, Py_ssize_t n) {
    if (n > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(o, 6 * n + 2) < 0) return -1;
    o->len = put_json_str(o->buf + o->len, (Str){p, n}) - o->buf;
    return 0;
}

/* A str as a JSON string; -1 on no memory, 1 if it has no UTF-8 form (declined). */
static int rj_str(Out *o, PyObject *text) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(text, &n);
    if (!p) {
        PyErr_Clear();
        return 1;
    }
    return rj_utf8(o, p, n);
}

/* A text put together in `b` (freed), as a JSON string; 1 if a piece failed (declined: a
 * str with no UTF-8 form, or no memory: the value path words it). */
static int rj_text(Out *o, DwText *b) {
    int status = b->failed ? 1 : rj_utf8(o, b->buf, b->len);
    if (b->buf != b->small) PyMem_Free(b->buf);
    b->buf = b->small;
    return status;
}

/* Each person's and side's name as JSON without its quotes, escaped once a log. */
typedef struct {
    Out buf;
    Py_ssize_t at[RM_MAX_PEOPLE + RM_MAX_SIDES], len[RM_MAX_PEOPLE + RM_MAX_SIDES];
} RjNames;

#define RJ_SIDE(s) (RM_MAX_PEOPLE + (s))

/* 0, -1 on no memory, 1 declined (a name with no UTF-8 form). */
static int rj_names(RjNames *n, const RmGame *g) {
    for (int k = 0; k < g->npeople + g->nsides; k++) {
        int slot = k < g->npeople ? k : RJ_SIDE(k - g->npeople);
        PyObject *name = k < g->npeople ? g->people[k] : g->sides[k - g->npeople];
        Py_ssize_t at = n->buf.len;
        int status = rj_str(&n->buf, name);
        if (status) return status;
        n->at[slot] = at + 1;
        n->len[slot] = n->buf.len - at - 2;
    }
    return 0;
}

/* Name `slot` without quotes, or with them. */
static int rj_bare(Out *o, const RjNames *n, int slot) {
    return out_put(o, n->buf.buf + n->at[slot], n->len[slot]);
}

static int rj_name(Out *o, const RjNames *n, int slot) {
    return out_put(o, n->buf.buf + n->at[slot] - 1, n->len[slot] + 2);
}

/* {"side":score,...} after round `r`, in seat order. */
static int rj_scores(Out *o, const RmGame *g, const RjNames *n, const RmRound *r) {
    if (RJ_LIT(o, "{")) return -1;
    for (int s = 0; s < g->nsides; s++)
        if ((s && RJ_LIT(o, ",")) || rj_name(o, n, RJ_SIDE(s)) || RJ_LIT(o, ":") ||
            out_long(o, r->scores[s]))
            return -1;
    return RJ_LIT(o, "}");
}

/* The layout's and the first player's events of round `number`, as rw_opening words them. */
static int rj_opening(Out *o, const RjNames *n, const RmRound *r, int number,
                      PyObject *fewest) {
    if (RJ_LIT(o, "{\"text\":\"") || out_long(o, r->memory) ||
        (r->memory == 1 ? RJ_LIT(o, " memory card and ") : RJ_LIT(o, " memory cards and ")) ||
        out_long(o, r->shorts) ||
        (r->shorts == 1 ? RJ_LIT(o, " short circuit, ") : RJ_LIT(o, " short circuits, ")) ||
        out_long(o, r->rows) || RJ_LIT(o, "x") || out_long(o, r->columns) ||
        RJ_LIT(o, "\",\"move\":null,\"rule\":null,\"points\":{},\"fact\":{\"kind\":\"layout\","
                  "\"memory_cards\":") ||
        out_long(o, r->memory) || RJ_LIT(o, ",\"short_circuits\":") || out_long(o, r->shorts) ||
        RJ_LIT(o, ",\"rows\":") || out_long(o, r->rows) || RJ_LIT(o, ",\"columns\":") ||
        out_long(o, r->columns) || RJ_LIT(o, ",\"not_recorded\":0}},{\"text\":\"") ||
        rj_bare(o, n, RJ_SIDE(r->first)) ||
        (number == 1 ? RJ_LIT(o, " is the first active player (chosen at random)\"")
         : r->tie   ? RJ_LIT(o, " starts: fewest points (a tie, any of them)\"")
                    : RJ_LIT(o, " starts: fewest points\"")) ||
        RJ_LIT(o, ",\"move\":null,\"rule\":") ||
        (number == 1 ? RJ_LIT(o, "null") : out_bytes(o, fewest)) ||
        RJ_LIT(o, ",\"points\":{},\"fact\":{\"kind\":\"start\",\"player\":") ||
        rj_name(o, n, RJ_SIDE(r->first)) || RJ_LIT(o, ",\"round\":") || out_long(o, number) ||
        (number == 1 ? RJ_LIT(o, ",\"reason\":\"random\",\"birds\":null,\"tie\":false}}")
         : r->tie   ? RJ_LIT(o, ",\"reason\":\"fewest-points\",\"birds\":null,\"tie\":true}}")
                    : RJ_LIT(o, ",\"reason\":\"fewest-points\",\"birds\":null,\"tie\":false}}")))
        return -1;
    return 0;
}

/* "r2c3" */
static int rj_place(Out *o, const RmPick *pick) {
    if (RJ_LIT(o, "r") || out_long(o, pick->row) || RJ_LIT(o, "c") ||
        out_long(o, pick->column))
        return -1;
    return 0;
}

/* The event of one pick of round index `index`, as rw_pick words it; `said` its entry of
 * said_json (checked by the caller). */
static int rj_pick(Out *o, const RjNames *n, const RmPick *pick, int index, PyObject *said) {
    int chooser = pick->chooser_at, guesser = pick->guesser_at, side = RJ_SIDE(pick->side);
    if (RJ_LIT(o, "{\"text\":\"") || rj_bare(o, n, chooser) ||
        (pick->chain >= 0 ? RJ_LIT(o, " chooses ") : RJ_LIT(o, " points at ")) ||
        rj_place(o, pick) ||
        (pick->chain >= 0 ? RJ_LIT(o, " (after a short circuit); ")
                          : RJ_LIT(o, " for ") || rj_bare(o, n, guesser) || RJ_LIT(o, "; ")) ||
        rj_bare(o, n, guesser) || out_bytes(o, PyTuple_GET_ITEM(said, 0)) ||
        RJ_LIT(o, "\",\"move\":{\"round\":") || out_long(o, index + 1) ||
        RJ_LIT(o, ",\"index\":") || out_long(o, pick->turn) || RJ_LIT(o, ",\"player\":") ||
        rj_name(o, n, guesser) || RJ_LIT(o, ",\"pointer\":\"/rounds/") || out_long(o, index) ||
        RJ_LIT(o, "/turns/") || out_long(o, pick->turn - 1) ||
        (pick->chain >= 0 && (RJ_LIT(o, "/chain/") || out_long(o, pick->chain))) ||
        RJ_LIT(o, "\"},\"rule\":") || out_bytes(o, PyTuple_GET_ITEM(said, 1)) ||
        RJ_LIT(o, ",\"points\":{") || rj_name(o, n, side) || RJ_LIT(o, ":") ||
        out_bytes(o, PyTuple_GET_ITEM(said, 2)) ||
        RJ_LIT(o, "},\"fact\":{\"kind\":\"guess\",\"pointer\":") || rj_name(o, n, chooser) ||
        RJ_LIT(o, ",\"guesser\":") || rj_name(o, n, guesser) || RJ_LIT(o, ",\"side\":") ||
        rj_name(o, n, side) || RJ_LIT(o, ",\"position\":\"") || rj_place(o, pick) ||
        RJ_LIT(o, "\"") || out_bytes(o, PyTuple_GET_ITEM(said, 3)) || RJ_LIT(o, "}}"))
        return -1;
    return 0;
}

/* Entry `code` of the list `cache`, made by `make(code)` the first time (a None there),
 * borrowed; NULL on an error. */
static PyObject *rj_filled(PyObject *cache, PyObject *make, int code) {
    PyObject *one = PyList_GET_ITEM(cache, code);
    if (one == Py_None) {
        PyObject *key = PyLong_FromLong(code);
        one = key ? PyObject_CallOneArg(make, key) : NULL;
        Py_XDECREF(key);
        if (!one) return NULL;
        PyList_SetItem(cache, code, one);  /* steals; stays borrowed */
    }
    return one;
}

/* said_json's entry of a pick (filled by word_json the first time), borrowed; NULL on an
 * error. */
static PyObject *rj_said(PyObject *said_json, PyObject *word_json, int code) {
    PyObject *one = rj_filled(said_json, word_json, code);
    if (!one) return NULL;
    if (!PyTuple_CheckExact(one) || PyTuple_GET_SIZE(one) != 4 ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 0)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 1)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 2)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 3))) {
        PyErr_SetString(PyExc_TypeError, "robot_replay_json: word_json must give 4 bytes");
        return NULL;
    }
    return one;
}

/* The rounds as a JSON array into `o`: 0, -1 on an error, 1 declined. */
static int rj_rounds(Out *o, const RmGame *g, const RjNames *n, PyObject *said_json,
                     PyObject *word_json, PyObject *fewest) {
    for (int s = 0; s < g->nsides; s++)  /* two sides of one name: one key of a dict */
        for (int t = 0; t < s; t++)
            if (rm_same(g->sides[s], g->sides[t])) return 1;
    int status;
    if (RJ_LIT(o, "[")) return -1;
    for (int i = 0; i < RM_ROUNDS; i++) {
        const RmRound *r = &g->rounds[i];
        if ((i && RJ_LIT(o, ",")) || RJ_LIT(o, "{\"number\":") || out_long(o, i + 1) ||
            RJ_LIT(o, ",\"title\":"))
            return -1;
        DwText b;
        dwt_init(&b);
        rw_title_words(&b, g, r, i);
        if ((status = rj_text(o, &b))) return status;
        if (RJ_LIT(o, ",\"events\":[") || rj_opening(o, n, r, i + 1, fewest)) return -1;
        for (int k = 0; k < r->npicks; k++) {
            PyObject *said = rj_said(said_json, word_json, r->picks[k].code);
            if (!said || RJ_LIT(o, ",") || rj_pick(o, n, &r->picks[k], i, said)) return -1;
        }
        if (RJ_LIT(o, "],\"scores\":") || rj_scores(o, g, n, r) ||
            RJ_LIT(o, ",\"display\":"))
            return -1;
        rw_grid_text(r, &b);
        if ((status = rj_text(o, &b)) || RJ_LIT(o, "}")) return status ? status : -1;
    }
    return RJ_LIT(o, "]");
}

/* robot_replay_json(entry, unset, said, word, said_json, word_json, kit) -> None, False, or
 *   (the rounds' JSON: bytes, the final table: str, the final scores by seat: tuple of ints).
 * entry, unset, said, word: robot_replay's; said_json: a list of RM_CODES, None or what
 * word_json(index) gave for it (see the head of this file); kit: see RJ_SIZE. None: the log
 * is not clean (the Python replay rules on it); False: it is, but cannot be written here
 * (Python makes the rounds as values: robot_replay). */
static PyObject *robot_replay_json(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *entry, *unset, *said, *word, *said_json, *word_json, *kit;
    if (!PyArg_ParseTuple(args, "OOO!OO!OO!", &entry, &unset, &PyList_Type, &said, &word,
                          &PyList_Type, &said_json, &word_json, &PyTuple_Type, &kit))
        return NULL;
    if (PyList_GET_SIZE(said) != RM_CODES || PyList_GET_SIZE(said_json) != RM_CODES ||
        PyTuple_GET_SIZE(kit) != RJ_SIZE || !PyBytes_CheckExact(PyTuple_GET_ITEM(kit, 0))) {
        PyErr_SetString(PyExc_ValueError, "robot_replay_json: said or kit of the wrong size");
        return NULL;
    }
    RmGame *g = PyMem_Calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    /* The callbacks may run any Python: hold what is borrowed from the arguments. */
    PyObject *held[] = {entry, said, word, said_json, word_json, kit};
    for (int k = 0; k < 6; k++) Py_INCREF(held[k]);
    g->unset = unset;
    g->said = said;
    g->word = word;
    PyObject *out = NULL;
    int status = rm_replay(g, entry);
    if (status == 0) {
        out = Py_NewRef(Py_None);
    } else if (status > 0) {
        Out o = {NULL, 0, 0};
        RjNames *n = PyMem_Calloc(1, sizeof *n);
        status = !n ? -1 : rj_names(n, g);
        if (status == 0)
            status = rj_rounds(&o, g, n, said_json, word_json, PyTuple_GET_ITEM(kit, RJ_FEWEST));
        if (n) PyMem_RawFree(n->buf.buf);
        PyMem_Free(n);
        if (status < 0 && !PyErr_Occurred()) PyErr_NoMemory();
        PyObject *rounds = NULL, *table = NULL, *scores = NULL;
        if (status == 0 && (rounds = PyBytes_FromStringAndSize(o.buf, o.len)) &&
            (table = rw_table(g)) && (scores = PyTuple_New(g->nsides))) {
            for (int s = 0; scores && s < g->nsides; s++) {
                PyObject *value = PyLong_FromLong(g->rounds[RM_ROUNDS - 1].scores[s]);
                if (!value) Py_CLEAR(scores);
                else PyTuple_SET_ITEM(scores, s, value);
            }
        }
        if (status > 0 || (status == 0 && rounds && !table && !PyErr_Occurred()))
            out = Py_NewRef(Py_False);  /* declined (a text with no UTF-8 form) */
        else if (scores)
            out = PyTuple_Pack(3, rounds, table, scores);
        Py_XDECREF(rounds);
        Py_XDECREF(table);
        Py_XDECREF(scores);
        PyMem_RawFree(o.buf);
    }
    for (int k = 0; k < 6; k++) Py_DECREF(held[k]);
    PyMem_Free(g);
    return out;
}

/* ---- the analysis's moves (pathcheck.analysis.robot_memory, for --format json|jsonl) ---- */

/* judged_json's entry of a pick (filled by judge_json the first time), borrowed: (the guess's
 * words and the card's as JSON without quotes, the JSON from "best" to "pointer":, the JSON
 * from "cost" to "age":, the mark's counter 0-3, the cost, the value); NULL on an error. */
static PyObject *rj_judged(PyObject *judged, PyObject *judge, int code) {
    PyObject *one = rj_filled(judged, judge, code);
    if (!one) return NULL;
    if (!PyTuple_CheckExact(one) || PyTuple_GET_SIZE(one) != 7 ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 0)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 1)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 2)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(one, 3)) ||
        !PyLong_CheckExact(PyTuple_GET_ITEM(one, 4)) ||
        !PyFloat_CheckExact(PyTuple_GET_ITEM(one, 5)) ||
        !PyFloat_CheckExact(PyTuple_GET_ITEM(one, 6))) {
        PyErr_SetString(PyExc_TypeError, "robot_marks_json: judge must give 7 fields");
        return NULL;
    }
    long counter = PyLong_AsLong(PyTuple_GET_ITEM(one, 4));
    if (counter < 0 || counter > 3) {
        PyErr_SetString(PyExc_ValueError, "robot_marks_json: a mark's counter is 0-3");
        return NULL;
    }
    return one;
}

typedef struct {
    long marks[RM_MAX_PEOPLE][4];
    double lost[RM_MAX_PEOPLE], stake[RM_MAX_PEOPLE];
} RjCounts;

/* The moves as a JSON array into `o`, as rw_moves makes them, with each person's counts:
 * 0, -1 on an error, 1 declined. */
static int rj_moves(Out *o, const RmGame *g, const RjNames *n, PyObject *judged,
                    PyObject *judge, RjCounts *c) {
    if (RJ_LIT(o, "[")) return -1;
    int first = 1;
    for (int i = 0; i < RM_ROUNDS; i++) {
        const RmRound *r = &g->rounds[i];
        for (int k = 0; k < r->npicks; k++, first = 0) {
            const RmPick *pick = &r->picks[k];
            PyObject *one = rj_judged(judged, judge, pick->code);
            if (!one) return -1;
            int person = pick->guesser_at;
            long counter = PyLong_AsLong(PyTuple_GET_ITEM(one, 4));
            double cost = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(one, 5)),
                   value = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(one, 6));
            c->marks[person][counter]++;
            if (value != 0.0) {  /* summarise adds the moves with a value, in order */
                c->stake[person] += value;
                c->lost[person] += cost;
            }
            if ((!first && RJ_LIT(o, ",")) || RJ_LIT(o, "{\"round\":") ||
                out_long(o, i + 1) || RJ_LIT(o, ",\"index\":") || out_long(o, pick->turn) ||
                RJ_LIT(o, ",\"player\":") || rj_name(o, n, person) ||
                RJ_LIT(o, ",\"did\":\"names ") || out_bytes(o, PyTuple_GET_ITEM(one, 0)) ||
                RJ_LIT(o, " for ") || rj_place(o, pick) || RJ_LIT(o, "\",\"knew\":\"") ||
                rj_place(o, pick) || RJ_LIT(o, " was ") ||
                out_bytes(o, PyTuple_GET_ITEM(one, 1)) || RJ_LIT(o, " at setup\"") ||
                out_bytes(o, PyTuple_GET_ITEM(one, 2)) || RJ_LIT(o, "\"/rounds/") ||
                out_long(o, i) || RJ_LIT(o, "/turns/") || out_long(o, pick->turn - 1) ||
                (pick->chain >= 0 && (RJ_LIT(o, "/chain/") || out_long(o, pick->chain))) ||
                RJ_LIT(o, "\"") || out_bytes(o, PyTuple_GET_ITEM(one, 3)) ||
                out_long(o, k + 1) || RJ_LIT(o, "}"))
                return -1;
        }
    }
    return RJ_LIT(o, "]");
}

/* robot_marks_json(entry, unset, said, word, judged, judge) -> None, False, or
 *   (the moves' JSON: bytes, the final scores by seat: tuple of ints, each person's counts
 *    in the entry's order: (slips, guesses, sound, harmless, lost, at stake)).
 * entry, unset, said, word: robot_replay's; judged: a list of RM_CODES, None or what
 * judge(index) gave for it (see rj_judged). None: the log is not clean (the analysis's Python
 * replay takes it); False: it is, but cannot be written here (robot_replay's moves then). */
static PyObject *robot_marks_json(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *entry, *unset, *said, *word, *judged, *judge;
    if (!PyArg_ParseTuple(args, "OOO!OO!O", &entry, &unset, &PyList_Type, &said, &word,
                          &PyList_Type, &judged, &judge))
        return NULL;
    if (PyList_GET_SIZE(said) != RM_CODES || PyList_GET_SIZE(judged) != RM_CODES) {
        PyErr_SetString(PyExc_ValueError, "robot_marks_json: said or judged of the wrong size");
        return NULL;
    }
    RmGame *g = PyMem_Calloc(1, sizeof *g);
    RjCounts *c = PyMem_Calloc(1, sizeof *c);
    if (!g || !c) {
        PyMem_Free(g);
        PyMem_Free(c);
        return PyErr_NoMemory();
    }
    PyObject *held[] = {entry, said, word, judged, judge};
    for (int k = 0; k < 5; k++) Py_INCREF(held[k]);
    g->unset = unset;
    g->said = said;
    g->word = word;
    PyObject *out = NULL;
    int status = rm_replay(g, entry);
    if (status == 0) {
        out = Py_NewRef(Py_None);
    } else if (status > 0) {
        Out o = {NULL, 0, 0};
        RjNames *n = PyMem_Calloc(1, sizeof *n);
        status = !n ? -1 : rj_names(n, g);
        if (status == 0) status = rj_moves(&o, g, n, judged, judge, c);
        if (n) PyMem_RawFree(n->buf.buf);
        PyMem_Free(n);
        if (status < 0 && !PyErr_Occurred()) PyErr_NoMemory();
        if (status > 0) {
            out = Py_NewRef(Py_False);
        } else if (status == 0) {
            PyObject *moves = PyBytes_FromStringAndSize(o.buf, o.len);
            PyObject *scores = moves ? PyTuple_New(g->nsides) : NULL;
            PyObject *counts = scores ? PyTuple_New(g->npeople) : NULL;
            for (int s = 0; counts && s < g->nsides; s++) {
                PyObject *value = PyLong_FromLong(g->rounds[RM_ROUNDS - 1].scores[s]);
                if (!value) Py_CLEAR(counts);
                else PyTuple_SET_ITEM(scores, s, value);
            }
            for (int p = 0; counts && p < g->npeople; p++) {
                PyObject *one = Py_BuildValue("(lllldd)", c->marks[p][0], c->marks[p][1],
                                              c->marks[p][2], c->marks[p][3], c->lost[p],
                                              c->stake[p]);
                if (!one) Py_CLEAR(counts);
                else PyTuple_SET_ITEM(counts, p, one);
            }
            if (counts) out = PyTuple_Pack(3, moves, scores, counts);
            Py_XDECREF(moves);
            Py_XDECREF(scores);
            Py_XDECREF(counts);
        }
        PyMem_RawFree(o.buf);
    }
    for (int k = 0; k < 5; k++) Py_DECREF(held[k]);
    PyMem_Free(g);
    PyMem_Free(c);
    return out;
}
