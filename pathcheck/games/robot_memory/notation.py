"""Robot memory notation (``#! robot-memory/1``): the ``robot-memory/1`` log as text.

Header: ``variant:`` (standard, solo, team, 5+, custom), ``difficulty:``, ``players:``
(clockwise) or, in team play, ``team1:``/``team2:`` as ``NAME captain NAME members NAME...``,
``event:``. Body: ``round ROWSxCOLUMNS first NAME`` opens a round; its grid may follow, one
``row`` line a row (cards ``type/colour/number``, ``short-circuit``, ``?`` a card not
recorded, ``-`` no card; no ``row`` lines: every card is not recorded), then
``captains TEAM NAME...`` where captains changed. A turn is
``CHOOSER GUESSER rRcC GUESS [=POINTS] [is CARD]``; a guess names ``short-circuit`` or any of
the type, colour and number joined by ``/`` (``bulb/red``, ``3``; ``-`` names nothing);
``is CARD`` is the card turned face up, which fills in its place of the grid (as the recorder
asks for it when it is revealed); a chained guess after a short circuit follows as
``+ CHOOSER rRcC GUESS [=POINTS] [is CARD]``.

>>> from pathcheck.notation import parse, write
>>> text = '''#! robot-memory/1
... variant: standard
... players: Ann Ben
... round 1x2 first Ann
... row short-circuit bulb/yellow/2
... Ben Ann r1c1 short-circuit =0 + Ann r1c2 bulb/yellow =2
... '''
>>> log = parse(text, source="r.pcn")
>>> log["rounds"][0]["turns"][0]["chain"][0]["guess"]
{'type': 'bulb', 'colour': 'yellow'}
>>> write(log) == text
True

Cards named as they are revealed, the grid left out:

>>> log = parse('''#! robot-memory/1
... variant: standard
... players: Ann Ben
... round 1x2 first Ann
... Ben Ann r1c2 bulb/yellow =2 is bulb/yellow/2
... ''', source="r.pcn")
>>> log["rounds"][0]["grid"]["cards"]
[['unknown', {'type': 'bulb', 'colour': 'yellow', 'number': 2}]]
>>> print(write(log).splitlines()[4])
row ? bulb/yellow/2
"""

from __future__ import annotations

import re
from typing import Any

from pathcheck.notation import (
    Reader,
    Token,
    checked,
    fragment,
    one_turn,
    quote,
    scalar,
    text_value,
    turns,
    word,
)
from pathcheck.reading.bounded import MAX_DIGITS
from pathcheck.reading.text import ascii_number

FORMAT = "robot-memory/1"
KEYWORDS = ("round", "row", "captains", "+", "-", "?", "is")
UNKNOWN = "unknown"
"""A card not recorded (``?``)."""
SHORT = "short-circuit"
TYPES = ("battery", "gear", "tool", "bulb")
COLOURS = ("yellow", "red", "blue", "green")
NUMBERS = ("1", "2", "3", "4")
_NUMBER = f"([0-9]{{1,{MAX_DIGITS}}})"
_POSITION = re.compile(f"^r{_NUMBER}c{_NUMBER}$")
_SIZE = re.compile(f"^{_NUMBER}x{_NUMBER}$")


def _word(text: str) -> str:
    plain = word(text)
    if text in KEYWORDS or plain != text or text.startswith("=") or _POSITION.match(text):
        return quote(text)
    return plain


def _name(value: Any) -> str:
    return scalar(value, _word)


def features(value: Any, empty: Any = None) -> str:
    """A card or guess as one token (``empty`` is what ``-`` stands for: no card, or a
    guess naming nothing); a value the usual form cannot carry is a ``$`` value.

    >>> features({"type": "bulb", "number": 3}), features(SHORT), features({"colour": "x"})
    ('bulb/3', 'short-circuit', 'colour=x')
    >>> features({"type": "bulb", "number": "3"}), features("3")
    ('${"type":"bulb","number":"3"}', '"3"')
    """
    def read(text: str) -> Any:
        reader, tokens = fragment(text)
        if len(tokens) != 1:
            raise ValueError(text)
        return read_features(reader, tokens[0], empty)

    return checked(value, lambda v: _plain_features(v, empty), read)


def _plain_features(value: Any, empty: Any) -> str:
    if value is None or value == empty:
        return "-"
    if value == UNKNOWN:
        return "?"
    if not isinstance(value, dict):
        return SHORT if value == SHORT else scalar(value, quote)
    parts = []
    for key, known in (("type", TYPES), ("colour", COLOURS), ("number", NUMBERS)):
        if key in value:
            text = str(value[key])
            plain = text in known and (key != "number" or isinstance(value[key], int))
            parts.append(text if plain else f"{key}={text}")
    return "/".join(parts)


