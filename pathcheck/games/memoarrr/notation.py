"""Memoarrr! notation (``#! memoarrr/1``): the ``memoarrr/1`` log as text.

Header: ``edition: 2023|2018``, ``variants: expert=yes ordered_stack=no``, ``players:`` (seat
order), ``start:`` (round 1's start player), ``peeks: Ann south Ben west``, ``treasures:``
(the stack, top first), ``comment:``, and optionally the island as dealt, ``row1:`` (north) to
``row5:``, five cards each from west to east (``-`` the empty centre, ``?`` a card nobody saw).

Body: ``round V...`` opens a round with its volcano stack, top first (``dark``/``light``, or
1/3/7 birds in 2018; ``{comment}`` allowed). A turn is ``PLAYER POS [CARD]`` with the ability
used, ``swap=POS`` (octopus), ``mark=POS`` (walrus), ``peek=POS`` (penguin), or
``PLAYER volcano``. The card seen (``crab/lava``) is what fills the island when the rows are
left out: every card that was revealed is known (octopus swaps are followed back to where the
card lay at setup); a card never revealed stays unknown.

>>> from pathcheck.notation import parse, write
>>> text = '''#! memoarrr/1
... edition: 2023
... players: Ann Ben
... start: Ben
... peeks: Ann south Ben west
... treasures: 1 3 2 1 2 2 4
... round dark
... Ben D4 penguin/lava · Ann A5 penguin/desert
... Ben B1 crab/flowers
... '''
>>> log = parse(text, source="m.pcn")
>>> log["island"][3][3], log["island"][0][0], log["rounds"][0]["actions"][2]
('penguin/lava', None, {'player': 'Ben', 'reveal': 'B1'})
>>> write(log) == text
True
"""

from __future__ import annotations

from typing import Any

