"""dungeon in memory solo records (solo/1): fixtures with their exact rulings, perfect play,
malformed records, fuzzing solo records and the CLI. What every game shares is in
test_conformance.py."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR
from pathcheck.ruling import Outcome, Ruling
from pathcheck.solo.play import answer_key
from pathcheck.tracer.tileset import TileKind, load_tileset
from tests.games.test_dungeon_solo_fast import mutated

# pathcheck.cli lives in cli/ (setuptools package-dir), which mypy cannot resolve statically;
# this is `from pathcheck.cli import cli`.
cli = importlib.import_module("pathcheck.cli").cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dungeon"
OPTIONS = AdjudicateOptions()
TILESET = load_tileset()


def load(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    return value


def rule(record: Any) -> Ruling:
    return ADJUDICATOR.adjudicate(record, source="solo", options=OPTIONS)


def perfect_record(deck: list[str], rules: tuple[int, ...] = ()) -> dict[str, Any]:
    key = answer_key(deck, rules=rules)
    return {"format": "solo/1", "rules": list(rules), "dungeons": [
        [{"tile": p.tile, "dir": p.dir.name} for p in d.placements] for d in key]}


SOLO: dict[str, tuple[list[tuple[str, str]], str | None, int]] = {
    "legal-solo-perfect-standard-order": ([], None, 38),
    "legal-solo-perfect-rules-2-3-4": ([], None, 50),
    "illegal-solo-misplaced": (
        [("solo/fail", "/dungeons/0/2")],
        "tile 3 of the stack: I2@E is placed against the heading (misplaced); the score counts "
        "the 2 tiles before it", 2),
    "illegal-solo-late": (
        [("solo/fail", "/dungeons/0/13")],
        "tile 14 of the stack: L4@N is placed on dungeon 1, which was already Lost at tile 13 "
        "of it: a new dungeon was due (late); the score counts the 13 tiles before it", 13),
    "illegal-solo-premature": (
        [("solo/premature", "/dungeons/1/0")],
        "tile 6 of the stack: I5@N starts dungeon 2 while dungeon 1 was not Lost (premature); "
        "the score counts the 5 tiles before it", 5),
    "illegal-solo-incomplete": (
        [("solo/all-tiles", "/dungeons")],
        "37 tiles placed; the solo game places all 38: missing RE4", 37),
    "legal-solo-seed-perfect": ([], None, 46),
    "illegal-solo-seed-wrong-order": (
        [("solo/seed", "/dungeons/0/1/tile")],
        "tile 2 of seed 1303N-QK8NC is I9, not X1", 46),
    "illegal-solo-seed-rules": (
        [("solo/seed", "/rules")],
        "seed 1303N-QK8NC plays with additional rules #2, #3; the record with #2", 42),
    "illegal-solo-start-not-first": (
        [("solo/all-tiles", "/dungeons/0/0/tile"), ("solo/premature", "/dungeons/1/0")],
        "the first tile is RE4; the solo game starts with START", 1),
}


@pytest.mark.parametrize("name", sorted(SOLO))
def test_solo_fixture(name: str) -> None:
    found, message, score = SOLO[name]
    ruling = rule(load(name))
    assert ruling.format == "solo/1"
    assert [(v.rule.id, v.move.pointer) for v in ruling.violations] == found
    assert (ruling.violations[0].message if ruling.violations else None) == message
    assert dict(ruling.final_scores) == {"solo": score}
    assert list(ruling.winners) == []


def test_perfect_record_rounds_are_the_dungeons() -> None:
    ruling = rule(load("legal-solo-perfect-standard-order"))
    assert [r.title for r in ruling.rounds] == [
        "Dungeon 1 (tiles 1-13)", "Dungeon 2 (tiles 14-17)", "Dungeon 3 (tiles 18-22)",
        "Dungeon 4 (tiles 23-26)", "Dungeon 5 (tiles 27-37)", "Dungeon 6 (tiles 38-38)"]
    assert [dict(r.scores)["solo"] for r in ruling.rounds] == [13, 17, 22, 26, 37, 38]
    first = ruling.rounds[0].events[0]
    assert first.text == "dungeon 1 is Lost at its tile 13 (L3@S, tile 13 of the stack): dead-end"
    assert first.rule is not None and first.rule.id == "dungeon/lost-dead-end"
    assert ruling.notes[0] == "score 38 of 38: every tile counts (solo/score)"


def test_bonus_is_only_added_without_failure() -> None:
    record = load("legal-solo-perfect-rules-2-3-4")
    assert rule(record).notes[0] == ("score 50 of 50: every tile counts, +4 for each additional "
                                     "rule (#2, #3, #4) (solo/score)")
    record["dungeons"][0][1]["dir"] = "S"  # misplaced second tile
    ruling = rule(record)
    assert ruling.violations[0].rule.id == "solo/fail"
    assert dict(ruling.final_scores) == {"solo": 1}
    assert ruling.notes[0] == ("score 1 of 50: the tiles before the failing tile 2, no bonus "
                               "for additional rules (solo/score)")


def test_failure_event_sits_with_its_dungeon() -> None:
    ruling = rule(load("illegal-solo-premature"))
    assert len(ruling.rounds) == 1
    texts = [e.text for e in ruling.rounds[0].events]
    assert texts[0] == "dungeon 1 (5 tiles) is never Lost"
    assert texts[1].startswith("tile 6 of the stack: I5@N starts dungeon 2")
    late = rule(load("illegal-solo-late"))
    assert [e.rule.id if e.rule else None for e in late.rounds[0].events] == [
        "dungeon/lost-dead-end", "solo/fail"]


def test_new_dungeon_starting_with_a_repeat_tile() -> None:
    rng = random.Random(5)
    for _ in range(200):
        deck = ["START", *rng.sample(TILESET.deck_ids(advanced=True), 37)]
        record = perfect_record(deck)
        firsts = [d[0]["tile"] for d in record["dungeons"][1:]]
        if any(TILESET[t].kind is TileKind.REPEAT for t in firsts):
            break
    else:
        pytest.fail("no deck with a dungeon starting on a Repeat tile")
    ruling = rule(record)
    assert ruling.outcome is Outcome.LEGAL
    assert dict(ruling.final_scores) == {"solo": 38}


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.sets(st.sampled_from([2, 3, 4])))
def test_perfect_play_scores_the_maximum(rng: random.Random, rules: set[int]) -> None:
    deck = ["START", *rng.sample(TILESET.deck_ids(advanced=True), 37)]
    ruling = rule(perfect_record(deck, tuple(sorted(rules))))
    assert ruling.violations == ()
    assert dict(ruling.final_scores) == {"solo": 38 + 4 * len(rules)}


# --- malformed -------------------------------------------------------------------------

MALFORMED: dict[str, tuple[Any, str, str]] = {
    "rule 1": ({"rules": [1]}, "/rules/0", "1 is not one of 2, 3, 4"),
    "unknown tile": ({"dungeons": [[{"tile": "Q9", "dir": "N"}]]}, "/dungeons/0/0/tile",
                     "unknown tile 'Q9' (not in tile set 'standard')"),
    "repeated tile": ({"dungeons": [[{"tile": "START", "dir": "N"}, {"tile": "START",
                                                                      "dir": "N"}]]},
                      "/dungeons/0/1/tile", "tile START is placed twice (first at "
                                            "/dungeons/0/0)"),
    "empty dungeon": ({"dungeons": [[]]}, "/dungeons/0", "Expected `array` of length >= 1"),
    "bad dir": ({"dungeons": [[{"tile": "START", "dir": "up"}]]}, "/dungeons/0/0/dir",
                "'up' is not one of 'E', 'N', 'S', 'W'"),
    "extra field": ({"player": "Ann"}, "",
                    "Object contains unknown field `player`"),
}


def test_seed_rules_must_match() -> None:
    record = load("legal-solo-seed-perfect")
    record["rules"] = [2]
    ruling = rule(record)
    assert [(v.rule.id, v.move.pointer, v.message) for v in ruling.violations] == [
        ("solo/seed", "/rules",
         "seed 1303N-QK8NC plays with additional rules #2, #3; the record with #2")]


def test_unreadable_seed_is_malformed() -> None:
    record = load("legal-solo-seed-perfect")
    record["seed"] = "1303N-QK8NX"
    with pytest.raises(RecordError) as info:
        rule(record)
    assert info.value.pointer == "/seed"
    assert "check character mismatch" in info.value.message


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_solo_record(case: str) -> None:
    change, pointer, message = MALFORMED[case]
    record = {**load("legal-solo-perfect-standard-order"), **change}
    with pytest.raises(RecordError) as info:
        rule(record)
    assert (info.value.pointer, info.value.message, info.value.line) == (pointer, message, None)


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_mutated_solo_records_give_a_ruling_or_a_record_error(data: st.DataObject) -> None:
    record = mutated(data)  # a solo fixture mutated a few times (the fast path's tests)
    try:
        result = rule(record)
    except RecordError:
        return
    assert isinstance(result, Ruling)


# --- the CLI ---------------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["adjudicate", *args])


def test_cli_solo_text() -> None:
    result = invoke("dungeon", str(FIXTURES / "legal-solo-perfect-rules-2-3-4.json"))
    assert result.exit_code == 0, result.output
    assert "dungeon in memory (solo/1), players: solo" in result.output
    assert "Final: solo 50" in result.output
    assert "Verdict: legal" in result.output


def test_cli_solo_failure_exits_1() -> None:
    result = invoke(str(FIXTURES / "illegal-solo-misplaced.json"))
    assert result.exit_code == 1
    assert "ILLEGAL: round 1, move 3: tile 3 of the stack: I2@E is placed against the heading" \
        in result.output
    assert "at /dungeons/0/2" in result.output


def test_cli_solo_json() -> None:
    result = invoke("dungeon", "--format", "json", str(FIXTURES / "illegal-solo-late.json"))
    assert result.exit_code == 1
    (doc,) = json.loads(result.output)
    assert doc["format"] == "solo/1"
    assert doc["final_scores"] == {"solo": 13}
    assert doc["violations"][0]["rule"]["id"] == "solo/fail"
    assert doc["violations"][0]["move"] == {"round": 1, "index": 14, "player": None,
                                            "pointer": "/dungeons/0/13"}


def test_cli_solo_malformed_exits_3(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "solo/1", "rules": [1],
                                "dungeons": [[{"tile": "START", "dir": "N"}]]}))
    result = invoke(str(path))
    assert result.exit_code == 3
    assert "bad.json:1: /rules/0: 1 is not one of 2, 3, 4" in result.output
