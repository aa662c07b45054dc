"""The game notation: exact round trips on every fixture and on random games, errors, the CLI."""

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

from pathcheck import notation
from pathcheck.errors import RecordError
from pathcheck.games.dungeon import gen as dungeon_gen
from pathcheck.games.memo_dice import gen as dice_gen
from pathcheck.games.memoarrr import gen as memoarrr_gen
from pathcheck.games.robot_memory import gen as robot_gen
from pathcheck.inputs.logs import iter_source
from pathcheck.notation import NotationError

cli = importlib.import_module("pathcheck.cli").cli
ROOT = Path(__file__).resolve().parents[1]


def fits_its_format(log: dict[str, Any]) -> bool:
    """Whether a log fits the typed format of its game (each such fixture is committed in both
    forms; the malformed ones round-trip too: tests/test_notation_lossless.py)."""
    from pathcheck import games

    plugin = games.for_format(str(log["format"]))
    log_format = plugin.log_formats[plugin.formats.index(str(log["format"]))]  # type: ignore[attr-defined]
    try:
        log_format.read(log, source="fixture")
    except RecordError:
        return False
    return True


FIXTURES = sorted(
    p for p in ROOT.glob("fixtures/**/*.json")
    if isinstance(v := json.loads(p.read_text(encoding="utf-8")), dict)
    and v.get("format") in notation.formats() and fits_its_format(v)
)


def test_every_game_has_fixtures() -> None:
    formats = {json.loads(p.read_text(encoding="utf-8"))["format"] for p in FIXTURES}
    assert formats == set(notation.formats())


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_in_notation_round_trips(path: Path) -> None:
    value = json.loads(path.read_text(encoding="utf-8"))
    text_path = path.with_suffix(notation.EXTENSION)
    text = text_path.read_text(encoding="utf-8")
    assert notation.write(value) == text  # the committed notation is the conversion
    assert notation.parse(text, source=str(text_path)) == value  # notation -> JSON exact
    assert notation.write(notation.parse(text, source="x")) == text  # and back


def _round_trip(log: dict[str, Any]) -> None:
    text = notation.write(log)
    assert notation.parse(text, source="random") == log
    assert notation.write(notation.parse(text, source="random")) == text


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), advanced=st.booleans(),
       rules=st.sets(st.integers(1, 3)))
def test_random_dungeon_games_round_trip(seed: int, players: int, advanced: bool,
                                         rules: set[int]) -> None:
    log = dungeon_gen.random_game(random.Random(seed), players=players, advanced=advanced,
                                  rules=rules | ({4} if advanced and seed % 2 else set()))
    _round_trip(log)
    # without the deal, too
    for exploration in log["explorations"]:
        del exploration["hands"], exploration["deck"]
    _round_trip(log)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), edition=st.sampled_from([2018, 2023]),
       expert=st.booleans(), ordered=st.booleans())
def test_random_memoarrr_games_round_trip(seed: int, players: int, edition: int, expert: bool,
                                          ordered: bool) -> None:
    log = memoarrr_gen.random_game(random.Random(seed), players=players, edition=edition,
                                   expert=expert, ordered_stack=ordered)
    _round_trip(log)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), with_dice=st.booleans())
def test_random_memo_dice_games_round_trip(seed: int, with_dice: bool) -> None:
    _round_trip(dice_gen.random_game(random.Random(seed), with_dice=with_dice))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32),
       variant=st.sampled_from(["standard", "solo", "team", "5+", "custom"]))
def test_random_robot_memory_games_round_trip(seed: int, variant: str) -> None:
    _round_trip(robot_gen.random_game(random.Random(seed), variant=variant))


def test_names_that_need_quotes_round_trip() -> None:
    log = {"format": "game/1", "players": ["Ann Lee", "+x", "exploration"],
           "explorations": [{"start_player": "+x", "hands": {}, "turns": [
               {"player": "Ann Lee", "tile": "R1", "dir": "N", "draw": None,
                "lost": ["+x", "Ann Lee"], "note": "a} \"b\""}]}]}
    _round_trip(log)


def test_ascii_separators_and_comments() -> None:
    text = ("#! game/1\nplayers: Ann Bob  # seat order\nexploration Ann\n"
            "Ann R1@n ; Bob R2@E . Ann I4@w !Bob   # Bob called it\n")
    turns = notation.parse(text, source="t")["explorations"][0]["turns"]
    assert [(t["player"], t["tile"], t["dir"], t["lost"]) for t in turns] == [
        ("Ann", "R1", "N", []), ("Bob", "R2", "E", []), ("Ann", "I4", "W", ["Bob"])]


