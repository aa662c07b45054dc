/* pathcheck._speedups, part of the one translation unit _speedups.c: The .dgn reader (scan_dgn): #! settings lines and record lines. */

/* ---- the .dgn reader ---------------------------------------------------------------------- */

/* Lines of compact notation (pathcheck.inputs.records.dgn_lines and parse_dgn_line): `#!` settings
 * lines, blank and comment lines, and dungeons of ID@DIR tokens with !NAME LOST cards. Like
 * the JSON Lines scanner it takes only what the Python path would verify without an error
 * (and settings lines it reads exactly as Python does), and stops at anything else: solo
 * lines (with |), unusual settings, any mistake. */

/* Whether the code point is whitespace to str.split(). */
static inline int is_uspace(uint32_t cp) {
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

static inline int is_aspace(unsigned char c) {
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
}

/* The next token of [*pp, end) split as str.split() splits: 1 and *tok, 0 when none is
 * left, -1 on invalid UTF-8. */
static int dgn_token(const char **pp, const char *end, Str *tok) {
    const unsigned char *p = (const unsigned char *)*pp, *e = (const unsigned char *)end;
    const unsigned char *start = NULL;
    uint32_t cp;
    while (p < e) {
        int k = 1, space;
        if (*p < 0x80) {
            space = is_aspace(*p);
        } else {
            if (!(k = utf8_seq(p, e, &cp))) return -1;
            space = is_uspace(cp);
        }
        if (space && start) break;
        if (!space && !start) start = p;
        p += k;
    }
    *pp = (const char *)p;
    if (!start) return 0;
    tok->p = (const char *)start;
    tok->n = (const char *)p - (const char *)start;
    return 1;
}

/* The settings of a `#!` line (pathcheck.inputs.records.parse_pragma). */
typedef struct {
    int known;         /* 0: this line is left to Python, and so are the records under it */
    int has_adv, adv, has_rules, rules, rules_ok, tileset_ok, has_players, nplayers;
    Str player[MAX_PLAYERS];
} Pragma;

static inline int ascii_lower_is(Str s, const char *word) {
    if (s.n != (Py_ssize_t)strlen(word)) return 0;
    for (Py_ssize_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return 0;
    }
    return 1;
}

/* Read the `#!` line [p, end) into *g; 0 if it is not one C reads exactly as Python does
 * (then Python reads it, and reports it if it is wrong). */
static int read_pragma(const char *p, const char *end, Pragma *g) {
    Str w;
    int got;
    memset(g, 0, sizeof *g);
    g->rules_ok = g->tileset_ok = 1;
    p += 2;
    while ((got = dgn_token(&p, end, &w)) > 0) {
        const char *eq = memchr(w.p, '=', w.n);
        Str key = {w.p, eq ? eq - w.p : w.n};
        Str val = {eq ? eq + 1 : w.p + w.n, eq ? w.p + w.n - eq - 1 : 0};
        if (str_is(key, "advanced")) {
            for (Py_ssize_t i = 0; i < val.n; i++)
                if ((unsigned char)val.p[i] >= 0x80) return 0;
            g->has_adv = 1;
            g->adv = !(ascii_lower_is(val, "false") || ascii_lower_is(val, "0") ||
                       ascii_lower_is(val, "no"));
        } else if (str_is(key, "basic")) {
            g->has_adv = 1;
            g->adv = 0;
        } else if (str_is(key, "rules")) {
            g->has_rules = g->rules_ok = 1;
            g->rules = 0;
            for (const char *q = val.p, *e = val.p + val.n; q < e;) {
                int rule = 0, digits = 0;
                while (q < e && *q != ',') {
                    if (!is_digit(*q) || ++digits > 3) return 0;
                    rule = rule * 10 + (*q++ - '0');
                }
                if (q < e) q++;
                if (!digits) continue;
                if (rule < 1 || rule > 4 || (g->rules & RULE_BIT(rule))) g->rules_ok = 0;
                else g->rules |= RULE_BIT(rule);
            }
        } else if (str_is(key, "players")) {
            g->has_players = 1;
            g->nplayers = 0;
            for (const char *q = val.p, *e = val.p + val.n; q < e;) {
                const char *comma = memchr(q, ',', e - q), *stop = comma ? comma : e;
                if (stop > q) {
                    if (g->nplayers >= MAX_PLAYERS) return 0;
                    g->player[g->nplayers].p = q;
                    g->player[g->nplayers++].n = stop - q;
                }
                q = comma ? comma + 1 : e;
            }
        } else if (str_is(key, "tileset")) {
            g->tileset_ok = str_is(val, "standard");
        } else if (!eq && str_is(key, "dungeon/1")) {
            /* the format of every .dgn line: sets nothing */
        } else {
            return 0;
        }
    }
    return got == 0;
}

/* 1: a dungeon line read (tiles, LOST cards into c); 2: no token (a blank line to Python
 * too: pathcheck.inputs.records.dgn_blank); 0: leave it to Python. */
static int scan_dgn_line(const Tables *t, const char *p, const char *end, int *tiles,
                         int *dirs, int *n, Cards *c) {
    Str tok;
    int got, count = 0;
    c->ncards = 0;
    while ((got = dgn_token(&p, end, &tok)) > 0) {
        if (tok.p[0] == '!') {
            if (!count || tok.n < 2 || c->ncards >= MAX_PLAYERS) return 0;
            c->card[c->ncards].p = tok.p + 1;
            c->card[c->ncards].n = tok.n - 1;
            c->after[c->ncards++] = count;
            continue;
        }
        const char *at = tok.p + tok.n - 1;
        while (at > tok.p && *at != '@') at--;
        /* one direction letter after the last @, a known tile before it (| and mistakes: 0) */
        if (at == tok.p || at != tok.p + tok.n - 2 || count >= MAX_TILES) return 0;
        switch (at[1]) {
            case 'N': dirs[count] = 0; break;
            case 'E': dirs[count] = 1; break;
            case 'S': dirs[count] = 2; break;
            case 'W': dirs[count] = 3; break;
            default: return 0;
        }
        if ((tiles[count] = id_lookup(t, tok.p, at - tok.p)) < 0) return 0;
        count++;
    }
    if (got < 0) return 0;
    if (!count) return 2;
    *n = count;
    return 1;
}

/* Whether [p, end) is valid UTF-8 (a record line's comment: Python decodes the whole line). */
static int utf8_ok(const char *p, const char *end) {
    const unsigned char *q = (const unsigned char *)p, *e = (const unsigned char *)end;
    uint32_t cp;
    while (q < e) {
        if (*q < 0x80) {
            q++;
            continue;
        }
        int k = utf8_seq(q, e, &cp);
        if (!k) return 0;
        q += k;
    }
    return 1;
}

/* scan_dgn(tables, block, offset, line, prefix, rules_override, adv_override, pragma)
 *   -> (bytes, stop_offset, stop_line, counts, pragma_start, pragma_end)
 * Verifies the .dgn lines of block[offset:] (the first numbered `line`) under the `#!` line
 * `pragma` (b"": none) until a line it leaves to Python, as scan_block does. pragma_start and
 * pragma_end locate in the block the last `#!` line it read (-1, -1: none), which is in force
 * from there on. */
static PyObject *scan_dgn(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *prefix;
    Py_buffer block, pragma_text;
    Py_ssize_t offset, pragma_start = -1, pragma_end = -1;
    long line;
    int rules_override, adv_override;
    if (!PyArg_ParseTuple(args, "Oy*nlSiiy*", &capsule, &block, &offset, &line, &prefix,
                          &rules_override, &adv_override, &pragma_text))
        return NULL;
    Tables *t = PyCapsule_GetPointer(capsule, "pathcheck._speedups.Tables");
    Grid *g = t ? grid_new() : NULL;
    if (!g) {
        PyBuffer_Release(&block);
        PyBuffer_Release(&pragma_text);
        return NULL;
    }
    Out o = {NULL, 0, 0};
    int failed = 0;
    long counts[NREASONS] = {0};
    int tiles[MAX_TILES], dirs[MAX_TILES];
    Cards cards;
    Pragma pragma;
    const char *data = block.buf, *end = data + block.len;
    const char *p = data + (offset < 0 ? 0 : offset > block.len ? block.len : offset);
    Py_BEGIN_ALLOW_THREADS
    {
        const char *text = pragma_text.buf;
        if (pragma_text.len == 0) {
            memset(&pragma, 0, sizeof pragma);
            pragma.known = pragma.rules_ok = pragma.tileset_ok = 1;
        } else {
            pragma.known = pragma_text.len >= 2 && text[0] == '#' && text[1] == '!' &&
                           read_pragma(text, text + pragma_text.len, &pragma);
        }
    }
    failed = out_reserve(&o, 3 * (end - p) + 4096);
    while (!failed && p < end) {
        const char *nl = memchr(p, '\n', end - p);
        const char *line_end = nl ? nl : end;
        const char *cr = memchr(p, '\r', line_end - p);
        if (cr && cr < line_end - 1) break;  /* a lone \r inside: Python's error (dgn_text) */
        if (line_end - p >= 2 && p[0] == '#' && p[1] == '!') {
            Pragma next;
            if (!read_pragma(p, line_end, &next)) break;
            next.known = 1;
            pragma = next;
            pragma_start = p - data;
            pragma_end = line_end - data;
        } else {
            const char *hash = memchr(p, '#', line_end - p), *body_end = hash ? hash : line_end;
            const char *q = p;
            while (q < body_end && (*q == ' ' || (*q >= 9 && *q <= 13))) q++;
            if (q == hash && line_end - q >= 2 && q[1] == '!') break;  /* an indented #! */
            int n = 0, got = q < body_end ? scan_dgn_line(t, p, body_end, tiles, dirs, &n,
                                                           &cards) : 2;
            if (got != 2) {  /* not a blank or comment line */
                if (!got || !pragma.known || !pragma.tileset_ok ||
                    (rules_override < 0 && !pragma.rules_ok) || (hash && !utf8_ok(hash, line_end)))
                    break;
                int advanced = adv_override >= 0 ? adv_override : pragma.has_adv && pragma.adv;
                int rules = rules_override >= 0 ? rules_override
                            : pragma.has_rules ? pragma.rules : 0;
                cards.has_players = pragma.has_players;
                cards.nplayers = pragma.nplayers;
                memcpy(cards.player, pragma.player, pragma.nplayers * sizeof(Str));
                int done = verify_scanned(t, g, &o, prefix, line, tiles, dirs, n, rules,
                                          advanced, &cards, counts);
                if (done <= 0) {
                    failed = done < 0;
                    break;
                }
            }
        }
        p = nl ? nl + 1 : end;
        line++;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(g);
    Py_ssize_t stop = p - data;
    PyBuffer_Release(&block);
    PyBuffer_Release(&pragma_text);
    if (failed) {
        PyMem_RawFree(o.buf);
        return PyErr_NoMemory();
    }
    PyObject *r = block_result(t, &o, counts, stop, line);
    if (!r) return NULL;
    PyObject *full = Py_BuildValue("(OOOOnn)", PyTuple_GET_ITEM(r, 0), PyTuple_GET_ITEM(r, 1),
                                   PyTuple_GET_ITEM(r, 2), PyTuple_GET_ITEM(r, 3), pragma_start,
                                   pragma_end);
    Py_DECREF(r);
    return full;
}

