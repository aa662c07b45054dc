/* dungeon_marks: a clean game/1 log's analysis, its reports and marked moves, from
 * dungeon_replay's trace (included after dungeon_replay.c, whose trace layout it reads, and
 * dungeon_report.c, which holds the kit and makes the reports).
 *
 * What pathcheck.analysis.dungeon's exploration_report and exploration_moves make of each
 * exploration, made here so that a clean log's hundred-odd moves cost no Python loop: the same
 * ExplorationReport, LostAnnouncement and AnalysedMove values in the same order, each player's
 * counts by mark with the points lost and at stake (what pathcheck.analysis.core.summarise
 * counts, added in the same order), and the moves the log cannot decide. It declines (None)
 * at anything a clean log's trace does not hold; Python then marks the log.
 * tests/analysis/test_dungeon_fast.py compares the three ways (C replay and marks, C replay
 * and Python marks, Python replay) on fixtures, random, mutated and hostile logs. */

#define DM_POINTERS_EXPLORATIONS 64
#define DM_POINTERS_TURNS 256

/* "/explorations/E/turns/T", with "/lost" after it if `lost` (a new reference); the common
 * ones made once and kept: every move of a batch points at one. */
static PyObject *dm_pointer(int exploration, int turn, int lost) {
    static PyObject *kept[2][DM_POINTERS_EXPLORATIONS][DM_POINTERS_TURNS];
    int keep = exploration < DM_POINTERS_EXPLORATIONS && turn < DM_POINTERS_TURNS;
    lost = lost != 0;
    if (keep && kept[lost][exploration][turn]) return Py_NewRef(kept[lost][exploration][turn]);
    char text[64], *w = text;
    memcpy(w, "/explorations/", 14);
    w += 14;
    w += write_long(w, exploration);
    memcpy(w, "/turns/", 7);
    w += 7;
    w += write_long(w, turn);
    if (lost) {
        memcpy(w, "/lost", 5);
        w += 5;
    }
    PyObject *pointer = PyUnicode_FromStringAndSize(text, w - text);
    if (pointer && keep) kept[lost][exploration][turn] = Py_NewRef(pointer);
    return pointer;
}

/* A move counted for its player's summary. */
static void dm_count(DmLog *g, int seat, int mark, double cost, double value) {
    if (mark == DM_SLIP) g->slips[seat]++;
    else if (mark == DM_SOUND) g->sound[seat]++;
    else g->harmless[seat]++;
    if (value != 0.0) {  /* summarise adds up only the moves with a value, in this order */
        g->stake[seat] += value;
        g->lost[seat] += cost;
    }
}

/* Append AnalysedMove(number, t, seat's name, did, knew, best, mark, why, None, rule, pointer
 * [, cost, value, grade[, age]]) and count it; `full`: 0 (up to pointer), 1 (with cost, value
 * and grade), 2 (and age). With g->json, the move is written as JSON instead. -1 with an
 * error set. */
