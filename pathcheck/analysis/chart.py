"""The tournament table drawn: memory accuracy per player as horizontal bars (``analyse
--by-player --chart FILE.svg``), in the style of the solo statistics chart
(:mod:`pathcheck.render.chart`).

>>> from pathcheck.analysis.table import PlayerRow
>>> svg = accuracy_chart_svg([PlayerRow("Ann", 2, 1, 5, 40, 4, 3, 33, 89.2, 2.0)])
>>> svg.startswith("<svg") and "Ann" in svg and "89.2%" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pathcheck.analysis.table import PlayerRow
from pathcheck.render.chart import BAR, GRADE_COLOURS, _text
from pathcheck.safe import xml_text

ROW, LABEL_W, PLOT_W, TOP = 28, 180, 560, 70


def _colour(value: float) -> str:
    """Green from 90%, amber from 70%, red below (the chart's easy/medium/hard colours)."""
    grade = "easy" if value >= 90 else "medium" if value >= 70 else "hard"
    return GRADE_COLOURS[grade]


def accuracy_chart_svg(rows: Sequence[PlayerRow], *, title: str = "Memory accuracy") -> str:
    """One bar a player (in the order given), labelled with accuracy, games and slips per
    game; a player with no move memory could decide shows no bar."""
    height = TOP + ROW * max(len(rows), 1) + 60
    width = LABEL_W + PLOT_W + 160
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
           f"viewBox='0 0 {width} {height}'>",
           f"<rect width='{width}' height='{height}' fill='white'/>",
           _text(width / 2, 32, title, 18, weight="bold"),
           _text(width / 2, 52, "sound moves among the moves memory could decide", 12)]
    for k in range(0, 101, 20):
        x = LABEL_W + PLOT_W * k / 100
        out.append(f"<line x1='{x:.1f}' y1='{TOP - 6}' x2='{x:.1f}' "
                   f"y2='{TOP + ROW * len(rows)}' stroke='#ddd'/>")
        out.append(_text(x, TOP + ROW * len(rows) + 18, f"{k}%", 10))
    for i, row in enumerate(rows):
        y = TOP + i * ROW
        out.append(_text(LABEL_W - 8, y + ROW * 0.62, row.player, 12, "end"))
        note = f"{row.games} game{'s' if row.games != 1 else ''}, " \
               f"{row.slips_per_game:.2f} slips/game"
        if row.accuracy is None:
            out.append(_text(LABEL_W + 6, y + ROW * 0.62, f"no decidable move ({note})", 11,
                             "start", colour="#777"))
            continue
        w = PLOT_W * row.accuracy / 100
        out.append(f"<rect x='{LABEL_W}' y='{y + ROW * 0.15:.1f}' width='{w:.1f}' "
                   f"height='{ROW * 0.7:.1f}' fill='{_colour(row.accuracy)}'>"
                   f"<title>{xml_text(row.player)}: {row.accuracy:.1f}%</title></rect>")
        out.append(_text(LABEL_W + w + 6, y + ROW * 0.62, f"{row.accuracy:.1f}% ({note})", 11,
                         "start"))
    out.append(f"<line x1='{LABEL_W}' y1='{TOP - 6}' x2='{LABEL_W}' "
               f"y2='{TOP + ROW * len(rows)}' stroke='{BAR}'/>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
