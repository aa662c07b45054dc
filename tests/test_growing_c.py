"""The pictures of a growing dungeon made in C (``render.growing_c.lean_pictures``, issue #33
point 4) are those of the Python reference, line for line and number for number.

The reference is :meth:`pathcheck.render.growing.Growing.lines` with each picture numbered by
:class:`pathcheck.render.lean.LeanMoments` as its ``add`` numbers it. Compared on random
stacks (legal or not: a stack that gets Lost, tiles never reached), random LOST cards and
hostile players' initials (quotes, ``<``, ``&``, control characters, line boundaries,
non-ASCII), in and out of order; every float the C side writes against Python's formatting of
it; and arguments of the wrong shape, which raise and never crash (also under the sanitizers:
.ci/sanitize). Whole pages, lean against plain: tests/test_lean_pages.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.render import growing_c
from pathcheck.render.growing import Growing, extent
from pathcheck.render.lean import LeanMoments, Lines
from pathcheck.render.model import PAIRS, tile_paths
from pathcheck.render.svg import (
    BACKDROP,
    CLOSE,
    _taken_shape,
    _tile_shape,
    label_line,
    svg_open,
    taken_line,
    tile_line,
)
from pathcheck.tracer.dungeon import Placement, trace
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.tileset import load_tileset
from tests.fuzz import examples

speedups = pytest.importorskip("pathcheck._speedups")
C = speedups.dungeon_pictures
TILESET = load_tileset()
IDS = [t.id for t in TILESET]
HOSTILE = ["A", "b", "\"", "'", "<", "&", ">", "\x00", "\x07", "\u2028", "\x85", "\n", "é",
           "ß", "ע", "\u2068", "李", "😀", "?", ""]


def _reference(growing: Growing, plan: list[tuple[int, dict[int, str]]]
               ) -> tuple[list[Any], LeanMoments]:
    moments = LeanMoments(())
    out = []
    for height, cards in plan:
        picture, result = growing.lines(height, cards)
        moments._number(picture)
        out.append((picture, moments._drawn[id(picture)][1], result))
    return out, moments


def _compare(placements: list[Placement], rules: tuple[int, ...], placers: dict[int, str],
             cards: list[tuple[int, str]], heights: list[int], movement: Move) -> None:
    full = trace(placements, tileset=TILESET, rules=rules, initial_movement=movement,
                 with_passes=True)
    plan = []
    traced, lost = 0, False
    reference_growing = Growing(full, TILESET, rules, extent(full), placers, movement)
    for height in heights:
        if not lost:
            traced = height
        on: dict[int, str] = {}
        for after, initial in cards:
            if after <= height:
                on[after] = on.get(after, "") + initial
        plan.append((traced, on))
        lost = reference_growing.prefixes.lost(traced)
    expected, reference = _reference(reference_growing, plan)
    for results in (True, False):
        moments = LeanMoments(())
        growing = Growing(full, TILESET, rules, extent(full), placers, movement)
        made = growing_c.lean_pictures(growing, moments, plan, results=results)
        assert len(made) == len(expected)
        for (picture, result), (want, number, want_result) in zip(made, expected, strict=True):
            assert picture == want
            assert type(picture) is type(want)
            # a line boundary in a line: the Python path, each picture numbered by add as before
            drawn = moments._drawn.get(id(picture))
            assert (drawn[1] if drawn is not None else moments._number(picture)) == number
            if results:
                assert result == want_result
            else:
                assert (result.lost_at, result.reason) == (want_result.lost_at,
                                                            want_result.reason)
        assert list(moments._lines.items()) == list(reference._lines.items())
        assert list(moments._pictures.items()) == list(reference._pictures.items())


placements = st.lists(st.tuples(st.sampled_from(IDS), st.sampled_from(list(Direction))),
                      min_size=0, max_size=45)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(tiles=placements, data=st.data(), rules=st.sets(st.integers(1, 4)),
       movement=st.sampled_from(list(Move)))
def test_random_dungeons_hostile_initials(tiles: list[tuple[str, Direction]], data: st.DataObject,
                                          rules: set[int], movement: Move) -> None:
    stack = [Placement(TILESET.start, Direction.N)] + [Placement(t, d) for t, d in tiles]
    initial = st.sampled_from(HOSTILE) | st.text(max_size=2)
    placers = data.draw(st.dictionaries(st.integers(1, len(stack)), initial, max_size=8))
    placers = {k: v for k, v in placers.items() if v}
    cards = data.draw(st.lists(st.tuples(st.integers(1, len(stack)), initial.filter(bool)),
                               max_size=4))
    heights = data.draw(st.lists(st.integers(1, len(stack)), min_size=1, max_size=12))
    if data.draw(st.booleans()):
        heights.sort()
    _compare(stack, tuple(sorted(rules)), placers, cards, heights, movement)


@pytest.mark.parametrize("seed", range(30))
def test_whole_random_dungeons_in_order(seed: int) -> None:
    rng = random.Random(seed)
    stack = [Placement(TILESET.start, Direction.N)] + [
        Placement(rng.choice(IDS), rng.choice(list(Direction))) for _ in range(rng.randint(0, 60))]
    placers = {k: rng.choice("ABCé<&\"") for k in range(2, len(stack) + 1)}
    cards = [(rng.randint(1, len(stack)), rng.choice("ABC")) for _ in range(rng.randint(0, 3))]
    _compare(stack, (), placers, cards, list(range(1, len(stack) + 1)), Move.STRAIGHT)


@pytest.mark.parametrize("max_y", range(-40, 41, 3))
def test_every_float_is_formatted_as_python_formats_it(max_y: int) -> None:
    """Each tile's lines at coordinates around the picture's y flip, which is not a whole
    number (``max_y + 1.1``), against render/svg.py's own lines."""
    _, shift_y = svg_open((-50, -50, 50, max_y))
    paths = tile_paths(TILESET["R1"].kind, Direction.E)
    cell, drawn = _tile_shape(paths)
    tiles = []
    for x in range(-45, 46, 7):
        for y in range(max_y - 30, max_y + 1, 3):
            tiles.append((x, y, cell, drawn, "→", "R1", "&lt;&amp;"))  # escaped
    steps = ((len(tiles), 0, "<desc/>", None, ()),)
    (picture,) = C({}, {}, {}, Lines, ("<svg>", "<title/>"), BACKDROP, tuple(tiles), (),
                        [None] * 1024, growing_c._taken_make, shift_y, "S", steps)
    count = len(tiles)
    want_tiles = [tile_line.__wrapped__(x, y, i, paths, shift_y)
                  for i, (x, y, *_) in enumerate(tiles, start=1)]
    want_labels = [label_line.__wrapped__(x, y, i, "R1", Direction.E, shift_y, "<&")
                   for i, (x, y, *_) in enumerate(tiles, start=1)]
    assert list(picture[3:3 + len(BACKDROP)]) == list(BACKDROP)
    start = 3 + len(BACKDROP)
    assert list(picture[start:start + count]) == want_tiles
    assert list(picture[start + count:start + 2 * count]) == want_labels
    assert list(picture[-2:]) == list(CLOSE)