@pytest.mark.parametrize(("text", "where", "expected"), [
    ("players: Ann\n", "t.pcn:1:1", "format line first"),
    ("#! chess/1\n", "t.pcn:1:4", "expected a format"),
    ("#! game/1\nplayers: Ann Bob\nAnn R1@N\n", "t.pcn:3:1", "'exploration START_PLAYER'"),
    ("#! game/1\nplayers: Ann Bob\nexploration Ann\nAnn R1N\n", "t.pcn:4:5", "ID@DIR"),
    ("#! game/1\nplayers: Ann Bob\nexploration Ann\nAnn R1@N Bob\n", "t.pcn:4:10", "!NAME"),
    ("#! game/1\nplayers: Ann\ncolour: red\n", "t.pcn:3:1", "unknown setting 'colour'"),
    ("#! memoarrr/1\nedition: 2023\nplayers: A B\nstart: A\ntreasures: 1\nround dark\n"
     "A B1 crab/lava swap=B2 · B B2 crab/water\n", "t.pcn:7:31", "recorded as another card before"),
    ("#! robot-memory/1\nvariant: solo\nplayers: A\nround 1x1 first A\nrow -\nA A r1c1 pink\n",
     "t.pcn:6:10", "expected short-circuit or type/colour/number"),
    ("#! memo-dice/1\nplayers: A B\nround\nA 3 cat/blue\n", "t.pcn:4:5", "expected the cup colour"),
])
def test_errors_name_file_line_column(text: str, where: str, expected: str) -> None:
    with pytest.raises(NotationError) as info:
        notation.parse(text, source="t.pcn")
    assert str(info.value).startswith(where + ": ")
    assert expected in str(info.value)
    assert isinstance(info.value, RecordError) and isinstance(info.value, ValueError)


def test_convert_both_ways_and_adjudicate_notation(tmp_path: Path) -> None:
    runner = CliRunner()
    source = ROOT / "fixtures" / "dungeon" / "legal-3p-basic.json"
    text_file = tmp_path / "game.pcn"
    result = runner.invoke(cli, ["convert", str(source), "-o", str(text_file)])
    assert result.exit_code == 0, result.output
    assert text_file.read_text(encoding="utf-8") == notation.write(json.loads(source.read_text()))
    result = runner.invoke(cli, ["convert", str(text_file)])
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads(source.read_text())
    result = runner.invoke(cli, ["convert", "-", "--to", "json"],
                           input=text_file.read_text(encoding="utf-8"))
    assert json.loads(result.output) == json.loads(source.read_text())
    by_json = runner.invoke(cli, ["adjudicate", str(source), "--format", "json"])
    by_text = runner.invoke(cli, ["adjudicate", str(text_file), "--format", "json"])
    assert by_json.exit_code == by_text.exit_code == 0
    strip = [{k: v for k, v in r.items() if k != "source"} for r in json.loads(by_json.output)]
    assert strip == [{k: v for k, v in r.items() if k != "source"}
                     for r in json.loads(by_text.output)]


