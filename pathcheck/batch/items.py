"""The items of batch verification: one record of an input verified and its verdict
rendered (:mod:`pathcheck.batch` runs them, :mod:`pathcheck.batch.fast` the C path).

An input is split into :class:`Item` values by the one way in,
:func:`pathcheck.inputs.items.iter_items` (re-exported here); :func:`process_item` verifies
one and renders it in the output format asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from pathcheck.errors import IOFailure, RecordError
from pathcheck.inputs.items import DGN_LINE as DGN_LINE
from pathcheck.inputs.items import ERROR as ERROR
from pathcheck.inputs.items import JSON_LINE as JSON_LINE
from pathcheck.inputs.items import VALUE as VALUE
from pathcheck.inputs.items import Item as Item
from pathcheck.inputs.items import iter_items as iter_items
from pathcheck.inputs.items import oversized_item as oversized_item
from pathcheck.inputs.records import Overrides, parse_dgn_bytes, record_from_document
from pathcheck.reading.reader import Document, decode_value
from pathcheck.verify import (
    DungeonVerdict,
    Verdict,
    error_dict,
    unreadable_dict,
    verify_record,
)

CHUNK = 256


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
        from pathcheck.safe import one_line

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
