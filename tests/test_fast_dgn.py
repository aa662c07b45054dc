"""``.dgn`` files on the C fast path give exactly what the Python path gives.

Hand-written compact notation: ``!NAME`` LOST cards, ``#!`` settings lines, comments, blank
lines, odd whitespace and non-ASCII names; the file cut into blocks anywhere, as ``--jobs``
cuts it.
"""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.batch import Settings, Task, process_item
from pathcheck.batch import fast as batch_fast
from pathcheck.inputs import items as input_items
from pathcheck.inputs.records import Overrides

from . import test_fast_records
from .test_fast_records import NAMES, OVERRIDES, dungeons, verify_three_ways
from .test_speedups import task_output

pytestmark = test_fast_records.pytestmark  # skipped only where the extension was not built

DGN_NAMES = [n for n in NAMES if n.split() == [n] and "#" not in n and "," not in n]
SPACE = st.sampled_from([" ", " ", " ", "  ", "\t", "\u3000", "\x1c", "\xa0"])


def python_path(block: bytes, settings_: Settings) -> bytes:
    out = []
    for item in input_items._dgn_items(io.BytesIO(block), "s.dgn", 1):
        out.append(process_item(item, settings_).text.encode() + b"\n")
    return b"".join(out)


def fast_path(block: bytes, settings_: Settings, cuts: list[int]) -> tuple[bytes, int]:
    """The fast path on ``block`` cut into blocks at the starts of the lines ``cuts``."""
    starts = [0] + [i + 1 for i, byte in enumerate(block) if byte == ord("\n")]
    edges = sorted({0, *(starts[c % len(starts)] for c in cuts), len(block)})
    out, in_c = [], 0
    pragma: tuple[bytes, bytes] = (b"", b"")
    for begin, end in itertools.pairwise(edges):
        part = block[begin:end]
        task = Task([], part, block.count(b"\n", 0, begin) + 1, "s.dgn", pragma)
        part_out, part_in_c = task_output(task, settings_)
        out.append(part_out)
        in_c += part_in_c
        pragma = batch_fast._last_pragma(part, "s.dgn", pragma)
    return b"".join(out), in_c


@st.composite
def games(draw: st.DrawFn) -> list[str]:
    """A game as people write it: a comment, a ``#!`` line, its dungeons with LOST cards."""
    tiles, advanced, rules = draw(dungeons)
    players = draw(st.lists(st.sampled_from(DGN_NAMES), max_size=5, unique=True))
    words = [draw(st.sampled_from(["advanced", "advanced=yes", "advanced=1"])) if advanced
             else draw(st.sampled_from(["basic", "advanced=no", "advanced=False", ""]))]
    if bool(rules) or draw(st.booleans()):
        words.append("rules=" + ",".join(str(r) for r in rules))
    named = draw(st.integers(0, 3)) > 0
    if named:
        words.append("players=" + ",".join(players))
    if draw(st.booleans()):
        words.append("tileset=standard")
    words = draw(st.permutations(words))
    lines = [f"# game {draw(st.integers(1, 99))}",
             "#!" + draw(SPACE) + draw(SPACE).join(w for w in words if w)]
    for _ in range(draw(st.integers(1, 3))):
        cards: dict[int, list[str]] = {}
        used: set[int] = set()
        pool = players if named else DGN_NAMES
        for name in draw(st.lists(st.sampled_from(pool), max_size=4, unique=True)) if pool else []:
            after = draw(st.integers(1, len(tiles)))
            if 1 in rules and after in used:
                continue
            used.add(after)
            cards.setdefault(after, []).append("!" + name)
        tokens = []
        for index, placement in enumerate(tiles, 1):
            tokens += [f"{placement['tile']}@{placement['dir']}", *cards.get(index, [])]
        text = draw(st.sampled_from(["", " ", "\t"])) + draw(SPACE).join(tokens)
        if draw(st.integers(0, 4)) == 0:
            text += draw(SPACE) + "# " + draw(st.sampled_from(["café", "ok", "#!", "|"]))
        lines.append(text + draw(st.sampled_from(["", "", "\r"])))
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["", "   ", "# note", "\t# x"])))
    return lines


