"""The robot memory game: every card of a round lies face up for a minute at setup, in sight
of the whole table ("Players have one minute to memorize the cards"), so every guess is one
memory decides.

A guess is sound when it names all three features of a memory card (6 points), or "short
circuit" for a short circuit; any other answer is a slip: a wrong feature, "short circuit" on
a memory card or features on a short circuit (what the player saw contradicted), or fewer
features than were seen (points given away). A slip costs what the perfect answer scores
minus what it scored (:func:`worth`); its age is the cards turned in the round so far, this
one included (every card was seen at setup). Which card is pointed at is not a move of the
guesser's. A guess on a card the log does not record (``"unknown"``) is not judged: the player
saw the card at setup, but the analysis cannot tell what they saw; the analysis notes it.

>>> import random
>>> from pathcheck.games.robot_memory.gen import random_game
>>> analysis = analyse(random_game(random.Random(4)), source="demo")
>>> analysis.game, {m.mark.value for m in analysis.moves} <= {"slip", "sound"}
('robot-memory', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec import UNSET

from pathcheck.analysis.core import (
    AnalysedMove,
    GameAnalysis,
    Mark,
    make_analysis,
    player_summary,
    slip_mark,
)
from pathcheck.games.robot_memory import fast
from pathcheck.games.robot_memory.log import (
    FORMAT,
    GameLog,
    Pick,
    RobotMemoryEntry,
    position_name,
    read_entry,
    read_log,
)
from pathcheck.games.robot_memory.rules import (
    POINTS_FOR_FEATURES,
    SCORE_THREE,
    SCORING,
    SHORT_CIRCUIT,
    WRONG_FEATURE,
    Card,
    Guess,
    MemoryCard,
    Place,
    ShortCircuit,
    UnknownCard,
    score,
)
from pathcheck.games.robot_memory.state import Replay, winners_of
from pathcheck.ruling import Rule

FEATURES = ("type", "colour", "number")


def perfect_guess(card: Card) -> Guess:
    """What a perfect memory names for ``card``."""
    if isinstance(card, ShortCircuit):
        return Guess(short_circuit=True)
    return Guess(type=card.type, colour=card.colour, number=card.number)


def judge(guess: Guess, card: Card) -> tuple[Mark, str, Rule]:
    """The mark of naming ``guess`` for ``card`` (seen at setup), why, and the rule."""
    if isinstance(card, ShortCircuit):
        if guess.short_circuit:
            return Mark.SOUND, "right", SHORT_CIRCUIT
        return Mark.SLIP, "features named on a short circuit", SCORING
    if guess.short_circuit:
        return Mark.SLIP, "\"short circuit\" named on a memory card", SCORING
    named = guess.named()
    wrong = [name for name, value in named.items() if card.feature(name) != value]
    if wrong:
        return Mark.SLIP, f"wrong {' and '.join(wrong)}", WRONG_FEATURE
    if len(named) < len(FEATURES):
        return (Mark.SLIP, f"only {len(named)} of the 3 features named (all 3 were seen)",
                SCORE_THREE)
    return Mark.SOUND, "all three features right", SCORE_THREE


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every guess of ``log`` marked; RecordError if the log is malformed."""
    return analyse_read(read_log(log, source=source), source=source)


def analyse_entry(entry: RobotMemoryEntry, *, source: str, for_json: bool = False
                  ) -> GameAnalysis:
    """:func:`analyse` of a log as msgspec decodes it (:data:`~pathcheck.games.robot_memory.
    log.LOG_FORMAT`): a clean log's guesses, scores and winners come from the C replay's one
    pass (:func:`~pathcheck.games.robot_memory.fast.trace`), anything else from
    :func:`analyse_read` (the plain reference).

    ``for_json``: the analysis is only to be encoded (``to_json``), so a clean log's moves may
    come as the JSON array msgspec would write of them (a :class:`msgspec.Raw` in ``moves``,
    written by ``_speedups.robot_marks_json`` with each person's counts); the same bytes."""
    written: Any = fast.marks_json(entry, _JUDGED_JSON, _judged_json) if for_json else False
    if written is None:  # not a clean log
        return analyse_read(read_entry(entry, source=source), source=source)
    if written is False:  # (not asked, or a name it cannot write): the moves as values
        found = fast.trace(entry, _ANALYSIS)
        if found is None:
            return analyse_read(read_entry(entry, source=source), source=source)
        totals, moves = found
    else:
        raw, totals, counts = written
    sides = fast.sides_of(entry)
    scores = dict(zip(sides, totals, strict=True))
    winners, _ = winners_of(scores, entry.variant == "solo")
    if entry.teams is UNSET:
        people: tuple[str, ...] = sides
        points = scores
        won = winners
    else:
        people = tuple(m for team in entry.teams for m in team.members)
        side = {m: team.name for team in entry.teams for m in team.members}
        points = {p: scores[side[p]] for p in people}
        won = [p for p in people if side[p] in winners]
    if written is False:
        return make_analysis("robot-memory", FORMAT, source, people, moves, points, won,
                             notes=())
    # summarise's, from the counts made in C (every guesser is one of the people)
    summaries = tuple(player_summary(p, slips, guesses, sound, harmless, lost, stake,
                                     points.get(p, 0), p in won)
                      for p, (slips, guesses, sound, harmless, lost, stake)
                      in zip(people, counts, strict=True))
    encoded: Any = msgspec.Raw(raw)  # to_json writes it as it is
    return GameAnalysis(game="robot-memory", format=FORMAT, source=source, players=people,
                        moves=encoded, summaries=summaries, winners=tuple(won),
                        final_scores=dict(points), notes=())


