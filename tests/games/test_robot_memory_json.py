"""Robot memory's rulings and analyses written as JSON in C are the bytes msgspec writes of the
Python replay's values.

``adjudicate --format json|jsonl`` asks the adjudicator's ``rule_decoded`` for a ruling only
to be encoded (``for_json``): a clean log's rounds then come as JSON written by
``_speedups.robot_replay_json`` (:func:`~pathcheck.games.robot_memory.fast.fast_ruling`), and
``analyse`` asks :func:`~pathcheck.analysis.robot_memory.analyse_entry` the same way
(``_speedups.robot_marks_json``). Each must encode to the very bytes of the plain Python
replay's ruling and analysis, on fixtures, random, mutated and hostile logs, and names that
JSON must escape (quotes, backslashes, control characters, U+2028, non-ASCII; lone
surrogates, which no JSON writer writes, go the value path). A kept ruling (``--html``,
``--at``, text output) never holds rounds as JSON. Run under ASan/UBSan by .ci/sanitize.
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

from pathcheck.analysis import robot_memory as analysis
from pathcheck.batch.logs import StreamSettings, rule_logs
from pathcheck.errors import RecordError
from pathcheck.games.robot_memory import fast
from pathcheck.games.robot_memory.adjudicator import ADJUDICATOR, rule_python
from pathcheck.games.robot_memory.gen import VARIANTS, random_game
from pathcheck.games.robot_memory.log import LOG_FORMAT, read_log

from ..fuzz import examples, json_values, mutate
from ..test_speedups import BUILT, REQUIRED
from .test_robot_memory_fast import FIXTURES, KEYS, WORDS, mutate_play, renamed

built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Bolts", "Nuts"]
"""The names random_game gives players (the first eight) and teams (the last two)."""


def _plain_ruling(log: Any) -> bytes | str:
    try:
        return rule_python(log, source="test").to_json()
    except RecordError as exc:
        return str(exc)


def _plain_analysis(log: Any) -> bytes | str:
    try:
        return analysis.analyse_read(read_log(log, source="test"), source="test").to_json()
    except RecordError as exc:
        return str(exc)


def agree_json(log: Any) -> bool:
    """Whether the C side wrote ``log``'s ruling and analysis as JSON, after checking that
    the ruling and the analysis for JSON output encode as the plain Python replay's do."""
    expected = _plain_ruling(log)
    try:
        data = msgspec.json.encode(log)
    except (TypeError, msgspec.EncodeError, UnicodeEncodeError):
        return False
    try:
        decoded = ADJUDICATOR.rule_decoded(data, "robot-memory/1", source="test",
                                           for_json=True)
        assert decoded is None or decoded.to_json() == expected
    except (RecordError, msgspec.DecodeError) as exc:
        assert not isinstance(exc, RecordError) or str(exc) == expected
    try:
        entry = LOG_FORMAT.read(log, source="test")
    except RecordError:
        return False
    try:
        found: bytes | str = analysis.analyse_entry(entry, source="test",
                                                    for_json=True).to_json()
    except RecordError as exc:
        found = str(exc)
    assert found == _plain_analysis(log)
    ruling = fast.fast_ruling(entry, source="test", for_json=True)
    if ruling is None:
        return False
    assert ruling.to_json() == expected
    written = isinstance(ruling.rounds, msgspec.Raw)
    analysed = analysis.analyse_entry(entry, source="test", for_json=True)
    assert isinstance(analysed.moves, msgspec.Raw) == written
    return written


@built
@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    log = json.loads(path.read_text("utf-8"))
    taken = agree_json(log)
    if path.name.startswith("legal-") and "unknown" not in path.name:
        assert taken


