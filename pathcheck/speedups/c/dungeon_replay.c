/* pathcheck._speedups, part of the one translation unit _speedups.c: the replay of a clean
 * game/1 log of dungeon (dungeon_replay), for pathcheck.games.dungeon.fast.
 *
 * It replays what pathcheck.games.dungeon.state.Replay replays (the deal, turn order, tiles
 * from the hand, draws, LOST announcements with rule #1 priority, the end of each exploration,
 * the check and its points, the end of the game) on the log as msgspec decoded it (the
 * GameEntry structs of games/dungeon/log.py), and declines (None) at the first thing that
 * would make a violation, a note or a RecordError: the Python replay then rules on the log. */

#define DG_MAX_PLAYERS 5
#define DG_MAX_HAND 256

enum { DG_EARLY, DG_SCORED, DG_TOO_LATE, DG_HELD_ON, DG_STAYED };

static PyObject *S_start_player, *S_turns, *S_hands, *S_deck, *S_player,
    *S_draw, *S_simultaneous;

/* The seat of `name` (an exact str) among the players, or -1. A log's names are other
 * objects than its players' (msgspec makes each anew), so they are compared by their
 * characters: equal texts have the same length and kind (the smallest that holds them). */
static int dg_seat(PyObject *name, PyObject *const *players, int n) {
    if (!PyUnicode_CheckExact(name)) return -1;
    for (int i = 0; i < n; i++)
        if (players[i] == name) return i;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(name) < 0) {  /* a legacy string (none is made so today) */
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (PyUnicode_CheckExact(players[i]) && PyUnicode_READY(players[i]) < 0) {
            PyErr_Clear();
            return -1;
        }
    }
#endif
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    int kind = PyUnicode_KIND(name);
    const void *data = PyUnicode_DATA(name);
    for (int i = 0; i < n; i++) {
        PyObject *p = players[i];
        if (PyUnicode_CheckExact(p) && PyUnicode_GET_LENGTH(p) == len &&
            PyUnicode_KIND(p) == kind && memcmp(PyUnicode_DATA(p), data, (size_t)len * kind) == 0)
            return i;
    }
    return -1;
}

/* A tuple of `k` ints (k <= 4); NULL with an error set. Py_BuildValue parses its format at
 * every call: a log makes a few dozen of these. */
static PyObject *dg_ints(int k, int a, int b, int c, int d) {
    int v[4] = {a, b, c, d};
    PyObject *out = PyTuple_New(k);
    for (int i = 0; out && i < k; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

/* The tile number of `id` (an exact str known to the tables), or -1. */
static int dg_tile(const Tables *t, PyObject *id) {
    if (!PyUnicode_CheckExact(id)) return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(id, &n);
    if (!s) {
        PyErr_Clear();
        return -1;
    }
    return id_lookup(t, s, n);
}

/* An attribute of a struct; NULL with an error set if it has none. */
static inline PyObject *dg_get(PyObject *obj, PyObject *name) {
    return PyObject_GetAttr(obj, name);
}

/* Where a struct type keeps the fields read of it: msgspec's structs keep each field in a
 * slot (a member descriptor), so the turns' six fields are read from there instead of through
 * a getattr each, once the type is known to read as plain attributes. */
typedef struct {
    PyTypeObject *type;  /* a strong reference; NULL: none learnt yet */
    Py_ssize_t off[6];
} DgLayout;

static DgLayout dg_turn_layout;

/* Learn where `type` keeps the fields `names` (k <= 6), if every one is a plain slot and the
 * type reads attributes the generic way; otherwise leave `layout` as it was. */
static void dg_learn(PyTypeObject *type, PyObject **const *names, int k, DgLayout *layout) {
    Py_ssize_t off[6];
    if (type->tp_getattro != PyObject_GenericGetAttr) return;
    for (int i = 0; i < k; i++) {
        PyObject *descr = _PyType_Lookup(type, *names[i]);  /* borrowed */
        if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) return;
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX || member->offset < (Py_ssize_t)sizeof(PyObject) ||
            member->offset + (Py_ssize_t)sizeof(PyObject *) > type->tp_basicsize)
            return;
        off[i] = member->offset;
    }
    Py_INCREF(type);
    Py_XSETREF(layout->type, type);
    memcpy(layout->off, off, sizeof off);
}

/* The fields `names` (k <= 6) of `obj` as new references in `out`; -1 with an error set (and
 * nothing in `out`) if one is missing. */
