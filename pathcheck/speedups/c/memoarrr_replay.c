/* pathcheck._speedups, part of the one translation unit _speedups.c: the replay of a clean
 * Memoarrr! log whose setup memoarrr.c has read (the trace it hands back is described there). */

/* The player takes the top volcano of the stack. */
static void m_take(MState *s, int player) { s->out[player] = s->stack[s->stack_top++]; }

/* Replay one action (a dict) of the round; 1 played cleanly, 0 refused, -1 on an error. */
static int m_action(MState *s, PyObject *item, int index, PyObject *const *players,
                    PyObject *events) {
    PyObject *f[6] = {0};
    if (!PyDict_CheckExact(item)) return 0;
    int keys = m_fields(item, M_ACTION_KEYS, f);
    if (keys < 0 || s->round_over) return 0;
    int player = m_seat(f[0], players, s->n);
    if (player < 0 || player != s->to_move) return 0;
    int blocked = s->mark;
    s->mark = -1;
    s->crab = 0;
    s->turns++;
    if (f[5]) {  /* a volcano taken without revealing: only once all 24 are face up */
        if (f[5] != Py_True || keys != (1 | 1 << 5) || s->up != ((1u << M_CARDS) - 1) -
                                                                 (1u << M_CENTRE))
            return 0;
        m_take(s, player);
        if (m_event(events, M_TAKE, index, player, 0, 0, 0, s->out[player]) < 0) return -1;
    } else {
        int pos = f[1] ? m_position(f[1]) : -1;
        if (pos < 0 || pos == M_CENTRE) return 0;
        int at[3];  /* swap, mark, peek: -2 not given, -1 no position */
        for (int k = 0; k < 3; k++) at[k] = f[2 + k] ? m_position(f[2 + k]) : -2;
        if (at[0] == -1 || at[1] == -1 || at[2] == -1) return 0;
        int card = s->grid[pos];
        if (card < 0 || (s->up >> pos & 1) || pos == blocked) return 0;
        if (s->turns == 1 && s->round == 1 && (s->peeked >> pos & 1)) return 0;
        if (s->marks && s->last >= 0 && m_know_move(s, index, player, pos, blocked) < 0)
            return -1;
        s->up |= 1u << pos;
        m_know_reveal(s, pos, card);
        int previous = s->last;
        int success = previous < 0 || m_connects(card, previous);
        s->last = card;
        if (!success) m_take(s, player);
        int earned = success && s->expert ? card / 5 : -1;
        if (at[0] >= 0) {  /* the octopus swap, only when earned, with a neighbour */
            int target = at[0];
            if (earned != M_OCTOPUS || target == M_CENTRE || !m_adjacent(pos, target)) return 0;
            int ca = s->grid[pos];
            s->grid[pos] = s->grid[target];
            s->grid[target] = ca;
            uint32_t a_up = s->up >> pos & 1, b_up = s->up >> target & 1;
            s->up &= ~((1u << pos) | (1u << target));
            s->up |= (b_up << pos) | (a_up << target);
            m_know_swap(s, pos, target);
            if (m_event(events, M_SWAP, index, player, pos, target, s->grid[target],
                        s->grid[pos]) < 0)
                return -1;
        } else if (earned == M_OCTOPUS) {
            return 0;
        }
        int down = M_ISLAND - m_popcount(s->up);
        if (at[1] >= 0) {  /* the walrus mark */
            int target = at[1];
            if (earned != M_WALRUS || down <= 1 || target == M_CENTRE || (s->up >> target & 1))
                return 0;
            s->mark = target;
        } else if (earned == M_WALRUS && down > 1) {
            return 0;
        }
        if (at[2] >= 0) {  /* the penguin peek */
            int target = at[2];
            if (earned != M_PENGUIN || target == M_CENTRE || (s->up >> target & 1)) return 0;
            m_know_peek(s, player, target);
        } else if (earned == M_PENGUIN && down) {
            return 0;
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

static PyObject *memoarrr_replay(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *log, *cards, *texts = NULL;
    if (!PyArg_ParseTuple(args, "OO!|O!", &log, &PyDict_Type, &cards, &PyTuple_Type, &texts))
        return NULL;
    if (texts && (PyTuple_GET_SIZE(texts) != 2 || !m_table(PyTuple_GET_ITEM(texts, 0)) ||
                  !m_table(PyTuple_GET_ITEM(texts, 1)))) {
        PyErr_SetString(PyExc_ValueError,
                        "memoarrr_replay: texts must be 2 tuples of 625 str (place * 25 + card)");
        return NULL;
    }
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
    PyObject *players[M_MAX_PLAYERS] = {0}, *rounds = NULL;
    int unseen = 0;
    int rc = m_read_setup(&s, log, cards, players, &rounds, &unseen);
    if (rc <= 0) return rc < 0 ? NULL : Py_NewRef(Py_None);
    /* Held while the trace is built: making it allocates, and a collection then may run a
     * finalizer that changes the log. */
    PyObject *held_refs = PyTuple_Pack(5, rounds, players[0], players[1],
                                       players[2] ? players[2] : Py_None,
                                       players[3] ? players[3] : Py_None);
    if (!held_refs) return NULL;
    PyObject *result = NULL;
    if (texts) {
        s.best_one = PyTuple_GET_ITEM(texts, 0);
        s.at = PyTuple_GET_ITEM(texts, 1);
        s.comma = PyUnicode_FromString(", ");
        s.marks = s.comma ? PyList_New(0) : NULL;
    }
    if (!texts || s.marks) result = m_replay(&s, rounds, players, unseen);
    Py_XDECREF(s.marks);
    Py_XDECREF(s.comma);
    Py_DECREF(held_refs);
    return result;
}

/* Whether `table` is a tuple of 25 * 25 str, as the analysis's texts are. */
static int m_table(PyObject *table) {
    if (!PyTuple_CheckExact(table) || PyTuple_GET_SIZE(table) != M_CARDS * M_CARDS) return 0;
    for (Py_ssize_t i = 0; i < M_CARDS * M_CARDS; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(table, i))) return 0;
    return 1;
}

/* Replay the rounds of a log whose setup is read; the trace, None, or NULL on an error. */
static PyObject *m_replay(MState *sp, PyObject *rounds, PyObject *const *players, int unseen) {
    MState s = *sp;
    int rc;

    Py_ssize_t count = PyList_GET_SIZE(rounds);
    if (count > M_ROUNDS) Py_RETURN_NONE;  /* a round after the game ended: a fault */
    PyObject *out = PyTuple_New(count);
    if (!out) return NULL;
    int first_set = -1, starter = s.to_move, held = -1;
    s.mark = -1;
    for (Py_ssize_t r = 0; r < count; r++) {
        PyObject *data = PyList_GET_ITEM(rounds, r), *f[3] = {0};
        if (!PyDict_CheckExact(data)) goto refuse;
        int keys = m_fields(data, M_ROUND_KEYS, f);
        if (keys < 0 || (keys & M_ROUND_REQUIRED) != M_ROUND_REQUIRED) goto refuse;
        if (!PyList_CheckExact(f[1]) || (f[2] && !PyUnicode_CheckExact(f[2]))) goto refuse;
        if (r > 0 && !s.round_over) goto refuse;  /* a round begun before the last ended */
        int set = m_volcanoes(&s, f[0]);
        if (set < 0 || (first_set >= 0 && set != first_set)) goto refuse;
        first_set = set;
        /* start_round */
        s.round = (int)r + 1;
        s.up = 0;
        s.stack_top = 0;
        for (int i = 0; i < M_MAX_PLAYERS; i++) s.out[i] = -1;
        s.last = -1, s.mark = -1, s.crab = 0, s.to_move = starter, s.turns = 0;
        s.round_over = 0;
        PyObject *events = PyList_New(0);
        if (!events) goto fail;
        PyObject *actions = Py_NewRef(f[1]);
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(actions); i++) {
            rc = m_action(&s, PyList_GET_ITEM(actions, i), (int)i + 1, players, events);
            if (rc <= 0) {
                Py_DECREF(actions);
                Py_DECREF(events);
                if (rc < 0) goto fail;
                goto refuse;
            }
        }
        Py_DECREF(actions);
        int winner = -1, treasure = 0;
        if (s.round_over) {
            for (winner = 0; s.out[winner] >= 0; winner++) {}
            treasure = s.treasures[s.treasure_top++];
        }
        PyObject *events_tuple = PyList_AsTuple(events);
        Py_DECREF(events);
        if (!events_tuple) goto fail;
        PyObject *item = Py_BuildValue("(iiiiiiN)", starter, held, s.turns, m_popcount(s.up),
                                       winner, treasure, events_tuple);
        if (!item) goto fail;
        PyTuple_SET_ITEM(out, r, item);
        if (s.round_over) {  /* the holder of the highest volcano starts the next round */
            held = -1;
            for (int i = 0; i < s.n; i++)
                if (s.out[i] > held) held = s.out[i], starter = i;
        }
    }
    int complete = s.round == M_ROUNDS && s.round_over;
    if (s.marks) return Py_BuildValue("(iiNO)", unseen, complete, out, s.marks);
    return Py_BuildValue("(iiN)", unseen, complete, out);
refuse:
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(out);
    return NULL;
}
