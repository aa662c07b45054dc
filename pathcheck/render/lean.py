"""A page's moments made into its data and HTML as they come: the lean page builder.

:class:`~pathcheck.render.html.Moments` keeps a :class:`~pathcheck.render.html.Frame` per
moment and the page's data is made from them when the page is rendered
(:func:`~pathcheck.render.html.frames_data`): each picture joined into one text and split into
lines again, each frame walked twice. :class:`LeanMoments` takes the same calls and makes
each moment's item of the page's data, its line of the move list and its slider mark at once,
and takes a picture as its lines (:class:`Lines`, never joined but for the last moment's,
which the page shows without JavaScript). The page it gives renders to the same bytes as
the page of :class:`~pathcheck.render.html.Moments` (tests/test_lean_pages.py compares the
two on random, mutated and illegal logs of every game); ``adjudicate --html DIR/`` uses it.

>>> from pathcheck.render.html import Moments, PageEvent, render_page_bytes
>>> def build(moments):
...     moments.add("1.0", "start", PageEvent("Ann starts"), picture=Lines(("<svg>", "</svg>")))
...     moments.add("1.0", "start", PageEvent("Bob watches"), picture=moments.picture)
...     moments.add("1.1", "one tile", PageEvent("Ann places R1"), scores={"Ann": 1})
...     return moments.page("demo", names=["Ann", "Bob"])
>>> render_page_bytes(build(LeanMoments(["Ann", "Bob"]))) == render_page_bytes(build(Moments()))
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import filterfalse
from typing import Any

from pathcheck.render.bidi import Names
from pathcheck.render.html import (
    _KIND,
    _UNRESERVED,
    ITEM,
    Built,
    Drawing,
    Frame,
    Note,
    Page,
    PageEvent,
    _json_bytes_for_script,
    _rule_html,
    event_html,
    marks_html,
    suffix,
)
from pathcheck.ruling import Rule

_CLASS = {(v, lost): "ev" + (" violation" if v else "") + (" lost" if lost else "")
          for v in (False, True) for lost in (False, True)}
_TAG = {(v, lost): '<span class="tag">violation</span> ' if v
        else '<span class="tag">Lost</span> ' if lost else "" for v in (False, True)
        for lost in (False, True)}
"""An item's class and tag in the move list, by (violation, Lost), as :func:`event_html`
writes them for an event without an analysis mark."""


_lean_add: Callable[..., bool] | None
try:
    from pathcheck._speedups import lean_add as _lean_add
except ImportError:  # no extension built: add in Python, as before
    _lean_add = None

_RULE_HTML: dict[Rule, str] = {}
"""A rule as the move list quotes it, by rule (what the C side of :meth:`LeanMoments.add`
reads; bounded: the rulebooks' rules, emptied past 1,024)."""


def _said_rule(rule: Rule) -> str:
    said = _RULE_HTML.get(rule)
    if said is None:
        if len(_RULE_HTML) >= 1024:
            _RULE_HTML.clear()
        said = _RULE_HTML[rule] = _rule_html(rule)
    return said


class Lines(tuple[str, ...]):
    """A picture as its lines (no line holds a line boundary), not joined into one text: the
    picture ``"\\n".join(lines) + "\\n"``.

    >>> Lines(("<svg>", "</svg>")).text()
    '<svg>\\n</svg>\\n'
    """

    def text(self) -> Drawing:
        """The picture as SVG markup."""
        return Drawing(self)


Picture = str | Lines
"""A moment's picture: SVG markup, or its lines."""


class LeanMoments:
    """:class:`~pathcheck.render.html.Moments` that makes the page's data as it goes (see the
    module doc): the same :meth:`add`, :attr:`picture` and :meth:`page`. ``names``: the
    players' names, isolated in every text (the page's ``names``)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self._isolate = Names(self.names)
        self._plain = self._isolate.pattern is None
        """No name to isolate: an ASCII text is said as it is (:meth:`Names.text`)."""
        self._used: dict[str, int] = {}
        self._scores: dict[str, int] | None = None
        self._rows: list[list[Any]] = []
        self._lines: dict[str, int] = {}
        self._pictures: dict[tuple[int, ...], int] = {}
        self._drawn: dict[int, tuple[Picture, int]] = {}
        self._notes: dict[int, tuple[Note, list[Any]]] = {}
        self._rules: dict[Rule, int] = {}
        self._frames: list[dict[str, Any]] = []
        self._events: list[str] = []
        self._marks: list[tuple[str, bool, bool]] = []
        self._first_violation: str | None = None
        self._costly = False
        self._last: tuple[str, str, Picture, str, Sequence[Note], dict[str, int]] | None = None
        self._state = (self._used, self._drawn, self._frames, self._events, self._marks,
                       self._notes, self._rules)
        """The tables the C side of :meth:`add` fills (the same objects)."""

    @property
    def picture(self) -> Picture:
        """The picture of the last moment so far ("" before the first)."""
        return self._last[2] if self._last is not None else ""

    def _number(self, picture: Picture) -> int:
        """The number of ``picture`` in the page's table of pictures (a new one is added)."""
        known = self._drawn.get(id(picture))
        if known is not None:
            return known[1]
        split: Sequence[str] = picture if isinstance(picture, Lines) else \
            picture.lines if isinstance(picture, Drawing) else picture.splitlines()
        lines = self._lines
        for line in filterfalse(lines.__contains__, split):  # the new lines, in order
            if line not in lines:  # (a line twice in one picture)
                lines[line] = len(lines)
        ids = tuple(map(lines.__getitem__, split))
        number = self._pictures.setdefault(ids, len(self._pictures))
        self._drawn[id(picture)] = (picture, number)  # the picture kept: its id stays its own
        return number

    def numbered(self, picture: Lines, number: int) -> None:
        """Take ``picture`` as number ``number`` of the page's table of pictures, its lines
        already in the table of lines (:func:`pathcheck.render.growing_c.lean_pictures` made
        both)."""
        self._drawn[id(picture)] = (picture, number)

    def add(self, base: str, caption: str, event: PageEvent | None, *, picture: Picture = "",
            text: str = "", notes: Sequence[Note] = (),
            scores: Mapping[str, int] | None = None) -> None:
        """The next moment (as :meth:`pathcheck.render.html.Moments.add`)."""
        if (_lean_add is not None and self._plain and not text
                and _lean_add(self, self._state, base, caption, event, picture, notes, scores,
                              _KIND, _RULE_HTML)):
            return  # the usual case, made in C (speedups/c/lean_add.c): the same moment
        count = self._used.get(base, 0)
        self._used[base] = count + 1
        key = base + suffix(count) if count else base
        isolate = self._isolate
        item: dict[str, Any] = {"k": key, "c": caption if self._plain and caption.isascii()
                                else isolate.text(caption)}
        if picture:
            drawn = self._drawn.get(id(picture))
            item["p"] = drawn[1] if drawn is not None else self._number(picture)
        if text:
            item["t"] = isolate.text(text)
        if event is not None:
            item["e"] = len(self._events)
            violation, lost = event.violation, event.lost
            ident = ITEM + key
            if event.mark or not _UNRESERVED.fullmatch(ident):
                self._events.append(event_html(event, key, isolate))
                self._costly = self._costly or event.mark.startswith("slip")
            else:  # event_html's usual case, written here
                where = event.where
                self._events.append(
                    f'<li id="{ident}" class="{_CLASS[violation, lost]}"><a class="go" '
                    f'href="#{ident}">{_TAG[violation, lost]}'
                    + (f'<span class="where">{isolate.html(where)}:</span> ' if where else "")
                    + isolate.html(event.text) + "</a>"
                    + (_said_rule(event.rule) if event.rule is not None else "") + "</li>")
            self._marks.append((key, violation, lost))
            if violation and self._first_violation is None:
                self._first_violation = key
        else:
            self._marks.append((key, False, False))
        if notes:
            said = []
            known = self._notes
            for note in notes:  # a note stands at many moments: said once
                one = known.get(id(note))
                if one is None:
                    rule = note.rule
                    one = known[id(note)] = (note, [_KIND[note.kind], isolate.text(note.text)]
                                             + ([self._rules.setdefault(rule, len(self._rules))]
                                                if rule is not None else []))
                said.append(one[1])
            item["n"] = said
        kept = self._scores  # the scores of the moment before, when they are the same
        if kept is None or kept != (scores or {}):
            kept = self._scores = dict(scores or {})
            self._rows = [[name, points] for name, points in kept.items()]
        if kept:
            item["s"] = self._rows
        self._frames.append(item)
        self._last = (key, caption, picture, text, notes, kept)

    def page(self, title: str, summary: Sequence[str] = (), legend: str = "", *,
             illegal: bool = False, names: Sequence[str] = (), round_word: str = "round"
             ) -> Page:
        """The page (as :meth:`pathcheck.render.html.Moments.page`; ``names`` must be the
        names the moments were isolated with)."""
        if self._last is None:
            raise ValueError("a replay page needs at least one frame")
        if tuple(names) != self.names:
            raise ValueError("a lean page's names are given when its moments are collected")
        key, caption, picture, text, notes, scores = self._last
        final = Frame(key, caption, picture.text() if isinstance(picture, Lines) else picture,
                      text, None, tuple(notes), scores)
        data = _json_bytes_for_script({
            "lines": list(self._lines), "pictures": [list(p) for p in self._pictures],
            "rules": [[r.section, r.quote] for r in self._rules], "frames": self._frames})
        built = Built(data, "\n".join(self._events), marks_html(self._marks, round_word),
                      len(self._frames), final, self._first_violation, self._costly)
        return Page(title, (), (), summary, legend, illegal=illegal, names=self.names,
                    round_word=round_word, built=built)
