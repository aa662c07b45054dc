/* dungeon_pictures(...): the pictures of one growing dungeon on a lean replay page, each as its
 * lines and its number in the page's table of pictures, as
 * pathcheck.render.growing.Growing.lines and pathcheck.render.lean.LeanMoments._number make
 * them (pathcheck/render/pictures.py calls it; tests/test_dungeon_pictures.py compares the two).
 *
 * What is worded (a tile's id and its hover title, who placed it, the <desc>, the LOST cards,
 * the shapes of paths made with shapely) comes from Python as text; here only the numbers are
 * written, each float with Python's own formatter (PyOS_double_to_string, 'f', 1), in the
 * order of operations of render/svg.py, so every line is the same text. Arguments:
 *   lines, pictures: the page's tables (a line's number; a picture's tuple of line numbers);
 *   drawn: each picture made, (picture, its number) by its id (LeanMoments._drawn);
 *   make: makes a picture of a tuple of lines (render.lean.Lines);
 *   head, fixed: the lines before and after the <desc> (tuples of str);
 *   tiles: the layout, a tuple (x, y, cell d, paths d, arrow, id part, placer part) a tile;
 *   passes: the full trace's passes (x, y, entry, exit attributes);
 *   taken: a list of 1024 slots, the d of the path taken over a tile by its set of turns
 *          (None: ask taken_make(mask));
 *   shift_y: the picture's y flip; start: START's line;
 *   steps: a tuple (tiles drawn, passes drawn, desc, Lost line or None, card lines) a picture.
 * Gives the list of pictures, one a step. */

typedef struct {
    char *data;
    size_t len, cap;
} Buf;

static int buf_put(Buf *b, const char *s, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) {
            cap *= 2;
        }
        char *grown = PyMem_Realloc(b->data, cap);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->data = grown;
        b->cap = cap;
    }
    if (n > 0) {
        memcpy(b->data + b->len, s, n);
    }
    b->len += n;
    return 0;
}

static int buf_puts(Buf *b, const char *s) {
    return buf_put(b, s, strlen(s));
}

static void buf_free(Buf *b) {
    PyMem_Free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* A str's UTF-8 appended (ASCII text is its own UTF-8, kept with the str). */
static int buf_str(Buf *b, PyObject *text) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    return s == NULL ? -1 : buf_put(b, s, (size_t)n);
}

static int buf_long(Buf *b, long v) {
    char digits[24], *end = digits + sizeof digits, *p = end;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0) {
        *--p = '-';
    }
    return buf_put(b, p, (size_t)(end - p));
}

static PyObject *buf_text(Buf *b) {
    return PyUnicode_DecodeUTF8(b->data != NULL ? b->data : "", (Py_ssize_t)b->len, NULL);
}

static int dp_f1(char *buf, size_t size, double value) {
    char *text = PyOS_double_to_string(value, 'f', 1, 0, NULL);
    if (text == NULL) {
        return -1;
    }
    size_t n = strlen(text);
    if (n >= size) {
        PyMem_Free(text);
        PyErr_SetString(PyExc_ValueError, "dungeon_pictures: coordinate out of range");
        return -1;
    }
    memcpy(buf, text, n + 1);
    PyMem_Free(text);
    return 0;
}

typedef struct {
    long x, y;
    PyObject *tile, *label, *taken; /* owned lines, NULL until made */
    PyObject *tile_no, *label_no, *taken_no; /* their numbers in the page's table, once known */
    int mask;
} DpTile;

static const int DP_PAIR[4][4] = {{0, 1, 2, 3}, {1, 4, 5, 6}, {2, 5, 7, 8}, {3, 6, 8, 9}};

/* transform="translate(X,Y)" of a tile's cell (render/svg.py, _place). */
static int dp_place(Buf *b, DpTile *t, double shift_y) {
    char tx[64], ty[64];
    if (dp_f1(tx, sizeof tx, (double)(t->x * 64)) < 0
        || dp_f1(ty, sizeof ty, (shift_y - (double)t->y) * 64) < 0) {
        return -1;
    }
    return buf_puts(b, "transform=\"translate(") < 0 || buf_puts(b, tx) < 0
        || buf_puts(b, ",") < 0 || buf_puts(b, ty) < 0 || buf_puts(b, ")\"") < 0 ? -1 : 0;
}

