"""The robot memory game adjudicator: fixtures with their exact rulings, random legal games
with their sums checked, the rule quotes against the rulebook, the CLI. What every game shares
(fixtures rule as named, fuzzing, --at) is in test_conformance.py."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.errors import InputError, RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.common import Moment
from pathcheck.games.robot_memory import rules as cards
from pathcheck.games.robot_memory.adjudicator import ADJUDICATOR
from pathcheck.games.robot_memory.gen import VARIANTS, random_game
from pathcheck.games.robot_memory.log import GameLog, read_log
from pathcheck.games.robot_memory.rules import (
    Guess,
    MemoryCard,
    Place,
    ShortCircuit,
    UnknownCard,
    score,
)
from pathcheck.games.robot_memory.state import Replay
from pathcheck.ruling import Ruling, render_text
from tests.fuzz import json_values

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "robot-memory"
# pathcheck.cli lives in cli/ (setuptools package-dir), which mypy cannot resolve statically.
cli = importlib.import_module("pathcheck.cli").cli
RULEBOOK = Path(__file__).resolve().parents[2] / "fixtures" / "rules" / "robot-memory.txt"
"""The rulebook paragraphs the rules quote, copied verbatim (OCR and all) from Igrology's."""


def load(name: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return log


def rule_on(log: dict[str, Any], at: str | None = None) -> Ruling:
    return ADJUDICATOR.adjudicate(log, source="test", options=AdjudicateOptions(at=at))


# --- fixtures --------------------------------------------------------------------------

LEGAL = {
    "legal-standard-2p.json": ({"Ann": 26, "Ben": 24}, ["Ann"]),
    "legal-cards-unknown.json": ({"Ann": 26, "Ben": 24}, ["Ann"]),
    "legal-standard-3p.json": ({"Ann": 17, "Ben": 18, "Cat": 22}, ["Cat"]),
    "legal-standard-4p.json": ({"Ann": 9, "Ben": 8, "Cat": 17, "Dan": 16}, ["Cat"]),
    "legal-standard-3p-tie.json": ({"Ann": 14, "Ben": 14, "Cat": 12}, ["Ann", "Ben"]),
    "legal-solo.json": ({"Ann": 56}, []),
    "legal-team.json": ({"Bolts": 19, "Nuts": 30}, ["Nuts"]),
    "legal-six-players-5x5.json": (
        {"Ann": 19, "Ben": 18, "Cat": 24, "Dan": 22, "Eve": 11, "Fay": 20}, ["Cat"]
    ),
    "legal-custom-difficulty.json": ({"Ann": 28, "Ben": 13}, ["Ann"]),
    "legal-custom-2x2.json": ({"Ann": 12, "Ben": 14}, ["Ben"]),  # scored by hand
}

# fixture -> (rule id, round, move index, player, pointer) of the first violation, and how
# many violations the whole log has.
ILLEGAL = {
    "illegal-setup.json": (cards.SETUP.id, 1, None, None, "/rounds/0/grid", 1),
    "illegal-distinct-cards.json":
        (cards.DISTINCT_CARDS.id, 1, None, None, "/rounds/0/grid/cards/3/1", 1),
    "illegal-pointing-player.json":
        (cards.POINTING_PLAYER.id, 1, 3, "Ben", "/rounds/0/turns/2/chooser", 1),
    "illegal-face-down.json": (cards.FACE_DOWN.id, 1, 5, "Ann", "/rounds/0/turns/4/position", 2),
    "illegal-guess-feature.json":
        (cards.GUESS_FEATURE.id, 1, 3, "Ben", "/rounds/0/turns/2/guess", 2),
    "illegal-score-3.json": (cards.SCORE_TWO.id, 1, 10, "Cat", "/rounds/0/turns/9/points", 1),
    "illegal-wrong-feature.json":
        (cards.WRONG_FEATURE.id, 1, 2, "Ann", "/rounds/0/turns/1/points", 1),
    "illegal-short-circuit.json":
        (cards.SHORT_CIRCUIT.id, 1, 14, "Ann", "/rounds/0/turns/13/points", 1),
    "illegal-solo-short-circuit.json":
        (cards.SOLO_SHORT_CIRCUIT.id, 1, 13, "Ann", "/rounds/0/turns/12/points", 1),
    "illegal-short-circuit-chain.json":
        (cards.CHAIN.id, 1, 3, "Ben", "/rounds/0/turns/2/chain/0/position", 2),
    "illegal-chain-chooser.json":
        (cards.CHAIN.id, 1, 1, "Cat", "/rounds/0/turns/0/chain/0/chooser", 1),
    "illegal-next-active.json": (cards.NEXT_ACTIVE.id, 1, 2, "Ben", "/rounds/0/turns/1/guesser", 2),
    "illegal-round-end.json": (cards.ROUND_END.id, 1, None, None, "/rounds/0/turns", 1),
    "illegal-next-round-first.json":
        (cards.NEXT_ROUND_FIRST.id, 2, None, "Ann", "/rounds/1/first", 2),
    "illegal-three-rounds.json": (cards.THREE_ROUNDS.id, None, None, None, "/rounds", 1),
    "illegal-5-plus-short-circuits.json":
        (cards.FIVE_PLUS_SHORT_CIRCUITS.id, 1, None, None, "/rounds/0/grid", 3),
    "illegal-short-circuit-supply.json":
        (cards.SHORT_CIRCUIT_SUPPLY.id, 1, None, None, "/rounds/0/grid", 3),
    "illegal-team-captains.json":
        (cards.TEAM_CAPTAINS.id, 1, 1, "Cat", "/rounds/0/turns/0/chooser", 1),
}

MALFORMED = {
    "malformed-unknown-player.json": "/rounds/0/turns/5/guesser",
    "malformed-off-grid.json": "/rounds/1/turns/0/position",
    "malformed-schema.json": "/rounds/0/turns/0/guess/colour",
    "malformed-captain-empty.json": "/rounds/0/captains/Bolts",
    "malformed-grid-rows.json": "/rounds/0/grid/rows",
    "malformed-solo-two-players.json": "/players",
    "malformed-team-with-players.json": "",
}


def test_every_fixture_is_listed() -> None:
    on_disk = {p.name for p in FIXTURES.glob("*.json")}
    assert on_disk == set(LEGAL) | set(ILLEGAL) | set(MALFORMED)


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_fixture(name: str) -> None:
    scores, winners = LEGAL[name]
    ruling = rule_on(load(name))
    assert ruling.violations == ()
    assert dict(ruling.final_scores) == scores
    assert list(ruling.winners) == winners
    assert len(ruling.rounds) == 3
    assert ruling.players == list(scores)
    assert render_text(ruling).endswith("Verdict: legal")
    for side, total in scores.items():
        assert re.search(rf"^{side} +(\d+ +){{3}}{total}$", ruling.display, re.M)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_fixture(name: str) -> None:
    rule_id, rnd, index, player, pointer, count = ILLEGAL[name]
    ruling = rule_on(load(name))
    first = ruling.violations[0]
    assert (first.rule.id, first.move.round, first.move.index, first.move.player,
            first.move.pointer) == (rule_id, rnd, index, player, pointer)
    assert len(ruling.violations) == count
    assert f"ILLEGAL: {first.describe()}" in render_text(ruling)


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_fixture(name: str) -> None:
    with pytest.raises(RecordError) as info:
        rule_on(load(name))
    assert info.value.pointer == MALFORMED[name]


def test_illegal_logs_still_report_the_rest_as_played() -> None:
    ruling = rule_on(load("illegal-score-3.json"))
    # The log claims 6 points; the ruling scores the 3 the rules give, and all 3 rounds.
    assert dict(ruling.final_scores) == LEGAL["legal-standard-3p.json"][0]
    assert ruling.winners == ["Cat"] and len(ruling.rounds) == 3


def test_team_tie_and_solo_details() -> None:
    tie = rule_on(load("legal-standard-3p-tie.json"))
    assert "In case of a tie, all tied players win together." in tie.tie_break
    solo = rule_on(load("legal-solo.json"))
    assert solo.winners == [] and "Score: 56" in solo.notes[0]
    team = rule_on(load("legal-team.json"))
    assert team.notes[0] == "team Bolts: Ann (captain), Cat"
    six = rule_on(load("legal-six-players-5x5.json"))
    assert six.rounds[0].display.count("\n") == 5  # a header and five rows


def test_every_turn_is_explained() -> None:
    ruling = rule_on(load("legal-standard-2p.json"))
    log = load("legal-standard-2p.json")
    picks = sum(1 + len(t.get("chain", [])) for r in log["rounds"] for t in r["turns"])
    turn_events = [e for r in ruling.rounds for e in r.events if e.move is not None]
    assert len(turn_events) == picks
    assert all(re.search(r": (.* right: \d+ points?|.*no points.*)$", e.text)
               for e in turn_events)


def test_fourth_round_and_at_display() -> None:
    log = load("legal-standard-2p.json")
    log["rounds"].append(copy.deepcopy(log["rounds"][0]))
    ruling = rule_on(log)
    assert [v.rule.id for v in ruling.violations][:1] == [cards.THREE_ROUNDS.id]
    assert ruling.violations[0].move.pointer == "/rounds/3"
    at = rule_on(load("legal-standard-2p.json"), at="1.0")
    assert "Round 1 after 0 turns" in at.display and at.display.count("(") > 16
    with pytest.raises(InputError, match=r"--at 9\.1: out of range; this log can show 1\.0-1\."):
        rule_on(load("legal-standard-2p.json"), at="9.1")
    with pytest.raises(InputError):
        Moment.parse("one.two")


def test_five_or_more_players_need_two_short_circuits_in_any_variant() -> None:
    log = random_game(random.Random(3), variant="custom", players=5, layout=(3, 3, 8, 1))
    ruling = rule_on(log)
    assert [v.rule.id for v in ruling.violations] == [cards.FIVE_PLUS_SHORT_CIRCUITS.id] * 3
    four = random_game(random.Random(3), variant="custom", players=4, layout=(3, 3, 8, 1))
    assert rule_on(four).violations == ()


def test_team_play_order_and_captains() -> None:
    log = load("legal-team.json")
    turns = log["rounds"][0]["turns"]
    assert (turns[1]["guesser"], turns[1]["chooser"]) == ("Ben", "Ann")
    wrong_team = copy.deepcopy(log)
    wrong_team["rounds"][0]["turns"][1].update(guesser="Ann", chooser="Ben")
    first = rule_on(wrong_team).violations[0]
    assert (first.rule.id, first.move.pointer) == (cards.NEXT_ACTIVE.id,
                                                   "/rounds/0/turns/1/guesser")
    assert first.message == "Ann (Bolts) guesses; Nuts is the other team"
    wrong_pointer = copy.deepcopy(log)
    wrong_pointer["rounds"][0]["turns"][1]["chooser"] = "Dan"  # Ben's own team
    first = rule_on(wrong_pointer).violations[0]
    assert (first.rule.id, first.move.pointer) == (cards.TEAM_CAPTAINS.id,
                                                   "/rounds/0/turns/1/chooser")
    assert first.message == ("Dan points, but Dan is not in Bolts: the captain of Bolts (Ann) "
                             "chooses the cards for Nuts")
    # "Players can take turns being the Captain": another member of Bolts points, within
    # the round; that is legal, and the ruling says who is the Captain from then on.
    new_pointer = copy.deepcopy(log)
    new_pointer["rounds"][0]["turns"][1]["chooser"] = "Cat"
    ruling = rule_on(new_pointer)
    assert ruling.violations == ()
    changes = [e for e in ruling.rounds[0].events if e.rule == cards.CAPTAIN_TURNS]
    assert [e.text for e in changes] == ["Cat takes a turn as the Captain of Bolts (was Ann)",
                                         "Ann takes a turn as the Captain of Bolts (was Cat)"]
    assert changes[0].move is not None
    assert changes[0].move.pointer == "/rounds/0/turns/1/chooser"
    # A captain change the log does not announce (no "captains") is legal too.
    changed = next(i for i, r in enumerate(log["rounds"]) if "captains" in r)
    [(team, captain)] = log["rounds"][changed]["captains"].items()
    old = next(t["captain"] for t in log["teams"] if t["name"] == team)
    stale = copy.deepcopy(log)
    del stale["rounds"][changed]["captains"]
    ruling = rule_on(stale)
    assert ruling.violations == ()
    assert any(e.text == f"{captain} takes a turn as the Captain of {team} (was {old})"
               for e in ruling.rounds[changed].events)


def test_turns_after_the_round_end_choose_face_up_cards() -> None:
    log = load("legal-custom-2x2.json")
    turns = log["rounds"][0]["turns"]
    turns.append({"chooser": "Ann", "guesser": "Ben", "position": {"row": 1, "column": 1},
                  "guess": {"number": 3}})
    first = rule_on(log).violations[0]
    assert (first.rule.id, first.move.index, first.move.pointer) == (
        cards.FACE_DOWN.id, 4, "/rounds/0/turns/3/position")


def test_solo_and_team_may_use_a_custom_difficulty() -> None:
    log = load("legal-custom-2x2.json")
    log.update(variant="solo", players=["Ann"], difficulty="custom")
    for rnd in log["rounds"]:
        rnd["first"] = "Ann"
        for turn in rnd["turns"]:
            turn.update(chooser="Ann", guesser="Ann")
            turn.pop("points", None)
            for pick in turn.get("chain", []):
                pick["chooser"] = "Ann"
    ruling = rule_on(log)
    assert ruling.violations == () and dict(ruling.final_scores) == {"Ann": 28}
    del log["difficulty"]
    assert {v.rule.id for v in rule_on(log).violations} == {cards.SETUP.id}


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"variant": "standard", "players": ["Ann"]}, "/players"),
        ({"variant": "5+", "players": ["Ann", "Ben", "Cat", "Dan"]}, "/players"),
        ({"variant": "solo", "players": ["Ann", "Ben"]}, "/players"),
        ({"variant": "team"}, ""),
        ({"format": "robot-memory/2"}, "/format"),
    ],
)
def test_variant_player_counts_are_checked_by_the_schema(
    change: dict[str, Any], pointer: str
) -> None:
    log = load("legal-custom-2x2.json")
    log.update(change)
    with pytest.raises(RecordError) as info:
        rule_on(log)
    assert info.value.pointer == pointer


