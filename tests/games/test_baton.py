"""``adjudicate``/``analyse -j N`` with every process writing its own results (batch/baton.py)
and reading its own spans of a regular JSON Lines file (batch/spans.py): the output, stderr
and exit code are those of one process, byte for byte, for every format, ``-o`` and stdin;
Ctrl-C and a killed parent still end the workers.

The commands run in subprocesses: the click test runner's output has no file descriptor,
which sends a run the way of one process writing everything.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import BinaryIO

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.batch import spans
from pathcheck.inputs.items import log_items
from pathcheck.lifeline import usable_cores
from tests.test_signals import alive, children, wait_for

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
TWO_CORES = pytest.mark.skipif(usable_cores() < 2, reason="-j N is capped to one process")


def hostile_logs(path: Path, count: int, seed: int = 3) -> None:
    """Legal, illegal and malformed logs of every game, with blank lines, CRLF, a line of
    spaces, a dungeon record, a log nested too deep, a key given twice, bad UTF-8, no newline
    at the end."""
    rng = random.Random(seed)
    plugins = [games.load(name) for name in sorted(games.available())]
    illegal = [p.read_bytes().replace(b"\n", b"") for p in
               sorted(FIXTURES.glob("*/illegal-*.json"))]
    lines: list[bytes] = []
    for i in range(count):
        kind = i % 13
        if kind == 1:
            lines.append(b"")
        elif kind == 2:
            lines.append(b"{not json")
        elif kind == 3:
            lines.append(illegal[i % len(illegal)])
        elif kind == 4:
            lines.append(b'{"format": "dungeon/1", "tiles": []}')
        elif kind == 5:
            lines.append(b"[" * 100 + b"]" * 100)
        elif kind == 6:
            lines.append(b'{"format": "game/1", "format": "game/1"}')
        elif kind == 7:
            lines.append(b'{"format": "\xff"}')
        elif kind == 8:
            lines.append(b"   \t")
        else:
            log = json.dumps(plugins[i % len(plugins)].random_game(rng)).encode()
            lines.append(log + (b"\r" if kind == 9 else b""))
    path.write_bytes(b"\n".join(lines))  # no newline after the last line


def pathcheck(*args: str, stdin: bytes | None = None) -> tuple[int, bytes, bytes]:
    done = subprocess.run([sys.executable, "-m", "pathcheck", *args], input=stdin,
                          capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("baton") / "logs.jsonl"
    hostile_logs(path, 700)  # about ten spans
    return path


@TWO_CORES
@pytest.mark.parametrize("fmt", ["jsonl", "json", "text"])
def test_adjudicate_j2_and_j3_are_one_process_byte_for_byte(logs: Path, fmt: str) -> None:
    one = pathcheck("adjudicate", "--format", fmt, "-j", "1", str(logs))
    assert one[0] == 3 and one[1] and one[2].count(b"\n") > 100
    for jobs in ("2", "3"):
        assert pathcheck("adjudicate", "--format", fmt, "-j", jobs, str(logs)) == one


@TWO_CORES
def test_many_inputs_of_every_kind_keep_their_order(logs: Path, tmp_path: Path) -> None:
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n  \n")
    bom = tmp_path / "bom.ndjson"
    bom.write_bytes(b"\xef\xbb\xbf" + logs.read_bytes()[:20_000])
    document = tmp_path / "array.json"
    document.write_text(json.dumps([json.loads(p.read_text("utf-8")) for p in
                                    sorted((FIXTURES / "dungeon").glob("legal-*.json"))]))
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    names = [str(logs), str(tmp_path / "missing.jsonl"), str(blank), str(bom), str(document),
             str(fifo), str(logs)]

    def run(jobs: str) -> tuple[int, bytes, bytes]:
        feeder = subprocess.Popen(["sh", "-c", f"cat {logs} > {fifo}"])
        try:
            return pathcheck("adjudicate", "--format", "jsonl", "-j", jobs, *names)
        finally:
            feeder.wait()

    one = run("1")
    assert one[0] == 4 and b"missing.jsonl: cannot read" in one[2]
    assert b"blank.jsonl: no log in it" in one[2]
    assert run("2") == one


@TWO_CORES
@pytest.mark.parametrize("fmt", ["jsonl", "json", "text"])
def test_output_file_is_the_same_and_atomic(logs: Path, tmp_path: Path, fmt: str) -> None:
    first, second = tmp_path / "one.out", tmp_path / "two.out"
    second.write_text("an old report\n")
    code1, out1, err1 = pathcheck("adjudicate", "--format", fmt, "-j", "1", "-o", str(first),
                                  str(logs))
    code2, out2, err2 = pathcheck("adjudicate", "--format", fmt, "-j", "2", "-o", str(second),
                                  str(logs))
    assert (code1, out1, err1) == (code2, out2, err2)
    assert first.read_bytes() == second.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.out", "two.out"]


def test_stdin_is_read_by_one_process(logs: Path) -> None:
    data = logs.read_bytes()
    one = pathcheck("adjudicate", "--format", "jsonl", "-", stdin=data)
    assert pathcheck("adjudicate", "--format", "jsonl", "-j", "2", "-", stdin=data) == one
    assert one[0] == 3 and one[1].count(b"\n") > 500


@TWO_CORES
@pytest.mark.parametrize("fmt", ["jsonl", "json", "text"])
def test_analyse_j2_is_one_process_byte_for_byte(logs: Path, fmt: str) -> None:
    one = pathcheck("analyse", "--format", fmt, "-j", "1", str(logs))
    assert one[0] == 3 and one[1]
    assert pathcheck("analyse", "--format", fmt, "-j", "2", str(logs)) == one


@st.composite
def json_lines_files(draw: st.DrawFn) -> bytes:
    line = st.one_of(st.just(b""), st.just(b"  "), st.just(b"{}"), st.just(b"\r"),
                     st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")))
    body = b"\n".join(draw(st.lists(line, max_size=40)))
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + body \
        + (b"\n" if draw(st.booleans()) else b"")


@settings(max_examples=150, deadline=None)
@given(json_lines_files(), st.integers(1, 64))
def test_spans_are_the_items_of_the_reader(data: bytes, size: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "logs.jsonl")
        Path(path).write_bytes(data)
        opened: dict[int, BinaryIO] = {}
        try:
            found = [item for task in spans.log_tasks([path], opened, chunk=3, span=size)
                     for item in spans.span_items(task, opened)]
        finally:
            for stream in opened.values():
                stream.close()
        expected = list(log_items(path))
    assert [item[:3] + item[4:] for item in found] == [item[:3] + item[4:] for item in expected]
    assert [str(i.payload) if i.kind == 3 else i.payload for i in found] == [
        str(i.payload) if i.kind == 3 else i.payload for i in expected]


def test_a_line_past_the_record_limit_goes_the_readers_way(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from pathcheck.reading import bounded

    monkeypatch.setattr(bounded, "MAX_RECORD_BYTES", 50)
    monkeypatch.setattr(spans, "MAX_RECORD_BYTES", 50)
    path = tmp_path / "long.jsonl"
    path.write_bytes(b'{"a": 1}\n' + b"x" * 40 + b"\n" + b"y" * 200 + b"\n{}\n\n{}")
    opened: dict[int, BinaryIO] = {}
    tasks = list(spans.log_tasks([str(path)], opened, span=16))
    found = [item for task in tasks for item in spans.span_items(task, opened)]
    for stream in opened.values():
        stream.close()
    expected = list(log_items(str(path)))
    assert [(i.kind, i.line, str(i.payload)) for i in found] == [
        (i.kind, i.line, str(i.payload)) for i in expected]
    assert "longer than the limit" in str(found[2].payload)


@TWO_CORES
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["ctrl-c", "kill -9"])
def test_workers_end_with_the_run(tmp_path: Path, how: str) -> None:
    big = tmp_path / "big.jsonl"
    hostile_logs(big, 3000)
    err = tmp_path / "err"
    with open(err, "wb") as errors:
        proc = subprocess.Popen([sys.executable, "-m", "pathcheck", "adjudicate", "-j", "2",
                                 "--format", "jsonl", str(big)], stdout=subprocess.PIPE,
                                stderr=errors, start_new_session=True)
    assert proc.stdout is not None
    assert proc.stdout.readline()  # the ring runs; nobody reads on: every process waits
    wait_for(lambda: children(proc.pid), "a worker process")
    workers = children(proc.pid)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
        proc.stdout.close()
        assert proc.wait(timeout=60) == 130
        assert b"Traceback" not in err.read_bytes()
    else:
        proc.kill()
        proc.wait()
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to end")


@TWO_CORES
def test_a_closed_pipe_is_a_quiet_exit_0(logs: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "pathcheck", "adjudicate", "-j", "2",
                             "--format", "jsonl", str(logs), str(logs), str(logs)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    assert proc.stdout.readline()  # as `| head -1` does
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0


@TWO_CORES
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_failed_write_is_the_same_error(logs: Path) -> None:
    one = pathcheck("adjudicate", "--format", "jsonl", "-j", "1", "-o", "/dev/full", str(logs))
    two = pathcheck("adjudicate", "--format", "jsonl", "-j", "2", "-o", "/dev/full", str(logs))
    assert one[0] == two[0] == 4
    said = b"pathcheck: error: /dev/full: cannot write: No space left on device\n"
    assert one[2].endswith(said) and two[2].endswith(said)
