"""A replay page: one self-contained HTML file that steps through precomputed frames.

A game's frame builder turns a ruling into a :class:`Page`: the events of the ruling (each
with the move it points at and the rule that decided it) and one :class:`Frame` per moment (a
picture drawn by the project's own SVG code, a caption, the current event, notes such as the
Lost point or a violation with the rule it breaks, and the scores then). :func:`render_page`
writes the page: inline SVG, CSS and a small script, no server, no network. The script only
shows the precomputed frames (no game logic): pictures are sent as a table of their distinct
lines and, per frame, the numbers of its lines, so the parts a picture shares with the one
before (tiles already laid, the bound) are sent once.

The address fragment names the moment (``page.html#2.5``); stepping updates it.

>>> page = Page("demo", frames=[Frame("1.0", "start", picture="<svg>\\n</svg>"),
...                             Frame("1.1", "one tile", event=0, scores={"Ann": 1})],
...             events=[PageEvent("Ann places R1")])
>>> html = render_page(page)
>>> html.startswith("<!DOCTYPE html>") and "Ann places R1" in html and "http" not in html
True
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from pathcheck.errors import IOFailure
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
    """An event of the ruling, listed beside the picture."""

    text: str
    where: str = ""
    """The move it points at, e.g. ``round 1, move 3 (Ann)``."""
    rule: Rule | None = None
    violation: bool = False
    mark: str = ""
    """The analysis's mark of the move, e.g. ``slip`` or ``guess 35%`` (``analyse --html``)."""


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
    strip: Sequence[tuple[str, str, str]] = ()
    """The moves coloured by mark, in order: (frame key, ``slip``/``guess``/``sound``, title);
    each links to its moment (``analyse --html``)."""


@dataclass(frozen=True)
class IndexRow:
    """A row of an index page: a page and what the table says of it."""

    href: str
    cells: Sequence[str]


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``</`` and no ``<!--`` (both are
    written with JSON escapes inside the strings they occur in).

    >>> _json_for_script(["</script>", "<!--"])
    '["<\\\\/script>","\\\\u003c!--"]'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def frames_data(page: Page) -> dict[str, Any]:
    """The page's frames as the script reads them: shared tables of lines, pictures, notes.

    >>> data = frames_data(Page("t", [Frame("1", "a", picture="<svg>\\n<g/>\\n</svg>"),
    ...                               Frame("2", "b", picture="<svg>\\n<i/>\\n</svg>")]))
    >>> data["lines"], data["pictures"]
    (['<svg>', '<g/>', '</svg>', '<i/>'], [[0, 1, 2], [0, 3, 2]])
    """
    lines: dict[str, int] = {}
    pictures: dict[tuple[int, ...], int] = {}
    rules: dict[Rule, int] = {}
    frames: list[dict[str, Any]] = []
    for frame in page.frames:
        ids = tuple(lines.setdefault(line, len(lines)) for line in frame.picture.splitlines())
        item: dict[str, Any] = {"k": frame.key, "c": frame.caption}
        if ids:
            item["p"] = pictures.setdefault(ids, len(pictures))
        if frame.text:
            item["t"] = frame.text
        if frame.event is not None:
            item["e"] = frame.event
        if frame.notes:
            item["n"] = [[n.kind.value, n.text] + ([rules.setdefault(n.rule, len(rules))]
                                             if n.rule is not None else [])
                         for n in frame.notes]
        if frame.scores:
            item["s"] = [[name, points] for name, points in frame.scores.items()]
        frames.append(item)
    return {"lines": list(lines), "pictures": [list(p) for p in pictures],
            "rules": [[r.section, r.quote] for r in rules], "frames": frames}


