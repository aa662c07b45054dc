/* pathcheck._speedups, part of the one translation unit _speedups.c: the replay of a clean
 * Memoarrr! log whose setup memoarrr.c has read (the trace it hands back is described there). */

/* The player takes the top volcano of the stack. */
static void m_take(MState *s, int player) { s->out[player] = s->stack[s->stack_top++]; }

/* One action as read: the player's seat, a volcano taken or the place revealed and its card,
 * the swap's, mark's and peek's places (-2: not given). */
typedef struct { int player, take, pos, card, at[3]; } MAct;

/* Read one action (a dict) as plain.read_plain reads it: 1 taken, 0 refused (no error can
 * occur: every key and value is an exact str, compared, never hashed by Python code). A
 * revealed place must hold a card the log names, followed through the swaps (s->grid). */
static int m_read_action(const MState *s, PyObject *item, PyObject *const *players, MAct *a) {
    PyObject *f[6] = {0};
    if (!PyDict_CheckExact(item)) return 0;
    int keys = m_fields(item, M_ACTION_KEYS, f);
    if (keys < 0) return 0;
    a->player = m_seat(f[0], players, s->n);
    if (a->player < 0) return 0;
    a->take = f[5] != NULL;
    if (a->take) return f[5] == Py_True && keys == (1 | 1 << 5);
    a->pos = f[1] ? m_position(f[1]) : -1;
    if (a->pos < 0 || a->pos == M_CENTRE) return 0;
    for (int k = 0; k < 3; k++) {
        a->at[k] = f[2 + k] ? m_position(f[2 + k]) : -2;
        if (a->at[k] == -1) return 0;
    }
    a->card = s->grid[a->pos];
    return a->card >= 0;
}

/* Swap the cards of places a and b, each keeping its face (island.State._swap). */
static void m_swap_cards(MState *s, int a, int b) {
    int ca = s->grid[a];
    s->grid[a] = s->grid[b];
    s->grid[b] = ca;
    uint32_t a_up = s->up >> a & 1, b_up = s->up >> b & 1;
    s->up &= ~((1u << a) | (1u << b));
    s->up |= (b_up << a) | (a_up << b);
}

/* The replay stops at move `index` of `player` (why: M_STOP_*); 2, m_action's answer. */
static int m_stop(MState *s, int why, int index, int player) {
    s->stop[0] = why, s->stop[1] = s->round, s->stop[2] = index, s->stop[3] = player;
    return 2;
}

/* A fault of the action being played: refused (0) unless the replay is lenient. */
#define M_FAULT(code, a, b, c)                                                              \
    do {                                                                                    \
        if (!s->faults) return 0;                                                           \
        if (m_fault(s, (code), s->round, index, player, (a), (b), (c)) < 0) return -1;      \
    } while (0)

/* Replay one action (a dict) of the round as island.State.apply does: 1 played, 0 refused,
 * 2 the replay stops here (s->stop says why), -1 on an error. Strict (s->faults NULL), a
 * fault refuses the log; lenient, it is kept and the move played as logged. */
