"""``pathcheck record GAME``: keep a game's log at the table, move by move.

The prompts use prompt-toolkit (imported here only, so ``pathcheck --help`` stays fast); the
log itself is :class:`pathcheck.recorder.Recording`, written as game notation after every
move, atomically, so closing the terminal or Ctrl-C loses nothing.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterable
from typing import Any

import click

from pathcheck.errors import ExitCode, InputError, IOFailure

HELP = """\
Type each move as a line of game notation (several turns may share a line, separated by
'·', ';' or ' . '); Tab completes names, tiles and positions. For example:
{examples}
Commands:
  :undo    take back the last line          :show    the game as it stands
  :ruling  the ruling so far                 :help    this text
  :done    finish and print the ruling (also Ctrl-D); Ctrl-C stops (the log is saved)"""


def help_text(fmt: str) -> str:
    """The recorder's ``:help``, with example move lines of the game ``fmt`` being recorded.

    >>> print(help_text("memo-dice/1").splitlines()[3])
      Ann 2 bell/red red · Bob 7 lemon/red red   covering: PLAYER DIE SYMBOL/COLOUR CUP
    """
    from pathcheck.recorder import EXAMPLES

    pairs = EXAMPLES.get(fmt, ())
    width = max((len(line) for line, _ in pairs), default=0)
    return HELP.format(examples="\n".join(f"  {line:<{width}}   {what}"
                                          for line, what in pairs))


@click.command(name="record")
@click.argument("game", required=False, metavar="GAME")
@click.option("-o", "--output", "path", type=click.Path(dir_okay=False), default=None,
              help="The log file to write (game notation; default GAME-DATE-TIME.pcn).")
@click.option("--resume", "resume", type=click.Path(dir_okay=False, exists=True), default=None,
              metavar="LOG", help="Go on recording the notation file LOG.")
@click.pass_context
def command(ctx: click.Context, game: str | None, path: str | None, resume: str | None) -> None:
    """Record a game as it is played: GAME is dungeon, solo, memoarrr, memo-dice or
    robot-memory.

    Asks for the settings, then for each move in turn, says at once when a move breaks a rule
    (keep it as played, or correct it), writes the log after every move, and prints the
    ruling at the end. --resume LOG goes on with a log recorded before. Exit code 0: the
    game is recorded (whatever the ruling); 3: bad settings or LOG; 130: stopped by Ctrl-C
    (the log is saved).
    """
    from pathcheck.recorder import GAMES

    if resume is None and game is None:
        raise click.UsageError(f"name the GAME ({', '.join(GAMES)}) or give --resume LOG")
    if resume is None and game not in GAMES:
        raise click.UsageError(f"unknown GAME {game!r} (one of {', '.join(GAMES)})")
    code = run(game, path, resume, echo=click.echo)
    if code:
        ctx.exit(code)


def run(game: str | None, path: str | None, resume: str | None, *,
        echo: Callable[[str], None], input: Any = None, output: Any = None) -> int:
    """The recorder's dialogue; ``input``/``output`` are prompt-toolkit ones (tests)."""
    from prompt_toolkit import PromptSession

    from pathcheck.recorder import Recording

    session: PromptSession[str] = PromptSession(input=input, output=output)
    try:
        if resume is not None:
            with open(resume, encoding="utf-8") as handle:
                recording = Recording.load(handle.read(), resume)
            path = resume
            echo(f"resuming {resume}: {len(recording.lines)} move line(s) so far")
        else:
            assert game is not None
            if path is None:
                stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M")
                path = f"{game}-{stamp}.pcn"
            if os.path.exists(path):
                raise InputError(f"{path} exists: give another --output, or --resume {path}")
            recording = _settings(session, game, path, echo)
            if recording is None:
                return 130
        _save(recording, path)
        echo(f"recording to {path} (it is saved after every move); type :help for an "
             "example move line and the commands")
        return _moves(session, recording, path, echo)
    except OSError as exc:
        raise IOFailure(f"{path}: cannot write: {exc.strerror or exc}") from exc


