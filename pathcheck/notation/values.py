"""Values in the game notation: how every JSON value of a log is written and read back.

One mechanism for every game (``pathcheck/games/<game>/notation.py`` only choose *where* a
value goes):

- **A name or symbol** is a bare word when it reads back as itself (:func:`word`), else a
  quoted string (:func:`quote`), JSON string syntax.
- **Quoted text** escapes every character that is not printable (line and paragraph
  separators, ``\\r``, ``\\f``, ``\\x85``, controls, format and unassigned characters) as
  ``\\uXXXX``, so a value never breaks a line, and the file stays valid UTF-8 even for a lone
  surrogate, which the reader then refuses, as a JSON log's reader does; reading is JSON string
  decoding.
- **Any other JSON value** is a ``$`` token: ``$`` and the JSON text right after it
  (:func:`literal`), e.g. ``$"2023"``, ``$null``, ``${"tile":"R1","dir":"n"}``. It stands for
  exactly that value wherever a value, a move or a whole log goes. A writer uses it for a value
  its usual form cannot carry (a wrong-typed or malformed one), so that JSON -> notation ->
  JSON is the identity for every log, a malformed one included (:func:`checked`).

>>> quote("a\\u2028b\\rc"), word("Ann"), word("Ann Lee"), word("$5")
('"a\\\\u2028b\\\\rc"', 'Ann', '"Ann Lee"', '"$5"')
>>> literal({"dir": "n", "turn": 3})
'${"dir":"n","turn":3}'
>>> same(1, True), same([1.0], [1.0]), same({"a": 1}, {"a": 1})
(False, True, True)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

LITERAL = "$"
"""The first character of a token holding a JSON value."""
_PLAIN = re.compile(r"^[^\s\"{}#·;$]+$")


def _escape(char: str) -> str:
    return json.dumps(char)[1:-1]  # \uXXXX (a surrogate pair above U+FFFF), or \n, \r ...


def escape_unprintable(json_text: str) -> str:
    """``json_text`` with every character that is not printable escaped (JSON's own syntax;
    outside strings JSON text has only printable ASCII and spaces, which stay)."""
    if json_text.isprintable():
        return json_text
    return "".join(c if c.isprintable() else _escape(c) for c in json_text)


def quote(text: str) -> str:
    """``text`` as a quoted string that holds on one line and reads back exactly.

    >>> quote('a\\\\b/c "d"')
    '"a\\\\\\\\b/c \\\\"d\\\\""'
    >>> json.loads(quote("x\\x85\\f\\u2029y")) == "x\\x85\\f\\u2029y"
    True
    """
    return escape_unprintable(json.dumps(text, ensure_ascii=False))


def word(text: str) -> str:
    """A name as a token: bare when it can be, else quoted.

    >>> word("Ann"), word("Ann Lee"), word("."), word("a\\u00a0b")
    ('Ann', '"Ann Lee"', '"."', '"a\\\\u00a0b"')
    """
    if _PLAIN.match(text) and text != "." and text.isprintable():
        return text
    return quote(text)


def scalar(value: Any, plain: Callable[[str], str] = word) -> str:
    """A value where a name or another string goes: ``plain(value)`` for a string, else (a
    wrong-typed value) its :func:`literal`.

    >>> scalar("Ann"), scalar(3), scalar(None)
    ('Ann', '$3', '$null')
    """
    return plain(value) if isinstance(value, str) else literal(value)


def literal(value: Any) -> str:
    """Any JSON value as one ``$`` token (compact JSON, unprintable characters escaped).

    >>> literal("2023"), literal(None), literal([1, "a b"])
    ('$"2023"', '$null', '$[1,"a b"]')
    """
    return LITERAL + escape_unprintable(json.dumps(value, ensure_ascii=False,
                                                  separators=(",", ":")))


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text}: a number too large for JSON")
    return value


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text}: not a JSON value")


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant)


class Refused(ValueError):
    """A JSON value that is well-formed but past what a log may hold (nested past the limit,
    a key given twice, a lone surrogate): never free text, always an error."""


def read_literal(text: str, start: int = 0) -> tuple[Any, int]:
    """The JSON value that starts at ``text[start]`` (what follows a ``$``) and the index
    after it. ValueError saying why for anything a JSON log may not hold either: text that
    is not JSON, ``NaN``, a number too large; :class:`Refused` (a ValueError) for well-formed
    JSON past a limit: nesting past the limit, a key given twice, a lone surrogate.

    >>> read_literal('{"a":[1,2]} rest')
    ({'a': [1, 2]}, 11)
    >>> read_literal("[" * 100 + "]" * 100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pathcheck.notation.values.Refused: arrays and objects nested deeper than the limit of 64 ...
    """
    from pathcheck.reading.bounded import depth_message, duplicate_keys, duplicate_message, too_deep

    try:
        value, end = _DECODER.raw_decode(text, start)
    except RecursionError:
        raise Refused(depth_message()) from None
    except ValueError as exc:
        raise ValueError(str(exc).split(": line ")[0]) from None
    data = text[start:end].encode("utf-8", errors="surrogatepass")
    if too_deep(data):
        raise Refused(depth_message())
    twice = duplicate_keys(data, value)
    if twice:
        raise Refused(duplicate_message(twice[0]))
    if b"\\u" in data:
        try:  # an escaped lone surrogate (\ud800) is no text: a JSON log may not hold one
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise Refused("a lone surrogate escape (\\uD800-\\uDFFF) is not text") from None
    return value, end


def read_quoted(text: str) -> str:
    """The string a quoted token (all of ``text``, JSON string syntax) stands for.

    >>> read_quoted('"a\\\\b\\u2028"') == "a\\b\u2028"
    True
    """
    value, end = read_literal(text)
    if end != len(text) or not isinstance(value, str):
        raise ValueError("not one JSON string")
    return value


def note(text: str) -> str:
    """A ``{note}`` token (quoted inside when it holds a brace, a quote or anything odd).

    >>> note("kept"), note("a}b"), note("a\\rb")
    ('{kept}', '{"a}b"}', '{"a\\\\rb"}')
    """
    if "}" in text or text.startswith('"') or text != text.strip() or not text.isprintable():
        return "{" + quote(text) + "}"
    return "{" + text + "}"


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same value: equal, and of the same JSON types all
    the way down (``1``, ``1.0`` and ``true`` are three values; key order does not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def checked(value: Any, write: Callable[[Any], str], read: Callable[[str], Any]) -> str:
    """The notation of ``value``: ``write(value)`` when ``read`` gives exactly ``value`` back
    from it, else its :func:`literal`. ``write`` and ``read`` may fail on a malformed value
    (any exception of the kinds a malformed JSON value causes): that is a mismatch too.

    >>> checked("n", str.upper, str)  # the usual form would change the value
    '$"n"'
    >>> checked("N", str.upper, str)
    'N'
    """
    try:
        text = write(value)
        if same(read(text), value):
            return text
    except (KeyError, IndexError, TypeError, AttributeError, ValueError):
        pass
    return literal(value)


def pretty_json(value: Any, indent: str = "", width: int = 100) -> str:
    """JSON with each object or array on one line when it fits in ``width``.

    >>> print(pretty_json({"players": ["Ann", "Bob"], "turns": [{"tile": "R1"}] * 2}, width=30))
    {
      "players": ["Ann", "Bob"],
      "turns": [
        {"tile": "R1"},
        {"tile": "R1"}
      ]
    }
    """
    flat = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(flat) <= width or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: "
                 f"{pretty_json(v, inner, width).lstrip()}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + pretty_json(v, inner, width).lstrip() for v in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"
