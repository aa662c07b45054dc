/* pathcheck._speedups, part of the one translation unit _speedups.c (after dungeon_word.c,
 * whose DwText it builds texts with, and memo_dice_replay.c, whose replay it words): the
 * rounds of the ruling on a clean memo-dice/1 log, each event worded, byte for byte, as
 * games/memo_dice/state.py's Replay words it. What recurs from log to log (a cover's text
 * and fact, a move's JSON pointer, a symbol's repr) is made once and kept in dicts that
 * Python hands over (games/memo_dice/fast.py). */

/* The kit Python hands over (fast.py, _KIT), by position: */
enum {
    MK_EVENT, MK_MOVE, MK_ROUND, MK_COVER, MK_CUP, MK_POINTS, MK_END, MK_START,
    MK_GOLDEN_LAST, MK_GOLDEN_NO_CUP, MK_RIGHT, MK_WRONG, MK_POINTS_RULE, MK_END_RULE,
    MK_FIRST_RULE, MK_SAME, MK_COVERS, MK_POINTERS, MK_REPRS,
    MK_ROUND_ENTRY, MK_ROLL_ENTRY, MK_GUESS_ENTRY, MK_FACE_ENTRY, MK_SIZE
};

static const char *const MD_NAMES[4] = {"red", "blue", "black", "golden"};
static PyObject *md_cup_names[4], *md_golden_why[2], *md_golden_cup, *md_move_keys;

static int md_word_names(void) {
    if (md_move_keys) return 0;
    for (int c = 0; c < 4; c++)
        if (!(md_cup_names[c] = PyUnicode_InternFromString(MD_NAMES[c]))) return -1;
    if (!(md_golden_why[0] = PyUnicode_InternFromString("last-die")) ||
        !(md_golden_why[1] = PyUnicode_InternFromString("no-cup-left")) ||
        !(md_golden_cup = PyUnicode_InternFromString("golden-cup")))
        return -1;
    md_move_keys = Py_BuildValue("(ssss)", "round", "index", "player", "pointer");
    return md_move_keys ? 0 : -1;
}

/* A dict of the kit (its caches only grow during a call, so what they lend stays alive;
 * memo_dice_replay clears a large one before it starts). */
static PyObject *md_cache(PyObject *const *kit, int which) { return kit[which]; }

/* The JSON pointer of move i (from 0) of part (0 covering, 1 uncovering) of round r (from 0),
 * borrowed from the cache. */
static PyObject *md_pointer(PyObject *const *kit, int r, int part, int i) {
    PyObject *cache = md_cache(kit, MK_POINTERS);
    PyObject *key = PyLong_FromLong(((long)r * 2 + part) * 16 + i), *hit;
    if (!key) return NULL;
    hit = PyDict_GetItemWithError(cache, key);
    if (!hit && !PyErr_Occurred()) {
        hit = PyUnicode_FromFormat("/rounds/%d/%s/%d", r, part ? "uncovering" : "covering", i);
        if (hit) {
            int failed = PyDict_SetItem(cache, key, hit);
            Py_DECREF(hit);  /* the cache holds it */
            if (failed) hit = NULL;
        }
    }
    Py_DECREF(key);
    return hit;
}

/* MoveRef(round=, index=, player=, pointer=), a new reference. */
static PyObject *md_move(PyObject *const *kit, int number, int index, PyObject *player,
                         int part, int i) {
    PyObject *pointer = md_pointer(kit, number - 1, part, i), *round, *move = NULL;
    if (!pointer || !(round = PyLong_FromLong(number))) return NULL;
    PyObject *at = PyLong_FromLong(index);
    if (at) {
        PyObject *args[4] = {round, at, player, pointer};
        move = PyObject_Vectorcall(kit[MK_MOVE], args, 0, md_move_keys);
        Py_DECREF(at);
    }
    Py_DECREF(round);
    return move;
}

/* Append Event(text, move, rule, points or {}, fact) to `events` (stealing text and move,
 * which may be NULL: then an error is set); -1 on an error. */
