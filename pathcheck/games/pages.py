"""Replay pages of rulings (``pathcheck adjudicate --html``), for every installed game.

A game package may provide ``frames.page(log, ruling) -> Page`` (dungeon in memory draws its
dungeons); any other game gets the generic page of :mod:`pathcheck.render.ruling_page`, whose
picture of each moment ``R.T`` is the state the game's ``--at R.T`` shows, and the legend
``frames.legend(log)`` gives (the marks of the rules in play).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from pathcheck.errors import PathcheckError
from pathcheck.games import AdjudicateOptions, Adjudicator, GameAdjudicator
from pathcheck.games.common import EVERY_MOMENT, Pictures
from pathcheck.render.html import Page
from pathcheck.render.ruling_page import Picture, PictureFn, ruling_page
from pathcheck.ruling import Ruling


def at_pictures(adjudicator: Adjudicator, log: Mapping[str, Any], ruling: Ruling) -> PictureFn:
    """The state at ``R.T`` as the adjudicator's ``--at`` draws it (the text it adds to the
    ruling's display)."""
    base = ruling.display

    def picture(number: int, move: int) -> Picture:
        try:
            shown = adjudicator.adjudicate(log, source=ruling.source,
                                           options=AdjudicateOptions(at=f"{number}.{move}"))
        except PathcheckError:
            return Picture()
        text = shown.display.replace(base, "").strip() if base else shown.display.strip()
        return Picture(text=text)

    return picture


Moves = tuple[PictureFn, list[tuple[int, int]], dict[tuple[int, int], str]]
"""The picture of each moment, the moments of the replay, and who did what in each move."""


def moment_pictures(adjudicator: Adjudicator, log: Mapping[str, Any], ruling: Ruling) -> Moves:
    """The state at every moment from one replay, and the moments, for the built-in games
    (SVG where the game draws one, else its ``--at`` text), with what the game says of each
    move; any other plug-in: one ``--at`` replay a moment (and only the moments its events
    name)."""
    if not isinstance(adjudicator, GameAdjudicator):
        return at_pictures(adjudicator, log, ruling), [], {}
    pictures = Pictures(EVERY_MOMENT)
    try:
        adjudicator.rule(log, source=ruling.source, pictures=pictures)
    except PathcheckError:
        return (lambda number, move: Picture()), [], {}
    texts = {(m.round, m.turn): text for m, text in pictures.pictures.items()}
    svgs = {(m.round, m.turn): svg for m, svg in pictures.svgs.items()}

    def picture(number: int, move: int) -> Picture:
        if (number, move) in svgs:
            return Picture(svg=svgs[(number, move)])
        return Picture(text=texts.get((number, move), ""))

    return picture, sorted(texts), {(m.round, m.turn): said for m, said in pictures.says.items()}


def page_for(adjudicator: Adjudicator, log: Mapping[str, Any], ruling: Ruling, *,
             lean: bool = False) -> Page:
    """The replay page of ``ruling`` (the ruling of ``log`` by ``adjudicator``). ``lean``: a
    game's ``frames.lean_page`` where it has one, which makes the same page's bytes with less
    work (:mod:`pathcheck.render.lean`; the page's ``frames`` are then not kept)."""
    package = type(adjudicator).__module__.rpartition(".")[0]
    name = f"{package}.frames"
    frames = importlib.import_module(name) if package and importlib.util.find_spec(name) \
        else None
    build = getattr(frames, "lean_page", None) if lean else None
    if not callable(build):
        build = getattr(frames, "page", None)
    if callable(build):
        page: Page = build(log, ruling)
        return page
    picture, moments, says = moment_pictures(adjudicator, log, ruling)
    legend = getattr(frames, "legend", None)
    return ruling_page(ruling, picture, moments=moments, says=says,
                       title=f"{ruling.source}: {adjudicator.title} ({ruling.format})",
                       legend=str(legend(log)) if callable(legend) else "")
