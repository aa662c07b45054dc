"""Card games drawn as SVG: a grid of cards (an island, a robot grid, a row of cups) with
lines of text and score bars under it, for the replay pages of the games other than the
dungeon.

Colours are from the Okabe-Ito palette and every state also has a shape or a word: a face-up
card is white with a solid border, a face-down one grey and hatched with its text in
parentheses, the card of the current move has a thick orange border and a ``▶``, a marked
card a dashed blue border and a ``!``, a hazard (short circuit, golden cup) a vermilion or
orange corner glyph. Each card is one line of markup, so the pictures of successive moments
share most of their lines (see :mod:`pathcheck.render.html`).

>>> svg = board_svg([[Card(("A",), Look.UP), Card(("B",), Look.DOWN)]], notes=["to move: Ann"])
>>> svg.count('class="card'), "to move: Ann" in svg
(2, True)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PAD = 12
LINE = 18


class Look(enum.Enum):
    """How a card lies."""

    UP = "up"
    DOWN = "down"
    EMPTY = "empty"


@dataclass(frozen=True)
class Card:
    """A card of the board: a few short lines of text, how it lies, and its marks."""

    lines: tuple[str, ...]
    look: Look = Look.UP
    current: bool = False
    """The card of the current move (orange border, ``▶``)."""
    marked: bool = False
    """Marked for later (dashed blue border, ``!``)."""
    glyph: str = ""
    """A corner sign (``⚡`` a short circuit, ``★`` the golden cup)."""
    band: str = ""
    """A colour drawn as a band along the card's top (a cup's own colour; its name is in the
    card's text too)."""


@dataclass(frozen=True)
class Bar:
    """A score bar: ``value`` of ``target`` (a score track)."""

    label: str
    value: int
    target: int


_FILL = {Look.UP: "#ffffff", Look.DOWN: "url(#pc-hatch)", Look.EMPTY: "none"}
CHAR = 0.62
"""The width of a character, in font sizes (a generous average for sans-serif text)."""


