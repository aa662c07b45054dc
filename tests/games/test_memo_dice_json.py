"""Memo Dice's rulings and analyses written as JSON in C are the bytes msgspec writes of the
Python replay's values.

``adjudicate --format json|jsonl`` asks the adjudicator's ``rule_decoded`` for a ruling only
to be encoded (``for_json``): a clean log's rounds then come as JSON written by
``_speedups.memo_dice_json`` (:func:`~pathcheck.games.memo_dice.fast.fast_json_ruling`), and
``analyse`` asks :func:`~pathcheck.analysis.memo_dice.analyse_entry` the same way
(``_speedups.memo_dice_marks``). Each must encode to the very bytes of the plain Python
replay's ruling and analysis, on fixtures, random, mutated, deal-less, illegal and hostile
logs, and names and symbols that JSON must escape. Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

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
from pathcheck.games.memo_dice import fast
from pathcheck.games.memo_dice.adjudicator import ADJUDICATOR, rule_python
from pathcheck.games.memo_dice.gen import random_game
from pathcheck.games.memo_dice.log import LOG_FORMAT, read_log
from pathcheck.games.memo_dice.rules import same_symbol

from ..fuzz import examples, json_values, mutate
from ..test_speedups import BUILT, REQUIRED
from .test_memo_dice_fast import KEYS, WORDS, _mutate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memo-dice"
built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")


def _plain_ruling(log: Any) -> bytes | str:
    try:
        return rule_python(log, source="test").to_json()
    except RecordError as exc:
        return str(exc)


def _plain_analysis(log: Any) -> bytes | str:
    try:
        return analyse_read(read_log(log, source="test"), source="test").to_json()
    except RecordError as exc:
        return str(exc)


def agree_json(log: Any) -> bool:
    """Whether the C side wrote ``log``'s ruling as JSON (a clean log, or one replayed
    through its faults), after checking that the ruling and the analysis for JSON output
    encode as the plain Python replay's do, byte for byte."""
    expected = _plain_ruling(log)
    try:
        data = msgspec.json.encode(log)
    except (TypeError, msgspec.EncodeError):
        return False
    try:
        decoded = ADJUDICATOR.rule_decoded(data, "memo-dice/1", source="test", for_json=True)
        assert decoded is None or decoded.to_json() == expected
    except RecordError as exc:
        assert str(exc) == expected
    try:
        entry = LOG_FORMAT.read(log, source="test")
    except RecordError:
        return False
    try:
        analysis: bytes | str = analyse_entry(entry, source="test", for_json=True).to_json()
    except RecordError as exc:
        analysis = str(exc)
    assert analysis == _plain_analysis(log)
    clean = fast.fast_ruling(entry, source="test") is not None
    assert (fast.fast_marks(entry) is None) == (not clean)
    ruling = fast.fast_json_ruling(entry, source="test")
    if clean:
        assert ruling is not None
    if ruling is None:
        return False
    assert ruling.to_json() == expected
    assert isinstance(ruling.rounds, msgspec.Raw)
    return True


@built
@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    """Legal and illegal fixtures are written in C (every fault worded from the C replay's
    numbers); malformed ones are the reader's to word."""
    log = json.loads(path.read_text("utf-8"))
    assert agree_json(log) == (not path.name.startswith("malformed-"))


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.booleans())
def test_random_games(seed: int, players: int, with_dice: bool) -> None:
    log = random_game(random.Random(seed), players=players, with_dice=with_dice)
    assert agree_json(log)


TAKEN: list[bool] = []
"""Whether each mutated log was taken by the C side (most are: see test_most_are_taken)."""


@built
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_play(seed: int) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    TAKEN.append(agree_json(_mutate(log, rng)))
    shorter = dict(log, rounds=log["rounds"][:rng.randrange(1, len(log["rounds"]) + 1)])
    assert agree_json(shorter)  # a game not over yet: a note, no winner


@built
def test_most_are_taken() -> None:
    """Mutated logs (a fault or two each, or an error the reader words) mostly go through the
    C replay: it would save nothing if it declined them."""
    rng = random.Random(1)
    taken = [agree_json(_mutate(ADJUDICATOR.random_game(rng), rng)) for _ in range(60)]
    assert sum(taken) >= 40


