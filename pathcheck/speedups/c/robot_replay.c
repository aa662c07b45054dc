/* pathcheck._speedups, part of the one translation unit _speedups.c: the replay of a clean
 * robot-memory/1 log (rm_replay), for pathcheck.games.robot_memory.fast; robot_word.c words
 * what it finds.
 *
 * It reads the log as msgspec decoded it (the RobotMemoryEntry structs of
 * games/robot_memory/log.py) and replays what games/robot_memory/state.Replay replays (the
 * seats, each round's layout and first active player, who points and who guesses, every card
 * turned once, the points of each guess and the chain after a short circuit named, every card
 * turned by the round's end, three rounds), and declines at the first thing that would make a
 * violation, a note, a Captain's change or a RecordError (and at anything it does not know):
 * the Python replay then rules on the log. A guess's points come from the table `said`, which
 * Python fills (robot_memory/fast.py, `_word`) the first time a guess meets a card. */

#define RM_MAX_SIDES 16
#define RM_MAX_PEOPLE 32
#define RM_ROUNDS 3
#define RM_MAX_PLACES 400       /* a 20x20 grid: every card is turned once */
#define RM_SHORT 64             /* a card's code: 0-63 the memory cards, 64 a short circuit */
#define RM_HOLE (-1)
#define RM_GUESS_SHORT 125      /* a guess's code: 0-124 the features named, 125 "short circuit" */
#define RM_CODES (126 * 65 * 2) /* said's size: (guess * 65 + card) * 2 + solo */

static PyObject *S_variant, *S_difficulty, *S_teams, *S_rounds, *S_grid, *S_first,
    *S_captains, *S_rows, *S_columns, *S_cards, *S_type, *S_colour, *S_number, *S_chooser,
    *S_guesser, *S_position, *S_guess, *S_points, *S_chain, *S_row, *S_column, *S_name,
    *S_captain, *S_members;

typedef struct {
    PyObject *chooser, *guesser;  /* borrowed from the entry */
    int chooser_at, guesser_at;   /* their index in the game's people */
    int turn, chain;              /* the turn (1-based) and the chained pick (-1: pointed) */
    int row, column, side, code;  /* code: said's index */
    long points;
} RmPick;

typedef struct {
    int rows, columns, memory, shorts, tie, first, npicks;
    signed char cells[20][20];
    RmPick picks[RM_MAX_PLACES];
    long scores[RM_MAX_SIDES];  /* the running scores after the round */
} RmRound;

typedef struct {
    PyObject *unset, *said, *word;
    int team, solo, basic, nsides, npeople;
    PyObject *sides[RM_MAX_SIDES], *people[RM_MAX_PEOPLE], *captains[2];
    int side_of[RM_MAX_PEOPLE];
    long scores[RM_MAX_SIDES];
    RmRound rounds[RM_ROUNDS];
} RmGame;

/* Where each struct type keeps the fields read of it (dungeon_replay.c's dg_fields), one a
 * type and set of fields. */
static DgLayout rm_team_layout, rm_head_layout, rm_turn_layout, rm_chained_layout,
    rm_card_layout, rm_features_layout, rm_position_layout, rm_round_layout, rm_grid_layout;

/* Two names the same (exact strs: a log's names are). */
static int rm_same(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (!PyUnicode_CheckExact(a) || !PyUnicode_CheckExact(b)) return 0;
    int eq = PyUnicode_Compare(a, b);
    if (eq == -1 && PyErr_Occurred()) PyErr_Clear();
    return eq == 0;
}

/* The index of `name` among `names`, or -1. */
static int rm_find(PyObject *name, PyObject *const *names, int n) {
    if (!PyUnicode_CheckExact(name)) return -1;
    for (int i = 0; i < n; i++)
        if (names[i] == name) return i;
    for (int i = 0; i < n; i++)
        if (rm_same(names[i], name)) return i;
    return -1;
}

