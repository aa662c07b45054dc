/* pathcheck._speedups, part of the one translation unit _speedups.c: the solo kernel's walk of
 * two deals at once, without data-dependent branches (issue #33, the fifth pass; see
 * docs/seeds.md, section 7). Included after solo.c. */

/* ---- two deals walked in one loop, branch-free ------------------------------------------- */

/* The walk is a machine of one kind of step: a lane stands at a cell (cur) having arrived in a
 * state st (heading * 4 + the last movement) and either lays the next tile there (an empty
 * cell), passes through the laid tile there, or ends the dungeon; one row of a table, by what
 * the cell holds and st, tells which, the cell word it leaves, the step to the next cell and
 * the next state. Everything else is arithmetic and conditional moves, so the branch predictor
 * sees only the loop's own branches and a deal's end, and the processor overlaps the two
 * lanes' steps. The grid word is the kernel's (solo.c): stamp, laid bit, tile, exits, with two
 * changes: the entrance (the cell before the origin) holds the current stamp with its exit 0
 * set, trace()'s first edge (so a path into it heading 2 is a reverse, and a path out of it
 * heading 0 a loop, by the same bit tests as any cell), and the cells beyond rule #2's bound
 * hold SOLO_LANE_OUT, whose low 11 bits (0x3F0, not laid) index rows no empty or laid cell
 * reaches. An entrance beyond the bound (bound 0) holds SOLO_LANE_OUT_E, with exit 0. */
#define SOLO_LANE_OUT 0xFFFFFBF0u
#define SOLO_LANE_OUT_E 0xFFFFFBF1u
#define SOLO_LANE_CELL 0x7FFu   /* laid bit, tile, exits */
#define SOLO_LANE_IDX 2048      /* rows by (cell & 0x7FF, or the kind to lay << 4 | exits) */

/* Row flags. */
#define SL_LAY 1u    /* an empty cell: the next tile is laid here (unless a ghost rule or the
                      * stack's end stops it) */
#define SL_END 2u    /* the dungeon ends here whatever the tile: a reverse into the cell, a
                      * dead end or loop through it, the bound, or a lay that loops */
#define SL_FREE 4u   /* a free cell reached (empty or beyond the bound): a revisit is counted
                      * when a tile is left and the path got here from a laid tile other than
                      * the one laid last (analyse_stack: cells[k+1] - STEP[dirs[k+1]] !=
                      * cells[k]) */
#define SL_OUT 8u    /* beyond the bound: the next tile, if any, is Lost (it counts) */
#define SL_PASS 16u  /* through a laid tile, the path goes on */

typedef struct {
    int16_t step;   /* bytes to the next cell */
    uint8_t next;   /* the next state */
    uint8_t flags;
    uint16_t bits;  /* ORed into the cell's word: laid, tile and exit (a lay), the exit (a pass) */
    uint8_t code;   /* the check that ends the dungeon (SL_END) */
    uint8_t pad;
} SoloRow;

/* A tile of the deck, by its place in the base stack (SOLO_END: after the last). */
typedef struct {
    uint64_t check, add;  /* as SoloTile (solo.c) */
    uint32_t kind;        /* kind << 4: the row index of laying it */
    uint32_t real;        /* 1, 0 for SOLO_END */
} SoloLaneTile;

typedef struct {
    SoloRow rows[SOLO_LANE_IDX * 16];
    SoloLaneTile info[256];
} SoloLaneTables;