static PyObject *dp_tile_line(Buf *b, PyObject *item, long index, double shift_y, DpTile *t) {
    b->len = 0;
    if (buf_puts(b, "<g ") < 0 || dp_place(b, t, shift_y) < 0
        || buf_puts(b, "><path class=\"tile\" data-index=\"") < 0 || buf_long(b, index) < 0
        || buf_puts(b, "\" d=\"") < 0 || buf_str(b, PyTuple_GET_ITEM(item, 2)) < 0
        || buf_puts(b, "\" fill=\"#efe6d2\" stroke=\"#8a7f6a\"/><path d=\"") < 0
        || buf_str(b, PyTuple_GET_ITEM(item, 3)) < 0
        || buf_puts(b, "\" fill=\"none\" stroke=\"#b9ae98\" stroke-width=\"4\" "
                       "stroke-linecap=\"round\"/></g>") < 0) {
        return NULL;
    }
    return buf_text(b);
}

static PyObject *dp_label_line(Buf *b, PyObject *item, long index, double shift_y, DpTile *t) {
    PyObject *arrow = PyTuple_GET_ITEM(item, 4), *ident = PyTuple_GET_ITEM(item, 5),
             *placer = PyTuple_GET_ITEM(item, 6);
    char left[64], right[64], upper[64], lower[64];
    double x = (double)t->x, y = (double)t->y;
    if (dp_f1(left, sizeof left, (x - 0.46) * 64) < 0
        || dp_f1(right, sizeof right, (x + 0.46) * 64) < 0
        || dp_f1(upper, sizeof upper, (shift_y - y - 0.27) * 64) < 0
        || dp_f1(lower, sizeof lower, (shift_y - y + 0.43) * 64) < 0) {
        return NULL;
    }
    b->len = 0;
    if (buf_puts(b, "<g class=\"labels\" font-size=\"11\" fill=\"#444\"><text class=\"label\" x=\"") < 0
        || buf_puts(b, left) < 0 || buf_puts(b, "\" y=\"") < 0 || buf_puts(b, upper) < 0
        || buf_puts(b, "\" font-size=\"12\" font-weight=\"bold\">") < 0 || buf_long(b, index) < 0
        || buf_puts(b, "</text>") < 0) {
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(placer) > 0
        && (buf_puts(b, "<text class=\"placer\" x=\"") < 0 || buf_puts(b, right) < 0
            || buf_puts(b, "\" y=\"") < 0 || buf_puts(b, upper) < 0
            || buf_puts(b, "\" text-anchor=\"end\" font-weight=\"bold\" fill=\"#1a1a1a\">") < 0
            || buf_str(b, placer) < 0 || buf_puts(b, "</text>") < 0)) {
        return NULL;
    }
    if (buf_puts(b, "<text class=\"label\" x=\"") < 0 || buf_puts(b, left) < 0
        || buf_puts(b, "\" y=\"") < 0 || buf_puts(b, lower) < 0 || buf_puts(b, "\">") < 0
        || buf_str(b, arrow) < 0 || buf_puts(b, "</text><text class=\"label\" x=\"") < 0
        || buf_puts(b, right) < 0 || buf_puts(b, "\" y=\"") < 0 || buf_puts(b, lower) < 0
        || buf_puts(b, "\" text-anchor=\"end\">") < 0 || buf_str(b, ident) < 0
        || buf_puts(b, "</text></g>") < 0) {
        return NULL;
    }
    return buf_text(b);
}

static PyObject *dp_taken_line(Buf *b, PyObject *taken, PyObject *taken_make, long index,
                               double shift_y, DpTile *t) {
    PyObject *d = PyList_GET_ITEM(taken, t->mask);
    if (d == Py_None) {
        d = PyObject_CallFunction(taken_make, "i", t->mask);
        if (d == NULL) {
            return NULL;
        }
        if (!PyUnicode_Check(d)) {
            Py_DECREF(d);
            PyErr_SetString(PyExc_TypeError, "dungeon_pictures: taken_make must give a str");
            return NULL;
        }
        PyList_SetItem(taken, t->mask, d); /* steals d; the list keeps it alive */
    }
    b->len = 0;
    if (buf_puts(b, "<path class=\"taken\" data-index=\"") < 0 || buf_long(b, index) < 0
        || buf_puts(b, "\" ") < 0 || dp_place(b, t, shift_y) < 0 || buf_puts(b, " d=\"") < 0
        || buf_str(b, d) < 0
        || buf_puts(b, "\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"6\" "
                       "stroke-linecap=\"round\" stroke-linejoin=\"round\"/>") < 0) {
        return NULL;
    }
    return buf_text(b);
}

