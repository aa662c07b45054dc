/* pathcheck._speedups, part of the one translation unit _speedups.c (after memo_dice_word.c,
 * whose md_row it draws rows with): a clean memo-dice/1 log's ruling rounds written straight
 * as the JSON msgspec would encode of them, for `adjudicate` with --format json|jsonl (nothing
 * kept: the values would only be encoded); the writers memo_dice_marks.c (the analysis's
 * moves) and memo_dice_lenient.c (a log with faults) use too.
 *
 * memo_dice_json words each round as memo_dice_word.c does (and games/memo_dice/state.py's
 * Replay), but writes the Round, its Events, MoveRefs and facts as JSON (fields in msgspec's
 * order, strings escaped as put_json_str does, the rules as msgspec encoded them in the kit)
 * instead of making them; it also draws the final table (at.final_table). It declines
 * (None) what memo_dice_replay declines. memo_dice_marks.c writes the analysis's moves.
 * tests/games/test_memo_dice_json.py compares the bytes with msgspec's of the Python values. */

/* The kit Python hands over (games/memo_dice/fast.py, _JSON_KIT), by position: */
enum {
    MDJ_GOLDEN_LAST, MDJ_GOLDEN_NO_CUP, MDJ_RIGHT, MDJ_WRONG, MDJ_POINTS, MDJ_END, MDJ_FIRST,
    MDJ_SAME, MDJ_REPRS, MDJ_ROUND_ENTRY, MDJ_ROLL_ENTRY, MDJ_GUESS_ENTRY, MDJ_FACE_ENTRY, MDJ_SIZE
};

typedef struct {
    Out out;
    PyObject *const *kit;
    PyObject *const *names;
    Out nm;                              /* each player's name as a JSON string, in turn */
    Py_ssize_t name_at[MD_MAX_PLAYERS], name_len[MD_MAX_PLAYERS];
} MdjW;

#define MDJ_LIT(w, s) OUT_LIT(&(w)->out, s)

/* UTF-8 text as a JSON string (quoted and escaped as msgspec writes it). */
static int mdj_utf8(Out *o, const char *p, Py_ssize_t n) {
    if (n > (PY_SSIZE_T_MAX - 2) / 6 || out_reserve(o, 6 * n + 2) < 0) return -1;
    o->len = put_json_str(o->buf + o->len, (Str){p, n}) - o->buf;
    return 0;
}

static int mdj_str(Out *o, PyObject *text) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(text, &n);
    return p ? mdj_utf8(o, p, n) : -1;
}

