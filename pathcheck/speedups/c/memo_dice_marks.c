/* pathcheck._speedups, part of the one translation unit _speedups.c (after memo_dice_json.c,
 * whose writers it uses): a clean memo-dice/1 log's analysed moves written straight as the
 * JSON msgspec would encode of the AnalysedMoves pathcheck.analysis.memo_dice._analysis
 * makes (`analyse --format json|jsonl`: nothing kept), with each player's counts for the
 * summaries. It declines (None) what memo_dice_replay declines.
 * tests/games/test_memo_dice_json.py compares the bytes with msgspec's of the Python values. */

/* One analysed move (answer k of round `number`, from 0) as msgspec encodes the AnalysedMove
 * pathcheck.analysis.memo_dice._analysis makes of it. */
static int mdj_mark(MdjW *w, int number, const MdRound *r, int k) {
    const MdCup *cup = &r->cups[k];
    PyObject *said = cup->named ? mdj_repr(w, cup->named) : NULL, *symbol = mdj_repr(w, cup->symbol);
    if ((cup->named && !said) || !symbol) return -1;
    int worth = cup->cup == MD_GOLDEN ? 2 : 1;
    DwText b;
    dwt_init(&b);
    md_guess_words(&b, said, k + 1);
    if (MDJ_LIT(w, "{\"round\":") || out_long(&w->out, number) || MDJ_LIT(w, ",\"index\":") ||
        out_long(&w->out, r->ncups + k + 1) || MDJ_LIT(w, ",\"player\":") ||
        mdj_name(w, cup->guesser) || MDJ_LIT(w, ",\"did\":") || mdj_text(&w->out, &b))
        return -1;
    dwt_init(&b);
    dwt_cstr(&b, "cup ");
    dwt_long(&b, k + 1);
    dwt_cstr(&b, " covers the ");
    dwt_str(&b, symbol);
    dwt_cstr(&b, " ");
    dwt_str(&b, w->names[cup->coverer]);
    dwt_cstr(&b, " rolled in move ");
    dwt_long(&b, k + 1);
    if (MDJ_LIT(w, ",\"knew\":") || mdj_text(&w->out, &b)) return -1;
    dwt_init(&b);
    dwt_cstr(&b, "name ");
    dwt_str(&b, symbol);
    if (MDJ_LIT(w, ",\"best\":") || mdj_text(&w->out, &b) ||
        (cup->right ? MDJ_LIT(w, ",\"mark\":\"sound\",\"why\":\"right\"")
         : said ? MDJ_LIT(w, ",\"mark\":\"slip\",\"why\":\"wrong symbol\"")
                : MDJ_LIT(w, ",\"mark\":\"slip\",\"why\":\"no answer\"")) ||
        MDJ_LIT(w, ",\"chance\":null,\"rule\":") ||
        mdj_bytes(w, cup->right ? MDJ_RIGHT : MDJ_WRONG) ||
        MDJ_LIT(w, ",\"pointer\":\"/rounds/") || out_long(&w->out, number - 1) ||
        MDJ_LIT(w, "/uncovering/") || out_long(&w->out, k) ||
        (cup->right ? MDJ_LIT(w, "\",\"cost\":0.0,\"value\":")
                    : worth == 2 ? MDJ_LIT(w, "\",\"cost\":2.0,\"value\":")
                                 : MDJ_LIT(w, "\",\"cost\":1.0,\"value\":")) ||
        (worth == 2 ? MDJ_LIT(w, "2.0") : MDJ_LIT(w, "1.0")) ||
        (cup->right ? MDJ_LIT(w, ",\"grade\":null,\"age\":")
                    : MDJ_LIT(w, ",\"grade\":\"blunder\",\"age\":")) ||
        out_long(&w->out, r->ncups) || MDJ_LIT(w, "}"))
        return -1;
    return 0;
}

/* memo_dice_marks(rounds, players, dice, kit, target) -> (moves JSON, scores, counts) or
 * None: a clean log's analysed moves (every answer) as msgspec encodes them (a JSON array),
 * the final scores in seat order, and each seat's (slips, sound, lost, at stake). */
static PyObject *memo_dice_marks(PyObject *Py_UNUSED(self), PyObject *args) {
    MdjW w;
    MdGame g = {0};
    PyObject *held[4] = {0}, *out = NULL;
    long target;
    memset(&w, 0, sizeof w);
    int status = mdj_start(args, "memo_dice_marks", &w, &g, held, &target);
    if (status == 0) {
        out = Py_NewRef(Py_None);
    } else if (status > 0) {
        long slips[MD_MAX_PLAYERS] = {0}, sound[MD_MAX_PLAYERS] = {0};
        long lost[MD_MAX_PLAYERS] = {0}, stake[MD_MAX_PLAYERS] = {0};
        int failed = MDJ_LIT(&w, "["), first = 1;
        for (int i = 0; !failed && i < g.nrounds; i++) {
            const MdRound *r = &g.rounds[i];
            for (int k = 0; !failed && k < r->ncups; k++) {
                const MdCup *cup = &r->cups[k];
                int worth = cup->cup == MD_GOLDEN ? 2 : 1;
                failed = (!first && MDJ_LIT(&w, ",")) || mdj_mark(&w, i + 1, r, k);
                first = 0;
                stake[cup->guesser] += worth;
                if (cup->right) {
                    sound[cup->guesser]++;
                } else {
                    slips[cup->guesser]++;
                    lost[cup->guesser] += worth;
                }
            }
        }
        if (!failed && !MDJ_LIT(&w, "]")) {
            PyObject *json = PyBytes_FromStringAndSize(w.out.buf, w.out.len);
            PyObject *scores = mdj_final_scores(&g), *counts = PyTuple_New(g.n);
            for (int p = 0; counts && p < g.n; p++) {
                PyObject *one = Py_BuildValue("(lldd)", slips[p], sound[p], (double)lost[p],
                                              (double)stake[p]);
                if (!one) Py_CLEAR(counts);
                else PyTuple_SET_ITEM(counts, p, one);
            }
            if (json && scores && counts) out = PyTuple_Pack(3, json, scores, counts);
            Py_XDECREF(json);
            Py_XDECREF(scores);
            Py_XDECREF(counts);
        } else if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
    }
    mdj_end(&w, &g, held);
    return out;
}
