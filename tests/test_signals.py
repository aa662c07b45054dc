"""Signals, dying parents and closed pipes, with the real command in subprocesses (issue 13).

Inputs come through FIFOs kept open, so that each run is caught mid-way whatever the speed of
the machine: every wait below is for an event (a file, a process), never a timing assert.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pathcheck.lifeline import usable_cores

PATHS = [("c", 1), ("c", 2), ("python", 1), ("python", 2)]
LINE = json.dumps({"tiles": [{"tile": "START", "dir": "N"}, {"tile": "I1", "dir": "N"}]})
DGN = "START@N R1@N R2@E !Ann R3@S I4@W"
PYTHON_PATH = ("from pathcheck import speedups; speedups._speedups = None; "
               "from pathcheck.cli import entry; entry()")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc and sends POSIX signals")


def pathcheck(path: str, *args: str) -> list[str]:
    if path == "python":
        return [sys.executable, "-c", PYTHON_PATH, *args]
    return [sys.executable, "-m", "pathcheck", *args]


def wait_for(condition: Callable[[], object], what: str, limit: float = 60.0) -> None:
    """Wait for an event (not a timing assert: the limit only stops a hung test)."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@contextlib.contextmanager
def feeding(fifo: Path, text: str) -> Iterator[None]:
    """Write ``text`` into the FIFO and keep it open (the reader waits for more) until the
    block ends."""
    done = threading.Event()

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), open(fifo, "w") as handle:
            handle.write(text)
            handle.flush()
            done.wait()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield
    finally:
        done.set()
        while writer.is_alive():  # blocked opening or writing a FIFO nobody reads any more
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
            writer.join(timeout=0.05)


@pytest.mark.parametrize(("path", "jobs"), PATHS)
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_during_output_removes_the_temporary_file(tmp_path: Path, path: str,
                                                          jobs: int, signum: int,
                                                          code: int) -> None:
    fifo = tmp_path / "in.jsonl"
    os.mkfifo(fifo)
    out = tmp_path / "report.jsonl"
    out.write_text("the old report\n")
    with feeding(fifo, (LINE + "\n") * 3000):
        proc = subprocess.Popen(pathcheck(path, "verify", "-j", str(jobs), "--format", "jsonl",
                                          "-o", str(out), str(fifo)),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wait_for(lambda: any(p.name.startswith(".report") for p in tmp_path.iterdir()),
                 "the temporary file")
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == code and err == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "report.jsonl"]
    assert out.read_text() == "the old report\n"


@pytest.mark.parametrize(("path", "jobs"), PATHS)
@pytest.mark.parametrize("suffix", [".dgn", ".jsonl"])
def test_ctrl_c_is_a_quiet_exit_130_of_every_process(tmp_path: Path, path: str, jobs: int,
                                                     suffix: str) -> None:
    fifo = tmp_path / f"in{suffix}"
    os.mkfifo(fifo)
    # The fast path reads 1 MB blocks, four in flight with -j 2: give it more than that.
    line = DGN if suffix == ".dgn" else LINE
    text = (line + "\n") * (6_000_000 // len(line))
    with feeding(fifo, text):
        proc = subprocess.Popen(pathcheck(path, "verify", "-j", str(jobs), "--format", "jsonl",
                                          str(fifo)), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        first = proc.stdout.readline() if proc.stdout else b""
        assert json.loads(first)["line"] == 1
        if jobs == 2 and path == "python" and usable_cores() > 1:  # processes, not threads
            wait_for(lambda: children(proc.pid), "a worker process")
        workers = children(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: to the whole process group
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == b""  # no traceback, from any process
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to end")


@pytest.mark.skipif(usable_cores() < 2, reason="-j 2 is capped to one process on one core")
@pytest.mark.parametrize("command", [
    ["verify", "-j", "2", "--format", "jsonl", "{fifo}"],
    ["solo", "stats", "-j", "2", "--count", "100000000", "--format", "json"],
])
def test_workers_die_with_a_killed_parent(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "in.dgn"
    os.mkfifo(fifo)
    with feeding(fifo, (DGN + "\n") * 1000):
        argv = [part.replace("{fifo}", str(fifo)) for part in command]
        proc = subprocess.Popen(pathcheck("python", *argv), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        wait_for(lambda: children(proc.pid), "a worker process")
        workers = children(proc.pid)
        proc.kill()  # kill -9: no clean-up of any kind in the parent
        proc.wait()
        wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to die")


@pytest.mark.parametrize(("path", "jobs"), PATHS)
@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_a_closed_pipe_is_a_quiet_exit_0(tmp_path: Path, path: str, jobs: int,
                                         fmt: str) -> None:
    source = tmp_path / "many.jsonl"
    source.write_text((LINE + "\n") * 50_000)
    proc = subprocess.Popen(pathcheck(path, "verify", "-j", str(jobs), "--format", fmt,
                                      str(source)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()  # as `| head -1` does
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and err == b""


CLOSED_STDIN = [(path, ["verify", "-j", str(jobs)]) for path, jobs in PATHS] + [
    ("c", ["adjudicate"]), ("c", ["solo", "check", "1303N-QK8NC"])]


@pytest.mark.parametrize(("path", "command"), CLOSED_STDIN)
def test_a_closed_stdin_is_one_line_error_exit_4(path: str, command: list[str]) -> None:
    done = subprocess.run(pathcheck(path, *command, "-"), stdin=subprocess.PIPE,
                          capture_output=True, preexec_fn=lambda: os.close(0), check=False)
    assert done.returncode == 4
    assert done.stderr.decode().splitlines()[0] == (
        "pathcheck: error: <stdin>: cannot read: standard input is closed")
    assert b"Traceback" not in done.stderr


def test_python_m_pathcheck_in_a_checkout_shadowing_the_install_gives_a_hint() -> None:
    # As after a plain `pip install .`: nothing maps pathcheck.cli to the checkout's cli/.
    script = ("import runpy, sys; sys.meta_path[:] = [f for f in sys.meta_path "
              "if 'editable' not in repr(f).lower()]; sys.argv = ['pathcheck', '--help']; "
              "runpy.run_module('pathcheck', run_name='__main__', alter_sys=True)")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                          check=False)
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"pathcheck: error: the folder {root / 'pathcheck'} hides the "
                          "installed pathcheck")
    assert "pip install -e ." in err