/* A text put together in `b` (freed), as a JSON string; -1 if a piece failed. */
static int mdj_text(Out *o, DwText *b) {
    int status = b->failed ? -1 : mdj_utf8(o, b->buf, b->len);
    if (b->buf != b->small) PyMem_Free(b->buf);
    b->buf = b->small;
    if (status && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    return status;
}

static int mdj_name(MdjW *w, int seat) {
    return out_put(&w->out, w->nm.buf + w->name_at[seat], w->name_len[seat]);
}

static int mdj_bytes(MdjW *w, int which) {
    PyObject *b = w->kit[which];
    return out_bytes(&w->out, b);
}

/* repr() of a str, borrowed from the kit's cache. */
static PyObject *mdj_repr(MdjW *w, PyObject *text) {
    PyObject *cache = w->kit[MDJ_REPRS];
    PyObject *hit = PyDict_GetItemWithError(cache, text);
    if (hit || PyErr_Occurred()) return hit;
    if (!(hit = PyObject_Repr(text))) return NULL;
    int failed = PyDict_SetItem(cache, text, hit);
    Py_DECREF(hit);
    return failed ? NULL : hit;
}

/* "move":{...} of move `index` of round `number`, part 0 covering, 1 uncovering, i from 0. */
static int mdj_move(MdjW *w, int number, int index, int seat, int part, int i) {
    if (MDJ_LIT(w, "\"move\":{\"round\":") || out_long(&w->out, number) ||
        MDJ_LIT(w, ",\"index\":") || out_long(&w->out, index) || MDJ_LIT(w, ",\"player\":") ||
        mdj_name(w, seat) || MDJ_LIT(w, ",\"pointer\":\"/rounds/") ||
        out_long(&w->out, number - 1) ||
        (part ? MDJ_LIT(w, "/uncovering/") : MDJ_LIT(w, "/covering/")) ||
        out_long(&w->out, i) || MDJ_LIT(w, "\"}"))
        return -1;
    return 0;
}

/* A cover's event (roll k of the round, from 0; `how` the cup was taken), as md_cover_said
 * words it. */
static int mdj_cover(MdjW *w, int number, const MdCup *cup, int k, int how) {
    const char *colour = MD_NAMES[cup->colour];
    DwText b;
    dwt_init(&b);
    md_cover_words(&b, cup, how);
    if (MDJ_LIT(w, "{\"text\":") || mdj_text(&w->out, &b) || MDJ_LIT(w, ",") ||
        mdj_move(w, number, k + 1, cup->coverer, 0, k) || MDJ_LIT(w, ",\"rule\":") ||
        (how == MD_PLAIN ? MDJ_LIT(w, "null")
                         : mdj_bytes(w, how == MD_NO_CUP ? MDJ_GOLDEN_NO_CUP : MDJ_GOLDEN_LAST)) ||
        MDJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"cover\",\"die\":") ||
        out_long(&w->out, cup->die) || MDJ_LIT(w, ",\"colour\":\"") ||
        out_put(&w->out, colour, (Py_ssize_t)strlen(colour)) || MDJ_LIT(w, "\",\"symbol\":") ||
        mdj_str(&w->out, cup->symbol) || MDJ_LIT(w, ",\"cup\":\"") ||
        out_put(&w->out, MD_NAMES[cup->cup], (Py_ssize_t)strlen(MD_NAMES[cup->cup])) ||
        (how == MD_PLAIN ? MDJ_LIT(w, "\",\"golden\":null")
         : how == MD_NO_CUP ? MDJ_LIT(w, "\",\"golden\":\"no-cup-left\"")
                            : MDJ_LIT(w, "\",\"golden\":\"last-die\"")) ||
        (how == MD_PLAIN || how == MD_LAST_LEFT ? MDJ_LIT(w, ",\"cup_left\":true}}")
                                                : MDJ_LIT(w, ",\"cup_left\":false}}")))
        return -1;
    return 0;
}

/* An answer's event, as md_guess words it: for cup `cupno` (from 1), move `index` of the
 * round, answer j of its uncovering (from 0). */
static int mdj_guess(MdjW *w, int number, const MdCup *cup, int cupno, int index, int j,
                    int *cited) {
    PyObject *said = cup->named ? mdj_repr(w, cup->named) : NULL, *symbol = NULL;
    if (cup->named && !said) return -1;
    if (!cup->right && !(symbol = mdj_repr(w, cup->symbol))) return -1;
    DwText b;
    dwt_init(&b);
    md_guess_words(&b, said, cupno);
    if (cup->right) {
        dwt_cstr(&b, ": right, keeps the ");
        dwt_cstr(&b, MD_NAMES[cup->cup]);
        dwt_cstr(&b, " cup");
    } else {
        dwt_cstr(&b, " (it is ");
        dwt_str(&b, symbol);
        dwt_cstr(&b, "): the ");
        dwt_cstr(&b, MD_NAMES[cup->cup]);
        dwt_cstr(&b, " cup goes to ");
        dwt_str(&b, w->names[cup->holder]);
        dwt_cstr(&b, ", who goes on");
    }
    int bit = cup->right ? 1 : 2;
    int quote = !(*cited & bit);
    *cited |= bit;
    if (MDJ_LIT(w, "{\"text\":") || mdj_text(&w->out, &b) || MDJ_LIT(w, ",") ||
        mdj_move(w, number, index, cup->guesser, 1, j) || MDJ_LIT(w, ",\"rule\":") ||
        (quote ? mdj_bytes(w, cup->right ? MDJ_RIGHT : MDJ_WRONG) : MDJ_LIT(w, "null")) ||
        MDJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"cup\",\"cup\":") ||
        out_long(&w->out, cupno) || MDJ_LIT(w, ",\"colour\":\"") ||
        out_put(&w->out, MD_NAMES[cup->cup], (Py_ssize_t)strlen(MD_NAMES[cup->cup])) ||
        MDJ_LIT(w, "\",\"symbol\":") || mdj_str(&w->out, cup->symbol) ||
        MDJ_LIT(w, ",\"guesser\":") || mdj_name(w, cup->guesser) || MDJ_LIT(w, ",\"named\":") ||
        (cup->named ? mdj_str(&w->out, cup->named) : MDJ_LIT(w, "null")) ||
        (cup->right ? MDJ_LIT(w, ",\"right\":true,\"to\":") : MDJ_LIT(w, ",\"right\":false,\"to\":")) ||
        mdj_name(w, cup->holder) || MDJ_LIT(w, "}}"))
        return -1;
    return 0;
}

