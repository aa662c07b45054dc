"""The Memoarrr! island as it stands during a replay (:class:`State`): the cards, the
volcanoes, the treasures, whose turn it is; what the replay changes and the pictures draw.

:meth:`State.apply` plays one logged action, leniently: a move that breaks a rule is played
as logged where that is possible and the broken rules come back as :class:`Fault` values; a
move that cannot be played at all comes back ``fatal``.

>>> import random
>>> from pathcheck.games.memoarrr.gen import random_game
>>> from pathcheck.games.memoarrr.log import read_log
>>> setup = read_log(random_game(random.Random(7), players=2), source="demo")
>>> state = State(setup)
>>> state.start_round(setup.rounds[0], setup.start_player)
>>> result = state.apply(setup.rounds[0].actions[0])
>>> result.success, result.faults
(True, ())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from pathcheck.facts import (
    FaceDownFact,
    Fact,
    PositionFact,
    RoundEndFact,
    TurnFact,
    UnusedAbilityFact,
)
from pathcheck.games.memoarrr.log import Action, RoundLog, Setup, Volcano
from pathcheck.games.memoarrr.rules import (
    ABILITY_COMPULSORY,
    ABILITY_NOT_EARNED,
    ALL_REVEALED,
    CENTRE,
    CRAB_EXTRA_TURN,
    FACE_DOWN,
    FIXED_POSITIONS,
    MUST_REVEAL,
    OCTOPUS_ADJACENT,
    PEEK_EXCEPTION,
    PENGUIN_FACE_DOWN,
    POSITIONS,
    ROUND_END,
    SIDES,
    START_PLAYER,
    TURN_ORDER,
    WALRUS_BLOCK,
    WALRUS_FACE_DOWN,
    WALRUS_LAST_CARD,
    Animal,
    Card,
    EditionRule,
    Pos,
)
from pathcheck.render.words import counted

_CRAB = Animal.CRAB
_ISLAND = frozenset(POSITIONS)
_NEIGHBOURS = {pos: pos.neighbours() for pos in POSITIONS}
_new = tuple.__new__
"""``_new(TurnResult, (...))``: a named tuple without its Python-level ``__new__`` (every
field given, in order), for the one made per turn."""
_ABILITY_ANIMALS = (Animal.OCTOPUS, Animal.WALRUS, Animal.PENGUIN)
"""The animals whose ability a success calls for (the crab's is the extra turn)."""


def _neighbours(pos: Pos) -> tuple[Pos, ...]:
    return _NEIGHBOURS.get(pos) or pos.neighbours()


class Fault(NamedTuple):
    """A rule the action broke, and how."""

    rule: EditionRule
    message: str
    fact: Fact
    """What ``message`` states, as fields."""


class TurnResult(NamedTuple):
    """What one action did (a named tuple: one is made per action, and a tuple is cheap)."""

    player: str
    pos: Pos | None = None
    card: Card | None = None
    previous: Card | None = None
    success: bool = False
    volcano: Volcano | None = None
    swapped: tuple[Pos, Pos] | None = None
    faults: tuple[Fault, ...] = ()
    fatal: str = ""
    winner: str | None = None
    treasure: int | None = None


@dataclass
class State:
    """The mutable replay state of one game (the static facts stay in :class:`Setup`)."""

    setup: Setup
    grid: dict[Pos, Card] = field(init=False)
    face_up: set[Pos] = field(default_factory=set)
    stack: list[Volcano] = field(default_factory=list)
    out: dict[str, Volcano] = field(default_factory=dict)
    last: Card | None = None
    mark: Pos | None = None
    """The walrus mark binding the next turn."""
    crab: bool = False
    """The player to move owes a crab's extra turn."""
    to_move: str = ""
    round: int = 0
    turns: int = 0
    round_over: bool = False
    treasure_stack: list[int] = field(init=False)
    treasures: dict[str, list[int]] = field(init=False)
    round_winners: list[str] = field(default_factory=list)
    """The winner of each round played, in order (each took the top treasure)."""
    peeked: frozenset[Pos] = field(init=False)
    expert: bool = field(init=False)
    after: dict[str, str] = field(init=False)
    """Each player's left-hand neighbour (clockwise)."""

    def __post_init__(self) -> None:
        self.grid = dict(self.setup.island)
        self.treasure_stack = list(self.setup.treasures or ())
        self.treasures = {p: [] for p in self.setup.players}
        self.peeked = frozenset(p for side in self.setup.peeks.values() for p in SIDES[side])
        self.expert = self.setup.expert
        players = self.setup.players
        self.after = {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}

    # --- queries -------------------------------------------------------------------------

    def face_down(self) -> list[Pos]:
        """Face-down positions, north-west first."""
        return [p for p in POSITIONS if p not in self.face_up]

    def allowed_reveals(self) -> list[Pos]:
        """Where the player to move may reveal (empty: they must take a volcano)."""
        down = [p for p in self.face_down() if p != self.mark]
        if self.round == 1 and self.turns == 0:
            down = [p for p in down if p not in self.peeked]
        return down

    def rubies(self, player: str) -> int:
        return sum(self.treasures[player])

    def next_start_player(self) -> str:
        """Who starts the next round: the holder of the dark volcano / the most birds."""
        return max(self.out.items(), key=lambda item: item[1].rank)[0]

    def next_clockwise(self, player: str) -> str:
        """The next player clockwise without a volcano (``player`` again if none is left)."""
        after, out = self.after, self.out
        candidate = after[player]
        while candidate in out:
            if candidate == player:
                return player
            candidate = after[candidate]
        return candidate

    # --- changes -------------------------------------------------------------------------

    def start_round(self, rnd: RoundLog, starter: str) -> None:
        """All cards face down in place, the volcanoes back on the stack."""
        self.round = rnd.number
        self.face_up.clear()
        self.stack = list(rnd.volcanoes)
        self.out.clear()
        self.last = None
        self.mark = None
        self.crab = False
        self.to_move = starter
        self.turns = 0
        self.round_over = False

    def apply(self, action: Action) -> TurnResult:
        """Play ``action`` as logged; see the module doc."""
        faults: list[Fault] = []
        player = action.player
        # The common turn (a reveal of a face-down card by the player to move) is kept short:
        # a log has about 60 of them.
        if self.round_over:
            fault = Fault(ROUND_END, "the round was already over: the last volcano was taken",
                          RoundEndFact(self.round, ()))
            return TurnResult(player, faults=(fault,), fatal="an action after the round ended")
        if player != self.to_move:
            if self.turns == 0:
                rule, why = START_PLAYER, "to start the round"
            elif self.crab:
                rule, why = CRAB_EXTRA_TURN, "to take the crab's extra turn"
            else:
                rule, why = TURN_ORDER, "to move"
            faults.append(Fault(rule, f"{self.to_move} was {why}, not {player}",
                                TurnFact(player, self.to_move)))
            if player in self.out:
                return TurnResult(
                    player, faults=tuple(faults),
                    fatal=f"{player} already has a volcano and is out of this round",
                )
        blocked = self.mark
        self.mark = None
        self.crab = False
        self.turns += 1
        if action.reveal is None:
            down = len(POSITIONS) - len(self.face_up)  # face_up holds only island positions
            if down:
                faults.append(Fault(MUST_REVEAL, f"took a volcano with "
                                                 f"{counted(down, 'face-down card')} left",
                                    FaceDownFact(down, None)))
            taken = self._take_volcano(player)
            return self._end_turn(TurnResult(player, volcano=taken, faults=tuple(faults)))

        pos = action.reveal
        card = self.grid[pos]
        face_up = self.face_up
        if pos in face_up:
            down = len(POSITIONS) - len(face_up)
            rule = FACE_DOWN if down else ALL_REVEALED
            extra = "" if down else "; all 24 are face up, so a volcano was due"
            faults.append(Fault(rule, f"{pos} ({card}) is already face up{extra}",
                                PositionFact(str(pos), str(card))))
        elif blocked is not None and pos == blocked:
            faults.append(Fault(WALRUS_BLOCK, f"{pos} was marked by the walrus for this turn",
                                PositionFact(str(pos))))
        elif self.turns == 1 and self.round == 1 and pos in self.peeked:
            faults.append(Fault(PEEK_EXCEPTION, f"{pos} is one of the cards peeked at before "
                                                "round 1", PositionFact(str(pos))))
        face_up.add(pos)
        previous = self.last
        success = (previous is None or card.animal is previous.animal
                   or card.landscape is previous.landscape)  # Card.connects, inlined
        self.last = card
        volcano = None if success else self._take_volcano(player)
        earned = card.animal if success and self.expert else None
        swapped = None
        if (earned in _ABILITY_ANIMALS or action.swap is not None or action.mark is not None
                or action.peek is not None):
            swapped = self._abilities(action, pos, card, success, faults)
        result = _new(TurnResult, (player, pos, card, previous, success, volcano, swapped,
                                   tuple(faults) if faults else (), "", None, None))
        if earned is _CRAB:
            self.crab = True
        elif self.stack:  # _end_turn's common case, inlined
            after = self.after[player]
            self.to_move = after if after not in self.out else self.next_clockwise(player)
            return result
        return self._end_turn(result)

    def _take_volcano(self, player: str) -> Volcano:
        volcano = self.stack.pop(0)
        self.out[player] = volcano
        return volcano

    def _end_turn(self, result: TurnResult) -> TurnResult:
        if self.stack:
            self.to_move = (
                result.player if self.crab else self.next_clockwise(result.player)
            )
            return result
        self.round_over = True
        winner = next(p for p in self.setup.players if p not in self.out)
        self.round_winners.append(winner)
        treasure = self.treasure_stack.pop(0) if self.treasure_stack else None
        if treasure is not None:
            self.treasures[winner].append(treasure)
        return result._replace(winner=winner, treasure=treasure)

    def _abilities(
        self, action: Action, pos: Pos, card: Card, success: bool, faults: list[Fault]
    ) -> tuple[Pos, Pos] | None:
        """Check and apply the expert abilities recorded with a reveal."""
        expert = self.expert
        earned = card.animal if success and expert else None

        def why_not() -> str:  # worded only for a fault
            return ("the basic game has no animal abilities" if not expert
                    else "the reveal failed" if not success
                    else f"the revealed card is a {card.animal.value}")

        swapped: tuple[Pos, Pos] | None = None
        if action.swap is not None:
            target = action.swap
            if earned is not Animal.OCTOPUS:
                faults.append(Fault(FIXED_POSITIONS, f"swapped {pos} with {target}, but "
                                                     f"{why_not()}", PositionFact(str(target))))
            elif target not in _neighbours(pos) or target == CENTRE:
                what = "the empty centre" if target == CENTRE else "not orthogonally adjacent"
                faults.append(Fault(OCTOPUS_ADJACENT, f"{target} is {what} to the octopus at "
                                                      f"{pos}", PositionFact(str(target))))
            if target != CENTRE and target != pos:
                swapped = self._swap(pos, target)  # as played
        elif earned is Animal.OCTOPUS:
            faults.append(Fault(ABILITY_COMPULSORY, "the octopus swap was not recorded",
                                UnusedAbilityFact("octopus", "swap")))

        # The face-down cards (after the swap), counted and tested without listing them.
        face_up = self.face_up
        down = len(POSITIONS) - len(face_up)  # face_up holds only island positions
        if action.mark is not None:
            target = action.mark
            if earned is not Animal.WALRUS:
                faults.append(Fault(ABILITY_NOT_EARNED, f"marked {target}, but {why_not()}",
                                    PositionFact(str(target))))
            elif down <= 1:
                faults.append(Fault(WALRUS_LAST_CARD, f"marked {target} with "
                                                      f"{counted(down, 'face-down card')} left",
                                    PositionFact(str(target))))
            elif target in face_up or target not in _ISLAND:
                faults.append(Fault(WALRUS_FACE_DOWN, f"{target} is not a face-down card",
                                    PositionFact(str(target))))
            else:
                self.mark = target
        elif earned is Animal.WALRUS and down > 1:
            faults.append(Fault(ABILITY_COMPULSORY, "the walrus mark was not recorded",
                                UnusedAbilityFact("walrus", "mark")))

        if action.peek is not None:
            target = action.peek
            if earned is not Animal.PENGUIN:
                faults.append(Fault(ABILITY_NOT_EARNED, f"peeked at {target}, but {why_not()}",
                                    PositionFact(str(target))))
            elif target in face_up or target not in _ISLAND:
                faults.append(Fault(PENGUIN_FACE_DOWN, f"{target} is not a face-down card",
                                    PositionFact(str(target))))
        elif earned is Animal.PENGUIN and down:
            faults.append(Fault(ABILITY_COMPULSORY, "the penguin peek was not recorded",
                                UnusedAbilityFact("penguin", "peek")))
        return swapped

    def _swap(self, a: Pos, b: Pos) -> tuple[Pos, Pos]:
        """Swap two cards, each keeping its face."""
        card_a, card_b = self.grid.pop(a, None), self.grid.pop(b, None)
        if card_b is not None:  # a card nobody saw has no entry
            self.grid[a] = card_b
        if card_a is not None:
            self.grid[b] = card_a
        up_a, up_b = a in self.face_up, b in self.face_up
        for p, up in ((a, up_b), (b, up_a)):
            if up:
                self.face_up.add(p)
            else:
                self.face_up.discard(p)
        return a, b
