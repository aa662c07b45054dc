"""Dungeon in memory notation: ``#! game/1`` (a whole game) and ``#! solo/1`` (a solo game).

A game: header ``players:`` (clockwise), ``mode: basic|advanced``, ``rules: 1 2`` (``none``),
``tileset:``, ``id:``, ``note:``. Body: ``exploration START_PLAYER`` opens an exploration,
optionally followed by its deal, ``hand NAME TILE...`` per player and ``deck TILE...`` (top
first; ``-`` for an empty one); leave the deal out when nobody saw it. Then the turns:
``PLAYER TILE@DIR``, ``+TILE`` the tile drawn (``+-``: the deck was empty), ``!NAME`` a LOST
announcement (in the order announced), then ``!=`` if several were simultaneous or ``!>`` if
one after the other (``"simultaneous"`` true / false), ``{text}`` a note.

>>> from pathcheck.notation import parse, write
>>> text = '''#! game/1
... players: Ann Bob Cy
... mode: basic
... rules: none
... exploration Ann
... Ann R1@N · Bob R2@E · Cy R3@S
... Ann I4@W !Bob !Cy
... '''
>>> log = parse(text, source="g.pcn")
>>> log["explorations"][0]["turns"][3]
{'player': 'Ann', 'tile': 'I4', 'dir': 'W', 'lost': ['Bob', 'Cy']}
>>> "hands" in log["explorations"][0]
False
>>> write(log) == text
True

A solo game is one dungeon a line (or ``|`` between dungeons), tiles as ``ID@DIR``:

>>> solo = parse("#! solo/1\\nrules: 2\\nSTART@N I1@N | I2@N\\n", source="s.pcn")
>>> solo["dungeons"]
[[{'tile': 'START', 'dir': 'N'}, {'tile': 'I1', 'dir': 'N'}], [{'tile': 'I2', 'dir': 'N'}]]
"""

from __future__ import annotations

from typing import Any

from pathcheck.notation import (
    Reader,
    Token,
    checked,
    fragment,
    literal,
    note,
    one_turn,
    quote,
    scalar,
    text_value,
    turns,
    word,
)
from pathcheck.reading.text import ascii_number

KEYWORDS = ("exploration", "hand", "hands", "deck")
_DIRS = ("N", "E", "S", "W")
_TOGETHER = {"=": True, ">": False}
"""``!=`` / ``!>`` after a turn's announcements: simultaneous / one after the other (a name
``=`` or ``>`` is written quoted)."""


def _word(text: str) -> str:
    plain = word(text)
    if text in KEYWORDS or plain != text or text[:1] in "!+-|" or "@" in text \
            or text in _TOGETHER:
        return quote(text)
    return plain


def _name(value: Any) -> str:
    """A player or tile where one goes: a word, quoted if need be, or a wrong-typed value."""
    return scalar(value, _word)


def _tiles(reader: Reader, tokens: list[Token]) -> list[Any]:
    if len(tokens) == 1 and tokens[0].text == "-" and tokens[0].kind == "word":
        return []
    return [t.value for t in tokens]


def _placement(reader: Reader, token: Token) -> tuple[str, str]:
    tile, at, direction = token.text.rpartition("@")
    if not at or not tile:
        raise reader.fail(token, "expected a tile as ID@DIR, e.g. R4@N")
    if not direction:
        raise reader.fail(token, "expected a direction N, E, S or W after '@'")
    # anything else is left to the log's checks, which name the field
    return reader.shared(tile), direction.upper() if direction.upper() in _DIRS else direction