/* {"p":score,...} of the seats (all of them, or those with nonzero `only`). */
static int mdj_scores(MdjW *w, int n, const long *values, int nonzero) {
    if (MDJ_LIT(w, "{")) return -1;
    int first = 1;
    for (int p = 0; p < n; p++) {
        if (nonzero && !values[p]) continue;
        if ((!first && MDJ_LIT(w, ",")) || mdj_name(w, p) || MDJ_LIT(w, ":") ||
            out_long(&w->out, values[p]))
            return -1;
        first = 0;
    }
    return MDJ_LIT(w, "}");
}

/* The round's points event and the game's end or the next start, as md_scoring words them
 * (state.Replay._score): the row's `ncups` cups (holder -1: still covered, scoring for
 * nobody), the points each seat `gained`, the `scores` after the round; `next`: who begins
 * the next round (-1: nobody got the golden cup, no event). */
static int mdj_scoring(MdjW *w, int n, int number, const MdCup *cups, int ncups,
                      const long *gained, const long *scores, int ended, long target,
                      int next) {
    int counts[MD_MAX_PLAYERS] = {0};
    for (int k = 0; k < ncups; k++)
        if (cups[k].holder >= 0) counts[cups[k].holder]++;
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "points: ");
    int parts = 0;
    for (int p = 0; p < n; p++) {
        if (!counts[p]) continue;
        if (parts++) dwt_cstr(&b, "; ");
        dwt_str(&b, w->names[p]);
        dwt_cstr(&b, " +");
        dwt_long(&b, gained[p]);
        dwt_cstr(&b, " (");
        for (int k = 0, i = 0; k < ncups; k++) {
            if (cups[k].holder != p) continue;
            if (i++) dwt_cstr(&b, ", ");
            dwt_cstr(&b, MD_NAMES[cups[k].cup]);
        }
        dwt_cstr(&b, ")");
    }
    if (!parts) dwt_cstr(&b, "nobody scores");
    if (MDJ_LIT(w, "{\"text\":") || mdj_text(&w->out, &b) ||
        MDJ_LIT(w, ",\"move\":null,\"rule\":") || mdj_bytes(w, MDJ_POINTS) ||
        MDJ_LIT(w, ",\"points\":") || mdj_scores(w, n, gained, 1) ||
        MDJ_LIT(w, ",\"fact\":{\"kind\":\"round-points\",\"cups\":{"))
        return -1;
    for (int p = 0, first = 1; p < n; p++) {
        if (!counts[p]) continue;
        if ((!first && MDJ_LIT(w, ",")) || mdj_name(w, p) || MDJ_LIT(w, ":["))
            return -1;
        first = 0;
        for (int k = 0, i = 0; k < ncups; k++) {
            if (cups[k].holder != p) continue;
            const char *name = MD_NAMES[cups[k].cup];
            if ((i++ && MDJ_LIT(w, ",")) || MDJ_LIT(w, "\"") ||
                out_put(&w->out, name, (Py_ssize_t)strlen(name)) || MDJ_LIT(w, "\""))
                return -1;
        }
        if (MDJ_LIT(w, "]")) return -1;
    }
    if (MDJ_LIT(w, "}}}")) return -1;
    if (!ended && next < 0) return 0;
    if (MDJ_LIT(w, ",")) return -1;
    dwt_init(&b);
    if (ended) {
        long best = 0;
        for (int p = 0; p < n; p++)
            if (scores[p] > best) best = scores[p];
        for (int p = 0, i = 0; p < n; p++) {
            if (scores[p] < target) continue;
            if (i++) dwt_cstr(&b, " and ");
            dwt_str(&b, w->names[p]);
        }
        dwt_cstr(&b, " reached ");
        dwt_long(&b, target);
        dwt_cstr(&b, " points: the game ends");
        if (MDJ_LIT(w, "{\"text\":") || mdj_text(&w->out, &b) ||
            MDJ_LIT(w, ",\"move\":null,\"rule\":") || mdj_bytes(w, MDJ_END) ||
            MDJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"game-end\",\"round\":") ||
            out_long(&w->out, number) || MDJ_LIT(w, ",\"reached\":["))
            return -1;
        for (int p = 0, i = 0; p < n; p++) {
            if (scores[p] < target) continue;
            if ((i++ && MDJ_LIT(w, ",")) || mdj_name(w, p)) return -1;
        }
        if (MDJ_LIT(w, "],\"points\":") || out_long(&w->out, target) ||
            MDJ_LIT(w, ",\"scores\":") || mdj_scores(w, n, scores, 0) ||
            MDJ_LIT(w, ",\"winners\":["))
            return -1;
        for (int p = 0, i = 0; p < n; p++) {
            if (scores[p] != best) continue;
            if ((i++ && MDJ_LIT(w, ",")) || mdj_name(w, p)) return -1;
        }
        return MDJ_LIT(w, "]}}");
    }
    int holder = next;
    dwt_str(&b, w->names[holder]);
    dwt_cstr(&b, " had the golden cup: ");
    dwt_str(&b, w->names[holder]);
    dwt_cstr(&b, " begins round ");
    dwt_long(&b, number + 1);
    if (MDJ_LIT(w, "{\"text\":") || mdj_text(&w->out, &b) ||
        MDJ_LIT(w, ",\"move\":null,\"rule\":") || mdj_bytes(w, MDJ_FIRST) ||
        MDJ_LIT(w, ",\"points\":{},\"fact\":{\"kind\":\"start\",\"player\":") ||
        mdj_name(w, holder) || MDJ_LIT(w, ",\"round\":") || out_long(&w->out, number + 1) ||
        MDJ_LIT(w, ",\"reason\":\"golden-cup\",\"birds\":null,\"tie\":false}}"))
        return -1;
    return 0;
}

