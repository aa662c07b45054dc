"""Robot memory at the table: a card is asked for when it is turned face up.

A move line ``CHOOSER GUESSER rRcC GUESS [=POINTS] [is CARD]`` may name the card the guess
turns face up (``is CARD``, which fills in its place of the grid); when it does not and the
grid does not know the card, the recorder asks for it (:func:`unsaid_cards`) and writes it
into the line (:func:`say_cards`) before the line is checked.

>>> header = "#! robot-memory/1\\nvariant: custom\\nplayers: Ann Bob\\nround 1x2 first Ann\\n"
>>> line = "Bob Ann r1c1 short-circuit =0 + Ann r1c2 bulb =1 is bulb/red/3"
>>> unsaid_cards(header, line, source="t.pcn")
['r1c1', None]
>>> unsaid_cards(header + "Bob Ann r1c1 3 is ?\\n", "captains X Ann", source="t.pcn")
[]
>>> say_cards(line, ["short-circuit", None])
'Bob Ann r1c1 short-circuit =0 is short-circuit + Ann r1c2 bulb =1 is bulb/red/3'
>>> card_problem("bulb/red"), card_problem("?"), card_problem("short-circuit")
('name all three features of the card: type/colour/number, e.g. bulb/red/3', None, None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pathcheck import notation
from pathcheck.errors import RecordError

FORMAT = "robot-memory/1"
CARD_WORDS = "type/colour/number, short-circuit, or ? if nobody noted it"
"""What the question for a card turned face up takes."""

_TURNS = re.compile(r"(\s*(?:·|;|(?<=\s)\.(?=\s))\s*)")
"""What separates the turns of a move line (as :meth:`Recording.say_together` splits them)."""
_LINKS = re.compile(r"(\s+\+\s+)")
"""What separates the card pointed at from those chosen after a short circuit."""
_POSITION = re.compile(r"(?<!\S)r[0-9]+c[0-9]+(?!\S)")
_SAYS_CARD = re.compile(r"(?<!\S)is(?!\S)")


def _picks(line: str) -> list[str]:
    """The text of each pick of a move line, in order (its comment left out)."""
    code = line.partition("#")[0]
    return [link for turn in _TURNS.split(code.rstrip())[0::2]
            for link in _LINKS.split(turn)[0::2]]


def unsaid_cards(text: str, line: str, *, source: str) -> list[str | None]:
    """Per pick of ``line`` (the next move line of the notation ``text``), the place of the
    card it turns face up when neither the line nor the grid says which card it is (None for
    the others); [] for other games and lines that do not read."""
    if not text.startswith(f"#! {FORMAT}"):
        return []
    try:
        log = notation.parse(text + line + "\n", source=source)
    except RecordError:
        return []
    rounds = log.get("rounds") or []
    if not rounds:
        return []
    turns = rounds[-1]["turns"]
    picks = [p for turn in turns for p in [turn, *turn.get("chain", ())]]
    said = _picks(line)
    if not said or len(picks) < len(said) or not all(map(_POSITION.search, said)):
        return []  # not a line of turns (captains, a turn as a $ value)
    cards = rounds[-1]["grid"]["cards"]
    out: list[str | None] = []
    for pick, words in zip(picks[len(picks) - len(said):], said, strict=True):
        position = pick.get("position") if isinstance(pick, dict) else None
        after = _POSITION.split(words, 1)[-1]
        try:
            row, column = position["row"], position["column"]  # type: ignore[index]
            card = cards[row - 1][column - 1]
        except (TypeError, KeyError, IndexError):
            out.append(None)
            continue
        unknown = card == "unknown" and not _SAYS_CARD.search(after)
        out.append(f"r{row}c{column}" if unknown else None)
    return out


def say_cards(line: str, cards: Sequence[str | None]) -> str:
    """``line`` with ``is CARD`` after each pick's guess and points (None: nothing), before
    the line's comment."""
    code, hash_, comment = line.partition("#")
    turns = _TURNS.split(code.rstrip())
    k = 0
    for t in range(0, len(turns), 2):
        links = _LINKS.split(turns[t])
        for i in range(0, len(links), 2):
            if k < len(cards) and cards[k] is not None:
                links[i] = f"{links[i]} is {cards[k]}"
            k += 1
        turns[t] = "".join(links)
    return "".join(turns) + (f"  #{comment}" if hash_ else "")


def card_problem(text: str) -> str | None:
    """Why ``text`` is not a card turned face up (None: it is one, or ``?``)."""
    from pathcheck.games.robot_memory.notation import UNKNOWN, read_features
    from pathcheck.games.robot_memory.rules import COLOURS, NUMBERS, TYPES

    try:
        reader, tokens = notation.fragment(text.strip())
        if len(tokens) != 1:
            return f"one card, as {CARD_WORDS}"
        card = read_features(reader, tokens[0], None)
    except RecordError as exc:
        return str(exc).split(": ", 1)[-1]
    if card in ("short-circuit", UNKNOWN):
        return None
    if not isinstance(card, dict) or sorted(card) != ["colour", "number", "type"] \
            or card["type"] not in TYPES or card["colour"] not in COLOURS \
            or card["number"] not in NUMBERS:
        return "name all three features of the card: type/colour/number, e.g. bulb/red/3"
    return None
