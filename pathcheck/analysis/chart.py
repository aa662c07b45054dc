"""The tournament table drawn: memory accuracy per player as horizontal bars (``analyse
--by-player --chart FILE.svg``), in the style of the solo statistics chart
(:mod:`pathcheck.render.chart`), and under them each player's memory span: the share of
moves right by the age of what decided them, a line a player.

Names are shown as the text reports show them (:func:`pathcheck.safe.one_line`: no
control character reaches the SVG), then XML-escaped.

>>> from pathcheck.analysis.table import AgeBin, PlayerRow
>>> svg = accuracy_chart_svg([PlayerRow("Ann", 2, 1, 5, 40, 4, 3, 33, 89.2, 2.0, span=3.5,
...                                     ages=(AgeBin("1", 9, 10), AgeBin("2", 4, 10)))])
>>> svg.startswith("<svg") and "Ann" in svg and "89.2%" in svg and "span 3.5" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pathcheck.analysis.span import LABELS
from pathcheck.analysis.table import PlayerRow, span_text
from pathcheck.render.chart import BAR, GRADE_COLOURS, _text
from pathcheck.safe import one_line, xml_text

ROW, LABEL_W, PLOT_W, TOP = 28, 180, 560, 70
SPAN_H = 220
"""The height of the span panel's plot."""
LINES = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
         "#999999")
"""The players' line colours (Okabe-Ito), in turn."""


def _colour(value: float) -> str:
    """Green from 90%, amber from 70%, red below (the chart's easy/medium/hard colours)."""
    grade = "easy" if value >= 90 else "medium" if value >= 70 else "hard"
    return GRADE_COLOURS[grade]


def accuracy_chart_svg(rows: Sequence[PlayerRow], *, title: str = "Memory accuracy") -> str:
    """One bar a player (in the order given), labelled with accuracy, games and slips per
    game; a player with no move memory could decide shows no bar."""
    spans = [r for r in rows if r.ages]
    height = TOP + ROW * max(len(rows), 1) + 60 + (SPAN_H + 110 if spans else 0)
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
        name = one_line(row.player)
        out.append(_text(LABEL_W - 8, y + ROW * 0.62, name, 12, "end"))
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
    if spans:
        out += _span_panel(spans, TOP + ROW * len(rows) + 60)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _span_panel(rows: Sequence[PlayerRow], top: float) -> list[str]:
    """The memory span: per player, the share of the moves memory decided that they got
    right, by the age of what decided them (bins of moves since it was seen), a line each;
    the span (the age at which the share halves) and its interval in the legend."""
    out = [_text(LABEL_W + PLOT_W / 2, top, "Memory span: moves right by the age of what "
                 "decided them (moves since it was seen)", 14, weight="bold")]
    y0, bottom = top + 20, top + 20 + SPAN_H
    step = PLOT_W / (len(LABELS) - 1)
    for k in range(0, 101, 25):
        y = bottom - SPAN_H * k / 100
        out.append(f"<line x1='{LABEL_W}' y1='{y:.1f}' x2='{LABEL_W + PLOT_W}' y2='{y:.1f}' "
                   "stroke='#ddd'/>")
        out.append(_text(LABEL_W - 8, y + 4, f"{k}%", 10, "end"))
    for i, label in enumerate(LABELS):
        out.append(_text(LABEL_W + i * step, bottom + 16, label, 10))
    out.append(f"<line x1='{LABEL_W}' y1='{y0}' x2='{LABEL_W}' y2='{bottom}' stroke='{BAR}'/>")
    for n, row in enumerate(rows):
        colour = LINES[n % len(LINES)]
        points = [(LABEL_W + i * step, bottom - SPAN_H * b.right / b.moves)
                  for i, b in enumerate(row.ages) if b.moves]
        name = one_line(row.player)
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            out.append(f"<polyline points='{path}' fill='none' stroke='{colour}' "
                       f"stroke-width='2'><title>{xml_text(row.player)}</title></polyline>")
        out += [f"<circle cx='{x:.1f}' cy='{y:.1f}' r='3' fill='{colour}'/>" for x, y in points]
        out.append(_text(LABEL_W + PLOT_W + 10, y0 + 14 * n + 10,
                         f"{name}: span {span_text(row)}", 10, "start", colour=colour))
    return out