from pathcheck.notation import (
    Reader,
    Token,
    checked,
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

FORMAT = "memoarrr/1"
KEYWORDS = ("round", "volcano")
_ROWS = tuple(f"row{i}" for i in range(1, 6))
_KEYS = ("edition", "variants", "players", "start", "peeks", "treasures", *_ROWS, "comment")
_ABILITIES = ("swap", "mark", "peek")
CENTRE = "C3"


def _word(text: str) -> str:
    return quote(text) if text in KEYWORDS or text in ("-", "?") or text.isdigit() \
        else word(text)


def _name(value: Any) -> str:
    return scalar(value, _word)


def _number(value: Any) -> str:
    """A number where one goes (ruby count, edition, a 2018 volcano), or another value."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    return _name(value)


def _read_number(token: Token) -> Any:
    """A bare number is that number; a quoted word or a ``$`` value is the value written."""
    number = ascii_number(token.text) if token.kind == "word" else None
    return token.value if number is None else number


def index(pos: str) -> tuple[int, int] | None:
    """Island row and column of a position ``B4`` (None if it is not one).

    >>> index("B4"), index("Z9")
    ((3, 1), None)
    """
    if len(pos) == 2 and pos[0] in "ABCDE" and pos[1] in "12345":
        return int(pos[1]) - 1, "ABCDE".index(pos[0])
    return None


def follow(rounds: list[dict[str, Any]]) -> list[list[str | None]]:
    """For each round and action, where the revealed card lay at setup (after octopus swaps).

    >>> follow([{"actions": [{"player": "A", "reveal": "B1", "swap": "B2"},
    ...                      {"player": "B", "reveal": "B1"}]}])
    [['B1', 'B2']]
    """
    origin: dict[str, str] = {}
    out: list[list[str | None]] = []
    for rnd in rounds:
        row: list[str | None] = []
        for action in rnd.get("actions", ()):
            pos = action.get("reveal") if isinstance(action, dict) else None
            if not isinstance(pos, str):
                row.append(None)
                continue
            row.append(origin.get(pos, pos))
            target = action.get("swap")
            if isinstance(target, str) and target not in (CENTRE, pos):
                origin[pos], origin[target] = origin.get(target, target), origin.get(pos, pos)
        out.append(row)
    return out


def parse(reader: Reader) -> dict[str, Any]:
    """The ``memoarrr/1`` log of a notation text."""
    reader.check_keys(_KEYS)
    log: dict[str, Any] = {"format": FORMAT}
    for key in ("edition", "players", "start"):
        if key not in reader.header:
            raise reader.fail(None, f"expected a '{key}:' line in the header")
    edition = reader.words("edition") or []
    if len(edition) == 1 and edition[0].kind in ("string", "json"):
        log["edition"] = edition[0].value  # not a number: kept as written, for the checks
    else:
        year = ascii_number(edition[0].text) if len(edition) == 1 else None
        if year is None:
            raise reader.fail(edition[0] if len(edition) == 1 else reader.header["edition"][1],
                              "edition: expected 2023 or 2018")
        log["edition"] = year
    variants = reader.words("variants")
    if variants is not None:
        log["variants"] = {}
        for token in variants:
            key, eq, value = token.text.partition("=")
            if value not in ("yes", "no", "") or key not in ("expert", "ordered_stack"):
                raise reader.fail(token, "expected expert=yes|no or ordered_stack=yes|no")
            log["variants"][key] = value != "no" if eq else True
    log["players"] = [t.value for t in reader.words("players") or ()]
    start = reader.words("start") or []
    if len(start) != 1:
        raise reader.fail(reader.header["start"][1], "start: expected one player name")
    log["start_player"] = start[0].value
    island: list[list[str | None]] = [[None] * 5 for _ in range(5)]
    given = any(key in reader.header for key in _ROWS)
    for r, key in enumerate(_ROWS):
        tokens = reader.words(key)
        if tokens is None:
            if given:
                raise reader.fail(None, f"the island is given, but not {key}:")
            continue
        if len(tokens) != 5:
            raise reader.fail(reader.header[key][1], f"{key}: expected 5 cards (west to east)")
        island[r] = [None if t.kind == "word" and t.text in ("-", "?") else t.value
                     for t in tokens]
    log["island"] = island
    peeks = reader.words("peeks") or []
    if len(peeks) % 2:
        raise reader.fail(peeks[-1], "peeks: expected pairs NAME SIDE")
    log["peeks"] = {peeks[i].text: peeks[i + 1].value for i in range(0, len(peeks), 2)}
    treasures = reader.words("treasures")
    for token in treasures or ():
        if token.kind == "word" and ascii_number(token.text) is None:
            raise reader.fail(token, "treasures: expected the rubies, top first")
    if treasures is not None:  # left out until they are turned over at the end
        log["treasures"] = [_read_number(t) for t in treasures]
    log["rounds"] = _rounds(reader)
    comment = reader.text("comment")
    if comment is not None:
        log["comment"] = comment
    _fill(reader, log)
    return log


def _rounds(reader: Reader) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    for line in reader.lines:
        first = line.tokens[0]
        if first.kind == "word" and first.text == "round":
            rnd: dict[str, Any] = {"volcanoes": []}
            for token in line.tokens[1:]:
                if token.kind == "note":
                    rnd["comment"] = token.text
                else:
                    rnd["volcanoes"].append(_read_number(token))
            rnd["actions"] = []
            rounds.append(reader.at(rnd, first))
            continue
        if not rounds:
            raise reader.fail(first, "expected 'round VOLCANO...' before the first turn")
        for turn in turns(line.tokens):
            rounds[-1]["actions"].append(reader.at(_action(reader, turn), turn[0]))
    for rnd in rounds:
        if "comment" in rnd:
            rnd["comment"] = rnd.pop("comment")
    return rounds


def _action(reader: Reader, turn: list[Token]) -> Any:
    if len(turn) == 1 and turn[0].kind == "json":
        return turn[0].value  # an action the usual form cannot carry (see _write_action)
    if len(turn) < 2:
        raise reader.fail(turn[0], "expected PLAYER POS [CARD] or PLAYER volcano")
    player, what = turn[0].value, turn[1]
    if what.kind == "word" and what.text == "volcano":
        if len(turn) > 2:
            raise reader.fail(turn[2], "expected nothing after 'volcano'")
        return {"player": player, "volcano": True}
    action: dict[str, Any] = {"player": player, "reveal": what.text}
    for token in turn[2:]:
        key, eq, value = token.text.partition("=")
        if token.kind == "word" and eq and key in _ABILITIES and value:
            action[key] = value
        elif "/" in token.text and token.kind in ("word", "string") and "card" not in action:
            action["card"] = token
        else:
            raise reader.fail(token, "expected the card seen (animal/landscape) or "
                                     "swap=POS, mark=POS, peek=POS")
    return action


def _fill(reader: Reader, log: dict[str, Any]) -> None:
    """Put each card seen into the island where it lay at setup; drop the card tokens."""
    island = log["island"]
    said: dict[tuple[int, int], str] = {}  # where each card of the island was recorded
    for number, (rnd, origins) in enumerate(zip(log["rounds"], follow(log["rounds"]),
                                                strict=True), 1):
        for move, (action, origin) in enumerate(zip(rnd["actions"], origins, strict=True), 1):
            token = action.pop("card", None) if isinstance(action, dict) else None
            if token is None:
                continue
            at = index(origin) if origin is not None else None
            if at is None:
                raise reader.fail(token, f"{action['reveal']} is not a position of the island")
            known = island[at[0]][at[1]]
            if known is None:
                island[at[0]][at[1]] = token.text
                said[at] = f"round {number}, move {move}"
            elif known != token.text:
                # the card recorded before is not named: the players may not have seen it
                # (the island's header line, a card moved by a swap since)
                moved = "" if origin == action["reveal"] else f" (it lay at {origin} at setup)"
                before = said.get(at, "the island: line of the header")
                raise reader.fail(token, f"the card at {action['reveal']}{moved} was recorded "
                                         f"as another card before ({before}): check the card "
                                         "turned up and that line")


def _card(card: str) -> str:
    return quote(card) if "=" in card else _word(card)


def _plain_action(action: dict[str, Any], card: str | None = None) -> str:
    """``PLAYER POS [CARD] [ABILITY=POS]`` or ``PLAYER volcano``."""
    if action.get("volcano") is True and list(action) == ["player", "volcano"]:
        return f"{_name(action['player'])} volcano"
    parts = [_name(action["player"]), _word(action["reveal"])]
    if card is not None:
        parts.append(_card(card))
    parts.extend(f"{k}={action[k]}" for k in _ABILITIES if k in action)
    return " ".join(parts)


def _read_action(text: str) -> Any:
    return one_turn(text, _action)


def _write_action(action: Any) -> str:
    """An action as ``PLAYER POS ...`` (without the card seen), or as one ``$`` value when
    that would not read back as exactly this action (a wrong-typed or malformed one)."""
    return checked(action, _plain_action, _read_action)


def write(log: dict[str, Any]) -> str:
    """The notation of a ``memoarrr/1`` log."""
    out = ["#! memoarrr/1", f"edition: {_number(log['edition'])}"]
    if "variants" in log:
        out.append("variants: " + " ".join(
            f"{k}={'yes' if v else 'no'}" for k, v in log["variants"].items()))
    out.append("players: " + " ".join(_name(p) for p in log["players"]))
    out.append("start: " + _name(log["start_player"]))
    out.append("peeks: " + " ".join(f"{_name(k)} {_name(v)}" for k, v in log["peeks"].items()))
    if "treasures" in log:
        out.append("treasures: " + " ".join(_number(t) for t in log["treasures"]))
    island = log["island"]
    origins = follow(log["rounds"])
    actions = [[_write_action(action) for action in rnd["actions"]] for rnd in log["rounds"]]
    # an action written as a '$' value carries no card seen: its card goes in the rows
    whole = {id(a) for rnd, texts in zip(log["rounds"], actions, strict=True)
             for a, text in zip(rnd["actions"], texts, strict=True) if text == literal(a)}
    seen = {o for rnd, row in zip(log["rounds"], origins, strict=True)
            for a, o in zip(rnd["actions"], row, strict=True)
            if o is not None and id(a) not in whole}
    hidden = any(card is not None and (f"{'ABCDE'[c]}{r + 1}" not in seen
                                       or not isinstance(card, str) or "/" not in card)
                 for r, row in enumerate(island) for c, card in enumerate(row))
    if hidden:
        for r in range(5):
            out.append(f"row{r + 1}: " + " ".join(
                ("-" if (r, c) == (2, 2) else "?") if island[r][c] is None
                else _name(island[r][c]) for c in range(5)))
    if "comment" in log:
        out.append("comment: " + scalar(log["comment"], text_value))
    for rnd, row, texts in zip(log["rounds"], origins, actions, strict=True):
        head = " ".join(["round", *(_number(v) for v in rnd["volcanoes"])])
        out.append(head + (" " + note(rnd["comment"]) if "comment" in rnd else ""))
        items = []
        for action, text, origin in zip(rnd["actions"], texts, row, strict=True):
            at = index(origin) if origin is not None and id(action) not in whole else None
            card = island[at[0]][at[1]] if at is not None else None
            if isinstance(card, str) and "/" in card:
                # the card seen: read into the island where it lay at setup
                text = _plain_action(action, card)
            items.append(text)
        per_line = max(len(log["players"]), 1)
        for k in range(0, len(items), per_line):
            out.append(" · ".join(items[k:k + per_line]))
    return "\n".join(out) + "\n"
