"""Hostile command lines (issue 13): output files, pictures, jobs, names, odd arguments.

Each input goes through every path that applies (the C fast path with ``-j 1`` and ``-j 2``,
the pure-Python path) and every path must give the same results, summary and exit code.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck import speedups
from pathcheck.cli import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "fixtures" / "dungeons" / "examples.dgn"
PATHS = [("c", 1), ("c", 2), ("python", 1), ("python", 2)]

Result = tuple[int, str, str]


def run(*args: str, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def every_path(monkeypatch: pytest.MonkeyPatch, args: list[str],
               after: Callable[[], object] = lambda: None) -> tuple[Result, object]:
    """Run ``pathcheck verify ARGS`` on every path; all must agree. Returns the one result
    and what ``after`` saw after each run (the same on every path)."""
    seen = []
    for path, jobs in PATHS:
        with monkeypatch.context() as patch:
            if path == "python":
                patch.setattr(speedups, "_speedups", None)
            seen.append((run("verify", "-j", str(jobs), *args), after()))
    assert all(one == seen[0] for one in seen), seen
    return seen[0]


def jsonl(tmp_path: Path, *records: Mapping[str, object], name: str = "in.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def dungeon(*tiles: str, **extra: object) -> dict[str, object]:
    return {"format": "dungeon/1",
            "tiles": [{"tile": t.split("@")[0], "dir": t.split("@")[1]} for t in tiles],
            **extra}


GOOD = dungeon("START@N", "I1@N", "L4@E")


# --- -o: devices, FIFOs, symlinks, the umask --------------------------------------------------


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_output_into_a_fifo_writes_into_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           fmt: str) -> None:
    source = jsonl(tmp_path, GOOD, GOOD)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    results = []
    for path, jobs in PATHS:
        got: list[bytes] = []
        reader = threading.Thread(target=lambda g=got: g.append(fifo.read_bytes()))
        reader.start()
        with monkeypatch.context() as patch:
            if path == "python":
                patch.setattr(speedups, "_speedups", None)
            result = run("verify", "-j", str(jobs), "--format", fmt, "-o", str(fifo),
                         str(source))
        reader.join(timeout=30)
        results.append((result, got))
    assert all(r == results[0] for r in results)
    (code, out, _), data = results[0]
    assert code == 0 and out == "" and data[0].count(b"\n") >= 2
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not replaced
    assert sorted(os.listdir(tmp_path)) == ["in.jsonl", "pipe"]


def test_output_through_a_symlink_replaces_its_target(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    source = jsonl(tmp_path, GOOD)
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)

    def look() -> tuple[bool, str, int]:
        return link.is_symlink(), target.read_text(), stat.S_IMODE(target.stat().st_mode)

    (code, _, _), seen = every_path(monkeypatch, ["--format", "jsonl", "-o", str(link),
                                                  str(source)], look)
    assert code == 0
    assert isinstance(seen, tuple) and seen[0] is True
    assert json.loads(seen[1])["kind"] == "dungeon"
    assert seen[2] == 0o640  # an existing file keeps its mode
    assert sorted(os.listdir(tmp_path)) == ["in.jsonl", "link.jsonl", "real.jsonl"]


def test_output_honours_the_umask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = jsonl(tmp_path, GOOD)
    out = tmp_path / "out.jsonl"
    old = os.umask(0o002)
    try:
        def look() -> int:
            mode = stat.S_IMODE(out.stat().st_mode)
            out.unlink()
            return mode

        (code, _, _), mode = every_path(monkeypatch, ["--format", "jsonl", "-o", str(out),
                                                      str(source)], look)
    finally:
        os.umask(old)
    assert code == 0 and mode == 0o664


def test_output_into_dev_null_keeps_it_a_device(tmp_path: Path) -> None:
    # The only use of the real /dev/null: writing into it (as any program may).
    code, out, _ = run("verify", "-o", os.devnull, str(jsonl(tmp_path, GOOD)))
    assert code == 0 and out == ""
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# --- --svg / --graph --------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "name"), [("--graph", "game.json"), ("--svg", "game.svg"),
                                              ("--output", "game.json")])
def test_pictures_may_not_replace_an_input_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                option: str, name: str) -> None:
    source = tmp_path / name
    source.write_text(json.dumps(GOOD))
    (code, _, err), _ = every_path(monkeypatch, [str(source), option, str(source)])
    assert code == 2 and f"{option} {source} is one of the input files" in err
    assert json.loads(source.read_text()) == GOOD


def test_inputs_of_one_name_in_two_folders_get_distinct_pictures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = jsonl(tmp_path, GOOD, name="a/game.jsonl")
    second = jsonl(tmp_path, dungeon("START@N", "R1@N"), name="b/game.jsonl")
    svg, graphs = tmp_path / "svg", tmp_path / "graphs"

    def look() -> dict[str, str]:
        return {p.name: p.read_text() for folder in (svg, graphs) for p in folder.iterdir()}

    (code, _, _), seen = every_path(monkeypatch, ["-q", "--svg", str(svg), "--graph", str(graphs),
                                                  str(first), str(second)], look)
    assert code == 0 and isinstance(seen, dict)
    assert sorted(seen) == ["game-1.graphml", "game-1.svg", "game.2-1.graphml", "game.2-1.svg"]
    assert seen["game-1.svg"] != seen["game.2-1.svg"]
    assert "a/game.jsonl:1" in seen["game-1.svg"] and "b/game.jsonl:1" in seen["game.2-1.svg"]


# --- --jobs -----------------------------------------------------------------------------------


def _process_starts(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The worker processes started from now on (a list that grows), on the path that starts
    processes (the C fast path uses threads)."""
    import multiprocessing

    started: list[object] = []
    real_start = multiprocessing.Process.start

    def counting_start(self: multiprocessing.Process) -> None:
        started.append(self)
        real_start(self)

    monkeypatch.setattr(multiprocessing.Process, "start", counting_start)
    monkeypatch.setattr(speedups, "_speedups", None)
    return started


