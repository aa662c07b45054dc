/* game_moments(...): the moments of one exploration of a game/1 replay page, as
 * pathcheck.games.dungeon.frames.game_page and Builder.dungeon make them on a lean page
 * (pathcheck/games/dungeon/page_c.py calls it; tests/test_page_moments_c.py compares the
 * pages): each turn's events (who starts and the hands, who places what, who announces Lost),
 * its caption, its notes (the LOST cards so far, the Lost point or the path holding, the
 * hands) and each event a moment, made by lean_add (lean_add.c) without a Python call a
 * moment. Only the usual exploration comes here: no violation at any of its turns, every turn
 * drawn, no player's name isolated on the page; the caller keeps the others.
 *
 * What is worded is worded here as the f-strings of frames.py word it (the same texts, any
 * characters); the notes that depend on the trace come from Python (make_notes, asked once a
 * kind of moment, by the same key as Builder._notes), the pictures too (drawn). Arguments:
 *   moments, state, kinds, rule_html: as lean_add takes them;
 *   add(base, caption, event, picture, notes, scores): LeanMoments.add, for a moment lean_add
 *       declines;
 *   make_notes(result, height, count): the notes of a picture's trace at a stack height, the
 *       first count LOST cards announced (a list, kept and given again for the same key);
 *   make, event_type, note_type, info: object.__new__, PageEvent, Note and NoteKind.INFO;
 *   number: the exploration's number; start: its first event's text (who starts, the hands);
 *   turns: a (player, LOST announcers) pair a turn; tiles: the stack's placements as text,
 *       START's first (a turn's tile is tiles[turn]); hands: the hands' note of each moment;
 *   drawn: a (picture, trace) pair a stack height from 1; whole: the full trace's tiles laid;
 *   never_lost: whether the full trace holds; scores: the scores shown at every moment. */

enum { PG_TEXT, PG_WHERE, PG_RULE, PG_VIOLATION, PG_LOST, PG_MARK, PG_KIND, PG_LOST_AT,
       PG_REASON, PG_NAMES };
static const char *const PG_NAME_TEXT[PG_NAMES] = {
    "text", "where", "rule", "violation", "lost", "mark", "kind", "lost_at", "reason"};
static PyObject *pg_names[PG_NAMES];
static PyObject *pg_empty;

static int pg_init(void) {
    if (pg_empty != NULL) {
        return 0;
    }
    for (int i = 0; i < PG_NAMES; i++) {
        if ((pg_names[i] = PyUnicode_InternFromString(PG_NAME_TEXT[i])) == NULL) {
            return -1;
        }
    }
    return (pg_empty = PyUnicode_FromString("")) == NULL ? -1 : 0;
}

/* An object of a dataclass made as frames.new_event and new_note make one: object.__new__,
 * then its fields put in its __dict__ (a frozen dataclass's __setattr__ refuses them). */
static PyObject *pg_object(PyObject *make, PyObject *type, const int *names, PyObject *const *values,
                           int count) {
    PyObject *made = PyObject_CallOneArg(make, type);
    if (made == NULL) {
        return NULL;
    }
    PyObject *fields = PyObject_GenericGetDict(made, NULL);
    if (fields == NULL) {
        Py_DECREF(made);
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        if (PyDict_SetItem(fields, pg_names[names[i]], values[i]) < 0) {
            Py_DECREF(fields);
            Py_DECREF(made);
            return NULL;
        }
    }
    Py_DECREF(fields);
    return made;
}

static PyObject *pg_event(PyObject *make, PyObject *type, PyObject *text, PyObject *where, int lost) {
    static const int names[6] = {PG_TEXT, PG_WHERE, PG_RULE, PG_VIOLATION, PG_LOST, PG_MARK};
    PyObject *values[6] = {text, where, Py_None, Py_False, lost ? Py_True : Py_False, pg_empty};
    return pg_object(make, type, names, values, 6);
}

