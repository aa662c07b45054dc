"""The ``analyse`` figures of the benchmark suite (called by tests/bench/run.py; alone:
``python tests/bench/analysis.py [--logs N]``).

On the same files as the ``adjudicate`` figures (tests/bench/games.py: LOGS random legal
games of each format, one in ten an illegal fixture, as JSON Lines):

12. ``analyse --format jsonl`` / ``adjudicate --format jsonl`` on the same file, CPU time of
    the whole command, medians of rounds run in turn (target <= 1.5x, issue #33: the analysis
    reuses the replay that rules);
13. memory flat while streaming: peak memory of ``analyse`` (and of ``analyse --by-player``)
    on a file of every format repeated to 5x its size / on the file once (target <= 1.2x).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
Line = Callable[..., None]
"""run.py's ``line(name, value, target, ok, *, load_bound=True)`` (see games.Line)."""


def _games() -> Any:
    spec = importlib.util.spec_from_file_location("pathcheck_bench_games", HERE / "games.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figures(pathcheck: Sequence[str], work: Path, logs: int, rounds: int, line: Line) -> None:
    """Measure and print figures 12-13 (see the module doc)."""
    games = _games()
    files = {}
    for i, fmt in enumerate(games.FORMATS):
        files[fmt] = work / f"{fmt.replace('/', '-')}.jsonl"
        if not files[fmt].exists():
            games.write_logs(fmt, logs, files[fmt], seed=i + 1)  # the adjudicate figures' seeds
    for n, (fmt, path) in enumerate(files.items()):
        timed = games.side_by_side({
            "adjudicate": [*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl", str(path)],
            "analyse": [*pathcheck, "analyse", "--jobs", "1", "--format", "jsonl", str(path)],
        }, rounds)
        ratio = timed["analyse"][0] / timed["adjudicate"][0]
        label = "12." if n == 0 else "   "
        line(f"{label} analyse / adjudicate, {logs:,} {fmt} logs (CPU)", f"{ratio:.2f}x",
             "<= 1.5x", ratio <= 1.5)
    once = work / "analyse-once.jsonl"
    chunk = b"".join(p.read_bytes() for p in files.values())
    once.write_bytes(chunk)
    five = work / "analyse-five.jsonl"
    five.write_bytes(chunk * 5)
    for label, extra in (("13.", []), ("   ", ["--by-player"])):
        small = games.peak_rss_mb([*pathcheck, "analyse", "--jobs", "1", "--format", "jsonl",
                                   *extra, str(once)], exits=(0,))
        big = games.peak_rss_mb([*pathcheck, "analyse", "--jobs", "1", "--format", "jsonl",
                                 *extra,
                                 str(five)], exits=(0,))
        what = " ".join(["analyse", *extra])
        line(f"{label} peak memory, {what}: 5x the logs / 1x", f"{big / small:.2f}x "
             f"({small:.0f} -> {big:.0f} MB)", "<= 1.2x", big / small <= 1.2,
             load_bound=False)
    once.unlink()
    five.unlink()


def main() -> None:
    import argparse
    import shutil
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logs", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    script = Path(sys.executable).parent / "pathcheck"
    pathcheck = [str(script) if script.exists() else shutil.which("pathcheck") or "pathcheck"]

    def line(name: str, value: str, target: str, ok: bool, *, load_bound: bool = True) -> None:
        import os

        load = "/".join(f"{x:.1f}" for x in os.getloadavg())  # as run.py's line prints it
        print(f"{name:<58} {value:>18}   target {target:<12} {'met' if ok else 'MISSED'}"
              f"   load {load}", flush=True)

    work = Path(tempfile.mkdtemp(prefix="pathcheck-bench-analysis-"))
    try:
        figures(pathcheck, work, args.logs, args.rounds, line)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
