"""Files pathcheck reads on its own, not named on the command line (a census's files, a tile
set a log names): regular files of bounded size only, opened without blocking, and gzip data
decompressed within a bound (docs/cli.md, Limits)."""

from __future__ import annotations

import os
import stat
import zlib

from pathcheck.errors import InputError


class UnfitFile(InputError):
    """A file pathcheck reads on its own (not named on the command line: a census's files, a
    tile set a log names) that is not a regular file, or is larger than its limit;
    ``reason`` says which, without the file's name."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.reason = reason
        super().__init__(f"{os.fsdecode(path)}: {reason}")


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes.

    Opened without blocking (``O_NONBLOCK``, then ``fstat``): a FIFO never hangs, and a
    device (a symbolic link to ``/dev/zero``) or a directory is refused before a byte is read.
    :class:`UnfitFile` for such a file or one too large; OSError (FileNotFoundError ...) when
    it cannot be opened or read, for the caller to name.

    >>> read_regular("/dev/zero", 10)
    Traceback (most recent call last):
      ...
    pathcheck.reading.regular_files.UnfitFile: /dev/zero: not a regular file (a character device)
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnfitFile(path, f"not a regular file ({_kind(info.st_mode)})")
        if info.st_size > limit:
            raise UnfitFile(path, _larger(limit))
        stream = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with stream:
        data = stream.read(limit + 1)
    if len(data) > limit:  # it grew since fstat
        raise UnfitFile(path, _larger(limit))
    return data


def _larger(limit: int) -> str:
    return f"larger than the limit of {limit} bytes (see Limits in docs/cli.md)"


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a file")


def gunzip(data: bytes, limit: int) -> bytes:
    """The one gzip member ``data`` holds, decompressed to at most ``limit`` bytes (a small
    "gzip bomb" never takes more memory than that). ValueError when it would be larger, is
    cut short or is followed by more bytes; zlib.error when it is not gzip data.

    >>> import gzip
    >>> gunzip(gzip.compress(b"held"), 4)
    b'held'
    >>> gunzip(gzip.compress(bytes(10**6)), 1000)
    Traceback (most recent call last):
      ...
    ValueError: it decompresses to more than the limit of 1000 bytes
    """
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip header and trailer
    out = inflate.decompress(data, limit + 1)
    if len(out) > limit:
        raise ValueError(f"it decompresses to more than the limit of {limit} bytes")
    if not inflate.eof:
        raise ValueError("the compressed data is cut short")
    if inflate.unused_data:
        raise ValueError("bytes after the end of the compressed data")
    return out
