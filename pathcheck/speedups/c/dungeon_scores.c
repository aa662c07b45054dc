/* dungeon_scores: a clean game/1 log's totals from dungeon_replay's trace, what
 * pathcheck.games.dungeon.fast.fast_replay adds up for the analysis (included after
 * dungeon_replay.c). Each exploration's outcomes (the trace's item 12: seat, kind, tile,
 * points) are added to their seats; the game ends at the first exploration after which a
 * player has win_points. */

/* The int at `obj` into *out; 0 if it is no exact int that fits. */
static int af_int(PyObject *obj, long *out) {
    if (!PyLong_CheckExact(obj)) return 0;
    int overflow;
    *out = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* dungeon_scores(traced, players, win_points) -> tuple of each seat's points, None where the
 * game ends before the log does or the log before the game (fast_replay's None), False where
 * the trace is not one this reads (Python adds it up). */
static PyObject *dungeon_scores(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *traced;
    int n, win_points;
    if (!PyArg_ParseTuple(args, "O!ii", &PyTuple_Type, &traced, &n, &win_points)) return NULL;
    if (n < 1 || n > DG_MAX_PLAYERS) Py_RETURN_FALSE;
    long totals[DG_MAX_PLAYERS] = {0};
    Py_ssize_t count = PyTuple_GET_SIZE(traced);
    int won = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *one = PyTuple_GET_ITEM(traced, i);
        if (!PyTuple_CheckExact(one) || PyTuple_GET_SIZE(one) < 13) Py_RETURN_FALSE;
        PyObject *outcomes = PyTuple_GET_ITEM(one, 12);
        if (!PyTuple_CheckExact(outcomes)) Py_RETURN_FALSE;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(outcomes); k++) {
            PyObject *outcome = PyTuple_GET_ITEM(outcomes, k);
            long seat, points;
            if (!PyTuple_CheckExact(outcome) || PyTuple_GET_SIZE(outcome) != 4 ||
                !af_int(PyTuple_GET_ITEM(outcome, 0), &seat) ||
                !af_int(PyTuple_GET_ITEM(outcome, 3), &points) || seat < 0 || seat >= n ||
                points < -1000000 || points > 1000000)
                Py_RETURN_FALSE;
            totals[seat] += points;
        }
        for (int p = 0; p < n; p++) won |= totals[p] >= win_points;
        if (won && i != count - 1) Py_RETURN_NONE;  /* the log goes on after the game's end */
    }
    if (!won) Py_RETURN_NONE;  /* the log ends before anyone won */
    PyObject *result = PyTuple_New(n);
    for (int p = 0; result && p < n; p++) {
        PyObject *total = PyLong_FromLong(totals[p]);
        if (!total) Py_CLEAR(result);
        else PyTuple_SET_ITEM(result, p, total);
    }
    return result;
}
