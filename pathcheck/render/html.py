"""A replay page: one self-contained HTML file that steps through precomputed frames.

A game's frame builder turns a ruling into a :class:`Page`: the events of the ruling (each
with the move it points at and the rule that decided it) and one :class:`Frame` per moment (a
picture drawn by the project's own SVG code, a caption, the current event, notes such as the
Lost point or a violation with the rule it breaks, and the scores then). Every event is a
moment of its own: builders collect them with :class:`Moments`, which keys a second moment of
one move ``R.Tb``, a third ``R.Tc``. :func:`render_page` writes the page: inline SVG, CSS and
a small script (:mod:`pathcheck.render.page_assets`), no server, no network. Pictures are sent
as a table of their distinct lines and, per frame, the numbers of its lines, so the parts a
picture shares with the one before (tiles already laid, the bound) are sent once.

The address fragment names the moment (``page.html#2.5``); stepping updates it.

>>> moments = Moments()
>>> moments.add("1.0", "start", PageEvent("Ann starts"), picture="<svg>\\n</svg>")
>>> moments.add("1.0", "start", PageEvent("Bob watches"))
>>> moments.add("1.1", "one tile", PageEvent("Ann places R1"), scores={"Ann": 1})
>>> [f.key for f in moments.frames]
['1.0', '1.0b', '1.1']
>>> html = render_page(moments.page("demo"))
>>> html.startswith("<!DOCTYPE html>") and "Ann places R1" in html and "http:" not in html
True
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from itertools import filterfalse
from typing import Any
from urllib.parse import quote

import msgspec

from pathcheck.render.bidi import Names
from pathcheck.render.page_assets import CSS, SCRIPT
from pathcheck.ruling import Rule

GENERATOR = '<meta name="generator" content="pathcheck">'
"""In the head of every page: a folder's files that lack it are the user's, never replaced."""


class NoteKind(enum.StrEnum):
    """What a note is: its CSS class, and the word that says it without colour."""

    INFO = "info"
    LOST = "lost"
    VIOLATION = "violation"
    SCORE = "score"
    SLIP = "slip"
    GUESS = "guess"
    """A move against a perfect memory (``pathcheck analyse --html``)."""


@dataclass(frozen=True)
class Note:
    """A line shown with a frame, with the rule that decided it where one did."""

    text: str
    kind: NoteKind = NoteKind.INFO
    rule: Rule | None = None


@dataclass(frozen=True)
class PageEvent:
    """An event of the ruling, listed beside the picture (the move list)."""

    text: str
    where: str = ""
    """The move it points at, e.g. ``round 1, move 3 (Ann)``."""
    rule: Rule | None = None
    violation: bool = False
    lost: bool = False
    """The moment the dungeon got Lost (a mark on the slider)."""
    mark: str = ""
    """The analysis's mark of the move, e.g. ``slip`` or ``guess 35%`` (``analyse --html``)."""


def new_event(text: str, where: str = "", rule: Rule | None = None, violation: bool = False,
              lost: bool = False) -> PageEvent:
    """``PageEvent(text, where, rule, violation, lost)``, made without the frozen dataclass's
    field-by-field ``__setattr__`` (a page makes an event a moment; the same object).

    >>> new_event("Ann places R1@N", "turn 1") == PageEvent("Ann places R1@N", "turn 1")
    True
    """
    event = _new(PageEvent)
    fields = event.__dict__
    fields["text"], fields["where"], fields["rule"] = text, where, rule
    fields["violation"], fields["lost"], fields["mark"] = violation, lost, ""
    return event


def new_note(text: str, kind: NoteKind = NoteKind.INFO, rule: Rule | None = None) -> Note:
    """``Note(text, kind, rule)``, made as :func:`new_event` makes an event.

    >>> new_note("Lost", NoteKind.LOST) == Note("Lost", NoteKind.LOST)
    True
    """
    note = _new(Note)
    fields = note.__dict__
    fields["text"], fields["kind"], fields["rule"] = text, kind, rule
    return note