static int m_action(MState *s, PyObject *item, int index, PyObject *const *players,
                    PyObject *events) {
    MAct act;
    if (!m_read_action(s, item, players, &act)) return 0;
    int player = act.player;
    /* The analysis marks a reveal against what its player knew before the move, whatever
     * the move then breaks; one the rules bar from the choice it does not mark. */
    if (s->marks && !act.take && s->last >= 0) {
        if (!(s->up >> act.pos & 1) && act.pos != s->mark) {
            if (m_know_move(s, index, player, act.pos, s->mark) < 0) return -1;
        } else if (s->barred) {  /* strict: a fault below refuses the log */
            PyObject *barred = Py_BuildValue("(iiiii)", s->round, index, player, act.pos,
                                             act.pos == s->mark ? 0 : 1);
            int rc = barred ? PyList_Append(s->barred, barred) : -1;
            Py_XDECREF(barred);
            if (rc < 0) return -1;
        }
    }
    if (s->round_over) {
        M_FAULT(MF_ROUND_OVER, 0, 0, 0);
        return m_stop(s, M_STOP_OVER, index, player);
    }
    if (player != s->to_move) {
        M_FAULT(s->turns == 0 ? MF_START_PLAYER : s->crab ? MF_CRAB : MF_TURN_ORDER,
                s->to_move, 0, 0);
        if (s->out[player] >= 0) return m_stop(s, M_STOP_OUT, index, player);
    }
    int blocked = s->mark;
    s->mark = -1;
    s->crab = 0;
    s->turns++;
    if (act.take) {  /* a volcano taken without revealing: only once all 24 are face up */
        int down = M_ISLAND - m_popcount(s->up);
        if (down) M_FAULT(MF_MUST_REVEAL, down, 0, 0);
        m_take(s, player);
        if (m_event(events, M_TAKE, index, player, 0, 0, 0, s->out[player]) < 0) return -1;
    } else {
        int pos = act.pos, card = act.card, *at = act.at;
        if (s->up >> pos & 1) {
            M_FAULT(MF_FACE_UP, pos, card, M_ISLAND - m_popcount(s->up));
        } else if (pos == blocked) {
            M_FAULT(MF_WALRUS_BLOCK, pos, 0, 0);
        } else if (s->turns == 1 && s->round == 1 && (s->peeked >> pos & 1)) {
            M_FAULT(MF_PEEK_EXCEPTION, pos, 0, 0);
        }
        s->up |= 1u << pos;
        m_know_reveal(s, pos, card);
        int previous = s->last;
        int success = previous < 0 || m_connects(card, previous);
        s->last = card;
        if (!success) m_take(s, player);
        int earned = success && s->expert ? card / 5 : -1;
        int why = !s->expert ? M_WHY_BASIC : !success ? M_WHY_FAILED : card;
        if (at[0] >= 0) {  /* the octopus swap, only when earned, with a neighbour */
            int target = at[0];
            if (earned != M_OCTOPUS)
                M_FAULT(MF_FIXED_POSITIONS, pos, target, why);
            else if (target == M_CENTRE || !m_adjacent(pos, target))
                M_FAULT(MF_OCTOPUS_ADJACENT, target, pos, 0);
            if (target != M_CENTRE && target != pos) {  /* as played */
                m_swap_cards(s, pos, target);
                m_know_swap(s, pos, target);
                if (m_event(events, M_SWAP, index, player, pos, target, s->grid[target],
                            s->grid[pos]) < 0)
                    return -1;
            }
        } else if (earned == M_OCTOPUS) {
            M_FAULT(MF_OCTOPUS_UNUSED, 0, 0, 0);
        }
        int down = M_ISLAND - m_popcount(s->up);
        if (at[1] >= 0) {  /* the walrus mark */
            int target = at[1];
            if (earned != M_WALRUS)
                M_FAULT(MF_MARK_NOT_EARNED, target, 0, why);
            else if (down <= 1)
                M_FAULT(MF_WALRUS_LAST_CARD, target, down, 0);
            else if (target == M_CENTRE || (s->up >> target & 1))
                M_FAULT(MF_WALRUS_FACE_DOWN, target, 0, 0);
            else
                s->mark = target;
        } else if (earned == M_WALRUS && down > 1) {
            M_FAULT(MF_WALRUS_UNUSED, 0, 0, 0);
        }
        if (at[2] >= 0) {  /* the penguin peek */
            int target = at[2];
            if (earned != M_PENGUIN)
                M_FAULT(MF_PEEK_NOT_EARNED, target, 0, why);
            else if (target == M_CENTRE || (s->up >> target & 1))
                M_FAULT(MF_PENGUIN_FACE_DOWN, target, 0, 0);
            m_know_peek(s, player, target);  /* lenient: seen, though the peek is a fault */
        } else if (earned == M_PENGUIN && down) {
            M_FAULT(MF_PENGUIN_UNUSED, 0, 0, 0);
        }
        if (!success &&
            m_event(events, M_FAIL, index, player, pos, card, previous, s->out[player]) < 0)
            return -1;
        if (earned == M_CRAB) s->crab = 1;
    }
    if (s->stack_top < s->stack_len) {
        s->to_move = s->crab ? player : m_next_clockwise(s, player);
    } else {
        s->round_over = 1;
    }
    return 1;
}

static PyObject *m_replay(MState *sp, PyObject *rounds, PyObject *const *players, int unseen);
static int m_table(PyObject *table);

/* memoarrr_replay(log, cards[, texts]) and memoarrr_lenient(log, cards) (memoarrr.c); with
 * `json` (lenient only), the moves written there (memoarrr_lenient_json). */
