"""Commands that guide: a mistyped command or game, a file given to the wrong command, an
empty input, ``help COMMAND`` and ``--version`` (docs/cli.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli, main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
MEMOARRR = str(FIXTURES / "memoarrr" / "legal-3p-2023.json")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_a_mistyped_command_names_the_one_meant() -> None:
    code, _, err = run("verfy", "x.dgn")
    assert code == 2 and "No such command 'verfy'. Did you mean 'verify'?" in err
    code, _, err = run("zzzz")
    assert code == 2 and "No such command 'zzzz'." in err and "Did you mean" not in err
    assert main(["adjudicat", MEMOARRR]) == 2


def test_a_mistyped_game_is_a_usage_error_before_any_ruling() -> None:
    code, out, err = run("adjudicate", "memoarr", MEMOARRR)
    assert code == 2 and out == ""
    assert "unknown game 'memoarr' (did you mean memoarrr?)" in err
    code, out, err = run("adjudicate", "chess", MEMOARRR)
    assert code == 2 and out == ""
    assert "unknown game 'chess' (installed: dungeon, memo-dice, memoarrr, robot-memory)" in err
    # a file name that is not there stays a file that cannot be read
    code, _, err = run("adjudicate", "dungeon.json")
    assert code == 4 and "dungeon.json: cannot read" in err
    assert run("adjudicate", "memoarrr", MEMOARRR)[0] == 0


def test_a_game_log_given_to_verify_says_to_adjudicate_it() -> None:
    log = str(FIXTURES / "dungeon" / "legal-2p-basic.pcn")
    code, _, err = run("verify", log)
    assert code == 3
    assert err.splitlines() == [
        f"pathcheck: invalid: {log}: /: a game log in game notation, not dungeon records: rule "
        f"on it with 'pathcheck adjudicate {log}'"]
    # the same notation under another name: its first line says so
    code, _, err = run("verify", "-", stdin=Path(log).read_text("utf-8"))
    assert code == 3
    assert err.splitlines()[0] == (
        "pathcheck: invalid: <stdin>:1: /: 'game/1' starts a game log in game notation, not "
        "dungeon records: rule on it with 'pathcheck adjudicate'")


def test_a_json_game_log_given_to_verify_says_to_adjudicate_it() -> None:
    log = str(FIXTURES / "memo-dice" / "legal-2p.json")
    for output in ("text", "jsonl"):  # jsonl: the C fast path leaves it to the Python path
        code, _, err = run("verify", log, "--format", output)
        assert code == 3
        assert (f"{log}:1: /format: expected \"dungeon/1\", got 'memo-dice/1': a game log, "
                "not a dungeon record: rule on it with 'pathcheck adjudicate'") in err


def test_dungeon_records_given_to_adjudicate_say_to_verify_them() -> None:
    records = str(FIXTURES / "dungeons" / "examples.dgn")
    code, out, err = run("adjudicate", records, "--format", "jsonl")
    assert code == 3
    assert err.splitlines() == [
        f"pathcheck: invalid: {records}: dungeon records in compact notation, not a game log: "
        f"verify them with 'pathcheck verify {records}'"]
    assert json.loads(out)["kind"] == "invalid"


def test_convert_says_what_a_value_that_is_no_game_log_is(tmp_path: Path) -> None:
    records = str(FIXTURES / "dungeons" / "examples.dgn")
    code, out, err = run("convert", records)
    assert (code, out) == (3, "")
    assert err.splitlines() == [
        f"pathcheck: invalid: {records}: dungeon records in compact notation, not a game log: "
        f"verify them with 'pathcheck verify {records}'"]
    record = tmp_path / "d.jsonl"
    record.write_text('{"format": "dungeon/1", "tiles": [{"tile": "START", "dir": "N"}]}\n')
    code, out, err = run("convert", str(record), "-o", str(tmp_path / "d.pcn"))
    assert (code, out) == (3, "") and not (tmp_path / "d.pcn").exists()
    assert err.splitlines() == [
        f"pathcheck: invalid: {record}:1: /format: a dungeon record, not a game log: verify it "
        f"with 'pathcheck verify {record}'"]
    assert run("verify", str(record))[0] == 0  # the advice works
    for command in ("adjudicate", "analyse"):  # the same words, naming the file
        code, _, err = run(command, str(record))
        assert code == 3 and err.splitlines() == [
            f"pathcheck: invalid: {record}:1: /format: a dungeon record, not a game log: "
            f"verify it with 'pathcheck verify {record}'"]
    for command in ("adjudicate", "analyse", "convert"):
        code, _, err = run(command, "-", stdin='{"format": "dungeon/1"}')
        assert code == 3 and err.splitlines() == [
            "pathcheck: invalid: <stdin>:1: /format: a dungeon record, not a game log: "
            "verify it with 'pathcheck verify -'"]
    code, _, err = run("analyse", str(record), "--at", "1.1")
    assert code == 3 and err.endswith(f"verify it with 'pathcheck verify {record}'\n")
    logs = tmp_path / "logs.json"  # the second element has no format: its line and pointer
    logs.write_text('[{"format": "game/1"},\n {"players": ["Ann"]}]')
    code, out, err = run("convert", str(logs))
    assert (code, out) == (3, '#! game/1\n${"format":"game/1"}\n')  # the other log converts
    assert err.splitlines() == [
        f"pathcheck: invalid: {logs}:2: /1/format: missing \"format\": which game the log is "
        "(one of game/1, memo-dice/1, memoarrr/1, robot-memory/1, solo/1)"]
    assert run("convert", str(logs), "--to", "jsonl")[0] == 0  # JSON to JSON needs no format


@pytest.mark.parametrize("output", ["text", "jsonl"])  # jsonl: the C fast path too
def test_a_dgn_file_with_a_format_line_is_advised_to_a_command_that_reads_it(
        tmp_path: Path, output: str) -> None:
    records = tmp_path / "x.dgn"
    records.write_text("#! dungeon/1\nSTART@N R1@N\n#! dungeon/1 rules=2\nSTART@N\n", "utf-8")
    code, out, err = run("verify", str(records), "--format", output)
    assert code == 0 and "2 records, 2 held" in err + out
    game = tmp_path / "game.dgn"
    log = FIXTURES / "dungeon" / "legal-2p-basic.pcn"
    game.write_bytes(log.read_bytes())
    code, _, err = run("verify", str(game), "--format", output)
    renamed = tmp_path / "game.pcn"
    assert code == 3 and err.splitlines()[0] == (
        f"pathcheck: invalid: {game}:1: /: 'game/1' starts a game log in game notation, not "
        f"dungeon records: rename it to {renamed} and rule on it with 'pathcheck adjudicate "
        f"{renamed}'")
    game.rename(renamed)  # the advice works
    assert run("adjudicate", str(renamed))[0] == 0


@pytest.mark.parametrize("word", ["dungeon/2", "dungeon/1x", "Dungeon/1", "dungeon/01",
                                  "chess/1"])
@pytest.mark.parametrize("output", ["text", "jsonl"])  # jsonl: the C fast path too
def test_an_unknown_format_word_in_a_dgn_is_an_unknown_pragma_not_a_game_log(
        tmp_path: Path, word: str, output: str) -> None:
    records = tmp_path / "x.dgn"
    records.write_text(f"#! {word}\nSTART@N R1@N\n", "utf-8")
    code, _, err = run("verify", str(records), "--format", output)
    assert code == 3 and err.splitlines()[0] == (
        f"pathcheck: invalid: {records}:1: /: unknown pragma '{word}' (expected advanced, "
        "basic, rules=, players=, tileset=, dungeon/1)")


@pytest.mark.parametrize("word", ["memoarrr/1", "solo/1", "robot-memory/1"])
def test_every_game_format_word_in_a_dgn_is_advised_to_adjudicate(tmp_path: Path,
                                                                   word: str) -> None:
    records = tmp_path / "x.dgn"
    records.write_text(f"#! {word}\n", "utf-8")
    code, _, err = run("verify", str(records))
    assert code == 3 and f"'{word}' starts a game log in game notation" in err


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n", "[]"])
@pytest.mark.parametrize("suffix", [".dgn", ".jsonl", ".json", ".pcn"])
@pytest.mark.parametrize("fast", [True, False])
def test_an_input_without_a_record_or_log_is_invalid_in_every_format(
        tmp_path: Path, content: str, suffix: str, fast: bool) -> None:
    path = tmp_path / f"empty{suffix}"
    path.write_text(content if content != "[]" or suffix == ".json" else "", "utf-8")
    code, out, err = run("adjudicate", str(path))
    assert code == 3 and out == "" and len(err.splitlines()) == 1
    output = ["--format", "jsonl"] if fast else []  # jsonl: the C fast path of verify
    code, out, err = run("verify", str(path), *output)
    assert code == 3 and "1 invalid" in err + out
    assert err.count("pathcheck: invalid:") == 1


def test_help_command_shows_a_commands_help() -> None:
    code, out, _ = run("help", "verify")
    assert code == 0 and out == run("verify", "--help")[1]
    code, out, _ = run("help", "solo", "new")
    assert code == 0 and out == run("solo", "new", "--help")[1]
    code, out, _ = run("help")
    assert code == 0 and out == run("--help")[1]
    code, _, err = run("help", "solo", "nw")
    assert code == 2 and "Did you mean 'new'?" in err
    assert run("help", "verify", "more")[0] == 2


def test_version_says_whether_the_c_extension_is_in_use(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from pathcheck import speedups

    code, out, _ = run("--version")
    assert code == 0
    assert out == ("pathcheck 0.1.0 (C extension: in use)\n" if speedups.available() else
                   "pathcheck 0.1.0 (C extension: not built; batch work runs on the Python "
                   "paths, slower)\n")
    monkeypatch.setitem(sys.modules, "pathcheck._speedups", None)  # as if never built
    code, out, _ = run("--version")
    assert out == ("pathcheck 0.1.0 (C extension: not built; batch work runs on the Python "
                   "paths, slower)\n")


@pytest.mark.parametrize("command", [["tiles"], ["trace", "START@N R1@N"],
                                     ["verify", str(FIXTURES / "dungeons" / "examples.dgn")]])
def test_a_tileset_file_that_cannot_be_read_is_exit_4_everywhere(
        tmp_path: Path, command: list[str]) -> None:
    code, out, err = run(*command, "--tileset", str(tmp_path / "missing.toml"))
    assert code == 4 and out == ""
    assert err == f"pathcheck: error: {tmp_path / 'missing.toml'}: no such tile-set file " \
                  "(built-in sets: standard)\n"
    code, out, err = run(*command, "--tileset", str(tmp_path))
    assert code == 4 and out == ""
    assert err == f"pathcheck: error: {tmp_path}: cannot read tile set: it is a folder\n"
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tile]]\nid = "START"\nkind = "zigzag"\n')
    assert run(*command, "--tileset", str(bad))[0] == 3


def test_trace_writes_its_report_and_pictures_as_verify_does(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    code, out, _ = run("trace", "START@N R1@N R2@E", "-o", str(report),
                       "--svg", str(tmp_path / "newdir") + "/",
                       "--graph", str(tmp_path / "graphs"))
    assert code == 0 and out == ""
    assert report.read_text("utf-8").startswith("== <argument>:1: 3 tiles")
    assert (tmp_path / "newdir" / "trace-1.svg").read_text("utf-8").startswith("<svg")
    assert (tmp_path / "graphs" / "trace-1.graphml").read_text("utf-8").startswith("<graphml")
    code, _, _ = run("trace", "START@N R1@N", "--svg", str(tmp_path / "one.svg"))
    assert code == 0 and (tmp_path / "one.svg").is_file()


def test_convert_exit_codes_are_the_documented_ones(tmp_path: Path) -> None:
    log = str(FIXTURES / "dungeon" / "legal-2p-basic.pcn")
    assert run("convert", str(tmp_path / "missing.pcn"))[0] == 4
    assert run("convert", log, "-o", log)[0] == 2
    (tmp_path / "empty.pcn").write_text("", "utf-8")
    assert run("convert", str(tmp_path / "empty.pcn"))[0] == 3
    help_text = run("convert", "--help")[1]
    assert all(f"{code}: " in help_text for code in "0234")


@pytest.mark.parametrize("args", [
    ["adjudicate", "fixtures/batch/logs.jsonl", "-o", "out/"],
    ["verify", "fixtures/dungeons/examples.dgn", "-o", "out/"],
    ["analyse", "fixtures/batch/logs.jsonl", "--chart", "out/"],
    ["analyse", "fixtures/memoarrr/legal-2p-2018.json", "--html", "out/"],
])
def test_a_file_option_ending_in_a_slash_is_a_usage_error(
        args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    args = [a if a != "out/" else str(tmp_path / "out") + "/" for a in args]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "names a folder; give a file name" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["adjudicate", "analyse", "convert"])
def test_dungeon_records_in_notation_say_how_to_verify_them(tmp_path: Path,
                                                              command: str) -> None:
    text = "#! dungeon/1\nSTART@N R1@N\n"
    pcn = tmp_path / "dp.pcn"
    pcn.write_text(text, "utf-8")
    renamed = tmp_path / "dp.dgn"
    code, out, err = run(command, str(pcn))
    assert code == 3 and out == ""
    assert err.splitlines() == [
        f"pathcheck: invalid: {pcn}:1:4: 'dungeon/1': dungeon records in compact notation, "
        f"not a game log: rename it to {renamed} and verify them with 'pathcheck verify "
        f"{renamed}'"]
    other = tmp_path / "dp.txt"
    other.write_text(text, "utf-8")
    code, _, err = run(command, str(other))
    assert code == 3 and err.endswith(f"verify them with 'pathcheck verify {other}'\n")
    code, _, err = run(command, "-", stdin=text)
    assert code == 3 and err.endswith("verify them with 'pathcheck verify -'\n")
    pcn.rename(renamed)  # the advice works
    assert run("verify", str(renamed))[0] == 0
    assert run("verify", str(other))[0] == 0


@pytest.mark.parametrize("args", [["adjudicate"], ["analyse"], ["convert"],
                                  ["analyse", "--at", "1.1"]])
def test_empty_stdin_is_named_and_labelled_alike_in_every_game_log_command(
        args: list[str]) -> None:
    code, out, err = run(*args, "-", stdin="")
    assert (code, out) == (3, "")
    assert err.splitlines() == ["pathcheck: invalid: <stdin>: no log in it"]
    code, _, err = run("verify", "-", stdin="")  # verify names it the same way
    assert code == 3 and err.startswith("pathcheck: invalid: <stdin>: ")
