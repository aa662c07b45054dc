"""The C fast path of batch verification: whole-line blocks of JSON Lines or ``.dgn`` verified
by :mod:`pathcheck.speedups` (on threads: it lets go of the GIL), the lines it leaves handed
back to :func:`pathcheck.batch.items.process_item`. The results are :class:`Block` values of
JSON Lines bytes with their counts per Lost reason.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from pathcheck.batch.items import (
    DGN_LINE,
    ERROR,
    JSON_LINE,
    Item,
    Rendered,
    Settings,
    Task,
    oversized_item,
    process_item,
)
from pathcheck.errors import IOFailure, RecordError
from pathcheck.inputs.records import NOT_RULED, dgn_blank, pragma_line, pragma_settings
from pathcheck.reading.bounded import Oversized, line_blocks
from pathcheck.reading.reader import Shape, folder_of, open_source, shape_by_name

if TYPE_CHECKING:
    from pathcheck import speedups


class Block(NamedTuple):
    """Results of many JSON Lines records verified by the fast path, as JSON Lines bytes."""

    data: bytes
    counts: list[int]
    """Records per reason code of :data:`pathcheck.tracer.constants.REASONS` (0: held)."""
    size: int




def block_results(task: Task, settings: Settings) -> list[Rendered | Block]:
    """The results of a task holding a block (``task.block``), in input order: counts and
    size go with the first :class:`Block` only, so that nothing is counted twice."""
    from pathcheck import speedups

    base = str(folder_of(task.source))  # relative tile sets start beside the file

    def fallback(raw: bytes, line: int) -> Rendered:
        return process_item(Item(JSON_LINE, task.source, line, raw, "", base, len(raw)),
                            settings)

    codes = speedups.overrides_codes(settings.overrides.rules, settings.overrides.advanced)
    prefix = speedups.prefix_for(task.source)
    if task.pragma is not None:
        pieces, counts = speedups.fast_dgn_block(task.block, task.first_line, prefix, codes,
                                                 task.pragma, _dgn_fallback(task, settings))
    else:
        pieces, counts = speedups.fast_block(task.block, task.first_line, prefix, codes,
                                             fallback)
    results: list[Rendered | Block] = [Block(b"", counts, len(task.block))]
    for piece in pieces:
        results.append(Block(piece, [0] * len(counts), 0) if isinstance(piece, bytes) else piece)
    return results


def _dgn_fallback(task: Task, settings: Settings) -> speedups.DgnFallback:
    """The Python path for the .dgn lines the C reader leaves, as :func:`_dgn_items` reads
    them."""

    def fallback(raw: bytes, line: int, state: tuple[bytes, bytes]
                 ) -> tuple[Rendered | None, tuple[bytes, bytes]]:
        pragma = pragma_line(raw)
        if pragma is not None:
            pragma = pragma.rstrip(b"\r\n")
            try:
                pragma_settings(pragma, task.source, line)
            except RecordError as exc:  # reported, and the records after it are not ruled
                return process_item(Item(ERROR, task.source, line, exc), settings), (pragma,
                                                                                      state[1])
            return None, (pragma, pragma)
        if dgn_blank(raw):
            return None, state
        if state[0] != state[1]:  # the last #! line was wrong (records.dgn_lines)
            error = RecordError(task.source, line, "", NOT_RULED)
            return process_item(Item(ERROR, task.source, line, error), settings), state
        defaults = _settings_of(state[1], task.source)
        item = Item(DGN_LINE, task.source, line, raw, "", defaults, len(raw))
        return process_item(item, settings), state

    return fallback


@functools.lru_cache(maxsize=64)
def _settings_of(pragma: bytes, source: str) -> dict[str, Any]:
    """The settings of a ``#!`` line known to be valid (b"": none)."""
    return pragma_settings(pragma, source, 0) if pragma else {}


_PRAGMA_LINE = re.compile(rb"^[ \t]*(?:\xef\xbb\xbf)?(#![^\r\n]*)", re.MULTILINE)
WRONG_PRAGMA = b"#!\0"
"""The state's last ``#!`` line after one too long to read: wrong, so nothing is ruled under
the settings before it."""


def _last_pragma(block: bytes, source: str, state: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
    """The state of a .dgn file after ``block`` (see :data:`speedups.DgnState`) if it was
    ``state`` before: the last ``#!`` line and the last valid one (``#!`` lines after spaces
    or a byte order mark too, as :func:`pathcheck.inputs.records.pragma_line` finds them)."""
    last = b""
    for match in reversed(list(_PRAGMA_LINE.finditer(block))):
        raw = match.group(1)
        last = last or raw
        try:
            pragma_settings(raw, source, 0)
        except RecordError:
            continue
        return last, raw
    return (last, state[1]) if last else state


def fast_path_for(path: str, settings: Settings) -> bool:
    """Whether ``path`` can go through the C fast path (JSON Lines or .dgn in, JSON Lines
    out)."""
    if (settings.output != "jsonl" or settings.svg_dir or settings.graph_dir
            or settings.inline_pictures or settings.overrides.tileset not in (None, "standard")):
        return False
    if shape_by_name(path) not in (Shape.JSON_LINES, Shape.DGN):
        return False
    from pathcheck import speedups

    return speedups.available()


def block_tasks(path: str) -> Iterator[Task]:
    """Whole-line blocks of a JSON Lines or .dgn file with the number of their first line
    (.dgn: and the ``#!`` line in force at its start)."""
    pragma = (b"", b"") if shape_by_name(path) is Shape.DGN else None
    try:
        stream = open_source(path)
    except IOFailure as exc:
        yield Task([Item(ERROR, path, 0, exc)])
        return
    line = 1
    with stream:
        for block in line_blocks(stream):
            if isinstance(block, Oversized):
                yield Task([oversized_item(path, line, block)])
                line += 1
                if pragma is not None and pragma_line(block.head) is not None:
                    pragma = (WRONG_PRAGMA, pragma[1])
                continue
            yield Task([], block, line, path, pragma)
            line += block.count(b"\n")
            if pragma is not None:
                pragma = _last_pragma(block, path, pragma)
