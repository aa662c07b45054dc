"""``pathcheck record GAME``: keep a game's log at the table, move by move.

The prompts use prompt-toolkit (imported here only, so ``pathcheck --help`` stays fast); the
log itself is :class:`pathcheck.recorder.Recording`, written as game notation after every
move, atomically, so closing the terminal or Ctrl-C loses nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Callable
from typing import Any

import click

from pathcheck.cli.options import complete_from
from pathcheck.cli.record_table import Table as Table  # the dialogue, re-exported
from pathcheck.cli.record_table import help_text as help_text
from pathcheck.cli.record_terminal import (
    HANG_UP_EXIT,
    hung_up,
    note_hang_ups,
    session,
)
from pathcheck.errors import ExitCode, InputError, IOFailure
from pathcheck.render.words import counted


def recorded_games() -> list[str]:
    """The games ``record`` keeps logs of (for shell completion)."""
    from pathcheck.recorder import GAMES

    return list(GAMES)


@click.command(name="record")
@click.argument("game", required=False, metavar="GAME",
                shell_complete=complete_from(recorded_games))
@click.option("-o", "--output", "path", type=click.Path(dir_okay=False), default=None,
              help="The log file to write (game notation; default GAME-DATE-TIME.pcn).")
@click.option("--resume", "resume", default=None,
              metavar="LOG", help="Go on recording the notation file LOG.")
@click.pass_context
def command(ctx: click.Context, game: str | None, path: str | None, resume: str | None) -> None:
    """Record a game as it is played: GAME is dungeon, solo, memoarrr, memo-dice or
    robot-memory.

    Asks for the settings, then for each move in turn, says at once when a move breaks a rule
    (keep it as played, or correct it), writes the log after every move, and prints the
    ruling at the end. What the table sees only later is asked then (a robot-memory card
    when it is turned face up, Memoarrr! treasures at the end). --resume LOG goes on with a
    log recorded before. Needs a terminal.
    Exit code 0: the game is recorded (whatever the ruling), or Ctrl-D stopped it (the log is
    saved); 2: no terminal; 3: bad LOG; 4: LOG is missing or not a
    regular file of at most 16 MB; 129: the terminal hung up (the log is saved); 130: stopped by
    Ctrl-C (the log is saved).
    """
    import sys

    from pathcheck.recorder import GAMES

    if resume is None and game is None:
        raise click.UsageError(f"name the GAME ({', '.join(GAMES)}) or give --resume LOG")
    if resume is None and game not in GAMES:
        raise click.UsageError(f"unknown GAME {game!r} (one of {', '.join(GAMES)})")
    if resume is not None:
        _load(resume)  # a LOG that cannot be read is said first (exit 3 or 4), terminal or not
    elif path is not None:
        refuse_existing(path)  # as is an -o that would replace a file
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        click.echo("pathcheck record: needs a terminal (it reads the keeper's keystrokes); "
                   "to rule on a log written elsewhere: pathcheck adjudicate LOG", err=True)
        ctx.exit(int(ExitCode.USAGE))
    note_hang_ups()
    code = run(game, path, resume, echo=click.echo)
    if code:
        ctx.exit(code)


def run(game: str | None, path: str | None, resume: str | None, *,
        echo: Callable[[str], None], input: Any = None, output: Any = None) -> int:
    """The recorder's dialogue; ``input``/``output`` are prompt-toolkit ones (tests). A
    hang-up (SIGHUP: the terminal went away) ends it with exit code 129, saying on stderr,
    if it can still be written, where the log is (saved after every move)."""
    logged: list[str] = []  # the log file, once there is one
    try:
        return _dialogue(game, path, resume, echo, input, output, logged)
    except (OSError, EOFError):  # reading or writing the terminal failed
        if not hung_up():
            raise
    said = (f"the log is saved: pathcheck record --resume {logged[0]}" if logged
            else "nothing was written")
    with contextlib.suppress(OSError):
        click.echo(f"pathcheck record: the terminal hung up (SIGHUP): {said}", err=True)
    return HANG_UP_EXIT


def _dialogue(game: str | None, path: str | None, resume: str | None,
              echo: Callable[[str], None], input: Any, output: Any, logged: list[str]) -> int:
    from pathcheck.recorder import Recording

    table = Table(session(input, output), session(input, output), echo)
    if resume is not None:
        recording = _load(resume)
        path = resume
        table.say(f"resuming {resume}: {counted(len(recording.lines), 'move line')} so far")
        last = recording.lines[-5:]
        if last:  # wrapped between words, each line's own lines indented under it
            table.say("the last moves:\n" + "\n".join(f"  {line}" for line in last))
        if recording.waiting:
            table.say(f"{counted(len(recording.waiting), 'pasted line')} not checked yet, "
                      "each checked now as if typed")
    else:
        assert game is not None
        path = path or new_log_name(game)
        refuse_existing(path)  # said before the settings are typed, not after
        table.say(f"recording a {game} game: first its settings (Enter keeps what "
                  "is shown, Tab completes), then the moves (:help then shows "
                  "examples)")
        answers = table.settings(Recording.format_of(game), {})
        if answers is None:
            echo("stopped before the game began: nothing written")
            return 130
        recording = Recording.new(game, answers, path)
        _claim(path)
    logged.append(path)
    recording.save(path)  # every save: IOFailure ("cannot write") if it fails
    table.say(f"recording to {path} (it is saved after every move); :help shows "
              "example move lines and the commands")
    return table.moves(recording, path)


def new_log_name(game: str) -> str:
    """The default log file of a new recording: GAME-DATE-TIME.pcn in the current folder."""
    return f"{game}-{datetime.datetime.now().strftime('%Y%m%d-%H%M')}.pcn"


def refuse_existing(path: str) -> None:
    """A new recording never replaces a file (InputError, exit 3); ``--resume`` is offered
    only for what it can go on with, a regular file (a dangling symbolic link is not one)."""
    if os.path.islink(path) and not os.path.exists(path):
        raise InputError(f"{path} is a dangling symbolic link (to {os.readlink(path)}): give "
                         "another --output")
    if os.path.isfile(path):
        raise InputError(f"{path} exists: give another --output, or --resume {path}")
    if os.path.lexists(path):
        raise InputError(f"{path} exists and is not a regular file: give another --output")


def _claim(path: str) -> None:
    """Create the new log file, empty, only if no file took its name while the settings were
    typed (then nothing is replaced: InputError); its content is then saved over it."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
    except FileExistsError:
        raise InputError(f"{path} exists now (made while the settings were typed): it is "
                         "left as it is and nothing was written; give another --output") from None
    except OSError as exc:
        raise IOFailure(f"{path}: cannot write: {exc.strerror or exc}") from exc


def _load(resume: str) -> Any:
    """The recording in the notation file ``resume`` (RecordError if it does not read,
    IOFailure if it is not a regular file of at most 16 MB)."""
    from pathcheck.reading.text import read_text_file  # as adjudicate reads it: BOM, any line end
    from pathcheck.recorder import Recording

    return Recording.load(read_text_file(resume), resume)
