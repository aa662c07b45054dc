/* pathcheck._speedups, part of the one translation unit _speedups.c (after memo_dice_json.c,
 * whose writers it uses): a memo-dice/1 log replayed through its faults, as
 * games/memo_dice/state.py's Replay replays it (each move taken as played; covering that
 * goes on after the golden cup, or stops without it, ends the replay), and its ruling's
 * rounds written as the JSON msgspec would encode of the Replay's Rounds.
 *
 * Each fault is handed to Python's `word(code, round, index, seat, part, i, a, b, c, d, obj)`
 * (games/memo_dice/lenient.py), which words the Violation as the Replay does, keeps it, and
 * hands back the JSON of its "ILLEGAL: ..." event, written here in its place. What the
 * ruling needs besides the rounds (the notes, the game's end when a round follows it) is
 * handed back as numbers. Anything the Python reader or replay refuses (a cup that does not
 * exist, a name not at the table), or that is not plain (a type no decoder makes, more than
 * ML_MAX_ROLLS rolls in a round), is declined: None, and the Python replay rules on it.
 * tests/games/test_memo_dice_json.py compares every ruling with the Python replay's. */

#define ML_MAX_ROLLS 32

/* The faults, as lenient.py's F_* (and the Replay's _violate calls, in its order). */
enum {
    MLF_ROLL_AFTER_END, MLF_FIRST_PLAYER, MLF_TURN_ORDER, MLF_DIE_ONCE, MLF_NO_FACE,
    MLF_FACE_COLOUR, MLF_GOLDEN_EARLY, MLF_LAST_NOT_GOLDEN, MLF_NO_CUP_LEFT, MLF_CUP_COLOUR,
    MLF_COVERING_STOPS, MLF_UNCOVERED_TWICE, MLF_UNCOVER_TURN, MLF_UNCOVER_ORDER,
    MLF_NEVER_UNCOVERED
};

typedef struct {
    MdjW w;              /* w.out: the round being written (its events, then its tail) */
    Out main;           /* the rounds written so far */
    PyObject *word, *same;
    int n, rows;        /* seats; rounds scored (the final table's columns) */
    long scores[MD_MAX_PLAYERS];
    long *gained;       /* [rows * MD_MAX_PLAYERS]: each scored round's points */
} Ml;

/* A fault handed to `word`; its event's JSON written in the round's events. -1 on error. */
static int ml_fault(Ml *m, int code, int number, int index, int seat, int part, int i, long a,
                    long b, long c, long d, PyObject *obj) {
    long ints[10] = {code, number, index, seat, part, i, a, b, c, d};
    PyObject *args[11] = {0}, *said = NULL;
    int status = -1;
    for (int k = 0; k < 10; k++)
        if (!(args[k] = PyLong_FromLong(ints[k]))) goto done;
    args[10] = obj ? obj : Py_None;
    said = PyObject_Vectorcall(m->word, args, 11, NULL);
    if (!said) goto done;
    if (!PyBytes_CheckExact(said)) {
        PyErr_SetString(PyExc_TypeError, "memo_dice_lenient: word did not give bytes");
        goto done;
    }
    status = out_bytes(&m->w.out, said) || OUT_LIT(&m->w.out, ",") ? -1 : 0;
done:
    for (int k = 0; k < 10; k++) Py_XDECREF(args[k]);
    Py_XDECREF(said);
    return status;
}

/* The face of die `die` (1-9) showing `symbol` (exactly, else as rules.same_symbol says),
 * -1 if none; -2 on an error. */
static int ml_face(const MdDice *dice, int die, PyObject *symbol, PyObject *same) {
    for (int i = (die - 1) * MD_FACES; i < die * MD_FACES; i++)
        if (md_eq(dice->symbol[i], symbol)) return i;
    for (int i = (die - 1) * MD_FACES; i < die * MD_FACES; i++) {
        int found = md_same(dice->symbol[i], symbol, same);
        if (found < 0) return -2;
        if (found) return i;
    }
    return -1;
}



/* A roll's fields read: 1, 0 declined (not what the reader makes, a name not at the table),
 * -1 on an error. */
static int ml_roll(Ml *m, PyObject *roll, PyObject *Roll, MdCup *cup) {
    PyObject *f[5];
    if (Py_TYPE(roll) != (PyTypeObject *)Roll) return 0;
    if (md_fields(roll, md_roll_names, 5, &md_roll_layout, f)) return -1;
    memset(cup, 0, sizeof *cup);
    cup->coverer = md_seat(f[0], m->w.names, m->n);
    cup->die = md_int(f[1], 1, MD_DICE);
    cup->symbol = f[2];
    cup->colour = md_colour(f[3]);
    cup->cup = md_colour(f[4]);
    cup->holder = cup->guesser = -1;
    return !(cup->coverer < 0 || cup->die < 0 || !PyUnicode_CheckExact(f[2]) ||
             !md_utf8(f[2]) || cup->colour < 0 || cup->colour == MD_GOLDEN || cup->cup < 0);
}

