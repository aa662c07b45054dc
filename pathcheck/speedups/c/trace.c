/* pathcheck._speedups, part of the one translation unit _speedups.c: The tracer: the same walk as pathcheck.tracer.fast, on the compiled tables. */

/* ---- the tracer -------------------------------------------------------------------------- */

typedef struct {
    uint32_t stamp;
    uint32_t cell_stamp[GRID_CELLS];
    signed char cell_tile[GRID_CELLS];     /* kind * 4 + arrow */
    uint32_t edge_stamp[2 * GRID_CELLS];
    signed char edge_sign[2 * GRID_CELLS];
} Grid;

/* The exit step, shared by trace() and the solo kernel: the heading a path leaves a laid
 * tile by (tile: kind * 4 + arrow), entering it heading `heading`, or DEAD_CODE for a dead
 * end. A Repeat tile repeats *last_move; any other exit sets it. */
static inline int exit_step(const Tables *t, int tile, int heading, int *last_move) {
    int nh = t->exit_table[tile * 4 + heading];
    if (nh == REPEAT_CODE) return (heading + *last_move) & 3;
    if (nh != DEAD_CODE) *last_move = (nh - heading) & 3;
    return nh;
}

static Grid *grid_new(void) {
    Grid *g = PyMem_RawCalloc(1, sizeof(Grid));
    if (!g) PyErr_NoMemory();
    return g;
}

/* Trace n tiles (tile numbers and arrows); fills cells[] and returns the reason,
 * *lost_at set to the 1-based Lost index or 0. Mirrors fasttrace.trace_indices: with
 * `perfect`, every arrow is laid along the heading (the first north) and written to dirs[].
 * *move holds the movement a first Repeat tile repeats, and receives the last movement. */
static int trace(const Tables *t, Grid *g, const int *tiles, int *dirs, int n, int rules,
                 int perfect, int *move, int *cells, int *ncells, int *lost_at) {
    uint32_t s = ++g->stamp;
    if (s == 0) {  /* wrapped: clear and start again */
        memset(g->cell_stamp, 0, sizeof g->cell_stamp);
        memset(g->edge_stamp, 0, sizeof g->edge_stamp);
        s = g->stamp = 1;
    }
    const int origin = GRID_OFF * GRID_W + GRID_OFF;
    int heading = (n && !perfect) ? dirs[0] : 0;
    int frontier = origin;
    int last_move = *move;
    int ghost_count = 0, ghost_seen = 0;
    *ncells = 0;
    *lost_at = 0;
    {
        int e = 2 * (origin - STEP[heading]) + EDGE_KEY[heading];
        g->edge_stamp[e] = s;
        g->edge_sign[e] = (signed char)SIGN[heading];
    }
    for (int k = 0; k < n; k++) {
        int tile = tiles[k], ghost = t->ghost[tile];
        int arrow = perfect ? (dirs[k] = heading) : dirs[k];
        if (k) {
            if (arrow != heading) {
                cells[(*ncells)++] = frontier;
                *lost_at = k + 1;
                *move = last_move;
                return t->code[MISPLACED];
            }
            if (rules & t->rule_bound) {
                int x = frontier / GRID_W - GRID_OFF, y = frontier % GRID_W - GRID_OFF;
                int b = t->bound;
                if (x > b || x < -b || y > b || y < -b) {
                    cells[(*ncells)++] = frontier;
                    *lost_at = k + 1;
                    *move = last_move;
                    return t->code[OUT_OF_BOUNDS];
                }
            }
            if (ghost >= 0) {
                if ((rules & t->rule_ghost_five) && ghost_count == t->ghost_limit - 1) {
                    cells[(*ncells)++] = frontier;
                    *lost_at = k + 1;
                    *move = last_move;
                    return t->code[GHOST_FIVE];
                }
                if ((rules & t->rule_ghost_twice) && ((ghost_seen >> ghost) & 1)) {
                    cells[(*ncells)++] = frontier;
                    *lost_at = k + 1;
                    *move = last_move;
                    return t->code[GHOST_TWICE];
                }
            }
        }
        if (ghost >= 0) {
            ghost_count++;
            ghost_seen |= 1 << ghost;
        }
        int kind = t->kind[tile];
        g->cell_stamp[frontier] = s;
        g->cell_tile[frontier] = (signed char)(kind * 4 + arrow);
        cells[(*ncells)++] = frontier;
        if (!t->is_repeat[kind]) last_move = t->primary_move[kind];
        heading = (heading + last_move) & 3;
        int cell = frontier;
        for (;;) {
            int e = 2 * cell + EDGE_KEY[heading];
            if (g->edge_stamp[e] == s) {
                *lost_at = k + 1;
                *move = last_move;
                return t->code[g->edge_sign[e] == SIGN[heading] ? LOOP : REVERSE];
            }
            g->edge_stamp[e] = s;
            g->edge_sign[e] = (signed char)SIGN[heading];
            cell += STEP[heading];
            if (g->cell_stamp[cell] != s) {
                frontier = cell;
                break;
            }
            int nh = exit_step(t, g->cell_tile[cell], heading, &last_move);
            if (nh == DEAD_CODE) {
                *lost_at = k + 1;
                *move = last_move;
                return t->code[DEAD_END];
            }
            heading = nh;
        }
    }
    *move = last_move;
    return t->code[HELD];
}