def read_features(reader: Reader, token: Token, empty: Any) -> Any:
    """A card or guess from its token (``empty`` is what ``-`` stands for)."""
    if token.kind in ("string", "json"):
        return token.value
    if token.text == SHORT:
        return SHORT
    if token.text == "-":
        return empty
    if token.text == "?":
        return UNKNOWN
    out: dict[str, Any] = {}
    for part in token.text.split("/"):
        key, eq, value = part.partition("=")
        if eq and key in ("type", "colour", "number"):
            digits = ascii_number(value) if key == "number" else None
            out[key] = value if digits is None else digits
        elif part in TYPES:
            out["type"] = part
        elif part in COLOURS:
            out["colour"] = part
        elif part in NUMBERS:
            out["number"] = int(part)
        else:
            raise reader.fail(token, f"expected short-circuit or type/colour/number ({part!r} "
                                     f"is none of {', '.join(TYPES + COLOURS)}, 1-4)")
    return out


def parse(reader: Reader) -> dict[str, Any]:
    """The ``robot-memory/1`` log of a notation text."""
    reader.check_keys(("variant", "difficulty", "players", "team1", "team2", "event"))
    log: dict[str, Any] = {"format": FORMAT}
    variant = reader.words("variant")
    if not variant:
        raise reader.fail(None, "expected a 'variant:' line in the header")
    log["variant"] = variant[0].value
    difficulty = reader.words("difficulty")
    if difficulty:
        log["difficulty"] = difficulty[0].value
    players = reader.words("players")
    if players is not None:
        log["players"] = [t.value for t in players]
    for key in ("team1", "team2"):
        tokens = reader.words(key)
        if tokens is None:
            continue
        texts = [t.text if t.kind == "word" else None for t in tokens]
        if len(tokens) < 5 or texts[1] != "captain" or texts[3] != "members":
            raise reader.fail(reader.header[key][1],
                              f"{key}: expected NAME captain NAME members NAME...")
        log.setdefault("teams", []).append({"name": tokens[0].value,
                                            "captain": tokens[2].value,
                                            "members": [t.value for t in tokens[4:]]})
    rounds: list[dict[str, Any]] = []
    for line in reader.lines:
        first = line.tokens[0]
        keyword = first.text if first.kind == "word" else None
        if keyword == "round":
            rounds.append(reader.at(_round(reader, line.tokens), first))
            continue
        if not rounds:
            raise reader.fail(first, "expected 'round ROWSxCOLUMNS first NAME' first")
        rnd = rounds[-1]
        if keyword == "row":
            if rnd["turns"]:
                raise reader.fail(first, "the grid comes before the round's first turn")
            rnd["grid"]["cards"].append(reader.at([read_features(reader, t, None)
                                                   for t in line.tokens[1:]], first))
        elif keyword == "captains":
            pairs = line.tokens[1:]
            if len(pairs) % 2:
                raise reader.fail(first, "expected captains TEAM NAME [TEAM NAME]")
            rnd["captains"] = {pairs[i].text: pairs[i + 1].value
                               for i in range(0, len(pairs), 2)}
        else:
            for turn in turns(line.tokens):
                revealed: list[tuple[Token, Any]] = []
                rnd["turns"].append(reader.at(_turn(reader, turn, revealed), turn[0]))
                _reveal(reader, rnd["grid"], revealed)
    for rnd in rounds:
        _unrecorded(rnd["grid"])
    log["rounds"] = rounds
    event = reader.text("event")
    if event is not None:
        log["event"] = event
    return log


def _round(reader: Reader, tokens: list[Token]) -> dict[str, Any]:
    size = _SIZE.match(tokens[1].text) if len(tokens) > 1 else None
    if len(tokens) != 4 or size is None or tokens[2].text != "first":
        raise reader.fail(tokens[min(1, len(tokens) - 1)],
                          "expected 'round ROWSxCOLUMNS first NAME', e.g. round 4x4 first Ann")
    grid = {"rows": int(size.group(1)), "columns": int(size.group(2)), "cards": []}
    return {"grid": grid, "first": tokens[3].value, "turns": []}


def _unrecorded(grid: dict[str, Any]) -> None:
    """A grid given by no ``row`` line: every card not recorded (yet)."""
    if not grid["cards"]:
        grid["cards"] = [[UNKNOWN] * grid["columns"] for _ in range(grid["rows"])]


def _reveal(reader: Reader, grid: dict[str, Any], revealed: list[tuple[Token, Any]]) -> None:
    """Fill in the grid with the cards a turn line names as turned face up (``is CARD``)."""
    if not revealed:
        return
    _unrecorded(grid)
    cards = grid["cards"]
    for token, out in revealed:
        row, column = out["position"]["row"], out["position"]["column"]
        if not (0 < row <= len(cards) and 0 < column <= len(cards[row - 1])):
            continue  # off the grid: the log reader says so
        card = read_features(reader, token, None)
        there = cards[row - 1][column - 1]
        if there == UNKNOWN:
            # a card's errors name the line that revealed it (a dict or list has its spot)
            cards[row - 1][column - 1] = reader.at(card, token) \
                if isinstance(card, (dict, list)) else card
        elif there != card and card != UNKNOWN:  # "is ?": nobody noted what the grid says
            raise reader.fail(token, f"r{row}c{column} is {features(there)} in the grid")


