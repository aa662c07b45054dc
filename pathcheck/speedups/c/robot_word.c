/* robot_replay: the rounds of a ruling of a clean robot-memory/1 log, worded from rm_replay's
 * replay (included after robot_replay.c and dungeon_word.c, whose text builder it uses), or
 * what the analysis needs of the same pass. */

/* The names of the places of a 20x20 grid ("r2c3"), made once. */
static PyObject *rw_places[20][20];

static PyObject *rw_place(int row, int column) {
    PyObject **place = &rw_places[row - 1][column - 1];
    if (!*place) *place = PyUnicode_FromFormat("r%dc%d", row, column);
    return *place;  /* borrowed (NULL with an error set) */
}

/* "/rounds/I/turns/T" (and "/chain/C") of a pick, a new str. */
static PyObject *rw_pointer(int round_index, const RmPick *pick) {
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "/rounds/");
    dwt_long(&b, round_index);
    dwt_cstr(&b, "/turns/");
    dwt_long(&b, pick->turn - 1);
    if (pick->chain >= 0) {
        dwt_cstr(&b, "/chain/");
        dwt_long(&b, pick->chain);
    }
    PyObject *out = dwt_done(&b);
    if (!out && !PyErr_Occurred()) PyErr_NoMemory();
    return out;
}

/* Each card's code as a grid shows it ("3R bulb", "SHORT"), by card code, made once. */
static char rw_codes[65][12];
static unsigned char rw_code_len[65];

static void rw_make_codes(void) {
    for (int code = 0; code < 64; code++)
        rw_code_len[code] = (unsigned char)snprintf(
            rw_codes[code], sizeof rw_codes[code], "%d%c %s", code % 4 + 1,
            RM_COLOURS[code / 4 % 4][0] - 'a' + 'A', RM_TYPES[code / 16]);
    memcpy(rw_codes[RM_SHORT], "SHORT", 6);
    rw_code_len[RM_SHORT] = 5;
}

/* The grid as at.render_grid draws it without face-up marks, into `b` (initialised here):
 * each column as wide as the widest text and two spaces, trailing spaces stripped. */
static void rw_grid_text(const RmRound *r, DwText *b);

/* The same, a new str. */
static PyObject *rw_grid(const RmRound *r) {
    DwText b;
    rw_grid_text(r, &b);
    PyObject *out = dwt_done(&b);
    if (!out && !PyErr_Occurred()) PyErr_NoMemory();
    return out;
}

static void rw_grid_text(const RmRound *r, DwText *out) {
    if (!rw_code_len[0]) rw_make_codes();
    int width = 1;  /* "." */
    for (int i = 0; i < r->rows; i++)
        for (int j = 0; j < r->columns; j++)
            if (r->cells[i][j] != RM_HOLE && rw_code_len[r->cells[i][j]] > width)
                width = rw_code_len[r->cells[i][j]];
    int pad = width + 2;
    char line[16 + 20 * 16];
    DwText b;
    dwt_init(&b);
    int n = 5;
    memset(line, ' ', sizeof line);
    for (int j = 1; j <= r->columns; j++, n += pad) {
        line[n] = 'c';
        if (j >= 10) {
            line[n + 1] = (char)('0' + j / 10);
            line[n + 2] = (char)('0' + j % 10);
        } else {
            line[n + 1] = (char)('0' + j);
        }
    }
    n -= pad - (r->columns >= 10 ? 3 : 2);  /* the last head, stripped */
    dwt_add(&b, line, n);
    for (int i = 0; i < r->rows; i++) {
        memset(line, ' ', sizeof line);
        line[0] = 'r';
        if (i + 1 >= 10) {
            line[1] = (char)('0' + (i + 1) / 10);
            line[2] = (char)('0' + (i + 1) % 10);
        } else {
            line[1] = (char)('0' + i + 1);
        }
        n = 5;
        int end = 0;
        for (int j = 0; j < r->columns; j++, n += pad) {
            int code = r->cells[i][j];
            if (code == RM_HOLE) {
                line[n] = '.';
                end = n + 1;
            } else {
                memcpy(line + n, rw_codes[code], rw_code_len[code]);
                end = n + rw_code_len[code];
            }
        }
        dwt_cstr(&b, "\n");
        dwt_add(&b, line, end);
    }
    *out = b;
    if (b.buf == b.small) out->buf = out->small;  /* the text moved with the struct */
}

