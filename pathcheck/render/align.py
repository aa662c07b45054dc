"""Columns of text as a terminal shows them: a wide character (CJK, most emoji) takes two
columns, a combining mark none (wcwidth, which prompt-toolkit already depends on).

>>> text_width("Ann"), text_width("王小明"), text_width("Zoë")
(3, 6, 3)
>>> ljust("王", 4) + "|"
'王  |'
>>> wrap_words("王小明 plays R1@N then 李 plays R2@E", 14)
['王小明 plays', 'R1@N then 李', 'plays R2@E']
"""

from __future__ import annotations

from wcwidth import wcswidth, wcwidth


def text_width(text: str) -> int:
    """The columns ``text`` takes in a terminal (a character it cannot say counts one)."""
    width = wcswidth(text)
    if width >= 0:
        return int(width)
    return sum(max(int(wcwidth(c)), 1 if c.isprintable() else 0) for c in text)


def ljust(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns."""
    return text + " " * max(0, width - text_width(text))


def rjust(text: str, width: int) -> str:
    """``text`` led by spaces to ``width`` terminal columns."""
    return " " * max(0, width - text_width(text)) + text


def wrap_words(text: str, columns: int, indent: str = "", first: str = "") -> list[str]:
    """``text`` broken between words into lines of at most ``columns`` terminal columns (a
    word longer than that stands alone, unbroken); the first line starts with ``first``,
    later ones with ``indent``."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        lead = indent if lines else first
        candidate = f"{current} {word}" if current else lead + word
        if current and text_width(candidate) > columns:
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    if current or not lines:
        lines.append(current)
    return lines