static int dm_add(DmLog *g, int number, int t, int seat, PyObject *did, PyObject *knew,
                  PyObject *best, int mark, PyObject *why, PyObject *rule, PyObject *pointer,
                  double cost, double value, PyObject *grade, int age, int full) {
    PyObject *const *kit = g->kit;
    if (g->json) {
        int written = dmj_move(g->json, number, t, PyTuple_GET_ITEM(g->players, seat), did, knew,
                               best, kit[mark], why, rule ? rule : Py_None, pointer, cost,
                               value, grade ? grade : Py_None, full == 2 ? age : 0);
        if (written < 0) {
            if (!PyErr_Occurred()) PyErr_NoMemory();  /* the buffer's raw allocator */
            return -1;
        }
        if (written > 0) g->json->declined = 1;  /* finished as values, by Python */
        dm_count(g, seat, mark, cost, value);
        return 0;
    }
    PyObject *args[15];
    PyObject *num = PyLong_FromLong(number), *idx = PyLong_FromLong(t);
    PyObject *cost_obj = NULL, *value_obj = NULL, *age_obj = NULL;
    int status = -1;
    if (!num || !idx) goto done;
    args[0] = num;
    args[1] = idx;
    args[2] = PyTuple_GET_ITEM(g->players, seat);
    args[3] = did;
    args[4] = knew;
    args[5] = best;
    args[6] = kit[mark];
    args[7] = why;
    args[8] = Py_None;
    args[9] = rule ? rule : Py_None;
    args[10] = pointer;
    Py_ssize_t nargs = 11;
    if (full) {
        cost_obj = cost == 0.0 ? Py_NewRef(kit[DM_ZERO]) : cost == 1.0 ? Py_NewRef(kit[DM_ONE])
                                                                     : PyFloat_FromDouble(cost);
        value_obj = value == 0.0 ? Py_NewRef(kit[DM_ZERO])
                    : value == 1.0 ? Py_NewRef(kit[DM_ONE]) : PyFloat_FromDouble(value);
        if (!cost_obj || !value_obj) goto done;
        args[11] = cost_obj;
        args[12] = value_obj;
        args[13] = grade ? grade : Py_None;
        nargs = 14;
        if (full == 2) {
            if (age > 0) {
                if (!(age_obj = PyLong_FromLong(age))) goto done;
                args[14] = age_obj;
            } else {
                args[14] = Py_None;
            }
            nargs = 15;
        }
    }
    PyObject *move = PyObject_Vectorcall(kit[DM_MOVE], args, (size_t)nargs, NULL);
    if (!move) goto done;
    status = PyList_Append(g->moves, move);
    Py_DECREF(move);
    dm_count(g, seat, mark, cost, value);
done:
    Py_XDECREF(num);
    Py_XDECREF(idx);
    Py_XDECREF(cost_obj);
    Py_XDECREF(value_obj);
    Py_XDECREF(age_obj);
    return status;
}

/* The point an announcement by `seat` on tile `height` (the path Lost) would have scored:
 * stay_cost in analysis/dungeon.py, over the cards past the Lost point. */
static double dm_stay_cost(int seat, int height, int lost_at, const int (*cards)[2], int ncards) {
    for (int k = 0; k < ncards; k++) {
        int after = cards[k][1];
        if (after >= lost_at && after < height && cards[k][0] != seat) return 0.0;
    }
    return 1.0;
}

/* "lays TILE@DIR", kept in `cache` (tile id -> the four texts by direction). */
static PyObject *dm_did(PyObject *cache, PyObject *tile, PyObject *dir) {
    Py_ssize_t n;
    const char *d = PyUnicode_CheckExact(dir) ? PyUnicode_AsUTF8AndSize(dir, &n) : NULL;
    if (!d) {
        PyErr_Clear();
        return NULL;
    }
    int k = n != 1 ? -1 : d[0] == 'N' ? 0 : d[0] == 'E' ? 1 : d[0] == 'S' ? 2 : d[0] == 'W' ? 3 : -1;
    if (k < 0 || !PyUnicode_CheckExact(tile)) return NULL;
    PyObject *four = PyDict_GetItemWithError(cache, tile);
    if (!four) {
        if (PyErr_Occurred()) return NULL;
        if (!(four = PyTuple_New(4))) return NULL;
        static const char names[4] = {'N', 'E', 'S', 'W'};
        for (int i = 0; i < 4; i++) {
            PyObject *text = PyUnicode_FromFormat("lays %U@%c", tile, names[i]);
            if (!text) {
                Py_DECREF(four);
                return NULL;
            }
            PyTuple_SET_ITEM(four, i, text);
        }
        int failed = PyDict_SetItem(cache, tile, four);
        Py_DECREF(four);  /* the cache holds it */
        if (failed) return NULL;
    }
    return Py_NewRef(PyTuple_GET_ITEM(four, k));
}

#define AF_LOST_TILES 128
#define AF_LOST_CODES 16

/* "the path is Lost since tile N (REASON)" (a new reference), the common ones made once and
 * kept with the reason they were made of (a strong reference: no other text takes its
 * address): a batch's Lost explorations repeat a few hundred of them. */
