"""The tournament table: one row per player over many analysed logs (``analyse
--by-player``), as text, JSON, JSON Lines or CSV.

>>> from pathcheck.analysis.core import AnalysedMove, Mark, make_analysis
>>> move = AnalysedMove(1, 1, "Ann", "", "", "", Mark.SLIP, "")
>>> tally = Tally()
>>> tally.add(make_analysis("memo-dice", "memo-dice/1", "a", ["Ann", "Bob"], [move],
...                         {"Ann": 3, "Bob": 20}, ["Bob"]))
>>> [(r.player, r.games, r.wins, r.points, r.slips, r.slips_per_game) for r in tally.rows()]
[('Ann', 1, 0, 3, 1, 1.0), ('Bob', 1, 1, 20, 0, 0.0)]

Rows are sorted by the memory score (:func:`pathcheck.analysis.core.memory_score`), and carry
each player's memory span (:mod:`pathcheck.analysis.span`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import msgspec

from pathcheck.analysis.core import GameAnalysis, Mark, accuracy, memory_score
from pathcheck.analysis.span import BINS, LABELS, bin_of, estimate


class AgeBin(msgspec.Struct, frozen=True):
    """The moves of one age bin that memory decided: how many, and how many right."""

    ages: str
    right: int
    moves: int


class PlayerRow(msgspec.Struct, frozen=True):
    """One player over every log: games, wins, points, moves by mark, accuracy (as one log's,
    over all their moves), slips per game; the memory score (points lost against points at
    stake) and the memory span with its 95% interval, from the moves binned by age."""

    player: str
    games: int
    wins: int
    points: int
    moves: int
    slips: int
    guesses: int
    sound: int
    accuracy: float | None
    slips_per_game: float
    harmless: int = 0
    lost: float = 0.0
    at_stake: float = 0.0
    memory_score: float | None = None
    span: float | None = None
    """The age (moves) at which they are right half as often as at the youngest age; None:
    it never halves among the ages seen (or no move had an age)."""
    span_low: float | None = None
    span_high: float | None = None
    """The span's 95% interval (None: beyond the ages seen)."""
    ages: tuple[AgeBin, ...] = ()


COLUMNS = ("player", "games", "wins", "points", "moves", "slips", "guesses", "sound",
           "accuracy", "slips_per_game", "harmless", "lost", "at_stake", "memory_score",
           "span", "span_low", "span_high")


class Tally:
    """Summaries added log by log, and each player's moves counted by age bin (nothing else
    of a log is kept)."""

    def __init__(self) -> None:
        self._counts: dict[str, list[int]] = {}
        self._costs: dict[str, list[float]] = {}
        self._ages: dict[str, list[list[int]]] = {}

    def add(self, analysis: GameAnalysis) -> None:
        for s in analysis.summaries:
            c = self._counts.setdefault(s.player, [0] * 8)
            for i, n in enumerate((1, int(s.won), s.points, s.moves, s.slips, s.guesses,
                                   s.sound, s.harmless)):
                c[i] += n
            costs = self._costs.setdefault(s.player, [0.0, 0.0])
            costs[0] += s.lost
            costs[1] += s.at_stake
        ages = self._ages
        for m in analysis.moves:
            if m.age is not None and m.mark is not Mark.GUESS:
                bins = ages.get(m.player)
                if bins is None:
                    bins = ages[m.player] = [[0, 0] for _ in BINS]
                b = bins[bin_of(m.age)]
                b[0] += m.mark is Mark.SOUND
                b[1] += 1

    def rows(self) -> list[PlayerRow]:
        """Best first: by memory score (players with none last), then accuracy, then wins,
        then name."""
        rows = []
        for p, (g, w, pts, m, sl, gu, so, ha) in self._counts.items():
            lost, stake = self._costs[p]
            bins = self._ages.get(p)
            span, low, high = estimate(bins) if bins else (None, None, None)
            rows.append(PlayerRow(
                p, g, w, pts, m, sl, gu, so, accuracy(so, sl), round(sl / g, 2), ha,
                round(lost, 2), round(stake, 2), memory_score(lost, stake), span, low, high,
                tuple(AgeBin(label, r, n) for label, (r, n) in zip(LABELS, bins, strict=True))
                if bins else ()))
        return sorted(rows, key=lambda r: (r.memory_score is None, -(r.memory_score or 0),
                                           r.accuracy is None, -(r.accuracy or 0), -r.wins,
                                           r.player))


def _cells(row: PlayerRow) -> list[str]:
    """A row of the CSV table: the name as a spreadsheet shows it safely (escaped, never a
    formula: :func:`pathcheck.safe.spreadsheet_cell`), the numbers as they are."""
    from pathcheck.safe import spreadsheet_cell

    acc = "" if row.accuracy is None else f"{row.accuracy:.1f}"
    counts = (row.games, row.wins, row.points, row.moves, row.slips, row.guesses, row.sound)
    return [spreadsheet_cell(row.player), *map(str, counts), acc, f"{row.slips_per_game:.2f}",
            str(row.harmless), f"{row.lost:g}", f"{row.at_stake:g}",
            *("" if v is None else f"{v:.1f}"
              for v in (row.memory_score, row.span, row.span_low, row.span_high))]


def span_text(row: PlayerRow) -> str:
    """The span and its interval as the text table shows it: ``4.5 (3.1-6.0)``, ``-`` when
    it never halves; an open end is ``>``.

    >>> span_text(PlayerRow("A", 1, 0, 0, 1, 0, 0, 1, 100.0, 0.0, span=4.5, span_low=3.1))
    '4.5 (3.1->)'
    """
    if row.span is None:
        return "-"
    low = "?" if row.span_low is None else f"{row.span_low:.1f}"
    high = ">" if row.span_high is None else f"{row.span_high:.1f}"
    return f"{row.span:.1f} ({low}-{high})"


def render_table(rows: Sequence[PlayerRow], output: str) -> str:
    """The table in ``text``, ``json`` (one array), ``jsonl`` (a row a line) or ``csv``."""
    if output == "json":
        return msgspec.json.format(msgspec.json.encode(list(rows)), indent=2).decode()
    if output == "jsonl":
        return "\n".join(msgspec.json.encode(r).decode() for r in rows)
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(_cells(r) for r in rows)
        return buffer.getvalue().rstrip("\n")
    from pathcheck.analysis.report import render_rows
    from pathcheck.safe import one_line

    header = ["player", "games", "wins", "points", "moves", "slips", "guesses", "accuracy",
              "slips/game", "score", "lost/stake", "span"]
    body = [[one_line(r.player), r.games, r.wins, r.points, r.moves, r.slips, r.guesses,
             "-" if r.accuracy is None else f"{r.accuracy:.1f}%", f"{r.slips_per_game:.2f}",
             "-" if r.memory_score is None else f"{r.memory_score:.1f}",
             f"{r.lost:g}/{r.at_stake:g}", span_text(r)]
            for r in rows]
    return render_rows(header, [[str(c) for c in row] for row in body])
