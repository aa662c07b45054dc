"""Dungeon in memory (``game/1``): every tile laid is seen by the whole table, so at every
turn each player can know whether the path is Lost; memory decides every move.

Moves: the active player's placement while the path still holds (sound, or a slip if the
arrow is not in line with the last-taken path: "misplace a tile", Lost (D)), and after each
placement, each non-active player still in the team deciding whether to announce Lost (sound:
announcing once the path is Lost, staying while it holds; a slip: announcing before, rule I,
or staying once it is Lost). Under additional rule #1 only one announcement a turn stands:
a player who stays while another's announcement has priority over theirs could not have
announced, so staying (or announcing in vain) is sound, and their perfect turn comes later
(:func:`outranked`). Any other decision in a turn in which an announcement stood is not
judged: a log may list only the announcement that stood, so whether a player also spoke is
not known (the analysis notes which).
Besides the marks, each exploration reports where the path was first Lost, who laid that
tile, and for each player when a perfect memory would have announced against what they did,
and the points that would have scored.

>>> import random
>>> from pathcheck.games.dungeon.gen import random_game
>>> analysis = analyse(random_game(random.Random(5), players=3), source="demo")
>>> analysis.game, analysis.explorations[0].number
('dungeon', 1)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import msgspec

from pathcheck.analysis.core import (
    AnalysedMove,
    ExplorationReport,
    GameAnalysis,
    LostAnnouncement,
    Mark,
    make_analysis,
    player_summary,
    slip_mark,
)
from pathcheck.games.dungeon.fast import fast_replay, lost_checks
from pathcheck.games.dungeon.log import (
    GAME_FORMAT,
    GAME_LOG,
    Exploration,
    ExplorationEntry,
    GameEntry,
    GameLog,
    read_game_entry,
)
from pathcheck.games.dungeon.rules import PRIORITY
from pathcheck.games.dungeon.state import Replay, clockwise_after
from pathcheck.ruling import Rule
from pathcheck.tracer.check import RULE_I, RULE_II, RULE_III, LostCard, card_outcomes
from pathcheck.tracer.constants import REASONS
from pathcheck.tracer.dungeon import LOST_RULES, LostReason

MISPLACED = LostReason.MISPLACED.value
_MISPLACED_CODE = REASONS.index(MISPLACED)


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every move of a ``game/1`` log marked, every exploration reported; RecordError if the
    log is malformed."""
    return analyse_entry(GAME_LOG.read(log, source=source), source=source)


def analyse_entry(entry: GameEntry, *, source: str, for_json: bool = False) -> GameAnalysis:
    """:func:`analyse` of a log in its typed form (:data:`~pathcheck.games.dungeon.log.
    GAME_LOG`). A log the C replay takes (:func:`~pathcheck.games.dungeon.fast.fast_replay`:
    a clean one, the very pass ``adjudicate`` rules with) is not replayed again: its checks,
    scores and winners come from that pass, and its moves are marked in C from its trace
    (``_speedups.dungeon_marks``); any other is replayed in Python.

    ``for_json``: the analysis is only to be encoded (``to_json``), so a clean log's moves
    may come as the JSON array msgspec would write of them (a :class:`msgspec.Raw` in
    ``moves``, see :func:`marked_in_c`); the bytes encoded are the same."""
    found = fast_replay(entry)
    if found is None:
        return analyse_read(read_game_entry(entry, source=source), source=source)
    traced, scores, winners = found
    marked = None
    if for_json:
        marked = marked_in_c(entry, traced, scores, winners, source, encoded=True)
    if marked is None:
        marked = marked_in_c(entry, traced, scores, winners, source)
    if marked is not None:
        return marked
    return _analysis(read_game_entry(entry, source=source),
                     lost_checks(traced, entry.players), scores, winners, source)


def analyse_read(game: GameLog, *, source: str) -> GameAnalysis:
    """:func:`analyse` of a log already read (:func:`~pathcheck.games.dungeon.log.
    read_game_entry`), replayed in Python."""
    replay = Replay(game)
    replay.run()
    return _analysis(game, replay.checks, replay.scores, replay.winners, source)


