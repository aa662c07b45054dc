/* pathcheck._speedups, part of the one translation unit _speedups.c: the rounds of the ruling
 * on a Memoarrr! log written straight as the JSON array msgspec encodes of them, from
 * memoarrr_lenient's trace (memoarrr.c describes it), for `adjudicate --format json|jsonl`,
 * which keeps no ruling: making every Event, MoveRef and fact (memoarrr_word.c) only for
 * msgspec to encode them cost more than replaying the log. Included after memoarrr_word.c and
 * dungeon_marks_json.c (Out, put_json_str).
 *
 * memoarrr_word_json(rounds, players, kit) -> bytes, or None where a player's name cannot be
 * written so (no UTF-8 text: msgspec refuses it too) or two names are equal (the ruling's
 * dicts would merge them); Python then makes the rounds as values (fast.py). Every field is
 * written in the order of the Round, Event, MoveRef and fact structs, as msgspec writes them;
 * what recurs from log to log is written once by Python and kept per player and case, as
 * msgspec's own encoding (`word(name, code)` -> bytes: a round's start event and its treasure
 * event, with memoarrr_word.c's codes); a round's title (a few thousand cases, most met once
 * in a batch) is written here; the kit's texts come as JSON already escaped (without
 * quotes). tests/games/test_memoarrr_json.py compares the bytes with msgspec's
 * encoding of memoarrr_word's rounds. */

enum {
    MJ_SAID, MJ_WORD, MJ_CARDS, MJ_PLACES, MJ_VOLCANOES, MJ_CONNECT, MJ_SWAP_RULE,
    MJ_ALL_REVEALED, MJ_TAKES, MJ_NEVER_SEEN, MJ_UNFINISHED, MJ_KIT
};

#define MJ_NAME_MAX (M_MAX_PLAYERS)

typedef struct {
    Out out;
    PyObject *const *kit;
    PyObject *const *names;
    int n;
    Py_ssize_t name_at[MJ_NAME_MAX], name_len[MJ_NAME_MAX];  /* each name's JSON, in `names` */
    Out name_json;
} MjWriter;

/* The bytes of kit tuple `table`'s item `i`, or NULL with an error set. */
static PyObject *mj_item(PyObject *table, int i) {
    if (i < 0 || i >= PyTuple_GET_SIZE(table) || !PyBytes_CheckExact(PyTuple_GET_ITEM(table,
                                                                                       i))) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word_json: a trace's value out of range");
        return NULL;
    }
    return PyTuple_GET_ITEM(table, i);
}

static inline int mj_put(MjWriter *w, PyObject *bytes) { return out_bytes(&w->out, bytes); }

#define MJ_LIT(w, s) OUT_LIT(&(w)->out, s)

/* Seat `seat`'s name as JSON (with its quotes). */
static inline int mj_name(MjWriter *w, int seat) {
    return out_put(&w->out, w->name_json.buf + w->name_at[seat], w->name_len[seat]);
}

/* A said case's bytes (`word(name, code)`, kept), checked; a new reference or NULL. */
static PyObject *mj_said(MjWriter *w, int seat, long code) {
    PyObject *said = kept_by_name(w->kit[MJ_SAID], w->kit[MJ_WORD], w->names[seat], code, NULL);
    if (said && !PyBytes_CheckExact(said)) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word_json: word must give bytes");
        Py_CLEAR(said);
    }
    return said;
}

static int mj_put_said(MjWriter *w, int seat, long code) {
    PyObject *said = mj_said(w, seat, code);
    if (!said) return -1;
    int rc = mj_put(w, said);
    Py_DECREF(said);
    return rc;
}

/* `number` and `noun` as render.words.counted words them (plural unless 1; thousands
 * separated by commas; the nouns here take an "s"). */
static int mj_counted(MjWriter *w, long number, const char *noun) {
    char digits[24], text[48];
    int n = write_long(digits, number), len = 0;
    for (int i = 0; i < n; i++) {
        if (i && digits[0] != '-' && (n - i) % 3 == 0) text[len++] = ',';
        text[len++] = digits[i];
    }
    text[len++] = ' ';
    if (out_put(&w->out, text, len) < 0 || out_put(&w->out, noun, (Py_ssize_t)strlen(noun)) < 0)
        return -1;
    return number == 1 ? 0 : MJ_LIT(w, "s");
}

