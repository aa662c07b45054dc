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

import msgspec
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
from pathcheck.tracer.check import OUTCOME_RULES, CardOutcome, LostCard, explain_outcome
from pathcheck.tracer.constants import tracing_mask
from pathcheck.tracer.tileset import load_tileset

try:
    from pathcheck import _speedups

    _replay: Callable[..., Any] | None = _speedups.dungeon_replay
    _word_rounds: Callable[..., Any] = _speedups.dungeon_word
except (ImportError, AttributeError):  # no C compiler at install time (or an older build)
    _replay = None
try:
    _word_json_rounds: Callable[..., Any] | None = _speedups.dungeon_word_json
except (NameError, AttributeError):  # (an older build)
    _word_json_rounds = None
try:
    _scores: Callable[..., Any] | None = _speedups.dungeon_scores
except (NameError, AttributeError):  # (an older build)
    _scores = None

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


@cache
def _setup(advanced: bool) -> _Setup:
    return _Setup(advanced)


def _trace(entry: GameEntry) -> tuple[tuple[Any, ...], _Setup, str] | None:
    """The C replay's trace of the log ``entry`` (see dungeon_replay.c), its mode's setup and
    its additional rules in words; None if the C side declines."""
    if _replay is None:  # looked up at each call: the tests switch the C side off
        return None
    players = entry.players
    if (entry.tileset is not UNSET or len(set(players)) != len(players)
            or (4 in entry.rules and not entry.advanced)):
        return None
    setup = _setup(entry.advanced)
    known = _modes.get(entry.rules)
    if known is None:
        rules = frozenset(entry.rules)
        if len(rules) != len(entry.rules):
            return None
        known = _modes[entry.rules] = (tracing_mask(rules), 1 in rules, rules_text(rules))
    mask, rule1, rules_said = known
    traced = _replay(setup.tables, entry.explorations, players, setup.in_play, setup.start,
                     setup.size, mask, rule1, UNSET, setup.tokens, TILES_PER_LINE)
    return None if traced is None else (traced, setup, rules_said)


def fast_replay(entry: GameEntry) -> tuple[tuple[Any, ...], dict[str, int], list[str]] | None:
    """The C replay's trace of the log ``entry`` with the scores and winners, what
    :class:`~pathcheck.games.dungeon.state.Replay` leaves of it for its analysis (the analysis
    marks a clean log's moves from the trace, :func:`pathcheck.analysis.dungeon.analyse_entry`;
    each exploration's Lost point, reason code and LOST cards are :func:`lost_checks` of it),
    or None where :func:`fast_ruling` would be None (the Python replay then replays the log).

    >>> import random
    >>> from pathcheck.games.dungeon.gen import random_game
    >>> from pathcheck.games.dungeon.log import GAME_LOG, read_game_log
    >>> from pathcheck.games.dungeon.state import Replay
    >>> log = random_game(random.Random(5), players=3)
    >>> entry = GAME_LOG.read(log, source="demo")
    >>> found = fast_replay(entry)
    >>> replay = Replay(read_game_log(log, source="demo"))
    >>> _ = replay.run()
    >>> found is None or (lost_checks(found[0], entry.players), *found[1:]) == (
    ...     replay.checks, replay.scores, replay.winners)
    True
    """
    found = _trace(entry)
    if found is None:
        return None
    traced = found[0]
    players = entry.players
    totals = False if _scores is None else _scores(traced, len(players), WIN_POINTS)
    if totals is None:  # the game ends before the log does, or the log before the game
        return None
    if isinstance(totals, tuple):  # (False: a trace it does not read; added up below)
        scores = dict(zip(players, totals, strict=True))
        return traced, scores, [p for p, s in scores.items() if s >= WIN_POINTS]
    scores = dict.fromkeys(players, 0)
    winners: list[str] = []
    last_number = len(traced)
    for number, one in enumerate(traced, 1):
        for seat, _, _, points in one[12]:
            scores[players[seat]] += points
        if max(scores.values()) >= WIN_POINTS:
            if number != last_number:  # the log goes on after the game's end
                return None
            winners = [p for p, s in scores.items() if s >= WIN_POINTS]
    if not winners:  # the log ends before anyone won
        return None
    return traced, scores, winners