@built
@settings(max_examples=examples(80), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_random_games_are_written(seed: int, variant: str) -> None:
    assert agree_json(random_game(random.Random(seed), variant=variant))


@built
@settings(max_examples=examples(120), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_mutated_play(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    agree_json(mutate_play(random_game(rng, variant=variant), rng))


@built
@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree_json(log)


_ESCAPED = ['say "hi"', "back\\slash", "\x00\x01\x1f", "tab\there", "line\nfeed", "\x7f",
            "\u2028\u2029", "Zoë", "李雷", "👩‍🚀", "\u202eevil", "</script>", "a" * 70]


@built
@settings(max_examples=examples(120), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS),
       st.lists(st.one_of(st.sampled_from(_ESCAPED), st.text(min_size=1, max_size=12)),
                min_size=len(NAMES), max_size=len(NAMES), unique=True))
def test_names_of_any_text(seed: int, variant: str, names: list[str]) -> None:
    """Names JSON must escape, of any script, and lone surrogates (written by the value
    path: no JSON writer takes them)."""
    log = renamed(random_game(random.Random(seed), variant=variant),
                  dict(zip(NAMES, names, strict=True)))
    taken = agree_json(log)
    try:
        clean = fast.fast_ruling(LOG_FORMAT.read(log, source="test"), source="test")
    except RecordError:
        clean = None
    if clean is not None and all(not 0xD800 <= ord(c) <= 0xDFFF for name in names
                                 for c in name):
        assert taken  # every clean log whose names have a UTF-8 form is written in C


@built
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_name_with_no_utf8_form_goes_the_value_path(variant: str) -> None:
    log = renamed(random_game(random.Random(1), variant=variant),
                  {"Ann": "lone \ud800", "Bolts": "\udfff team"})
    entry = LOG_FORMAT.read(log, source="test")
    ruling = fast.fast_ruling(entry, source="test", for_json=True)
    assert ruling is not None and not isinstance(ruling.rounds, msgspec.Raw)
    assert ruling == rule_python(log, source="test")
    found = analysis.analyse_entry(entry, source="test", for_json=True)
    assert not isinstance(found.moves, msgspec.Raw)
    reference = analysis.analyse_read(read_log(log, source="test"), source="test")
    assert list(found.moves) == list(reference.moves)
    assert found.summaries == reference.summaries


@built
def test_a_kept_ruling_never_holds_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """--html and --at keep the ruling (``keep``), text output words it: never Raw rounds;
    json and jsonl get the same bytes either way."""
    path = tmp_path / "logs.jsonl"
    logs = [random_game(random.Random(seed), variant=variant)
            for seed in range(3) for variant in VARIANTS]
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

    from pathcheck.games.robot_memory import adjudicator

    monkeypatch.setattr(adjudicator, "fast_ruling", spy)
    list(rule_logs([str(path)], StreamSettings(output="text")))
    assert calls and not any(calls)
    calls.clear()
    list(rule_logs([str(path)], StreamSettings(output="jsonl")))
    assert calls and all(calls)


@built
def test_misuse_is_an_exception() -> None:
    from pathcheck import _speedups

    entry = LOG_FORMAT.read(random_game(random.Random(3)), source="test")
    said, unset = fast._said, msgspec.UNSET
    call = _speedups.robot_replay_json
    with pytest.raises(TypeError):
        call()  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        call(entry, unset, said, fast._word, [None] * 3, fast._word_json, fast._JSON_KIT)
    with pytest.raises(ValueError):
        call(entry, unset, said, fast._word, fast._said_json, fast._word_json, ())
    blank: list[Any] = [None] * len(said)
    with pytest.raises(ZeroDivisionError):
        call(entry, unset, said, fast._word, blank, lambda _: 1 / 0, fast._JSON_KIT)
    with pytest.raises(TypeError):
        call(entry, unset, said, fast._word, [None] * len(said), lambda _: ("odd",),
             fast._JSON_KIT)
    marks = _speedups.robot_marks_json
    with pytest.raises(ValueError):
        marks(entry, unset, said, fast._word, [None] * 3, analysis._judged_json)
    with pytest.raises(ZeroDivisionError):
        marks(entry, unset, said, fast._word, [None] * len(said), lambda _: 1 / 0)
    with pytest.raises(TypeError):
        marks(entry, unset, said, fast._word, [None] * len(said), lambda _: (b"",) * 7)
    with pytest.raises(ValueError):
        marks(entry, unset, said, fast._word, [None] * len(said),
              lambda _: (b"", b"", b"", b"", 9, 0.0, 0.0))
    assert marks(object(), unset, said, fast._word, [None] * len(said),
                 analysis._judged_json) is None
