/*
 * pathcheck._speedups: the fast tracer of pathcheck.tracer.fast, in C, for batch work.
 *
 * It reads dungeon/1 JSON Lines (scan_block) and .dgn lines (scan_dgn) itself, or records
 * that msgspec has already decoded (trace_records); checks what the Python path checks
 * (known, unrepeated, in-mode tiles; the rules; players and LOST cards), traces them with the
 * same compiled tables as the Python fast tracer, scores the LOST cards and writes the JSON
 * Lines results byte for byte as the Python path would.
 *
 * Any record it is not sure about (an invalid one, a custom tile set, a solo line, ...) stops
 * the run: the caller verifies that record with the Python path and calls again after it.
 * So this module never decides anything the Python path would decide differently; the
 * tests compare both on random records.
 *
 * The compiled tables are handed over by pathcheck.speedups (derived from KIND_PATHS there).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>
#include <stdint.h>

#define MAX_TILES 64           /* longer dungeons go to the Python path */
#define GRID_OFF (MAX_TILES + 2)
#define GRID_W (2 * GRID_OFF + 1)
#define GRID_CELLS (GRID_W * GRID_W)
#define NREASONS 8             /* room for the reason codes Python hands over */
#define MAX_KINDS 16
#define ID_SLOTS 1024

/* The checks of the tracer. Their reason codes (the order of pathcheck.tracer.constants.REASONS),
 * the rule bits, the bound and the ghost limit come from Python with the tables. */
enum { HELD, MISPLACED, OUT_OF_BOUNDS, GHOST_FIVE, GHOST_TWICE, DEAD_END, LOOP, REVERSE, NCHECKS };
static const char *const CHECK_NAMES[NCHECKS] = {
    NULL, "misplaced", "out-of-bounds", "ghost-five", "ghost-twice", "dead-end", "loop",
    "reverse"};
#define REPEAT_CODE (-2)
#define DEAD_CODE (-1)

static const int STEP[4] = {1, GRID_W, -1, -GRID_W};
static const int EDGE_KEY[4] = {0, 1, -2, -2 * GRID_W + 1};
static const int SIGN[4] = {1, 1, -1, -1};


/* The parts below are one translation unit (so the compiler inlines the scanners into the
 * tracer as before); each file holds one job. They are included in dependency order. */
#include "c/buffer.c"
#include "c/tables.c"
#include "c/trace.c"
#include "c/records.c"
#include "c/scan_json.c"
#include "c/check.c"
#include "c/block.c"
#include "c/scan_dgn.c"
#include "c/solo_shuffle.c"
#include "c/solo.c"
#include "c/solo_find.c"
#include "c/guard.c"
#include "c/dungeon_solo.c"
#include "c/dungeon_game.c"
#include "c/dungeon_replay.c"
#include "c/dungeon_scores.c"
#include "c/solo_rule.c"
#include "c/dungeon_word.c"
#include "c/dungeon_word_json.c"
#include "c/dungeon_report.c"
#include "c/dungeon_marks_json.c"
#include "c/dungeon_marks.c"
#include "c/solo_moves.c"
#include "c/memoarrr.c"
#include "c/memoarrr_marks_json.c"
#include "c/memoarrr_know.c"
#include "c/memoarrr_replay.c"
#include "c/memoarrr_word.c"
#include "c/memoarrr_json.c"
#include "c/memoarrr_marks.c"
#include "c/memo_dice_replay.c"
#include "c/memo_dice_word.c"
#include "c/memo_dice_json.c"
#include "c/memo_dice_marks.c"
#include "c/memo_dice_lenient.c"
#include "c/robot_replay.c"
#include "c/robot_word.c"
#include "c/robot_json.c"
#include "c/script_json.c"
#include "c/dungeon_pictures.c"
#include "c/lean_add.c"
#include "c/page_moments.c"

