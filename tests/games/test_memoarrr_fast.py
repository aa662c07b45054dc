"""The C fast path of Memoarrr! rules as the Python path does, or declines.

:func:`~pathcheck.games.memoarrr.fast.fast_ruling` (C reading and replay, Python wording) must
give the very Ruling :meth:`~MemoarrrAdjudicator.rule_python` gives, or None; it must not
decline the clean logs the project writes, nor the illegal ones whose moves it replays
through their faults (``memoarrr_lenient``: or it would save nothing), and it must decline
every log with an error (the Python path words it). The strict trace (``fast.trace``, which
the analysis marks) still declines every log with a fault. Run under ASan/UBSan by
.ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.adjudicator import ADJUDICATOR
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.games.memoarrr.rules import ALL_CARDS, POSITIONS, Animal, Landscape
from pathcheck.ruling import Ruling, TreasureFact, VolcanoFact

from ..test_speedups import BUILT, REQUIRED
from .test_memoarrr_plain import _BASE, _at, _containers, json_values

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memoarrr"
JSON_FIXTURES = sorted(p.name for p in FIXTURES.glob("*.json"))
built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")


def python_ruling(log: Any) -> Ruling | None:
    try:
        return ADJUDICATOR.rule_python(log, source="test")
    except RecordError:
        return None


def agree(log: Any) -> Ruling | None:
    """The fast path's Ruling, after checking it is the Python path's (None: it declined)."""
    ruling = fast.fast_ruling(log, source="test")
    if ruling is not None:
        reference = python_ruling(log)
        assert reference is not None and ruling.to_dict() == reference.to_dict()
        assert ruling == reference
        assert ruling.to_json() == reference.to_json()  # the same bytes, facts included
    return ruling


def test_card_numbers_are_animal_and_landscape() -> None:
    """memoarrr.c reads a card's number as animal * 5 + landscape, in the enums' order."""
    assert list(Animal)[:4] == [Animal.PENGUIN, Animal.OCTOPUS, Animal.CRAB, Animal.WALRUS]
    for number, card in enumerate(ALL_CARDS):
        assert card.animal is list(Animal)[number // 5]
        assert card.landscape is list(Landscape)[number % 5]
    assert set(fast.CARD_NUMBERS.values()) == set(range(len(ALL_CARDS)))


@built
@pytest.mark.parametrize("name", JSON_FIXTURES)
def test_fixtures(name: str) -> None:
    log = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    ruling = agree(log)
    if name.startswith("legal-") and "treasures" in log:
        assert ruling is not None
        kinds = {type(e.fact) for r in ruling.rounds for e in r.events}
        assert {TreasureFact, VolcanoFact} <= kinds  # facts as fields, from C too
    elif name.startswith("legal-"):  # the C path scores with the stack: it declines
        assert ruling is None and python_ruling(log) is not None
    elif name.startswith("illegal-"):  # replayed through its faults, worded in Python
        assert ruling is not None and ruling.violations
        assert fast.trace(log) is None  # the strict trace declines it
    else:  # an error: the Python path words it
        assert ruling is None


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from([2018, 2023]), st.booleans(),
       st.booleans(), st.integers(0, 7))
def test_random_games(seed: int, players: int, edition: int, expert: bool, ordered: bool,
                      keep: int) -> None:
    log = random_game(random.Random(seed), players=players, edition=edition, expert=expert,
                      ordered_stack=ordered)
    del log["rounds"][keep:]  # a log that ends early is ruled on too
    if keep and keep < 7:  # and one whose last round stops half way
        actions = log["rounds"][-1]["actions"]
        del actions[random.Random(seed).randrange(len(actions)):]
    assert agree(log) is not None


@built
def test_bases_are_taken() -> None:
    """Unseen cards, comments, an unfinished round: still the fast path."""
    assert all(agree(log) is not None for log in _BASE)


def _move_mutation(data: st.DataObject, log: dict[str, Any]) -> None:
    """A change to one move: another position, player or ability, or moves reordered."""
    rounds = log["rounds"]
    if not rounds:
        return
    actions = data.draw(st.sampled_from(rounds))["actions"]
    if not actions:
        return
    i = data.draw(st.integers(0, len(actions) - 1))
    op = data.draw(st.sampled_from(["pos", "player", "ability", "swap-order", "drop"]))
    names = [str(p) for p in POSITIONS] + ["C3"]
    if op == "pos" and "reveal" in actions[i]:
        actions[i]["reveal"] = data.draw(st.sampled_from(names))
    elif op == "player":
        actions[i]["player"] = data.draw(st.sampled_from(log["players"]))
    elif op == "ability":
        key = data.draw(st.sampled_from(["swap", "mark", "peek"]))
        if key in actions[i] and data.draw(st.booleans()):
            del actions[i][key]
        else:
            actions[i][key] = data.draw(st.sampled_from(names))
    elif op == "swap-order":
        j = data.draw(st.integers(0, len(actions) - 1))
        actions[i], actions[j] = actions[j], actions[i]
    elif op == "drop":
        del actions[i]


@built
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_logs(data: st.DataObject) -> None:
    agree(mutated_log(data))


def mutated_log(data: st.DataObject) -> dict[str, Any]:
    """A base log with a few moves changed, then a few values anywhere replaced by any JSON
    value or removed (the hostile logs the C and Python paths must agree on)."""
    log: dict[str, Any] = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    for _ in range(data.draw(st.integers(0, 3))):  # moves first, while the log is whole
        _move_mutation(data, log)
    for _ in range(data.draw(st.integers(0, 2))):
        holder = _at(log, data.draw(st.sampled_from(_containers(log))))
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        replace: bool = data.draw(st.booleans())
        if keys and replace:
            holder[data.draw(st.sampled_from(keys))] = data.draw(json_values)
        elif keys:
            holder.pop(data.draw(st.sampled_from(keys)))
    return log


@built
def test_a_faulty_log_is_ruled_through_its_faults() -> None:
    log = copy.deepcopy(_BASE[1])
    actions = log["rounds"][0]["actions"]
    actions[0], actions[1] = actions[1], actions[0]  # out of turn
    assert fast.trace(log) is None  # the strict trace declines it
    ruling = agree(log)
    assert ruling is not None and ruling.violations
    assert ruling == ADJUDICATOR.adjudicate(log, source="test", options=AdjudicateOptions())


def faulty_log(data: st.DataObject) -> dict[str, Any]:
    """A random legal game with several moves changed (most then break a rule, often
    several, some fatally) and rounds dropped or repeated."""
    log = random_game(random.Random(data.draw(st.integers(0, 2**32))),
                      players=data.draw(st.integers(2, 4)),
                      edition=data.draw(st.sampled_from([2018, 2023])),
                      expert=data.draw(st.booleans()), ordered_stack=data.draw(st.booleans()))
    for _ in range(data.draw(st.integers(1, 6))):
        _move_mutation(data, log)
    rounds = log["rounds"]
    change = data.draw(st.sampled_from(["none", "none", "extra", "drop", "peeks", "stack"]))
    if change == "extra":  # a round after the game's end, or one begun too early
        rounds.insert(data.draw(st.integers(1, len(rounds))),
                      copy.deepcopy(data.draw(st.sampled_from(rounds))))
    elif change == "drop" and len(rounds) > 1:
        actions = rounds[data.draw(st.integers(0, len(rounds) - 2))]["actions"]
        del actions[data.draw(st.integers(0, max(0, len(actions) - 1))):]  # (may be empty)
    elif change == "peeks":  # two players peek at one side
        names = log["players"]
        log["peeks"][names[-1]] = log["peeks"][names[0]]
    elif change == "stack":
        log["treasures"] = data.draw(st.permutations(log["treasures"]))
    return log


@built
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_faulty_logs(data: st.DataObject) -> None:
    """Illegal logs of every kind: the C replay carries on through the faults and the
    ruling is the Python replay's, byte for byte; it declines none that Python reads."""
    log = faulty_log(data)
    ruling = agree(log)
    assert ruling is not None or python_ruling(log) is None


