/* lean_add(moments, state, base, caption, event, picture, notes, scores, kinds,
 * rule_html): one
 * moment of a lean page (pathcheck.render.lean.LeanMoments.add) in its usual case, made as
 * add makes it: the moment's key, its item of the page's data, its item of the move list
 * (event_html's usual case), its slider mark, its notes said once and its scores. Gives False,
 * having changed nothing, where the moment is not the usual case, which add then makes in
 * Python: a text or a note to isolate or not ASCII (the page names a player whose name can turn
 * the text around it, or a text holds other characters than ASCII), an analysis mark, a key
 * that is not plain in an id, a picture not yet numbered, a rule not yet written
 * (``rule_html``, by rule, which add fills), scores that are not a dict, a note of a kind
 * not in ``kinds``. The caller has
 * checked that no name is isolated on the page and that the moment has no ``text``.
 * tests/test_lean_pages.py compares the pages (and tests/test_growing_c.py this function's
 * moments with add's own, the extension's path taken out). */

static PyObject *la_names[16];
enum { LA_USED, LA_DRAWN, LA_FRAMES, LA_EVENTS, LA_MARKS, LA_NOTES, LA_RULES, LA_SCORES, LA_ROWS,
       LA_FIRST, LA_LAST, LA_MARK, LA_WHERE, LA_TEXT, LA_RULE, LA_KIND };
static const char *const LA_NAME_TEXT[16] = {
    "_used", "_drawn", "_frames", "_events", "_marks", "_notes", "_rules", "_scores", "_rows",
    "_first_violation", "_last", "mark", "where", "text", "rule", "kind"};
static PyObject *la_violation, *la_lost, *la_empty;

static int la_init(void) {
    if (la_lost != NULL) {
        return 0;
    }
    for (int i = 0; i < 16; i++) {
        if ((la_names[i] = PyUnicode_InternFromString(LA_NAME_TEXT[i])) == NULL) {
            return -1;
        }
    }
    if ((la_empty = PyUnicode_FromString("")) == NULL) {
        return -1;
    }
    la_violation = PyUnicode_InternFromString("violation");
    la_lost = PyUnicode_InternFromString("lost");
    return la_violation == NULL || la_lost == NULL ? -1 : 0;
}

static int la_plain_char(Py_UCS1 c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
        || c == '_' || c == '.' || c == '~' || c == '-';
}

/* html.escape of an ASCII text, appended to a buffer. */
static int la_escape(Buf *b, PyObject *text) {
    const char *s = (const char *)PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), from = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *with = NULL;
        switch (s[i]) {
        case '&': with = "&amp;"; break;
        case '<': with = "&lt;"; break;
        case '>': with = "&gt;"; break;
        case '"': with = "&quot;"; break;
        case '\'': with = "&#x27;"; break;
        default: continue;
        }
        if (buf_put(b, s + from, (size_t)(i - from)) < 0 || buf_puts(b, with) < 0) {
            return -1;
        }
        from = i + 1;
    }
    return buf_put(b, s + from, (size_t)(n - from));
}

static PyObject *la_attr(PyObject *obj, int name) {
    return PyObject_GetAttr(obj, la_names[name]);
}

static PyObject *la_keys[6]; /* the item's keys: k c p e n s */

