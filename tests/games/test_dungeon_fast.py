"""The C replay of game/1 logs rules as the Python replay does, or declines.

:func:`~pathcheck.games.dungeon.fast.fast_ruling` (C replay, Python wording) must give the very
Ruling the Python replay (:func:`rule_game_python`) gives, byte for byte, or None; it must
take the clean logs the project writes (or it would save nothing), and decline every log with
a violation, a note or an error, which the Python replay words. Compared on fixtures, random
games (rule #1 priority among them), mutated, deal-less and hostile logs. Run under ASan/UBSan
by .ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games.dungeon import fast
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR, rule_game, rule_game_python
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.dungeon.log import GAME_LOG
from pathcheck.ruling import VoidAnnouncementFact
from pathcheck.tracer.tileset import load_tileset

from ..fuzz import dungeon_games, examples, json_values, mutate
from ..test_speedups import BUILT, REQUIRED
from . import test_dealless_exact as dealless
from .test_dungeon_c_trace import mutate as mutate_play
from .test_unseen import without_deal

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dungeon"
built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")
TILES = sorted(t.id for t in load_tileset())


def outcome(rule: Any, log: Any) -> Any:
    """The ruling's JSON bytes, or the RecordError's text."""
    try:
        return rule(log, source="test").to_json()
    except RecordError as exc:
        return str(exc)


def agree(log: Any) -> bool:
    """Whether the C path took ``log``, after checking that the adjudicator (C, then Python)
    rules on it byte for byte as the Python replay alone does."""
    assert outcome(rule_game, log) == outcome(rule_game_python, log)
    try:
        entry = GAME_LOG.read(log, source="test")
    except RecordError:
        return False
    ruling = fast.fast_ruling(entry, source="test")
    if ruling is None:
        return False
    reference = rule_game_python(log, source="test")
    assert ruling == reference
    assert ruling.to_json() == reference.to_json()
    return True


def game_fixtures() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.json")
                  if json.loads(p.read_text("utf-8")).get("format", "game/1") == "game/1")


@built
@pytest.mark.parametrize("path", game_fixtures(), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    log = json.loads(path.read_text("utf-8"))
    taken = agree(log)
    if not path.name.startswith("legal-"):
        assert not taken  # a violation or an error: the Python replay words it


@built
@settings(max_examples=60, deadline=None)
@given(dungeon_games())
def test_random_games_are_taken(log: dict[str, Any]) -> None:
    assert agree(log)


@built
def test_rule_1_priority_is_taken() -> None:
    """Void announcements (both ways: simultaneous and one after the other) come from C."""
    by = set()
    for seed in range(300):
        log = random_game(random.Random(seed), players=4, rules=[1])
        assert agree(log)
        ruling = rule_game(log, source="test")
        by |= {e.fact.by for r in ruling.rounds for e in r.events
               if isinstance(e.fact, VoidAnnouncementFact)}
    assert by == {"first", "turn-order"}


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_play(seed: int) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    agree(mutate_play(log, rng))
    shorter = copy.deepcopy(log)
    del shorter["explorations"][rng.randrange(len(shorter["explorations"])):]
    if shorter["explorations"]:
        assert not agree(shorter)  # the game does not end: a violation
    longer = copy.deepcopy(log)
    longer["explorations"].append(copy.deepcopy(log["explorations"][-1]))
    assert not agree(longer)  # an exploration after the end


@built
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(dealless.MUTATIONS),
       st.sampled_from(dealless.STRIPS))
def test_mutated_and_dealless(seed: int, kind: str, keep: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    dealless.mutate(log, kind, rng)
    agree(log)
    assert not agree(without_deal(log, keep))  # a deal left out is a note: Python words it


WORDS = ("Ann", "Bob", "Cy", "Dee", "N", "E", "S", "W", "START", "game/1", "standard", "",
         "\x00", "é", *TILES[:8])
KEYS = ("format", "players", "explorations", "start_player", "hands", "deck", "turns",
        "player", "tile", "dir", "draw", "lost", "simultaneous", "rules", "advanced", "note")


@built
@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = ADJUDICATOR.random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree(log)


@built
def test_a_str_subclass_or_odd_entry_is_declined_or_agrees() -> None:
    """Names that are str subclasses and a tile set named outright: the Python replay rules."""

    class Name(str):
        pass

    log = random_game(random.Random(2), players=3)
    odd = copy.deepcopy(log)
    odd["tileset"] = "standard"
    assert not agree(odd)
    entry = GAME_LOG.read(log, source="test")
    assert fast.fast_ruling(entry, source="test") is not None
    renamed = msgspec.structs.replace(entry, players=tuple(Name(p) for p in entry.players))
    assert fast.fast_ruling(renamed, source="test") is None


@built
@pytest.mark.parametrize("change", [
    {0: None},                      # no tables
    {1: []},                        # a list, not a tuple
    {3: b"\x01"},                   # in_play of the wrong size
    {9: ("START@N",)},              # too few tokens
    {9: "tokens"},
    {9: "not a str"},               # a token that is no str
    {10: 0},                        # no tokens a line
    {8: None, 11: "one too many"},
])
def test_misuse_is_an_exception(change: dict[int, Any]) -> None:
    from pathcheck import speedups

    setup = fast._setup(False)
    args: list[Any] = [setup.tables, (), ("Ann", "Bob"), setup.in_play, setup.start,
                       setup.size, 0, 0, None, setup.tokens, 10]
    for at, value in change.items():
        if value == "not a str":
            value = (*setup.tokens[:-1], 7)
        if at == len(args):
            args.append(value)
        else:
            args[at] = value
    with pytest.raises((TypeError, ValueError)):
        speedups._speedups.dungeon_replay(*args)
    with pytest.raises(TypeError):
        speedups._speedups.dungeon_replay()  # type: ignore[call-arg]


@built
def test_odd_explorations_are_declined() -> None:
    """Values no decoder makes (objects without the fields, odd types) never crash the C
    side: an AttributeError or a None."""
    from pathcheck import speedups

    setup = fast._setup(False)
    call = speedups._speedups.dungeon_replay
    args = (setup.in_play, setup.start, setup.size, 0, 0, None, setup.tokens, 10)
    assert call(setup.tables, (), ("Ann", "Bob"), *args) == ()
    with pytest.raises(AttributeError):
        call(setup.tables, (object(),), ("Ann", "Bob"), *args)
    entry = GAME_LOG.read(random_game(random.Random(1), players=2), source="t")
    exp = entry.explorations[0]
    changes: list[dict[str, Any]] = [{"hands": {}}, {"deck": ("R1",) * 300}, {"turns": [1]},
                                     {"start_player": 3}]
    for change in changes:
        odd = msgspec.structs.replace(exp, **change)
        try:
            got = call(setup.tables, (odd,), entry.players, *args)
        except AttributeError:
            continue
        assert got is None
    assert call(setup.tables, entry.explorations, ("Ann",), *args) is None
    odd_players: Any = ("Ann", 7)
    assert call(setup.tables, entry.explorations, odd_players, *args) is None


def _word_args(traced: Any, players: tuple[str, ...]) -> list[Any]:
    from pathcheck.games.dungeon.rules import WIN_POINTS
    from pathcheck.games.dungeon.state import _LOST_AT
    from pathcheck.ruling import DungeonFact, Event, GameEndFact, Round

    return [traced, players, Event, Round, {}, {}, fast._word, fast._priority, GameEndFact,
            WIN_POINTS, DungeonFact, _LOST_AT, fast._setup(False).tokens]


@built
def test_word_misuse_is_an_exception_or_none() -> None:
    """dungeon_word on what dungeon_replay never gives: an exception, never a crash."""
    from pathcheck import speedups

    call = speedups._speedups.dungeon_word
    entry = GAME_LOG.read(random_game(random.Random(4), players=3), source="t")
    setup = fast._setup(False)
    traced = speedups._speedups.dungeon_replay(
        setup.tables, entry.explorations, entry.players, setup.in_play, setup.start,
        setup.size, 0, 0, msgspec.UNSET, setup.tokens, 10)
    assert traced is not None
    players = entry.players
    assert call(*_word_args(traced, players))
    one = list(traced[0])
    bad: list[tuple[Any, ...]] = [
        (),                                         # a tuple too short
        (*one[:12], ((7, 0, 0, 0),)),               # a seat out of range
        (*one[:12], ((0, 9, 0, 0),)),               # an outcome kind out of range
        (one[0], one[1], one[2], 5, *one[4:]),      # an end kind out of range
        (*one[:7], 99, *one[8:]),                   # a reason code out of range
        (*one[:6], 3, one[7], one[8], 4000, *one[10:]),  # a token out of range
        (*one[:10], 7, *one[11:]),                  # a display that is no str
        (*one[:12], [(0, 0, 0, 0)]),                # outcomes in a list
    ]
    for exploration in bad:
        with pytest.raises((TypeError, ValueError)):
            call(*_word_args((tuple(exploration),), players))
    with pytest.raises((TypeError, ValueError)):
        call(*_word_args(traced, ("Ann",)))
    with pytest.raises(TypeError):
        call(*_word_args(traced, ("Ann", 7)))  # type: ignore[arg-type]
    args = _word_args(traced, players)
    args[6] = lambda name, code: "not a tuple"
    with pytest.raises(TypeError):
        call(*args)
    args[6] = lambda name, code: 1 / 0
    with pytest.raises(ZeroDivisionError):
        call(*args)
    with pytest.raises(TypeError):
        call()  # type: ignore[call-arg]
    # a game that ends before its last exploration: declined
    assert call(*_word_args((*traced, traced[-1]), players)) is None
