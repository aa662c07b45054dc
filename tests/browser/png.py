"""Just enough PNG decoding to count pixels of a screenshot (8-bit RGB/RGBA, not interlaced).

>>> import zlib, struct
>>> raw = b"\\x00" + bytes([213, 94, 0, 255, 255, 255])
>>> def chunk(kind, data):
...     return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", 0)
>>> png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0))
...        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
>>> count_colour(png, (213, 94, 0))
1
"""

from __future__ import annotations

import struct
import zlib


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def pixels(png: bytes) -> list[tuple[int, int, int]]:
    """Every pixel's RGB, row by row."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += data
    raw = zlib.decompress(idat)
    stride = width * channels
    out: list[tuple[int, int, int]] = []
    previous = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            add = (0, left, up, (left + up) // 2, _paeth(left, up, corner))[filt]
            line[i] = (line[i] + add) & 0xFF
        out.extend((line[i], line[i + 1], line[i + 2]) for i in range(0, stride, channels))
        previous = line
    return out


def count_colour(png: bytes, rgb: tuple[int, int, int], tolerance: int = 12) -> int:
    """How many pixels are within ``tolerance`` of ``rgb`` in every channel."""
    return sum(1 for p in pixels(png)
               if all(abs(a - b) <= tolerance for a, b in zip(p, rgb, strict=True)))