def lost_checks(traced: tuple[Any, ...],
                players: tuple[str, ...]) -> list[tuple[int, int, list[LostCard]]]:
    """Each exploration's Lost point (0: it held), reason code and LOST cards, from the trace
    (:attr:`~pathcheck.games.dungeon.state.Replay.checks`)."""
    return [(one[6], one[7], [LostCard(players[seat], after) for seat, after in one[11]])
            for one in traced]


def fast_ruling(entry: GameEntry, *, source: str, for_json: bool = False) -> Ruling | None:
    """The ruling on the log ``entry`` as the Python replay gives it, or None if the C side
    declines (or the extension is not built).

    ``for_json``: the ruling is only to be encoded (``to_json``), so its rounds may come as
    the JSON array msgspec would write of them (a :class:`msgspec.Raw` in ``rounds``, written
    by ``_speedups.dungeon_word_json``); the bytes encoded are the same."""
    found = _trace(entry)
    if found is None:
        return None
    traced, setup, rules_said = found
    players = entry.players
    if len(_said) > 4096 or len(_dungeons) > 4096 or len(_said_json) > 4096:
        _said.clear()  # many distinct names: keep them small
        _dungeons.clear()
        _said_json.clear()
        _dungeons_json.clear()
    rounds: Any = None  # Round values, or their JSON as a msgspec.Raw (see the docstring)
    if for_json and _word_json_rounds is not None:  # looked up at each call: tests switch it
        written = _word_json_rounds(traced, players, _said_json, _dungeons_json, _word_json,
                                    WIN_POINTS, _reasons_json(), setup.tokens, _json_kit())
        if written is None:  # the game ends before the log does, or the log before the game
            return None
        if written is not False:  # (False: a name it cannot write; made as values below)
            raw, totals = written
            rounds = msgspec.Raw(raw)
            scores = dict(zip(players, totals, strict=True))
    if rounds is None:
        rounds = _word_rounds(traced, players, Event, Round, _said, _dungeons, _word,
                              _priority, GameEndFact, WIN_POINTS, DungeonFact, _LOST_AT,
                              setup.tokens)
        if not rounds:  # the game ends before the log does, or the log before the game
            return None
        scores = dict(rounds[-1].scores)
    winners = [p for p, s in scores.items() if s >= WIN_POINTS]
    if not winners:
        return None
    return Ruling(
        game=GAME,
        format=GAME_FORMAT,
        source=source,
        players=list(players),
        rounds=rounds,
        final_scores=scores,
        winners=winners,
        violations=(),
        tie_break=(f"all reached {WIN_POINTS} points in the same check: a shared victory"
                   if len(winners) > 1 else ""),
        notes=(setup.note_start + rules_said + setup.note_end,),
        display="",
    )


_modes: dict[tuple[int, ...], tuple[int, bool, str]] = {}
"""Per ``rules`` as a log lists them (a few orders of four rules): the tracing mask, whether
rule #1 is in play, and the rules in words; never for rules listed twice."""
_said: dict[str | tuple[str, ...], dict[int, tuple[str, Rule | None, Fact | None]]] = {}
"""What the events of a player say (text, rule, fact: immutable values), by the case's code
(see :func:`_word`; the game's end under the tuple of its winners): the same few players
and outcomes recur from log to log. The C side
(``dungeon_word``) looks them up and makes each Event anew (its ``points`` is a dict)."""
_dungeons: dict[int, tuple[str, Rule | None, Fact]] = {}
"""What the dungeon event of an exploration that holds says, by its height (a Lost one is
worded in C, as state._describe words it: its tile and Lost point seldom recur)."""

_said_json: dict[str | tuple[str, ...], dict[int, bytes]] = {}
""":data:`_said` as dungeon_word_json.c writes it: each case's whole Event as msgspec encodes
it (:func:`_word_json`)."""
_dungeons_json: dict[int, bytes] = {}
""":data:`_dungeons` as dungeon_word_json.c writes it."""

_END, _START = 1_000_000, 2_000_000
"""The codes of an exploration's end (+ how it ended) and of the next start (+ the
exploration's number) in dungeon_word.c's ``dungeon_word`` (3,000,000: the game's end);
below them, an outcome: kind +
8 * (tile of the LOST card + 256 * Lost point); a dungeon that holds (no player): its
height."""