@dataclass(frozen=True)
class Frame:
    """One moment of the replay.

    ``key`` names it in the address fragment (``2.5``: round or exploration 2, turn 5);
    ``picture`` is SVG markup (one element a line shares best), ``text`` preformatted text
    shown under it; ``event`` is the index in :attr:`Page.events` of the current event.
    """

    key: str
    caption: str
    picture: str = ""
    text: str = ""
    event: int | None = None
    notes: Sequence[Note] = ()
    scores: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Built:
    """What a lean page builder (:mod:`pathcheck.render.lean`) made of a page's moments as it
    collected them, instead of keeping a :class:`Frame` per moment: the page's data (UTF-8
    JSON, safe in ``<script>``), the move list and the slider's marks as HTML, the last moment
    (which the page shows without JavaScript), the key of the first violation's moment, and
    whether a move cost points (``analyse --html``)."""

    data: bytes
    events: str
    marks: str
    count: int
    """How many moments the page has."""
    final: Frame
    first_violation: str | None
    costly: bool = False


@dataclass(frozen=True)
class Page:
    """A whole replay page."""

    title: str
    frames: Sequence[Frame]
    events: Sequence[PageEvent] = ()
    summary: Sequence[str] = ()
    """Lines shown under the title: the verdict, the winner."""
    legend: str = ""
    back: str = ""
    """A relative link back to an index page, if any."""
    illegal: bool = False
    """The log breaks a rule: the summary says so first, and the page has "next violation"."""
    names: Sequence[str] = ()
    """The players' names: each is isolated wherever it stands (:mod:`pathcheck.render.bidi`)."""
    round_word: str = "round"
    """What the game calls a round (the rulebook's word: ``exploration``, ``dungeon``), for
    the slider's marks."""

    def first_violation(self) -> str | None:
        """The key of the moment of the first violation, if any."""
        if self.built is not None:
            return self.built.first_violation
        for frame in self.frames:
            if frame.event is not None and self.events[frame.event].violation:
                return frame.key
        return None
    strip: Sequence[tuple[str, str, str]] = ()
    """The moves coloured by mark, in order: (frame key, ``slip``/``guess``/``sound``, title);
    each links to its moment (``analyse --html``)."""
    built: Built | None = None
    """The moments already made into the page's data and HTML (a lean builder's page: then
    ``frames`` and ``events`` are empty)."""


class Drawing(str):
    """A picture (SVG markup) that knows its lines, so that a page does not split it again:
    ``Drawing(lines) == "\\n".join(lines) + "\\n"`` and ``.lines`` is its ``splitlines()``
    (so no line may hold a line boundary: :func:`one_line`).

    >>> picture = Drawing(["<svg>", "</svg>"])
    >>> picture == "<svg>\\n</svg>\\n" and picture.lines == tuple(picture.splitlines())
    True
    """

    lines: tuple[str, ...]

    def __new__(cls, lines: Sequence[str]) -> Drawing:
        lines = tuple(lines)
        drawing = super().__new__(cls, "\n".join((*lines, "")))  # the text copied once less
        drawing.lines = lines
        return drawing


def one_line(text: str) -> bool:
    """Whether ``text`` holds no line boundary of ``str.splitlines`` (a player's initial may
    be any character).

    >>> one_line("<g/>"), one_line("a\\u2028b"), one_line("a\\x85")
    (True, False, False)
    """
    if text.isascii() and text.isprintable():  # no control character: checked at C speed
        return True
    return _BOUNDARY.search(text) is None


