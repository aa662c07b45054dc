"""Files pathcheck reads on its own, not named on the command line (issue 20, point 5): a tile
set a game log names (adjudicate, record --resume, the recorder's Tab completion) must be a
regular file of bounded size in the log's own folder, opened without blocking. (The census's
own files: tests/test_census_files.py.)"""

from __future__ import annotations

import contextlib
import gzip
import importlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from pathcheck.reading import bounded
from pathcheck.reading.bounded import UnfitFile, gunzip, read_regular
from pathcheck.recorder import Recording

cli: click.Command = importlib.import_module("pathcheck.cli").cli
record = importlib.import_module("pathcheck.cli.record")
STANDARD = Path(__file__).resolve().parent.parent / "tiles" / "standard.toml"
LOG = """#! game/1
players: Ann Bob
mode: basic
rules: none
tileset: {name}
exploration Ann
"""


@contextlib.contextmanager
def no_hang(seconds: int = 30) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block blocks, e.g. opening a FIFO."""
    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def unfit(folder: Path, kind: str) -> str:
    """A tile-set name in ``folder`` whose file is not what it claims."""
    path = folder / f"{kind}.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "dir":
        path.mkdir()
    else:
        path.write_bytes(b"#" * (bounded.MAX_TILESET_BYTES + 1))
    return path.name


KINDS = {"fifo": "not a regular file (a FIFO)", "zero": "not a regular file (a character device)",
         "dir": "not a regular file (a directory)", "huge": "larger than the limit of 1048576"}
REFUSED = {**KINDS, "zero": "a .toml file inside its own folder"}
"""What a log naming such a set is told (a link to /dev/zero leads out of its folder)."""


def test_read_regular_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    for kind, words in KINDS.items():
        with no_hang(), pytest.raises(UnfitFile) as caught:
            read_regular(tmp_path / unfit(tmp_path, kind), bounded.MAX_TILESET_BYTES)
        assert words in str(caught.value) and words in caught.value.reason
    (tmp_path / "ok").write_bytes(b"held")
    assert read_regular(tmp_path / "ok", 4) == b"held"
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "missing", 4)


def test_gunzip_is_bounded() -> None:
    packed = gzip.compress(b" " * (8 << 20))  # 8 MB of spaces in about 8 kB
    assert len(packed) < 64 << 10
    with pytest.raises(ValueError, match="decompresses to more than the limit of 65536"):
        gunzip(packed, 64 << 10)
    with pytest.raises(ValueError, match="cut short"):
        gunzip(packed[:-20], 16 << 20)
    with pytest.raises(ValueError, match="bytes after the end"):
        gunzip(gzip.compress(b"[]") + b"x", 100)


@pytest.mark.parametrize("kind", list(KINDS))
def test_adjudicate_a_log_naming_an_unfit_tileset(tmp_path: Path, kind: str) -> None:
    log = tmp_path / "game.pcn"
    log.write_text(LOG.format(name=unfit(tmp_path, kind)))
    with no_hang():
        done = CliRunner().invoke(cli, ["adjudicate", str(log)])
    assert done.exit_code == 3, done.output
    assert REFUSED[kind] in done.stderr and "/tileset" in done.stderr


def resume(log: Path, keys: str = ":done\n") -> tuple[int, str]:
    shown: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        code = record.run(None, str(log), str(log), echo=shown.append, input=pipe,
                          output=DummyOutput())
    return code, "\n".join(shown)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_resume_and_completion_of_a_log_naming_an_unfit_tileset(tmp_path: Path,
                                                                kind: str) -> None:
    log = tmp_path / "game.pcn"
    text = LOG.format(name=unfit(tmp_path, kind))
    log.write_text(text)
    with no_hang():
        words = Recording.load(text, str(log)).words()  # the names only: no tile, no hang
        assert words == ["Ann", "Bob"]
        code, shown = resume(log)
    assert code == 3, shown
    assert REFUSED[kind] in " ".join(shown.split())  # said wrapped at the terminal's width


def test_completion_finds_a_tileset_only_in_the_logs_folder(tmp_path: Path) -> None:
    """A log may name a tile set in its own folder only: completion obeys the same rule as
    the ruling (it offers the set's tiles, or none)."""
    mine = STANDARD.read_text().replace('id = "R1"', 'id = "MINE1"')
    (tmp_path / "mine.toml").write_text(mine)
    inside = tmp_path / "logs"
    inside.mkdir()
    (inside / "mine.toml").write_text(mine)
    log = inside / "game.pcn"
    for name, offered in (("mine.toml", True), ("../mine.toml", False),
                          (str(tmp_path / "mine.toml"), False)):
        text = LOG.format(name=name)
        log.write_text(text)
        words = Recording.load(text, str(log)).words()
        assert ("MINE1@N" in words) is offered, name
        assert offered or words == ["Ann", "Bob"]