def marked_in_c(entry: GameEntry, traced: tuple[Any, ...], scores: Mapping[str, int],
                winners: Sequence[str], source: str, *,
                encoded: bool = False) -> GameAnalysis | None:
    """:func:`_analysis` of a clean log from the C replay's ``traced`` pass, its reports and
    moves made in C (``_speedups.dungeon_marks``: :func:`exploration_report`'s and
    :func:`exploration_moves`'s values in the same order, with each player's counts) from the
    log as decoded. None without the extension or where the C side declines (then
    :func:`_analysis`).

    ``encoded``: the moves and the reports are not made as values but written as the JSON
    arrays msgspec encodes of them, held in ``moves`` and ``explorations`` as
    :class:`msgspec.Raw` (so ``to_json`` writes the same bytes; such an analysis is for
    encoding only). None also where a move or a report cannot be written so (a value outside
    the kit's, a name that is no UTF-8 text)."""
    if _marks is None:  # looked up at each call: the tests switch the C side off
        return None
    players = entry.players
    priority = 1 in entry.rules
    why = _priority_why(players) if priority else ()
    longest = max(map(len, map(_TURNS, entry.explorations)))
    args = (traced, entry.explorations, players, priority, _MISPLACED_CODE, _kit(),
            _holds(longest + 1), why, _DID)
    found = _marks(*args, _encoded_kit()) if encoded else _marks(*args)
    if found is None:
        return None
    moves, unjudged, counts, reports = found
    summaries = tuple([player_summary(p, slips, 0, sound, harmless, lost, stake,
                                      scores.get(p, 0), p in winners)
                       for p, (slips, sound, harmless, lost, stake) in zip(players, counts,
                                                                           strict=True)])
    written: Any = msgspec.Raw(moves) if encoded else tuple(moves)  # see the docstring
    explored: Any = msgspec.Raw(reports) if encoded else tuple(reports)
    return GameAnalysis(game="dungeon", format=GAME_FORMAT, source=source, players=players,
                        moves=written, summaries=summaries, winners=tuple(winners),
                        final_scores=dict(scores), explorations=explored,
                        notes=_unjudged_note(unjudged))


_TURNS = operator.attrgetter("turns")


@lru_cache(maxsize=256)
def _priority_why(players: tuple[str, ...]) -> tuple[str, ...]:
    """Why each player's announcement stood over the others' (additional rule #1)."""
    return tuple(f"{p} announced Lost with priority: one announcement a turn" for p in players)


def _unjudged_note(unjudged: Sequence[str]) -> tuple[str, ...]:
    return (f"not judged: {', '.join(unjudged)}: under additional rule #1 another "
            "player's announcement stood, and a log may list only that one (adjudicate "
            "decision 3), so whether they announced too is not known",) if unjudged else ()


try:
    from pathcheck import _speedups

    _marks: Callable[..., Any] | None = _speedups.dungeon_marks
except (ImportError, AttributeError):  # no C compiler at install time (or an older build)
    _marks = None

_DID: dict[str, tuple[str, str, str, str]] = {}
"""``lays TILE@DIR`` by tile id, the four directions in order (filled by the C side)."""


@cache
def _kit() -> tuple[Any, ...]:
    """The values the C side makes moves of, in the order of its enum (dungeon_marks.c)."""
    return (AnalysedMove, Mark.SOUND, Mark.SLIP, Mark.HARMLESS, _RULE_D, PRIORITY, RULE_I,
            RULE_II, 0.0, 1.0, "blunder", _LAY_IN_LINE, "misplaced", "as played",
            "in line with the last-taken path", _STAYS, _STAY, _HOLDS_WHY, "announces Lost",
            "either: an announcement would be void", "announce Lost", "the path is Lost",
            "too early: the path holds", "missed: the path is Lost", _MISSED_NOTHING,
            LostAnnouncement, ExplorationReport, RULE_III, "held-on", "too-early", "on-time",
            "late", "missed", "not-judged", "no-chance", REASONS,
            tuple(None if r is None else _RULE_OF_REASON[r] for r in REASONS))