static PyObject *af_lost_words(int lost_at, int code, PyObject *reason) {
    static PyObject *kept[AF_LOST_TILES][AF_LOST_CODES][2];
    int keep = lost_at >= 0 && lost_at < AF_LOST_TILES && code >= 0 && code < AF_LOST_CODES;
    if (keep && kept[lost_at][code][0] == reason) return Py_NewRef(kept[lost_at][code][1]);
    PyObject *words = PyUnicode_FromFormat("the path is Lost since tile %d (%U)", lost_at,
                                           reason);
    if (words && keep) {
        PyObject *was_reason = kept[lost_at][code][0], *was_words = kept[lost_at][code][1];
        kept[lost_at][code][0] = Py_NewRef(reason);
        kept[lost_at][code][1] = Py_NewRef(words);
        Py_XDECREF(was_reason);
        Py_XDECREF(was_words);
    }
    return words;
}

static PyObject **const dm_turn_fields[] = {&S_player, &S_lost};
static PyObject **const dm_placement_fields[] = {&S_tile, &S_dir};
static DgLayout dm_turn_layout, dm_placement_layout;  /* as dungeon_replay's dg_turn_layout */

/* One exploration's report and moves (exploration_report, exploration_moves): the report
 * appended to `reports`. 1 done, 0 decline (Python marks the log), -1 error. */
