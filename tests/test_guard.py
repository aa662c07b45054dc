"""The reader's one-pass guard (``bounded.guard``: depth and repeated keys) in C agrees with
the plain Python functions it stands in for, on valid JSON and on hostile bytes alike; and a
record read through either gives the same Document or the same error.

``.ci/sanitize`` runs this file against the extension built with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import importlib.util
import json
import os
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathcheck.reading import bounded
from pathcheck.reading.bounded import MAX_DEPTH, Guard, duplicate_keys, guard, too_deep
from pathcheck.reading.reader import decode_value

_c: Any = getattr(bounded, "_json_guard")  # noqa: B009  (private, not exported)
needs_c = pytest.mark.skipif(_c is None, reason="the C extension is not built")


def test_the_guard_is_the_c_one_where_the_extension_is_built() -> None:
    """The reader imports the extension while pathcheck.reading loads: an import that fails
    there (a circle through a package's __init__) would silently leave the guard in Python."""
    if importlib.util.find_spec("pathcheck._speedups") is None:
        assert os.environ.get("PATHCHECK_REQUIRE_SPEEDUPS") != "1", "the extension is not built"
        return
    from pathcheck import _speedups

    assert _c is _speedups.json_guard

KEYS = st.sampled_from(["a", "b", "tile", "dir", "é", "a\\u0062", "\\u0061", "a\\\"", ""])
SPICE = [b"[", b"]", b"{", b"}", b'"', b"\\", b":", b",", b" ", b"\n", b"\x00", b"\xff",
         b'"a":', b'"a" :', b"\\u0061"]


def _json(draw: st.DrawFn, depth: int) -> bytes:
    """A JSON text (keys may repeat; escapes kept raw) with random spacing."""
    space = draw(st.sampled_from([b"", b" ", b"\n", b"\t ", b"\r\n"]))
    kind = draw(st.integers(0, 3 if depth < MAX_DEPTH + 3 else 0))
    if kind == 0:
        return draw(st.sampled_from([b"1", b"null", b'"x"', b'"a"', b'"\\"{"', b"true"]))
    if kind == 1:
        items = [_json(draw, depth + 1) for _ in range(draw(st.integers(0, 3)))]
        return b"[" + space + (b"," + space).join(items) + b"]"
    pairs = []
    for _ in range(draw(st.integers(0, 4))):
        key = draw(KEYS).encode()
        pairs.append(b'"' + key + b'"' + space + b":" + space + _json(draw, depth + 1))
    return b"{" + space + b",".join(pairs) + space + b"}"


@st.composite
def texts(draw: st.DrawFn) -> bytes:
    data = bytearray(_json(draw, 0))
    if draw(st.booleans()):
        data[0:0] = b"[" * draw(st.integers(0, MAX_DEPTH + 2))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            data[at:at] = draw(st.sampled_from(SPICE) | st.binary(max_size=3))
        else:
            del data[at:at + draw(st.integers(1, 4))]
    return bytes(data)


@needs_c
@given(texts())
def test_c_guard_agrees_with_python(data: bytes) -> None:
    answer = _c(data, MAX_DEPTH)
    assert (answer == Guard.TOO_DEEP) == too_deep(data)
    try:
        value = msgspec.json.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return  # the decoder's own error is reported; the key answer is not used
    if answer == Guard.CLEAR:
        assert duplicate_keys(data, value) == []


@needs_c
@given(texts(), st.integers(0, 80))
def test_c_guard_depth_at_any_limit(data: bytes, limit: int) -> None:
    assert (_c(data, limit) == Guard.TOO_DEEP) == too_deep(data, limit)


@given(texts())
def test_records_read_the_same_with_and_without_c(data: bytes) -> None:
    fast = decode_value(data, "f.jsonl", 3, "")
    with mock.patch.object(bounded, "_json_guard", None):
        plain = decode_value(data, "f.jsonl", 3, "")
    assert repr(fast) == repr(plain)


@pytest.mark.parametrize("text, expected", [
    (b'{"a": 1, "a": 2}', Guard.MAY_REPEAT),
    (b'{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}', Guard.CLEAR),
    (b'{"a": 1, "b": {"c": 1, "c": 2}}', Guard.MAY_REPEAT),
    (b'{"\\u0061": 1}', Guard.MAY_REPEAT),  # an escape: Python decides
    (b'["a", "a", {"x": "a"}]', Guard.CLEAR),
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), Guard.TOO_DEEP),
    (b'"' + b"[" * 100 + b'"', Guard.CLEAR),  # brackets in a string do not nest
    (json.dumps({f"k{i}": i for i in range(5000)}).encode(), Guard.MAY_REPEAT),  # too many
])
def test_guard_examples(text: bytes, expected: Guard) -> None:
    got = guard(text)
    assert got == expected if _c is not None else got in (expected, Guard.MAY_REPEAT)


def test_a_repeated_key_is_reported_either_way() -> None:
    for json_guard in (_c, None):
        with mock.patch.object(bounded, "_json_guard", json_guard):
            error = decode_value(b'{"tiles": [], "b": {"c": 1, "c": 2}}', "f.jsonl", 7, "")
        assert str(error).startswith("f.jsonl:7: /b/c: key 'c' appears twice in one object")


@needs_c
@pytest.mark.parametrize("args", [(b"{}", -1), (b"{}", 5000), ("{}", 4), (b"{}",), (None, 4)])
def test_c_guard_rejects_bad_arguments(args: tuple[Any, ...]) -> None:
    with pytest.raises((ValueError, TypeError)):
        _c(*args)