@cache
def _encoded_kit() -> dict[Any, bytes]:
    """The kit's values that are neither text nor numbers (the marks, the rules, the rules
    of the Lost reasons), each as msgspec encodes it: what dungeon_marks_json.c and
    dungeon_report.c write them as."""
    kit = _kit()
    return {value: msgspec.json.encode(value) for value in (*Mark, *kit, *kit[-1])
            if isinstance(value, Mark | Rule)}


def _analysis(game: GameLog, checks: Sequence[tuple[int, int, Sequence[LostCard]]],
              scores: Mapping[str, int], winners: Sequence[str], source: str) -> GameAnalysis:
    """The analysis of ``game`` from what its replay left: each exploration's check (Lost
    point, reason code, LOST cards), the scores and the winners."""
    players = game.players
    moves: list[AnalysedMove] = []
    reports: list[ExplorationReport] = []
    unjudged: list[str] = []
    priority = 1 in game.rules
    for number, (exp, (lost_at, code, cards)) in enumerate(
            zip(game.explorations, checks, strict=False), 1):
        reason = REASONS[code]
        report = exploration_report(number, exp, lost_at or None, reason, cards, players,
                                    priority=priority)
        moves.extend(exploration_moves(number, exp, lost_at or None, reason, cards, players,
                                       priority=priority, unjudged=unjudged, report=report))
        reports.append(report)
    return make_analysis("dungeon", GAME_FORMAT, source, players, moves, scores,
                         winners, explorations=tuple(reports), notes=_unjudged_note(unjudged))


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _lost_words(lost_at: int, reason: str | None) -> str:
    return f"the path is Lost since tile {lost_at} ({reason})"


def outranked(player: str, t: int, exp: Exploration | ExplorationEntry, cards: Sequence[LostCard],
              players: Sequence[str]) -> str | None:
    """Under additional rule #1, the player whose announcement in turn ``t`` stood over any
    ``player`` could have made, or None: "It is not allowed for multiple players to announce
    Lost during the same turn. If multiple players simultaneously announce Lost, the earliest
    player in the subsequent turn order has priority." A perfect memory speaks as soon as the
    tile is laid, at the same moment as anyone else at the latest, so turn order after the
    active player decides: ``player`` is outranked when the announcement that stood comes
    before them in it, whether or not they spoke (one who spoke after a player behind them,
    in a turn marked one after the other, was voided for speed, not memory)."""
    standing = _stood(t, cards)
    if standing is None or standing == player:
        return None
    order = clockwise_after(players, exp.turns[t - 1].player)
    return standing if order.index(standing) < order.index(player) else None


def _stood(t: int, cards: Sequence[LostCard]) -> str | None:
    """The player whose announcement in turn ``t`` stood, if any."""
    return next((c.player for c in cards if c.after == t + 1), None)