/* The rows and tiles of one kernel call (mask: the rules; base: the stack's tiles). */
static void solo_lane_tables(SoloLaneTables *lt, const SoloRun *run, const unsigned char *base,
                             int n) {
    const Tables *t = run->t;
    for (int place = 0; place < n; place++) {
        const SoloTile *s = &run->info[place];
        lt->info[place] = (SoloLaneTile){s->check, s->add, (uint32_t)t->kind[base[place]] << 4, 1};
    }
    lt->info[SOLO_END] = (SoloLaneTile){SOLO_END_BIT, 0, 0, 0};
    for (int st = 0; st < 16; st++) {
        const int heading = st >> 2, lm = st & 3;
        const uint32_t back = 1u << (heading ^ 2);  /* the exit a reverse into a cell finds */
        /* Laying kind k at an empty cell (exits: 0, or 1 at the entrance). */
        for (int kind = 0; kind < t->nkinds; kind++)
            for (uint32_t exits = 0; exits < 2; exits++) {
                SoloRow *r = &lt->rows[(kind << 4 | (int)exits) * 16 + st];
                const int move = t->is_repeat[kind] ? lm : t->primary_move[kind];
                const int nh = (heading + move) & 3;
                if (exits & back) {
                    *r = (SoloRow){0, (uint8_t)st, SL_END, 0, REVERSE, 0};
                    continue;
                }
                const uint32_t out = 1u << nh;
                *r = (SoloRow){(int16_t)(STEP[nh] * (int)sizeof(uint32_t)),
                               (uint8_t)(nh * 4 + move),
                               (uint8_t)(SL_LAY | SL_FREE | (exits & out ? SL_END : 0)),
                               (uint16_t)(SOLO_LAID | (uint32_t)(kind * 4 + heading) << SOLO_TILE_SHIFT
                                          | out),
                               LOOP, 0};
            }
        /* Beyond the bound. */
        for (uint32_t exits = 0; exits < 2; exits++) {
            SoloRow *r = &lt->rows[(int)((SOLO_LANE_OUT & SOLO_LANE_CELL) | exits) * 16 + st];
            *r = exits & back ? (SoloRow){0, (uint8_t)st, SL_END, 0, REVERSE, 0}
                              : (SoloRow){0, (uint8_t)st, SL_END | SL_FREE | SL_OUT, 0,
                                          OUT_OF_BOUNDS, 0};
        }
        /* Through a laid tile. */
        for (int tile = 0; tile < t->nkinds * 4; tile++)
            for (uint32_t exits = 0; exits < 16; exits++) {
                SoloRow *r = &lt->rows[(int)(SOLO_LAID | (uint32_t)tile << SOLO_TILE_SHIFT | exits)
                                       * 16 + st];
                int move = lm;
                const int nh = exit_step(t, tile, heading, &move);
                if (exits & back)
                    *r = (SoloRow){0, (uint8_t)st, SL_END, 0, REVERSE, 0};
                else if (nh == DEAD_CODE)
                    *r = (SoloRow){0, (uint8_t)st, SL_END, 0, DEAD_END, 0};
                else if (exits & (1u << nh))
                    *r = (SoloRow){0, (uint8_t)(nh * 4 + move), SL_END, 0, LOOP, 0};
                else
                    *r = (SoloRow){(int16_t)(STEP[nh] * (int)sizeof(uint32_t)),
                                   (uint8_t)(nh * 4 + move), SL_PASS, (uint16_t)(1u << nh), 0, 0};
            }
    }
}

/* What ended a dungeon, from its record's flags (solo_lane_step): the row's check, or for a
 * tile a ghost rule stops (bit 4) the stack's end (bit 5 clear) or which rule (bit 6: #3). */
static inline int solo_lane_code(uint32_t flags) {
    const int code = (int)(flags & 15);
    if (flags & 16) return !(flags & 32) ? HELD : flags & 64 ? GHOST_FIVE : GHOST_TWICE;
    if (code == OUT_OF_BOUNDS && !(flags & 32)) return HELD;
    return code;
}

/* One lane: a deal in play. */
typedef struct {
    uintptr_t cur, laid;   /* the cell it stands at; the cell of the last tile laid */
    uintptr_t origin;
    const unsigned char *p;  /* the next tile */
    uint64_t *rec;           /* the next dungeon's record */
    uint64_t g;              /* the ghost word */
    uint32_t S, st;          /* stamp << SOLO_STAMP_SHIFT; state */
    uint32_t passed;         /* the step before passed a laid tile other than `laid` */
    uint32_t revisits;
    int deal;
} SoloLane;

#if defined(__GNUC__) || defined(__clang__)
#define SOLO_INLINE static inline __attribute__((always_inline))
#else
#define SOLO_INLINE static inline
#endif

/* One step of lane L; returns whether its deal ended. Every choice is a mask (all ones or 0)
 * and a select, so that the compiler makes no branch of it. A record is the place after the
 * dungeon's last tile (the low 32 bits of its address: the lengths are their differences) and
 * above bit 32 the row's check and what tells a ghost rule's Lost tile from the stack's end. */
