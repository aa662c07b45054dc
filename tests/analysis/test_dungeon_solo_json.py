"""Solo records (``solo/1``) analysed for ``analyse --format json/jsonl``: the moves written as
JSON (:func:`pathcheck.analysis.dungeon_solo._written`) are the bytes msgspec encodes of the
moves made as values, on every fixture and on random records played perfectly, joined,
split, turned, cut and mutated at random (hostile values included)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.analysis import dungeon_solo
from pathcheck.analysis.stream import AnalyseSettings, analyse_item
from pathcheck.errors import RecordError
from pathcheck.inputs.items import log_items
from pathcheck.solo.play import answer_key
from pathcheck.tracer.tileset import load_tileset

from ..fuzz import examples, json_values, mutate
from ..games.test_dungeon_fast import built

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dungeon"
TURNED = {"N": "S", "S": "N", "E": "W", "W": "E"}


def both_ways(log: Any) -> bytes | str:
    """The analysis's JSON, checked to be the same every way (as values or written as JSON;
    from the decoded record or from its text through the typed C path, which may decline but
    never differs or takes a record the usual way refuses); the error's text if none."""
    raw = json.dumps(log).encode()
    try:
        as_values = dungeon_solo.analyse(log, source="t").to_json()
    except RecordError as exc:
        with pytest.raises(RecordError) as again:
            dungeon_solo.analyse(log, source="t", for_json=True)
        assert str(again.value) == str(exc)
        assert dungeon_solo.analyse_raw(raw, source="t") is None
        return str(exc)
    except ValueError:  # a value json.dumps writes as no JSON (NaN): not a record
        return "not JSON"
    assert dungeon_solo.analyse(log, source="t", for_json=True).to_json() == as_values
    for for_json in (False, True):
        typed = dungeon_solo.analyse_raw(raw, source="t", for_json=for_json)
        assert typed is None or typed.to_json() == as_values
    with moves_in_python():
        typed = dungeon_solo.analyse_raw(raw, source="t", for_json=True)
        assert typed is None or typed.to_json() == as_values
    return as_values


@contextmanager
def moves_in_python() -> Iterator[None]:
    """solo_moves.c switched off: the typed path writes the moves from the templates in
    Python."""
    kept = dungeon_solo._solo_moves
    dungeon_solo._solo_moves = None
    try:
        yield
    finally:
        dungeon_solo._solo_moves = kept


def played(rng: random.Random, advanced: bool, rules: list[int]) -> dict[str, Any]:
    """A record of perfect play, then spoilt at random: dungeons joined or split, tiles
    turned or cut off (late, premature, misplaced and incomplete play)."""
    deck = load_tileset().deck_ids(advanced)
    rng.shuffle(deck)
    key = answer_key(["START", *deck], rules=rules)
    dungeons = [[{"tile": p.tile, "dir": p.dir.name} for p in d.placements] for d in key]
    for _ in range(rng.randrange(4)):
        kind = rng.randrange(4)
        k = rng.randrange(len(dungeons))
        if kind == 0 and k + 1 < len(dungeons):
            dungeons[k:k + 2] = [dungeons[k] + dungeons[k + 1]]
        elif kind == 1 and len(dungeons[k]) > 2:
            cut = rng.randrange(1, len(dungeons[k]))
            dungeons[k:k + 1] = [dungeons[k][:cut], dungeons[k][cut:]]
        elif kind == 2:
            tile = rng.choice(dungeons[k])
            tile["dir"] = TURNED[tile["dir"]]
        elif len(dungeons) > 1:
            del dungeons[-1]
    return {"format": "solo/1", "rules": rules, "dungeons": dungeons}


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*solo*.json")), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    both_ways(json.loads(path.read_text("utf-8")))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.sets(st.sampled_from([2, 3, 4])))
def test_random_play(seed: int, advanced: bool, rules: set[int]) -> None:
    log = played(random.Random(seed), advanced, sorted(rules))
    assert isinstance(both_ways(log), bytes)
    if speedups.available():  # the typed C path takes a record of every tile once
        assert dungeon_solo.analyse_raw(json.dumps(log).encode(), source="t") is not None


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_records(seed: int, data: st.DataObject) -> None:
    log = played(random.Random(seed), seed % 2 == 0, [2])
    mutate(data, log, json_values(["N", "E", "S", "W", "START", "R4", "I1", "L2"],
                                  ["tile", "dir", "rules", "dungeons", "seed", "tileset"]),
           most=3)
    both_ways(log)


def test_the_stream_writes_the_same(tmp_path: Path) -> None:
    """``analyse``'s stream writes the same bytes whether it asks for moves as JSON (json and
    jsonl output) or as values (the values encoded, or kept for --by-player)."""
    rng = random.Random(11)
    logs = [played(rng, rng.random() < 0.5, [2, 3]) for _ in range(20)]
    logs += [json.loads(p.read_text("utf-8")) for p in sorted(FIXTURES.glob("*solo*.json"))]
    path = tmp_path / "solo.jsonl"
    path.write_text("".join(json.dumps(log) + "\n" for log in logs), "utf-8")
    for output in ("jsonl", "json"):
        fast = [analyse_item(item, AnalyseSettings(output=output)).text
                for item in log_items(str(path))]
        kept = [analyse_item(item, AnalyseSettings(output=output, keep=True)).text
                for item in log_items(str(path))]
        assert fast == kept


@built
def test_solo_moves_misuse_is_an_exception_or_none() -> None:
    """solo_moves.c on what solo_trace never hands over: an exception or None (declined),
    never a crash (also under the sanitizers)."""
    from pathcheck.games.dungeon import solo_fast

    call: Any = speedups._speedups.solo_moves
    log = played(random.Random(5), False, [2])
    found = solo_fast.trace_decoded(json.dumps(log).encode())
    assert found is not None
    entry, _, traced = found
    words = dungeon_solo._words()
    args = [entry.dungeons, traced, words.templates, words.reasons, dungeon_solo.MISPLACED]
    assert call(*args) is not None
    one = traced[0]
    for bad_one in ((), (one[0] + 1, *one[1:]), (one[0], one[0] + 1, *one[2:]),
                    (one[0], one[1], 99, *one[3:]), (one[0], "1", *one[2:]),
                    (2**70, *one[1:])):
        assert call(entry.dungeons, (bad_one, *traced[1:]), *args[2:]) is None
    k = max(range(len(traced)), key=lambda d: traced[d][0])  # a dungeon of two tiles or more
    odd = list(entry.dungeons[k])
    odd[-1] = type(odd[-1])(tile="\ud800", dir="N")
    dungeons: list[Any] = list(entry.dungeons)
    dungeons[k] = tuple(odd)
    assert call(tuple(dungeons), *args[1:]) is None
    with pytest.raises(ValueError):
        call(entry.dungeons[1:], *args[1:])
    with pytest.raises(ValueError):
        call(entry.dungeons, traced, words.templates[:4], words.reasons, 2)
    with pytest.raises(TypeError):
        call(entry.dungeons, traced, ("x",) * 5, words.reasons, 2)
    assert call(entry.dungeons, traced, words.templates, (), 2) is None
    dungeons[k] = (object(),) * len(odd)
    with pytest.raises(AttributeError):
        call(tuple(dungeons), *args[1:])