static int dg_fields(PyObject *obj, PyObject **const *names, int k, DgLayout *layout,
                     PyObject **out) {
    PyTypeObject *type = Py_TYPE(obj);
    if (layout->type != type) dg_learn(type, names, k, layout);
    if (layout->type == type) {
        int i = 0;
        for (; i < k; i++) {
            out[i] = *(PyObject **)((char *)obj + layout->off[i]);
            if (!out[i]) break;
        }
        if (i == k) {
            for (i = 0; i < k; i++) Py_INCREF(out[i]);
            return 0;
        }
    }
    for (int i = 0; i < k; i++) {
        if (!(out[i] = PyObject_GetAttr(obj, *names[i]))) {
            while (i--) Py_CLEAR(out[i]);
            return -1;
        }
    }
    return 0;
}

typedef struct {
    const Tables *t;
    PyObject *const *players;
    int n;
    const unsigned char *in_play;
    int n_in_play, start, size, mask, rule1;
    PyObject *unset;
    PyObject *tokens;  /* tuple: each placement's text by tile * 4 + dir */
    int per_line;
    int hand[DG_MAX_PLAYERS][DG_MAX_HAND];
    int held[DG_MAX_PLAYERS];
    int deck[DG_MAX_HAND];
    int ndeck, top;
    int cards[DG_MAX_PLAYERS][2];  /* the LOST cards in the order laid: seat, tile */
    int ncards;
} DgState;

/* Deal the exploration's hands and deck; 1 a right deal, 0 declined, -1 on an error. */
static int dg_deal(DgState *s, PyObject *hands, PyObject *deck) {
    if (!PyDict_CheckExact(hands) || !PyTuple_CheckExact(deck)) return 0;
    if (PyDict_GET_SIZE(hands) != s->n) return 0;
    unsigned char seen[256] = {0};
    int total = 0;
    for (int p = 0; p < s->n; p++) {
        PyObject *hand = PyDict_GetItemWithError(hands, s->players[p]);  /* borrowed */
        if (!hand) return PyErr_Occurred() ? -1 : 0;
        if (!PyTuple_CheckExact(hand) || PyTuple_GET_SIZE(hand) != s->size) return 0;
        for (int i = 0; i < s->size; i++) {
            int tile = dg_tile(s->t, PyTuple_GET_ITEM(hand, i));
            if (tile < 0 || !s->in_play[tile] || seen[tile]) return 0;
            seen[tile] = 1;
            s->hand[p][i] = tile;
        }
        s->held[p] = s->size;
        total += s->size;
    }
    Py_ssize_t nd = PyTuple_GET_SIZE(deck);
    if (nd + total != s->n_in_play || nd > DG_MAX_HAND) return 0;
    for (Py_ssize_t i = 0; i < nd; i++) {
        int tile = dg_tile(s->t, PyTuple_GET_ITEM(deck, i));
        if (tile < 0 || !s->in_play[tile] || seen[tile]) return 0;
        seen[tile] = 1;
        s->deck[i] = tile;
    }
    s->ndeck = (int)nd;
    s->top = 0;
    return 1;
}

/* The player's LOST announcements of one turn (a tuple of names): appended to the cards
 * (seat, after) as Replay._announce lays them, a rule #1 priority event to `events`;
 * 1 clean, 0 declined, -1 on an error. */
static int dg_announce(DgState *s, PyObject *lost, PyObject *together, int t, int player,
                       int after, int *team, int *card_after, PyObject *events) {
    Py_ssize_t k = PyTuple_GET_SIZE(lost);
    if (k > s->n) return 0;
    int valid[DG_MAX_PLAYERS];
    for (Py_ssize_t i = 0; i < k; i++) {
        int seat = dg_seat(PyTuple_GET_ITEM(lost, i), s->players, s->n);
        if (seat < 0 || seat == player || !team[seat]) return 0;
        for (Py_ssize_t j = 0; j < i; j++)
            if (valid[j] == seat) return 0;
        valid[i] = seat;
    }
    if (s->rule1 && k > 1) {
        int first = together == Py_False;
        int standing = valid[0];
        if (!first) {  /* the earliest in turn order after the player */
            for (Py_ssize_t i = 1; i < k; i++)
                if ((valid[i] - player + s->n) % s->n < (standing - player + s->n) % s->n)
                    standing = valid[i];
        }
        PyObject *void_ = PyTuple_New(k - 1);
        if (!void_) return -1;
        Py_ssize_t v = 0;
        for (Py_ssize_t i = 0; i < k; i++) {
            if (valid[i] == standing) continue;
            PyObject *seat = PyLong_FromLong(valid[i]);
            if (!seat) {
                Py_DECREF(void_);
                return -1;
            }
            PyTuple_SET_ITEM(void_, v++, seat);
        }
        PyObject *event = Py_BuildValue("(iiiNi)", t, player, standing, void_, first);
        if (!event) return -1;
        int failed = PyList_Append(events, event);
        Py_DECREF(event);
        if (failed) return -1;
        valid[0] = standing;
        k = 1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        team[valid[i]] = 0;
        card_after[valid[i]] = after;
        s->cards[s->ncards][0] = valid[i];
        s->cards[s->ncards++][1] = after;
    }
    return 1;
}

