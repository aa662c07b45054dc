"""``convert`` writes log by log as it reads (cli/convert.py): every output form, the batch
rule (a bad log is one line on stderr, the others convert, exit 3), -o written atomically and
left as it was when no log converts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pathcheck import notation
from pathcheck.cli import cli

ROOT = Path(__file__).resolve().parents[1]
LOGS = [json.loads((ROOT / "fixtures" / name).read_text("utf-8")) for name in (
    "memo-dice/legal-2p.json", "dungeon/legal-3p-basic.json", "robot-memory/legal-custom-2x2.json")]


def convert(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["convert", *args])
    assert "internal error" not in result.stderr, result.stderr
    return result.exit_code, result.stdout, result.stderr


def json_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_each_output_form_is_what_the_whole_was(tmp_path: Path, count: int) -> None:
    """Written log by log, the output is the same bytes as the whole written at once."""
    values = LOGS[:count]
    source = json_lines(tmp_path / "in.jsonl", [json.dumps(v) for v in values])
    whole = {
        "json": notation.pretty_json(values[0] if count == 1 else values) + "\n",
        "jsonl": "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in values),
        "pcn": "\n".join(notation.write(v) for v in values).rstrip("\n") + "\n",
    }
    for suffix, expected in whole.items():
        out = tmp_path / f"out.{suffix}"
        assert convert(source, "-o", str(out))[0] == 0
        assert out.read_text("utf-8") == expected, suffix
    assert convert(source, "--to", "json")[1] == whole["json"]


def test_a_short_array_stays_on_one_line(tmp_path: Path) -> None:
    values: list[Any] = [{"format": "memo-dice/1"}, {"format": "solo/1"}]
    source = json_lines(tmp_path / "in.jsonl", [json.dumps(v) for v in values])
    assert convert(source, "--to", "json")[1] == json.dumps(values) + "\n"


def test_a_bad_log_does_not_stop_the_others(tmp_path: Path) -> None:
    source = json_lines(tmp_path / "in.jsonl", [
        json.dumps(LOGS[0]), '{"format": "game/1", ', json.dumps(LOGS[1]),
        json.dumps({"format": "chess/1"}), json.dumps(LOGS[2])])
    out = tmp_path / "out.pcn"
    code, _, err = convert(source, "-o", str(out))
    assert code == 3
    assert f"pathcheck: invalid: {source}:2:" in err
    assert f"pathcheck: invalid: {source}:4: /format: no game notation for format 'chess/1'" in err
    expected = "\n".join(notation.write(v) for v in (LOGS[0], LOGS[1], LOGS[2]))
    assert out.read_text("utf-8") == expected
    back = tmp_path / "back.jsonl"
    assert convert(str(out), "-o", str(back))[0] == 0
    assert [json.loads(x) for x in back.read_text("utf-8").splitlines()] == [
        LOGS[0], LOGS[1], LOGS[2]]


def test_notation_with_a_bad_log_converts_the_others(tmp_path: Path) -> None:
    good = notation.write(LOGS[0])
    source = tmp_path / "in.pcn"
    source.write_text(good + "#! game/1\nplayers: Ann\nexploration Ann\nAnn R1N\n" + good,
                      encoding="utf-8")
    code, out, err = convert(str(source), "--to", "json")
    line = good.count("\n") + 4
    assert code == 3 and f"{source}:{line}:5: 'R1N'" in err
    assert json.loads(out) == [LOGS[0], LOGS[0]]  # an array: the file holds several logs


@pytest.mark.parametrize("suffix", ["json", "jsonl", "pcn"])
def test_when_nothing_converts_the_output_is_left_as_it_was(tmp_path: Path,
                                                            suffix: str) -> None:
    out = tmp_path / f"out.{suffix}"
    out.write_text("earlier results\n", encoding="utf-8")
    bad = json_lines(tmp_path / "bad.jsonl", ['{"format": ', "[1, 2"])
    code, _, err = convert(bad, "-o", str(out))
    assert code == 3 and err.count("pathcheck: invalid:") == 2
    empty = json_lines(tmp_path / "empty.jsonl", [])
    assert convert(empty, "-o", str(out))[0] == 3
    assert convert(str(tmp_path / "missing.jsonl"), "-o", str(out))[0] == 4
    assert out.read_text("utf-8") == "earlier results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl", "empty.jsonl",
                                                           f"out.{suffix}"]
