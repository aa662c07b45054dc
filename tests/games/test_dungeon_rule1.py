"""Additional rule #1: simultaneous LOST announcements by turn order, announcements one after
the other in the same turn keep the first (the log says which with "simultaneous")."""

from __future__ import annotations

from typing import Any

import pytest

from pathcheck import notation
from pathcheck.games.dungeon.adjudicator import rule_game
from pathcheck.games.dungeon.rules import PRIORITY


def _log(together: bool | None, rules: tuple[int, ...] = (1,)) -> dict[str, Any]:
    turn: dict[str, Any] = {"player": "Ann", "tile": "R1", "dir": "N", "lost": ["Cy", "Bob"]}
    if together is not None:
        turn["simultaneous"] = together
    return {"format": "game/1", "players": ["Ann", "Bob", "Cy"], "rules": list(rules),
            "explorations": [{"start_player": "Ann", "turns": [turn]}]}


def _stood(log: dict[str, Any]) -> tuple[list[str], list[str]]:
    ruling = rule_game(log, source="rule1")
    events = ruling.rounds[0].events
    lost = [t[1:] for t in ruling.rounds[0].display.split() if t.startswith("!")]  # cards laid
    return lost, [e.text for e in events if e.rule == PRIORITY]


@pytest.mark.parametrize("together", [True, None])
def test_simultaneous_announcements_go_by_turn_order(together: bool | None) -> None:
    lost, priority = _stood(_log(together))
    assert lost == ["Bob"]
    assert priority == ["Cy also announced Lost: void, Bob is the earliest in turn order after "
                        "Ann; Cy stays in the team"]


def test_announcements_one_after_the_other_keep_the_first() -> None:
    lost, priority = _stood(_log(False))
    assert lost == ["Cy"]
    assert priority == ["Bob announced Lost after Cy in the same turn: void, only one player "
                        "may announce Lost in a turn; Bob stays in the team"]


def test_without_rule_1_everyone_listed_leaves_either_way() -> None:
    assert _stood(_log(False, rules=()))[0] == _stood(_log(True, rules=()))[0] == ["Cy", "Bob"]


@pytest.mark.parametrize(("mark", "together"), [("!=", True), ("!>", False), ("", None)])
def test_the_notation_marks_the_turn(mark: str, together: bool | None) -> None:
    text = ("#! game/1\nplayers: Ann Bob Cy\nrules: 1\nexploration Ann\n"
            f"Ann R1@N !Cy !Bob{' ' + mark if mark else ''}\n")
    log = notation.parse(text, source="m.pcn")
    turn = log["explorations"][0]["turns"][0]
    assert turn.get("simultaneous") == together and list(turn)[-1] == (
        "simultaneous" if mark else "lost")
    assert notation.write(log) == text


def test_a_player_named_like_the_mark_is_quoted() -> None:
    log = {"format": "game/1", "players": ["Ann", "="], "explorations": [
        {"start_player": "Ann", "turns": [
            {"player": "Ann", "tile": "R1", "dir": "N", "lost": ["="], "simultaneous": False}]}]}
    text = notation.write(log)
    assert '!"=" !>' in text
    assert notation.parse(text, source="q.pcn")["explorations"] == log["explorations"]


def test_a_second_mark_is_an_error() -> None:
    with pytest.raises(notation.NotationError, match="a second '!=' or '!>'"):
        notation.parse("#! game/1\nplayers: Ann Bob Cy\nexploration Ann\nAnn R1@N !Cy !Bob != !>\n",
                       source="m.pcn")


def test_a_malformed_mark_value_survives_the_notation_and_is_refused() -> None:
    from pathcheck.errors import RecordError

    log = _log(None)
    log["explorations"][0]["turns"][0]["simultaneous"] = "yes"
    back = notation.parse(notation.write(log), source="odd.pcn")
    assert back["explorations"][0]["turns"] == log["explorations"][0]["turns"]
    with pytest.raises(RecordError, match="simultaneous"):
        rule_game(back, source="odd.pcn")