/* Remove `tile` from the player's hand; 0 if it is not there. */
static int dg_from_hand(DgState *s, int player, int tile) {
    int *hand = s->hand[player];
    for (int i = 0; i < s->held[player]; i++) {
        if (hand[i] == tile) {
            memmove(hand + i, hand + i + 1, (size_t)(s->held[player] - i - 1) * sizeof *hand);
            s->held[player]--;
            return 1;
        }
    }
    return 0;
}

/* The stack in compact notation as state.stack_notation writes it: each placement's token,
 * the LOST cards laid after a tile after it (" !name", in the order laid), per_line tokens a
 * line. NULL on an error. */
static PyObject *dg_display(DgState *s, const int *tiles, const int *dirs, int n) {
    static PyObject *space, *newline, *bang, *empty;  /* made once, kept */
    PyObject *pieces = PyList_New(0), *out = NULL;
    if (!pieces || (!space && !(space = PyUnicode_InternFromString(" "))) ||
        (!newline && !(newline = PyUnicode_InternFromString("\n"))) ||
        (!bang && !(bang = PyUnicode_InternFromString(" !"))) ||
        (!empty && !(empty = PyUnicode_InternFromString(""))))
        goto done;
    for (int k = 0; k < n; k++) {
        if (k && PyList_Append(pieces, k % s->per_line || n <= s->per_line ? space : newline))
            goto done;
        PyObject *token = PyTuple_GET_ITEM(s->tokens, tiles[k] * 4 + dirs[k]);
        if (PyList_Append(pieces, token)) goto done;
        for (int c = 0; c < s->ncards; c++) {
            if (s->cards[c][1] != k + 1) continue;
            if (PyList_Append(pieces, bang) ||
                PyList_Append(pieces, s->players[s->cards[c][0]]))
                goto done;
        }
    }
    out = PyUnicode_Join(empty, pieces);
done:
    Py_XDECREF(pieces);
    return out;
}

/* One exploration; its trace (see dungeon_replay), None declined, NULL on an error.
 * *last: in: the seat that took the last turn before (-1: the first exploration), out: this
 * exploration's. */