def _word(player: str | tuple[str, ...] | None, code: int) -> tuple[str, Rule | None, Fact | None]:
    """What the event of case ``code`` (:data:`_END`) says, of ``player`` (None: a dungeon's
    event; the players who reached the winning points: the game's end, whose fact is made
    in C), as the Python replay words it."""
    if isinstance(player, tuple):
        who = " and ".join(player)
        verb, reach = ("share the victory", "reach") if len(player) > 1 else ("wins", "reaches")
        return (f"{who} {reach} {WIN_POINTS} points: the game ends; {who} {verb}", GAME_END,
                None)
    if player is None:
        return (f"the dungeon of {code} tiles is never Lost: the path holds to the last tile",
                None, DungeonFact(code, None, None, None, None))
    if code >= _START:
        number = code - _START
        return (f"next start player: {player} (took the last turn)", NEXT_START,
                StartFact(player, number + 1, "last-turn"))
    if code >= _END:
        if code - _END:
            return (f"the exploration ends: {player}, the next active player, has no tile "
                    "in hand", EXPLORATION_END, ExplorationEndFact("no-tile", player))
        return (f"the exploration ends: only {player} is left in the team", EXPLORATION_END,
                ExplorationEndFact("one-left", player))
    rest, kind = divmod(code, 8)
    lost_at, after = divmod(rest, 256)
    card, at = after or None, lost_at or None
    return (explain_outcome(player, _KINDS[kind], card, at), _KIND_RULES[kind],
            LostCardFact(player, _KIND_VALUES[kind], card, at))


def _priority(number: int, players: tuple[str, ...],
              said: tuple[int, int, int, tuple[int, ...], int]) -> Event:
    """The event of a turn's void LOST announcements (rule #1), as Replay._announce words it,
    from the trace's (turn, player's seat, standing seat, void seats, by the first)."""
    t, seat, standing, void_seats, first = said
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


_KIND_POINTS = (0, 1, 0, 1, 0)
"""The points of each outcome by its code (:data:`_KINDS`): a LOST card scored, or held on."""
_encode = msgspec.json.Encoder().encode


def _word_json(player: str | tuple[str, ...] | None, code: int) -> bytes:
    """The Event of case ``code`` (see :func:`_word`) as msgspec encodes it in a ruling, as
    dungeon_word would make it; of the game's end (``player``: the tuple of those who reached
    the points) without its fact and closing brace (dungeon_word_json.c writes the fact).

    >>> _word_json("Ann", _START + 1)
    b'{"text":"next start player: Ann (took the last turn)","move":null,"rule":{"id":...'
    """
    text, rule, fact = _word(player, code)
    if isinstance(player, tuple) or fact is None:  # (only the game's end has none)
        return _encode(Event(text, None, rule, {}))[:-1]
    points = ({} if player is None or code >= _END
              else {player: _KIND_POINTS[code % 8]})
    return _encode(Event(text, None, rule, points, fact))


@cache
def _json_kit() -> tuple[tuple[tuple[bytes, bytes, bytes], ...], bytes]:
    """What dungeon_word_json.c writes a LOST card's outcome and a void announcement with: by
    outcome code (:data:`_KINDS`), its words as JSON without the quotes, its rule's JSON and
    its name's JSON; the rule of priority (#1) as JSON. Taken from
    :func:`~pathcheck.tracer.check.explain_outcome` itself, whose sentence the C side puts
    together around the words (RuntimeError if it no longer reads so: the tests say).

    >>> _json_kit()[0][1][0]
    b'among the first LOST cards after getting Lost: 1 point'
    """
    outcomes = []
    for kind, rule in zip(_KINDS, _KIND_RULES, strict=True):
        said = explain_outcome("P", kind, None, None)
        words = said[len("P: "):-len(" (never Lost)")]
        if (said != f"P: {words} (never Lost)"
                or explain_outcome("P", kind, 3, 5)
                != f"P (LOST card after tile 3): {words} (Lost at tile 5)"):
            raise RuntimeError(f"explain_outcome words {kind.value} otherwise than "
                               "dungeon_word_json.c puts it together")
        outcomes.append((_encode(words)[1:-1], _encode(rule), _encode(kind.value)))
    return tuple(outcomes), _encode(PRIORITY)


@cache
def _reasons_json() -> tuple[tuple[bytes, bytes] | None, ...]:
    """:data:`~pathcheck.games.dungeon.state._LOST_AT` as JSON: each reason's name and rule."""
    return tuple(None if lost is None else (_encode(lost[0]), _encode(lost[1]))
                 for lost in _LOST_AT)
