"""Players' names isolated from the text around them, for the replay pages.

A name in a right-to-left script written beside a score ("עדי 3, Ann 2") would take the
numbers and commas next to it into its own direction, and the scores would show beside the
wrong names. Each name is therefore one isolated run: ``<bdi>`` in the page's HTML, the
Unicode isolate characters FSI ... PDI (U+2068, U+2069) in SVG text and in the page's data
(its script turns them into ``<bdi>`` elements). Isolate characters a name or a text already
holds are shown as escapes (``\\u2069``), so every isolate on a page is one of ours.

>>> names = Names(["עדי", "Ann"])
>>> names.html("עדי 3, Ann 2 & Annette")
'<bdi>עדי</bdi> 3, <bdi>Ann</bdi> 2 &amp; Annette'
>>> names.text("Ann wins") == FSI + "Ann" + PDI + " wins"
True
>>> isolate("Eve\\u2069") == FSI + "Eve\\\\u2069" + PDI
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

FSI, PDI = "\u2068", "\u2069"
_ISOLATES = str.maketrans({c: f"\\u{ord(c):04x}" for c in "\u2066\u2067\u2068\u2069"})


def isolate(name: str) -> str:
    """``name`` as one isolated run of text (for SVG text, where no ``<bdi>`` exists)."""
    return FSI + name.translate(_ISOLATES) + PDI


class Names:
    """Finds the players' names in a page's texts and isolates each (see the module doc).

    A name is found where no letter or digit runs on either side of it (``Ann`` is not found
    in ``Annette``); isolating a word that only looks like a name changes nothing on screen.
    """

    def __init__(self, names: Iterable[str]) -> None:
        found = sorted({n.translate(_ISOLATES) for n in names if n.strip()}, key=len,
                       reverse=True)
        self.pattern = re.compile(
            r"(?<!\w)(?:" + "|".join(map(re.escape, found)) + r")(?!\w)") if found else None

    def text(self, text: str) -> str:
        """``text`` with each name between FSI and PDI."""
        text = text.translate(_ISOLATES)
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: FSI + m.group() + PDI, text)

    def html(self, text: str) -> str:
        """``text`` escaped for HTML, each name in a ``<bdi>``."""
        return escape(self.text(text)).replace(FSI, "<bdi>").replace(PDI, "</bdi>")
