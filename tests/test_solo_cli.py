"""``pathcheck solo new|key|check|stats`` through click's test runner and ``main``."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from pathcheck.solo.play import answer_key
from pathcheck.solo.seed_codes import SeedCode

# pathcheck.cli lives in cli/ (setuptools package-dir), which mypy cannot resolve statically;
# this is `from pathcheck.cli import cli, main`.
_CLI = importlib.import_module("pathcheck.cli")
cli: click.Command = _CLI.cli
main: Callable[[list[str]], int] = _CLI.main

CODES = ["10000-0000T", "1303N-QK8NC", "15ZZZ-ZZZZA", "160XD-WT5HF"]


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["solo", *args], catch_exceptions=False)


def key_record(code: str) -> dict[str, Any]:
    seed = SeedCode.parse(code)
    key = answer_key(seed.deck, rules=seed.rules)
    return {"format": "solo/1", "seed": code, "rules": sorted(seed.rules),
            "dungeons": [[{"tile": p.tile, "dir": p.dir.name} for p in d.placements]
                         for d in key]}


def write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("sub", [[], ["new"], ["key"], ["check"], ["stats"]])
def test_help(sub: list[str]) -> None:
    result = run(*sub, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output


# --- new ---------------------------------------------------------------------------------


def test_new_prints_codes_and_the_deck() -> None:
    result = run("new", "--start", "0", "--count", "2", "--rules", "2,3")
    assert result.exit_code == 0
    assert "Seed code 13000-0000D" in result.output
    assert result.output.count("Seed code") == 2
    assert "START" in result.output and "maximum score 46" in result.output


def test_new_json_and_constraints() -> None:
    result = run("new", "--start", "0", "--count", "3", "--min-dungeons", "5",
                 "--lost-by", "loop", "--difficulty", "hard", "--format", "json")
    assert result.exit_code == 0
    items = json.loads(result.output)
    assert len(items) == 3
    for item in items:
        assert item["dungeons"] >= 5 and item["grade"] == "hard"
        code = SeedCode.parse(item["code"])
        assert code.deck == item["deck"]
        reasons = [d.trace.reason for d in answer_key(code.deck, rules=code.rules)]
        assert any(r is not None and r.value == "loop" for r in reasons)


def test_new_gives_up_with_exit_1() -> None:
    result = run("new", "--start", "0", "--max-dungeons", "1", "--min-dungeons", "1",
                 "--lost-by", "ghost-twice", "--limit", "50")
    assert result.exit_code == 1
    assert "found 0 of 1 seeds in 50 tried" in result.output


def test_new_random_codes_parse() -> None:
    result = run("new", "--count", "2", "--format", "jsonl")
    assert result.exit_code == 0
    for line in result.output.splitlines():
        SeedCode.parse(json.loads(line)["code"])


# --- key ---------------------------------------------------------------------------------


def test_key_is_spoiler_guarded() -> None:
    result = CliRunner().invoke(cli, ["solo", "key", "10000-0000T"])
    assert result.exit_code == 0
    assert "Dungeon 1" not in result.stdout
    assert "Seed code 10000-0000T" in result.stdout and "Answer key: " in result.stdout
    assert "add --reveal to print it" in result.stdout


def test_key_without_reveal_gives_the_facts_of_solo_new_in_json() -> None:
    result = CliRunner().invoke(cli, ["solo", "key", "1303N-QK8NC", "--format", "json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["revealed"] is False and "--reveal" in doc["hint"]
    new = CliRunner().invoke(cli, ["solo", "new", "--start", str(doc["seed"]), "--rules",
                                   ",".join(map(str, doc["rules"])), "--format", "json"])
    assert json.loads(new.stdout) == [{k: v for k, v in doc.items()
                                       if k not in ("revealed", "hint")}]
    revealed = json.loads(CliRunner().invoke(cli, ["solo", "key", "1303N-QK8NC", "--reveal",
                                                   "--format", "json"]).stdout)
    assert len(revealed["dungeons"]) == doc["dungeons"]


def test_key_reveal_text_and_json() -> None:
    text = run("key", "10000-0000T", "--reveal").output
    assert "3 dungeons, maximum score 38" in text
    assert "Lost at its tile 13 (L9, stack tile 13): dead-end" in text
    assert "holds to the last tile" in text
    doc = json.loads(run("key", "1303N-QK8NC", "--reveal", "--format", "json").output)
    assert doc["max_score"] == 46 and doc["rules"] == [2, 3]
    assert sum(len(d["tiles"]) for d in doc["dungeons"]) == 38


def test_key_svg(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["solo", "key", "10000-0000T", "--svg", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["10000-0000T-1.svg", "10000-0000T-2.svg", "10000-0000T-3.svg"]
    assert (tmp_path / files[0]).read_text(encoding="utf-8").lstrip().startswith("<")


@pytest.mark.parametrize(
    ("code", "message"),
    [("10000-0000V", "check character mismatch, probably a typo"),
     ("10U00-0000T", "bad character 'U' at position 3"),
     ("1000", "4 characters, expected 10")],
)
def test_bad_codes_exit_3_in_one_line(
    code: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solo", "key", code]) == 3
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


# --- check -------------------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_check_of_the_answer_key_scores_the_maximum(code: str, tmp_path: Path) -> None:
    result = run("check", code, write(tmp_path, key_record(code)), "--format", "json")
    assert result.exit_code == 0
    (doc,) = json.loads(result.output)
    assert doc["failure"] is None and doc["divergence"] is None
    assert doc["score"] == doc["max_score"] == 38 + 4 * len(SeedCode.parse(code).rules)


def test_check_shows_the_first_divergence(tmp_path: Path) -> None:
    record = key_record("1303N-QK8NC")
    first, second, *rest = record["dungeons"]
    record["dungeons"] = [first + second, *rest]
    result = run("check", "1303N-QK8NC", write(tmp_path, record))
    assert result.exit_code == 0
    assert "score 17 of 46, failed: late at stack tile 18" in result.output
    assert "First divergence from the answer key (late): stack tile 18 (R3)" in result.output


def test_check_misplaced(tmp_path: Path) -> None:
    record = key_record("10000-0000T")
    record["dungeons"][0][4]["dir"] = "W"  # the key lays I2 east
    result = run("check", "10000-0000T", write(tmp_path, record))
    assert result.exit_code == 0
    assert "failed: misplaced at stack tile 5" in result.output
    assert "the key lays it @E, the record @W" in result.output


def test_check_dgn_record(tmp_path: Path) -> None:
    record = key_record("10000-0000T")
    line = " | ".join(" ".join(f"{p['tile']}@{p['dir']}" for p in d)
                      for d in record["dungeons"])
    path = tmp_path / "game.dgn"
    path.write_text(line + "\n", encoding="utf-8")
    result = run("check", "10000-0000T", str(path))
    assert result.exit_code == 0
    assert "score 38 of 38, no failure" in result.output


@pytest.mark.parametrize("comment", ["", "# my game\n\n"])
def test_check_dgn_record_on_stdin(comment: str) -> None:
    # The one reader sniffs stdin for every command: .dgn is not taken for broken JSON.
    record = key_record("10000-0000T")
    line = " | ".join(" ".join(f"{p['tile']}@{p['dir']}" for p in d)
                      for d in record["dungeons"])
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0000T", "-"],
                                input=comment + line + "\n")
    assert result.exit_code == 0
    assert "score 38 of 38, no failure" in result.output
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0000T", "-"],
                                input="START@N R1@N | I1@N\n")
    assert result.exit_code == 1
    assert "not valid JSON" not in result.stderr
    assert "<stdin>:1: does not match 10000-0000T: the deck differs" in result.stderr


def test_check_deck_mismatch_exits_1(tmp_path: Path) -> None:
    record = key_record("10000-0000T")
    record.pop("seed")
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0001R", write(tmp_path, record)])
    assert result.exit_code == 1
    assert "does not match 10000-0001R: the deck differs at stack tile 2" in result.stderr
    record["seed"] = "10000-0001R"
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0000T", write(tmp_path, record)])
    assert result.exit_code == 1
    assert "the record names seed code 10000-0001R" in result.stderr


def test_check_rules_mismatch_exits_1(tmp_path: Path) -> None:
    record = key_record("10000-0000T")
    record["rules"] = [2]
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0000T", write(tmp_path, record)])
    assert result.exit_code == 1
    assert "played with rules #2, the code sets none" in result.stderr


def test_check_malformed_record_exits_3(tmp_path: Path) -> None:
    path = write(tmp_path, {"format": "solo/1"})
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0000T", path])
    assert result.exit_code == 3
    assert "invalid" in result.stderr


# --- stats -------------------------------------------------------------------------------


def test_stats_table_json_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "chart.svg"
    result = run("stats", "--count", "300", "--rules", "2,3", "-j", "1", "--chart", str(chart))
    assert result.exit_code == 0
    assert "Solo statistics: 300 deals" in result.output
    assert "How often each rule bites" in result.output
    assert chart.read_text(encoding="utf-8").startswith("<svg")
    doc = json.loads(run("stats", "--count", "200", "--start", "1000", "-j", "1",
                         "--format", "json").output)
    assert doc["deals"] == 200 and doc["start"] == 1000
    assert sum(doc["difficulty"]["grades"].values()) == 200


def test_stats_rejects_other_chart_formats(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["solo", "stats", "--count", "10", "-j", "1",
                                      "--chart", str(tmp_path / "chart.pdf")])
    assert result.exit_code == 2
    assert ".svg or .png" in result.output


def test_bad_rules_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solo", "stats", "--count", "10", "--rules", "1"]) == 2
    assert "rule #1 is not a solo rule" in capsys.readouterr().err


def test_check_other_tileset_exits_1(tmp_path: Path) -> None:
    standard = Path(__file__).parent.parent / "tiles" / "standard.toml"
    text = standard.read_text(encoding="utf-8").replace('name = "standard"', 'name = "odd"')
    (tmp_path / "odd.toml").write_text(text.replace('id = "R1"\nkind = "right"',
                                                    'id = "R1"\nkind = "left"'), "utf-8")
    record = key_record("10000-0000T")
    record["tileset"] = str(tmp_path / "odd.toml")
    result = CliRunner().invoke(cli, ["solo", "check", "10000-0000T", write(tmp_path, record)])
    assert result.exit_code == 1
    assert "it uses the tile set 'odd'" in result.stderr
