"""The tournament table: one row per player over many analysed logs (``analyse
--by-player``), as text, JSON, JSON Lines or CSV.

>>> from pathcheck.analysis.core import AnalysedMove, Mark, make_analysis
>>> move = AnalysedMove(1, 1, "Ann", "", "", "", Mark.SLIP, "")
>>> tally = Tally()
>>> tally.add(make_analysis("memo-dice", "memo-dice/1", "a", ["Ann", "Bob"], [move],
...                         {"Ann": 3, "Bob": 20}, ["Bob"]))
>>> [(r.player, r.games, r.wins, r.points, r.slips, r.slips_per_game) for r in tally.rows()]
[('Ann', 1, 0, 3, 1, 1.0), ('Bob', 1, 1, 20, 0, 0.0)]
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import msgspec

from pathcheck.analysis.core import GameAnalysis, accuracy


class PlayerRow(msgspec.Struct, frozen=True):
    """One player over every log: games, wins, points, moves by mark, accuracy (as one log's,
    over all their moves) and slips per game."""

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


COLUMNS = ("player", "games", "wins", "points", "moves", "slips", "guesses", "sound",
           "accuracy", "slips_per_game")


class Tally:
    """Summaries added log by log (nothing else of a log is kept)."""

    def __init__(self) -> None:
        self._counts: dict[str, list[int]] = {}

    def add(self, analysis: GameAnalysis) -> None:
        for s in analysis.summaries:
            c = self._counts.setdefault(s.player, [0] * 7)
            for i, n in enumerate((1, int(s.won), s.points, s.moves, s.slips, s.guesses,
                                   s.sound)):
                c[i] += n

    def rows(self) -> list[PlayerRow]:
        """Best first: by accuracy (players with none last), then wins, then name."""
        rows = [PlayerRow(p, g, w, pts, m, sl, gu, so, accuracy(so, sl), round(sl / g, 2))
                for p, (g, w, pts, m, sl, gu, so) in self._counts.items()]
        return sorted(rows, key=lambda r: (r.accuracy is None, -(r.accuracy or 0), -r.wins,
                                           r.player))


def _cells(row: PlayerRow) -> list[str]:
    """A row of the CSV table: the name as a spreadsheet shows it safely (escaped, never a
    formula: :func:`pathcheck.safe.spreadsheet_cell`), the numbers as they are."""
    from pathcheck.safe import spreadsheet_cell

    acc = "" if row.accuracy is None else f"{row.accuracy:.1f}"
    counts = (row.games, row.wins, row.points, row.moves, row.slips, row.guesses, row.sound)
    return [spreadsheet_cell(row.player), *map(str, counts), acc, f"{row.slips_per_game:.2f}"]


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
              "slips/game"]
    body = [[one_line(r.player), r.games, r.wins, r.points, r.moves, r.slips, r.guesses,
             "-" if r.accuracy is None else f"{r.accuracy:.1f}%", f"{r.slips_per_game:.2f}"]
            for r in rows]
    return render_rows(header, [[str(c) for c in row] for row in body])
