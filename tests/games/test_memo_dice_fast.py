"""The C replay of memo-dice/1 logs rules as the Python replay does, or declines.

:func:`~pathcheck.games.memo_dice.fast.fast_ruling` (C replay and wording) must give the very
Ruling the Python replay (:func:`rule_python`) gives, byte for byte, or None; it must take the
clean logs the project writes (or it would save nothing), and decline every log with a
violation or an error, which the Python replay words. :func:`fast_scores` (what ``analyse``
takes) must agree with the Python replay's scores, and ``analyse`` of the typed log (which
takes them) with ``analyse`` of the log as read for the Python replay. Compared on fixtures,
random, mutated and hostile logs. Run under ASan/UBSan by .ci/sanitize.
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

from pathcheck import speedups
from pathcheck.analysis.memo_dice import analyse_entry, analyse_read
from pathcheck.errors import RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.memo_dice import fast
from pathcheck.games.memo_dice.adjudicator import ADJUDICATOR, rule_python
from pathcheck.games.memo_dice.gen import random_game
from pathcheck.games.memo_dice.log import LOG_FORMAT, read_log
from pathcheck.games.memo_dice.rules import left_of, same_symbol
from pathcheck.games.memo_dice.state import Replay

from ..fuzz import examples, json_values, mutate
from ..test_speedups import BUILT, REQUIRED

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memo-dice"
built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")


def outcome(rule: Any, log: Any) -> Any:
    """The ruling's JSON bytes, or the RecordError's text."""
    try:
        return rule(log, source="test").to_json()
    except RecordError as exc:
        return str(exc)


def analysed(analyse: Any) -> Any:
    """An analysis's JSON bytes, or the RecordError's text."""
    try:
        return analyse().to_json()
    except RecordError as exc:
        return str(exc)


def adjudicate(log: Any, *, source: str) -> Any:
    return ADJUDICATOR.adjudicate(log, source=source, options=AdjudicateOptions())


def agree(log: Any) -> bool:
    """Whether the C path took ``log``, after checking that the adjudicator (C, then Python)
    and the typed path of a JSON line rule on it byte for byte as the Python replay alone
    does, and that fast_scores agrees with the Python replay."""
    expected = outcome(rule_python, log)
    assert outcome(adjudicate, log) == expected
    try:
        data = msgspec.json.encode(log)
    except (TypeError, msgspec.EncodeError):
        data = None
    if data is not None:
        try:
            decoded = ADJUDICATOR.rule_decoded(data, "memo-dice/1", source="test")
            assert decoded is None or decoded.to_json() == expected
        except RecordError as exc:
            assert str(exc) == expected
    try:
        entry = LOG_FORMAT.read(log, source="test")
    except RecordError:
        return False
    assert analysed(lambda: analyse_entry(entry, source="test")) == analysed(
        lambda: analyse_read(read_log(log, source="test"), source="test"))
    ruling = fast.fast_ruling(entry, source="test")
    scores = fast.fast_scores(entry)
    assert (ruling is None) == (scores is None)
    if ruling is None:
        return False
    reference = rule_python(log, source="test")
    assert ruling == reference
    assert ruling.to_json() == reference.to_json()
    replay = Replay(read_log(log, source="test"), source="test")
    replay.play()
    assert scores == replay.scores and not replay.notes
    return True


@built
@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    log = json.loads(path.read_text("utf-8"))
    taken = agree(log)
    if path.name.startswith("legal-"):
        assert taken  # every legal fixture, unfinished and tied games among them
    else:
        assert not taken  # a violation or an error: the Python replay words it


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.booleans())
def test_random_games_are_taken(seed: int, players: int, with_dice: bool) -> None:
    log = random_game(random.Random(seed), players=players, with_dice=with_dice)
    assert agree(log)


def _mutate(log: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``log`` with a few changes a table (or a typist) could make."""
    log = copy.deepcopy(log)
    players = log["players"]
    for _ in range(rng.randint(1, 3)):
        rnd = rng.choice(log["rounds"])
        kind = rng.randrange(9)
        moves = rnd["covering"] if kind < 5 else rnd["uncovering"]
        if not moves:
            continue
        move = rng.choice(moves)
        if kind == 0:
            move["player"] = rng.choice(players)
        elif kind == 1:
            move["die"] = rng.randint(1, 9)
        elif kind == 2:
            move["cup"] = rng.choice(["red", "blue", "black", "golden"])
        elif kind == 3:
            move["symbol"] = rng.choice([move["symbol"].upper(), " " + move["symbol"],
                                         "anchor", "Ü"])
        elif kind == 4:
            move["colour"] = rng.choice(["red", "blue", "black"])
        elif kind == 5:
            move["guess"] = rng.choice([None, "anchor", "ß", (move["guess"] or "x").title(),
                                        f"  {move['guess']}  "])
        elif kind == 6:
            move["cup"] = rng.randint(1, 11)
        elif kind == 7:
            move["player"] = rng.choice(players)
        else:
            del moves[rng.randrange(len(moves))]
    return log