static int dp_long_attr(PyObject *obj, PyObject *name, long *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) {
        return -1;
    }
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The line's number in the page's table (a new line gets the next number); a new reference. */
static PyObject *dp_number(PyObject *lines, PyObject *line) {
    PyObject *n = PyDict_GetItemWithError(lines, line);
    if (n != NULL) {
        Py_INCREF(n);
        return n;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    n = PyLong_FromSsize_t(PyDict_GET_SIZE(lines));
    if (n == NULL || PyDict_SetItem(lines, line, n) < 0) {
        Py_XDECREF(n);
        return NULL;
    }
    return n;
}

static int dp_str_tuple(PyObject *t, const char *what) {
    if (!PyTuple_Check(t)) {
        PyErr_Format(PyExc_TypeError, "dungeon_pictures: %s must be a tuple", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(t, i))) {
            PyErr_Format(PyExc_TypeError, "dungeon_pictures: %s must hold str", what);
            return -1;
        }
    }
    return 0;
}

static PyObject *dungeon_pictures(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lines, *pictures, *drawn_by_id, *make, *head, *fixed, *tiles, *passes, *taken, *taken_make,
        *start, *steps;
    double shift_y;
    if (!PyArg_ParseTuple(args, "O!O!O!OO!O!O!O!O!OdUO!:dungeon_pictures", &PyDict_Type, &lines,
                          &PyDict_Type, &pictures, &PyDict_Type, &drawn_by_id, &make, &PyTuple_Type, &head, &PyTuple_Type,
                          &fixed, &PyTuple_Type, &tiles, &PyTuple_Type, &passes, &PyList_Type,
                          &taken, &taken_make, &shift_y, &start, &PyTuple_Type, &steps)) {
        return NULL;
    }
    if (PyList_GET_SIZE(taken) != 1024) {
        PyErr_SetString(PyExc_ValueError, "dungeon_pictures: taken must have 1024 slots");
        return NULL;
    }
    if (dp_str_tuple(head, "head") < 0 || dp_str_tuple(fixed, "fixed") < 0) {
        return NULL;
    }
    Py_ssize_t ntiles = PyTuple_GET_SIZE(tiles), npasses = PyTuple_GET_SIZE(passes);
    Py_ssize_t nsteps = PyTuple_GET_SIZE(steps);
    DpTile *tile = PyMem_Calloc((size_t)(ntiles > 0 ? ntiles : 1), sizeof(DpTile));
    int *pass_at = PyMem_Calloc((size_t)(npasses > 0 ? npasses : 1), sizeof(int));
    int *pass_bit = PyMem_Calloc((size_t)(npasses > 0 ? npasses : 1), sizeof(int));
    char *changed = PyMem_Calloc((size_t)(ntiles > 0 ? ntiles : 1), 1);
    PyObject *result = NULL, *out = NULL, *name_x = NULL, *name_y = NULL, *name_entry = NULL,
             *name_exit = NULL, *start_no = NULL, *close_no[2] = {NULL, NULL};
    PyObject *close_g = PyUnicode_FromString("</g>"), *close_svg = PyUnicode_FromString("</svg>");
    Py_ssize_t nhead = PyTuple_GET_SIZE(head), nfixed = PyTuple_GET_SIZE(fixed);
    PyObject **head_no = PyMem_Calloc((size_t)nhead + 1, sizeof(PyObject *));
    PyObject **fixed_no = PyMem_Calloc((size_t)nfixed + 1, sizeof(PyObject *));
    Buf lb = {0};
    if (close_g == NULL || close_svg == NULL) {
        goto done;
    }
    if (tile == NULL || pass_at == NULL || pass_bit == NULL || changed == NULL
        || head_no == NULL || fixed_no == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < ntiles; i++) {
        PyObject *item = PyTuple_GET_ITEM(tiles, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 7) {
            PyErr_SetString(PyExc_TypeError, "dungeon_pictures: a tile is a tuple of 7");
            goto done;
        }
        for (int k = 2; k < 7; k++) {
            if (!PyUnicode_Check(PyTuple_GET_ITEM(item, k))) {
                PyErr_SetString(PyExc_TypeError, "dungeon_pictures: a tile's parts are str");
                goto done;
            }
        }
        tile[i].x = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
        if (tile[i].x == -1 && PyErr_Occurred()) {
            goto done;
        }
        tile[i].y = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
        if (tile[i].y == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (labs(tile[i].x) > 1000000 || labs(tile[i].y) > 1000000) {
            PyErr_SetString(PyExc_ValueError, "dungeon_pictures: coordinate out of range");
            goto done;
        }
    }
    name_x = PyUnicode_InternFromString("x");
    name_y = PyUnicode_InternFromString("y");
    name_entry = PyUnicode_InternFromString("entry");
    name_exit = PyUnicode_InternFromString("exit");
    if (name_x == NULL || name_y == NULL || name_entry == NULL || name_exit == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < npasses; i++) {
        PyObject *p = PyTuple_GET_ITEM(passes, i);
        long x, y, entry, exit_;
        if (dp_long_attr(p, name_x, &x) < 0 || dp_long_attr(p, name_y, &y) < 0
            || dp_long_attr(p, name_entry, &entry) < 0 || dp_long_attr(p, name_exit, &exit_) < 0) {
            goto done;
        }
        if (entry < 0 || entry > 3 || exit_ < 0 || exit_ > 3) {
            PyErr_SetString(PyExc_ValueError, "dungeon_pictures: a pass's direction is 0-3");
            goto done;
        }
        Py_ssize_t at = -1;
        for (Py_ssize_t k = 0; k < ntiles; k++) {
            if (tile[k].x == x && tile[k].y == y) {
                at = k;
                break;
            }
        }
        if (at < 0) {
            PyErr_SetString(PyExc_ValueError, "dungeon_pictures: a pass over no tile");
            goto done;
        }
        pass_at[i] = (int)at;
        pass_bit[i] = 1 << DP_PAIR[(entry + 2) % 4][exit_];
    }
    out = PyList_New(nsteps);
    if (out == NULL) {
        goto done;
    }
    Py_ssize_t laid = 0, drawn = 0;
    for (Py_ssize_t s = 0; s < nsteps; s++) {
        PyObject *step = PyTuple_GET_ITEM(steps, s);
        if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 5) {
            PyErr_SetString(PyExc_TypeError, "dungeon_pictures: a step is a tuple of 5");
            goto done;
        }
        Py_ssize_t count = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 0));
        Py_ssize_t upto = PyLong_AsSsize_t(PyTuple_GET_ITEM(step, 1));
        if (PyErr_Occurred()) {
            goto done;
        }
        PyObject *desc = PyTuple_GET_ITEM(step, 2), *lost = PyTuple_GET_ITEM(step, 3),
                 *cards = PyTuple_GET_ITEM(step, 4);
        if (count < 0 || count > ntiles || upto < 0 || upto > npasses || !PyUnicode_Check(desc)
            || (lost != Py_None && !PyUnicode_Check(lost)) || dp_str_tuple(cards, "cards") < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "dungeon_pictures: a step out of range");
            }
            goto done;
        }
        for (Py_ssize_t k = 0; k < upto; k++) {
            if (pass_at[k] >= count) { /* a pass over a tile not drawn: not a prefix's */
                PyErr_SetString(PyExc_ValueError, "dungeon_pictures: a pass beyond the tiles");
                goto done;
            }
        }
        if (upto < drawn || count < laid) { /* start the drawing over */
            for (Py_ssize_t k = 0; k < ntiles; k++) {
                Py_CLEAR(tile[k].taken);
                Py_CLEAR(tile[k].taken_no);
                tile[k].mask = 0;
            }
            laid = drawn = 0;
        }
        for (; laid < count; laid++) {
            DpTile *t = &tile[laid];
            PyObject *item = PyTuple_GET_ITEM(tiles, laid);
            if (t->tile == NULL && (t->tile = dp_tile_line(&lb, item, laid + 1, shift_y, t)) == NULL) {
                goto done;
            }
            if (t->label == NULL
                && (t->label = dp_label_line(&lb, item, laid + 1, shift_y, t)) == NULL) {
                goto done;
            }
        }
        if (upto > drawn) {
            memset(changed, 0, (size_t)ntiles);
            for (Py_ssize_t k = drawn; k < upto; k++) {
                tile[pass_at[k]].mask |= pass_bit[k];
                changed[pass_at[k]] = 1;
            }
            for (Py_ssize_t k = 0; k < count; k++) {
                if (changed[k]) {
                    Py_CLEAR(tile[k].taken);
                    Py_CLEAR(tile[k].taken_no);
                    tile[k].taken = dp_taken_line(&lb, taken, taken_make, (long)k + 1, shift_y,
                                                  &tile[k]);
                    if (tile[k].taken == NULL) {
                        goto done;
                    }
                }
            }
            drawn = upto;
        }
        Py_ssize_t ntaken = 0;
        for (Py_ssize_t k = 0; k < count; k++) {
            ntaken += tile[k].taken != NULL;
        }
        Py_ssize_t size = nhead + 1 + nfixed + 2 * count + ntaken + (count > 0)
            + (lost != Py_None) + PyTuple_GET_SIZE(cards) + 2;
        PyObject *text = PyTuple_New(size), *ids = PyTuple_New(size);
        if (text == NULL || ids == NULL) {
            Py_XDECREF(text);
            Py_XDECREF(ids);
            goto done;
        }
        Py_ssize_t n = 0;
        /* Each line with its number: a line met before keeps the number it got (the table
         * only grows), a new one is numbered in the order the picture holds it. */
