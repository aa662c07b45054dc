/* dungeon_word_json: the rounds of a clean game/1 log's ruling written from dungeon_replay's
 * trace straight as the JSON msgspec would encode of them, for `adjudicate --format json|jsonl`
 * (nothing kept: the Rounds and Events that dungeon_word makes would only be encoded).
 * Included after dungeon_word.c (its dw_int) and check.c (put_json_str).
 *
 * A round is written as dungeon_word makes it, field for field in msgspec's order. What an
 * event of a player's case says (an exploration's end, the next start player) and a dungeon
 * that holds is written whole by Python the first time (games/dungeon/fast.py, _word_json:
 * msgspec's own bytes of the Event dungeon_word would make) and kept in the caches `said`
 * (player name -> case code -> bytes) and `dungeons` (height -> bytes); the event of the
 * game's end comes without its fact (written here with the scores). A LOST card's outcome (as
 * tracer.check.explain_outcome words it: its words, rule and name by outcome from the kit), a
 * void announcement (rule #1, as fast._priority words it), a dungeon Lost at a tile, the
 * title, the scores and the stack are written here: their numbers vary too much to keep. A
 * name with no UTF-8 form declines (False): Python then makes the rounds as values.
 * tests/games/test_dungeon_json.py compares the bytes with msgspec's of the value path. */

/* Each player's name as JSON (quoted, escaped), once a log. */
typedef struct {
    Out buf;
    Py_ssize_t at[DG_MAX_PLAYERS], len[DG_MAX_PLAYERS];  /* with the quotes */
} GjNames;

/* 0, -1 on no memory, 1 declined (a name with no UTF-8 form). */
static int gj_names(GjNames *g, PyObject *const *names, int n) {
    for (int p = 0; p < n; p++) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(names[p], &len);
        if (!s) {
            PyErr_Clear();
            return 1;
        }
        if (len > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(&g->buf, 6 * len + 2) < 0) return -1;
        g->at[p] = g->buf.len;
        g->buf.len = put_json_str(g->buf.buf + g->buf.len, (Str){s, len}) - g->buf.buf;
        g->len[p] = g->buf.len - g->at[p];
    }
    return 0;
}

static inline int gj_name(Out *o, const GjNames *g, int p) {
    return out_put(o, g->buf.buf + g->at[p], g->len[p]);
}

/* The name without its quotes (inside a text). */
static inline int gj_bare(Out *o, const GjNames *g, int p) {
    return out_put(o, g->buf.buf + g->at[p] + 1, g->len[p] - 2);
}

/* A str as a JSON string; -1 on no memory, 1 if it has no UTF-8 form (declined). */
static int gj_str(Out *o, PyObject *text) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(text, &n);
    if (!p) {
        PyErr_Clear();
        return 1;
    }
    if (n > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(o, 6 * n + 2) < 0) return -1;
    o->len = put_json_str(o->buf + o->len, (Str){p, n}) - o->buf;
    return 0;
}

/* The bytes kept in `mine` (a dict, held by the caller) for case `code`, made by
 * `make(name or None, code)` the first time and kept; a new reference, NULL on an error. */
static PyObject *gj_kept(PyObject *mine, PyObject *make, PyObject *name, long code) {
    PyObject *key = PyLong_FromLong(code);
    if (!key) return NULL;
    PyObject *hit = PyDict_GetItemWithError(mine, key);
    if (hit) {
        Py_INCREF(hit);
    } else if (!PyErr_Occurred() &&
               (hit = PyObject_CallFunctionObjArgs(make, name ? name : Py_None, key, NULL))) {
        if (!PyBytes_CheckExact(hit)) {
            PyErr_SetString(PyExc_TypeError, "dungeon_word_json: word must give bytes");
            Py_CLEAR(hit);
        } else if (PyDict_SetItem(mine, key, hit)) {
            Py_CLEAR(hit);
        }
    }
    Py_DECREF(key);
    return hit;
}