/* An answer's fields read (player's seat, cup number, the answer or NULL): 1, 0, -1. */
static int ml_answer(Ml *m, PyObject *guess, PyObject *Guess, int *seat, int *cupno,
                     PyObject **named) {
    PyObject *f[3];
    if (Py_TYPE(guess) != (PyTypeObject *)Guess) return 0;
    if (md_fields(guess, md_guess_names, 3, &md_guess_layout, f)) return -1;
    PyObject *player = f[0], *number = f[1];
    *named = f[2];
    *seat = md_seat(player, m->w.names, m->n);
    *cupno = md_int(number, 1, 100);
    if (*named == Py_None) *named = NULL;
    else if (!PyUnicode_CheckExact(*named) || !md_utf8(*named)) return 0;
    return *seat >= 0 && *cupno > 0;
}

/* Drop the comma after the last event written (each is followed by one). */
static void ml_close(Out *o) {
    if (o->len && o->buf[o->len - 1] == ',') o->len--;
}

/* Round `number` replayed as Replay._play_round does and written to m->main: 1 replayed,
 * 0 declined, -1 on an error. *next: who begins it (-1: not checked), then who begins the
 * next; *ended: the round that ended the game; *stopped: replay cannot go on. */
static int ml_round(Ml *m, PyObject *rnd, PyObject *const *types, const MdDice *dice,
                    int number, int nrounds, long target, int *next, int *ended, int *stopped,
                    PyObject *notes) {
    PyObject *parts[2];
    if (Py_TYPE(rnd) != (PyTypeObject *)types[0]) return 0;
    if (md_fields(rnd, md_round_names, 2, &md_round_layout, parts)) return -1;
    PyObject *covering = parts[0], *uncovering = parts[1];
    if (!PyTuple_CheckExact(covering) || !PyTuple_CheckExact(uncovering)) return 0;
    Py_ssize_t count = PyTuple_GET_SIZE(covering), answers = PyTuple_GET_SIZE(uncovering);
    if (count < 1 || count > ML_MAX_ROLLS) return 0;
    MdCup row[ML_MAX_ROLLS];
    int nrow = 0, left[3] = {MD_CUPS_PER_COLOUR, MD_CUPS_PER_COLOUR, MD_CUPS_PER_COLOUR};
    int golden_by = -1, expected = *next, nrolled = 0, first = -1, cited = 0, status;
    unsigned rolled = 0;
    Out *ev = &m->w.out;
    ev->len = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        MdCup *cup = &row[nrow];
        if ((status = ml_roll(m, PyTuple_GET_ITEM(covering, k), types[1], cup)) <= 0)
            return status;
        int seat = cup->coverer, die = cup->die, index = (int)k + 1, i = (int)k;
        if (k == 0) first = seat;
        if (golden_by >= 0) {
            if (ml_fault(m, MLF_ROLL_AFTER_END, number, index, seat, 0, i, die, golden_by, 0,
                         0, NULL))
                return -1;
            *stopped = 1;
            break;
        }
        if (expected >= 0 && seat != expected &&
            ml_fault(m, k == 0 ? MLF_FIRST_PLAYER : MLF_TURN_ORDER, number, index, seat, 0, i,
                     expected, 0, 0, 0, NULL))
            return -1;
        if (rolled >> die & 1) {
            if (ml_fault(m, MLF_DIE_ONCE, number, index, seat, 0, i, die, 0, 0, 0, NULL))
                return -1;
        } else {
            nrolled++;
        }
        if (dice) {
            int face = ml_face(dice, die, cup->symbol, m->same);
            if (face == -2) return -1;
            if (face < 0) {
                if (ml_fault(m, MLF_NO_FACE, number, index, seat, 0, i, die, 0, 0, 0,
                             cup->symbol))
                    return -1;
            } else if (dice->colour[face] != cup->colour) {
                if (ml_fault(m, MLF_FACE_COLOUR, number, index, seat, 0, i, die,
                             dice->colour[face], cup->colour, 0, cup->symbol))
                    return -1;
            }
            if (face >= 0) cup->colour = dice->colour[face];
        }
        rolled |= 1u << die;
        int last = nrolled == MD_DICE, colour = cup->colour;
        nrow++;
        if (cup->cup == MD_GOLDEN) {
            golden_by = seat;
            if (last || left[colour] <= 0) {
                int how = !last ? MD_NO_CUP : left[colour] > 0 ? MD_LAST_LEFT : MD_LAST_NONE;
                if (mdj_cover(&m->w, number, cup, i, how) || OUT_LIT(ev, ",")) return -1;
            } else if (ml_fault(m, MLF_GOLDEN_EARLY, number, index, seat, 0, i, die, colour,
                                left[colour], 0, cup->symbol)) {
                return -1;
            }
        } else {
            int code = last ? MLF_LAST_NOT_GOLDEN : left[colour] <= 0 ? MLF_NO_CUP_LEFT
                       : cup->cup != colour ? MLF_CUP_COLOUR : -1;
            if (code < 0) {
                if (mdj_cover(&m->w, number, cup, i, MD_PLAIN) || OUT_LIT(ev, ",")) return -1;
            } else if (ml_fault(m, code, number, index, seat, 0, i, die, colour, cup->cup,
                                left[colour] > 0, cup->symbol)) {
                return -1;
            }
            left[cup->cup]--;
        }
        expected = (seat + 1) % m->n;
    }
    if (!*stopped && golden_by < 0) {
        const MdCup *roll = &row[nrow - 1];
        if (ml_fault(m, MLF_COVERING_STOPS, number, (int)count, roll->coverer, 0,
                     (int)count - 1, count, 0, 0, 0, NULL))
            return -1;
        *stopped = 1;
    }
    if (!*stopped) {  /* uncovering */
        int why = 0, first_covered = 0, last_guesser = -1;
        expected = golden_by;
        for (Py_ssize_t j = 0; j < answers; j++) {
            int seat, cupno, index = (int)(count + j + 1);
            PyObject *named;
            if ((status = ml_answer(m, PyTuple_GET_ITEM(uncovering, j), types[2], &seat, &cupno,
                                    &named)) <= 0)
                return status;
            last_guesser = seat;
            if (cupno > nrow) return 0;  /* a cup that does not exist: the reader words it */
            MdCup *cup = &row[cupno - 1];
            if (cup->holder >= 0) {
                if (ml_fault(m, MLF_UNCOVERED_TWICE, number, index, seat, 1, (int)j, cupno,
                             cup->holder, 0, 0, NULL))
                    return -1;
                continue;
            }
            if (seat != expected && ml_fault(m, MLF_UNCOVER_TURN, number, index, seat, 1,
                                             (int)j, why, expected, 0, 0, NULL))
                return -1;
            while (row[first_covered].holder >= 0) first_covered++;
            if (cupno != first_covered + 1 &&
                ml_fault(m, MLF_UNCOVER_ORDER, number, index, seat, 1, (int)j, cupno,
                         first_covered + 1, 0, 0, NULL))
                return -1;
            int right = named ? md_same(named, cup->symbol, m->same) : 0;
            if (right < 0) return -1;
            cup->named = named;
            cup->guesser = seat;
            cup->right = right;
            cup->holder = right ? seat : (seat + 1) % m->n;
            expected = cup->holder;
            why = right ? 1 : 2;
            if (mdj_guess(&m->w, number, cup, cupno, index, (int)j, &cited) || OUT_LIT(ev, ","))
                return -1;
        }
        int covered = 0;
        for (int k = 0; k < nrow; k++) covered += row[k].holder < 0;
        if (covered) {
            PyObject *cups = PyTuple_New(covered);
            if (!cups) return -1;
            for (int k = 0, i = 0; k < nrow; k++) {
                if (row[k].holder >= 0) continue;
                PyObject *at = PyLong_FromLong(k + 1);
                if (!at) {
                    Py_DECREF(cups);
                    return -1;
                }
                PyTuple_SET_ITEM(cups, i++, at);
            }
            status = ml_fault(m, MLF_NEVER_UNCOVERED, number, (int)(count + answers),
                              last_guesser, 2, 0, 0, 0, 0, 0, cups);
            Py_DECREF(cups);
            if (status) return -1;
        }
        long gained[MD_MAX_PLAYERS] = {0};
        int golden_holder = -1, reached = 0;
        for (int k = 0; k < nrow; k++) {
            if (row[k].holder < 0) continue;
            gained[row[k].holder] += row[k].cup == MD_GOLDEN ? 2 : 1;
            if (row[k].cup == MD_GOLDEN) golden_holder = row[k].holder;
        }
        long *grown = PyMem_Realloc(m->gained, sizeof(long) * MD_MAX_PLAYERS *
                                                   (size_t)(m->rows + 1));
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        m->gained = grown;
        memcpy(grown + m->rows * MD_MAX_PLAYERS, gained, sizeof gained);
        m->rows++;
        for (int p = 0; p < m->n; p++) {
            m->scores[p] += gained[p];
            reached |= m->scores[p] >= target;
        }
        if (reached) {
            *ended = number;
        } else {
            *next = golden_holder;
            if (golden_holder < 0 && number < nrounds) {
                PyObject *at = PyLong_FromLong(number);
                status = !at || PyList_Append(notes, at);
                Py_XDECREF(at);
                if (status) return -1;
            }
        }
        if (mdj_scoring(&m->w, m->n, number, row, nrow, gained, m->scores, reached, target,
                       golden_holder))
            return -1;
    }
    ml_close(ev);
    if (OUT_LIT(ev, "],\"scores\":") || mdj_scores(&m->w, m->n, m->scores, 0) ||
        OUT_LIT(ev, ",\"display\":"))
        return -1;
    PyObject *drawn = md_row_of(m->w.names, row, nrow);
    if (!drawn) return -1;
    status = mdj_str(ev, drawn);
    Py_DECREF(drawn);
    if (status || OUT_LIT(ev, "}")) return -1;
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "Round ");
    dwt_long(&b, number);
    dwt_cstr(&b, ": ");
    dwt_str(&b, m->w.names[first]);
    dwt_cstr(&b, *stopped ? " begins (not finished)" : " begins");
    if ((number > 1 && OUT_LIT(&m->main, ",")) || OUT_LIT(&m->main, "{\"number\":") ||
        out_long(&m->main, number) || OUT_LIT(&m->main, ",\"title\":") ||
        mdj_text(&m->main, &b) || OUT_LIT(&m->main, ",\"events\":[") ||
        out_put(&m->main, ev->buf, ev->len))
        return -1;
    return 1;
}

