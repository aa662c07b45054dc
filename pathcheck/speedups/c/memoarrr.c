/* pathcheck._speedups, part of the one translation unit _speedups.c: the reading of a clean
 * Memoarrr! log (pathcheck.games.memoarrr.fast); its replay is memoarrr_replay.c.
 *
 * memoarrr_replay(log, cards) takes a decoded memoarrr/1 log (dicts, lists, str, int, bool,
 * None as msgspec gives them) and `cards`, each card name -> its number in rules.ALL_CARDS
 * (animal * 5 + landscape, Animal and Landscape in their enum order). It checks what
 * plain.read_plain checks and replays the log as island.State.apply does, and gives up (None)
 * at the first thing it does not take: anything read_plain refuses, any fault of a move, a
 * second peek at one side, a disordered ordered stack. What it accepts, the Python path rules
 * legal; the trace it hands back is what fast.py needs to build the same Ruling:
 *
 *   (unseen, complete, rounds), each round
 *   (starter, held_rank, turns, face_up, winner, treasure, events), each event
 *   (kind, index, player, a, b, c, d):
 *     M_SWAP  octopus swap of positions a and b; c the card now at b, d the card now at a
 *             (-1: a card never seen)
 *     M_FAIL  reveal of a (card b) that connects with neither of c: takes volcano d (rank)
 *     M_TAKE  takes volcano d (rank) without revealing
 * Players are seat numbers, positions row * 5 + col, volcanoes by rank (2023: dark 1, light
 * 0; 2018: the birds); winner -1 for a round unfinished in the log.
 *
 * memoarrr_lenient(log, cards) replays as island.State.apply does through the faults too, as
 * long as the log is one read_plain reads, and hands back (unseen, complete, rounds, faults,
 * stop): the rounds as above (up to where the replay stopped), the faults (MF_* below) and
 * why the replay stopped (None, or (M_STOP_*, round, index, player)); see memoarrr_replay.c.
 * memoarrr_lenient(log, cards, texts) marks the reveals too, as the analysis's Python walk
 * (analysis.memoarrr.analyse_replayed) does through faults, and adds (marks, barred).
 *
 * memoarrr_replay(log, cards, texts) also marks each reveal against what its player knew, for
 * the analysis (pathcheck.analysis.memoarrr), and hands back a fourth item: those moves
 * (memoarrr_know.c says what each is; `texts` are the analysis's texts it picks from). */

#define M_SIZE 5
#define M_CENTRE 12
#define M_CARDS 25
#define M_ISLAND 24
#define M_ROUNDS 7
#define M_MAX_PLAYERS 4
enum { M_PENGUIN, M_OCTOPUS, M_CRAB, M_WALRUS, M_TURTLE };
enum { M_SWAP, M_FAIL, M_TAKE };

/* Key names, with the bit each sets in a "seen" mask. */
static const char *const M_TOP_KEYS[] = {
    "format", "edition", "players", "start_player", "island", "peeks", "treasures", "rounds",
    "variants", "comment", NULL};
#define M_TOP_REQUIRED 0xFF
static const char *const M_VARIANT_KEYS[] = {"expert", "ordered_stack", NULL};
static const char *const M_ROUND_KEYS[] = {"volcanoes", "actions", "comment", NULL};
#define M_ROUND_REQUIRED 0x3
static const char *const M_ACTION_KEYS[] = {
    "player", "reveal", "swap", "mark", "peek", "volcano", NULL};
static const char *const M_SIDE_NAMES[] = {"north", "east", "south", "west", NULL};
/* The 3 middle cards of each outer side (rules.SIDES), as position masks. */
static const uint32_t M_SIDE_MASK[4] = {
    (1u << 1) | (1u << 2) | (1u << 3),
    (1u << 9) | (1u << 14) | (1u << 19),
    (1u << 21) | (1u << 22) | (1u << 23),
    (1u << 5) | (1u << 10) | (1u << 15),
};

/* Whether the `len` ASCII characters at `data` spell `name` (a NUL-ended name). */
static int m_spells(const char *data, Py_ssize_t len, const char *name) {
    for (Py_ssize_t i = 0; i < len; i++)
        if (name[i] == 0 || name[i] != data[i]) return 0;
    return name[len] == 0;
}