def _ask(session: Any, message: str, **options: Any) -> str:
    """``session.prompt``; in a thread of its own when an event loop already runs here (a
    host application, a test runner), since prompt-toolkit runs its own loop."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return str(session.prompt(message, **options))
    return str(session.prompt(message, in_thread=True, **options))


def _save(recording: Any, path: str) -> None:
    recording.save(path)


def _settings(session: Any, game: str, path: str, echo: Callable[[str], None]) -> Any:
    from prompt_toolkit.completion import WordCompleter

    from pathcheck.errors import RecordError
    from pathcheck.recorder import GAMES, SETTINGS, Recording

    echo(f"recording a {game} game: first its settings (Enter keeps what is shown), then "
         "the moves (:help then shows an example)")
    answers: dict[str, str] = {}
    while True:
        for setting in SETTINGS[GAMES[game]]:
            default = answers.get(setting.key, setting.default)
            completer = WordCompleter(list(setting.choices)) if setting.choices else None
            suffix = f" [{'/'.join(setting.choices)}]" if len(setting.choices) in (2, 3) \
                else ""
            try:
                answer = _ask(session, f"{setting.question}{suffix}: ", default=default,
                                        completer=completer)
            except (KeyboardInterrupt, EOFError):
                echo("stopped before the game began: nothing written")
                return None
            answers[setting.key] = answer.strip()
        recording = Recording.new(game, answers, path)
        try:
            recording.log()
        except RecordError as exc:
            echo(f"these settings do not read: {exc}; once more:")
            continue
        return recording


def _moves(session: Any, recording: Any, path: str, echo: Callable[[str], None]) -> int:
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.document import Document

    class Words(Completer):
        def get_completions(self, document: Document, event: Any) -> Iterable[Completion]:
            word = document.get_word_before_cursor(WORD=True)
            for candidate in recording.words():
                if candidate.startswith(word) and candidate != word:
                    yield Completion(candidate, start_position=-len(word))

    completer = Words()
    default = ""
    while True:
        try:
            hint = "" if recording.lines else " (:help shows an example)"
            line = _ask(session, f"{recording.where()}{hint} > ", default=default,
                                  completer=completer, complete_while_typing=False)
        except KeyboardInterrupt:
            echo(f"stopped; the log is saved: pathcheck record --resume {path}")
            return 130
        except EOFError:
            line = ":done"
        default = ""
        line = line.strip()
        if not line:
            continue
        if line.startswith(":"):
            done = _command(line, recording, path, echo)
            if done is not None:
                return done
            continue
        check = recording.check(line)
        # a line that does not read, or makes the log impossible to rule on (an unknown
        # player or tile), must be corrected; a move that breaks a rule may be kept
        if check.error is not None or check.malformed is not None:
            why = (f"not read: {check.error}" if check.error is not None
                   else f"the log cannot be ruled on with it: {check.malformed}")
            echo(f"  {why} (correct the line below, Ctrl-U clears it; :help)")
            default = line
            continue
        problems = [f"{v.rule.id} ({v.rule.section}): {v.message}"
                    for v in check.new_violations]
        if problems:
            echo("  this breaks a rule:")
            for text in problems:
                echo(f"    {text}")
            try:
                keep = _ask(session, "  keep it as played (k) or correct it (c)? [c] ")
            except (KeyboardInterrupt, EOFError):
                keep = "c"
            if not keep.strip().lower().startswith("k"):
                default = line
                continue
            echo("  kept as played")
        recording.add(line)
        _save(recording, path)


def _command(line: str, recording: Any, path: str, echo: Callable[[str], None]) -> int | None:
    from pathcheck.errors import RecordError
    from pathcheck.ruling import render_text

    name = line[1:].split()[0].lower() if line[1:].split() else ""
    if name in ("u", "undo"):
        taken = recording.undo()
        if taken is None:
            echo("  nothing to undo")
        else:
            _save(recording, path)
            echo(f"  undone: {taken}")
    elif name in ("s", "show"):
        try:
            echo(recording.picture())
        except RecordError as exc:
            echo(f"  nothing to show yet ({exc.message})")
    elif name in ("r", "ruling"):
        try:
            echo(render_text(recording.ruling()))
        except RecordError as exc:
            echo(f"  no ruling yet: {exc}")
    elif name in ("d", "done", "q", "quit"):
        _save(recording, path)
        try:
            ruling = recording.ruling()
        except RecordError as exc:
            echo(f"saved {path}; it cannot be ruled on: {exc}")
            return int(ExitCode.INVALID_INPUT)
        echo(render_text(ruling))
        echo(f"saved {path}")
        return 0
    else:
        echo(help_text(recording.format))
    return None
