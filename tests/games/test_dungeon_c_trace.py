"""The C tracer of game/1 stacks (``_speedups.trace_stack``) against the Python path.

The whole Ruling of a log must be the same with the C tracer and without it: on every dungeon
fixture, on random games and on mutated ones; and the Lost point of any stack, with any rules.
Every misuse of ``trace_stack`` is an exception or a None (trace it in Python), never a read
outside a buffer (.ci/sanitize runs this file under ASan and UBSan).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games.dungeon import state
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR, rule_game_python
from pathcheck.tracer.dungeon import Placement
from pathcheck.tracer.fast import compile_tileset
from pathcheck.tracer.geometry import Direction
from pathcheck.tracer.tileset import load_tileset

TRACER = state.c_tracer()
pytestmark = pytest.mark.skipif(TRACER is None, reason="the C extension is not built")
FIXTURES = Path(__file__).parents[2] / "fixtures" / "dungeon"
TILES = sorted(t.id for t in load_tileset())
COMPILED = compile_tileset(load_tileset())


@contextmanager
def tracing_with(tracer: Any) -> Iterator[None]:
    """Replays made inside trace with ``tracer`` (None: in Python)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(state, "_setups", {})  # the setups hold the tracer
        patch.setattr(state, "c_tracer", lambda: tracer)
        yield


def ruling(log: Any) -> Any:
    """The ruling as a dict, or the RecordError's text."""
    try:
        return rule_game_python(log, source="log").to_dict()
    except RecordError as exc:
        return str(exc)


def assert_same(log: Any) -> None:
    with tracing_with(TRACER):
        with_c = ruling(log)
    with tracing_with(None):
        assert ruling(log) == with_c


def game_logs() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.json")
                  if json.loads(p.read_text("utf-8")).get("format", "game/1") == "game/1")


@pytest.mark.parametrize("path", game_logs(), ids=lambda p: p.name)
def test_every_fixture_rules_the_same(path: Path) -> None:
    assert_same(json.loads(path.read_text("utf-8")))


def test_the_replay_uses_the_c_tracer() -> None:
    calls: list[Any] = []

    def counting(placements: list[Placement], rules: int) -> Any:
        got = TRACER(placements, rules)  # type: ignore[misc]
        calls.append(got)
        return got

    with tracing_with(counting):
        rule_game_python(ADJUDICATOR.random_game(random.Random(1)), source="log")
    assert calls and all(got is not None for got in calls)


def mutate(log: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``log`` with a few random changes a table could make (or a typist)."""
    log = copy.deepcopy(log)
    for _ in range(rng.randint(1, 4)):
        exp = rng.choice(log["explorations"])
        turns = exp["turns"]
        what = rng.randrange(7)
        if what == 0 and turns:
            rng.choice(turns)["dir"] = rng.choice("NESW")
        elif what == 1 and turns:
            rng.choice(turns)["tile"] = rng.choice(TILES)
        elif what == 2 and turns:
            del turns[rng.randrange(len(turns))]
        elif what == 3 and turns:
            turns.append(copy.deepcopy(rng.choice(turns)))  # a tile laid twice
        elif what == 4 and turns:
            rng.choice(turns)["lost"] = rng.sample(log["players"], rng.randint(0, 2))
        elif what == 5:
            log["rules"] = sorted(set(rng.sample([1, 2, 3], rng.randint(0, 3))))
        else:
            turns.extend(copy.deepcopy(turns))  # a long stack
    return log


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_and_mutated_games_rule_the_same(seed: int) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    assert_same(log)
    assert_same(mutate(log, rng))


placements = st.lists(st.builds(Placement, st.sampled_from(TILES), st.sampled_from(Direction)),
                      max_size=80)


@settings(max_examples=300, deadline=None)
@given(placements, st.integers(0, 15))
def test_any_stack_has_the_same_lost_point(stack: list[Placement], rules: int) -> None:
    expected = state.lost_point(stack, COMPILED, rules)
    got = TRACER(stack, rules)  # type: ignore[misc]
    if len(stack) > 64:
        assert got is None
    else:
        assert got == expected
    assert state.lost_point(stack, COMPILED, rules, TRACER) == expected


# --- misuse --------------------------------------------------------------------------------

def _c() -> Any:
    from pathcheck import speedups

    return speedups._speedups


def _tables() -> object:
    from pathcheck import speedups

    return speedups.make_tables(load_tileset())


TABLES = "the tables"  # stands for _tables() in the parameters (made only when C is built)


class Odd:
    def __init__(self, tile: Any, dir: Any) -> None:
        self.tile, self.dir = tile, dir


@pytest.mark.parametrize("args", [
    (),
    (None, [], 0),
    ("not a capsule", [], 0),
    (TABLES, (Placement("START", Direction.N),), 0),   # a tuple, not a list
    (TABLES, [], "0"),
    (TABLES, [object()], 0),                           # no tile
    (TABLES, [Odd("START", "N")], 0),                  # a dir that is no int
    (TABLES, [Odd("START", 4)], 0),
    (TABLES, [Odd("START", -1)], 0),
    (TABLES, [Odd("START", 2**80)], 0),
])
def test_misuse_is_an_exception(args: tuple[Any, ...]) -> None:
    with pytest.raises((TypeError, ValueError, AttributeError, OverflowError)):
        _c().trace_stack(*(_tables() if a is TABLES else a for a in args))


@pytest.mark.parametrize("stack", [
    [Odd("nope", 0)],                        # a tile the tables do not know
    [Odd(7, 0)],                             # a tile that is no str
    [Odd("START", 0)] * 65,                  # longer than the C tracer takes
])
def test_what_c_does_not_take_is_none(stack: list[Any]) -> None:
    assert _c().trace_stack(_tables(), stack, 0) is None


def test_a_list_changed_while_read() -> None:
    stack: list[Any] = []

    class Shrinking:
        dir = 0

        @property
        def tile(self) -> str:
            stack.clear()
            return "START"

    stack += [Shrinking(), Shrinking(), Shrinking()]
    with pytest.raises(ValueError, match="changed size"):
        _c().trace_stack(_tables(), stack, 0)
