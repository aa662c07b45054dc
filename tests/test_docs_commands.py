"""Every command line of the README and docs/ that names a bundled file runs as written, and
prints what its document shows.

A line of a code block (or an indented one) that starts with ``pathcheck`` (after ``$ `` or
``&&``) and names something under ``fixtures/`` is run in-process, from a scratch folder in
which ``fixtures`` is the repository's, so the files it writes (``-o results.jsonl``,
``--svg pictures/``) land there. Its exit code is the one its file promises: 1 for an
``illegal-`` log (and the batch of logs, whose last one is illegal), 3 for a ``malformed-``
one, 0 otherwise; and nothing goes wrong inside (no exit 70, no usage error).

A *transcript* is a ``$ pathcheck ...`` line followed by the lines it prints (up to the next
``$`` line or the end of the block). Those lines are compared with the command's output, in
order: a line ``...`` stands for any number of lines, ``...`` within a line for any text, a
time measured (``0.2 s on 2 processes``) for any time; ``$ echo $?`` followed by a number is
the exit code.
Transcripts of commands that need no file are run too, except ``record`` (it asks at a
terminal) and ``solo census`` (minutes of work; its tests are in tests/test_census*.py).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]

NOT_RUN = re.compile(r"^pathcheck (record|solo census)\b|--census\b|--scheduler\b")
"""Transcripts run only when they name a bundled file: these never are."""


@dataclass
class Example:
    """One documented command line, and the output its document shows (if any)."""

    where: str
    command: str
    shown: list[str] | None = None  # the transcript's lines after the command
    code: int | None = None  # the exit code a following `$ echo $?` shows
    lines: list[str] = field(default_factory=list)


def blocks(document: Path) -> list[tuple[int, list[str]]]:
    """(number of the first line, lines) of every fenced or indented code block."""
    found: list[tuple[int, list[str]]] = []
    lines = document.read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            start, i = i + 2, i + 1
            body: list[str] = []
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                body.append(lines[i][indent:])
                i += 1
            found.append((start, body))
        elif line.startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            start = i + 1
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            found.append((start, body))
            continue
        i += 1
    return found


def examples() -> list[Example]:
    """Every documented command naming a bundled file, and every transcript."""
    found: list[Example] = []
    for document in DOCUMENTS:
        name = document.relative_to(ROOT)
        for start, body in blocks(document):
            current: Example | None = None
            for offset, line in enumerate(body):
                where = f"{name}:{start + offset}"
                if line.startswith("$ "):
                    current = None
                    if line.strip() == "$ echo $?" and found and found[-1].shown is not None:
                        following = body[offset + 1] if offset + 1 < len(body) else ""
                        if following.strip().isdigit():
                            found[-1].code = int(following)
                        continue
                    command = line[2:].strip()
                    if command.startswith("pathcheck ") and (
                            "fixtures/" in command or not NOT_RUN.search(command)):
                        current = Example(where, command, shown=[])
                        found.append(current)
                    continue
                if current is not None and current.shown is not None:
                    current.shown.append(line.rstrip())
                    continue
                for part in line.split("&&"):
                    command = part.strip().removeprefix("$ ").strip()
                    if command.startswith("pathcheck ") and "fixtures/" in command:
                        found.append(Example(where, command))
    for example in found:
        while example.shown and not example.shown[-1]:
            example.shown.pop()
    return found


EXAMPLES = examples()


def test_the_examples_are_found() -> None:
    readme = [e.command for e in EXAMPLES if e.where.startswith("README.md:")]
    assert any("fixtures/batch/dungeons.jsonl" in command for command in readme)
    assert any("fixtures/batch/logs.jsonl" in command for command in readme)
    documents = {e.where.split(":")[0] for e in EXAMPLES}
    assert {"README.md", "docs/seeds.md", "docs/analysis.md",
            "docs/adjudicate.md", "docs/replay.md"} <= documents
    assert sum(1 for e in EXAMPLES if e.shown) >= 20  # transcripts whose output is compared
    assert len(EXAMPLES) >= 50


def test_the_matching_of_shown_output() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "b ...", "  ..."], ["a", "b c d", "e"])
    assert matches(['q "x, ..." r'], ['q "x, y z" r'])
    assert matches(["...", "c"], ["c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["rules #2, 0.2 s on 2 processes"], ["rules #2, 11.5 s on 8 processes"])
    assert not matches(["a", "...", "e"], ["a", "b", "c", "d"])


TIMING = re.compile(r"\b\d+(\.\d+)? s on \d+ process(es)?\b")
"""A time measured (``0.2 s on 2 processes``): compared as any time."""


def matches(shown: list[str], actual: list[str]) -> bool:
    """Whether the output a document shows is the output printed (``...`` as the module says)."""
    def line_matches(expected: str, line: str) -> bool:
        expected, line = TIMING.sub("N s", expected), TIMING.sub("N s", line)
        if "..." in expected:
            pattern = ".*".join(re.escape(part) for part in expected.split("..."))
            return re.fullmatch(pattern, line) is not None
        return expected == line

    def at(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(actual)
        if shown[i].strip() == "...":
            return any(at(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line_matches(shown[i], actual[j]) and at(i + 1, j + 1)

    return at(0, 0)


def expected_code(args: list[str]) -> int:
    if args[:1] == ["analyse"]:  # an illegal log is analysed all the same
        return 0
    names = [Path(arg).name for arg in args if arg.startswith("fixtures/")]
    if any(name.startswith("malformed-") for name in names):
        return 3
    if any(name.startswith("illegal-") or name == "logs.jsonl" for name in names):
        return 1
    return 0


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.where for e in EXAMPLES])
def test_documented_command_runs_as_written(example: Example, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    where = example.where
    args = shlex.split(example.command, comments=True)[1:]
    piped: list[str] = []
    for pipe in ("|", ">", "2>&1"):  # `... | tail -4`: pathcheck's own exit code is checked
        if pipe in args:
            args, piped = args[: args.index(pipe)], args[args.index(pipe):] + piped
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures", target_is_directory=True)
    (tmp_path / "tiles").symlink_to(ROOT / "tiles", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(cli, args)
    code = example.code if example.code is not None else expected_code(args)
    if example.code is None and any(line.startswith(("pathcheck: error:", "pathcheck: invalid:"))
                                    for line in example.shown or ()):
        code = result.exit_code  # a transcript of an error: its message is what is compared
        assert code not in (0, 70), (where, result.output)
    assert result.exit_code == code, (where, result.output)
    assert "internal error" not in result.output and "Traceback" not in result.output
    for option in ("-o", "--html", "--svg"):
        if option in args:  # what it names was written
            assert (tmp_path / args[args.index(option) + 1]).exists(), where
    if example.shown:
        actual = [line.rstrip() for line in result.output.splitlines()]
        if piped[:2] in (["|", "tail"], ["|", "head"]) and len(piped) > 2:
            count = int(piped[2].lstrip("-n"))
            actual = actual[-count:] if piped[1] == "tail" else actual[:count]
        assert matches(example.shown, actual), (
            f"{where}: the document shows\n" + "\n".join(example.shown)
            + "\n\nbut the command prints\n" + "\n".join(actual))


def anchors(document: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    found = set()
    for line in document.read_text("utf-8").splitlines():
        if line.startswith("#"):
            title = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower())
            found.add(title.replace(" ", "-"))
    return found


def test_every_link_between_the_documents_resolves() -> None:
    checked = 0
    for document in [*DOCUMENTS, ROOT / "CHANGELOG.md"]:
        for link in re.findall(r"\]\(([^)\s]+)\)", document.read_text("utf-8")):
            if link.startswith(("http://", "https://")):
                continue
            path, _, anchor = link.partition("#")
            target = (document.parent / path).resolve() if path else document
            assert target.exists(), (document.name, link)
            if anchor and target.suffix == ".md":
                assert anchor in anchors(target), (document.name, link)
            checked += 1
    assert checked >= 50