static int dm_exploration(DmLog *g, PyObject *one, PyObject *exp, int number, int priority,
                          int misplaced_code, PyObject *holds, PyObject *priority_why, PyObject *did_cache, PyObject *unjudged,
                          PyObject *reports) {
    PyObject *const *kit = g->kit;
    PyObject *const *names = &PyTuple_GET_ITEM(g->players, 0);
    int n = g->n;
    if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) < 13) return 0;
    PyObject *turns = PyObject_GetAttr(exp, S_turns);
    if (!turns) return -1;
    int status = 0;
    int *seats = NULL;
    unsigned *said = NULL;  /* per turn: the seats that announced after its tile */
    PyObject *pointer = NULL, *lost_pointer = NULL, *did = NULL, *tile = NULL, *dir = NULL;
    PyObject *report = NULL, *lost_words = NULL;
    if (!PyTuple_Check(turns) || PyTuple_GET_SIZE(turns) > 100000) goto out;
    int nturns = (int)PyTuple_GET_SIZE(turns);
    /* the Lost point: 0 (the path held) or a tile laid in a turn (2 .. nturns + 1) */
    int lost_at, code;
    if ((status = dm_int(PyTuple_GET_ITEM(one, 6), 0, nturns + 1, &lost_at)) <= 0 ||
        (status = dm_int(PyTuple_GET_ITEM(one, 7), 0, INT_MAX, &code)) <= 0)
        goto out;
    status = 0;
    if (lost_at == 1) goto out;
    PyObject *card_list = PyTuple_GET_ITEM(one, 11);
    if (!PyTuple_Check(card_list) || PyTuple_GET_SIZE(card_list) > DG_MAX_PLAYERS) goto out;
    int cards[DG_MAX_PLAYERS][2], ncards = (int)PyTuple_GET_SIZE(card_list);
    int left_after[DG_MAX_PLAYERS];  /* the tile of the player's card (the last one), or 0 */
    for (int p = 0; p < n; p++) left_after[p] = 0;
    for (int k = 0; k < ncards; k++) {
        PyObject *card = PyTuple_GET_ITEM(card_list, k);
        if (!PyTuple_Check(card) || PyTuple_GET_SIZE(card) != 2) goto out;
        if ((status = dm_int(PyTuple_GET_ITEM(card, 0), 0, n - 1, &cards[k][0])) <= 0 ||
            (status = dm_int(PyTuple_GET_ITEM(card, 1), 1, nturns + 1, &cards[k][1])) <= 0)
            goto out;
        status = 0;
        left_after[cards[k][0]] = cards[k][1];
    }
    if (!PyList_Check(holds) || PyList_GET_SIZE(holds) <= nturns + 1) goto out;
    seats = PyMem_Malloc(sizeof *seats * (size_t)(nturns + 1));
    said = PyMem_Malloc(sizeof *said * (size_t)(nturns + 1));
    if (!seats || !said) {
        PyErr_NoMemory();
        goto error;
    }
    for (int i = 0; i < nturns; i++) {
        PyObject *turn = PyTuple_GET_ITEM(turns, i), *f[2];
        if (dg_fields(turn, dm_turn_fields, 2, &dm_turn_layout, f) < 0) goto error;
        PyObject *player = f[0], *lost = f[1];
        seats[i] = dg_seat(player, names, n);
        Py_DECREF(player);
        said[i] = 0;
        int bad = seats[i] < 0 || !PyTuple_Check(lost);
        for (Py_ssize_t k = 0; !bad && k < PyTuple_GET_SIZE(lost); k++) {
            int seat = dg_seat(PyTuple_GET_ITEM(lost, k), names, n);
            if (seat < 0) bad = 1;
            else said[i] |= 1u << seat;
        }
        Py_DECREF(lost);
        if (bad) goto out;
    }
    int perfect_points[DG_MAX_PLAYERS];
    int made = dm_report(g, number, lost_at, code, cards, ncards, seats, nturns, priority,
                         PyTuple_GET_ITEM(one, 12), perfect_points, &report);
    if (made <= 0) {
        status = made;
        goto out;
    }
    if (PyList_Append(reports, report) < 0) goto error;
    int misplaced_at = code == misplaced_code ? lost_at : -1;
    for (int i = 0; i < nturns; i++) {
        int t = i + 1, height = t + 1, active = seats[i];
        unsigned said_by = said[i];
        if (!(pointer = dm_pointer(number - 1, i, 0))) goto error;
        if (!lost_at || lost_at >= height) {  /* the path held up to this placement */
            PyObject *turn = PyTuple_GET_ITEM(turns, i), *f[2];
            if (dg_fields(turn, dm_placement_fields, 2, &dm_placement_layout, f) < 0) goto error;
            tile = f[0];
            dir = f[1];
            if (!(did = dm_did(did_cache, tile, dir))) {
                if (PyErr_Occurred()) goto error;
                goto out;
            }
            PyObject *knew = PyList_GET_ITEM(holds, t);
            if (misplaced_at == height) {
                if (dm_add(g, number, t, active, did, knew, kit[DM_LAY_IN_LINE], DM_SLIP,
                           kit[DM_MISPLACED], kit[DM_RULE_D], pointer, 1.0, 1.0, kit[DM_BLUNDER],
                           0, 1) < 0)
                    goto error;
            } else if (dm_add(g, number, t, active, did, knew, kit[DM_AS_PLAYED], DM_SOUND,
                              kit[DM_IN_LINE], NULL, pointer, 0, 0, NULL, 0, 0) < 0) {
                goto error;
            }
            Py_CLEAR(did);
            Py_CLEAR(tile);
            Py_CLEAR(dir);
        }
        int lost_now = lost_at && lost_at <= height;
        int first = priority ? dm_stood(t + 1, cards, ncards) : -1;  /* rule #1: who stood */
        if (!lost_now && !said_by && first < 0) {  /* the path holds, nobody spoke */
            PyObject *knew = PyList_GET_ITEM(holds, height);
            for (int p = 0; p < n; p++) {
                if (p != active && (!left_after[p] || left_after[p] >= height) &&
                    dm_add(g, number, t, p, kit[DM_STAYS], knew, kit[DM_STAY], DM_SOUND,
                           kit[DM_HOLDS_WHY], NULL, pointer, 0, 0, NULL, 0, 0) < 0)
                    goto error;
            }
            Py_CLEAR(pointer);
            continue;
        }
        if (first == active) goto out;  /* not in a clean log: Python says what it makes */
        if (lost_now && !lost_words) {  /* said once an exploration */
            PyObject *reason = PyTuple_GET_ITEM(kit[DM_REASONS], code);
            if (!PyUnicode_Check(reason)) goto out;
            if (!(lost_words = af_lost_words(lost_at, code, reason))) goto error;
        }
        PyObject *knew = lost_now ? lost_words : PyList_GET_ITEM(holds, height);
        if (said_by && !(lost_pointer = dm_pointer(number - 1, i, 1))) goto error;
        PyObject *at = said_by ? lost_pointer : pointer;
        int age = lost_now ? height - lost_at + 1 : 0;
        for (int p = 0; p < n; p++) {
            if (p == active || (left_after[p] && left_after[p] < height)) continue;
            int spoke = (said_by >> p) & 1;
            if (first >= 0 && first != p) {
                /* rule #1: another's announcement stood; outranked: it comes before p in
                 * turn order after the active player */
                int outranked = (first - active + n) % n < (p - active + n) % n;
                if (!lost_now || !outranked) {
                    PyObject *word = PyUnicode_FromFormat("%d.%d %U", number, t, names[p]);
                    int failed = !word || PyList_Append(unjudged, word) < 0;
                    Py_XDECREF(word);
                    if (failed) goto error;
                    continue;
                }
                if (dm_add(g, number, t, p, spoke ? kit[DM_ANNOUNCES] : kit[DM_STAYS], knew,
                           kit[DM_EITHER], DM_SOUND, PyTuple_GET_ITEM(priority_why, first),
                           kit[DM_PRIORITY], spoke ? at : pointer, 0.0, 0.0, NULL, age, 2) < 0)
                    goto error;
            } else if (spoke && lost_now) {
                double value = dm_stay_cost(p, height, lost_at, cards, ncards);
                if (dm_add(g, number, t, p, kit[DM_ANNOUNCES], knew, kit[DM_ANNOUNCE], DM_SOUND,
                           kit[DM_IS_LOST], kit[DM_RULE_II], at, 0.0, value, NULL, age, 2) < 0)
                    goto error;
            } else if (spoke) {  /* too early */
                double value = (double)perfect_points[p];
                int harmless = value <= 1e-12;
                if (dm_add(g, number, t, p, kit[DM_ANNOUNCES], knew, kit[DM_STAY],
                           harmless ? DM_HARMLESS : DM_SLIP, kit[DM_TOO_EARLY], kit[DM_RULE_I],
                           at, value, value, harmless ? NULL : kit[DM_BLUNDER], 0, 1) < 0)
                    goto error;
            } else if (!lost_now) {
                if (dm_add(g, number, t, p, kit[DM_STAYS], knew, kit[DM_STAY], DM_SOUND,
                           kit[DM_HOLDS_WHY], NULL, pointer, 0, 0, NULL, 0, 0) < 0)
                    goto error;
            } else {  /* missed */
                double cost = dm_stay_cost(p, height, lost_at, cards, ncards);
                int harmless = cost <= 1e-12;
                if (dm_add(g, number, t, p, kit[DM_STAYS], knew, kit[DM_ANNOUNCE],
                           harmless ? DM_HARMLESS : DM_SLIP,
                           harmless ? kit[DM_MISSED_NOTHING] : kit[DM_MISSED], kit[DM_RULE_II],
                           pointer, cost, cost, harmless ? NULL : kit[DM_BLUNDER], age, 2) < 0)
                    goto error;
            }
        }
        Py_CLEAR(lost_pointer);
        Py_CLEAR(pointer);
    }
    status = 1;
    goto out;
