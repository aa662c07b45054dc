"""The C solo kernel against the plain Python deal, deal by deal, on random seeds and rules.

``pathcheck._speedups.solo_kernel`` plays perfectly with a walk of its own (not the
shared C tracer) and a shuffle unrolled for constant divisors, so it is compared here with what it
must equal: :func:`pathcheck.solo.deal.analyse_deal` (the seed's permutation and the Python
fast tracer), key for key and histogram for histogram. It runs under the sanitizers too
(.ci/sanitize). Skipped only where the extension was not built (as tests/test_speedups.py).
"""

from __future__ import annotations

import importlib.util
import os
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathcheck.solo import kernel
from pathcheck.solo.deal import (
    PATH_REASONS,
    RULE_OF_REASON,
    DealStats,
    _compiled,
    analyse_deal,
    analyse_stack,
)
from pathcheck.solo.seed_codes import SEED_LIMIT, permutation
from pathcheck.tracer.constants import REASONS, tracing_mask

BUILT = importlib.util.find_spec("pathcheck._speedups") is not None
REQUIRED = os.environ.get("PATHCHECK_REQUIRE_SPEEDUPS") == "1"
pytestmark = pytest.mark.skipif(
    not BUILT and not REQUIRED,
    reason="pathcheck._speedups was not built (no C compiler at install time)")

RULE_SETS = st.sets(st.sampled_from([2, 3, 4])).map(frozenset)
CODE = {name: code for code, name in enumerate(REASONS)}


def expected_key(stats: DealStats) -> int:
    """The kernel's deal key (see solo_kernel in pathcheck/speedups/c/solo.c)."""
    sumsq = sum(n * n for n in stats.lengths)
    path_lost = sum(r in PATH_REASONS for r in stats.reasons)
    rule_lost = sum(r in RULE_OF_REASON for r in stats.reasons)
    return sumsq | stats.revisits << 16 | path_lost << 24 | rule_lost << 32


def expected_shape(stats: DealStats) -> tuple[int, int]:
    mask = 0
    for reason in stats.reasons:
        mask |= 1 << CODE[reason]
    return stats.dungeons, mask


@given(start=st.integers(0, SEED_LIMIT - 1), count=st.integers(0, 40), rules=RULE_SETS)
def test_the_kernel_plays_every_seed_as_the_python_deal(start: int, count: int,
                                                        rules: frozenset[int]) -> None:
    run = kernel.KernelRun.of(start, count, rules)
    deals = [analyse_deal(seed, rules) for seed in range(start, start + count)]
    assert list(run.keys) == [expected_key(d) for d in deals]
    assert [tuple(run.shapes[2 * i:2 * i + 2]) for i in range(count)] == [
        expected_shape(d) for d in deals]
    assert run.dungeon_counts == Counter(d.dungeons for d in deals)
    assert run.lengths == Counter(n for d in deals for n in d.lengths)
    assert run.reasons == Counter("held" if r is None else r for d in deals for r in d.reasons)
    assert run.rule_bites == Counter(RULE_OF_REASON[r] for d in deals
                                     for r in set(d.reasons) if r in RULE_OF_REASON)


@given(base=st.lists(st.integers(0, 37), min_size=1, max_size=64),
       seed=st.integers(0, (1 << 64) - 1), rules=RULE_SETS)
def test_the_kernel_shuffles_stacks_of_every_length(base: list[int], seed: int,
                                                    rules: frozenset[int]) -> None:
    # Stacks of 1-64 tile numbers (repeats allowed): every unrolled step of the shuffle, and
    # seeds whose SplitMix64 state wraps. Tile numbers index the standard set's tables.
    from pathcheck.speedups import _speedups, _tables

    compiled, _ = _compiled()
    _, _, _, _, keys, shapes, _ = _speedups.solo_kernel(_tables(), bytes(base), seed, 1,
                                                     tracing_mask(rules))
    order = permutation(seed, len(base) - 1)
    stats = analyse_stack(compiled, [base[0], *(base[1 + k] for k in order)], rules)
    assert int.from_bytes(keys, "little", signed=True) == expected_key(stats)
    assert tuple(shapes) == expected_shape(stats)
