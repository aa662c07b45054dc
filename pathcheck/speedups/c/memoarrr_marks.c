/* memoarrr_marks: a clean Memoarrr! log's analysed moves, worded from the judged reveals the C
 * knowledge replay hands over (memoarrr_know.c; seven items a move).
 *
 * What pathcheck.analysis.memoarrr.marked makes of each judged reveal, made here so that a
 * clean log's moves cost no Python loop: the same AnalysedMove values in the same order, each
 * text taken from the module's tables and caches (a miss is made and kept by the module's own
 * Python function, so both ways share every text), with each seat's counts by mark and the
 * points lost and at stake, added in the order of the moves (what
 * pathcheck.analysis.core.summarise counts). tests/analysis/test_memoarrr_marks.py compares
 * both ways, also under the sanitizers. */

enum {
    MM_MOVE,        /* the AnalysedMove type */
    MM_GUESS, MM_SLIP, MM_SOUND, MM_HARMLESS,  /* Mark members */
    MM_VERDICTS,    /* tuple of (mark, why) by verdict */
    MM_REVEALS,     /* tuple of "reveals PLACE (CARD)" by did */
    MM_CONNECT_TO,  /* tuple of "to connect to CARD; " by card */
    MM_NOTHING,     /* the best move when nothing connects */
    MM_MARKED, MM_MARKED_FN,      /* dict and its filler: (mark, grade, cost, value) */
    MM_NOT_SEEN, MM_NOT_SEEN_FN,  /* dict and its filler: (text, chance) */
    MM_KNEW_TEXT,                 /* dict: the whole "knew" text by knew's low 20 bits */
    MM_KNEW, MM_KNEW_FN,          /* dict and its filler: the text after the card */
    MM_KIT
};

#define MM_MAX_SEATS 8

typedef struct {
    long marks[MM_MAX_SEATS][4];  /* by seat: slips, guesses, sound, harmless */
    double lost[MM_MAX_SEATS], stake[MM_MAX_SEATS];
} MmCounts;

/* dict[key] or fill(a[, b, c]) (which keeps it; `n` arguments, made only on a miss); a new
 * reference, NULL with an error set. */
static PyObject *mm_cached(PyObject *dict, PyObject *fill, long key, int n, long a, long b,
                           long c) {
    PyObject *k = PyLong_FromLong(key);
    if (!k) return NULL;
    PyObject *found = PyDict_GetItemWithError(dict, k);
    Py_DECREF(k);
    if (found) return Py_NewRef(found);
    if (PyErr_Occurred()) return NULL;
    PyObject *args = n == 1 ? Py_BuildValue("(l)", a) : Py_BuildValue("(lll)", a, b, c);
    if (!args) return NULL;
    PyObject *made = PyObject_Call(fill, args, NULL);
    Py_DECREF(args);
    return made;
}

/* A move's JSON pointer, "/rounds/R/actions/I" (1-based number and index), made once a
 * process for the first rounds and moves (kept for good: at most MM_POINTED_ROUNDS *
 * MM_POINTED_MOVES short texts); a new reference, NULL with an error set. */
#define MM_POINTED_ROUNDS 8
#define MM_POINTED_MOVES 256
static PyObject *mm_pointers[MM_POINTED_ROUNDS][MM_POINTED_MOVES];

static PyObject *mm_pointer(long number, long index) {
    int kept = number < MM_POINTED_ROUNDS && index < MM_POINTED_MOVES;
    if (kept && mm_pointers[number][index]) return Py_NewRef(mm_pointers[number][index]);
    PyObject *text = PyUnicode_FromFormat("/rounds/%ld/actions/%ld", number - 1, index - 1);
    if (text && kept) mm_pointers[number][index] = Py_NewRef(text);
    return text;
}

/* The text of what the mover knew: "to connect to CARD; " + _KNEW's text, kept by knew's low
 * 20 bits in a dict of its own (cleared past 65,536). */
