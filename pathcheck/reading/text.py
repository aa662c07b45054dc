r"""The one reader of text input: lines, numbers and strict UTF-8, with the limits of JSON.

Every input read as text (game notation ``*.pcn``, the settings of a ``.dgn`` ``#!`` line, the
log ``record --resume`` goes on with) goes through here, so that each has the guarantees the
JSON readers have (docs/cli.md, Limits):

- **lines** end at ``\n``, ``\r\n`` or ``\r`` only, never at U+2028, U+0085, a form feed or
  the other characters :meth:`str.splitlines` also breaks at: those are ordinary characters,
  so text after one in a ``#`` comment stays in the comment, and line numbers are an
  editor's;
- **text** is strict UTF-8: a byte that is not is an error naming the line and column, a NUL
  byte means binary data (the rest of the input is not read);
- **numbers** are ASCII digits only, at most :data:`~pathcheck.reading.bounded.MAX_DIGITS` of them
  (no superscripts, no Arabic-Indic digits, no 5,000-digit numbers);
- **size**: a line, and a log of several lines, is at most
  :data:`~pathcheck.reading.bounded.MAX_RECORD_BYTES`; the input is read in blocks, never whole.

>>> split_lines("a\u2028b\r\nc\rd\x0ce\n")
['a\u2028b', 'c', 'd\x0ce']
>>> ascii_number("42"), ascii_number("²"), ascii_number("٣"), ascii_number("9" * 5000)
(42, None, None, None)
>>> [(n, raw) for n, raw in raw_lines(io.BytesIO(b"a\r\nb\rc\n\nd"), "x")]
[(1, b'a'), (2, b'b'), (3, b'c'), (4, b''), (5, b'd')]
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import NamedTuple

from pathcheck.errors import IOFailure, RecordError, cannot_read
from pathcheck.reading.bounded import (
    BLOCK_SIZE,
    MAX_DIGITS,
    MAX_RECORD_BYTES,
    Readable,
    UnfitFile,
    read_regular,
)
from pathcheck.reading.reader import BOM

_EOL = re.compile(rb"\r\n|\r|\n")
_EOL_TEXT = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")


class TextError(RecordError):
    """Text that cannot be read: file, line, column and what is wrong.

    >>> str(TextError("g.pcn", 3, 7, "not UTF-8 text (byte 0xff)"))
    'g.pcn:3:7: not UTF-8 text (byte 0xff)'
    """

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        self.column = column
        super().__init__(source, line, "", message)

    def __reduce__(self) -> tuple[type[TextError], tuple[str, int, int, str]]:  # type: ignore[override]
        return type(self), (self.source, self.line or 0, self.column, self.message)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "column": self.column}


class Line(NamedTuple):
    """One line of text as read: its number (from 1) and its bytes, without the line end."""

    number: int
    raw: bytes


def ascii_number(text: str) -> int | None:
    """The number ``text`` spells in ASCII digits (at most MAX_DIGITS of them), else None."""
    return int(text) if _DIGITS.fullmatch(text) else None


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, ended by ``\\n``, ``\\r\\n`` or ``\\r`` only (a last line
    without its end is a line; an empty text has none)."""
    lines = _EOL_TEXT.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def raw_lines(stream: Readable, source: str, first_line: int = 1,
              limit: int | None = None) -> Iterator[Line | TextError]:
    """The lines of ``stream``, read in blocks: a line longer than ``limit`` (default
    MAX_RECORD_BYTES) or a NUL byte is one TextError, and the last item: the rest of such an
    input (a binary file, ``/dev/zero``) is not read."""
    limit = MAX_RECORD_BYTES if limit is None else limit
    read = getattr(stream, "read1", stream.read)
    buf = bytearray()
    line = first_line
    while True:
        data = read(BLOCK_SIZE)
        eof = not data
        nul = data.find(b"\0")
        if nul >= 0:
            data = data[:nul + 1]
        scanned = len(buf)
        buf += data
        start = 0
        for match in _EOL.finditer(buf, max(0, scanned - 1)):
            if match.end() == len(buf) and match.group() == b"\r" and not eof and nul < 0:
                break  # perhaps the \r of a \r\n cut by the block
            if match.start() - start > limit:
                break
            yield Line(line, bytes(buf[start:match.start()]))
            line += 1
            start = match.end()
        del buf[:start]
        end = _EOL.search(buf)
        if (len(buf) if end is None else end.start()) > limit:
            yield TextError(source, line, 1, f"line longer than the limit of {limit} bytes "
                            "(see Limits in docs/cli.md; the rest of the input is not read)")
            return
        if nul >= 0:
            at = buf.find(b"\0")
            yield _error(source, line, bytes(buf[:at]), "a NUL byte: binary data, not text "
                         "(the rest of the input is not read)")
            return
        if eof:
            if buf:
                yield Line(line, bytes(buf))
            return


