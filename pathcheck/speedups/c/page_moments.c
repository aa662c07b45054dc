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

/* PyUnicode_FromFormat(fmt, ...) for the formats of this file (only %U, %zd and %s), written
 * straight where every text is ASCII and the whole is short: PyUnicode_FromFormat parses its
 * format and prints each number through the C library, some 3,000 instructions a text. */
static PyObject *pg_text(const char *fmt, ...) {
    char out[256];
    size_t n = 0;
    int ok = 1;
    va_list va, again;
    va_start(va, fmt);
    va_copy(again, va);
    for (const char *f = fmt; *f && ok; f++) {
        const char *part = NULL;
        size_t len = 0;
        char digits[24];
        if (*f != '%') {
            part = f;
            len = 1;
        } else if (f[1] == 'U') {
            PyObject *text = va_arg(va, PyObject *);
            ok = PyUnicode_IS_ASCII(text);
            part = (const char *)PyUnicode_1BYTE_DATA(text);
            len = ok ? (size_t)PyUnicode_GET_LENGTH(text) : 0;
            f++;
        } else if (f[1] == 's') {
            part = va_arg(va, const char *);
            len = strlen(part);
            f++;
        } else { /* %zd */
            Py_ssize_t v = va_arg(va, Py_ssize_t);
            char *end = digits + sizeof digits, *p = end;
            size_t u = v < 0 ? (size_t)0 - (size_t)v : (size_t)v;
            do {
                *--p = (char)('0' + u % 10);
                u /= 10;
            } while (u != 0);
            if (v < 0) {
                *--p = '-';
            }
            part = p;
            len = (size_t)(end - p);
            f += 2;
        }
        if (ok && n + len > sizeof out) {
            ok = 0;
        }
        if (ok) {
            memcpy(out + n, part, len);
            n += len;
        }
    }
    va_end(va);
    PyObject *made = ok ? PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, out, (Py_ssize_t)n)
        : PyUnicode_FromFormatV(fmt, again);
    va_end(again);
    return made;
}

static PyObject *pg_event(PyObject *make, PyObject *type, PyObject *text, PyObject *where, int lost) {
    static const int names[6] = {PG_TEXT, PG_WHERE, PG_RULE, PG_VIOLATION, PG_LOST, PG_MARK};
    PyObject *values[6] = {text, where, Py_None, Py_False, lost ? Py_True : Py_False, pg_empty};
    return pg_object(make, type, names, values, 6);
}

/* The notes said at a moment (Builder._notes): those of its key in said (borrowed), else
 * make_notes's, kept there. */
static PyObject *pg_said(PyObject *said, PyObject *make_notes, PyObject *traced, Py_ssize_t height,
                         Py_ssize_t count, int lost, Py_ssize_t hold) {
    PyObject *key = Py_BuildValue("(nOn)", count, lost ? Py_True : Py_False, hold);
    if (key == NULL) {
        return NULL;
    }
    PyObject *known = PyDict_GetItemWithError(said, key);
    if (known != NULL || PyErr_Occurred()) {
        Py_DECREF(key);
        return known;
    }
    PyObject *h = PyLong_FromSsize_t(height), *c = PyLong_FromSsize_t(count);
    PyObject *asked[3] = {traced, h, c};
    known = h == NULL || c == NULL ? NULL : PyObject_Vectorcall(make_notes, asked, 3, NULL);
    Py_XDECREF(h);
    Py_XDECREF(c);
    if (known != NULL && !PyList_Check(known)) {
        PyErr_SetString(PyExc_TypeError, "game_moments: make_notes gives a list");
        Py_CLEAR(known);
    }
    if (known == NULL || PyDict_SetItem(said, key, known) < 0) {
        Py_XDECREF(known);
        Py_DECREF(key);
        return NULL;
    }
    Py_DECREF(key);
    Py_DECREF(known); /* the dict holds it */
    return known;
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
    Py_ssize_t number = PyLong_AsSsize_t(args[10]);
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
    PyObject *last = NULL; /* the notes said last (held by said), and their key */
    Py_ssize_t last_count = -1, last_hold = -1;
    int last_lost = -1;
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
            where = pg_text("exploration %zd", number);
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
            where = pg_text("exploration %zd, turn %zd (%U)", number, turn, player);
            PyObject *text = where == NULL ? NULL
                : pg_text("%U places %U (stack tile %zd)", player, tile, height);
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
                text = pg_text("%U announces Lost (LOST card on tile %zd)",
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
        Py_ssize_t hold = never_lost && height >= whole ? height : -1;
        PyObject *known = last; /* the notes of the moment before (said holds them) */
        if (last == NULL || count != last_count || lost_now != last_lost || hold != last_hold) {
            known = pg_said(said, make_notes, traced, height, count, lost_now, hold);
            if (known == NULL) {
                goto done;
            }
            last = known;
            last_count = count;
            last_lost = lost_now;
            last_hold = hold;
        }
        static const int note_names[3] = {PG_TEXT, PG_KIND, PG_RULE};
        PyObject *note_values[3] = {PyList_GET_ITEM(hands, turn), info, Py_None};
        if (!PyUnicode_CheckExact(tile) || !PyUnicode_Check(note_values[0])) {
            PyErr_SetString(PyExc_TypeError, "game_moments: a tile or a hands' note is not a str");
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
        caption = pg_text("Exploration %zd, turn %zd: %U (%zd tile%s)", number, turn,
                                       tile, height, height == 1 ? "" : "s");
        base = caption == NULL ? NULL : pg_text("%zd.%zd", number, turn);
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
