"""The robot memory game: random playthroughs, perfect guesses, a planted wrong feature."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.analysis import analyse
from pathcheck.analysis.core import Mark
from pathcheck.games.robot_memory.gen import random_game


def perfect(log: dict[str, Any]) -> dict[str, Any]:
    """Every card named as it was seen at setup."""
    for rnd in log["rounds"]:
        cards = rnd["grid"]["cards"]
        for turn in rnd["turns"]:
            for pick in [turn, *turn.get("chain", ())]:
                pick.pop("points", None)
                pick["guess"] = cards[pick["position"]["row"] - 1][pick["position"]["column"] - 1]
    return log


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_and_perfect_guesses(seed: int) -> None:
    log = random_game(random.Random(seed))
    assert all(m.mark in (Mark.SLIP, Mark.SOUND) for m in analyse(log, source="r").moves)
    analysis = analyse(perfect(log), source="p")
    assert {m.mark for m in analysis.moves} == {Mark.SOUND}
    assert all(s.accuracy in (100.0, None) for s in analysis.summaries)


def test_a_wrong_colour_and_a_cautious_guess_are_slips() -> None:
    log = perfect(random_game(random.Random(2), variant="standard"))
    turns = log["rounds"][1]["turns"]
    memory = [t for t in turns if isinstance(t["guess"], dict)]
    wrong, cautious = memory[0], memory[1]
    colour = wrong["guess"]["colour"]
    wrong["guess"] = {**wrong["guess"], "colour": "red" if colour != "red" else "blue"}
    cautious["guess"] = {"type": cautious["guess"]["type"]}
    moves = analyse(log, source="p").moves
    slips = [(m.round, m.index, m.why) for m in moves if m.mark is Mark.SLIP]
    assert slips == sorted([(2, turns.index(wrong) + 1, "wrong colour"),
                            (2, turns.index(cautious) + 1,
                             "only 1 of the 3 features named (all 3 were seen)")])


def test_a_guess_on_a_card_not_recorded_is_not_judged_and_noted() -> None:
    log = perfect(random_game(random.Random(2), variant="standard"))
    turn = log["rounds"][0]["turns"][0]
    where = turn["position"]
    log["rounds"][0]["grid"]["cards"][where["row"] - 1][where["column"] - 1] = "unknown"
    analysis = analyse(log, source="p")
    assert (1, 1) not in {(m.round, m.index) for m in analysis.moves}
    assert {m.mark for m in analysis.moves} == {Mark.SOUND}
    place = f"r{where['row']}c{where['column']}"
    assert analysis.notes == (f"not judged: the guesses on cards the log does not record "
                              f"(1.1 {place}): what the player saw at setup is not known",)


def test_a_guess_on_a_card_already_face_up_is_named_as_not_judged() -> None:
    import json
    from pathlib import Path

    path = Path(__file__).parents[2] / "fixtures/robot-memory/illegal-face-down.json"
    analysis = analyse(json.loads(path.read_text()), source="face-up")
    assert not [m for m in analysis.moves if (m.round, m.index) == (1, 5)]
    assert analysis.notes == ("not judged: the guesses on cards already face up (1.5 r3c3): "
                              "the card lay in sight, memory did not decide them (adjudicate "
                              "rules on them)",)


def test_naming_nothing_costs_the_whole_card() -> None:
    """An answer naming no feature scores nothing: a blunder costing all 6 points (was an
    internal error once); the plain model agrees."""
    from .plain import plain_costs

    log = perfect(random_game(random.Random(2), variant="standard"))
    turn = next(t for t in log["rounds"][0]["turns"] if isinstance(t["guess"], dict))
    turn["guess"] = {}
    analysis = analyse(log, source="empty")
    [move] = [m for m in analysis.moves if m.mark is not Mark.SOUND]
    assert (move.mark, move.grade, move.cost, move.value) == (Mark.SLIP, "blunder", 6.0, 6.0)
    assert [m.cost for m in analysis.moves] == [c[5] for c in plain_costs(log)]
