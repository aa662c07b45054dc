/* pathcheck._speedups, part of the one translation unit _speedups.c: a Memoarrr! log's
 * analysed moves written as the JSON array msgspec encodes of them, while memoarrr_lenient
 * replays and marks the log (memoarrr_know.c), for `analyse --format json|jsonl`, which keeps
 * no analysis. Included after memoarrr.c (MState) and dungeon_marks_json.c (Out,
 * put_json_str), before memoarrr_know.c, whose m_know_move hands each judged reveal here
 * instead of making its seven items.
 *
 * memoarrr_lenient_json(log, cards, kit) is memoarrr_lenient(log, cards, texts) with the
 * marks item (the flat list of judged reveals) replaced by (moves, counts): the moves as JSON
 * (bytes), each as pathcheck.analysis.memoarrr.marked words it and msgspec writes an
 * AnalysedMove, and per seat (slips, guesses, sound, harmless, lost, at stake), as
 * memoarrr_marks counts them; or None where a player's name is no UTF-8 text (Python's way
 * then words the log). What a reveal's mark depends on (its verdict, whether the card chosen
 * was seen, the cards not seen and those that connect: `key`, below) is written once by
 * Python and kept in the kit's list by key: (best, mid, tail, which, cost, value), msgspec's
 * encoding of the best move when it is no card seen (else None: written here from the places
 * and cards), of `,"mark":..,"why":..,"chance":..,"rule":`, of `,"cost":..,"value":..,
 * "grade":..,"age":`, the mark's counter (0 slip, 1 guess, 2 sound, 3 harmless) and the cost
 * and value as floats. The kit's texts: the 25 cards' and the 625 "PLACE (CARD)" (place * 25 +
 * card) as JSON without quotes. tests/analysis/test_memoarrr_marks_json.py compares the bytes with
 * msgspec's encoding of the analysis made as values. */

enum { MK_MARKED, MK_MARKED_FN, MK_RULES, MK_CARDS, MK_AT, MK_KIT };
#define MK_KEYS (1 << 14)

typedef struct MkJson {
    Out out;
    PyObject *const *kit;   /* borrowed from the kit tuple the caller holds */
    PyObject *rule;         /* the edition's rule as JSON */
    int declined, moves;
    Py_ssize_t at_max;      /* the longest of the kit's "PLACE (CARD)" texts */
    long marks[M_MAX_PLAYERS][4];
    double lost[M_MAX_PLAYERS], stake[M_MAX_PLAYERS];
    Out names;
    Py_ssize_t name_at[M_MAX_PLAYERS], name_len[M_MAX_PLAYERS];
} MkJson;

/* Each player's name as JSON; 0, 1 when one is no UTF-8 text (declined), -1 on an error. */
static int mkj_names(MkJson *j, PyObject *const *players, int n) {
    for (int p = 0; p < n; p++) {
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(players[p], &len);
        if (!text) {  /* a lone surrogate: msgspec refuses it too */
            PyErr_Clear();
            return 1;
        }
        if (len > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(&j->names, 6 * len + 2) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        j->name_at[p] = j->names.len;
        char *end = put_json_str(j->names.buf + j->names.len, (Str){text, len});
        j->names.len = end - j->names.buf;
        j->name_len[p] = j->names.len - j->name_at[p];
    }
    return 0;
}

/* Whether `table` is a tuple of `n` bytes (the kit's texts, checked once a call: a tuple
 * cannot change while the call holds it). */
static int mkj_texts(PyObject *table, Py_ssize_t n) {
    if (!PyTuple_CheckExact(table) || PyTuple_GET_SIZE(table) != n) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyBytes_CheckExact(PyTuple_GET_ITEM(table, i))) return 0;
    return 1;
}

/* The kit's entry for `key`, made by its filler on a miss and kept; borrowed, NULL with an
 * error set. */
static PyObject *mkj_entry(MkJson *j, long key) {
    PyObject *list = j->kit[MK_MARKED];
    if (key < 0 || key >= PyList_GET_SIZE(list)) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_lenient_json: a key out of the table");
        return NULL;
    }
    PyObject *entry = PyList_GET_ITEM(list, key);
    if (entry == Py_None) {
        entry = PyObject_CallFunction(j->kit[MK_MARKED_FN], "l", key);
        if (!entry) return NULL;
        if (key >= PyList_GET_SIZE(list)) {  /* the filler shrank the list */
            Py_DECREF(entry);
            PyErr_SetString(PyExc_ValueError, "memoarrr_lenient_json: a key out of the table");
            return NULL;
        }
        PyList_SetItem(list, key, entry);  /* steals: the list holds it */
    }
    if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 6 ||
        !(PyTuple_GET_ITEM(entry, 0) == Py_None || PyBytes_CheckExact(PyTuple_GET_ITEM(entry, 0))) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(entry, 1)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(entry, 2)) ||
        !PyLong_CheckExact(PyTuple_GET_ITEM(entry, 3)) ||
        !PyFloat_CheckExact(PyTuple_GET_ITEM(entry, 4)) ||
        !PyFloat_CheckExact(PyTuple_GET_ITEM(entry, 5))) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_lenient_json: a mark's entry out of shape");
        return NULL;
    }
    return entry;
}

/* One judged reveal (memoarrr_know.c's items: `did` place * 25 + card, `knew`, `verdict` with
 * its age, `matches` the places of cards seen that connect, whose cards are s->grid's) written
 * as msgspec writes marked()'s AnalysedMove, and counted; 0, or -1 with an error set. */