SOLO_INLINE uint32_t solo_lane_step(SoloLane *L, const SoloLaneTables *lt, uint64_t ghosts,
                                    uint32_t entrance) {
    const uintptr_t cur = L->cur;
    const uint32_t w = *(const uint32_t *)cur;
    const uint32_t cw = w & SOLO_LANE_CELL & (0u - (uint32_t)(w >= L->S));
    const SoloLaneTile *ti = &lt->info[*L->p];
    const uint32_t idx = cw | (ti->kind & ((cw >> 10 & 1) - 1));  /* empty: the tile's kind */
    const SoloRow *r = &lt->rows[idx * 16 + L->st];
    const uint32_t f = r->flags;
    /* a ghost rule's Lost tile or the stack's end; not on a dungeon's first tile (the only
     * time the lane lays at the origin) */
    const uint64_t gl = L->g & ti->check;
    const uint32_t stop = (uint32_t)(gl != 0) & (uint32_t)(cur != L->origin) & f;  /* SL_LAY */
    const uint32_t ended = (f >> 1 & 1) | stop;
    const uint32_t lay = (f & SL_LAY) & (stop ^ 1);
    const uint32_t real = ti->real;
    const uint32_t extra = ((f >> 3 & 1) | stop) & real;
    const uint32_t endm = 0u - ended;
    const uintptr_t endp = (uintptr_t)0 - ended, layp = (uintptr_t)0 - lay;
    L->revisits += L->passed & (f >> 2 & 1) & real;
    L->passed = (f >> 4 & 1) & (uint32_t)(cur != L->laid);
    L->laid ^= (L->laid ^ cur) & layp;
    const uint32_t word = L->S | cw | r->bits;
    L->g = ((L->g + (ti->add & (uint64_t)layp)) & ~(uint64_t)endp) | (ghosts & (uint64_t)endp);
    L->p += lay + extra;
    *L->rec = (uint32_t)(uintptr_t)L->p
              | (uint64_t)(r->code | stop << 4 | real << 5 | (uint32_t)(gl >> 63) << 6) << 32;
    L->rec += ended;
    L->S += ended << SOLO_STAMP_SHIFT;
    const uintptr_t entrance_at = L->origin - sizeof(uint32_t);
    const uintptr_t at = cur ^ ((cur ^ entrance_at) & endp);
    *(uint32_t *)at = word ^ ((word ^ (L->S | 1u | entrance)) & endm);
    const uintptr_t next = cur + (uintptr_t)(intptr_t)r->step;
    L->cur = next ^ ((next ^ L->origin) & endp);
    const uint32_t st = r->next ^ ((r->next ^ L->st) & (0u - stop));
    L->st = st & (15u ^ (12u & endm));
    return ended & (uint32_t)(*L->p == SOLO_END);
}

#define SOLO_LANE_BLOCK 64  /* deals shuffled, then walked, then counted at a time */
#define SOLO_LANE_DECK 128  /* bytes a deck (at most 64 places and SOLO_END) */

/* A lane's next deal: `*next` of `cnt`, or the spare deck `cnt` (played, not counted) when
 * none is left; keeps what the deal before counted. Its grid starts again when its stamps
 * run out (never in a deal: a deal has at most 64 dungeons). */
SOLO_INLINE void solo_lane_next(SoloLane *L, int *next, int cnt, unsigned char (*decks)[SOLO_LANE_DECK],
                           uint64_t (*recs)[MAX_STACK + 1], uint32_t *nd, uint32_t *rv,
                           uint32_t *grid, uint32_t entrance) {
    if (L->deal >= 0) {
        nd[L->deal] = (uint32_t)(L->rec - recs[L->deal]);
        rv[L->deal] = L->revisits;
    }
    L->deal = *next < cnt ? (*next)++ : cnt;
    L->p = decks[L->deal];
    L->rec = recs[L->deal];
    L->revisits = 0;
    L->st = 0;
    if (SOLO_RARELY(L->S >= (SOLO_STAMPS - 2 * MAX_STACK) << SOLO_STAMP_SHIFT)) {
        for (int c = 0; c < GRID_CELLS; c++)
            if (grid[c] < SOLO_LANE_OUT) grid[c] = 0;
        L->S = 1u << SOLO_STAMP_SHIFT;
        ((uint32_t *)L->origin)[-1] = L->S | 1u | entrance;
    }
}

/* Plays the `cnt` decks (each SOLO_END-terminated places) with the two lanes, and writes each
 * deal's records (recs[k][0 .. nd[k] - 1]) and revisits (rv[k]). */
