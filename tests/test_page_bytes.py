"""Faster pages are the same pages, byte for byte (issue #33 point 4).

The corpus of :mod:`tests.page_corpus` (every fixture's page, analyses, verify and solo key
pages, random batches of every game) is written through the CLI and each page compared with
its SHA-256 as the code before the speed-up wrote it. Random dungeons and games go further:
every prefix's trace and picture as a page now draws it (one trace a dungeon, each picture
from the one before) against tracing that prefix and drawing it from scratch.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.render.growing import Growing, Prefixes
from pathcheck.render.model import build_view
from pathcheck.render.svg import view_svg
from pathcheck.tracer.dungeon import Placement, trace
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.tileset import load_tileset
from tests.page_corpus import DIGESTS, digests


def test_every_page_of_the_corpus_is_as_before(tmp_path: Path) -> None:
    want = json.loads(DIGESTS.read_text())
    got = digests(tmp_path)
    assert sorted(got) == sorted(want)
    changed = [name for name in want if got[name] != want[name]]
    assert not changed, f"{len(changed)} pages changed, e.g. {changed[:5]}"


TILESET = load_tileset()
IDS = [tile.id for tile in TILESET]


@st.composite
def stacks(draw: st.DrawFn) -> tuple[list[Placement], Move, frozenset[int]]:
    """A stack laid mostly along the path (so dungeons grow long), now and then a wrong
    arrow, with any additional rules and initial movement."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rules = frozenset(draw(st.sets(st.sampled_from([1, 2, 3, 4]))))
    movement = draw(st.sampled_from(list(Move)))
    stack = [Placement("START", Direction.N)]
    for _ in range(draw(st.integers(0, 45))):
        tile = rng.choice(IDS)
        right = _heading_into(stack, tile, rules, movement)
        if right is None or rng.random() < 0.05:
            right = Direction(rng.randrange(4))
        stack.append(Placement(tile, right))
    return stack, movement, rules


def _heading_into(stack: list[Placement], tile: str, rules: frozenset[int],
                  movement: Move) -> Direction | None:
    """The arrow a new tile must have: the one that does not make it Lost as misplaced."""
    for direction in Direction:
        result = trace([*stack, Placement(tile, direction)], tileset=TILESET, rules=rules,
                       initial_movement=movement)
        if result.lost_at != len(stack) + 1 or result.reason is None or \
                result.reason.name != "MISPLACED":
            return direction
    return None


@settings(max_examples=60, deadline=None)
@given(stacks(), st.data())
def test_every_prefix_is_traced_and_drawn_as_from_scratch(
        case: tuple[list[Placement], Move, frozenset[int]], data: st.DataObject) -> None:
    stack, movement, rules = case
    full = trace(stack, tileset=TILESET, rules=rules, initial_movement=movement,
                 with_passes=True)
    prefixes = Prefixes(full, movement)
    extent = build_view(full, TILESET, rules).extent(bound=False)
    placers = {i: "ABC"[i % 3] for i in range(1, len(stack) + 1) if i % 4}
    growing = Growing(full, TILESET, rules, extent, placers, movement)
    heights = sorted(data.draw(st.lists(st.integers(0, len(stack) + 2), max_size=12)))
    if data.draw(st.booleans()):  # now and then back to a lower height: drawn over
        heights.append(data.draw(st.integers(0, len(stack))))
    for height in heights:
        cards = data.draw(st.dictionaries(st.integers(-1, len(stack) + 2),
                                          st.text("ABÉ<&", min_size=1, max_size=3),
                                          max_size=3))
        want = trace(stack[:height], tileset=TILESET, rules=rules, initial_movement=movement,
                     with_passes=True)
        assert prefixes.at(height) == want
        picture, result = growing.picture(height, cards)
        assert result == want
        assert picture == view_svg(build_view(want, TILESET, rules), extent=extent,
                                   placers=placers, cards=cards)
