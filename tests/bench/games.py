"""The ``adjudicate`` figures of the benchmark suite (called by tests/bench/run.py).

For each log format, LOGS random legal games from the project's generators (each game's
``random_game``; ``solo/1``: perfect play of random decks) with the repository's illegal
fixtures mixed in (one log in ten), as JSON Lines. Measured:

6. ``adjudicate --format jsonl`` / decoding the same file with msgspec alone, one process each,
   per log (CPU time of the whole command less its time on the file's first log alone, so
   start-up is left out; medians of rounds run in turn; the whole commands' ratio is shown);
7. ``adjudicate --jobs 2`` / one process (wall time), judged only when two cores are really
   free (measured just before with two busy processes);
8. peak memory of ``adjudicate`` over a 1 GB JSON Lines file of game logs (200 MB target);
9. ``pathcheck adjudicate`` on one log (start-up included) / 250 ms.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ("game/1", "solo/1", "memoarrr/1", "memo-dice/1", "robot-memory/1")
ILLEGAL_EVERY = 10
DECODE_ONLY = (
    "import sys, msgspec\n"
    "decode = msgspec.json.Decoder().decode\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f:\n"
    "        decode(line)\n"
)
# Commands run as a user's would: with Python's bytecode cache (some sandboxes switch it off
# with PYTHONDONTWRITEBYTECODE, which makes every start-up compile pathcheck anew).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
Line = Callable[..., None]
"""run.py's ``line(name, value, target, ok, *, load_bound=True)``: prints a figure and keeps
its verdict (``load_bound=False``: a figure a busy machine cannot spoil, such as memory)."""
FREE_ENOUGH = 1.7
"""Of 2 cores, how many must be free (:func:`free_cores`) for a timing to be judged."""


def _game_of(fmt: str) -> str:
    return "dungeon" if fmt in ("game/1", "solo/1") else fmt.split("/", 1)[0]


def _illegal(fmt: str) -> list[bytes]:
    """The repository's illegal fixtures of one format, one line each."""
    out = []
    for path in sorted((ROOT / "fixtures" / _game_of(fmt)).glob("illegal-*.json")):
        log = json.loads(path.read_text("utf-8"))
        if log.get("format", "game/1") == fmt:
            out.append(msgspec.json.encode(log))
    return out


def _solo_logs(rng: random.Random) -> Iterator[dict[str, object]]:
    from pathcheck.solo.play import answer_key
    from pathcheck.tracer.tileset import load_tileset

    tileset = load_tileset()
    ids = tileset.deck_ids(advanced=True)
    while True:
        deck = ids[:]
        rng.shuffle(deck)
        rules = [r for r in (2, 3, 4) if rng.random() < 0.5]
        key = answer_key([tileset.start, *deck], rules=rules, tileset=tileset)
        yield {"format": "solo/1", "rules": rules, "dungeons": [
            [{"tile": p.tile, "dir": p.dir.name} for p in d.placements] for d in key]}


