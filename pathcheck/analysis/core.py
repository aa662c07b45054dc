"""What every game's analysis is made of: marks, analysed moves, per-player summaries.

A *move* is a decision a player took that a memory could get right or wrong. Each is marked
against a perfect memory of exactly what the mover had seen (``docs/analysis.md``):

- ``slip``: memory could decide the move and the player did otherwise;
- ``guess``: nothing the mover had seen decides it; ``chance`` is the probability of success
  over what was still unseen to them;
- ``sound``: the move a perfect memory makes;
- ``harmless``: memory could decide it and the player did otherwise, at no cost.

Each move carries its ``cost`` (what a perfect memory of what the mover knew would have
gained over it, in the game's points, expected where chance decides) and ``value`` (what the
perfect move was worth); a slip is graded by the share of the value it cost
(:func:`grade`), and the memory score (:func:`memory_score`) weighs every decision by it.

Accuracy is the same for every game: sound moves among the moves memory could decide
(sound + slips), as a percentage; None when a player had no such move.

>>> moves = [AnalysedMove(1, 1, "Ann", "reveals B2", "", "", Mark.SOUND, ""),
...          AnalysedMove(1, 2, "Bob", "reveals C1", "", "", Mark.GUESS, "", chance=0.25),
...          AnalysedMove(1, 3, "Ann", "reveals D4", "", "", Mark.SLIP, "")]
>>> [(s.player, s.moves, s.slips, s.guesses, s.accuracy) for s in summarise(
...     ("Ann", "Bob"), moves, {"Ann": 2, "Bob": 0}, ["Ann"])]
[('Ann', 2, 1, 0, 50.0), ('Bob', 1, 0, 1, None)]
"""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import msgspec

from pathcheck.ruling import Rule


class Mark(enum.Enum):
    """How a move compares with a perfect memory of what the mover had seen."""

    SLIP = "slip"
    GUESS = "guess"
    SOUND = "sound"
    HARMLESS = "harmless"
    """Memory could decide the move and the player did otherwise, but it cost nothing (a
    LOST card stayed back when another card already stood and rule II gives nothing)."""

    __hash__ = object.__hash__  # members are singletons (as CardOutcome's)


class AnalysedMove(msgspec.Struct, frozen=True, gc=False):
    """One move: where it is (``round`` and ``index`` as the game's rulings number them),
    who moved, what they did, what they knew that matters, what a perfect memory of that
    would do, the mark and why."""

    round: int
    index: int
    player: str
    did: str
    knew: str
    best: str
    mark: Mark
    why: str
    chance: float | None = None
    """For a guess: the probability that it succeeds, over what the mover had not seen."""
    rule: Rule | None = None
    """The rule that makes a slip a slip (or a move sound), where one does."""
    pointer: str = ""
    """The move's JSON pointer in the log."""
    cost: float = 0.0
    """What a perfect memory of what the mover knew would have gained over the move made, in
    the game's points (expected points where chance decides); 0 for a sound move or a guess."""
    value: float = 0.0
    """What the perfect move was worth there, in the same points: the most a move could lose
    (the figure's "at stake", docs/analysis.md)."""
    grade: str | None = None
    """A slip by its cost against the move's value: ``inaccuracy``, ``mistake``, ``blunder``."""
    age: int | None = None
    """How many moves ago the deciding information was seen (1: the move just before), where
    the game says (the memory span); None where memory did not decide or it is not measured."""

    def where(self) -> str:
        return f"{self.round}.{self.index}"


class PlayerSummary(msgspec.Struct, frozen=True, gc=False):
    """One player's moves counted by mark, with the game's result for them."""

    player: str
    moves: int
    slips: int
    guesses: int
    sound: int
    accuracy: float | None
    """Sound moves among the moves memory could decide (sound + slips), in percent."""
    points: int
    won: bool
    harmless: int = 0
    lost: float = 0.0
    """The points their moves cost (the sum of the moves' costs)."""
    at_stake: float = 0.0
    """The points the perfect moves were worth (the sum of the moves' values)."""
    memory_score: float | None = None
    """:func:`memory_score` of ``lost`` and ``at_stake``."""