/* kit: (Event, Round, MoveRef, GuessFact, LayoutFact, StartFact, the rule of the next round's
 * first player, the names of MoveRef's fields) */
enum { K_EVENT, K_ROUND, K_MOVE, K_GUESS, K_LAYOUT, K_START, K_FEWEST, K_MOVE_NAMES, K_SIZE };

/* Event(text, move, rule, points, fact) appended to `events` (stealing text, move, points and
 * fact); -1 on an error. */
static int rw_event(PyObject *const *kit, PyObject *events, PyObject *text, PyObject *move,
                    PyObject *rule, PyObject *points, PyObject *fact) {
    int status = -1;
    if (text && move && points && fact) {
        PyObject *args[5] = {text, move, rule, points, fact};
        PyObject *event = PyObject_Vectorcall(kit[K_EVENT], args, 5, NULL);
        if (event) {
            status = PyList_Append(events, event) ? -1 : 0;
            Py_DECREF(event);
        }
    }
    Py_XDECREF(text);
    Py_XDECREF(move);
    Py_XDECREF(points);
    Py_XDECREF(fact);
    return status;
}

/* Round i's title (from 0), "Round 2 (first active: Ann)", into `b`. */
static void rw_title_words(DwText *b, const RmGame *g, const RmRound *r, int i) {
    dwt_cstr(b, "Round ");
    dwt_long(b, i + 1);
    dwt_cstr(b, " (first active: ");
    dwt_str(b, g->sides[r->first]);
    dwt_cstr(b, ")");
}

/* The layout's and the first player's events of round `number`; -1 on an error. */
static int rw_opening(const RmGame *g, const RmRound *r, int number, PyObject *const *kit,
                      PyObject *events) {
    DwText b;
    dwt_init(&b);
    dwt_long(&b, r->memory);
    dwt_cstr(&b, r->memory == 1 ? " memory card and " : " memory cards and ");
    dwt_long(&b, r->shorts);
    dwt_cstr(&b, r->shorts == 1 ? " short circuit, " : " short circuits, ");
    dwt_long(&b, r->rows);
    dwt_cstr(&b, "x");
    dwt_long(&b, r->columns);
    PyObject *text = dwt_done(&b);
    if (!text && !PyErr_Occurred()) PyErr_NoMemory();
    PyObject *fact = Py_BuildValue("(iiii)", r->memory, r->shorts, r->rows, r->columns);
    if (fact) Py_SETREF(fact, PyObject_Call(kit[K_LAYOUT], fact, NULL));
    Py_INCREF(Py_None);
    if (rw_event(kit, events, text, Py_None, Py_None, PyDict_New(), fact)) return -1;
    PyObject *first = g->sides[r->first];
    dwt_init(&b);
    dwt_str(&b, first);
    dwt_cstr(&b, number == 1 ? " is the first active player (chosen at random)"
                             : r->tie ? " starts: fewest points (a tie, any of them)"
                                      : " starts: fewest points");
    text = dwt_done(&b);
    if (!text && !PyErr_Occurred())
        text = PyUnicode_FromFormat(number == 1 ? "%U is the first active player (chosen at "
                                                  "random)"
                                    : r->tie ? "%U starts: fewest points (a tie, any of them)"
                                             : "%U starts: fewest points", first);
    fact = number == 1 ? Py_BuildValue("(Ois)", first, number, "random")
                       : Py_BuildValue("(OisOO)", first, number, "fewest-points", Py_None,
                                       r->tie ? Py_True : Py_False);
    if (fact) Py_SETREF(fact, PyObject_Call(kit[K_START], fact, NULL));
    Py_INCREF(Py_None);
    return rw_event(kit, events, text, Py_None, number == 1 ? Py_None : kit[K_FEWEST],
                    PyDict_New(), fact);
}

