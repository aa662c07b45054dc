/* pathcheck._speedups, part of the one translation unit _speedups.c: The Lost point of one
 * game/1 exploration's stack (trace_stack), for pathcheck.games.dungeon.state. */

/* ---- the stack of a game/1 exploration ----------------------------------------------------- */

/* Kept between calls: the stamps make clearing it needless, and the GIL is held throughout. */
static Grid *stack_grid;

/* trace_stack(tables, placements, rules) -> (lost_at, reason code) or None
 * placements: a list of objects with `tile` (a str) and `dir` (an int 0-3), START first,
 * traced as pathcheck.tracer.fast.trace_indices(compiled, tiles, dirs, rules) traces them
 * (lost_at 0: the path holds; rules: the AdditionalRule bits of constants.tracing_mask).
 * None when the stack is longer than MAX_TILES or names a tile the tables do not know: the
 * caller traces it in Python then. */
static PyObject *trace_stack(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *list;
    int rules;
    if (!PyArg_ParseTuple(args, "OO!i", &capsule, &PyList_Type, &list, &rules)) return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    if (!t) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > MAX_TILES) Py_RETURN_NONE;
    int tiles[MAX_TILES], dirs[MAX_TILES], cells[MAX_TILES];
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k >= PyList_GET_SIZE(list)) {  /* an attribute look-up shortened the list */
            PyErr_SetString(PyExc_ValueError, "trace_stack: the list changed size");
            return NULL;
        }
        PyObject *item = PyList_GET_ITEM(list, k);
        Py_INCREF(item);  /* held while its attributes are read: they may run code */
        PyObject *tile = PyObject_GetAttr(item, S_tile);
        PyObject *dir = tile ? PyObject_GetAttr(item, S_dir) : NULL;
        Py_DECREF(item);
        if (!dir) {
            Py_XDECREF(tile);
            return NULL;
        }
        long arrow = PyLong_Check(dir) ? PyLong_AsLong(dir) : -1;
        Py_DECREF(dir);
        if (arrow < 0 || arrow > 3) {
            Py_DECREF(tile);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "trace_stack: a dir is not an int 0-3");
            return NULL;
        }
        PyObject *number = PyUnicode_CheckExact(tile) ?
            PyDict_GetItemWithError(t->index, tile) : NULL;  /* borrowed */
        Py_DECREF(tile);
        if (!number) {
            if (PyErr_Occurred()) return NULL;
            Py_RETURN_NONE;  /* not a tile of these tables */
        }
        long value = PyLong_Check(number) ? PyLong_AsLong(number) : -1;
        if (value < 0 || value >= t->ntiles) {
            if (PyErr_Occurred()) return NULL;
            Py_RETURN_NONE;
        }
        tiles[k] = (int)value;
        dirs[k] = (int)arrow;
    }
    if (!stack_grid && !(stack_grid = grid_new())) return NULL;
    int move = 0, ncells = 0, lost_at = 0;
    int reason = trace(t, stack_grid, tiles, dirs, (int)n, rules, 0, &move, cells, &ncells,
                       &lost_at);
    return Py_BuildValue("(ii)", lost_at, reason);
}
