"""The plain Memoarrr! reader agrees with the reference one.

:func:`~pathcheck.games.memoarrr.plain.read_plain` may give up on any log (then
:func:`~pathcheck.games.memoarrr.log.read_log` reads it and words the error), but what it
accepts it must read exactly as ``read_log`` does, and it must accept every well-formed log the
project writes (fixtures, random games, rule-breaking ones), or it would save nothing.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.games.memoarrr.log import Setup, read_log
from pathcheck.games.memoarrr.notation import follow
from pathcheck.games.memoarrr.plain import read_plain
from pathcheck.games.memoarrr.rules import POSITIONS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memoarrr"
JSON_FIXTURES = sorted(p.name for p in FIXTURES.glob("*.json"))


def reference(log: Any) -> Setup | None:
    try:
        return read_log(log, source="test")
    except RecordError:
        return None


def agree(log: Any) -> Setup | None:
    """read_plain's Setup, after checking it is read_log's (None: it gave up)."""
    plain = read_plain(log)
    if plain is not None:
        assert plain == reference(log)
    return plain


@pytest.mark.parametrize("name", JSON_FIXTURES)
def test_fixtures(name: str) -> None:
    log = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    plain = agree(log)
    if name.startswith("malformed-"):
        assert plain is None
    else:
        assert plain is not None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from([2018, 2023]), st.booleans(),
       st.booleans())
def test_random_games(seed: int, players: int, edition: int, expert: bool, ordered: bool) -> None:
    log = random_game(random.Random(seed), players=players, edition=edition, expert=expert,
                      ordered_stack=ordered)
    assert agree(log) is not None


_BASE = [random_game(random.Random(s), players=p, edition=e, expert=True, skill=0.9)
         for s, p, e in ((11, 2, 2018), (12, 3, 2023), (13, 4, 2018), (14, 4, 2023))]
del _BASE[0]["rounds"][2:]  # an unfinished log (it rules, unfinished), with unseen cards
_SEEN = {o for row in follow(_BASE[0]["rounds"]) for o in row}
_UNSEEN = next(p for p in POSITIONS if str(p) not in _SEEN)
_BASE[0]["island"][_UNSEEN.row][_UNSEEN.col] = None  # a card nobody saw
_BASE[0]["variants"] = {"expert": True}
_BASE[1]["comment"] = "a comment"
_BASE[1]["rounds"][0]["comment"] = "round one"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 8) | st.floats(allow_nan=False)
    | st.sampled_from(["", "dark", "light", "Ann", "Ben", "Zed", "A1", "C3", "E5", "F1", "c3",
                       "crab/lava", "crab/ocean", "turtle/water", "north", "memoarrr/1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["player", "reveal", "swap", "mark", "peek", "volcano", "x"]), inner,
        max_size=3),
    max_leaves=6,
)


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every list and object in ``value``, the top one first."""
    found = [path]
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(item, dict | list):
            found.extend(_containers(item, (*path, key)))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_logs(data: st.DataObject) -> None:
    log = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    for _ in range(data.draw(st.integers(1, 3))):
        holder = _at(log, data.draw(st.sampled_from(_containers(log))))
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        op = data.draw(st.sampled_from(["set", "drop", "add", "copy"]))
        if op == "set" and keys:
            holder[data.draw(st.sampled_from(keys))] = data.draw(json_values)
        elif op == "drop" and keys:
            holder.pop(data.draw(st.sampled_from(keys)))
        elif op == "add":
            if isinstance(holder, dict):
                key = data.draw(st.sampled_from(
                    ["player", "reveal", "swap", "mark", "peek", "volcano", "variants",
                     "comment", "x"]))
                holder[key] = data.draw(json_values)
            else:
                holder.insert(data.draw(st.integers(0, len(holder))), data.draw(json_values))
        elif op == "copy" and keys:  # a valid value in the wrong place, or twice
            a, b = data.draw(st.sampled_from(keys)), data.draw(st.sampled_from(keys))
            holder[a] = copy.deepcopy(holder[b])
    agree(log)


def test_bases_are_read_plainly() -> None:
    assert all(agree(log) is not None for log in _BASE)


def test_ocean_is_water() -> None:
    """The 2018 name of water is read plainly too, as the same card."""
    log = copy.deepcopy(_BASE[2])
    row, col = next((r, c) for r, cards in enumerate(log["island"])
                    for c, card in enumerate(cards) if card and card.endswith("/water"))
    log["island"][row][col] = log["island"][row][col].replace("/water", "/ocean")
    plain = agree(log)
    assert plain is not None and plain == read_plain(_BASE[2])