_BOUNDARY = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""The characters ``str.splitlines`` splits at."""


_new = object.__new__


def suffix(n: int) -> str:
    """The letter of the n-th (0-based) moment of one move: ``""``, ``b``, ``c`` ...

    >>> [suffix(n) for n in (0, 1, 2, 25, 26)]
    ['', 'b', 'c', 'z', '~26']
    """
    return "" if n == 0 else chr(ord("a") + n) if n < 26 else f"~{n}"


class Moments:
    """A page's events and frames, one moment per event, in order.

    :meth:`add` lists the event and makes its moment, keyed ``base`` the first time and
    ``base`` plus ``b``, ``c`` ... when several events fall on one move.
    """

    def __init__(self) -> None:
        self.events: list[PageEvent] = []
        self.frames: list[Frame] = []
        self._used: dict[str, int] = {}
        self._scores: dict[str, int] | None = None

    def add(self, base: str, caption: str, event: PageEvent | None, *,
            picture: str | Sequence[str] = "", text: str = "", notes: Sequence[Note] = (),
            scores: Mapping[str, int] | None = None) -> None:
        if not isinstance(picture, str):  # a picture's lines (pathcheck.render.lean.Lines)
            picture = Drawing(picture)
        count = self._used.get(base, 0)
        self._used[base] = count + 1
        index = None
        if event is not None:
            self.events.append(event)
            index = len(self.events) - 1
        # Frame(...) itself, without the frozen dataclass's field-by-field __setattr__ (a page
        # makes a hundred frames and more)
        kept = self._scores  # the scores of the moment before, when they are the same
        if kept is None or kept != (scores or {}):
            kept = self._scores = dict(scores or {})
        frame = _new(Frame)
        frame.__dict__.update(key=base + suffix(count), caption=caption, picture=picture,
                              text=text, event=index, notes=tuple(notes), scores=kept)
        self.frames.append(frame)

    @property
    def picture(self) -> str:
        """The picture of the last moment so far ("" before the first)."""
        return self.frames[-1].picture if self.frames else ""

    def page(self, title: str, summary: Sequence[str] = (), legend: str = "", *,
             illegal: bool = False, names: Sequence[str] = (), round_word: str = "round"
             ) -> Page:
        return Page(title, self.frames, self.events, summary, legend, illegal=illegal,
                    names=tuple(names), round_word=round_word)


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``</`` and no ``<!--`` (both are
    written with JSON escapes inside the strings they occur in).

    >>> _json_for_script(["</script>", "<!--"])
    '["<\\\\/script>","\\\\u003c!--"]'
    """
    return _json_bytes_for_script(value).decode("utf-8")


def _json_bytes_for_script(value: Any) -> bytes:
    """:func:`_json_for_script` as UTF-8 (the sequences replaced are ASCII, and no byte of
    a UTF-8 character beyond ASCII is: the same replacements on the bytes)."""
    return _script_json(msgspec.json.encode(value))


def _script_json_py(data: bytes) -> bytes:
    return data.replace(b"</", b"<\\/").replace(b"<!--", b"\\u003c!--")


try:  # one pass in C: two replaces over a page's data cost more than encoding it
    from pathcheck._speedups import script_json as _script_json
except ImportError:  # no C compiler at install time
    _script_json = _script_json_py


_KIND = {kind: kind.value for kind in NoteKind}