error:
    status = -1;
out:
    PyMem_Free(seats);
    PyMem_Free(said);
    Py_XDECREF(pointer);
    Py_XDECREF(lost_pointer);
    Py_XDECREF(did);
    Py_XDECREF(tile);
    Py_XDECREF(dir);
    Py_XDECREF(report);
    Py_XDECREF(lost_words);
    Py_DECREF(turns);
    return status;
}

/* (slips, sound, harmless, lost, at stake) as a new tuple (what Py_BuildValue("(llldd)")
 * makes, made directly: once a player a log). */
static PyObject *af_counts(long slips, long sound, long harmless, double lost, double stake) {
    PyObject *v = PyTuple_New(5);
    if (!v) return NULL;
    PyObject *items[5] = {PyLong_FromLong(slips), PyLong_FromLong(sound),
                          PyLong_FromLong(harmless), PyFloat_FromDouble(lost),
                          PyFloat_FromDouble(stake)};
    for (int k = 0; k < 5; k++) {
        if (!items[k]) {
            for (int f = 0; f < 5; f++) Py_XDECREF(items[f]);
            Py_DECREF(v);
            return NULL;
        }
    }
    for (int k = 0; k < 5; k++) PyTuple_SET_ITEM(v, k, items[k]);
    return v;
}

/* dungeon_marks(traced, explorations, players, priority, misplaced_code, kit, holds,
 * priority_why, did_cache[, encoded]) -> (moves, unjudged, counts, reports) or None.
 * counts: per seat (slips, sound, harmless, lost, at stake). With `encoded` (a dict: the
 * kit's values as JSON, see dungeon_marks_json.c), moves is the JSON array of the moves and
 * reports the JSON array of the reports (each a JsonBuffer), or the answer None where a move
 * or a report cannot be written so. */
