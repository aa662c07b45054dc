/* pathcheck._speedups, part of the one translation unit _speedups.c: the replay of a clean
 * memo-dice/1 log as msgspec decoded it (pathcheck.games.memo_dice.log.MemoDiceEntry), into
 * plain C values that memo_dice_word.c words. It takes only what the Python replay
 * (games/memo_dice/state.py) rules on without a violation or a note: every roll in turn
 * order, each die once, on the face the dice list (when given) shows under the very symbol
 * written, each cup of the symbol's colour while one is left, the golden cup last (for the
 * last die or a colour with no cup left); then every cup uncovered in order, by the player
 * whose turn it is; and the game ended by its last round, or not ended at all. At anything
 * else it declines (0), and the Python replay rules on the whole log and words every fault. */

#define MD_MAX_PLAYERS 4
#define MD_DICE 9
#define MD_FACES 6
#define MD_GOLDEN 3                /* the cups: red, blue, black (the colours) and golden */
#define MD_CUPS_PER_COLOUR 3

/* How a cup was taken (memo_dice_word's code of a cover's words): */
enum { MD_PLAIN, MD_LAST_LEFT, MD_LAST_NONE, MD_NO_CUP };

typedef struct {
    PyObject *symbol;  /* borrowed: held by the log's frozen structs */
    PyObject *named;   /* the answer (borrowed; NULL: none) */
    int die, colour, cup, coverer, guesser, holder, right;
} MdCup;

typedef struct {
    MdCup cups[MD_DICE];
    int ncups, golden;  /* golden: how the golden cup was taken (MD_LAST_LEFT ...) */
    int first;          /* the seat that begins it */
    long gained[MD_MAX_PLAYERS], scores[MD_MAX_PLAYERS];  /* this round's points, the sums */
} MdRound;

typedef struct {
    int n, nrounds, ended;  /* ended: someone reached the target in the last round */
    MdRound *rounds;
} MdGame;

static PyObject *S_covering, *S_uncovering, *S_symbol, *S_colour, *S_cup, *S_die, *S_guess;

static int md_names(void) {
    if (S_covering) return 0;
#define MD_INTERN(var, text) if (!(var = PyUnicode_InternFromString(text))) return -1
    MD_INTERN(S_covering, "covering");
    MD_INTERN(S_uncovering, "uncovering");
    MD_INTERN(S_symbol, "symbol");
    MD_INTERN(S_colour, "colour");
    MD_INTERN(S_cup, "cup");
    MD_INTERN(S_die, "die");
    MD_INTERN(S_guess, "guess");
#undef MD_INTERN
    return 0;
}

/* Where each of the log's struct types keeps the fields read of it (dungeon_replay.c's
 * dg_fields: read from their slots, not through a getattr each). */
static DgLayout md_round_layout, md_roll_layout, md_guess_layout, md_face_layout;
static PyObject **const md_round_names[2] = {&S_covering, &S_uncovering};
static PyObject **const md_roll_names[5] = {&S_player, &S_die, &S_symbol, &S_colour, &S_cup};
static PyObject **const md_guess_names[3] = {&S_player, &S_cup, &S_guess};
static PyObject **const md_face_names[2] = {&S_symbol, &S_colour};

/* The fields `names` (k <= 6) of a struct as borrowed references in `out` (the frozen struct
 * holds them); -1 with an error set. */
static int md_fields(PyObject *obj, PyObject **const *names, int k, DgLayout *layout,
                     PyObject **out) {
    if (dg_fields(obj, names, k, layout, out) < 0) return -1;
    for (int i = 0; i < k; i++) Py_DECREF(out[i]);
    return 0;
}

/* Whether two str are equal (exact str only; 0 for anything else). */
static int md_eq(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (!PyUnicode_CheckExact(a) || !PyUnicode_CheckExact(b)) return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    if (n != PyUnicode_GET_LENGTH(b) || PyUnicode_KIND(a) != PyUnicode_KIND(b)) return 0;
    return !memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * PyUnicode_KIND(a));
}

/* The seat of a player's name, -1 if it is no exact str at the table. */
static int md_seat(PyObject *name, PyObject *const *players, int n) {
    for (int p = 0; p < n; p++)
        if (md_eq(name, players[p])) return p;
    return -1;
}

/* A colour (red, blue, black) or a cup (those and golden) by its name; -1 for anything else. */
static int md_colour(PyObject *name) {
    static const char *const NAMES[4] = {"red", "blue", "black", "golden"};
    if (!PyUnicode_CheckExact(name) || !PyUnicode_IS_ASCII(name)) return -1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    const char *s = (const char *)PyUnicode_DATA(name);
    for (int c = 0; c < 4; c++)
        if ((size_t)n == strlen(NAMES[c]) && !memcmp(s, NAMES[c], (size_t)n)) return c;
    return -1;
}

/* Whether a str has a UTF-8 form (kept in it for the wording; no lone surrogate). */
static int md_utf8(PyObject *text) {
    if (PyUnicode_AsUTF8AndSize(text, NULL)) return 1;
    PyErr_Clear();
    return 0;
}