static int md_event(PyObject *events, PyObject *const *kit, PyObject *text, PyObject *move,
                    PyObject *rule, PyObject *points, PyObject *fact) {
    PyObject *empty = NULL, *event = NULL;
    int status = -1;
    if (!text || !move) goto done;
    if (!points && !(points = empty = PyDict_New())) goto done;
    PyObject *args[5] = {text, move, rule, points, fact};
    if (!(event = PyObject_Vectorcall(kit[MK_EVENT], args, 5, NULL))) goto done;
    status = PyList_Append(events, event);
done:
    Py_XDECREF(text);
    Py_XDECREF(move);
    Py_XDECREF(empty);
    Py_XDECREF(event);
    return status;
}

/* The start of what an answer says ("names 'owl' for cup 3", "gives no answer for cup 4"),
 * into `b`; `said` the name's repr, NULL for no answer. */
static void md_guess_words(DwText *b, PyObject *said, long cupno) {
    if (said) {
        dwt_cstr(b, "names ");
        dwt_str(b, said);
    } else {
        dwt_cstr(b, "gives no answer");
    }
    dwt_cstr(b, " for cup ");
    dwt_long(b, cupno);
}

/* What a cover says ("rolls die 3: red owl; covers it with a red cup" ...), into `b`. */
static void md_cover_words(DwText *b, const MdCup *cup, int how) {
    const char *colour = MD_NAMES[cup->colour];
    dwt_cstr(b, "rolls die ");
    dwt_long(b, cup->die);
    dwt_cstr(b, ": ");
    dwt_cstr(b, colour);
    dwt_cstr(b, " ");
    dwt_str(b, cup->symbol);
    if (how == MD_PLAIN) {
        dwt_cstr(b, "; covers it with a ");
        dwt_cstr(b, MD_NAMES[cup->cup]);
        dwt_cstr(b, " cup");
        return;
    }
    if (how == MD_NO_CUP) {
        dwt_cstr(b, "; no ");
        dwt_cstr(b, colour);
        dwt_cstr(b, " cup left");
    } else {
        dwt_cstr(b, "; the last die");
        if (how == MD_LAST_NONE) {
            dwt_cstr(b, " (and no ");
            dwt_cstr(b, colour);
            dwt_cstr(b, " cup is left)");
        }
    }
    dwt_cstr(b, ": covers it with the golden cup, covering ends");
}

/* What a cover says: a (text, rule, fact) tuple borrowed from the cache, said once a
 * symbol, die, colour and way. */
static PyObject *md_cover_said(PyObject *const *kit, const MdCup *cup, int how) {
    PyObject *covers = md_cache(kit, MK_COVERS), *mine, *key, *hit = NULL;
    mine = PyDict_GetItemWithError(covers, cup->symbol);
    if (!mine) {
        if (PyErr_Occurred() || !(mine = PyDict_New())) return NULL;
        int failed = PyDict_SetItem(covers, cup->symbol, mine);
        Py_DECREF(mine);
        if (failed) return NULL;
    }
    if (!(key = PyLong_FromLong(cup->die * 64 + cup->colour * 16 + cup->cup * 4 + how)))
        return NULL;
    hit = PyDict_GetItemWithError(mine, key);
    if (hit || PyErr_Occurred()) goto done;
    PyObject *colour = md_cup_names[cup->colour], *text = NULL, *die = NULL, *fact = NULL;
    DwText b;
    dwt_init(&b);
    md_cover_words(&b, cup, how);
    text = dwt_done(&b);
    if (!text) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
        goto made;
    }
    if (!(die = PyLong_FromLong(cup->die))) goto made;
    PyObject *args[6] = {die, colour, cup->symbol, md_cup_names[cup->cup],
                         how == MD_PLAIN ? Py_None : md_golden_why[how == MD_NO_CUP],
                         how == MD_PLAIN || how == MD_LAST_LEFT ? Py_True : Py_False};
    if (!(fact = PyObject_Vectorcall(kit[MK_COVER], args, 6, NULL))) goto made;
    PyObject *rule = how == MD_PLAIN ? Py_None
                     : kit[how == MD_NO_CUP ? MK_GOLDEN_NO_CUP : MK_GOLDEN_LAST];
    PyObject *said = PyTuple_Pack(3, text, rule, fact);
    if (said) {
        if (!PyDict_SetItem(mine, key, said)) hit = said;
        Py_DECREF(said);  /* the cache holds it */
    }