@built
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_faulty_hostile_logs(data: st.DataObject) -> None:
    """A faulty log with a value anywhere replaced by any JSON value or removed."""
    log = faulty_log(data)
    holder = _at(log, data.draw(st.sampled_from(_containers(log))))
    keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
    replace: bool = data.draw(st.booleans())
    if keys and replace:
        holder[data.draw(st.sampled_from(keys))] = data.draw(json_values)
    elif keys:
        holder.pop(data.draw(st.sampled_from(keys)))
    agree(log)


def test_without_the_extension_the_python_path_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    log = copy.deepcopy(_BASE[2])
    log["rounds"][0]["actions"][:2] = log["rounds"][0]["actions"][1::-1]  # and illegal
    with_c = ADJUDICATOR.adjudicate(log, source="test", options=AdjudicateOptions())
    monkeypatch.setattr(fast, "_replay", None)
    assert fast.fast_ruling(log, source="test") is None
    without = ADJUDICATOR.adjudicate(log, source="test", options=AdjudicateOptions())
    assert without.to_dict() == with_c.to_dict()
    assert without.outcome.value == "illegal"


# --- the C entry point checks its arguments (misuse is an error or None, never a crash) ----

@built
@pytest.mark.parametrize("args", [(), ({},), ({}, {}, 1), ({}, None), ({}, [("a", 1)])])
def test_replay_refuses_bad_arguments(args: tuple[Any, ...]) -> None:
    from pathcheck import _speedups

    with pytest.raises(TypeError):
        _speedups.memoarrr_replay(*args)


