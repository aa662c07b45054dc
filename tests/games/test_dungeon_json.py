"""The dungeon game's rulings written as JSON in C are the bytes msgspec writes of the Python
replay's values.

``adjudicate --format json|jsonl`` asks the adjudicator's ``rule_decoded`` for a ruling only
to be encoded (``for_json``): a clean ``game/1`` log's rounds then come as JSON written by
``_speedups.dungeon_word_json`` from the C replay's trace
(:func:`~pathcheck.games.dungeon.fast.fast_ruling`), held as a :class:`msgspec.Raw`. Each
must encode to the very bytes of the value path (``dungeon_word``) and of the plain Python
replay, on fixtures, random games (rule #1 priority among them), mutated, deal-less and
hostile logs, and names that JSON must escape (quotes, backslashes, control characters,
U+2028, non-ASCII; lone surrogates, which no JSON writer writes, go the value path). The
analysis's moves, written as JSON in C too, are compared the same way. A kept ruling
(``--html``, ``--at``, text output) never holds rounds as JSON. Run under ASan/UBSan by
.ci/sanitize.
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

from pathcheck.analysis import dungeon as analysis
from pathcheck.batch.logs import StreamSettings, rule_logs
from pathcheck.errors import RecordError
from pathcheck.games.dungeon import fast
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR, rule_game_python
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.dungeon.log import GAME_LOG, read_game_log

from ..fuzz import dungeon_games, examples, json_values, mutate
from ..test_speedups import BUILT, REQUIRED
from . import test_dealless_exact as dealless
from .test_dungeon_c_trace import mutate as mutate_play
from .test_dungeon_fast import KEYS, WORDS, game_fixtures
from .test_unseen import without_deal

built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
"""The names random_game gives the players, in seat order."""


def _plain(log: Any) -> bytes | str:
    try:
        return rule_game_python(log, source="test").to_json()
    except RecordError as exc:
        return str(exc)


def _plain_analysis(log: Any) -> bytes | str:
    try:
        return analysis.analyse_read(read_game_log(log, source="test"),
                                     source="test").to_json()
    except RecordError as exc:
        return str(exc)


def agree_json(log: Any) -> bool:
    """Whether the C side wrote ``log``'s ruling rounds as JSON, after checking that the
    ruling and the analysis for JSON output encode as the value path's and the plain Python
    replay's do."""
    expected = _plain(log)
    try:
        data = msgspec.json.encode(log)
    except (TypeError, msgspec.EncodeError, UnicodeEncodeError):
        return False
    try:
        decoded = ADJUDICATOR.rule_decoded(data, "game/1", source="test", for_json=True)
        assert decoded is None or decoded.to_json() == expected
    except (RecordError, msgspec.DecodeError) as exc:
        assert not isinstance(exc, RecordError) or str(exc) == expected
    try:
        entry = GAME_LOG.read(log, source="test")
    except RecordError:
        return False
    try:
        found: bytes | str = analysis.analyse_entry(entry, source="test",
                                                    for_json=True).to_json()
    except RecordError as exc:
        found = str(exc)
    assert found == _plain_analysis(log)
    ruling = fast.fast_ruling(entry, source="test", for_json=True)
    values = fast.fast_ruling(entry, source="test")
    assert (ruling is None) == (values is None)
    if ruling is None or values is None:
        return False
    assert ruling.to_json() == values.to_json() == expected
    assert ruling.final_scores == values.final_scores
    assert ruling.winners == values.winners
    return isinstance(ruling.rounds, msgspec.Raw)