/* Write the kept bytes of a case (stealing `said`); -1 on an error. */
static int gj_put(Out *o, PyObject *said) {
    if (!said) return -1;
    int failed = out_bytes(o, said);
    Py_DECREF(said);
    return failed;
}

typedef struct {
    PyObject *players;            /* tuple */
    PyObject *mine[DG_MAX_PLAYERS];  /* each player's dict of `said` (strong references) */
    PyObject *dungeons, *word, *reasons, *tokens;
    PyObject *outcomes;  /* by outcome code: (its words' JSON unquoted, rule JSON, name JSON) */
    PyObject *priority;  /* the rule of a void announcement, as JSON */
    GjNames names;
    int n, win;
    long scores[DG_MAX_PLAYERS];
} GjLog;

/* A dungeon's event (see dw_dungeon): one that holds as kept, a Lost one written here. */
static int gj_dungeon(Out *o, GjLog *g, int height, int lost_at, int code, int lost_token) {
    if (!lost_at) return gj_put(o, gj_kept(g->dungeons, g->word, NULL, height));
    if (code >= PyTuple_GET_SIZE(g->reasons) || lost_token < 0 ||
        lost_token >= PyTuple_GET_SIZE(g->tokens)) {
        PyErr_SetString(PyExc_ValueError, "dungeon_word_json: a reason or tile out of range");
        return -1;
    }
    PyObject *reason = PyTuple_GET_ITEM(g->reasons, code),
             *tile = PyTuple_GET_ITEM(g->tokens, lost_token);
    if (!PyTuple_CheckExact(reason) || PyTuple_GET_SIZE(reason) != 2 ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(reason, 0)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(reason, 1)) || !PyUnicode_CheckExact(tile)) {
        PyErr_SetString(PyExc_TypeError, "dungeon_word_json: a reason is no (name, rule) of "
                                         "bytes, or a token no str");
        return -1;
    }
    PyObject *name = PyTuple_GET_ITEM(reason, 0);  /* quoted JSON */
    int status;
    if (OUT_LIT(o, "{\"text\":\"the dungeon of ") || out_long(o, height) ||
        OUT_LIT(o, " tiles is Lost at tile ") || out_long(o, lost_at) || OUT_LIT(o, " ("))
        return -1;
    Py_ssize_t at = o->len;
    if ((status = gj_str(o, tile))) return status;
    /* inside the text, without its quotes */
    memmove(o->buf + at, o->buf + at + 1, (size_t)(o->len - at - 2));
    o->len -= 2;
    if (OUT_LIT(o, ", placed in turn ") || out_long(o, lost_at - 1) || OUT_LIT(o, "): ") ||
        out_put(o, PyBytes_AS_STRING(name) + 1, PyBytes_GET_SIZE(name) - 2) ||
        OUT_LIT(o, "\",\"move\":null,\"rule\":") || out_bytes(o, PyTuple_GET_ITEM(reason, 1)) ||
        OUT_LIT(o, ",\"points\":{},\"fact\":{\"kind\":\"dungeon\",\"tiles\":") ||
        out_long(o, height) || OUT_LIT(o, ",\"lost_at\":") || out_long(o, lost_at) ||
        OUT_LIT(o, ",\"tile\":"))
        return -1;
    if ((status = gj_str(o, tile))) return status;
    if (OUT_LIT(o, ",\"turn\":") || out_long(o, lost_at - 1) || OUT_LIT(o, ",\"reason\":") ||
        out_bytes(o, name) || OUT_LIT(o, "}}"))
        return -1;
    return 0;
}

/* {"name":score,...} in seat order. */
static int gj_scores(Out *o, const GjLog *g) {
    if (OUT_LIT(o, "{")) return -1;
    for (int p = 0; p < g->n; p++)
        if ((p && OUT_LIT(o, ",")) || gj_name(o, &g->names, p) || OUT_LIT(o, ":") ||
            out_long(o, g->scores[p]))
            return -1;
    return OUT_LIT(o, "}");
}

