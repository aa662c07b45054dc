"""The ``pathcheck`` command: a thin click group whose commands load lazily.

Each command lives in its own module (``pathcheck.cli.verify`` ...), imported only when it
runs, so ``pathcheck --help`` stays fast. :func:`main` is the one place that turns errors
into exit codes and one-line messages.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from collections.abc import Iterable
from typing import Any, NoReturn

import click

from pathcheck import __version__
from pathcheck.errors import ExitCode, PathcheckError

# command name -> (module, one-line help shown by ``pathcheck --help``)
COMMANDS: dict[str, tuple[str, str]] = {
    "verify": ("pathcheck.cli.verify", "Trace recorded dungeons and score their LOST cards."),
    "trace": ("pathcheck.cli.trace", "Trace one dungeon given inline, e.g. \"START@N R1@N\"."),
    "tiles": ("pathcheck.cli.tiles", "List the tiles of a tile set."),
    "schema": ("pathcheck.cli.schema", "Print the JSON Schema of a record or log format."),
    "adjudicate": ("pathcheck.cli.adjudicate", "Rule on recorded games of any installed game."),
    "analyse": ("pathcheck.cli.analyse", "Each move against a perfect memory: slips, guesses, "
                "accuracy."),
    "convert": ("pathcheck.cli.convert", "Turn a game notation file into its JSON log and back."),
    "record": ("pathcheck.cli.record", "Record a game as it is played, move by move."),
    "solo": ("pathcheck.cli.solo", "Solo challenges: seed codes, answer keys, checks, stats."),
    "help": ("pathcheck.cli.help", "Show the help of a command, e.g. 'pathcheck help verify'."),
}


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice a mistyped word most likely meant (difflib's, as click's own suggestions
    for options), or None.

    >>> closest("verfy", ["verify", "trace"]), closest("zzz", ["verify", "trace"])
    ('verify', None)
    """
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


MEANT: dict[str, str] = {
    "version": "'pathcheck --version'",
    "check": "'pathcheck solo check CODE RECORD' (a solo record against its seed code)",
    "key": "'pathcheck solo key CODE'",
    "new": "'pathcheck solo new'",
    "stats": "'pathcheck solo stats'",
    "census": "'pathcheck solo census'",
    "replay": "'--html FILE' of adjudicate, analyse or verify (a replay page)",
    "html": "'--html FILE' of adjudicate, analyse or verify (a replay page)",
    "rule": "'pathcheck adjudicate'",
    "analyze": "'pathcheck analyse'",
}
"""Words a user may try as a command, and what does that job."""


def no_such_command(ctx: click.Context, name: str, known: Iterable[str]) -> NoReturn:
    """A usage error (exit 2) for a mistyped command, with the command meant, worded as
    click words it for the ``solo`` subcommands."""
    if ctx.parent is None and name.lower() in MEANT:
        ctx.fail(f"No such command '{name}'. Did you mean {MEANT[name.lower()]}?")
    meant = closest(name, known)
    ctx.fail(f"No such command '{name}'." + (f" Did you mean '{meant}'?" if meant else ""))


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[cmd_name][0])
        command: click.Command = module.command
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and name not in COMMANDS and not name.startswith("-"):
            no_such_command(ctx, name, COMMANDS)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; every error a user can cause becomes one line and an exit code."""
        try:
            return super().invoke(ctx)
        except PathcheckError as exc:
            _error(exc)
            ctx.exit(int(exc.exit_code))
        except KeyboardInterrupt as exc:  # here, not in click, which prints a blank line
            from pathcheck.output import remove_temporaries

            remove_temporaries()
            ctx.exit(exc.code if isinstance(exc, Interrupted) else 130)
        except BrokenPipeError:
            # The reader of our output went away (e.g. `| head -1`): not an error of ours,
            # and caught here because click would turn it into exit code 1.
            _silence_stdout()
            ctx.exit(0)
        except click.exceptions.NoSuchOption as exc:
            meant = _option_meant(exc)
            if meant is None:
                raise
            raise meant from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # never show a traceback to a user
            ctx.exit(_internal_error(exc))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, short) for name, (_, short) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


OPTIONS_MEANT = {"--json": ("--format", "json"), "--jsonl": ("--format", "jsonl"),
                 "--csv": ("--format", "csv"), "--text": ("--format", "text"),
                 "--out": ("-o", ""), "--output-file": ("-o", "")}
"""Options a user may try, and the option (and value) of pathcheck that does it."""


def _option_meant(exc: click.exceptions.NoSuchOption) -> click.UsageError | None:
    """A mistyped option worded with the option meant where click cannot guess it: ``--json``
    is ``--format json`` (in a command whose --format offers json); None elsewhere."""
    meant = OPTIONS_MEANT.get(exc.option_name)
    command = exc.ctx.command if exc.ctx is not None else None
    if meant is None or command is None:
        return None
    option, value = meant
    for param in command.params:
        if option in getattr(param, "opts", ()):
            choices = getattr(param.type, "choices", None)
            if value and choices is not None and value not in choices:
                return None
            return click.UsageError(f"No such option: {exc.option_name}. Did you mean "
                                    f"'{option}{' ' + value if value else ''}'?", exc.ctx)
    return None


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    try:  # the extension itself, as pathcheck.speedups loads it (cheap: no Python around it)
        import pathcheck._speedups  # noqa: F401

        built = True
    except ImportError:
        built = False
    click.echo(f"pathcheck {__version__} (C extension: "
               + ("in use" if built else "not built; batch work runs on the Python paths, "
                  "slower") + ")")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version,
              help="Show the version, and whether the C extension is in use, and exit.")
def cli() -> None:
    """Replay recorded play of memory board games and rule on it.

    Exit codes: 0 all input valid (and every log legal), 1 a log breaks a rule,
    2 usage error, 3 invalid input, 4 a file cannot be read or written.
    """


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP: stop quietly with exit code 128 + the signal's number.

    A KeyboardInterrupt, so that no ``except Exception`` on the way takes it for an error and
    a command that tidies up after Ctrl-C (``solo census``) does so after SIGTERM too.
    """

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a run quietly, its temporary files removed (exit 128 + the number: a
hang-up, the terminal gone, is 129)."""


def _on_signal(signum: int, frame: object) -> None:
    from pathcheck.output import remove_temporaries

    remove_temporaries()  # first: nothing on the way out may leave a half-written file
    raise Interrupted(128 + signum)


GRACE_SECONDS = 10.0
"""After SIGINT/SIGTERM/SIGHUP, how long the main thread has to stop cleanly before the process is
ended from the watchdog thread (a signal that lands between two reads of a pipe that stays
silent is otherwise only seen when more input comes)."""


def _install_signal_handlers() -> Any:
    """Handlers for SIGINT, SIGTERM and SIGHUP, and a watchdog thread woken by the same signals;
    returns what :func:`_restore_signal_handlers` needs."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    previous = {number: signal.signal(number, _on_signal) for number in STOPPING_SIGNALS}
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    old_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    threading.Thread(target=_watchdog, args=(read_end,), daemon=True,
                     name="pathcheck-signals").start()
    return previous, old_fd, write_end


