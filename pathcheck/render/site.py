"""A folder of replay pages and the index page linking them (``--html DIR``).

Page names are unique (an input's own name is kept where it is free, the others get ``-2``,
``-3`` ...), the index links are relative paths that no browser reads as a scheme
(``./javascript%3Aalert(1).html``) and percent-encode ``#``, ``?`` and ``%``; a file of the
folder that is not a page pathcheck wrote (the user's own file, a FIFO) is never replaced nor
waited on.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from urllib.parse import quote

from pathcheck.errors import IOFailure
from pathcheck.render.bidi import Names
from pathcheck.render.html import GENERATOR, Page, fragment, head, render_page_bytes

INDEX = "index.html"


def is_page_file(target: str) -> bool:
    """``--html`` names one page (``FILE.html``/``.htm``) or else a folder of pages."""
    return target.lower().endswith((".html", ".htm"))


@dataclass(frozen=True)
class IndexRow:
    """A row of an index page: a page and what the table says of it."""

    href: str
    cells: Sequence[str]
    names: Sequence[str] = ()
    """The players' names in the cells, each isolated (:mod:`pathcheck.render.bidi`)."""


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
        names = Names(row.names)
        link = f'<td><a href="{escape(row.href)}">{escape(cells[0])}</a></td>' if cells else ""
        body.append("<tr>" + link + "".join(f"<td>{names.html(c)}</td>" for c in cells[1:])
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


class SiteWriter:
    """Writes the pages of a folder one by one as they are made, keeping only what the index
    needs (memory stays flat over thousands of pages), then names them and writes the index.

    Each page goes to a hidden temporary file in the folder; :meth:`finish` gives every page
    its unique name (a page's name is only known once every input is: see
    :func:`unique_names`), refuses before renaming anything if a name is taken by a file
    pathcheck did not write (a file of the user's, a FIFO), brings every page to the disk at
    once (:func:`pathcheck.output.make_durable`: one flush a batch, not one a page) before
    renaming any, syncs the folder, and writes ``index.html``. An error or a signal removes
    the temporary files (:data:`pathcheck.output.LIVE_TEMPORARIES`).
    """

    def __init__(self, folder: str, title: str, headers: Sequence[str]) -> None:
        self.root = Path(folder)
        self.title, self.headers = title, headers
        self.pending: list[tuple[str, str, str | None, Sequence[str]]] = []
        """(wanted name, temporary file, key of the first violation, index cells)."""
        self.names: list[Sequence[str]] = []
        """The players' names of each page, in the order added."""

    def add(self, name: str, page: Page, cells: Sequence[str]) -> None:
        """Write ``page`` (to be named ``name`` or a free variant of it)."""
        from pathcheck.output import _create_temporary, _fail, _umask

        data = render_page_bytes(replace(page, back=href(INDEX)))
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = _create_temporary(self.root / "page.html")
        except OSError as exc:
            raise _fail(self.root / name, exc) from exc
        try:
            os.fchmod(fd, 0o666 & ~_umask())
            with os.fdopen(fd, "wb") as out:
                out.write(data)  # synced with the others at the end (:meth:`finish`)
        except OSError as exc:
            self.discard()
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise _fail(self.root / name, exc) from exc
        self.pending.append((name, tmp, page.first_violation(), tuple(cells)))
        self.names.append(tuple(page.names))

    def discard(self) -> None:
        """Remove every page written so far (nothing of the run is left in the folder)."""
        from pathcheck.output import LIVE_TEMPORARIES

        for _, tmp, _, _ in self.pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            LIVE_TEMPORARIES.discard(tmp)
        self.pending, self.names = [], []

    def finish(self, summary: Sequence[str] = (), names: Sequence[str] | None = None
               ) -> list[str]:
        """Name the pages (``names``: the wanted names in the order added, if they changed
        since), write the index; return the paths written (the index last)."""
        from pathcheck.output import LIVE_TEMPORARIES, make_durable, sync_folder, write_atomic

        wanted = list(names) if names is not None else [n for n, _, _, _ in self.pending]
        final = unique_names(wanted)
        for name in [*final, INDEX]:  # a folder may hold the user's own files: replace only ours
            path = self.root / name
            if os.path.lexists(path) and not _ours(path):
                self.discard()
                raise IOFailure(f"{path}: exists and is not a page written by pathcheck (a "
                                "file of yours, a FIFO, a device...); name another folder for "
                                "the pages")
        try:  # every page on the disk before any is renamed into place: one flush a batch
            make_durable(self.root, [tmp for _, tmp, _, _ in self.pending])
        except OSError as exc:
            self.discard()
            raise IOFailure(f"{self.root}: cannot write: {exc.strerror}") from exc
        written, rows = [], []
        for name, (_, tmp, first, cells), players in zip(final, self.pending, self.names,
                                                         strict=True):
            try:
                os.replace(tmp, self.root / name)
            except OSError as exc:
                self.discard()
                raise IOFailure(f"{self.root / name}: cannot write: {exc.strerror}") from exc
            LIVE_TEMPORARIES.discard(tmp)
            written.append(str(self.root / name))
            rows.append(IndexRow(href(name, first), cells, players))
        self.pending, self.names = [], []
        sync_folder(self.root)
        write_atomic(self.root / INDEX, render_index(self.title, self.headers, rows, summary))
        return [*written, str(self.root / INDEX)]
