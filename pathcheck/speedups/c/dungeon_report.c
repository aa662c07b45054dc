/* dungeon_report: the values a clean game/1 log's analysis is made of (dungeon_marks's kit
 * and running counts) and each exploration's report, from dungeon_replay's trace (included
 * after dungeon_replay.c and before dungeon_marks.c, which makes the moves and calls
 * dm_report; split from it to keep each file one job). */

/* The values the moves are made of, in the order of `kit` (pathcheck.analysis.dungeon._kit). */
enum {
    DM_MOVE,                                   /* the AnalysedMove type */
    DM_SOUND, DM_SLIP, DM_HARMLESS,            /* Mark members */
    DM_RULE_D, DM_PRIORITY, DM_RULE_I, DM_RULE_II,
    DM_ZERO, DM_ONE, DM_BLUNDER,               /* 0.0, 1.0, "blunder" */
    DM_LAY_IN_LINE, DM_MISPLACED, DM_AS_PLAYED, DM_IN_LINE,
    DM_STAYS, DM_STAY, DM_HOLDS_WHY, DM_ANNOUNCES, DM_EITHER, DM_ANNOUNCE, DM_IS_LOST,
    DM_TOO_EARLY, DM_MISSED, DM_MISSED_NOTHING,
    DM_ANNOUNCEMENT, DM_REPORT, DM_RULE_III,   /* LostAnnouncement, ExplorationReport types */
    DM_HELD_ON, DM_V_TOO_EARLY, DM_ON_TIME, DM_LATE, DM_V_MISSED, DM_NOT_JUDGED, DM_NO_CHANCE,
    DM_REASONS, DM_REASON_RULES,               /* tuples by reason code: its name, its rule */
    DM_KIT
};

typedef struct {
    PyObject *const *kit;
    PyObject *players;   /* tuple of str */
    int n;
    long slips[DG_MAX_PLAYERS], sound[DG_MAX_PLAYERS], harmless[DG_MAX_PLAYERS];
    double lost[DG_MAX_PLAYERS], stake[DG_MAX_PLAYERS];
    PyObject *moves;     /* list */
    struct DmJson *json; /* not NULL: the moves are written as JSON (dungeon_marks_json.c) */
    /* With json: the reports are written as JSON here too (gj_report), with the kit's values
     * that are neither text nor numbers looked up in `encoded`; `reports_declined`: one
     * could not be written so (the values are made instead, by Python). */
    Out reports;
    PyObject *encoded;
    int reports_declined;
    /* The kit's values (not text) found in `encoded` so far, by identity (borrowed: the kit
     * and `encoded` hold them for the call): hashing a Rule at each report costs more. */
    int af_nfound;
    PyObject *af_found[16], *af_found_json[16];
    /* The texts of the reports written so far (names, verdicts, reasons: borrowed, held by
     * the call's arguments) and where their JSON lies in `reports`, copied from there. */
    int af_ntexts;
    PyObject *af_text[32];
    Py_ssize_t af_text_at[32], af_text_len[32];
} DmLog;

/* A str as a JSON string (1: no UTF-8 form, declined), None as null, a kit value that is
 * neither (a Rule) as `encoded` has it (1: not there); -1 on an error. */
static int gj_report_value(Out *o, DmLog *g, PyObject *obj) {
    if (obj == Py_None) return OUT_LIT(o, "null");
    if (PyUnicode_CheckExact(obj)) {
        for (int k = 0; k < g->af_ntexts; k++) {
            if (g->af_text[k] == obj) {
                Py_ssize_t at = g->af_text_at[k], len = g->af_text_len[k];
                if (out_reserve(o, len) < 0) return -1;
                memcpy(o->buf + o->len, o->buf + at, (size_t)len);
                o->len += len;
                return 0;
            }
        }
        Py_ssize_t at = o->len;
        int status = gj_str(o, obj);
        if (!status && g->af_ntexts < 32) {
            g->af_text[g->af_ntexts] = obj;
            g->af_text_at[g->af_ntexts] = at;
            g->af_text_len[g->af_ntexts++] = o->len - at;
        }
        return status;
    }
    for (int k = 0; k < g->af_nfound; k++)
        if (g->af_found[k] == obj) return out_bytes(o, g->af_found_json[k]);
    PyObject *known = PyDict_GetItemWithError(g->encoded, obj);
    if (!known) {
        if (!PyErr_Occurred()) return 1;
        PyErr_Clear();  /* an unhashable value: not the kit's */
        return 1;
    }
    if (!PyBytes_CheckExact(known)) return 1;
    if (g->af_nfound < 16) {
        g->af_found[g->af_nfound] = obj;
        g->af_found_json[g->af_nfound++] = known;
    }
    return out_bytes(o, known);
}

