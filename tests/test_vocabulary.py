"""One vocabulary (issue 32): every command speaks alike, checked over every command's
--help and JSON output: one option name for one thing, one error prefix for bad input, the
rulebook's words in every line of a ruling, ``source`` and ``line`` as separate fields, and
``-o NAME.json``/``.jsonl`` choosing the format wherever a format can be chosen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pathcheck.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DUNGEON_LOG = str(FIXTURES / "dungeon" / "illegal-turn-order.json")
SOLO = str(FIXTURES / "dungeon" / "legal-solo-seed-perfect.json")
DGN = str(FIXTURES / "dungeons" / "examples.dgn")
LOGS = str(FIXTURES / "batch" / "logs.jsonl")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="pathcheck")
    return result.exit_code, result.stdout, result.stderr


def every_command() -> list[tuple[str, click.Command]]:
    """(``verify``, command), (``solo new``, command) ... for every command and subcommand."""
    context = click.Context(cli, info_name="pathcheck")
    found: list[tuple[str, click.Command]] = []
    for name in COMMANDS:
        command = cli.get_command(context, name)
        assert command is not None
        if isinstance(command, click.Group):
            sub_context = click.Context(command, info_name=name, parent=context)
            for sub in command.list_commands(sub_context):
                subcommand = command.get_command(sub_context, sub)
                assert subcommand is not None
                found.append((f"{name} {sub}", subcommand))
        else:
            found.append((name, command))
    return found


COMMAND_LIST = every_command()
OPTIONS = {(name, opt): param for name, command in COMMAND_LIST
           for param in command.params if isinstance(param, click.Option) and not param.hidden
           for opt in (*param.opts, *param.secondary_opts)}

SAME_THING = {
    "-n": "--count",  # how many seeds (or codes) a solo command works on
    "-j": "--jobs",
    "-o": "--output",
}
"""Short options and the one long name each has in every command."""

NOT_NAMES = {"--deals", "--number", "--seeds", "--json", "--jsonl", "--csv", "--workers",
             "--processes", "--out-file", "--output-file"}
"""Names that other commands' words for the same thing would be (all hidden, if kept)."""


def test_every_command_is_walked() -> None:
    names = {name for name, _ in COMMAND_LIST}
    assert {"verify", "adjudicate", "analyse", "solo new", "solo stats", "solo census",
            "solo check", "solo key", "record", "convert"} <= names


@pytest.mark.parametrize(("short", "long"), SAME_THING.items())
def test_a_short_option_has_one_long_name_everywhere(short: str, long: str) -> None:
    holders = [(name, param) for (name, opt), param in OPTIONS.items() if opt == short]
    assert holders, short
    for name, param in holders:
        assert long in param.opts, (name, param.opts)


def test_no_visible_option_uses_another_word_for_the_same_thing() -> None:
    assert not [key for key in OPTIONS if key[1] in NOT_NAMES]


def test_seed_counts_are_count_in_every_solo_command() -> None:
    for name in ("solo new", "solo stats", "solo census"):
        assert (name, "--count") in OPTIONS and (name, "-n") in OPTIONS, name


def test_every_jobs_option_has_the_one_default_said_in_the_same_words() -> None:
    from pathcheck.cli.options import JOBS_HELP

    jobs = {name: param for (name, opt), param in OPTIONS.items() if opt == "--jobs"}
    batch_and_solo = {"verify", "adjudicate", "analyse", "solo new", "solo stats", "solo census"}
    assert batch_and_solo <= set(jobs)
    for name, param in jobs.items():
        assert param.default is None and JOBS_HELP in (param.help or ""), name


def test_jobs_default_is_all_cores_but_one_process_for_standard_input() -> None:
    from pathcheck.cli.options import resolve_jobs
    from pathcheck.lifeline import usable_cores

    assert resolve_jobs(None, ["a.jsonl"]) == usable_cores()
    assert resolve_jobs(None) == usable_cores()
    assert resolve_jobs(None, ["a.jsonl", "-"]) == 1
    assert resolve_jobs(2, ["-"]) == 2