static PyObject *m_replay_log(PyObject *log, PyObject *cards, PyObject *texts, int lenient,
                              MkJson *json) {
    /* Card names must be str: a look-up then compares strings only and runs no Python code
     * that could change the log while it is read (the log's own keys are checked as read). */
    PyObject *key, *value;
    for (Py_ssize_t at = 0; PyDict_Next(cards, &at, &key, &value);) {
        if (!PyUnicode_CheckExact(key)) {
            PyErr_SetString(PyExc_ValueError, "memoarrr_replay: a card name that is no str");
            return NULL;
        }
    }
    MState s;
    memset(&s, 0, sizeof s);
    if (lenient && !(s.faults = PyList_New(0))) return NULL;
    PyObject *players[M_MAX_PLAYERS] = {0}, *rounds = NULL, *result = NULL;
    int unseen = 0;
    int rc = m_read_setup(&s, log, cards, players, &rounds, &unseen);
    if (rc <= 0) {
        Py_XDECREF(s.faults);
        return rc < 0 ? NULL : Py_NewRef(Py_None);
    }
    /* Held while the trace is built: making it allocates, and a collection then may run a
     * finalizer that changes the log. */
    PyObject *held_refs = PyTuple_Pack(5, rounds, players[0], players[1],
                                       players[2] ? players[2] : Py_None,
                                       players[3] ? players[3] : Py_None);
    if (held_refs && json) {
        s.json = json;
        json->rule = PyTuple_GET_ITEM(json->kit[MK_RULES], s.edition == 2018 ? 0 : 1);
        int named = mkj_names(json, players, s.n);
        json->declined = named > 0;
        if (named >= 0 && (s.marks = PyList_New(0)) && !(s.barred = PyList_New(0)))
            Py_CLEAR(s.marks);
        if (s.marks) result = m_replay(&s, rounds, players, unseen);
        Py_XDECREF(s.barred);
        Py_XDECREF(s.marks);
        Py_DECREF(held_refs);
    } else if (held_refs) {
        if (texts) {
            s.best_one = PyTuple_GET_ITEM(texts, 0);
            s.at = PyTuple_GET_ITEM(texts, 1);
            s.comma = PyUnicode_FromString(", ");
            s.marks = s.comma ? PyList_New(0) : NULL;
            if (s.marks && lenient && !(s.barred = PyList_New(0))) Py_CLEAR(s.marks);
        }
        if (!texts || s.marks) result = m_replay(&s, rounds, players, unseen);
        Py_XDECREF(s.barred);
        Py_XDECREF(s.marks);
        Py_XDECREF(s.comma);
        Py_DECREF(held_refs);
    }
    Py_XDECREF(s.faults);
    return result;
}

/* memoarrr_replay's and memoarrr_lenient's arguments (log, cards[, texts]) read and the log
 * replayed, strictly or through its faults. */
static PyObject *m_replay_args(PyObject *args, int lenient, const char *name) {
    PyObject *log, *cards, *texts = NULL;
    if (!PyArg_ParseTuple(args, "OO!|O!", &log, &PyDict_Type, &cards, &PyTuple_Type, &texts))
        return NULL;
    if (texts && (PyTuple_GET_SIZE(texts) != 2 || !m_table(PyTuple_GET_ITEM(texts, 0)) ||
                  !m_table(PyTuple_GET_ITEM(texts, 1)))) {
        PyErr_Format(PyExc_ValueError,
                     "%s: texts must be 2 tuples of 625 str (place * 25 + card)", name);
        return NULL;
    }
    return m_replay_log(log, cards, texts, lenient, NULL);
}

static PyObject *memoarrr_replay(PyObject *self, PyObject *args) {
    (void)self;
    return m_replay_args(args, 0, "memoarrr_replay");
}

static PyObject *memoarrr_lenient(PyObject *self, PyObject *args) {
    (void)self;
    return m_replay_args(args, 1, "memoarrr_lenient");
}

