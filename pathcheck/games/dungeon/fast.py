"""The C fast path of the dungeon adjudicator, for clean ``game/1`` logs.

``pathcheck._speedups.dungeon_replay`` (pathcheck/speedups/c/dungeon_replay.c) replays the
log as msgspec decoded it (:class:`~pathcheck.games.dungeon.log.GameEntry`) as
:class:`~pathcheck.games.dungeon.state.Replay` would: the deal, turn order, tiles from the
hand, draws, LOST announcements and rule #1 priority, the end of each exploration and the
check. It hands back, per exploration, what the ruling words (the priority events, how the
exploration ended, the Lost point, the stack, the LOST cards and each player's outcome);
:func:`fast_ruling` words them with the replay's own words.

The C side takes only logs the Python replay rules without a violation or a note: the deal
recorded whole and right, every turn in order, from the hand, drawn from the top, every
announcement valid, every exploration ended, the game ended by its last exploration, in the
standard tile set. At anything else (and for what
:func:`~pathcheck.games.dungeon.log.read_game_entry` would refuse) it answers None, and
:func:`fast_ruling` too; the Python replay then rules on the whole log and words every
error. Without the extension (no C compiler at install time) it is always None.
tests/games/test_dungeon_fast.py checks that both paths give the same Ruling.

>>> import random
>>> from pathcheck.games.dungeon.gen import random_game
>>> from pathcheck.games.dungeon.log import GAME_LOG, read_game_entry
>>> from pathcheck.games.dungeon.adjudicator import rule_game_python
>>> log = random_game(random.Random(5), players=3)
>>> ruling = fast_ruling(GAME_LOG.read(log, source="demo"), source="demo")
>>> ruling is None or ruling == rule_game_python(log, source="demo")
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from msgspec import UNSET

from pathcheck.facts import DungeonFact, LostCardFact
from pathcheck.games.dungeon.log import GAME_FORMAT, GameEntry
from pathcheck.games.dungeon.rules import (
    EXPLORATION_END,
    GAME,
    GAME_END,
    NEXT_START,
    PRIORITY,
    WIN_POINTS,
    hand_size,
    rules_text,
)
from pathcheck.games.dungeon.state import _LOST_AT, START_DIR, TILES_PER_LINE
from pathcheck.ruling import (
    Event,
    ExplorationEndFact,
    Fact,
    GameEndFact,
    MoveRef,
    Round,
    Rule,
    Ruling,
    StartFact,
    VoidAnnouncementFact,
)
from pathcheck.tracer.check import OUTCOME_RULES, CardOutcome, explain_outcome
from pathcheck.tracer.constants import tracing_mask
from pathcheck.tracer.tileset import load_tileset

try:
    from pathcheck import _speedups

    _replay: Callable[..., Any] | None = _speedups.dungeon_replay
except ImportError:  # no C compiler at install time: the Python replay rules on every log
    _replay = None

_KINDS = (CardOutcome.EARLY, CardOutcome.SCORED, CardOutcome.TOO_LATE, CardOutcome.HELD_ON,
          CardOutcome.STAYED)
"""The outcomes by their code in the trace (DG_EARLY ... DG_STAYED in dungeon_replay.c)."""
_KIND_RULES = tuple(OUTCOME_RULES.get(kind) for kind in _KINDS)
_KIND_VALUES = tuple(kind.value for kind in _KINDS)
_DIRS = ("N", "E", "S", "W")


class _Setup:
    """What the C replay needs of the standard tile set in a mode (made once)."""

    def __init__(self, advanced: bool) -> None:
        from pathcheck import speedups  # not imported before a replay needs it

        tileset = load_tileset()
        self.tables = speedups.make_tables(tileset)
        ids = [tile.id for tile in tileset]
        index = {tile_id: number for number, tile_id in enumerate(ids)}
        in_play = set(tileset.deck_ids(advanced))
        self.in_play = bytes(tile_id in in_play for tile_id in ids)
        self.start = index[tileset.start]
        self.size = hand_size(advanced)
        self.tokens = tuple(f"{tile_id}@{d}" for tile_id in ids for d in _DIRS)
        """Each placement's text by its number in the trace, tile * 4 + dir."""
        self.note_start = f"{'advanced' if advanced else 'basic'} rules, additional rules: "
        self.note_end = (f", tile set {tileset.name}; START lies at (0, 0) with its arrow "
                         f"{START_DIR.name}")


