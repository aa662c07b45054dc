"""Memo Dice: random playthroughs, perfect answers, a planted wrong answer."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.analysis import analyse
from pathcheck.analysis.core import Mark
from pathcheck.games.memo_dice.gen import random_game


def perfect(log: dict[str, Any]) -> dict[str, Any]:
    """The golden-cup player names every symbol right."""
    for rnd in log["rounds"]:
        golden = rnd["covering"][-1]["player"]
        rnd["uncovering"] = [{"player": golden, "cup": k, "guess": roll["symbol"]}
                             for k, roll in enumerate(rnd["covering"], 1)]
    return log


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_and_perfect_answers(seed: int) -> None:
    log = random_game(random.Random(seed))
    moves = analyse(log, source="r").moves
    assert len(moves) == sum(len(r["uncovering"]) for r in log["rounds"])
    assert all(m.mark in (Mark.SLIP, Mark.SOUND) for m in moves)  # everyone saw every roll
    analysis = analyse(perfect(log), source="p")
    assert {m.mark for m in analysis.moves} == {Mark.SOUND}


def test_a_wrong_symbol_is_found_exactly() -> None:
    log = perfect(random_game(random.Random(8)))
    rnd = log["rounds"][0]
    last = rnd["uncovering"][-1]
    last["guess"] = "certainly not a symbol"
    slips = [(m.round, m.index, m.player) for m in analyse(log, source="p").moves
             if m.mark is Mark.SLIP]
    assert slips == [(1, len(rnd["covering"]) * 2, last["player"])]


def test_an_answer_for_a_cup_already_lifted_is_named_as_not_judged() -> None:
    log = perfect(random_game(random.Random(2)))
    rnd = log["rounds"][0]
    again = dict(rnd["uncovering"][0])  # the first cup named a second time
    rnd["uncovering"].insert(1, again)
    analysis = analyse(log, source="again")
    where = len(rnd["covering"]) + 2
    assert not [m for m in analysis.moves if (m.round, m.index) == (1, where)]
    assert (f"not judged: the answers for a cup not in the row or already lifted "
            f"(1.{where} cup {again['cup']}): no symbol lay under it to remember (adjudicate "
            "rules on them)") in analysis.notes