static int mkj_move(const MState *s, MkJson *j, int index, int seat, int did, long knew,
                    long verdict, uint32_t matches) {
    if (j->declined) return 0;
    int code = (int)(verdict & 7);
    long age = verdict >> 3, key = (knew >> 20) << 3 | code;
    PyObject *entry = mkj_entry(j, key);
    if (!entry) return -1;
    long which = PyLong_AsLong(PyTuple_GET_ITEM(entry, 3));
    if (which < 0 || which > 3 || seat < 0 || seat >= s->n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "memoarrr_lenient_json: a mark out of range");
        return -1;
    }
    int choices = (int)(knew & 31), unknown = (int)(knew >> 5 & 31),
        connecting = (int)(knew >> 10 & 31), last = (int)(knew >> 15 & 31);
    PyObject *last_text = PyTuple_GET_ITEM(j->kit[MK_CARDS], last);  /* 25 checked */
    PyObject *best = PyTuple_GET_ITEM(entry, 0), *mid = PyTuple_GET_ITEM(entry, 1),
             *tail = PyTuple_GET_ITEM(entry, 2);
    if (best == Py_None && !matches) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_lenient_json: no card seen connects");
        return -1;
    }
    /* Room for the whole move at once (the literals, 8 numbers, the texts), then written
     * without a check a piece. */
    Py_ssize_t room = 400 + 8 * 24 + j->name_len[seat] + PyBytes_GET_SIZE(last_text) +
                      (1 + m_popcount(matches)) * (j->at_max + 2) + PyBytes_GET_SIZE(mid) +
                      PyBytes_GET_SIZE(tail) + PyBytes_GET_SIZE(j->rule) +
                      (best == Py_None ? 0 : PyBytes_GET_SIZE(best));
    if (out_reserve(&j->out, room) < 0) return PyErr_NoMemory(), -1;
    char *w = j->out.buf + j->out.len;
#define MKJ_PUT(p, n) (memcpy(w, (p), (size_t)(n)), w += (n))
#define MKJ_LIT(text) MKJ_PUT(text, sizeof(text) - 1)
#define MKJ_BYTES(b) MKJ_PUT(PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b))
#define MKJ_AT(pos, card) MKJ_BYTES(PyTuple_GET_ITEM(j->kit[MK_AT], (pos) * M_CARDS + (card)))
    if (j->moves++) *w++ = ',';
    MKJ_LIT("{\"round\":");
    w += write_long(w, s->round);
    MKJ_LIT(",\"index\":");
    w += write_long(w, index);
    MKJ_LIT(",\"player\":");
    MKJ_PUT(j->names.buf + j->name_at[seat], j->name_len[seat]);
    MKJ_LIT(",\"did\":\"reveals ");
    MKJ_AT(did / M_CARDS, did % M_CARDS);
    MKJ_LIT("\",\"knew\":\"to connect to ");
    MKJ_BYTES(last_text);
    MKJ_LIT("; ");
    w += write_long(w, choices - unknown);
    MKJ_LIT(" of the ");
    w += write_long(w, choices);
    MKJ_LIT(" cards they could reveal seen, ");
    w += write_long(w, connecting);
    MKJ_LIT(" of them connecting\",\"best\":");
    if (best != Py_None) {
        MKJ_BYTES(best);
    } else {
        MKJ_LIT("\"reveal a card seen that connects: ");
        int first = 1;
        for (int pos = 0; matches; pos++, matches >>= 1) {
            if (!(matches & 1)) continue;
            if (!first) MKJ_LIT(", ");
            first = 0;
            MKJ_AT(pos, s->grid[pos]);
        }
        *w++ = '"';
    }
    MKJ_BYTES(mid);
    MKJ_BYTES(j->rule);
    MKJ_LIT(",\"pointer\":\"/rounds/");
    w += write_long(w, s->round - 1);
    MKJ_LIT("/actions/");
    w += write_long(w, index - 1);
    *w++ = '"';
    MKJ_BYTES(tail);
    if (age) w += write_long(w, age);
    else MKJ_LIT("null");
    *w++ = '}';
#undef MKJ_AT
#undef MKJ_BYTES
#undef MKJ_LIT
#undef MKJ_PUT
    j->out.len = w - j->out.buf;
    j->marks[seat][which]++;
    double value = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(entry, 5));
    if (value != 0.0) {  /* summarise adds up only the moves with a value, in this order */
        j->stake[seat] += value;
        j->lost[seat] += PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(entry, 4));
    }
    return 0;
}

/* (moves, counts) of a replay marked into `j`, or None where it declined; NULL on an error. */
static PyObject *mkj_result(MkJson *j, int n) {
    if (j->declined) Py_RETURN_NONE;
    if (OUT_LIT(&j->out, "]") < 0) return PyErr_NoMemory();
    PyObject *tally = PyTuple_New(n);
    for (int p = 0; tally && p < n; p++) {
        PyObject *one = Py_BuildValue("(lllldd)", j->marks[p][0], j->marks[p][1],
                                      j->marks[p][2], j->marks[p][3], j->lost[p], j->stake[p]);
        if (!one) Py_CLEAR(tally);
        else PyTuple_SET_ITEM(tally, p, one);
    }
    if (!tally) return NULL;
    PyObject *moves = PyBytes_FromStringAndSize(j->out.buf, j->out.len);
    if (!moves) {
        Py_DECREF(tally);
        return NULL;
    }
    return Py_BuildValue("(NN)", moves, tally);
}

static void mkj_free(MkJson *j) {
    PyMem_RawFree(j->out.buf);
    PyMem_RawFree(j->names.buf);
}