def test_rule_quotes_are_verbatim() -> None:
    text = " ".join(RULEBOOK.read_text(encoding="utf-8").replace("*", "").split())
    for rule in cards.ALL_RULES:
        assert rule.quote in text, rule.id
    assert len({r.id for r in cards.ALL_RULES}) == len(cards.ALL_RULES)


@pytest.mark.parametrize(
    ("guess", "card", "solo", "points"),
    [
        (Guess(type="bulb", number=3), MemoryCard("bulb", "red", 3), False, 3),
        (Guess(type="bulb", number=2), MemoryCard("bulb", "red", 3), False, 0),
        (Guess(colour="red"), MemoryCard("bulb", "red", 3), False, 1),
        (Guess(type="bulb", colour="red", number=3), MemoryCard("bulb", "red", 3), False, 6),
        (Guess(colour="blue"), MemoryCard("bulb", "red", 3), False, 0),
        (Guess(short_circuit=True), MemoryCard("bulb", "red", 3), False, 0),
        (Guess(short_circuit=True), ShortCircuit(), False, 0),
        (Guess(short_circuit=True), ShortCircuit(), True, 1),
        (Guess(type="gear"), ShortCircuit(), True, 0),
        (Guess(), MemoryCard("bulb", "red", 3), False, 0),
    ],
)
def test_scoring(guess: Guess, card: MemoryCard | ShortCircuit, solo: bool, points: int) -> None:
    assert score(guess, card, solo=solo).points == points