/* The event of one pick; -1 on an error. */
static int rw_pick(const RmGame *g, const RmPick *pick, int index, PyObject *const *kit,
                   PyObject *events) {
    PyObject *said = PyList_GET_ITEM(g->said, pick->code);  /* checked by rm_pick */
    PyObject *where = rw_place(pick->row, pick->column), *side = g->sides[pick->side];
    if (!where) return -1;
    DwText b;
    dwt_init(&b);
    dwt_str(&b, pick->chooser);
    dwt_cstr(&b, pick->chain >= 0 ? " chooses " : " points at ");
    dwt_str(&b, where);
    dwt_cstr(&b, pick->chain >= 0 ? " (after a short circuit); " : " for ");
    if (pick->chain < 0) {
        dwt_str(&b, pick->guesser);
        dwt_cstr(&b, "; ");
    }
    dwt_str(&b, pick->guesser);
    dwt_str(&b, PyTuple_GET_ITEM(said, 0));
    PyObject *text = dwt_done(&b);
    if (!text && !PyErr_Occurred())
        text = pick->chain >= 0
                   ? PyUnicode_FromFormat("%U chooses %U (after a short circuit); %U%U",
                                          pick->chooser, where, pick->guesser,
                                          PyTuple_GET_ITEM(said, 0))
                   : PyUnicode_FromFormat("%U points at %U for %U; %U%U", pick->chooser, where,
                                          pick->guesser, pick->guesser,
                                          PyTuple_GET_ITEM(said, 0));
    PyObject *number = PyLong_FromLong(index + 1), *turn = PyLong_FromLong(pick->turn),
             *pointer = rw_pointer(index, pick), *move = NULL, *fact = NULL, *points = NULL;
    if (number && turn && pointer) {
        PyObject *args[4] = {number, turn, pick->guesser, pointer};
        move = PyObject_Vectorcall(kit[K_MOVE], args, 0, kit[K_MOVE_NAMES]);
    }
    PyObject *value = PyTuple_GET_ITEM(said, 2);
    PyObject *fields[8] = {pick->chooser, pick->guesser, side, where, PyTuple_GET_ITEM(said, 4),
                           PyTuple_GET_ITEM(said, 5), PyTuple_GET_ITEM(said, 6), value};
    fact = PyObject_Vectorcall(kit[K_GUESS], fields, 8, NULL);
    if ((points = PyDict_New()) && PyDict_SetItem(points, side, value)) Py_CLEAR(points);
    Py_XDECREF(number);
    Py_XDECREF(turn);
    Py_XDECREF(pointer);
    return rw_event(kit, events, text, move, PyTuple_GET_ITEM(said, 1), points, fact);
}

/* The running scores after round `r`, a new dict in seat order. */
static PyObject *rw_scores(const RmGame *g, const RmRound *r) {
    PyObject *dict = PyDict_New();
    for (int s = 0; dict && s < g->nsides; s++) {
        PyObject *value = PyLong_FromLong(r->scores[s]);
        if (!value || PyDict_SetItem(dict, g->sides[s], value)) Py_CLEAR(dict);
        Py_XDECREF(value);
    }
    return dict;
}

/* The Rounds of the ruling, a new list; NULL on an error. */
static PyObject *rw_rounds(const RmGame *g, PyObject *const *kit) {
    PyObject *rounds = PyList_New(0);
    for (int i = 0; rounds && i < RM_ROUNDS; i++) {
        const RmRound *r = &g->rounds[i];
        PyObject *events = PyList_New(0), *round = NULL;
        int failed = !events || rw_opening(g, r, i + 1, kit, events);
        for (int k = 0; !failed && k < r->npicks; k++) {
            failed = rw_pick(g, &r->picks[k], i, kit, events) != 0;
        }
        if (!failed) {
            DwText b;
            dwt_init(&b);
            rw_title_words(&b, g, r, i);
            PyObject *title = dwt_done(&b);
            if (!title && !PyErr_Occurred())
                title = PyUnicode_FromFormat("Round %d (first active: %U)", i + 1,
                                             g->sides[r->first]);
            PyObject *number = PyLong_FromLong(i + 1), *tuple = PyList_AsTuple(events),
                     *scores = rw_scores(g, r), *grid = rw_grid(r);
            if (title && number && tuple && scores && grid) {
                PyObject *args[5] = {number, title, tuple, scores, grid};
                round = PyObject_Vectorcall(kit[K_ROUND], args, 5, NULL);
            }
            Py_XDECREF(title);
            Py_XDECREF(number);
            Py_XDECREF(tuple);
            Py_XDECREF(scores);
            Py_XDECREF(grid);
        }
        Py_XDECREF(events);
        if (!round || PyList_Append(rounds, round)) Py_CLEAR(rounds);
        Py_XDECREF(round);
    }
    return rounds;
}

/* `count` spaces. */
static void rw_spaces(DwText *b, Py_ssize_t count) {
    static const char spaces[] = "                                ";
    for (; count > 0; count -= 32) dwt_add(b, spaces, count < 32 ? count : 32);
}

