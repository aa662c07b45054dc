"""A game-log format defined once: typed msgspec structures, their JSON Schema and the reader.

Each game's ``log.py`` describes its format as :class:`msgspec.Struct` types and wraps the
top one in a :class:`LogFormat`. That one definition

- checks a decoded log at decode speed (:meth:`LogFormat.read`), turning msgspec's path
  (``$.explorations[0].turns[2].dir``) into the JSON pointer of the project's error messages
  (``/explorations/0/turns/2/dir``), dictionary keys included;
- publishes the JSON Schema (``pathcheck schema NAME``, :meth:`LogFormat.json_schema`):
  :func:`msgspec.json.schema` plus what msgspec cannot express (``uniqueItems``, conditions
  between fields), added in one place, the format's ``extras``.

What the types cannot say (a player who is not at the table, two equal names, a deal that is
not the tile set) stays in the game's reader as code; :func:`unique` words the commonest one.

>>> Turn = msgspec.defstruct("Turn", [("tile", str)], forbid_unknown_fields=True)
>>> Log = msgspec.defstruct("Log", [("format", str), ("turns", dict[str, list[Turn]])])
>>> DEMO = LogFormat("demo", Log, title="A demo log")
>>> DEMO.read({"format": "demo/1", "turns": {"Ann": [{"tile": "R1"}]}}, source="d").turns
{'Ann': [Turn(tile='R1')]}
>>> DEMO.read({"format": "demo/1", "turns": {"Ann": [], "Bob": [{"tile": 7}]}}, source="d")
Traceback (most recent call last):
  ...
pathcheck.errors.RecordError: d: /turns/Bob/0/tile: Expected `str`, got `int`
>>> DEMO.decode(b'{"format": "demo/1", "turns": {"Ann": []}}').turns, DEMO.decode(b'{}')
({'Ann': []}, None)
>>> DEMO.json_schema()["title"], DEMO.json_schema()["required"]
('A demo log', ['format', 'turns'])
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec
import msgspec.inspect as mi

from pathcheck.errors import RecordError, pointer_join

S = TypeVar("S", bound=msgspec.Struct)

_SEGMENT = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\.\.\.)\]")
_ANY_KEY = "..."
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True)
class LogFormat(Generic[S]):
    """One log format: its schema ``name`` (``pathcheck schema NAME``), the top Struct and
    what the JSON Schema adds to msgspec's (``extras``: JSON pointer into the schema -> the
    keywords merged there, e.g. ``{"/properties/players": {"uniqueItems": True}}``)."""

    name: str
    struct: type[S]
    title: str = ""
    description: str = ""
    extras: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def read(self, log: Any, *, source: str) -> S:
        """``log`` (a decoded JSON value) as the typed structure; RecordError (line None)
        naming the JSON pointer and what was expected if it does not fit."""
        try:
            return msgspec.convert(log, self.struct)
        except msgspec.ValidationError as exc:
            pointer, message = locate(log, self.struct, str(exc))
            raise RecordError(source, None, pointer, message) from None

    def decode(self, data: bytes) -> S | None:
        """The JSON text ``data`` decoded straight into the typed structure (no dict is made
        on the way), or None if it does not fit: the caller then reads the text the usual way
        (:meth:`read`), which words the error. The text must have passed the reader's guard
        (:func:`pathcheck.reading.bounded.guard`: no key given twice, not too deep). See the
        module's example."""
        try:
            value: S = self._decoder.decode(data)
        except (msgspec.DecodeError, UnicodeDecodeError):  # ValidationError is a DecodeError
            return None
        return value

    @functools.cached_property
    def _decoder(self) -> msgspec.json.Decoder[S]:
        return msgspec.json.Decoder(self.struct)

    def json_schema(self) -> dict[str, Any]:
        """The published JSON Schema: msgspec's, flattened to the top struct, plus extras."""
        generated = msgspec.json.schema(self.struct)
        defs: dict[str, Any] = generated.get("$defs", {})
        top_name = generated["$ref"].rsplit("/", 1)[1]
        top = defs.pop(top_name)
        schema: dict[str, Any] = {"$schema": SCHEMA_DIALECT, "title": self.title or top_name}
        if self.description:
            schema["description"] = self.description
        schema.update((k, v) for k, v in top.items() if k not in ("title", "description"))
        fmt = schema.get("properties", {}).get("format", {})
        if len(fmt.get("enum", ())) == 1:  # a Literal of one value is a JSON Schema const
            fmt["const"] = fmt.pop("enum")[0]
        if defs:
            schema["$defs"] = defs
        text = msgspec.json.encode(schema).replace(
            f'"#/$defs/{top_name}"'.encode(), b'"#"')
        schema = msgspec.json.decode(text)
        for where, keywords in self.extras.items():
            node = schema
            for part in where.strip("/").split("/") if where.strip("/") else []:
                node = node.setdefault(part.replace("~1", "/").replace("~0", "~"), {})
            node.update(copy.deepcopy(dict(keywords)))
        return schema


