"""Reading a ``robot-memory/1`` log into plain values (schema first, then semantic checks).

Anything that makes replay impossible (an unknown player, a position off the grid, a grid
whose rows do not match its size) is a :class:`~pathcheck.errors.RecordError` naming the JSON
pointer; rule breaking is left to the replay.

>>> log = read_log({"format": "robot-memory/1", "variant": "solo", "players": ["Ann"],
...     "rounds": [{"grid": {"rows": 1, "columns": 1, "cards": [["short-circuit"]]},
...                 "first": "Ann", "turns": []}]}, source="doc")
>>> log.sides, log.rounds[0].grid
(('Ann',), ((ShortCircuit(),),))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from msgspec import UNSET, Meta, UnsetType

from pathcheck.errors import RecordError, pointer_join
from pathcheck.games.common import check_player
from pathcheck.games.robot_memory.rules import Guess, Place, Variant, card_from_json
from pathcheck.inputs.logformat import LogFormat, unique
from pathcheck.render.words import counted

FORMAT = "robot-memory/1"
SCHEMA = "robot-memory"
FORMATS = (FORMAT,)
"""The ``format`` values this game reads."""
SCHEMAS = (SCHEMA,)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""

# --- the format, as typed structures (the JSON Schema is generated from them) -------------

Name = Annotated[str, Meta(min_length=1, max_length=60)]
TypeName = Literal["battery", "gear", "tool", "bulb"]
ColourName = Literal["yellow", "red", "blue", "green"]
Number = Annotated[int, Meta(ge=1, le=4)]
ShortCircuit = Literal["short-circuit"]
Unknown = Literal["unknown"]

# gc=False on every Struct: values decoded from JSON cannot form reference cycles, so the
# collector need not track them (they are built faster and never walked).


class MemoryCardEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A memory card: its type, colour and number."""

    type: TypeName
    colour: ColourName
    number: Number


CardEntry = Annotated[MemoryCardEntry | ShortCircuit | Unknown | None, Meta(
    description="A memory card, the string \"short-circuit\", the string \"unknown\" for a "
                "card the log does not record (never turned face up, or nobody noted it: a "
                "guess on it is not checked), or null for an empty place of the layout.")]


class GridEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """The layout, row by row: rows x columns places (null where a custom layout has no
    card). A card is recorded when it is turned face up: until then it may be "unknown"."""

    rows: Annotated[int, Meta(ge=1, le=20)]
    columns: Annotated[int, Meta(ge=1, le=20)]
    cards: Annotated[tuple[Annotated[tuple[CardEntry, ...], Meta(min_length=1)], ...],
                     Meta(min_length=1)]


class PositionEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A place of the grid, 1-based."""

    row: Annotated[int, Meta(ge=1)]
    column: Annotated[int, Meta(ge=1)]


class FeaturesEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """The features named for a memory card (naming none breaks a rule)."""

    type: TypeName | UnsetType = UNSET
    colour: ColourName | UnsetType = UNSET
    number: Number | UnsetType = UNSET


GuessEntry = Annotated[ShortCircuit | FeaturesEntry, Meta(
    description="What the active player named: the string \"short-circuit\", or any of the "
                "three features (naming none breaks a rule).")]
Points = Annotated[int, Meta(ge=0, description="Optional: the points the table scored for "
                                               "this guess; checked against the rules.")]


class ChainedEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A further guess after a short circuit named correctly: the active player chooses the
    card."""

    chooser: Name
    position: PositionEntry
    guess: GuessEntry
    points: Points | UnsetType = UNSET


class TurnEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """One turn: who pointed at which card, who guessed what, and any chained guesses."""

    chooser: Annotated[str, Meta(min_length=1, max_length=60,
                                 description="Who pointed at the card.")]
    guesser: Annotated[str, Meta(
        min_length=1, max_length=60,
        description="The active player (in team play, the team's captain).")]
    position: PositionEntry
    guess: GuessEntry
    points: Points | UnsetType = UNSET
    chain: tuple[ChainedEntry, ...] = ()


class RoundEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """One round: the layout, the first active player and the turns."""

    grid: GridEntry
    first: Annotated[str, Meta(min_length=1, max_length=60, description=(
        "The first active player (a team name in team play)."))]
    turns: tuple[TurnEntry, ...]
    captains: Annotated[dict[str, Name], Meta(description=(
        "Team play: the captains for this round where they changed (team name -> member)."))] \
        | UnsetType = UNSET


class TeamEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A team of the team-play variant."""

    name: Name
    captain: Name
    members: Annotated[tuple[Name, ...], Meta(min_length=1)]


class RobotMemoryEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A ``robot-memory/1`` log as written."""

    format: Literal["robot-memory/1"]
    variant: Annotated[Literal["standard", "solo", "team", "5+", "custom"], Meta(description=(
        "standard (2+ players, basic setup), solo (1 player), team (two teams with captains), "
        "5+ (5 or more players, any cards, at least 2 short circuits), custom (the Difficulty "
        "Level variant: any cards, any layout)."))]
    rounds: Annotated[tuple[RoundEntry, ...], Meta(min_length=1)]
    difficulty: Annotated[Literal["basic", "custom"], Meta(description=(
        "basic (13 memory cards and 3 short circuits in a 4x4 grid) or custom (the Difficulty "
        "Level variant, for solo and team play too). Default: custom for the 5+ and custom "
        "variants, basic otherwise."))] | UnsetType = UNSET
    players: Annotated[tuple[Name, ...], Meta(min_length=1, description="The players, "
                                                                       "clockwise.")] \
        | UnsetType = UNSET
    teams: Annotated[tuple[TeamEntry, ...], Meta(min_length=2, max_length=2, description=(
        "Team play: exactly two teams; the team named first sits first."))] | UnsetType = UNSET
    event: Annotated[str, Meta(description="Free text: where and when the game was played.")] \
        = ""


_PLAYER_COUNTS = {"solo": (1, 1), "standard": (2, None), "custom": (2, None), "5+": (5, None)}
LOG_FORMAT = LogFormat(
    SCHEMA, RobotMemoryEntry,
    title="robot-memory/1: a recorded game of the Igrology robot memory game",
    description="Players are listed clockwise: each player's left neighbour follows them (the "
                "last player's is the first). Rows and columns of a grid position are 1-based.",
    extras={
        "/properties/players": {"uniqueItems": True},
        "/$defs/TeamEntry/properties/members": {"uniqueItems": True},
        "": {"allOf": [
            {"if": {"properties": {"variant": {"const": "team"}}},
             "then": {"required": ["teams"], "not": {"required": ["players"]}},
             "else": {"required": ["players"], "not": {"required": ["teams"]}}},
            {"if": {"properties": {"variant": {"const": "solo"}}},
             "then": {"properties": {"players": {"maxItems": 1}}}},
            {"if": {"properties": {"variant": {"enum": ["standard", "custom"]}}},
             "then": {"properties": {"players": {"minItems": 2}}}},
            {"if": {"properties": {"variant": {"const": "5+"}}},
             "then": {"properties": {"players": {"minItems": 5}}}},
        ]},
    },
)
LOG_FORMATS = (LOG_FORMAT,)


def _check_seats(entry: RobotMemoryEntry, source: str) -> None:
    """Players or teams as the variant wants them (what the types alone cannot say)."""
    if entry.variant == "team":
        if entry.teams is UNSET or entry.players is not UNSET:
            raise RecordError(source, None, "", "team play lists \"teams\" and no \"players\"")
        for i, team in enumerate(entry.teams):
            unique(team.members, source=source, pointer=pointer_join("/teams", i, "members"))
        return
    if entry.players is UNSET or entry.teams is not UNSET:
        raise RecordError(source, None, "",
                          f"the {entry.variant} variant lists \"players\" and no \"teams\"")
    unique(entry.players, source=source, pointer="/players")
    low, high = _PLAYER_COUNTS[entry.variant]
    count = len(entry.players)
    if count < low or (high is not None and count > high):
        wanted = "exactly" if low == high else "at least"
        raise RecordError(source, None, "/players",
                          f"the {entry.variant} variant is played by {wanted} "
                          f"{counted(low, 'player')}, not {count}")


@dataclass(frozen=True)
class Team:
    """A team of the team-play variant."""

    name: str
    captain: str
    members: tuple[str, ...]