/* A round's title as texts.round_title words it, as a JSON string. */
static int mj_title(MjWriter *w, int number, int starter, int turns, int face_up) {
    if (MJ_LIT(w, "\"Round ") < 0 || out_long(&w->out, number) < 0 ||
        MJ_LIT(w, " (start: ") < 0 ||  /* the name's JSON without its quotes */
        out_put(&w->out, w->name_json.buf + w->name_at[starter] + 1,
                w->name_len[starter] - 2) < 0 ||
        MJ_LIT(w, "; ") < 0 || mj_counted(w, turns, "turn") < 0 || MJ_LIT(w, ", ") < 0 ||
        mj_counted(w, face_up, "card") < 0 || MJ_LIT(w, " face up)\"") < 0)
        return -1;
    return 0;
}

/* `"move":{...}` of move `index` of round `number` by `seat`, with what comes before it. */
static int mj_move(MjWriter *w, int number, int index, int seat) {
    if (MJ_LIT(w, "\",\"move\":{\"round\":") < 0 || out_long(&w->out, number) < 0 ||
        MJ_LIT(w, ",\"index\":") < 0 || out_long(&w->out, index) < 0 ||
        MJ_LIT(w, ",\"player\":") < 0 || mj_name(w, seat) < 0 ||
        MJ_LIT(w, ",\"pointer\":\"/rounds/") < 0 || out_long(&w->out, number - 1) < 0 ||
        MJ_LIT(w, "/actions/") < 0 || out_long(&w->out, index - 1) < 0 ||
        MJ_LIT(w, "\"},\"rule\":") < 0)
        return -1;
    return 0;
}

/* The event of one traced move (kind, index, seat, a, b, c, d) of round `number`, with a comma
 * before it; 0, or -1 with an error set. */
static int mj_move_event(MjWriter *w, int number, PyObject *traced, int *out_seats) {
    int v[7];
    if (!PyTuple_CheckExact(traced) || PyTuple_GET_SIZE(traced) != 7) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word_json: an event is not a 7-tuple");
        return -1;
    }
    for (int k = 0; k < 7; k++)
        if (dw_int(traced, k, &v[k])) return -1;
    int kind = v[0], index = v[1], seat = v[2];
    if (seat < 0 || seat >= w->n || index < 1 || index >= 4096) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word_json: a move out of range");
        return -1;
    }
    PyObject *const *kit = w->kit;
    int fail = 0;
    if (kind == M_FAIL) {
        PyObject *at = mj_item(kit[MJ_PLACES], v[3]), *card = mj_item(kit[MJ_CARDS], v[4]),
                 *previous = mj_item(kit[MJ_CARDS], v[5]),
                 *volcano = mj_item(kit[MJ_VOLCANOES], v[6]);
        if (!at || !card || !previous || !volcano) return -1;
        out_seats[seat] = 1;
        fail = MJ_LIT(w, ",{\"text\":\"reveals ") < 0 || mj_put(w, at) < 0 ||
               MJ_LIT(w, " ") < 0 || mj_put(w, card) < 0 ||
               MJ_LIT(w, ", which connects with neither the animal nor the landscape of ") < 0 ||
               mj_put(w, previous) < 0 || MJ_LIT(w, ": takes the ") < 0 ||
               mj_put(w, volcano) < 0 || MJ_LIT(w, " volcano, out") < 0 ||
               mj_move(w, number, index, seat) < 0 || mj_put(w, kit[MJ_CONNECT]) < 0 ||
               MJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"volcano\",\"player\":") < 0 ||
               mj_name(w, seat) < 0 || MJ_LIT(w, ",\"position\":\"") < 0 ||
               mj_put(w, at) < 0 || MJ_LIT(w, "\",\"card\":\"") < 0 || mj_put(w, card) < 0 ||
               MJ_LIT(w, "\",\"previous\":\"") < 0 || mj_put(w, previous) < 0 ||
               MJ_LIT(w, "\",\"volcano\":\"") < 0 || mj_put(w, volcano) < 0 ||
               MJ_LIT(w, "\"}}") < 0;
    } else if (kind == M_TAKE) {
        PyObject *text = mj_item(kit[MJ_TAKES], v[6]),
                 *volcano = mj_item(kit[MJ_VOLCANOES], v[6]);
        if (!text || !volcano) return -1;
        out_seats[seat] = 1;
        fail = MJ_LIT(w, ",{\"text\":\"") < 0 || mj_put(w, text) < 0 ||
               mj_move(w, number, index, seat) < 0 || mj_put(w, kit[MJ_ALL_REVEALED]) < 0 ||
               MJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"volcano\",\"player\":") < 0 ||
               mj_name(w, seat) < 0 ||
               MJ_LIT(w, ",\"position\":null,\"card\":null,\"previous\":null,\"volcano\":\"") <
                   0 ||
               mj_put(w, volcano) < 0 || MJ_LIT(w, "\"}}") < 0;
    } else if (kind == M_SWAP) {
        PyObject *a = mj_item(kit[MJ_PLACES], v[3]), *b = mj_item(kit[MJ_PLACES], v[4]);
        PyObject *at_b = v[5] < 0 ? kit[MJ_NEVER_SEEN] : mj_item(kit[MJ_CARDS], v[5]);
        PyObject *at_a = v[6] < 0 ? kit[MJ_NEVER_SEEN] : mj_item(kit[MJ_CARDS], v[6]);
        if (!a || !b || !at_b || !at_a) return -1;
        fail = MJ_LIT(w, ",{\"text\":\"octopus swap: ") < 0 || mj_put(w, at_b) < 0 ||
               MJ_LIT(w, " ") < 0 || mj_put(w, a) < 0 || MJ_LIT(w, " -> ") < 0 ||
               mj_put(w, b) < 0 || MJ_LIT(w, ", ") < 0 || mj_put(w, at_a) < 0 ||
               MJ_LIT(w, " ") < 0 || mj_put(w, b) < 0 || MJ_LIT(w, " -> ") < 0 ||
               mj_put(w, a) < 0 || mj_move(w, number, index, seat) < 0 ||
               mj_put(w, kit[MJ_SWAP_RULE]) < 0 ||
               MJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"swap\",\"player\":") < 0 ||
               mj_name(w, seat) < 0 || MJ_LIT(w, ",\"first\":\"") < 0 || mj_put(w, a) < 0 ||
               MJ_LIT(w, "\",\"second\":\"") < 0 || mj_put(w, b) < 0 ||
               MJ_LIT(w, "\",\"card_moved_to_second\":\"") < 0 || mj_put(w, at_b) < 0 ||
               MJ_LIT(w, "\",\"card_moved_to_first\":\"") < 0 || mj_put(w, at_a) < 0 ||
               MJ_LIT(w, "\"}}") < 0;
    } else {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word_json: an event of no known kind");
        return -1;
    }
    if (fail) PyErr_NoMemory();
    return fail ? -1 : 0;
}