/* Round `number` (from 1) as msgspec encodes the Round memo_dice_word.c's md_round makes. */
static int mdj_round(MdjW *w, int n, int number, const MdRound *r, int ended, long target) {
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "Round ");
    dwt_long(&b, number);
    dwt_cstr(&b, ": ");
    dwt_str(&b, w->names[r->first]);
    dwt_cstr(&b, " begins");
    if (MDJ_LIT(w, "{\"number\":") || out_long(&w->out, number) || MDJ_LIT(w, ",\"title\":") ||
        mdj_text(&w->out, &b) || MDJ_LIT(w, ",\"events\":["))
        return -1;
    for (int k = 0; k < r->ncups; k++) {
        const MdCup *cup = &r->cups[k];
        if (mdj_cover(w, number, cup, k, cup->cup == MD_GOLDEN ? r->golden : MD_PLAIN) ||
            MDJ_LIT(w, ","))
            return -1;
    }
    int cited = 0;
    for (int k = 0; k < r->ncups; k++)
        if (mdj_guess(w, number, &r->cups[k], k + 1, r->ncups + k + 1, k, &cited) ||
            MDJ_LIT(w, ","))
            return -1;
    if (mdj_scoring(w, n, number, r->cups, r->ncups, r->gained, r->scores, ended, target,
                   r->cups[r->ncups - 1].holder) || MDJ_LIT(w, "],\"scores\":") ||
        mdj_scores(w, n, r->scores, 0) || MDJ_LIT(w, ",\"display\":"))
        return -1;
    PyObject *row = md_row(w->names, r);
    if (!row) return -1;
    int status = mdj_str(&w->out, row);
    Py_DECREF(row);
    return status || MDJ_LIT(w, "}") ? -1 : 0;
}