/* A number right-aligned in `width` characters. */
static void rw_right(DwText *b, long value, int width) {
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%ld", value);
    rw_spaces(b, width - n);
    dwt_add(b, digits, n);
}

/* The final table as at.score_table draws it (names padded by their length in characters),
 * a new str; NULL with an error set, or NULL with none if a name has no UTF-8 form. */
static PyObject *rw_table(const RmGame *g) {
    Py_ssize_t width = 11;  /* "Final table" */
    for (int s = 0; s < g->nsides; s++)
        if (PyUnicode_GET_LENGTH(g->sides[s]) > width) width = PyUnicode_GET_LENGTH(g->sides[s]);
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "Final table");
    rw_spaces(&b, width - 11);
    for (int i = 0; i < RM_ROUNDS; i++) {
        dwt_cstr(&b, "   R");
        dwt_long(&b, i + 1);
    }
    dwt_cstr(&b, "  total");
    for (int s = 0; s < g->nsides; s++) {
        dwt_cstr(&b, "\n");
        dwt_str(&b, g->sides[s]);
        rw_spaces(&b, width - PyUnicode_GET_LENGTH(g->sides[s]));
        long before = 0;
        for (int i = 0; i < RM_ROUNDS; i++) {
            dwt_cstr(&b, " ");
            rw_right(&b, g->rounds[i].scores[s] - before, 4);
            before = g->rounds[i].scores[s];
        }
        dwt_cstr(&b, " ");
        rw_right(&b, before, 6);
    }
    return dwt_done(&b);
}

/* The analysis's moves: an AnalysedMove (kit[K_MOVE] given for analysis) of each guess, its
 * judgement from `judged` (by said's index: (named, seen, best, mark, why, rule, cost,
 * value, grade), filled by judge(index) the first time); with the final scores by seat:
 * (scores, moves), a new tuple; NULL on an error. */
static PyObject *rw_moves(const RmGame *g, PyObject *AnalysedMove, PyObject *judged,
                          PyObject *judge) {
    PyObject *moves = PyList_New(0), *scores = PyTuple_New(g->nsides);
    for (int s = 0; scores && s < g->nsides; s++) {
        PyObject *value = PyLong_FromLong(g->rounds[RM_ROUNDS - 1].scores[s]);
        if (!value) Py_CLEAR(scores);
        else PyTuple_SET_ITEM(scores, s, value);
    }
    for (int i = 0; moves && scores && i < RM_ROUNDS; i++) {
        const RmRound *r = &g->rounds[i];
        for (int k = 0; moves && k < r->npicks; k++) {
            const RmPick *pick = &r->picks[k];
            PyObject *one = PyList_GET_ITEM(judged, pick->code), *move = NULL;
            if (one == Py_None) {
                PyObject *key = PyLong_FromLong(pick->code);
                one = key ? PyObject_CallOneArg(judge, key) : NULL;
                Py_XDECREF(key);
                if (!one) {
                    Py_CLEAR(moves);
                    break;
                }
                PyList_SetItem(judged, pick->code, one);  /* steals; stays borrowed */
            }
            if (!PyTuple_CheckExact(one) || PyTuple_GET_SIZE(one) != 9 ||
                !PyUnicode_CheckExact(PyTuple_GET_ITEM(one, 0)) ||
                !PyUnicode_CheckExact(PyTuple_GET_ITEM(one, 1))) {
                PyErr_SetString(PyExc_TypeError, "robot_replay: judge must give 9 fields");
                Py_CLEAR(moves);
                break;
            }
            PyObject *where = rw_place(pick->row, pick->column);
            PyObject *pointer = where ? rw_pointer(i, pick) : NULL, *did = NULL, *knew = NULL;
            PyObject *number = PyLong_FromLong(i + 1), *turn = PyLong_FromLong(pick->turn),
                     *age = PyLong_FromLong(k + 1);
            if (pointer) {
                DwText b;
                dwt_init(&b);
                dwt_cstr(&b, "names ");
                dwt_str(&b, PyTuple_GET_ITEM(one, 0));
                dwt_cstr(&b, " for ");
                dwt_str(&b, where);
                did = dwt_done(&b);
                dwt_init(&b);
                dwt_str(&b, where);
                dwt_cstr(&b, " was ");
                dwt_str(&b, PyTuple_GET_ITEM(one, 1));
                dwt_cstr(&b, " at setup");
                knew = dwt_done(&b);
                if ((!did || !knew) && !PyErr_Occurred()) PyErr_NoMemory();
            }
            if (did && knew && number && turn && age) {
                PyObject *fields[15] = {
                    number, turn, pick->guesser, did, knew, PyTuple_GET_ITEM(one, 2),
                    PyTuple_GET_ITEM(one, 3), PyTuple_GET_ITEM(one, 4), Py_None,
                    PyTuple_GET_ITEM(one, 5), pointer, PyTuple_GET_ITEM(one, 6),
                    PyTuple_GET_ITEM(one, 7), PyTuple_GET_ITEM(one, 8), age};
                move = PyObject_Vectorcall(AnalysedMove, fields, 15, NULL);
            }
            Py_XDECREF(pointer);
            Py_XDECREF(did);
            Py_XDECREF(knew);
            Py_XDECREF(number);
            Py_XDECREF(turn);
            Py_XDECREF(age);
            if (!move || PyList_Append(moves, move)) Py_CLEAR(moves);
            Py_XDECREF(move);
        }
    }
    PyObject *out = moves && scores ? PyTuple_Pack(2, scores, moves) : NULL;
    Py_XDECREF(moves);
    Py_XDECREF(scores);
    return out;
}