@pytest.mark.parametrize(("name", "command"), COMMAND_LIST, ids=[n for n, _ in COMMAND_LIST])
def test_every_help_runs_and_names_formats_with_format(name: str,
                                                       command: click.Command) -> None:
    code, out, err = run(*name.split(), "--help")
    assert code == 0 and err == "" and out.startswith("Usage: pathcheck " + name)
    formats = [p for p in command.params if isinstance(p, click.Option)
               and "json" in getattr(p.type, "choices", ())]
    for param in formats:
        assert param.opts[-1] in ("--format", "--to"), (name, param.opts)


# --- one error prefix for bad input ----------------------------------------------------

@pytest.mark.parametrize("args", [
    ["adjudicate", str(FIXTURES / "memo-dice" / "malformed-cup-colour.json")],
    ["solo", "key", "1303N-QK8MC"],
    ["trace", "#"],
    ["analyse", DUNGEON_LOG, "--at", "9.1"],
    ["solo", "check", "1303N-QK8NC", DUNGEON_LOG],
    ["verify", str(ROOT / "README.md")],
])
def test_bad_input_is_invalid_in_every_command(args: list[str]) -> None:
    code, _, err = run(*args)
    assert code == 3, err
    lines = [line for line in err.splitlines() if line.startswith("pathcheck: ")]
    assert lines and all(line.startswith("pathcheck: invalid: ") for line in lines), err


def test_a_file_that_cannot_be_read_is_an_error() -> None:
    code, _, err = run("adjudicate", str(FIXTURES / "no-such-file.json"))
    assert code == 4 and err.startswith("pathcheck: error: ")


# --- the rulebook's words --------------------------------------------------------------

def test_a_dungeon_ruling_says_explorations_and_turns_in_every_line() -> None:
    code, out, _ = run("adjudicate", DUNGEON_LOG)
    assert code == 1
    assert out.splitlines()[0].endswith(": dungeon in memory (game/1), players: Ann, Bob, Cy")
    assert "ILLEGAL: exploration 1, turn 1 (Ann)" in out
    assert not re.search(r"\bround \d+, move \d+", out)
    code, out, _ = run("analyse", DUNGEON_LOG)
    assert out.splitlines()[0].endswith(": dungeon in memory (game/1), players: Ann, Bob, Cy")


def test_every_game_is_named_alike_by_adjudicate_and_analyse() -> None:
    for log in sorted(FIXTURES.glob("*/legal-*.json"))[::7]:
        _, ruled, _ = run("adjudicate", str(log))
        _, analysed, _ = run("analyse", str(log))
        assert ruled.splitlines()[0] == analysed.splitlines()[0], log


# --- source and line -------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["verify", DGN], ["adjudicate", LOGS], ["analyse", LOGS],
    ["solo", "check", "1303N-QK8NC", SOLO]])
def test_json_entries_name_source_and_line_apart(args: list[str]) -> None:
    _, out, _ = run(*args, "--format", "jsonl")
    entries = [json.loads(line) for line in out.splitlines()]
    assert entries
    for entry in entries:
        assert isinstance(entry["source"], str) and not re.search(r":\d+$", entry["source"])
        assert entry["line"] is None or isinstance(entry["line"], int)


# --- -o NAME.json chooses the format ---------------------------------------------------

WRITERS = [["verify", DGN], ["adjudicate", LOGS], ["analyse", LOGS],
           ["solo", "check", "1303N-QK8NC", SOLO], ["solo", "key", "1303N-QK8NC"],
           ["solo", "new", "--start", "0"], ["solo", "stats", "-n", "10", "-j", "1"],
           ["trace", "START@N R1@N"]]


@pytest.mark.parametrize("args", WRITERS, ids=[" ".join(a[:2]) for a in WRITERS])
def test_o_names_the_format_in_every_command_that_writes_one(args: list[str],
                                                             tmp_path: Path) -> None:
    for suffix in ("json", "jsonl"):
        target = tmp_path / f"out.{suffix}"
        code, _, err = run(*args, "-o", str(target))
        assert code in (0, 1), err
        text = target.read_text("utf-8")
        if suffix == "json":
            json.loads(text)
        else:
            for line in text.splitlines():
                json.loads(line)
    code, _, err = run(*args, "-o", str(tmp_path / "again.json"), "--format", "text")
    assert code == 2 and "-o" in err and "--format text" in err
    assert not (tmp_path / "again.json").exists()