@built
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_play(seed: int) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    agree(_mutate(log, rng))
    shorter = copy.deepcopy(log)
    del shorter["rounds"][rng.randrange(1, len(shorter["rounds"]) + 1):]
    assert agree(shorter)  # a game not over yet: no violation, a note (words in Python)
    longer = copy.deepcopy(log)
    longer["rounds"].append(copy.deepcopy(log["rounds"][-1]))
    assert not agree(longer)  # a round after the end


@built
def test_symbols_compared_as_the_rules_say() -> None:
    """Answers that differ from the symbol in case and spacing only are right, in C too
    (ASCII in C, anything else through rules.same_symbol); other answers are wrong."""
    log = random_game(random.Random(11), players=3, with_dice=False)
    rnd = log["rounds"][0]
    for roll, symbol in zip(rnd["covering"], ["Cooling fan", "ÉCLAIR", "x\x1fy", "a b",
                                              "straße", "Ǆ", "tab\tbed", "ok", "ok2"],
                            strict=False):
        roll["symbol"] = symbol
    answers = ["cooling   FAN", "éclair", "X y", "ab", "STRASSE", "ǆ", " TAB bed ", "OK",
               "ok 2"]
    for guess, answer in zip(rnd["uncovering"], answers, strict=False):
        guess["guess"] = answer
    agree(log)
    ruling = adjudicate(log, source="test")
    rights = [e.fact.right for e in ruling.rounds[0].events
              if type(e.fact).__name__ == "CupFact"]
    assert rights[:2] == [True, True]


SYMBOL_TEXT = st.text(alphabet="aAbBzZ \t\n\x0b\x1c\x1f\x85\xa0éÉß", min_size=1, max_size=6)


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.tuples(SYMBOL_TEXT, SYMBOL_TEXT), min_size=1,
                                           max_size=9))
def test_answers_compare_as_same_symbol(seed: int, pairs: list[tuple[str, str]]) -> None:
    """Symbols and answers that differ in case, spaces (ASCII and not) or letters: C's
    comparison (ASCII) and rules.same_symbol agree, so the rulings do."""
    log = random_game(random.Random(seed), players=3, with_dice=False)
    rnd = log["rounds"][0]
    log["rounds"] = [rnd]  # (who begins the next round would change)
    for roll, guess, (symbol, answer) in zip(rnd["covering"], rnd["uncovering"], pairs,
                                             strict=False):
        roll["symbol"], guess["guess"] = symbol, answer
    expected = rnd["covering"][-1]["player"]  # each answer by the player whose turn it is
    for roll, guess in zip(rnd["covering"], rnd["uncovering"], strict=True):
        guess["player"] = expected
        if guess["guess"] is None or not same_symbol(guess["guess"], roll["symbol"]):
            expected = left_of(tuple(log["players"]), expected)
    assert agree(log)  # a clean log: C's comparison must be same_symbol's, or the rulings differ


WORDS = ("Ann", "Bob", "Cy", "Dee", "red", "blue", "black", "golden", "memo-dice/1", "",
         "\x00", "é", "anchor", "turtle", "Anchor ")