/* An int field in [lo, hi], or -1 (then the log is declined). */
static int md_int(PyObject *value, int lo, int hi) {
    if (!PyLong_CheckExact(value)) return -1;
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return v < lo || v > hi ? -1 : (int)v;
}

/* str.isspace for ASCII (what str.split() splits at). */
static int md_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }

static unsigned char md_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* rules.symbol_key(a) == symbol_key(b) for ASCII text: the words, case left out. */
static int md_key_eq(const unsigned char *a, Py_ssize_t na, const unsigned char *b,
                     Py_ssize_t nb) {
    Py_ssize_t i = 0, j = 0;
    for (;;) {
        while (i < na && md_space(a[i])) i++;
        while (j < nb && md_space(b[j])) j++;
        if (i == na || j == nb) return i == na && j == nb;
        while (i < na && !md_space(a[i]) && j < nb && !md_space(b[j])) {
            if (md_lower(a[i]) != md_lower(b[j])) return 0;
            i++;
            j++;
        }
        if ((i < na && !md_space(a[i])) || (j < nb && !md_space(b[j]))) return 0;
    }
}

/* rules.same_symbol(a, b): 1, 0, or -1 on an error (non-ASCII text asks Python's `same`). */
static int md_same(PyObject *a, PyObject *b, PyObject *same) {
    if (md_eq(a, b)) return 1;
    if (PyUnicode_IS_ASCII(a) && PyUnicode_IS_ASCII(b))
        return md_key_eq((const unsigned char *)PyUnicode_DATA(a), PyUnicode_GET_LENGTH(a),
                         (const unsigned char *)PyUnicode_DATA(b), PyUnicode_GET_LENGTH(b));
    PyObject *result = PyObject_CallFunctionObjArgs(same, a, b, NULL);
    if (!result) return -1;
    int truth = PyObject_IsTrue(result);
    Py_DECREF(result);
    return truth;
}

/* The faces of the dice: symbol (borrowed) and colour of face f of die d at [d * 6 + f]. */
typedef struct {
    PyObject *symbol[MD_DICE * MD_FACES];
    int colour[MD_DICE * MD_FACES];
} MdDice;

/* Read the dice (a tuple of 9 tuples of 6 faces of type `Face`); 1 read, 0 declined, -1. */
static int md_dice(PyObject *dice, PyObject *Face, MdDice *out) {
    if (!PyTuple_CheckExact(dice) || PyTuple_GET_SIZE(dice) != MD_DICE) return 0;
    for (int d = 0; d < MD_DICE; d++) {
        PyObject *die = PyTuple_GET_ITEM(dice, d);
        if (!PyTuple_CheckExact(die) || PyTuple_GET_SIZE(die) != MD_FACES) return 0;
        for (int f = 0; f < MD_FACES; f++) {
            PyObject *face = PyTuple_GET_ITEM(die, f), *sc[2];
            if (Py_TYPE(face) != (PyTypeObject *)Face) return 0;
            if (md_fields(face, md_face_names, 2, &md_face_layout, sc)) return -1;
            PyObject *symbol = sc[0], *colour = sc[1];
            int c = md_colour(colour);
            if (c < 0 || c == MD_GOLDEN || !PyUnicode_CheckExact(symbol)) return 0;
            out->symbol[d * MD_FACES + f] = symbol;
            out->colour[d * MD_FACES + f] = c;
        }
    }
    return 1;
}

/* Covering: the row of round `r` from its rolls; 1 clean, 0 declined, -1 on an error. */
static int md_cover(PyObject *covering, PyObject *Roll, PyObject *const *players, int n,
                    const MdDice *dice, int expected, MdRound *r) {
    Py_ssize_t count = PyTuple_GET_SIZE(covering);
    if (count < 1 || count > MD_DICE) return 0;
    int left[3] = {MD_CUPS_PER_COLOUR, MD_CUPS_PER_COLOUR, MD_CUPS_PER_COLOUR};
    unsigned rolled = 0;
    r->ncups = (int)count;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *roll = PyTuple_GET_ITEM(covering, k), *f[5];
        if (Py_TYPE(roll) != (PyTypeObject *)Roll) return 0;
        if (md_fields(roll, md_roll_names, 5, &md_roll_layout, f)) return -1;
        MdCup *cup = &r->cups[k];
        cup->coverer = md_seat(f[0], players, n);
        cup->die = md_int(f[1], 1, MD_DICE);
        cup->symbol = f[2];
        cup->colour = md_colour(f[3]);
        cup->cup = md_colour(f[4]);
        cup->named = NULL;
        if (cup->coverer < 0 || cup->die < 0 || !PyUnicode_CheckExact(f[2]) ||
            !md_utf8(f[2]) || cup->colour < 0 || cup->colour == MD_GOLDEN || cup->cup < 0)
            return 0;
        if (expected >= 0 && cup->coverer != expected) return 0;
        if (rolled >> cup->die & 1) return 0;
        if (dice) {
            int face = -1;
            for (int i = (cup->die - 1) * MD_FACES; i < cup->die * MD_FACES; i++)
                if (md_eq(dice->symbol[i], cup->symbol)) face = i;
            if (face < 0 || dice->colour[face] != cup->colour) return 0;  /* (or the key's) */
        }
        rolled |= 1u << cup->die;
        int last = rolled == ((1u << (MD_DICE + 1)) - 2);
        if (cup->cup == MD_GOLDEN) {
            if (k != count - 1) return 0;  /* rolls after covering ended */
            if (last) {
                r->golden = left[cup->colour] > 0 ? MD_LAST_LEFT : MD_LAST_NONE;
            } else if (left[cup->colour] <= 0) {
                r->golden = MD_NO_CUP;
            } else {
                return 0;
            }
        } else {
            if (last || left[cup->colour] <= 0 || cup->cup != cup->colour) return 0;
            left[cup->cup]--;
        }
        expected = (cup->coverer + 1) % n;
    }
    return r->cups[count - 1].cup == MD_GOLDEN;
}