static inline int gj_int_or_null(Out *o, long value, int given) {
    return given ? out_long(o, value) : OUT_LIT(o, "null");
}

/* `obj` as an int in [lo, hi] into *out: 1, 0 if it is no int or out of the range (the
 * trace is not a clean log's: declined), -1 with an error set. */
static int dm_int(PyObject *obj, long lo, long hi, int *out) {
    if (!PyLong_Check(obj)) return 0;
    int overflow;
    long value = PyLong_AsLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (overflow || value < lo || value > hi) return 0;
    *out = (int)value;
    return 1;
}

/* A new reference to `value` as an int, or None for 0 (or less). */
static PyObject *dm_int_or_none(long value) {
    return value > 0 ? PyLong_FromLong(value) : Py_NewRef(Py_None);
}

/* The first seat whose card lies on tile `tile` (the announcement that stood in turn tile - 1),
 * or -1. */
static int dm_stood(int tile, const int (*cards)[2], int ncards) {
    for (int k = 0; k < ncards; k++)
        if (cards[k][1] == tile) return cards[k][0];
    return -1;
}

/* The exploration's report (exploration_report in analysis/dungeon.py), with each seat's
 * perfect points in `perfect_points`. 1 done (a new reference in *out), 0 decline, -1 error.
 * `seats`: the active seat of each turn. */
