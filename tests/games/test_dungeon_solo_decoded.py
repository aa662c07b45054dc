"""The fast path of a ``solo/1`` record given as JSON text rules as the Python path does.

:func:`~pathcheck.games.dungeon.solo_fast.rule_solo_decoded` (typed decoding,
``_speedups.solo_trace``, the clean ruling worded in solo_fast.py) must give the very ruling
:func:`~pathcheck.games.dungeon.solo.rule_solo` gives on the decoded record, byte for byte, or
None (the caller then decodes the text and the Python path rules or words the error); it must
take the clean records perfect play writes. Compared on fixtures, random perfect and spoilt
play (misplaced, premature, late, incomplete), mutated and hostile records, and through the
whole command. Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.errors import RecordError
from pathcheck.games.dungeon import solo_fast
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR
from pathcheck.games.dungeon.log import SoloEntry
from pathcheck.games.dungeon.solo import rule_solo
from pathcheck.solo.play import answer_key
from pathcheck.tracer.constants import MISPLACED, AdditionalRule
from pathcheck.tracer.tileset import load_tileset

from ..fuzz import examples
from ..test_speedups import BUILT, REQUIRED
from .test_dungeon_solo_fast import SOLO_FIXTURES, SPOILS, load, mutated, spoilt_play

built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")
TILESET = load_tileset()


def outcome(log: Any) -> Any:
    """The Python path's ruling as JSON bytes, or its RecordError's text."""
    try:
        return rule_solo(log, source="test").to_json()
    except RecordError as exc:
        return str(exc)


def agree(log: Any) -> bool:
    """Whether the fast path took ``log`` (given as JSON text), after checking that it rules
    on it byte for byte as the Python path does (and through the adjudicator's seam)."""
    try:
        data = msgspec.json.encode(log)
    except (TypeError, msgspec.EncodeError):
        return False
    expected = outcome(log)
    try:
        ruling = solo_fast.rule_solo_decoded(data, source="test")
    except RecordError:  # the caller then rules the usual way, which words it
        return False
    if ruling is None:
        return False
    assert ruling.to_json() == expected
    assert ADJUDICATOR.rule_decoded(data, "solo/1", source="test") == ruling
    return True


def perfect(rng: random.Random, rules: list[int]) -> dict[str, Any]:
    deck = ["START", *rng.sample(TILESET.deck_ids(advanced=True), 37)]
    return {"format": "solo/1", "rules": rules, "dungeons": [
        [{"tile": p.tile, "dir": p.dir.name} for p in d.placements]
        for d in answer_key(deck, rules=rules)]}


@built
def test_perfect_play_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    logs = [perfect(rng, rules) for rules in ([], [2], [3], [4], [2, 3, 4], [4, 2])
            for _ in range(10)]
    expected = [outcome(log) for log in logs]

    def python_wording(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a clean record is worded by solo_fast")

    monkeypatch.setattr(solo_fast, "rule_read", python_wording)
    for log, want in zip(logs, expected, strict=True):
        ruling = solo_fast.rule_solo_decoded(msgspec.json.encode(log), source="test")
        assert ruling is not None and ruling.to_json() == want
    monkeypatch.undo()
    no_rules = perfect(rng, [])
    del no_rules["rules"]
    assert agree(no_rules)


@built
@pytest.mark.parametrize("name", SOLO_FIXTURES)
def test_every_solo_fixture(name: str) -> None:
    log = load(name)
    took = agree(log)
    # Records with a seed code (or another tile set) are the Python path's alone.
    assert took == ("seed" not in log and "tileset" not in log
                    and not name.startswith("malformed"))


@built
@settings(max_examples=examples(80), deadline=None)
@given(st.randoms(use_true_random=False), st.sets(st.sampled_from([2, 3, 4])), SPOILS)
def test_spoilt_play(rng: random.Random, rules: set[int], spoil: list[tuple[int, str]]) -> None:
    log = spoilt_play(rng, rules, spoil)
    assert agree(log) == (outcome(log)[:1] == b"{")  # every read record is taken


@built
@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_mutated_records(data: st.DataObject) -> None:
    agree(mutated(data))


HOSTILE_TILES = ["START", "RÉ1", "R1\u0000", "r1", " R1", "R1 ", "X" * 300, "\ud7ff", "@", ""]


@built
@settings(max_examples=examples(120), deadline=None)
@given(st.data())
def test_hostile_records(data: st.DataObject) -> None:
    """Odd tile names and directions, empty and very long dungeons, tiles placed twice,
    repeated and unknown rules, extra fields."""
    log = perfect(random.Random(data.draw(st.integers(0, 50))), [])
    flat = [p for d in log["dungeons"] for p in d]
    for _ in range(data.draw(st.integers(1, 3))):
        action = data.draw(st.sampled_from(["tile", "dir", "empty", "long", "twice", "rules",
                                            "extra"]))
        if action == "tile":
            data.draw(st.sampled_from(flat))["tile"] = data.draw(st.sampled_from(HOSTILE_TILES))
        elif action == "dir":
            data.draw(st.sampled_from(flat))["dir"] = data.draw(
                st.sampled_from(["n", "NE", "", "É", "N\u0000", "S"]))
        elif action == "empty":
            log["dungeons"].insert(data.draw(st.integers(0, len(log["dungeons"]))), [])
        elif action == "long":
            log["dungeons"] = [flat * data.draw(st.integers(1, 3))]
        elif action == "twice":
            log["dungeons"][-1].append(dict(data.draw(st.sampled_from(flat))))
        elif action == "rules":
            log["rules"] = data.draw(st.lists(st.integers(1, 5), max_size=4))
        else:
            log[data.draw(st.sampled_from(["note", "seed", "tileset", "x"]))] = "standard"
    agree(log)


def c_and_python_wording(log: Any) -> None:
    """C's ``solo_word`` words the rounds of a record solo_trace read as ``_clean`` does (or
    both decline)."""
    c = solo_fast._solo_c()
    assert c is not None
    entry = msgspec.json.decode(msgspec.json.encode(log), type=SoloEntry)
    found = c[0](c[1], entry.dungeons, int(AdditionalRule.of(entry.rules)))
    if found is None:
        return
    rounds = c[4](found[1], solo_fast._KIT)
    clean = solo_fast._clean(found[1], 9, "", "test")
    assert (rounds is None) == (clean is None)
    if clean is not None:
        assert rounds == clean.rounds
        assert msgspec.json.encode(rounds) == msgspec.json.encode(clean.rounds)


@built
@settings(max_examples=examples(80), deadline=None)
@given(st.randoms(use_true_random=False), st.sets(st.sampled_from([2, 3, 4])), SPOILS)
def test_c_words_as_python(rng: random.Random, rules: set[int],
                           spoil: list[tuple[int, str]]) -> None:
    c_and_python_wording(spoilt_play(rng, rules, spoil))
    c_and_python_wording(perfect(rng, sorted(rules)))


@built
def test_solo_word_refuses_misuse() -> None:
    solo_word = speedups._speedups.solo_word
    kit = solo_fast._KIT
    one = ((3, 3, 6, "START@N R1@N R2@N", "R2@N"),)  # Lost at its last tile: a loop
    python = solo_fast._clean(one, 3, "", "x")
    assert python is not None and solo_word(one, kit) == python.rounds
    assert solo_word(((3, 3, MISPLACED, "a", "b"),), kit) is None
    assert solo_word(((3, 0, 0, "a", None), (1, 0, 0, "b", None)), kit) is None  # premature
    assert solo_word(((3, 2, 1, "a", "b"),), kit) is None  # late
    with pytest.raises(TypeError):
        solo_word(one, kit[:3])
    with pytest.raises(TypeError):
        solo_word(((3, 3, 1, "a"),), kit)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        solo_word(((3, 3, 6, b"a", "b"),), kit)  # type: ignore[arg-type]
    for bad in ((0, 0, 0, "a", None), (3, 4, 1, "a", "b"), (3, 3, 99, "a", "b"),
                (3, 3, -1, "a", "b"), (2**70, 1, 1, "a", "b")):
        with pytest.raises((ValueError, OverflowError)):
            solo_word((bad,), kit)
    assert solo_word((), kit) == []
    for token in ("R\u00c91@N", "R1\u0000@N", "X" * 300, "\U0001f600"):  # as Python words them
        odd = ((3, 3, 6, "a b c", token),)
        python = solo_fast._clean(odd, 3, "", "x")
        assert python is not None and solo_word(odd, kit) == python.rounds


@built
def test_solo_trace_refuses_misuse() -> None:
    solo_trace = speedups._speedups.solo_trace
    tables = speedups._tables()

    class Placement:
        def __init__(self, tile: Any, dir: Any) -> None:
            self.tile, self.dir = tile, dir

    with pytest.raises(TypeError):
        solo_trace(tables, [[Placement("START", "N")]], 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        solo_trace(tables, ((Placement("START", "N"),),), 99)
    with pytest.raises(AttributeError):
        solo_trace(tables, ((object(),),), 0)
    with pytest.raises(ValueError):
        solo_trace(object(), ((Placement("START", "N"),),), 0)
    assert solo_trace(tables, ((Placement("START", "N"),),), 0) == (1, ((1, 0, 0, "START@N",
                                                                       None),))
    assert solo_trace(tables, ((Placement(3, "N"),),), 0) is None
    assert solo_trace(tables, ((Placement("START", b"N"),),), 0) is None
    assert solo_trace(tables, ([Placement("START", "N")],), 0) is None  # type: ignore[arg-type]
    assert solo_trace(tables, ((),), 0) is None

    class Slotted:  # read from its slots, as msgspec's structs are
        __slots__ = ("dir", "tile")
        tile: str
        dir: str

    unset = Slotted()
    with pytest.raises(AttributeError):
        solo_trace(tables, ((unset,),), 0)
    unset.tile = "START"
    with pytest.raises(AttributeError):
        solo_trace(tables, ((unset,),), 0)
    unset.dir = "E"
    assert solo_trace(tables, ((unset,),), 0) == (1, ((1, 0, 0, "START@E", None),))


def test_the_command_rules_the_same_with_and_without_the_fast_path(tmp_path: Path) -> None:
    """``adjudicate --format jsonl`` writes the same bytes whether a line takes the fast path
    or not (solo_fast switched off in a second process)."""
    rng = random.Random(9)
    lines = [msgspec.json.encode(perfect(rng, rng.sample([2, 3, 4], rng.randint(0, 3))))
             for _ in range(20)]
    lines += [msgspec.json.encode(load(name)) for name in SOLO_FIXTURES]
    path = tmp_path / "solo.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    off = ("import runpy, sys; from pathcheck.games.dungeon import solo_fast; "
           "solo_fast._solo_c = lambda: None; "
           "sys.argv = ['pathcheck', 'adjudicate', '--format', 'jsonl', sys.argv[1]]; "
           "runpy.run_module('pathcheck', run_name='__main__')")
    runs = [subprocess.run([sys.executable, *args, str(path)], capture_output=True)
            for args in (["-m", "pathcheck", "adjudicate", "--format", "jsonl"], ["-c", off])]
    assert runs[0].returncode == runs[1].returncode == 3
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stdout.count(b"\n") == len(lines)
