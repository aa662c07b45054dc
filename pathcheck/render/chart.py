"""Solo statistics drawn: a hand-written SVG chart (``pathcheck solo stats --chart``) and the
plain-text table the command prints.

Four panels: dungeons per deal, dungeon lengths, how dungeons end (and how often each rule
bites), and the difficulty distribution split into easy, medium and hard.

>>> from pathcheck.solo.stats import summarise
>>> svg = stats_chart_svg(summarise(0, 20, frozenset()))
>>> svg.startswith("<svg") and "Difficulty" in svg
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pathcheck.render.words import counted
from pathcheck.safe import xml_text
from pathcheck.solo.stats import (
    GRADES,
    RULE_OF_REASON,
    W_MEMORY,
    W_PATH_LOST,
    W_REVISIT,
    W_RULE_LOST,
    Summary,
    grade_of,
)

WIDTH, HEIGHT = 1000, 760
PANEL_W, PANEL_H = 440, 270
ORIGINS = ((60, 90), (560, 90), (60, 450), (560, 450))
"""Top-left corner of each panel's plot area."""
FONT = "font-family='Helvetica, Arial, sans-serif'"
BAR = "#4a7ab5"
GRADE_COLOURS = {"easy": "#5aa469", "medium": "#e0b43a", "hard": "#c8553d"}
REASON_COLOURS = {"dead-end": "#4a7ab5", "loop": "#7d5ba6", "reverse": "#b05aa0",
                  "out-of-bounds": "#c8553d", "ghost-five": "#5aa469", "ghost-twice": "#2f8f83",
                  "held": "#999999"}


@dataclass(frozen=True)
class Bar:
    """One bar: its axis label, value (a share, 0-1) and colour."""

    label: str
    value: float
    colour: str = BAR
    stack: tuple[tuple[float, str], ...] = ()
    """Segments (share, colour) from the bottom, when the bar is split."""


def _text(x: float, y: float, text: str, size: int = 12, anchor: str = "middle",
          weight: str = "normal", colour: str = "#222") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' text-anchor='{anchor}' "
            f"font-weight='{weight}' fill='{colour}' {FONT}>{xml_text(text)}</text>")


def _axis(value: float) -> tuple[float, int]:
    """A round upper bound for a share axis and its number of steps: (0.5, 5), (0.2, 4) ..."""
    if value <= 0:
        return 0.1, 5
    raw = value / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(f * power for f in (1, 2, 2.5, 5, 10) if raw <= f * power)
    steps = math.ceil(value / step - 1e-9)
    return step * steps, steps


def _panel(origin: tuple[int, int], title: str, xlabel: str, bars: Sequence[Bar],
           label_every: int = 1) -> list[str]:
    """A vertical bar chart of shares with a percent axis."""
    x0, y0 = origin
    top, steps = _axis(max((b.value for b in bars), default=0.0))
    out = [_text(x0 + PANEL_W / 2, y0 - 14, title, 15, weight="bold")]
    for k in range(steps + 1):
        share = top * k / steps
        y = y0 + PANEL_H - PANEL_H * k / steps
        out.append(f"<line x1='{x0}' y1='{y:.1f}' x2='{x0 + PANEL_W}' y2='{y:.1f}' "
                   f"stroke='#ddd'/>")
        digits = 0 if round(top / steps * 1000) % 10 == 0 else 1
        out.append(_text(x0 - 6, y + 4, f"{share:.{digits}%}", 10, "end"))
    slot = PANEL_W / max(len(bars), 1)
    for i, bar in enumerate(bars):
        x = x0 + i * slot
        base = 0.0
        for share, colour in bar.stack or ((bar.value, bar.colour),):
            h = PANEL_H * share / top
            out.append(f"<rect x='{x + slot * 0.1:.1f}' y='{y0 + PANEL_H - base - h:.1f}' "
                       f"width='{slot * 0.8:.1f}' height='{h:.1f}' fill='{colour}'>"
                       f"<title>{xml_text(bar.label)}: {share:.2%}</title></rect>")
            base += h
        if i % label_every == 0:
            out.append(_text(x + slot / 2, y0 + PANEL_H + 14, bar.label, 10))
    out.append(f"<line x1='{x0}' y1='{y0 + PANEL_H}' x2='{x0 + PANEL_W}' y2='{y0 + PANEL_H}' "
               f"stroke='#444'/>")
    out.append(_text(x0 + PANEL_W / 2, y0 + PANEL_H + 32, xlabel, 11))
    return out