/* The index + 1 of `value` (an exact str) among `words`, 0 if it is none of them. */
static int rm_word(PyObject *value, const char *const *words, int n) {
    if (!PyUnicode_CheckExact(value)) return 0;
    for (int i = 0; i < n; i++)
        if (PyUnicode_CompareWithASCIIString(value, words[i]) == 0) return i + 1;
    return 0;
}

static const char *const RM_TYPES[4] = {"battery", "gear", "tool", "bulb"};
static const char *const RM_COLOURS[4] = {"yellow", "red", "blue", "green"};

/* An int field of 1..high, or 0. */
static int rm_small(PyObject *value, int high) {
    if (!PyLong_CheckExact(value)) return 0;
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return v >= 1 && v <= high ? (int)v : 0;
}

/* A grid place's code (RM_HOLE, 0-64), or -2 to decline. */
static int rm_card(PyObject *value) {
    if (value == Py_None) return RM_HOLE;
    if (PyUnicode_CheckExact(value))
        return PyUnicode_CompareWithASCIIString(value, "short-circuit") == 0 ? RM_SHORT : -2;
    PyObject *names[] = {S_type, S_colour, S_number}, *f[3];
    PyObject **const nm[] = {&names[0], &names[1], &names[2]};
    if (dg_fields(value, nm, 3, &rm_card_layout, f)) {
        PyErr_Clear();  /* not a card's struct: decline */
        return -2;
    }
    int t = rm_word(f[0], RM_TYPES, 4), c = rm_word(f[1], RM_COLOURS, 4), n = rm_small(f[2], 4);
    for (int i = 0; i < 3; i++) Py_DECREF(f[i]);
    return t && c && n ? (t - 1) * 16 + (c - 1) * 4 + (n - 1) : -2;
}

/* A guess's code (0-125; 0: nothing named), or -2 to decline. */
static int rm_guess(PyObject *value, PyObject *unset) {
    if (PyUnicode_CheckExact(value))
        return PyUnicode_CompareWithASCIIString(value, "short-circuit") == 0 ? RM_GUESS_SHORT
                                                                             : -2;
    PyObject *names[] = {S_type, S_colour, S_number}, *f[3];
    PyObject **const nm[] = {&names[0], &names[1], &names[2]};
    if (dg_fields(value, nm, 3, &rm_features_layout, f)) {
        PyErr_Clear();
        return -2;
    }
    int t = f[0] == unset ? 0 : rm_word(f[0], RM_TYPES, 4);
    int c = f[1] == unset ? 0 : rm_word(f[1], RM_COLOURS, 4);
    int n = f[2] == unset ? 0 : rm_small(f[2], 4);
    int bad = (f[0] != unset && !t) || (f[1] != unset && !c) || (f[2] != unset && !n);
    for (int i = 0; i < 3; i++) Py_DECREF(f[i]);
    return bad ? -2 : t * 25 + c * 5 + n;
}

/* The seats: players, or two teams; 1 read, 0 declined. */
static int rm_seats(RmGame *g, PyObject *players, PyObject *teams) {
    if (g->team) {
        if (teams == g->unset || players != g->unset || !PyTuple_CheckExact(teams) ||
            PyTuple_GET_SIZE(teams) != 2)
            return 0;
        for (int k = 0; k < 2; k++) {
            PyObject *names[] = {S_name, S_captain, S_members}, *f[3];
            PyObject **const nm[] = {&names[0], &names[1], &names[2]};
            if (dg_fields(PyTuple_GET_ITEM(teams, k), nm, 3, &rm_team_layout, f)) {
                PyErr_Clear();
                return 0;
            }
            /* borrowed from here on: the team's tuple holds them */
            Py_DECREF(f[0]);
            Py_DECREF(f[1]);
            Py_DECREF(f[2]);
            if (!PyUnicode_CheckExact(f[0]) || !PyTuple_CheckExact(f[2])) return 0;
            if (k == 1 && rm_same(f[0], g->sides[0])) return 0;
            g->sides[k] = f[0];
            g->captains[k] = f[1];
            int found = 0;
            for (Py_ssize_t m = 0; m < PyTuple_GET_SIZE(f[2]); m++) {
                PyObject *member = PyTuple_GET_ITEM(f[2], m);
                if (g->npeople == RM_MAX_PEOPLE || rm_find(member, g->people, g->npeople) >= 0)
                    return 0;  /* a member named twice, in one team or in both */
                found |= rm_same(member, f[1]);
                g->side_of[g->npeople] = k;
                g->people[g->npeople++] = member;
            }
            if (!found) return 0;
        }
        g->nsides = 2;
        return 1;
    }
    if (players == g->unset || teams != g->unset || !PyTuple_CheckExact(players)) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    if (n < 1 || n > RM_MAX_SIDES || (g->solo && n != 1) || (!g->solo && n < 2)) return 0;
    for (int i = 0; i < (int)n; i++) {
        PyObject *name = PyTuple_GET_ITEM(players, i);
        if (rm_find(name, g->sides, i) >= 0) return 0;
        g->sides[i] = g->people[i] = name;
        g->side_of[i] = i;
    }
    g->nsides = g->npeople = (int)n;
    return 1;
}

