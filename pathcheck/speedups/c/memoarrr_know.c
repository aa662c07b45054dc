/* pathcheck._speedups, part of the one translation unit _speedups.c: what each player knows
 * of a Memoarrr! island while memoarrr_replay.c replays it, and each reveal marked against it,
 * for the analysis (pathcheck.analysis.memoarrr, whose Island is the plain reference: the
 * tests compare both on random and hostile logs).
 *
 * A player knows the places seen by everyone (every reveal) and the places they saw alone
 * (their side before round 1, their peeks; not a place whose card the log leaves out, null:
 * that counts as unseen); what lies at a place known is the island's card
 * (cards move only by octopus swaps, which everyone sees: the places known move with them).
 * The cards they have seen are kept apart, as card sets: the pool of a guess is the rest.
 *
 * Each reveal with a card to connect to (not a round's first) is handed back as 7 items of
 * one flat list (no object per move for the garbage collector to walk):
 *   round, index, player, did, knew, best, verdict
 * did      the place revealed * 25 + its card;
 * knew     last << 15 | choices | unknown << 5 | matches << 10 | chosen seen << 20 |
 *          hits << 21 | size << 26 (the cards not seen that connect, all those not seen):
 *          the card to connect to, the
 *          places it could reveal, how many of them it had not seen, how many seen connect;
 * verdict  one of the verdicts below (pathcheck.analysis.memoarrr's, in their order) | age << 3:
 *          the reveals since the mover last saw the card that decides the move (m_age; 0:
 *          none, for a guess or when nothing the mover saw could decide it);
 * best     for the verdicts of a card seen that connects: the best move's text, made from the
 *          analysis's texts (`texts`: best_one and at, 25 * 25 each, by place * 25 + card);
 *          for those of a card not seen: hits << 5 | size (the cards not seen that connect,
 *          and all those not seen); None for M_NOTHING. */

enum {
    M_SEEN_CONNECTS,   /* sound: a card seen that connects */
    M_PASSED_OVER,     /* slip: passed over one (+1 when the card revealed connects anyway) */
    M_PASSED_OVER_HIT,
    M_NOTHING,         /* sound: no card it could reveal can connect */
    M_EVERY_UNSEEN,    /* sound: every card not seen connects */
    M_SEEN_MISS,       /* slip: a card seen not to connect, while a chance was left */
    M_GUESS,           /* guess (+1 when it connects) */
    M_GUESS_HIT,
};
#define M_MARK_ITEMS 7
#define M_ISLAND_MASK (((1u << M_CARDS) - 1) & ~(1u << M_CENTRE))
#define M_EVERY_CARD ((1u << M_CARDS) - 1)

/* The best move when places `matches` (two or more: one is best_one's text alone) hold cards
 * seen that connect: best_one's text of the first, then ", " and at's text of each other. */
static PyObject *m_best(const MState *s, uint32_t matches) {
    PyObject *parts = PyList_New(0);
    if (!parts) return NULL;
    for (int pos = 0; matches; pos++, matches >>= 1) {
        if (!(matches & 1)) continue;
        PyObject *table = PyList_GET_SIZE(parts) ? s->at : s->best_one;
        if (PyList_Append(parts, PyTuple_GET_ITEM(table, pos * M_CARDS + s->grid[pos])) < 0) {
            Py_DECREF(parts);
            return NULL;
        }
    }
    PyObject *text = PyUnicode_Join(s->comma, parts);
    Py_DECREF(parts);
    return text;
}

/* The age of a judged reveal (docs/analysis.md, "Memory span"): the reveals since the mover
 * last saw the deciding card, counting this one (1: seen at the reveal just before), by
 * `at`, their sightings by place. With cards seen that connect (`matches`): the youngest of
 * them, whichever card was revealed; a card seen not to connect revealed while a chance was
 * left: that card; a card not seen revealed when every card not seen connects: the oldest
 * card seen among those it could reveal (`seen`, none of which connects; 0 when there is
 * none); 0 for the other verdicts. */
static int m_age(const int *at, int now, int verdict, int pos, uint32_t matches,
                 uint32_t seen) {
    if (verdict == M_SEEN_MISS) return now - at[pos];
    if (matches) {
        int youngest = 0;
        for (int p = 0; matches; p++, matches >>= 1)
            if ((matches & 1) && at[p] > youngest) youngest = at[p];
        return now - youngest;
    }
    if (verdict != M_EVERY_UNSEEN || !seen) return 0;
    int oldest = now;
    for (int p = 0; seen; p++, seen >>= 1)
        if ((seen & 1) && at[p] < oldest) oldest = at[p];
    return now - oldest;
}

/* Mark `player` revealing place `pos` (not yet face up) to connect to s->last, `blocked` the
 * place a walrus marked (-1: none); appended to s->marks. 0, or -1 on a Python error. */