def test_several_logs_in_one_notation_file(tmp_path: Path) -> None:
    texts = [(ROOT / "fixtures" / d).read_text(encoding="utf-8") for d in
             ("memo-dice/legal-2p.pcn", "robot-memory/legal-solo.pcn")]
    both = tmp_path / "both.pcn"
    both.write_text("\n".join(texts), encoding="utf-8")
    result = CliRunner().invoke(cli, ["adjudicate", str(both), "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    assert [json.loads(x)["game"] for x in result.output.splitlines()] == [
        "memo-dice", "robot-memory"]


def test_bad_notation_is_one_line_exit_3(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pcn"
    bad.write_text("#! game/1\nplayers: Ann Bob\nexploration Ann\nAnn R1@N · Bob\n")
    for args in (["convert", str(bad)], ["adjudicate", str(bad)]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 3
        assert f"{bad}:4:12: 'Bob': expected PLAYER TILE@DIR" in result.output


@pytest.mark.parametrize("name", ["empty.pcn", "empty.jsonl", "comments.pcn"])
def test_a_file_with_no_log_is_invalid_not_legal(tmp_path: Path, name: str) -> None:
    empty = tmp_path / name
    empty.write_text("# nothing recorded yet\n" if name.startswith("comments") else "")
    legal = ROOT / "fixtures" / "memo-dice" / "legal-2p.pcn"
    result = CliRunner().invoke(cli, ["adjudicate", str(legal), str(empty)])
    assert result.exit_code == 3
    assert f"pathcheck: invalid: {empty}: no log in it" in result.output
    assert "Verdict: legal" in result.output  # the other log is still ruled on


@pytest.mark.parametrize(("fixture", "line", "pointer"), [
    ("dungeon/malformed-dir.pcn", 11, "/explorations/0/turns/2/dir"),
    ("memoarrr/malformed-unknown-player.pcn", 19, "/rounds/2/actions/1/player"),
    ("robot-memory/malformed-off-grid.pcn", 29, "/rounds/1/turns/0/position"),
    ("memo-dice/malformed-cup-range.pcn", 17, "/rounds/0/uncovering/0/cup"),
])
def test_a_malformed_notation_log_names_the_line_of_the_move(fixture: str, line: int,
                                                              pointer: str) -> None:
    path = ROOT / "fixtures" / fixture
    result = CliRunner().invoke(cli, ["adjudicate", str(path)])
    assert result.exit_code == 3
    assert f"{path}:{line}: {pointer}: " in result.output


def _two_logs(tmp_path: Path) -> Path:
    both = tmp_path / "both.pcn"
    both.write_text("".join((ROOT / "fixtures" / d).read_text(encoding="utf-8") for d in
                            ("memo-dice/legal-2p.pcn", "robot-memory/legal-solo.pcn")),
                    encoding="utf-8")
    return both


def test_convert_to_jsonl_writes_one_log_a_line(tmp_path: Path) -> None:
    both = _two_logs(tmp_path)
    logs = [doc.value for doc in iter_source(str(both))]  # type: ignore[union-attr]
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["convert", str(both), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [json.loads(line) for line in out.read_text("utf-8").splitlines()] == logs
    result = CliRunner().invoke(cli, ["adjudicate", str(out), "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    assert [json.loads(x)["game"] for x in result.output.splitlines()] == [
        "memo-dice", "robot-memory"]
    stdout = CliRunner().invoke(cli, ["convert", str(both), "--to", "jsonl"])
    assert [json.loads(line) for line in stdout.output.splitlines()] == logs
    one = tmp_path / "one.ndjson"
    source = ROOT / "fixtures" / "memo-dice" / "legal-2p.json"
    assert CliRunner().invoke(cli, ["convert", str(source), "-o", str(one)]).exit_code == 0
    assert one.read_text("utf-8").count("\n") == 1
    assert json.loads(one.read_text("utf-8")) == json.loads(source.read_text("utf-8"))


def test_convert_to_json_writes_a_json_document(tmp_path: Path) -> None:
    both = _two_logs(tmp_path)
    lines = tmp_path / "games.jsonl"
    CliRunner().invoke(cli, ["convert", str(both), "-o", str(lines)])
    document = tmp_path / "games.json"
    result = CliRunner().invoke(cli, ["convert", str(lines), "-o", str(document)])
    assert result.exit_code == 0, result.output  # JSON in, JSON out: the name says so
    assert json.loads(document.read_text("utf-8")) == [
        json.loads(x) for x in lines.read_text("utf-8").splitlines()]
    back = tmp_path / "back.pcn"
    assert CliRunner().invoke(cli, ["convert", str(document), "-o", str(back)]).exit_code == 0
    def second_log(text: str) -> str:
        return text.split("\n#!", 1)[1].strip()

    assert second_log(back.read_text("utf-8")) == second_log(both.read_text("utf-8"))


def test_convert_to_contradicting_the_output_name_is_a_usage_error(tmp_path: Path) -> None:
    both = _two_logs(tmp_path)
    result = CliRunner().invoke(cli, ["convert", str(both), "--to", "notation", "-o",
                                      str(tmp_path / "x.json")])
    assert result.exit_code == 2
    assert "--to notation but -o" in result.output
    assert not (tmp_path / "x.json").exists()


def test_a_malformed_log_in_notation_is_ruled_as_its_json(tmp_path: Path) -> None:
    source = ROOT / "fixtures" / "dungeon" / "malformed-advanced-type.json"
    text = tmp_path / "bad.pcn"
    result = CliRunner().invoke(cli, ["convert", str(source), "-o", str(text)])
    assert result.exit_code == 0, result.output
    assert 'mode: $"yes"' in text.read_text("utf-8")
    by_json = CliRunner().invoke(cli, ["adjudicate", str(source)])
    by_text = CliRunner().invoke(cli, ["adjudicate", str(text)])
    assert by_json.exit_code == by_text.exit_code == 3
    assert by_json.output.replace(str(source), "LOG") == by_text.output.replace(str(text), "LOG")
    assert "/advanced: Expected `bool`, got `str`" in by_text.output


@pytest.mark.parametrize(("value", "column", "message"), [
    ("$" + "[" * 70 + "]" * 70, 14, "nested deeper than the limit of 64"),
    ("$" + "[" * 5000, 14, "expected a JSON value right after '$'"),
    ("$NaN", 14, "NaN: not a JSON value"),
    ("$1e999", 14, "too large"),
    ("$" + "9" * 5000, 14, "expected a JSON value right after '$'"),
    ('${"a":1,"a":2}', 14, "key 'a' appears twice"),
    ('$"\\ud800"', 14, "lone surrogate"),
    ('"\\udfff x"', 14, "lone surrogate"),
    ('"\\q"', 14, "bad quoted text"),
    ("$1x", 16, "expected a space after the '$' value"),
    ("$", 14, "expected a JSON value right after '$'"),
])
@pytest.mark.parametrize("command", [["adjudicate"], ["convert"], ["record", "--resume"]])
def test_hostile_values_are_one_line_exit_3(tmp_path: Path, value: str, column: int,
                                            message: str, command: list[str]) -> None:
    path = tmp_path / "bad.pcn"
    path.write_text(f"#! game/1\nplayers: Ann {value}\nexploration Ann\n", encoding="utf-8")
    result = CliRunner().invoke(cli, [*command, str(path)], input="")
    assert result.exit_code == 3, result.output
    lines = [x for x in result.output.splitlines() if "pcn" in x]
    assert len(lines) == 1 and f"{path}:2:{column}: " in lines[0] and message in lines[0]
