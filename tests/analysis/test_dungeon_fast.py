"""The analysis of a game/1 log from the C replay's pass is the analysis from the Python replay.

:func:`pathcheck.analysis.dungeon.analyse_entry` takes each exploration's check, the scores
and the winners from the C replay (:func:`~pathcheck.games.dungeon.fast.fast_replay`, the pass
``adjudicate`` rules with) when it takes the log, and makes the reports and marked moves in C
from its trace (``_speedups.dungeon_marks``); it replays in Python otherwise. The three ways
(C replay and C marks, C replay and Python marks, Python replay) must give the same analysis,
byte for byte in JSON and text, or the same error: compared on fixtures, random games (rule #1
priority among them), mutated, deal-less and hostile logs, and through ``analyse``'s stream.
Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.analysis import dungeon
from pathcheck.analysis.core import Mark
from pathcheck.analysis.report import render_analysis
from pathcheck.analysis.stream import AnalyseSettings, analyse_item
from pathcheck.errors import RecordError
from pathcheck.games.dungeon import fast
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.dungeon.log import GAME_LOG, read_game_log
from pathcheck.games.dungeon.state import Replay
from pathcheck.inputs.items import log_items
from pathcheck.tracer.constants import REASONS

from ..fuzz import dungeon_games, examples, json_values, mutate
from ..games import test_dealless_exact as dealless
from ..games.test_dungeon_c_trace import mutate as mutate_play
from ..games.test_dungeon_fast import KEYS, WORDS, built, game_fixtures
from ..games.test_unseen import without_deal


@contextmanager
def python_only() -> Iterator[None]:
    """The C replay switched off (as without the extension)."""
    replay = fast._replay
    fast._replay = None
    try:
        yield
    finally:
        fast._replay = replay


@contextmanager
def python_marks() -> Iterator[None]:
    """The C replay on, the C marks off: the moves are marked in Python from its checks."""
    marks = dungeon._marks
    dungeon._marks = None
    try:
        yield
    finally:
        dungeon._marks = marks


def _analysis(log: Any) -> tuple[bytes, str] | str:
    try:
        found = dungeon.analyse(log, source="test")
    except RecordError as exc:
        return str(exc)
    return found.to_json(), render_analysis(found)


def _for_json(log: Any) -> bytes | None:
    """The analysis's JSON by the way ``analyse --format jsonl`` takes (moves written as JSON
    in C); None for a log that is not read so."""
    try:
        entry = GAME_LOG.read(log, source="test")
    except RecordError:
        return None
    try:
        return dungeon.analyse_entry(entry, source="test", for_json=True).to_json()
    except RecordError:
        return None


def agree(log: Any) -> bool:
    """Whether the C replay took ``log``, after checking that the analysis is the same with
    and without it (and that its checks, scores and winners are the Python replay's), and
    that its moves written as JSON in C are msgspec's bytes."""
    with_c = _analysis(log)
    encoded = _for_json(log)
    if encoded is not None:
        assert not isinstance(with_c, str) and encoded == with_c[0]
    with python_only():
        assert _analysis(log) == with_c
    with python_marks():
        assert _analysis(log) == with_c
    try:
        entry = GAME_LOG.read(log, source="test")
        game = read_game_log(log, source="test")
    except RecordError:
        return False
    found = fast.fast_replay(entry)
    if found is None:
        return False
    traced, scores, winners = found
    replay = Replay(game)
    replay.run()
    assert (fast.lost_checks(traced, entry.players), scores, winners) == (
        replay.checks, replay.scores, replay.winners)
    assert not replay.violations
    assert dungeon.marked_in_c(entry, *found, "test") is not None  # the C marks took it
    return True


@built
@pytest.mark.parametrize("path", game_fixtures(), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    taken = agree(json.loads(path.read_text("utf-8")))
    assert taken == path.name.startswith("legal-")


@built
@settings(max_examples=40, deadline=None)
@given(dungeon_games())
def test_random_games_are_taken(log: dict[str, Any]) -> None:
    assert agree(log)


@built
def test_rule_1_priority() -> None:
    for seed in range(60):
        assert agree(random_game(random.Random(seed), players=4, rules=[1]))


@built
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_play(seed: int) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    agree(mutate_play(log, rng))
    longer = copy.deepcopy(log)
    longer["explorations"].append(copy.deepcopy(log["explorations"][-1]))
    assert not agree(longer)  # an exploration after the end: Python replays


@built
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(dealless.MUTATIONS),
       st.sampled_from(dealless.STRIPS))
def test_mutated_and_dealless(seed: int, kind: str, keep: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    dealless.mutate(log, kind, rng)
    agree(log)
    assert not agree(without_deal(log, keep))


@built
@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = ADJUDICATOR.random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree(log)


@built
def test_the_stream_writes_the_same(tmp_path: Path) -> None:
    """``analyse``'s stream (the typed path) writes the same bytes with the C replay or without,
    clean and illegal logs alike."""
    rng = random.Random(7)
    logs = [ADJUDICATOR.random_game(rng) for _ in range(30)]
    logs += [json.loads(p.read_text("utf-8")) for p in game_fixtures()]
    path = tmp_path / "logs.jsonl"
    path.write_text("".join(json.dumps(log) + "\n" for log in logs), "utf-8")

    def written(output: str) -> list[bytes]:
        settings_ = AnalyseSettings(output=output)
        return [analyse_item(item, settings_).text for item in log_items(str(path))]

    outputs = ("jsonl", "json", "text")
    with_c = {output: written(output) for output in outputs}
    with python_only():
        assert {output: written(output) for output in outputs} == with_c
    with python_marks():
        assert {output: written(output) for output in outputs} == with_c


ODD_NAMES = ['Ann "the quick"', "back\\slash", "tab\there", "nl\nx", "\x00nul", "\x1fus",
             "\x7fdel", "Zoë", "李", "\u2028ls", "\ud800lone", "😀", "</script>", "a" * 300]


def _renamed(log: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``log`` with its players renamed to ``names``, in seat order."""
    to = dict(zip(log["players"], names, strict=True))
    log["players"] = names
    for exp in log["explorations"]:
        exp["start_player"] = to[exp["start_player"]]
        if "hands" in exp:
            exp["hands"] = {to[p]: hand for p, hand in exp["hands"].items()}
        for turn in exp["turns"]:
            turn["player"] = to[turn["player"]]
            turn["lost"] = [to[p] for p in turn.get("lost", [])]
    return log


def _expected_and_written(entry: Any) -> tuple[bytes | None, Any]:
    """msgspec's bytes of the log's analysis made as values (None: a name msgspec refuses to
    encode), and the analysis marked in C with its moves written as JSON (or None)."""
    try:
        expected: bytes | None = dungeon.analyse_entry(entry, source="t").to_json()
    except UnicodeEncodeError:
        expected = None
    found = fast.fast_replay(entry)
    assert found is not None
    return expected, dungeon.marked_in_c(entry, *found, "t", encoded=True)


@built
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from(ODD_NAMES) | st.text(min_size=1),
                                           min_size=5, max_size=5, unique=True))
def test_moves_written_as_json_are_msgspecs(seed: int, names: list[str]) -> None:
    """A clean log's moves written as JSON in C (``analyse --format jsonl``) are the bytes
    msgspec encodes of the moves made as values, whatever the players' names hold (quotes,
    control characters, any Unicode); a name that is no UTF-8 text (a lone surrogate) is
    left to the values, which msgspec then refuses as before."""
    log = _renamed(random_game(random.Random(seed), players=5, rules=[1] if seed % 2 else []),
                   names)
    try:
        entry = GAME_LOG.read(log, source="t")
    except RecordError:  # a name the log format refuses
        return
    expected, encoded = _expected_and_written(entry)
    if expected is None:
        assert encoded is None  # declined: the values path says what it says
    else:
        assert encoded is not None and encoded.to_json() == expected
        assert dungeon.analyse_entry(entry, source="t", for_json=True).to_json() == expected


@built
def test_a_name_that_is_no_utf8_text_is_left_to_the_values() -> None:
    log = _renamed(random_game(random.Random(3), players=3), ["Ann", "\ud800", "Cy"])
    entry = GAME_LOG.read(log, source="t")
    found = fast.fast_replay(entry)
    assert found is not None
    assert dungeon.marked_in_c(entry, *found, "t", encoded=True) is None
    assert dungeon.marked_in_c(entry, *found, "t") is not None
    with pytest.raises(UnicodeEncodeError):  # as before: msgspec refuses the name
        dungeon.analyse_entry(entry, source="t", for_json=True).to_json()


def _marks_args(entry: Any) -> list[Any]:
    """dungeon_marks's arguments for ``entry``, as marked_in_c passes them."""
    found = fast.fast_replay(entry)
    assert found is not None
    why = tuple(f"{p} announced Lost with priority" for p in entry.players)
    return [found[0], entry.explorations, entry.players, 1, dungeon._MISPLACED_CODE,
            dungeon._kit(), dungeon._holds(60), why, {}]


@built
def test_marks_misuse_is_an_exception_or_none() -> None:
    """dungeon_marks on what dungeon_replay never gives: an exception or None (declined),
    never a crash (also under the sanitizers)."""
    call: Any = speedups._speedups.dungeon_marks  # also called as no stub allows
    entry = GAME_LOG.read(random_game(random.Random(4), players=3, rules=[1]), source="t")
    args = _marks_args(entry)
    assert call(*args) is not None
    one = list(args[0][0])
    nturns = len(entry.explorations[0].turns)
    declined: list[tuple[Any, ...]] = [
        (),                                            # a tuple too short
        (*one[:6], -3, *one[7:]),                      # a Lost point before the first tile
        (*one[:6], 1, *one[7:]),                       # START as the Lost point
        (*one[:6], nturns + 2, *one[7:]),              # past the stack
        (*one[:6], 2**70, *one[7:]),                   # no C int
        (*one[:6], "2", *one[7:]),                     # no int at all
        (*one[:7], 99, *one[8:]),                      # a reason code out of range
        (*one[:11], ((7, 3),), one[12]),               # a card of no seat
        (*one[:11], ((0, 0),), one[12]),               # a card on no tile
        (*one[:11], ((0, 3),) * 6, one[12]),           # more cards than players
        (*one[:11], [(0, 3)], one[12]),                # cards in a list
        (*one[:12], ((0, 1, 0, 5),) * 3),              # points past one
        (*one[:12], ()),                               # no outcomes
    ]
    for exploration in declined:
        bad = list(args)
        bad[0] = (tuple(exploration), *args[0][1:])
        assert call(*bad) is None
    bad = list(args)
    bad[6] = ["the stack"]  # too few texts of stacks
    assert call(*bad) is None
    bad = list(args)
    bad[5] = (*args[5][:-2], (None,) * len(REASONS), args[5][-1])  # reasons without names
    assert call(*bad) is None or all(one[6] == 0 for one in args[0])
    for index, value in ((5, args[5][:-1]), (2, ("Ann",)), (7, ())):
        bad = list(args)
        bad[index] = value
        with pytest.raises(ValueError):
            call(*bad)
    bad = list(args)
    bad[2] = ("Ann", "Bob", 7)
    assert call(*bad) is None
    with pytest.raises(TypeError):
        call()
    written, as_values = call(*args, dungeon._encoded_kit()), call(*args)
    assert written is not None and as_values is not None
    assert json.loads(bytes(written[0])) == [msgspec.to_builtins(m) for m in as_values[0]]
    assert call(*args, {}) is None  # the marks and rules not given as JSON: declined
    partial = {k: v for k, v in dungeon._encoded_kit().items() if not isinstance(k, Mark)}
    assert call(*args, partial) is None
    odd = dict(dungeon._encoded_kit())
    odd[Mark.SOUND] = "sound"  # not bytes
    assert call(*args, odd) is None
    with pytest.raises(TypeError):
        call(*args, ["not", "a", "dict"])


def _scores_in_python(entry: Any) -> Any:
    scores = fast._scores
    fast._scores = None
    try:
        return fast.fast_replay(entry)
    finally:
        fast._scores = scores


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.booleans())
def test_totals_added_in_c_are_pythons(seed: int, players: int, cut: bool) -> None:
    """``fast_replay``'s totals and winners added up in C (``_speedups.dungeon_scores``) are
    those of its Python loop, the game ending at the log's end or not (explorations cut off,
    or one added after the game's end)."""
    rng = random.Random(seed)
    log = random_game(rng, players=players, rules=sorted(rng.sample([1, 2, 3], rng.randint(0, 3))))
    if cut and len(log["explorations"]) > 1:
        del log["explorations"][rng.randrange(1, len(log["explorations"])):]
    elif cut:
        log["explorations"].append(copy.deepcopy(log["explorations"][-1]))
    try:
        entry = GAME_LOG.read(log, source="t")
    except RecordError:
        return
    assert fast.fast_replay(entry) == _scores_in_python(entry)


@built
def test_scores_misuse_is_false_or_an_exception() -> None:
    """``dungeon_scores`` on what is no trace of its shape answers False (Python adds it up),
    never crashes; wrong arguments raise TypeError."""
    from pathcheck import _speedups

    outcome = (0, 1, 3, 1)
    one = (0,) * 12 + ((outcome,),)
    assert _speedups.dungeon_scores((one,) * 12, 2, 12) == (12, 0)
    assert _speedups.dungeon_scores((one,) * 13, 2, 12) is None  # goes on after the end
    assert _speedups.dungeon_scores((one,) * 11, 2, 12) is None  # ends before anyone won
    odds: list[Any] = [((0,) * 12 + ([outcome],),), ((0,) * 12 + (((5, 1, 3, 1),),),),
                       ((0,) * 12 + (((-1, 1, 3, 1),),),),
                       ((0,) * 12 + (((0, 1, 3, 2**70),),),),
                       ((0,) * 12 + (((0, 1, 3, "1"),),),), ((0,) * 12 + (((0, 1, 3),),),),
                       ((0,) * 5,), ([0] * 13,)]
    for odd in odds:
        assert _speedups.dungeon_scores(odd, 2, 12) is False
    assert _speedups.dungeon_scores((), 9, 12) is False
    with pytest.raises(TypeError):
        _speedups.dungeon_scores([one], 2, 12)  # type: ignore[arg-type]


@built
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1),
       st.lists(st.lists(st.sampled_from(ODD_NAMES) | st.text(min_size=1), min_size=3,
                         max_size=3, unique=True), min_size=2, max_size=5))
def test_logs_in_a_row_are_written_as_msgspec_writes_them(seed: int,
                                                          casts: list[list[str]]) -> None:
    """Logs analysed one after another (the table of texts seen and the Lost words kept from
    log to log, a name that is no UTF-8 text declining in between) are each written as
    msgspec encodes their moves made as values; the same log written again is the same."""
    rng = random.Random(seed)
    logs = [_renamed(random_game(rng, players=3, rules=[1] if rng.random() < 0.5 else []),
                     names) for names in casts]
    first: dict[int, bytes] = {}
    for _ in range(2):  # twice: the texts kept from the first time
        for k, log in enumerate(logs):
            try:
                entry = GAME_LOG.read(log, source="t")
            except RecordError:  # a name the log format refuses
                continue
            expected, encoded = _expected_and_written(entry)
            if expected is None:
                assert encoded is None  # declined midway: the next log starts afresh
                continue
            assert encoded is not None and encoded.to_json() == expected
            assert first.setdefault(k, expected) == expected