def _hbars(origin: tuple[int, int], title: str, bars: Sequence[Bar], note: str) -> list[str]:
    """Horizontal bars of shares with their labels and values."""
    x0, y0 = origin
    label_w = 150
    out = [_text(x0 + PANEL_W / 2, y0 - 14, title, 15, weight="bold")]
    row = min(30.0, PANEL_H / max(len(bars), 1))
    for i, bar in enumerate(bars):
        y = y0 + i * row
        w = (PANEL_W - label_w - 60) * bar.value
        out.append(_text(x0 + label_w - 8, y + row * 0.6, bar.label, 12, "end"))
        out.append(f"<rect x='{x0 + label_w}' y='{y + row * 0.15:.1f}' width='{w:.1f}' "
                   f"height='{row * 0.7:.1f}' fill='{bar.colour}'/>")
        out.append(_text(x0 + label_w + w + 6, y + row * 0.6, f"{bar.value:.1%}", 11, "start"))
    out.append(_text(x0 + PANEL_W / 2, y0 + PANEL_H + 32, note, 11))
    return out


def stats_chart_svg(summary: Summary, *, start: int = 0) -> str:
    """The chart of ``summary`` as a standalone SVG document."""
    deals = max(summary.deals, 1)
    rules = " ".join(f"#{r}" for r in sorted(summary.rules)) or "none"
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
             f"viewBox='0 0 {WIDTH} {HEIGHT}'>",
             f"<rect width='{WIDTH}' height='{HEIGHT}' fill='white'/>",
             _text(WIDTH / 2, 32, f"dungeon in memory, solo: perfect play of {summary.deals:,} "
                                  f"deals (seeds {start:,}-{start + summary.deals - 1:,}), "
                                  f"additional rules {rules}", 16, weight="bold")]

    counts = range(1, max(summary.dungeon_counts, default=1) + 1)
    mean_dungeons = summary.mean(summary.dungeon_counts)
    parts += _panel(ORIGINS[0], f"Dungeons per deal (mean {mean_dungeons:.2f})",
                    "dungeons in the answer key (share of deals)",
                    [Bar(str(c), summary.dungeon_counts[c] / deals) for c in counts])

    dungeons = max(sum(summary.lengths.values()), 1)
    longest = max(summary.lengths, default=1)
    parts += _panel(ORIGINS[1], f"Dungeon length (mean {summary.mean(summary.lengths):.1f} "
                                "tiles)", "tiles in the dungeon (share of dungeons)",
                    [Bar(str(n), summary.lengths[n] / dungeons) for n in range(1, longest + 1)],
                    label_every=2 if longest > 20 else 1)

    reason_bars = [Bar(r, n / dungeons, REASON_COLOURS.get(r, BAR))
                   for r, n in summary.reasons.most_common()]
    rule_for = {rule: reason for reason, rule in RULE_OF_REASON.items()}
    reason_bars += [Bar(f"rule #{r} bites", summary.rule_bites[r] / deals,
                        REASON_COLOURS[rule_for[r]]) for r in sorted(summary.rules)]
    parts += _hbars(ORIGINS[2], "How dungeons end", reason_bars,
                    "share of dungeons; 'bites': share of deals where the rule ends a dungeon"
                    if summary.rules else "share of dungeons ('held': the last one never Lost)")

    parts += _difficulty(summary, deals)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _difficulty(summary: Summary, deals: int) -> list[str]:
    if summary.difficulty:
        low = math.floor(min(summary.difficulty))
        high = math.floor(max(summary.difficulty))
    else:
        low = high = 0
    bins = [dict.fromkeys(GRADES, 0) for _ in range(high - low + 1)]
    for value, n in summary.difficulty.items():
        bins[math.floor(value) - low][grade_of(value, summary.rules)] += n
    bars = [Bar(str(low + i), sum(b.values()) / deals, BAR,
                tuple((b[g] / deals, GRADE_COLOURS[g]) for g in GRADES if b[g]))
            for i, b in enumerate(bins)]
    x0, y0 = ORIGINS[3]
    out = _panel(ORIGINS[3], "Difficulty (score per deal)",
                 f"score = memory x{W_MEMORY:g} + revisits x{W_REVISIT:g} + path Lost "
                 f"x{W_PATH_LOST:g} + rule Lost x{W_RULE_LOST:g}",
                 bars, label_every=max(1, len(bars) // 12))
    for i, grade in enumerate(GRADES):
        share = summary.grades[grade] / deals
        x = x0 + PANEL_W - 120
        y = y0 + 8 + i * 18
        out.append(f"<rect x='{x}' y='{y}' width='12' height='12' "
                   f"fill='{GRADE_COLOURS[grade]}'/>")
        out.append(_text(x + 18, y + 11, f"{grade} {share:.0%}", 12, "start"))
    return out


# --- the table ---------------------------------------------------------------------------


def _bar(share: float, width: int = 30) -> str:
    return "#" * round(share * width)


def format_table(summary: Summary, *, start: int = 0, jobs: int = 1,
                 seconds: float | None = None, span: str | None = None,
                 worker: str = "process") -> str:
    r"""The statistics as a plain-text table (what ``pathcheck solo stats`` prints); ``span``
    names the seeds when they are not ``start`` and the next ones (a census's chunks);
    ``jobs`` ``worker``\s did the work (``solo census`` on Dask: "Dask worker")."""
    d = summary.to_dict()
    deals = max(summary.deals, 1)
    rules = " ".join(f"#{r}" for r in d["rules"]) or "none"
    took = "" if seconds is None else f", {seconds:.1f} s on {counted(jobs, worker)}"
    span = span or f"{start:,}-{start + summary.deals - 1:,}"
    lines = [f"Solo statistics: {summary.deals:,} deals (seeds {span}), rules {rules}{took}",
             "",
             f"Dungeons per deal (mean {d['dungeons_mean']:.2f})"]
    for count, n in sorted(summary.dungeon_counts.items()):
        lines.append(f"  {count:>3}  {n / deals:6.1%}  {_bar(n / deals)}")
    dungeons = max(sum(summary.lengths.values()), 1)
    lines += ["", f"Dungeon length in tiles (mean {d['length_mean']:.1f}; share of dungeons)"]
    for low in range(1, max(summary.lengths, default=0) + 1, 4):
        n = sum(summary.lengths[k] for k in range(low, low + 4))
        lines.append(f"  {low:>2}-{low + 3:<2}  {n / dungeons:6.1%}  {_bar(n / dungeons)}")
    lines += ["", "How dungeons end (share of dungeons)"]
    for reason, n in summary.reasons.most_common():
        lines.append(f"  {reason:<13} {n / dungeons:6.1%}  {_bar(n / dungeons)}")
    if summary.rules:
        lines += ["", "How often each rule bites (deals where it makes a dungeon Lost)"]
        for rule in sorted(summary.rules):
            share = summary.rule_bites[rule] / deals
            lines.append(f"  #{rule} {_RULE_NAMES[rule]:<13} {share:6.1%}  {_bar(share)}")
    diff = d["difficulty"]
    easy, hard = diff["thresholds"]
    means = diff["factor_means"]
    lines += ["", f"Difficulty (mean {diff['mean']:.1f}, p33 {diff['p33']:.1f}, median "
                  f"{diff['p50']:.1f}, p67 {diff['p67']:.1f})",
              f"  score = memory x{W_MEMORY:g} + revisits x{W_REVISIT:g} + path Lost "
              f"x{W_PATH_LOST:g} + rule Lost x{W_RULE_LOST:g}; mean factors:"]
    for name, weight, label in (("memory", W_MEMORY, "memory load (sum of length^2 / tiles)"),
                                ("revisits", W_REVISIT, "placements passing laid tiles"),
                                ("path_lost", W_PATH_LOST, "Lost by loop/reverse/dead-end"),
                                ("rule_lost", W_RULE_LOST, "Lost by a rule (#2, #3, #4)")):
        value = means.get(name, 0.0)
        lines.append(f"    {label:<40} {value:6.2f}  -> {value * weight:5.1f} points")
    for grade in GRADES:
        n = diff["grades"][grade]
        bound = {"easy": f"<= {easy:g}", "medium": f"{easy:g}-{hard:g}",
                 "hard": f"> {hard:g}"}[grade]
        lines.append(f"  {grade:<7} {bound:<10} {n / deals:6.1%}  {_bar(n / deals)}")
    return "\n".join(lines)


_RULE_NAMES = {2: "out-of-bounds", 3: "ghost-five", 4: "ghost-twice"}


PNG_SIDE = 32767
"""The largest side of an image rsvg-convert (cairo) can draw, in pixels."""
_SIZE = re.compile(r"<svg ([^>]*?)width='([0-9.]+)' height='([0-9.]+)'")


def fit_for_png(svg: str, side: int = PNG_SIDE) -> tuple[str, float]:
    """A chart ``svg`` drawn no larger than ``side`` pixels each way (its viewBox kept, so
    the whole chart shows, smaller) and the scale applied (1.0: as it was). A table of some
    1,200 players is taller than a PNG can be; the SVG itself has no such limit.

    >>> fit_for_png("<svg x='1' width='100' height='65534' viewBox='0 0 100 65534'>")
    ("<svg x='1' width='50' height='32767' viewBox='0 0 100 65534'>", 0.5)
    """
    found = _SIZE.search(svg)
    if found is None:
        return svg, 1.0
    width, height = float(found.group(2)), float(found.group(3))
    scale = min(1.0, side / max(width, height, 1.0))
    if scale == 1.0:
        return svg, 1.0
    sized = (f"<svg {found.group(1)}width='{max(1, int(width * scale))}' "
             f"height='{max(1, int(height * scale))}'")  # rounded down: within ``side``
    return svg[:found.start()] + sized + svg[found.end():], scale
