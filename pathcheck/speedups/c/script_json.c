/* script_json(data): the JSON of a replay page made safe inside its <script> element, in one
 * pass: every "</" written "<\/" and every "<!--" written "\u003c!--", as
 * data.replace(b"</", b"<\\/").replace(b"<!--", b"\\u003c!--") gives (neither pattern can
 * overlap itself or the other, so one pass left to right makes the same bytes). Two replaces
 * over a page's data cost more than msgspec's encoding of it (the '<' of every SVG tag is a
 * false start); here memchr finds each '<'. pathcheck.render.html._json_bytes_for_script. */

static PyObject *script_json(PyObject *self, PyObject *arg) {
    (void)self;
    if (!PyBytes_CheckExact(arg)) {
        PyErr_SetString(PyExc_TypeError, "script_json: bytes expected");
        return NULL;
    }
    const char *s = PyBytes_AS_STRING(arg), *end = s + PyBytes_GET_SIZE(arg), *p = s, *q;
    Py_ssize_t extra = 0;
    while ((q = memchr(p, '<', (size_t)(end - p))) != NULL) {
        if (end - q >= 2 && q[1] == '/') {
            extra += 1;
            p = q + 2;
        } else if (end - q >= 4 && q[1] == '!' && q[2] == '-' && q[3] == '-') {
            extra += 5;
            p = q + 4;
        } else {
            p = q + 1;
        }
    }
    if (extra == 0) {
        Py_INCREF(arg);
        return arg;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, PyBytes_GET_SIZE(arg) + extra);
    if (out == NULL) {
        return NULL;
    }
    char *o = PyBytes_AS_STRING(out);
    p = s;
    while ((q = memchr(p, '<', (size_t)(end - p))) != NULL) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        if (end - q >= 2 && q[1] == '/') {
            memcpy(o, "<\\/", 3);
            o += 3;
            p = q + 2;
        } else if (end - q >= 4 && q[1] == '!' && q[2] == '-' && q[3] == '-') {
            memcpy(o, "\\u003c!--", 9);
            o += 9;
            p = q + 4;
        } else {
            *o++ = '<';
            p = q + 1;
        }
    }
    memcpy(o, p, (size_t)(end - p));
    return out;
}
