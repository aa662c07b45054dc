"""Memo Dice: every symbol rolled is seen by the whole table before its cup covers it, so
every answer in the uncovering phase is one memory decides.

An answer is sound when it names the symbol under the cup, a slip when it names another one
or none ("if the player misremembered the symbol or cannot remember it at all"); a slip
costs the cup ("Each red, blue, or black cup is worth 1 point. The golden cup is worth 2
points."), a blunder, and its age is the moves since the symbol was rolled. Rolling and
covering are not moves: the die shows what it shows, and the cup's colour is the symbol's.

>>> import random
>>> from pathcheck.games.memo_dice.gen import random_game
>>> analysis = analyse(random_game(random.Random(2), players=2), source="demo")
>>> analysis.game, {m.mark.value for m in analysis.moves} <= {"slip", "sound"}
('memo-dice', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from pathcheck.analysis.core import (
    AnalysedMove,
    GameAnalysis,
    Mark,
    make_analysis,
    player_summary,
)
from pathcheck.games.memo_dice.fast import fast_marks, fast_scores, lenient_outcome
from pathcheck.games.memo_dice.log import FORMAT, MemoDiceEntry, MemoDiceLog, read_entry, read_log
from pathcheck.games.memo_dice.rules import RIGHT_GUESS, TARGET, WRONG_GUESS, same_symbol
from pathcheck.games.memo_dice.state import Replay


def analyse(log: Mapping[str, Any], *, source: str) -> GameAnalysis:
    """Every answer of ``log`` marked; RecordError if the log is malformed."""
    return analyse_read(read_log(log, source=source), source=source)


def analyse_entry(entry: MemoDiceEntry, *, source: str, for_json: bool = False
                  ) -> GameAnalysis:
    """:func:`analyse` of a log in its typed form (:data:`~pathcheck.games.memo_dice.log.
    LOG_FORMAT`). A clean log's scores come from the C replay's pass
    (:func:`~pathcheck.games.memo_dice.fast.fast_scores`, as ``adjudicate`` replays it):
    every round replayed, no note; a log with faults is replayed through them in C
    (:func:`~pathcheck.games.memo_dice.fast.lenient_outcome`: its scores, notes and the
    rounds played); any other log in Python. The answers are marked in Python.

    ``for_json``: the analysis is only to be encoded (``to_json``), so a clean log's moves
    may come as the JSON array msgspec would write of them (a :class:`msgspec.Raw` in
    ``moves``, written by ``_speedups.memo_dice_marks`` in the same pass): the same bytes."""
    if for_json:
        found = fast_marks(entry)
        if found is not None:
            return _encoded(entry.players, *found, source)
    game = MemoDiceLog(entry.players, None, entry.rounds)
    scores = fast_scores(entry)
    if scores is not None:
        return _analysis(game, len(entry.rounds), scores, _winners(entry.players, scores), (),
                         source)
    replayed = lenient_outcome(entry)
    if replayed is None:
        return analyse_read(read_entry(entry, source=source), source=source)
    scores, notes, played = replayed
    return _analysis(game, played, scores, _winners(entry.players, scores), tuple(notes),
                     source)


def _encoded(players: tuple[str, ...], moves: bytes, scores: dict[str, int],
             counts: tuple[tuple[int, int, float, float], ...], source: str) -> GameAnalysis:
    """The analysis of a clean log whose moves memo_dice_marks wrote as JSON, each player's
    summary from its counts (what :func:`~pathcheck.analysis.core.summarise` counts of the
    moves: there are no guesses and nothing harmless in Memo Dice)."""
    winners = _winners(players, scores)
    summaries = tuple(player_summary(p, slips, 0, sound, 0, lost, stake, scores[p],
                                     p in winners)
                      for p, (slips, sound, lost, stake) in zip(players, counts, strict=True))
    written: Any = msgspec.Raw(moves)  # see analyse_entry's docstring
    return GameAnalysis(game="memo-dice", format=FORMAT, source=source, players=players,
                        moves=written, summaries=summaries, winners=tuple(winners),
                        final_scores=scores)


def analyse_read(game: MemoDiceLog, *, source: str) -> GameAnalysis:
    """:func:`analyse` of a log already read (:func:`~pathcheck.games.memo_dice.log.
    read_entry`)."""
    replay = Replay(game, source=source)
    replay.play()
    return _analysis(game, len(replay.rounds), replay.scores, replay.winners(),
                     tuple(replay.notes), source)


def _winners(players: tuple[str, ...], scores: dict[str, int]) -> list[str]:
    """As Replay.winners: the players with the most points, once someone has reached the
    target."""
    best = max(scores.values())
    return [p for p in players if scores[p] == best] if best >= TARGET else []


def _analysis(game: MemoDiceLog, replayed: int, scores: dict[str, int], winners: list[str],
              replay_notes: tuple[str, ...], source: str) -> GameAnalysis:
    """The answers of the first ``replayed`` rounds of ``game`` marked, with the replay's
    scores, winners and notes."""
    moves: list[AnalysedMove] = []
    left_out: list[str] = []
    for number, rnd in enumerate(game.rounds[:replayed], 1):
        row = _row(rnd.covering)
        offset = len(rnd.covering)
        uncovered: set[int] = set()
        for j, guess in enumerate(rnd.uncovering, 1):
            if guess.cup > len(row) or guess.cup in uncovered:
                # a cup not in the row or already lifted: the ruling says so
                left_out.append(f"{number}.{offset + j} cup {guess.cup}")
                continue
            uncovered.add(guess.cup)
            symbol, roller, move, worth = row[guess.cup - 1]
            age = offset - move + j
            knew = f"cup {guess.cup} covers the {symbol!r} {roller} rolled in move {move}"
            best = f"name {symbol!r}"
            pointer = f"/rounds/{number - 1}/uncovering/{j - 1}"
            if guess.guess is not None and same_symbol(guess.guess, symbol):
                moves.append(AnalysedMove(number, offset + j, guess.player,
                                          f"names {guess.guess!r} for cup {guess.cup}", knew,
                                          best, Mark.SOUND, "right", None, RIGHT_GUESS,
                                          pointer, 0.0, worth, None, age))
                continue
            did = ("gives no answer" if guess.guess is None else f"names {guess.guess!r}") + \
                f" for cup {guess.cup}"
            why = "no answer" if guess.guess is None else "wrong symbol"
            moves.append(AnalysedMove(number, offset + j, guess.player, did, knew, best,
                                      Mark.SLIP, why, None, WRONG_GUESS, pointer, worth, worth,
                                      "blunder", age))
    notes = list(replay_notes)
    if left_out:
        notes.append(f"not judged: the answers for a cup not in the row or already lifted "
                     f"({', '.join(left_out)}): no symbol lay under it to remember "
                     "(adjudicate rules on them)")
    return make_analysis("memo-dice", FORMAT, source, game.players, moves, scores,
                         winners, notes=tuple(notes))


def _row(covering: Any) -> list[tuple[str, str, int, float]]:
    """The cups in the row, first covered first: (symbol, who rolled it, the move, what the
    cup is worth), up to the golden cup that ends covering."""
    row = []
    for k, roll in enumerate(covering, 1):
        row.append((roll.symbol, roll.player, k, 2.0 if roll.cup == "golden" else 1.0))
        if roll.cup == "golden":
            break
    return row