static PyObject *mm_knew(PyObject *const *kit, long knew) {
    long key = knew & 0xFFFFFL;
    PyObject *k = PyLong_FromLong(key);
    if (!k) return NULL;
    PyObject *found = PyDict_GetItemWithError(kit[MM_KNEW_TEXT], k);
    if (found || PyErr_Occurred()) {
        Py_DECREF(k);
        return found ? Py_NewRef(found) : NULL;
    }
    PyObject *result = NULL, *rest = NULL;
    long card = knew >> 15 & 31;
    if (card < PyTuple_GET_SIZE(kit[MM_CONNECT_TO]) &&
        (rest = mm_cached(kit[MM_KNEW], kit[MM_KNEW_FN], knew & 32767, 1, knew & 32767, 0,
                          0)) &&
        PyUnicode_Check(rest) && PyUnicode_Check(PyTuple_GET_ITEM(kit[MM_CONNECT_TO], card))) {
        result = PyUnicode_Concat(PyTuple_GET_ITEM(kit[MM_CONNECT_TO], card), rest);
        if (result && PyDict_GET_SIZE(kit[MM_KNEW_TEXT]) >= 65536)
            PyDict_Clear(kit[MM_KNEW_TEXT]);
        if (result && PyDict_SetItem(kit[MM_KNEW_TEXT], k, result) < 0) Py_CLEAR(result);
    } else if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_marks: a knew out of the tables");
    }
    Py_XDECREF(rest);
    Py_DECREF(k);
    return result;
}

/* Count a move of `seat` by its mark, and its cost and value when it has a value. 0, or -1
 * with an error set. */
static int mm_count(PyObject *const *kit, MmCounts *counts, long seat, PyObject *mark,
                    PyObject *cost, PyObject *value) {
    int which = mark == kit[MM_SLIP] ? 0 : mark == kit[MM_GUESS] ? 1
                : mark == kit[MM_SOUND] ? 2 : mark == kit[MM_HARMLESS] ? 3 : -1;
    if (which < 0 || !PyFloat_CheckExact(cost) || !PyFloat_CheckExact(value)) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_marks: a mark, cost or value out of shape");
        return -1;
    }
    counts->marks[seat][which]++;
    double v = PyFloat_AS_DOUBLE(value);
    if (v != 0.0) {  /* summarise adds up only the moves with a value, in this order */
        counts->stake[seat] += v;
        counts->lost[seat] += PyFloat_AS_DOUBLE(cost);
    }
    return 0;
}

/* One move (marked in analysis/memoarrr.py), counted; a new reference, NULL with an error
 * set. With `json`, the move is written there instead (dungeon_marks_json.c) and the answer
 * is None (json->declined set where it cannot be written so). */