def frames_data(page: Page, names: Names | None = None) -> dict[str, Any]:
    """The page's frames as the script reads them: shared tables of lines, pictures, notes.

    >>> data = frames_data(Page("t", [Frame("1", "a", picture="<svg>\\n<g/>\\n</svg>"),
    ...                               Frame("2", "b", picture="<svg>\\n<i/>\\n</svg>")]))
    >>> data["lines"], data["pictures"]
    (['<svg>', '<g/>', '</svg>', '<i/>'], [[0, 1, 2], [0, 3, 2]])
    """
    names = names or Names(page.names)
    lines: dict[str, int] = {}
    pictures: dict[tuple[int, ...], int] = {}
    rules: dict[Rule, int] = {}
    frames: list[dict[str, Any]] = []
    drawn: dict[int, int] = {}  # a picture shown at several moments is split once
    notes: dict[int, list[Any]] = {}
    scored: dict[int, list[list[Any]]] = {}
    for frame in page.frames:
        picture = frame.picture
        number = drawn.get(id(picture))
        if number is None and picture:
            split = picture.lines if isinstance(picture, Drawing) else picture.splitlines()
            for line in filterfalse(lines.__contains__, split):  # the new lines, in order
                if line not in lines:  # (a line twice in one picture)
                    lines[line] = len(lines)
            ids = tuple(map(lines.__getitem__, split))
            number = drawn[id(picture)] = pictures.setdefault(ids, len(pictures))
        item: dict[str, Any] = {"k": frame.key, "c": names.text(frame.caption)}
        if number is not None:
            item["p"] = number
        if frame.text:
            item["t"] = names.text(frame.text)
        if frame.event is not None:
            item["e"] = frame.event
        if frame.notes:
            said = []
            for note in frame.notes:  # a note stands at many moments: said once
                one = notes.get(id(note))
                if one is None:
                    one = notes[id(note)] = [_KIND[note.kind], names.text(note.text)] + (
                        [rules.setdefault(note.rule, len(rules))] if note.rule is not None
                        else [])
                said.append(one)
            item["n"] = said
        if frame.scores:
            rows = scored.get(id(frame.scores))  # moments in a row share their scores
            if rows is None:
                rows = scored[id(frame.scores)] = [[name, points] for name, points
                                                   in frame.scores.items()]
            item["s"] = rows
        frames.append(item)
    return {"lines": list(lines), "pictures": [list(p) for p in pictures],
            "rules": [[r.section, r.quote] for r in rules], "frames": frames}


def fragment(key: str) -> str:
    """``#key`` as an href: the key percent-encoded where a URL needs it.

    >>> fragment("1.7b"), fragment("a b%")
    ('#1.7b', '#a%20b%25')
    """
    if _UNRESERVED.fullmatch(key):  # the usual key (1.7b): nothing to encode
        return "#" + key
    return "#" + quote(key, safe="")


_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")
"""What ``quote`` never encodes (nor ``html.escape``)."""


ITEM = "m-"
"""The id of a moment's item in the move list: ``m-`` and the moment's key (the address
fragment names the moment itself, so opening a link does not scroll to the list)."""


@lru_cache(maxsize=1024)
def _rule_html(rule: Rule) -> str:
    return (f'<span class="rule"><span class="section">{escape(rule.section)}</span>'
            f' <q>{escape(rule.quote)}</q></span>')


def event_html(event: PageEvent, key: str | None, names: Names | None = None) -> str:
    """One item of the move list: a link to its moment (the one place an event is drawn, so
    marks can be added per event); ``names`` isolates the players' names in it."""
    names = names or Names(())
    cls = ("ev" + (" violation" if event.violation else "") + (" lost" if event.lost else "")
           + (" costly" if event.mark.startswith("slip") else ""))
    mark = ('<span class="tag">violation</span> ' if event.violation
            else '<span class="tag">Lost</span> ' if event.lost else "")
    where = f'<span class="where">{names.html(event.where)}:</span> ' if event.where else ""
    if event.mark:
        kind = escape(event.mark.split()[0])
        mark += f'<span class="mark mark-{kind}">{escape(event.mark)}</span> '
    body = f"{mark}{where}{names.html(event.text)}"
    ident = ""
    if key is not None:  # without JavaScript the link goes to the item itself
        item = ITEM + key
        plain = _UNRESERVED.fullmatch(item) is not None
        href = "#" + item if plain else escape(fragment(item))
        body = f'<a class="go" href="{href}">{body}</a>'
        ident = f' id="{item if plain else escape(item)}"'
    rule = _rule_html(event.rule) if event.rule is not None else ""
    return f"<li{ident} class=\"{cls}\">{body}{rule}</li>"


_GLYPH = {"slip": "?", "guess": "~", "sound": "", "harmless": "."}
"""What a square of the strip shows besides its colour."""


def _button(ident: str, label: str, tip: str, face: str) -> str:
    return (f'<button type="button" id="{ident}" aria-label="{label}" title="{tip}">{face}'
            "</button>")