/* memoarrr_lenient_json(log, cards, kit): memoarrr_marks_json.c says what it hands back. */
static PyObject *memoarrr_lenient_json(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *log, *cards, *kit;
    if (!PyArg_ParseTuple(args, "OO!O!", &log, &PyDict_Type, &cards, &PyTuple_Type, &kit))
        return NULL;
    if (PyTuple_GET_SIZE(kit) != MK_KIT || !PyList_CheckExact(PyTuple_GET_ITEM(kit, MK_MARKED)) ||
        !PyCallable_Check(PyTuple_GET_ITEM(kit, MK_MARKED_FN)) ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(kit, MK_RULES)) ||
        PyTuple_GET_SIZE(PyTuple_GET_ITEM(kit, MK_RULES)) != 2 ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(PyTuple_GET_ITEM(kit, MK_RULES), 0)) ||
        !PyBytes_CheckExact(PyTuple_GET_ITEM(PyTuple_GET_ITEM(kit, MK_RULES), 1)) ||
        !mkj_texts(PyTuple_GET_ITEM(kit, MK_CARDS), M_CARDS) ||
        !mkj_texts(PyTuple_GET_ITEM(kit, MK_AT), M_CARDS * M_CARDS)) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_lenient_json: a kit of the wrong shape");
        return NULL;
    }
    MkJson *json = PyMem_Calloc(1, sizeof *json);
    if (!json) return PyErr_NoMemory();
    Py_INCREF(kit);  /* held: the filler runs Python */
    json->kit = &PyTuple_GET_ITEM(kit, 0);
    for (Py_ssize_t i = 0; i < M_CARDS * M_CARDS; i++) {
        Py_ssize_t len = PyBytes_GET_SIZE(PyTuple_GET_ITEM(json->kit[MK_AT], i));
        if (len > json->at_max) json->at_max = len;
    }
    PyObject *result = NULL;
    if (OUT_LIT(&json->out, "[") < 0) PyErr_NoMemory();
    else result = m_replay_log(log, cards, NULL, 1, json);
    mkj_free(json);
    PyMem_Free(json);
    Py_DECREF(kit);
    return result;
}

/* Whether `table` is a tuple of 25 * 25 str, as the analysis's texts are. */
static int m_table(PyObject *table) {
    if (!PyTuple_CheckExact(table) || PyTuple_GET_SIZE(table) != M_CARDS * M_CARDS) return 0;
    for (Py_ssize_t i = 0; i < M_CARDS * M_CARDS; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(table, i))) return 0;
    return 1;
}

/* Check a round's keys and volcanoes as read_plain does: the round's actions (a list), or
 * NULL if refused. `first_set` is the first round's volcanoes (-1: this is the first). */
static PyObject *m_round_head(MState *s, PyObject *data, int *first_set) {
    PyObject *f[3] = {0};
    if (!PyDict_CheckExact(data)) return NULL;
    int keys = m_fields(data, M_ROUND_KEYS, f);
    if (keys < 0 || (keys & M_ROUND_REQUIRED) != M_ROUND_REQUIRED) return NULL;
    if (!PyList_CheckExact(f[1]) || (f[2] && !PyUnicode_CheckExact(f[2]))) return NULL;
    int set = m_volcanoes(s, f[0]);
    if (set < 0 || (*first_set >= 0 && set != *first_set)) return NULL;
    *first_set = set;
    return f[1];
}

/* After a lenient replay stopped: read the rest of the log, from action `i` of round `r`
 * (`head`: that round's keys and volcanoes not read yet), as read_plain reads it, every
 * swap as played; 1 taken, 0 refused (the Python path then reads the log). */
static int m_read_rest(MState *s, PyObject *rounds, Py_ssize_t r, Py_ssize_t i, int head,
                       int first_set, PyObject *const *players) {
    for (; r < PyList_GET_SIZE(rounds); r++, i = 0, head = 1) {
        PyObject *actions = PyList_GET_ITEM(rounds, r);
        int any_set = -1;  /* a round read before: only its actions are needed */
        actions = m_round_head(s, actions, head ? &first_set : &any_set);
        if (!actions) return 0;
        for (; i < PyList_GET_SIZE(actions); i++) {
            MAct act;
            if (!m_read_action(s, PyList_GET_ITEM(actions, i), players, &act)) return 0;
            if (!act.take && act.at[0] >= 0 && act.at[0] != act.pos && act.at[0] != M_CENTRE)
                m_swap_cards(s, act.pos, act.at[0]);
        }
    }
    return 1;
}

/* The traced round (starter, held, turns, face_up, winner, treasure, events) appended to
 * `out`, its winner taking the top treasure; -1 on an error. */
static int m_close_round(MState *s, PyObject *out, int starter, int held, PyObject *events) {
    int winner = -1, treasure = 0;
    if (s->round_over) {
        for (winner = 0; s->out[winner] >= 0; winner++) {}
        treasure = s->treasures[s->treasure_top++];
    }
    PyObject *events_tuple = PyList_AsTuple(events);
    if (!events_tuple) return -1;
    PyObject *item = Py_BuildValue("(iiiiiiN)", starter, held, s->turns, m_popcount(s->up),
                                   winner, treasure, events_tuple);
    if (!item) return -1;
    int rc = PyList_Append(out, item);
    Py_DECREF(item);
    return rc;
}