@pytest.mark.parametrize("jobs", ["1000", str(10**30)])
def test_huge_jobs_is_capped_at_the_cores_and_the_work(tmp_path: Path, jobs: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from pathcheck.lifeline import usable_cores

    started = _process_starts(monkeypatch)
    few = tmp_path / "few.dgn"
    few.write_text("START@N R1@N\n" * 10)
    many = tmp_path / "many.dgn"
    many.write_text("START@N R1@N\n" * 600)  # three tasks of 256 records
    expected = run("verify", "--format", "jsonl", "-j", "1", str(few))
    assert run("verify", "--format", "jsonl", "-j", jobs, str(few)) == expected
    assert started == []  # one task: no worker at all
    expected = run("verify", "--format", "jsonl", "-j", "1", str(many))
    assert run("verify", "--format", "jsonl", "-j", jobs, str(many)) == expected
    assert len(started) == min(usable_cores(), 3) - 1


def test_jobs_default_to_all_cores_but_standard_input_streams_in_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathcheck.lifeline import usable_cores

    started = _process_starts(monkeypatch)
    text = "START@N R1@N\n" * 600  # three tasks of 256 records
    many = tmp_path / "many.dgn"
    many.write_text(text)
    expected = run("verify", "--format", "jsonl", "-j", "1", str(many))
    assert started == []
    assert run("verify", "--format", "jsonl", str(many)) == expected
    assert len(started) == min(usable_cores(), 3) - 1
    started.clear()
    code, out, _ = run("verify", "--format", "jsonl", "-", stdin=text)
    assert (code, out) == (expected[0], expected[1].replace(str(many), "<stdin>"))
    assert started == []


# --- odd arguments: one-line errors with the documented exit codes -------------------------


@pytest.mark.parametrize("text", ["", "   ", "# only a comment"])
def test_trace_of_nothing_is_one_line_error(text: str) -> None:
    code, out, err = run("trace", text)
    assert code == 3 and out == ""
    assert err == "pathcheck: invalid: no tiles to trace (the argument is blank or a comment)\n"


@pytest.mark.parametrize("nest", ["a = {}[]{}", "[[tile]]\nid = \"X\"\nx = {}1{}"])
def test_a_deeply_nested_tile_set_is_one_line_error(tmp_path: Path, nest: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    deep = tmp_path / "deep.toml"
    if nest.startswith("a"):
        deep.write_text(nest.format("[" * 500, "]" * 500).replace("[]", "", 1))
    else:
        deep.write_text(nest.format("{a=" * 500, "}" * 500))
    code, _, err = run("tiles", "--tileset", str(deep))
    assert code == 3
    assert err == f"pathcheck: invalid: {deep}: not a tile set: arrays or tables nested too " \
                  "deeply\n"
    (code, out, err), _ = every_path(monkeypatch, ["--format", "jsonl", "--tileset", str(deep),
                                                   str(jsonl(tmp_path, GOOD, GOOD))])
    assert code == 3 and "Traceback" not in err
    assert [json.loads(line)["kind"] for line in out.splitlines()] == ["invalid", "invalid"]
    assert "nested too deeply" in err


# --- names that would drive the terminal or forge a line --------------------------------------

HOSTILE = {  # name -> how text output shows it
    "Ann\nPoints: Ann 99": "Ann\\nPoints: Ann 99",
    "\x1b[2J\x1b[31mEve": "\\x1b[2J\\x1b[31mEve",
    "Ann\u202eevE": "Ann\\u202eevE",
    "Nul\x00l": "Nul\\x00l",
}
RAW = ("\x1b", "\x00", "\u202e")


def renamed(value: object, old: str, new: str) -> object:
    """``value`` with every string (and key) equal to ``old`` replaced by ``new``."""
    if isinstance(value, dict):
        return {(new if k == old else k): renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    return new if value == old else value


def assert_escaped(text: str, name: str) -> None:
    assert not any(raw in text for raw in RAW)
    assert HOSTILE[name] in text
    assert not any(line.startswith("Points: Ann 99") for line in text.splitlines())


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_player_names_are_escaped_in_verify_text(tmp_path: Path, name: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    record = dungeon("START@N", "I1@N", "L4@E", "R1@N", players=[name, "Bob"],
                     lost=[{"player": name, "after": 2}])
    source = jsonl(tmp_path, record, record)
    (code, out, err), _ = every_path(monkeypatch, [str(source)])
    assert code == 0, err
    assert_escaped(out, name)
    assert sum(line.startswith("Points:") for line in out.splitlines()) == 2
    (code, out, _), _ = every_path(monkeypatch, ["--format", "jsonl", str(source)])
    assert code == 0
    assert name in json.loads(out.splitlines()[0])["points"]  # JSON stays exact


def _legal_game_logs() -> dict[str, Path]:
    """One legal log with players for each game with fixtures (fixtures/<game>/legal-*)."""
    found: dict[str, Path] = {}
    for path in sorted((ROOT / "fixtures").glob("*/legal-*.json")):
        if path.parent.name not in found and json.loads(path.read_text()).get("players"):
            found[path.parent.name] = path
    return found


GAME_FIXTURES = _legal_game_logs()


def test_every_game_has_a_legal_log_with_players() -> None:
    assert {"dungeon", "memo-dice", "memoarrr", "robot-memory"} <= set(GAME_FIXTURES)


@pytest.mark.parametrize("game", sorted(GAME_FIXTURES))
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_player_names_are_escaped_in_every_ruling(tmp_path: Path, game: str,
                                                          name: str) -> None:
    doc = json.loads(GAME_FIXTURES[game].read_text())
    old = doc["players"][0]
    old = old if isinstance(old, str) else old["name"]
    log = tmp_path / "log.json"
    log.write_text(json.dumps(renamed(doc, old, name)))
    code, out, err = run("adjudicate", str(log))
    assert code == 0, err
    assert_escaped(out, name)
    code, out, _ = run("adjudicate", "--format", "jsonl", str(log))
    assert code == 0 and name in json.loads(out)["players"]  # JSON stays exact


# --- option values ----------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["verify", "--rules", "5", str(EXAMPLES)], "'5' is not an additional rule"),
    (["trace", "--rules", "2,x", "START@N"], "'x' is not an additional rule"),
    (["solo", "new", "--rules", "1"], "rule #1 is not a solo rule"),
    (["solo", "stats", "--count", str(10**20)], "use `pathcheck solo census`"),
])
def test_a_bad_option_value_is_a_usage_error(args: list[str], message: str) -> None:
    from pathcheck.cli import main

    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert "Invalid value for" in err and message in err
    assert main(args) == 2


def test_the_deals_cap_is_named() -> None:
    from pathcheck.cli import solo

    code, _, err = run("solo", "stats", "--count", str(solo.MAX_DEALS + 1))
    assert code == 2 and f"more than {solo.MAX_DEALS:,} seeds" in err


# --- messages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("field", "value", "message"), [
    ("rules", [True], "/rules/0: expected one of the rules 1, 2, 3, 4, got a boolean (true)"),
    ("advanced", 2.0, "/advanced: expected true or false, got a number 2.0"),
    ("advanced", None, "/advanced: expected true or false, got null"),
    ("rules", {"a": 1}, "/rules: expected a list of rule numbers, got an object"),
])
def test_errors_name_the_json_type(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str,
                                   value: object, message: str) -> None:
    source = jsonl(tmp_path, {**GOOD, field: value}, GOOD)
    (code, out, err), _ = every_path(monkeypatch, ["--format", "jsonl", str(source)])
    assert code == 3 and message.endswith(json.loads(out.splitlines()[0])["error"])
    assert err.splitlines()[0] == f"pathcheck: invalid: {source}:1: {message}"
    assert err.splitlines()[1] == "Summary: 2 records, 0 held, 1 Lost (misplaced 1), 1 invalid"


