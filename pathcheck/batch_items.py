"""The items of batch verification: one record of an input, not yet decoded, and its
verdict rendered (:mod:`pathcheck.batch` runs them, :mod:`pathcheck.batch_fast` the C path).

An input is split into :class:`Item` values (raw JSON Lines or ``.dgn`` lines, or decoded
values of a JSON document, or the error that made one unreadable); :func:`process_item`
verifies one and renders it in the output format asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from pathcheck.bounded import Oversized, Readable
from pathcheck.errors import IOFailure, RecordError
from pathcheck.reader import (
    Document,
    Shape,
    decode_value,
    folder_of,
    iter_document,
    open_input,
    source_name,
)
from pathcheck.records import Overrides, dgn_lines, parse_dgn_bytes, record_from_document
from pathcheck.verify import (
    DungeonVerdict,
    Verdict,
    error_dict,
    unreadable_dict,
    verify_record,
)

JSON_LINE, DGN_LINE, VALUE, ERROR = range(4)
CHUNK = 256


class Item(NamedTuple):
    """One record to verify, not yet decoded (or decoded by the main process)."""

    kind: int
    source: str
    line: int
    payload: Any
    pointer: str = ""
    extra: Any = None
    """.dgn: the pragma defaults in force; JSON: the folder relative tile-set paths start from."""
    size: int = 0


@dataclass(frozen=True)
class Settings:
    """How each record is verified and shown."""

    overrides: Overrides = field(default_factory=Overrides)
    output: str = "text"
    show_map: bool = True
    svg_dir: str | None = None
    graph_dir: str | None = None
    inline_pictures: bool = False
    """Return the SVG and graph of each record in its :class:`Rendered` (for ``--svg FILE.svg``)."""
    inline_graph: str = ".graphml"
    """The file the inline graph is for: its suffix picks GraphML or node-link JSON."""
    picture_stems: tuple[tuple[str, str], ...] = ()
    """Input name -> stem of its pictures' names (see ``render.pictures.picture_stems``)."""


class Rendered(NamedTuple):
    """The verdict on one record, rendered."""

    status: str
    """``held``, ``lost``, ``solo``, ``invalid`` or ``unreadable`` (a whole file)."""
    reason: str | None
    text: str
    size: int
    error: str | None = None
    """For an invalid record: the one-line error (file:line: pointer: message)."""
    svg: str | None = None
    graph: bytes | None = None


# --- splitting input into items -------------------------------------------------------------


def iter_items(name: str) -> Iterator[Item]:
    """The records of one file as items, in order (``-`` is stdin)."""
    source = source_name(name)
    base = None if name == "-" else str(folder_of(name))
    try:
        with open_input(name) as sniffed:
            if sniffed.shape is Shape.DGN:
                yield from _dgn_items(sniffed.lines(), source, sniffed.first_line)
            elif sniffed.shape is Shape.JSON_LINES:
                yield from _line_items(sniffed.lines(), source, sniffed.first_line, base)
            else:
                yield from _document_items(sniffed.document(), source, sniffed.first_line, base)
    except IOFailure as exc:
        yield Item(ERROR, source, 0, exc)


def _line_items(stream: Iterable[bytes | Oversized], source: str, start: int, base: str | None
                ) -> Iterator[Item]:
    for number, raw in enumerate(stream, start):
        if isinstance(raw, Oversized):
            yield oversized_item(source, number, raw)
        elif raw.strip():
            yield Item(JSON_LINE, source, number, raw, "", base, len(raw))


def oversized_item(source: str, line: int, raw: Oversized) -> Item:
    return Item(ERROR, source, line, RecordError(source, line, "", raw.message()),
                size=raw.size)


def _dgn_items(stream: Iterable[bytes | Oversized], source: str, start: int) -> Iterator[Item]:
    for entry in dgn_lines(stream, source, start):
        if isinstance(entry, RecordError):
            yield Item(ERROR, source, entry.line or 0, entry)
        else:
            number, raw, defaults = entry
            yield Item(DGN_LINE, source, number, raw, "", defaults, len(raw))