def _event_html(number: int, event: PageEvent) -> str:
    cls = "ev violation" if event.violation else "ev"
    mark = '<span class="tag">violation</span> ' if event.violation else ""
    where = f'<span class="where">{escape(event.where)}:</span> ' if event.where else ""
    if event.mark:
        kind = escape(event.mark.split()[0])
        mark += f'<span class="mark mark-{kind}">{escape(event.mark)}</span> '
    rule = ""
    if event.rule is not None:
        rule = (f'<span class="rule"><span class="section">{escape(event.rule.section)}</span>'
                f' <q>{escape(event.rule.quote)}</q></span>')
    return f'<li id="ev-{number}" class="{cls}">{mark}{where}{escape(event.text)}{rule}</li>'


_GLYPH = {"slip": "?", "guess": "~", "sound": ""}
"""What a square of the strip shows besides its colour."""


def _button(ident: str, label: str, tip: str, face: str) -> str:
    return (f'<button type="button" id="{ident}" aria-label="{label}" title="{tip}">{face}'
            "</button>")


def _head(title: str) -> str:
    """The start of every page up to ``<body>``: the one stylesheet, the generator mark."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{GENERATOR}
<title>{escape(title)}</title>
<style>{CSS}</style>
</head>"""


def render_page(page: Page) -> str:
    """The page as one self-contained HTML document."""
    if not page.frames:
        raise ValueError("a replay page needs at least one frame")
    data = frames_data(page)
    last = len(page.frames) - 1
    events = "\n".join(_event_html(i, e) for i, e in enumerate(page.events))
    summary = "".join(f"<p>{escape(line)}</p>" for line in page.summary)
    back = f'<p class="back"><a href="{escape(page.back)}">all pages</a></p>' if page.back else ""
    legend = f'<p class="legend">{escape(page.legend)}</p>' if page.legend else ""
    strip = "".join(f'<a href="#{escape(key)}" class="mark-{escape(kind)}" '
                    f'title="{escape(title)}">{_GLYPH.get(kind, "")}</a>'
                    for key, kind, title in page.strip)
    if strip:
        strip = f'<nav class="strip" aria-label="the moves by mark">{strip}</nav>'
    first = page.frames[0]
    return f"""{_head(page.title)}
<body>
<header>{back}<h1>{escape(page.title)}</h1><div class="summary">{summary}</div>{strip}</header>
<nav class="controls" aria-label="step through the game">
{_button("pc-first", "first moment", "first (Home)", "|&#x25C0;")}
{_button("pc-prev", "previous moment", "previous (&#x2190;)", "&#x25C0;")}
<input type="range" id="pc-slider" min="0" max="{last}" value="0" aria-label="moment">
{_button("pc-next", "next moment", "next (&#x2192;)", "&#x25B6;")}
{_button("pc-last", "last moment", "last (End)", "&#x25B6;|")}
<span id="pc-pos" aria-live="polite">1 / {last + 1}</span>
</nav>
<main>
<section class="board">
<h2 id="pc-caption">{escape(first.caption)}</h2>
<figure id="pc-picture"></figure>
<pre id="pc-text" hidden></pre>
{legend}
<ul id="pc-notes" class="notes"></ul>
<table id="pc-scores" class="scores"><caption>Scores</caption><tbody></tbody></table>
</section>
<aside class="events"><h2>Events of the ruling</h2>
<ol id="pc-events" tabindex="0" aria-label="events of the ruling">
{events}
</ol></aside>
</main>
<noscript><p>Stepping needs JavaScript; the events of the ruling are listed above.</p></noscript>
<script type="application/json" id="pc-data">{_json_for_script(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


def render_index(title: str, headers: Sequence[str], rows: Sequence[IndexRow],
                 summary: Sequence[str] = ()) -> str:
    """An index page: a table whose first column links to each page."""
    head = "".join(f"<th scope=\"col\">{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = list(row.cells)
        link = f'<td><a href="{escape(row.href)}">{escape(cells[0])}</a></td>' if cells else ""
        body.append("<tr>" + link + "".join(f"<td>{escape(c)}</td>" for c in cells[1:])
                    + "</tr>")
    lines = "".join(f"<p>{escape(line)}</p>" for line in summary)
    return f"""{_head(title)}
