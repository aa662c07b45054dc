"""A Memoarrr! analysis's moves written as JSON in the C replay are msgspec's encoding of the
values.

For ``analyse --format json|jsonl`` (no analysis kept), :func:`pathcheck.analysis.memoarrr.
analyse` with ``for_json`` takes the moves as the JSON array ``_speedups.memoarrr_lenient_json``
writes while it replays and marks the log (memoarrr_marks_json.c), with the counts the
summaries are made from; the analysis's bytes must be those of the value path (the
AnalysedMove values of ``memoarrr_marks``, which tests/analysis/test_memoarrr_marks.py
compares with the plain walk) on random, mutated, illegal and hostile logs, and with players'
names of any text. Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.analysis import memoarrr
from pathcheck.analysis.stream import AnalyseSettings, analyse_item
from pathcheck.errors import RecordError
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.inputs.items import log_items

from ..games.test_memoarrr_fast import built, faulty_log, mutated_log
from ..games.test_memoarrr_json import names, renamed
from ..games.test_memoarrr_plain import _BASE
from .test_memoarrr_marks import unnamed


def encoded(log: Any, for_json: bool) -> bytes | str:
    """The analysis's JSON, or the error that stopped it."""
    try:
        return memoarrr.analyse(log, source="t", for_json=for_json).to_json()
    except (RecordError, UnicodeEncodeError, msgspec.EncodeError) as exc:
        return type(exc).__name__


def same_bytes(log: Any) -> bytes | str:
    written = encoded(log, True)
    assert written == encoded(log, False)
    return written


def written_in_c(log: Any) -> bool:
    trace = fast.lenient_json_trace(log, memoarrr._json_kit())
    return trace is not None and trace[5] is not None


@built
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from([2018, 2023]), st.booleans(),
       st.booleans(), st.floats(0, 1), st.integers(0, 7), st.integers(0, 4))
def test_random_logs(seed: int, players: int, edition: int, expert: bool, ordered: bool,
                     skill: float, keep: int, blanks: int) -> None:
    rng = random.Random(seed)
    log = random_game(rng, players=players, edition=edition, expert=expert,
                      ordered_stack=ordered, skill=skill)
    del log["rounds"][keep:]
    if keep and keep < 7:
        actions = log["rounds"][-1]["actions"]
        del actions[rng.randrange(len(actions)):]
    unnamed(log, rng, blanks)
    written = same_bytes(log)
    if not blanks:  # (a card nobody named may make the log one the reader refuses)
        assert isinstance(written, bytes)
        assert written_in_c(log)


@built
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_logs(data: st.DataObject) -> None:
    same_bytes(mutated_log(data))


@built
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_faulty_logs(data: st.DataObject) -> None:
    """Illegal logs: marked through their faults, the barred reveals and stops in notes."""
    log = faulty_log(data)
    same_bytes(log)


@built
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), names)
def test_names_of_any_text(data: st.DataObject, new_names: list[str]) -> None:
    log = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    renamed(log, new_names)
    written = same_bytes(log)
    surrogate = any("\ud800" <= c <= "\udfff" for name in log["players"] for c in name)
    assert written_in_c(log) != surrogate
    assert isinstance(written, bytes) != surrogate


@built
def test_through_the_stream(tmp_path: Path) -> None:
    """`analyse --format json|jsonl` of a file writes what the value path writes."""
    rng = random.Random(8)
    logs = [random_game(rng, players=rng.randint(2, 4), skill=rng.random()) for _ in range(6)]
    renamed(logs[1], ['A"b', "c\\d", "\u2028", "日本"])
    path = tmp_path / "logs.jsonl"
    path.write_text("".join(json.dumps(log) + "\n" for log in logs), encoding="utf-8")
    for output in ("json", "jsonl"):
        settings_ = AnalyseSettings(game=None, output=output)
        new = [analyse_item(item, settings_).text for item in log_items(str(path))]
        assert all(new)
        with mock.patch.object(fast, "_lenient_json", None):
            assert [analyse_item(item, settings_).text
                    for item in log_items(str(path))] == new


# --- misuse of the C entry point is an error, never a crash --------------------------------

@built
def test_lenient_json_misuse_is_an_exception() -> None:
    from pathcheck import _speedups

    call = _speedups.memoarrr_lenient_json
    log = random_game(random.Random(3), players=3, skill=0.5)
    kit = memoarrr._json_kit()
    found = call(log, fast.CARD_NUMBERS, kit)
    assert found is not None and found[5] is not None
    assert found[:5] == fast.lenient_trace(log)
    for bad in ((), kit[:-1], (*kit, 1), ([], *kit[1:]), (kit[0], None, *kit[2:]),
                (*kit[:2], (b"{}",), *kit[3:]), (*kit[:2], (b"{}", "x"), *kit[3:]),
                (*kit[:3], list(kit[3]), kit[4])):
        with pytest.raises(ValueError):
            call(log, fast.CARD_NUMBERS, bad)
    with pytest.raises(TypeError):
        call(log, fast.CARD_NUMBERS, list(kit))  # type: ignore[arg-type]

    def fresh(fill: Any, cards: Any = kit[3]) -> tuple[Any, ...]:
        return ([None] * (1 << 14), fill, kit[2], cards, kit[4])

    with pytest.raises(ZeroDivisionError):  # a filler that fails: its error comes through
        call(log, fast.CARD_NUMBERS, fresh(lambda key: 1 / 0))
    for junk in ("no tuple", (None,) * 6, (b"", b"", b"", 9, 0.0, 0.0),
                 (b"", b"", b"", 0, 0, 0.0)):
        with pytest.raises(ValueError):
            call(log, fast.CARD_NUMBERS, fresh(lambda key, junk=junk: junk))
    with pytest.raises(ValueError):  # a table too small for the keys
        call(log, fast.CARD_NUMBERS, ([None] * 8, *kit[1:]))
    with pytest.raises(ValueError):  # a card table too short
        call(log, fast.CARD_NUMBERS, fresh(kit[1], kit[3][:2]))
    shrinking: list[Any] = [None] * (1 << 14)

    def shrink(key: int) -> Any:
        entry = memoarrr._mark_entry(key)
        del shrinking[:]
        return entry

    with pytest.raises(ValueError):  # a filler that empties the table
        call(log, fast.CARD_NUMBERS, (shrinking, shrink, *kit[2:]))
