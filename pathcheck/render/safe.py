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
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, the line and paragraph separators and the bidi controls (ALM,
# LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI).
_UNSAFE = "\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
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
    return _ANY.sub(_escape, text) if _ANY.search(text) else text


def keep_lines(text: str) -> str:
    """``text`` with every control and bidi character but the newline escaped (for maps and
    grids, whose lines are meant)."""
    return _BUT_NEWLINE.sub(_escape, text) if _BUT_NEWLINE.search(text) else text