/* The event of the check that ended the game (see dw_game_end): its words kept under the
 * tuple of the players who reached the points, its GameEndFact written here. */
static int gj_game_end(Out *o, GjLog *g, PyObject *said, int number) {
    int nreached = 0;
    for (int p = 0; p < g->n; p++) nreached += g->scores[p] >= g->win;
    PyObject *reached = PyTuple_New(nreached);
    if (!reached) return -1;
    for (int p = 0, k = 0; p < g->n; p++)
        if (g->scores[p] >= g->win) PyTuple_SET_ITEM(reached, k++, Py_NewRef(PyTuple_GET_ITEM(
                                                                   g->players, p)));
    PyObject *mine = PyDict_GetItemWithError(said, reached), *words = NULL;
    if (mine) {
        Py_INCREF(mine);
    } else if (!PyErr_Occurred() && (mine = PyDict_New()) &&
               PyDict_SetItem(said, reached, mine)) {
        Py_CLEAR(mine);
    }
    if (mine && PyDict_CheckExact(mine)) words = gj_kept(mine, g->word, reached, DW_GAME_END);
    else if (mine) PyErr_SetString(PyExc_TypeError, "a cache of said texts is not a dict");
    Py_XDECREF(mine);
    Py_DECREF(reached);
    if (gj_put(o, words) || OUT_LIT(o, ",\"fact\":{\"kind\":\"game-end\",\"round\":") ||
        out_long(o, number) || OUT_LIT(o, ",\"reached\":["))
        return -1;
    for (int list = 0; list < 2; list++) {
        for (int p = 0, k = 0; p < g->n; p++)
            if (g->scores[p] >= g->win && ((k++ && OUT_LIT(o, ",")) || gj_name(o, &g->names, p)))
                return -1;
        if (list == 0 && (OUT_LIT(o, "],\"points\":") || out_long(o, g->win) ||
                          OUT_LIT(o, ",\"scores\":") || gj_scores(o, g) ||
                          OUT_LIT(o, ",\"winners\":[")))
            return -1;
    }
    return OUT_LIT(o, "]}}");
}

/* A player's outcome at the check, as explain_outcome words it and LostCardFact says it:
 * "NAME (LOST card after tile A): WORDS (Lost at tile L)". */
static int gj_outcome(Out *o, GjLog *g, int seat, int kind, int after, int lost_at,
                      int points) {
    PyObject *said = PyTuple_GET_ITEM(g->outcomes, kind);
    PyObject *words = PyTuple_GET_ITEM(said, 0), *rule = PyTuple_GET_ITEM(said, 1),
             *value = PyTuple_GET_ITEM(said, 2);
    if (OUT_LIT(o, "{\"text\":\"") || gj_bare(o, &g->names, seat) ||
        (after && (OUT_LIT(o, " (LOST card after tile ") || out_long(o, after) ||
                   OUT_LIT(o, ")"))) ||
        OUT_LIT(o, ": ") || out_bytes(o, words) ||
        (lost_at ? OUT_LIT(o, " (Lost at tile ") || out_long(o, lost_at) || OUT_LIT(o, ")\"")
                 : OUT_LIT(o, " (never Lost)\"")) ||
        OUT_LIT(o, ",\"move\":null,\"rule\":") || out_bytes(o, rule) ||
        OUT_LIT(o, ",\"points\":{") || gj_name(o, &g->names, seat) || OUT_LIT(o, ":") ||
        out_long(o, points) ||
        OUT_LIT(o, "},\"fact\":{\"kind\":\"lost-card\",\"player\":") ||
        gj_name(o, &g->names, seat) || OUT_LIT(o, ",\"outcome\":") || out_bytes(o, value) ||
        OUT_LIT(o, ",\"after\":") || (after ? out_long(o, after) : OUT_LIT(o, "null")) ||
        OUT_LIT(o, ",\"lost_at\":") || (lost_at ? out_long(o, lost_at) : OUT_LIT(o, "null")) ||
        OUT_LIT(o, "}}"))
        return -1;
    return 0;
}