KEYS = ("format", "players", "rounds", "dice", "covering", "uncovering", "player", "die",
        "symbol", "colour", "cup", "guess", "comment")


@built
@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = ADJUDICATOR.random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree(log)


@built
def test_odd_values_are_declined() -> None:
    """A str subclass, a player not at the table, players named twice, a symbol on two dice,
    entries no decoder makes: None (the Python path rules or words the error)."""

    class Name(str):
        pass

    log = random_game(random.Random(2), players=3, with_dice=True)
    entry = LOG_FORMAT.read(log, source="test")
    assert fast.fast_ruling(entry, source="test") is not None
    odd = [msgspec.structs.replace(entry, players=tuple(Name(p) for p in entry.players)),
           msgspec.structs.replace(entry, players=(*entry.players[:-1], entry.players[0])),
           msgspec.structs.replace(entry, players=entry.players[:-1])]
    dice = entry.dice
    assert not isinstance(dice, msgspec.UnsetType)
    twice = (tuple((dice[1][0], *dice[0][1:])), *dice[1:])
    odd.append(msgspec.structs.replace(entry, dice=twice))
    for one in odd:
        assert fast.fast_ruling(one, source="test") is None
        assert fast.fast_scores(one) is None
    call = speedups._speedups.memo_dice_replay
    for rounds in [(object(),), (), tuple(entry.rounds) * 2]:
        assert call(rounds, entry.players, None, fast._KIT, 20, True) is None


@built
def test_lone_surrogates_are_declined() -> None:
    """A name, symbol or answer with no UTF-8 form (a lone surrogate, as a Python caller may
    hand over): declined, never an exception; the Python replay words it."""
    log = random_game(random.Random(6), players=2, with_dice=False)
    entry = LOG_FORMAT.read(log, source="test")
    rnd = entry.rounds[0]
    changes: list[dict[str, Any]] = [
        {"players": ("\ud800", entry.players[1])},
        {"rounds": (msgspec.structs.replace(rnd, covering=(msgspec.structs.replace(
            rnd.covering[0], symbol="\udfff"), *rnd.covering[1:])), *entry.rounds[1:])},
        {"rounds": (msgspec.structs.replace(rnd, uncovering=(msgspec.structs.replace(
            rnd.uncovering[0], guess="x\ud800"), *rnd.uncovering[1:])), *entry.rounds[1:])},
    ]
    for change in changes:
        odd = msgspec.structs.replace(entry, **change)
        assert fast.fast_ruling(odd, source="test") is None
        assert fast.fast_scores(odd) is None


@built
@pytest.mark.parametrize("change", [
    {3: ()},                        # a kit too short
    {3: "kit"},
    {3: "cache"},                   # a cache that is not a dict
    {3: "type"},                    # a log type that is not a type
    {0: []},                        # rounds not a tuple
    {1: ["Ann", "Bob"]},
    {4: "20"},
])
def test_misuse_is_an_exception(change: dict[int, Any]) -> None:
    entry = LOG_FORMAT.read(random_game(random.Random(4), players=2), source="test")
    args: list[Any] = [entry.rounds, entry.players, None, fast._KIT, 20, True]
    for at, value in change.items():
        if value == "cache":
            value = (*fast._KIT[:16], [], *fast._KIT[17:])
        elif value == "type":
            value = (*fast._KIT[:-1], "FaceEntry")
        args[at] = value
    with pytest.raises((TypeError, ValueError)):
        speedups._speedups.memo_dice_replay(*args)


@built
def test_the_caches_stay_small() -> None:
    """Many distinct symbols: the C side clears a cache that grew past its bound."""
    covers = fast._KIT[16]
    for n in range(40):
        log = random_game(random.Random(n), players=2, with_dice=False)
        for r, rnd in enumerate(log["rounds"]):
            for k, roll in enumerate(rnd["covering"]):
                roll["symbol"] = f"s{n}-{r}-{k}" * 3
            for guess in rnd["uncovering"]:
                guess["guess"] = None
        agree(log)
    assert len(covers) <= 4096 + 100
