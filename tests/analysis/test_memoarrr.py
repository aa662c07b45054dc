"""Memoarrr!: random playthroughs, perfect memories playing, a planted slip, the guess's
chance."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.analysis import analyse
from pathcheck.analysis.core import Mark
from pathcheck.analysis.memoarrr import analyse_replayed, marked
from pathcheck.analysis.memoarrr_island import Island
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.games.memoarrr.island import State
from pathcheck.games.memoarrr.log import read_log
from pathcheck.games.memoarrr.rules import ALL_CARDS, CONNECT, rule_for
from pathcheck.games.memoarrr.texts import TREASURES_UNKNOWN

from .plain import _memoarrr_view


def perfect_game(seed: int, players: int) -> dict[str, Any]:
    """A basic game played by perfect memories: a card seen that connects if there is one,
    else a card not seen, else any."""
    rng = random.Random(seed)
    log = random_game(rng, players=players, rounds=0)
    state = State(read_log(log, source="perfect"))
    starter = log["start_player"]
    from pathcheck.games.memoarrr.gen import _action
    from pathcheck.games.memoarrr.log import RoundLog, make_volcano

    volcanoes = ["dark"] + ["light"] * (players - 2)
    for number in range(1, 8):
        actions: list[dict[str, Any]] = []
        log["rounds"].append({"volcanoes": volcanoes, "actions": actions})
        stack = tuple(v for v in (make_volcano(x, 2023) for x in volcanoes) if v is not None)
        state.start_round(RoundLog(number, stack, (), ""), starter)
        while not state.round_over:
            player = state.to_move
            allowed = state.allowed_reveals()
            if not allowed:
                action: dict[str, Any] = {"player": player, "volcano": True}
            else:
                events = sum(len(r["actions"]) for r in log["rounds"])
                known = _memoarrr_view(log, player, events)[0]
                last = state.last
                matches = [p for p in allowed if last is not None and p in known
                           and known[p].connects(last)]
                unknown = [p for p in allowed if p not in known]
                pos = rng.choice(matches or unknown or allowed)
                action = {"player": player, "reveal": str(pos)}
            actions.append(action)
            assert not state.apply(_action(action, len(actions))).faults
        starter = state.next_start_player()
    return log


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_perfect_memories_make_no_slip(seed: int, players: int) -> None:
    analysis = analyse(perfect_game(seed, players), source="perfect")
    assert Mark.SLIP not in {m.mark for m in analysis.moves}
    assert all(s.accuracy in (100.0, None) for s in analysis.summaries)
    assert len(analysis.winners) >= 1


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), expert=st.booleans())
def test_random_games(seed: int, expert: bool) -> None:
    analysis = analyse(random_game(random.Random(seed), expert=expert), source="r")
    for move in analysis.moves:
        assert (move.chance is not None) == (move.mark is Mark.GUESS)
        assert move.chance is None or 0 < move.chance < 1


def test_a_slip_planted_at_a_known_move_is_found_exactly() -> None:
    log = perfect_game(4, 3)
    analysis = analyse(log, source="p")
    # a move where a connecting card was known: reveal another card instead, then stop
    target = next(m for m in analysis.moves
                  if m.mark is Mark.SOUND and "a card seen that connects" in m.best)
    rnd = log["rounds"][target.round - 1]
    state_known = [p for p in target.best.split(": ", 1)[1].split(", ")]
    taken = {a.get("reveal") for a in rnd["actions"][:target.index - 1]}
    other = next(f"{c}{r}" for c in "ABCDE" for r in "12345" if f"{c}{r}" != "C3"
                 and f"{c}{r}" not in taken and not any(k.startswith(f"{c}{r} ")
                                                         for k in state_known))
    rnd["actions"][target.index - 1]["reveal"] = other
    del rnd["actions"][target.index:]
    del log["rounds"][target.round:]
    slips = [(m.round, m.index, m.player) for m in analyse(log, source="p").moves
             if m.mark is Mark.SLIP]
    assert slips == [(target.round, target.index, target.player)]


def test_the_chance_of_a_guess() -> None:
    number = {str(card): i for i, card in enumerate(ALL_CARDS)}
    last = number["crab/lava"]
    island = Island({0: number["turtle/water"], 1: number["crab/water"]}, ["Ann"],
                    {"Ann": "south"})
    island.learn("Ann", 0)
    rule = rule_for(CONNECT, 2023)
    guess = marked(1, 2, "Ann", *island.judge("Ann", 0b11, last, 1), rule, "/rounds/0/actions/1")
    # 24 cards not seen, 9 of them crabs or on lava
    assert (guess.mark, guess.chance) == (Mark.GUESS, 9 / 24) and "9 of the 24" in guess.best
    slip = marked(1, 2, "Ann", *island.judge("Ann", 0b11, last, 0), rule, "/rounds/0/actions/1")
    assert slip.mark is Mark.SLIP  # seen, and it does not connect, while a chance was left


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), expert=st.booleans(),
       edition=st.sampled_from((2018, 2023)))
def test_the_two_walks_agree(seed: int, players: int, expert: bool, edition: int) -> None:
    log = random_game(random.Random(seed), players=players, expert=expert, edition=edition,
                      rounds=random.Random(seed).randint(1, 7))
    assert analyse(log, source="x") == analyse_replayed(log, source="x")


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), stack=st.booleans())
def test_winners_are_the_rulings_with_or_without_the_treasure_stack(
        seed: int, players: int, stack: bool) -> None:
    from pathcheck.analysis.table import Tally
    from pathcheck.games.memoarrr.adjudicator import ADJUDICATOR

    log = random_game(random.Random(seed), players=players)
    if not stack:  # not turned over yet: no winner (docs/games/memoarrr.md)
        del log["treasures"]
    ruling = ADJUDICATOR.rule_python(log, source="t")
    for analysis in (analyse(log, source="t"), analyse_replayed(log, source="t")):
        assert list(analysis.winners) == list(ruling.winners)
        assert [s.player for s in analysis.summaries if s.won] == list(ruling.winners)
        assert (TREASURES_UNKNOWN in analysis.notes) is not stack
        table = Tally()
        table.add(analysis)
        assert sum(row.wins for row in table.rows()) == len(ruling.winners)
    if not stack:
        assert not ruling.winners


def test_reveals_the_rules_bar_are_named_as_not_judged() -> None:
    import json
    from pathlib import Path

    fixtures = Path(__file__).parents[2] / "fixtures/memoarrr"
    for name, barred in (("illegal-reveal-face-down.json", "1.2 Ben E1 (face up)"),
                         ("illegal-walrus-blocked.json", "1.2 Ann D2 (walrus-marked)")):
        analysis = analyse(json.loads((fixtures / name).read_text()), source=name)
        assert not [m for m in analysis.moves if (m.round, m.index) == (1, 2)]
        assert analysis.notes[0] == (
            f"not judged: the reveals of cards the rules do not let them reveal ({barred}): "
            "memory bears on the choice among the cards one may reveal (adjudicate rules on "
            "them)")


def test_the_age_of_a_reveal() -> None:
    """The reveals since the mover last saw the card that decides it (docs/analysis.md,
    "Memory span"): the youngest card seen that connects, whichever was revealed; a card seen
    not to connect, revealed; none for a guess. A swap carries the sighting along, a peek is
    a sighting."""
    number = {str(card): i for i, card in enumerate(ALL_CARDS)}
    cards = {1: "turtle/water", 2: "crab/water", 3: "crab/lava", 10: "turtle/jungle",
             11: "walrus/desert", 0: "penguin/flowers", 6: "octopus/lava"}
    island = Island({p: number[c] for p, c in cards.items()}, ["Ann", "Ben"],
                    {"Ann": "north", "Ben": "south"})  # Ann saw 1, 2, 3 at move 0
    for place in (10, 11, 0):  # reveals 1, 2, 3
        island.everyone(place)
    rule = rule_for(CONNECT, 2023)
    allowed = sum(1 << p for p in (1, 2, 3, 5, 6, 10, 11))

    def age(chosen: int, last: str, player: str = "Ann") -> tuple[Mark, int | None]:
        move = marked(2, 3, player, *island.judge(player, allowed, number[last], chosen), rule, "/")
        return move.mark, move.age

    # turtle/lava: 1 and 3 seen at move 0, 10 at reveal 1, the youngest: 4 - 1
    assert age(1, "turtle/lava") == (Mark.SOUND, 3)
    assert age(2, "turtle/lava") == (Mark.SLIP, 3)
    assert age(10, "turtle/lava", "Ben") == (Mark.SOUND, 3)
    # penguin/desert: only walrus/desert (11, reveal 2) of the cards seen connects
    assert age(3, "penguin/desert") == (Mark.SLIP, 2)
    # octopus/flowers: nothing seen connects, a chance is left among the cards not seen
    assert age(11, "octopus/flowers") == (Mark.SLIP, 2)  # seen, it does not connect
    assert age(2, "octopus/flowers") == (Mark.SLIP, 4)  # seen at move 0
    assert age(6, "octopus/flowers") == (Mark.GUESS, None)
    island.swap(10, 5)  # turtle/jungle moves to 5 and keeps its sighting
    assert age(1, "turtle/lava") == (Mark.SOUND, 3)
    island.learn("Ann", 6)  # a peek (at reveal 3): octopus/lava, the youngest now
    assert age(1, "turtle/lava") == (Mark.SOUND, 1)
    assert age(5, "turtle/lava", "Ben") == (Mark.SOUND, 3)  # Ben did not peek
