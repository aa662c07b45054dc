"""The C fast paths give exactly what the Python paths give.

The extension is optional: an install without a C compiler has none, and these tests then
skip (they compare the C side with the Python side). They skip only where the extension was
not built at all; one that was built but does not load fails them. With
``PATHCHECK_REQUIRE_SPEEDUPS=1`` (CI sets it, see .ci/run) "not built" fails too.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.batch import (
    JSON_LINE,
    Block,
    Item,
    Rendered,
    Settings,
    Task,
    process_item,
    process_task,
)
from pathcheck.inputs.records import Overrides
from pathcheck.solo import kernel as solo_kernel
from pathcheck.solo import stats as solo_stats
from pathcheck.tracer.tileset import load_tileset

TILESET = load_tileset()
IDS = [t.id for t in TILESET]

BUILT = importlib.util.find_spec("pathcheck._speedups") is not None
REQUIRED = os.environ.get("PATHCHECK_REQUIRE_SPEEDUPS") == "1"
pytestmark = pytest.mark.skipif(
    not BUILT and not REQUIRED,
    reason="pathcheck._speedups was not built (no C compiler at install time)")


def python_path(block: bytes, settings: Settings) -> bytes:
    out = []
    for number, raw in enumerate(block.split(b"\n"), start=1):
        if raw.strip():
            outcome = process_item(Item(JSON_LINE, "s.jsonl", number, raw, "", None, len(raw)),
                                   settings)
            out.append(outcome.text.encode() + b"\n")
    return b"".join(out)


def fast_path(block: bytes, settings: Settings) -> tuple[bytes, int]:
    """The fast path's bytes for a block of JSON Lines, and how many records C verified."""
    return task_output(Task([], block, 1, "s.jsonl"), settings)


def task_output(task: Task, settings: Settings) -> tuple[bytes, int]:
    """The bytes ``task`` gives (C's blocks and the Python path's results, in order) and how
    many records the C side verified itself."""
    out = []
    records = 0
    for result in process_task(task, settings):
        if isinstance(result, Block):
            out.append(result.data)
            records += sum(result.counts)
        else:
            assert isinstance(result, Rendered)
            out.append(result.text.encode() + b"\n")
    return b"".join(out), records


placements = st.builds(
    lambda tile, d: {"tile": tile, "dir": d},
    st.sampled_from([*IDS, "Q9", ""]),
    st.sampled_from(["N", "E", "S", "W", "n", "X"]),
)
records = st.fixed_dictionaries(
    {"tiles": st.lists(placements, max_size=40)},
    optional={
        "format": st.sampled_from(["dungeon/1", "solo/1", "dungeon/2"]),
        "advanced": st.booleans() | st.just("yes"),
        "rules": st.lists(st.integers(0, 5), max_size=4) | st.none(),
        "tileset": st.sampled_from(["standard", "nope.toml"]) | st.none(),
        "players": st.lists(st.sampled_from(["Ann", "Bob"]), max_size=2, unique=True),
        "lost": st.just([{"player": "Ann", "after": 1}]),
        "id": st.integers(),
        "extra": st.just(1),
    },
)


def line_of(value: Any) -> bytes:
    return msgspec.json.encode(value)


WHITESPACE = st.sampled_from(["", "", " ", "  ", "\t", "\r"])


@st.composite
def json_text(draw: st.DrawFn, value: Any) -> str:
    """``value`` as JSON text written in one of many valid (or slightly broken) ways: random
    whitespace, escapes, number spellings, duplicated keys, stray commas."""
    w = draw(WHITESPACE)
    if isinstance(value, dict):
        items = list(value.items())
        if draw(st.booleans()):
            items = draw(st.permutations(items))
        parts = [f"{w}{draw(json_text(k))}{draw(WHITESPACE)}:{draw(json_text(v))}{w}"
                 for k, v in items]
        if items and draw(st.integers(0, 30)) == 0:
            parts.append(parts[0])  # a duplicated key: the last one wins
        body = ",".join(parts)
        if draw(st.integers(0, 40)) == 0:
            body += ","  # invalid JSON
        return "{" + body + "}"
    if isinstance(value, list):
        return "[" + ",".join(draw(json_text(v)) for v in value) + w + "]"
    if isinstance(value, bool) or value is None:
        return w + json.dumps(value)
    if isinstance(value, int):
        spelling = draw(st.sampled_from([str(value), str(value), f"{value}.0", f"0{value}",
                                         f"{value}e0", f"-{value}"]))
        return w + spelling
    if isinstance(value, str):
        if value and draw(st.integers(0, 8)) == 0:
            return w + '"' + "".join(f"\\u{ord(c):04x}" for c in value) + '"'
        return w + json.dumps(value)
    return w + json.dumps(value)


