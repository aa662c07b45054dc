"""The C tracer of one solo dungeon (``_speedups.trace_dungeon``) against the Python path.

It must answer as :func:`pathcheck.tracer.fast.trace_indices` on any dungeon, and a solo ruling
made with it must equal the one made without it, on every solo fixture, random perfect and
spoilt play and mutated records; misuse of its arguments is an exception, never a read
outside a buffer (``.ci/sanitize`` runs this file against the ASan/UBSan build).
"""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.errors import RecordError
from pathcheck.games.dungeon import solo
from pathcheck.ruling import Ruling
from pathcheck.tracer.fast import compile_tileset, trace_indices
from pathcheck.tracer.tileset import load_tileset
from tests.games.test_dungeon_solo_fast import (
    SOLO_FIXTURES,
    SPOILS,
    load,
    mutated,
    spoilt_play,
)

_c: Any = speedups._speedups
pytestmark = pytest.mark.skipif(_c is None, reason="the C extension is not built")

TILESET = load_tileset()
COMPILED = compile_tileset(TILESET)
MAX_TILES = 64  # the C grid's limit (MAX_TILES in _speedups.c)


def tables() -> Any:
    return speedups._tables()


@st.composite
def dungeons(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """A dungeon of tile numbers (repeats allowed) and arrows, mostly along the heading (a
    random arrow misplaces almost at once), inside a longer run; with its start and stop."""
    n = draw(st.integers(0, MAX_TILES))
    tiles = draw(st.lists(st.integers(0, len(COMPILED.ids) - 1), min_size=n, max_size=n))
    arrows: list[int] = []
    trace_indices(COMPILED, tiles, None, 0, 0, arrows)
    arrows += [0] * (n - len(arrows))
    for _ in range(draw(st.integers(0, 2))):
        if n:
            arrows[draw(st.integers(0, n - 1))] = draw(st.integers(0, 3))
    before = draw(st.lists(st.integers(0, len(COMPILED.ids) - 1), max_size=3))
    after = draw(st.lists(st.integers(0, len(COMPILED.ids) - 1), max_size=3))
    return (tuple(before + tiles + after), tuple([1] * len(before) + arrows + [2] * len(after)),
            len(before), len(before) + n)


@settings(max_examples=300, deadline=None)
@given(dungeons(), st.integers(0, 15), st.sampled_from([0, 1, 3]))
def test_trace_dungeon_answers_as_the_python_tracer(
    dungeon: tuple[tuple[int, ...], tuple[int, ...], int, int], rules: int, move: int,
) -> None:
    tiles, dirs, start, stop = dungeon
    lost_at, code, _, last = trace_indices(COMPILED, tiles[start:stop], dirs[start:stop], rules,
                                           move)
    assert _c.trace_dungeon(tables(), tiles, dirs, start, stop, rules, move) == \
        (lost_at, code, last)


def test_a_dungeon_longer_than_the_grid_is_left_to_python() -> None:
    n = MAX_TILES + 1
    assert _c.trace_dungeon(tables(), (0,) * n, (0,) * n, 0, n, 0, 0) is None
    assert _c.trace_dungeon(tables(), (0,) * n, (0,) * n, 1, n, 0, 0) is not None


def rule_both(log: Any) -> None:
    """The ruling on ``log`` is the same with the C tracer and without it (or so is the
    error)."""
    def rule() -> Ruling | tuple[str, str]:
        try:
            return solo.rule_solo(log, source="solo")
        except RecordError as exc:
            return exc.pointer, exc.message

    with_c = rule()
    with mock.patch.object(solo, "_c_tracer", lambda: None):
        without = rule()
    assert with_c == without
    if isinstance(with_c, Ruling) and isinstance(without, Ruling):
        assert with_c.to_dict() == without.to_dict()


def test_the_extension_is_used() -> None:
    assert solo._c_tracer() is not None


@pytest.mark.parametrize("name", SOLO_FIXTURES)
def test_every_solo_fixture(name: str) -> None:
    rule_both(load(name))


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sets(st.sampled_from([2, 3, 4])), SPOILS)
def test_random_play(rng: random.Random, rules: set[int], spoil: list[tuple[int, str]]) -> None:
    rule_both(spoilt_play(rng, rules, spoil))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_mutated_records(data: st.DataObject) -> None:
    rule_both(mutated(data))


# --- argument misuse ------------------------------------------------------------------------

GOOD = ((0, 1, 2), (0, 0, 0), 0, 3, 0, 0)


@pytest.mark.parametrize("change", [
    {2: -1}, {2: 4}, {3: 2, 2: 3}, {3: 4}, {3: -1},       # start / stop outside the run
    {4: -1}, {4: 32}, {4: 1 << 40},                       # rules past the mask
    {5: -1}, {5: 4}, {5: 1 << 40},                        # no movement
    {1: (0, 0)},                                          # tiles and dirs of other lengths
    {0: (0, 1, 999)}, {0: (0, -1, 2)}, {0: (0, 1 << 70, 2)},  # tile numbers past the tables
    {1: (0, 4, 0)}, {1: (0, -1, 0)},                      # arrows that are no direction
])
def test_trace_dungeon_refuses_values_out_of_range(change: dict[int, Any]) -> None:
    args = list(GOOD)
    for i, value in change.items():
        args[i] = value
    with pytest.raises((ValueError, OverflowError)):
        _c.trace_dungeon(tables(), *args)


@pytest.mark.parametrize("change", [
    {0: [0, 1, 2]}, {1: [0, 0, 0]}, {0: (0, "1", 2)}, {1: (0, 0.0, 0)}, {0: None},
    {2: "0"}, {4: None},
])
def test_trace_dungeon_refuses_other_types(change: dict[int, Any]) -> None:
    args = list(GOOD)
    for i, value in change.items():
        args[i] = value
    with pytest.raises(TypeError):
        _c.trace_dungeon(tables(), *args)


def test_trace_dungeon_refuses_a_foreign_capsule_and_missing_arguments() -> None:
    with pytest.raises(ValueError):
        _c.trace_dungeon(object(), *GOOD)
    with pytest.raises(TypeError):
        _c.trace_dungeon(tables(), *GOOD[:-1])


def test_trace_dungeon_checks_only_the_dungeon_it_traces() -> None:
    # Items outside [start:stop] are not read: the caller's run may hold anything there.
    assert _c.trace_dungeon(tables(), (0, 1, 999), (0, 0, 9), 0, 2, 0, 0) is not None