def locate(log: Any, struct: type[Any], error: str) -> tuple[str, str]:
    """The JSON pointer and message of msgspec's validation ``error`` on ``log``.

    msgspec writes a dictionary key as ``[...]``; the key is found again by converting the
    log with only one entry of that dictionary at a time (errors are rare: this costs one
    conversion per key, only then).
    """
    message, _, path = error.partition(" - at `")
    path = path.rstrip("`")
    segments: list[str | int] = []
    for name, index in _SEGMENT.findall(path[1:] if path.startswith("$") else path):
        segments.append(name if name else (_ANY_KEY if index == _ANY_KEY else int(index)))
    for i, segment in enumerate(segments):
        if segment == _ANY_KEY:
            segments[i] = _failing_key(log, struct, segments[:i], error)
    message = _explain(message, _type_at(mi.type_info(struct), segments))
    return pointer_join("", *segments), message


def _value_at(value: Any, path: Iterable[str | int]) -> Any:
    for part in path:
        value = value[part]
    return value


def _failing_key(log: Any, struct: type[Any], prefix: list[str | int], error: str) -> str:
    """The key of the dictionary at ``prefix`` whose entry alone reproduces ``error``."""
    holder = _value_at(log, prefix)
    for key in holder:
        trial = _replace(log, prefix, {key: holder[key]})
        try:
            msgspec.convert(trial, struct)
        except msgspec.ValidationError as exc:
            if str(exc) == error:
                return str(key)
    return str(next(iter(holder), _ANY_KEY))


def _replace(value: Any, path: list[str | int], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    out: Any = list(value) if isinstance(value, list) else dict(value)
    out[head] = _replace(value[head], rest, new)
    return out


def _type_at(info: Any, path: list[str | int]) -> Any:
    """The msgspec.inspect type at ``path`` (None when a union makes it ambiguous)."""
    for part in path:
        info = _strip(info)
        if isinstance(info, mi.UnionType):
            info = next((t for t in info.types if isinstance(_strip(t), _CONTAINERS)), None)
            info = _strip(info)
        if isinstance(info, mi.StructType) and isinstance(part, str):
            info = next((f.type for f in info.fields if f.encode_name == part), None)
        elif isinstance(info, mi.DictType):
            info = info.value_type
        elif isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
            info = info.item_type
        else:
            return None
    return _strip(info)


_CONTAINERS = (mi.StructType, mi.DictType, mi.ListType, mi.VarTupleType)


def _strip(info: Any) -> Any:
    return info.type if isinstance(info, mi.Metadata) else info


def _explain(message: str, info: Any) -> str:
    """msgspec's message, with the allowed values spelled out for an enum."""
    if not message.startswith("Invalid enum value "):
        return message
    allowed: list[Any] = []
    for member in info.types if isinstance(info, mi.UnionType) else (info,):
        member = _strip(member)
        if isinstance(member, mi.LiteralType):
            allowed.extend(member.values)
        elif isinstance(member, mi.EnumType):
            allowed.extend(m.value for m in member.cls)
    if not allowed:
        return message
    got = message[len("Invalid enum value "):]
    return f"{got} is not one of {', '.join(repr(v) for v in allowed)}"


def unique(values: Iterable[Any], *, source: str, pointer: str) -> None:
    """RecordError at ``pointer`` if ``values`` holds an element twice (JSON Schema's
    ``uniqueItems``, which msgspec does not check).

    >>> unique(["Ann", "Bob", "Ann"], source="log", pointer="/players")
    Traceback (most recent call last):
      ...
    pathcheck.errors.RecordError: log: /players: 'Ann' is there twice: the items must be unique
    """
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise RecordError(source, None, pointer,
                              f"{value!r} is there twice: the items must be unique")
        seen.add(value)

