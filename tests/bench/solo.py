"""The solo kernel's figure: answer keys (deals played perfectly) per second on one core.

Issue #33's goal is 4 million a second with rules 2, 3 and 4, so that a census of the 2^35
seeds takes under 2.5 core hours. Both are measured in this process in CPU time of the
calling thread (``time.thread_time``: the kernel runs in it, the GIL released), medians of
several runs, with the free cores measured around them: on a shared machine another
process on the same core slows a run down without showing in its wall time alone. The
census figure times :func:`pathcheck.solo.census.chunk.analyse_chunk`, which adds what
Python does with the kernel's arrays (scores of the distinct keys, extreme seeds).
tests/bench/solo_exact.py compares the kernel with the one before issue #33's rewrite, seed
by seed and in keys a second, pair by pair.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

GOAL = 4_000_000
"""Answer keys a second on one core (issue #33)."""
SEEDS = 1 << 35
CENSUS_HOURS = 2.5


def _rate(run: Callable[[], object], deals: int, repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        began = time.thread_time()
        run()
        rates.append(deals / (time.thread_time() - began))
    return statistics.median(rates)


def figures(line: Callable[..., None], free_cores: Callable[[], float], deals: int = 1 << 20,
            repeat: int = 7) -> None:
    """3c. The kernel's answer keys a second / 4M; 3d. the census's core hours / 2.5."""
    from pathcheck.solo import kernel
    from pathcheck.solo.census.chunk import Limits, analyse_chunk
    from pathcheck.solo.deal import _compiled
    from pathcheck.speedups import _speedups, _tables
    from pathcheck.tracer.constants import tracing_mask

    if not kernel.available():
        line("3c. solo kernel (needs the C extension)", "not run", ">= 1.0x", False)
        return
    rules = frozenset({2, 3, 4})
    tables, base, mask = _tables(), bytes(_compiled()[1]), tracing_mask(rules)
    cores = free_cores()
    keys = _rate(lambda: _speedups.solo_kernel(tables, base, 0, deals, mask), deals, repeat)
    census = _rate(lambda: analyse_chunk(0, deals, rules, Limits()), deals, repeat)
    cores = min(cores, free_cores())
    hours = SEEDS / census / 3600
    load: Any = f"{cores:.1f} of 2 cores free"
    line(f"3c. solo kernel, rules 2,3,4, one core ({keys / 1e6:.2f}M keys/s, median of "
         f"{repeat}; {load}) / 4M", f"{keys / GOAL:.2f}x", ">= 1.0x", keys >= GOAL)
    line(f"    census of 2^35 seeds, one rule set ({census / 1e6:.2f}M seeds per CPU "
         f"second) / {CENSUS_HOURS} core hours", f"{hours / CENSUS_HOURS:.2f}x ({hours:.1f} h)",
         "<= 1.0x", hours <= CENSUS_HOURS)
