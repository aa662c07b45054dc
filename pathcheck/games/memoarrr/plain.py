"""The fast reader of well-formed ``memoarrr/1`` logs: one plain pass over the decoded JSON.

:func:`~pathcheck.games.memoarrr.log.read_log` reads a log in steps (the typed msgspec read,
then each semantic check with its message), and a typical log takes as long there as its whole
replay. Nearly every log fed to ``adjudicate`` is well formed, so :func:`read_plain` checks
the same conditions as plain tests while it builds the :class:`~pathcheck.games.memoarrr.log.
Setup`, and gives up (None) at the first thing it does not take; ``read_log`` then reads the
log again and words the error. It is conservative: what it accepts, ``read_log`` accepts with
the same Setup (tests/games/test_memoarrr_plain.py checks it on fixtures, random and mutated
logs); what it refuses may still be well formed (a log built in Python with tuples for
lists, say), and is then simply read the slow way.

>>> import random
>>> from pathcheck.games.memoarrr.gen import random_game
>>> from pathcheck.games.memoarrr.log import read_log
>>> log = random_game(random.Random(3), players=3)
>>> read_plain(log) == read_log(log, source="demo")
True
>>> read_plain({**log, "players": ["Ann", "Ann", "Cy"]}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pathcheck.games.memoarrr.log import (
    FORMAT,
    Action,
    RoundLog,
    Setup,
    Volcano,
    make_volcano,
)
from pathcheck.games.memoarrr.rules import (
    ALL_CARDS,
    BIRDS,
    CENTRE,
    DARK,
    LANDSCAPE_ALIASES,
    LIGHT,
    SIDES,
    SIZE,
    TREASURES,
    Card,
    Pos,
)

_TOP_KEYS = frozenset(("format", "edition", "players", "start_player", "island", "peeks",
                       "treasures", "rounds", "variants", "comment"))
_TOP_REQUIRED = frozenset(("format", "edition", "players", "start_player", "island", "peeks",
                           "rounds"))
_VARIANT_KEYS = frozenset(("expert", "ordered_stack"))
_ROUND_KEYS = frozenset(("volcanoes", "actions", "comment"))
_ROUND_REQUIRED = frozenset(("volcanoes", "actions"))
_ACTION_KEYS = frozenset(("player", "reveal", "swap", "mark", "peek", "volcano"))
_SIDE_NAMES = tuple(SIDES)
_SORTED_TREASURES = sorted(TREASURES)

_SQUARES = tuple(Pos(r, c) for r in range(SIZE) for c in range(SIZE))
_POSITIONS: dict[str, Pos] = {str(pos): pos for pos in _SQUARES}
_NAMES = {pos: name for name, pos in _POSITIONS.items()}
"""Every position by its name, the centre included (an octopus may name it)."""
_BAD = Pos(-1, -1)
"""What :func:`_position` gives for a value that names no position."""

_CARD_NAMES: dict[str, tuple[Card, int]] = {
    str(card): (card, i) for i, card in enumerate(ALL_CARDS)}
"""Each card name (the 2018 ``ocean`` too) -> the card and its number, for the unique test."""
_CARD_NAMES.update(
    (f"{card.animal.value}/{alias}", (card, i))
    for i, card in enumerate(ALL_CARDS) for alias, land in LANDSCAPE_ALIASES.items()
    if card.landscape is land)

# The volcano cards, made once: a log names them with "dark"/"light" or 1/3/7 (exact types).
_VOLCANOES: dict[int, dict[Any, Volcano]] = {
    2023: {name: v for name in (DARK, LIGHT) if (v := make_volcano(name, 2023)) is not None},
    2018: {n: v for n in BIRDS if (v := make_volcano(n, 2018)) is not None},
}
_VOLCANO_TYPE = {2023: str, 2018: int}


def read_plain(log: Any) -> Setup | None:
    """The Setup of a well-formed ``log``, as :func:`~pathcheck.games.memoarrr.log.read_log`
    gives it; None for anything this pass does not take (then ``read_log`` decides)."""
    if type(log) is not dict or not _TOP_REQUIRED <= log.keys() <= _TOP_KEYS:
        return None
    edition = log["edition"]
    if log["format"] != FORMAT or type(edition) is not int or edition not in _VOLCANOES:
        return None
    variants = log.get("variants", {})
    if type(variants) is not dict or not variants.keys() <= _VARIANT_KEYS or any(
            type(v) is not bool for v in variants.values()):
        return None
    if type(log.get("comment", "")) is not str:
        return None
    raw_players = log["players"]
    if type(raw_players) is not list or not 2 <= len(raw_players) <= 4:
        return None
    players = tuple(raw_players)
    if any(type(p) is not str or not p for p in players) or len(set(players)) != len(players):
        return None
    if log["start_player"] not in players:  # a tuple: compared, never hashed
        return None
    island = _island(log["island"])
    peeks = log["peeks"]
    if (island is None or type(peeks) is not dict or len(peeks) != len(players)
            or any(p not in peeks or peeks[p] not in _SIDE_NAMES for p in players)):
        return None
    treasures = log.get("treasures")  # None: not turned over yet
    if treasures is not None and (
            type(treasures) is not list or len(treasures) != len(TREASURES)
            or any(type(t) is not int for t in treasures)
            or sorted(treasures) != _SORTED_TREASURES):
        return None
    rounds = _rounds(log["rounds"], edition, players, island)
    if rounds is None:
        return None
    return Setup(
        edition=edition,
        expert=variants.get("expert", False),
        ordered_stack=variants.get("ordered_stack", False),
        players=players,
        start_player=log["start_player"],
        island=island,
        peeks=dict(peeks),
        treasures=None if treasures is None else tuple(treasures),
        rounds=rounds,
    )


def _island(rows: Any) -> dict[Pos, Card] | None:
    """The cards named, by position; None unless 5 rows of 5, a null centre, no card twice."""
    if type(rows) is not list or len(rows) != SIZE:
        return None
    island: dict[Pos, Card] = {}
    seen = 0  # a bit per card
    squares = iter(_SQUARES)
    for row in rows:
        if type(row) is not list or len(row) != SIZE:
            return None
        for text in row:
            pos = next(squares)
            if text is None:
                continue
            if type(text) is not str or pos == CENTRE:
                return None
            named = _CARD_NAMES.get(text)
            if named is None or seen >> named[1] & 1:
                return None
            seen |= 1 << named[1]
            island[pos] = named[0]
    return island


def _position(item: Mapping[str, Any], key: str) -> Pos | None:
    """The position ``item[key]`` names (None if the key is absent), or ``_BAD``."""
    if key not in item:
        return None
    text = item[key]
    return _POSITIONS.get(text, _BAD) if type(text) is str else _BAD


def _rounds(
    rounds: Any, edition: int, players: tuple[str, ...], island: Mapping[Pos, Card]
) -> tuple[RoundLog, ...] | None:
    """Every round read, or None. Each revealed card is followed back through the octopus
    swaps to where it lay at setup, which must be a card the log names."""
    if type(rounds) is not list:
        return None
    volcano_of, volcano_type = _VOLCANOES[edition], _VOLCANO_TYPE[edition]
    positions = _POSITIONS
    new = tuple.__new__  # Action(...) without its Python-level __new__: a third of the time
    known = {_NAMES[pos] for pos in island}  # a name hashes once; a Pos at every look-up
    origin: dict[str, str] = {}  # where the card now at a position lay at setup (swapped)
    first_set: frozenset[Any] | None = None
    out: list[RoundLog] = []
    for r, data in enumerate(rounds):
        if type(data) is not dict or not _ROUND_REQUIRED <= data.keys() <= _ROUND_KEYS:
            return None
        raw, entries = data["volcanoes"], data["actions"]
        if (type(raw) is not list or len(raw) != len(players) - 1 or type(entries) is not list
                or type(data.get("comment", "")) is not str):
            return None
        for v in raw:
            if type(v) is not volcano_type or v not in volcano_of:
                return None
        this_set = frozenset(raw)
        # 2023: one dark and the rest light; 2018: each bird count once (so a set of them).
        if (raw.count(DARK) != 1 if edition == 2023 else len(this_set) != len(raw)):
            return None
        if first_set is None:
            first_set = this_set
        elif this_set != first_set:
            return None
        pointers = _pointers(r, len(entries))
        actions: list[Action] = []
        for i, item in enumerate(entries):
            if type(item) is not dict or not item.keys() <= _ACTION_KEYS:
                return None
            player = item.get("player")
            if player not in players:
                return None
            if "volcano" in item:
                if item["volcano"] is not True or len(item) != 2:
                    return None
                actions.append(new(Action, (player, None, None, None, None, i + 1, pointers[i])))
                continue
            text = item.get("reveal")
            # A named card where it lay at setup: so a position, and not the empty centre.
            if type(text) is not str or (origin.get(text, text) if origin else text) not in known:
                return None
            swap = mark = peek = None
            if len(item) > 2:  # an ability used: each key given must name a position
                swap, mark, peek = (
                    _position(item, "swap"), _position(item, "mark"), _position(item, "peek"))
                if swap is _BAD or mark is _BAD or peek is _BAD:
                    return None
                target: str = item.get("swap", text)
                if target != text and swap != CENTRE:
                    origin[text], origin[target] = (origin.get(target, target),
                                                    origin.get(text, text))
            actions.append(new(Action, (player, positions[text], swap, mark, peek, i + 1,
                                        pointers[i])))
        out.append(RoundLog(r + 1, tuple([volcano_of[v] for v in raw]), tuple(actions),
                            f"/rounds/{r}"))
    return tuple(out)


@lru_cache(maxsize=512)
def _pointers(r: int, count: int) -> tuple[str, ...]:
    """The JSON pointers of round ``r``'s actions (the same few rounds and lengths recur)."""
    return tuple(f"/rounds/{r}/actions/{i}" for i in range(count))