@built
def test_faults_of_every_kind() -> None:
    """Logs made to break each rule the replay words (with several faults in a round, a
    cup lifted twice, cups never lifted, a round after the game's end, covering that goes on
    after the golden cup or stops without it): taken by the C side, byte for byte."""
    base = random_game(random.Random(21), players=3, with_dice=True)
    cases: list[dict[str, Any]] = []
    for change in range(12):
        log = json.loads(json.dumps(base))
        rnd = log["rounds"][0]
        cov, unc = rnd["covering"], rnd["uncovering"]
        if change == 0:
            cov.append(dict(cov[0]))  # a roll after the golden cup
        elif change == 1:
            cov.pop()  # covering stops without the golden cup
        elif change == 2:
            unc.append(dict(unc[0]))  # a cup lifted twice
        elif change == 3:
            del unc[1:]  # cups never uncovered
        elif change == 4:
            unc.reverse()  # out of order, by the wrong players
        elif change == 5:
            log["rounds"].append(json.loads(json.dumps(log["rounds"][-1])))  # after the end
        elif change == 6:
            for roll in cov:
                roll["cup"] = "red"  # no red cup left, the last die not golden
        elif change == 7:
            cov[0]["symbol"] = cov[0]["symbol"].upper()  # the face found by its key
        elif change == 8:
            cov[0]["colour"] = "blue" if cov[0]["colour"] != "blue" else "red"
        elif change == 9:
            cov[0]["symbol"] = "no such symbol"
        elif change == 10:
            cov[1]["die"] = cov[0]["die"]  # a die rolled twice
        else:
            cov[0]["player"], cov[1]["player"] = cov[1]["player"], cov[0]["player"]
        cases.append(log)
    for log in cases:
        assert agree_json(log)
    unfinished = json.loads(json.dumps(base))
    del unfinished["rounds"][0]["covering"][-1]
    unfinished["rounds"] = unfinished["rounds"][:1]
    assert agree_json(unfinished)


NAME = st.text(alphabet='aZ "\\/\n\t\x00\x1f\x7fé€\u2028𝄞', min_size=1, max_size=5)


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(NAME, min_size=4, max_size=4, unique=True),
       st.lists(NAME, min_size=9, max_size=9))
def test_text_to_escape(seed: int, names: list[str], symbols: list[str]) -> None:
    """Names and symbols with quotes, backslashes, control characters, non-ASCII and
    astral characters: escaped as msgspec escapes them (and the tables padded by length)."""
    log = random_game(random.Random(seed), players=4, with_dice=False)
    rename = dict(zip(log["players"], names, strict=True))
    log["players"] = names
    for rnd in log["rounds"]:
        for guess in rnd["uncovering"]:  # right stays right, wrong stays wrong: still legal
            roll = rnd["covering"][guess["cup"] - 1]
            right = guess["guess"] is not None and same_symbol(guess["guess"], roll["symbol"])
            guess["guess"] = symbols[roll["die"] - 1] if right else None
            guess["player"] = rename[guess["player"]]
        for roll in rnd["covering"]:
            roll["player"] = rename[roll["player"]]
            roll["symbol"] = symbols[roll["die"] - 1]
    assert agree_json(log)


@built
@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = ADJUDICATOR.random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree_json(log)


@built
def test_odd_values_are_declined() -> None:
    """Players named twice, a symbol on two dice, a lone surrogate, entries no decoder
    makes: None from both (the Python path rules or words the error)."""
    log = random_game(random.Random(2), players=3, with_dice=True)
    entry = LOG_FORMAT.read(log, source="test")
    assert fast.fast_json_ruling(entry, source="test") is not None
    dice = entry.dice
    assert not isinstance(dice, msgspec.UnsetType)
    odd = [msgspec.structs.replace(entry, players=(*entry.players[:-1], entry.players[0])),
           msgspec.structs.replace(entry, dice=(tuple((dice[1][0], *dice[0][1:])), *dice[1:])),
           msgspec.structs.replace(entry, players=("\ud800", *entry.players[1:]))]
    for one in odd:
        assert fast.fast_json_ruling(one, source="test") is None
        assert fast.fast_marks(one) is None
    for call in (speedups._speedups.memo_dice_json, speedups._speedups.memo_dice_marks):
        for rounds in [(object(),), (), tuple(entry.rounds) * 2]:
            assert call(rounds, entry.players, None, fast._JSON_KIT, 20) is None


