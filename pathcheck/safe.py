"""Text from records made safe for a terminal: control and bidi characters escaped.

A player's name (a file name, a note ...) is printed in text output; written raw, an escape
sequence would recolour or clear the terminal, a newline would forge a line of the report (a
fake ``Points:`` line) and U+202E would show the rest of a line backwards. Text output shows
them as Python-style escapes instead; JSON output keeps every string exact.

>>> one_line("Ann\\nPoints: Ann 9")
'Ann\\\\nPoints: Ann 9'
>>> one_line("\\x1b[2JEve\\u202e\\x00")
'\\\\x1b[2JEve\\\\u202e\\\\x00'
>>> keep_lines("row 1\\nrow\\t2")
'row 1\\nrow\\\\t2'
>>> one_line("Zoë 🎲") == "Zoë 🎲"
True
>>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell("Ann\\n\\u202eBob"), spreadsheet_cell("-")
("'=HYPERLINK(1)", 'Ann\\\\n\\\\u202eBob', "'-")
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, the line and paragraph separators, the bidi controls (ALM, LRM,
# RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI) and the invisible format characters that
# change how the text around them shows (the deprecated shaping controls U+206A-U+206F, the
# zero-width no-break space U+FEFF, the interlinear annotation marks U+FFF9-U+FFFB); the
# joiners U+200C and U+200D stay, emoji and many scripts need them.
_UNSAFE = ("\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
           "\u206a-\u206f\ufeff\ufff9-\ufffb")
_ANY = re.compile(f"[{_UNSAFE}]")
_BUT_NEWLINE = re.compile(f"[{_UNSAFE.replace(chr(0) + '-' + chr(0x1f), '')}"
                          "\x00-\x09\x0b-\x1f]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x0A:
        return "\\n"
    if code == 0x0D:
        return "\\r"
    if code == 0x09:
        return "\\t"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """``text`` with every control and bidi character escaped, newlines included."""
    if text.isascii() and text.isprintable():  # the usual text: nothing to escape
        return text
    return _ANY.sub(_escape, text) if _ANY.search(text) else text


def keep_lines(text: str) -> str:
    """``text`` with every control and bidi character but the newline escaped (for maps and
    grids, whose lines are meant)."""
    # An ASCII text's only unsafe characters are its controls and DEL, which are exactly
    # what isprintable() refuses in ASCII: checked at C speed (a regex's character set costs
    # some 50 instructions a character, and a ruling's maps are thousands of them).
    if text.isascii() and text.replace("\n", "").isprintable():
        return text
    return _BUT_NEWLINE.sub(_escape, text) if _BUT_NEWLINE.search(text) else text


_FORMULA_START = frozenset("=+-@")
"""What makes a spreadsheet read a cell as a formula (OWASP, CSV injection; a tab or carriage
return, also on its list, never starts a cell: :func:`one_line` escapes them)."""


def spreadsheet_cell(text: str) -> str:
    """``text`` for a text cell of a CSV file opened in a spreadsheet: escaped as
    :func:`one_line` escapes it (a newline cannot break the row, U+202E cannot reorder the
    display), and led by an apostrophe when it would start a formula (spaces before ``=``
    too), so that it shows as the text it is."""
    cell = one_line(text)
    first = cell.lstrip(" ")[:1]
    return "'" + cell if first and first in _FORMULA_START else cell


def xml_text(text: str) -> str:
    """``text`` for the character data or an attribute of an XML (SVG) document: escaped as
    :func:`one_line` escapes it (XML 1.0 may not hold most control characters at all: the
    file would not be well-formed, and no PNG could be drawn from it), then ``&<>"'``.

    >>> xml_text("Ann\x1b]0;x\x07 <b>\u202e")
    'Ann\\\\x1b]0;x\\\\x07 &lt;b&gt;\\\\u202e'
    """
    from html import escape  # here: importing html reads its table of 2,231 entities

    return escape(one_line(text))
