"""Facts: what a ruling's event (or violation) states in words, as fields, so that tools
never parse the text. Each is a frozen struct tagged by ``kind``; :mod:`pathcheck.ruling`
holds them (``Event.fact``, ``Violation.fact``) and ``pathcheck schema ruling`` publishes
them.

The file is one catalogue, past the usual ~500 lines on purpose: the tagged union
:data:`Fact` must name every kind, and a reader of the schema finds them all in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec

Mode = Literal["basic", "advanced"]
"""The dungeon game's rules: basic or advanced (which deal different tiles)."""
DealtTileReason = Literal["start", "not-in-play", "twice"]


class _Fact(msgspec.Struct, frozen=True, gc=False, tag_field="kind", forbid_unknown_fields=True):
    """What every fact shares: the ``kind`` tag."""


class LostCardFact(_Fact, frozen=True, gc=False, tag="lost-card"):
    """dungeon: one player's outcome at the check (the event's ``rule`` decided it)."""

    player: str
    outcome: str
    """early, scored, too-late, held-on or stayed (pathcheck.tracer.check.CardOutcome)."""
    after: int | None
    """The tile the player's LOST card lies on (None: no card)."""
    lost_at: int | None
    """The tile that made the dungeon Lost (None: never Lost)."""


class VoidAnnouncementFact(_Fact, frozen=True, gc=False, tag="void-announcements"):
    """dungeon, additional rule #1: announcements of one turn that do not stand."""

    standing: str
    void: tuple[str, ...]
    by: Literal["turn-order", "first"]
    """Simultaneous (or not said): the earliest in turn order; one after the other: the
    first to speak."""


class CaptainFact(_Fact, frozen=True, gc=False, tag="captain"):
    """robot memory, team play: a member takes a turn as a team's Captain."""

    team: str
    captain: str
    was: str


class GuessFact(_Fact, frozen=True, gc=False, tag="guess"):
    """robot memory: a card pointed at, turned and scored."""

    pointer: str
    """Who chose the card (the guesser after a short circuit)."""
    guesser: str
    side: str
    """Who scores: the guesser, or their team."""
    position: str
    card: str
    """The card turned, as the text words it (``3 red bulbs``, ``a short circuit``)."""
    guess: str
    """What the guesser named, as the text words it (``3 red``, ``short circuit``)."""
    features: tuple[str, ...]
    """The features named: ``type``, ``colour``, ``number``, or ``short-circuit``."""
    points: int


class CupFact(_Fact, frozen=True, gc=False, tag="cup"):
    """Memo Dice: a cup uncovered and who gets it."""

    cup: int
    colour: str
    symbol: str
    guesser: str
    named: str | None
    right: bool
    to: str
    """Who gets the cup: the guesser when right, else the player on their left."""


class VolcanoFact(_Fact, frozen=True, gc=False, tag="volcano"):
    """Memoarrr!: a player takes a volcano (a card that does not connect, or none left)."""

    player: str
    position: str | None
    card: str | None
    previous: str | None
    volcano: str


class SwapFact(_Fact, frozen=True, gc=False, tag="swap"):
    """Memoarrr!: an octopus swap of two cards."""

    player: str
    first: str
    second: str
    card_moved_to_second: str
    card_moved_to_first: str


class TreasureFact(_Fact, frozen=True, gc=False, tag="treasure"):
    """Memoarrr!: the last player without a volcano takes the top treasure (``rubies`` None:
    the log does not record the stack yet; its cards are turned over at the end)."""

    player: str
    rubies: int | None


class StartFact(_Fact, frozen=True, gc=False, tag="start"):
    """Who starts a round (an exploration), and why."""

    player: str
    round: int
    """The round (exploration) the player starts."""
    reason: Literal["log", "last-turn", "golden-cup", "dark-volcano", "most-birds",
                    "fewest-points", "random"]
    """log: the log's start player; last-turn: took the last turn of the exploration before
    (dungeon); golden-cup: had it (Memo Dice); dark-volcano / most-birds: the volcano taken
    the round before (Memoarrr!); fewest-points / random: robot memory."""
    birds: int | None = None
    """most-birds: the birds on that volcano."""
    tie: bool = False
    """fewest-points: others have as few (any of them may start)."""


class TurnFact(_Fact, frozen=True, gc=False, tag="turn"):
    """A move made by the wrong player (or team): whose move it was (the violation's rule
    says why)."""

    player: str
    """Who moved (in robot memory's team play, for a guess: the team)."""
    expected: str
    """Whose move it was."""