@st.composite
def blocks(draw: st.DrawFn) -> bytes:
    lines = []
    for record in draw(st.lists(records, min_size=1, max_size=8)):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(b"")
        elif kind == 1:
            lines.append(draw(st.binary(max_size=40)).replace(b"\n", b" "))
        elif kind < 5:
            lines.append(draw(json_text(record)).encode())
        else:
            lines.append(line_of(record))
    return b"\n".join(lines) + draw(st.sampled_from([b"", b"\n"]))


@settings(max_examples=400)
@given(blocks(), st.sampled_from([None, frozenset(), frozenset({2, 3})]),
       st.sampled_from([None, True, False]))
def test_fast_block_equals_python_path(block: bytes, rules: frozenset[int] | None,
                                       advanced: bool | None) -> None:
    settings_ = Settings(overrides=Overrides(rules=rules, advanced=advanced), output="jsonl")
    fast, _ = fast_path(block, settings_)
    assert fast == python_path(block, settings_)


@settings(max_examples=300)
@given(st.permutations(IDS), st.sets(st.sampled_from([2, 3, 4])))
def test_fast_block_equals_python_on_perfect_play(order: list[str], rules: set[int]) -> None:
    from pathcheck.solo.play import answer_key

    deck = ["START", *[t for t in order if t != "START"]]
    lines = []
    for dungeon in answer_key(deck, rules=rules):
        lines.append(line_of({"advanced": True, "rules": sorted(rules), "tiles": [
            {"tile": p.tile, "dir": p.dir.name} for p in dungeon.placements]}))
    block = b"\n".join(lines) + b"\n"
    settings_ = Settings(output="jsonl")
    fast, counted = fast_path(block, settings_)
    assert fast == python_path(block, settings_)
    assert counted == len(lines)  # every record went through C
    assert all(json.loads(x)["kind"] == "dungeon" for x in fast.splitlines())


@settings(max_examples=300)
@given(st.data(), st.permutations(IDS), st.sets(st.sampled_from([2, 3, 4])))
def test_fast_block_equals_python_on_oddly_written_valid_records(
        data: st.DataObject, order: list[str], rules: set[int]) -> None:
    from pathcheck.solo.play import answer_key

    deck = ["START", *[t for t in order if t != "START"]]
    lines = []
    for dungeon in answer_key(deck, rules=rules):
        record: dict[str, Any] = {"tiles": [{"tile": p.tile, "dir": p.dir.name}
                                            for p in dungeon.placements],
                                  "advanced": True, "rules": sorted(rules)}
        if data.draw(st.booleans()):
            record["format"] = "dungeon/1"
        if data.draw(st.booleans()):
            record["tileset"] = data.draw(st.sampled_from(["standard", None]))
        lines.append(data.draw(json_text(record)).encode())
    block = b"\r\n".join(lines) + data.draw(st.sampled_from([b"", b"\n", b"\n\n  \n"]))
    settings_ = Settings(output="jsonl")
    assert fast_path(block, settings_)[0] == python_path(block, settings_)


@pytest.mark.parametrize("rules", [frozenset(), frozenset({2}), frozenset({3, 4}),
                                   frozenset({2, 3, 4})])
def test_solo_kernel_equals_python_analysis(rules: frozenset[int]) -> None:
    fast = solo_kernel.summarise_range(1000, 2500, rules).to_dict()
    slow = solo_stats.summarise_range_python(1000, 2500, rules).to_dict()
    fast_means = fast["difficulty"].pop("factor_means")
    slow_means = slow["difficulty"].pop("factor_means")
    fast_mean, slow_mean = fast["difficulty"].pop("mean"), slow["difficulty"].pop("mean")
    assert fast == slow
    assert math.isclose(fast_mean, slow_mean, rel_tol=1e-12)
    assert all(math.isclose(fast_means[k], slow_means[k], rel_tol=1e-12) for k in slow_means)


def test_the_extension_is_built() -> None:
    # The install builds it wherever a C compiler exists (CI requires it, see the module doc).
    assert speedups.available() and solo_kernel.available()


