"""The replay page with the analysis on it (``pathcheck analyse LOG --html FILE``): a thin
layer over the page the game's frame builder makes (:func:`pathcheck.games.pages.page_for`).

Each analysed move is found by its moment (frame ``R.T``: round R after move T, as rulings
number moves); the event that comes in at that moment, if any, gets the move's mark (the
worst of its moves: a dungeon turn holds a placement and announcements), the frame a note
per slip or guess with
what a perfect memory would have done; the header gets each player's accuracy and a strip of
every move coloured by mark, each a link to its moment.
"""

from __future__ import annotations

from dataclasses import replace

from pathcheck.analysis.core import AnalysedMove, GameAnalysis, Mark
from pathcheck.analysis.report import accuracy_text, points_text, score_text
from pathcheck.render.html import Note, NoteKind, Page

_RANK = {Mark.SOUND: 0, Mark.HARMLESS: 1, Mark.GUESS: 2, Mark.SLIP: 3}


def mark_label(move: AnalysedMove) -> str:
    """The mark an event carries: ``slip blunder -1``, ``harmless``, ``guess 32%``."""
    if move.mark is Mark.GUESS and move.chance is not None:
        return f"guess {move.chance:.0%}"
    if move.mark is Mark.SLIP:
        return f"slip {move.grade or ''} -{points_text(move.cost)}".replace("  ", " ")
    label: str = move.mark.value
    return label


def marked_page(page: Page, analysis: GameAnalysis) -> Page:
    """``page`` with ``analysis`` on it (see the module doc)."""
    by_key = {frame.key: i for i, frame in enumerate(page.frames)}
    frames = list(page.frames)
    events = list(page.events)
    strip: list[tuple[str, str, str]] = []
    for (round_, index), moves in analysis.marks_by_move().items():
        key = f"{round_}.{index}"
        worst = max(moves, key=lambda m: (_RANK[m.mark], m.cost))
        for move in moves:
            strip.append((key, move.mark.value,
                          f"{key} {move.player}: {move.did}: {mark_label(move)}"))
        at = by_key.get(key)
        if at is None:
            continue
        frame = frames[at]
        notes = [Note(f"{m.player} {m.did}: {mark_label(m)}, {m.why}; knew {m.knew}; "
                      f"perfect memory: {m.best}",
                      NoteKind.SLIP if m.mark in (Mark.SLIP, Mark.HARMLESS) else NoteKind.GUESS,
                      m.rule)
                 for m in moves if m.mark is not Mark.SOUND]
        frames[at] = replace(frame, notes=[*frame.notes, *notes])
        # the frame's current event is this move's only if it comes in at this moment
        fresh = at == 0 or frames[at - 1].event != frame.event
        if fresh and frame.event is not None and 0 <= frame.event < len(events):
            events[frame.event] = replace(events[frame.event], mark=mark_label(worst))
    accuracy = "Memory accuracy: " + "; ".join(
        f"{s.player} {accuracy_text(s.accuracy)} ({s.slips} slips, {s.guesses} guesses, "
        f"{s.moves} moves; memory score {score_text(s.memory_score)}, lost "
        f"{points_text(s.lost)} of {points_text(s.at_stake)})" for s in analysis.summaries)
    return replace(page, frames=frames, events=events, strip=strip,
                   summary=[*page.summary, accuracy])