/* The index of `key` in the NULL-ended `names` (ASCII), or -1 (also for a key that is no
 * str: a str that is not ASCII names none). */
static int m_key(PyObject *key, const char *const *names) {
    if (!PyUnicode_CheckExact(key)) return -1;
    if (!PyUnicode_IS_COMPACT_ASCII(key)) {  /* compact non-ASCII or legacy: the slow way */
        for (int i = 0; names[i]; i++)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) return i;
        return -1;
    }
    const char *data = (const char *)PyUnicode_DATA(key);
    Py_ssize_t len = PyUnicode_GET_LENGTH(key);
    for (int i = 0; names[i]; i++)
        if (m_spells(data, len, names[i])) return i;
    return -1;
}

/* Fill `values` (one slot per name) from a dict whose keys must all be among `names`; the
 * mask of the keys given, or -1 if the dict has another key. */
static int m_fields(PyObject *dict, const char *const *names, PyObject **values) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int seen = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        int i = m_key(key, names);
        if (i < 0) return -1;
        values[i] = value;
        seen |= 1 << i;
    }
    return seen;
}

/* A position name "A1".."E5" (column, row) -> row * 5 + col; -1 for anything else. */
static int m_position(PyObject *text) {
    if (!PyUnicode_CheckExact(text) || PyUnicode_GET_LENGTH(text) != 2) return -1;
    Py_UCS4 col = PyUnicode_READ_CHAR(text, 0), row = PyUnicode_READ_CHAR(text, 1);
    if (col < 'A' || col > 'E' || row < '1' || row > '5') return -1;
    return (int)(row - '1') * M_SIZE + (int)(col - 'A');
}

/* The seat of `name` among the players, or -1 (also for a name that is no str). */
static int m_seat(PyObject *name, PyObject *const *players, int n) {
    if (!name || !PyUnicode_CheckExact(name)) return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    for (int i = 0; i < n; i++) {
        PyObject *p = players[i];
        if (p == name) return i;
        /* Equal str of the compact (canonical) form have the same kind and bytes. */
        if (PyUnicode_IS_COMPACT(p) && PyUnicode_IS_COMPACT(name)) {
            if (PyUnicode_GET_LENGTH(p) == len && PyUnicode_KIND(p) == PyUnicode_KIND(name) &&
                memcmp(PyUnicode_DATA(p), PyUnicode_DATA(name),
                       (size_t)len * PyUnicode_KIND(name)) == 0)
                return i;
        } else if (PyUnicode_Compare(p, name) == 0) {
            return i;
        }
    }
    return -1;
}

/* A small exact int in [lo, hi], or -1 (bools and big ints are refused). */
static long m_small(PyObject *value, long lo, long hi) {
    if (!PyLong_CheckExact(value)) return -1;
    int overflow;
    long v = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow || v < lo || v > hi) return -1;
    return v;
}

static int m_adjacent(int a, int b) {
    int ra = a / M_SIZE, ca = a % M_SIZE, rb = b / M_SIZE, cb = b % M_SIZE;
    return (ra == rb && (ca - cb == 1 || cb - ca == 1)) ||
           (ca == cb && (ra - rb == 1 || rb - ra == 1));
}

