"""Tab completion of ``pathcheck record``'s move lines, by where the cursor is.

At the start of a turn the player whose turn it is comes first (then the other names and the
keywords); later in the turn only what the game state allows (the words of
:meth:`pathcheck.recorder.Recording.words`, without names there, except the LOST cards of the
other players). Names with spaces are offered quoted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document

from pathcheck.notation import SEPARATORS, word


class MoveCompleter(Completer):
    """Completes the word before the cursor from the recording's state."""

    def __init__(self, recording: Any) -> None:
        self.recording = recording

    def get_completions(self, document: Document, event: Any) -> Iterable[Completion]:
        before = document.text_before_cursor
        current = document.get_word_before_cursor(WORD=True)
        tokens = before[:len(before) - len(current)].split()
        turn: list[str] = []
        for token in tokens:
            turn = [] if token in SEPARATORS or token == "+" else [*turn, token]
        lower = current.lower()
        for candidate in self.candidates(turn):
            if candidate.lower().startswith(lower) and candidate != current:
                yield Completion(candidate, start_position=-len(current))

    def candidates(self, turn: list[str]) -> list[str]:
        recording = self.recording
        names = [word(n) for n in recording.players()]
        player = recording.next().player if not turn else _unquoted(turn[0])
        words = [w for w in recording.words(player) if word(w) not in names]
        up_next = recording.next().player
        if not turn:
            first = [word(up_next)] if up_next else []
            keywords = [w for w in words if w in ("exploration", "round", "row", "hand",
                                                  "deck", "|")]
            rest = [w for w in words if w not in keywords and "@" in w] \
                if recording.format == "solo/1" else []
            return _unique(first + names + keywords + rest)
        active = turn[0]
        if turn[0] in ("round", "exploration", "hand"):
            return _unique(([word(up_next)] if up_next else []) + names)
        out = [w for w in words if not (w.startswith("!") and w[1:] == active)]
        if recording.format == "robot-memory/1" and len(turn) == 1:
            return _unique(names + out)
        return _unique(out)


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _unquoted(token: str) -> str:
    """A name as typed (``"Ann Lee"`` quoted) as the log has it."""
    import json

    if token.startswith('"'):
        try:
            return str(json.loads(token))
        except ValueError:
            return token.strip('"')
    return token