static PyObject *mm_move(PyObject *const *kit, PyObject *const *item, PyObject *players,
                         PyObject *rule, MmCounts *counts, DmJson *json) {
    long v[7] = {0};
    for (int k = 0; k < 7; k++) {
        if (k == 5) continue;  /* best: a str, an int or None */
        if (!PyLong_CheckExact(item[k])) goto shape;
        v[k] = PyLong_AsLong(item[k]);
        if (v[k] == -1 && PyErr_Occurred()) return NULL;
    }
    long number = v[0], index = v[1], seat = v[2], did = v[3], knew = v[4], verdict = v[6];
    PyObject *best = item[5];
    if (number < 1 || number > 99999 || index < 1 || index > 99999 || seat < 0 ||
        seat >= PyTuple_GET_SIZE(players) || did < 0 ||
        did >= PyTuple_GET_SIZE(kit[MM_REVEALS]) || knew < 0 || knew > (1L << 31) ||
        verdict < 0 || verdict > (1L << 20) ||
        (verdict & 7) >= PyTuple_GET_SIZE(kit[MM_VERDICTS]) ||
        !(best == Py_None || PyUnicode_CheckExact(best) || PyLong_CheckExact(best)))
        goto shape;
    long code = verdict & 7, age = verdict >> 3;
    PyObject *pair = PyTuple_GET_ITEM(kit[MM_VERDICTS], code);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) goto shape;
    PyObject *why = PyTuple_GET_ITEM(pair, 1);
    PyObject *marked = NULL, *seen_best = NULL, *knew_text = NULL, *pointer = NULL,
             *age_obj = NULL, *move = NULL;
    long key = (knew >> 20) << 3 | code;
    if (!(marked = mm_cached(kit[MM_MARKED], kit[MM_MARKED_FN], key, 3, key, knew, code)))
        goto done;
    if (!PyTuple_Check(marked) || PyTuple_GET_SIZE(marked) != 4) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_marks: a mark that is no 4-tuple");
        goto done;
    }
    PyObject *mark = PyTuple_GET_ITEM(marked, 0), *best_text = best, *chance = Py_None;
    if (PyLong_CheckExact(best)) {
        long hits_size = PyLong_AsLong(best);
        if (hits_size == -1 && PyErr_Occurred()) goto done;
        if (!(seen_best = mm_cached(kit[MM_NOT_SEEN], kit[MM_NOT_SEEN_FN], hits_size, 1,
                                    hits_size, 0, 0)))
            goto done;
        if (!PyTuple_Check(seen_best) || PyTuple_GET_SIZE(seen_best) != 2) {
            PyErr_SetString(PyExc_ValueError, "memoarrr_marks: a best move that is no pair");
            goto done;
        }
        best_text = PyTuple_GET_ITEM(seen_best, 0);
        chance = mark == kit[MM_GUESS] ? PyTuple_GET_ITEM(seen_best, 1) : Py_None;
    } else if (best == Py_None) {
        best_text = kit[MM_NOTHING];
    }
    if (!(knew_text = mm_knew(kit, knew)) || !(pointer = mm_pointer(number, index)) ||
        !(age_obj = age ? PyLong_FromLong(age) : Py_NewRef(Py_None)) ||
        mm_count(kit, counts, seat, mark, PyTuple_GET_ITEM(marked, 2),
                 PyTuple_GET_ITEM(marked, 3)) < 0)
        goto done;
    PyObject *fields[15] = {item[0], item[1], PyTuple_GET_ITEM(players, seat),
                            PyTuple_GET_ITEM(kit[MM_REVEALS], did), knew_text, best_text, mark,
                            why, chance, rule, pointer, PyTuple_GET_ITEM(marked, 2),
                            PyTuple_GET_ITEM(marked, 3), PyTuple_GET_ITEM(marked, 1), age_obj};
    if (json) {
        int written = dmj_fields(json, fields);
        if (written < 0 && !PyErr_Occurred()) PyErr_NoMemory();  /* the raw allocator */
        if (written > 0) json->declined = 1;
        move = written < 0 ? NULL : Py_NewRef(Py_None);
    } else {
        move = PyObject_Vectorcall(kit[MM_MOVE], fields, 15, NULL);
    }
done:
    Py_XDECREF(marked);
    Py_XDECREF(seen_best);
    Py_XDECREF(knew_text);
    Py_XDECREF(pointer);
    Py_XDECREF(age_obj);
    return move;
shape:
    PyErr_SetString(PyExc_ValueError, "memoarrr_marks: a judged reveal out of shape");
    return NULL;
}

/* memoarrr_marks(judged, players, rule, kit[, encoded, encode]) -> (moves, counts): counts
 * per seat (slips, guesses, sound, harmless, lost, at stake). With `encoded` (a dict: the
 * kit's marks and the rule as JSON, floats added as `encode` makes them), moves is the JSON
 * array of the moves (bytes), or the answer None where a move cannot be written so. */
