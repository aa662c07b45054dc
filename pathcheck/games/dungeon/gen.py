"""dungeon in memory: random legal games, for tests, fixtures and examples.

:func:`random_game` plays a whole multiplayer game by the rules and returns its ``game/1``
log: each exploration deals from a deck shuffled with the given :class:`random.Random`, the
active player places a random tile of their hand (along the heading, with probability
``accuracy``), draws the top of the deck, and the other players still in the team announce
Lost at random (more often once the dungeon really is Lost). With rule #1 only the earliest
announcer in turn order after the active player leaves (or, in turns marked
``"simultaneous": false``, the first to speak); the others are listed too (they spoke), and
stay in the team.

>>> import random
>>> log = random_game(random.Random(7), players=2, advanced=True, rules=(1, 4))
>>> log["format"], log["players"], len(log["explorations"][0]["hands"]["Ann"])
('game/1', ['Ann', 'Bob'], 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pathcheck.games.dungeon.log import GAME_FORMAT
from pathcheck.games.dungeon.rules import WIN_POINTS, hand_size
from pathcheck.games.dungeon.state import START_DIR, clockwise_after
from pathcheck.tracer.check import LostCard, score_lost_cards
from pathcheck.tracer.constants import tracing_mask
from pathcheck.tracer.dungeon import Placement, trace
from pathcheck.tracer.fast import compile_tileset, trace_indices
from pathcheck.tracer.geometry import Direction
from pathcheck.tracer.tileset import TileSet, load_tileset

PLAYER_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
MAX_EXPLORATIONS = 400
"""A safety bound: random play reaches 3 points long before this."""


def aligned_dir(tileset: TileSet, tiles: Sequence[str], rules: Iterable[int]) -> Direction | None:
    """The arrow direction the last of ``tiles`` must have to follow the heading, when the
    dungeon of the others, laid perfectly, is not Lost before it (None otherwise).

    >>> aligned_dir(load_tileset(), ["START", "R1", "I4"], ())
    <Direction.E: 1>
    """
    compiled = compile_tileset(tileset)
    arrows: list[int] = []
    trace_indices(compiled, [compiled.index[t] for t in tiles], None, tracing_mask(rules), 0,
                  arrows)
    return Direction(arrows[-1]) if len(arrows) == len(tiles) else None


Announcer = Callable[[random.Random, int | None], bool]
"""Whether a player announces Lost, given how many tiles ago the path got Lost (1: the tile
just laid), None while it holds."""


def random_exploration(
    rng: random.Random,
    players: Sequence[str],
    start: str,
    *,
    advanced: bool,
    rules: frozenset[int],
    tileset: TileSet,
    accuracy: float,
    perfect: bool = False,
    announces: Announcer | None = None,
) -> tuple[dict[str, Any], dict[str, int], str]:
    """One legal exploration begun by ``start``: its log, its points and who played last
    (``perfect``: played by perfect memories, every tile in line, every player announcing
    as soon as the path is Lost; ``announces``: whether a player announces, given how many
    tiles ago the path got Lost, None while it holds: a player model,
    :mod:`pathcheck.analysis.players`)."""
    deck = tileset.deck_ids(advanced)
    rng.shuffle(deck)
    size = hand_size(advanced)
    hands = {p: deck[i * size:(i + 1) * size] for i, p in enumerate(players)}
    deck = deck[len(players) * size:]
    log: dict[str, Any] = {"start_player": start, "hands": {p: list(h) for p, h in hands.items()},
                           "deck": list(deck), "turns": []}
    team = list(players)
    stack = [Placement(tileset.start, START_DIR)]
    cards: list[LostCard] = []
    active = start
    while True:
        tile = rng.choice(hands[active])
        hands[active].remove(tile)
        aligned = aligned_dir(tileset, [p.tile for p in stack] + [tile], rules)
        if aligned is not None and (perfect or rng.random() < accuracy):
            direction = aligned
        else:
            direction = rng.choice(list(Direction))
        stack.append(Placement(tile, direction))
        turn: dict[str, Any] = {"player": active, "tile": tile, "dir": direction.name}
        drawn = deck.pop(0) if deck else None
        if drawn is not None:
            hands[active].append(drawn)
        if rng.random() < 0.5:
            turn["draw"] = drawn
        lost_at = trace(stack, tileset=tileset, rules=rules).lost_at
        lost = lost_at is not None
        chance = 0.5 if lost else 0.04
        age = None if lost_at is None else len(stack) - lost_at + 1
        callers = [p for p in clockwise_after(players, active)
                   if p in team and (lost if perfect else announces(rng, age)
                                     if announces is not None else rng.random() < chance)]
        rng.shuffle(callers)  # the order they spoke in
        turn["lost"] = callers
        log["turns"].append(turn)
        leaving = callers
        if 1 in rules and len(callers) > 1 and rng.random() < 0.3:
            turn["simultaneous"] = False  # one after the other: the first one stands
            leaving = callers[:1]
        elif 1 in rules and callers:  # only the earliest in turn order after the active player
            leaving = [min(callers, key=clockwise_after(players, active).index)]
        for name in leaving:
            team.remove(name)
            cards.append(LostCard(name, len(stack)))
        if len(team) <= 1:
            break
        nxt = next(p for p in clockwise_after(players, active) if p in team)
        if not hands[nxt]:
            break
        active = nxt
    result = trace(stack, tileset=tileset, rules=rules)
    points = score_lost_cards(result.lost_at, cards, players).points
    return log, dict(points), active


def random_game(
    rng: random.Random,
    *,
    players: int = 3,
    advanced: bool = False,
    rules: Iterable[int] = (),
    tileset: TileSet | None = None,
    accuracy: float = 0.9,
    perfect: bool = False,
    announces: Announcer | None = None,
) -> dict[str, Any]:
    """A whole legal game (until someone reaches 3 points) of ``players`` players (named from
    :data:`PLAYER_NAMES`) as a ``game/1`` log (``perfect``: see :func:`random_exploration`)."""
    names = PLAYER_NAMES[:players]
    ts = tileset or load_tileset()
    rule_set = frozenset(rules)
    scores = dict.fromkeys(names, 0)
    explorations: list[dict[str, Any]] = []
    start = rng.choice(list(names))
    while max(scores.values()) < WIN_POINTS and len(explorations) < MAX_EXPLORATIONS:
        log, points, start = random_exploration(rng, names, start, advanced=advanced,
                                                rules=rule_set, tileset=ts, accuracy=accuracy,
                                                perfect=perfect, announces=announces)
        explorations.append(log)
        for player, won in points.items():
            scores[player] += won
    game: dict[str, Any] = {"format": GAME_FORMAT, "players": list(names),
                            "advanced": advanced, "rules": sorted(rule_set)}
    if tileset is not None:
        game["tileset"] = ts.source
    game["explorations"] = explorations
    return game