def exploration_moves(number: int, exp: Exploration, lost_at: int | None, reason: str | None,
                      cards: Sequence[LostCard], players: Sequence[str], *,
                      priority: bool = False, unjudged: list[str] | None = None,
                      report: ExplorationReport | None = None) -> list[AnalysedMove]:
    """The marked moves of one exploration (see the module doc), each with its cost
    (:func:`stay_cost`; an announcement too early costs the point the perfect announcement
    scored, ``report``'s); ``priority``: additional rule #1 is in play; the moves the log
    cannot decide (``R.T player``) are added to ``unjudged``."""
    if unjudged is None:
        unjudged = []
    if report is None:
        report = exploration_report(number, exp, lost_at, reason, cards, players,
                                    priority=priority)
    perfect_points = {a.player: a.perfect_points for a in report.announcements}
    left_after = {c.player: c.after for c in cards}  # the card that stood: its tile
    scoring = past_lost_point(cards, lost_at)
    stood = _stood_by_turn(cards) if priority else {}
    moves: list[AnalysedMove] = []
    add = moves.append
    lost_words = None if lost_at is None else _lost_words(lost_at, reason)
    misplaced_at = lost_at if reason == MISPLACED else None
    holds = _holds(len(exp.turns) + 1)
    # This loop makes most of an analysis's moves: written for speed (docs/analysis.md, Speed)
    for t, turn in enumerate(exp.turns, 1):
        height = t + 1  # the tile this turn lays
        active = turn.player
        pointer = f"{turn.turns_at}{turn.index}"
        if lost_at is None or lost_at >= height:  # the path held up to this placement
            did = f"lays {turn.placement}"
            if misplaced_at == height:
                add(AnalysedMove(number, t, active, did, holds[t], _LAY_IN_LINE, Mark.SLIP,
                                 "misplaced", None, _RULE_D, pointer, 1.0, 1.0, "blunder"))
            else:
                add(AnalysedMove(number, t, active, did, holds[t], "as played", Mark.SOUND,
                                 "in line with the last-taken path", None, None, pointer))
        lost_now = lost_at is not None and lost_at <= height
        said_by = turn.lost
        first = stood.get(t) if priority else None
        if not lost_now and not said_by and first is None:
            knew = holds[height]  # the path holds and nobody spoke: every stay is sound
            for player in players:
                if player != active and left_after.get(player, height) >= height:
                    add(AnalysedMove(number, t, player, _STAYS, knew, _STAY, Mark.SOUND,
                                     _HOLDS_WHY, None, None, pointer))
            continue
        knew = lost_words if lost_now and lost_words is not None else holds[height]
        at = f"{pointer}/lost" if said_by else pointer
        age = height - lost_at + 1 if lost_now and lost_at is not None else None
        for player in players:
            if player == active or left_after.get(player, height) < height:
                continue  # active, or out of the team: their card lies on an earlier tile
            if first is not None and first != player:
                # Rule #1: another's announcement stood, and a log may list only that one
                # (adjudicate decision 3), so whether this player spoke is not known.
                if not lost_now or outranked(player, t, exp, cards, players) is None:
                    unjudged.append(f"{number}.{t} {player}")
                    continue  # speaking or not could be a slip or sound: not judged
                did = "announces Lost" if player in said_by else _STAYS
                add(AnalysedMove(number, t, player, did, knew,
                                 "either: an announcement would be void", Mark.SOUND,
                                 f"{first} announced Lost with priority: one announcement a "
                                 "turn", None, PRIORITY, at if player in said_by else pointer,
                                 0.0, 0.0, None, age))
                continue
            if player in said_by:
                if lost_now:
                    value = stay_cost(player, height, scoring)
                    add(AnalysedMove(number, t, player, "announces Lost", knew, "announce Lost",
                                     Mark.SOUND, "the path is Lost", None, RULE_II, at, 0.0,
                                     value, None, age))
                else:
                    value = float(perfect_points.get(player, 0))
                    mark, graded = slip_mark(value, value)
                    add(AnalysedMove(number, t, player, "announces Lost", knew,
                                     _STAY, mark, "too early: the path holds",
                                     None, RULE_I, at, value, value, graded))
            elif not lost_now:
                add(AnalysedMove(number, t, player, _STAYS, knew, _STAY, Mark.SOUND,
                                 _HOLDS_WHY, None, None, pointer))
            else:
                cost = stay_cost(player, height, scoring)
                mark, graded = slip_mark(cost, cost)
                add(AnalysedMove(number, t, player, _STAYS, knew, "announce Lost",
                                 mark, "missed: the path is Lost" if cost else _MISSED_NOTHING,
                                 None, RULE_II, pointer, cost, cost, graded, age))
    return moves


_MISSED_NOTHING = ("missed: the path is Lost (another LOST card already stood: announcing "
                   "would score nothing)")
_STAYS = "stays in the team"
_STAY = "stay in the team"
_HOLDS_WHY = "the path holds"
_HOLDS: list[str] = ["the stack of 0 tiles; the path holds"]
"""``the stack of N tiles; the path holds`` for N = 0, 1, ... (grown as explorations need)."""


def _holds(top: int) -> list[str]:
    """:data:`_HOLDS` with at least the stacks up to ``top`` tiles."""
    while len(_HOLDS) <= top:
        _HOLDS.append(f"the stack of {_tiles(len(_HOLDS))}; the path holds")
    return _HOLDS


def _stood_by_turn(cards: Sequence[LostCard]) -> dict[int, str]:
    """:func:`_stood` of every turn at once: turn -> the player whose announcement stood."""
    out: dict[int, str] = {}
    for c in cards:
        out.setdefault(c.after - 1, c.player)
    return out


