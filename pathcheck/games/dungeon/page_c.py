"""The moments of a ``game/1`` page's usual exploration made in one call of the extension.

:func:`pathcheck.games.dungeon.frames.game_page` makes each exploration's events turn by
turn (who starts and the hands, who places what, who announces Lost) and
:meth:`~pathcheck.games.dungeon.frames.Builder.dungeon` makes each turn a moment: its
caption, its notes, each event added to the page (:meth:`pathcheck.render.lean.LeanMoments.add`,
whose usual case is C already). A page has about 90 of them, each a few hundred bytecodes of
f-strings, lists and calls. On a lean page, for an exploration without a violation, every turn
drawn and no name to isolate (nearly every exploration), :func:`lean_exploration` hands the
whole turn loop to ``game_moments`` (``speedups/c/page_moments.c``), which words the same
texts and adds each moment through the same C code; the pictures are made as before
(:meth:`~pathcheck.games.dungeon.frames.Builder.pictures`) and so are the notes that depend
on the trace (asked once a kind of moment). The page is the same, byte for byte
(tests/test_page_moments_c.py compares it with the plain page on random and hostile logs);
without the extension, or for any other exploration, the Python path makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from pathcheck.games.dungeon.log import Exploration
from pathcheck.render.html import _KIND, Moments, Note, NoteKind, PageEvent
from pathcheck.render.lean import _RULE_HTML, LeanMoments, Picture
from pathcheck.tracer.check import LostCard
from pathcheck.tracer.dungeon import Placement, TraceResult
from pathcheck.tracer.geometry import Move
from pathcheck.tracer.tileset import TileSet


class Builder(Protocol):
    """What :func:`lean_exploration` uses of :class:`pathcheck.games.dungeon.frames.Builder`
    (which imports this module)."""

    tileset: TileSet
    moments: Moments | LeanMoments

    def pictures(self, placements: Sequence[Placement], movement: Move,
                 cards: Sequence[LostCard], heights: Sequence[int] | None,
                 placers: Mapping[int, str] | None, *, results: bool = True
                 ) -> tuple[TraceResult, list[int], list[tuple[Picture, TraceResult]]]: ...

    @staticmethod
    def _new_notes(result: TraceResult, height: int, announced: Sequence[LostCard],
                   full: TraceResult) -> list[Note]: ...

_C: Callable[..., None] | None
try:
    from pathcheck._speedups import game_moments as _C
except ImportError:  # no extension built: the Python path
    _C = None

_USE_C = True
"""Whether :func:`lean_exploration` may take an exploration (the tests switch it off to
compare with the Python path)."""

_new = object.__new__


def lean_exploration(builder: Builder, stack: Sequence[Placement], heights: Sequence[int],
                     number: int, start: str, exp: Exploration, cards: Sequence[LostCard],
                     placers: Mapping[int, str], hands: list[str],
                     scores: Mapping[str, int], most: int) -> bool:
    """Add the moments of exploration ``number`` (no violation at any of its turns; ``start``
    its first event's text, ``hands`` the hands' note of each moment; ``most``: the turns a
    page draws, :data:`~pathcheck.games.dungeon.frames.DRAWN_TURNS` or the tile set's size) as
    :meth:`~pathcheck.games.dungeon.frames.Builder.dungeon` would on a lean page, and say so;
    False, having added nothing, where it is not the usual case."""
    moments = builder.moments
    turns = exp.turns
    if (_C is None or not _USE_C or not isinstance(moments, LeanMoments) or not moments._plain
            or len(turns) > most
            or len(hands) != len(turns) + 1
            or len(heights) != len(turns) or (turns and (heights[0], heights[-1]) != (
                2, len(turns) + 1))):  # game_stacks's heights: 2 to len(turns) + 1
        return False
    full, _, drawn = builder.pictures(stack, Move.STRAIGHT, cards, heights, placers,
                                      results=False)
    new_notes = builder._new_notes

    def make_notes(result: TraceResult, height: int, count: int) -> list[Note]:
        return new_notes(result, height, cards[:count], full)

    def add(base: str, caption: str, event: PageEvent, picture: Picture, notes: list[Note],
            scores: Any) -> None:
        moments.add(base, caption, event, picture=picture, notes=notes, scores=scores)

    _C(moments, moments._state, _KIND, _RULE_HTML, add, make_notes, _new, PageEvent, Note,
       NoteKind.INFO, number, start, tuple([(turn.player, tuple(turn.lost)) for turn in turns]),
       tuple([str(placed) for placed in stack]), hands, drawn, len(full.layout),
       full.lost_at is None, scores)
    return True
