"""The robot memory game: the replay of a ``robot-memory/1`` log, round by round.

A log breaking a rule is replayed on "as played": every violation is listed, the first first.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import UNSET, UnsetType

from pathcheck.errors import pointer_join
from pathcheck.facts import (
    FaceDownFact,
    FewestPointsFact,
    NoFeatureFact,
    RepeatedCardFact,
    RoundsFact,
    ShortCircuitsFact,
)
from pathcheck.games.common import Moment, Pictures
from pathcheck.games.robot_memory.at import Grid, picture, render_grid
from pathcheck.games.robot_memory.log import GameLog, Pick, RoundLog, Turn, position_name
from pathcheck.games.robot_memory.rules import (
    BASIC_COLUMNS,
    BASIC_MEMORY_CARDS,
    BASIC_ROWS,
    BASIC_SHORT_CIRCUITS,
    CAPTAIN_TURNS,
    CHAIN,
    DISTINCT_CARDS,
    FACE_DOWN,
    FIVE_PLUS_MIN_SHORT_CIRCUITS,
    FIVE_PLUS_PLAYERS,
    FIVE_PLUS_SHORT_CIRCUITS,
    GUESS_FEATURE,
    NEXT_ACTIVE,
    NEXT_ROUND_FIRST,
    POINTING_PLAYER,
    ROUND_END,
    ROUNDS,
    SCORING,
    SETUP,
    SHORT_CIRCUIT_SUPPLY,
    SHORT_CIRCUITS_IN_BOX,
    TEAM_CAPTAINS,
    THREE_ROUNDS,
    WINNER,
    Card,
    Guess,
    MemoryCard,
    Score,
    UnknownCard,
    Variant,
    score,
)
from pathcheck.games.robot_memory.unchecked import Unchecked
from pathcheck.render.words import counted
from pathcheck.ruling import (
    CaptainFact,
    Event,
    Fact,
    GuessFact,
    LayoutFact,
    MoveRef,
    PositionFact,
    Round,
    Rule,
    ScoreFact,
    StartFact,
    TurnFact,
    Violation,
)


def _grid_svg(number: int, turns_done: int, grid: Grid, face_up: set[tuple[int, int]],
              picked: list[tuple[int, int]], scores: Mapping[str, int]) -> str:
    from pathcheck.games.robot_memory.frames import grid_svg  # drawn only for replay pages

    return grid_svg(number, turns_done, grid, face_up, picked, scores)


_SCORED_MAX = 1 << 15
_Scored = tuple[Guess, Card, Score, str, str, str, tuple[str, ...]]
_scored: dict[tuple[int, int, bool], _Scored] = {}
"""(guess, card, solo), by identity -> the guess and card themselves (kept, so that their ids
stay theirs), the score, the end of the event's text, ``" names ...; it is ...: reason"``,
and its facts (the card and the guess as worded, the features named).
The log reader shares its guesses and cards, which come from small finite sets (126 and 65),
so the table stays small; the cap only guards against hand-built logs."""


NOT_RECORDED = "not recorded"
"""How events and facts word a card the log does not record."""


_WORDS_MAX = 1 << 12
_card_words: dict[int, tuple[Card, str]] = {}
"""A card, by identity -> itself (kept, so that its id stays its) and its wording."""
_guess_words: dict[int, tuple[Guess, str, tuple[str, ...]]] = {}
"""A guess, by identity -> itself, its wording and the features it names."""


def _score(guess: Guess, card: Card, solo: bool) -> _Scored:
    found = _scored.get((id(guess), id(card), solo))
    if found is None:
        # A pair met for the first time (a few a log, until the table holds the ~16,000
        # pairs): its card and guess have most likely been worded already.
        card_text = _card_words.get(id(card), (None, ""))[1] or _word_card(card)
        _, guess_text, features = _guess_words.get(id(guess)) or _word_guess(guess)
        found = worded(guess, card, solo, card_text, guess_text, features)
        if len(_scored) < _SCORED_MAX:
            _scored[id(guess), id(card), solo] = found
    return found


def worded(guess: Guess, card: Card, solo: bool, card_text: str | None = None,
           guess_text: str | None = None, features: tuple[str, ...] | None = None) -> _Scored:
    """A guess on a card scored and worded as its event says it (what :func:`_score` keeps):
    the guess and card, the score, the end of the event's text, the card and the guess as the
    fact words them, the features named (the wordings of the card and the guess, if given,
    are the ones :func:`_word_card` and :func:`_word_guess` give).

    >>> from pathcheck.games.robot_memory.rules import ShortCircuit
    >>> worded(Guess(short_circuit=True), ShortCircuit(), False)[3]
    ' names "short circuit"; it is a short circuit: short circuit named: no points, may \
choose another card'
    """
    result = score(guess, card, solo=solo)
    if card_text is None:
        card_text = card.describe()
    if guess_text is None or features is None:
        guess_text = guess.describe()
        features = ("short-circuit",) if guess.short_circuit else tuple(guess.named())
    return (guess, card, result, f" names {guess_text}; it is {card_text}: {result.reason}",
            card_text, guess_text.strip('"'), features)


def winners_of(scores: Mapping[str, int], solo: bool) -> tuple[list[str], str]:
    """The winners of a game ended with ``scores`` (none in solo play) and the tie's words.

    >>> winners_of({"Ann": 3, "Ben": 3}, False)[0]
    ['Ann', 'Ben']
    """
    if solo:
        return [], ""
    best = max(scores.values())
    winners = [s for s, p in scores.items() if p == best]
    tie = f"tied on {best} points: {WINNER.quote.split('. ')[1]}" if len(winners) > 1 else ""
    return winners, tie


def _word_card(card: Card) -> str:
    text = card.describe()
    if len(_card_words) < _WORDS_MAX:
        _card_words[id(card)] = (card, text)
    return text


def _word_guess(guess: Guess) -> tuple[Guess, str, tuple[str, ...]]:
    features = ("short-circuit",) if guess.short_circuit else tuple(guess.named())
    words = (guess, guess.describe(), features)
    if len(_guess_words) < _WORDS_MAX:
        _guess_words[id(guess)] = words
    return words


class Replay:
    """The replay: scores, the face-up cards of the current round, events and violations.

    Moment ``R.T`` is round R after T turns (a turn: the pointed card and its chain).

    >>> from pathcheck.games.robot_memory.log import read_log
    >>> log = read_log({"format": "robot-memory/1", "variant": "solo", "players": ["Ann"],
    ...     "rounds": [{"grid": {"rows": 1, "columns": 1, "cards": [["short-circuit"]]},
    ...                 "first": "Ann", "turns": [{"chooser": "Ann", "guesser": "Ann",
    ...                 "position": {"row": 1, "column": 1}, "guess": "short-circuit"}]}]},
    ...     source="doc")
    >>> replay = Replay(log)
    >>> replay.play_round(0, log.rounds[0]).scores
    {'Ann': 1}
    """

    def __init__(self, log: GameLog, pictures: Pictures | None = None) -> None:
        self.log = log
        self.scores: dict[str, int] = dict.fromkeys(log.sides, 0)
        self.violations: list[Violation] = []
        self.captains: dict[str, str] = {t.name: t.captain for t in log.teams}
        self.pictures = pictures or Pictures(None)
        self._drawing = self.pictures.want is not None
        self._events: list[Event] = []
        self._face_up: set[tuple[int, int]] = set()
        self.unchecked: list[Unchecked] = []
        """Per round with cards not recorded, what they left unchecked (the ruling's notes)."""
        self.up_next: str | None = None
        """The active player (side) of the next turn in the last round replayed (None: the
        round is over)."""
        self._picked: list[tuple[int, int]] = []
        """The cards turned since the last moment (the replay page marks them)."""
        self._team = log.variant is Variant.TEAM
        self._solo = log.variant is Variant.SOLO
        self._head_count = log.head_count
        sides = log.sides
        # read_log made sure that no side and no team member is named twice
        self._left = {side: sides[(i + 1) % len(sides)] for i, side in enumerate(sides)}
        self._side_of = ({m: t.name for t in log.teams for m in t.members}
                         if self._team else {p: p for p in sides})

    @property
    def face_up(self) -> set[tuple[int, int]]:
        """The cards face up in the last round replayed."""
        return self._face_up

    @property
    def solo(self) -> bool:
        return self._solo

    def left_of(self, side: str) -> str:
        """The next active side: the player on the left (the other team in team play)."""
        return self._left[side]

    def _violate(self, rule: Rule, move: MoveRef, message: str, *, fact: Fact,
                 unfinished: bool = False) -> None:
        self.violations.append(Violation(rule, move, message, fact, unfinished))

    def _event(self, text: str, move: MoveRef | None = None, rule: Rule | None = None,
               points: Mapping[str, int] | None = None, fact: Fact | UnsetType = UNSET) -> None:
        self._events.append(Event(text, move, rule, dict(points or {}), fact))

    # --- a round --------------------------------------------------------------------

    def play_round(self, index: int, rnd: RoundLog) -> Round:
        """Replay round ``index`` (0-based) and return it with the running score."""
        number = index + 1
        self._events = []
        self._face_up = set()
        self.captains.update(rnd.captains)
        if number == ROUNDS + 1:
            self._violate(THREE_ROUNDS, MoveRef(round=number, pointer=rnd.pointer),
                          f"a round {number} is recorded; the game has {ROUNDS}",
                          fact=RoundsFact(number, ROUNDS))
        cards = self._check_setup(number, rnd)
        self._check_first(number, rnd)
        expected = rnd.first
        grid = rnd.grid
        drawing = self._drawing
        for t, turn in enumerate(rnd.turns, 1):
            if drawing:
                self._record_at(number, t - 1, grid)
            expected = self._play_turn(number, t, turn, expected, grid)
        self.up_next = expected
        if drawing:
            self._record_at(number, len(rnd.turns), grid)
        face_up = self._face_up
        face_down = [(r, c) for r, row in enumerate(grid, 1)
                     for c, card in enumerate(row, 1)
                     if card is not None and (r, c) not in face_up] \
            if len(face_up) < cards else []  # read_log: every pick is of a card
        if not face_down:
            self.up_next = None
        if face_down:
            names = tuple(position_name(p) for p in face_down)
            self._violate(ROUND_END, MoveRef(round=number, pointer=rnd.pointer + "/turns"),
                          f"the round ends with {counted(len(names), 'card')} face down: "
                          f"{', '.join(names)}", unfinished=True,
                          fact=FaceDownFact(len(names), names))
        title = f"Round {number} (first active: {rnd.first})"
        return Round(number, title, tuple(self._events), dict(self.scores), render_grid(grid))

    def _record_at(self, number: int, turns_done: int, grid: Grid) -> None:
        if self.pictures.want is None:
            return
        self.pictures.take(Moment(number, turns_done),
                           lambda: picture(number, turns_done, grid, self._face_up),
                           svg=lambda: _grid_svg(number, turns_done, grid, self._face_up,
                                                 self._picked, self.scores))
        self._picked = []

    def _check_setup(self, number: int, rnd: RoundLog) -> int:
        """Check the layout; the number of cards laid out."""
        where = rnd.pointer + "/grid"
        places = [card for row in rnd.grid for card in row]
        holes = places.count(None)
        memory_cards = [card for card in places if isinstance(card, MemoryCard)]
        memory = len(memory_cards)
        unknown = len([card for card in places if card.__class__ is UnknownCard])
        short = len(places) - holes - memory - unknown
        if unknown:
            self.unchecked.append(Unchecked(number))
            self.unchecked[-1].setup(rnd.grid, self.log.basic_setup,
                                     self._head_count >= FIVE_PLUS_PLAYERS)
        # two equal cards? (a set of their features: cheaper than hashing the cards)
        if len({(card.type, card.colour, card.number) for card in memory_cards}) < memory:
            self._check_distinct(number, where, rnd)
        if short > SHORT_CIRCUITS_IN_BOX:
            self._violate(SHORT_CIRCUIT_SUPPLY, MoveRef(round=number, pointer=where),
                          f"{counted(short, 'short circuit')}; the box has "
                          f"{SHORT_CIRCUITS_IN_BOX}",
                          fact=ShortCircuitsFact(short, SHORT_CIRCUITS_IN_BOX, None))
        rows, columns = len(rnd.grid), len(rnd.grid[0])
        if self.log.basic_setup and (
            (rows, columns) != (BASIC_ROWS, BASIC_COLUMNS) or holes
            or memory > BASIC_MEMORY_CARDS or short > BASIC_SHORT_CIRCUITS
            or (not unknown and (memory, short) != (BASIC_MEMORY_CARDS, BASIC_SHORT_CIRCUITS))
        ):
            self._violate(SETUP, MoveRef(round=number, pointer=where),
                          f"{memory} memory cards and {short} short circuits in "
                          f"{rows}x{columns} places ({holes} empty); the basic setup is "
                          f"13 and 3 in a full 4x4 grid",
                          fact=LayoutFact(memory, short, rows, columns))
        if self._head_count >= FIVE_PLUS_PLAYERS and \
                short + unknown < FIVE_PLUS_MIN_SHORT_CIRCUITS:
            self._violate(FIVE_PLUS_SHORT_CIRCUITS, MoveRef(round=number, pointer=where),
                          f"{counted(short, 'short circuit')} with {self._head_count} players; "
                          f"{FIVE_PLUS_PLAYERS} or more add at least "
                          f"{FIVE_PLUS_MIN_SHORT_CIRCUITS}",
                          fact=ShortCircuitsFact(short, FIVE_PLUS_MIN_SHORT_CIRCUITS,
                                                 self._head_count))
        if unknown:
            self._event(f"{counted(memory, 'memory card')}, {counted(short, 'short circuit')} "
                        f"and {unknown} not recorded, {rows}x{columns}",
                        fact=LayoutFact(memory, short, rows, columns, unknown))
        else:
            self._event(f"{memory} memory card{'' if memory == 1 else 's'} and {short} short "
                        f"circuit{'' if short == 1 else 's'}, {rows}x{columns}",
                        fact=LayoutFact(memory, short, rows, columns))
        return memory + short + unknown

    def _check_distinct(self, number: int, where: str, rnd: RoundLog) -> None:
        """A violation for every memory card laid out a second time."""
        seen: dict[MemoryCard, str] = {}
        for r, row in enumerate(rnd.grid):
            for c, card in enumerate(row):
                if not isinstance(card, MemoryCard):
                    continue
                here = position_name((r + 1, c + 1))
                first = seen.setdefault(card, here)
                if first != here:
                    at = pointer_join(where, "cards", r, c)
                    self._violate(DISTINCT_CARDS, MoveRef(round=number, pointer=at),
                                  f"{card.describe()} is laid out twice: at {first} and {here}",
                                  fact=RepeatedCardFact(card.describe(), first, here))

    def _check_first(self, number: int, rnd: RoundLog) -> None:
        if number == 1:
            self._event(f"{rnd.first} is the first active player (chosen at random)",
                        fact=StartFact(rnd.first, number, "random"))
            return
        fewest = min(self.scores.values())
        lowest = [s for s, p in self.scores.items() if p == fewest]
        if rnd.first not in lowest:
            self._violate(NEXT_ROUND_FIRST,
                          MoveRef(round=number, player=rnd.first, pointer=rnd.pointer + "/first"),
                          f"{rnd.first} starts with {counted(self.scores[rnd.first], 'point')}; "
                          f"fewest is {fewest} ({', '.join(lowest)})",
                          fact=FewestPointsFact(rnd.first, self.scores[rnd.first], fewest,
                                                tuple(lowest)))
        tie = " (a tie, any of them)" if len(lowest) > 1 else ""
        self._event(f"{rnd.first} starts: fewest points{tie}", rule=NEXT_ROUND_FIRST,
                    fact=StartFact(rnd.first, number, "fewest-points", tie=len(lowest) > 1))

    # --- a turn ---------------------------------------------------------------------

    def _play_turn(self, number: int, t: int, turn: Turn, expected: str, grid: Grid) -> str:
        """Replay one turn; return who is expected to be active next."""
        guesser = turn.guesser
        side = self._side_of[guesser]  # read_log checked every name
        if side != expected:
            if t == 1:
                why = "the round's first active player"
            else:
                why = "the other team" if self._team else "next on the left"
            who = f"{guesser} ({side})" if side != guesser else guesser
            self._violate(NEXT_ACTIVE, MoveRef(round=number, index=t, player=guesser,
                                               pointer=turn.pointer + "/guesser"),
                          f"{who} guesses; {expected} is {why}", fact=TurnFact(side, expected))
        if self._team and guesser != self.captains[side]:
            self._new_captain(side, guesser, MoveRef(round=number, index=t, player=guesser,
                                                     pointer=turn.pointer + "/guesser"))
        left = self._left[side]
        # Who chooses: first the player on the left (the other team's captain in team play;
        # in solo play the one player, whom read_log checked), then, after a short circuit
        # named, the active player.
        chooser = self.captains[left] if self._team else left
        chained, named = False, True
        for pick in turn.picks:
            if not named:
                where = position_name(pick.position)
                self._violate(CHAIN, self._move(number, t, turn, pick, "/position"),
                              f"{where} is chosen, but no short circuit was named on the card "
                              "before", fact=PositionFact(where))
            if pick.chooser != chooser:
                self._check_chooser(number, t, turn, side, pick, chained)
            named = self._play_pick(number, t, guesser, side, pick, chained, grid)
            chained, chooser = True, guesser
        return left

    def _new_captain(self, team: str, member: str, move: MoveRef) -> None:
        """``member`` acts as ``team``'s Captain: players may take turns being the Captain
        (also within a round), so ``member`` is the Captain from now on."""
        self._events.append(Event(f"{member} takes a turn as the Captain of {team} (was "
                                  f"{self.captains[team]})", move, CAPTAIN_TURNS, {},
                                  CaptainFact(team, member, self.captains[team])))
        self.captains[team] = member

    def _move(self, number: int, t: int, turn: Turn, pick: Pick, field: str) -> MoveRef:
        return MoveRef(index=t, player=turn.guesser, round=number, pointer=pick.pointer + field)

    def _check_chooser(self, number: int, t: int, turn: Turn, side: str, pick: Pick,
                       chained: bool) -> None:
        """Word the violation of a pick chosen by the wrong player."""
        if chained:
            if pick.chooser != turn.guesser:
                self._violate(CHAIN, self._move(number, t, turn, pick, "/chooser"),
                              f"{pick.chooser} chooses the card after a short circuit; the "
                              f"active player, {turn.guesser}, should",
                              fact=TurnFact(pick.chooser, turn.guesser))
        elif self._solo:
            pass  # one player: read_log already made sure the chooser is that player
        elif self._team:
            other = self._left[side]
            if self._side_of[pick.chooser] == other:
                self._new_captain(other, pick.chooser,
                                  self._move(number, t, turn, pick, "/chooser"))
            else:
                self._violate(TEAM_CAPTAINS, self._move(number, t, turn, pick, "/chooser"),
                              f"{pick.chooser} points, but {pick.chooser} is not in {other}: "
                              f"the captain of {other} ({self.captains[other]}) chooses the "
                              f"cards for {side}",
                              fact=TurnFact(pick.chooser, self.captains[other]))
        elif pick.chooser != self._left[side]:
            self._violate(POINTING_PLAYER, self._move(number, t, turn, pick, "/chooser"),
                          f"{pick.chooser} points; {self._left[side]}, on the left of {side}, "
                          f"should", fact=TurnFact(pick.chooser, self._left[side]))

    def _play_pick(self, number: int, t: int, guesser: str, side: str, pick: Pick,
                   chained: bool, grid: Grid) -> bool:
        """Turn the card over and score it; whether a short circuit was named on it (the
        active player may then choose another card)."""
        position = pick.position
        row, column = position
        card = grid[row - 1][column - 1]
        assert card is not None  # read_log checked every position
        where = position_name(position)
        if position in self._face_up:
            self._violate(FACE_DOWN, MoveRef(round=number, index=t, player=guesser,
                                             pointer=pick.pointer + "/position"),
                          f"{where} is already face up", fact=PositionFact(where))
        self._face_up.add(position)
        if self._drawing:
            self._picked.append(position)
        if isinstance(card, UnknownCard):
            result, words, card_text, guess_text, features = self._not_recorded(t, where, pick)
        else:
            _, _, result, words, card_text, guess_text, features = _score(pick.guess, card,
                                                                          self._solo)
        rule, points = result.rule, result.points
        if rule is GUESS_FEATURE:
            self._violate(GUESS_FEATURE, MoveRef(round=number, index=t, player=guesser,
                                                 pointer=pick.pointer + "/guess"),
                          f"no feature named for {where}", fact=NoFeatureFact(guesser, where))
        if pick.points is not None and pick.points != points:
            self._violate(rule, MoveRef(round=number, index=t, player=guesser,
                                        pointer=pick.pointer + "/points"),
                          f"{pick.points} point{'' if pick.points == 1 else 's'} recorded; "
                          f"{result.reason}", fact=ScoreFact(pick.points, points))
        self.scores[side] += points
        if chained:
            text = f"{guesser} chooses {where} (after a short circuit); {guesser}{words}"
            turn_pointer = guesser
        else:
            text = f"{pick.chooser} points at {where} for {guesser}; {guesser}{words}"
            turn_pointer = pick.chooser
        fact = GuessFact(turn_pointer, guesser, side, where, card_text, guess_text, features,
                         points)
        self._events.append(Event(text, MoveRef(round=number, index=t, player=guesser,
                                                pointer=pick.pointer),
                                  None if card_text is NOT_RECORDED else rule,
                                  {side: points}, fact))
        return result.short_circuit_named

    def _not_recorded(self, t: int, where: str, pick: Pick
                      ) -> tuple[Score, str, str, str, tuple[str, ...]]:
        """A guess on a card the log does not record, as :func:`_score` words a guess: only
        naming nothing is checked; it scores the points the log records (0 if none), and a
        short circuit named on it may be followed by another card. No rule decides it."""
        guess = pick.guess
        named = guess.named()
        points = pick.points or 0
        self.unchecked[-1].guessed(t, where, guess.short_circuit)
        recorded = "as recorded" if pick.points is not None else "none recorded"
        rule = GUESS_FEATURE if not guess.short_circuit and not named else SCORING
        result = Score(points, "not checked", rule, short_circuit_named=guess.short_circuit)
        words = (f" names {guess.describe()}; it is {NOT_RECORDED}: not checked, "
                 f"{counted(points, 'point')} ({recorded})")
        features = ("short-circuit",) if guess.short_circuit else tuple(named)
        return result, words, NOT_RECORDED, guess.describe().strip('"'), features

    # --- the game -------------------------------------------------------------------

    def run(self) -> list[Round]:
        rounds = [self.play_round(i, rnd) for i, rnd in enumerate(self.log.rounds)]
        if len(self.log.rounds) < ROUNDS:
            self._violate(THREE_ROUNDS, MoveRef(pointer="/rounds"),
                          f"only {counted(len(self.log.rounds), 'round')} recorded; the game "
                          f"has {ROUNDS}", unfinished=True,
                          fact=RoundsFact(len(self.log.rounds), ROUNDS))
        return rounds

    def winners(self) -> tuple[list[str], str]:
        return winners_of(self.scores, self._solo)