static int m_popcount(uint32_t x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* Whether cards `a` and `b` (numbers animal * 5 + landscape) connect: an animal or a
 * landscape in common. */
static int m_connects(int a, int b) { return a / 5 == b / 5 || a % 5 == b % 5; }

typedef struct {
    int n, edition, expert;
    int grid[M_CARDS];          /* card number by position; -1: none (the centre, unseen) */
    uint32_t up, peeked;
    int stack[M_MAX_PLAYERS], stack_len, stack_top;
    int out[M_MAX_PLAYERS];     /* the rank of the volcano each player took, -1: still in */
    int last, mark, crab, to_move, turns, round_over, round;
    int treasures[M_ROUNDS], treasure_top;
    /* What each player knows of the island (memoarrr_know.c): the places and the cards seen
     * by everyone (every reveal) and by one player only (their side, their peeks). */
    uint32_t public_places, public_cards, own_places[M_MAX_PLAYERS], own_cards[M_MAX_PLAYERS];
    uint32_t kind_places[10];   /* per animal, then per landscape: the places of its cards */
    int reveals;                /* the reveals so far (the moves of the memory span) */
    int seen_at[M_MAX_PLAYERS][M_CARDS];  /* per player and place: the reveal at which they
                                          * last saw its card (0: their side, before round 1) */
    PyObject *marks;            /* the list of moves marked; NULL: not asked for */
    PyObject *best_one, *at, *comma;  /* the texts it picks from (borrowed; comma owned) */
    PyObject *faults;           /* memoarrr_lenient: the faults met (memoarrr_replay.c's
                                 * MF_* tuples); NULL: refuse at the first fault */
    PyObject *barred;           /* memoarrr_lenient with texts: the reveals of places the
                                 * rules bar, not marked (round, index, player, place, why:
                                 * 0 walrus-marked, 1 face up) */
    int stop[4];                /* memoarrr_lenient: why the replay stopped (M_STOP_*), the
                                 * round, move and player; stop[0] = 0: it did not */
    struct MkJson *json;        /* memoarrr_lenient_json: the moves are written here as JSON
                                 * (memoarrr_marks_json.c), `marks` only says they are asked */
} MState;

/* The faults memoarrr_lenient hands back, each (code, round, index, player, a, b, c) in the
 * order island.State.apply and state.Replay find them (pathcheck.games.memoarrr.lenient
 * words them; its F_* names the same codes). */
enum {
    MF_PEEK_SIDE,        /* a: the side, b: who chose it first (setup) */
    MF_ORDERED_STACK,    /* (setup) */
    MF_ROUND_OVER,       /* an action after the round's last volcano (fatal) */
    MF_START_PLAYER,     /* a: who was to move (the same for the next two) */
    MF_CRAB,
    MF_TURN_ORDER,
    MF_MUST_REVEAL,      /* a: the face-down cards */
    MF_FACE_UP,          /* a: the place, b: its card, c: the face-down cards */
    MF_WALRUS_BLOCK,     /* a: the place */
    MF_PEEK_EXCEPTION,   /* a: the place */
    MF_FIXED_POSITIONS,  /* a: the place, b: the swap's target, c: why not (M_WHY) */
    MF_OCTOPUS_ADJACENT, /* a: the target, b: the octopus's place */
    MF_OCTOPUS_UNUSED,
    MF_MARK_NOT_EARNED,  /* a: the target, c: why not */
    MF_WALRUS_LAST_CARD, /* a: the target, b: the face-down cards */
    MF_WALRUS_FACE_DOWN, /* a: the target */
    MF_WALRUS_UNUSED,
    MF_PEEK_NOT_EARNED,  /* a: the target, c: why not */
    MF_PENGUIN_FACE_DOWN, /* a: the target */
    MF_PENGUIN_UNUSED,
    MF_GAME_END,         /* a round after the 7th (round: its number) */
    MF_ROUND_END,        /* a round begun before the last ended; a: the seats still in, bits */
};
/* Why an ability was not earned (the c of MF_FIXED_POSITIONS and MF_*_NOT_EARNED): the
 * basic game, a failed reveal, else the card revealed (its animal says why). */
#define M_WHY_BASIC (-2)
#define M_WHY_FAILED (-1)
/* Why a lenient replay stopped (stop[0]): at a round (game end, round end), at an action
 * after the round ended, at an action of a player already out. */
enum { M_STOP_NONE, M_STOP_ROUND, M_STOP_OVER, M_STOP_OUT };

/* Append fault (code, round, index, player, a, b, c) to s->faults; -1 on a Python error. */
static int m_fault(MState *s, int code, int round, int index, int player, int a, int b,
                   int c) {
    PyObject *fault = Py_BuildValue("(iiiiiii)", code, round, index, player, a, b, c);
    if (!fault) return -1;
    int rc = PyList_Append(s->faults, fault);
    Py_DECREF(fault);
    return rc;
}

static int m_next_clockwise(const MState *s, int player) {
    int candidate = (player + 1) % s->n;
    while (s->out[candidate] >= 0) {
        if (candidate == player) return player;
        candidate = (candidate + 1) % s->n;
    }
    return candidate;
}

/* Append (kind, index, player, a, b, c, d) to `events`; -1 on a Python error. */
static int m_event(PyObject *events, int kind, int index, int player, int a, int b, int c,
                   int d) {
    const int values[7] = {kind, index, player, a, b, c, d};
    PyObject *event = PyTuple_New(7);
    if (!event) return -1;
    for (int i = 0; i < 7; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (!value) {
            Py_DECREF(event);
            return -1;
        }
        PyTuple_SET_ITEM(event, i, value);
    }
    int rc = PyList_Append(events, event);
    Py_DECREF(event);
    return rc;
}

/* The card number `cards` gives `text`: 0..24, -2 for a name it lacks, -1 on an error
 * (a value that is no card number is a ValueError: the table is broken, not the log). */
static int m_card(PyObject *cards, PyObject *text) {
    if (!PyUnicode_CheckExact(text)) return -2;
    PyObject *value = PyDict_GetItemWithError(cards, text);
    if (!value) return PyErr_Occurred() ? -1 : -2;
    long card = m_small(value, 0, M_CARDS - 1);
    if (card < 0) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_replay: a card number out of range");
        return -1;
    }
    return (int)card;
}

