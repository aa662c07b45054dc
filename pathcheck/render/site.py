"""A folder of replay pages and the index page linking them (``--html DIR``).

Page names are unique (an input's own name is kept where it is free, the others get ``-2``,
``-3`` ...), the index links are relative paths that no browser reads as a scheme
(``./javascript%3Aalert(1).html``) and percent-encode ``#``, ``?`` and ``%``; a file of the
folder that is not a page pathcheck wrote (the user's own file, a FIFO) is never replaced nor
waited on.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from urllib.parse import quote

from pathcheck.errors import IOFailure
from pathcheck.render.html import GENERATOR, Page, fragment, head, render_page

INDEX = "index.html"


def is_page_file(target: str) -> bool:
    """``--html`` names one page (``FILE.html``/``.htm``) or else a folder of pages."""
    return target.lower().endswith((".html", ".htm"))


@dataclass(frozen=True)
class IndexRow:
    """A row of an index page: a page and what the table says of it."""

    href: str
    cells: Sequence[str]


def href(name: str, key: str | None = None) -> str:
    """The relative link to page ``name`` (and its moment ``key``): ``./`` first, so that no
    name reads as a scheme, and every character a URL gives a meaning percent-encoded.

    >>> href("javascript:alert(1).html"), href("a#1?b%.html", "1.2")
    ('./javascript%3Aalert%281%29.html', './a%231%3Fb%25.html#1.2')
    """
    return "./" + quote(name, safe="") + (fragment(key) if key else "")


def render_index(title: str, headers: Sequence[str], rows: Sequence[IndexRow],
                 summary: Sequence[str] = ()) -> str:
    """An index page: a table whose first column links to each page."""
    cols = "".join(f"<th scope=\"col\">{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = list(row.cells)
        link = f'<td><a href="{escape(row.href)}">{escape(cells[0])}</a></td>' if cells else ""
        body.append("<tr>" + link + "".join(f"<td>{escape(c)}</td>" for c in cells[1:])
                    + "</tr>")
    lines = "".join(f"<p>{escape(line)}</p>" for line in summary)
    return f"""{head(title)}
<body>
<header><h1>{escape(title)}</h1><div class="summary">{lines}</div></header>
<main class="index"><table class="listing"><thead><tr>{cols}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table></main>
</body>
</html>
"""


@dataclass(frozen=True)
class Site:
    """Pages to write into a folder, with an index page linking them (``index.html``)."""

    title: str
    headers: Sequence[str]
    pages: Sequence[tuple[str, Page, Sequence[str]]]
    """File name, page and the index row's cells (the first is the link text)."""
    summary: Sequence[str] = ()


def unique_names(names: Sequence[str]) -> list[str]:
    """File names made unique (ignoring case, for the file systems that do): the first of a
    name keeps it unless the index has it, the others get ``-2``, ``-3`` ... before the suffix,
    skipping every name another input has as its own.

    >>> unique_names(["a.html", "a.html", "a-2.html", "b.html", "index.html", "A.html"])
    ['a.html', 'a-3.html', 'a-2.html', 'b.html', 'index-2.html', 'A-4.html']
    """
    taken = {INDEX}
    own: set[str] = set()
    for name in names:
        if name.casefold() not in taken:
            own.add(name.casefold())
            taken.add(name.casefold())
    out = []
    given: set[str] = {INDEX}
    for name in names:
        folded = name.casefold()
        if folded in own and folded not in given:
            given.add(folded)
            out.append(name)
            continue
        stem, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
        count = 2
        while True:
            candidate = f"{stem}-{count}{dot}{ext}"
            if candidate.casefold() not in taken and candidate.casefold() not in given:
                break
            count += 1
        given.add(candidate.casefold())
        out.append(candidate)
    return out


def _ours(path: Path) -> bool:
    """Whether ``path`` is a regular file whose head names pathcheck as its generator; a FIFO
    or a device is opened without blocking and is never ours."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return GENERATOR.encode() in os.read(fd, 2000)
    except OSError:
        return False
    finally:
        os.close(fd)


def write_site(folder: str, site: Site) -> list[str]:
    """Write each page and the index atomically; return the paths written. A file of the
    folder that would be replaced and that pathcheck did not write is an IOFailure (nothing is
    written then)."""
    from pathcheck.output import write_atomic

    root = Path(folder)
    names = [name for name, _, _ in site.pages] + [INDEX]
    if len({name.casefold() for name in names}) != len(names):
        raise ValueError("write_site: page names must be unique (use unique_names)")
    for name in names:  # a folder may hold the user's own files: replace only our pages
        path = root / name
        if os.path.lexists(path) and not _ours(path):
            raise IOFailure(f"{path}: exists and is not a page written by pathcheck (a file "
                            "of yours, a FIFO, a device...); name another folder for the pages")
    written = []
    rows = []
    for name, page, cells in site.pages:
        write_atomic(root / name, render_page(replace(page, back=href(INDEX))))
        written.append(str(root / name))
        rows.append(IndexRow(href(name, page.first_violation()), cells))
    write_atomic(root / INDEX, render_index(site.title, site.headers, rows, site.summary))
    written.append(str(root / INDEX))
    return written