@pytest.mark.parametrize("bound, ghost_limit", [(1, 5), (2, 2), (4, 3)])
def test_the_c_tracer_takes_its_rule_constants_from_python(
        monkeypatch: pytest.MonkeyPatch, bound: int, ghost_limit: int) -> None:
    # Tables built with another bound and ghost limit change the C verdicts exactly as the
    # same constants change the Python fast tracer's: C has no copy of its own.
    from pathcheck.solo.play import answer_key
    from pathcheck.tracer import fast as fasttrace
    from pathcheck.tracer.constants import REASONS, TRACING

    monkeypatch.setattr(fasttrace, "BOUND", bound)
    monkeypatch.setattr(fasttrace, "GHOST_LIMIT", ghost_limit)
    tables = speedups.make_tables(TILESET, bound=bound, ghost_limit=ghost_limit)
    compiled = fasttrace.compile_tileset(TILESET)
    prefix = speedups.prefix_for("s.jsonl")
    changed = 0
    for dungeon in answer_key(IDS, rules=()):
        tiles = [{"tile": p.tile, "dir": p.dir.name} for p in dungeon.placements]
        line = line_of({"advanced": True, "rules": [2, 3, 4], "tiles": tiles})
        out, _, _, counts = speedups._speedups.scan_block(tables, line, 0, 1, prefix, -1, -1)
        lost_at, code, _, _ = fasttrace.trace_indices(
            compiled, [compiled.index[t["tile"]] for t in tiles],
            [int(p.dir) for p in dungeon.placements], int(TRACING))
        result = json.loads(out)
        assert (result["lost_at"], result["reason"]) == (lost_at or None, REASONS[code])
        assert counts[code] == 1
        changed += REASONS[code] in ("out-of-bounds", "ghost-five")
    assert changed  # the smaller constants did bite


def test_the_c_side_follows_the_python_reason_order() -> None:
    from pathcheck.tracer.constants import REASONS

    reordered = (REASONS[0], *reversed(REASONS[1:]))
    tables = speedups.make_tables(TILESET, reasons=reordered)
    line = line_of({"tiles": [{"tile": "START", "dir": "N"}, {"tile": "I1", "dir": "E"}]})
    out, _, _, counts = speedups._speedups.scan_block(tables, line, 0, 1, b'{"line":', -1, -1)
    assert json.loads(out)["reason"] == "misplaced"
    assert counts[reordered.index("misplaced")] == 1


def test_without_the_extension_verify_uses_the_python_path(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from click.testing import CliRunner

    from pathcheck.cli import cli

    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(line_of({"tiles": [{"tile": "START", "dir": "N"},
                                                   {"tile": t, "dir": "N"}]})
                                for t in ("I1", "L1", "Q9")) + b"\n")
    with_c = CliRunner().invoke(cli, ["verify", "--format", "jsonl", str(path)])
    monkeypatch.setattr(speedups, "_speedups", None)
    without = CliRunner().invoke(cli, ["verify", "--format", "jsonl", str(path)])
    assert with_c.exit_code == without.exit_code == 3
    assert with_c.stdout == without.stdout and len(without.stdout.splitlines()) == 3


@pytest.mark.parametrize("rules", [frozenset(), frozenset({2, 3, 4})])
@pytest.mark.parametrize("wanted", [
    solo_stats.Constraints(min_dungeons=6),
    solo_stats.Constraints(lost_by=frozenset({"loop", "reverse"})),
    solo_stats.Constraints(grade="hard", max_dungeons=4),
    solo_stats.Constraints(),
])
def test_seed_search_in_c_finds_what_python_finds(rules: frozenset[int],
                                                  wanted: solo_stats.Constraints) -> None:
    fast = solo_kernel.search_range(500, 1500, rules, wanted, 1 << 35)
    slow = solo_stats.search_range_python(500, 1500, rules, wanted, 1 << 35)
    assert fast == slow


def test_seed_search_wraps_at_the_modulo() -> None:
    found = solo_kernel.search_range((1 << 35) - 2, (1 << 35) + 2, frozenset(),
                                     solo_stats.Constraints(), 1 << 35)
    assert [d.seed for d in found] == [(1 << 35) - 2, (1 << 35) - 1, 0, 1]


@settings(max_examples=500)
@given(st.lists(st.sampled_from([b"<", b"/", b"!", b"-", b"--", b"a", b"\\", b"\xc3\xa9",
                                 b"</", b"<!--", b"<\\/"]), max_size=40).map(b"".join))
def test_script_json_equals_the_two_replaces(data: bytes) -> None:
    """A page's data made safe for its <script> element in one C pass: the bytes the two
    Python replaces give (pathcheck.render.html)."""
    from pathcheck import _speedups
    from pathcheck.render.html import _script_json_py

    assert _speedups.script_json(data) == _script_json_py(data)
