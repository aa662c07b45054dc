/* pathcheck._speedups, part of the one translation unit _speedups.c: The strict reader of dungeon/1 JSON Lines: strings, numbers, values, one record. */

/* ---- the JSON Lines scanner ------------------------------------------------------------------ */

/* A strict reader for dungeon/1 lines as people write them: an object whose keys are among
 * format, tileset, advanced, rules, tiles, players, lost, id and note (each at most once, in
 * any order); strings with or without escapes (valid UTF-8, surrogate pairs joined); rules as
 * single digits 1-4; tiles as objects with exactly "tile" and "dir"; LOST cards as objects with
 * exactly "player" and "after"; id and note any JSON value. It accepts only lines that are
 * valid JSON *and* valid records that the Python path would verify without an error; every
 * other line (anything unusual, however valid) is left to the msgspec + Python paths, so it
 * never decides anything differently. */

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

#define MAX_PLAYERS 32   /* more players or LOST cards in a record: the Python path */
#define MAX_DEPTH 32     /* id or note values nested deeper: the Python path */
#define MAX_KEYS 16      /* objects in id or note values with more keys: the Python path */
#define MAX_NAME 100     /* player names of more bytes: the Python path */
#define RULE_BIT(r) (1 << ((r) - 1))   /* rule r's bit (pathcheck.tracer.constants.AdditionalRule) */

typedef struct {
    const char *p, *end;
    char *scratch;       /* unescaped strings: room for the whole line (unescaping never grows) */
    Py_ssize_t used;
} Scan;

typedef struct {
    const char *p;
    Py_ssize_t n;
} Str;

/* A record's players and LOST cards, as UTF-8 (pointing into the line or the scratch). */
typedef struct {
    int has_players, nplayers, ncards;
    Str player[MAX_PLAYERS];
    Str card[MAX_PLAYERS];
    int after[MAX_PLAYERS];
    int card_of[MAX_PLAYERS];   /* with players: each player's card (-1 none), by cards_ok */
} Cards;

static inline int same_str(Str a, Str b) {
    return a.n == b.n && (!a.n || (a.p[0] == b.p[0] && memcmp(a.p, b.p, a.n) == 0));
}

static inline void ws(Scan *s) {
    if (s->p < s->end && (unsigned char)*s->p > ' ') return;  /* the usual case: no space */
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
        s->p++;
}

static inline int eat(Scan *s, char c) {
    ws(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return 1;
    }
    return 0;
}

/* The length of the valid UTF-8 sequence at s (*s >= 0x80), 0 if invalid, as strict as
 * Python's decoder (no overlong forms, no surrogates, nothing above U+10FFFF). */
static inline int utf8_seq(const unsigned char *s, const unsigned char *end, uint32_t *cp) {
    unsigned char c = s[0];
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        if (end - s < 2 || (s[1] & 0xC0) != 0x80) return 0;
        *cp = ((uint32_t)(c & 0x1F) << 6) | (s[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (end - s < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        uint32_t v = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
                     (s[2] & 0x3F);
        if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF)) return 0;
        *cp = v;
        return 3;
    }
    if (c < 0xF5) {
        if (end - s < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
            (s[3] & 0xC0) != 0x80)
            return 0;
        uint32_t v = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
                     ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        if (v < 0x10000 || v > 0x10FFFF) return 0;
        *cp = v;
        return 4;
    }
    return 0;
}

static inline int utf8_put(char *w, uint32_t v) {
    if (v < 0x80) {
        w[0] = (char)v;
        return 1;
    }
    if (v < 0x800) {
        w[0] = (char)(0xC0 | v >> 6);
        w[1] = (char)(0x80 | (v & 0x3F));
        return 2;
    }
    if (v < 0x10000) {
        w[0] = (char)(0xE0 | v >> 12);
        w[1] = (char)(0x80 | (v >> 6 & 0x3F));
        w[2] = (char)(0x80 | (v & 0x3F));
        return 3;
    }
    w[0] = (char)(0xF0 | v >> 18);
    w[1] = (char)(0x80 | (v >> 12 & 0x3F));
    w[2] = (char)(0x80 | (v >> 6 & 0x3F));
    w[3] = (char)(0x80 | (v & 0x3F));
    return 4;
}

static inline int hex4(const unsigned char *q, uint32_t *v) {
    uint32_t x = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = q[i];
        x <<= 4;
        if (c >= '0' && c <= '9') x |= c - '0';
        else if (c >= 'a' && c <= 'f') x |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') x |= c - 'A' + 10;
        else return 0;
    }
    *v = x;
    return 1;
}