#define DP_PUT(line, slot) do { \
            PyObject *l_ = (line), **s_ = (slot), *no_; \
            if (s_ != NULL && *s_ != NULL) { \
                no_ = *s_; \
                Py_INCREF(no_); \
            } else { \
                if ((no_ = dp_number(lines, l_)) == NULL) goto step_failed; \
                if (s_ != NULL) { Py_INCREF(no_); *s_ = no_; } \
            } \
            Py_INCREF(l_); \
            PyTuple_SET_ITEM(text, n, l_); \
            PyTuple_SET_ITEM(ids, n, no_); \
            n++; \
        } while (0)
        for (Py_ssize_t k = 0; k < nhead; k++) DP_PUT(PyTuple_GET_ITEM(head, k), &head_no[k]);
        DP_PUT(desc, NULL);
        for (Py_ssize_t k = 0; k < nfixed; k++) DP_PUT(PyTuple_GET_ITEM(fixed, k), &fixed_no[k]);
        for (Py_ssize_t k = 0; k < count; k++) DP_PUT(tile[k].tile, &tile[k].tile_no);
        for (Py_ssize_t k = 0; k < count; k++) {
            if (tile[k].taken != NULL) DP_PUT(tile[k].taken, &tile[k].taken_no);
        }
        for (Py_ssize_t k = 0; k < count; k++) DP_PUT(tile[k].label, &tile[k].label_no);
        if (count > 0) DP_PUT(start, &start_no);
        if (lost != Py_None) DP_PUT(lost, NULL);
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(cards); k++) DP_PUT(PyTuple_GET_ITEM(cards, k), NULL);
        DP_PUT(close_g, &close_no[0]);
        DP_PUT(close_svg, &close_no[1]);
