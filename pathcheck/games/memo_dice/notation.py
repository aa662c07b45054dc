"""Memo Dice notation (``#! memo-dice/1``): the ``memo-dice/1`` log as text.

Header: ``players:`` (seat order), ``comment:``, and optionally ``die1:`` ... ``die9:`` (the six
faces of each die, ``symbol/colour``). Body: ``round`` starts a round (``round {a comment}``);
a covering turn is ``PLAYER DIE SYMBOL/COLOUR CUP``, an uncovering turn ``PLAYER CUP GUESS``
(``-`` for no answer).

>>> from pathcheck.notation import parse, write
>>> text = '''#! memo-dice/1
... players: Linda Nora
... round
... Linda 2 bell/red red · Nora 7 lemon/red golden
... Linda 1 bell · Nora 2 -
... '''
>>> log = parse(text, source="x.pcn")
>>> log["rounds"][0]["covering"][1]
{'player': 'Nora', 'die': 7, 'symbol': 'lemon', 'colour': 'red', 'cup': 'golden'}
>>> write(log) == text
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pathcheck.notation import (
    Reader,
    Token,
    checked,
    fragment,
    integer,
    literal,
    note,
    quote,
    scalar,
    text_value,
    turns,
    word,
)

FORMAT = "memo-dice/1"
KEYWORDS = ("round",)
LISTS = ("covering", "uncovering")
"""The keywords of a turn written as one ``$`` value: ``covering $VALUE``."""
_DIE_KEYS = tuple(f"die{i}" for i in range(1, 10))


def _word(text: str) -> str:
    return word(text) if text not in KEYWORDS and text != "-" else quote(text)


def _name(value: Any) -> str:
    return scalar(value, _word)


def _face(reader: Reader, tokens: list[Token], i: int) -> tuple[Any, Any, int]:
    """Read ``symbol/colour`` (one token) or ``symbol colour`` (two); the index after it."""
    if i >= len(tokens):
        raise reader.fail(tokens[-1], "expected a face SYMBOL/COLOUR after it")
    token = tokens[i]
    if token.kind == "word" and "/" in token.text:
        symbol, _, colour = token.text.rpartition("/")
        return symbol, colour, i + 1
    if i + 1 >= len(tokens):
        raise reader.fail(token, "expected a face SYMBOL/COLOUR (e.g. cat/blue)")
    return token.value, tokens[i + 1].value, i + 2


def _guess(symbol: Any) -> str:
    """A guess: a symbol with a ``/`` is always quoted (a bare one would read as a face)."""
    return quote(symbol) if isinstance(symbol, str) and "/" in symbol else _name(symbol)


def _face_text(symbol: Any, colour: Any) -> str:
    if isinstance(symbol, str) and isinstance(colour, str) and "/" not in symbol \
            and word(symbol) == symbol and word(colour) == colour and symbol and colour:
        return f"{symbol}/{colour}"
    return f"{scalar(symbol, quote)} {_name(colour)}"


def _read_face(text: str) -> Any:
    reader, tokens = fragment(text)
    if len(tokens) == 1 and tokens[0].kind == "json":
        return tokens[0].value
    symbol, colour, i = _face(reader, tokens, 0)
    if i != len(tokens):
        raise ValueError(text)
    return {"symbol": symbol, "colour": colour}


def _write_face(face: Any) -> str:
    return checked(face, lambda f: _face_text(f["symbol"], f["colour"])
                   if list(f) == ["symbol", "colour"] else "", _read_face)


def parse(reader: Reader) -> dict[str, Any]:
    """The ``memo-dice/1`` log of a notation text."""
    reader.check_keys(("players", "comment", *_DIE_KEYS))
    log: dict[str, Any] = {"format": FORMAT}
    comment = reader.text("comment")
    if comment is not None:
        log["comment"] = comment
    players = reader.words("players")
    if players is None:
        raise reader.fail(None, "expected a 'players:' line in the header")
    log["players"] = [t.value for t in players]
    if any(key in reader.header for key in _DIE_KEYS):
        dice = []
        for key in _DIE_KEYS:
            tokens = reader.words(key)
            if tokens is None:
                raise reader.fail(None, f"the dice are given, but not {key}:")
            faces: list[Any] = []
            i = 0
            while i < len(tokens):
                if tokens[i].kind == "json":  # a face the usual form cannot carry
                    faces.append(tokens[i].value)
                    i += 1
                    continue
                symbol, colour, i = _face(reader, tokens, i)
                faces.append({"symbol": symbol, "colour": colour})
            dice.append(faces)
        log["dice"] = dice
    rounds: list[dict[str, Any]] = []
    for line in reader.lines:
        first = line.tokens[0]
        if first.kind == "word" and first.text == "round":
            rnd: dict[str, Any] = {"covering": [], "uncovering": []}
            for token in line.tokens[1:]:
                if token.kind != "note":
                    raise reader.fail(token, "expected nothing after 'round' but a {comment}")
                rnd["comment"] = token.text
            rounds.append(reader.at(rnd, first))
            continue
        if not rounds:
            raise reader.fail(first, "expected 'round' before the first turn")
        for turn in turns(line.tokens):
            _turn(reader, turn, rounds[-1])
    log["rounds"] = rounds
    return log


def _turn(reader: Reader, turn: list[Token], rnd: dict[str, Any]) -> None:
    if len(turn) == 2 and turn[0].kind == "word" and turn[0].text in LISTS \
            and turn[1].kind == "json":  # a turn the usual form cannot carry
        if turn[0].text == "covering" and rnd["uncovering"]:
            raise reader.fail(turn[0], "a covering turn after the uncovering began; "
                                       "start a new 'round'")
        rnd[turn[0].text].append(reader.at(turn[1].value, turn[0]))
        return
    if len(turn) < 3:
        raise reader.fail(turn[-1], "expected PLAYER DIE SYMBOL/COLOUR CUP "
                                    "or PLAYER CUP GUESS")
    player, number = turn[0].value, turn[1]
    if len(turn) == 3 and turn[2].kind == "word" and "/" in turn[2].text:
        raise reader.fail(turn[2], "expected the cup colour after the face (a covering turn "
                                   "is PLAYER DIE SYMBOL/COLOUR CUP)")
    if len(turn) == 3:
        cup = integer(reader, number, 0, 10**6, "a cup number")
        guess = None if turn[2].kind == "word" and turn[2].text == "-" else turn[2].value
        rnd["uncovering"].append(reader.at({"player": player, "cup": cup, "guess": guess},
                                           turn[0]))
        return
    die = integer(reader, number, 0, 10**6, "a die number")
    symbol, colour, i = _face(reader, turn, 2)
    if i != len(turn) - 1:
        raise reader.fail(turn[min(i, len(turn) - 1)], "expected the cup colour last")
    if rnd["uncovering"]:
        raise reader.fail(turn[0], "a covering turn after the uncovering began; "
                                   "start a new 'round'")
    rnd["covering"].append(reader.at({"player": player, "die": die, "symbol": symbol,
                                      "colour": colour, "cup": turn[i].value}, turn[0]))


def write(log: dict[str, Any]) -> str:
    """The notation of a ``memo-dice/1`` log."""
    out = ["#! memo-dice/1"]
    players = list(log.get("players", []))
    out.append("players: " + " ".join(_name(p) for p in players))
    if "comment" in log:
        out.append("comment: " + scalar(log["comment"], text_value))
    for i, faces in enumerate(log.get("dice", ()), 1):
        out.append(f"die{i}: " + " ".join(_write_face(f) for f in faces))
    per_line = max(len(players), 1)
    for rnd in log.get("rounds", ()):
        out.append("round" + (" " + note(rnd["comment"]) if "comment" in rnd else ""))
        rolls = [_write_turn("covering", r, _plain_roll) for r in rnd["covering"]]
        guesses = [_write_turn("uncovering", g, _plain_guess) for g in rnd["uncovering"]]
        for items in (rolls, guesses):
            for k in range(0, len(items), per_line):
                out.append(" · ".join(items[k:k + per_line]))
    return "\n".join(out) + "\n"


def _plain_roll(roll: dict[str, Any]) -> str:
    return (f"{_name(roll['player'])} {roll['die']} {_face_text(roll['symbol'], roll['colour'])} "
            f"{_name(roll['cup'])}")


def _plain_guess(guess: dict[str, Any]) -> str:
    return f"{_name(guess['player'])} {guess['cup']} " \
           f"{'-' if guess['guess'] is None else _guess(guess['guess'])}"


def _write_turn(kind: str, turn: Any, plain: Callable[[dict[str, Any]], str]) -> str:
    """A covering or uncovering turn, or ``KIND $VALUE`` when its usual form would not read
    back as exactly this turn (a wrong-typed or malformed one)."""

    def read(text: str) -> Any:
        reader, tokens = fragment(text)
        parts = list(turns(tokens))
        rnd: dict[str, Any] = {"covering": [], "uncovering": []}
        if len(parts) != 1:
            raise ValueError(text)
        _turn(reader, parts[0], rnd)
        if len(rnd[kind]) != 1:
            raise ValueError(text)
        return rnd[kind][0]

    text = checked(turn, plain, read)
    return f"{kind} {text}" if text == literal(turn) else text
