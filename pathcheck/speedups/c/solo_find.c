/* pathcheck._speedups, part of the one translation unit _speedups.c: the deals of a few deal
 * keys in solo_kernel's per-deal keys (solo_key_deals), for a census chunk's extreme seeds. */

/* ---- the deals of chosen keys ------------------------------------------------------------ */

#define SOLO_FIND_MOST 64  /* keys asked at once */

/* solo_key_deals(keys, wanted, most, begin) -> list of lists of int
 * keys: int64 a deal (solo_kernel's keys); wanted: a tuple of at most SOLO_FIND_MOST distinct
 * int keys; for each of them, in order, the indices of its first `most` deals from index
 * `begin` on. One pass over the keys (a census chunk's 2^20 deals: about a millisecond), where
 * bytes.find searched the 8 MB once a key. */
static PyObject *solo_key_deals(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer view;
    PyObject *wanted;
    Py_ssize_t most, begin;
    if (!PyArg_ParseTuple(args, "y*O!nn", &view, &PyTuple_Type, &wanted, &most, &begin))
        return NULL;
    const Py_ssize_t nwant = PyTuple_GET_SIZE(wanted), deals = view.len / 8;
    int64_t want[SOLO_FIND_MOST];
    /* An open-addressing set of the wanted keys: slot -> index + 1 (0: empty). */
    unsigned char slot[4 * SOLO_FIND_MOST] = {0};
    Py_ssize_t found[SOLO_FIND_MOST] = {0};
    PyObject *lists = NULL;
    if (nwant > SOLO_FIND_MOST || most < 0 || begin < 0 || view.len % 8) {
        PyErr_SetString(PyExc_ValueError, "solo_key_deals: bad arguments");
        goto done;
    }
    for (Py_ssize_t j = 0; j < nwant; j++) {
        long long k = PyLong_AsLongLong(PyTuple_GET_ITEM(wanted, j));
        if (k == -1 && PyErr_Occurred()) goto done;
        want[j] = k;
        size_t i = (size_t)(((uint64_t)k * GOLDEN_GAMMA) >> 56);
        while (slot[i] && want[slot[i] - 1] != k) i = (i + 1) % sizeof slot;
        if (slot[i]) {
            PyErr_SetString(PyExc_ValueError, "solo_key_deals: a key asked twice");
            goto done;
        }
        slot[i] = (unsigned char)(j + 1);
    }
    lists = PyList_New(nwant);
    if (!lists) goto done;
    for (Py_ssize_t j = 0; j < nwant; j++) {
        PyObject *list = PyList_New(0);
        if (!list) { Py_CLEAR(lists); goto done; }
        PyList_SET_ITEM(lists, j, list);
    }
    const char *key = (const char *)view.buf;
    Py_ssize_t left = most > 0 ? nwant : 0;  /* keys still short of `most` deals */
    for (Py_ssize_t d = begin; d < deals && left > 0; d++) {
        int64_t k;
        memcpy(&k, key + 8 * d, sizeof k);
        size_t i = (size_t)(((uint64_t)k * GOLDEN_GAMMA) >> 56);
        while (slot[i] && want[slot[i] - 1] != k) i = (i + 1) % sizeof slot;
        if (!slot[i]) continue;
        const int j = slot[i] - 1;
        if (found[j] == most) continue;
        PyObject *index = PyLong_FromSsize_t(d);
        if (!index || PyList_Append(PyList_GET_ITEM(lists, j), index) < 0) {
            Py_XDECREF(index);
            Py_CLEAR(lists);
            goto done;
        }
        Py_DECREF(index);
        if (++found[j] == most) left--;
    }
done:
    PyBuffer_Release(&view);
    return lists;
}