def _header(reader: Reader, log: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in ("id", "note", "seed", "tileset"):
        if key in keys:
            value = reader.text(key)
            if value is not None:
                log[key] = value
    given = {key: reader.literal(key) for key in ("mode", "rules")}
    if given["mode"] is not None:
        log["advanced"] = given["mode"].value
    elif "mode" in keys and "mode" in reader.header:
        words = reader.words("mode") or []
        if len(words) != 1 or words[0].text not in ("basic", "advanced"):
            raise reader.fail(reader.header["mode"][1], "mode: expected basic or advanced")
        log["advanced"] = words[0].text == "advanced"
    rules = reader.words("rules")
    if given["rules"] is not None:
        log["rules"] = given["rules"].value
    elif rules is not None:
        if [t.text for t in rules] == ["none"]:
            log["rules"] = []
        else:
            out = []
            for token in rules:
                for part in token.text.split(","):
                    rule = ascii_number(part)
                    if rule is None:
                        raise reader.fail(token, "rules: expected rule numbers (1-4) or none")
                    out.append(rule)
            log["rules"] = out


def parse(reader: Reader) -> dict[str, Any]:
    """The ``game/1`` or ``solo/1`` log of a notation text."""
    if reader.format == "solo/1":
        return _parse_solo(reader)
    keys = ("players", "mode", "rules", "tileset", "id", "note")
    reader.check_keys(keys)
    log: dict[str, Any] = {"format": "game/1"}
    players = reader.words("players")
    if players is None:
        raise reader.fail(None, "expected a 'players:' line in the header")
    log["players"] = [t.value for t in players]
    _header(reader, log, keys)
    explorations: list[dict[str, Any]] = []
    for line in reader.lines:
        first = line.tokens[0]
        keyword = first.text if first.kind == "word" else None
        if keyword == "exploration":
            words = [t for t in line.tokens[1:] if t.kind != "note"]
            if len(words) != 1:
                raise reader.fail(first, "expected 'exploration START_PLAYER'")
            exploration: dict[str, Any] = {"start_player": words[0].value}
            for token in line.tokens[1:]:
                if token.kind == "note":
                    exploration["note"] = token.text
            exploration["turns"] = []
            explorations.append(reader.at(exploration, first))
            continue
        if not explorations:
            raise reader.fail(first, "expected 'exploration START_PLAYER' before the first turn")
        current = explorations[-1]
        if keyword in ("hand", "hands", "deck"):
            if current["turns"]:
                raise reader.fail(first, "the deal comes before the exploration's first turn")
            if keyword == "deck":
                if "deck" in current:
                    raise reader.fail(first, "a second deck line in one exploration")
                current["deck"] = reader.at(_tiles(reader, line.tokens[1:]), first)
            else:
                hands = current.setdefault("hands", reader.at({}, first))
                if keyword == "hands":
                    continue
                if len(line.tokens) < 2:
                    raise reader.fail(first, "expected 'hand PLAYER TILE...'")
                hands[line.tokens[1].text] = reader.at(_tiles(reader, line.tokens[2:]), first)
            continue
        for turn in turns(line.tokens):
            current["turns"].append(reader.at(_turn(reader, turn), turn[0]))
    log["explorations"] = explorations
    # the deal lines may come in any order; keep the JSON's key order (hands, deck, turns)
    for exploration in explorations:
        turns_ = exploration.pop("turns")
        for key in ("hands", "deck"):
            if key in exploration:
                exploration[key] = exploration.pop(key)
        exploration["turns"] = turns_
    return log


def _turn(reader: Reader, turn: list[Token]) -> Any:
    if len(turn) == 1 and turn[0].kind == "json":
        return turn[0].value  # a turn the usual form cannot carry (see _write_turn)
    if len(turn) < 2:
        raise reader.fail(turn[0], "expected PLAYER TILE@DIR")
    tile, direction = _placement(reader, turn[1])
    out: dict[str, Any] = {"player": turn[0].value, "tile": tile, "dir": direction}
    lost: list[str] = []
    rest = iter(turn[2:])
    for token in rest:
        if token.kind == "word" and token.text in ("!", "+"):
            following = next(rest, None)
            if following is None or following.kind != "string" \
                    or following.column != token.column + 1:
                raise reader.fail(token, f"expected a name right after {token.text!r}")
            if token.text == "!":  # a quoted name: never the mark !=/!>
                lost.append(following.text)
                continue
            token = Token(token.text + following.text, token.line, token.column)
            if "draw" in out:
                raise reader.fail(token, "a second draw in one turn")
            out["draw"] = token.text[1:]
            continue
        if token.kind == "note":
            out["note"] = token.text
        elif token.kind == "word" and token.text[:1] == "!" and token.text[1:] in _TOGETHER:
            if "simultaneous" in out:
                raise reader.fail(token, "a second '!=' or '!>' in one turn")
            out["simultaneous"] = _TOGETHER[token.text[1:]]
        elif token.kind == "word" and token.text.startswith("!") and len(token.text) > 1:
            lost.append(reader.shared(token.text[1:]))
        elif token.kind == "word" and token.text.startswith("+") and len(token.text) > 1:
            if "draw" in out:
                raise reader.fail(token, "a second draw in one turn")
            out["draw"] = None if token.text == "+-" else reader.shared(token.text[1:])
        else:
            raise reader.fail(token, "expected !NAME (LOST), +TILE (the draw) or the next turn "
                                     "after '·'")
    out["lost"] = lost
    if "simultaneous" in out:  # the JSON's key order: lost, then simultaneous
        out["simultaneous"] = out.pop("simultaneous")
    return out


def _parse_solo(reader: Reader) -> dict[str, Any]:
    keys = ("rules", "tileset", "id", "note", "seed")
    reader.check_keys(keys)
    log: dict[str, Any] = {"format": "solo/1"}
    _header(reader, log, keys)
    dungeons: list[list[Any]] = []
    for line in reader.lines:
        current: list[Any] = reader.at([], line)
        for token in line.tokens:
            if token.kind == "word" and token.text == "|":
                if current:
                    dungeons.append(current)
                current = reader.at([], token)
                continue
            if token.kind == "sep":
                continue
            current.append(reader.at(_solo_placement(reader, token), token))
        if current:
            dungeons.append(current)
    log["dungeons"] = dungeons
    return log


def _solo_placement(reader: Reader, token: Token) -> Any:
    if token.kind == "json":
        return token.value  # a placement the usual form cannot carry
    tile, direction = _placement(reader, token)
    return {"tile": tile, "dir": direction}


def _write_placement(placement: Any) -> str:
    def plain(p: dict[str, Any]) -> str:
        if not isinstance(p["tile"], str) or not isinstance(p["dir"], str):
            raise TypeError("not a tile and a direction")
        return f"{p['tile']}@{p['dir']}"

    def read(text: str) -> Any:
        reader, tokens = fragment(text)
        if len(tokens) != 1 or tokens[0].kind != "word" or tokens[0].text == "|":
            raise ValueError(text)
        return _solo_placement(reader, tokens[0])

    return checked(placement, plain, read)


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _write_header(log: dict[str, Any], out: list[str]) -> None:
    if "advanced" in log:
        advanced = log["advanced"]
        out.append("mode: " + (("advanced" if advanced else "basic")
                               if isinstance(advanced, bool) else literal(advanced)))
    if "rules" in log:
        rules = log["rules"]
        plain = isinstance(rules, list) and all(_is_number(r) for r in rules)
        out.append("rules: " + ((" ".join(str(r) for r in rules) or "none") if plain
                                else literal(rules)))
    for key in ("tileset", "seed", "id", "note"):
        if key in log:
            out.append(f"{key}: {scalar(log[key], text_value)}")


def _tile_list(tiles: list[Any]) -> str:
    return " ".join(_name(t) for t in tiles) if tiles else "-"


def write(log: dict[str, Any]) -> str:
    """The notation of a ``game/1`` or ``solo/1`` log."""
    if log.get("format") == "solo/1":
        out = ["#! solo/1"]
        _write_header(log, out)
        for dungeon in log["dungeons"]:
            out.append(" ".join(_write_placement(p) for p in dungeon))
        return "\n".join(out) + "\n"
    out = ["#! game/1"]
    players = list(log["players"])
    out.append("players: " + " ".join(_name(p) for p in players))
    _write_header(log, out)
    for exploration in log["explorations"]:
        line = "exploration " + _name(exploration["start_player"])
        if "note" in exploration:
            line += " " + note(exploration["note"])
        out.append(line)
        if "hands" in exploration:
            if not exploration["hands"]:
                out.append("hands -")
            for name, tiles in exploration["hands"].items():
                out.append(f"hand {_name(name)} {_tile_list(tiles)}")
        if "deck" in exploration:
            out.append("deck " + _tile_list(exploration["deck"]))
        items = [_write_turn(t) for t in exploration["turns"]]
        for k in range(0, len(items), len(players) or 1):
            out.append(" · ".join(items[k:k + len(players)]))
    return "\n".join(out) + "\n"


def _write_turn(turn: Any) -> str:
    """A turn as ``PLAYER TILE@DIR ...``, or as one ``$`` value when that would not read
    back as exactly this turn (a wrong-typed or malformed one)."""
    return checked(turn, _plain_turn, _read_turn)


def _read_turn(text: str) -> Any:
    return one_turn(text, _turn)


def _plain_turn(turn: dict[str, Any]) -> str:
    parts = [_name(turn["player"]), f"{turn['tile']}@{turn['dir']}"]
    if "draw" in turn:
        parts.append("+-" if turn["draw"] is None else "+" + _name(turn["draw"]))
    parts.extend("!" + _name(name) for name in turn.get("lost", ()))
    if "simultaneous" in turn:  # (a value other than true / false: the turn is a $ value)
        parts.append("!=" if turn["simultaneous"] is True else "!>")
    if "note" in turn:
        parts.append(note(turn["note"]))
    return " ".join(parts)