def write_logs(fmt: str, count: int, path: Path, seed: int = 1) -> None:
    """``count`` logs of ``fmt`` as JSON Lines, one in ILLEGAL_EVERY an illegal fixture."""
    from pathcheck import games

    rng = random.Random(seed)
    illegal = _illegal(fmt)
    if fmt == "solo/1":
        legal: Iterator[object] = _solo_logs(rng)
    else:
        plugin = games.load(_game_of(fmt))
        legal = iter(lambda: plugin.random_game(rng), None)
    with open(path, "wb") as out:
        for i in range(count):
            if illegal and i % ILLEGAL_EVERY == ILLEGAL_EVERY - 1:
                out.write(illegal[(i // ILLEGAL_EVERY) % len(illegal)] + b"\n")
            else:
                out.write(msgspec.json.encode(next(legal)) + b"\n")


def _run(command: Sequence[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of a command (exit 0 or 1: rulings)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def side_by_side(commands: dict[str, Sequence[str]], rounds: int) -> dict[str, tuple[float,
                                                                                   float]]:
    """Median (CPU, wall) of commands run in turn, round after round, after one warm-up."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for run in range(rounds + 1):
        for name, command in commands.items():
            measured = _run(command)
            if run:
                times[name].append(measured)
    return {name: (statistics.median(c for c, _ in values),
                   statistics.median(w for _, w in values)) for name, values in times.items()}


def marginal(timed: dict[str, tuple[float, float]]) -> float:
    """CPU per log of ``adjudicate`` / of the decode: each command's time on the whole file
    less its time on the file's first log (start-up, imports and the first log), so the
    figure is the cost of a log, as the issue's table states it (#33)."""
    ours = timed["adjudicate"][0] - timed["adjudicate1"][0]
    decode = timed["decode"][0] - timed["decode1"][0]
    return ours / decode if decode > 0 else float("inf")


def _busy(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def free_cores(seconds: float = 0.5) -> float:
    """How many cores two busy processes really got: CPU work done / wall time taken."""
    import multiprocessing

    began = time.perf_counter()
    workers = [multiprocessing.Process(target=_busy, args=(seconds,)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return min(2.0, 2 * seconds / (time.perf_counter() - began))


def peak_rss_mb(command: Sequence[str], exits: Sequence[int] = (0,)) -> float:
    """Peak resident memory of a command (its largest process), in MB; RuntimeError if it
    exits otherwise than ``exits`` say (``adjudicate`` exits 1 when a log is illegal)."""
    code = ("import resource, subprocess, sys\n"
            "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,\n"
            "                      stderr=subprocess.DEVNULL)\n"
            "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", code, *command], capture_output=True,
                         text=True, check=True, env=ENV)
    status, peak = out.stdout.split()
    if int(status) not in exits:
        raise RuntimeError(f"{' '.join(command)} exited with {status}")
    return int(peak) / 1024


def figures(pathcheck: Sequence[str], work: Path, logs: int, big_mb: int, rounds: int,
            line: Line) -> None:
    """Measure and print figures 6-9 (see the module doc)."""
    files = {}
    for i, fmt in enumerate(FORMATS):
        files[fmt] = work / f"{fmt.replace('/', '-')}.jsonl"
        write_logs(fmt, logs, files[fmt], seed=i + 1)
    print(f"\n{logs:,} logs of each game format, one in {ILLEGAL_EVERY} illegal "
          f"({', '.join(f'{f} {p.stat().st_size / 1e6:.0f} MB' for f, p in files.items())})",
          flush=True)
    for n, (fmt, path) in enumerate(files.items()):
        one = work / f"one-{path.name}"
        with open(path, "rb") as log_file:
            one.write_bytes(log_file.readline())
        timed = side_by_side({
            "decode": [sys.executable, "-c", DECODE_ONLY, str(path)],
            "adjudicate": [*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl", str(path)],
            "decode1": [sys.executable, "-c", DECODE_ONLY, str(one)],
            "adjudicate1": [*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl", str(one)],
        }, rounds)
        ratio = marginal(timed)
        whole = timed["adjudicate"][0] / timed["decode"][0]
        label = "6." if n == 0 else "  "
        line(f"{label} adjudicate jsonl, {fmt} / msgspec decode (CPU per log; whole "
             f"{whole:.1f}x)", f"{ratio:.1f}x", "<= 5x", ratio <= 5)
        one.unlink()

    path = files["game/1"]
    cores = free_cores()
    timed = side_by_side({
        "one": [*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl", str(path)],
        "two": [*pathcheck, "adjudicate", "--format", "jsonl", "--jobs", "2", str(path)],
    }, rounds)
    ratio = timed["two"][1] / timed["one"][1]
    cores = min(cores, free_cores())
    judged = cores >= FREE_ENOUGH
    name = f"7. adjudicate -j 2 / 1 process (wall; {cores:.1f} of 2 cores free)"
    if judged:
        line(name, f"{ratio:.2f}x", "<= 0.65x", ratio <= 0.65)
    else:
        print(f"{name:<58} {ratio:>17.2f}x   not judged: two processes cannot run at once "
              "here", flush=True)

    big = work / "big-logs.jsonl"
    chunk = b"".join(p.read_bytes() for p in files.values())
    written = 0
    with open(big, "wb") as out:
        while written < big_mb * 1_000_000:
            out.write(chunk)
            written += len(chunk)
    peak = peak_rss_mb([*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl", str(big)],
                       exits=(0, 1))
    line(f"8. peak memory adjudicating {written / 1e9:.2f} GB / 200 MB",
         f"{peak / 200:.2f}x ({peak:.0f} MB)", "< 1.0x", peak < 200, load_bound=False)
    big.unlink()

    one = ROOT / "fixtures" / "memo-dice" / "legal-2p.json"
    start = side_by_side({"one": [*pathcheck, "adjudicate", "--jobs", "1", str(one)]}, 7)["one"][1]
    line("9. pathcheck adjudicate (one log) / 250 ms",
         f"{start / 0.250:.2f}x ({start * 1000:.0f} ms)", "< 1.0x", start < 0.250)