static int m_know_move(const MState *s, int index, int player, int pos, int blocked) {
    int last = s->last, card = s->grid[pos];
    uint32_t allowed = M_ISLAND_MASK & ~s->up & ~(blocked >= 0 ? 1u << blocked : 0);
    uint32_t known = s->public_places | s->own_places[player];
    uint32_t matches = allowed & known & (s->kind_places[last / 5] | s->kind_places[5 + last % 5]);
    int unknown = m_popcount(allowed & ~known), hit = m_connects(last, card), verdict;
    /* what the move made was worth from what they knew (its cost): the card chosen seen,
     * and the cards not seen, those that connect and all */
    uint32_t pool = M_EVERY_CARD & ~(s->public_cards | s->own_cards[player]);
    /* the cards of its animal (5 in a row), and of its landscape (every 5th) */
    uint32_t connect = 0x1Fu << (last / 5 * 5) | 0x108421u << (last % 5);
    int hits = m_popcount(pool & connect), size = m_popcount(pool);
    long knew = (long)last << 15 | m_popcount(allowed) | unknown << 5 |
                m_popcount(matches) << 10 | (long)(known >> pos & 1) << 20 |
                (long)hits << 21 | (long)size << 26;
    PyObject *best;
    if (s->json) {  /* written as JSON (memoarrr_marks_json.c): the same verdict and age */
        verdict = matches ? ((matches >> pos & 1) ? M_SEEN_CONNECTS : M_PASSED_OVER + hit)
                  : (!unknown || !size || !hits) ? M_NOTHING
                  : !(known >> pos & 1) ? (hits == size ? M_EVERY_UNSEEN : M_GUESS + hit)
                  : M_SEEN_MISS;
        int age = m_age(s->seen_at[player], s->reveals + 1, verdict, pos, matches,
                        allowed & known);
        return mkj_move(s, s->json, index, player, pos * M_CARDS + card, knew,
                        verdict | (long)age << 3, matches);
    }
    if (matches) {
        verdict = (matches >> pos & 1) ? M_SEEN_CONNECTS : M_PASSED_OVER + hit;
        if (matches & (matches - 1)) {
            best = m_best(s, matches);
        } else {
            int only = m_popcount(matches - 1);  /* the one place's number */
            best = Py_NewRef(PyTuple_GET_ITEM(s->best_one, only * M_CARDS + s->grid[only]));
        }
    } else {
        if (!unknown || !size || !hits) {
            verdict = M_NOTHING;
            best = Py_NewRef(Py_None);
        } else {
            verdict = !(known >> pos & 1) ? (hits == size ? M_EVERY_UNSEEN
                                                                    : M_GUESS + hit)
                                          : M_SEEN_MISS;
            best = PyLong_FromLong((long)hits << 5 | size);
        }
    }
    if (!best) return -1;
    int age = m_age(s->seen_at[player], s->reveals + 1, verdict, pos, matches, allowed & known);
    long values[M_MARK_ITEMS] = {s->round, index, player, pos * M_CARDS + card, knew, 0,
                                 verdict | (long)age << 3};
    for (int i = 0; i < M_MARK_ITEMS; i++) {
        PyObject *value = i == 5 ? best : PyLong_FromLong(values[i]);
        int rc = value ? PyList_Append(s->marks, value) : -1;
        Py_XDECREF(value);
        if (rc < 0) {
            if (i < 5) Py_DECREF(best);
            return -1;
        }
    }
    return 0;
}

/* Place `pos` revealed (card `card`): seen by everyone, at this reveal. */
static void m_know_reveal(MState *s, int pos, int card) {
    s->public_places |= 1u << pos;
    s->public_cards |= 1u << card;
    s->reveals++;
    for (int i = 0; i < s->n; i++) s->seen_at[i][pos] = s->reveals;
}

/* The bit set `places` with the bits of places `a` and `b` exchanged. */
static uint32_t m_swapped(uint32_t places, int a, int b) {
    return ((places >> a ^ places >> b) & 1) ? places ^ (1u << a | 1u << b) : places;
}

/* The cards at places `a` and `b` swapped (everyone sees it; s->grid already is): what was
 * known there moves, and the places of each card's kinds (a kind both share keeps both). */
static void m_know_swap(MState *s, int a, int b) {
    uint32_t both = 1u << a | 1u << b;
    for (int k = 0; k < 2; k++) {
        int card = s->grid[k ? b : a];
        if (card < 0) continue;
        s->kind_places[card / 5] ^= both;
        s->kind_places[5 + card % 5] ^= both;
    }
    s->public_places = m_swapped(s->public_places, a, b);
    for (int i = 0; i < s->n; i++) {
        s->own_places[i] = m_swapped(s->own_places[i], a, b);
        int at = s->seen_at[i][a];  /* when each card was seen moves with it */
        s->seen_at[i][a] = s->seen_at[i][b];
        s->seen_at[i][b] = at;
    }
}

/* `player` peeks at place `pos`: seen by them alone (a card the log leaves out, null, is
 * known to them but not to the analysis: it counts as unseen, docs/analysis.md). */
static void m_know_peek(MState *s, int player, int pos) {
    if (s->grid[pos] < 0) return;
    s->own_places[player] |= 1u << pos;
    s->own_cards[player] |= 1u << s->grid[pos];
    s->seen_at[player][pos] = s->reveals;  /* at the penguin's reveal */
}