/* "A and B" of the void seats' names. */
static int gj_who(Out *o, const GjLog *g, const int *seats, int k) {
    for (int i = 0; i < k; i++)
        if ((i && OUT_LIT(o, " and ")) || gj_bare(o, &g->names, seats[i])) return -1;
    return 0;
}

/* The event of a turn's void LOST announcements (rule #1), as fast._priority words it, from
 * the trace's (turn, player's seat, standing seat, void seats, by the first); -1 with an
 * error set. */
static int gj_priority(Out *o, GjLog *g, int number, int nturns, PyObject *said) {
    int t, seat, standing, first, seats[DG_MAX_PLAYERS];
    if (!PyTuple_CheckExact(said) || PyTuple_GET_SIZE(said) != 5 ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(said, 3))) {
        PyErr_SetString(PyExc_TypeError, "dungeon_word_json: a void announcement is not a "
                                         "trace's");
        return -1;
    }
    PyObject *void_ = PyTuple_GET_ITEM(said, 3);
    Py_ssize_t k = PyTuple_GET_SIZE(void_);
    if (dw_int(said, 0, &t) || dw_int(said, 1, &seat) || dw_int(said, 2, &standing) ||
        dw_int(said, 4, &first))
        return -1;
    int bad = t < 1 || t > nturns || seat < 0 || seat >= g->n || standing < 0 ||
              standing >= g->n || (first != 0 && first != 1) || k < 1 || k >= g->n;
    for (Py_ssize_t i = 0; !bad && i < k; i++) {
        if (dw_int(void_, i, &seats[i])) return -1;
        bad = seats[i] < 0 || seats[i] >= g->n;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "dungeon_word_json: a void announcement out of range");
        return -1;
    }
    int n = (int)k;
    if (OUT_LIT(o, "{\"text\":\"") || gj_who(o, g, seats, n)) return -1;
    if (first ? OUT_LIT(o, " announced Lost after ") || gj_bare(o, &g->names, standing) ||
                    OUT_LIT(o, " in the same turn: void, only one player may announce Lost "
                               "in a turn; ")
              : OUT_LIT(o, " also announced Lost: void, ") || gj_bare(o, &g->names, standing) ||
                    OUT_LIT(o, " is the earliest in turn order after ") ||
                    gj_bare(o, &g->names, seat) || OUT_LIT(o, "; "))
        return -1;
    if (gj_who(o, g, seats, n) ||
        (n == 1 ? OUT_LIT(o, " stays in the team\"") : OUT_LIT(o, " stay in the team\"")) ||
        OUT_LIT(o, ",\"move\":{\"round\":") || out_long(o, number) ||
        OUT_LIT(o, ",\"index\":") || out_long(o, t) || OUT_LIT(o, ",\"player\":") ||
        gj_name(o, &g->names, seat) || OUT_LIT(o, ",\"pointer\":\"/explorations/") ||
        out_long(o, number - 1) || OUT_LIT(o, "/turns/") || out_long(o, t - 1) ||
        OUT_LIT(o, "/lost\"},\"rule\":") || out_bytes(o, g->priority) ||
        OUT_LIT(o, ",\"points\":{},\"fact\":{\"kind\":\"void-announcements\",\"standing\":") ||
        gj_name(o, &g->names, standing) || OUT_LIT(o, ",\"void\":["))
        return -1;
    for (int i = 0; i < n; i++)
        if ((i && OUT_LIT(o, ",")) || gj_name(o, &g->names, seats[i])) return -1;
    return first ? OUT_LIT(o, "],\"by\":\"first\"}}") : OUT_LIT(o, "],\"by\":\"turn-order\"}}");
}

/* One exploration's Round (number 1-based); 1 done, 0 declined (the game ended before the
 * log does), -1 on an error, 2 declined (a text with no UTF-8 form). */