class Pick(NamedTuple):
    """One card chosen and guessed: the pointing (or, after a short circuit, the choice).

    Picks and turns are named tuples, not frozen dataclasses: a log has dozens of them, and a
    tuple is built about three times faster.
    """

    chooser: str
    position: tuple[int, int]
    """1-based (row, column)."""
    guess: Guess
    points: int | None
    """What the log says the table scored, if it says."""
    pointer: str


class Turn(NamedTuple):
    """One active player's turn: the pointed card, then any chained choices."""

    guesser: str
    picks: tuple[Pick, ...]
    pointer: str


@dataclass(frozen=True)
class RoundLog:
    """One round as recorded."""

    grid: tuple[tuple[Place, ...], ...]
    first: str
    captains: Mapping[str, str]
    turns: tuple[Turn, ...]
    pointer: str


@dataclass(frozen=True)
class GameLog:
    """A whole log; ``sides`` are the scoring sides (players, or team names), clockwise."""

    variant: Variant
    basic_setup: bool
    sides: tuple[str, ...]
    teams: tuple[Team, ...]
    rounds: tuple[RoundLog, ...]

    @property
    def head_count(self) -> int:
        """How many people play (every team member in team play)."""
        return len(self.people)

    @property
    def people(self) -> tuple[str, ...]:
        """Everyone at the table: the players, or every team member in team play."""
        if self.variant is Variant.TEAM:
            return tuple(m for t in self.teams for m in t.members)
        return self.sides

    def side_of(self, player: str) -> str | None:
        """The side a player scores for (None if not in the game)."""
        if self.variant is not Variant.TEAM:
            return player if player in self.sides else None
        for team in self.teams:
            if player in team.members:
                return team.name
        return None


_POSITION_NAMES = [[f"r{row}c{column}" for column in range(21)] for row in range(21)]
"""The names of the places of the largest grid a log may have (20x20), made once."""


def position_name(position: tuple[int, int]) -> str:
    """``r2c3`` for row 2, column 3.

    >>> position_name((2, 3)), position_name((30, 1)), position_name((-1, 2))
    ('r2c3', 'r30c1', 'r-1c2')
    """
    row, column = position
    if 0 <= row < len(_POSITION_NAMES) and 0 <= column < len(_POSITION_NAMES):
        return _POSITION_NAMES[row][column]
    return f"r{row}c{column}"


def read_log(log: Mapping[str, Any], *, source: str) -> GameLog:
    """Validate ``log`` and read it; RecordError if it is malformed."""
    return read_entry(LOG_FORMAT.read(log, source=source), source=source)


def read_entry(entry: RobotMemoryEntry, *, source: str) -> GameLog:
    """A log already in its typed form (:data:`LOG_FORMAT`), checked and read as
    :func:`read_log` reads it."""
    _check_seats(entry, source)
    variant = Variant(entry.variant)
    if entry.difficulty is UNSET:
        basic = variant is not Variant.FIVE_PLUS and variant is not Variant.CUSTOM
    else:
        basic = entry.difficulty == "basic"
    teams = _read_teams(entry, source) if variant is Variant.TEAM else ()
    sides = tuple(t.name for t in teams) if teams else tuple(entry.players or ())
    game = GameLog(variant, basic, sides, teams, ())
    reader = _RoundReader(game, source)
    rounds = tuple(reader.read(value, f"/rounds/{i}") for i, value in enumerate(entry.rounds))
    return GameLog(variant, basic, sides, teams, rounds)


def _read_teams(entry: RobotMemoryEntry, source: str) -> tuple[Team, ...]:
    teams: list[Team] = []
    seen: dict[str, str] = {}
    for i, value in enumerate(entry.teams or ()):
        where = pointer_join("/teams", i)
        team = Team(value.name, value.captain, value.members)
        if any(t.name == team.name for t in teams):
            raise RecordError(source, None, where + "/name", f"two teams named {team.name!r}")
        if team.captain not in team.members:
            raise RecordError(source, None, where + "/captain",
                              f"captain {team.captain!r} is not a member of {team.name!r}")
        for j, member in enumerate(team.members):
            if member in seen:
                raise RecordError(source, None, pointer_join(where, "members", j),
                                  f"{member!r} is already in team {seen[member]!r}")
            seen[member] = team.name
        teams.append(team)
    return tuple(teams)