MISTAKES = [
    "START@n", "Q9@N", "START@N | I1@N", "!Ann START@N", "START@N !", "@N", "START@@N",
    "START@N START@N", "START@N R1@N !Ann !Ann", "START@N R1@N # \udcff", "START@N \udcff",
    "\x1c", "START@N\x00", "#! rules=5", "#! rules=2,2", "#! rules=x", "#! rules=02",
    "#! rules=\u0663", "#! bogus", "#! players=Ann,Ann", "#! players=", "#!", "#! tileset=nope",
    "#! advanced=\u00c9", "#! players=A\u2003B", "#! players=\udcff", "#!rules=1",
    "#! players=Ann\x00", "  #! advanced", "START@N R1@N !\x00A", '!"q', "RE1@N", "BL1@N",
    "START@N R3@N L3@E", "#! rules=4", "  #! basic", "\t#!", "\ufeff#! advanced",
    "\ufeffSTART@N", "START@N R1@N !" + "x" * 101, "#! dungeon/2", "#! Dungeon/1",
    "#! dungeon/01", "#! game/1", "#! dungeon/1 memoarrr/1",
]


@st.composite
def files(draw: st.DrawFn, mistakes: bool) -> bytes:
    lines: list[str] = []
    for game in draw(st.lists(games(), min_size=1, max_size=4)):
        lines += game
        if mistakes:
            for _ in range(draw(st.integers(0, 3))):
                at = draw(st.integers(0, len(lines)))
                lines.insert(at, draw(st.sampled_from(MISTAKES)))
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    return text.encode("utf-8", "surrogateescape")


CUTS = st.lists(st.integers(0, 200), max_size=3)


@settings(max_examples=200)
@given(files(mistakes=False), OVERRIDES.filter(lambda o: o.rules is None), CUTS)
def test_dgn_as_people_write_it_stays_in_c(block: bytes, overrides: Overrides,
                                          cuts: list[int]) -> None:
    settings_ = Settings(overrides=overrides, output="jsonl")
    fast, in_c = fast_path(block, settings_, cuts)
    slow = python_path(block, settings_)
    assert fast == slow
    results = [json.loads(x) for x in slow.splitlines()]
    assert in_c == sum(r["kind"] == "dungeon" for r in results)
    if overrides.advanced is None:  # each game's own settings apply: every record is valid
        assert all(r["kind"] == "dungeon" for r in results)


@settings(max_examples=200)
@given(files(mistakes=True), OVERRIDES, CUTS)
def test_dgn_with_mistakes_gives_what_python_gives(block: bytes, overrides: Overrides,
                                                   cuts: list[int]) -> None:
    settings_ = Settings(overrides=overrides, output="jsonl")
    assert fast_path(block, settings_, cuts)[0] == python_path(block, settings_)


def test_records_under_a_wrong_settings_line_go_to_python_across_blocks() -> None:
    # Python decides what a wrong #! line means for the records under it (they are not
    # ruled: records.NOT_RULED); C leaves them to it, wherever the file is cut.
    block = b"#! advanced players=Ann\n#! rules=x\nSTART@N RE1@N !Ann\n#! basic\nSTART@N\n"
    settings_ = Settings(output="jsonl")
    expected = python_path(block, settings_)
    for cut in range(5):
        fast, in_c = fast_path(block, settings_, [cut])
        assert fast == expected and in_c == 1  # START@N under the good #! line after it
    assert b"not ruled: the #! line before it could not be read" in expected


def dgn_file(lines: int) -> bytes:
    """A hand-written .dgn file with every kind of line, a few wrong ones among them."""
    text = (Path(__file__).resolve().parent.parent / "fixtures" / "dungeons" / "examples.dgn"
            ).read_text(encoding="utf-8")
    extra = ["#! advanced rules=2,3 players=Zoë,José,Łucja",
             "START@N RE1@N R1@N !Zoë R2@E R3@S I1@S !José !Łucja I2@S   # café",
             "START@N R1@N R2@E | I1@N", "#! players=Ann,Ann", "START@N !Ann", "#! rules=5",
             "START@N L4@E", "#! basic", "START@N R1@N R2@E R3@S I4@W !Bob"]
    body = "\n".join([text.rstrip("\n"), *extra] * (lines // 20 + 1)) + "\n"
    return body.encode()


@pytest.mark.parametrize("name,data", [("hand.dgn", dgn_file(300))])
def test_dgn_c_one_job_c_two_jobs_and_python_agree(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Any, name: str,
                                                   data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    one = verify_three_ways(monkeypatch, path, block_size=512)
    assert one[0] == 3 and "solo" in one[2]


@settings(max_examples=150)
@given(st.data(), files(mistakes=False))
def test_mutated_dgn_bytes_give_what_python_gives(data: st.DataObject, block: bytes) -> None:
    from .test_fast_records import mutated

    broken = data.draw(mutated(block))
    settings_ = Settings(output="jsonl")
    assert fast_path(broken, settings_, [])[0] == python_path(broken, settings_)