/* The round's layout into `r`; 1 read and set up by the rules, 0 declined, -1 on an error. */
static int rm_layout(RmGame *g, PyObject *grid, RmRound *r) {
    PyObject *names[] = {S_rows, S_columns, S_cards}, *f[3];
    PyObject **const nm[] = {&names[0], &names[1], &names[2]};
    if (dg_fields(grid, nm, 3, &rm_grid_layout, f)) {
        PyErr_Clear();
        return 0;
    }
    int status = 0;
    PyObject *cards = f[2];
    r->rows = rm_small(f[0], 20);
    r->columns = rm_small(f[1], 20);
    if (!r->rows || !r->columns || !PyTuple_CheckExact(cards) ||
        PyTuple_GET_SIZE(cards) != r->rows)
        goto done;
    unsigned char seen[64] = {0};
    int holes = 0;
    r->memory = r->shorts = 0;
    for (int i = 0; i < r->rows; i++) {
        PyObject *row = PyTuple_GET_ITEM(cards, i);
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) != r->columns) goto done;
        for (int j = 0; j < r->columns; j++) {
            int code = rm_card(PyTuple_GET_ITEM(row, j));
            if (code < RM_HOLE) goto done;
            r->cells[i][j] = (signed char)code;
            if (code == RM_HOLE) {
                holes++;
            } else if (code == RM_SHORT) {
                r->shorts++;
            } else {
                if (seen[code]) goto done;  /* a memory card laid out twice */
                seen[code] = 1;
                r->memory++;
            }
        }
    }
    if (r->shorts > 6) goto done;
    if (g->basic && (r->rows != 4 || r->columns != 4 || holes || r->memory != 13 ||
                     r->shorts != 3))
        goto done;
    if (g->npeople >= 5 && r->shorts < 2) goto done;
    status = 1;
done:
    for (int i = 0; i < 3; i++) Py_DECREF(f[i]);
    return status;
}

/* One pick (the pointed card, or one chosen after a short circuit); 1 played, 0 declined, -1
 * on an error. `named`: set to whether a short circuit was named on it. */