def head(title: str) -> str:
    """The start of every page up to ``<body>``: the one stylesheet, the generator mark."""
    return _head_open(title) + _STYLE


def _head_open(title: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{GENERATOR}
<title>{escape(title)}</title>"""


_STYLE = f"""
<style>{CSS}</style>
</head>"""
_STYLE_BYTES = _STYLE.encode("utf-8")


def _marks(page: Page) -> str:
    """The slider's marks: round starts, Lost points and violations, each a link."""
    events = page.events
    return marks_html([(frame.key, frame.event is not None and events[frame.event].violation,
                        frame.event is not None and events[frame.event].lost)
                       for frame in page.frames], page.round_word)


def marks_html(moments: Sequence[tuple[str, bool, bool]], round_word: str) -> str:
    """The slider's marks of the moments (key, at a violation, at a Lost point) in order."""
    last = max(len(moments) - 1, 1)
    out = []
    previous = None
    for i, (key, violation, lost) in enumerate(moments):
        round_key = key.partition(".")[0]
        kind, label = "", ""
        if violation:
            kind, label = "violation", f"violation at {key}"
        elif lost:
            kind, label = "lost", f"Lost at {key}"
        elif previous is not None and round_key != previous and "." in key:
            kind, label = "round", f"{round_word} {round_key} starts"
        previous = round_key
        if kind:
            out.append(f'<a class="{kind}" href="{escape(fragment(key))}" '
                       f'style="left:{100 * i / last:.2f}%" title="{escape(label)}" '
                       f'aria-label="{escape(label)}"></a>')
    return "".join(out)


def _static_frame(frame: Frame, names: Names) -> tuple[str, str, str, str]:
    """The picture, text, notes and score rows of a frame as HTML (the page without
    JavaScript shows its last moment so)."""
    notes = []
    for note in frame.notes:
        word = {NoteKind.LOST: "Lost", NoteKind.VIOLATION: "Violation",
                NoteKind.SCORE: "Check"}.get(note.kind, "")
        kind = f'<span class="kind">{word}</span>' if word else ""
        rule = _rule_html(note.rule) if note.rule is not None else ""
        notes.append(f'<li class="{note.kind.value}">{kind}{names.html(note.text)}{rule}</li>')
    rows = "".join(f"<tr><th><bdi>{escape(name)}</bdi></th><td>{points}</td></tr>"
                   for name, points in frame.scores.items())
    return frame.picture, names.html(frame.text), "".join(notes), rows


def render_page(page: Page) -> str:
    """The page as one self-contained HTML document."""
    before, data, after = _page_parts(page)
    return "".join(before) + data.decode("utf-8") + after


def render_page_bytes(page: Page) -> bytes:
    """:func:`render_page` encoded in UTF-8, made without decoding the page's data (the most
    of its bytes) to encode it again.

    >>> page = Page("t", [Frame("1", "a", picture="<svg>\\n</svg>")])
    >>> render_page_bytes(page) == render_page(page).encode("utf-8")
    True
    """
    before, data, _ = _page_parts(page)
    # each part encoded on its own: a part with a character beyond Latin-1 (a tile's arrow)
    # makes a text of 2 bytes a character, and a text joined of all of them would be one
    return b"".join([*(_STYLE_BYTES if part is _STYLE else part.encode("utf-8")
                       for part in before), data, _END_BYTES])


def _page_parts(page: Page) -> tuple[list[str], bytes, str]:
    """The page up to its data (in parts), the data (JSON, UTF-8), and the rest."""
    names = Names(page.names)
    built = page.built
    if built is None:
        if not page.frames:
            raise ValueError("a replay page needs at least one frame")
        keys: dict[int, str] = {}
        for frame in page.frames:
            if frame.event is not None:
                keys.setdefault(frame.event, frame.key)
        built = Built(_json_bytes_for_script(frames_data(page, names)),
                      "\n".join(event_html(e, keys.get(i), names)
                                for i, e in enumerate(page.events)),
                      _marks(page), len(page.frames), page.frames[-1], page.first_violation(),
                      any(e.mark.startswith("slip") for e in page.events))
    return _html_parts(page, built, names)


def _html_parts(page: Page, built: Built, names: Names) -> tuple[list[str], bytes, str]:
    final = built.final
    last = built.count - 1
    events = built.events
    summary = "".join(
        f'<p class="illegal" title="{escape(line)}">{names.html(line)}</p>' if page.illegal
        else f"<p>{names.html(line)}</p>" for line in page.summary[:1])
    if len(page.summary) > 1:  # folded on a phone (by the script), so the picture shows
        summary += ('<details id="pc-more" open><summary>scores and result</summary>'
                    + "".join(f"<p>{names.html(line)}</p>" for line in page.summary[1:])
                    + "</details>")
    back = f'<p class="back"><a href="{escape(page.back)}">all pages</a></p>' if page.back else ""
    legend = f'<p class="legend">{escape(page.legend)}</p>' if page.legend else ""
    strip = "".join(f'<a href="{escape(fragment(key))}" class="mark-{escape(kind)}" '
                    f'title="{escape(title)}">{_GLYPH.get(kind, "")}</a>'
                    for key, kind, title in page.strip)
    if strip:
        strip = f'<nav class="strip" aria-label="the moves by mark">{strip}</nav>'
    costly_filter = ('<input type="checkbox" id="pc-costly"><label for="pc-costly">only the '
                     "moves that cost points</label>" if built.costly else "")
    picture, text, notes, rows = _static_frame(final, names)
    text_hidden = "" if text else " hidden"
    next_violation = (_button("pc-nextv", "next violation", "next violation", "next &#x26A0;")
                      if built.first_violation is not None else "")
    return ([_head_open(page.title), _STYLE, f"""
<body data-moment="{escape(final.key)}">
<header>{back}<h1 title="{escape(page.title)}">{escape(page.title)}</h1>
<div class="summary">{summary}</div>{strip}</header>
<nav class="controls" id="pc-controls" aria-label="step through the game" hidden>
{_button("pc-first", "first moment", "first (Home)", "|&#x25C0;")}
{_button("pc-prev", "previous moment", "previous (&#x2190;)", "&#x25C0;")}
<div class="track"><input type="range" id="pc-slider" min="0" max="{last}" value="{last}"
aria-label="moment"><div class="marks" id="pc-marks">{built.marks}</div></div>
{_button("pc-next", "next moment", "next (&#x2192;)", "&#x25B6;")}
{_button("pc-last", "last moment", "last (End)", "&#x25B6;|")}
{next_violation}
{_button("pc-copy", "copy the link to this moment", "copy the link to this moment", "link")}
<span id="pc-pos">{last + 1} / {last + 1}</span>
<p id="pc-status" role="status"></p>
</nav>
<p id="pc-live" class="sr" aria-live="polite"></p>
<main>
<section class="board" aria-label="the game at this moment">
<h2 id="pc-caption">{names.html(final.caption)}</h2>
<figure id="pc-picture" role="group" aria-labelledby="pc-caption">""", picture, f"""</figure>
<pre id="pc-text"{text_hidden}>{text}</pre>
{legend}
<ul id="pc-notes" class="notes">{notes}</ul>
<table id="pc-scores" class="scores"{"" if rows else " hidden"}><caption>Scores</caption>
<tbody>{rows}</tbody></table>
</section>
<aside class="events"><h2>Moves and events of the ruling</h2>{costly_filter}
<ol id="pc-events" aria-label="moves and events of the ruling: each goes to its moment">
""", events, """
</ol></aside>
</main>
<noscript><p>Without JavaScript this page shows the end of the game; every move and event of
the ruling is listed above.</p></noscript>
<script type="application/json" id="pc-data">"""], built.data, _END)


_END = f"""</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
"""Every page's end, after its data."""
_END_BYTES = _END.encode("utf-8")
