"""Records as people write them stay on the C fast path and give what the Python path gives.

Players, LOST cards, ids, notes, escapes (in keys too), non-ASCII names, surrogate pairs and
any key order: the C scanner verifies them itself (the tests count the records it took), and
its bytes equal the Python path's. ``.dgn`` files (``!NAME`` cards, ``#!`` settings lines,
comments) likewise; whole commands are compared with and without the extension, and with
``--jobs 2``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.batch import JSON_LINE, Item, Settings, process_item
from pathcheck.inputs.records import Overrides
from pathcheck.reading import bounded
from pathcheck.solo.play import answer_key
from pathcheck.tracer.tileset import load_tileset

from .test_speedups import BUILT, REQUIRED, fast_path

# They compare the C side with the Python side: skipped only where the extension was not built
# (and not required), as tests/test_speedups.py explains.
pytestmark = pytest.mark.skipif(
    not BUILT and not REQUIRED,
    reason="pathcheck._speedups was not built (no C compiler at install time)")
TILESET = load_tileset()
NAMES = ["Ann", "Bob", "Cy", "Zoë", "José", "Björn", "Łucja", "李雷", "Ærin 😀", 'Q"uote',
         "back\\slash", "tab\tbed", "nul\x00", "del\x7f", "a/b", "\u2028", " ", "😀"]
names = st.sampled_from(NAMES) | st.text(min_size=1, max_size=5)


def json_line(record: dict[str, Any]) -> bytes:
    return msgspec.json.encode(record)


def _dungeon_pool() -> list[tuple[list[dict[str, str]], bool, list[int]]]:
    """Dungeons of flawless play of random decks, with their mode and rules."""
    rng = random.Random(12)
    pool = []
    for deal in range(60):
        advanced = deal % 2 == 0
        rules = sorted(rng.sample([1, 2, 3, 4] if advanced else [1, 2, 3], rng.randint(0, 3)))
        deck = TILESET.deck_ids(advanced=advanced)
        rng.shuffle(deck)
        for dungeon in answer_key([TILESET.start, *deck], rules=set(rules) - {1},
                                  tileset=TILESET):
            pool.append(([{"tile": p.tile, "dir": p.dir.name} for p in dungeon.placements],
                         advanced, rules))
    return pool


dungeons = st.sampled_from(_dungeon_pool())


@st.composite
def records(draw: st.DrawFn, valid: bool = True) -> dict[str, Any]:
    """A dungeon/1 record with players and LOST cards (valid ones unless ``valid`` is False)."""
    tiles, advanced, rules = draw(dungeons)
    record: dict[str, Any] = {"tiles": tiles}
    if advanced or draw(st.booleans()):
        record["advanced"] = advanced
    if bool(rules) or draw(st.booleans()):
        record["rules"] = rules
    players = draw(st.lists(names, max_size=6, unique=valid))
    if draw(st.integers(0, 4)):
        record["players"] = players
    elif draw(st.booleans()):
        record["players"] = None
    pool = players if "players" in record and valid else [*players, *NAMES[:4]]
    cards: list[dict[str, Any]] = []
    used: set[int] = set()
    for name in draw(st.lists(st.sampled_from(pool), max_size=5, unique=valid)) if pool else []:
        after = draw(st.integers(1, len(tiles)) if valid else st.integers(0, len(tiles) + 1))
        if valid and 1 in rules and after in used:
            continue
        used.add(after)
        card = {"player": name, "after": after}
        cards.append(dict(reversed(card.items())) if draw(st.booleans()) else card)
    if bool(cards) or draw(st.booleans()):
        record["lost"] = cards if bool(cards) or draw(st.booleans()) else None
    if draw(st.booleans()):
        record["format"] = "dungeon/1"
    if draw(st.booleans()):
        record["tileset"] = draw(st.sampled_from(["standard", None]))
    if draw(st.booleans()):
        record["id"] = draw(ids)
    if draw(st.booleans()):
        record["note"] = draw(st.text(max_size=12) | ids)
    return record


ids = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from([0.5, -2.25e-7, 1e99, 3.0])
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8,
)
WHITESPACE = st.sampled_from(["", "", "", " ", "\t", "  ", "\r"])
SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
         "\t": "\\t", "/": "\\/"}


@st.composite
def string_text(draw: st.DrawFn, value: str) -> str:
    """``value`` as a JSON string: plain, or with some or all characters escaped (``\\uXXXX``
    in either case, surrogate pairs above U+FFFF, the short escapes)."""
    mode = draw(st.sampled_from(["plain", "plain", "all", "some"]))
    if mode == "plain":
        return msgspec.json.encode(value).decode()
    out = []
    for char in value:
        code = ord(char)
        must = char in '"\\' or code < 0x20
        if not must and mode == "some" and draw(st.booleans()):
            out.append(char)
        elif char in SHORT and draw(st.booleans()):
            out.append(SHORT[char])
        else:
            units = [code] if code < 0x10000 else [0xD800 + ((code - 0x10000) >> 10),
                                                   0xDC00 + ((code - 0x10000) & 0x3FF)]
            for unit in units:
                text = f"\\u{unit:04x}"
                out.append(text.upper().replace("\\U", "\\u") if draw(st.booleans()) else text)
    return '"' + "".join(out) + '"'


@st.composite
def json_text(draw: st.DrawFn, value: Any) -> str:
    """``value`` as JSON text: any key order, whitespace, escaped strings and keys."""
    w = draw(WHITESPACE)
    if isinstance(value, dict):
        items = draw(st.permutations(list(value.items())))
        return "{" + ",".join(f"{w}{draw(string_text(k))}{draw(WHITESPACE)}:"
                              f"{draw(json_text(v))}{w}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(draw(json_text(v)) for v in value) + w + "]"
    if isinstance(value, str):
        return w + draw(string_text(value))
    return w + msgspec.json.encode(value).decode()


def python_path(block: bytes, settings_: Settings, source: str = "s.jsonl") -> bytes:
    out = []
    for number, raw in enumerate(block.split(b"\n"), start=1):
        if raw.strip():
            item = Item(JSON_LINE, source, number, raw, "", None, len(raw))
            out.append(process_item(item, settings_).text.encode() + b"\n")
    return b"".join(out)




def as_written(data: st.DataObject, values: list[dict[str, Any]]) -> bytes:
    """``values`` as a block of JSON Lines, each tidy or as another tool writes it."""
    lines = [data.draw(json_text(v)).encode() if data.draw(st.booleans()) else json_line(v)
             for v in values]
    return b"\n".join(lines) + b"\n"


OVERRIDES = st.builds(Overrides, rules=st.sampled_from([None, frozenset(), frozenset({1, 2})]),
                      advanced=st.sampled_from([None, None, True, False]))


@settings(max_examples=200)
@given(st.data(), st.lists(records(), min_size=1, max_size=6), OVERRIDES)
def test_records_as_people_write_them_stay_in_c(data: st.DataObject,
                                                 values: list[dict[str, Any]],
                                                 overrides: Overrides) -> None:
    block = as_written(data, values)
    settings_ = Settings(overrides=overrides, output="jsonl")
    fast, in_c = fast_path(block, settings_)
    slow = python_path(block, settings_)
    assert fast == slow
    results = [json.loads(x) for x in slow.splitlines()]
    valid = [r for r in results if r["kind"] == "dungeon"]
    assert in_c == len(valid)  # every valid record was verified by C, none by Python
    for value, result in zip(values, results, strict=True):
        if result["kind"] == "dungeon" and (value.get("lost") or value.get("players") is not None):
            assert "points" in result


@settings(max_examples=200)
@given(st.data(), st.lists(records(valid=False), min_size=1, max_size=6), OVERRIDES)
def test_records_with_mistakes_give_what_python_gives(data: st.DataObject,
                                                      values: list[dict[str, Any]],
                                                      overrides: Overrides) -> None:
    block = as_written(data, values)
    settings_ = Settings(overrides=overrides, output="jsonl")
    assert fast_path(block, settings_)[0] == python_path(block, settings_)


@pytest.mark.parametrize("line", [
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["\\ud800"]}',          # lone surrogate
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["\\udc00\\ud800"]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["a\\ud83d\\u0041"]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["\\x"]}',              # bad escape
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["\\u00g0"]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["a","a"]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":[""]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":[1]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","after":1.0}]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","after":true}]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","after":01}]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","after":1,"x":2}]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","player":"b","after":1}]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","after":1}],"players":["b"]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"lost":[{"player":"a","after":1},'
    '{"player":"b","after":1}],"rules":[1]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"id":1e400}',
    '{"tiles":[{"tile":"START","dir":"N"}],"id":1e-400}',
    '{"tiles":[{"tile":"START","dir":"N"}],"id":' + "1" * 50 + "}",
    '{"tiles":[{"tile":"START","dir":"N"}],"id":' + "[" * 40 + "]" * 40 + "}",
    '{"tiles":[{"tile":"START","dir":"N"}],"id":[1,]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"id":-}',
    '{"tiles":[{"tile":"START","dir":"N"}],"id":1,"id":2}',
    '{"tiles":[{"tile":"START","dir":"N"}],"id":{"a":1,"b":{"c":2,"c":3}}}',
    '{"tiles":[{"tile":"START","dir":"N"}],"note":{' + ",".join(f'"k{i}":{i}' for i in range(20))
    + "}}",
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["' + "x" * 101 + '"]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"note":"\x01"}',
    '{"tiles":[{"tile":"START","dir":"N"}],"note":"\xed\xa0\x80"}',
    '{"tiles":[{"tile":"START","dir":"N"}],"note":"\xc3"}',
    '{"tiles":[{"tile":"\\u0053TART","dir":"\\u004e"}],"\\u006eote":{"a":[]}}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":["Ann"],"lost":[]}',
    '{"tiles":[{"tile":"START","dir":"N"}],"players":[],"lost":null}',
    # a long line: its unescaped strings go to a heap buffer, not the stack one
    '{"note":"' + "\\u00e9\\n" * 3000 + '","tiles":[{"tile":"START","dir":"N"}],'
    '"players":["Zo\\u00eb"],"lost":[{"player":"Zo\\u00eb","after":1}]}',
])
def test_edge_cases_give_what_python_gives(line: str) -> None:
    block = line.encode("utf-8", "surrogateescape") + b"\n"
    settings_ = Settings(output="jsonl")
    assert fast_path(block, settings_)[0] == python_path(block, settings_)


def test_the_check_of_the_spec_example_is_computed_in_c() -> None:
    record = {"advanced": True, "tiles": [
        {"tile": t, "dir": d} for t, d in [("START", "N"), ("RE1", "N"), ("R1", "N"),
                                           ("R2", "E"), ("R3", "S"), ("I1", "S"), ("I2", "S")]],
        "lost": [{"player": "Bob", "after": 3}, {"player": "Cy", "after": 6},
                 {"player": "Dee", "after": 6}, {"player": "Eve", "after": 7}]}
    fast, in_c = fast_path(json_line(record) + b"\n", Settings(output="jsonl"))
    assert in_c == 1
    assert json.loads(fast)["points"] == {"Bob": 0, "Cy": 1, "Dee": 1, "Eve": 0}


def mixed_jsonl(seed: int, count: int) -> bytes:
    """JSON Lines as users write them, with a few broken lines among them."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    while len(lines) < count:
        deck = TILESET.deck_ids(advanced=True)
        rng.shuffle(deck)
        for dungeon in answer_key([TILESET.start, *deck], rules={2, 3}, tileset=TILESET):
            tiles = [{"tile": p.tile, "dir": p.dir.name} for p in dungeon.placements]
            players = rng.sample(NAMES, rng.randint(0, 5))
            lost = [{"player": p, "after": rng.randint(1, len(tiles))}
                    for p in players if rng.random() < 0.5]
            record = {"id": len(lines), "players": players, "lost": lost, "advanced": True,
                      "rules": [2, 3], "tiles": tiles}
            lines.append(json_line(record))
            if rng.random() < 0.05:
                lines.append(rng.choice([b"{", b"", b'{"tiles":[]}', b"[1]"]))
    return b"\n".join(lines) + b"\n"