static int gj_round(Out *o, GjLog *g, PyObject *said, PyObject *exp, int number, int count) {
    int n = g->n;
    int status;
    DwExploration x;
    if (dw_exploration(exp, n, "dungeon_word_json", &x))
        return -1;
    int starter = x.starter, turns = x.turns, ended = x.ended, end_seat = x.end_seat,
        last = x.last, lost_at = x.lost_at, code = x.code, height = x.height,
        lost_token = x.lost_token;
    PyObject *prio = x.prio, *display = x.display, *outcomes = x.outcomes;
    if ((number > 1 && OUT_LIT(o, ",")) || OUT_LIT(o, "{\"number\":") || out_long(o, number) ||
        OUT_LIT(o, ",\"title\":\"Exploration ") || out_long(o, number) ||
        OUT_LIT(o, " (start player ") || gj_bare(o, &g->names, starter) || OUT_LIT(o, ", ") ||
        out_long(o, turns) || (turns == 1 ? OUT_LIT(o, " turn)\"") : OUT_LIT(o, " turns)\"")) ||
        OUT_LIT(o, ",\"events\":["))
        return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(prio); i++)
        if (gj_priority(o, g, number, turns, PyList_GET_ITEM(prio, i)) || OUT_LIT(o, ","))
            return -1;
    if (gj_put(o, gj_kept(g->mine[end_seat], g->word, PyTuple_GET_ITEM(g->players, end_seat),
                          DW_END + ended)) ||
        OUT_LIT(o, ","))
        return -1;
    if ((status = gj_dungeon(o, g, height, lost_at, code, lost_token)))
        return status < 0 ? -1 : 2;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(outcomes); i++) {
        int seat, kind, after, points;
        PyObject *one = PyTuple_GET_ITEM(outcomes, i);
        if (!PyTuple_CheckExact(one) || PyTuple_GET_SIZE(one) != 4) {
            PyErr_SetString(PyExc_TypeError, "dungeon_word_json: an outcome is not a trace's");
            return -1;
        }
        if (dw_int(one, 0, &seat) || dw_int(one, 1, &kind) || dw_int(one, 2, &after) ||
            dw_int(one, 3, &points))
            return -1;
        /* the event's points are its case's (word's): scored and held-on 1, any other 0 */
        if (seat < 0 || seat >= n || kind < 0 || kind > DG_STAYED || after < 0 ||
            after >= 256 || points != (kind == DG_SCORED || kind == DG_HELD_ON)) {
            PyErr_SetString(PyExc_ValueError, "dungeon_word_json: an outcome out of range");
            return -1;
        }
        if (OUT_LIT(o, ",") || gj_outcome(o, g, seat, kind, after, lost_at, points)) return -1;
        g->scores[seat] += points;
    }
    long best = 0;
    for (int p = 0; p < n; p++)
        if (g->scores[p] > best) best = g->scores[p];
    if (OUT_LIT(o, ",")) return -1;
    if (best >= g->win) {
        if (number != count) return 0;  /* the log goes on after the game's end */
        if (gj_game_end(o, g, said, number)) return -1;
    } else if (gj_put(o, gj_kept(g->mine[last], g->word, PyTuple_GET_ITEM(g->players, last),
                                 DW_START + number))) {
        return -1;
    }
    if (OUT_LIT(o, "],\"scores\":") || gj_scores(o, g) || OUT_LIT(o, ",\"display\":"))
        return -1;
    if ((status = gj_str(o, display))) return status < 0 ? -1 : 2;
    return OUT_LIT(o, "}") ? -1 : 1;
}

static PyObject *gj_adopt(Out *o);

