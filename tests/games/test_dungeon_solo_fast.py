"""The solo ruling's own reader and check against the engine's: ``read_record`` (one pass over the
typed record, the standard tile set) must give what :func:`~pathcheck.games.dungeon.log.read_solo`
gives, or the same RecordError, and ``_check`` what :func:`pathcheck.solo.check_solo` decides,
on every solo fixture, random perfect and spoilt play, and mutated records."""

from __future__ import annotations

import copy
import json
import random
from itertools import accumulate
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games.dungeon.log import read_solo
from pathcheck.games.dungeon.solo import _check, read_record
from pathcheck.solo.play import answer_key, check_solo
from pathcheck.tracer.tileset import load_tileset

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dungeon"
SOLO_FIXTURES = sorted(p.stem for p in FIXTURES.glob("*solo*.json"))
TILESET = load_tileset()
DIRS = ["N", "E", "S", "W"]


def load(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    return value


def same_as_the_engine(log: Any) -> None:
    """``read_record`` and ``_check`` agree with ``read_solo`` and ``check_solo`` on ``log``."""
    try:
        want = read_solo(log, source="solo")
    except RecordError as exc:
        with pytest.raises(RecordError) as info:
            read_record(log, "solo")
        assert (info.value.pointer, info.value.message, info.value.line) == \
            (exc.pointer, exc.message, exc.line)
        return
    read = read_record(log, "solo")
    assert read.record == want
    tileset = want.tileset or TILESET
    every = [p for d in want.dungeons for p in d]
    assert read.starts == [0, *accumulate(len(d) for d in want.dungeons)]
    assert [tileset.tiles[i].id for i in read.tiles] == [p.tile for p in every]
    assert list(read.dirs) == [int(p.dir) for p in every]
    assert list(read.tokens) == [str(p) for p in every]
    got = _check(read, tileset)
    result = check_solo(want.dungeons, rules=want.rules, tileset=tileset)
    assert (got.failure, got.failing_tile, got.failing_dungeon, got.score, got.max_score) == \
        (result.failure, result.failing_tile, result.failing_dungeon, result.score,
         result.max_score)
    assert [(t.lost_at, t.reason, t.why, t.rule, t.last_movement) for t in got.traces] == \
        [(t.lost_at, t.reason, "" if t.reason is None else t.reason.value, t.rule,
          int(t.last_movement)) for t in result.traces]


@pytest.mark.parametrize("name", SOLO_FIXTURES)
def test_every_solo_fixture(name: str) -> None:
    same_as_the_engine(load(name))


def test_the_fixtures_are_there() -> None:
    assert len(SOLO_FIXTURES) >= 10


def test_other_tile_set_and_rules_from_the_seed() -> None:
    record = load("legal-solo-perfect-standard-order")
    same_as_the_engine({**record, "tileset": "standard"})
    seeded = load("legal-solo-seed-perfect")
    del seeded["rules"]
    same_as_the_engine(seeded)
    same_as_the_engine({**record, "rules": [2, 2]})


def spoilt_play(rng: random.Random, rules: set[int], spoil: list[tuple[int, str]]) -> Any:
    """A solo record of perfect play of a random deck, with some tiles turned, dungeons split
    or joined and tiles swapped (misplaced, premature, late and out-of-order tiles)."""
    deck = ["START", *rng.sample(TILESET.deck_ids(advanced=True), 37)]
    flat = [(p.tile, p.dir.name, k) for k, d in enumerate(answer_key(deck, rules=rules))
            for p in d.placements]
    for at, how in spoil:
        tile, direction, dungeon = flat[at]
        if how == "turn":
            flat[at] = (tile, DIRS[(DIRS.index(direction) + 1) % 4], dungeon)
        elif how == "split":
            flat[at:] = [(t, d, k + 1) for t, d, k in flat[at:]]
        elif how == "join" and at:
            flat[at:] = [(t, d, k - 1) for t, d, k in flat[at:]]
        elif how == "swap" and at:
            flat[at - 1], flat[at] = (flat[at][0], *flat[at - 1][1:]), (tile, *flat[at][1:])
    dungeons: list[list[dict[str, str]]] = []
    last = None
    for tile, direction, dungeon in flat:
        if dungeon != last:
            dungeons.append([])
            last = dungeon
        dungeons[-1].append({"tile": tile, "dir": direction})
    return {"format": "solo/1", "rules": sorted(rules), "dungeons": dungeons}


SPOILS = st.lists(st.tuples(st.integers(0, 37), st.sampled_from(["turn", "split", "join",
                                                                 "swap"])), max_size=3)


def mutated(data: st.DataObject) -> Any:
    """A solo fixture (legal, illegal or malformed) mutated a few times, often malformed."""
    record = copy.deepcopy(load(data.draw(st.sampled_from(SOLO_FIXTURES))))
    dungeons = record.get("dungeons")
    for _ in range(data.draw(st.integers(1, 3))):
        action = data.draw(st.sampled_from(["dir", "tile", "drop", "split", "rules", "value",
                                            "field"]))
        if action == "rules":
            record["rules"] = data.draw(st.lists(st.integers(0, 5), max_size=3))
            continue
        if action == "field":
            key = data.draw(st.sampled_from(["tileset", "seed", "id", "note", "extra"]))
            record[key] = data.draw(st.sampled_from(["standard", "1303N-QK8NC", "x", 3, None]))
            continue
        if not isinstance(dungeons, list) or not dungeons:
            continue
        d = data.draw(st.integers(0, len(dungeons) - 1))
        if not isinstance(dungeons[d], list) or not dungeons[d]:
            continue
        i = data.draw(st.integers(0, len(dungeons[d]) - 1))
        if action in ("dir", "tile") and not isinstance(dungeons[d][i], dict):
            continue
        if action == "dir":
            dungeons[d][i]["dir"] = data.draw(st.sampled_from(["N", "E", "S", "W", "Q", 3]))
        elif action == "tile":
            dungeons[d][i]["tile"] = data.draw(st.sampled_from(["START", "RE1", "Q9", "", 7]))
        elif action == "drop":
            dungeons[d].pop(i)
        elif action == "split":
            dungeons.insert(d + 1, dungeons[d][i:])
            del dungeons[d][i:]
        else:
            dungeons[d][i] = data.draw(st.none() | st.integers() | st.text(max_size=3))
    return record


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sets(st.sampled_from([2, 3, 4])), SPOILS)
def test_random_play(rng: random.Random, rules: set[int], spoil: list[tuple[int, str]]) -> None:
    same_as_the_engine(spoilt_play(rng, rules, spoil))


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_mutated_records(data: st.DataObject) -> None:
    same_as_the_engine(mutated(data))
