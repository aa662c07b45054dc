"""Memo Dice: the replay of a ``memo-dice/1`` log, round by round and move by move.

Replay is lenient: a broken rule is recorded as a :class:`~pathcheck.ruling.Violation` and
the move is taken as played, except where the log cannot go on (covering that does not end
with the golden cup), where replay stops and a note says so. Moment ``R.T`` is round R after
its move T (covering moves first, then uncovering ones; ``R.0``: the start of the round).

>>> import random
>>> from pathcheck.games.memo_dice.gen import random_game
>>> from pathcheck.games.memo_dice.log import read_log
>>> log = read_log(random_game(random.Random(7), players=2), source="doc")
>>> replay = Replay(log, source="doc")
>>> replay.play()
>>> replay.violations, max(replay.scores.values()) >= 20
([], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from msgspec import UNSET, UnsetType

from pathcheck.errors import RecordError
from pathcheck.facts import CoveringStopsFact, NeverUncoveredFact
from pathcheck.games.common import Moment, Pictures
from pathcheck.games.memo_dice.at import draw_row, final_table, picture
from pathcheck.games.memo_dice.log import (
    ColourName,
    FaceEntry,
    MemoDiceLog,
    RoundEntry,
)
from pathcheck.games.memo_dice.row import CupInRow
from pathcheck.games.memo_dice.rules import (
    COVERING_END,
    CUP_COLOUR,
    CUPS_PER_COLOUR,
    DIE_ONCE,
    FIRST_PLAYER,
    GAME_END,
    GOLDEN_LAST_DIE,
    GOLDEN_NO_CUP,
    NUM_DICE,
    POINTS,
    RIGHT_GUESS,
    ROLL_FACE,
    TARGET,
    TURN_ORDER,
    UNCOVER_ALL,
    UNCOVER_ORDER,
    UNCOVER_START,
    WRONG_GUESS,
    Colour,
    Cup,
    same_symbol,
    winners_of,
)
from pathcheck.render.words import counted
from pathcheck.ruling import (
    CoverFact,
    CoveringEndedFact,
    CupFact,
    DieFact,
    Event,
    Fact,
    GameEndFact,
    IllegalFact,
    MoveRef,
    Round,
    RoundPointsFact,
    Rule,
    StartFact,
    TurnFact,
    UncoverFact,
    Violation,
)

GOLDEN = Cup.GOLDEN.value
_POINTS = {cup.value: cup.points for cup in Cup}
_CUPS_LEFT = dict.fromkeys((colour.value for colour in Colour), CUPS_PER_COLOUR)


@lru_cache(maxsize=1024)
def _pointers(round_index: int, part: str, moves: int) -> tuple[str, ...]:
    """The JSON pointers of the ``moves`` moves of ``part`` (covering, uncovering) of a round,
    made once for all logs (most rounds have 6 to 10 moves of each)."""
    return tuple(f"/rounds/{round_index}/{part}/{i}" for i in range(moves))


def _cups_svg(number: int, move: int, row: Sequence[CupInRow],
              scores: Mapping[str, int]) -> str:
    from pathcheck.games.memo_dice.frames import cups_svg  # drawn only for replay pages

    return cups_svg(number, move, row, scores)


class Replay:
    """The replay of one log: scores, who begins next, what was found broken.

    Replay is lenient: a broken rule is recorded as a :class:`Violation` and the move is
    taken as played, except where the log cannot go on (covering that does not end with the
    golden cup), where replay stops and a note says so.
    """

    def __init__(self, log: MemoDiceLog, pictures: Pictures | None = None, *,
                 source: str) -> None:
        self.log = log
        self.source = source
        self.pictures = pictures or Pictures(None)
        self.players = log.players
        self.scores: dict[str, int] = dict.fromkeys(self.players, 0)
        self.per_round: dict[str, list[int]] = {p: [] for p in self.players}
        self.violations: list[Violation] = []
        self.rounds: list[Round] = []
        self.notes: list[str] = []
        self.next_first: str | None = None
        self.game_end: GameEndFact | None = None
        """The game's end, once a round ended it."""
        self.stopped = False
        self.row: list[CupInRow] = []
        """The row of cups of the last round replayed."""
        self.up_next: tuple[str, str] | None = None
        """Who moves next in the last round replayed, and how (covering, uncovering); None:
        the round is over."""
        self._events: list[Event] = []
        self._cited: set[str] = set()
        n = len(self.players)
        # The player on each one's left: the next in (clockwise) seat order, as rules.left_of.
        self._left = {p: self.players[(i + 1) % n] for i, p in enumerate(self.players)}
        self._drawing = self.pictures.want is not None

    # -- helpers ---------------------------------------------------------------------------

    def _violate(self, rule: Rule, move: MoveRef, message: str, *, fact: Fact,
                 unfinished: bool = False) -> None:
        self.violations.append(Violation(rule, move, message, fact, unfinished))
        self._events.append(Event(f"ILLEGAL: {message}", move, rule, {},
                                  IllegalFact(rule.id, move.player)))

    def _event(self, text: str, move: MoveRef | None = None, rule: Rule | None = None,
               points: dict[str, int] | None = None, fact: Fact | UnsetType = UNSET) -> None:
        # A rule that decides an event is quoted once a round, at its first use, so that the
        # text report stays readable; violations always quote theirs.
        if rule is not None:
            if rule.id in self._cited:
                rule = None
            else:
                self._cited.add(rule.id)
        self._events.append(Event(text, move, rule, {} if points is None else points, fact))

    def _snap(self, number: int, move: int, row: Sequence[CupInRow]) -> None:
        self.pictures.take(Moment(number, move),
                           lambda: picture(number, move, row, self.scores),
                           svg=lambda: _cups_svg(number, move, row, self.scores))

    # -- replay ----------------------------------------------------------------------------

    def play(self) -> None:
        """Replay every round of the log (or up to where replay must stop)."""
        for number, rnd in enumerate(self.log.rounds, 1):
            if self.game_end is not None:
                # Like memoarrr: the game's result stands; later rounds are not replayed.
                self.violations.append(Violation(
                    GAME_END,
                    MoveRef(round=number, index=1, player=rnd.covering[0].player,
                            pointer=f"/rounds/{number - 1}/covering/0"),
                    f"round {number} is played after the game ended in round "
                    f"{self.game_end.round}",
                    self.game_end))
                self.stopped = True
            if self.stopped:
                last = len(self.log.rounds)
                which = f"round {number} was" if number == last else f"rounds {number}-{last} were"
                self.notes.append(f"{which} not ruled on (replay stopped at the violation above)")
                break
            self._play_round(number, rnd)

    def _play_round(self, number: int, rnd: RoundEntry) -> None:
        self._events = []
        self._cited = set()
        first = rnd.covering[0].player
        if self._drawing:
            self._snap(number, 0, [])
        row, golden_by = self._cover(number, rnd)
        self.row = row
        if golden_by is not None:
            self._uncover(number, rnd, row, golden_by)
        if self.stopped:
            self.rounds.append(Round(number, f"Round {number}: {first} begins (not finished)",
                                     tuple(self._events), dict(self.scores), draw_row(row)))
            return
        self._score(number, row)
        self.rounds.append(Round(number, f"Round {number}: {first} begins", tuple(self._events),
                                 dict(self.scores), draw_row(row)))

    def _cover(self, number: int, rnd: RoundEntry) -> tuple[list[CupInRow], str | None]:
        left = _CUPS_LEFT.copy()
        rolled: set[int] = set()
        row: list[CupInRow] = []
        golden_by: str | None = None
        expected = self.next_first
        pointers = _pointers(number - 1, "covering", len(rnd.covering))
        dice, events, left_of, drawing = self.log.dice, self._events, self._left, self._drawing
        for k, roll in enumerate(rnd.covering, 1):
            player, die, symbol, colour, cup = (roll.player, roll.die, roll.symbol, roll.colour,
                                                roll.cup)
            move = MoveRef(index=k, player=player, round=number, pointer=pointers[k - 1])
            if golden_by is not None:
                self._violate(COVERING_END, move,
                              f"{player} rolls die {die} after {golden_by} covered a "
                              "die with the golden cup, which ended covering",
                              fact=CoveringEndedFact(player, die, golden_by))
                self.stopped = True
                return row, None
            if expected is not None and player != expected:
                if k == 1:
                    self._violate(FIRST_PLAYER, move,
                                  f"{player} begins round {number}, but {expected} had the "
                                  "golden cup", fact=TurnFact(player, expected))
                else:
                    self._violate(TURN_ORDER, move,
                                  f"{player} rolls, but it is {expected}'s turn",
                                  fact=TurnFact(player, expected))
            if die in rolled:
                self._violate(DIE_ONCE, move,
                              f"die {die} was already rolled and covered this round",
                              fact=DieFact(die, None, None))
            if dice is not None:
                faces = dice[die - 1]
                face = faces.exact.get(symbol)
                if face is None:
                    face = faces.find(symbol)
                if face is None or face.colour != colour:
                    self._wrong_face(move, die, symbol, colour, face)
                if face is not None:
                    colour = face.colour
            rolled.add(die)
            last = len(rolled) == NUM_DICE
            if cup == GOLDEN:
                what = f"rolls die {die}: {colour} {symbol}"
                golden_by = player
                if last:
                    also = f" (and no {colour} cup is left)" if left[colour] <= 0 else ""
                    self._event(f"{what}; the last die{also}: covers it with the golden cup, "
                                "covering ends", move, GOLDEN_LAST_DIE, None,
                                CoverFact(die, colour, symbol, GOLDEN, "last-die",
                                          left[colour] > 0))
                elif left[colour] <= 0:
                    self._event(f"{what}; no {colour} cup left: covers it with the golden "
                                "cup, covering ends", move, GOLDEN_NO_CUP, None,
                                CoverFact(die, colour, symbol, GOLDEN, "no-cup-left", False))
                else:
                    self._violate(CUP_COLOUR, move,
                                  f"{colour} {symbol} covered with the golden cup while "
                                  f"{counted(left[colour], f'{colour} cup')} "
                                  f"{'was' if left[colour] == 1 else 'were'} left",
                                  fact=CoverFact(die, colour, symbol, GOLDEN, None, True))
            else:
                if last:
                    self._violate(GOLDEN_LAST_DIE, move,
                                  f"the last die ({symbol}) covered with a {cup} "
                                  "cup instead of the golden cup",
                                  fact=CoverFact(die, colour, symbol, cup, None, left[colour] > 0))
                elif left[colour] <= 0:
                    self._violate(GOLDEN_NO_CUP, move,
                                  f"{colour} {symbol} covered with a "
                                  f"{cup} cup, but no {colour} cup was left: "
                                  "the golden cup was due",
                                  fact=CoverFact(die, colour, symbol, cup, None, False))
                elif cup != colour:
                    self._violate(CUP_COLOUR, move, f"{colour} {symbol} covered with a {cup} cup",
                                  fact=CoverFact(die, colour, symbol, cup, None, True))
                else:
                    events.append(Event(f"rolls die {die}: {colour} {symbol}; covers it with a "
                                        f"{cup} cup", move, None, {},
                                        CoverFact(die, colour, symbol, cup, None, True)))
                left[cup] -= 1
            row.append(CupInRow(k, cup, symbol, colour, player))
            expected = left_of[player]
            if drawing:
                self._snap(number, k, row)
        if golden_by is None:
            last_roll = rnd.covering[-1]
            self._violate(COVERING_END,
                          MoveRef(index=len(rnd.covering), player=last_roll.player, round=number,
                                  pointer=pointers[-1]),
                          f"covering stops after {len(rnd.covering)} "
                          f"{'die' if len(rnd.covering) == 1 else 'dice'}, before any was "
                          "covered with the golden cup", unfinished=True,
                          fact=CoveringStopsFact(len(rnd.covering)))
            self.stopped = True
            self.up_next = (left_of[rnd.covering[-1].player], "covering")
        return row, golden_by

    def _wrong_face(self, move: MoveRef, die: int, symbol: str, colour: ColourName,
                    face: FaceEntry | None) -> None:
        """The roll of ``symbol`` in ``colour`` is not what ``face``, the face of die ``die``
        with that symbol (None: it has none), shows. The replay goes on with the face's colour
        (the roll's if there is no such face)."""
        if face is None:
            self._violate(ROLL_FACE, move, f"die {die} has no {symbol!r} face",
                          fact=DieFact(die, symbol, None))
        else:
            self._violate(ROLL_FACE, move, f"{symbol} is {face.colour} on die {die}, not {colour}",
                          fact=DieFact(die, symbol, face.colour))

    def _uncover(self, number: int, rnd: RoundEntry, row: list[CupInRow],
                 golden_by: str) -> None:
        expected, why = golden_by, UNCOVER_START
        offset = len(rnd.covering)
        at = f"/rounds/{number - 1}/uncovering"
        pointers = _pointers(number - 1, "uncovering", len(rnd.uncovering))
        first_covered = 0  # row[first_covered] is the first cup still covered, if any
        cups, left_of, drawing = len(row), self._left, self._drawing
        events, cited = self._events, self._cited
        for j, guess in enumerate(rnd.uncovering, 1):
            player = guess.player
            pointer = pointers[j - 1]
            move = MoveRef(index=offset + j, player=player, round=number, pointer=pointer)
            if guess.cup > cups:
                raise RecordError(self.source, None, pointer + "/cup",
                                  f"cup {guess.cup} does not exist: round {number} has "
                                  f"{cups} cups")
            cup = row[guess.cup - 1]
            if cup.holder is not None:
                # Taken as played is impossible: the cup is no longer on the table. Skip it.
                self._violate(UNCOVER_ORDER, move,
                              f"cup {guess.cup} was already uncovered (it went to {cup.holder})",
                              fact=UncoverFact(guess.cup, None, cup.holder))
                continue
            if player != expected:
                turn = {UNCOVER_START: f"{expected} used the golden cup and starts uncovering",
                        RIGHT_GUESS: f"{expected} was right and goes on",
                        WRONG_GUESS: f"the cup went to {expected}, whose turn it is"}[why]
                self._violate(why, move, f"{player} names a symbol, but {turn}",
                              fact=TurnFact(player, expected))
            while row[first_covered].holder is not None:
                first_covered += 1
            if guess.cup != first_covered + 1:
                self._violate(UNCOVER_ORDER, move,
                              f"cup {guess.cup} is uncovered before cup {first_covered + 1}",
                              fact=UncoverFact(guess.cup, first_covered + 1, None))
            named = guess.guess
            said = "gives no answer" if named is None else f"names {named!r}"
            # As _event does (inlined: this runs for every guess): the rule is quoted at its
            # first use in the round.
            if named is not None and (named == cup.symbol or same_symbol(named, cup.symbol)):
                cup.holder, cup.how = player, "right guess"
                expected, why = player, RIGHT_GUESS
                events.append(Event(
                    f"{said} for cup {cup.number}: right, keeps the {cup.cup} cup", move,
                    None if RIGHT_GUESS.id in cited else RIGHT_GUESS, {},
                    CupFact(cup.number, cup.cup, cup.symbol, player, named, True, player)))
                cited.add(RIGHT_GUESS.id)
            else:
                receiver = left_of[player]
                cup.holder, cup.how = receiver, f"{player} was wrong"
                expected, why = receiver, WRONG_GUESS
                events.append(Event(
                    f"{said} for cup {cup.number} (it is {cup.symbol!r}): the {cup.cup} cup "
                    f"goes to {receiver}, who goes on", move,
                    None if WRONG_GUESS.id in cited else WRONG_GUESS, {},
                    CupFact(cup.number, cup.cup, cup.symbol, player, named, False, receiver)))
                cited.add(WRONG_GUESS.id)
            if drawing:
                self._snap(number, offset + j, row)
        covered = [c.number for c in row if c.holder is None]
        self.up_next = (expected, "uncovering") if covered else None
        if covered:
            last = rnd.uncovering[-1] if rnd.uncovering else None
            self._violate(
                UNCOVER_ALL,
                MoveRef(round=number, index=offset + len(rnd.uncovering),
                        player=None if last is None else last.player, pointer=at),
                f"cup {covered[0]} was never uncovered; it scores for nobody"
                if len(covered) == 1 else
                f"cups {', '.join(map(str, covered))} were never uncovered; they score for "
                "nobody", unfinished=True, fact=NeverUncoveredFact(tuple(covered)))

    def _score(self, number: int, row: list[CupInRow]) -> None:
        players, scores = self.players, self.scores
        gained = dict.fromkeys(players, 0)
        cups: dict[str, list[str]] = {p: [] for p in players}
        golden_holder: str | None = None
        for cup in row:
            holder = cup.holder
            if holder is None:
                continue
            gained[holder] += _POINTS[cup.cup]
            cups[holder].append(cup.cup)
            if cup.cup == GOLDEN:
                golden_holder = holder
        parts: list[str] = []  # who scores what, in seat order
        points: dict[str, int] = {}
        for p in players:
            n = gained[p]
            scores[p] += n
            self.per_round[p].append(n)
            if cups[p]:
                parts.append(f"{p} +{n} ({', '.join(cups[p])})")
            if n:
                points[p] = n
        self._event("points: " + ("; ".join(parts) or "nobody scores"), None, POINTS, points,
                    RoundPointsFact({p: tuple(cups[p]) for p in players if cups[p]}))
        reached = [p for p in players if scores[p] >= TARGET]
        if reached:
            end = self.game_end = GameEndFact(number, tuple(reached), TARGET, dict(scores),
                                              tuple(self.winners()))
            self._event(f"{' and '.join(reached)} reached {TARGET} points: the game ends",
                        None, GAME_END, None, end)
        else:
            self.next_first = golden_holder
            if golden_holder is None and number < len(self.log.rounds):
                self.notes.append(f"nobody got the golden cup in round {number}: who begins "
                                  f"round {number + 1} is not checked")
            elif golden_holder is not None:
                self._event(f"{golden_holder} had the golden cup: {golden_holder} begins "
                            f"round {number + 1}", None, FIRST_PLAYER, None,
                            StartFact(golden_holder, number + 1, "golden-cup"))

    # -- result ----------------------------------------------------------------------------

    def final_table(self) -> str:
        """Points per round and in total, best first."""
        return final_table(self.players, self.per_round, self.scores)

    def winners(self) -> list[str]:
        """The players with the most points, once someone has reached the target."""
        return winners_of(self.players, self.scores)