/* Rounds `from` on, not replayed: 1 if the reader takes them (their types, every name at
 * the table), else 0 (the reader words the error). */
static int ml_rest(Ml *m, PyObject *rounds, Py_ssize_t from, PyObject *const *types) {
    for (Py_ssize_t i = from; i < PyTuple_GET_SIZE(rounds); i++) {
        PyObject *rnd = PyTuple_GET_ITEM(rounds, i), *parts[2];
        if (Py_TYPE(rnd) != (PyTypeObject *)types[0]) return 0;
        if (md_fields(rnd, md_round_names, 2, &md_round_layout, parts)) return -1;
        PyObject *covering = parts[0], *uncovering = parts[1];
        if (!PyTuple_CheckExact(covering) || !PyTuple_CheckExact(uncovering)) return 0;
        for (int part = 0; part < 2; part++) {
            PyObject *moves = part ? uncovering : covering;
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(moves); k++) {
                PyObject *move = PyTuple_GET_ITEM(moves, k), *f[5];
                if (Py_TYPE(move) != (PyTypeObject *)types[1 + part]) return 0;
                if (part ? md_fields(move, md_guess_names, 3, &md_guess_layout, f)
                         : md_fields(move, md_roll_names, 5, &md_roll_layout, f))
                    return -1;
                if (md_seat(f[0], m->w.names, m->n) < 0) return 0;
            }
        }
    }
    return 1;
}