<body>
<header><h1>{escape(title)}</h1><div class="summary">{lines}</div></header>
<main class="index"><table class="listing"><thead><tr>{head}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table></main>
</body>
</html>
"""


# Okabe-Ito colours: blue #0072B2, vermilion #D55E00, orange #E69F00, bluish green #009E73.
# Every colour also comes with a word, a glyph or a border, never colour alone.
CSS = """
:root{--ink:#1a1a1a;--muted:#555;--paper:#fff;--line:#ccc;--blue:#0072B2;--red:#D55E00;
--orange:#E69F00;--green:#009E73;--hi:#fdf0d5}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--ink);background:var(--paper)}
header{padding:.6rem 1rem;border-bottom:1px solid var(--line)}
h1{font-size:1.25rem;margin:.2rem 0;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:.4rem 0}
.summary p,.back{margin:.1rem 0}
.controls{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:.4rem;
align-items:center;padding:.5rem 1rem;background:#f4f4f4;border-bottom:1px solid var(--line)}
.controls button{font-size:1.1rem;min-width:2.75rem;min-height:2.75rem;border:1px solid #888;
border-radius:.35rem;background:#fff;color:var(--ink);cursor:pointer}
.controls input[type=range]{flex:1 1 8rem;min-width:6rem;min-height:2.75rem}
button:focus-visible,input:focus-visible,a:focus-visible,li:focus-visible{
outline:3px solid var(--blue);outline-offset:2px}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(16rem,2fr);gap:1rem;padding:1rem}
main.index{display:block}
@media (max-width:720px){main{grid-template-columns:minmax(0,1fr);padding:.5rem}
.controls{padding:.4rem .5rem}figure svg{min-width:520px;max-height:none}}
figure{margin:0;overflow:auto}
/* on a phone the picture keeps a readable size and scrolls sideways inside its frame */
.pair{display:flex;flex-wrap:wrap;gap:.75rem}.pair figure{flex:1 1 14rem;min-width:0}
figcaption{font-weight:600;font-size:.9rem}
figure svg{width:100%;height:auto;max-height:75vh;display:block}
pre{overflow:auto;font-size:.85rem;background:#f7f7f7;padding:.5rem;user-select:text}
.legend{color:var(--muted);font-size:.9rem}
.notes{list-style:none;padding:0;margin:.5rem 0}
.notes li{padding:.35rem .5rem;margin:.25rem 0;border-left:.35rem solid var(--blue);
background:#eef5fb}
.notes li.lost{border-left-color:var(--orange);background:#fdf3e1}
.notes li.violation{border-left-color:var(--red);background:#fbe9e0;font-weight:600}
.notes li.score{border-left-color:var(--green);background:#e6f5f0}
.notes li.slip{border-left-color:var(--red);background:#fbe9e0}
.notes li.guess{border-left-color:var(--orange);background:#fdf3e1}
.strip{display:flex;flex-wrap:wrap;gap:2px;margin:.3rem 0}
.strip a{display:inline-block;width:1.1rem;height:1.4rem;text-align:center;font-weight:700;
font-size:.8rem;color:#fff;text-decoration:none;background:var(--green)}
.strip a.mark-slip{background:var(--red)}.strip a.mark-guess{background:var(--orange)}
.events .mark{font-weight:700;text-transform:uppercase;font-size:.8rem}
.events .mark-slip{color:var(--red)}.events .mark-guess{color:#8a5a00}
.notes .kind{font-weight:700;text-transform:uppercase;font-size:.8rem;margin-right:.4rem}
.rule{display:block;font-size:.88rem;color:var(--muted);font-weight:400}
.rule .section{font-weight:700}
.scores{border-collapse:collapse;margin:.5rem 0}
.scores caption{text-align:left;font-weight:700}
.scores td,.scores th{border:1px solid var(--line);padding:.2rem .6rem;text-align:left}
.events ol{padding-left:2.2rem;margin:0;max-height:75vh;overflow:auto}
.events li{padding:.25rem .4rem;border-left:.3rem solid transparent;margin:.1rem 0}
.events li.current{background:var(--hi);border-left-color:var(--orange)}
.events li.current::before{content:"\\25B6  now: ";font-weight:700}
.events li.violation{border-left-color:var(--red)}
.events .tag{font-weight:700;color:var(--red);text-transform:uppercase;font-size:.8rem}
.events .where{color:var(--muted)}
table.listing{border-collapse:collapse;width:100%}
table.listing th,table.listing td{border:1px solid var(--line);padding:.3rem .5rem;
text-align:left;vertical-align:top}
@media (max-width:720px){table.listing{font-size:.85rem}}
@media print{.controls,noscript,.back{display:none}main{display:block}
.events ol{max-height:none;overflow:visible}figure svg{max-width:100%;page-break-inside:avoid}
body{font-size:11pt}}
"""

# The script only shows precomputed frames: no game logic lives here.
SCRIPT = """
(function(){
"use strict";
var D=JSON.parse(document.getElementById("pc-data").textContent);
var F=D.frames,n=F.length,cur=-1,byKey={};
for(var k=0;k<n;k++){byKey[F[k].k]=k;}
var $=function(id){return document.getElementById(id);};
var pic=$("pc-picture"),txt=$("pc-text"),cap=$("pc-caption"),notes=$("pc-notes"),
scores=$("pc-scores"),slider=$("pc-slider"),pos=$("pc-pos"),lastPic=-1,lastEv=null;
function picture(i){var ids=D.pictures[i],out=new Array(ids.length);
for(var j=0;j<ids.length;j++){out[j]=D.lines[ids[j]];}return out.join("\\n");}
function el(tag,cls,text){var e=document.createElement(tag);if(cls){e.className=cls;}
if(text!==undefined){e.textContent=text;}return e;}
var WORD={info:"",lost:"Lost",violation:"Violation",score:"Check",slip:"Slip",guess:"Guess"};
function show(i,fromHash){
if(i<0){i=0;}if(i>=n){i=n-1;}cur=i;var f=F[i];
cap.textContent=f.c;
var p=f.p===undefined?-1:f.p;
if(p!==lastPic){pic.innerHTML=p<0?"":picture(p);lastPic=p;}
if(f.t){txt.textContent=f.t;txt.hidden=false;}else{txt.textContent="";txt.hidden=true;}
notes.textContent="";
(f.n||[]).forEach(function(m){var li=el("li",m[0]);
if(WORD[m[0]]){li.appendChild(el("span","kind",WORD[m[0]]));}
li.appendChild(document.createTextNode(m[1]));
if(m.length>2){var r=D.rules[m[2]],s=el("span","rule");s.appendChild(el("span","section",r[0]));
s.appendChild(document.createTextNode(" "));s.appendChild(el("q","",r[1]));li.appendChild(s);}
notes.appendChild(li);});
var body=scores.tBodies[0];body.textContent="";
(f.s||[]).forEach(function(r){var tr=el("tr");tr.appendChild(el("th","",r[0]));
tr.appendChild(el("td","",String(r[1])));body.appendChild(tr);});
scores.hidden=!(f.s&&f.s.length);
if(lastEv){lastEv.classList.remove("current");lastEv.removeAttribute("aria-current");}
lastEv=f.e===undefined?null:$("ev-"+f.e);
if(lastEv){lastEv.classList.add("current");lastEv.setAttribute("aria-current","step");
var list=lastEv.parentNode;if(list.scrollHeight>list.clientHeight){
list.scrollTop=lastEv.offsetTop-list.offsetTop-list.clientHeight/3;}}
slider.value=String(i);slider.setAttribute("aria-valuetext",f.c);
pos.textContent=(i+1)+" / "+n+"  #"+f.k;
document.title=document.title.replace(/ \\u2014 .*$/,"")+" \\u2014 "+f.k;
if(!fromHash){try{history.replaceState(null,"","#"+f.k);}catch(e){location.hash=f.k;}}
document.body.setAttribute("data-moment",f.k);
}
function fromHash(){var h=decodeURIComponent(location.hash.replace(/^#/,""));
return Object.prototype.hasOwnProperty.call(byKey,h)?byKey[h]:-1;}
$("pc-first").addEventListener("click",function(){show(0);});
$("pc-prev").addEventListener("click",function(){show(cur-1);});
$("pc-next").addEventListener("click",function(){show(cur+1);});
$("pc-last").addEventListener("click",function(){show(n-1);});
slider.addEventListener("input",function(){show(parseInt(slider.value,10));});
window.addEventListener("hashchange",function(){var i=fromHash();if(i>=0&&i!==cur){show(i,true);}});
document.addEventListener("keydown",function(e){
if(e.altKey||e.ctrlKey||e.metaKey||e.target===slider){return;}
var t=e.target&&e.target.tagName;if(t==="INPUT"||t==="TEXTAREA"||t==="SELECT"){return;}
var to={ArrowLeft:cur-1,ArrowRight:cur+1,Home:0,End:n-1}[e.key];
if(to!==undefined){e.preventDefault();show(to);}});
var start=fromHash();show(start<0?0:start,start>=0);
})();
"""


def is_page_file(target: str) -> bool:
    """``--html`` names one page (``FILE.html``/``.htm``) or else a folder of pages."""
    return target.lower().endswith((".html", ".htm"))


@dataclass(frozen=True)
class Site:
    """Pages to write into a folder, with an index page linking them (``index.html``)."""

    title: str
    headers: Sequence[str]
    pages: Sequence[tuple[str, Page, Sequence[str]]]
    """File name, page and the index row's cells (the first is the link text)."""
    summary: Sequence[str] = ()


def unique_names(names: Sequence[str]) -> list[str]:
    """File names made unique by a ``-2``, ``-3`` ... before the suffix.

    >>> unique_names(["a.html", "a.html", "b.html", "index.html"])
    ['a.html', 'a-2.html', 'b.html', 'index-2.html']
    """
    seen: dict[str, int] = {"index.html": 1}
    out = []
    for name in names:
        stem, dot, suffix = name.rpartition(".")
        count = seen.get(name, 0) + 1
        seen[name] = count
        out.append(name if count == 1 else f"{stem}-{count}{dot}{suffix}")
    return out


def _ours(path: Any) -> bool:
    """Whether the file at ``path`` is a page pathcheck wrote (its head names the generator)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return GENERATOR in handle.read(2000)
    except OSError:
        return False


def write_site(folder: str, site: Site) -> list[str]:
    """Write each page and the index atomically; return the paths written. A file of the
    folder that would be replaced and that pathcheck did not write is an IOFailure (nothing is
    written then)."""
    from pathlib import Path

    from pathcheck.output import write_atomic

    root = Path(folder)
    names = [name for name, _, _ in site.pages] + ["index.html"]
    for name in names:  # a folder may hold the user's own files: replace only our pages
        if (root / name).exists() and not _ours(root / name):
            raise IOFailure(f"{root / name}: exists and was not written by pathcheck; "
                            "name another folder for the pages")
    written = []
    rows = []
    for name, page, cells in site.pages:
        page = Page(page.title, page.frames, page.events, page.summary, page.legend,
                    back="index.html")
        write_atomic(root / name, render_page(page))
        written.append(str(root / name))
        rows.append(IndexRow(name, cells))
    write_atomic(root / "index.html", render_index(site.title, site.headers, rows, site.summary))
    written.append(str(root / "index.html"))
    return written