static int json_string_rest(Scan *s, Str *out, const char *start, const unsigned char *q);

/* 1 for the bytes a string without escapes goes on with: ASCII from space on, but " and \. */
static unsigned char PLAIN[256];

static void plain_init(void) {
    for (int c = 0x20; c < 0x80; c++) PLAIN[c] = c != '"' && c != '\\';
}

/* A JSON string, its value as UTF-8 in *out (in the line itself when it has no escapes, else
 * unescaped into the scratch); 0 if it is not a valid string msgspec would decode. */
static ALWAYS_INLINE int json_string(Scan *s, Str *out) {
    ws(s);
    if (s->p >= s->end || *s->p != '"') return 0;
    const char *start = ++s->p;
    const unsigned char *q = (const unsigned char *)start, *end = (const unsigned char *)s->end;
    while (q < end && PLAIN[*q]) q++;
    if (q < end && *q == '"') {
        out->p = start;
        out->n = (const char *)q - start;
        s->p = (const char *)q + 1;
        return 1;
    }
    return json_string_rest(s, out, start, q);
}

/* The rest of a string from q on: non-ASCII, escapes, or an error. */
static int json_string_rest(Scan *s, Str *out, const char *start, const unsigned char *q) {
    const unsigned char *end = (const unsigned char *)s->end;
    uint32_t cp;
    for (;;) {
        if (q >= end) return 0;
        unsigned char c = *q;
        if (c == '"') {
            out->p = start;
            out->n = (const char *)q - start;
            s->p = (const char *)q + 1;
            return 1;
        }
        if (c == '\\') break;
        if (c < 0x20) return 0;
        if (c < 0x80) {
            q++;
        } else {
            int k = utf8_seq(q, end, &cp);
            if (!k) return 0;
            q += k;
        }
    }
    char *dst = s->scratch + s->used, *w = dst;
    memcpy(w, start, (const char *)q - start);
    w += (const char *)q - start;
    while (q < end) {
        unsigned char c = *q;
        if (c == '"') {
            out->p = dst;
            out->n = w - dst;
            s->used += out->n;
            s->p = (const char *)q + 1;
            return 1;
        }
        if (c < 0x20) return 0;
        if (c >= 0x80) {
            int k = utf8_seq(q, end, &cp);
            if (!k) return 0;
            memcpy(w, q, k);
            w += k;
            q += k;
            continue;
        }
        if (c != '\\') {
            *w++ = (char)c;
            q++;
            continue;
        }
        if (end - q < 2) return 0;
        switch (q[1]) {
            case '"': *w++ = '"'; break;
            case '\\': *w++ = '\\'; break;
            case '/': *w++ = '/'; break;
            case 'b': *w++ = '\b'; break;
            case 'f': *w++ = '\f'; break;
            case 'n': *w++ = '\n'; break;
            case 'r': *w++ = '\r'; break;
            case 't': *w++ = '\t'; break;
            case 'u': {
                uint32_t v, lo;
                if (end - q < 6 || !hex4(q + 2, &v)) return 0;
                q += 6;
                if (v >= 0xD800 && v <= 0xDBFF) {  /* must be the first of a pair */
                    if (end - q < 6 || q[0] != '\\' || q[1] != 'u' || !hex4(q + 2, &lo) ||
                        lo < 0xDC00 || lo > 0xDFFF)
                        return 0;
                    q += 6;
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                } else if (v >= 0xDC00 && v <= 0xDFFF) {
                    return 0;
                }
                w += utf8_put(w, v);
                continue;
            }
            default: return 0;
        }
        q += 2;
    }
    return 0;
}

/* A literal (true, false, null) followed by a delimiter. */
static inline int literal(Scan *s, const char *word, Py_ssize_t n) {
    ws(s);
    if (s->end - s->p < n || memcmp(s->p, word, n) != 0) return 0;
    const char *after = s->p + n;
    if (after < s->end && !(*after == ',' || *after == '}' || *after == ']' || *after == ' ' ||
                            *after == '\t' || *after == '\r' || *after == '\n'))
        return 0;
    s->p = after;
    return 1;
}

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A JSON number msgspec decodes (ints of any size; floats with at most two exponent digits
 * and 40 characters in all, so that none is out of range). The caller checks what follows. */