def run_cli(args: list[str]) -> tuple[int, bytes, str]:
    from click.testing import CliRunner

    from pathcheck.cli import cli

    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout_bytes, result.stderr


@pytest.mark.parametrize("name,data", [("mixed.jsonl", mixed_jsonl(5, 400))])
def test_c_one_job_c_two_jobs_and_python_agree(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                               name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    one = verify_three_ways(monkeypatch, path, block_size=4096)
    assert one[0] == 3 and "Summary: " in one[2]


def verify_three_ways(monkeypatch: pytest.MonkeyPatch, path: Path,
                      block_size: int) -> tuple[int, bytes, str]:
    """``verify`` of ``path`` in C on one job, in C on two and in Python: the same exit code,
    output and messages (returned). Small blocks, so the threads interleave."""
    monkeypatch.setattr(bounded, "BLOCK_SIZE", block_size)
    args = ["verify", "--format", "jsonl", str(path)]
    one, two = run_cli(args), run_cli([*args, "--jobs", "2"])
    monkeypatch.setattr(speedups, "_speedups", None)
    plain = run_cli(args)
    assert one == two == plain
    return one


INTERESTING = b'"\\{}[],:0123456789-.eE \t\x00\x1f\x7f\x80\xbf\xc3\xed\xf0\xf4\xffu/'


@st.composite
def mutated(draw: st.DrawFn, line: bytes) -> bytes:
    """``line`` with one to three bytes replaced, inserted or dropped (broken UTF-8, escapes
    cut short, stray quotes...)."""
    data = bytearray(line)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        byte = draw(st.sampled_from(INTERESTING))
        action = draw(st.sampled_from(["replace", "insert", "drop"]))
        if action == "insert" or not data:
            data.insert(at, byte)
        elif action == "replace":
            data[at] = byte
        else:
            del data[at]
    return bytes(data)


@settings(max_examples=150)
@given(st.data(), st.lists(records(), min_size=1, max_size=3))
def test_mutated_bytes_give_what_python_gives(data: st.DataObject,
                                              values: list[dict[str, Any]]) -> None:
    lines = [data.draw(mutated(data.draw(json_text(v)).encode())) for v in values]
    block = b"\n".join(lines) + b"\n"
    settings_ = Settings(output="jsonl")
    assert fast_path(block, settings_)[0] == python_path(block, settings_)
