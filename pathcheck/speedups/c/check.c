/* pathcheck._speedups, part of the one translation unit _speedups.c: The check of LOST cards: points and outcomes, as pathcheck.tracer.check scores them. */

/* ---- the check of LOST cards (pathcheck.inputs.records._lost_cards, pathcheck.tracer.check) ------------- */

/* 1 if the Python path accepts these players and LOST cards for n tiles. */
static int cards_ok(Cards *c, int n, int rules) {
    for (int i = 0; i < c->nplayers; i++) {
        if (!c->player[i].n || c->player[i].n > MAX_NAME) return 0;
        for (int j = 0; j < i; j++)
            if (same_str(c->player[i], c->player[j])) return 0;
        c->card_of[i] = -1;
    }
    for (int i = 0; i < c->ncards; i++) {
        if (!c->card[i].n || c->card[i].n > MAX_NAME || c->after[i] < 1 || c->after[i] > n)
            return 0;
        if (c->has_players) {  /* among the players, one card each */
            int j = 0;
            while (j < c->nplayers && !same_str(c->card[i], c->player[j])) j++;
            if (j == c->nplayers || c->card_of[j] >= 0) return 0;
            c->card_of[j] = i;
        }
        for (int j = 0; j < i; j++) {
            if (!c->has_players && same_str(c->card[i], c->card[j])) return 0;
            if ((rules & RULE_BIT(1)) && c->after[i] == c->after[j]) return 0;
        }
    }
    return 1;
}

/* Whether any of the 8 bytes of x needs escaping in JSON: below 0x20, '"' or '\\' (a byte of
 * 0x80 or more, part of a UTF-8 sequence, does not). */
static inline int json_word_escapes(uint64_t x) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = x ^ (ones * '"'), slash = x ^ (ones * '\\');
    uint64_t below = (x - ones * 0x20) & ~x;
    uint64_t is_quote = (quote - ones) & ~quote, is_slash = (slash - ones) & ~slash;
    return ((below | is_quote | is_slash) & highs) != 0;
}

/* s as msgspec writes a JSON string, at w (room for 6 * s.n + 2 bytes); the end. Eight bytes
 * at a time while none needs escaping (names and texts seldom do). */
static char *put_json_str(char *w, Str s) {
    static const char HEX[] = "0123456789abcdef";
    *w++ = '"';
    Py_ssize_t i = 0;
    for (; i + 8 <= s.n; i += 8) {
        uint64_t x;
        memcpy(&x, s.p + i, 8);
        if (json_word_escapes(x)) break;
        memcpy(w, &x, 8);
        w += 8;
    }
    for (; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *w++ = (char)c;
            continue;
        }
        *w++ = '\\';
        switch (c) {
            case '"': *w++ = '"'; break;
            case '\\': *w++ = '\\'; break;
            case '\b': *w++ = 'b'; break;
            case '\f': *w++ = 'f'; break;
            case '\n': *w++ = 'n'; break;
            case '\r': *w++ = 'r'; break;
            case '\t': *w++ = 't'; break;
            default:
                memcpy(w, "u00", 3);
                w[3] = HEX[c >> 4];
                w[4] = HEX[c & 15];
                w += 5;
        }
    }
    *w++ = '"';
    return w;
}

#define PUT_LIT(w, s) (memcpy((w), (s), sizeof(s) - 1), (w) += sizeof(s) - 1)

enum { EARLY, SCORED, TOO_LATE, HELD_ON, STAYED };

/* The "points" and "outcomes" of pathcheck.tracer.check.score_lost_cards for a dungeon Lost at
 * lost_at (0: never), written as the Python path writes them. */
static int write_check(Out *o, const Cards *c, int lost_at) {
    const Str *names = c->has_players ? c->player : c->card;
    int nnames = c->has_players ? c->nplayers : c->ncards;
    int scoring = 0, kind[MAX_PLAYERS], after[MAX_PLAYERS];
    Py_ssize_t room = 48;
    if (lost_at)
        for (int i = 0; i < c->ncards; i++)
            if (c->after[i] >= lost_at && (!scoring || c->after[i] < scoring))
                scoring = c->after[i];
    for (int i = 0; i < nnames; i++) {
        int j = c->has_players ? c->card_of[i] : i;
        if (j < 0) {
            after[i] = 0;
            kind[i] = lost_at ? STAYED : HELD_ON;
        } else {
            after[i] = c->after[j];
            kind[i] = (!lost_at || after[i] < lost_at) ? EARLY
                      : after[i] == scoring           ? SCORED
                                                      : TOO_LATE;
        }
        room += 2 * (6 * names[i].n + 2) + 96;
    }
    if (out_reserve(o, room) < 0) return -1;
    char *w = o->buf + o->len, *name_at[MAX_PLAYERS];
    Py_ssize_t name_len[MAX_PLAYERS];
    PUT_LIT(w, ",\"points\":{");
    for (int i = 0; i < nnames; i++) {
        if (i) *w++ = ',';
        name_at[i] = w;
        w = put_json_str(w, names[i]);
        name_len[i] = w - name_at[i];
        if (kind[i] == SCORED || kind[i] == HELD_ON) PUT_LIT(w, ":1");
        else PUT_LIT(w, ":0");
    }
    PUT_LIT(w, "},\"outcomes\":[");
    for (int i = 0; i < nnames; i++) {
        if (i) *w++ = ',';
        PUT_LIT(w, "{\"player\":");
        memcpy(w, name_at[i], name_len[i]);
        w += name_len[i];
        switch (kind[i]) {
            case EARLY: PUT_LIT(w, ",\"outcome\":\"early\",\"after\":"); break;
            case SCORED: PUT_LIT(w, ",\"outcome\":\"scored\",\"after\":"); break;
            case TOO_LATE: PUT_LIT(w, ",\"outcome\":\"too-late\",\"after\":"); break;
            case HELD_ON: PUT_LIT(w, ",\"outcome\":\"held-on\",\"after\":"); break;
            default: PUT_LIT(w, ",\"outcome\":\"stayed\",\"after\":");
        }
        if (after[i]) w += write_long(w, after[i]);
        else PUT_LIT(w, "null");
        if (kind[i] == SCORED || kind[i] == HELD_ON) PUT_LIT(w, ",\"points\":1}");
        else PUT_LIT(w, ",\"points\":0}");
    }
    *w++ = ']';
    o->len = w - o->buf;
    return 0;
}