def _restore_signal_handlers(saved: Any) -> None:

    if saved is None:
        return
    previous, old_fd, write_end = saved
    signal.set_wakeup_fd(old_fd)
    os.close(write_end)  # the watchdog reads end-of-file and ends
    for number, handler in previous.items():
        signal.signal(number, handler)


def _watchdog(read_end: int) -> None:
    """Woken by the C-level signal handler itself (``signal.set_wakeup_fd``), even while the
    main thread sits in a read that the signal did not interrupt."""
    import time

    from pathcheck.lifeline import leave_signals_to_main_thread
    from pathcheck.output import remove_temporaries

    leave_signals_to_main_thread()
    try:
        while data := os.read(read_end, 1):
            if data[0] in STOPPING_SIGNALS:
                remove_temporaries()
                time.sleep(GRACE_SECONDS)  # the main thread normally exits well before
                remove_temporaries()  # any made meanwhile
                os._exit(128 + data[0])
    finally:
        os.close(read_end)


def main(argv: list[str] | None = None) -> Any:
    """Run the CLI; the only place where errors become exit codes."""
    saved = _install_signal_handlers()
    try:
        return _main(argv)
    finally:
        _restore_signal_handlers(saved)


def _main(argv: list[str] | None) -> Any:
    try:
        code = cli.main(args=argv, prog_name="pathcheck", standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except Interrupted as exc:  # SIGINT (Ctrl-C), SIGTERM or SIGHUP: quiet, like a killed program
        from pathcheck.output import remove_temporaries

        remove_temporaries()
        code = exc.code
    except click.Abort as exc:  # a signal while click itself was busy (parsing, a prompt)
        cause = exc.__context__
        code = cause.code if isinstance(cause, Interrupted) else 130
    except PathcheckError as exc:  # raised outside a command (e.g. while loading one)
        _error(exc)
        code = int(exc.exit_code)
    except BrokenPipeError:
        _silence_stdout()
        code = 0
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:  # raised outside a command, e.g. while loading one
        code = _internal_error(exc)
    return code if isinstance(code, int) else 0


def _error(exc: PathcheckError) -> None:
    """One line on stderr; control and bidi characters from the input escaped. Bad input
    (exit 3) is ``pathcheck: invalid:`` in every command, any other failure ``error:``."""
    from pathcheck.safe import one_line

    click.echo(one_line(f"pathcheck: {error_prefix(exc)}: {exc}"), err=True)


def error_prefix(exc: PathcheckError) -> str:
    """``invalid`` for bad input (exit 3), ``error`` for anything else (a file that cannot be
    read, a plug-in that cannot be loaded)."""
    from pathcheck.errors import InputError

    bad_input = isinstance(exc, InputError) and exc.exit_code == ExitCode.INVALID_INPUT
    return "invalid" if bad_input else "error"


def _internal_error(exc: Exception) -> int:
    """Report a bug in one line (a traceback only with PATHCHECK_DEBUG set)."""
    if os.environ.get("PATHCHECK_DEBUG"):
        raise exc
    click.echo(
        f"pathcheck: internal error: {type(exc).__name__}: {exc} "
        "(set PATHCHECK_DEBUG=1 for a traceback; please report it)",
        err=True,
    )
    return int(ExitCode.INTERNAL)


def _silence_stdout() -> None:
    """After a broken pipe: send what is still buffered for stdout nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no stdout at all
        pass


def entry() -> None:
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except (OSError, ValueError, AttributeError):
        pass
    sys.exit(code)