_masks: dict[tuple[int, ...], int] = {}
"""The tracing mask of each ``rules`` as a log lists them (a few orders of four rules)."""


@cache
def _setup(advanced: bool) -> _Setup:
    return _Setup(advanced)


def fast_ruling(entry: GameEntry, *, source: str) -> Ruling | None:
    """The ruling on the log ``entry`` as the Python replay gives it, or None if the C side
    declines (or the extension is not built)."""
    if _replay is None:  # looked up at each call: the tests switch the C side off
        return None
    players = entry.players
    rules = frozenset(entry.rules)
    if (entry.tileset is not UNSET or len(set(players)) != len(players)
            or len(rules) != len(entry.rules) or (4 in rules and not entry.advanced)):
        return None
    setup = _setup(entry.advanced)
    mask = _masks.get(entry.rules)
    if mask is None:
        mask = _masks[entry.rules] = tracing_mask(rules)
    traced = _replay(setup.tables, entry.explorations, players, setup.in_play, setup.start,
                     setup.size, mask, 1 in rules, UNSET, setup.tokens, TILES_PER_LINE)
    if traced is None:
        return None
    ends, dungeons, outcomes_said, starts = _SAID
    if len(outcomes_said) > 8192:  # many distinct names: keep the caches small
        for cache_ in _SAID:
            cache_.clear()
    scores = dict.fromkeys(players, 0)
    rounds: list[Round] = []
    winners: list[str] = []
    last_number = len(traced)
    fact: Fact
    for number, (starter, turns, priority, ended, end_seat, last, lost_at, code, height,
                 lost_token, display, _, outcomes) in enumerate(traced, 1):
        events: list[Event] = [_priority(number, players, *p) for p in priority]
        ender = players[end_seat]
        text, fact = ends.get((ended, ender)) or _said_end(ended, ender)
        events.append(Event(text, None, EXPLORATION_END, {}, fact))
        key = (height, lost_at, code, lost_token)
        text, rule, fact = dungeons.get(key) or _said_dungeon(key, setup.tokens)
        events.append(Event(text, None, rule, {}, fact))
        for seat, kind, after, points in outcomes:
            player = players[seat]
            text, rule, fact = (outcomes_said.get((player, kind, after, lost_at))
                                or _said_outcome(player, kind, after, lost_at))
            events.append(Event(text, None, rule, {player: points}, fact))
            scores[player] += points
        if max(scores.values()) >= WIN_POINTS:
            if number != last_number:  # the log goes on after the game's end
                return None
            winners = [p for p, s in scores.items() if s >= WIN_POINTS]
            reached = tuple(winners)
            verb = "share the victory" if len(reached) > 1 else "wins"
            who = " and ".join(reached)
            reach = "reaches" if len(reached) == 1 else "reach"
            events.append(Event(f"{who} {reach} {WIN_POINTS} points: the game ends; "
                                f"{who} {verb}", None, GAME_END, {},
                                GameEndFact(number, reached, WIN_POINTS, dict(scores), reached)))
        else:
            last_player = players[last]
            text, fact = starts.get((last_player, number)) or _said_next(last_player, number)
            events.append(Event(text, None, NEXT_START, {}, fact))
        rounds.append(Round(
            number=number,
            title=f"Exploration {number} (start player {players[starter]}, "
                  f"{turns} turn{'' if turns == 1 else 's'})",
            events=tuple(events),
            scores=dict(scores),
            display=display,
        ))
    if not winners:  # the log ends before anyone won
        return None
    return Ruling(
        game=GAME,
        format=GAME_FORMAT,
        source=source,
        players=list(players),
        rounds=rounds,
        final_scores=dict(scores),
        winners=winners,
        violations=(),
        tie_break=(f"all reached {WIN_POINTS} points in the same check: a shared victory"
                   if len(winners) > 1 else ""),
        notes=(setup.note_start + rules_text(rules) + setup.note_end,),
        display="",
    )