#undef DP_PUT
        if (0) {
        step_failed:
            Py_DECREF(text);
            Py_DECREF(ids);
            goto done;
        }
        PyObject *next = PyLong_FromSsize_t(PyDict_GET_SIZE(pictures));
        PyObject *number = next == NULL ? NULL : PyDict_SetDefault(pictures, ids, next);
        Py_XDECREF(next);
        Py_DECREF(ids);
        if (number == NULL) {
            Py_DECREF(text);
            goto done;
        }
        Py_INCREF(number); /* PyDict_SetDefault's is borrowed */
        PyObject *picture = PyObject_CallOneArg(make, text);
        Py_DECREF(text);
        if (picture == NULL) {
            Py_DECREF(number);
            goto done;
        }
        PyObject *pair = PyTuple_Pack(2, picture, number);
        PyObject *pid = pair == NULL ? NULL : PyLong_FromVoidPtr(picture);
        int failed = pid == NULL || PyDict_SetItem(drawn_by_id, pid, pair) < 0;
        Py_XDECREF(pid);
        Py_XDECREF(pair);
        Py_DECREF(number);
        if (failed) {
            Py_DECREF(picture);
            goto done;
        }
        PyList_SET_ITEM(out, s, picture); /* the list takes the reference */
    }
    result = out;
    out = NULL;
done:
    if (tile != NULL) {
        for (Py_ssize_t i = 0; i < ntiles; i++) {
            Py_XDECREF(tile[i].tile);
            Py_XDECREF(tile[i].label);
            Py_XDECREF(tile[i].taken);
            Py_XDECREF(tile[i].tile_no);
            Py_XDECREF(tile[i].label_no);
            Py_XDECREF(tile[i].taken_no);
        }
    }
    if (head_no != NULL) {
        for (Py_ssize_t i = 0; i < nhead; i++) {
            Py_XDECREF(head_no[i]);
        }
    }
    if (fixed_no != NULL) {
        for (Py_ssize_t i = 0; i < nfixed; i++) {
            Py_XDECREF(fixed_no[i]);
        }
    }
    PyMem_Free(head_no);
    PyMem_Free(fixed_no);
    Py_XDECREF(start_no);
    Py_XDECREF(close_no[0]);
    Py_XDECREF(close_no[1]);
    Py_XDECREF(close_g);
    Py_XDECREF(close_svg);
    buf_free(&lb);
    PyMem_Free(tile);
    PyMem_Free(pass_at);
    PyMem_Free(pass_bit);
    PyMem_Free(changed);
    Py_XDECREF(out);
    Py_XDECREF(name_x);
    Py_XDECREF(name_y);
    Py_XDECREF(name_entry);
    Py_XDECREF(name_exit);
    return result;
}
