/* dungeon_word: the rounds of a ruling of a clean game/1 log, worded from dungeon_replay's trace
 * (included after dungeon_replay.c, whose trace it reads; split from it to keep each file one
 * job). */

/* --- dungeon_word: the rounds of a ruling from dungeon_replay's trace ----------------------
 * What games/dungeon/fast.py words of each exploration, made here so that a clean log costs
 * no Python loop: the events (each an Event of the text, rule and fact said of its case, said
 * once by Python's `word` and kept in the caches `said` and `dungeons`), the running scores,
 * the title and the Round. The cases' codes (Python's fast._word reads them back): */
#define DW_END 1000000L   /* + 0 (one player left) or 1 (no tile in hand): an exploration's end */
#define DW_START 2000000L /* + the exploration's number: the next start player */
/* an outcome: kind + 8 * (after + 256 * lost_at); a dungeon that holds (word's name None):
 * its height */

/* A str built of UTF-8 pieces (cheaper than PyUnicode_FromFormat, which the titles and the
 * dungeons' texts would spend most of their time in). */
typedef struct {
    char *buf;
    Py_ssize_t len, cap;
    int failed;  /* a piece could not be added (no memory, or a str with no UTF-8 form) */
    char small[256];
} DwText;

static void dwt_init(DwText *t) {
    t->buf = t->small;
    t->len = 0;
    t->cap = (Py_ssize_t)sizeof t->small;
    t->failed = 0;
}

static void dwt_add(DwText *t, const char *s, Py_ssize_t n) {
    if (t->failed) return;
    if (t->len + n > t->cap) {
        Py_ssize_t cap = 2 * (t->len + n);
        char *grown = PyMem_Malloc((size_t)cap);
        if (!grown) {
            t->failed = 1;
            return;
        }
        memcpy(grown, t->buf, (size_t)t->len);
        if (t->buf != t->small) PyMem_Free(t->buf);
        t->buf = grown;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, (size_t)n);
    t->len += n;
}

static void dwt_cstr(DwText *t, const char *s) { dwt_add(t, s, (Py_ssize_t)strlen(s)); }

static void dwt_str(DwText *t, PyObject *str) {
    Py_ssize_t n;
    const char *s = t->failed ? NULL : PyUnicode_AsUTF8AndSize(str, &n);
    if (!s) {
        PyErr_Clear();  /* (a lone surrogate): the caller words it with PyUnicode_FromFormat */
        t->failed = 1;
        return;
    }
    dwt_add(t, s, n);
}