/* One traced round (starter, held, turns, face_up, winner, treasure, events) as its Round's
 * JSON, with a comma before all but the first; `totals` the running scores, by seat. */
static int mj_round(MjWriter *w, int number, PyObject *traced, long *totals) {
    int v[6];
    if (!PyTuple_CheckExact(traced) || PyTuple_GET_SIZE(traced) != 7 ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(traced, 6))) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word_json: a round is not a 7-tuple");
        return -1;
    }
    for (int k = 0; k < 6; k++)
        if (dw_int(traced, k, &v[k])) return -1;
    int starter = v[0], held = v[1], turns = v[2], face_up = v[3], winner = v[4];
    if (starter < 0 || starter >= w->n || held < -1 || held > 14 || turns < 0 || turns >= 4096 ||
        face_up < 0 || face_up > 31 || winner < -1 || winner >= w->n || v[5] < 0 || v[5] > 99) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word_json: a round's value out of range");
        return -1;
    }
    if ((number > 1 && MJ_LIT(w, ",") < 0) || MJ_LIT(w, "{\"number\":") < 0 ||
        out_long(&w->out, number) < 0 || MJ_LIT(w, ",\"title\":") < 0 ||
        mj_title(w, number, starter, turns, face_up) < 0 ||
        MJ_LIT(w, ",\"events\":[") < 0 || mj_put_said(w, starter, number * 16L + held + 1) < 0)
        goto fail;
    PyObject *trace_events = PyTuple_GET_ITEM(traced, 6);
    int out_seats[M_MAX_PLAYERS] = {0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(trace_events); i++)
        if (mj_move_event(w, number, PyTuple_GET_ITEM(trace_events, i), out_seats) < 0)
            return -1;
    if (MJ_LIT(w, ",") < 0) goto fail;
    if (winner >= 0) {
        totals[winner] += v[5];
        if (mj_put_said(w, winner, MW_TREASURE + v[5]) < 0) goto fail;
    } else {  /* the log's last round, unfinished: who has no volcano yet */
        PyObject *still = PyList_New(0);
        if (!still) return -1;
        for (int p = 0; p < w->n; p++)
            if (!out_seats[p] && PyList_Append(still, w->names[p]) < 0) {
                Py_DECREF(still);
                return -1;
            }
        PyObject *said = PyObject_CallOneArg(w->kit[MJ_UNFINISHED], still);
        Py_DECREF(still);
        if (said && !PyBytes_CheckExact(said)) {
            PyErr_SetString(PyExc_TypeError, "memoarrr_word_json: unfinished must give bytes");
            Py_CLEAR(said);
        }
        if (!said) return -1;
        int rc = mj_put(w, said);
        Py_DECREF(said);
        if (rc < 0) goto fail;
    }
    if (MJ_LIT(w, "],\"scores\":{") < 0) goto fail;
    for (int p = 0; p < w->n; p++)
        if ((p && MJ_LIT(w, ",") < 0) || mj_name(w, p) < 0 || MJ_LIT(w, ":") < 0 ||
            out_long(&w->out, totals[p]) < 0)
            goto fail;
    if (MJ_LIT(w, "},\"display\":\"\"}") < 0) goto fail;
    return 0;