static int dm_report(DmLog *g, int number, int lost_at, int code, const int (*cards)[2],
                     int ncards, const int *seats, int nturns, int priority, PyObject *outcomes,
                     int *perfect_points, PyObject **out) {
    PyObject *const *kit = g->kit;
    int n = g->n;
    if (code >= PyTuple_GET_SIZE(kit[DM_REASONS]) ||
        !PyTuple_Check(outcomes) || PyTuple_GET_SIZE(outcomes) != n)
        return 0;  /* not in a clean log's trace */
    int card_of[DG_MAX_PLAYERS] = {0}, points[DG_MAX_PLAYERS];
    for (int k = 0; k < ncards; k++) card_of[cards[k][0]] = cards[k][1];
    for (int p = 0; p < n; p++) {
        PyObject *o = PyTuple_GET_ITEM(outcomes, p);
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 4) return 0;
        int found = dm_int(PyTuple_GET_ITEM(o, 3), 0, 1, &points[p]);
        if (found <= 0) return found;
    }
    PyObject *announcements = PyTuple_New(n);
    if (!announcements) return -1;
    if (g->json) {  /* ExplorationReport's fields before its announcements */
        Out *o = &g->reports;
        int lost_turn = lost_at ? lost_at - 1 : 0, status = 0;
        PyObject *placed_by = lost_turn >= 1 && lost_turn <= nturns
                                  ? PyTuple_GET_ITEM(g->players, seats[lost_turn - 1]) : Py_None;
        if ((o->len > 1 && OUT_LIT(o, ",")) || OUT_LIT(o, "{\"number\":") ||
            out_long(o, number) || OUT_LIT(o, ",\"lost_tile\":") ||
            gj_int_or_null(o, lost_at, lost_at > 0) || OUT_LIT(o, ",\"lost_turn\":") ||
            gj_int_or_null(o, lost_turn, lost_turn > 0) || OUT_LIT(o, ",\"reason\":") ||
            (status = gj_report_value(o, g, PyTuple_GET_ITEM(kit[DM_REASONS], code))) ||
            OUT_LIT(o, ",\"rule\":") ||
            (status = gj_report_value(o, g,
                                      PyTuple_GET_ITEM(kit[DM_REASON_RULES], code))) ||
            OUT_LIT(o, ",\"placed_by\":") ||
            (status = gj_report_value(o, g, placed_by)) ||
            OUT_LIT(o, ",\"announcements\":[")) {
            if (status > 0) {
                g->reports_declined = 1;
            } else {
                if (!PyErr_Occurred()) PyErr_NoMemory();
                Py_DECREF(announcements);
                return -1;
            }
        }
    }
    for (int p = 0; p < n; p++) {
        int after = card_of[p], perfect = -1, verdict, rule = DM_RULE_II;
        perfect_points[p] = 0;
        if (!lost_at) {  /* the path held: staying scores (rule III), any card is early */
            verdict = after ? DM_V_TOO_EARLY : DM_HELD_ON;
            rule = after ? DM_RULE_I : DM_RULE_III;
            perfect_points[p] = 1;
        } else {
            for (int t = lost_at - 1; t <= nturns; t++) {
                int active = seats[t - 1];
                if (active == p) continue;
                if (priority) {
                    int standing = dm_stood(t + 1, cards, ncards);
                    if (standing == active) goto decline;  /* Python's clockwise_after fails */
                    if (standing >= 0 && standing != p &&
                        (standing - active + n) % n < (p - active + n) % n)
                        continue;  /* outranked in this turn */
                }
                perfect = t;
                break;
            }
            if (!after) {
                if (perfect >= 0) {
                    int stood = priority ? dm_stood(perfect + 1, cards, ncards) : -1;
                    verdict = stood < 0 || stood == p ? DM_V_MISSED : DM_NOT_JUDGED;
                } else {
                    verdict = DM_NO_CHANCE;
                }
            } else if (after < lost_at) {
                verdict = DM_V_TOO_EARLY;
            } else {
                verdict = after - 1 == perfect ? DM_ON_TIME : DM_LATE;
            }
            if (verdict == DM_V_TOO_EARLY) rule = DM_RULE_I;
            else if (verdict == DM_NOT_JUDGED) rule = DM_PRIORITY;
            if (perfect >= 0) {  /* rule II: it scores if no other card lies lower, past Lost */
                int first_other = 0;
                for (int k = 0; k < ncards; k++) {
                    int a = cards[k][1];
                    if (cards[k][0] != p && a >= lost_at && (!first_other || a < first_other))
                        first_other = a;
                }
                perfect_points[p] = !first_other || perfect + 1 <= first_other;
            }
        }
        if (g->json) {  /* LostAnnouncement's fields, as msgspec writes them */
            Out *o = &g->reports;
            int status;
            if ((p && OUT_LIT(o, ",")) || OUT_LIT(o, "{\"player\":")) goto no_memory;
            if ((status = gj_report_value(o, g, PyTuple_GET_ITEM(g->players, p))) ||
                OUT_LIT(o, ",\"verdict\":") ||
                (status = gj_report_value(o, g, kit[verdict])) ||
                OUT_LIT(o, ",\"announced_turn\":") || gj_int_or_null(o, after - 1, after) ||
                OUT_LIT(o, ",\"perfect_turn\":") ||
                gj_int_or_null(o, perfect, lost_at && perfect >= 0) ||
                OUT_LIT(o, ",\"points\":") || out_long(o, points[p]) ||
                OUT_LIT(o, ",\"perfect_points\":") || out_long(o, perfect_points[p]) ||
                OUT_LIT(o, ",\"rule\":") || (status = gj_report_value(o, g, kit[rule])) ||
                OUT_LIT(o, "}")) {
                if (status < 0 || (!status && !PyErr_Occurred())) goto no_memory;
                if (PyErr_Occurred()) goto failed;
                g->reports_declined = 1;
            }
            continue;
        }
        PyObject *args[7] = {PyTuple_GET_ITEM(g->players, p), kit[verdict],
                             after ? PyLong_FromLong(after - 1) : Py_NewRef(Py_None),
                             lost_at ? (perfect >= 0 ? PyLong_FromLong(perfect)
                                                     : Py_NewRef(Py_None))
                                     : Py_NewRef(Py_None),
                             PyLong_FromLong(points[p]), PyLong_FromLong(perfect_points[p]),
                             kit[rule]};
        PyObject *one = args[2] && args[3] && args[4] && args[5]
                            ? PyObject_Vectorcall(kit[DM_ANNOUNCEMENT], args, 7, NULL) : NULL;
        for (int k = 2; k < 6; k++) Py_XDECREF(args[k]);
        if (!one) {
            Py_DECREF(announcements);
            return -1;
        }
        PyTuple_SET_ITEM(announcements, p, one);
    }
    int lost_turn = lost_at ? lost_at - 1 : 0;
    PyObject *placed_by = lost_turn >= 1 && lost_turn <= nturns
                              ? PyTuple_GET_ITEM(g->players, seats[lost_turn - 1]) : Py_None;
    if (g->json) {  /* (its fields written above, with its announcements) */
        Py_DECREF(announcements);
        if (OUT_LIT(&g->reports, "]}")) {
            PyErr_NoMemory();
            return -1;
        }
        *out = Py_NewRef(Py_None);
        return 1;
    }
    PyObject *args[7] = {PyLong_FromLong(number), dm_int_or_none(lost_at),
                         dm_int_or_none(lost_turn), PyTuple_GET_ITEM(kit[DM_REASONS], code),
                         PyTuple_GET_ITEM(kit[DM_REASON_RULES], code), placed_by, announcements};
    *out = args[0] && args[1] && args[2]
               ? PyObject_Vectorcall(kit[DM_REPORT], args, 7, NULL) : NULL;
    for (int k = 0; k < 3; k++) Py_XDECREF(args[k]);
    Py_DECREF(announcements);
    return *out ? 1 : -1;
no_memory:
    if (!PyErr_Occurred()) PyErr_NoMemory();
failed:
    Py_DECREF(announcements);
    return -1;
decline:
    Py_DECREF(announcements);
    return 0;
}