/* The final table (at.final_table): points per round (`rows` rounds scored, each seat's
 * points of round k at gained[k * MD_MAX_PLAYERS + seat]) and in total, best first. */
static PyObject *mdj_final_table(PyObject *const *names, int n, int rows, const long *gained,
                                const long *scores) {
    int order[MD_MAX_PLAYERS];
    Py_ssize_t name_w = 6;
    for (int p = 0; p < n; p++) {
        if (PyUnicode_GET_LENGTH(names[p]) > name_w) name_w = PyUnicode_GET_LENGTH(names[p]);
        int at = p;  /* sorted by score, highest first, ties in seat order (a stable sort) */
        while (at > 0 && scores[order[at - 1]] < scores[p]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = p;
    }
    DwText b;
    dwt_init(&b);
    dwt_cstr(&b, "Final table\nplayer");
    dwt_pad(&b, name_w - 6);
    char cell[32];
    for (int i = 0; i < rows; i++) {
        int len = snprintf(cell, sizeof cell, "r%d", i + 1);
        dwt_cstr(&b, " ");
        dwt_pad(&b, 3 - len);
        dwt_add(&b, cell, len);
    }
    dwt_cstr(&b, "  total");
    for (int i = 0; i < n; i++) {
        int p = order[i];
        dwt_cstr(&b, "\n");
        dwt_str(&b, names[p]);
        dwt_pad(&b, name_w - PyUnicode_GET_LENGTH(names[p]));
        for (int k = 0; k < rows; k++) {
            int len = snprintf(cell, sizeof cell, "%ld", gained[k * MD_MAX_PLAYERS + p]);
            dwt_cstr(&b, " ");
            dwt_pad(&b, 3 - len);
            dwt_add(&b, cell, len);
        }
        int len = snprintf(cell, sizeof cell, "%ld", scores[p]);
        dwt_cstr(&b, "  ");
        dwt_pad(&b, 5 - len);
        dwt_add(&b, cell, len);
    }
    PyObject *text = dwt_done(&b);
    if (!text && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "memo_dice: unwordable");
    return text;
}

/* mdj_final_table of a clean log's replay. */
static PyObject *mdj_game_table(PyObject *const *names, const MdGame *g) {
    long *gained = PyMem_Malloc(sizeof(long) * MD_MAX_PLAYERS * (size_t)g->nrounds);
    if (!gained) return PyErr_NoMemory();
    for (int k = 0; k < g->nrounds; k++)
        memcpy(gained + k * MD_MAX_PLAYERS, g->rounds[k].gained, sizeof(long) * MD_MAX_PLAYERS);
    PyObject *table = mdj_final_table(names, g->n, g->nrounds, gained,
                                     g->rounds[g->nrounds - 1].scores);
    PyMem_Free(gained);
    return table;
}

/* The arguments of memo_dice_json and memo_dice_marks read, the log replayed (1: g filled,
 * md_free it; 0 declined; -1 error) and the names written. */
static int mdj_start(PyObject *args, const char *fname, MdjW *w, MdGame *g, PyObject **held,
                    long *target) {
    PyObject *rounds, *players, *dice, *kit_tuple;
    if (!PyArg_ParseTuple(args, "O!O!OO!l", &PyTuple_Type, &rounds, &PyTuple_Type, &players,
                          &dice, &PyTuple_Type, &kit_tuple, target))
        return -1;
    if (PyTuple_GET_SIZE(kit_tuple) != MDJ_SIZE) {
        PyErr_Format(PyExc_ValueError, "%s: a kit of the wrong size", fname);
        return -1;
    }
    PyObject *const *kit = &PyTuple_GET_ITEM(kit_tuple, 0);
    for (int i = MDJ_GOLDEN_LAST; i <= MDJ_FIRST; i++) {
        if (!PyBytes_CheckExact(kit[i])) {
            PyErr_Format(PyExc_TypeError, "%s: a rule's JSON is not bytes", fname);
            return -1;
        }
    }
    if (!PyDict_CheckExact(kit[MDJ_REPRS])) {
        PyErr_Format(PyExc_TypeError, "%s: the cache is not a dict", fname);
        return -1;
    }
    if (PyDict_GET_SIZE(kit[MDJ_REPRS]) > 8192) PyDict_Clear(kit[MDJ_REPRS]);
    for (int i = MDJ_ROUND_ENTRY; i <= MDJ_FACE_ENTRY; i++) {
        if (!PyType_Check(kit[i])) {
            PyErr_Format(PyExc_TypeError, "%s: a log type is not a type", fname);
            return -1;
        }
    }
    held[0] = Py_NewRef(kit_tuple);  /* (what is borrowed stays held while callbacks run) */
    held[1] = Py_NewRef(rounds);
    held[2] = Py_NewRef(players);
    held[3] = Py_NewRef(dice);
    memset(w, 0, sizeof *w);
    w->kit = kit;
    int status = md_replay(rounds, players, dice, kit + MDJ_ROUND_ENTRY, kit[MDJ_SAME], *target, g);
    if (status <= 0) return status;
    w->names = &PyTuple_GET_ITEM(players, 0);
    for (int p = 0; p < g->n; p++) {
        w->name_at[p] = w->nm.len;
        if (mdj_str(&w->nm, w->names[p])) return -1;
        w->name_len[p] = w->nm.len - w->name_at[p];
    }
    return 1;
}

static void mdj_end(MdjW *w, MdGame *g, PyObject **held) {
    md_free(g);
    PyMem_RawFree(w->out.buf);
    PyMem_RawFree(w->nm.buf);
    for (int i = 0; i < 4; i++) Py_XDECREF(held[i]);
}

/* The scores of the last round, in seat order (a new tuple). */
static PyObject *mdj_final_scores(const MdGame *g) {
    PyObject *out = PyTuple_New(g->n);
    for (int p = 0; out && p < g->n; p++) {
        PyObject *value = PyLong_FromLong(g->rounds[g->nrounds - 1].scores[p]);
        if (!value) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, p, value);
    }
    return out;
}