fail:
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return -1;
}

/* Each name's JSON into w->name_json; 0, 1 when one cannot be written here (no UTF-8 text, or
 * two names equal), -1 on an error. */
static int mj_names(MjWriter *w) {
    for (int p = 0; p < w->n; p++) {
        for (int q = 0; q < p; q++) {
            int same = PyUnicode_Compare(w->names[p], w->names[q]);
            if (same == -1 && PyErr_Occurred()) return -1;
            if (same == 0) return 1;
        }
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(w->names[p], &len);
        if (!text) {  /* a lone surrogate: msgspec refuses it too; Python's way words that */
            PyErr_Clear();
            return 1;
        }
        if (len > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(&w->name_json, 6 * len + 2) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        w->name_at[p] = w->name_json.len;
        char *end = put_json_str(w->name_json.buf + w->name_json.len, (Str){text, len});
        w->name_json.len = end - w->name_json.buf;
        w->name_len[p] = w->name_json.len - w->name_at[p];
    }
    return 0;
}

static PyObject *memoarrr_word_json(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rounds, *players, *kit_tuple;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &rounds, &PyTuple_Type, &players,
                          &PyTuple_Type, &kit_tuple))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    if (n < 1 || n > MJ_NAME_MAX || PyTuple_GET_SIZE(kit_tuple) != MJ_KIT ||
        PyTuple_GET_SIZE(rounds) > M_ROUNDS) {
        PyErr_SetString(PyExc_ValueError,
                        "memoarrr_word_json: 1-4 players, a kit of 11, 7 rounds");
        return NULL;
    }
    PyObject *kit[MJ_KIT], *names[MJ_NAME_MAX];
    for (int k = 0; k < MJ_KIT; k++) kit[k] = PyTuple_GET_ITEM(kit_tuple, k);
    for (Py_ssize_t p = 0; p < n; p++) {
        names[p] = PyTuple_GET_ITEM(players, p);
        if (!PyUnicode_CheckExact(names[p])) {
            PyErr_SetString(PyExc_TypeError, "memoarrr_word_json: a player's name is no str");
            return NULL;
        }
    }
    if (!PyDict_CheckExact(kit[MJ_SAID]) || !PyTuple_CheckExact(kit[MJ_CARDS]) ||
        !PyTuple_CheckExact(kit[MJ_PLACES]) || !PyTuple_CheckExact(kit[MJ_VOLCANOES]) ||
        !PyTuple_CheckExact(kit[MJ_TAKES]) || !PyBytes_CheckExact(kit[MJ_NEVER_SEEN]) ||
        !PyBytes_CheckExact(kit[MJ_CONNECT]) || !PyBytes_CheckExact(kit[MJ_SWAP_RULE]) ||
        !PyBytes_CheckExact(kit[MJ_ALL_REVEALED])) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word_json: a kit's item of the wrong type");
        return NULL;
    }
    /* Held while the rounds are written: a call into Python (word) could drop them. */
    Py_INCREF(kit_tuple);
    Py_INCREF(players);
    Py_INCREF(rounds);
    MjWriter w;
    memset(&w, 0, sizeof w);
    w.kit = kit;
    w.names = names;
    w.n = (int)n;
    PyObject *result = NULL;
    long totals[M_MAX_PLAYERS] = {0};
    int named = mj_names(&w);
    if (named > 0) {
        result = Py_NewRef(Py_None);
    } else if (named == 0) {
        int rc = MJ_LIT(&w, "[") < 0 ? -1 : 0;
        if (rc < 0) PyErr_NoMemory();
        for (Py_ssize_t r = 0; rc == 0 && r < PyTuple_GET_SIZE(rounds); r++)
            rc = mj_round(&w, (int)r + 1, PyTuple_GET_ITEM(rounds, r), totals);
        if (rc == 0 && MJ_LIT(&w, "]") < 0) rc = -1, PyErr_NoMemory();
        if (rc == 0) result = PyBytes_FromStringAndSize(w.out.buf, w.out.len);
    }
    PyMem_RawFree(w.out.buf);
    PyMem_RawFree(w.name_json.buf);
    Py_DECREF(kit_tuple);
    Py_DECREF(players);
    Py_DECREF(rounds);
    return result;
}
