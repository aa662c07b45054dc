"""The terminal side of ``pathcheck record``: prompt sessions, keys, wrapping and paging.

prompt-toolkit is imported here and in ``record.py`` only (so ``pathcheck --help`` stays fast).
"""

from __future__ import annotations

import shutil
import signal
from collections.abc import Callable
from typing import Any

from pathcheck.errors import IOFailure

HANG_UP_EXIT = 128 + signal.SIGHUP
"""The exit code of a recording whose terminal went away (129, as a hang-up ends any command)."""

_hung_up: list[int] = []


def note_hang_ups() -> None:
    """While recording, SIGHUP (the terminal went away) is only noted: raised inside
    prompt-toolkit's event loop it would break the loop's own clean-up. The terminal then fails
    to read (EIO) or write, and :func:`hung_up` tells that failure from another one."""
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGHUP, lambda signum, frame: _hung_up.append(signum))


def hung_up() -> bool:
    """Whether the terminal hung up (SIGHUP) since :func:`note_hang_ups`."""
    return bool(_hung_up)


class Ended(Exception):
    """The keeper ended the recording (Ctrl-C on an empty line, or Ctrl-D)."""

    def __init__(self, interrupted: bool) -> None:
        super().__init__("interrupted" if interrupted else "end of input")
        self.interrupted = interrupted


def session(input: Any = None, output: Any = None) -> Any:
    """A prompt session with its own history, where Ctrl-C clears a half-typed line (as a
    shell does) and ends the recording on an empty one; Ctrl-D on an empty line ends it."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.filters import shift_selection_mode
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    keys = KeyBindings()

    @keys.add(Keys.BracketedPaste, filter=shift_selection_mode)
    def _paste_over(event: Any) -> None:
        # a paste replaces a pre-filled answer as typing does (see ask)
        event.current_buffer.cut_selection()
        event.current_buffer.insert_text(event.data.replace("\r\n", "\n").replace("\r", "\n"))

    @keys.add("c-c")
    def _interrupt(event: Any) -> None:
        buffer = event.app.current_buffer
        if buffer.text:
            buffer.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    return PromptSession(input=input, output=output, history=InMemoryHistory(),
                         key_bindings=keys)


def width(prompts: Any) -> int:
    """The terminal's columns (80 when it cannot say)."""
    try:
        return max(20, int(prompts.output.get_size().columns))
    except OSError:  # the terminal cannot say (its size request fails)
        return shutil.get_terminal_size((80, 24)).columns


def height(prompts: Any) -> int:
    """The terminal's rows (24 when it cannot say)."""
    try:
        return max(5, int(prompts.output.get_size().rows))
    except OSError:
        return shutil.get_terminal_size((80, 24)).lines


def wrap(text: str, columns: int, indent: str = "") -> str:
    """``text`` wrapped at word boundaries to ``columns`` (lines already short are kept; a
    drawing, which has no long words to break, is never rewrapped)."""
    from pathcheck.render.align import text_width, wrap_words

    out: list[str] = []
    for line in text.splitlines() or [""]:
        if text_width(line) <= columns:  # columns as the terminal shows them (CJK: 2)
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        out.extend(wrap_words(line, columns, lead + indent, lead))
    return "\n".join(out)


def ask(prompts: Any, message: str, **options: Any) -> str:
    """One line from the keeper, the prompt wrapped at word boundaries to the terminal;
    raises :class:`Ended` for Ctrl-C on an empty line or Ctrl-D."""
    import asyncio

    default = str(options.get("default", ""))
    if default:
        # **Decision**: a pre-filled answer (a setting's default, a line handed back to be
        # corrected) is selected as a shift-selection is: the first key typed replaces it
        # (typing "custom" over "standard" gives "custom"), an arrow key or Home starts
        # editing it, Enter keeps it.
        options["pre_run"] = lambda: _select_all(prompts.default_buffer)
    from pathcheck.render.align import text_width
    from pathcheck.safe import keep_lines

    message = keep_lines(message)  # names in it: their control characters escaped
    columns = width(prompts) - 1
    text = wrap(message.rstrip(), columns)
    if "\n" in text or text_width(text) > columns - 20:  # narrow: type on a line of its own
        text = wrap(message.rstrip().removesuffix(">").rstrip(), columns) + "\n>"
    text += " "
    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return str(prompts.prompt(text, **options))
        # prompt-toolkit runs its own loop: in a thread when one already runs here (a test)
        return str(prompts.prompt(text, in_thread=True, **options))
    except KeyboardInterrupt as exc:
        from . import Interrupted

        if isinstance(exc, Interrupted):  # SIGTERM, SIGHUP: the run stops as any command does
            raise
        raise Ended(True) from None  # Ctrl-C on an empty line
    except (EOFError, OSError) as exc:
        if hung_up():  # record.run says so and ends with HANG_UP_EXIT
            raise
        if isinstance(exc, EOFError):
            raise Ended(False) from None
        # the terminal went away (EIO) without a hang-up signal: not a file error
        raise IOFailure(f"the terminal cannot be read: {exc.strerror or exc} (the log is "
                        "saved after every move: --resume it)") from exc


def _select_all(buffer: Any) -> None:
    """Select the whole text of ``buffer`` in shift mode (what is typed replaces it)."""
    from prompt_toolkit.selection import SelectionType

    buffer.cursor_position = 0
    buffer.start_selection(selection_type=SelectionType.CHARACTERS)
    if buffer.selection_state is not None:
        buffer.selection_state.enter_shift_mode()
    buffer.cursor_position = len(buffer.text)


def show(prompts: Any, echo: Callable[[str], None], text: str) -> None:
    """Print ``text`` wrapped to the terminal, a screenful at a time when it is longer (Enter
    shows the next screenful, q skips the rest, Ctrl-D prints the rest at once)."""
    from pathcheck.safe import keep_lines

    lines = wrap(keep_lines(text), width(prompts) - 1).splitlines()
    page = height(prompts) - 1
    while len(lines) > page:
        echo("\n".join(lines[:page]))
        lines = lines[page:]
        try:
            more = ask(prompts, f"-- more ({len(lines)} lines): Enter, q to skip --")
        except Ended:  # no more keys (Ctrl-D): the rest at once
            break
        if more.strip().lower().startswith("q"):
            return
    if lines:
        echo("\n".join(lines))