def grade(cost: float, value: float) -> str:
    """A slip's grade by the share of the move's value it cost: under a third an
    ``inaccuracy``, under two thirds a ``mistake``, else a ``blunder`` (a move worth nothing
    that still cost points is a blunder).

    >>> grade(0.2, 1.0), grade(0.5, 1.0), grade(6, 6), grade(1, 0)
    ('inaccuracy', 'mistake', 'blunder', 'blunder')
    """
    share = cost / value if value > 0 else 1.0
    return "inaccuracy" if share < 1 / 3 else "mistake" if share < 2 / 3 else "blunder"


def slip_mark(cost: float, value: float) -> tuple[Mark, str | None]:
    """A move memory could decide done otherwise: a slip with its grade, or harmless when it
    cost nothing.

    >>> slip_mark(0, 1), slip_mark(1, 1)
    ((<Mark.HARMLESS: 'harmless'>, None), (<Mark.SLIP: 'slip'>, 'blunder'))
    """
    if cost <= 1e-12:
        return Mark.HARMLESS, None
    return Mark.SLIP, grade(cost, value)


def memory_score(lost: float, at_stake: float) -> float | None:
    """The figure that ranks players: ``100 * (1 - lost / at_stake)``, at least 0, one decimal:
    the share of the points at stake in their decisions that their memory kept; None when
    nothing was at stake.

    >>> memory_score(1, 4), memory_score(5, 4), memory_score(0, 0)
    (75.0, 0.0, None)
    """
    if at_stake <= 0:
        return None
    return round(max(0.0, 100.0 * (1.0 - lost / at_stake)), 1)


def accuracy(sound: int, slips: int) -> float | None:
    """``sound / (sound + slips)`` in percent, one decimal; None with no decidable move.

    >>> accuracy(3, 1), accuracy(0, 0)
    (75.0, None)
    """
    decided = sound + slips
    return None if not decided else round(100.0 * sound / decided, 1)


def summarise(players: Sequence[str], moves: Sequence[AnalysedMove],
              points: Mapping[str, int], winners: Sequence[str]) -> tuple[PlayerSummary, ...]:
    """Each player's summary, in seat order (see the module's example)."""
    tally = Counter(map(_PLAYER_MARK, moves))  # counted in C: a log has hundreds of moves
    names = list(dict.fromkeys([*players, *(p for p, _ in tally)]))  # seats, then others
    lost = dict.fromkeys(names, 0.0)
    stake = dict.fromkeys(names, 0.0)
    for m in [m for m in moves if m.value]:  # few in a dungeon log: filtered first
        stake[m.player] += m.value
        lost[m.player] += m.cost
    return tuple(player_summary(p, tally[p, Mark.SLIP], tally[p, Mark.GUESS],
                                tally[p, Mark.SOUND], tally[p, Mark.HARMLESS], lost[p], stake[p],
                                points.get(p, 0), p in winners) for p in names)


def player_summary(player: str, slips: int, guesses: int, sound: int, harmless: int,
                   lost: float, at_stake: float, points: int, won: bool) -> PlayerSummary:
    """One player's summary from their counts by mark and the sums of their moves' costs
    (``lost``) and values (``at_stake``), added up in the order of the moves."""
    share, lost_shown, stake_shown, score = _figures(sound, slips, lost, at_stake)
    return PlayerSummary(player, slips + guesses + sound + harmless, slips, guesses, sound,
                         share, points, won, harmless, lost_shown, stake_shown, score)


@lru_cache(maxsize=4096, typed=True)
def _figures(sound: int, slips: int, lost: float,
             at_stake: float) -> tuple[float | None, float, float, float | None]:
    """A summary's figures, kept: a batch meets the same counts again and again (about five
    summaries in six of a batch of dungeon logs), and rounding is the summary's main cost.
    (The sums start at 0.0 and only add costs, so they are never -0.0, which would be a key
    equal to 0.0 that shows otherwise.)"""
    return (accuracy(sound, slips), round(lost, 4), round(at_stake, 4),
            memory_score(lost, at_stake))