# --- random games ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(VARIANTS))
def test_random_legal_games_replay_clean(rng: random.Random, variant: str) -> None:
    log = random_game(rng, variant=variant)
    ruling = rule_on(log)
    assert ruling.violations == ()
    assert len(ruling.rounds) == 3
    scores = dict(ruling.final_scores)
    # The final table is the sum of every event's points, and matches what the log recorded.
    summed = dict.fromkeys(scores, 0)
    for rnd in ruling.rounds:
        for event in rnd.events:
            for side, pts in event.points.items():
                summed[side] += pts
    assert summed == scores
    if variant == "solo":
        assert ruling.winners == []
    else:
        best = max(scores.values())
        assert list(ruling.winners) == [s for s, p in scores.items() if p == best]
        assert (len(ruling.winners) > 1) == bool(ruling.tie_break)


def _fresh(game: GameLog) -> GameLog:
    """``game`` with every card and guess a new object, equal to the one read_log shares."""
    def card(value: Place) -> Place:
        if isinstance(value, MemoryCard):
            return MemoryCard(value.type, value.colour, value.number)
        if isinstance(value, UnknownCard):
            return UnknownCard()
        return None if value is None else ShortCircuit()

    rounds = tuple(dataclasses.replace(
        rnd,
        grid=tuple(tuple(card(c) for c in row) for row in rnd.grid),
        turns=tuple(turn._replace(picks=tuple(pick._replace(guess=dataclasses.replace(pick.guess))
                                              for pick in turn.picks))
                    for turn in rnd.turns),
    ) for rnd in game.rounds)
    return dataclasses.replace(game, rounds=rounds)


