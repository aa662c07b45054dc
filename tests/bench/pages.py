"""The replay-page figures of the benchmark suite (called by tests/bench/run.py).

11. ``adjudicate LOGS --html DIR/`` / ``adjudicate --format jsonl LOGS`` over the same random
    legal ``game/1`` logs of 3 to 5 players (CPU time of each whole command, start-up included;
    medians of rounds run in turn): target <= 20x; and per page, marginally (the CPU time of
    PAGES logs minus that of 200, over the difference), a page / a ruling, the median of rounds
    that each run the four commands in turn: target <= 20x (issue #33: a batch of pages costs
    at most 20 rulings a page);
    peak memory of the pages of PAGES logs minus that of 200: target < 20 MB (the pages are
    written as they are made, nothing of a page is kept but its index row).
"""

from __future__ import annotations

import random
import shutil
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

Line = Callable[[str, str, str, bool], None]


def write_game_logs(count: int, path: Path, seed: int = 1) -> None:
    """``count`` random legal ``game/1`` logs of 3, 4 and 5 players, as JSON Lines."""
    from pathcheck.games.dungeon.gen import random_game

    rng = random.Random(seed)
    with open(path, "wb") as out:
        for i in range(count):
            out.write(msgspec.json.encode(random_game(rng, players=3 + i % 3)) + b"\n")


def _marginal(pathcheck: Sequence[str], work: Path, small: Path, large: Path, extra: int,
              rounds: int, run: Callable[[Sequence[str]], tuple[float, float]]
              ) -> tuple[float, float, list[float]]:
    """A page / a ruling, marginally: each round runs the four commands in turn (the rulings
    and the pages of the small and of the large file) and gives its own ratio, (CPU of the
    large pages - of the small) / (CPU of the large rulings - of the small), so that the
    rulings and the pages it compares ran side by side; the median page and ruling (seconds)
    and every round's ratio."""
    folder = work / "pages"
    pages, rulings, ratios = [], [], []
    for run_ in range(rounds + 1):
        cpu = {}
        for name, path in (("small", small), ("large", large)):
            cpu["j" + name] = run([*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl",
                                   str(path)])[0]
            cpu["h" + name] = run([*pathcheck, "adjudicate", "--jobs", "1", str(path), "-o",
                                   str(work / "rulings.txt"), "--html", str(folder) + "/"])[0]
            shutil.rmtree(folder, ignore_errors=True)
        if not run_:
            continue  # a warm-up round
        page = (cpu["hlarge"] - cpu["hsmall"]) / extra
        ruling = max((cpu["jlarge"] - cpu["jsmall"]) / extra, 1e-9)
        pages.append(page)
        rulings.append(ruling)
        ratios.append(page / ruling)
    return statistics.median(pages), statistics.median(rulings), ratios


def figures(pathcheck: Sequence[str], work: Path, logs: int, pages: int, rounds: int,
            line: Line, games: object) -> None:
    """Measure and print figure 11 (``games``: tests/bench/games.py, for its timers)."""
    side_by_side = games.side_by_side  # type: ignore[attr-defined]
    peak_rss_mb = games.peak_rss_mb  # type: ignore[attr-defined]
    small, large = work / "pages-small.jsonl", work / "pages-large.jsonl"
    write_game_logs(logs, small)
    write_game_logs(pages, large, seed=2)
    folder = work / "pages"
    timed = side_by_side({
        "jsonl": [*pathcheck, "adjudicate", "--jobs", "1", "--format", "jsonl", str(small)],
        "pages": [*pathcheck, "adjudicate", "--jobs", "1", str(small), "-o",
                  str(work / "rulings.txt"), "--html", str(folder) + "/"],
    }, rounds)
    (jsonl, _), (html, _) = timed["jsonl"], timed["pages"]
    line(f"11. adjudicate --html, {logs} game/1 logs of 3-5 players / --format jsonl (CPU; "
         f"{html / logs * 1000:.0f} ms a page)", f"{html / jsonl:.1f}x", "<= 20x",
         html / jsonl <= 20)
    shutil.rmtree(folder, ignore_errors=True)
    page, ruling, ratios = _marginal(pathcheck, work, small, large, pages - logs, rounds,
                                     games._run)  # type: ignore[attr-defined]
    ratio = statistics.median(ratios)
    line(f"    a page / a ruling, marginal ({pages:,} logs - {logs}; {page * 1000:.1f} ms / "
         f"{ruling * 1000:.2f} ms; rounds {', '.join(f'{r:.1f}x' for r in ratios)})",
         f"{ratio:.1f}x", "<= 20x", ratio <= 20)
    peaks = []
    for path in (small, large):
        peaks.append(peak_rss_mb([*pathcheck, "adjudicate", "--jobs", "1", str(path), "-o",
                                  str(work / "rulings.txt"), "--html", str(folder) + "/"],
                                 exits=(0, 1)))
        shutil.rmtree(folder, ignore_errors=True)
    growth = peaks[1] - peaks[0]
    line(f"    peak memory, {pages:,} pages - {logs} pages ({peaks[0]:.0f} -> {peaks[1]:.0f} MB)",
         f"{growth:.1f} MB", "< 20 MB", growth < 20)
