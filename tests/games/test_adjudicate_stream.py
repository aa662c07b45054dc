"""``adjudicate`` streams: rulings in input order as they are made, on one or more cores."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck import games
from pathcheck.batch.logs import CHUNK
from pathcheck.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def mixed_logs(path: Path, count: int) -> list[str]:
    """``count`` logs of every game as JSON Lines, with illegal and malformed ones mixed in;
    the expected status of each."""
    lines: list[str] = []
    statuses: list[str] = []
    rng = random.Random(7)
    plugins = [games.load(name) for name in sorted(games.available())]
    for i in range(count):
        plugin = plugins[i % len(plugins)]
        log = plugin.random_game(rng)
        status = "legal"
        if i % 7 == 3:
            log["players" if "players" in log else "rounds"] = "nobody"
            status = "invalid"
        elif i % 11 == 5:
            lines.append("{not json")
            statuses.append("invalid")
            continue
        lines.append(json.dumps(log))
        statuses.append(status)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return statuses


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["adjudicate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_jobs_give_the_same_output_in_input_order(tmp_path: Path) -> None:
    logs = tmp_path / "logs.jsonl"
    statuses = mixed_logs(logs, 3 * CHUNK + 5)
    one = run(str(logs), "--format", "jsonl")
    two = run(str(logs), "--format", "jsonl", "--jobs", "2")
    assert one == two
    code, out, err = one
    assert code == 3
    results = [json.loads(line) for line in out.splitlines()]
    # output line N is input log N: a ruling, or the invalid log's error in its place
    assert [r["line"] for r in results] == list(range(1, len(statuses) + 1))
    assert {r["source"] for r in results} == {str(logs)}
    assert [r.get("kind", "legal") for r in results] == statuses
    errors = err.splitlines()
    assert len(errors) == statuses.count("invalid")
    bad_lines = [i + 1 for i, s in enumerate(statuses) if s == "invalid"]
    assert [int(e.split(str(logs) + ":")[1].split(":")[0]) for e in errors] == bad_lines
    assert [f"{r['pointer'] or '/'}: {r['error']}" for r in results if "error" in r] == [
        e.split(f"{r}:", 1)[1].strip() for r, e in zip(bad_lines, errors, strict=True)]


def test_json_array_is_the_jsonl_rulings(tmp_path: Path) -> None:
    logs = tmp_path / "logs.jsonl"
    mixed_logs(logs, 12)
    _, array, _ = run(str(logs), "--format", "json", "-j", "2")
    _, lines, _ = run(str(logs), "--format", "jsonl")
    assert json.loads(array) == [json.loads(line) for line in lines.splitlines()]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("{}\n", "utf-8")
    [invalid] = json.loads(run(str(empty), "--format", "json")[1])
    assert invalid == {"source": str(empty), "line": 1, "kind": "invalid", "pointer": "/format",
                       "error": invalid["error"]}


def test_output_file_is_written_atomically(tmp_path: Path) -> None:
    logs = tmp_path / "logs.jsonl"
    mixed_logs(logs, 9)
    target = tmp_path / "rulings.json"
    code, out, _ = run(str(logs), "--format", "json", "-o", str(target))
    assert code == 3 and out == ""
    results = json.loads(target.read_text("utf-8"))
    assert len(results) == 9 and sum(r.get("kind") == "invalid" for r in results) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_unreadable_file_is_reported_and_the_others_are_ruled(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    legal = str(FIXTURES / "dungeon" / "legal-2p-basic.json")
    code, out, err = run(missing, legal)
    assert code == 4
    assert "missing.json: cannot read" in err and "Verdict: legal" in out
    code, out, err = run(missing, legal, "--format", "jsonl")
    gone, ruled = (json.loads(line) for line in out.splitlines())
    assert code == 4 and gone["kind"] == "unreadable" and gone["source"] == missing
    assert (ruled["source"], ruled["line"], ruled["outcome"]) == (legal, 1, "legal")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_text_output_is_every_ruling_in_order(jobs: str) -> None:
    paths = [str(p) for p in sorted((FIXTURES / "memo-dice").glob("legal-*.json"))]
    _, out, _ = run(*paths, "-j", jobs)
    heads = [line.split(":", 1)[0] for line in out.splitlines() if line.startswith(str(FIXTURES))]
    assert heads == paths


def test_a_log_on_a_pipe_is_ruled_before_the_input_ends() -> None:
    log = json.loads((FIXTURES / "memo-dice" / "legal-2p.json").read_text("utf-8"))
    process = subprocess.Popen(
        [sys.executable, "-m", "pathcheck", "adjudicate", "-", "--format", "jsonl"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write((json.dumps(log) + "\n").encode())
        process.stdin.flush()
        first = json.loads(process.stdout.readline())  # the input is still open
        assert first["game"] == "memo-dice"
        process.stdin.write((json.dumps(log) + "\n").encode())
        process.stdin.close()
        assert json.loads(process.stdout.readline())["game"] == "memo-dice"
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
