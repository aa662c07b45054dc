"""Analyses as text: a log's per-player summary, its slips and guesses, and (dungeon in
memory) each exploration's Lost point and announcements; a position; the tournament table.

Names from the log are escaped as every text report escapes them (:mod:`pathcheck.safe`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pathcheck.analysis.core import AnalysedMove, GameAnalysis, Mark, PlayerSummary
from pathcheck.analysis.positions import PositionAnalysis
from pathcheck.render.words import counted
from pathcheck.ruling import GAME_TITLES, words_of
from pathcheck.safe import one_line

TITLES = GAME_TITLES


def accuracy_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def points_text(value: float) -> str:
    """Points as the reports show them: two decimals at most.

    >>> points_text(0.6842), points_text(15.0), points_text(2)
    ('0.68', '15', '2')
    """
    return f"{round(value, 2):g}"


def score_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def summary_line(s: PlayerSummary) -> str:
    won = ", won" if s.won else ""
    harmless = f", {s.harmless} harmless" if s.harmless else ""
    return (f"{one_line(s.player)}: {_count(s.moves, 'move')}, {_count(s.slips, 'slip')}, "
            f"{_count(s.guesses, 'guess')}, {s.sound} sound{harmless}, accuracy "
            f"{accuracy_text(s.accuracy)}, memory score {score_text(s.memory_score)} (lost "
            f"{points_text(s.lost)} of {points_text(s.at_stake)} at stake; "
            f"{_count(s.points, 'point')}{won})")


def mark_text(move: AnalysedMove) -> str:
    """A move's mark as the text report and the page show it: ``SLIP (blunder, costs 1)``,
    ``harmless (costs nothing)``, ``GUESS 32%``, ``sound``."""
    if move.mark is Mark.SLIP:
        return (f"SLIP ({move.grade or 'slip'}, costs {points_text(move.cost)} of "
                f"{points_text(move.value)})")
    if move.mark is Mark.HARMLESS:
        return "harmless (costs nothing)"
    if move.mark is Mark.GUESS:
        return f"GUESS {move.chance:.0%}" if move.chance is not None else "GUESS"
    return "sound"


COSTLIEST = 5
"""How many of the costliest moves lead the text report."""


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('s') else 's'}"


def render_analysis(analysis: GameAnalysis) -> str:
    """One log's analysis as a table reads it: players first, then every slip and guess
    (sound moves are counted, not listed), then the dungeon's explorations."""
    lines = [f"{one_line(analysis.source)}: {TITLES.get(analysis.game, analysis.game)} "
             f"({analysis.format}), players: {', '.join(map(one_line, analysis.players))}"]
    lines += ["  " + summary_line(s) for s in analysis.summaries]
    costly = sorted((m for m in analysis.moves if m.cost > 0), key=lambda m: -m.cost)
    if costly:
        lines.append("Costliest moves (points a perfect memory would have gained):")
        lines += [f"  {m.where()} {one_line(m.player)}: {one_line(m.did)}: {points_text(m.cost)} "
                  f"({m.grade})" for m in costly[:COSTLIEST]]
    marked = [m for m in analysis.moves if m.mark is not Mark.SOUND]
    if marked:
        round_word, move_word = words_of(analysis.format)  # the rulebook's words
        lines.append(f"Slips and guesses ({round_word}.{move_word} player: what they did; "
                     "what they knew; perfect memory):")
    for move in marked:
        rule = ("" if move.rule is None or move.mark not in (Mark.SLIP, Mark.HARMLESS)
                else f" [{move.rule.id}]")
        lines.append(f"  {move.where()} {one_line(move.player)}: {one_line(move.did)}: "
                     f"{mark_text(move)}, {one_line(move.why)}{rule}")
        lines.append(f"      knew {one_line(move.knew)}; perfect memory: {one_line(move.best)}")
    for exp in analysis.explorations:
        if exp.lost_tile is None:
            head = f"Exploration {exp.number}: the path held to the last tile"
        else:
            head = (f"Exploration {exp.number}: Lost at tile {exp.lost_tile} (turn "
                    f"{exp.lost_turn}, laid by {one_line(exp.placed_by or '?')}): {exp.reason}")
            if exp.rule is not None:
                head += f' [{exp.rule.section}: "{exp.rule.quote}"]'
        lines.append(head)
        for a in exp.announcements:
            did = ("no LOST card" if a.announced_turn is None
                   else f"announced in turn {a.announced_turn}")
            perfect = ("" if a.perfect_turn is None else f"; perfect memory: turn "
                       f"{a.perfect_turn}, {counted(a.perfect_points, 'point')}")
            rule = "" if a.rule is None else f" [{a.rule.id}]"
            lines.append(f"  {one_line(a.player)}: {a.verdict}, {did}, "
                         f"{counted(a.points, 'point')}{perfect}{rule}")
    lines += [f"Note: {one_line(n)}" for n in analysis.notes]
    return "\n".join(lines)


def render_position(position: PositionAnalysis) -> str:
    lines = [f"Position: {position.stack}"]
    if position.heading is None:
        lines.append(f"The path is Lost already, at tile {position.lost_tile} "
                     f"({position.reason}): every tile laid on it leaves it Lost.")
    else:
        lines.append(f"The path holds; the next tile's arrow must point {position.heading}.")
    if position.player is not None:
        lines.append(f"Hand of {position.player}:")
    for tile in position.hand:
        if tile.goes_on:
            lines.append(f"  {tile.placement}: the path goes on")
        else:
            rule = "" if tile.rule is None else f' [{tile.rule.section}: "{tile.rule.quote}"]'
            lines.append(f"  {tile.placement}: Lost at tile {tile.lost_tile} by {tile.reason}"
                         f"{rule}")
    if position.chance_lost is None:
        lines.append("No tile is unseen.")
    else:
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(position.lost_by_reason.items()))
        lines.append(f"Next tile: {position.lost_next} of the {position.unseen} tiles unseen make "
                     f"the path Lost ({position.chance_lost:.1%}"
                     f"{': ' + reasons if reasons else ''}).")
    return "\n".join(map(one_line, lines))  # tile ids come from a tile set anyone may write


def render_rows(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain text table, columns padded (the first left-aligned, the others right)."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    out = []
    for row in [header, *rows]:
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)