def past_lost_point(cards: Sequence[LostCard], lost_at: int | None) -> list[tuple[int, str]]:
    """The LOST cards on or past the Lost point as (tile, player), lowest first (none if the
    path held): the ones rule II scores among.

    >>> past_lost_point([LostCard("Bob", 6), LostCard("Ann", 3), LostCard("Cy", 5)], 4)
    [(5, 'Cy'), (6, 'Bob')]
    """
    if lost_at is None or not cards:
        return []
    return sorted((c.after, c.player) for c in cards if c.after >= lost_at)


def stay_cost(player: str, height: int, scoring: Sequence[tuple[int, str]]) -> float:
    """The point an announcement by ``player`` on tile ``height`` (the path Lost) would have
    scored: 1 unless another player's LOST card already lies past the Lost point on a lower
    tile (rule II: "the first group of players whose LOST cards appear acquire 1 pt each");
    ``scoring``: the cards past the Lost point as (tile, player), lowest first.

    >>> stay_cost("Ann", 5, [(4, "Bob")]), stay_cost("Ann", 5, [(5, "Bob")])
    (0.0, 1.0)
    """
    for after, other in scoring:
        if after >= height:
            break
        if other != player:
            return 0.0
    return 1.0


_RULE_D = LOST_RULES[LostReason.MISPLACED]
_RULE_OF_REASON = {r.value: LOST_RULES[r] for r in LostReason if r in LOST_RULES}
_VERDICT_RULES = {"too-early": RULE_I, "not-judged": PRIORITY}
_LAY_IN_LINE = "lay it with its arrow in line with the last-taken path"


def exploration_report(number: int, exp: Exploration | ExplorationEntry, lost_at: int | None,
                       reason: str | None, cards: Sequence[LostCard],
                       players: Sequence[str], *, priority: bool = False) -> ExplorationReport:
    """Where the path was first Lost and each player's announcement against a perfect one
    (``priority``: additional rule #1 is in play, see :func:`outranked`)."""
    lost_turn = None if lost_at is None else lost_at - 1
    placed_by = (exp.turns[lost_turn - 1].player
                 if lost_turn is not None and 1 <= lost_turn <= len(exp.turns) else None)
    rule = None if reason is None else _RULE_OF_REASON[reason]
    outcome = {name: points for name, _, _, points in card_outcomes(lost_at, cards, players)}
    card_of = {c.player: c.after for c in cards}
    past_lost = past_lost_point(cards, lost_at)
    turns = exp.turns
    announcements = []
    for player in players:
        after = card_of.get(player)
        announced = None if after is None else after - 1
        points = outcome[player]
        if lost_at is None:  # the path held: staying scores (rule III), any card is early
            verdict, rule_used = ("held-on", RULE_III) if after is None else ("too-early", RULE_I)
            announcements.append(LostAnnouncement(player, verdict, announced, None, points, 1,
                                                  rule_used))
            continue
        perfect = None
        for t in range(lost_at - 1, len(turns) + 1):
            if turns[t - 1].player != player and not (
                    priority and outranked(player, t, exp, cards, players)):
                perfect = t
                break
        if after is None:  # announced only in vain, or never
            if perfect is not None:
                # rule #1: another stood in their perfect turn (by speaking first), and the
                # log need not list a void announcement: whether they spoke is not known
                stood = _stood(perfect, cards) if priority else None
                verdict = "missed" if stood is None or stood == player else "not-judged"
            else:  # an announcement in no turn of theirs (void, or ignored) is no chance
                verdict = "no-chance"
        elif after < lost_at:
            verdict = "too-early"
        elif announced == perfect:
            verdict = "on-time"
        else:
            verdict = "late"
        perfect_points = 0
        if perfect is not None:  # rule II: it scores if no other card lies lower, past Lost
            first_other = next((after for after, other in past_lost if other != player), None)
            perfect_points = int(first_other is None or perfect + 1 <= first_other)
        announcements.append(LostAnnouncement(player, verdict, announced, perfect, points,
                                              perfect_points, _VERDICT_RULES.get(verdict,
                                                                                 RULE_II)))
    return ExplorationReport(number, lost_at, lost_turn, reason, rule, placed_by,
                             tuple(announcements))