static void solo_lanes_walk(const SoloLaneTables *lt, SoloLane *lanes, uint32_t **grids,
                            unsigned char (*decks)[SOLO_LANE_DECK], uint64_t (*recs)[MAX_STACK + 1],
                            uint32_t *nd, uint32_t *rv, int cnt, uint64_t lt_ghosts,
                            uint32_t lt_entrance) {
    SoloLane A = lanes[0], B = lanes[1];
    int next = 0;
    A.deal = B.deal = -1;
    solo_lane_next(&A, &next, cnt, decks, recs, nd, rv, grids[0], lt_entrance);
    solo_lane_next(&B, &next, cnt, decks, recs, nd, rv, grids[1], lt_entrance);
    while (A.deal < cnt && B.deal < cnt) {
        const uint32_t doneA = solo_lane_step(&A, lt, lt_ghosts, lt_entrance);
        const uint32_t doneB = solo_lane_step(&B, lt, lt_ghosts, lt_entrance);
        if (doneA) solo_lane_next(&A, &next, cnt, decks, recs, nd, rv, grids[0], lt_entrance);
        if (doneB) solo_lane_next(&B, &next, cnt, decks, recs, nd, rv, grids[1], lt_entrance);
    }
    while (A.deal < cnt) {
        const uint32_t doneA = solo_lane_step(&A, lt, lt_ghosts, lt_entrance);
        if (doneA) solo_lane_next(&A, &next, cnt, decks, recs, nd, rv, grids[0], lt_entrance);
    }
    while (B.deal < cnt) {
        const uint32_t doneB = solo_lane_step(&B, lt, lt_ghosts, lt_entrance);
        if (doneB) solo_lane_next(&B, &next, cnt, decks, recs, nd, rv, grids[1], lt_entrance);
    }
    lanes[0] = A;
    lanes[1] = B;
}

/* What the kernel works in, a block at a time. */
typedef struct {
    SoloLaneTables lt;
    signed char drawn[SOLO_LANE_BLOCK][SOLO_DRAWS];
    unsigned char decks[SOLO_LANE_BLOCK + 1][SOLO_LANE_DECK];  /* and the spare deck */
    uint64_t recs[SOLO_LANE_BLOCK + 1][MAX_STACK + 1];
    uint32_t nd[SOLO_LANE_BLOCK + 1], rv[SOLO_LANE_BLOCK + 1];
} SoloLaneWork;

/* The lanes' grids beyond the bound (rule #2 in mask); returns what an entrance word is ORed
 * with: SOLO_LANE_OUT_E when the entrance is beyond the bound, else 0. */
static uint32_t solo_lane_grids(const SoloRun *run, int mask, uint32_t **grids) {
    const Tables *t = run->t;
    uint32_t entrance = 0;
    if (mask & t->rule_bound)
        for (int c = 0; c < GRID_CELLS; c++) {
            int x = c / GRID_W - GRID_OFF, y = c % GRID_W - GRID_OFF;
            if (x > t->bound || x < -t->bound || y > t->bound || y < -t->bound) {
                grids[0][c] = grids[1][c] = SOLO_LANE_OUT;
                if (c == SOLO_ENTRANCE) entrance = SOLO_LANE_OUT_E;
            }
        }
    return entrance;
}

/* Each deal's key, shape and histograms from its records (as solo_deal counted them). */
static void solo_lanes_count(SoloRun *run, const SoloLaneWork *work, int cnt, char *key,
                             unsigned char *shape) {
    for (int k = 0; k < cnt; k++) {
        const uint64_t *rec = work->recs[k];
        uint32_t at = (uint32_t)(uintptr_t)work->decks[k];
        const int nd = (int)work->nd[k];
        int64_t packed = (int64_t)work->rv[k] << 16;
        unsigned reason_mask = 0;
        int bites = 0;
        for (int j = 0; j < nd; j++) {
            const int length = (int)((uint32_t)rec[j] - at);
            at = (uint32_t)rec[j];
            const SoloEnd *e = &run->ends[solo_lane_code((uint32_t)(rec[j] >> 32))];
            run->lengths[length]++;
            run->reasons[e->reason]++;
            reason_mask |= 1u << e->reason;
            packed += (int64_t)length * length + e->key;
            bites |= e->bite;
        }
        run->dungeon_counts[nd]++;
        run->bite_masks[bites & 0xFF]++;
        shape[2 * k] = (unsigned char)nd;
        shape[2 * k + 1] = (unsigned char)reason_mask;
        memcpy(key + 8 * k, &packed, sizeof packed);
    }
}