static void dwt_long(DwText *t, long value) {
    char digits[24];
    int k = (int)sizeof digits;
    unsigned long v = value < 0 ? 0UL - (unsigned long)value : (unsigned long)value;
    do {
        digits[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (value < 0) digits[--k] = '-';
    dwt_add(t, digits + k, (Py_ssize_t)sizeof digits - k);
}

/* The str built (NULL with an error set, or NULL with none if a piece failed: then the caller
 * words it otherwise); frees the buffer. */
static PyObject *dwt_done(DwText *t) {
    PyObject *out = t->failed ? NULL : PyUnicode_DecodeUTF8(t->buf, t->len, NULL);
    if (t->buf != t->small) PyMem_Free(t->buf);
    t->buf = t->small;
    return out;
}

/* An int of a trace's tuple; -1 with an error set if it is none. */
static int dw_int(PyObject *tuple, Py_ssize_t i, int *out) {
    PyObject *obj = PyTuple_GET_ITEM(tuple, i);
    if (!PyLong_CheckExact(obj)) {
        PyErr_SetString(PyExc_TypeError, "dungeon_word: a trace's field is not an int");
        return -1;
    }
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < INT_MIN || value > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "dungeon_word: a trace's field out of range");
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* The kept object of case `code` in `cache`: under `name` in a dict of dicts by name, or in
 * `cache` itself when `name` is NULL; made by `make(name or None, code)` the first time and
 * kept if `valid` (when given) takes it, else NULL with valid's error. A new reference, NULL
 * on an error. (memoarrr_word.c keeps its texts the same way.) */
static PyObject *kept_by_name(PyObject *cache, PyObject *make, PyObject *name, long code,
                              int (*valid)(PyObject *)) {
    PyObject *key = PyLong_FromLong(code), *mine = NULL, *hit = NULL;
    if (!key) return NULL;
    if (name) {
        mine = PyDict_GetItemWithError(cache, name);
        if (mine) {
            Py_INCREF(mine);
        } else {
            if (PyErr_Occurred() || !(mine = PyDict_New())) goto done;
            if (PyDict_SetItem(cache, name, mine)) goto done;
        }
    } else {
        mine = cache;
        Py_INCREF(mine);
    }
    if (!PyDict_CheckExact(mine)) {
        PyErr_SetString(PyExc_TypeError, "a cache of said texts is not a dict");
        goto done;
    }
    hit = PyDict_GetItemWithError(mine, key);
    if (hit) {
        Py_INCREF(hit);
        goto done;
    }
    if (PyErr_Occurred()) goto done;
    if (!(hit = PyObject_CallFunctionObjArgs(make, name ? name : Py_None, key, NULL))) goto done;
    if ((valid && !valid(hit)) || PyDict_SetItem(mine, key, hit)) Py_CLEAR(hit);
done:
    Py_DECREF(key);
    Py_XDECREF(mine);
    return hit;
}

/* Whether `hit` is a (text, rule, fact) tuple; if not, a TypeError is set. */
static int dw_is_said(PyObject *hit) {
    if (PyTuple_CheckExact(hit) && PyTuple_GET_SIZE(hit) == 3 &&
        PyUnicode_CheckExact(PyTuple_GET_ITEM(hit, 0)))
        return 1;
    PyErr_SetString(PyExc_TypeError, "dungeon_word: word must give (text, rule, fact)");
    return 0;
}

/* What is said of case `code` (of the player `name`, or of a dungeon: NULL), a new reference
 * to a (text, rule, fact) tuple; NULL on an error. */
static PyObject *dw_said(PyObject *said, PyObject *word, PyObject *name, long code) {
    return kept_by_name(said, word, name, code, dw_is_said);
}

/* Append Event(text, None, rule, points, fact) of a said (text, rule, fact) to `events`
 * (stealing `said` and `points`); -1 on an error. */
static int dw_append(PyObject *events, PyObject *Event, PyObject *said, PyObject *points) {
    if (!said || !points) {
        Py_XDECREF(said);
        Py_XDECREF(points);
        return -1;
    }
    PyObject *args[5] = {PyTuple_GET_ITEM(said, 0), Py_None, PyTuple_GET_ITEM(said, 1), points,
                         PyTuple_GET_ITEM(said, 2)};
    PyObject *event = PyObject_Vectorcall(Event, args, 5, NULL);
    Py_DECREF(said);
    Py_DECREF(points);
    if (!event) return -1;
    int failed = PyList_Append(events, event);
    Py_DECREF(event);
    return failed ? -1 : 0;
}

/* What the dungeon event says of a stack of `height` tiles Lost at tile `lost_at` (0: never)
 * for the reason `code`, the tile's token number `lost_token`: a new (text, rule, fact), as
 * fast._said_dungeon words it. A dungeon that holds is said once a height (in the cache
 * kit[3]); a Lost one is worded here (its tile, height and Lost point seldom recur). */
static PyObject *dw_dungeon(PyObject *const *kit, int height, int lost_at, int code,
                            int lost_token) {
    PyObject *word = kit[4], *Fact = kit[7], *reasons = kit[8], *tokens = kit[9];
    if (!lost_at) return dw_said(kit[3], word, NULL, height);
    if (code >= PyTuple_GET_SIZE(reasons) || lost_token < 0 ||
        lost_token >= PyTuple_GET_SIZE(tokens)) {
        PyErr_SetString(PyExc_ValueError, "dungeon_word: a reason or tile out of range");
        return NULL;
    }
    PyObject *reason = PyTuple_GET_ITEM(reasons, code), *tile = PyTuple_GET_ITEM(tokens,
                                                                                 lost_token);
    if (!PyTuple_CheckExact(reason) || PyTuple_GET_SIZE(reason) != 2 ||
        !PyUnicode_CheckExact(PyTuple_GET_ITEM(reason, 0)) || !PyUnicode_CheckExact(tile)) {
        PyErr_SetString(PyExc_TypeError, "dungeon_word: a reason is no (name, rule), or a "
                                         "token no str");
        return NULL;
    }
    PyObject *name = PyTuple_GET_ITEM(reason, 0), *rule = PyTuple_GET_ITEM(reason, 1);
    PyObject *text = NULL, *fact = NULL, *said = NULL, *h = NULL, *at = NULL, *turn = NULL;
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "the dungeon of ");
    dwt_long(&b, height);
    dwt_cstr(&b, " tiles is Lost at tile ");
    dwt_long(&b, lost_at);
    dwt_cstr(&b, " (");
    dwt_str(&b, tile);
    dwt_cstr(&b, ", placed in turn ");
    dwt_long(&b, lost_at - 1);
    dwt_cstr(&b, "): ");
    dwt_str(&b, name);
    text = dwt_done(&b);
    if (!text && !PyErr_Occurred())
        text = PyUnicode_FromFormat("the dungeon of %d tiles is Lost at tile %d (%U, placed "
                                    "in turn %d): %U", height, lost_at, tile, lost_at - 1, name);
    if (!text ||
        !(h = PyLong_FromLong(height)) || !(at = PyLong_FromLong(lost_at)) ||
        !(turn = PyLong_FromLong(lost_at - 1)))
        goto done;
    PyObject *args[5] = {h, at, tile, turn, name};
    if (!(fact = PyObject_Vectorcall(Fact, args, 5, NULL))) goto done;
    said = PyTuple_Pack(3, text, rule, fact);
done:
    Py_XDECREF(text);
    Py_XDECREF(fact);
    Py_XDECREF(h);
    Py_XDECREF(at);
    Py_XDECREF(turn);
    return said;
}

/* {name: points}, a new dict; NULL on an error. */
static PyObject *dw_points(PyObject *name, long points) {
    PyObject *dict = PyDict_New(), *value = PyLong_FromLong(points);
    if (!dict || !value || PyDict_SetItem(dict, name, value)) {
        Py_XDECREF(dict);
        Py_XDECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    return dict;
}

/* The running scores as a new dict in seat order; NULL on an error. */
static PyObject *dw_scores(PyObject *const *players, int n, const long *scores) {
    PyObject *dict = PyDict_New();
    if (!dict) return NULL;
    for (int p = 0; p < n; p++) {
        PyObject *value = PyLong_FromLong(scores[p]);
        if (!value || PyDict_SetItem(dict, players[p], value)) {
            Py_XDECREF(value);
            Py_DECREF(dict);
            return NULL;
        }
        Py_DECREF(value);
    }
    return dict;
}

#define DW_GAME_END 3000000L /* (word's name: the tuple of the players who reached the points) */

/* Append the event of the check that ended the game, as fast.py's Replay words it: its text
 * said once a group of winners (in the cache `said`, under the tuple of their names), its
 * GameEndFact (kit[6]) made here; -1 on an error. */
static int dw_game_end(PyObject *const *kit, int number, PyObject *const *names, int n,
                       const long *scores, int win, PyObject *round_scores,
                       PyObject *events) {
    int nreached = 0, status = -1;
    for (int p = 0; p < n; p++) nreached += scores[p] >= win;
    PyObject *reached = PyTuple_New(nreached), *said = NULL, *number_obj = NULL,
             *win_obj = NULL, *copy = NULL, *fact = NULL, *points = NULL, *event = NULL;
    if (!reached) return -1;
    for (int p = 0, k = 0; p < n; p++) {
        if (scores[p] < win) continue;
        Py_INCREF(names[p]);
        PyTuple_SET_ITEM(reached, k++, names[p]);
    }
    if (!(said = dw_said(kit[2], kit[4], reached, DW_GAME_END)) ||
        !(number_obj = PyLong_FromLong(number)) || !(win_obj = PyLong_FromLong(win)) ||
        !(copy = PyDict_Copy(round_scores)) || !(points = PyDict_New()))
        goto done;
    PyObject *fields[5] = {number_obj, reached, win_obj, copy, reached};
    if (!(fact = PyObject_Vectorcall(kit[6], fields, 5, NULL))) goto done;
    PyObject *args[5] = {PyTuple_GET_ITEM(said, 0), Py_None, PyTuple_GET_ITEM(said, 1), points,
                         fact};
    if (!(event = PyObject_Vectorcall(kit[0], args, 5, NULL))) goto done;
    status = PyList_Append(events, event) ? -1 : 0;
done:
    Py_DECREF(reached);
    Py_XDECREF(said);
    Py_XDECREF(number_obj);
    Py_XDECREF(win_obj);
    Py_XDECREF(copy);
    Py_XDECREF(fact);
    Py_XDECREF(points);
    Py_XDECREF(event);
    return status;
}

/* An exploration of the C replay's trace (see dungeon_replay.c), unpacked and checked for
 * dungeon_word and dungeon_word_json (``who``, for the error); 0, or -1 with an error set. */
typedef struct {
    int starter, turns, ended, end_seat, last, lost_at, code, height, lost_token;
    PyObject *prio, *display, *outcomes;
} DwExploration;

static int dw_exploration(PyObject *exp, int n, const char *who, DwExploration *x) {
    if (!PyTuple_CheckExact(exp) || PyTuple_GET_SIZE(exp) != 13) {
        PyErr_Format(PyExc_TypeError, "%s: an exploration is not a trace's", who);
        return -1;
    }
    x->prio = PyTuple_GET_ITEM(exp, 2);
    x->display = PyTuple_GET_ITEM(exp, 10);
    x->outcomes = PyTuple_GET_ITEM(exp, 12);
    if (dw_int(exp, 0, &x->starter) || dw_int(exp, 1, &x->turns) ||
        dw_int(exp, 3, &x->ended) || dw_int(exp, 4, &x->end_seat) ||
        dw_int(exp, 5, &x->last) || dw_int(exp, 6, &x->lost_at) || dw_int(exp, 7, &x->code) ||
        dw_int(exp, 8, &x->height) || dw_int(exp, 9, &x->lost_token))
        return -1;
    if (!PyList_CheckExact(x->prio) || !PyUnicode_CheckExact(x->display) ||
        !PyTuple_CheckExact(x->outcomes)) {
        PyErr_Format(PyExc_TypeError, "%s: an exploration is not a trace's", who);
        return -1;
    }
    if (x->starter < 0 || x->starter >= n || x->end_seat < 0 || x->end_seat >= n ||
        x->last < 0 || x->last >= n || (x->ended != 0 && x->ended != 1) || x->turns < 0 ||
        x->height < 0 || x->height >= 128 || x->lost_at < 0 || x->lost_at >= 256 ||
        x->code < 0 || x->code >= 32 || x->lost_token < -1 || x->lost_token >= 1023 ||
        PyTuple_GET_SIZE(x->outcomes) > n) {
        PyErr_Format(PyExc_ValueError, "%s: an exploration out of range", who);
        return -1;
    }
    return 0;
}

/* One exploration's Round (number 1-based), appended to `rounds`; 1 done, 0 declined (the
 * game ended before the log does), -1 on an error. */
static int dw_round(PyObject *exp, int number, int count, PyObject *players, long *scores,
                    PyObject *const *kit, int win, PyObject *rounds) {
    PyObject *Event = kit[0], *Round = kit[1], *said = kit[2],
             *word = kit[4], *priority = kit[5];
    PyObject *const *names = &PyTuple_GET_ITEM(players, 0);
    int n = (int)PyTuple_GET_SIZE(players);
    DwExploration x;
    if (dw_exploration(exp, n, "dungeon_word", &x))
        return -1;
    int starter = x.starter, turns = x.turns, ended = x.ended, end_seat = x.end_seat,
        last = x.last, lost_at = x.lost_at, code = x.code, height = x.height,
        lost_token = x.lost_token;
    PyObject *prio = x.prio, *display = x.display, *outcomes = x.outcomes;
    int status = -1;
    PyObject *events = PyList_New(0), *round_scores = NULL, *title = NULL, *tuple = NULL;
    if (!events) return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(prio); i++) {
        PyObject *event = PyObject_CallFunction(priority, "iOO", number, players,
                                                PyList_GET_ITEM(prio, i));
        if (!event) goto done;
        int failed = PyList_Append(events, event);
        Py_DECREF(event);
        if (failed) goto done;
    }
    if (dw_append(events, Event, dw_said(said, word, names[end_seat], DW_END + ended),
                  PyDict_New()))
        goto done;
    if (dw_append(events, Event, dw_dungeon(kit, height, lost_at, code, lost_token),
                  PyDict_New()))
        goto done;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(outcomes); i++) {
        int seat, kind, after, points;
        PyObject *one = PyTuple_GET_ITEM(outcomes, i);
        if (!PyTuple_CheckExact(one) || PyTuple_GET_SIZE(one) != 4) {
            PyErr_SetString(PyExc_TypeError, "dungeon_word: an outcome is not a trace's");
            goto done;
        }
        if (dw_int(one, 0, &seat) || dw_int(one, 1, &kind) || dw_int(one, 2, &after) ||
            dw_int(one, 3, &points))
            goto done;
        if (seat < 0 || seat >= n || kind < 0 || kind > DG_STAYED || after < 0 ||
            after >= 256 || points < 0 || points > 1) {
            PyErr_SetString(PyExc_ValueError, "dungeon_word: an outcome out of range");
            goto done;
        }
        long case_ = kind + 8L * (after + 256L * lost_at);
        if (dw_append(events, Event, dw_said(said, word, names[seat], case_),
                      dw_points(names[seat], points)))
            goto done;
        scores[seat] += points;
    }
    if (!(round_scores = dw_scores(names, n, scores))) goto done;
    long best = 0;
    for (int p = 0; p < n; p++)
        if (scores[p] > best) best = scores[p];
    if (best >= win) {
        if (number != count) {  /* the log goes on after the game's end */
            status = 0;
            goto done;
        }
        if (dw_game_end(kit, number, names, n, scores, win, round_scores, events)) goto done;
    } else if (dw_append(events, Event, dw_said(said, word, names[last], DW_START + number),
                         PyDict_New())) {
        goto done;
    }
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "Exploration ");
    dwt_long(&b, number);
    dwt_cstr(&b, " (start player ");
    dwt_str(&b, names[starter]);
    dwt_cstr(&b, ", ");
    dwt_long(&b, turns);
    dwt_cstr(&b, turns == 1 ? " turn)" : " turns)");
    title = dwt_done(&b);
    if (!title && !PyErr_Occurred())
        title = PyUnicode_FromFormat("Exploration %d (start player %U, %d turn%s)", number,
                                     names[starter], turns, turns == 1 ? "" : "s");
    if (!title || !(tuple = PyList_AsTuple(events))) goto done;
    PyObject *number_obj = PyLong_FromLong(number);
    if (!number_obj) goto done;
    PyObject *args[5] = {number_obj, title, tuple, round_scores, display};
    PyObject *round = PyObject_Vectorcall(Round, args, 5, NULL);
    Py_DECREF(number_obj);
    if (!round) goto done;
    status = PyList_Append(rounds, round) ? -1 : 1;
    Py_DECREF(round);
