"""Robot memory logs with cards not recorded (``"unknown"``, ``?`` in the notation): what the
replay still checks, what it scores, and the ruling's "not checked" notes (issue 22, point 9)."""

from __future__ import annotations

import copy
import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pathcheck import notation
from pathcheck.games import AdjudicateOptions
from pathcheck.games.robot_memory import rules
from pathcheck.games.robot_memory.adjudicator import ADJUDICATOR
from pathcheck.games.robot_memory.gen import random_game
from pathcheck.ruling import Ruling, render_text

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "robot-memory"
cli = importlib.import_module("pathcheck.cli").cli  # cli/ is mapped onto pathcheck.cli


def rule_on(log: dict[str, Any]) -> Ruling:
    return ADJUDICATOR.adjudicate(copy.deepcopy(log), source="test",
                                  options=AdjudicateOptions())


def load(name: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return log


def one_round(cards: list[list[Any]], turns: list[dict[str, Any]],
              variant: str = "custom") -> dict[str, Any]:
    return {"format": "robot-memory/1", "variant": variant, "players": ["Ann", "Ben"],
            "rounds": [{"grid": {"rows": len(cards), "columns": len(cards[0]),
                                 "cards": cards}, "first": "Ann", "turns": turns}]}


def broken(ruling: Ruling) -> list[str]:
    """The rules a one-round log breaks, besides being one round."""
    return [v.rule.id for v in ruling.violations if v.rule is not rules.THREE_ROUNDS]


def pick(chooser: str, guesser: str, row: int, column: int, guess: Any,
         **more: Any) -> dict[str, Any]:
    return {"chooser": chooser, "guesser": guesser, "position": {"row": row, "column": column},
            "guess": guess, **more}


BULB = {"type": "bulb", "colour": "red", "number": 3}


def test_the_fixture_scores_as_its_known_twin_and_names_what_it_could_not_check() -> None:
    known, unknown = rule_on(load("legal-standard-2p.json")), \
        rule_on(load("legal-cards-unknown.json"))
    assert unknown.final_scores == known.final_scores and unknown.violations == ()
    notes = [n for n in unknown.notes if n.startswith("not checked")]
    assert [n.split(":")[0] for n in notes] == ["not checked in round 1",
                                                "not checked in round 3"]
    assert notes[0].endswith("3 cards not recorded (r1c1, r1c4, r3c4)")
    for rule in (rules.DISTINCT_CARDS, rules.SHORT_CIRCUIT_SUPPLY, rules.SETUP, rules.SCORING,
                 rules.CHAIN):
        assert rule.id in notes[0]
    assert "of move 7 on r3c4, of move 8 on r1c4, of move 13 on r1c1" in notes[0]
    assert rules.CHAIN.id not in notes[1]  # no short circuit named on a card not recorded
    assert not any(n.startswith("not checked") for n in known.notes)
    assert notes[0] in render_text(unknown)


def test_a_guess_on_a_card_not_recorded_scores_the_points_recorded() -> None:
    log = one_round([["unknown", "unknown"]],
                    [pick("Ben", "Ann", 1, 1, {"colour": "red", "number": 3}, points=3),
                     pick("Ann", "Ben", 1, 2, {"type": "gear"})])
    ruling = rule_on(log)
    assert ruling.final_scores == {"Ann": 3, "Ben": 0} and broken(ruling) == []
    events = [e for e in ruling.rounds[0].events if e.move is not None]
    assert events[0].text == ('Ben points at r1c1 for Ann; Ann names "3 red"; it is not '
                              'recorded: not checked, 3 points (as recorded)')
    assert events[1].text.endswith("not checked, 0 points (none recorded)")
    assert events[0].rule is None  # no rule decided it


def test_what_a_card_not_recorded_still_lets_the_replay_check() -> None:
    log = one_round([["unknown", "unknown"]],
                    [pick("Ben", "Ann", 1, 1, {}),
                     pick("Ben", "Ben", 1, 1, {"type": "gear"})])
    assert broken(rule_on(log)) == [rules.GUESS_FEATURE.id, rules.POINTING_PLAYER.id,
                                    rules.FACE_DOWN.id, rules.ROUND_END.id]


def test_a_short_circuit_named_on_a_card_not_recorded_may_be_followed() -> None:
    chained = pick("Ben", "Ann", 1, 1, "short-circuit", points=0,
                   chain=[{"chooser": "Ann", "position": {"row": 1, "column": 2},
                           "guess": BULB, "points": 6}])
    ruling = rule_on(one_round([["unknown", BULB]], [chained]))
    assert broken(ruling) == [] and ruling.final_scores == {"Ann": 6, "Ben": 0}
    assert rules.CHAIN.id in ruling.notes[0]
    wrong = copy.deepcopy(chained)
    wrong["guess"] = {"type": "gear"}
    assert broken(rule_on(one_round([["unknown", BULB]], [wrong]))) == [rules.CHAIN.id]


def test_basic_setup_counts_with_cards_not_recorded() -> None:
    log = random_game(random.Random(5), variant="standard")
    cards = log["rounds"][0]["grid"]["cards"]
    cards[0][0] = "unknown"
    assert [v.rule.id for v in rule_on(log).violations] == []
    four_shorts = [c for row in cards for c in row if c == "short-circuit"]
    assert len(four_shorts) <= 3
    memory = [(r, c) for r, row in enumerate(cards) for c, card in enumerate(row)
              if isinstance(card, dict)]
    r, c = memory[0]
    cards[r][c] = "short-circuit"  # 4 short circuits known: more than the basic setup's 3
    assert rules.SETUP.id in [v.rule.id for v in rule_on(log).violations]


def test_five_players_need_room_for_two_short_circuits() -> None:
    log = random_game(random.Random(3), variant="custom", players=5, layout=(3, 3, 8, 1))
    for rnd in log["rounds"]:
        grid = rnd["grid"]["cards"]
        short = next((r, c) for r, row in enumerate(grid) for c, card in enumerate(row)
                     if card == "short-circuit")
        memory = next((r, c) for r, row in enumerate(grid) for c, card in enumerate(row)
                      if isinstance(card, dict))
        grid[short[0]][short[1]] = grid[memory[0]][memory[1]] = "unknown"
        for turn in rnd["turns"]:
            for p in [turn, *turn.get("chain", ())]:
                p.pop("points", None)
    ruling = rule_on(log)
    assert rules.FIVE_PLUS_SHORT_CIRCUITS.id not in [v.rule.id for v in ruling.violations]
    assert rules.FIVE_PLUS_SHORT_CIRCUITS.id in ruling.notes[0]


def test_cards_named_when_revealed_in_the_notation() -> None:
    text = ("#! robot-memory/1\nvariant: custom\nplayers: Ann Ben\nround 1x3 first Ann\n"
            "Ben Ann r1c2 bulb/red =3 is bulb/red/3\nAnn Ben r1c1 gear =0 is ?\n")
    log = notation.parse(text, source="t.pcn")
    assert log["rounds"][0]["grid"]["cards"] == [["unknown", BULB, "unknown"]]
    ruling = rule_on(log)
    assert ruling.final_scores == {"Ann": 3, "Ben": 0}
    assert ruling.notes[0].endswith("2 cards not recorded (r1c1, r1c3)")
    known = text.replace("Ben Ann", "row ? bulb/red/3 gear/blue/1\nBen Ann", 1)
    assert notation.parse(known.replace("is bulb/red/3", "is ?"), source="t.pcn") == \
        notation.parse(known, source="t.pcn")  # "is ?": nobody noted what the grid knows
    for bad, message in (("Ben Ann r1c2 bulb is", "after 'is'"),
                         ("Ben Ann r1c2 bulb is gear/red/3\nAnn Ben r1c2 3 is bulb/red/3",
                          "r1c2 is gear/red/3 in the grid")):
        try:
            notation.parse(text.split("Ben Ann")[0] + bad + "\n", source="t.pcn")
        except notation.NotationError as exc:
            assert message in str(exc) and "t.pcn:" in str(exc)
        else:
            raise AssertionError(bad)


@pytest.mark.parametrize(("tail", "where"), [
    ("is colour=x", "t.pcn:5: /rounds/0/grid/cards/0/0/colour"),
    ("is $[1]", "t.pcn:5: /rounds/0/grid/cards/0/0"),
    ("is $null", "t.pcn:5: /rounds/0/turns/0/position: no card at r1c1"),
    ("is r1c1", "t.pcn:5:22: 'r1c1': expected short-circuit or type/colour/number"),
    ("is ? is ?", "t.pcn:5:24: 'is': expected '+ CHOOSER rRcC GUESS'"),
    ("=1 is bulb/red/3 + Ann r9c9 3 is gear/red/1", "/chain/0/position: r9c9 is off"),
])
def test_a_bad_card_revealed_is_one_line_naming_the_turn(tmp_path: Path, tail: str,
                                                         where: str) -> None:
    path = tmp_path / "t.pcn"
    path.write_text("#! robot-memory/1\nvariant: custom\nplayers: Ann Ben\n"
                    f"round 1x2 first Ann\nBen Ann r1c1 bulb {tail}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["adjudicate", str(path)])
    assert result.exit_code == 3, result.output
    assert where in result.output and len(result.output.strip().splitlines()) == 1
