/* pathcheck._speedups, part of the one translation unit _speedups.c: the reader's guard on a
 * JSON text before and after it is decoded (pathcheck.reading.reader.decode_value).
 *
 * json_guard(data, limit) scans the text once and answers
 *   1  arrays and objects nest deeper than `limit` somewhere: exactly
 *      pathcheck.reading.bounded.too_deep(data, limit), on any bytes, JSON or not;
 *   2  an object may give a key twice: pathcheck.reading.bounded.duplicate_keys decides (a key that
 *      repeats byte for byte, or one this scan cannot compare: an escape in it, an object
 *      with more keys than it keeps);
 *   0  neither: no object of the (valid) JSON text gives a key twice.
 * Keys without escapes are equal as strings exactly when their UTF-8 bytes are equal, so a
 * 0 is never wrong for a text the decoder accepts; for any other text the decoder's error is
 * the one reported and the answer is not used. */

#define GUARD_MAX_LIMIT 4096
#define GUARD_MAX_KEYS 4096      /* keys kept at once along the open objects */

typedef struct {
    Py_ssize_t start, len;
} KeySpan;

static PyObject *json_guard(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer view;
    int limit;
    if (!PyArg_ParseTuple(args, "y*i", &view, &limit)) return NULL;
    if (limit < 0 || limit > GUARD_MAX_LIMIT) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "json_guard: limit out of range");
        return NULL;
    }
    const unsigned char *s = view.buf;
    const Py_ssize_t n = view.len;
    KeySpan *keys = PyMem_Malloc(sizeof(KeySpan) * GUARD_MAX_KEYS);
    Py_ssize_t *frames = PyMem_Malloc(sizeof(Py_ssize_t) * (GUARD_MAX_LIMIT + 1));
    if (!keys || !frames) {
        PyMem_Free(keys);
        PyMem_Free(frames);
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    long depth = 0;          /* as too_deep counts: may go below 0 on stray closers */
    Py_ssize_t nkeys = 0;    /* keys of the open objects, frames[d] where depth d's begin */
    int unsure = 0, deep = 0;
    frames[0] = 0;
    for (Py_ssize_t i = 0; i < n && !deep; i++) {
        unsigned char c = s[i];
        if (c == '"') {
            Py_ssize_t start = i + 1, j = start;
            int escaped = 0;
            while (j < n && s[j] != '"') {
                if (s[j] == '\\') {
                    if (j + 1 >= n) break;  /* a lone backslash at the end ends the string */
                    escaped = 1;
                    j += 2;
                } else {
                    j++;
                }
            }
            Py_ssize_t len = (j < n ? j : n) - start;
            i = j;  /* on the closing quote (or at the end) */
            if (unsure || depth < 1) continue;
            Py_ssize_t k = i + 1;
            while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r')) k++;
            if (k >= n || s[k] != ':') continue;  /* a value, not a key */
            if (escaped || nkeys >= GUARD_MAX_KEYS) {
                unsure = 1;
                continue;
            }
            for (Py_ssize_t m = frames[depth - 1]; m < nkeys; m++) {
                if (keys[m].len == len && memcmp(s + keys[m].start, s + start, len) == 0) {
                    unsure = 1;
                    break;
                }
            }
            keys[nkeys].start = start;
            keys[nkeys].len = len;
            nkeys++;
        } else if (c == '[' || c == '{') {
            depth++;
            if (depth > limit) {
                deep = 1;
            } else if (depth >= 1) {
                frames[depth - 1] = nkeys;  /* the keys of this container begin here */
            }
        } else if (c == ']' || c == '}') {
            if (depth >= 1) nkeys = frames[depth - 1];
            depth--;
        }
    }
    PyMem_Free(keys);
    PyMem_Free(frames);
    PyBuffer_Release(&view);
    return PyLong_FromLong(deep ? 1 : unsure ? 2 : 0);
}