/* The moments of one turn: each event through lean_add, or add where lean_add declines. */
static int pg_moments(PyObject *const *la, PyObject *add, PyObject *base, PyObject *caption,
                      PyObject *events, PyObject *picture, PyObject *notes, PyObject *scores) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(events); i++) {
        PyObject *event = PyList_GET_ITEM(events, i);
        PyObject *args[10] = {la[0], la[1], base, caption, event, picture, notes, scores, la[2], la[3]};
        PyObject *made = lean_add(NULL, args, 10);
        if (made == NULL) {
            return -1;
        }
        int done = made == Py_True;
        Py_DECREF(made);
        if (!done) {
            PyObject *back[6] = {base, caption, event, picture, notes, scores};
            PyObject *r = PyObject_Vectorcall(add, back, 6, NULL);
            if (r == NULL) {
                return -1;
            }
            Py_DECREF(r);
        }
    }
    return 0;
}

static PyObject *game_moments(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 19) {
        PyErr_SetString(PyExc_TypeError, "game_moments: 19 arguments expected");
        return NULL;
    }
    PyObject *add = args[4], *make_notes = args[5], *make = args[6], *event_type = args[7],
             *note_type = args[8], *info = args[9], *start = args[11], *turns = args[12],
             *tiles = args[13], *hands = args[14], *drawn = args[15], *scores = args[18];
    long number = PyLong_AsLong(args[10]);
    Py_ssize_t whole = PyLong_AsSsize_t(args[16]);
    int never_lost = PyObject_IsTrue(args[17]);
    if ((number == -1 || whole == -1 || never_lost < 0) && PyErr_Occurred()) {
        return NULL;
    }
    if (!PyUnicode_Check(start) || !PyTuple_Check(turns) || !PyTuple_Check(tiles)
        || !PyList_Check(hands) || !PyList_Check(drawn)
        || PyTuple_GET_SIZE(tiles) != PyTuple_GET_SIZE(turns) + 1
        || PyList_GET_SIZE(hands) != PyTuple_GET_SIZE(tiles)
        || PyList_GET_SIZE(drawn) != PyTuple_GET_SIZE(tiles)) {
        PyErr_SetString(PyExc_TypeError, "game_moments: arguments of the wrong shape");
        return NULL;
    }
    if (pg_init() < 0 || la_init() < 0) {
        return NULL;
    }
    PyObject *const la[4] = {args[0], args[1], args[2], args[3]};
    PyObject *said = PyDict_New(); /* the notes said in this exploration, by Builder._notes' key */
    PyObject *where = NULL, *caption = NULL, *base = NULL, *events = NULL, *notes = NULL;
    PyObject *result = NULL;
    if (said == NULL) {
        return NULL;
    }
    Py_ssize_t count = 0; /* the LOST cards announced so far */
    int lost_before = 0;
    for (Py_ssize_t turn = 0; turn < PyList_GET_SIZE(drawn); turn++) {
        Py_ssize_t height = turn + 1;
        PyObject *pair = PyList_GET_ITEM(drawn, turn);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "game_moments: a picture is a (picture, trace) pair");
            goto done;
        }
        PyObject *picture = PyTuple_GET_ITEM(pair, 0), *traced = PyTuple_GET_ITEM(pair, 1);
        PyObject *lost_at = PyObject_GetAttr(traced, pg_names[PG_LOST_AT]);
        PyObject *reason = lost_at == NULL ? NULL : PyObject_GetAttr(traced, pg_names[PG_REASON]);
        int lost_now = reason != NULL && lost_at != Py_None && reason != Py_None;
        Py_XDECREF(lost_at);
        if (reason == NULL) {
            goto done;
        }
        Py_DECREF(reason);
        int first_lost = lost_now && !lost_before;
        lost_before = lost_now;
        PyObject *tile = PyTuple_GET_ITEM(tiles, turn);
        if ((events = PyList_New(0)) == NULL) {
            goto done;
        }
        if (turn == 0) {
            where = PyUnicode_FromFormat("exploration %ld", number);
            PyObject *event = where == NULL ? NULL : pg_event(make, event_type, start, where, first_lost);
            if (event == NULL || PyList_Append(events, event) < 0) {
                Py_XDECREF(event);
                goto done;
            }
            Py_DECREF(event);
        } else {
            PyObject *one = PyTuple_GET_ITEM(turns, turn - 1);
            if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(one, 1))) {
                PyErr_SetString(PyExc_TypeError, "game_moments: a turn is a (player, announcers) pair");
                goto done;
            }
            PyObject *player = PyTuple_GET_ITEM(one, 0), *announcers = PyTuple_GET_ITEM(one, 1);
            if (!PyUnicode_CheckExact(player) || !PyUnicode_CheckExact(tile)) {
                PyErr_SetString(PyExc_TypeError, "game_moments: a name or a tile is not a str");
                goto done;
            }
            where = PyUnicode_FromFormat("exploration %ld, turn %zd (%U)", number, turn, player);
            PyObject *text = where == NULL ? NULL
                : PyUnicode_FromFormat("%U places %U (stack tile %zd)", player, tile, height);
            PyObject *event = text == NULL ? NULL : pg_event(make, event_type, text, where, first_lost);
            Py_XDECREF(text);
            if (event == NULL || PyList_Append(events, event) < 0) {
                Py_XDECREF(event);
                goto done;
            }
            Py_DECREF(event);
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(announcers); i++) {
                if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(announcers, i))) {
                    PyErr_SetString(PyExc_TypeError, "game_moments: a name is not a str");
                    goto done;
                }
                text = PyUnicode_FromFormat("%U announces Lost (LOST card on tile %zd)",
                                            PyTuple_GET_ITEM(announcers, i), height);
                event = text == NULL ? NULL : pg_event(make, event_type, text, where, 0);
                Py_XDECREF(text);
                if (event == NULL || PyList_Append(events, event) < 0) {
                    Py_XDECREF(event);
                    goto done;
                }
                Py_DECREF(event);
            }
            count += PyTuple_GET_SIZE(announcers);
        }
        /* Builder._notes: said once a key (the cards announced, Lost, the height where the
         * path holds to the last tile) */
        PyObject *key = Py_BuildValue("(nOn)", count, lost_now ? Py_True : Py_False,
                                      never_lost && height >= whole ? height : (Py_ssize_t)-1);
        if (key == NULL) {
            goto done;
        }
        PyObject *known = PyDict_GetItemWithError(said, key);
        if (known == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(key);
                goto done;
            }
            PyObject *h = PyLong_FromSsize_t(height), *c = PyLong_FromSsize_t(count);
            PyObject *asked[3] = {traced, h, c};
            known = h == NULL || c == NULL ? NULL : PyObject_Vectorcall(make_notes, asked, 3, NULL);
            Py_XDECREF(h);
            Py_XDECREF(c);
            if (known == NULL || !PyList_Check(known) || PyDict_SetItem(said, key, known) < 0) {
                if (known != NULL && !PyList_Check(known)) {
                    PyErr_SetString(PyExc_TypeError, "game_moments: make_notes gives a list");
                }
                Py_XDECREF(known);
                Py_DECREF(key);
                goto done;
            }
            Py_DECREF(known); /* the dict holds it */
        }
        Py_DECREF(key);
        static const int note_names[3] = {PG_TEXT, PG_KIND, PG_RULE};
        PyObject *note_values[3] = {PyList_GET_ITEM(hands, turn), info, Py_None};
        if (!PyUnicode_CheckExact(tile)) {
            PyErr_SetString(PyExc_TypeError, "game_moments: a tile is not a str");
            goto done;
        }
        PyObject *hand = pg_object(make, note_type, note_names, note_values, 3);
        if (hand == NULL) {
            goto done;
        }
        notes = PyList_GetSlice(known, 0, PyList_GET_SIZE(known));
        if (notes == NULL || PyList_Append(notes, hand) < 0) {
            Py_DECREF(hand);
            goto done;
        }
        Py_DECREF(hand);
        caption = PyUnicode_FromFormat("Exploration %ld, turn %zd: %U (%zd tile%s)", number, turn,
                                       tile, height, height == 1 ? "" : "s");
        base = caption == NULL ? NULL : PyUnicode_FromFormat("%ld.%zd", number, turn);
        if (base == NULL || pg_moments(la, add, base, caption, events, picture, notes, scores) < 0) {
            goto done;
        }
        Py_CLEAR(where);
        Py_CLEAR(caption);
        Py_CLEAR(base);
        Py_CLEAR(events);
        Py_CLEAR(notes);
    }
    result = Py_None;
    Py_INCREF(result);
done:
    Py_DECREF(said);
    Py_XDECREF(where);
    Py_XDECREF(caption);
    Py_XDECREF(base);
    Py_XDECREF(events);
    Py_XDECREF(notes);
    return result;
}