static PyObject *dungeon_marks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *traced, *explorations, *players, *kit, *holds, *why, *cache, *encoded = NULL;
    int priority, misplaced_code;
    if (!PyArg_ParseTuple(args, "O!O!O!iiO!O!O!O!|O!", &PyTuple_Type, &traced, &PyTuple_Type,
                          &explorations, &PyTuple_Type, &players, &priority, &misplaced_code,
                          &PyTuple_Type, &kit, &PyList_Type, &holds, &PyTuple_Type, &why,
                          &PyDict_Type, &cache, &PyDict_Type, &encoded))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(players), count = PyTuple_GET_SIZE(traced);
    if (PyTuple_GET_SIZE(kit) != DM_KIT || n < 2 || n > DG_MAX_PLAYERS ||
        PyTuple_GET_SIZE(explorations) != count ||
        (priority && PyTuple_GET_SIZE(why) != n) || !PyTuple_Check(PyTuple_GET_ITEM(kit, DM_REASONS)) ||
        !PyTuple_Check(PyTuple_GET_ITEM(kit, DM_REASON_RULES)) ||
        PyTuple_GET_SIZE(PyTuple_GET_ITEM(kit, DM_REASONS)) !=
            PyTuple_GET_SIZE(PyTuple_GET_ITEM(kit, DM_REASON_RULES))) {
        PyErr_SetString(PyExc_ValueError, "dungeon_marks: arguments of the wrong shape");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(players, i))) Py_RETURN_NONE;
    }
    /* The structs made may run Python (a subclass's __post_init__, none today): hold what is
     * borrowed from the arguments. */
    PyObject *held[] = {traced, explorations, players, kit, holds, why, cache,
                        encoded ? encoded : Py_None};
    for (size_t k = 0; k < sizeof held / sizeof *held; k++) Py_INCREF(held[k]);
    DmLog g = {.kit = &PyTuple_GET_ITEM(kit, 0), .players = players, .n = (int)n};
    DmJson json = {.encoded = encoded};
    PyObject *unjudged = PyList_New(0), *reports = PyList_New(0), *result = NULL;
    g.moves = PyList_New(0);
    if (!unjudged || !reports || !g.moves) goto done;
    if (encoded) {
        dmj_know(&json);
        g.json = &json;
        g.encoded = encoded;
        if (OUT_LIT(&json.out, "[") < 0 || OUT_LIT(&g.reports, "[") < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        int status = dm_exploration(&g, PyTuple_GET_ITEM(traced, i),
                                    PyTuple_GET_ITEM(explorations, i), (int)i + 1, priority,
                                    misplaced_code, holds, why, cache, unjudged, reports);
        if (status < 0) goto done;
        if (!status) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    PyObject *counts = PyTuple_New(n);
    if (!counts) goto done;
    for (int p = 0; p < n; p++) {
        PyObject *v = af_counts(g.slips[p], g.sound[p], g.harmless[p], g.lost[p], g.stake[p]);
        if (!v) {
            Py_DECREF(counts);
            goto done;
        }
        PyTuple_SET_ITEM(counts, p, v);
    }
    if (g.json) {
        if (json.declined || g.reports_declined) {
            Py_DECREF(counts);
            result = Py_NewRef(Py_None);
            goto done;
        }
        PyObject *array = OUT_LIT(&json.out, "]") < 0 ? PyErr_NoMemory()
                          : gj_adopt(&json.out);
        if (!array) {
            Py_DECREF(counts);
            goto done;
        }
        Py_SETREF(g.moves, array);
        array = OUT_LIT(&g.reports, "]") < 0 ? PyErr_NoMemory() : gj_adopt(&g.reports);
        if (!array) {
            Py_DECREF(counts);
            goto done;
        }
        Py_SETREF(reports, array);
    }
    result = Py_BuildValue("(OONO)", g.moves, unjudged, counts, reports);
done:
    dmj_free(&json);
    PyMem_RawFree(g.reports.buf);
    Py_XDECREF(g.moves);
    Py_XDECREF(unjudged);
    Py_XDECREF(reports);
    for (size_t k = 0; k < sizeof held / sizeof *held; k++) Py_DECREF(held[k]);
    return result;
}