_PLAYER_MARK: Callable[[AnalysedMove], tuple[str, Mark]] = operator.attrgetter("player", "mark")


class LostAnnouncement(msgspec.Struct, frozen=True, gc=False):
    """Dungeon in memory: one player's LOST announcement in one exploration, against a
    perfect memory's (docs/analysis.md)."""

    player: str
    verdict: str
    """``held-on`` (no card, the path held), ``too-early`` (rule I), ``on-time``, ``late``
    (scoring or not: ``points``), ``missed`` (no card stood and they did not announce in
    their perfect turn), ``not-judged`` (no card stood: under rule #1 another's
    announcement stood in their perfect turn, and a log need not list a void one, so
    whether they spoke is not known), ``no-chance`` (the
    exploration ended before the player could announce: no perfect turn, whatever they
    announced in turns that were not theirs)."""
    announced_turn: int | None
    """The turn after which their LOST card lies (None: no card)."""
    perfect_turn: int | None
    """The first turn at or after the Lost point at which they could announce: not active,
    and under rule #1 no announcement of a player before them in turn order stood (None:
    none)."""
    points: int
    """What their announcement (or staying) scored."""
    perfect_points: int
    """What the perfect announcement would have scored, the others' cards as they lay."""
    rule: Rule | None = None


class ExplorationReport(msgspec.Struct, frozen=True, gc=False):
    """Dungeon in memory: where one exploration's path was first Lost, and each player's
    announcement."""

    number: int
    lost_tile: int | None
    """The tile (1-based, START is 1) that made the path Lost; None: it held."""
    lost_turn: int | None
    """The turn that laid it (tile k is laid in turn k - 1)."""
    reason: str | None
    rule: Rule | None
    placed_by: str | None
    """Who laid the tile that made the path Lost."""
    announcements: tuple[LostAnnouncement, ...]


class GameAnalysis(msgspec.Struct, frozen=True, kw_only=True):
    """The analysis of one log: every move marked, each player summed up, and (dungeon in
    memory) each exploration's Lost point and announcements. ``line``: the log's line in a
    JSON Lines file (set by the stream, as rulings carry theirs), else None."""

    game: str
    format: str
    source: str
    line: int | None = None
    players: tuple[str, ...]
    moves: tuple[AnalysedMove, ...]
    summaries: tuple[PlayerSummary, ...]
    winners: tuple[str, ...]
    final_scores: Mapping[str, int]
    explorations: tuple[ExplorationReport, ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> bytes:
        return _encoder.encode(self)

    def to_dict(self) -> dict[str, Any]:
        """The JSON analysis as plain values (what :meth:`to_json` writes, read back)."""
        out: dict[str, Any] = msgspec.json.decode(self.to_json())
        return out

    def marks_by_move(self) -> dict[tuple[int, int], list[AnalysedMove]]:
        """The analysed moves under (round, index), as rulings number moves (the replay page
        marks its events with them)."""
        found: dict[tuple[int, int], list[AnalysedMove]] = {}
        for move in self.moves:
            found.setdefault((move.round, move.index), []).append(move)
        return found


_encoder = msgspec.json.Encoder()


def make_analysis(game: str, fmt: str, source: str, players: Sequence[str],
                  moves: Sequence[AnalysedMove], scores: Mapping[str, int],
                  winners: Sequence[str], **extra: Any) -> GameAnalysis:
    """A :class:`GameAnalysis` with its summaries worked out."""
    return GameAnalysis(game=game, format=fmt, source=source, players=tuple(players),
                        moves=tuple(moves),
                        summaries=summarise(players, moves, scores, winners),
                        winners=tuple(winners), final_scores=dict(scores), **extra)
