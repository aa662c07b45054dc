/* pathcheck._speedups, part of the one translation unit _speedups.c: the rounds of the ruling
 * on a clean Memoarrr! log, worded from memoarrr_replay's trace (memoarrr.c describes it), as
 * games/memoarrr/fast.py words them in Python (the plain reference the tests compare with).
 * Included after dungeon_word.c, whose DwText pieces and dw_int it uses.
 *
 * memoarrr_word(rounds, players, kit) -> [Round, ...]. What recurs from log to log is said
 * once by Python and kept in caches, per player name and code: the start events, titles and
 * treasure events (`word(name, code)` -> (text, rule, fact)) and the MoveRefs
 * (`move(name, code)`); what seldom recurs (a failed reveal's or a swap's cards and places) is
 * worded here from the texts of the cards, places and volcanoes. */

#define MW_TITLE 1000000L    /* + (number * 4096 + turns) * 32 + face_up: a round's title */
#define MW_TREASURE 3000000L    /* + the treasure: the treasure event of its taker */
/* below MW_TITLE: number * 16 + held + 1, the start event of round `number` */

enum {
    MW_EVENT, MW_ROUND, MW_SAID, MW_WORD, MW_MOVES, MW_MOVE, MW_VOLCANO_FACT, MW_SWAP_FACT,
    MW_CARDS, MW_PLACES, MW_VOLCANOES, MW_CONNECT, MW_SWAP_RULE, MW_ALL_REVEALED, MW_TAKES,
    MW_NEVER_SEEN, MW_UNFINISHED, MW_KIT
};

/* What `word` said, checked to be a (text, rule, fact) tuple; a new reference or NULL. */
static PyObject *mw_said(PyObject *const *kit, PyObject *name, long code) {
    PyObject *said = kept_by_name(kit[MW_SAID], kit[MW_WORD], name, code, NULL);
    if (said && (!PyTuple_CheckExact(said) || PyTuple_GET_SIZE(said) != 3 ||
                 !PyUnicode_CheckExact(PyTuple_GET_ITEM(said, 0)))) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word: word must give (text, rule, fact)");
        Py_CLEAR(said);
    }
    return said;
}

/* Append Event(text, move, rule, points, fact) to `events`, stealing the references to
 * `text`, `move`, `points` and `fact` (any of them NULL: an error already set); -1 on an
 * error. */
static int mw_append(PyObject *events, PyObject *const *kit, PyObject *text, PyObject *move,
                     PyObject *rule, PyObject *points, PyObject *fact) {
    int rc = -1;
    if (!text || !move || !points || !fact) goto done;
    PyObject *args[5] = {text, move, rule, points, fact};
    PyObject *event = PyObject_Vectorcall(kit[MW_EVENT], args, 5, NULL);
    if (!event) goto done;
    rc = PyList_Append(events, event);
    Py_DECREF(event);
done:
    Py_XDECREF(text);
    Py_XDECREF(move);
    Py_XDECREF(points);
    Py_XDECREF(fact);
    return rc;
}

/* Append the event of a said (text, rule, fact) (stolen) with no move and `points` (stolen). */
static int mw_append_said(PyObject *events, PyObject *const *kit, PyObject *said,
                          PyObject *points) {
    if (!said) {
        Py_XDECREF(points);
        return -1;
    }
    PyObject *text = Py_NewRef(PyTuple_GET_ITEM(said, 0)), *rule = PyTuple_GET_ITEM(said, 1),
             *fact = Py_NewRef(PyTuple_GET_ITEM(said, 2));
    int rc = mw_append(events, kit, text, Py_NewRef(Py_None), rule, points, fact);
    Py_DECREF(said);
    return rc;
}

/* The str of DwText `b`, or NULL with an error set. */
static PyObject *mw_text(DwText *b) {
    PyObject *text = dwt_done(b);
    if (!text && !PyErr_Occurred()) PyErr_NoMemory();
    return text;
}

/* Item `i` of tuple `table` as a str (a new reference), or NULL with an error set. */
static PyObject *mw_item(PyObject *table, int i) {
    if (i < 0 || i >= PyTuple_GET_SIZE(table) || !PyUnicode_CheckExact(PyTuple_GET_ITEM(table,
                                                                                         i))) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word: a trace's value out of range");
        return NULL;
    }
    return Py_NewRef(PyTuple_GET_ITEM(table, i));
}

