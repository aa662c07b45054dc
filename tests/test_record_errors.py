"""Errors of ``pathcheck record`` and of the log reader, each said as what it is: a file that
exists (before the settings are typed, and never replaced), a write that fails, a terminal that
goes away, names that do not read; an error of the reader's caller is not a read error."""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from pathcheck.cli import cli, record_terminal
from pathcheck.errors import InputError, IOFailure
from pathcheck.inputs import logs as log_input

record = importlib.import_module("pathcheck.cli.record")
record_table = importlib.import_module("pathcheck.cli.record_table")
CLEAR = "\x15"  # Ctrl-U


def run_keys(keys: str, game: str, path: Path) -> tuple[int, str]:
    out: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        code = record.run(game, str(path), None, echo=out.append, input=pipe,
                          output=DummyOutput())
    return code, "\n".join(out)


def test_an_existing_output_is_said_before_anything_else(tmp_path: Path) -> None:
    mine = tmp_path / "mine.pcn"
    mine.write_text("precious\n")
    # no terminal here: the file is said first, as a --resume LOG that does not read is
    result = CliRunner().invoke(cli, ["record", "memo-dice", "-o", str(mine)])
    assert result.exit_code == 3 and "needs a terminal" not in result.stderr
    assert f"{mine} exists: give another --output, or --resume {mine}" in result.stderr
    dangling = tmp_path / "link.pcn"
    dangling.symlink_to(tmp_path / "elsewhere.pcn")  # a link to be followed is a file too
    result = CliRunner().invoke(cli, ["record", "memo-dice", "-o", str(dangling)])
    assert result.exit_code == 3 and result.stderr.splitlines() == [  # no --resume: it fails
        f"pathcheck: invalid: {dangling} is a dangling symbolic link (to {tmp_path}/elsewhere.pcn)"
        ": give another --output"]
    assert mine.read_text() == "precious\n" and not (tmp_path / "elsewhere.pcn").exists()
    fifo = tmp_path / "fifo.pcn"
    os.mkfifo(fifo)
    result = CliRunner().invoke(cli, ["record", "memo-dice", "-o", str(fifo)])
    assert result.exit_code == 3 and result.stderr.splitlines() == [
        f"pathcheck: invalid: {fifo} exists and is not a regular file: give another --output"]


def test_a_file_made_while_the_settings_are_typed_is_not_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log_file = tmp_path / "dice.pcn"
    asked = record.Table.settings

    def settings_then_someone_writes(self: Any, fmt: str, current: dict[str, str]) -> Any:
        answers = asked(self, fmt, current)
        log_file.write_text("another game\n")
        return answers

    monkeypatch.setattr(record.Table, "settings", settings_then_someone_writes)
    made = re.escape("exists now (made while the settings were typed)")
    with pytest.raises(InputError, match=made):
        run_keys(f"{CLEAR}Ann Bob\n", "memo-dice", log_file)
    assert log_file.read_text() == "another game\n"


def test_a_log_that_cannot_be_written_is_said_so(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "dice.pcn"  # its folder is a file
    with pytest.raises(IOFailure, match=re.escape(f"{target}: cannot write: Not a directory")):
        run_keys(f"{CLEAR}Ann Bob\n", "memo-dice", target)


def test_a_terminal_that_goes_away_is_not_a_file_that_cannot_be_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class HungUp:
        output = DummyOutput()

        def prompt(self, *args: Any, **options: Any) -> str:
            raise OSError(errno.EIO, "Input/output error")

    with pytest.raises(IOFailure) as caught:
        record_terminal.ask(HungUp(), "players:")
    assert str(caught.value).startswith("the terminal cannot be read: Input/output error")
    assert "cannot write" not in str(caught.value)


def test_player_names_that_do_not_read_offer_nothing_to_complete() -> None:
    assert record_table._names("Ann Bob") == ["Ann", "Bob"]
    assert record_table._names('"Ann') == []


class _Failing(io.BytesIO):
    def read(self, size: int | None = -1, /) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    read1 = read


def test_the_log_reader_names_its_read_errors_and_leaves_the_callers_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = Path(__file__).resolve().parent.parent / "fixtures" / "dungeon" / "legal-2p-basic.pcn"
    with pytest.raises(BrokenPipeError), log_input.open_logs(str(log)) as logs:
        next(logs.items)
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")  # the caller's own: a closed stdout
    monkeypatch.setattr(log_input, "open_source", lambda name: _Failing())
    for name in ("game.pcn", "game.json", "game.txt"):
        unreadable = re.escape(f"{name}: cannot read: Input/output error")
        with pytest.raises(IOFailure, match=unreadable), contextlib.ExitStack() as stack:
            logs = stack.enter_context(log_input.open_logs(name))
            list(logs.items)


@pytest.mark.parametrize("name", ["missing.pcn", "folder", "dangling.pcn", "fifo.pcn"])
def test_a_resume_log_that_is_no_regular_file_is_exit_4_in_one_line(tmp_path: Path,
                                                                     name: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "dangling.pcn").symlink_to(tmp_path / "nowhere.pcn")
    os.mkfifo(tmp_path / "fifo.pcn")
    log = tmp_path / name
    result = CliRunner().invoke(cli, ["record", "--resume", str(log)])
    assert result.exit_code == 4 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"pathcheck: error: {log}: cannot read: ")
