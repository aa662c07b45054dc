"""Where the results of ``adjudicate`` and ``analyse`` go: one framing of the output formats
(:class:`Results`), written by this process or, for ``-j N`` over regular JSON Lines files,
straight by the worker processes in input order (:mod:`pathcheck.batch.baton`).

>>> import io
>>> out = io.BytesIO()
>>> results = Results(out, "json")
>>> results.add(b'{"a": 1}'); results.add(b'{"b": 2}'); results.close()
>>> out.getvalue()
b'[\\n{"a": 1},\\n{"b": 2}\\n]\\n'
>>> out = io.BytesIO()
>>> results = Results(out, "jsonl")
>>> results.add(b'{"a": 1}'); results.add(b'{"b": 2}'); results.close()
>>> out.getvalue() == framed("jsonl", True, b'{"a": 1}') + framed("jsonl", False, b'{"b": 2}')
True
>>> Results(io.BytesIO(), "jsonl").direct_fd() is None  # no file descriptor: written here
True
"""

from __future__ import annotations

import io
import sys
from typing import Any


def framed(output_format: str, first: bool, text: bytes) -> bytes:
    """``text`` as :meth:`Results.add` writes it when ``first`` says whether it is the first.

    >>> framed("text", True, b"a"), framed("text", False, b"b"), framed("jsonl", False, b"c")
    (b'a', b'\\n\\nb', b'c\\n')
    """
    if output_format == "json":
        return (b"\n" if first else b",\n") + text
    if output_format == "jsonl":
        return text + b"\n"
    return text if first else b"\n\n" + text


class Results:
    """Results written to ``out`` one after another as ``output_format`` frames them: a JSON
    array (``json``), one a line (``jsonl``), or text blocks a blank line apart (``text``);
    :meth:`close` ends the frame. One framing for ``adjudicate`` and ``analyse``."""

    def __init__(self, out: Any, output_format: str) -> None:
        self.out, self.format, self.first = out, output_format, True
        if output_format == "json":
            out.write(b"[")

    def add(self, text: bytes) -> None:
        # A result of tens of kB is written as it is, not copied into a new bytes only to
        # frame it (what framed does, for the -j N writers, which join a task's results).
        if self.format == "jsonl":
            self.out.write(text)
            self.out.write(b"\n")
        elif self.format == "json":
            self.out.write(b"\n" if self.first else b",\n")
            self.out.write(text)
        else:
            self.out.write(framed(self.format, self.first, text))
        self.first = False

    def close(self) -> None:
        if self.format == "json":
            self.out.write(b"]\n" if self.first else b"\n]\n")
        elif self.format == "text" and not self.first:
            self.out.write(b"\n")

    def direct_fd(self) -> int | None:
        """The file descriptor other processes may write the next results to, after what
        this one buffered is flushed; None when ``out`` has none (a test's BytesIO, a
        wrapped stream) or on a system where descriptors cannot be handed to workers."""
        if sys.platform == "win32":
            return None
        try:
            fd = int(self.out.fileno())
            self.out.flush()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return None
        return fd

    def failure(self, exc: OSError) -> BaseException:
        """What writing to ``out`` raises for ``exc`` (a worker's write failed): the writer's
        own error (an :class:`pathcheck.output.AtomicWriter` names its file), else ``exc``."""
        convert = getattr(self.out, "failure", None)
        return exc if convert is None or isinstance(exc, BrokenPipeError) else convert(exc)
