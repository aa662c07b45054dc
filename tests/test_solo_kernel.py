"""The C solo kernel against the plain Python deal, deal by deal, on random seeds and rules,
and against the bytes of the kernel before issue #33 on fixed ranges.

``pathcheck._speedups.solo_kernel`` plays perfectly with a walk of its own (not the
shared C tracer) and shuffles with vector instructions where the machine has them (else, or
with ``portable``, a shuffle unrolled for constant divisors), so it is compared here with what
it must equal: :func:`pathcheck.solo.deal.analyse_deal` (the seed's permutation and the Python
fast tracer), key for key and histogram for histogram, with both shuffles; and with the SHA-256
of what the kernel of commit d3c3549 returned (fixtures/seeds/kernel_digests.json), also
under other rule constants. tests/bench/solo_exact.py compares it with that kernel itself on
any range (10^8 seeds at a time). It runs under the sanitizers too (.ci/sanitize). Skipped
only where the extension was not built (as tests/test_speedups.py).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
from array import array
from collections import Counter
from pathlib import Path

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
DIGESTS = Path(__file__).resolve().parents[1] / "fixtures" / "seeds" / "kernel_digests.json"


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
    assert run.key_counts == Counter(expected_key(d) for d in deals)
    assert {key: run.places(key) for key in run.key_counts} == {
        key: (list(run.keys).index(key), count - 1 - list(run.keys)[::-1].index(key))
        for key in run.key_counts}
    assert bytes(run.keys) == run.key_bytes
    assert [tuple(run.shapes[2 * i:2 * i + 2]) for i in range(count)] == [
        expected_shape(d) for d in deals]
    assert run.dungeon_counts == Counter(d.dungeons for d in deals)
    assert run.lengths == Counter(n for d in deals for n in d.lengths)
    assert run.reasons == Counter("held" if r is None else r for d in deals for r in d.reasons)
    assert run.rule_bites == Counter(RULE_OF_REASON[r] for d in deals
                                     for r in set(d.reasons) if r in RULE_OF_REASON)


@given(start=st.integers(0, (1 << 64) - 50), count=st.integers(0, 40), rules=RULE_SETS,
       portable=st.booleans())
def test_both_shuffles_play_every_seed_as_the_python_deal(start: int, count: int,
                                                          rules: frozenset[int],
                                                          portable: bool) -> None:
    # Seeds anywhere in 64 bits (the SplitMix64 state wraps), with the vector shuffle (where
    # the machine has it) and the portable one; the key histogram is the keys' Counter.
    from pathcheck.speedups import _speedups, _tables

    base = _compiled()[1]
    out = _speedups.solo_kernel(_tables(), bytes(base), start, count, tracing_mask(rules),
                                portable)
    keys = array("q", out[4])
    stacks = [[base[0], *(base[1 + k] for k in permutation(seed, len(base) - 1))]
              for seed in range(start, start + count)]
    deals = [analyse_stack(_compiled()[0], stack, rules) for stack in stacks]
    assert list(keys) == [expected_key(d) for d in deals]
    assert [tuple(out[5][2 * i:2 * i + 2]) for i in range(count)] == [
        expected_shape(d) for d in deals]
    table = array("q", out[6])  # key, deals, first index, last index
    assert list(table[0::4]) == sorted(set(keys))
    assert dict(zip(table[0::4], table[1::4], strict=True)) == Counter(keys)
    for key, first, last in zip(table[0::4], table[2::4], table[3::4], strict=True):
        assert (first, last) == (keys.index(key), count - 1 - keys[::-1].index(key))


@given(base=st.lists(st.integers(0, 37), min_size=1, max_size=64),
       seed=st.integers(0, (1 << 64) - 1), rules=RULE_SETS, portable=st.booleans())
def test_the_kernel_shuffles_stacks_of_every_length(base: list[int], seed: int,
                                                    rules: frozenset[int],
                                                    portable: bool) -> None:
    # Stacks of 1-64 tile numbers (repeats allowed): every unrolled step of the shuffle (and
    # every padding of the vector one), and seeds whose SplitMix64 state wraps. Tile numbers
    # index the standard set's tables.
    from pathcheck.speedups import _speedups, _tables

    compiled, _ = _compiled()
    _, _, _, _, keys, shapes, _ = _speedups.solo_kernel(_tables(), bytes(base), seed, 1,
                                                        tracing_mask(rules), portable)
    order = permutation(seed, len(base) - 1)
    stats = analyse_stack(compiled, [base[0], *(base[1 + k] for k in order)], rules)
    assert int.from_bytes(keys, "little", signed=True) == expected_key(stats)
    assert tuple(shapes) == expected_shape(stats)


def digest(parts: tuple[bytes, ...]) -> str:
    """As fixtures/seeds/make_kernel_digests.py makes them."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