/* dungeon_word_json(traced, players, said, dungeons, word, win_points, reasons, tokens, kit)
 *   -> (rounds' JSON: a JsonBuffer, final scores by seat: ints), None, or False
 * traced, players, win_points, tokens: as dungeon_word's; said: a dict, player name (or the
 * tuple of those who reached the points) -> dict, case code -> bytes; dungeons: a dict,
 * height -> bytes; word(name or None, code) -> bytes: msgspec's JSON of the Event of a case
 * (the game's end: without its fact and closing brace; see fast._word_json); reasons: by the
 * tracer's reason code, None or (its name's JSON, its rule's JSON); kit: (by outcome code
 * (DG_EARLY ... DG_STAYED): (its words as JSON without quotes, its rule's JSON, its name's
 * JSON), a void announcement's rule as JSON). None as dungeon_word's; False: a name or the
 * stack has no UTF-8 form (Python makes the values). */
static PyObject *dungeon_word_json(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *traced, *players, *said, *dungeons, *word, *reasons, *tokens, *kit;
    int win;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OiO!O!O!", &PyTuple_Type, &traced, &PyTuple_Type,
                          &players, &PyDict_Type, &said, &PyDict_Type, &dungeons, &word, &win,
                          &PyTuple_Type, &reasons, &PyTuple_Type, &tokens, &PyTuple_Type, &kit))
        return NULL;
    int kit_ok = PyTuple_GET_SIZE(kit) == 2 && PyTuple_CheckExact(PyTuple_GET_ITEM(kit, 0)) &&
                 PyTuple_GET_SIZE(PyTuple_GET_ITEM(kit, 0)) == DG_STAYED + 1 &&
                 PyBytes_CheckExact(PyTuple_GET_ITEM(kit, 1));
    for (int k = 0; kit_ok && k <= DG_STAYED; k++) {
        PyObject *one = PyTuple_GET_ITEM(PyTuple_GET_ITEM(kit, 0), k);
        kit_ok = PyTuple_CheckExact(one) && PyTuple_GET_SIZE(one) == 3 &&
                 PyBytes_CheckExact(PyTuple_GET_ITEM(one, 0)) &&
                 PyBytes_CheckExact(PyTuple_GET_ITEM(one, 1)) &&
                 PyBytes_CheckExact(PyTuple_GET_ITEM(one, 2));
    }
    if (!kit_ok) {
        PyErr_SetString(PyExc_TypeError, "dungeon_word_json: kit is no (outcomes, rule)");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(players), count = PyTuple_GET_SIZE(traced);
    if (n < 2 || n > DG_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "dungeon_word_json: 2-5 players");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(players, i))) {
            PyErr_SetString(PyExc_TypeError, "dungeon_word_json: a player is not a str");
            return NULL;
        }
    }
    if (!count) Py_RETURN_NONE;
    GjLog *g = PyMem_Calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    /* The callbacks may run any Python: hold what is borrowed from the arguments. */
    PyObject *held[] = {traced, players, said, dungeons, word, reasons, tokens, kit};
    for (int k = 0; k < 8; k++) Py_INCREF(held[k]);
    g->players = players;
    g->dungeons = dungeons;
    g->word = word;
    g->outcomes = PyTuple_GET_ITEM(kit, 0);
    g->priority = PyTuple_GET_ITEM(kit, 1);
    g->reasons = reasons;
    g->tokens = tokens;
    g->n = (int)n;
    g->win = win;
    PyObject *result = NULL;
    Out o = {NULL, 0, 0};
    int status = gj_names(&g->names, &PyTuple_GET_ITEM(players, 0), g->n);
    for (int p = 0; status == 0 && p < g->n; p++) {
        PyObject *name = PyTuple_GET_ITEM(players, p);
        PyObject *mine = PyDict_GetItemWithError(said, name);
        if (mine) {
            Py_INCREF(mine);
        } else if (PyErr_Occurred() || !(mine = PyDict_New()) ||
                   PyDict_SetItem(said, name, mine)) {
            Py_XDECREF(mine);
            status = -1;
            break;
        }
        if (!PyDict_CheckExact(mine)) {
            PyErr_SetString(PyExc_TypeError, "a cache of said texts is not a dict");
            Py_DECREF(mine);
            status = -1;
            break;
        }
        g->mine[p] = mine;
    }
    if (status == 0 && OUT_LIT(&o, "[")) status = -1;
    for (Py_ssize_t i = 0; status == 0 && i < count; i++) {
        int done = gj_round(&o, g, said, PyTuple_GET_ITEM(traced, i), (int)i + 1, (int)count);
        status = done == 1 ? 0 : done == 0 ? 3 : done == 2 ? 1 : -1;
    }
    if (status == 0 && OUT_LIT(&o, "]")) status = -1;
    if (status == 0) {
        PyObject *raw = gj_adopt(&o), *scores = PyTuple_New(n);
        for (int p = 0; raw && scores && p < g->n; p++) {
            PyObject *v = PyLong_FromLong(g->scores[p]);
            if (!v) break;
            PyTuple_SET_ITEM(scores, p, v);
        }
        if (raw && scores && !PyErr_Occurred()) result = PyTuple_Pack(2, raw, scores);
        Py_XDECREF(raw);
        Py_XDECREF(scores);
    } else if (status == 1) {
        result = Py_NewRef(Py_False);
    } else if (status == 3) {
        result = Py_NewRef(Py_None);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    PyMem_RawFree(o.buf);
    PyMem_RawFree(g->names.buf.buf);
    for (int p = 0; p < g->n; p++) Py_XDECREF(g->mine[p]);
    PyMem_Free(g);
    for (int k = 0; k < 8; k++) Py_DECREF(held[k]);
    return result;
}