@built
@pytest.mark.parametrize("cards", [
    {"x": 0, 5: 1},                                          # a name that is no str
    {**fast.CARD_NUMBERS, "penguin/water": 25},             # numbers past the cards
    {**fast.CARD_NUMBERS, "penguin/water": -1},
    {**fast.CARD_NUMBERS, "penguin/water": 2**70},
    {**fast.CARD_NUMBERS, "penguin/water": True},
    {**fast.CARD_NUMBERS, "penguin/water": "0"},
])
def test_replay_refuses_a_broken_card_table(cards: dict[Any, Any]) -> None:
    from pathcheck import _speedups

    log = copy.deepcopy(_BASE[1])
    assert "penguin/water" in [c for row in log["island"] for c in row]
    with pytest.raises(ValueError):
        _speedups.memoarrr_replay(log, cards)


class _Evil(str):
    """A key that equals a player's name and, when compared, empties the log."""

    log: ClassVar[dict[str, Any]] = {}

    def __hash__(self) -> int:
        return hash(str(self))

    def __eq__(self, other: object) -> bool:
        self.log.clear()
        return str(self) == other


@built
@pytest.mark.parametrize("change", [
    lambda log: 5,
    lambda log: {**log, 7: 1},
    lambda log: {**log, "edition": 2**80},
    lambda log: {**log, "edition": True},
    lambda log: {**log, "players": ["Ann"] * 100},
    lambda log: {**log, "players": [1, 2]},
    lambda log: {**log, "treasures": [2**80] * 7},
    lambda log: {**log, "island": [[None] * 5] * 5 + [[]]},
    lambda log: {**log, "rounds": [{"volcanoes": [2**80], "actions": []}]},
    lambda log: {**log, "rounds": (log["rounds"])[:1] * 9},
    lambda log: {**log, "peeks": {_Evil(p): s for p, s in log["peeks"].items()}},
    lambda log: {**log, "start_player": _Evil(log["start_player"])},
])
def test_replay_declines_odd_logs(change: Any) -> None:
    from pathcheck import _speedups

    log = change(copy.deepcopy(_BASE[1]))
    _Evil.log = log if isinstance(log, dict) else {}
    assert _speedups.memoarrr_replay(log, fast.CARD_NUMBERS) is None