/* robot_replay(entry, unset, said, word, kit, analysis) -> None, or
 *   analysis None: (list of Rounds, the final table or None: Python draws it), the ruling's;
 *   analysis (AnalysedMove, judged, judge): (the final scores by seat, the moves), see
 *   rw_moves.
 * entry: a RobotMemoryEntry (games/robot_memory/log.py); unset: msgspec.UNSET; said: a list
 * of RM_CODES, None or what word(index) gave for it: (the event text's end, rule, points, a
 * short circuit named, the card and the guess as worded, the features named), filled here as
 * guesses meet cards; kit: see K_SIZE. None: the Python replay rules on the log. */
static PyObject *robot_replay(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *entry, *unset, *said, *word, *kit, *analysis;
    if (!PyArg_ParseTuple(args, "OOO!OO!O", &entry, &unset, &PyList_Type, &said, &word,
                          &PyTuple_Type, &kit, &analysis))
        return NULL;
    if (PyList_GET_SIZE(said) != RM_CODES || PyTuple_GET_SIZE(kit) != K_SIZE ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(kit, K_MOVE_NAMES))) {
        PyErr_SetString(PyExc_ValueError, "robot_replay: said or kit of the wrong size");
        return NULL;
    }
    if (analysis != Py_None &&
        (!PyTuple_CheckExact(analysis) || PyTuple_GET_SIZE(analysis) != 3 ||
         !PyList_CheckExact(PyTuple_GET_ITEM(analysis, 1)) ||
         PyList_GET_SIZE(PyTuple_GET_ITEM(analysis, 1)) != RM_CODES)) {
        PyErr_SetString(PyExc_ValueError, "robot_replay: analysis is no (type, judged, judge)");
        return NULL;
    }
    RmGame *g = PyMem_Calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    /* The callbacks may run any Python: hold what is borrowed from the arguments. */
    Py_INCREF(entry);
    Py_INCREF(said);
    Py_INCREF(word);
    Py_INCREF(kit);
    Py_INCREF(analysis);
    g->unset = unset;
    g->said = said;
    g->word = word;
    PyObject *out = NULL;
    int status = rm_replay(g, entry);
    if (status == 0) {
        out = Py_None;
        Py_INCREF(out);
    } else if (status > 0) {
        if (analysis != Py_None) {
            out = rw_moves(g, PyTuple_GET_ITEM(analysis, 0), PyTuple_GET_ITEM(analysis, 1),
                           PyTuple_GET_ITEM(analysis, 2));
        } else {
            PyObject *rounds = rw_rounds(g, &PyTuple_GET_ITEM(kit, 0));
            PyObject *table = rounds ? rw_table(g) : NULL;
            if (rounds && !table && !PyErr_Occurred()) {  /* a name with no UTF-8 form */
                table = Py_None;
                Py_INCREF(table);
            }
            out = table ? PyTuple_Pack(2, rounds, table) : NULL;
            Py_XDECREF(rounds);
            Py_XDECREF(table);
        }
    }
    Py_DECREF(entry);
    Py_DECREF(said);
    Py_DECREF(word);
    Py_DECREF(kit);
    Py_DECREF(analysis);
    PyMem_Free(g);
    return out;
}
