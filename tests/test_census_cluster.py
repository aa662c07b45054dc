"""Census processes and signals (issue 20, point 14), on LocalClusters and listeners on
127.0.0.1 only: the ``--scheduler`` address checked, a port that is not a scheduler or
refuses named at once, a cluster without workers said, a chunk that kills its workers
named, Ctrl-C, SIGTERM and ``kill -9`` of real census processes, every run in
``runs.jsonl``, nothing written before a run starts. Every wait is for an event, bounded."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from pathcheck.render.census import format_census
from pathcheck.solo import kernel as solo_kernel
from pathcheck.solo.census import Census, CensusDir, ChunkResult, Limits, Plan, run_census
from pathcheck.solo.census.chunk import analyse_chunk
from pathcheck.solo.census.run import read_runs
from tests.test_signals import alive, children, wait_for

cli: click.Command = importlib.import_module("pathcheck.cli").cli
census_cli = importlib.import_module("pathcheck.cli.census")
distributed: Any = importlib.import_module("distributed")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc and sends POSIX signals")
# A census that runs for minutes, in chunks that take a fraction of a second: interrupted
# after its first chunk, whatever the machine's speed (the Python path is slower).
BIG = (["--count", str(1 << 30), "--chunk", str(1 << 18)] if solo_kernel.available()
       else ["--count", str(1 << 26), "--chunk", str(1 << 10)])
KILLER = 2000
"""The chunk starting at this seed kills its worker process (see :func:`deadly`)."""


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["solo", *args], catch_exceptions=False)


def deadly(start: int, stop: int, rules: frozenset[int], limits: Limits) -> ChunkResult:
    """:func:`analyse_chunk`, but the chunk from KILLER kills the process analysing it."""
    if start == KILLER:
        os.kill(os.getpid(), signal.SIGKILL)
    return analyse_chunk(start, stop, rules, limits)


@contextlib.contextmanager
def cluster(workers: int, **config: Any) -> Iterator[Any]:
    dask = importlib.import_module("dask")
    with dask.config.set(config), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        local = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                         processes=True, host="127.0.0.1",
                                         dashboard_address=None, silence_logs=50)
    with local:
        yield local


@contextlib.contextmanager
def listener(answer: bytes | None) -> Iterator[str]:
    """A TCP port on 127.0.0.1 that is not a Dask scheduler: it says ``answer`` to whoever
    connects, or nothing at all (None)."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        kept = []
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            kept.append(conn)
            if answer is not None:
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()


class Stop(KeyboardInterrupt):
    """Stands for Ctrl-C in the middle of a census."""


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return int(server.getsockname()[1])


# --- the address, and what answers there -------------------------------------------------


@pytest.mark.parametrize("address", ["foo", "", "  ", "http://127.0.0.1:8787",
                                     "tls://127.0.0.1:8786", "tcp://127.0.0.1",
                                     "tcp://127.0.0.1:99999", "ucx://127.0.0.1:8786"])
def test_a_badly_formed_scheduler_is_a_usage_error(tmp_path: Path, address: str) -> None:
    done = run("census", "--out", str(tmp_path / "c"), "--count", "10", "--scheduler", address)
    assert done.exit_code == 2, done.output
    assert "Invalid value for --scheduler" in done.stderr and "tcp://" in done.stderr
    assert not (tmp_path / "c").exists()


def test_local_and_scheduler_together_write_nothing(tmp_path: Path) -> None:
    out = str(tmp_path / "c")
    done = run("census", "--out", out, "--count", "100", "--local", "--scheduler",
               "tcp://127.0.0.1:8786")
    assert done.exit_code == 2 and "exclude each other" in done.stderr
    assert not (tmp_path / "c").exists()
    other = run("census", "--out", out, "--count", "300", "--chunk", "100", "--local", "-j",
                "1")  # the corrected command is not refused: no plan was fixed
    assert other.exit_code == 0, other.output


@pytest.mark.parametrize(("answer", "words"), [
    (None, "no Dask scheduler answers there"),
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "what answers there is not a Dask scheduler"),
])
def test_a_port_that_is_not_a_scheduler_fails_within_the_timeout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: bytes | None,
        words: str) -> None:
    monkeypatch.setattr("pathcheck.solo.census.cluster.CONNECT_SECONDS", 1.0)
    with listener(answer) as address:
        done = run("census", "--out", str(tmp_path / "c"), "--count", "100", "--scheduler",
                   address)
    assert done.exit_code == 4, done.output
    assert f"the Dask scheduler at {address}: {words}" in done.stderr
    assert "resume" not in done.stderr and not (tmp_path / "c").exists()