/* Uncovering, in order, each answer by the player whose turn it is; 1 clean, 0, -1. */
static int md_uncover(PyObject *uncovering, PyObject *Guess, PyObject *const *players, int n,
                      PyObject *same, MdRound *r) {
    if (PyTuple_GET_SIZE(uncovering) != r->ncups) return 0;  /* cups left or lifted twice */
    int expected = r->cups[r->ncups - 1].coverer;
    for (int j = 0; j < r->ncups; j++) {
        PyObject *guess = PyTuple_GET_ITEM(uncovering, j), *f[3];
        if (Py_TYPE(guess) != (PyTypeObject *)Guess) return 0;
        if (md_fields(guess, md_guess_names, 3, &md_guess_layout, f)) return -1;
        PyObject *player = f[0], *number = f[1], *named = f[2];
        MdCup *cup = &r->cups[j];
        cup->guesser = md_seat(player, players, n);
        if (cup->guesser != expected || md_int(number, 1, MD_DICE) != j + 1) return 0;
        if (named == Py_None) {
            cup->right = 0;
        } else if (!PyUnicode_CheckExact(named) || !md_utf8(named)) {
            return 0;
        } else {
            cup->named = named;
            if ((cup->right = md_same(named, cup->symbol, same)) < 0) return -1;
        }
        cup->holder = cup->right ? cup->guesser : (cup->guesser + 1) % n;
        expected = cup->holder;
    }
    return 1;
}

/* Replay the log: 1 clean (g filled; md_free it), 0 declined, -1 on an error. types: the
 * format's RoundEntry, RollEntry, GuessEntry and FaceEntry. */
static int md_replay(PyObject *rounds, PyObject *players, PyObject *dice_obj,
                     PyObject *const *types, PyObject *same, long target, MdGame *g) {
    g->rounds = NULL;
    g->nrounds = 0;
    g->ended = 0;
    if (md_names()) return -1;
    Py_ssize_t count = PyTuple_GET_SIZE(rounds);
    int n = (int)PyTuple_GET_SIZE(players);
    g->n = n;
    if (count < 1 || count > 100000 || n < 2 || n > MD_MAX_PLAYERS) return 0;
    PyObject *const *names = &PyTuple_GET_ITEM(players, 0);
    for (int p = 0; p < n; p++)
        if (!PyUnicode_CheckExact(names[p]) || !md_utf8(names[p])) return 0;
    MdDice dice;
    if (dice_obj != Py_None) {
        int read = md_dice(dice_obj, types[3], &dice);
        if (read <= 0) return read;
    }
    if (!(g->rounds = PyMem_Calloc((size_t)count, sizeof(MdRound)))) {
        PyErr_NoMemory();
        return -1;
    }
    long scores[MD_MAX_PLAYERS] = {0};
    int next = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *rnd = PyTuple_GET_ITEM(rounds, i), *parts[2];
        MdRound *r = &g->rounds[i];
        if (g->ended) return 0;  /* a round after the game's end */
        if (Py_TYPE(rnd) != (PyTypeObject *)types[0]) return 0;
        if (md_fields(rnd, md_round_names, 2, &md_round_layout, parts)) return -1;
        PyObject *covering = parts[0], *uncovering = parts[1];
        if (!PyTuple_CheckExact(covering) || !PyTuple_CheckExact(uncovering)) return 0;
        int status = md_cover(covering, types[1], names, n, dice_obj == Py_None ? NULL : &dice,
                              next, r);
        if (status <= 0) return status;
        if ((status = md_uncover(uncovering, types[2], names, n, same, r)) <= 0) return status;
        g->nrounds = (int)i + 1;
        r->first = r->cups[0].coverer;
        for (int k = 0; k < r->ncups; k++) {
            r->gained[r->cups[k].holder] += r->cups[k].cup == MD_GOLDEN ? 2 : 1;
            if (r->cups[k].cup == MD_GOLDEN) next = r->cups[k].holder;
        }
        for (int p = 0; p < n; p++) {
            scores[p] += r->gained[p];
            r->scores[p] = scores[p];
            if (scores[p] >= target) g->ended = 1;
        }
    }
    return 1;
}

static void md_free(MdGame *g) {
    PyMem_Free(g->rounds);
    g->rounds = NULL;
}