static int json_number(Scan *s) {
    const char *p = s->p, *e = s->end;
    if (p < e && *p == '-') p++;
    if (p >= e || !is_digit(*p)) return 0;
    if (*p == '0') p++;
    else while (p < e && is_digit(*p)) p++;
    if (p < e && *p == '.') {
        if (++p >= e || !is_digit(*p)) return 0;
        while (p < e && is_digit(*p)) p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        if (++p < e && (*p == '+' || *p == '-')) p++;
        const char *digits = p;
        while (p < e && is_digit(*p)) p++;
        if (p == digits || p - digits > 2) return 0;
    }
    if (p - s->p > 40) return 0;
    s->p = p;
    return 1;
}

/* Any JSON value (for id and note, which nothing reads). */
static int skip_value(Scan *s, int depth) {
    Str x;
    ws(s);
    if (s->p >= s->end) return 0;
    switch (*s->p) {
        case '"': return json_string(s, &x);
        case 't': return literal(s, "true", 4);
        case 'f': return literal(s, "false", 5);
        case 'n': return literal(s, "null", 4);
        case '[':
            if (depth >= MAX_DEPTH) return 0;
            s->p++;
            if (eat(s, ']')) return 1;
            for (;;) {
                if (!skip_value(s, depth + 1)) return 0;
                if (eat(s, ']')) return 1;
                if (!eat(s, ',')) return 0;
            }
        case '{': {
            /* a key given twice, or more than MAX_KEYS keys: left to Python */
            Str keys[MAX_KEYS];
            int nkeys = 0;
            if (depth >= MAX_DEPTH) return 0;
            s->p++;
            if (eat(s, '}')) return 1;
            for (;;) {
                if (nkeys >= MAX_KEYS || !json_string(s, &x) || !eat(s, ':')) return 0;
                for (int i = 0; i < nkeys; i++)
                    if (same_str(keys[i], x)) return 0;
                keys[nkeys++] = x;
                if (!skip_value(s, depth + 1)) return 0;
                if (eat(s, '}')) return 1;
                if (!eat(s, ',')) return 0;
            }
        }
        default: return json_number(s);
    }
}

/* A LOST card's tile index: a plain positive integer (others go to the Python path). */
static inline int small_int(Scan *s, int *value) {
    ws(s);
    const char *p = s->p;
    int x = 0, digits = 0;
    if (p >= s->end || *p < '1' || *p > '9') return 0;
    while (p < s->end && is_digit(*p)) {
        if (++digits > 6) return 0;
        x = x * 10 + (*p++ - '0');
    }
    if (p < s->end && (*p == '.' || *p == 'e' || *p == 'E')) return 0;
    s->p = p;
    *value = x;
    return 1;
}

/* Whether the string s is the literal lit (a memcmp of constant size: inlined). */
#define str_is(s, lit) \
    ((s).n == (Py_ssize_t)sizeof(lit) - 1 && memcmp((s).p, (lit), sizeof(lit) - 1) == 0)


enum { K_TILES = 1, K_FORMAT = 2, K_ADVANCED = 4, K_RULES = 8, K_TILESET = 16, K_PLAYERS = 32,
       K_LOST = 64, K_ID = 128, K_NOTE = 256 };

static inline int key_bit(Str k) {
    switch (k.n) {
        case 2: return str_is(k, "id") ? K_ID : 0;
        case 4: return str_is(k, "lost") ? K_LOST : str_is(k, "note") ? K_NOTE : 0;
        case 5: return str_is(k, "tiles") ? K_TILES : str_is(k, "rules") ? K_RULES : 0;
        case 6: return str_is(k, "format") ? K_FORMAT : 0;
        case 7: return str_is(k, "tileset") ? K_TILESET : str_is(k, "players") ? K_PLAYERS : 0;
        case 8: return str_is(k, "advanced") ? K_ADVANCED : 0;
        default: return 0;
    }
}

/* 1: a valid-looking record read into tiles/dirs/n/rules (RULE_BIT)/advanced and
 * its players and LOST cards (checked later by cards_ok). */