_ends: dict[tuple[int, str], tuple[str, ExplorationEndFact]] = {}
_dungeons: dict[tuple[int, int, int, int], tuple[str, Rule | None, DungeonFact]] = {}
_outcomes: dict[tuple[str, int, int, int], tuple[str, Rule | None, LostCardFact]] = {}
_starts: dict[tuple[str, int], tuple[str, StartFact]] = {}
_SAID = (_ends, _dungeons, _outcomes, _starts)
"""What the events of an exploration say (text, rule, fact: immutable values), by what
decides them: the same few players, outcomes and dungeons recur from log to log. Each Event
is made anew (its ``points`` is a dict)."""


def _said_end(ended: int, ender: str) -> tuple[str, ExplorationEndFact]:
    if ended:
        said = (f"the exploration ends: {ender}, the next active player, has no tile in hand",
                ExplorationEndFact("no-tile", ender))
    else:
        said = (f"the exploration ends: only {ender} is left in the team",
                ExplorationEndFact("one-left", ender))
    _ends[ended, ender] = said
    return said


def _said_dungeon(key: tuple[int, int, int, int], tokens: tuple[str, ...]
                  ) -> tuple[str, Rule | None, DungeonFact]:
    """What :func:`~pathcheck.games.dungeon.state._describe` and
    :func:`~pathcheck.games.dungeon.state.dungeon_fact` say of a stack of ``height`` tiles
    Lost at ``lost_at`` (its token's number ``lost_token``) for the reason ``code``."""
    height, lost_at, code, lost_token = key
    lost = _LOST_AT[code]
    size = f"the dungeon of {height} tiles"  # (a stack holds START and a tile at least)
    if lost is None:
        said: tuple[str, Rule | None, DungeonFact] = (
            f"{size} is never Lost: the path holds to the last tile", None,
            DungeonFact(height, None, None, None, None))
    else:
        tile = tokens[lost_token]
        said = (f"{size} is Lost at tile {lost_at} ({tile}, placed in turn {lost_at - 1}): "
                f"{lost[0]}", lost[1], DungeonFact(height, lost_at, tile, lost_at - 1, lost[0]))
    _dungeons[key] = said
    return said


def _said_outcome(player: str, kind: int, after: int, lost_at: int
                  ) -> tuple[str, Rule | None, LostCardFact]:
    card, at = after or None, lost_at or None
    said = (explain_outcome(player, _KINDS[kind], card, at), _KIND_RULES[kind],
            LostCardFact(player, _KIND_VALUES[kind], card, at))
    _outcomes[player, kind, after, lost_at] = said
    return said


def _said_next(player: str, number: int) -> tuple[str, StartFact]:
    said = (f"next start player: {player} (took the last turn)",
            StartFact(player, number + 1, "last-turn"))
    _starts[player, number] = said
    return said


def _priority(number: int, players: tuple[str, ...], t: int, seat: int, standing: int,
              void_seats: tuple[int, ...], first: int) -> Event:
    """The event of a turn's void LOST announcements (rule #1), as Replay._announce words it."""
    player, stands = players[seat], players[standing]
    void = tuple(players[v] for v in void_seats)
    who = " and ".join(void)
    stay = "stays" if len(void) == 1 else "stay"
    if first:
        text = (f"{who} announced Lost after {stands} in the same turn: void, only one player "
                f"may announce Lost in a turn; {who} {stay} in the team")
    else:
        text = (f"{who} also announced Lost: void, {stands} is the earliest in turn order "
                f"after {player}; {who} {stay} in the team")
    move = MoveRef(round=number, index=t, player=player,
                   pointer=f"/explorations/{number - 1}/turns/{t - 1}/lost")
    return Event(text, move, PRIORITY, {}, VoidAnnouncementFact(
        stands, void, "first" if first else "turn-order"))
