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

#define GUARD_KEYS_AT_HAND 256   /* keys kept on the stack before the heap is needed */
#define GUARD_FRAMES_AT_HAND 128

/* The bytes the scan stops at: 1 '"', 2 '[' and '{', 3 ']' and '}' (0: any other). */
static const unsigned char GUARD_CLASS[256] = {
    ['"'] = 1, ['['] = 2, ['{'] = 2, [']'] = 3, ['}'] = 3,
};
/* The bytes a string's scan stops at: '"' and '\\'. */
static const unsigned char GUARD_IN_STRING[256] = {['"'] = 1, ['\\'] = 1};

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
    /* Most texts fit the arrays at hand; a bigger one moves to the heap (keys) or is given
     * heap frames from the start (a limit above GUARD_FRAMES_AT_HAND). */
    KeySpan keys_at_hand[GUARD_KEYS_AT_HAND], *keys = keys_at_hand;
    Py_ssize_t frames_at_hand[GUARD_FRAMES_AT_HAND], *frames = frames_at_hand;
    Py_ssize_t max_keys = GUARD_KEYS_AT_HAND;
    if (limit + 1 > GUARD_FRAMES_AT_HAND) {
        frames = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(limit + 1));
        if (!frames) {
            PyBuffer_Release(&view);
            return PyErr_NoMemory();
        }
    }
    long depth = 0;          /* as too_deep counts: may go below 0 on stray closers */
    Py_ssize_t nkeys = 0;    /* keys of the open objects, frames[d] where depth d's begin */
    int unsure = 0, deep = 0, failed = 0;
    frames[0] = 0;
    for (Py_ssize_t i = 0; i < n && !deep; i++) {
        unsigned char kind = GUARD_CLASS[s[i]];
        if (!kind) continue;
        if (kind == 1) {
            Py_ssize_t start = i + 1, j = start;
            int escaped = 0;
            for (;;) {
                while (j < n && !GUARD_IN_STRING[s[j]]) j++;
                if (j >= n || s[j] == '"') break;
                if (j + 1 >= n) break;  /* a lone backslash at the end ends the string */
                escaped = 1;
                j += 2;
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
            if (nkeys >= max_keys) {  /* off the stack, once, to the most ever kept */
                KeySpan *more = PyMem_Malloc(sizeof(KeySpan) * GUARD_MAX_KEYS);
                if (!more) {
                    failed = 1;
                    break;
                }
                memcpy(more, keys, sizeof(KeySpan) * (size_t)nkeys);
                keys = more;
                max_keys = GUARD_MAX_KEYS;
            }
            keys[nkeys].start = start;
            keys[nkeys].len = len;
            nkeys++;
        } else if (kind == 2) {
            depth++;
            if (depth > limit) {
                deep = 1;
            } else if (depth >= 1) {
                frames[depth - 1] = nkeys;  /* the keys of this container begin here */
            }
        } else {
            if (depth >= 1) nkeys = frames[depth - 1];
            depth--;
        }
    }
    if (keys != keys_at_hand) PyMem_Free(keys);
    if (frames != frames_at_hand) PyMem_Free(frames);
    PyBuffer_Release(&view);
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLong(deep ? 1 : unsure ? 2 : 0);
}