static PyObject *lean_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "lean_add: 10 arguments expected");
        return NULL;
    }
    PyObject *m = args[0], *state = args[1], *base = args[2], *caption = args[3],
             *event = args[4], *picture = args[5], *notes = args[6], *scores = args[7],
             *kinds = args[8], *rule_html = args[9];
    if (!PyUnicode_Check(base) || !PyUnicode_Check(caption) || !PyDict_Check(kinds)
        || !PyDict_Check(rule_html) || !PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 7) {
        PyErr_SetString(PyExc_TypeError, "lean_add: arguments of the wrong type");
        return NULL;
    }
    if (la_init() < 0) {
        return NULL;
    }
    if (la_keys[0] == NULL) {
        static const char *const names[6] = {"k", "c", "p", "e", "n", "s"};
        for (int i = 0; i < 6; i++) {
            if ((la_keys[i] = PyUnicode_InternFromString(names[i])) == NULL) {
                return NULL;
            }
        }
    }
    PyObject *st[LA_LAST + 1] = {NULL};
    PyObject *ev_where = NULL, *ev_text = NULL, *ev_rule = NULL, *ev_v = NULL, *ev_l = NULL;
    PyObject *key = NULL, *number = NULL, *rule_line = NULL, *item = NULL, *result = NULL;
    PyObject *seq = NULL, *pid = NULL;
    Buf b = {0};
    for (int i = LA_USED; i <= LA_RULES; i++) {
        st[i] = PyTuple_GET_ITEM(state, i);
        Py_INCREF(st[i]);
    }
    for (int i = LA_SCORES; i <= LA_ROWS; i++) {
        if ((st[i] = la_attr(m, i)) == NULL) {
            goto done;
        }
    }
    if (!PyDict_Check(st[LA_USED]) || !PyDict_Check(st[LA_DRAWN]) || !PyList_Check(st[LA_FRAMES])
        || !PyList_Check(st[LA_EVENTS]) || !PyList_Check(st[LA_MARKS])
        || !PyDict_Check(st[LA_NOTES]) || !PyDict_Check(st[LA_RULES])) {
        PyErr_SetString(PyExc_TypeError, "lean_add: not a LeanMoments");
        goto done;
    }
    /* First what decides whether this is the usual case; nothing is changed before. */
    if (!PyUnicode_IS_ASCII(caption) || (scores != Py_None && !PyDict_CheckExact(scores))) {
        result = Py_False;
        goto done;
    }
    int drawn = PyObject_IsTrue(picture);
    if (drawn < 0) {
        goto done;
    }
    if (drawn) {
        if ((pid = PyLong_FromVoidPtr(picture)) == NULL) {
            goto done;
        }
        PyObject *known = PyDict_GetItemWithError(st[LA_DRAWN], pid);
        if (known == NULL) {
            result = PyErr_Occurred() ? NULL : Py_False;
            goto done;
        }
        if (!PyTuple_Check(known) || PyTuple_GET_SIZE(known) != 2) {
            PyErr_SetString(PyExc_TypeError, "lean_add: a picture's number is a pair");
            goto done;
        }
        number = PyTuple_GET_ITEM(known, 1);
        Py_INCREF(number);
    }
    Py_ssize_t count = 0;
    PyObject *used = PyDict_GetItemWithError(st[LA_USED], base);
    if (used == NULL && PyErr_Occurred()) {
        goto done;
    }
    if (used != NULL && (count = PyLong_AsSsize_t(used)) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "lean_add: a negative count");
        }
        goto done;
    }
    if (count == 0) {
        key = base;
        Py_INCREF(key);
    } else if (count < 26) {
        key = PyUnicode_FromFormat("%U%c", base, (int)('a' + count));
    } else {
        key = PyUnicode_FromFormat("%U~%zd", base, count);
    }
    if (key == NULL) {
        goto done;
    }
    if (event != Py_None) {
        PyObject *mark = la_attr(event, LA_MARK);
        if (mark == NULL) {
            goto done;
        }
        int marked = PyObject_IsTrue(mark);
        Py_DECREF(mark);
        if (marked < 0) {
            goto done;
        }
        if ((ev_where = la_attr(event, LA_WHERE)) == NULL || (ev_text = la_attr(event, LA_TEXT)) == NULL
            || (ev_rule = la_attr(event, LA_RULE)) == NULL
            || (ev_v = PyObject_GetAttr(event, la_violation)) == NULL
            || (ev_l = PyObject_GetAttr(event, la_lost)) == NULL) {
            goto done;
        }
        int plain = !marked && PyUnicode_IS_ASCII(key) && PyUnicode_Check(ev_where)
            && PyUnicode_Check(ev_text) && PyUnicode_IS_ASCII(ev_where) && PyUnicode_IS_ASCII(ev_text);
        for (Py_ssize_t i = 0; plain && i < PyUnicode_GET_LENGTH(key); i++) {
            plain = la_plain_char(PyUnicode_1BYTE_DATA(key)[i]);
        }
        if (plain && ev_rule != Py_None) {
            rule_line = PyDict_GetItemWithError(rule_html, ev_rule);
            if (rule_line == NULL && PyErr_Occurred()) {
                goto done;
            }
            Py_XINCREF(rule_line);
            plain = rule_line != NULL && PyUnicode_Check(rule_line);
        }
        if (!plain) {
            result = Py_False;
            goto done;
        }
    }
    if ((seq = PySequence_Fast(notes, "lean_add: notes must be a sequence")) == NULL) {
        goto done;
    }
    Py_ssize_t nnotes = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < nnotes; i++) {
        PyObject *note = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *nid = PyLong_FromVoidPtr(note);
        if (nid == NULL) {
            goto done;
        }
        PyObject *one = PyDict_GetItemWithError(st[LA_NOTES], nid);
        Py_DECREF(nid);
        if (one == NULL) {
            if (PyErr_Occurred()) {
                goto done;
            }
            PyObject *text = la_attr(note, LA_TEXT);
            if (text == NULL) {
                goto done;
            }
            int ascii = PyUnicode_Check(text) && PyUnicode_IS_ASCII(text);
            Py_DECREF(text);
            PyObject *kind = ascii ? la_attr(note, LA_KIND) : NULL;
            if (ascii && kind == NULL) {
                goto done;
            }
            int known_kind = ascii ? PyDict_Contains(kinds, kind) : 0;
            Py_XDECREF(kind);
            if (known_kind < 0) {
                goto done;
            }
            if (!known_kind) { /* add raises its KeyError */
                result = Py_False;
                goto done;
            }
        }
    }
    /* The usual case: the moment is made. */
    PyObject *next = PyLong_FromSsize_t(count + 1);
    if (next == NULL || PyDict_SetItem(st[LA_USED], base, next) < 0) {
        Py_XDECREF(next);
        goto done;
    }
    Py_DECREF(next);
    if ((item = PyDict_New()) == NULL || PyDict_SetItem(item, la_keys[0], key) < 0
        || PyDict_SetItem(item, la_keys[1], caption) < 0
        || (number != NULL && PyDict_SetItem(item, la_keys[2], number) < 0)) {
        goto done;
    }
    if (event != Py_None) {
        PyObject *at = PyLong_FromSsize_t(PyList_GET_SIZE(st[LA_EVENTS]));
        if (at == NULL || PyDict_SetItem(item, la_keys[3], at) < 0) {
            Py_XDECREF(at);
            goto done;
        }
        Py_DECREF(at);
        int violation = PyObject_IsTrue(ev_v), lost = PyObject_IsTrue(ev_l);
        if (violation < 0 || lost < 0) {
            goto done;
        }
        const char *ident = PyUnicode_AsUTF8(key);
        if (ident == NULL || buf_puts(&b, "<li id=\"m-") < 0 || buf_puts(&b, ident) < 0
            || buf_puts(&b, "\" class=\"ev") < 0
            || (violation && buf_puts(&b, " violation") < 0) || (lost && buf_puts(&b, " lost") < 0)
            || buf_puts(&b, "\"><a class=\"go\" href=\"#m-") < 0 || buf_puts(&b, ident) < 0
            || buf_puts(&b, "\">") < 0
            || buf_puts(&b, violation ? "<span class=\"tag\">violation</span> "
                            : lost ? "<span class=\"tag\">Lost</span> " : "") < 0) {
            goto done;
        }
        if (PyUnicode_GET_LENGTH(ev_where) > 0
            && (buf_puts(&b, "<span class=\"where\">") < 0 || la_escape(&b, ev_where) < 0
                || buf_puts(&b, ":</span> ") < 0)) {
            goto done;
        }
        if (la_escape(&b, ev_text) < 0 || buf_puts(&b, "</a>") < 0) {
            goto done;
        }
        if ((rule_line != NULL && buf_str(&b, rule_line) < 0) || buf_puts(&b, "</li>") < 0) {
            goto done;
        }
        PyObject *whole = buf_text(&b);
        if (whole == NULL) {
            goto done;
        }
        int failed = PyList_Append(st[LA_EVENTS], whole);
        Py_DECREF(whole);
        PyObject *markt = failed ? NULL : PyTuple_Pack(3, key, ev_v, ev_l);
        if (markt == NULL || PyList_Append(st[LA_MARKS], markt) < 0) {
            Py_XDECREF(markt);
            goto done;
        }
        Py_DECREF(markt);
        if (violation) {
            PyObject *first = PyObject_GetAttr(m, la_names[LA_FIRST]);
            if (first == NULL) {
                goto done;
            }
            int unset = first == Py_None;
            Py_DECREF(first);
            if (unset && PyObject_SetAttr(m, la_names[LA_FIRST], key) < 0) {
                goto done;
            }
        }
    } else {
        PyObject *markt = PyTuple_Pack(3, key, Py_False, Py_False);
        if (markt == NULL || PyList_Append(st[LA_MARKS], markt) < 0) {
            Py_XDECREF(markt);
            goto done;
        }
        Py_DECREF(markt);
    }
    int any = PyObject_IsTrue(notes);
    if (any < 0) {
        goto done;
    }
    if (any) {
        PyObject *said = PyList_New(nnotes);
        if (said == NULL || PyDict_SetItem(item, la_keys[4], said) < 0) {
            Py_XDECREF(said);
            goto done;
        }
        Py_DECREF(said); /* the item holds it */
        for (Py_ssize_t i = 0; i < nnotes; i++) {
            PyObject *note = PySequence_Fast_GET_ITEM(seq, i);
            PyObject *nid = PyLong_FromVoidPtr(note);
            if (nid == NULL) {
                goto done;
            }
            PyObject *one = PyDict_GetItemWithError(st[LA_NOTES], nid);
            if (one == NULL) {
                PyObject *kind = NULL, *text = NULL, *rule = NULL, *words = NULL, *pair = NULL;
                if (PyErr_Occurred() || (kind = la_attr(note, LA_KIND)) == NULL
                    || (text = la_attr(note, LA_TEXT)) == NULL || (rule = la_attr(note, LA_RULE)) == NULL) {
                    goto note_failed;
                }
                PyObject *said_kind = PyDict_GetItemWithError(kinds, kind);
                if (said_kind == NULL) {
                    if (!PyErr_Occurred()) {
                        PyErr_SetObject(PyExc_KeyError, kind);
                    }
                    goto note_failed;
                }
                if ((words = PyList_New(rule != Py_None ? 3 : 2)) == NULL) {
                    goto note_failed;
                }
                Py_INCREF(said_kind);
                PyList_SET_ITEM(words, 0, said_kind);
                Py_INCREF(text);
                PyList_SET_ITEM(words, 1, text);
                if (rule != Py_None) {
                    PyObject *n = PyLong_FromSsize_t(PyDict_GET_SIZE(st[LA_RULES]));
                    PyObject *at = n == NULL ? NULL : PyDict_SetDefault(st[LA_RULES], rule, n);
                    Py_XDECREF(n);
                    if (at == NULL) {
                        goto note_failed;
                    }
                    Py_INCREF(at);
                    PyList_SET_ITEM(words, 2, at);
                }
                if ((pair = PyTuple_Pack(2, note, words)) == NULL
                    || PyDict_SetItem(st[LA_NOTES], nid, pair) < 0) {
                    goto note_failed;
                }
                one = pair;
                Py_DECREF(pair); /* the dict holds it */
                pair = NULL;
                Py_DECREF(kind);
                Py_DECREF(text);
                Py_DECREF(rule);
                Py_DECREF(words);
                goto note_made;
            note_failed:
                Py_DECREF(nid);
                Py_XDECREF(kind);
                Py_XDECREF(text);
                Py_XDECREF(rule);
                Py_XDECREF(words);
                Py_XDECREF(pair);
                goto done;
            }
        note_made:
            Py_DECREF(nid);
            if (!PyTuple_Check(one) || PyTuple_GET_SIZE(one) != 2) {
                PyErr_SetString(PyExc_TypeError, "lean_add: a note said is a pair");
                goto done;
            }
            PyObject *words = PyTuple_GET_ITEM(one, 1);
            Py_INCREF(words);
            PyList_SET_ITEM(said, i, words);
        }
    }
    PyObject *kept = st[LA_SCORES];
    PyObject *given = scores;
    PyObject *empty = NULL;
    if (scores == Py_None || PyDict_GET_SIZE(scores) == 0) {
        if ((empty = PyDict_New()) == NULL) {
            goto done;
        }
        given = empty;
    }
    int differ = kept == Py_None ? 1 : PyObject_RichCompareBool(kept, given, Py_NE);
    if (differ < 0) {
        Py_XDECREF(empty);
        goto done;
    }
    if (differ) {
        PyObject *copy = PyDict_Copy(given);
        Py_XDECREF(empty);
        if (copy == NULL) {
            goto done;
        }
        PyObject *rows = PyList_New(0);
        PyObject *name, *points;
        Py_ssize_t pos = 0;
        while (rows != NULL && PyDict_Next(copy, &pos, &name, &points)) {
            PyObject *row = PyList_New(2);
            if (row == NULL) {
                Py_CLEAR(rows);
                break;
            }
            Py_INCREF(name);
            PyList_SET_ITEM(row, 0, name);
            Py_INCREF(points);
            PyList_SET_ITEM(row, 1, points);
            if (PyList_Append(rows, row) < 0) {
                Py_CLEAR(rows);
            }
            Py_DECREF(row);
        }
        if (rows == NULL || PyObject_SetAttr(m, la_names[LA_SCORES], copy) < 0
            || PyObject_SetAttr(m, la_names[LA_ROWS], rows) < 0) {
            Py_DECREF(copy);
            Py_XDECREF(rows);
            goto done;
        }
        Py_SETREF(st[LA_SCORES], copy);
        Py_SETREF(st[LA_ROWS], rows);
        kept = copy;
    } else {
        Py_XDECREF(empty);
    }
    if (PyDict_GET_SIZE(kept) > 0 && PyDict_SetItem(item, la_keys[5], st[LA_ROWS]) < 0) {
        goto done;
    }
    if (PyList_Append(st[LA_FRAMES], item) < 0) {
        goto done;
    }
    PyObject *last = PyTuple_Pack(6, key, caption, picture, la_empty, notes, kept);
    if (last == NULL) {
        goto done;
    }
    int failed = PyObject_SetAttr(m, la_names[LA_LAST], last);
    Py_DECREF(last);
    if (failed < 0) {
        goto done;
    }
    result = Py_True;
done:
    for (int i = LA_USED; i <= LA_ROWS; i++) {
        Py_XDECREF(st[i]);
    }
    Py_XDECREF(ev_where);
    Py_XDECREF(ev_text);
    Py_XDECREF(ev_rule);
    Py_XDECREF(ev_v);
    Py_XDECREF(ev_l);
    Py_XDECREF(key);
    Py_XDECREF(number);
    Py_XDECREF(rule_line);
    Py_XDECREF(item);
    Py_XDECREF(seq);
    Py_XDECREF(pid);
    buf_free(&b);
    Py_XINCREF(result);
    return result;
}