def test_the_path_taken_over_a_tile_is_python_s_for_every_set_of_turns() -> None:
    bits = growing_c._BITS
    turns = [bit for bit, (a, b) in enumerate(bits) if a != b]  # no pass turns back
    for subset in range(1, 1 << len(turns)):
        mask = sum(1 << bit for k, bit in enumerate(turns) if subset >> k & 1)
        taken = frozenset(PAIRS[a][b] for bit, (a, b) in enumerate(bits) if mask >> bit & 1)
        assert growing_c._taken_make(mask) == _taken_shape(taken)
    assert taken_line.__wrapped__(3, -2, 7, frozenset({PAIRS[0][2]}), 4.1).startswith(
        '<path class="taken" data-index="7" transform="translate(192.0,390.4)"')


def good() -> list[Any]:
    return [{}, {}, {}, Lines, ("<svg>",), (), ((0, 0, "M", "M", "↑", "S", ""),), (),
            [None] * 1024, growing_c._taken_make, 1.1, "s",
            ((1, 0, "d", None, ()),)]


@pytest.mark.parametrize("at, bad", [
    (0, []), (1, None), (2, []), (4, ["<svg>"]), (4, (1,)), (5, ("x", 2)), (6, ((0, 0),)),
    (6, (("x", 0, "M", "M", "a", "b", ""),)), (6, ((0, 0, "M", 1, "a", "b", ""),)),
    (6, ((10**7, 0, "M", "M", "a", "b", ""),)), (6, ((2**70, 0, "M", "M", "a", "b", ""),)),
    (7, (object(),)), (8, [None] * 3), (8, None), (10, "x"), (11, 3),
    (12, ((3, 0, "d", None, ()),)), (12, ((1, 1, "d", None, ()),)),
    (12, ((-1, 0, "d", None, ()),)), (12, ((1, 0, 3, None, ()),)),
    (12, ((1, 0, "d", 3, ()),)), (12, ((1, 0, "d", None, (3,)),)), (12, ((1, 0),)),
    (12, (None,)), (12, ((1, 0, "d", None, ["x"]),)), (12, ((2**70, 0, "d", None, ()),)),
])
def test_arguments_of_the_wrong_shape_raise(at: int, bad: Any) -> None:
    args = good()
    args[at] = bad
    with pytest.raises((TypeError, ValueError, OverflowError, AttributeError)):
        C(*args)
    args = good()
    (picture,) = C(*args)
    assert (picture[:2], picture[-3:]) == (("<svg>", "d"), ("s", "</g>", "</svg>"))
    assert args[2][id(picture)] == (picture, 0) and list(args[0].values()) == list(range(7))


class _Pass:
    def __init__(self, x: Any, y: Any, entry: Any, exit: Any) -> None:
        self.x, self.y, self.entry, self.exit = x, y, entry, exit


@pytest.mark.parametrize("one", [_Pass(0, 0, 5, 0), _Pass(0, 0, 0, -1), _Pass(1, 0, 0, 1),
                                 _Pass("0", 0, 0, 1), object()])
def test_a_pass_of_the_wrong_shape_raises(one: Any) -> None:
    args = good()
    args[7] = (one,)
    args[12] = ((1, 1, "d", None, ()),)
    with pytest.raises((TypeError, ValueError, AttributeError)):
        C(*args)


def test_taken_make_must_give_text() -> None:
    args = good()
    args[7] = (_Pass(0, 0, 0, 2),)
    args[8] = [None] * 1024
    args[9] = lambda mask: 3
    args[12] = ((1, 1, "d", None, ()),)
    with pytest.raises(TypeError):
        C(*args)
    args[9] = lambda mask: "M0,0"
    drawn = args[2]
    (picture,) = C(*args)
    assert drawn[id(picture)] == (picture, 0) and 'd="M0,0"' in picture[3]
