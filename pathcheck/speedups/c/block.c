/* pathcheck._speedups, part of the one translation unit _speedups.c: One record read by a scanner checked, traced and written; scan_block. */

/* Check, trace and write one record read by a scanner: 1 done, 0 leave it to the Python
 * path, -1 out of memory. */
static int verify_scanned(const Tables *t, Grid *g, Out *o, PyObject *prefix, long line,
                          const int *tiles, int *dirs, int n, int rules, int advanced,
                          Cards *c, long *counts) {
    int cells[MAX_TILES];
    int check = c->ncards || c->has_players;
    if (!record_ok(t, tiles, n, rules, advanced) || (check && !cards_ok(c, n, rules))) return 0;
    int ncells = 0, lost_at = 0, move = 0;
    int reason = trace(t, g, tiles, dirs, n, rules, 0, &move, cells, &ncells, &lost_at);
    counts[reason]++;
    if (write_result(t, o, prefix, line, tiles, dirs, cells, ncells, lost_at, reason) < 0)
        return -1;
    if (check) {  /* the check's fields go before the closing "}\n" */
        o->len -= 2;
        if (write_check(o, c, lost_at) < 0 || OUT_LIT(o, "}\n") < 0) return -1;
    }
    return 1;
}

#define STACK_SCRATCH 8192

/* Room for the unescaped strings of a line of `need` bytes: `local` (STACK_SCRATCH bytes) or,
 * for a longer line, *heap (grown as needed; freed by the caller). NULL if memory runs out. */
static char *scratch_for(char *local, char **heap, Py_ssize_t *cap, Py_ssize_t need) {
    if (need <= STACK_SCRATCH) return local;
    if (need > *cap) {
        char *nb = PyMem_RawRealloc(*heap, need * 2);
        if (!nb) return NULL;
        *heap = nb;
        *cap = need * 2;
    }
    return *heap;
}

static PyObject *block_result(const Tables *t, Out *o, long *counts, Py_ssize_t stop,
                              long line) {
    PyObject *out = PyBytes_FromStringAndSize(o->buf ? o->buf : "", o->len);
    PyMem_RawFree(o->buf);
    if (!out) return NULL;
    PyObject *c = PyTuple_New(t->nreasons);
    if (!c) { Py_DECREF(out); return NULL; }
    for (int r = 0; r < t->nreasons; r++) PyTuple_SET_ITEM(c, r, PyLong_FromLong(counts[r]));
    return Py_BuildValue("(NnlN)", out, stop, line, c);
}

/* scan_block(tables, block, offset, line, prefix, rules_override, adv_override)
 *   -> (bytes, stop_offset, stop_line, counts)
 * Verifies the lines of block[offset:] (the first numbered `line`) until one the scanner
 * leaves to Python: stop_offset is where that line starts (len(block) when all were done),
 * stop_line its number. Blank lines are skipped, as the Python path skips them. */
static PyObject *scan_block(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *prefix;
    Py_buffer block;
    Py_ssize_t offset;
    long line;
    int rules_override, adv_override;
    if (!PyArg_ParseTuple(args, "Oy*nlSii", &capsule, &block, &offset, &line, &prefix,
                          &rules_override, &adv_override))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (t && (offset < 0 || offset > block.len || line < 0 || line > LONG_MAX - block.len ||
              rules_override < -1 || rules_override > 31 || adv_override < -1 ||
              adv_override > 1)) {
        PyErr_SetString(PyExc_ValueError, "scan_block: argument out of range");
        t = NULL;
    }
    Grid *g = t ? grid_new() : NULL;
    if (!g) {
        PyBuffer_Release(&block);
        return NULL;
    }
    /* Everything below works on C data only, so other threads run meanwhile (--jobs). */
    Out o = {NULL, 0, 0};
    char local_scratch[STACK_SCRATCH], *heap_scratch = NULL;
    Py_ssize_t scratch_cap = 0;
    int failed = 0;
    long counts[NREASONS] = {0};
    int tiles[MAX_TILES], dirs[MAX_TILES];
    Cards cards;
    const char *data = block.buf, *end = data + block.len;
    const char *p = data + offset;
    Py_BEGIN_ALLOW_THREADS
    failed = out_reserve(&o, (end - p) + (end - p) / 2 + 4096);
    while (!failed && p < end) {
        const char *nl = memchr(p, '\n', end - p);
        const char *line_end = nl ? nl : end;
        const char *q = p;
        while (q < line_end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
        if (q == line_end) {  /* blank */
            p = nl ? nl + 1 : end;
            line++;
            continue;
        }
        char *scratch = scratch_for(local_scratch, &heap_scratch, &scratch_cap, line_end - p);
        if (!scratch) {
            failed = 1;
            break;
        }
        Scan s = {p, line_end, scratch, 0};
        int n = 0, rules = 0, advanced = 0;
        if (!scan_line(t, &s, tiles, dirs, &n, &rules, &advanced, &cards)) break;
        if (rules_override >= 0) rules = rules_override;
        if (adv_override >= 0) advanced = adv_override;
        int done = verify_scanned(t, g, &o, prefix, line, tiles, dirs, n, rules, advanced, &cards,
                                  counts);
        if (done <= 0) {
            failed = done < 0;
            break;
        }
        p = nl ? nl + 1 : end;
        line++;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    PyMem_RawFree(heap_scratch);
    Py_ssize_t stop = p - data;
    PyBuffer_Release(&block);
    if (failed) {
        PyMem_RawFree(o.buf);
        return PyErr_NoMemory();
    }
    return block_result(t, &o, counts, stop, line);
}