static int rm_pick(RmGame *g, RmRound *r, PyObject *pick, DgLayout *layout, int chained,
                   PyObject *chooser, int turn, int chain, int side, PyObject *guesser,
                   unsigned char face_up[20][20], int *named) {
    PyObject *names[] = {S_chooser, S_position, S_guess, S_points}, *f[4];
    PyObject **const nm[] = {&names[0], &names[1], &names[2], &names[3]};
    if (dg_fields(pick, nm, 4, layout, f)) {
        PyErr_Clear();
        return 0;
    }
    int status = 0;
    PyObject *pn[] = {S_row, S_column}, *p[2] = {NULL, NULL};
    PyObject **const pnm[] = {&pn[0], &pn[1]};
    if (!rm_same(f[0], chooser) || r->npicks == RM_MAX_PLACES) goto done;
    if (dg_fields(f[1], pnm, 2, &rm_position_layout, p)) {
        PyErr_Clear();
        goto done;
    }
    int row = rm_small(p[0], r->rows), column = rm_small(p[1], r->columns);
    if (!row || !column || face_up[row - 1][column - 1]) goto done;
    int card = r->cells[row - 1][column - 1];
    if (card == RM_HOLE) goto done;
    int guess = rm_guess(f[2], g->unset);
    if (guess <= 0) goto done;  /* not a guess known, or nothing named */
    face_up[row - 1][column - 1] = 1;
    int code = (guess * 65 + card) * 2 + g->solo;
    PyObject *said = PyList_GET_ITEM(g->said, code);
    if (said == Py_None) {
        PyObject *key = PyLong_FromLong(code);
        if (!key) {
            status = -1;
            goto done;
        }
        said = PyObject_CallOneArg(g->word, key);
        Py_DECREF(key);
        if (!said) {
            status = -1;
            goto done;
        }
        PyList_SetItem(g->said, code, said);  /* steals; said stays borrowed from the list */
    }
    /* said: (text's end, rule, points, a short circuit named, card, guess, features) */
    if (!PyTuple_CheckExact(said) || PyTuple_GET_SIZE(said) != 7) goto done;
    long points = PyLong_AsLong(PyTuple_GET_ITEM(said, 2));
    if (points == -1 && PyErr_Occurred()) {
        status = -1;
        goto done;
    }
    if (f[3] != g->unset) {
        if (!PyLong_CheckExact(f[3])) goto done;
        long recorded = PyLong_AsLong(f[3]);
        if (recorded == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto done;
        }
        if (recorded != points) goto done;
    }
    *named = PyTuple_GET_ITEM(said, 3) == Py_True;
    g->scores[side] += points;
    RmPick *one = &r->picks[r->npicks++];
    one->chooser = chained ? guesser : f[0];
    one->guesser = guesser;
    one->turn = turn;
    one->chain = chain;
    one->row = row;
    one->column = column;
    one->side = side;
    one->code = code;
    one->points = points;
    status = 1;
done:
    for (int i = 0; i < 4; i++) Py_DECREF(f[i]);
    Py_XDECREF(p[0]);
    Py_XDECREF(p[1]);
    return status;
}

/* One round's turns; 1 played, 0 declined, -1 on an error. */
static int rm_turns(RmGame *g, RmRound *r, PyObject *turns) {
    if (!PyTuple_CheckExact(turns)) return 0;
    unsigned char face_up[20][20];
    memset(face_up, 0, sizeof face_up);
    int expected = r->first;
    r->npicks = 0;
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(turns); t++) {
        PyObject *turn = PyTuple_GET_ITEM(turns, t);
        PyObject *names[] = {S_guesser, S_chain}, *f[2];
        PyObject **const nm[] = {&names[0], &names[1]};
        if (dg_fields(turn, nm, 2, &rm_head_layout, f)) {
            PyErr_Clear();
            return 0;
        }
        Py_DECREF(f[0]);  /* borrowed from here on: the turn holds them */
        Py_DECREF(f[1]);
        int person = rm_find(f[0], g->people, g->npeople);
        if (person < 0 || !PyTuple_CheckExact(f[1])) return 0;
        int side = g->side_of[person];
        if (side != expected) return 0;
        if (g->team && !rm_same(f[0], g->captains[side])) return 0;  /* a Captain's change */
        int left = (side + 1) % g->nsides;
        PyObject *chooser = g->team ? g->captains[left] : g->sides[left];
        int chooser_at = g->team ? rm_find(chooser, g->people, g->npeople) : left;
        if (chooser_at < 0) return 0;
        int named = 0;
        int status = rm_pick(g, r, turn, &rm_turn_layout, 0, chooser, (int)t + 1, -1, side,
                             f[0], face_up, &named);
        if (status <= 0) return status;
        r->picks[r->npicks - 1].chooser_at = chooser_at;
        r->picks[r->npicks - 1].guesser_at = person;
        for (Py_ssize_t c = 0; c < PyTuple_GET_SIZE(f[1]); c++) {
            if (!named) return 0;
            status = rm_pick(g, r, PyTuple_GET_ITEM(f[1], c), &rm_chained_layout, 1, f[0],
                             (int)t + 1, (int)c, side, f[0], face_up, &named);
            if (status <= 0) return status;
            r->picks[r->npicks - 1].chooser_at = r->picks[r->npicks - 1].guesser_at = person;
        }
        expected = left;
    }
    return r->npicks == r->memory + r->shorts;  /* every card turned by the round's end */
}

