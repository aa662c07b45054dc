"""Dungeon and solo records (spec section 6): decoding, validation, streaming readers.

Readers are lenient: they yield each record or the :class:`~pathcheck.errors.RecordError`
that made it unreadable, and go on. Strict callers raise the first error.

>>> rec = parse_dungeon_record(
...     {"format": "dungeon/1", "tiles": [{"tile": "START", "dir": "N"}],
...      "lost": [{"player": "Ann", "after": 1}]}, source="x.json", line=1)
>>> rec.tiles[0], rec.lost[0].player
(Placement(tile='START', dir=<Direction.N: 0>), 'Ann')
>>> parse_dungeon_record({"tiles": [{"tile": "Q9", "dir": "N"}]}, source="x.json", line=3)
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pathcheck.errors.RecordError: x.json:3: /tiles/0/tile: unknown tile 'Q9' (not in tile set ...
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pathcheck.errors import InputError, RecordError
from pathcheck.inputs.dgn import (
    NOT_RULED,
    dgn_blank,
    dgn_lines,
    dgn_records,
    dgn_text,
    parse_dgn_bytes,
    parse_dgn_line,
    parse_pragma,
    pragma_line,
    pragma_settings,
)
from pathcheck.inputs.record_values import (
    ALL_RULES,
    DUNGEON_FORMAT,
    DUNGEON_KEYS,
    NO_OVERRIDES,
    SOLO_FORMAT,
    SOLO_KEYS,
    DungeonRecord,
    Overrides,
    Record,
    SoloRecord,
    parse_dungeon_record,
    parse_solo_record,
)
from pathcheck.reading.reader import (
    Document,
    Shape,
    folder_of,
    iter_documents,
    open_input,
    shape_by_name,
    source_name,
)

__all__ = [
    "ALL_RULES", "DUNGEON_FORMAT", "DUNGEON_KEYS", "NOT_RULED", "SOLO_FORMAT", "SOLO_KEYS",
    "DungeonRecord", "Overrides", "Record", "SoloRecord", "dgn_blank", "dgn_lines", "dgn_text",
    "is_dgn", "iter_records", "iter_solo_records", "parse_dgn_bytes", "parse_dgn_line",
    "parse_dungeon_record", "parse_pragma", "parse_rules_option", "parse_solo_record",
    "pragma_line", "pragma_settings", "record_from_document",
]
"""The record types and their decoding (record_values) and compact notation (dgn), re-exported:
``pathcheck.inputs.records`` is where callers import them from."""


def record_from_document(doc: Document, overrides: Overrides, base: Path | None) -> Record:
    """The dungeon or solo record a decoded JSON document holds."""
    value = doc.value
    if isinstance(value, dict) and value.get("format") == SOLO_FORMAT:
        return parse_solo_record(value, source=doc.source, line=doc.line, pointer=doc.pointer,
                                 overrides=overrides, base=base)
    return parse_dungeon_record(value, source=doc.source, line=doc.line, pointer=doc.pointer,
                                overrides=overrides, base=base)


def is_dgn(name: str) -> bool:
    """Whether ``name`` holds compact notation by its suffix (stdin is sniffed: see
    :func:`pathcheck.reading.reader.sniff`)."""
    return shape_by_name(name) is Shape.DGN


def iter_records(name: str, overrides: Overrides = NO_OVERRIDES) -> Iterator[Record | RecordError]:
    """Yield every dungeon or solo record of a file (JSON, JSON Lines or .dgn), in order.

    The shape is the one :func:`pathcheck.reading.reader.sniff` decides, as for batch work.
    """
    source = source_name(name)
    base = None if name == "-" else folder_of(name)
    with open_input(name) as sniffed:
        if sniffed.shape is Shape.DGN:
            yield from dgn_records(sniffed.lines(), source, overrides)
            return
        for item in iter_documents(sniffed, source):
            if isinstance(item, RecordError):
                yield item
                continue
            try:
                yield record_from_document(item, overrides, base)
            except RecordError as exc:
                yield exc


SOLO_WANTED = (f"expected a solo record (\"format\": \"{SOLO_FORMAT}\", as 'pathcheck record "
               "solo' writes it)")


def iter_solo_records(name: str) -> Iterator[SoloRecord | RecordError]:
    """Yield the solo records of a file (JSON, JSON Lines, ``.dgn``, or game notation ``.pcn``
    as ``pathcheck record solo`` writes it); a dungeon record or a game log of another format
    is reported as an error saying that a solo record is wanted."""
    from pathcheck.reading.meant_for import not_an_input

    mistake = not_an_input(name, "solo check")
    if mistake is not None:
        yield RecordError(source_name(name), None, "", mistake)
        return
    items = _notation_records(name) if Path(name).suffix.lower() == ".pcn" else iter_records(name)
    for item in items:
        if isinstance(item, DungeonRecord):
            yield RecordError(item.source, item.line, item.pointer + "/format",
                              f"a dungeon record: {SOLO_WANTED}")
        elif isinstance(item, RecordError) and item.pointer.endswith("/format") \
                and "game log" in item.message and SOLO_WANTED not in item.message:
            # worded for verify, which reads dungeon and solo records
            got = item.message.partition("got ")[2].partition(":")[0]
            yield RecordError(item.source, item.line, item.pointer,
                              f"a game log ({got or 'not solo/1'}): {SOLO_WANTED}")
        else:
            yield item


def _notation_records(name: str) -> Iterator[Record | RecordError]:
    """The solo records of a game notation file, each log read as ``adjudicate`` reads it."""
    from pathcheck.inputs.logs import iter_source

    base = Path(name).resolve().parent
    for item in iter_source(name):
        if isinstance(item, RecordError):
            yield item
            continue
        fmt = item.value.get("format") if isinstance(item.value, dict) else None
        if fmt != SOLO_FORMAT:
            yield RecordError(item.source, item.line, "/format",
                              f"a game log ({fmt!r}): {SOLO_WANTED}")
            continue
        try:
            yield record_from_document(item, NO_OVERRIDES, base)
        except RecordError as exc:
            yield exc


def parse_rules_option(text: str | None) -> frozenset[int] | None:
    """``"2,3"`` -> {2, 3}; ``""`` -> no rules; None -> no override."""
    if text is None:
        return None
    rules: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        part = part.lstrip("#")
        if part not in {"1", "2", "3", "4"}:
            raise InputError(f"--rules: {part!r} is not an additional rule (expected 1, 2, 3, 4)")
        rules.add(int(part))
    return frozenset(rules)