static PyObject *memoarrr_marks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *judged, *players, *rule, *kit, *encoded = NULL, *encode = NULL;
    if (!PyArg_ParseTuple(args, "O!O!OO!|O!O", &PyList_Type, &judged, &PyTuple_Type, &players,
                          &rule, &PyTuple_Type, &kit, &PyDict_Type, &encoded, &encode))
        return NULL;
    if (encoded && (!encode || !PyCallable_Check(encode))) {
        PyErr_SetString(PyExc_TypeError, "memoarrr_marks: encoded without a callable encode");
        return NULL;
    }
    Py_ssize_t seats = PyTuple_GET_SIZE(players);
    if (PyTuple_GET_SIZE(kit) != MM_KIT || PyList_GET_SIZE(judged) % 7 || seats < 1 ||
        seats > MM_MAX_SEATS || !PyTuple_Check(PyTuple_GET_ITEM(kit, MM_VERDICTS)) ||
        !PyTuple_Check(PyTuple_GET_ITEM(kit, MM_REVEALS)) ||
        !PyTuple_Check(PyTuple_GET_ITEM(kit, MM_CONNECT_TO)) ||
        !PyDict_Check(PyTuple_GET_ITEM(kit, MM_MARKED)) ||
        !PyDict_Check(PyTuple_GET_ITEM(kit, MM_NOT_SEEN)) ||
        !PyDict_Check(PyTuple_GET_ITEM(kit, MM_KNEW_TEXT)) ||
        !PyDict_Check(PyTuple_GET_ITEM(kit, MM_KNEW))) {
        PyErr_SetString(PyExc_ValueError, "memoarrr_marks: arguments of the wrong shape");
        return NULL;
    }
    /* The fillers run Python: hold what is borrowed from the arguments (and copy the judged
     * items, which a filler could change). */
    PyObject *items = PyList_AsTuple(judged);
    if (!items) return NULL;
    Py_INCREF(players);
    Py_INCREF(rule);
    Py_INCREF(kit);
    Py_XINCREF(encoded);
    Py_XINCREF(encode);
    MmCounts counts;
    memset(&counts, 0, sizeof counts);
    Py_ssize_t count = PyTuple_GET_SIZE(items) / 7;
    PyObject *moves = PyList_New(count), *result = NULL;
    DmJson *json = NULL;
    if (encoded) {  /* on the heap: the table of texts seen is a few kB */
        if (!(json = PyMem_Calloc(1, sizeof *json)) || OUT_LIT(&json->out, "[") < 0) {
            PyErr_NoMemory();
            Py_CLEAR(moves);
        } else {
            json->encoded = encoded;
            json->encode = encode;
            dmj_know(json);
        }
    }
    for (Py_ssize_t i = 0; moves && i < count; i++) {
        PyObject *move = mm_move(&PyTuple_GET_ITEM(kit, 0), &PyTuple_GET_ITEM(items, 7 * i),
                                 players, rule, &counts, json);
        if (!move) Py_CLEAR(moves);
        else PyList_SET_ITEM(moves, i, move);
    }
    if (moves && json) {
        PyObject *array = json->declined ? NULL
                          : OUT_LIT(&json->out, "]") < 0 ? PyErr_NoMemory()
                          : PyBytes_FromStringAndSize(json->out.buf, json->out.len);
        Py_SETREF(moves, array);
        if (!array && !PyErr_Occurred()) {  /* declined: Python makes the values */
            dmj_free(json);
            PyMem_Free(json);
            Py_DECREF(items);
            Py_DECREF(players);
            Py_DECREF(rule);
            Py_DECREF(kit);
            Py_DECREF(encoded);
            Py_DECREF(encode);
            Py_RETURN_NONE;
        }
    }
    if (json) {
        dmj_free(json);
        PyMem_Free(json);
    }
    Py_XDECREF(encoded);
    Py_XDECREF(encode);
    PyObject *tally = moves ? PyTuple_New(seats) : NULL;
    for (Py_ssize_t p = 0; tally && p < seats; p++) {
        PyObject *one = Py_BuildValue("(lllldd)", counts.marks[p][0], counts.marks[p][1],
                                      counts.marks[p][2], counts.marks[p][3], counts.lost[p],
                                      counts.stake[p]);
        if (!one) Py_CLEAR(tally);
        else PyTuple_SET_ITEM(tally, p, one);
    }
    if (tally) result = Py_BuildValue("(ON)", moves, tally);
    Py_XDECREF(moves);
    Py_DECREF(items);
    Py_DECREF(players);
    Py_DECREF(rule);
    Py_DECREF(kit);
    return result;
}