def renamed(log: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``log`` with its players renamed wherever a name stands."""
    out = copy.deepcopy(log)
    out["players"] = [names.get(p, p) for p in out["players"]]
    for exp in out["explorations"]:
        exp["start_player"] = names.get(exp["start_player"], exp["start_player"])
        exp["hands"] = {names.get(p, p): hand for p, hand in exp["hands"].items()}
        for turn in exp["turns"]:
            turn["player"] = names.get(turn["player"], turn["player"])
            turn["lost"] = [names.get(p, p) for p in turn["lost"]]
    return out


@built
@pytest.mark.parametrize("path", game_fixtures(), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    log = json.loads(path.read_text("utf-8"))
    taken = agree_json(log)
    if not path.name.startswith("legal-"):
        assert not taken  # a violation or an error: the Python replay words it


@built
@settings(max_examples=examples(60), deadline=None)
@given(dungeon_games())
def test_random_games_are_written(log: dict[str, Any]) -> None:
    assert agree_json(log)


@built
def test_rule_1_priority_and_every_end_are_written() -> None:
    """Void announcements (both ways), shared victories, dungeons that hold and Lost ones:
    written in C, byte for byte."""
    seen: set[bytes] = set()
    for seed in range(150):
        log = random_game(random.Random(seed), players=2 + seed % 4, rules=[1])
        assert agree_json(log)
        ruling = fast.fast_ruling(GAME_LOG.read(log, source="t"), source="t", for_json=True)
        assert ruling is not None
        raw = msgspec.json.encode(ruling.rounds)
        seen |= {kind for kind in (b'"by":"first"', b'"by":"turn-order"',
                                   b"is never Lost", b"is Lost at tile", b"share the victory")
                 if kind in raw}
    assert seen == {b'"by":"first"', b'"by":"turn-order"', b"is never Lost", b"is Lost at tile",
                    b"share the victory"}


@built
@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_play(seed: int) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    agree_json(mutate_play(log, rng))
    longer = copy.deepcopy(log)
    longer["explorations"].append(copy.deepcopy(log["explorations"][-1]))
    assert not agree_json(longer)  # an exploration after the end: the Python replay words it


@built
@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(dealless.MUTATIONS),
       st.sampled_from(dealless.STRIPS))
def test_mutated_and_dealless(seed: int, kind: str, keep: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    log = ADJUDICATOR.random_game(rng)
    dealless.mutate(log, kind, rng)
    agree_json(log)
    assert not agree_json(without_deal(log, keep))  # a note: Python words it


@built
@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = ADJUDICATOR.random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree_json(log)


_ESCAPED = ['say "hi"', "back\\slash", "\x00\x01\x1f", "tab\there", "line\nfeed", "\x7f",
            "\u2028\u2029", "Zoë", "李雷", "👩‍🚀", "\u202eevil", "</script>", "a" * 70,
            "lone \ud800", "\udfff"]


@built
@settings(max_examples=examples(120), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sets(st.sampled_from([1, 2, 3])),
       st.lists(st.one_of(st.sampled_from(_ESCAPED), st.text(min_size=1, max_size=12)),
                min_size=len(NAMES), max_size=len(NAMES), unique=True))
def test_names_of_any_text(seed: int, players: int, rules: set[int], names: list[str]
                           ) -> None:
    """Names JSON must escape, of any script, and lone surrogates (written by the value
    path: no JSON writer takes them)."""
    log = renamed(random_game(random.Random(seed), players=players, rules=sorted(rules)),
                  dict(zip(NAMES, names, strict=True)))
    surrogate = any(0xD800 <= ord(c) <= 0xDFFF for name in names[:players] for c in name)
    taken = agree_json(log) if not surrogate else False
    entry = GAME_LOG.read(log, source="test")
    ruling = fast.fast_ruling(entry, source="test", for_json=True)
    if ruling is None:
        return
    assert isinstance(ruling.rounds, msgspec.Raw) == (not surrogate)
    if surrogate:  # the value path, as dungeon_word makes it
        assert ruling == fast.fast_ruling(entry, source="test")
    else:
        assert taken  # every clean log whose names have a UTF-8 form is written in C


@built
def test_a_kept_ruling_never_holds_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """--html and --at keep the ruling (``keep``), text output words it: never Raw rounds;
    json and jsonl get the same bytes either way."""
    path = tmp_path / "logs.jsonl"
    logs = [random_game(random.Random(seed), players=2 + seed % 4, rules=[1] * (seed % 2))
            for seed in range(6)]
    path.write_bytes(b"".join(msgspec.json.encode(log) + b"\n" for log in logs))
    for output in ("json", "jsonl", "text"):
        kept = list(rule_logs([str(path)], StreamSettings(output=output, keep=True)))
        assert len(kept) == len(logs)
        for ruled in kept:
            assert ruled.kept is not None
            assert not isinstance(ruled.kept[1].rounds, msgspec.Raw)
        fast_way = list(rule_logs([str(path)], StreamSettings(output=output)))
        assert [r.text for r in fast_way] == [r.text for r in kept]
    calls: list[bool] = []
    real = fast.fast_ruling

    def spy(entry: Any, *, source: str, for_json: bool = False) -> Any:
        calls.append(for_json)
        return real(entry, source=source, for_json=for_json)

    from pathcheck.games.dungeon import adjudicator

    monkeypatch.setattr(adjudicator, "fast_ruling", spy)
    list(rule_logs([str(path)], StreamSettings(output="text")))
    assert calls and not any(calls)
    calls.clear()
    list(rule_logs([str(path)], StreamSettings(output="jsonl")))
    assert calls and all(calls)


@built
def test_without_the_json_writer_the_values_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    log = random_game(random.Random(7), players=4, rules=[1])
    entry = GAME_LOG.read(log, source="test")
    monkeypatch.setattr(fast, "_word_json_rounds", None)
    ruling = fast.fast_ruling(entry, source="test", for_json=True)
    assert ruling is not None and not isinstance(ruling.rounds, msgspec.Raw)
    assert ruling.to_json() == _plain(log)


def _args(traced: Any, players: tuple[str, ...]) -> list[Any]:
    from pathcheck.games.dungeon.rules import WIN_POINTS

    return [traced, players, {}, {}, fast._word_json, WIN_POINTS, fast._reasons_json(),
            fast._setup(False).tokens, fast._json_kit()]


@built
def test_misuse_is_an_exception_or_none() -> None:
    """dungeon_word_json on what dungeon_replay never gives: an exception, never a crash."""
    from pathcheck import _speedups

    call = _speedups.dungeon_word_json
    entry = GAME_LOG.read(random_game(random.Random(4), players=3, rules=[1]), source="t")
    setup = fast._setup(False)
    traced = _speedups.dungeon_replay(
        setup.tables, entry.explorations, entry.players, setup.in_play, setup.start,
        setup.size, 0, 1, msgspec.UNSET, setup.tokens, 10)
    assert traced is not None
    players = entry.players
    written = call(*_args(traced, players))
    assert isinstance(written, tuple)
    raw, totals = written
    values = fast.fast_ruling(entry, source="t")
    assert values is not None and bytes(raw) == msgspec.json.encode(values.rounds)
    assert dict(zip(players, totals, strict=True)) == values.final_scores
    assert memoryview(raw).readonly
    one = list(traced[0])
    bad: list[tuple[Any, ...]] = [
        (),                                         # a tuple too short
        (*one[:12], ((7, 0, 0, 0),)),               # a seat out of range
        (*one[:12], ((0, 9, 0, 0),)),               # an outcome kind out of range
        (*one[:12], ((0, 1, 3, 0),)),               # points not the outcome's
        (one[0], one[1], one[2], 5, *one[4:]),      # an end kind out of range
        (*one[:7], 99, *one[8:]),                   # a reason code out of range
        (*one[:6], 3, one[7], one[8], 4000, *one[10:]),  # a token out of range
        (*one[:10], 7, *one[11:]),                  # a display that is no str
        (*one[:12], [(0, 0, 0, 0)]),                # outcomes in a list
        (one[0], one[1], [()], *one[3:]),           # a void announcement too short
        (one[0], one[1], [(0, 0, 1, (2,), 0)], *one[3:]),  # ... in no turn
        (one[0], one[1], [(1, 0, 1, (), 0)], *one[3:]),    # ... void of nobody
        (one[0], one[1], [(1, 0, 1, (9,), 1)], *one[3:]),  # ... of no seat
        (one[0], one[1], [(1, 0, 1, [2], 1)], *one[3:]),   # ... seats in a list
    ]
    for exploration in bad:
        with pytest.raises((TypeError, ValueError, IndexError)):
            call(*_args((tuple(exploration),), players))
    with pytest.raises((TypeError, ValueError)):
        call(*_args(traced, ("Ann",)))
    with pytest.raises(TypeError):
        call(*_args(traced, ("Ann", 7)))  # type: ignore[arg-type]
    args = _args(traced, players)
    args[4] = lambda name, code: "not bytes"
    with pytest.raises(TypeError):
        call(*args)
    args[4] = lambda name, code: 1 / 0
    with pytest.raises(ZeroDivisionError):
        call(*args)
    args = _args(traced, players)
    args[6] = ((b"x",),) * 32
    with pytest.raises((TypeError, ValueError)):
        call(*args)
    for kit in [(), (fast._json_kit()[0],), (fast._json_kit()[0][:4], b"{}"),
                (((b"", b"", 1),) * 5, b"{}"), (fast._json_kit()[0], "rule")]:
        args[6], args[8] = fast._reasons_json(), kit
        with pytest.raises(TypeError):
            call(*args)
    with pytest.raises(TypeError):
        call()  # type: ignore[call-arg]
    assert call(*_args((), players)) is None
    # a game that ends before its last exploration: declined
    assert call(*_args((*traced, traced[-1]), players)) is None
    assert call(*_args(traced, ("Ann\ud800", "Bob", "Cy"))) is False