def _document_items(stream: Readable, source: str, first_line: int, base: str | None
                    ) -> Iterator[Item]:
    for entry in iter_document(stream, source, first_line):
        if isinstance(entry, RecordError):
            yield Item(ERROR, source, entry.line or first_line, entry)
        else:
            yield Item(VALUE, source, entry.line, entry.value, entry.pointer, base, 0)


# --- processing ---------------------------------------------------------------------------

_encoder = msgspec.json.Encoder()


def _record(item: Item, settings: Settings) -> Any:
    if item.kind == ERROR:
        raise item.payload
    if item.kind == DGN_LINE:
        return parse_dgn_bytes(item.payload, source=item.source, line=item.line,
                               overrides=settings.overrides, defaults=item.extra)
    if item.kind == JSON_LINE:
        # Without its line end, as the fast path hands a line over: one message either way.
        decoded = decode_value(item.payload.rstrip(b"\r\n"), item.source, item.line, "")
        if isinstance(decoded, RecordError):
            raise decoded
        value = decoded.value
    else:
        value = item.payload
    doc = Document(item.source, item.line, value, item.pointer)
    base = Path(item.extra) if item.extra else None
    return record_from_document(doc, settings.overrides, base)


def process_item(item: Item, settings: Settings) -> Rendered:
    """Verify one item and render it in the requested output format."""
    if isinstance(item.payload, IOFailure):
        return _unreadable(item.payload, settings)
    try:
        record = _record(item, settings)
    except RecordError as exc:
        return Rendered("invalid", None, _render_error(exc, settings), item.size, str(exc))
    drawing = ((settings.output == "text" and settings.show_map) or settings.svg_dir is not None
               or settings.inline_pictures)
    verdict = verify_record(record, with_passes=drawing)
    svg = graph = None
    if settings.inline_pictures or settings.svg_dir is not None or settings.graph_dir is not None:
        from pathcheck.render import pictures

        if settings.inline_pictures:
            svg = pictures.verdict_svg(verdict)
            graph = pictures.verdict_graph(verdict, settings.inline_graph)
        else:
            pictures.write_pictures(verdict, settings.svg_dir, settings.graph_dir,
                                    settings.picture_stems)
    if isinstance(verdict, DungeonVerdict):
        reason = verdict.trace.reason
        status, why = ("held", None) if reason is None else ("lost", reason.value)
    else:
        status, why = "solo", None
    text = render_verdict(verdict, settings.output, show_map=settings.show_map)
    return Rendered(status, why, text, item.size, None, svg, graph)


def render_verdict(verdict: Verdict, output: str, *, show_map: bool = True) -> str:
    """A verdict in an output format: the text report, or its JSON object (one line)."""
    if output == "text":
        from pathcheck.render.report import verdict_text

        return verdict_text(verdict, show_map=show_map)
    return _encoder.encode(verdict.to_dict()).decode("utf-8")


def _render_error(error: RecordError, settings: Settings) -> str:
    if settings.output == "text":
        from pathcheck.render.safe import one_line

        where = error.source if error.line is None else f"{error.source}:{error.line}"
        return one_line(f"== {where}: INVALID: {error.pointer or '/'}: {error.message}")
    return _encoder.encode(error_dict(error)).decode("utf-8")


def _unreadable(error: IOFailure, settings: Settings) -> Rendered:
    """A file that cannot be read: reported in its place; the other files go on."""
    if settings.output == "text":
        text = f"== UNREADABLE: {error}"
    else:
        text = _encoder.encode(unreadable_dict(error)).decode("utf-8")
    return Rendered("unreadable", None, text, 0, str(error))


class Task(NamedTuple):
    """A unit of work for a worker: a list of items, or a block of JSON Lines or ``.dgn``."""

    items: list[Item]
    block: bytes = b""
    first_line: int = 0
    source: str = ""
    pragma: tuple[bytes, bytes] | None = None
    """.dgn: the last ``#!`` line before the block and the last valid one (b"": none); JSON
    Lines: None."""
    end: str | None = None
    """On the last task of an input: its name, for the end marker after its results."""
