"""Where the parts of a log read from game notation were written: :class:`Places` maps JSON
pointers to lines, compactly (split from :mod:`pathcheck.notation`, which re-exports it)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

from pathcheck.reading.text import ascii_number


@dataclass(frozen=True, slots=True)
class Places:
    """Where the parts of a log read from notation were written: the line of each turn,
    round and exploration (each dict or list a game's reader noted with :meth:`Reader.at`),
    by JSON pointer. The items of a list are one array of lines (a 16 MB log holds about a
    million turns: a pointer string for each would weigh more than the log)."""

    named: dict[str, int] = field(default_factory=dict)
    """pointer -> line, for a part that is not an item of a list."""
    items: dict[str, array[int]] = field(default_factory=dict)
    """pointer of a list -> the line of each of its items (0: not noted)."""

    def line_of(self, pointer: str, default: int) -> int:
        """The line of the deepest part of the log that holds ``pointer`` (else ``default``)."""
        while pointer:
            if pointer in self.named:
                return self.named[pointer]
            parent, _, last = pointer.rpartition("/")
            lines = self.items.get(parent)
            index = ascii_number(last)
            if lines is not None and index is not None and index < len(lines) and lines[index]:
                return lines[index]
            pointer = parent
        return default


def places_of(log: dict[str, Any], spots: dict[int, int]) -> Places:
    """The Places of the parts of ``log`` whose id() ``spots`` notes."""
    places = Places()
    pending: list[tuple[Any, str]] = [(log, "")]
    while pending:
        value, pointer = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, dict | list):
                    inner = pointer + "/" + str(key).replace("~", "~0").replace("/", "~1")
                    if id(item) in spots:
                        places.named[inner] = spots[id(item)]
                    pending.append((item, inner))
        else:
            inner_parts = [(i, item) for i, item in enumerate(value)
                           if isinstance(item, dict | list)]
            if not inner_parts:
                continue
            lines = array("q", bytes(8 * len(value)))
            for i, item in inner_parts:
                lines[i] = spots.get(id(item), 0)
                pending.append((item, f"{pointer}/{i}"))
            if any(lines):
                places.items[pointer] = lines
    return places


def line_of(where: Places, pointer: str, default: int) -> int:
    """The line of the deepest part of the log that holds ``pointer`` (else ``default``)."""
    return where.line_of(pointer, default)