static PyMethodDef methods[] = {
    {"solo_kernel", solo_kernel, METH_VARARGS, "Perfect solo play of many seeds."},
    {"solo_simd", solo_simd, METH_NOARGS, "Whether solo_kernel shuffles with vector instructions."},
    {"solo_key_deals", solo_key_deals, METH_VARARGS,
     "The indices of the first deals of a few keys in solo_kernel's per-deal keys."},
    {"json_guard", json_guard, METH_VARARGS,
     "Nesting deeper than a limit (1), a key that may repeat (2), or neither (0)."},
    {"memoarrr_replay", memoarrr_replay, METH_VARARGS,
     "The trace of a clean memoarrr/1 log, or None (pathcheck.games.memoarrr.fast)."},
    {"memoarrr_lenient", memoarrr_lenient, METH_VARARGS,
     "memoarrr_replay through the faults too (pathcheck.games.memoarrr.lenient)."},
    {"memoarrr_lenient_json", memoarrr_lenient_json, METH_VARARGS,
     "memoarrr_lenient with each reveal marked and written as JSON (analysis/memoarrr.py)."},
    {"memoarrr_word", memoarrr_word, METH_VARARGS,
     "The rounds of a ruling from memoarrr_replay's trace (pathcheck.games.memoarrr.fast)."},
    {"memoarrr_word_json", memoarrr_word_json, METH_VARARGS,
     "The rounds of a ruling as JSON from memoarrr_lenient's trace (games/memoarrr/fast.py)."},
    {"memoarrr_marks", memoarrr_marks, METH_VARARGS,
     "The analysed moves of a clean memoarrr/1 log (pathcheck.analysis.memoarrr)."},
    {"memo_dice_replay", memo_dice_replay, METH_VARARGS,
     "The rounds or scores of a clean memo-dice/1 log, or None (games.memo_dice.fast)."},
    {"memo_dice_json", memo_dice_json, METH_VARARGS,
     "A clean memo-dice/1 log's ruling rounds as JSON, or None (games.memo_dice.fast)."},
    {"memo_dice_marks", memo_dice_marks, METH_VARARGS,
     "A clean memo-dice/1 log's analysed moves as JSON, or None (analysis.memo_dice)."},
    {"memo_dice_lenient", memo_dice_lenient, METH_VARARGS,
     "memo_dice_json through the faults too (games.memo_dice.lenient)."},
    {"make_tables", make_tables, METH_VARARGS, "Compile tile tables into a capsule."},
    {"set_layout", set_layout, METH_VARARGS, "Register the record and placement struct types."},
    {"scan_block", scan_block, METH_VARARGS, "Verify dungeon/1 JSON Lines of a block."},
    {"scan_dgn", scan_dgn, METH_VARARGS, "Verify .dgn lines of a block."},
    {"trace_records", trace_records, METH_VARARGS,
     "Trace decoded dungeon records and write their JSON Lines results."},
    {"trace_dungeon", trace_dungeon, METH_VARARGS, "Trace one dungeon of a solo record."},
    {"solo_trace", solo_trace, METH_VARARGS,
     "Every dungeon of a decoded solo/1 record read and traced, or None (games.dungeon.solo)."},
    {"solo_moves", solo_moves, METH_VARARGS,
     "A traced solo/1 record's analysed moves as JSON, from the analysis's templates."},
    {"solo_word", solo_word, METH_VARARGS,
     "The rounds of a clean solo/1 record's ruling from solo_trace's result, or None."},
    {"trace_stack", trace_stack, METH_VARARGS,
     "The Lost point and reason code of one game/1 exploration's stack."},
    {"dungeon_replay", dungeon_replay, METH_VARARGS,
     "The trace of a clean game/1 log, or None (pathcheck.games.dungeon.fast)."},
    {"dungeon_word", dungeon_word, METH_VARARGS,
     "The rounds of a ruling from dungeon_replay's trace (pathcheck.games.dungeon.fast)."},
    {"dungeon_word_json", dungeon_word_json, METH_VARARGS,
     "The rounds of a ruling as JSON from dungeon_replay's trace (games.dungeon.fast)."},
    {"dungeon_scores", dungeon_scores, METH_VARARGS,
     "Each seat's points from dungeon_replay's trace, or None (pathcheck.games.dungeon.fast)."},
    {"dungeon_marks", dungeon_marks, METH_VARARGS,
     "The marked moves of a clean game/1 log's analysis (pathcheck.analysis.dungeon)."},
    {"robot_replay", robot_replay, METH_VARARGS,
     "A clean robot-memory/1 log's rounds or trace, or None (pathcheck.games.robot_memory.fast)."},
    {"robot_replay_json", robot_replay_json, METH_VARARGS,
     "A clean robot-memory/1 log's rounds as JSON, or None (pathcheck.games.robot_memory.fast)."},
    {"robot_marks_json", robot_marks_json, METH_VARARGS,
     "A clean robot-memory/1 log's analysed moves as JSON, or None (pathcheck.analysis.robot_memory)."},
    {"script_json", script_json, METH_O,
     "A page's JSON made safe in a <script> element (pathcheck.render.html)."},
    {"dungeon_pictures", dungeon_pictures, METH_VARARGS,
     "The pictures of a growing dungeon on a lean page (pathcheck.render.growing_c)."},
    {"lean_add", (PyCFunction)(void (*)(void))lean_add, METH_FASTCALL,
     "A lean page's moment in its usual case (pathcheck.render.lean.LeanMoments.add)."},
    {"game_moments", (PyCFunction)(void (*)(void))game_moments, METH_FASTCALL,
     "The moments of a usual exploration of a game/1 lean page (pathcheck.games.dungeon.page_c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    plain_init();
#define INTERN(var, text) if (!(var = PyUnicode_InternFromString(text))) return NULL
    INTERN(S_tiles, "tiles");
    INTERN(S_format, "format");
    INTERN(S_advanced, "advanced");
    INTERN(S_rules, "rules");
    INTERN(S_tileset, "tileset");
    INTERN(S_players, "players");
    INTERN(S_lost, "lost");
    INTERN(S_tile, "tile");
    INTERN(S_dir, "dir");
    INTERN(S_dungeon1, "dungeon/1");
    INTERN(S_standard, "standard");
    INTERN(S_start_player, "start_player");
    INTERN(S_turns, "turns");
    INTERN(S_hands, "hands");
    INTERN(S_deck, "deck");
    INTERN(S_player, "player");
    INTERN(S_draw, "draw");
    INTERN(S_simultaneous, "simultaneous");
    INTERN(S_variant, "variant");
    INTERN(S_difficulty, "difficulty");
    INTERN(S_teams, "teams");
    INTERN(S_rounds, "rounds");
    INTERN(S_grid, "grid");
    INTERN(S_first, "first");
    INTERN(S_captains, "captains");
    INTERN(S_rows, "rows");
    INTERN(S_columns, "columns");
    INTERN(S_cards, "cards");
    INTERN(S_type, "type");
    INTERN(S_colour, "colour");
    INTERN(S_number, "number");
    INTERN(S_chooser, "chooser");
    INTERN(S_guesser, "guesser");
    INTERN(S_position, "position");
    INTERN(S_guess, "guess");
    INTERN(S_points, "points");
    INTERN(S_chain, "chain");
    INTERN(S_row, "row");
    INTERN(S_column, "column");
    INTERN(S_name, "name");
    INTERN(S_captain, "captain");
    INTERN(S_members, "members");
#undef INTERN
    return PyModule_Create(&module);
}