def wrap(text: str, width: float, size: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines that fit ``width`` at font ``size``: broken at
    spaces, the last line shortened with ``…`` if it still does not fit.

    >>> wrap("4 yellow batteries", 110, 12)
    ['4 yellow', 'batteries']
    >>> wrap("rolled by Maximiliane-Sophia-Antonia", 120, 12)
    ['rolled by', 'Maximiliane-Sop…']
    """
    room = max(int(width / (size * CHAR)), 2)
    out: list[str] = []
    rest = text
    while rest and len(out) < lines - 1 and len(rest) > room:
        cut = rest.rfind(" ", 0, room + 1)
        if cut <= 0:
            break
        out.append(rest[:cut])
        rest = rest[cut + 1:]
    out.append(rest if len(rest) <= room else rest[:room - 1] + "…")
    return out


def _card(x: float, y: float, w: float, h: float, card: Card) -> str:
    stroke, width, dash = "#555", 1.5, ""
    if card.marked:
        stroke, width, dash = "#0072B2", 3, ' stroke-dasharray="6 3"'
    if card.current:
        stroke, width = "#E69F00", 4
    if card.look is Look.EMPTY:
        stroke, dash = "#aaa", ' stroke-dasharray="3 3"'
    cls = f"card {card.look.value}" + (" current" if card.current else "") + (
        " marked" if card.marked else "")
    parts = [f'<g class="{cls}"><rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" '
             f'rx="6" fill="{_FILL[card.look]}" stroke="{stroke}" stroke-width="{width}"{dash}/>']
    if card.band:
        parts.append(f'<rect class="band" x="{x + 3:.0f}" y="{y + 3:.0f}" width="{w - 6:.0f}" '
                     f'height="7" rx="3" fill="{card.band}" stroke="#1a1a1a" '
                     'stroke-width="0.5"/>')
    colour = "#1a1a1a" if card.look is Look.UP else "#444"
    style = ' font-style="italic"' if card.look is Look.DOWN else ""
    signs = ("▶ " if card.current else "") + ("! " if card.marked else "") + card.glyph
    sign_y = y + (22 if card.band else 14)
    # the text goes under the signs' line (it never runs into a ▶ or a ★)
    usable = h - (sign_y - y + 2) if signs.strip() else h
    rows: list[tuple[str, bool, str]] = []  # (text shown, bold, the full text if shortened)
    for i, text in enumerate(card.lines):
        shown = f"({text})" if card.look is Look.DOWN and i == 0 else text
        room = max(int(usable // 14) - len(card.lines) + 1, 1)
        pieces = wrap(shown, w - 10, 12, room if len(card.lines) == 1 else 1)
        rows += [(piece, i == 0 and card.look is Look.UP,
                  shown if piece.endswith("…") else "") for piece in pieces]
    top = y + h - usable + usable / 2 - (len(rows) - 1) * 7 + 4
    for i, (shown, bold, full) in enumerate(rows):
        weight = ' font-weight="bold"' if bold else ""
        hover = f"<title>{escape(full)}</title>" if full else ""
        parts.append(f'<text x="{x + w / 2:.0f}" y="{top + i * 14:.0f}" font-size="12" '
                     f'text-anchor="middle" fill="{colour}"{style}{weight}>{hover}'
                     f"{escape(shown)}</text>")
    if signs.strip():
        parts.append(f'<text x="{x + 5:.0f}" y="{sign_y:.0f}" font-size="12" '
                     f'font-weight="bold" fill="#1a1a1a">{escape(signs.strip())}</text>')
    return "".join(parts) + "</g>"


def board_svg(rows: Sequence[Sequence[Card | None]], *, columns: Sequence[str] = (),
              row_names: Sequence[str] = (), notes: Sequence[str] = (),
              bars: Sequence[Bar] = (), card_w: int = 104, card_h: int = 64,
              title: str = "board") -> str:
    """The board as a standalone SVG document: the cards in rows, column and row names,
    lines of text under them, then the score bars."""
    ncols = max((len(r) for r in rows), default=0)
    left = PAD + (30 if row_names else 0)
    top = PAD + (LINE if columns else 0)
    gap = 6
    width = max(left + ncols * (card_w + gap) + PAD, 360)
    board_h = len(rows) * (card_h + gap)
    notes = [piece for note in notes for piece in wrap(note, width - 2 * PAD, 13, 4)]
    height = top + board_h + PAD + LINE * (len(notes) + len(bars)) + PAD
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" style="--min:{width * 10 / 12:.0f}px;'
           f'--minh:{height * 10 / 12:.0f}px">',
           f"<title>{escape(title)}</title>", f"<desc>{escape('; '.join(notes))}</desc>",
           '<defs><pattern id="pc-hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="8" height="8" fill="#d9d9d9"/>'
           '<line x1="0" y1="0" x2="0" y2="8" stroke="#bdbdbd" stroke-width="3"/></pattern>'
           "</defs>",
           f'<rect width="{width}" height="{height}" fill="#fbfaf7"/>',
           '<g font-family="sans-serif">']
    for c, name in enumerate(columns):
        out.append(f'<text x="{left + c * (card_w + gap) + card_w / 2:.0f}" y="{PAD + 10}" '
                   f'font-size="12" text-anchor="middle" fill="#555">{escape(name)}</text>')
    for r, name in enumerate(row_names):
        out.append(f'<text x="{PAD}" y="{top + r * (card_h + gap) + card_h / 2 + 4:.0f}" '
                   f'font-size="12" fill="#555">{escape(name)}</text>')
    for r, row in enumerate(rows):
        for c, card in enumerate(row):
            if card is not None:
                out.append(_card(left + c * (card_w + gap), top + r * (card_h + gap), card_w,
                                 card_h, card))
    y = top + board_h + PAD
    for note in notes:
        out.append(f'<text x="{PAD}" y="{y + 12}" font-size="13" fill="#1a1a1a">'
                   f"{escape(note)}</text>")
        y += LINE
    span = width - 2 * PAD - 150
    for bar in bars:
        share = 0.0 if bar.target <= 0 else min(bar.value / bar.target, 1.0)
        label = wrap(bar.label, 94, 13, 1)[0]
        hover = f"<title>{escape(bar.label)}</title>" if label != bar.label else ""
        out.append(f'<g class="bar"><text x="{PAD}" y="{y + 12}" font-size="13">'
                   f"{hover}{escape(label)}</text>"
                   f'<rect x="{PAD + 100}" y="{y + 2}" width="{span}" height="12" fill="none" '
                   'stroke="#999"/>'
                   f'<rect x="{PAD + 100}" y="{y + 2}" width="{span * share:.0f}" height="12" '
                   'fill="#009E73"/>'
                   f'<text x="{PAD + 106 + span}" y="{y + 12}" font-size="13">{bar.value} / '
                   f"{bar.target}</text></g>")
        y += LINE
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"
