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

from typing import Any

from pathcheck.notation import Reader, Token, integer, note, text_value, turns, word

FORMAT = "memo-dice/1"
KEYWORDS = ("round",)
_DIE_KEYS = tuple(f"die{i}" for i in range(1, 10))


def _name(text: str) -> str:
    return word(text) if text not in KEYWORDS and text != "-" else '"' + text + '"'


def _face(reader: Reader, tokens: list[Token], i: int) -> tuple[str, str, int]:
    """Read ``symbol/colour`` (one token) or ``symbol colour`` (two); the index after it."""
    if i >= len(tokens):
        raise reader.fail(tokens[-1], "expected a face SYMBOL/COLOUR after it")
    token = tokens[i]
    if token.kind == "word" and "/" in token.text:
        symbol, _, colour = token.text.rpartition("/")
        return symbol, colour, i + 1
    if i + 1 >= len(tokens):
        raise reader.fail(token, "expected a face SYMBOL/COLOUR (e.g. cat/blue)")
    return token.text, tokens[i + 1].text, i + 2


def _guess(symbol: str) -> str:
    return _name(symbol) if "/" not in symbol else '"' + symbol + '"'


def _face_text(symbol: str, colour: str) -> str:
    if "/" not in symbol and word(symbol) == symbol and word(colour) == colour:
        return f"{symbol}/{colour}"
    return f"{word(symbol)} {word(colour)}"


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
    log["players"] = [t.text for t in players]
    if any(key in reader.header for key in _DIE_KEYS):
        dice = []
        for key in _DIE_KEYS:
            tokens = reader.words(key)
            if tokens is None:
                raise reader.fail(None, f"the dice are given, but not {key}:")
            faces, i = [], 0
            while i < len(tokens):
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
    if len(turn) < 3:
        raise reader.fail(turn[-1], "expected PLAYER DIE SYMBOL/COLOUR CUP "
                                    "or PLAYER CUP GUESS")
    player, number = turn[0].text, turn[1]
    if len(turn) == 3 and turn[2].kind == "word" and "/" in turn[2].text:
        raise reader.fail(turn[2], "expected the cup colour after the face (a covering turn "
                                   "is PLAYER DIE SYMBOL/COLOUR CUP)")
    if len(turn) == 3:
        cup = integer(reader, number, 0, 10**6, "a cup number")
        guess = None if turn[2].kind == "word" and turn[2].text == "-" else turn[2].text
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
                                      "colour": colour, "cup": turn[i].text}, turn[0]))


def write(log: dict[str, Any]) -> str:
    """The notation of a ``memo-dice/1`` log."""
    out = ["#! memo-dice/1"]
    players = list(log.get("players", []))
    out.append("players: " + " ".join(_name(p) for p in players))
    if "comment" in log:
        out.append("comment: " + text_value(log["comment"]))
    for i, faces in enumerate(log.get("dice", ()), 1):
        out.append(f"die{i}: " + " ".join(_face_text(f["symbol"], f["colour"]) for f in faces))
    per_line = max(len(players), 1)
    for rnd in log.get("rounds", ()):
        out.append("round" + (" " + note(rnd["comment"]) if "comment" in rnd else ""))
        rolls = [f"{_name(r['player'])} {r['die']} {_face_text(r['symbol'], r['colour'])} "
                 f"{word(r['cup'])}" for r in rnd["covering"]]
        guesses = [f"{_name(g['player'])} {g['cup']} "
                   f"{'-' if g['guess'] is None else _guess(g['guess'])}"
                   for g in rnd["uncovering"]]
        for items in (rolls, guesses):
            for k in range(0, len(items), per_line):
                out.append(" · ".join(items[k:k + per_line]))
    return "\n".join(out) + "\n"