def _replayed(game: GameLog) -> tuple[list[Any], list[Any], dict[str, int]]:
    replay = Replay(game)
    return replay.run(), replay.violations, replay.scores


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.json")
                                        if not p.name.startswith("malformed-")))
def test_replay_tables_do_not_depend_on_shared_cards_and_guesses(name: str) -> None:
    """The replay keys its tables on the cards and guesses read_log shares; a log built by hand
    from other, equal objects (two equal cards as two objects) rules the same."""
    game = read_log(load(name), source="test")
    assert _replayed(_fresh(game)) == _replayed(game)


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_tables_on_random_games(variant: str) -> None:
    game = read_log(random_game(random.Random(12), variant=variant), source="test")
    assert _replayed(_fresh(game)) == _replayed(game)


JSON_VALUES = json_values(
    ["Ann", "Ben", "Zed", "short-circuit", "red", "gear", "", "5+", "team"],
    ["row", "column", "type", "points", "x"], max_size=3, max_leaves=6,
)


@settings(max_examples=40, deadline=None)
@given(JSON_VALUES)
def test_garbage_raises_only_record_errors(value: Any) -> None:
    log = value if isinstance(value, dict) else {"format": "robot-memory/1", "rounds": value}
    with pytest.raises(RecordError):
        rule_on(log)