/* --- a written JSON handed to Python without a copy -------------------------------------
 * msgspec.Raw takes any object with the buffer protocol and keeps it: a log's JSON (14 KB of
 * rounds, 45 KB of analysed moves) is handed over in the buffer it was written in
 * (pathcheck._speedups.JsonBuffer: read-only, its memory freed with it), not copied into a
 * bytes first. */
typedef struct {
    PyObject_HEAD
    char *buf;
    Py_ssize_t len;
} GjBuffer;

static void gj_buffer_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    PyMem_RawFree(((GjBuffer *)self)->buf);
    type->tp_free(self);
    Py_DECREF(type);
}

static int gj_buffer_get(PyObject *self, Py_buffer *view, int flags) {
    GjBuffer *b = (GjBuffer *)self;
    return PyBuffer_FillInfo(view, self, b->buf, b->len, 1, flags);
}

static PyObject *gj_buffer_bytes(PyObject *self, PyObject *Py_UNUSED(ignored)) {
    GjBuffer *b = (GjBuffer *)self;
    return PyBytes_FromStringAndSize(b->buf, b->len);
}

static PyMethodDef gj_buffer_methods[] = {
    {"__bytes__", gj_buffer_bytes, METH_NOARGS, "The JSON as bytes (a copy)."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot gj_buffer_slots[] = {
    {Py_tp_dealloc, gj_buffer_dealloc},
    {Py_bf_getbuffer, gj_buffer_get},
    {Py_tp_methods, gj_buffer_methods},
    {Py_tp_doc, "JSON written by the extension, read through the buffer protocol."},
    {0, NULL}};

static PyType_Spec gj_buffer_spec = {"pathcheck._speedups.JsonBuffer", sizeof(GjBuffer), 0,
                                     Py_TPFLAGS_DEFAULT, gj_buffer_slots};

/* The JSON written in `o` as a JsonBuffer that takes its memory over (`o` left empty); NULL
 * with an error set (then `o` keeps its memory). */
static PyObject *gj_adopt(Out *o) {
    static PyObject *type;  /* made once, kept */
    if (!type && !(type = PyType_FromSpec(&gj_buffer_spec))) return NULL;
    GjBuffer *b = PyObject_New(GjBuffer, (PyTypeObject *)type);  /* (it holds the type) */
    if (!b) return NULL;
    b->buf = o->buf;
    b->len = o->len;
    o->buf = NULL;
    o->len = o->cap = 0;
    return (PyObject *)b;
}