@built
@pytest.mark.parametrize("change", [
    {3: ()},                        # a kit too short
    {3: "kit"},
    {3: "rule"},                    # a rule's JSON that is not bytes
    {3: "cache"},                   # a cache that is not a dict
    {3: "type"},                    # a log type that is not a type
    {0: []},                        # rounds not a tuple
    {1: ["Ann", "Bob"]},
    {4: "20"},
])
@pytest.mark.parametrize("name", ["memo_dice_json", "memo_dice_marks"])
def test_misuse_is_an_exception(name: str, change: dict[int, Any]) -> None:
    entry = LOG_FORMAT.read(random_game(random.Random(4), players=2), source="test")
    kit = fast._JSON_KIT
    args: list[Any] = [entry.rounds, entry.players, None, kit, 20]
    for at, value in change.items():
        if value == "rule":
            value = ("rule", *kit[1:])
        elif value == "cache":
            value = (*kit[:8], [], *kit[9:])
        elif value == "type":
            value = (*kit[:-1], "FaceEntry")
        args[at] = value
    with pytest.raises((TypeError, ValueError)):
        getattr(speedups._speedups, name)(*args)


@built
def test_lenient_misuse_is_an_exception() -> None:
    """memo_dice_lenient with a kit or a `word` that is not what fast.py hands over: an
    exception, never a crash (and a `word` that fails passes its error on)."""
    log = random_game(random.Random(8), players=2, with_dice=False)
    log["rounds"][0]["covering"].append(dict(log["rounds"][0]["covering"][0]))
    entry = LOG_FORMAT.read(log, source="test")
    kit = fast._JSON_KIT
    call = speedups._speedups.memo_dice_lenient

    def fails(*args: Any) -> bytes:
        raise KeyError(args[0])

    found: list[Any] = []

    def keep(*args: Any) -> bytes:
        found.append(args)
        return b"{}"

    assert call(entry.rounds, entry.players, None, kit, 20, keep) is not None
    assert found and found[0][0] == 0  # the roll after the golden cup
    bad: list[tuple[Any, ...]] = [
        (entry.rounds, entry.players, None, kit, 20, fails),
        (entry.rounds, entry.players, None, kit, 20, lambda *args: "text"),
        (entry.rounds, entry.players, None, kit, 20, "word"),
        (entry.rounds, entry.players, None, kit[:-1], 20, fails),
        (entry.rounds, entry.players, None, ("rule", *kit[1:]), 20, fails),
        (entry.rounds, entry.players, None, (*kit[:8], [], *kit[9:]), 20, fails),
        (entry.rounds, entry.players, None, (*kit[:-1], "FaceEntry"), 20, fails),
        ([], entry.players, None, kit, 20, fails),
    ]
    for args in bad:
        with pytest.raises((TypeError, ValueError, KeyError)):
            call(*args)
    for rounds in [(object(),), (), tuple(entry.rounds) * 2 + (object(),)]:
        assert call(rounds, entry.players, None, kit, 20, lambda *args: b"{}") is None


@built
def test_long_rounds() -> None:
    """A round of 20 rolls (two-digit cups in the row) is replayed in C; one of 40 is left to
    the Python replay (the C side's bound): the same bytes either way."""
    log = random_game(random.Random(12), players=2, with_dice=False)
    rnd = log["rounds"][0]
    plain = [roll for roll in rnd["covering"] if roll["cup"] != "golden"]
    for rolls, taken in ((20, True), (40, False)):
        long = json.loads(json.dumps(log))
        long["rounds"] = [long["rounds"][0]]
        cover = [*(plain * rolls)[:rolls - 1], rnd["covering"][-1]]
        long["rounds"][0]["covering"] = [dict(roll) for roll in cover]
        assert agree_json(long) == taken


@built
def test_the_stream_writes_the_plain_bytes(tmp_path: Path) -> None:
    """`adjudicate --format jsonl`'s stream (which asks rule_decoded for JSON) writes every
    fixture, legal, illegal or malformed, as the Python replay's ruling or error entry."""
    from pathcheck.batch.logs import StreamSettings, rule_logs

    lines = [json.dumps(json.loads(path.read_text("utf-8")))
             for path in sorted(FIXTURES.glob("*.json"))]
    logs = tmp_path / "logs.jsonl"
    logs.write_text("\n".join(lines) + "\n", "utf-8")
    ruled = list(rule_logs([str(logs)], StreamSettings(output="jsonl"), jobs=1))
    assert len(ruled) == len(lines)
    for number, (line, one) in enumerate(zip(lines, ruled, strict=True), 1):
        try:
            ruling = rule_python(json.loads(line), source=str(logs))
        except RecordError:
            assert one.status == "invalid"
            continue
        expected = msgspec.structs.replace(ruling, line=number).to_json()
        assert one.text == expected
        assert one.status == ("illegal" if ruling.violations else "legal")
