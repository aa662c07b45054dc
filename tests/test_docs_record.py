"""The recordings of ``pathcheck record`` shown in docs/cli.md are what it asks and prints.

Each transcript (a fenced block starting ``$ pathcheck record ...``) is played in a real
pseudo-terminal (tests/test_record_terminal.py's ``Table``): a line holding a prompt and an
answer waits for the prompt and types the answer (the line cleared first, so that an answer
shown in full replaces what the prompt offers); any other line must be printed, in order. A
line ``...`` ends what is played: the moves it leaves out are not known.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.test_record_terminal import CLEAR, CTRL_D, Table

ROOT = Path(__file__).resolve().parent.parent
PROMPT_ENDS = ("> ", "? [c] ")
"""What ends the prompt of a move or a question (a setting's ends ``): ``), before the answer."""


def transcripts() -> list[tuple[str, list[str]]]:
    """(``docs/cli.md:N``, lines) of every recording shown in docs/cli.md."""
    found: list[tuple[str, list[str]]] = []
    lines = (ROOT / "docs" / "cli.md").read_text("utf-8").splitlines()
    for number, line in enumerate(lines):
        if line.startswith("$ pathcheck record "):
            body: list[str] = []
            for following in lines[number:]:
                if following.startswith("```"):
                    break
                body.append(following)
            found.append((f"docs/cli.md:{number + 1}", body))
    return found


def prompt_and_answer(line: str) -> tuple[str, str] | None:
    """A line the keeper typed on: (prompt, answer); None for a line printed.

    >>> prompt_and_answer("Mode (basic, advanced): basic")
    ('Mode (basic, advanced):', 'basic')
    >>> prompt_and_answer("Ann to play (TILE@DIR, !NAME to announce) > Ann r1@n")
    ('Ann to play (TILE@DIR, !NAME to announce) >', 'Ann r1@n')
    >>> prompt_and_answer("    dungeon/turn-order (Overview): Ann plays") is None
    True
    """
    for end in PROMPT_ENDS:
        if end in line:
            prompt, _, answer = line.rpartition(end)
            return prompt + end.rstrip(), answer
    if "which card? (" in line:  # the card turned face up: the prompt ends with its hint
        prompt, _, answer = line.rpartition(") ")
        return prompt + ")", answer
    if not line.startswith(" ") and "): " in line:  # a setting
        prompt, _, answer = line.rpartition("): ")
        return prompt + "):", answer
    return None


TRANSCRIPTS = transcripts()


def test_every_game_has_a_recording() -> None:
    games = {shlex.split(body[0])[3] for _, body in TRANSCRIPTS}
    assert games == {"dungeon", "solo", "memoarrr", "memo-dice", "robot-memory"}


@pytest.mark.parametrize(("where", "body"), TRANSCRIPTS, ids=[w for w, _ in TRANSCRIPTS])
def test_the_recording_shown_is_what_record_asks(where: str, body: list[str],
                                                  tmp_path: Path) -> None:
    args = shlex.split(body[0])[3:]  # Table runs `pathcheck record`
    table = Table(tmp_path, *args, columns=240)
    answer = ""
    for line in body[1:]:
        if line.strip() == "...":
            break
        typed = prompt_and_answer(line)
        if typed is None:
            table.wait(line.strip())
            continue
        prompt, answer = typed
        table.wait(prompt)
        table.type(CLEAR + answer)
        table.wait(answer)  # echoed where it was typed
    if answer != ":done":  # :done finishes the recording itself
        table.keys(CTRL_D)  # stops the recording, the log saved
    assert table.end() in (0, 1)  # 1: the ruling :done prints finds a rule broken