def test_one_record_is_one_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (code, out, _), _ = every_path(monkeypatch, [str(jsonl(tmp_path, GOOD))])
    assert code == 0 and out.splitlines()[-1].startswith("Summary: 1 record, 0 held")


@pytest.mark.parametrize("content", ["", "\n \n"])
def test_an_empty_json_file_is_named_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           content: str) -> None:
    source = tmp_path / "empty.json"
    source.write_text(content)
    (code, _, err), _ = every_path(monkeypatch, [str(source)])
    assert code == 3 and "truncated" not in err
    assert err.startswith(f"pathcheck: invalid: {source}:1: /: the file is empty")
    code, _, err = run("adjudicate", str(source))
    assert code == 3 and "the file is empty" in err


# --- a seed code fixes a solo record's rules -------------------------------------------------

CODE = "1303N-QK8NC"  # rules #2 and #3


def perfect_solo_line() -> str:
    code, out, _ = run("solo", "key", CODE, "--reveal", "--format", "json")
    assert code == 0
    return " | ".join(" ".join(f"{p['tile']}@{p['dir']}" for p in d["tiles"])
                      for d in json.loads(out)["dungeons"])


def test_solo_check_takes_the_rules_from_the_code(tmp_path: Path) -> None:
    bare = tmp_path / "game.dgn"
    bare.write_text(perfect_solo_line() + "\n")
    code, out, err = run("solo", "check", CODE, str(bare))
    assert code == 0, err
    assert f"{CODE}: score 46 of 46, no failure" in out
    stated = tmp_path / "stated.dgn"
    stated.write_text("#! rules=2,3\n" + perfect_solo_line() + "\n")
    assert run("solo", "check", CODE, str(stated))[0] == 0
    wrong = tmp_path / "wrong.dgn"
    wrong.write_text("#! rules=2\n" + perfect_solo_line() + "\n")
    code, _, err = run("solo", "check", CODE, str(wrong))
    assert code == 1
    assert "the record was played with rules #2, the code sets #2 #3" in err.replace(
        "#2, #3", "#2 #3")


def test_a_solo_record_with_a_seed_takes_its_rules(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run("solo", "key", CODE, "--reveal", "--format", "json")
    record = {"format": "solo/1", "seed": CODE,
              "dungeons": [d["tiles"] for d in json.loads(out)["dungeons"]]}
    source = jsonl(tmp_path, record)
    (code, out, _), _ = every_path(monkeypatch, ["--format", "jsonl", str(source)])
    assert code == 0
    result = json.loads(out)
    assert result["score"] == result["max_score"] == 46  # 38 tiles + 4 per rule: #2, #3
    code, out, err = run("adjudicate", str(source))
    assert code == 0 and "Verdict: legal" in out, err
