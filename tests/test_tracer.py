"""The tracers: the spec's worked examples, the rulebook's examples, and agreement."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.tracer.dungeon import LostReason, Placement, parse_notation, trace, trace_notation
from pathcheck.tracer.fast import compile_tileset, trace_indices
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.reference import trace_reference
from pathcheck.tracer.tileset import load_tileset

TILESET = load_tileset()

# (notation, rules, lost_at, reason): spec section 3's worked examples.
WORKED = [
    ("START@N R1@N R2@E R3@S I4@W", (), None, None),
    ("START@N RE1@N R1@N R2@E R3@S", (), 5, "loop"),
    ("START@N R1@N R2@E R3@S I4@W R4@W R5@N R6@E", (), 8, "dead-end"),
    ("START@N L4@E", (), 2, "misplaced"),
    ("START@N I4@N I5@N I6@N I7@N I8@N", (2,), 6, "out-of-bounds"),
    ("START@N RE1@N BL1@N L7@W I3@S L4@S L2@E L8@N", (), 8, "reverse"),
    ("START@N R3@N L3@E", (4,), 3, "ghost-twice"),
    ("START@N R1@N X1@E L1@E R2@N I2@E", (3,), 6, "ghost-five"),
]


def reference(text: str, rules: tuple[int, ...] = (), move: Move = Move.STRAIGHT
              ) -> tuple[int | None, str | None]:
    ref = trace_reference(TILESET, [(p.tile, p.dir) for p in parse_notation(text)],
                          frozenset(rules), move)
    return ref.lost_at, ref.reason


@pytest.mark.parametrize(("text", "rules", "lost_at", "reason"), WORKED)
def test_worked_examples_fast(text: str, rules: tuple[int, ...], lost_at: int | None,
                              reason: str | None) -> None:
    result = trace_notation(text, rules=rules)
    assert result.lost_at == lost_at
    assert (result.reason.value if result.reason else None) == reason


@pytest.mark.parametrize(("text", "rules", "lost_at", "reason"), WORKED)
def test_worked_examples_reference(text: str, rules: tuple[int, ...], lost_at: int | None,
                                   reason: str | None) -> None:
    assert reference(text, rules) == (lost_at, reason)


def test_two_path_start_tile_is_passed_through_its_second_path() -> None:
    # Rulebook, "Rules on Two-Path Tiles": after (4) the path crosses the Start tile's second
    # path and the next tile lies west of it.
    result = trace_notation("START@N R1@N R2@E R3@S I4@W")
    assert [(p.x, p.y) for p in result.layout] == [(0, 0), (0, 1), (1, 1), (1, 0), (-1, 0)]


def test_two_path_tile_passed_again_sets_the_next_tile() -> None:
    # Rulebook, "Rules on Two-Path Tiles": the path passes tile (2) again before the next
    # tile, which must follow tile (2)'s second path, not the tile placed last. Here R4's
    # path runs east into BR1's second path (west-north), so the next tile lies north of
    # BR1 and points north; pointing east, along R4's own exit, it is misplaced.
    result = trace_notation("START@N BR1@N R1@E R2@S R3@W R4@N I1@N")
    assert result.lost_at is None
    assert (result.layout[-1].x, result.layout[-1].y) == (0, 2)
    assert trace_notation("START@N BR1@N R1@E R2@S R3@W R4@N").last_movement is Move.LEFT
    wrong = trace_notation("START@N BR1@N R1@E R2@S R3@W R4@N I1@E")
    assert (wrong.lost_at, wrong.reason) == (7, LostReason.MISPLACED)


def test_repeat_example_of_the_rulebook_is_a_loop() -> None:
    result = trace_notation("START@N RE1@N R1@N R2@E R3@S")
    assert (result.lost_at, result.reason) == (5, LostReason.LOOP)
    assert result.layout[1].tile == "RE1" and (result.layout[2].x, result.layout[2].y) == (0, 2)


def test_repeat_after_repeat_repeats_the_first_movement() -> None:
    # R1 turns right; RE1 and RE2 in a row both repeat that right turn, so the path comes
    # back west into START's second path, which goes straight on.
    result = trace_notation("START@N R1@N RE1@E RE2@S I1@W")
    assert [(p.x, p.y) for p in result.layout] == [(0, 0), (0, 1), (1, 1), (1, 0), (-1, 0)]
    assert result.lost_at is None and result.last_movement is Move.STRAIGHT


def test_entering_a_one_path_tile_from_its_side_is_a_dead_end() -> None:
    # R3's path runs west into I1, whose only path runs south-north: no more path to proceed.
    for text in ("START@N I1@N L1@N L2@W L3@S", "START@N I1@N R1@N R2@E R3@S"):
        result = trace_notation(text)
        assert (result.lost_at, result.reason) == (5, LostReason.DEAD_END)


def test_a_dungeon_that_starts_with_repeat_uses_the_initial_movement() -> None:
    placements = parse_notation("RE1@N I1@E")
    right = trace(placements, initial_movement=Move.RIGHT)
    assert right.lost_at is None and (right.layout[1].x, right.layout[1].y) == (1, 0)
    straight = trace(placements)
    assert straight.reason is LostReason.MISPLACED


def test_lost_tile_is_in_the_layout_and_later_tiles_are_not() -> None:
    result = trace_notation("START@N L4@E I1@N I2@N")
    assert result.lost_at == 2 and len(result.layout) == 2


# --- agreement ------------------------------------------------------------------------------

ALL_IDS = [t.id for t in TILESET]


@st.composite
def dungeons(draw: st.DrawFn) -> tuple[list[Placement], frozenset[int], Move]:
    """Random dungeons: aligned play with random misplacements, every rule, Repeat starts."""
    advanced = draw(st.booleans())
    ids = [i for i in ALL_IDS if advanced or not TILESET[i].advanced_only]
    order = draw(st.permutations(ids))
    length = draw(st.integers(min_value=1, max_value=len(ids)))
    tiles = list(order[:length])
    if draw(st.booleans()) and "START" in tiles:
        tiles.remove("START")
        tiles.insert(0, "START")
    rules = frozenset(draw(st.sets(st.sampled_from([2, 3, 4] if advanced else [2, 3]))))
    move = draw(st.sampled_from(list(Move)))
    compiled = compile_tileset(TILESET)
    arrows: list[int] = []
    indices = [compiled.index[t] for t in tiles]
    trace_indices(compiled, indices, None, 0, int(move), arrows)
    dirs = arrows + [draw(st.integers(0, 3)) for _ in range(len(tiles) - len(arrows))]
    for k in draw(st.lists(st.integers(0, len(tiles) - 1), max_size=3)):
        dirs[k] = draw(st.integers(0, 3))
    first = draw(st.integers(0, 3))
    dirs[0] = first if not arrows else dirs[0]
    return [Placement(t, Direction(d)) for t, d in zip(tiles, dirs, strict=True)], rules, move


@settings(max_examples=3000)
@given(dungeons())
def test_fast_tracer_agrees_with_reference(case: tuple[list[Placement], frozenset[int], Move]
                                           ) -> None:
    placements, rules, move = case
    fast = trace(placements, rules=rules, initial_movement=move)
    ref = trace_reference(TILESET, [(p.tile, p.dir) for p in placements], rules, move)
    assert fast.lost_at == ref.lost_at
    assert (fast.reason.value if fast.reason else None) == ref.reason
    assert [(p.tile, p.dir, (p.x, p.y)) for p in fast.layout] == ref.layout
    assert fast.last_movement == ref.last_move


@settings(max_examples=300)
@given(dungeons())
def test_every_tile_cell_is_passed_at_most_twice(case: tuple[list[Placement], frozenset[int],
                                                             Move]) -> None:
    placements, rules, move = case
    result = trace(placements, rules=rules, initial_movement=move, with_passes=True)
    cells = [(p.x, p.y) for p in result.passes]
    assert all(cells.count(c) <= 2 for c in cells)
    assert len({(p.x, p.y) for p in result.layout}) == len(result.layout)
