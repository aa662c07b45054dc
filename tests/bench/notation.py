"""Figure 14 of the benchmark suite (called by tests/bench/run.py; alone:
``python -m tests.bench.notation``): game notation is read in bounded memory.

A ``game/1`` log in notation of about 16 MB (the limit of one log): random 3-player games of
the project's generator (``random_game``), their explorations written once and then repeated
(several hundred thousand turns). Peak resident memory, over that of the same command on a
log of one game (the interpreter and the modules), per byte of the log:

14. ``pathcheck adjudicate LOG.pcn``: reading, ruling and writing the ruling (reading the log
    whole before parsing it took about 90 bytes per byte here, 1.4 GB; the ruling itself
    holds about 20 bytes per byte, the parsed log about 15);
    reading alone (``pathcheck.inputs.logs.iter_source``): about 64 bytes per byte before;
    ``convert`` of a file of 5 such logs of 1 MB to JSON Lines / of one of them: the logs are
    converted and let go one by one (held all at once before: 2.25x).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Line = Callable[..., None]
"""run.py's ``line(name, value, target, ok, *, load_bound=True)`` (see games.Line)."""
LOG_BYTES = 16_000_000
READ_ONLY = ("import sys\nfrom pathcheck.inputs.logs import iter_source\n"
             "for item in iter_source(sys.argv[1]):\n    pass\n")


def notation_log(size: int, seed: int = 1) -> bytes:
    """A ``game/1`` log of about ``size`` bytes of notation (at most 1 MB of it generated,
    then its explorations repeated)."""
    from pathcheck import notation
    from pathcheck.games.dungeon.gen import random_game

    rng = random.Random(seed)
    head, bodies, written = b"", [], 0
    while written < min(size, 1_000_000):
        game = random_game(rng, players=3)
        text = notation.write({"format": "game/1", "players": game["players"],
                               "explorations": game["explorations"]}).encode()
        head, _, body = text.partition(b"\nexploration ")
        bodies.append(b"exploration " + body)
        written += len(text)
    body = b"".join(bodies)
    copies = max(1, (size - len(head)) // len(body))
    return head + b"\n" + body * copies


def figures(pathcheck: Sequence[str], work: Path, line: Line, peak_rss_mb: Any) -> None:
    """Measure and print figure 14 (see the module doc); ``peak_rss_mb`` is games.py's."""
    big, small = work / "big.pcn", work / "small.pcn"
    big.write_bytes(notation_log(LOG_BYTES))
    small.write_bytes(notation_log(1))
    size = big.stat().st_size
    print(f"\nOne game/1 log of {size / 1e6:.1f} MB of notation ({size / 2**20:.1f} MiB, the "
          "limit 16 MiB)", flush=True)

    def per_byte(command: Sequence[str], exits: Sequence[int] = (0, 1)) -> tuple[float, float]:
        base = peak_rss_mb([*command, str(small)], exits)
        peak = peak_rss_mb([*command, str(big)], exits)
        return (peak - base) * 2**20 / size, peak

    ruled, ruled_mb = per_byte([*pathcheck, "adjudicate", "--jobs", "1"])
    line(f"14. peak memory adjudicating a {size / 1e6:.0f} MB .pcn, per byte of it (over "
         "the interpreter)", f"{ruled:.0f} B ({ruled_mb:.0f} MB)", "<= 64 B", ruled <= 64,
         load_bound=False)
    read, read_mb = per_byte([sys.executable, "-c", READ_ONLY], exits=(0,))
    line("    the same, reading it alone (log_input.iter_source)",
         f"{read:.0f} B ({read_mb:.0f} MB)", "<= 32 B", read <= 32, load_bound=False)
    big.unlink()

    one, five = work / "one.pcn", work / "five.pcn"
    log = notation_log(1_000_000, seed=2)
    one.write_bytes(log)
    five.write_bytes(b"\n".join([log] * 5))
    peaks = [peak_rss_mb([*pathcheck, "convert", str(path), "-o", str(work / "out.jsonl")])
             for path in (one, five)]
    line(f"    peak memory converting 5 logs of {len(log) / 1e6:.0f} MB / 1 "
         f"({peaks[0]:.0f} -> {peaks[1]:.0f} MB)", f"{peaks[1] / peaks[0]:.2f}x", "<= 1.2x",
         peaks[1] / peaks[0] <= 1.2, load_bound=False)
    for path in (one, five, small, work / "out.jsonl"):
        path.unlink(missing_ok=True)


if __name__ == "__main__":
    import shutil
    import tempfile

    from tests.bench.games import peak_rss_mb
    from tests.bench.run import line

    folder = Path(tempfile.mkdtemp(prefix="pathcheck-bench-"))
    script = Path(sys.executable).parent / "pathcheck"
    try:
        figures([str(script) if script.exists() else "pathcheck"], folder, line, peak_rss_mb)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