class PositionFact(_Fact, frozen=True, gc=False, tag="position"):
    """A card a move may not take (already face up, marked, peeked at, not adjacent...): its
    position (the violation's rule says why)."""

    position: str
    card: str | None = None
    """The card there, where the message names it."""


class TileFact(_Fact, frozen=True, gc=False, tag="tile"):
    """dungeon: the tile a move names that it could not (a draw of another tile, a tile not
    in the player's hand): who, and which tile (the violation's rule says why)."""

    player: str
    tile: str | None
    """None: the log records a draw of nothing."""


class DieFact(_Fact, frozen=True, gc=False, tag="die"):
    """Memo Dice: a roll a die could not show (rolled twice in a round, or a face it does not
    have)."""

    die: int
    symbol: str | None
    """The symbol rolled, where the message names it."""
    colour: str | None
    """The colour the die shows that symbol in (None: it has no such face, or not said)."""


class CoveringEndedFact(_Fact, frozen=True, gc=False, tag="covering-ended"):
    """Memo Dice: a die rolled after the golden cup ended covering."""

    player: str
    die: int
    golden_by: str
    """Who covered a die with the golden cup."""


class UncoverFact(_Fact, frozen=True, gc=False, tag="uncover"):
    """Memo Dice: a cup uncovered out of order."""

    cup: int
    due: int | None
    """The cup due instead: the first still covered (None: the cup was already uncovered)."""
    holder: str | None
    """Who got the cup already uncovered."""


class PeekSideFact(_Fact, frozen=True, gc=False, tag="peek-side"):
    """Memoarrr!: a side of the island peeked at before round 1 that another player chose
    first."""

    player: str
    side: str
    chosen_by: str


class ScoreFact(_Fact, frozen=True, gc=False, tag="score"):
    """robot memory: the points a guess scores, against the points the log records."""

    recorded: int
    points: int


class GameEndFact(_Fact, frozen=True, gc=False, tag="game-end"):
    """The game ends (or should have ended) after ``round``, with these scores."""

    round: int
    reached: tuple[str, ...]
    """Who reached ``points`` (empty where the game ends after a number of rounds)."""
    points: int | None
    scores: Mapping[str, int]
    """The scores after ``round``."""
    winners: tuple[str, ...]
    """Empty where the game names its winners in the final scores only."""


class AnnounceFact(_Fact, frozen=True, gc=False, tag="announce"):
    """dungeon: a Lost announcement that cannot be made."""

    player: str
    reason: Literal["active", "twice", "left"]
    """active: the active player; twice: twice in one turn; left: already out of the team."""
    after: int | None
    """left: the tile the player's LOST card lies on."""


class HandSizeFact(_Fact, frozen=True, gc=False, tag="hand-size"):
    """dungeon: a hand dealt with the wrong number of tiles."""

    player: str
    tiles: int | None
    """The tiles dealt (None: no hand recorded)."""
    size: int
    """The tiles the rules deal."""


class ExplorationEndFact(_Fact, frozen=True, gc=False, tag="exploration-end"):
    """dungeon: why an exploration ends."""

    reason: Literal["one-left", "no-tile"]
    player: str
    """one-left: the only player left in the team; no-tile: the next active player, who
    has no tile in hand."""


class NotCheckedFact(_Fact, frozen=True, gc=False, tag="not-checked"):
    """dungeon: the rules an exploration whose deal is not (wholly) recorded leaves
    unchecked."""

    missing: Literal["deal", "hands", "deck"]
    """What the log leaves out."""
    rules: tuple[str, ...]
    """The ids of the rules not checked (in part)."""


class DungeonFact(_Fact, frozen=True, gc=False, tag="dungeon"):
    """dungeon: the laid-out dungeon at the check, and where it got Lost."""

    tiles: int
    lost_at: int | None
    """The tile that made it Lost (None: never Lost)."""
    tile: str | None
    """That tile, placed (``R6@E``)."""
    turn: int | None
    """The turn that placed it."""
    reason: str | None
    """Why it is Lost (dead-end, misplaced, ...)."""


