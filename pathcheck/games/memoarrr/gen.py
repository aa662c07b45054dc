"""Random legal Memoarrr! games, as ``memoarrr/1`` logs (for tests, fixtures and demos).

Players reveal a matching card with probability ``skill`` when one is still face down (they
remember it) and any allowed card otherwise, so games range from short blind rounds to rounds
that turn all 24 cards and end in forced volcanoes.

>>> import random
>>> log = random_game(random.Random(3), players=4, edition=2018, expert=True)
>>> log["format"], len(log["rounds"]), log["players"]
('memoarrr/1', 7, ['Ann', 'Ben', 'Cy', 'Dee'])
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from pathcheck.games.memoarrr.island import State
from pathcheck.games.memoarrr.log import FORMAT, Action, RoundLog, make_volcano, read_log
from pathcheck.games.memoarrr.rules import (
    ALL_CARDS,
    BIRDS,
    CENTRE,
    DARK,
    LIGHT,
    SIDES,
    SIZE,
    TREASURES,
    Animal,
    Pos,
)

NAMES = ("Ann", "Ben", "Cy", "Dee")


def random_game(
    rng: random.Random,
    *,
    players: int = 3,
    edition: int = 2023,
    expert: bool = False,
    ordered_stack: bool = False,
    skill: float = 0.6,
    rounds: int = 7,
    chooser: Chooser | None = None,
) -> dict[str, Any]:
    """A legal log of ``rounds`` rounds (7 is a whole game) drawn from ``rng``; ``chooser`` (a
    player model, :mod:`pathcheck.analysis.players`) picks each reveal instead of ``skill``
    and is shown every action played."""
    names = list(NAMES[:players])
    cards = rng.sample(ALL_CARDS, SIZE * SIZE - 1)
    cells = iter(cards)
    island = [
        [None if Pos(r, c) == CENTRE else str(next(cells)) for c in range(SIZE)]
        for r in range(SIZE)
    ]
    treasures = list(TREASURES)
    if not ordered_stack:
        rng.shuffle(treasures)
    volcanoes: list[Any] = (
        [DARK] + [LIGHT] * (players - 2) if edition == 2023 else rng.sample(BIRDS, players - 1)
    )
    log: dict[str, Any] = {
        "format": FORMAT,
        "edition": edition,
        "variants": {"expert": expert, "ordered_stack": ordered_stack},
        "players": names,
        "start_player": rng.choice(names),
        "island": island,
        "peeks": dict(zip(names, rng.sample(sorted(SIDES), players), strict=True)),
        "treasures": treasures,
        "rounds": [],
    }
    state = State(read_log(log, source="<random>"))
    starter = log["start_player"]
    if chooser is not None:
        chooser.start(state, log["peeks"])
    for number in range(1, rounds + 1):
        order = rng.sample(volcanoes, len(volcanoes))
        actions: list[dict[str, Any]] = []
        stack = tuple(v for v in (make_volcano(x, edition) for x in order) if v is not None)
        state.start_round(RoundLog(number, stack, (), ""), starter)
        while not state.round_over:
            action = _choose(rng, state, skill, chooser)
            actions.append(action)
            result = state.apply(_action(action, len(actions)))
            if chooser is not None:
                chooser.saw(state, action)
            assert not result.faults and not result.fatal, (result, action)
        log["rounds"].append({"volcanoes": order, "actions": actions})
        starter = state.next_start_player()
    return log


class Chooser(Protocol):
    """A player model for Memoarrr!: told the setup and every action played, it picks the
    place each player reveals."""

    def start(self, state: State, peeks: dict[str, str]) -> None: ...

    def choose(self, rng: random.Random, state: State, allowed: list[Pos]) -> Pos: ...

    def saw(self, state: State, action: dict[str, Any]) -> None: ...


def _choose(rng: random.Random, state: State, skill: float,
            chooser: Chooser | None = None) -> dict[str, Any]:
    """A legal action for the player to move."""
    player = state.to_move
    allowed = state.allowed_reveals()
    if not allowed:
        return {"player": player, "volcano": True}
    last = state.last
    if chooser is not None:
        pos = chooser.choose(rng, state, list(allowed))
    else:
        matching = [p for p in allowed if last is None or state.grid[p].connects(last)]
        pool = matching if matching and rng.random() < skill else allowed
        pos = rng.choice(pool)
    card = state.grid[pos]
    action: dict[str, Any] = {"player": player, "reveal": str(pos)}
    if not state.setup.expert or (last is not None and not card.connects(last)):
        return action
    down_after = [p for p in state.face_down() if p != pos]
    if card.animal is Animal.OCTOPUS:
        action["swap"] = str(rng.choice([n for n in pos.neighbours() if n != CENTRE]))
    elif card.animal is Animal.WALRUS and len(down_after) > 1:
        action["mark"] = str(rng.choice(down_after))
    elif card.animal is Animal.PENGUIN and down_after:
        action["peek"] = str(rng.choice(down_after))
    return action


def _action(data: dict[str, Any], index: int) -> Action:
    def pos(key: str) -> Pos | None:
        return Pos.parse(data[key]) if key in data else None

    return Action(data["player"], pos("reveal"), pos("swap"), pos("mark"), pos("peek"), index, "")