/* memo_dice_json(rounds, players, dice, kit, target) -> (rounds JSON, scores, final table)
 * or None: a clean log's ruling rounds as msgspec encodes memo_dice_replay's (the bytes of
 * a JSON array), the final scores in seat order, the final table (at.final_table's text). */
static PyObject *memo_dice_json(PyObject *Py_UNUSED(self), PyObject *args) {
    MdjW w;
    MdGame g = {0};
    PyObject *held[4] = {0}, *out = NULL;
    long target;
    memset(&w, 0, sizeof w);
    int status = mdj_start(args, "memo_dice_json", &w, &g, held, &target);
    if (status == 0) {
        out = Py_NewRef(Py_None);
    } else if (status > 0) {
        int failed = MDJ_LIT(&w, "[");
        for (int i = 0; !failed && i < g.nrounds; i++)
            failed = (i && MDJ_LIT(&w, ",")) ||
                     mdj_round(&w, g.n, i + 1, &g.rounds[i], g.ended && i == g.nrounds - 1,
                              target);
        if (!failed && !MDJ_LIT(&w, "]")) {
            PyObject *json = PyBytes_FromStringAndSize(w.out.buf, w.out.len);
            PyObject *scores = mdj_final_scores(&g), *table = mdj_game_table(w.names, &g);
            if (json && scores && table) out = PyTuple_Pack(3, json, scores, table);
            Py_XDECREF(json);
            Py_XDECREF(scores);
            Py_XDECREF(table);
        } else if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
    }
    mdj_end(&w, &g, held);
    return out;
}
