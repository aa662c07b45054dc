"""Players' names isolated from the text around them, for the replay pages.

A name in a right-to-left script written beside a score ("עדי 3, Ann 2") would take the
numbers and commas next to it into its own direction, and the scores would show beside the
wrong names. Each name is therefore one isolated run: ``<bdi>`` in the page's HTML, the
Unicode isolate characters FSI ... PDI (U+2068, U+2069) in SVG text and in the page's data
(its script turns them into ``<bdi>`` elements). A name written left to right needs no
isolation on a left-to-right page and is left as it is. Isolate characters a name or a text already
holds are shown as escapes (``\\u2069``), so every isolate on a page is one of ours.

>>> names = Names(["עדי", "Ann", "42"])
>>> names.html("עדי 3, Ann 2 & 42 4 & 142")
'<bdi>עדי</bdi> 3, Ann 2 &amp; <bdi>42</bdi> 4 &amp; 142'
>>> names.text("42 wins") == FSI + "42" + PDI + " wins"
True
>>> isolate("Eve\\u2069") == FSI + "Eve\\\\u2069" + PDI
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from html import escape

FSI, PDI = "\u2068", "\u2069"
_ISOLATES = str.maketrans({c: f"\\u{ord(c):04x}" for c in "\u2066\u2067\u2068\u2069"})


def isolate(name: str) -> str:
    """``name`` as one isolated run of text (for SVG text, where no ``<bdi>`` exists)."""
    return FSI + name.translate(_ISOLATES) + PDI


_TURNING = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI",
                      "PDI"})
"""The bidi classes that can turn text around them: right-to-left letters, Arabic digits and
the explicit controls."""
_ISOLATE_CHAR = re.compile("[\u2066-\u2069]")


def turns(name: str) -> bool:
    """Whether ``name`` can reorder the text beside it on a left-to-right page: it holds a
    right-to-left letter (or an Arabic digit, an explicit bidi control), or no left-to-right
    letter at all (then it takes the direction of its neighbours).

    >>> [turns(n) for n in ("Ann", "Zoë Müller", "李雷", "עדי", "Ann עדי", "42")]
    [False, False, False, True, True, True]
    """
    classes = {unicodedata.bidirectional(c) for c in name}
    return bool(classes & _TURNING) or "L" not in classes


class Names:
    """Finds the players' names in a page's texts and isolates each (see the module doc).

    A name is found where no letter or digit runs on either side of it (``Ann`` is not found
    in ``Annette``); isolating a word that only looks like a name changes nothing on screen.
    Only the names that can turn the text beside them are isolated (:func:`turns`): a name
    written left to right, on a left-to-right page, reorders nothing.
    """

    def __init__(self, names: Iterable[str]) -> None:
        found = sorted({n.translate(_ISOLATES) for n in names if n.strip() and turns(n)},
                       key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<!\w)(?:" + "|".join(map(re.escape, found)) + r")(?!\w)") if found else None
        self._texts: dict[str, str] = {}
        self._html: dict[str, str] = {}
        """What each text gave (a page says many texts at many moments)."""

    def text(self, text: str) -> str:
        """``text`` with each name between FSI and PDI."""
        if self.pattern is None and text.isascii():  # no name to isolate, no isolate
            return text
        done = self._texts.get(text)
        if done is None:
            done = self._texts[text] = self._isolated(text)
        return done

    def _isolated(self, text: str) -> str:
        if _ISOLATE_CHAR.search(text):
            text = text.translate(_ISOLATES)
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: FSI + m.group() + PDI, text)

    def html(self, text: str) -> str:
        """``text`` escaped for HTML, each name in a ``<bdi>``."""
        if self.pattern is None and text.isascii():
            return escape(text)
        done = self._html.get(text)
        if done is None:
            done = self._html[text] = escape(self.text(text)).replace(FSI, "<bdi>").replace(
                PDI, "</bdi>")
        return done
