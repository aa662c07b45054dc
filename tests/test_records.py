"""Dungeon and solo records: validation with pointers, compact notation, robustness."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.inputs.records import (
    DungeonRecord,
    Overrides,
    SoloRecord,
    iter_records,
    parse_dgn_line,
    parse_dungeon_record,
    parse_rules_option,
)

GOOD: dict[str, Any] = {
    "format": "dungeon/1",
    "advanced": True,
    "rules": [2, 4],
    "tiles": [{"tile": "START", "dir": "N"}, {"tile": "RE1", "dir": "N"}],
    "players": ["Ann", "Bob"],
    "lost": [{"player": "Ann", "after": 2}],
}


def parse(value: Any) -> DungeonRecord:
    return parse_dungeon_record(value, source="t.json", line=7)


def with_(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


def test_good_record() -> None:
    record = parse(GOOD)
    assert record.rules == {2, 4} and record.advanced and record.players == ("Ann", "Bob")
    assert record.lost[0].after == 2


@pytest.mark.parametrize(("value", "pointer", "fragment"), [
    (with_(tiles=[{"tile": "START", "dir": "N"}, {"tile": "Q9", "dir": "N"}]), "/tiles/1/tile",
     "unknown tile 'Q9'"),
    (with_(tiles=[{"tile": "START", "dir": "N"}, {"tile": "START", "dir": "N"}]),
     "/tiles/1/tile", "placed twice"),
    (with_(advanced=False, rules=[]), "/tiles/1/tile", "needs the advanced rules"),
    (with_(tiles=[{"tile": "START", "dir": "up"}]), "/tiles/0/dir", "expected N, E, S or W"),
    (with_(lost=[{"player": "Ann", "after": 3}]), "/lost/0/after", "from 1 to 2"),
    (with_(lost=[{"player": "Ann", "after": 1}, {"player": "Ann", "after": 2}]),
     "/lost/1/player", "two LOST cards"),
    (with_(advanced=False, rules=[4], tiles=[{"tile": "START", "dir": "N"}]), "/rules",
     "advanced rules only"),
    (with_(rules=[1, 4], lost=[{"player": "Ann", "after": 2}, {"player": "Bob", "after": 2}]),
     "/lost/1/after", "rule #1"),
    (with_(rules=[5]), "/rules/0", "expected one of the rules"),
    (with_(lost=[{"player": "Zed", "after": 1}]), "/lost/0/player", "not among the players"),
    (with_(format="dungeon/2"), "/format", "expected \"dungeon/1\""),
    (with_(tile=[]), "/tile", "unknown field"),
    ([1, 2], "", "expected a dungeon record"),
])
def test_invalid_records_name_the_field(value: Any, pointer: str, fragment: str) -> None:
    with pytest.raises(RecordError) as info:
        parse(value)
    assert info.value.pointer == pointer
    assert fragment in info.value.message
    assert str(info.value).startswith(f"t.json:7: {pointer or '/'}: ")
    assert isinstance(info.value, ValueError)


def test_overrides_replace_what_the_record_says() -> None:
    record = parse_dungeon_record(with_(rules=[2]), source="x", line=1,
                                  overrides=Overrides(rules=frozenset({3}), advanced=True))
    assert record.rules == frozenset({3})


def test_dgn_line_with_lost_cards_and_solo_line() -> None:
    record = parse_dgn_line("START@N R1@N !Ann !Bob R2@E # comment", source="d", line=2)
    assert isinstance(record, DungeonRecord)
    assert [(c.player, c.after) for c in record.lost] == [("Ann", 2), ("Bob", 2)]
    solo = parse_dgn_line("START@N L4@E | I1@N", source="d", line=3)
    assert isinstance(solo, SoloRecord) and [len(d) for d in solo.dungeons] == [2, 1]
    assert parse_dgn_line("   # nothing", source="d", line=4) is None


@pytest.mark.parametrize("text", ["START@N R1", "!Ann START@N", "START@X", "@N"])
def test_bad_dgn_tokens(text: str) -> None:
    with pytest.raises(RecordError):
        parse_dgn_line(text, source="d", line=1)


def test_rules_option() -> None:
    assert parse_rules_option("2,#3") == frozenset({2, 3})
    assert parse_rules_option("") == frozenset()
    assert parse_rules_option(None) is None
    with pytest.raises(ValueError, match="not an additional rule"):
        parse_rules_option("2,9")


def test_reader_reports_bad_lines_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join([
        json.dumps(GOOD), "{not json", json.dumps(with_(rules=[7])), "", json.dumps(GOOD)]))
    items = list(iter_records(str(path)))
    assert [type(i).__name__ for i in items] == ["DungeonRecord", "RecordError", "RecordError",
                                                 "DungeonRecord"]
    errors = [i for i in items if isinstance(i, RecordError)]
    assert [(e.line, e.pointer) for e in errors] == [(2, ""), (3, "/rules/0")]
    assert [i.line for i in items if isinstance(i, DungeonRecord)] == [1, 5]


def test_json_array_document_points_into_the_array(tmp_path: Path) -> None:
    path = tmp_path / "many.json"
    path.write_text(json.dumps([GOOD, with_(tiles=[])], indent=2))
    items = list(iter_records(str(path)))
    assert isinstance(items[0], DungeonRecord)
    assert isinstance(items[1], RecordError) and items[1].pointer == "/1/tiles"


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_any_reader(tmp_path_factory: pytest.TempPathFactory,
                                             data: bytes) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    for suffix in (".jsonl", ".json", ".dgn", ".data"):
        path = folder / f"in{suffix}"
        path.write_bytes(data)
        for item in iter_records(str(path)):
            assert isinstance(item, DungeonRecord | SoloRecord | RecordError)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    record = json.loads(json.dumps(GOOD))
    for _ in range(draw(st.integers(1, 3))):
        target: Any = record
        path = draw(st.lists(st.sampled_from(["tiles", "lost", "players", "rules", 0, 1,
                                              "tile", "dir", "player", "after"]), max_size=3))
        for key in path[:-1]:
            try:
                target = target[key]
            except (KeyError, IndexError, TypeError):
                break
        if path and isinstance(target, dict):
            target[path[-1]] = draw(json_values)
        elif path and isinstance(target, list) and isinstance(path[-1], int):
            with contextlib.suppress(IndexError):
                target[path[-1]] = draw(json_values)
    return record


@settings(max_examples=500)
@given(st.one_of(mutated_records(), json_values))
def test_mutated_records_give_a_record_or_a_record_error(value: Any) -> None:
    try:
        parse(value)
    except RecordError as exc:
        assert exc.source == "t.json" and exc.line == 7


@given(st.lists(st.sampled_from(["START@N", "R1@E", "L2@W", "|", "!Ann", "RE1@S", "Q@N", "@",
                                 "#", "I1@n", "X1@N"]), max_size=12))
def test_random_dgn_tokens_never_crash(tokens: list[str]) -> None:
    with contextlib.suppress(RecordError):
        parse_dgn_line(" ".join(tokens), source="d", line=1,
                       overrides=Overrides(advanced=True))


def test_dungeon_record_round_trips_through_json() -> None:
    record = parse(GOOD)
    back = {
        "format": "dungeon/1", "advanced": record.advanced, "rules": sorted(record.rules),
        "tiles": [{"tile": p.tile, "dir": p.dir.name} for p in record.tiles],
        "players": list(record.players or ()),
        "lost": [c.to_dict() for c in record.lost],
    }
    assert parse(msgspec.json.decode(msgspec.json.encode(back))) == record
