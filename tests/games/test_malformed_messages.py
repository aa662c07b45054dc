"""The error messages for malformed logs stay as precise as they were with jsonschema.

``data/malformed-messages.json`` holds what ``pathcheck adjudicate`` printed for every
``fixtures/*/malformed-*.json`` log (alone, and all of them as one JSON Lines file) before
the formats became typed msgspec definitions. Every message now must name the same file, line
and JSON pointer, and say what was expected or what is wrong (the wording may differ).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((Path(__file__).parent / "data" / "malformed-messages.json")
                      .read_text("utf-8"))
FIXTURES = sorted(ROOT.glob("fixtures/*/malformed-*.json"))
LINE = re.compile(r"pathcheck: invalid: (?P<file>.+?):(?P<line>\d+): (?P<pointer>/\S*): "
                  r"(?P<message>.+)")


def parts(message: str) -> tuple[str, str, str, str]:
    match = LINE.fullmatch(message.strip())
    assert match is not None, message
    return match["file"], match["line"], match["pointer"], match["message"]


def test_every_malformed_fixture_was_recorded() -> None:
    assert sorted(RECORDED["fixtures"]) == [str(p.relative_to(ROOT)) for p in FIXTURES]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_message_names_the_same_file_line_and_pointer(path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    relative = str(path.relative_to(ROOT))
    result = CliRunner().invoke(cli, ["adjudicate", relative])
    assert result.exit_code == 3, result.output
    now = parts(result.stderr)
    before = parts(RECORDED["fixtures"][relative])
    assert now[:3] == before[:3]
    assert len(now[3]) > 10 and "\n" not in now[3]


def test_json_lines_messages_name_the_same_lines_and_pointers(tmp_path: Path) -> None:
    logs = tmp_path / "LOGS.jsonl"
    logs.write_text("".join(json.dumps(json.loads(p.read_text("utf-8")), ensure_ascii=False)
                            + "\n" for p in FIXTURES), "utf-8")
    result = CliRunner().invoke(cli, ["adjudicate", str(logs), "--format", "jsonl"])
    assert result.exit_code == 3
    now = [parts(line.replace(str(logs), "LOGS.jsonl")) for line in result.stderr.splitlines()]
    before = [parts(line) for line in RECORDED["jsonl"]]
    assert [n[:3] for n in now] == [b[:3] for b in before]


@pytest.mark.parametrize(("fixture", "expected"), [
    ("dungeon/malformed-dir.json", "'NE' is not one of 'E', 'N', 'S', 'W'"),
    ("dungeon/malformed-hand-tile-type.json", "Expected `str`, got `int`"),
    ("dungeon/malformed-missing-turns.json", "Object missing required field `turns`"),
    ("dungeon/malformed-players-twice.json", "'Ann' is there twice: the items must be unique"),
    ("dungeon/malformed-unknown-field.json", "Object contains unknown field `colour`"),
    ("memo-dice/malformed-die-range.json", "Expected `int` <= 9"),
    ("memo-dice/malformed-too-many-players.json", "Expected `array` of length <= 4"),
    ("memoarrr/malformed-card-name.json", "Expected `str` matching regex "
                                          "'^(penguin|octopus|crab|walrus|turtle)/(water|ocean|"
                                          "flowers|lava|jungle|desert)$'"),
    ("robot-memory/malformed-team-with-players.json",
     "team play lists \"teams\" and no \"players\""),
    ("robot-memory/malformed-solo-two-players.json",
     "the solo variant is played by exactly 1 player, not 2"),
])
def test_messages_say_what_was_expected(fixture: str, expected: str) -> None:
    result = CliRunner().invoke(cli, ["adjudicate", str(ROOT / "fixtures" / fixture)])
    assert parts(result.stderr)[3] == expected