class SoloDungeonFact(_Fact, frozen=True, gc=False, tag="solo-dungeon"):
    """solo: one dungeon of the stack, and where it got Lost."""

    dungeon: int
    tiles: int
    lost_at: int | None
    """Its own tile that made it Lost (None: never Lost)."""
    tile: str | None
    stack_tile: int | None
    """The same tile, counted in the whole stack."""
    reason: str | None


class SoloFailureFact(_Fact, frozen=True, gc=False, tag="solo-failure"):
    """solo: the failing tile, and the score it leaves."""

    stack_tile: int
    """The failing tile, counted in the whole stack."""
    dungeon: int
    tile: str
    """That tile, placed (``L4@N``)."""
    failure: Literal["misplaced", "late", "premature"]
    score: int
    """The tiles before it, which the score counts."""


class SoloTilesFact(_Fact, frozen=True, gc=False, tag="solo-tiles"):
    """solo: the tiles the record leaves out of the tile set."""

    placed: int
    missing: tuple[str, ...]


class SeedTileFact(_Fact, frozen=True, gc=False, tag="seed-tile"):
    """solo: the first tile that differs from the seed's deck."""

    stack_tile: int
    """Its place in the stack (the seed's deck order)."""
    seed: str
    tile: str
    """The seed's tile there."""
    placed: str
    """The record's."""


class LayoutFact(_Fact, frozen=True, gc=False, tag="layout"):
    """robot memory: the cards laid out for a round."""

    memory_cards: int
    short_circuits: int
    rows: int
    columns: int
    not_recorded: int = 0
    """Places whose card the log does not record (``"unknown"``): of either kind."""


class CoverFact(_Fact, frozen=True, gc=False, tag="cover"):
    """Memo Dice: a die rolled and covered."""

    die: int
    colour: str
    symbol: str
    cup: str
    """The cup's colour, or ``golden``."""
    golden: Literal["last-die", "no-cup-left"] | None
    """Why the golden cup (it ends covering); None: a cup of the symbol's colour."""
    cup_left: bool
    """Whether a cup of the symbol's colour was left."""


class RoundPointsFact(_Fact, frozen=True, gc=False, tag="round-points"):
    """Memo Dice: the cups each player scores at the end of a round (``points``: the sums)."""

    cups: Mapping[str, tuple[str, ...]]


class UnfinishedRoundFact(_Fact, frozen=True, gc=False, tag="unfinished-round"):
    """Memoarrr!: the log stops within a round."""

    still_in: tuple[str, ...]


class DeckSizeFact(_Fact, frozen=True, gc=False, tag="deck-size"):
    """dungeon: a deck recorded (without the hands) whose length the deal cannot leave."""

    tiles: int
    """The tiles the deck holds."""
    expected: int
    """The tiles the rules leave in the deck: ``set_size`` less ``hand_size`` a player."""
    players: int
    hand_size: int
    set_size: int
    """The tiles of the mode's set dealt (START left out)."""
    mode: Mode


class DealtTileFact(_Fact, frozen=True, gc=False, tag="dealt-tile"):
    """dungeon: a tile dealt (to a hand or the deck) that the deal cannot hold."""

    tile: str
    reason: DealtTileReason
    """start: START lies in the middle of the table; not-in-play: not in the ``mode``'s set;
    twice: dealt a second time."""
    mode: Mode
    also_at: str | None
    """twice: the JSON pointer where it was dealt first."""


class MissingTilesFact(_Fact, frozen=True, gc=False, tag="missing-tiles"):
    """dungeon: the tiles of the mode's set in no hand and not in the deck."""

    tiles: tuple[str, ...]
    mode: Mode


class UnfinishedExplorationFact(_Fact, frozen=True, gc=False, tag="unfinished-exploration"):
    """dungeon: the log stops while an exploration goes on."""

    team: tuple[str, ...]
    """Who is still in the team."""
    turns: int
    """The turns recorded (0: none)."""


class UnfinishedGameFact(_Fact, frozen=True, gc=False, tag="unfinished-game"):
    """dungeon: the log ends before anyone reached ``points``."""

    points: int
    best: int
    """The best score reached."""
    leaders: tuple[str, ...]
    """Who has it."""


class CoveringStopsFact(_Fact, frozen=True, gc=False, tag="covering-stops"):
    """Memo Dice: the log stops covering before a die was covered with the golden cup."""

    covered: int
    """The dice covered in the round."""


class NeverUncoveredFact(_Fact, frozen=True, gc=False, tag="never-uncovered"):
    """Memo Dice: the cups a round leaves covered (they score for nobody)."""

    cups: tuple[int, ...]