/* Replay the rounds of a log whose setup is read; the trace, None, or NULL on an error. */
static PyObject *m_replay(MState *sp, PyObject *rounds, PyObject *const *players, int unseen) {
    MState s = *sp;
    int rc;

    Py_ssize_t count = PyList_GET_SIZE(rounds);
    if (count > M_ROUNDS && !s.faults) Py_RETURN_NONE;  /* a round after the game ended */
    PyObject *out = PyList_New(0), *result = NULL;
    if (!out) return NULL;
    int first_set = -1, starter = s.to_move, held = -1;
    s.mark = -1;
    for (Py_ssize_t r = 0; r < count; r++) {
        if (r >= M_ROUNDS || (r > 0 && !s.round_over)) {  /* lenient only: see above */
            if (!s.faults) goto refuse;
            int still = 0;
            for (int i = 0; i < s.n; i++) still |= (s.out[i] < 0) << i;
            if (m_fault(&s, r >= M_ROUNDS ? MF_GAME_END : MF_ROUND_END, (int)r + 1, 0, 0,
                        still, 0, 0) < 0)
                goto fail;
            s.stop[0] = M_STOP_ROUND, s.stop[1] = (int)r + 1;
            if (!m_read_rest(&s, rounds, r, 0, 1, first_set, players)) goto refuse;
            break;
        }
        PyObject *actions = m_round_head(&s, PyList_GET_ITEM(rounds, r), &first_set);
        if (!actions) goto refuse;
        /* start_round */
        s.round = (int)r + 1;
        s.up = 0;
        s.stack_top = 0;
        for (int i = 0; i < M_MAX_PLAYERS; i++) s.out[i] = -1;
        s.last = -1, s.mark = -1, s.crab = 0, s.to_move = starter, s.turns = 0;
        s.round_over = 0;
        PyObject *events = PyList_New(0);
        if (!events) goto fail;
        Py_INCREF(actions);
        rc = 1;
        Py_ssize_t i = 0;
        for (; i < PyList_GET_SIZE(actions); i++) {
            rc = m_action(&s, PyList_GET_ITEM(actions, i), (int)i + 1, players, events);
            if (rc != 1) break;
        }
        Py_DECREF(actions);
        if (rc > 0 && m_close_round(&s, out, starter, held, events) < 0) rc = -1;
        Py_DECREF(events);
        if (rc < 0) goto fail;
        if (rc == 0) goto refuse;
        if (s.stop[0]) {
            if (!m_read_rest(&s, rounds, r, i, 0, first_set, players)) goto refuse;
            break;
        }
        if (s.round_over) {  /* the holder of the highest volcano starts the next round */
            held = -1;
            for (int p = 0; p < s.n; p++)
                if (s.out[p] > held) held = s.out[p], starter = p;
        }
    }
    int complete = s.round == M_ROUNDS && s.round_over;
    PyObject *traced = PyList_AsTuple(out);
    if (!traced) goto fail;
    if (s.marks && !s.faults) {
        result = Py_BuildValue("(iiNO)", unseen, complete, traced, s.marks);
    } else if (s.faults) {
        PyObject *faults = PyList_AsTuple(s.faults);
        PyObject *stop = !faults ? NULL : s.stop[0] == M_STOP_NONE ? Py_NewRef(Py_None)
            : Py_BuildValue("(iiii)", s.stop[0], s.stop[1], s.stop[2], s.stop[3]);
        PyObject *marks = !stop || !s.marks ? NULL
                          : s.json ? mkj_result(s.json, s.n) : Py_NewRef(s.marks);
        if (marks)
            result = Py_BuildValue("(iiNNNNO)", unseen, complete, traced, faults, stop, marks,
                                   s.barred);
        else if (stop && s.marks)  /* an error: stop and faults dropped below */
            Py_CLEAR(stop);
        else if (stop)
            result = Py_BuildValue("(iiNNN)", unseen, complete, traced, faults, stop);
        if (!stop) {
            Py_XDECREF(faults);
            Py_DECREF(traced);
        }
    } else {
        result = Py_BuildValue("(iiN)", unseen, complete, traced);
    }
    Py_DECREF(out);
    return result;
refuse:
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(out);
    return NULL;
}