def test_a_refused_connection_is_said_at_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pathcheck.solo.census.cluster.CONNECT_SECONDS", 3600.0)  # not waited for
    address = f"tcp://127.0.0.1:{free_port()}"
    done = run("census", "--out", str(tmp_path / "c"), "--count", "100", "--scheduler",
               address)
    assert done.exit_code == 4, done.output
    assert f"cannot reach the Dask scheduler at {address}: Connection refused" in done.stderr
    assert not (tmp_path / "c").exists()


def test_a_scheduler_without_workers_says_so_while_it_waits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pathcheck.solo.census.cluster.NOTICE_AFTER", 0.2)
    monkeypatch.setattr("pathcheck.solo.census.cluster.NOTICE_EVERY", 0.2)
    said: list[str] = []
    with cluster(0) as empty:
        def interrupt(text: str) -> None:
            if "has no workers" in text:
                raise Stop  # Ctrl-C while it waits: nothing was stored, nothing written
            said.append(text)

        monkeypatch.setattr(census_cli, "_notice", interrupt)
        stopped = run("census", "--out", str(tmp_path / "c"), "--count", "3000", "--chunk",
                      "1000", "--scheduler", empty.scheduler_address)
        assert stopped.exit_code == 130 and not (tmp_path / "c").exists()
        assert said == ["census interrupted; nothing was stored"]
        said.clear()

        def notice(text: str) -> None:
            said.append(text)
            if len(said) == 2:  # said twice: now a worker comes
                empty.scale(1)
            census_cli.click.echo(f"pathcheck: {text}", err=True)

        monkeypatch.setattr(census_cli, "_notice", notice)
        done = run("census", "--out", str(tmp_path / "c"), "--count", "3000", "--chunk",
                   "1000", "--scheduler", empty.scheduler_address, "--format", "json")
    assert done.exit_code == 0, done.output
    waiting = f"the Dask scheduler at {empty.scheduler_address} has no workers after"
    assert done.stderr.count(waiting) >= 2
    assert f"start one with `dask worker {empty.scheduler_address}`" in done.stderr
    assert json.loads(done.stdout)["census"]["complete"]


# --- chunks that kill their workers ------------------------------------------------------


def test_a_chunk_that_kills_its_dask_workers_is_named_with_how_to_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pathcheck.solo.census.run.analyse_chunk", deadly)  # sent to the workers
    out = tmp_path / "c"
    # One death is all the scheduler allows here (by default 4, each a worker restarted).
    with cluster(1, **{"distributed.scheduler.allowed-failures": 0}) as local:
        done = run("census", "--out", str(out), "--count", "4000", "--chunk", "1000",
                   "--scheduler", local.scheduler_address)
    assert done.exit_code == 70, done.output
    # The one worker may hold a queued chunk beside the killer: Dask blames both, and so the
    # message names both, the killer always among them.
    suspects = r"(\d,000-\d,999 and )?2,000-2,999( and \d,000-\d,999)?"
    assert re.fullmatch(
        rf"pathcheck: census stopped: (the chunk|one of the chunks) of seeds {suspects} killed "
        r"its Dask worker once \(a crash, or not enough memory\)"
        r"(; they were on the same worker, and Dask cannot tell which one killed it)?"
        r"; [0-3] of 4 chunks are stored in "
        f"{re.escape(str(out))}: run the same command again to resume\n", done.stderr)
    folder = CensusDir(out)
    assert (2000, 3000) not in folder.done()
    assert read_runs(folder)[-1].outcome == "failed"


def test_a_chunk_that_kills_a_local_process_is_named_with_how_to_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pathcheck.solo.census.run.analyse_chunk", deadly)  # forked workers too
    out = tmp_path / "c"
    done = run("census", "--out", str(out), "--count", "4000", "--chunk", "1000", "--local",
               "-j", "2")
    assert done.exit_code == 70, done.output
    line = done.stderr.strip()
    assert line.startswith("pathcheck: census stopped: the chunk of seeds ") and "\n" not in line
    assert "a local worker process died" in line
    assert f"chunks are stored in {out}: run the same command again to resume" in line
    assert "internal error" not in line and "Traceback" not in line
    assert Census.load(CensusDir(out)).runs[-1].outcome == "failed"