/* Read the top of the log into `s`: 1 taken, 0 refused, -1 on an error. */
static int m_read_setup(MState *s, PyObject *log, PyObject *cards, PyObject **players,
                        PyObject **rounds, int *unseen) {
    PyObject *top[10] = {0};
    if (!PyDict_CheckExact(log)) return 0;
    int seen = m_fields(log, M_TOP_KEYS, top);
    if (seen < 0 || (seen & M_TOP_REQUIRED) != M_TOP_REQUIRED) return 0;
    if (!PyUnicode_CheckExact(top[0]) ||
        PyUnicode_CompareWithASCIIString(top[0], "memoarrr/1") != 0)
        return 0;
    s->edition = (int)m_small(top[1], 2018, 2023);
    if (s->edition != 2018 && s->edition != 2023) return 0;
    int ordered = 0;
    s->expert = 0;
    if (top[8]) {
        PyObject *variants[2] = {0};
        if (!PyDict_CheckExact(top[8]) || m_fields(top[8], M_VARIANT_KEYS, variants) < 0)
            return 0;
        for (int i = 0; i < 2; i++)
            if (variants[i] && !PyBool_Check(variants[i])) return 0;
        s->expert = variants[0] == Py_True;
        ordered = variants[1] == Py_True;
    }
    if (top[9] && !PyUnicode_CheckExact(top[9])) return 0;

    PyObject *list = top[2];
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) < 2 ||
        PyList_GET_SIZE(list) > M_MAX_PLAYERS)
        return 0;
    s->n = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < s->n; i++) {
        PyObject *name = PyList_GET_ITEM(list, i);
        if (!PyUnicode_CheckExact(name) || PyUnicode_GET_LENGTH(name) == 0) return 0;
        if (m_seat(name, players, i) >= 0) return 0;  /* a name twice */
        players[i] = name;
    }
    s->to_move = m_seat(top[3], players, s->n);
    if (s->to_move < 0) return 0;

    /* The island: 5 rows of 5, the centre null, no card twice. */
    PyObject *rows = top[4];
    if (!PyList_CheckExact(rows) || PyList_GET_SIZE(rows) != M_SIZE) return 0;
    uint32_t named = 0;
    *unseen = M_ISLAND;
    for (int r = 0; r < M_SIZE; r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        if (!PyList_CheckExact(row) || PyList_GET_SIZE(row) != M_SIZE) return 0;
        for (int c = 0; c < M_SIZE; c++) {
            PyObject *text = PyList_GET_ITEM(row, c);
            int pos = r * M_SIZE + c;
            s->grid[pos] = -1;
            if (text == Py_None) continue;
            if (pos == M_CENTRE) return 0;
            int card = m_card(cards, text);
            if (card < 0) return card == -1 ? -1 : 0;
            if (named >> card & 1) return 0;
            named |= 1u << card;
            s->grid[pos] = card;
            s->kind_places[card / 5] |= 1u << pos;
            s->kind_places[5 + card % 5] |= 1u << pos;
            --*unseen;
        }
    }

    /* The peeks: one side each, every player, no side twice (else a fault). */
    PyObject *peeks = top[5], *key, *value;
    if (!PyDict_CheckExact(peeks) || PyDict_GET_SIZE(peeks) != s->n) return 0;
    for (Py_ssize_t at = 0; PyDict_Next(peeks, &at, &key, &value);)
        if (!PyUnicode_CheckExact(key)) return 0;  /* so looking up a name runs no code */
    s->peeked = 0;
    int sides = 0, first[4] = {0};
    for (int i = 0; i < s->n; i++) {
        PyObject *side = PyDict_GetItemWithError(peeks, players[i]);
        if (!side) return PyErr_Occurred() ? -1 : 0;
        int k = m_key(side, M_SIDE_NAMES);
        if (k < 0) return 0;
        if (sides >> k & 1) {  /* a side chosen twice: a fault of the setup */
            if (!s->faults) return 0;
            if (m_fault(s, MF_PEEK_SIDE, 0, 0, i, k, first[k], 0) < 0) return -1;
        } else {
            first[k] = i;
        }
        sides |= 1 << k;
        s->peeked |= M_SIDE_MASK[k];
        s->own_places[i] = 0;  /* a place the log leaves out (null) counts as unseen */
        for (int pos = 0; pos < M_CARDS; pos++)
            if ((M_SIDE_MASK[k] >> pos & 1) && s->grid[pos] >= 0) {
                s->own_places[i] |= 1u << pos;
                s->own_cards[i] |= 1u << s->grid[pos];
            }
    }

    /* The treasures: 1,1,2,2,2,3,4 in any order (top first), in order for the variant. */
    static const int WANT[M_ROUNDS] = {1, 1, 2, 2, 2, 3, 4};
    PyObject *treasures = top[6];
    if (!PyList_CheckExact(treasures) || PyList_GET_SIZE(treasures) != M_ROUNDS) return 0;
    int count[5] = {0}, in_order = 1;
    for (int i = 0; i < M_ROUNDS; i++) {
        long t = m_small(PyList_GET_ITEM(treasures, i), 1, 4);
        if (t < 0) return 0;
        count[t]++;
        s->treasures[i] = (int)t;
        in_order &= t == WANT[i];
    }
    if (count[1] != 2 || count[2] != 3 || count[3] != 1 || count[4] != 1) return 0;
    if (ordered && !in_order) {
        if (!s->faults) return 0;
        if (m_fault(s, MF_ORDERED_STACK, 0, 0, 0, 0, 0, 0) < 0) return -1;
    }
    s->treasure_top = 0;
    if (!PyList_CheckExact(top[7])) return 0;
    *rounds = top[7];
    return 1;
}

/* The volcano ranks of one round into s->stack; the set's mask, or -1 if refused. */
static int m_volcanoes(MState *s, PyObject *raw) {
    if (!PyList_CheckExact(raw) || PyList_GET_SIZE(raw) != s->n - 1) return -1;
    int set = 0, dark = 0;
    for (int i = 0; i < s->n - 1; i++) {
        PyObject *v = PyList_GET_ITEM(raw, i);
        int rank;
        if (s->edition == 2023) {
            if (!PyUnicode_CheckExact(v)) return -1;
            if (PyUnicode_CompareWithASCIIString(v, "dark") == 0) rank = 1, dark++;
            else if (PyUnicode_CompareWithASCIIString(v, "light") == 0) rank = 0;
            else return -1;
        } else {
            rank = (int)m_small(v, 1, 7);
            if (rank != 1 && rank != 3 && rank != 7) return -1;
            if (set >> rank & 1) return -1;  /* each 2018 volcano exists once */
        }
        set |= 1 << rank;
        s->stack[i] = rank;
    }
    if (s->edition == 2023 && dark != 1) return -1;
    s->stack_len = s->n - 1;
    return set;
}