/* memo_dice_lenient(rounds, players, dice, kit, target, word) -> (rounds JSON, scores,
 * final table, rounds without a golden cup, stopped at, ended in) or None: the log
 * replayed through its faults (see the top of this file; kit: memo_dice_json's). "Rounds
 * without a golden cup": the rounds (not the last) after which nobody's start is checked;
 * "stopped at": the first round not ruled on (0: none); "ended in": the round in which
 * someone reached the target (0: none). */
static PyObject *memo_dice_lenient(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rounds, *players, *dice_obj, *kit_tuple, *word, *out = NULL, *notes = NULL;
    long target;
    if (!PyArg_ParseTuple(args, "O!O!OO!lO", &PyTuple_Type, &rounds, &PyTuple_Type, &players,
                          &dice_obj, &PyTuple_Type, &kit_tuple, &target, &word))
        return NULL;
    if (PyTuple_GET_SIZE(kit_tuple) != MDJ_SIZE || !PyCallable_Check(word)) {
        PyErr_SetString(PyExc_ValueError, "memo_dice_lenient: a kit of the wrong size");
        return NULL;
    }
    PyObject *const *kit = &PyTuple_GET_ITEM(kit_tuple, 0);
    for (int i = MDJ_GOLDEN_LAST; i <= MDJ_FIRST; i++) {
        if (!PyBytes_CheckExact(kit[i])) {
            PyErr_SetString(PyExc_TypeError, "memo_dice_lenient: a rule's JSON is not bytes");
            return NULL;
        }
    }
    if (!PyDict_CheckExact(kit[MDJ_REPRS])) {
        PyErr_SetString(PyExc_TypeError, "memo_dice_lenient: the cache is not a dict");
        return NULL;
    }
    for (int i = MDJ_ROUND_ENTRY; i <= MDJ_FACE_ENTRY; i++) {
        if (!PyType_Check(kit[i])) {
            PyErr_SetString(PyExc_TypeError, "memo_dice_lenient: a log type is not a type");
            return NULL;
        }
    }
    if (md_names()) return NULL;
    Ml m;
    memset(&m, 0, sizeof m);
    m.w.kit = kit;
    m.word = word;
    m.same = kit[MDJ_SAME];
    PyObject *held[5] = {Py_NewRef(kit_tuple), Py_NewRef(rounds), Py_NewRef(players),
                         Py_NewRef(dice_obj), Py_NewRef(word)};
    Py_ssize_t count = PyTuple_GET_SIZE(rounds);
    int n = (int)PyTuple_GET_SIZE(players), status = 1;
    MdDice dice;
    m.n = n;
    m.w.names = &PyTuple_GET_ITEM(players, 0);
    if (count < 1 || count > 100000 || n < 2 || n > MD_MAX_PLAYERS) status = 0;
    for (int p = 0; status > 0 && p < n; p++) {
        if (!PyUnicode_CheckExact(m.w.names[p]) || !md_utf8(m.w.names[p])) {
            status = 0;
        } else {
            m.w.name_at[p] = m.w.nm.len;
            if (mdj_str(&m.w.nm, m.w.names[p])) status = -1;
            m.w.name_len[p] = m.w.nm.len - m.w.name_at[p];
        }
    }
    if (status > 0 && dice_obj != Py_None) status = md_dice(dice_obj, kit[MDJ_FACE_ENTRY], &dice);
    if (status > 0 && !(notes = PyList_New(0))) status = -1;
    if (status > 0 && PyDict_GET_SIZE(kit[MDJ_REPRS]) > 8192) PyDict_Clear(kit[MDJ_REPRS]);
    int next = -1, ended = 0, stopped = 0, stop_at = 0;
    if (status > 0) status = OUT_LIT(&m.main, "[") ? -1 : 1;
    for (Py_ssize_t i = 0; status > 0 && i < count; i++) {
        if (ended || stopped) {
            stop_at = (int)i + 1;
            status = ml_rest(&m, rounds, i, kit + MDJ_ROUND_ENTRY);
            break;
        }
        status = ml_round(&m, PyTuple_GET_ITEM(rounds, i), kit + MDJ_ROUND_ENTRY,
                          dice_obj == Py_None ? NULL : &dice, (int)i + 1, (int)count, target,
                          &next, &ended, &stopped, notes);
        if (status > 0 && stopped)  /* the moves of this round not replayed must be read */
            status = ml_rest(&m, rounds, i, kit + MDJ_ROUND_ENTRY);
    }
    if (status > 0 && OUT_LIT(&m.main, "]")) status = -1;
    if (status == 0) {
        out = Py_NewRef(Py_None);
    } else if (status > 0) {
        PyObject *json = PyBytes_FromStringAndSize(m.main.buf, m.main.len);
        PyObject *scores = PyTuple_New(n), *table = NULL, *golden = PyList_AsTuple(notes);
        for (int p = 0; scores && p < n; p++) {
            PyObject *value = PyLong_FromLong(m.scores[p]);
            if (!value) Py_CLEAR(scores);
            else PyTuple_SET_ITEM(scores, p, value);
        }
        if (json && scores && golden)
            table = mdj_final_table(m.w.names, n, m.rows, m.gained, m.scores);
        if (table) out = Py_BuildValue("(OOOOii)", json, scores, table, golden, stop_at, ended);
        Py_XDECREF(json);
        Py_XDECREF(scores);
        Py_XDECREF(table);
        Py_XDECREF(golden);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    if (status < 0 && !PyErr_Occurred()) PyErr_NoMemory();
    Py_XDECREF(notes);
    PyMem_Free(m.gained);
    PyMem_RawFree(m.main.buf);
    PyMem_RawFree(m.w.out.buf);
    PyMem_RawFree(m.w.nm.buf);
    for (int i = 0; i < 5; i++) Py_DECREF(held[i]);
    return out;
}