# Cards and guesses of a schema-valid log come from small finite sets (64 cards and a short
# circuit, 126 guesses): each is read once per process and shared, so the replay can key its
# tables on them.
_CARDS: dict[MemoryCardEntry | str, Place] = {}
_GUESSES: dict[GuessEntry, Guess] = {}


def _card(value: MemoryCardEntry | str) -> Place:
    card = _CARDS.get(value)
    if card is None:
        found = card_from_json(value if isinstance(value, str) else msgspec.structs.asdict(value))
        assert found is not None
        card = _CARDS[value] = found
    return card


def _guess(value: GuessEntry) -> Guess:
    guess = _GUESSES.get(value)
    if guess is None:
        guess = _GUESSES[value] = Guess.from_json(
            value if isinstance(value, str) else {
                k: v for k, v in msgspec.structs.asdict(value).items() if v is not UNSET})
    return guess


_new = tuple.__new__
"""Builds a named tuple from a tuple of its fields, skipping its generated ``__new__`` (a Python
call less for each of the dozens of picks and turns of a log)."""


class _RoundReader:
    """Reads the rounds of one log (the names at the table looked up once)."""

    def __init__(self, game: GameLog, source: str) -> None:
        self.game = game
        self.source = source
        self.people = game.people
        self.known = frozenset(self.people)

    def read(self, value: RoundEntry, where: str) -> RoundLog:
        game, source = self.game, self.source
        grid = value.grid
        rows, columns, cards = grid.rows, grid.columns, grid.cards
        if len(cards) != rows:
            raise RecordError(source, None, where + "/grid/cards",
                              f"{len(cards)} rows of cards for a grid of {rows} rows")
        for r, row in enumerate(cards):
            if len(row) != columns:
                raise RecordError(source, None, f"{where}/grid/cards/{r}",
                                  f"{len(row)} cards in a row of a grid of {columns} columns")
        known_cards = _CARDS
        layout = tuple([tuple([None if c is None else known_cards.get(c) or _card(c)
                               for c in row]) for row in cards])

        first = value.first
        if first not in game.sides:
            kind = "team" if game.variant is Variant.TEAM else "player"
            raise RecordError(source, None, where + "/first", f"unknown {kind} {first!r}")
        captains: dict[str, str] = {} if value.captains is UNSET else dict(value.captains)
        if captains and game.variant is not Variant.TEAM:
            raise RecordError(source, None, where + "/captains",
                              "captains are for team play only")
        for team_name, captain in captains.items():
            at = pointer_join(where, "captains", team_name)
            if team_name not in game.sides:
                raise RecordError(source, None, at, f"unknown team {team_name!r}")
            if game.side_of(captain) != team_name:
                raise RecordError(source, None, at,
                                  f"{captain!r} is not a member of {team_name!r}")

        turns = []
        known = self.known
        pick = self._pick
        for t, turn in enumerate(value.turns):
            at = f"{where}/turns/{t}"
            guesser = turn.guesser
            if guesser not in known:
                self._unknown(guesser, at + "/guesser")
            if turn.chain:
                picks = [pick(layout, turn, at)]
                for c, chained in enumerate(turn.chain):
                    picks.append(pick(layout, chained, f"{at}/chain/{c}"))
                turns.append(_new(Turn, (guesser, tuple(picks), at)))
            else:
                turns.append(_new(Turn, (guesser, (pick(layout, turn, at),), at)))
        return RoundLog(layout, first, captains, tuple(turns), where)

    def _unknown(self, name: str, where: str) -> None:
        check_player(name, self.people, source=self.source, pointer=where)

    def _pick(self, layout: tuple[tuple[Place, ...], ...],
              value: TurnEntry | ChainedEntry, where: str) -> Pick:
        chooser = value.chooser
        if chooser not in self.known:
            self._unknown(chooser, where + "/chooser")
        position = value.position
        row, column = position.row, position.column
        try:
            card = layout[row - 1][column - 1]  # row, column >= 1: the schema says so
        except IndexError:
            raise RecordError(self.source, None, where + "/position",
                              f"r{row}c{column} is off the {len(layout)}x{len(layout[0])} grid"
                              ) from None
        if card is None:
            raise RecordError(self.source, None, where + "/position",
                              f"no card at r{row}c{column}")
        points = value.points
        guess = value.guess
        return _new(Pick, (chooser, (row, column), _GUESSES.get(guess) or _guess(guess),
                           None if points is UNSET else points, where))