def _error(source: str, line: int, before: bytes, message: str) -> TextError:
    """A TextError at the character after the bytes ``before`` of its line."""
    return TextError(source, line, len(before.decode("utf-8", errors="replace")) + 1, message)


_LONE_CR = re.compile(rb"\r(?!\n|$)")


def lone_carriage_return(raw: bytes) -> int:
    r"""The index of the first ``\r`` of the line ``raw`` (its ``\n`` or ``\r\n`` end
    included) that neither is the line's end nor starts a ``\r\n``; -1 if none.

    >>> [lone_carriage_return(raw) for raw in (b"a\r\n", b"a\r", b"a\rb")]
    [-1, -1, 1]
    """
    found = _LONE_CR.search(raw)
    return -1 if found is None else found.start()


def decode(line: Line, source: str) -> str:
    """The text of a line read by :func:`raw_lines`: strict UTF-8, else a TextError naming
    the column of the first byte that is not."""
    try:
        return line.raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = line.raw[exc.start:exc.start + 1].hex()
        raise _error(source, line.number, line.raw[:exc.start],
                     f"not UTF-8 text (byte 0x{bad})") from None


def read_text_file(name: str, source: str | None = None, *, regular: bool = True) -> str:
    """The whole text of the file ``name`` (a byte order mark at its start skipped), its
    lines ended by ``\\n``: at most MAX_RECORD_BYTES, strict UTF-8 (TextError otherwise),
    read in blocks (``/dev/zero`` is one error). ``regular``: it must be a regular file
    (:func:`~pathcheck.reading.bounded.read_regular`: a FIFO, a device, a larger file is an
    IOFailure, nothing blocks), as a file pathcheck reads whole and writes back (``record
    --resume``); else anything that can be read (a FIFO is waited on, as ``cat`` does:
    ``--tileset FILE``)."""
    source = name if source is None else source
    try:
        stream = io.BytesIO(read_regular(name, MAX_RECORD_BYTES)) if regular \
            else open(name, "rb")  # noqa: SIM115 - closed below
    except UnfitFile as exc:
        raise IOFailure(f"{source}: cannot read: {exc.reason}") from None
    except OSError as exc:
        raise cannot_read(source, exc) from exc
    with stream:
        lines: list[str] = []
        size = 0
        try:
            for item in raw_lines(stream, source):
                if isinstance(item, TextError):
                    raise item
                size += len(item.raw) + 1
                if size > MAX_RECORD_BYTES:
                    raise TextError(source, item.number, 1, "longer than the limit of "
                                    f"{MAX_RECORD_BYTES} bytes (see Limits in docs/cli.md)")
                raw = item.raw.removeprefix(BOM) if item.number == 1 else item.raw
                lines.append(decode(Line(item.number, raw), source))
        except OSError as exc:
            raise IOFailure(f"{source}: cannot read: {exc.strerror or exc}") from exc
    return "".join(x + "\n" for x in lines)
