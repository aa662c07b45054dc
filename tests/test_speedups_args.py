"""Every entry point of the C extension checks its arguments: misuse is a ValueError, never a
read or write outside a buffer (the sanitizer build in .ci/sanitize runs these too)."""

from __future__ import annotations

from typing import Any

import pytest

from pathcheck import speedups
from pathcheck.tracer.constants import REASONS

_c: Any = speedups._speedups
pytestmark = pytest.mark.skipif(_c is None, reason="the C extension is not built")


def table_args(**change: Any) -> list[Any]:
    """The arguments speedups._tables passes, for a two-tile set, with ``change`` applied."""
    args = {
        "index": {"START": 0, "I1": 1},
        "kinds": bytes([0, 1]),
        "ghosts": bytes([0xFF, 0xFF]),
        "adv_only": bytes([0, 0]),
        "tile_json": [b'"START"', b'"I1"'],
        "exit_table": bytes([0xFF] * 32),
        "primary_move": bytes([0, 0]),
        "is_repeat": bytes([0, 0]),
        "reason_json": [b"null"] * len(REASONS),
        "rule_json": [b"null"] * len(REASONS),
        "reasons": tuple(REASONS),
        "bound": 4,
        "ghost_limit": 5,
        "rule_bound": 2,
        "rule_ghost_five": 4,
        "rule_ghost_twice": 8,
        "rule_advanced_only": 8,
    }
    args.update(change)
    return list(args.values())


def test_make_tables_accepts_good_tables() -> None:
    assert _c.make_tables(*table_args()) is not None


@pytest.mark.parametrize("change", [
    {"kinds": bytes([0, 2])},                      # a kind past the exit table
    {"kinds": bytes([0, 255])},
    {"ghosts": bytes([0xFF, 31])},                 # a ghost bit past an int mask
    {"ghosts": bytes([0xFF, 0x80])},
    {"exit_table": bytes([0xFF] * 31 + [4])},      # a heading that is no direction
    {"exit_table": bytes([0xFF] * 31 + [0xFD])},
    {"primary_move": bytes([0, 7])},
    {"is_repeat": bytes([0, 2])},
    {"exit_table": bytes(31)},                     # wrong sizes
    {"ghosts": bytes(3)},
    {"tile_json": [b'"START"']},
    {"reason_json": [b"null"] * 7},
    {"reasons": (None, "loop")},                   # a reason the tracer needs is missing
    {"bound": -1}, {"bound": 1000}, {"ghost_limit": 0},
    {"index": {"START": 0, "I1": 2}},              # a tile number past the tiles
    {"index": {"START": 0, "I1": -1}},
    {"index": {"START": 0, "I1": 0}},              # two ids for one number
    {"index": {"START": 0, 5: 1}},
])
def test_make_tables_refuses_values_past_its_tables(change: dict[str, Any]) -> None:
    with pytest.raises((ValueError, TypeError)):
        _c.make_tables(*table_args(**change))


def test_make_tables_keeps_its_own_copy_of_the_index() -> None:
    index = {"START": 0, "I1": 1}
    tables = _c.make_tables(*table_args(index=index))
    index.clear()
    index["x" * 100] = 0
    # The scanner still finds the ids it was given.
    out, stop, line, counts = _c.scan_block(tables, b'{"tiles":[{"tile":"I1","dir":"N"}]}\n',
                                            0, 1, b'{"line":', -1, -1)
    assert out.startswith(b"{\"line\":1,") and stop == 36 and line == 2 and sum(counts) == 1


def real_tables() -> Any:
    return speedups._tables()


@pytest.mark.parametrize("start", [-1, -(1 << 40), 2, 1 << 40])
def test_trace_records_refuses_a_start_outside_the_list(start: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        _c.trace_records(real_tables(), [object()], start, 1, b"{", -1, -1)


@pytest.mark.parametrize("args", [
    (0, -1, -1, -1), (0, (1 << 63) - 1, -1, -1), (0, 1, 32, -1), (0, 1, -2, -1),
    (0, 1, -1, 2), (0, 1, -1, -2),
])
def test_trace_records_refuses_bad_lines_and_codes(args: tuple[int, int, int, int]) -> None:
    start, line, rules, adv = args
    with pytest.raises(ValueError, match="out of range"):
        _c.trace_records(real_tables(), [object()], start, line, b"{", rules, adv)


@pytest.mark.parametrize("args", [
    (-1, 1, -1, -1), (10, 1, -1, -1), (0, -5, -1, -1), (0, (1 << 63) - 1, -1, -1),
    (0, 1, 99, -1), (0, 1, -1, 5),
])
def test_scan_block_refuses_bad_offsets_lines_and_codes(args: tuple[int, int, int, int]) -> None:
    offset, line, rules, adv = args
    with pytest.raises(ValueError, match="out of range"):
        _c.scan_block(real_tables(), b"{}\n", offset, line, b"{", rules, adv)


@pytest.mark.parametrize("count", [-1, 1 << 61, (1 << 63) - 1])
def test_solo_kernel_refuses_a_count_whose_buffers_overflow(count: int) -> None:
    with pytest.raises(ValueError, match="bad stack or count"):
        _c.solo_kernel(real_tables(), bytes([0, 1, 2]), 1, count, 0)


@pytest.mark.parametrize("base", [b"", bytes(65), bytes([0, 200])])
def test_solo_kernel_refuses_bad_stacks(base: bytes) -> None:
    with pytest.raises(ValueError):
        _c.solo_kernel(real_tables(), base, 1, 1, 0)


def test_entry_points_refuse_a_foreign_capsule() -> None:
    with pytest.raises(ValueError):
        _c.scan_block(object(), b"{}\n", 0, 1, b"{", -1, -1)
    with pytest.raises(ValueError):
        _c.solo_kernel(object(), bytes([0, 1]), 1, 1, 0)