static PyObject *dg_exploration(DgState *s, PyObject *exp, int *last) {
    PyObject *result = NULL, *events = NULL, *display = NULL, *outcomes = NULL, *cards = NULL;
    PyObject *start_obj = NULL, *turns = NULL, *hands = NULL, *deck = NULL;
    int tiles[MAX_TILES], dirs[MAX_TILES], cells[MAX_TILES];
    int team[DG_MAX_PLAYERS], card_after[DG_MAX_PLAYERS];
    s->ncards = 0;
    if (!(start_obj = dg_get(exp, S_start_player)) || !(turns = dg_get(exp, S_turns)) ||
        !(hands = dg_get(exp, S_hands)) || !(deck = dg_get(exp, S_deck)))
        goto done;
    int starter = dg_seat(start_obj, s->players, s->n);
    if (starter < 0 || (*last >= 0 && starter != *last) || !PyTuple_CheckExact(turns))
        goto decline;
    int dealt = dg_deal(s, hands, deck);
    if (dealt < 0) goto done;
    if (!dealt) goto decline;
    if (!(events = PyList_New(0))) goto done;
    for (int p = 0; p < s->n; p++) {
        team[p] = 1;
        card_after[p] = 0;
    }
    int in_team = s->n, nstack = 1, active = -1, following = -1, ended = -1, end_seat = -1;
    tiles[0] = s->start;
    dirs[0] = 0;
    Py_ssize_t nturns = PyTuple_GET_SIZE(turns);
    for (Py_ssize_t i = 0; i < nturns; i++) {
        if (ended >= 0 || nstack >= MAX_TILES) goto decline;
        PyObject *turn = PyTuple_GET_ITEM(turns, i);
        PyObject *f[6] = {0};  /* player, tile, dir, draw, lost, simultaneous */
        static PyObject **const names[6] = {&S_player, &S_tile, &S_dir, &S_draw, &S_lost,
                                            &S_simultaneous};
        int ok = dg_fields(turn, names, 6, &dg_turn_layout, f) == 0;
        PyObject *together = f[5];
        int step = -1;  /* -1 an error, 0 declined, 1 played */
        if (ok) {
            int player = dg_seat(f[0], s->players, s->n);
            int expected = active < 0 ? starter : following;
            int tile = dg_tile(s->t, f[1]);
            int dir = -1;
            if (PyUnicode_CheckExact(f[2]) && PyUnicode_GET_LENGTH(f[2]) == 1) {
                switch (PyUnicode_READ_CHAR(f[2], 0)) {
                case 'N': dir = 0; break;
                case 'E': dir = 1; break;
                case 'S': dir = 2; break;
                case 'W': dir = 3; break;
                default: break;
                }
            }
            step = 0;
            if (player >= 0 && player == expected && tile >= 0 && dir >= 0 &&
                PyTuple_CheckExact(f[4]) && dg_from_hand(s, player, tile)) {
                tiles[nstack] = tile;
                dirs[nstack] = dir;
                nstack++;
                int top = s->top < s->ndeck ? s->deck[s->top] : -1;
                int drawn_ok = 1;
                if (f[3] != s->unset) {
                    if (f[3] == Py_None) drawn_ok = top < 0;
                    else drawn_ok = top >= 0 && dg_tile(s->t, f[3]) == top;
                }
                if (drawn_ok) {
                    if (top >= 0) {
                        s->top++;
                        if (s->held[player] >= DG_MAX_HAND) drawn_ok = 0;
                        else s->hand[player][s->held[player]++] = top;
                    }
                }
                step = drawn_ok;
                if (step && PyTuple_GET_SIZE(f[4])) {
                    step = dg_announce(s, f[4], together, (int)i + 1, player, nstack, team,
                                       card_after, events);
                    if (step > 0) {
                        in_team = 0;
                        for (int p = 0; p < s->n; p++) in_team += team[p];
                    }
                }
                if (step > 0) {
                    active = player;
                    following = -1;
                    if (in_team <= 1) {
                        ended = 0;
                        end_seat = player;
                    } else {
                        for (int k = 1; k < s->n; k++) {
                            int next = (player + k) % s->n;
                            if (team[next]) {
                                following = next;
                                if (!s->held[next]) {
                                    ended = 1;
                                    end_seat = next;
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
        for (int k = 0; k < 6; k++) Py_XDECREF(f[k]);
        if (step < 0) goto done;
        if (!step) goto decline;
    }
    if (ended < 0) goto decline;  /* the log stops while the exploration goes on */
    if (!stack_grid && !(stack_grid = grid_new())) goto done;
    int move = 0, ncells = 0, lost_at = 0;
    int code = trace(s->t, stack_grid, tiles, dirs, nstack, s->mask, 0, &move, cells, &ncells,
                     &lost_at);
    if (!(display = dg_display(s, tiles, dirs, nstack))) goto done;
    int lost_token = lost_at ? tiles[lost_at - 1] * 4 + dirs[lost_at - 1] : -1;
    int scoring = 0;  /* the first tile of LOST cards at or after the Lost point */
    for (int p = 0; p < s->n; p++) {
        if (lost_at && card_after[p] >= lost_at && (!scoring || card_after[p] < scoring))
            scoring = card_after[p];
    }
    if (!(cards = PyTuple_New(s->ncards))) goto done;
    for (int k = 0; k < s->ncards; k++) {
        PyObject *v = dg_ints(2, s->cards[k][0], s->cards[k][1], 0, 0);
        if (!v) goto done;
        PyTuple_SET_ITEM(cards, k, v);
    }
    if (!(outcomes = PyTuple_New(s->n))) goto done;
    for (int p = 0; p < s->n; p++) {
        int after = card_after[p], kind, points = 0;
        if (!after) {
            kind = lost_at ? DG_STAYED : DG_HELD_ON;
            points = !lost_at;
        } else if (!lost_at || after < lost_at) {
            kind = DG_EARLY;
        } else if (after == scoring) {
            kind = DG_SCORED;
            points = 1;
        } else {
            kind = DG_TOO_LATE;
        }
        PyObject *v = dg_ints(4, p, kind, after, points);
        if (!v) goto done;
        PyTuple_SET_ITEM(outcomes, p, v);
    }
    *last = active < 0 ? starter : active;
    result = Py_BuildValue("(inOiiiiiiiOOO)", starter, nturns, events, ended, end_seat, *last,
                           lost_at, code, nstack, lost_token, display, cards, outcomes);
    goto done;
decline:
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(start_obj);
    Py_XDECREF(turns);
    Py_XDECREF(hands);
    Py_XDECREF(deck);
    Py_XDECREF(events);
    Py_XDECREF(display);
    Py_XDECREF(outcomes);
    Py_XDECREF(cards);
    return result;
}

/* dungeon_replay(tables, explorations, players, in_play, start, size, mask, rule1, unset,
 *                tokens, per_line) -> tuple of explorations or None
 * explorations: the ExplorationEntry structs of a game/1 log of the tables' tile set; players:
 * the players (a tuple of 2-5 str); in_play: bytes, 1 for each tile number in play in the
 * mode; start: the START tile's number; size: the hand size; mask: the tracing mask of the
 * additional rules; rule1: additional rule #1 is in play; unset: msgspec.UNSET; tokens: each
 * placement's text (a str) by tile * 4 + dir; per_line: tokens a line of the notation.
 * Each exploration: (start seat, turns, priority events [(turn, player seat, standing seat,
 * void seats, by the first)], end kind (0 one player left, 1 the next one has no tile), the
 * seat that ends it, the seat that took the last turn, lost_at (0: never), reason code, the
 * height of the stack, the tile it got Lost at (its token's number, tile * 4 + dir; -1:
 * never), the stack in compact notation, the LOST cards in the order laid ((seat, tile)
 * each), the outcome of each seat (seat, kind, LOST card's tile or 0, points)).
 * None when anything would make a violation, a note or a RecordError. */
static PyObject *dungeon_replay(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *explorations, *players, *in_play, *unset, *tokens;
    int start, size, mask, rule1, per_line;
    if (!PyArg_ParseTuple(args, "OO!O!SiiiiOO!i", &capsule, &PyTuple_Type, &explorations,
                          &PyTuple_Type, &players, &in_play, &start, &size, &mask, &rule1,
                          &unset, &PyTuple_Type, &tokens, &per_line))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    if (PyBytes_GET_SIZE(in_play) != t->ntiles || PyTuple_GET_SIZE(tokens) != 4 * t->ntiles ||
        per_line < 1) {
        PyErr_SetString(PyExc_ValueError, "dungeon_replay: in_play, tokens or per_line do "
                                          "not fit the tables");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tokens); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(tokens, i))) {
            PyErr_SetString(PyExc_TypeError, "dungeon_replay: a token is not a str");
            return NULL;
        }
    }
    if (n < 2 || n > DG_MAX_PLAYERS || size < 1 || size > 16 || start < 0 ||
        start >= t->ntiles)
        Py_RETURN_NONE;
    DgState *s = PyMem_Calloc(1, sizeof *s);
    if (!s) return PyErr_NoMemory();
    s->t = t;
    s->players = &PyTuple_GET_ITEM(players, 0);
    s->n = (int)n;
    s->in_play = (const unsigned char *)PyBytes_AS_STRING(in_play);
    for (Py_ssize_t i = 0; i < t->ntiles; i++) s->n_in_play += s->in_play[i] != 0;
    s->start = start;
    s->size = size;
    s->mask = mask;
    s->rule1 = rule1;
    s->unset = unset;
    s->tokens = tokens;
    s->per_line = per_line;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(players, i))) goto decline;
    Py_ssize_t count = PyTuple_GET_SIZE(explorations);
    PyObject *out = PyTuple_New(count);
    if (!out) goto fail;
    int last = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *one = dg_exploration(s, PyTuple_GET_ITEM(explorations, i), &last);
        if (!one) {
            Py_DECREF(out);
            goto fail;
        }
        if (one == Py_None) {
            Py_DECREF(out);
            PyMem_Free(s);
            return one;
        }
        PyTuple_SET_ITEM(out, i, one);
    }
    PyMem_Free(s);
    return out;
decline:
    PyMem_Free(s);
    Py_RETURN_NONE;
fail:
    PyMem_Free(s);
    return NULL;
}