def analyse_read(game: GameLog, *, source: str) -> GameAnalysis:
    """:func:`analyse` of a log already read (:func:`~pathcheck.games.robot_memory.log.
    read_entry`)."""
    replay = Replay(game)
    replay.run()
    moves: list[AnalysedMove] = []
    unjudged: list[str] = []
    face_up_again: list[str] = []
    for number, rnd in enumerate(game.rounds, 1):
        face_up: set[tuple[int, int]] = set()
        for t, turn in enumerate(rnd.turns, 1):
            for pick in turn.picks:
                if pick.position in face_up:  # already turned: the ruling says so
                    face_up_again.append(f"{number}.{t} {position_name(pick.position)}")
                    continue
                face_up.add(pick.position)
                row, column = pick.position
                card = rnd.grid[row - 1][column - 1]
                if isinstance(card, UnknownCard):
                    unjudged.append(f"{number}.{t} {position_name(pick.position)}")
                    continue
                moves.append(_move(number, t, turn.guesser, pick, card, replay.solo,
                                   len(face_up)))
    winners, _ = replay.winners()
    # In team play the captains guess: each person is summed up, with their team's result.
    people = game.people
    side = {p: game.side_of(p) or p for p in people}
    points = {p: replay.scores.get(side[p], 0) for p in people}
    notes: tuple[str, ...] = ((f"not judged: the guesses on cards the log does not record "
                               f"({', '.join(unjudged)}): what the player saw at setup is "
                               "not known",) if unjudged else ())
    if face_up_again:
        notes += (f"not judged: the guesses on cards already face up ("
                  f"{', '.join(face_up_again)}): the card lay in sight, memory did not "
                  "decide them (adjudicate rules on them)",)
    return make_analysis("robot-memory", FORMAT, source, people, moves, points,
                         [p for p in people if side[p] in winners], notes=notes)


def worth(guess: Guess, card: Card, *, solo: bool) -> float:
    """What naming ``guess`` for ``card`` is worth: its points, and for a short circuit named
    outside solo play, the other card it lets the player choose, which a perfect memory names
    in full (6 points: "you don't score any points" but may choose another card).

    >>> worth(Guess(short_circuit=True), ShortCircuit(), solo=False)
    6.0
    """
    scored = score(guess, card, solo=solo)
    if scored.short_circuit_named and not solo:
        return 6.0
    return float(scored.points)


def _move(number: int, t: int, guesser: str, pick: Pick, card: Place, solo: bool,
          age: int) -> AnalysedMove:
    assert card is not None and not isinstance(card, UnknownCard)  # read_log; analyse_read
    where = position_name(pick.position)
    key = (pick.guess, card, solo)
    named, seen, best, mark, why, rule, cost, value, graded = (
        _JUDGED.get(key) or _judged(key))
    return AnalysedMove(number, t, guesser, f"names {named} for {where}",
                        f"{where} was {seen} at setup", best, mark, why, None, rule,
                        pick.pointer, cost, value, graded, age)


_Judged = tuple[str, str, str, Mark, str, Rule, float, float, str | None]
_JUDGED: dict[tuple[Guess, Card, bool], _Judged] = {}
"""A guess on a card judged and worded (all but where the card lies), by (guess, card,
solo), each worked out once: a log names the same few things again and again."""