# --- the command line -------------------------------------------------------------------


def test_cli_text_legal() -> None:
    result = CliRunner().invoke(cli, ["adjudicate", "robot-memory",
                                      str(FIXTURES / "legal-standard-3p.json")])
    assert result.exit_code == 0, result.output
    assert "Winner: Cat wins" in result.output
    assert "Final: Ann 17, Ben 18, Cat 22" in result.output


def test_cli_text_illegal() -> None:
    result = CliRunner().invoke(cli, ["adjudicate", "robot-memory",
                                      str(FIXTURES / "illegal-pointing-player.json")])
    assert result.exit_code == 1
    assert "[robot-memory/pointing-player]" in result.output
    assert "The player on the left of the active player points" in result.output


def test_cli_json() -> None:
    result = CliRunner().invoke(cli, ["adjudicate", "robot-memory", "--format", "json",
                                      str(FIXTURES / "illegal-face-down.json")])
    assert result.exit_code == 1
    [doc] = json.loads(result.output)
    assert doc["outcome"] == "illegal"
    assert doc["violations"][0]["rule"]["id"] == cards.FACE_DOWN.id
    assert doc["violations"][0]["move"]["pointer"] == "/rounds/0/turns/4/position"


def test_cli_at() -> None:
    result = CliRunner().invoke(cli, ["adjudicate", "robot-memory", "--at", "2.3",
                                      str(FIXTURES / "legal-solo.json")])
    assert result.exit_code == 0, result.output
    assert "Round 2 after 3 turns" in result.output
