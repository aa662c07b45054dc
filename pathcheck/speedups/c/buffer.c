/* pathcheck._speedups, part of the one translation unit _speedups.c: The output buffer the results are written into (raw allocators: no GIL needed). */

/* ---- output buffer ------------------------------------------------------------------- */

typedef struct {
    char *buf;
    Py_ssize_t len, cap;
} Out;

/* Raw allocators only: scan_block writes with the GIL released. -1 (no Python error set)
 * when memory runs out; the caller raises MemoryError once it holds the GIL. */
static int out_grow(Out *o, Py_ssize_t extra) {
    Py_ssize_t cap = o->cap ? o->cap : 1 << 16;
    while (cap < o->len + extra) cap *= 2;
    char *nb = PyMem_RawRealloc(o->buf, cap);
    if (!nb) return -1;
    o->buf = nb;
    o->cap = cap;
    return 0;
}

/* The check inline, the growing (seldom) not: every write of a field asks. */
static inline int out_reserve(Out *o, Py_ssize_t extra) {
    return o->len + extra <= o->cap ? 0 : out_grow(o, extra);
}

static inline int out_put(Out *o, const char *s, Py_ssize_t n) {
    if (out_reserve(o, n) < 0) return -1;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return 0;
}

#define OUT_LIT(o, s) out_put((o), (s), (Py_ssize_t)(sizeof(s) - 1))

static inline int out_bytes(Out *o, PyObject *b) {
    return out_put(o, PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b));
}

static inline int write_long(char *dst, long v) {
    char tmp[24];
    int n = 0, neg = v < 0;
    unsigned long u = neg ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    int len = 0;
    if (neg) dst[len++] = '-';
    while (n) dst[len++] = tmp[--n];
    return len;
}

static int out_long(Out *o, long v) {
    if (out_reserve(o, 24) < 0) return -1;
    o->len += write_long(o->buf + o->len, v);
    return 0;
}