@pytest.mark.parametrize("portable", [False, True], ids=["vector", "portable"])
def test_the_kernel_returns_the_bytes_of_the_kernel_before_issue_33(portable: bool) -> None:
    # Every rule set on five fixed ranges (the space's start and end, its middle, seeds past
    # it up to 2^64), and rule constants the standard tables do not have (a bound of 0 puts
    # the entrance outside it; ghost limits of 1, 2, 3 and 40).
    from pathcheck.speedups import _speedups, _tables, make_tables
    from pathcheck.tracer.tileset import load_tileset

    data = json.loads(DIGESTS.read_text(encoding="utf-8"))
    base = bytes(_compiled()[1])
    made: dict[tuple[int, int], object] = {}
    assert len(data["cases"]) == 80
    for case in data["cases"]:
        if "bound" in case:
            constants = (case["bound"], case["ghost_limit"])
            if constants not in made:
                made[constants] = make_tables(load_tileset(), bound=constants[0],
                                              ghost_limit=constants[1])
            tables = made[constants]
        else:
            tables = _tables()
        out = _speedups.solo_kernel(tables, base, case["first"], case["count"],
                                    tracing_mask(frozenset(case["rules"])), portable)
        assert digest(out[:6]) == case["sha256"], case


def test_the_kernel_shuffles_with_vectors_where_the_processor_has_avx2_and_fma() -> None:
    # So the tests above cover the vector shuffle wherever it runs (Linux says what the
    # processor has; elsewhere only the answer's type is known).
    from pathcheck.speedups import _speedups

    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists():
        assert isinstance(_speedups.solo_simd(), bool)
        return
    flags = set()
    for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("flags"):
            flags.update(line.partition(":")[2].split())
    expected = platform.machine() in ("x86_64", "AMD64") and {"avx2", "fma"} <= flags
    assert _speedups.solo_simd() is expected


def test_the_kernel_clears_its_grid_when_its_stamps_run_out() -> None:
    # A call stamps each dungeon; after 2^20 - 1 dungeons (about 210,000 deals) it clears the
    # grid and starts again. 300,000 deals in one call must be the same as in two.
    from pathcheck.speedups import _speedups, _tables

    base, mask = bytes(_compiled()[1]), tracing_mask(frozenset({2, 3, 4}))
    whole = _speedups.solo_kernel(_tables(), base, 7, 300_000, mask)
    left = _speedups.solo_kernel(_tables(), base, 7, 150_000, mask)
    right = _speedups.solo_kernel(_tables(), base, 150_007, 150_000, mask)
    assert sum(array("q", whole[0])) == 300_000
    assert sum(array("q", whole[0])[k] * k for k in range(65)) > 1 << 20  # dungeons
    assert whole[4] == left[4] + right[4]
    assert whole[5] == left[5] + right[5]


@given(keys=st.lists(st.integers(1, 12), max_size=300), wanted=st.sets(st.integers(0, 14),
                                                                       max_size=12),
       most=st.integers(0, 5), begin=st.integers(0, 320))
def test_solo_key_deals_finds_the_first_deals_of_each_key(keys: list[int], wanted: set[int],
                                                          most: int, begin: int) -> None:
    # A census chunk finds the deals of its extreme keys in one pass (census/chunk.py).
    from pathcheck.speedups import _speedups

    asked = tuple(wanted)
    found = _speedups.solo_key_deals(array("q", keys).tobytes(), asked, most, begin)
    assert found == [[d for d in range(begin, len(keys)) if keys[d] == key][:most]
                     for key in asked]


def test_solo_key_deals_refuses_what_it_cannot_answer() -> None:
    from pathcheck.speedups import _speedups

    for args in [(b"\0" * 7, (1,), 1, 0), (b"", tuple(range(65)), 1, 0), (b"", (1, 1), 1, 0),
                 (b"", (1,), -1, 0), (b"", (1,), 1, -1)]:
        with pytest.raises(ValueError, match="solo_key_deals"):
            _speedups.solo_key_deals(*args)
    with pytest.raises(OverflowError):
        _speedups.solo_key_deals(b"", (1 << 70,), 1, 0)
