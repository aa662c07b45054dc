"""Every command line of the README and docs/ that names a bundled file runs as written.

A line of a code block (or an indented one) that starts with ``pathcheck`` (after ``$ `` or
``&&``) and names something under ``fixtures/`` is run in-process, from a scratch folder in
which ``fixtures`` is the repository's, so the files it writes (``-o results.jsonl``,
``--svg pictures/``) land there. Its exit code is the one its file promises: 1 for an
``illegal-`` log (and the batch of logs, whose last one is illegal), 3 for a ``malformed-``
one, 0 otherwise; and nothing goes wrong inside (no exit 70, no usage error).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def command_lines() -> list[tuple[str, str]]:
    """(``file:line``, command line) of every documented command naming a bundled file."""
    found: list[tuple[str, str]] = []
    for document in DOCUMENTS:
        in_block = False
        for number, line in enumerate(document.read_text("utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_block = not in_block
                continue
            if not in_block and not line.startswith("    "):
                continue
            for part in line.split("&&"):
                command = part.strip().removeprefix("$ ").strip()
                if command.startswith("pathcheck ") and "fixtures/" in command:
                    found.append((f"{document.relative_to(ROOT)}:{number}", command))
    return found


COMMANDS = command_lines()


def test_the_readme_examples_are_found() -> None:
    readme = [command for where, command in COMMANDS if where.startswith("README.md:")]
    assert any("fixtures/batch/dungeons.jsonl" in command for command in readme)
    assert any("fixtures/batch/logs.jsonl" in command for command in readme)
    assert len(COMMANDS) >= 20


def expected_code(args: list[str]) -> int:
    names = [Path(arg).name for arg in args if arg.startswith("fixtures/")]
    if any(name.startswith("malformed-") for name in names):
        return 3
    if any(name.startswith("illegal-") or name == "logs.jsonl" for name in names):
        return 1
    return 0


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_documented_command_runs_as_written(where: str, command: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    args = shlex.split(command, comments=True)[1:]
    if "|" in args:  # `... | tail -4`: pathcheck's own exit code is the one checked
        args = args[: args.index("|")]
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == expected_code(args), (where, result.output)
    assert "internal error" not in result.stderr and "Traceback" not in result.output
    for option in ("-o", "--html", "--svg"):
        if option in args:  # what it names was written
            assert (tmp_path / args[args.index(option) + 1]).exists(), where