/* Append the event of one traced move (kind, index, seat, a, b, c, d) of round `number`. */
static int mw_move_event(PyObject *events, PyObject *const *kit, PyObject *const *names, int n,
                         int number, PyObject *traced, int *out_seats) {
    int v[7];
    if (!PyTuple_CheckExact(traced) || PyTuple_GET_SIZE(traced) != 7) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word: an event is not a 7-tuple");
        return -1;
    }
    for (int k = 0; k < 7; k++)
        if (dw_int(traced, k, &v[k])) return -1;
    int kind = v[0], index = v[1], seat = v[2];
    if (seat < 0 || seat >= n || index < 1 || index >= 4096) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word: a move out of range");
        return -1;
    }
    PyObject *player = names[seat];
    PyObject *move =
        kept_by_name(kit[MW_MOVES], kit[MW_MOVE], player, number * 4096L + index, NULL);
    if (!move) return -1;
    PyObject *volcano = NULL, *text = NULL, *fact = NULL, *rule;
    if (kind == M_FAIL || kind == M_TAKE) {
        out_seats[seat] = 1;
        if (!(volcano = mw_item(kit[MW_VOLCANOES], v[6]))) goto fail;
    }
    if (kind == M_FAIL) {
        PyObject *at = mw_item(kit[MW_PLACES], v[3]), *card = mw_item(kit[MW_CARDS], v[4]),
                 *previous = mw_item(kit[MW_CARDS], v[5]);
        if (at && card && previous) {
            DwText b;
            dwt_init(&b);
            dwt_cstr(&b, "reveals ");
            dwt_str(&b, at);
            dwt_cstr(&b, " ");
            dwt_str(&b, card);
            dwt_cstr(&b, ", which connects with neither the animal nor the landscape of ");
            dwt_str(&b, previous);
            dwt_cstr(&b, ": takes the ");
            dwt_str(&b, volcano);
            dwt_cstr(&b, " volcano, out");
            text = mw_text(&b);
            PyObject *fields[5] = {player, at, card, previous, volcano};
            if (text) fact = PyObject_Vectorcall(kit[MW_VOLCANO_FACT], fields, 5, NULL);
        }
        Py_XDECREF(at);
        Py_XDECREF(card);
        Py_XDECREF(previous);
        rule = kit[MW_CONNECT];
    } else if (kind == M_TAKE) {
        text = mw_item(kit[MW_TAKES], v[6]);
        PyObject *fields[5] = {player, Py_None, Py_None, Py_None, volcano};
        if (text) fact = PyObject_Vectorcall(kit[MW_VOLCANO_FACT], fields, 5, NULL);
        rule = kit[MW_ALL_REVEALED];
    } else if (kind == M_SWAP) {
        PyObject *a = mw_item(kit[MW_PLACES], v[3]), *b = mw_item(kit[MW_PLACES], v[4]);
        PyObject *at_b = v[5] < 0 ? Py_NewRef(kit[MW_NEVER_SEEN]) : mw_item(kit[MW_CARDS], v[5]);
        PyObject *at_a = v[6] < 0 ? Py_NewRef(kit[MW_NEVER_SEEN]) : mw_item(kit[MW_CARDS], v[6]);
        if (a && b && at_b && at_a) {
            DwText t;
            dwt_init(&t);
            dwt_cstr(&t, "octopus swap: ");
            dwt_str(&t, at_b);
            dwt_cstr(&t, " ");
            dwt_str(&t, a);
            dwt_cstr(&t, " -> ");
            dwt_str(&t, b);
            dwt_cstr(&t, ", ");
            dwt_str(&t, at_a);
            dwt_cstr(&t, " ");
            dwt_str(&t, b);
            dwt_cstr(&t, " -> ");
            dwt_str(&t, a);
            text = mw_text(&t);
            PyObject *fields[5] = {player, a, b, at_b, at_a};
            if (text) fact = PyObject_Vectorcall(kit[MW_SWAP_FACT], fields, 5, NULL);
        }
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(at_b);
        Py_XDECREF(at_a);
        rule = kit[MW_SWAP_RULE];
    } else {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word: an event of no known kind");
        goto fail;
    }
    Py_XDECREF(volcano);
    return mw_append(events, kit, text, move, rule, text && fact ? PyDict_New() : NULL, fact);
fail:
    Py_XDECREF(volcano);
    Py_DECREF(move);
    return -1;
}