made:
    Py_XDECREF(text);
    Py_XDECREF(die);
    Py_XDECREF(fact);
done:
    Py_DECREF(key);
    return hit;
}

/* repr() of a str, borrowed from the cache. */
static PyObject *md_repr(PyObject *const *kit, PyObject *text) {
    PyObject *cache = md_cache(kit, MK_REPRS);
    PyObject *hit = PyDict_GetItemWithError(cache, text);
    if (hit || PyErr_Occurred()) return hit;
    if (!(hit = PyObject_Repr(text))) return NULL;
    int failed = PyDict_SetItem(cache, text, hit);
    Py_DECREF(hit);
    return failed ? NULL : hit;
}

/* The event of an answer (cup k of the round, from 0). */
static int md_guess(PyObject *events, PyObject *const *kit, PyObject *const *names,
                    int number, const MdRound *r, int k, int *cited) {
    const MdCup *cup = &r->cups[k];
    PyObject *said = cup->named ? md_repr(kit, cup->named) : NULL;
    if (cup->named && !said) return -1;
    DwText b;
    dwt_init(&b);
    md_guess_words(&b, said, k + 1);
    if (cup->right) {
        dwt_cstr(&b, ": right, keeps the ");
    } else {
        PyObject *symbol = md_repr(kit, cup->symbol);
        if (!symbol) {
            if (b.buf != b.small) PyMem_Free(b.buf);
            return -1;
        }
        dwt_cstr(&b, " (it is ");
        dwt_str(&b, symbol);
        dwt_cstr(&b, "): the ");
    }
    dwt_str(&b, md_cup_names[cup->cup]);
    if (cup->right) {
        dwt_cstr(&b, " cup");
    } else {
        dwt_cstr(&b, " cup goes to ");
        dwt_str(&b, names[cup->holder]);
        dwt_cstr(&b, ", who goes on");
    }
    PyObject *text = dwt_done(&b), *at = NULL, *fact = NULL;
    if (!text && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    if (!text || !(at = PyLong_FromLong(k + 1))) goto fail;
    PyObject *args[7] = {at, md_cup_names[cup->cup], cup->symbol, names[cup->guesser],
                         cup->named ? cup->named : Py_None, cup->right ? Py_True : Py_False,
                         names[cup->holder]};
    if (!(fact = PyObject_Vectorcall(kit[MK_CUP], args, 7, NULL))) goto fail;
    Py_DECREF(at);
    int which = cup->right ? MK_RIGHT : MK_WRONG, bit = cup->right ? 1 : 2;
    PyObject *rule = *cited & bit ? Py_None : kit[which];
    *cited |= bit;
    int status = md_event(events, kit, text, md_move(kit, number, r->ncups + k + 1,
                                                     names[cup->guesser], 1, k),
                          rule, NULL, fact);
    Py_DECREF(fact);
    return status;
fail:
    Py_XDECREF(text);
    Py_XDECREF(at);
    return -1;
}

/* Append the round's points event (rules: POINTS) and the game's end or the next start. */
static int md_scoring(PyObject *events, PyObject *const *kit, PyObject *const *names, int n,
                      int number, const MdRound *r, int ended, long target) {
    PyObject *cups[MD_MAX_PLAYERS] = {0}, *points = PyDict_New(), *by = PyDict_New();
    PyObject *fact = NULL, *text = NULL, *scores = NULL, *reached = NULL, *winners = NULL;
    int status = -1, counts[MD_MAX_PLAYERS] = {0};
    DwText b;
    dwt_init(&b);
    if (!points || !by) goto done;
    for (int k = 0; k < r->ncups; k++) counts[r->cups[k].holder]++;
    dwt_cstr(&b, "points: ");
    int parts = 0;
    for (int p = 0; p < n; p++) {
        if (!counts[p]) continue;
        if (!(cups[p] = PyTuple_New(counts[p]))) goto done;
        if (parts++) dwt_cstr(&b, "; ");
        dwt_str(&b, names[p]);
        dwt_cstr(&b, " +");
        dwt_long(&b, r->gained[p]);
        dwt_cstr(&b, " (");
        for (int k = 0, i = 0; k < r->ncups; k++) {
            if (r->cups[k].holder != p) continue;
            PyObject *name = md_cup_names[r->cups[k].cup];
            if (i) dwt_cstr(&b, ", ");
            dwt_str(&b, name);
            Py_INCREF(name);
            PyTuple_SET_ITEM(cups[p], i++, name);
        }
        dwt_cstr(&b, ")");
        if (PyDict_SetItem(by, names[p], cups[p])) goto done;
        if (r->gained[p]) {
            PyObject *value = PyLong_FromLong(r->gained[p]);
            if (!value || PyDict_SetItem(points, names[p], value)) {
                Py_XDECREF(value);
                goto done;
            }
            Py_DECREF(value);
        }
    }
    if (!parts) dwt_cstr(&b, "nobody scores");
    text = dwt_done(&b);
    if (!text && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    if (!text || !(fact = PyObject_CallOneArg(kit[MK_POINTS], by))) goto done;
    Py_INCREF(Py_None);
    if (md_event(events, kit, text, Py_None, kit[MK_POINTS_RULE], points, fact)) {
        text = NULL;
        goto done;
    }
    text = NULL;
    Py_CLEAR(fact);
    dwt_init(&b);
    if (ended) {
        long best = 0;
        int nreached = 0, nwinners = 0;
        for (int p = 0; p < n; p++) {
            if (r->scores[p] > best) best = r->scores[p];
            nreached += r->scores[p] >= target;
        }
        for (int p = 0; p < n; p++) nwinners += r->scores[p] == best;
        if (!(reached = PyTuple_New(nreached)) || !(winners = PyTuple_New(nwinners)) ||
            !(scores = PyDict_New()))
            goto done;
        for (int p = 0, i = 0, w = 0; p < n; p++) {
            PyObject *value = PyLong_FromLong(r->scores[p]);
            if (!value || PyDict_SetItem(scores, names[p], value)) {
                Py_XDECREF(value);
                goto done;
            }
            Py_DECREF(value);
            if (r->scores[p] == best) {
                Py_INCREF(names[p]);
                PyTuple_SET_ITEM(winners, w++, names[p]);
            }
            if (r->scores[p] < target) continue;
            if (i) dwt_cstr(&b, " and ");
            dwt_str(&b, names[p]);
            Py_INCREF(names[p]);
            PyTuple_SET_ITEM(reached, i++, names[p]);
        }
        dwt_cstr(&b, " reached ");
        dwt_long(&b, target);
        dwt_cstr(&b, " points: the game ends");
        PyObject *round = PyLong_FromLong(number), *goal = PyLong_FromLong(target);
        if (round && goal) {
            PyObject *args[5] = {round, reached, goal, scores, winners};
            fact = PyObject_Vectorcall(kit[MK_END], args, 5, NULL);
        }
        Py_XDECREF(round);
        Py_XDECREF(goal);
    } else {
        PyObject *holder = names[r->cups[r->ncups - 1].holder];
        dwt_str(&b, holder);
        dwt_cstr(&b, " had the golden cup: ");
        dwt_str(&b, holder);
        dwt_cstr(&b, " begins round ");
        dwt_long(&b, number + 1);
        PyObject *round = PyLong_FromLong(number + 1);
        if (round) {
            PyObject *args[3] = {holder, round, md_golden_cup};
            fact = PyObject_Vectorcall(kit[MK_START], args, 3, NULL);
            Py_DECREF(round);
        }
    }
    text = dwt_done(&b);
    if (!text && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    if (!text || !fact) goto done;
    Py_INCREF(Py_None);
    status = md_event(events, kit, text, Py_None, kit[ended ? MK_END_RULE : MK_FIRST_RULE], NULL,
                      fact);
    text = NULL;
done:
    if (b.buf != b.small) PyMem_Free(b.buf);
    for (int p = 0; p < n; p++) Py_XDECREF(cups[p]);
    Py_XDECREF(points);
    Py_XDECREF(by);
    Py_XDECREF(fact);
    Py_XDECREF(text);
    Py_XDECREF(scores);
    Py_XDECREF(reached);
    Py_XDECREF(winners);
    return status;
}

static void dwt_pad(DwText *t, Py_ssize_t n) {
    static const char spaces[] = "                                ";
    for (; n > 0; n -= 32) dwt_add(t, spaces, n < 32 ? n : 32);
}

/* The row as at.draw_row draws it (cups still covered too), a new str. */
static PyObject *md_row_of(PyObject *const *names, const MdCup *row, int count) {
    static const char *const CUPS[4] = {"red   ", "blue  ", "black ", "golden"};
    Py_ssize_t sym_w = 6, by_w = 9;
    for (int k = 0; k < count; k++) {
        Py_ssize_t w = PyUnicode_GET_LENGTH(row[k].symbol) + 3 +
                       (Py_ssize_t)strlen(MD_NAMES[row[k].colour]);
        if (w > sym_w) sym_w = w;
        if (PyUnicode_GET_LENGTH(names[row[k].coverer]) > by_w)
            by_w = PyUnicode_GET_LENGTH(names[row[k].coverer]);
    }
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "cup  colour  symbol");
    dwt_pad(&b, sym_w - 6);
    dwt_cstr(&b, "  rolled by");
    dwt_pad(&b, by_w - 9);
    dwt_cstr(&b, "  goes to");
    for (int k = 0; k < count; k++) {
        const MdCup *cup = &row[k];
        dwt_cstr(&b, "\n");
        dwt_pad(&b, k + 1 < 10 ? 2 : 1);
        dwt_long(&b, k + 1);
        dwt_cstr(&b, "  ");
        dwt_cstr(&b, CUPS[cup->cup]);
        dwt_cstr(&b, "  ");
        dwt_str(&b, cup->symbol);
        dwt_cstr(&b, " (");
        dwt_cstr(&b, MD_NAMES[cup->colour]);
        dwt_cstr(&b, ")");
        dwt_pad(&b, sym_w - PyUnicode_GET_LENGTH(cup->symbol) - 3 -
                        (Py_ssize_t)strlen(MD_NAMES[cup->colour]));
        dwt_cstr(&b, "  ");
        dwt_str(&b, names[cup->coverer]);
        dwt_pad(&b, by_w - PyUnicode_GET_LENGTH(names[cup->coverer]));
        dwt_cstr(&b, "  ");
        if (cup->holder < 0) {
            dwt_cstr(&b, "(covered)");
            continue;
        }
        dwt_str(&b, names[cup->holder]);
        if (cup->right) {
            dwt_cstr(&b, " (right guess)");
        } else {
            dwt_cstr(&b, " (");
            dwt_str(&b, names[cup->guesser]);
            dwt_cstr(&b, " was wrong)");
        }
    }
    PyObject *text = dwt_done(&b);
    if (!text && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    return text;
}

/* The row of cups of a round played out, a new str. */
static PyObject *md_row(PyObject *const *names, const MdRound *r) {
    return md_row_of(names, r->cups, r->ncups);
}

/* Round `number` (from 1) of the ruling, appended to `rounds`; -1 on an error. */
static int md_round(PyObject *rounds, PyObject *const *kit, PyObject *const *names, int n,
                    int number, const MdRound *r, int ended, long target) {
    PyObject *events = PyList_New(0), *tuple = NULL, *title = NULL, *scores = NULL,
             *display = NULL, *at = NULL, *round = NULL;
    int status = -1, cited = 0;
    if (!events) return -1;
    for (int k = 0; k < r->ncups; k++) {
        const MdCup *cup = &r->cups[k];
        int how = cup->cup == MD_GOLDEN ? r->golden : MD_PLAIN;
        PyObject *said = md_cover_said(kit, cup, how);
        if (!said) goto done;
        PyObject *text = PyTuple_GET_ITEM(said, 0);
        Py_INCREF(text);
        if (md_event(events, kit, text, md_move(kit, number, k + 1, names[cup->coverer], 0, k),
                     PyTuple_GET_ITEM(said, 1), NULL, PyTuple_GET_ITEM(said, 2)))
            goto done;
    }
    for (int k = 0; k < r->ncups; k++)
        if (md_guess(events, kit, names, number, r, k, &cited)) goto done;
    if (md_scoring(events, kit, names, n, number, r, ended, target)) goto done;
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "Round ");
    dwt_long(&b, number);
    dwt_cstr(&b, ": ");
    dwt_str(&b, names[r->first]);
    dwt_cstr(&b, " begins");
    title = dwt_done(&b);
    if (!title && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    if (!title || !(tuple = PyList_AsTuple(events)) || !(scores = PyDict_New())) goto done;
    for (int p = 0; p < n; p++) {
        PyObject *value = PyLong_FromLong(r->scores[p]);
        if (!value || PyDict_SetItem(scores, names[p], value)) {
            Py_XDECREF(value);
            goto done;
        }
        Py_DECREF(value);
    }
    if (!(display = md_row(names, r)) || !(at = PyLong_FromLong(number))) goto done;
    PyObject *args[5] = {at, title, tuple, scores, display};
    if (!(round = PyObject_Vectorcall(kit[MK_ROUND], args, 5, NULL))) goto done;
    status = PyList_Append(rounds, round);
done:
    Py_DECREF(events);
    Py_XDECREF(tuple);
    Py_XDECREF(title);
    Py_XDECREF(scores);
    Py_XDECREF(display);
    Py_XDECREF(at);
    Py_XDECREF(round);
    return status;
}

/* memo_dice_replay(rounds, players, dice, kit, target, word) -> rounds, scores or None
 * rounds, players, dice: a MemoDiceEntry's (dice None when it gives none); kit: a tuple
 * (see MK_*: the ruling's types, the rules cited, rules.same_symbol, the caches (dicts), the
 * log format's types); target: the points that end the game. With word, the list of the
 * ruling's Rounds; else the final scores in seat order (a tuple). None where the Python
 * replay would record a violation (it then rules and words the whole log). */
static PyObject *memo_dice_replay(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rounds, *players, *dice, *kit_tuple;
    long target;
    int word;
    if (!PyArg_ParseTuple(args, "O!O!OO!lp", &PyTuple_Type, &rounds, &PyTuple_Type, &players,
                          &dice, &PyTuple_Type, &kit_tuple, &target, &word))
        return NULL;
    if (PyTuple_GET_SIZE(kit_tuple) != MK_SIZE) {
        PyErr_SetString(PyExc_ValueError, "memo_dice_replay: a kit of the wrong size");
        return NULL;
    }
    PyObject *const *kit = &PyTuple_GET_ITEM(kit_tuple, 0);
    static const int caches[3] = {MK_COVERS, MK_POINTERS, MK_REPRS};
    static const Py_ssize_t most[3] = {4096, 1 << 16, 8192};
    for (int i = 0; i < 3; i++) {
        if (!PyDict_CheckExact(kit[caches[i]])) {
            PyErr_SetString(PyExc_TypeError, "memo_dice_replay: a cache is not a dict");
            return NULL;
        }
        if (PyDict_GET_SIZE(kit[caches[i]]) > most[i]) PyDict_Clear(kit[caches[i]]);
    }
    for (int i = MK_ROUND_ENTRY; i <= MK_FACE_ENTRY; i++) {
        if (!PyType_Check(kit[i])) {
            PyErr_SetString(PyExc_TypeError, "memo_dice_replay: a log type is not a type");
            return NULL;
        }
    }
    if (md_word_names()) return NULL;
    MdGame g;
    Py_INCREF(kit_tuple);  /* (what is borrowed stays held while callbacks run) */
    Py_INCREF(rounds);
    Py_INCREF(players);
    Py_INCREF(dice);
    PyObject *out = NULL;
    int status = md_replay(rounds, players, dice, kit + MK_ROUND_ENTRY, kit[MK_SAME], target,
                           &g);
    PyObject *const *names = &PyTuple_GET_ITEM(players, 0);
    if (status == 0) {
        out = Py_None;
        Py_INCREF(out);
    } else if (status > 0 && !word) {
        out = PyTuple_New(g.n);
        for (int p = 0; out && p < g.n; p++) {
            PyObject *value = PyLong_FromLong(g.rounds[g.nrounds - 1].scores[p]);
            if (!value) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, p, value);
        }
    } else if (status > 0) {
        out = PyList_New(0);
        for (int i = 0; out && i < g.nrounds; i++)
            if (md_round(out, kit, names, g.n, i + 1, &g.rounds[i],
                         g.ended && i == g.nrounds - 1, target))
                Py_CLEAR(out);
    }
    md_free(&g);
    Py_DECREF(kit_tuple);
    Py_DECREF(rounds);
    Py_DECREF(players);
    Py_DECREF(dice);
    return out;
}