# --- what a census records ---------------------------------------------------------------


def test_an_interrupted_run_is_recorded_and_counted(tmp_path: Path) -> None:
    plan = Plan(frozenset(), 0, 6000, 1000)
    folder = CensusDir(tmp_path / "c").open(plan)

    def interrupt(result: ChunkResult) -> None:
        raise Stop

    with pytest.raises(Stop):
        run_census(folder, jobs=1, use_dask=False, on_done=interrupt)
    runs = read_runs(folder)
    assert [(r.outcome, r.workers, r.chunks) for r in runs] == [("interrupted", 1, 1)]
    assert runs[0].seconds > 0
    run_census(folder, jobs=1, use_dask=False)
    doc = Census.load(folder).to_dict()
    assert doc["census"]["runs"] == 2 and doc["census"]["runs_unfinished"] == 1
    assert "2 runs, 1 of them interrupted, failed or killed" in format_census(
        Census.load(folder))
    assert doc["seconds"] == round(sum(r.seconds for r in read_runs(folder)), 3)


def test_an_unfinished_census_names_the_seeds_it_counted(tmp_path: Path) -> None:
    out = tmp_path / "c"
    assert run("census", "--out", str(out), "--count", "5000", "--start", "1000", "--chunk",
               "1000", "--local", "-j", "1").exit_code == 0
    for first in (1000, 3000, 5000):
        (out / "chunks" / f"{first:011d}-{first + 1000:011d}.json.gz").unlink()
    text = run("census", "--report", str(out)).stdout
    assert "2,000 deals (seeds 2,000-2,999 and 4,000-4,999)" in text
    doc = json.loads(run("census", "--report", str(out), "--format", "json").stdout)
    assert doc["census"]["seeds_counted"] == [[2000, 2999], [4000, 4999]]


# --- real census processes and signals ---------------------------------------------------


def census_process(out: Path, *args: str) -> subprocess.Popen[bytes]:
    """``pathcheck solo census`` in a session of its own (a terminal's process group), once
    it has stored its first chunk."""
    proc = subprocess.Popen([sys.executable, "-m", "pathcheck", "solo", "census", "--out",
                             str(out), *BIG, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    wait_for(lambda: any((out / "chunks").glob("*.json.gz")) or proc.poll() is not None,
             "the first chunk", limit=120)
    assert proc.poll() is None, proc.communicate()
    return proc


def test_ctrl_c_on_a_local_cluster_prints_no_worker_traceback(tmp_path: Path) -> None:
    proc = census_process(tmp_path / "c", "-j", "2")
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: to the whole process group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    text = err.decode()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    # Said before the cluster is closed: first, whatever the closing takes.
    assert text.startswith("pathcheck: census interrupted; "), text
    assert "run the same command again to resume\n" in text
    assert read_runs(CensusDir(tmp_path / "c"))[-1].outcome == "interrupted"


def test_sigterm_exits_143_and_is_recorded(tmp_path: Path) -> None:
    proc = census_process(tmp_path / "c", "--local", "-j", "1")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert b"run the same command again to resume" in err and b"Traceback" not in err
    runs = read_runs(CensusDir(tmp_path / "c"))
    assert [(r.outcome, r.workers) for r in runs] == [("interrupted", 1)]


def test_kill_9_of_local_processes_leaves_no_worker_and_is_counted(tmp_path: Path) -> None:
    out = tmp_path / "c"
    proc = census_process(out, "--local", "-j", "2")
    wait_for(lambda: len(children(proc.pid)) >= 2, "two worker processes")
    workers = children(proc.pid)
    proc.kill()
    proc.communicate(timeout=60)
    wait_for(lambda: not any(alive(pid) for pid in workers), "the workers to end")
    doc = json.loads(run("census", "--report", str(out), "--format", "json").stdout)
    assert doc["jobs"] == 2 and doc["census"]["runs_unfinished"] == 1
    assert doc["seconds"] > 0  # up to the last chunk the killed run stored