class UnusedAbilityFact(_Fact, frozen=True, gc=False, tag="unused-ability"):
    """Memoarrr!: an animal ability earned (it is compulsory) that the log does not record."""

    animal: Literal["octopus", "walrus", "penguin"]
    ability: Literal["swap", "mark", "peek"]


class FaceDownFact(_Fact, frozen=True, gc=False, tag="face-down"):
    """Cards still face down: where a volcano is taken (Memoarrr!) or a round ends (robot
    memory)."""

    cards: int
    positions: tuple[str, ...] | None
    """Where they lie (robot memory; None where the message only counts them)."""


class TreasureStackFact(_Fact, frozen=True, gc=False, tag="treasure-stack"):
    """Memoarrr!: an ordered treasure stack recorded in another order (top first)."""

    recorded: tuple[int, ...]
    ordered: tuple[int, ...]


class RoundEndFact(_Fact, frozen=True, gc=False, tag="round-end"):
    """Memoarrr!: a move that ignores the end of ``round``: the next round begun before it
    ended (``still_in``: who had no volcano yet), or an action after it ended (``still_in``
    empty)."""

    round: int
    still_in: tuple[str, ...]


class ShortCircuitsFact(_Fact, frozen=True, gc=False, tag="short-circuits"):
    """robot memory: short circuits laid out beyond a bound: more than the box holds
    (``players`` None, ``limit`` the box's), or fewer than the ``limit`` that ``players`` (5
    or more) add."""

    short_circuits: int
    limit: int
    players: int | None


class RepeatedCardFact(_Fact, frozen=True, gc=False, tag="repeated-card"):
    """robot memory: a memory card laid out a second time in a round."""

    card: str
    """As the text words it (``2 blue gears``)."""
    first: str
    """The position of the first."""
    position: str
    """The position of the second."""


class NoFeatureFact(_Fact, frozen=True, gc=False, tag="no-feature"):
    """robot memory: a guess that names no feature of the card."""

    guesser: str
    position: str


class FewestPointsFact(_Fact, frozen=True, gc=False, tag="fewest-points"):
    """robot memory: a round started by a player who does not have the fewest points."""

    player: str
    points: int
    fewest: int
    due: tuple[str, ...]
    """Who has the fewest points (any of them may start)."""


class RoundsFact(_Fact, frozen=True, gc=False, tag="rounds"):
    """robot memory: a log with more or fewer rounds than the game's."""

    round: int
    """A round beyond the game's (``round`` > ``rounds``), or the last recorded: the log
    stops after it."""
    rounds: int
    """The game's rounds."""


class FirstTileFact(_Fact, frozen=True, gc=False, tag="first-tile"):
    """solo: a record whose first tile is not START."""

    tile: str
    start: str


class SeedRulesFact(_Fact, frozen=True, gc=False, tag="seed-rules"):
    """solo: a record whose additional rules are not its seed code's."""

    seed: str
    rules: tuple[int, ...]
    """The seed's."""
    recorded: tuple[int, ...]
    """The record's."""


class IllegalFact(_Fact, frozen=True, gc=False, tag="illegal"):
    """A move that breaks a rule, told as an event (the ruling's violation says more)."""

    rule: str
    player: str | None


Fact = (LostCardFact | VoidAnnouncementFact | CaptainFact | GuessFact | CupFact | VolcanoFact
        | SwapFact | TreasureFact | StartFact | TurnFact | PositionFact
        | TileFact | DieFact | CoveringEndedFact
        | UncoverFact | PeekSideFact
        | ScoreFact | GameEndFact | AnnounceFact
        | HandSizeFact | ExplorationEndFact
        | NotCheckedFact | DungeonFact | SoloDungeonFact | SoloFailureFact | SoloTilesFact
        | SeedTileFact | LayoutFact | CoverFact
        | RoundPointsFact | UnfinishedRoundFact | IllegalFact
        | DeckSizeFact | DealtTileFact | MissingTilesFact | UnfinishedExplorationFact
        | UnfinishedGameFact | CoveringStopsFact | NeverUncoveredFact | UnusedAbilityFact
        | FaceDownFact | TreasureStackFact | RoundEndFact | ShortCircuitsFact
        | RepeatedCardFact | NoFeatureFact | FewestPointsFact | RoundsFact | FirstTileFact
        | SeedRulesFact)