def _guess(reader: Reader, tokens: list[Token], i: int, out: dict[str, Any],
           revealed: list[tuple[Token, Any]]) -> int:
    """Read ``rRcC GUESS [=POINTS] [is CARD]`` from ``tokens[i]`` into ``out`` (the card
    revealed into ``revealed``); the index after it."""
    if i + 1 >= len(tokens):
        raise reader.fail(tokens[-1], "expected a position rRcC and a guess after it")
    where = _POSITION.match(tokens[i].text)
    if where is None:
        raise reader.fail(tokens[i], "expected a position rRcC, e.g. r2c3")
    out["position"] = {"row": int(where.group(1)), "column": int(where.group(2))}
    out["guess"] = read_features(reader, tokens[i + 1], {})
    i += 2
    if i < len(tokens) and tokens[i].text.startswith("=") and tokens[i].kind == "word":
        points = ascii_number(tokens[i].text[1:])
        if points is None:
            raise reader.fail(tokens[i], "expected the points scored, e.g. =2")
        out["points"] = points
        i += 1
    if i < len(tokens) and tokens[i].text == "is" and tokens[i].kind == "word":
        if i + 1 >= len(tokens):
            raise reader.fail(tokens[i], "expected the card turned face up after 'is'")
        revealed.append((tokens[i + 1], out))
        i += 2
    return i


def _turn(reader: Reader, tokens: list[Token], revealed: list[tuple[Token, Any]]) -> Any:
    if len(tokens) == 1 and tokens[0].kind == "json":
        return tokens[0].value  # a turn the usual form cannot carry (see _write_turn)
    if len(tokens) < 4:
        raise reader.fail(tokens[-1], "expected CHOOSER GUESSER rRcC GUESS [=POINTS]")
    turn: dict[str, Any] = {"chooser": tokens[0].value, "guesser": tokens[1].value}
    i = _guess(reader, tokens, 2, turn, revealed)
    while i < len(tokens):
        if tokens[i].text != "+" or tokens[i].kind != "word" or i + 1 >= len(tokens):
            raise reader.fail(tokens[i], "expected '+ CHOOSER rRcC GUESS' (a chained guess) "
                                         "or the next turn after '·'")
        link: dict[str, Any] = {"chooser": tokens[i + 1].value}
        i = _guess(reader, tokens, i + 2, link, revealed)
        turn.setdefault("chain", []).append(reader.at(link, tokens[i - 1]))
    return turn


def _write_guess(item: dict[str, Any]) -> str:
    pos = item["position"]
    text = f"r{pos['row']}c{pos['column']} {features(item['guess'], {})}"
    return text + (f" ={item['points']}" if "points" in item else "")


def write(log: dict[str, Any]) -> str:
    """The notation of a ``robot-memory/1`` log."""
    out = ["#! robot-memory/1", f"variant: {_name(log['variant'])}"]
    if "difficulty" in log:
        out.append(f"difficulty: {_name(log['difficulty'])}")
    if "players" in log:
        out.append("players: " + " ".join(_name(p) for p in log["players"]))
    for i, team in enumerate(log.get("teams", ()), 1):
        out.append(f"team{i}: {_name(team['name'])} captain {_name(team['captain'])} members "
                   + " ".join(_name(m) for m in team["members"]))
    if "event" in log:
        out.append("event: " + scalar(log["event"], text_value))
    for rnd in log["rounds"]:
        grid = rnd["grid"]
        out.append(f"round {grid['rows']}x{grid['columns']} first {_name(rnd['first'])}")
        for row in grid["cards"]:
            out.append("row " + " ".join(features(card) for card in row))
        if "captains" in rnd:
            out.append("captains " + " ".join(f"{_name(k)} {_name(v)}"
                                              for k, v in rnd["captains"].items()))
        out.extend(_write_turn(turn) for turn in rnd["turns"])
    return "\n".join(out) + "\n"


def _plain_turn(turn: dict[str, Any]) -> str:
    parts = [_name(turn["chooser"]), _name(turn["guesser"]), _write_guess(turn)]
    parts.extend(f"+ {_name(link['chooser'])} {_write_guess(link)}"
                 for link in turn.get("chain", ()))
    return " ".join(parts)


def _read_turn(text: str) -> Any:
    return one_turn(text, lambda reader, tokens: _turn(reader, tokens, []))


def _write_turn(turn: Any) -> str:
    """A turn as ``CHOOSER GUESSER rRcC GUESS ...``, or as one ``$`` value when that would
    not read back as exactly this turn (a wrong-typed or malformed one)."""
    return checked(turn, _plain_turn, _read_turn)
