"""Figure 10: deal-less ``game/1`` logs are ruled in time linear in their length.

One log of N explorations (random legal games from gen.py, one after the other, with
``hands`` and ``deck`` left out), ruled in process for N = 4,000, 24,000 and 40,000: the CPU time
per exploration of the longest against the shortest (linear: about 1x; the quadratic replay
this replaces took 0.6 s, 11 s and 37-52 s). Then ``record --resume`` of such a log of about
250 kB of notation: the time the recorder takes to check one more move (it rules the whole
log again; it took 7.6 s a move).

Run alone: ``python -m tests.bench.dealless``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

Line = Callable[[str, str, str, bool], None]

SIZES = (4_000, 24_000, 40_000)
RESUME_BYTES = 250_000


def dealless_log(explorations: int, seed: int = 1) -> dict[str, Any]:
    """One ``game/1`` log of ``explorations`` explorations, none with its deal."""
    from pathcheck.games.dungeon.gen import random_game

    rng = random.Random(seed)
    kept: list[dict[str, Any]] = []
    while len(kept) < explorations:
        game = random_game(rng, players=3)
        for exploration in game["explorations"]:
            exploration.pop("hands")
            exploration.pop("deck")
        kept += game["explorations"]
    return {"format": "game/1", "players": game["players"],
            "explorations": kept[:explorations]}


def _rule_seconds(log: dict[str, Any]) -> float:
    from pathcheck.games.dungeon.adjudicator import rule_game

    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        rule_game(log, source="bench")
        best = min(best, time.process_time() - start)
    return best


def _resume_text() -> str:
    """About RESUME_BYTES of notation: a deal-less log, its last move line left out."""
    from pathcheck import notation

    count = 100
    while True:
        text = notation.write(dealless_log(count))
        if len(text.encode()) >= RESUME_BYTES:
            return text
        count = int(count * RESUME_BYTES / len(text.encode())) + 10


def figures(line: Line) -> None:
    """Print figure 10."""
    seconds = {}
    for size in SIZES:
        seconds[size] = _rule_seconds(dealless_log(size))
        print(f"    deal-less game/1 of {size:,} explorations: {seconds[size]:.2f} s",
              flush=True)
    low, high = SIZES[0], SIZES[-1]
    ratio = (seconds[high] / high) / (seconds[low] / low)
    line(f"10. deal-less game/1, time per exploration {high:,} / {low:,}", f"{ratio:.2f}x",
         "<= 1.5x", ratio <= 1.5)

    from pathcheck.recorder import Recording

    text = _resume_text()
    recording = Recording.load(text, "bench.pcn")
    last = recording.lines.pop()
    recording.check(recording.lines[-1])  # the log so far ruled once, as on resuming
    start = time.process_time()
    recording.check(last)
    move = time.process_time() - start
    line(f"    record --resume ({len(text) / 1000:.0f} kB deal-less): one move / 1 s",
         f"{move:.2f}x ({move * 1000:.0f} ms)", "< 1.0x", move < 1.0)


if __name__ == "__main__":
    from tests.bench.run import line

    figures(line)