/* Replay the log `entry` into `g`; 1 clean, 0 declined, -1 on an error. */
static int rm_replay(RmGame *g, PyObject *entry) {
    static const char *const variants[5] = {"standard", "solo", "team", "5+", "custom"};
    PyObject *variant = NULL, *difficulty = NULL, *players = NULL, *teams = NULL,
             *rounds = NULL;
    int status = 0;
    if (!(variant = PyObject_GetAttr(entry, S_variant)) ||
        !(difficulty = PyObject_GetAttr(entry, S_difficulty)) ||
        !(players = PyObject_GetAttr(entry, S_players)) ||
        !(teams = PyObject_GetAttr(entry, S_teams)) ||
        !(rounds = PyObject_GetAttr(entry, S_rounds))) {
        PyErr_Clear();  /* not a log's struct */
        goto done;
    }
    int v = rm_word(variant, variants, 5);
    if (!v) goto done;
    g->solo = v == 2;
    g->team = v == 3;
    if (difficulty == g->unset) {
        g->basic = v != 4 && v != 5;
    } else {
        static const char *const levels[2] = {"basic", "custom"};
        int level = rm_word(difficulty, levels, 2);
        if (!level) goto done;
        g->basic = level == 1;
    }
    if (!rm_seats(g, players, teams)) goto done;
    if (v == 4 && g->nsides < 5) goto done;
    if (!PyTuple_CheckExact(rounds) || PyTuple_GET_SIZE(rounds) != RM_ROUNDS) goto done;
    for (int i = 0; i < RM_ROUNDS; i++) {
        RmRound *r = &g->rounds[i];
        PyObject *names[] = {S_grid, S_first, S_turns, S_captains}, *f[4];
        PyObject **const nm[] = {&names[0], &names[1], &names[2], &names[3]};
        if (dg_fields(PyTuple_GET_ITEM(rounds, i), nm, 4, &rm_round_layout, f)) {
            PyErr_Clear();
            goto done;
        }
        int read = rm_layout(g, f[0], r);
        if (read == 1) {
            r->first = rm_find(f[1], g->sides, g->nsides);
            read = r->first >= 0;
        }
        if (read == 1 && f[3] != g->unset) {  /* team play: the round's new captains */
            read = PyDict_CheckExact(f[3]) && (g->team || !PyDict_GET_SIZE(f[3]));
            Py_ssize_t pos = 0;
            PyObject *key, *value;
            while (read == 1 && PyDict_Next(f[3], &pos, &key, &value)) {
                int team = rm_find(key, g->sides, g->nsides);
                int member = rm_find(value, g->people, g->npeople);
                read = team >= 0 && member >= 0 && g->side_of[member] == team;
                if (read) g->captains[team] = g->people[member];
            }
        }
        if (read == 1 && i) {  /* the first active player has the fewest points */
            long fewest = g->scores[0];
            for (int s = 1; s < g->nsides; s++)
                if (g->scores[s] < fewest) fewest = g->scores[s];
            int lowest = 0;
            for (int s = 0; s < g->nsides; s++) lowest += g->scores[s] == fewest;
            read = g->scores[r->first] == fewest;
            r->tie = lowest > 1;
        }
        if (read == 1) read = rm_turns(g, r, f[2]);
        for (int k = 0; k < 4; k++) Py_DECREF(f[k]);
        if (read != 1) {
            status = read;
            goto done;
        }
        memcpy(r->scores, g->scores, sizeof g->scores);
    }
    status = 1;
done:
    Py_XDECREF(variant);
    Py_XDECREF(difficulty);
    Py_XDECREF(players);
    Py_XDECREF(teams);
    Py_XDECREF(rounds);
    return status;
}