done:
    Py_DECREF(events);
    Py_XDECREF(round_scores);
    Py_XDECREF(title);
    Py_XDECREF(tuple);
    return status;
}

/* dungeon_word(traced, players, Event, Round, said, dungeons, word, priority, GameEndFact,
 *              win_points, DungeonFact, reasons, tokens) -> list of Rounds, or None
 * traced: what dungeon_replay gave for a log of `players` (a tuple of 2-5 str); Event and
 * Round: the ruling's types, called with their fields in order; said: a dict, player name ->
 * dict, case code -> (text, rule, fact); dungeons: a dict, height -> (text, rule, fact) of a
 * dungeon that holds;
 * word(name or None, code) -> (text, rule, fact): the words of a case not yet in the caches
 * (then kept there); priority(number, players, event of the trace) -> Event; GameEndFact and
 * DungeonFact: the facts' types; win_points: the points that end the game;
 * reasons: by the tracer's reason code, None or (its name, its rule); tokens: as for
 * dungeon_replay. None when a player reaches the winning points before the last exploration
 * (the Python replay words that). */
static PyObject *dungeon_word(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *traced, *players, *kit[10];
    int win;
    if (!PyArg_ParseTuple(args, "O!O!OOO!O!OOOiOO!O!", &PyTuple_Type, &traced, &PyTuple_Type,
                          &players, &kit[0], &kit[1], &PyDict_Type, &kit[2], &PyDict_Type,
                          &kit[3], &kit[4], &kit[5], &kit[6], &win, &kit[7], &PyTuple_Type,
                          &kit[8], &PyTuple_Type, &kit[9]))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    if (n < 2 || n > DG_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "dungeon_word: 2-5 players");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(players, i))) {
            PyErr_SetString(PyExc_TypeError, "dungeon_word: a player is not a str");
            return NULL;
        }
    }
    /* The callbacks may run any Python: hold what is borrowed from the arguments. */
    Py_INCREF(traced);
    Py_INCREF(players);
    for (int k = 0; k < 10; k++) Py_INCREF(kit[k]);
    long scores[DG_MAX_PLAYERS] = {0};
    Py_ssize_t count = PyTuple_GET_SIZE(traced);
    PyObject *rounds = PyList_New(0);
    for (Py_ssize_t i = 0; rounds && i < count; i++) {
        int status = dw_round(PyTuple_GET_ITEM(traced, i), (int)i + 1, (int)count, players,
                              scores, kit, win, rounds);
        if (status < 0) {
            Py_CLEAR(rounds);
        } else if (!status) {
            Py_DECREF(rounds);
            rounds = Py_None;
            Py_INCREF(rounds);
            break;
        }
    }
    Py_DECREF(traced);
    Py_DECREF(players);
    for (int k = 0; k < 10; k++) Py_DECREF(kit[k]);
    return rounds;
}
