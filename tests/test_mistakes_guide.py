"""Every mistake guides (issue 32): a command or option a user may try names the one meant; a
file that is no input of pathcheck is refused once, saying what it is; a folder given as a
file says how to give its files, in every command; -o into a folder that does not exist is
an error; a batch of logs ends with a summary; completion offers games and names."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
MEMO_DICE = str(FIXTURES / "memo-dice" / "legal-2p.json")
GAME_LOG = str(FIXTURES / "dungeon" / "legal-3p-basic.json")
SOLO = str(FIXTURES / "dungeon" / "legal-solo-seed-perfect.json")
CODE = "1303N-QK8NC"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("typed", "meant"), [
    (["version"], "Did you mean 'pathcheck --version'?"),
    (["check", CODE, SOLO], "Did you mean 'pathcheck solo check CODE RECORD'"),
    (["replay", GAME_LOG], "Did you mean '--html FILE' of adjudicate, analyse or verify"),
    (["adjudicate", "--json", MEMO_DICE], "No such option: --json. Did you mean '--format json'?"),
    (["solo", "stats", "--json"], "Did you mean '--format json'?"),
    (["verify", "--jsonl", "x.dgn"], "Did you mean '--format jsonl'?"),
])
def test_a_command_or_option_a_user_may_try_names_the_one_meant(typed: list[str],
                                                                meant: str) -> None:
    code, out, err = run(*typed)
    assert code == 2 and out == "" and meant in err


def test_an_option_meant_only_where_the_command_has_it() -> None:
    code, _, err = run("tiles", "--csv")  # tiles --format offers no csv
    assert code == 2 and "--format csv" not in err


def test_svg_of_another_kind_of_picture_says_why_not_and_makes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run("verify", str(FIXTURES / "dungeons" / "examples.dgn"), "--svg", "pic.png")
    assert code == 2 and "pic.png: pictures are drawn as SVG only: give FILE.svg" in err
    code, _, err = run("trace", "START@N R1@N", "--graph", "g.dot")
    assert code == 2 and "the graph is written as graphml or json" in err
    assert list(tmp_path.iterdir()) == []
    code, _, _ = run("trace", "START@N R1@N", "--svg", "pic.svg")
    assert code == 0 and (tmp_path / "pic.svg").read_text("utf-8").startswith("<svg")


@pytest.mark.parametrize("command", [
    ["verify"], ["adjudicate"], ["analyse"], ["convert"], ["solo", "check", CODE]])
def test_a_file_that_is_no_input_is_refused_once_saying_what_it_is(
        command: list[str], tmp_path: Path) -> None:
    wanted = {"verify": "a dungeon file", "solo": "a solo record"}.get(command[0], "a game log")
    png = tmp_path / "picture"  # no suffix: told by its first bytes
    shutil.copy(ROOT / "docs" / "replay-page.png", png)
    for path, what in ((str(ROOT / "README.md"), "a Markdown document"),
                       (str(png), "a PNG picture")):
        code, _, err = run(*command, path)
        assert code == 3, (command, err)
        assert err.count(f"this is not {wanted}: it is {what}") == 1, err
        assert len(err.splitlines()) == 1, err


def test_pathcheck_output_given_back_says_what_it_is(tmp_path: Path) -> None:
    rulings = tmp_path / "rulings.jsonl"
    code, _, _ = run("adjudicate", MEMO_DICE, "--format", "jsonl", "-o", str(rulings))
    assert code == 0
    code, _, err = run("adjudicate", str(rulings))
    assert code == 3 and "this is pathcheck's own output (rulings written by 'pathcheck " \
        "adjudicate --format json'), not a game log" in err
    results = tmp_path / "results.json"
    run("verify", str(FIXTURES / "dungeons" / "examples.dgn"), "--format", "json", "-o",
        str(results))
    code, _, err = run("verify", str(results))
    assert code == 3 and "results written by 'pathcheck verify --format json'), not a " \
        "dungeon file" in err


@pytest.mark.parametrize("command", [
    ["verify"], ["adjudicate"], ["analyse"], ["convert"], ["solo", "check", CODE]])
def test_a_folder_given_as_a_file_says_how_to_give_its_files(command: list[str]) -> None:
    folder = str(FIXTURES / "memo-dice")
    code, _, err = run(*command, folder)
    assert code == 4, err
    assert f"{folder}: cannot read: it is a folder: name the files in it (e.g. {folder}/*)" \
        in err


def test_solo_check_of_a_game_log_says_it_wants_a_solo_record() -> None:
    for log in (GAME_LOG, GAME_LOG.replace(".json", ".pcn"), MEMO_DICE):
        code, _, err = run("solo", "check", CODE, log)
        assert code == 3 and 'expected a solo record ("format": "solo/1"' in err, err
    code, out, _ = run("solo", "check", CODE, str(FIXTURES / "seeds" / "1303N-QK8NC-late.pcn"))
    assert code == 0 and "score 17 of 46" in out  # a solo game in notation is read


@pytest.mark.parametrize("option", [["-o", "nowhere/out.txt"], ["--chart", "nowhere/c.svg"]])
def test_a_file_in_a_folder_that_does_not_exist_is_a_usage_error(
        option: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["solo", "stats", "--count", "10", *option]
    code, _, err = run(*args)
    assert code == 2 and "there is no folder 'nowhere' to write it in" in err
    assert not os.path.exists("nowhere")


def test_a_batch_of_logs_ends_with_a_summary_as_verify_does() -> None:
    code, out, _ = run("adjudicate", str(FIXTURES / "batch" / "logs.jsonl"))
    assert code == 1
    assert out.splitlines()[-1] == "Summary: 6 logs, 5 legal, 1 illegal, 0 invalid"
    code, out, _ = run("adjudicate", MEMO_DICE)  # one log: its verdict is the last line
    assert code == 0 and out.splitlines()[-1] == "Verdict: legal"


def test_list_games_lists_games_and_formats() -> None:
    code, out, _ = run("adjudicate", "--list-games")
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["game", "log", "formats", "title"]
    assert ["dungeon", "game/1,", "solo/1", "dungeon", "in", "memory"] in rows
    assert any(row[:2] == ["memo-dice", "memo-dice/1"] for row in rows)
    assert ":" not in out  # no entry points (module:attribute)


def completions(monkeypatch: pytest.MonkeyPatch, words: str, incomplete: str) -> list[str]:
    monkeypatch.setenv("COMP_WORDS", f"{words} {incomplete}".rstrip())
    monkeypatch.setenv("COMP_CWORD", str(len(words.split())))
    monkeypatch.setenv("_PATHCHECK_COMPLETE", "bash_complete")
    result = CliRunner().invoke(cli, [], prog_name="pathcheck")
    return [line.split(",", 1)[1] for line in result.output.splitlines()
            if line.startswith("plain,")]


def test_completion_offers_games_schemas_and_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    for command in ("adjudicate", "analyse"):
        assert "memo-dice" in completions(monkeypatch, f"pathcheck {command}", "m")
    assert completions(monkeypatch, "pathcheck record", "ro") == ["robot-memory"]
    assert "ruling" in completions(monkeypatch, "pathcheck schema", "r")
    assert completions(monkeypatch, "pathcheck help", "ver") == ["verify"]
    assert sorted(completions(monkeypatch, "pathcheck help solo", "c")) == ["census", "check"]


def test_deals_is_a_hidden_alias_of_count_that_still_works() -> None:
    code, out, err = run("solo", "stats", "--deals", "10", "-j", "1", "--format", "json")
    assert code == 0 and json.loads(out)["deals"] == 10
    assert "--deals is now --count" in err
    code, out, _ = run("solo", "stats", "-n", "10", "-j", "1", "--format", "json")
    assert code == 0
    code, help_text, _ = run("solo", "stats", "--help")
    assert "--deals" not in help_text and "-n, --count" in help_text