_JUDGED_CODES: list[_Judged | None] = [None] * len(fast._said)
"""The same, by the C replay's index of a guess on a card (:func:`fast.decode`), filled by the
C side through :func:`_judged_code`."""
_BY_KIND: dict[tuple[int, ...], tuple[Any, ...]] = {}
"""A judgement but its words of the guess and card (mark, why, rule, cost, value, grade), by
what decides it: whether the guess and the card are short circuits, which features are
named, which are wrong, solo play."""
_BEST: list[str | None] = [None] * 65
"""By card code: the perfect answer's words."""


def _judged_code(index: int) -> _Judged:
    """What :func:`_judged` gives for the guess and card of a C index, from the words the
    C side's tables keep of each guess and card and the judgement of the guess's kind."""
    rest, solo = divmod(index, 2)
    guess_code, card_code = divmod(rest, 65)
    guess, guess_text, _ = fast._guesses[guess_code] or fast._guess_words(guess_code)
    card, card_text = fast._cards[card_code] or fast._card_words(card_code)
    named = wrong = 0
    if guess_code != 125 and card_code != 64:
        for bit, mine, its in ((1, guess_code // 25, card_code // 16 + 1),
                               (2, guess_code // 5 % 5, card_code // 4 % 4 + 1),
                               (4, guess_code % 5, card_code % 4 + 1)):
            if mine:
                named |= bit
                wrong |= bit if mine != its else 0
    kind = (guess_code == 125, card_code == 64, named, wrong, solo)
    verdict = _BY_KIND.get(kind)
    if verdict is None:
        verdict = _BY_KIND[kind] = _judged((guess, card, bool(solo)))[3:]
    best = _BEST[card_code]
    if best is None:
        best = _BEST[card_code] = f"name {perfect_guess(card).describe()}"
    found: _Judged = (guess_text, card_text, best, *verdict)
    _JUDGED_CODES[index] = found
    return found


_ANALYSIS = (AnalysedMove, _JUDGED_CODES, _judged_code)
"""What the C replay needs to hand back a clean log's moves (:func:`fast.trace`)."""

_JUDGED_JSON: list[tuple[bytes, bytes, bytes, bytes, int, float, float] | None] = (
    [None] * len(fast._said))
"""By the C replay's index of a guess on a card: what robot_json.c writes of its move, filled
through :func:`_judged_json`."""
_COUNTER = {Mark.SLIP: 0, Mark.GUESS: 1, Mark.SOUND: 2, Mark.HARMLESS: 3}
"""A mark's place in the counts per person robot_json.c makes (summarise's tally)."""


def _judged_json(index: int) -> tuple[bytes, bytes, bytes, bytes, int, float, float]:
    """:func:`_judged_code`'s judgement of a C index as robot_json.c writes the move: the
    guess's and the card's words as JSON without quotes, the JSON from ``best`` to
    ``pointer``'s key and from ``cost`` to ``age``'s key, the mark's counter, cost and value.

    >>> named, seen, mid, tail, counter, cost, value = _judged_json(0)
    >>> mid.startswith(b',"best":'), tail.endswith(b',"age":')
    (True, True)
    """
    named, seen, best, mark, why, rule, cost, value, graded = (
        _JUDGED_CODES[index] or _judged_code(index))
    encode = msgspec.json.encode
    found = _JUDGED_JSON[index] = (
        encode(named)[1:-1], encode(seen)[1:-1],
        b',"best":' + encode(best) + b',"mark":' + encode(mark) + b',"why":' + encode(why)
        + b',"chance":null,"rule":' + encode(rule) + b',"pointer":',
        b',"cost":' + encode(cost) + b',"value":' + encode(value) + b',"grade":'
        + encode(graded) + b',"age":', _COUNTER[mark], cost, value)
    return found


def _judged(key: tuple[Guess, Card, bool]) -> _Judged:
    guess, card, solo = key
    mark, why, rule = judge(guess, card)
    # what worth() gives, without scoring again: the perfect answer's worth, and a slip
    # scores only with fewer features named, every one right
    value = 6.0 if isinstance(card, MemoryCard) or not solo else 1.0
    cost = 0.0
    graded = None
    if mark is Mark.SLIP:
        scored = POINTS_FOR_FEATURES.get(len(guess.named()), 0) if rule is SCORE_THREE else 0
        cost = value - scored
        mark, graded = slip_mark(cost, value)
    seen = "a short circuit" if not isinstance(card, MemoryCard) else card.describe()
    found = _JUDGED[key] = (guess.describe(), seen, f"name {perfect_guess(card).describe()}",
                            mark, why, rule, cost, value, graded)
    return found
