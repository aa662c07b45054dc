"""Options that agree across commands: ``--at`` of ``analyse`` as of ``adjudicate``, options
that apply to ``analyse --position`` only, ``schema NAME`` (docs/cli.md, Exit codes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GAME = str(FIXTURES / "dungeon" / "legal-3p-basic.json")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", ["analyse", "adjudicate"])
def test_at_fails_the_same_way_in_analyse_and_adjudicate(command: str, tmp_path: Path) -> None:
    code, out, err = run(command, GAME, "--at", "x")  # no ROUND.TURN: usage, nothing read
    assert code == 2 and out == "" and "Invalid value for '--at': 'x': expected ROUND.TURN" in err
    code, out, err = run(command, GAME, "--at", "9.9")  # a moment the log does not have
    assert code == 3 and out == ""
    assert err.splitlines()[-1].startswith(f"pathcheck: invalid: {GAME}:1: --at 9.9: ")
    invalid = tmp_path / "invalid.json"
    invalid.write_text('{"format": "game/1", "players": "Ann"}', "utf-8")
    code, out, err = run(command, str(invalid), "--at", "1.1")
    assert code == 3 and out == ""
    assert err.splitlines() == [
        f"pathcheck: invalid: {invalid}:1: /players: Expected `array`, got `str`"]


def test_analyse_at_of_a_log_of_another_game_is_invalid_input() -> None:
    memoarrr = str(FIXTURES / "memoarrr" / "legal-3p-2023.json")
    code, out, err = run("analyse", memoarrr, "--at", "1.1")
    assert code == 3 and out == ""
    assert err.splitlines() == [
        f"pathcheck: invalid: {memoarrr}:1: /format: --at reads a dungeon in memory game log "
        "(format game/1)"]


@pytest.mark.parametrize("option", [["--advanced"], ["--basic"], ["--rules", "2"],
                                    ["--tileset", "standard"]])
@pytest.mark.parametrize("at", [[], ["--at", "1.5"]])
def test_position_options_given_with_a_log_are_a_usage_error(option: list[str],
                                                              at: list[str]) -> None:
    code, out, err = run("analyse", GAME, *at, *option)
    assert code == 2 and out == ""
    assert (f"Error: {option[0]} applies to --position only: a log (also with --at) says its "
            "own rules, mode and tile set") in err


@pytest.mark.parametrize("tileset", ["/nonexistent.toml", "/tmp"])
def test_tileset_with_a_log_is_a_usage_error_whatever_the_file(tileset: str) -> None:
    code, out, err = run("analyse", GAME, "--tileset", tileset)
    assert code == 2 and out == ""
    assert "Error: --tileset applies to --position only" in err
    code, _, err = run("analyse", "--position", "START@N R1@N", "--tileset", tileset)
    assert code == 4 and err.startswith(f"pathcheck: error: {tileset}: ")  # then checked


@pytest.mark.parametrize("logs", [[GAME], [GAME, "/nonexistent"], ["/nonexistent"]])
def test_a_log_given_with_position_is_a_usage_error(logs: list[str]) -> None:
    code, out, err = run("analyse", "--position", "START@N R1@N", "--hand", "R2", *logs)
    assert code == 2 and out == ""
    assert "Error: --position analyses the stack given, not a LOG" in err


def test_position_options_apply_to_a_position() -> None:
    code, out, _ = run("analyse", "--position", "START@N RE1@N", "--hand", "R2", "--advanced",
                       "--rules", "2")
    assert code == 0 and out.startswith("Position: START@N RE1@N")
    code, _, err = run("analyse", "--position", "START@N RE1@N", "--hand", "R2")
    assert code == 2 and "RE1" in err  # a Repeat tile needs --advanced: it was read


def test_csv_cells_cannot_break_the_row_reorder_the_display_or_run(tmp_path: Path) -> None:
    import csv
    import io
    import json

    log = json.loads((FIXTURES / "memo-dice" / "legal-2p.json").read_text("utf-8"))
    text = json.dumps(log)
    for old, new in zip(log["players"], ["Ann\nBob,x\r\ufeff", " =1+1\u202e"], strict=True):
        text = text.replace(json.dumps(old), json.dumps(new))
    path = tmp_path / "hostile.json"
    path.write_text(text, "utf-8")
    code, out, _ = run("analyse", str(path), "--by-player", "--format", "csv")
    assert code == 0
    assert len(out.splitlines()) == 3  # the header and one line per player
    players = {row["player"] for row in csv.DictReader(io.StringIO(out))}
    assert players == {"Ann\\nBob,x\\r\\ufeff", "' =1+1\\u202e"}
    assert not any(ch in out for ch in "\r\u202e\ufeff")
    code, out, _ = run("analyse", str(path), "--by-player", "--format", "json")
    assert {row["player"] for row in json.loads(out)} == {"Ann\nBob,x\r\ufeff", " =1+1\u202e"}


def test_analyse_at_gives_the_position_of_every_log_of_the_file(tmp_path: Path) -> None:
    import json

    two = tmp_path / "two.pcn"
    two.write_bytes(b"".join((FIXTURES / "dungeon" / name).read_bytes()
                             for name in ("legal-3p-basic.pcn", "legal-2p-basic.pcn")))
    code, out, err = run("analyse", str(two), "--at", "1.2")
    assert code == 0 and err == ""
    heads = [line for line in out.splitlines() if line.startswith(str(two))]
    assert heads == [f"{two}:1:", f"{two}:26:"]
    assert out.count("Position: ") == 2 and "Hand of Cy:" in out and "Hand of Bob:" in out
    code, out, _ = run("analyse", str(two), "--at", "1.2", "--format", "jsonl")
    assert code == 0
    assert [json.loads(line)["source"] for line in out.splitlines()] == [f"{two}:1", f"{two}:26"]
    code, out, _ = run("analyse", str(two), "--at", "1.2", "--format", "json")
    assert code == 0 and [v["player"] for v in json.loads(out)] == ["Cy", "Bob"]
    # a log without that moment is its own error line; the other is still analysed
    code, out, err = run("analyse", str(two), "--at", "3.2")
    assert code == 3 and out.startswith(f"{two}:26:\nPosition: START@N R2@N I3@E")
    assert err.splitlines() == [f"pathcheck: invalid: {two}:1: --at 3.2: the log does not say "
                                "the next player's hand (not recorded, or no turn follows): "
                                "give --hand"]