/* {name: points}, a new dict; NULL on an error. */
static PyObject *mw_points(PyObject *name, long points) {
    PyObject *dict = PyDict_New(), *value = PyLong_FromLong(points);
    if (!dict || !value || PyDict_SetItem(dict, name, value)) {
        Py_XDECREF(dict);
        Py_XDECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    return dict;
}

/* The Round of one traced round (starter, held, turns, face_up, winner, treasure, events),
 * appended to `out`; `totals` the running scores, by seat. -1 on an error. */
static int mw_round(PyObject *out, PyObject *const *kit, PyObject *const *names, int n,
                    int number, PyObject *traced, long *totals) {
    int v[6];
    if (!PyTuple_CheckExact(traced) || PyTuple_GET_SIZE(traced) != 7 ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(traced, 6))) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word: a round is not a 7-tuple");
        return -1;
    }
    for (int k = 0; k < 6; k++)
        if (dw_int(traced, k, &v[k])) return -1;
    int starter = v[0], held = v[1], turns = v[2], face_up = v[3], winner = v[4];
    if (starter < 0 || starter >= n || held < -1 || held > 14 || turns < 0 || turns >= 4096 ||
        face_up < 0 || face_up > 31 || winner < -1 || winner >= n || v[5] < 0 || v[5] > 99) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word: a round's value out of range");
        return -1;
    }
    PyObject *trace_events = PyTuple_GET_ITEM(traced, 6);
    PyObject *events = PyList_New(0), *title = NULL, *scores = NULL;
    if (!events) return -1;
    if (mw_append_said(events, kit, mw_said(kit, names[starter], number * 16L + held + 1),
                       PyDict_New()) < 0)
        goto fail;
    int out_seats[M_MAX_PLAYERS] = {0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(trace_events); i++)
        if (mw_move_event(events, kit, names, n, number, PyTuple_GET_ITEM(trace_events, i),
                          out_seats) < 0)
            goto fail;
    if (winner >= 0) {
        totals[winner] += v[5];
        if (mw_append_said(events, kit, mw_said(kit, names[winner], MW_TREASURE + v[5]),
                           mw_points(names[winner], v[5])) < 0)
            goto fail;
    } else {  /* the log's last round, unfinished: who has no volcano yet */
        PyObject *still = PyList_New(0);
        if (!still) goto fail;
        for (int p = 0; p < n; p++)
            if (!out_seats[p] && PyList_Append(still, names[p]) < 0) {
                Py_DECREF(still);
                goto fail;
            }
        PyObject *said = PyObject_CallOneArg(kit[MW_UNFINISHED], still);
        Py_DECREF(still);
        if (said && (!PyTuple_CheckExact(said) || PyTuple_GET_SIZE(said) != 3)) {
            PyErr_SetString(PyExc_TypeError, "memoarrr_word: unfinished must give a 3-tuple");
            Py_CLEAR(said);
        }
        if (mw_append_said(events, kit, said, PyDict_New()) < 0) goto fail;
    }
    PyObject *titled = mw_said(kit, names[starter],
                               MW_TITLE + ((long)number * 4096 + turns) * 32 + face_up);
    if (!titled) goto fail;
    title = Py_NewRef(PyTuple_GET_ITEM(titled, 0));
    Py_DECREF(titled);
    if (!(scores = PyDict_New())) goto fail;
    for (int p = 0; p < n; p++) {
        PyObject *value = PyLong_FromLong(totals[p]);
        if (!value || PyDict_SetItem(scores, names[p], value)) {
            Py_XDECREF(value);
            goto fail;
        }
        Py_DECREF(value);
    }
    PyObject *num = PyLong_FromLong(number);
    if (!num) goto fail;
    PyObject *args[4] = {num, title, events, scores};
    PyObject *round = PyObject_Vectorcall(kit[MW_ROUND], args, 4, NULL);
    Py_DECREF(num);
    if (!round) goto fail;
    int rc = PyList_Append(out, round);
    Py_DECREF(round);
    Py_DECREF(events);
    Py_DECREF(title);
    Py_DECREF(scores);
    return rc;
fail:
    Py_DECREF(events);
    Py_XDECREF(title);
    Py_XDECREF(scores);
    return -1;
}

static PyObject *memoarrr_word(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rounds, *players, *kit_tuple;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &rounds, &PyTuple_Type, &players,
                          &PyTuple_Type, &kit_tuple))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    if (n < 1 || n > M_MAX_PLAYERS || PyTuple_GET_SIZE(kit_tuple) != MW_KIT ||
        PyTuple_GET_SIZE(rounds) > M_ROUNDS) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_word: 1-4 players, a kit of 17, 7 rounds");
        return NULL;
    }
    PyObject *kit[MW_KIT], *names[M_MAX_PLAYERS];
    for (int k = 0; k < MW_KIT; k++) kit[k] = PyTuple_GET_ITEM(kit_tuple, k);
    for (Py_ssize_t p = 0; p < n; p++) {
        names[p] = PyTuple_GET_ITEM(players, p);
        if (!PyUnicode_CheckExact(names[p])) {
            PyErr_SetString(PyExc_TypeError, "memoarrr_word: a player's name is no str");
            return NULL;
        }
    }
    if (!PyDict_CheckExact(kit[MW_SAID]) || !PyDict_CheckExact(kit[MW_MOVES]) ||
        !PyTuple_CheckExact(kit[MW_CARDS]) || !PyTuple_CheckExact(kit[MW_PLACES]) ||
        !PyTuple_CheckExact(kit[MW_VOLCANOES]) || !PyTuple_CheckExact(kit[MW_TAKES]) ||
        !PyUnicode_CheckExact(kit[MW_NEVER_SEEN])) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_word: a kit's item of the wrong type");
        return NULL;
    }
    /* Held while the rounds are made: a call into Python (word, move) could drop them. */
    Py_INCREF(kit_tuple);
    Py_INCREF(players);
    Py_INCREF(rounds);
    long totals[M_MAX_PLAYERS] = {0};
    PyObject *out = PyList_New(0);
    for (Py_ssize_t r = 0; out && r < PyTuple_GET_SIZE(rounds); r++)
        if (mw_round(out, kit, names, (int)n, (int)r + 1, PyTuple_GET_ITEM(rounds, r),
                     totals) < 0)
            Py_CLEAR(out);
    Py_DECREF(kit_tuple);
    Py_DECREF(players);
    Py_DECREF(rounds);
    return out;
}