static int scan_line(const Tables *t, Scan *s, int *tiles, int *dirs, int *n, int *rules,
                     int *advanced, Cards *c) {
    int seen_keys = 0, count = 0;
    Str v;
    *rules = 0;
    *advanced = 0;
    c->has_players = c->nplayers = c->ncards = 0;
    if (!eat(s, '{')) return 0;
    if (eat(s, '}')) return 0;  /* no tiles */
    for (;;) {
        Str k;
        if (!json_string(s, &k) || !eat(s, ':')) return 0;
        int bit = key_bit(k);
        if (!bit || (seen_keys & bit)) return 0;
        seen_keys |= bit;
        switch (bit) {
            case K_FORMAT:
                if (!json_string(s, &v) || !str_is(v, "dungeon/1")) return 0;
                break;
            case K_TILESET:
                if (!literal(s, "null", 4) && !(json_string(s, &v) && str_is(v, "standard")))
                    return 0;
                break;
            case K_ADVANCED:
                if (literal(s, "true", 4)) *advanced = 1;
                else if (!literal(s, "false", 5)) return 0;
                break;
            case K_RULES:
                if (literal(s, "null", 4)) break;
                if (!eat(s, '[')) return 0;
                if (eat(s, ']')) break;
                for (;;) {
                    ws(s);
                    if (s->p >= s->end || *s->p < '1' || *s->p > '4') return 0;
                    int rule = *s->p++ - '0';
                    if (s->p < s->end && (is_digit(*s->p) || *s->p == '.' || *s->p == 'e' ||
                                          *s->p == 'E'))
                        return 0;
                    if (*rules & RULE_BIT(rule)) return 0;
                    *rules |= RULE_BIT(rule);
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            case K_TILES:
                if (!eat(s, '[')) return 0;
                if (eat(s, ']')) return 0;  /* empty */
                for (;;) {
                    int tile = -1, dir = -1;
                    if (count >= MAX_TILES || !eat(s, '{')) return 0;
                    for (int member = 0; member < 2; member++) {
                        Str pk;
                        if (member && !eat(s, ',')) return 0;
                        if (!json_string(s, &pk) || !eat(s, ':') || !json_string(s, &v))
                            return 0;
                        if (str_is(pk, "tile") && tile < 0) {
                            if ((tile = id_lookup(t, v.p, v.n)) < 0) return 0;
                        } else if (str_is(pk, "dir") && dir < 0 && v.n == 1) {
                            switch (*v.p) {
                                case 'N': dir = 0; break;
                                case 'E': dir = 1; break;
                                case 'S': dir = 2; break;
                                case 'W': dir = 3; break;
                                default: return 0;
                            }
                        } else {
                            return 0;
                        }
                    }
                    if (!eat(s, '}')) return 0;
                    tiles[count] = tile;
                    dirs[count] = dir;
                    count++;
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            case K_PLAYERS:
                if (literal(s, "null", 4)) break;
                if (!eat(s, '[')) return 0;
                c->has_players = 1;
                if (eat(s, ']')) break;
                for (;;) {
                    if (c->nplayers >= MAX_PLAYERS || !json_string(s, &c->player[c->nplayers]))
                        return 0;
                    c->nplayers++;
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            case K_LOST:
                if (literal(s, "null", 4)) break;
                if (!eat(s, '[')) return 0;
                if (eat(s, ']')) break;
                for (;;) {
                    int i = c->ncards, got = 0;
                    if (i >= MAX_PLAYERS || !eat(s, '{')) return 0;
                    for (int member = 0; member < 2; member++) {
                        Str pk;
                        if (member && !eat(s, ',')) return 0;
                        if (!json_string(s, &pk) || !eat(s, ':')) return 0;
                        if (str_is(pk, "player") && !(got & 1)) {
                            if (!json_string(s, &c->card[i])) return 0;
                            got |= 1;
                        } else if (str_is(pk, "after") && !(got & 2)) {
                            if (!small_int(s, &c->after[i])) return 0;
                            got |= 2;
                        } else {
                            return 0;
                        }
                    }
                    if (!eat(s, '}')) return 0;
                    c->ncards++;
                    if (eat(s, ']')) break;
                    if (!eat(s, ',')) return 0;
                }
                break;
            default:  /* id, note: any value */
                if (!skip_value(s, 0)) return 0;
        }
        if (eat(s, '}')) break;
        if (!eat(s, ',')) return 0;
    }
    ws(s);
    if (s->p != s->end || !(seen_keys & K_TILES)) return 0;
    *n = count;
    return 1;
}

/* Mode and repeat checks shared with read_record: 1 if the Python path accepts them. */
static int record_ok(const Tables *t, const int *tiles, int n, int rules, int advanced) {
    uint64_t seen[4] = {0, 0, 0, 0};
    if ((rules & t->rule_advanced_only) && !advanced) return 0;
    for (int i = 0; i < n; i++) {
        int number = tiles[i];
        if (seen[number >> 6] >> (number & 63) & 1) return 0;
        seen[number >> 6] |= (uint64_t)1 << (number & 63);
        if (t->adv_only[number] && !advanced) return 0;
    }
    return 1;
}

