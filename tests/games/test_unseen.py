"""What was not seen may be left out: deal-less dungeon games, Memoarrr! cards never revealed."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import notation
from pathcheck.games.dungeon.adjudicator import rule_game
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.memoarrr.texts import TREASURES_UNKNOWN
from pathcheck.render.words import counted
from pathcheck.ruling import render_text

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(
    p for p in (ROOT / "fixtures" / "dungeon").glob("*legal-*.json")
    if "solo" not in p.name and not any(
        word in p.name for word in ("illegal-deal", "illegal-draw", "illegal-from-hand")))


def without_deal(log: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    out = copy.deepcopy(log)
    for exploration in out["explorations"]:
        for key in ("hands", "deck"):
            if key not in keep:
                exploration.pop(key, None)
    return out


def violations(ruling: Any) -> list[tuple[str, str]]:
    return [(v.rule.id, v.move.pointer) for v in ruling.violations]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_dealless_fixture_rules_the_same(path: Path) -> None:
    log = json.loads(path.read_text(encoding="utf-8"))
    full = rule_game(log, source=path.name)
    less = rule_game(without_deal(log), source=path.name)
    assert less.outcome == full.outcome
    assert less.final_scores == full.final_scores and less.winners == full.winners
    assert [r.scores for r in less.rounds] == [r.scores for r in full.rounds]
    assert set(violations(less)) <= set(violations(full))
    if full.outcome.value == "legal":
        assert violations(less) == []
    unchecked = [n for n in less.notes if n.startswith("not checked")]
    assert len(unchecked) == 1 and "the deal was not recorded" in unchecked[0]
    assert "dungeon/deal (hand sizes" in unchecked[0] and "dungeon/draw" in unchecked[0]
    assert not any(n.startswith("not checked") for n in full.notes)


def test_dealless_notation_game_lists_unchecked_rules() -> None:
    text = (ROOT / "fixtures" / "dungeon" / "legal-3p-basic.pcn").read_text(encoding="utf-8")
    kept = "\n".join(x for x in text.splitlines() if not x.startswith(("hand ", "deck ")))
    log = notation.parse(kept, source="dealless.pcn")
    assert all("hands" not in e and "deck" not in e for e in log["explorations"])
    ruling = rule_game(log, source="dealless.pcn")
    shown = render_text(ruling)
    assert "Verdict: legal" in shown and "Winner: Cy wins" in shown
    assert "Note: not checked in explorations 1, 2, 3: dungeon/deal (hand sizes" in shown


@pytest.mark.parametrize("keep", [("hands",), ("deck",)])
def test_half_a_deal_checks_what_it_can(keep: tuple[str, ...]) -> None:
    log = json.loads((ROOT / "fixtures" / "dungeon" / "legal-3p-basic.json").read_text())
    ruling = rule_game(without_deal(log, keep), source="half")
    assert ruling.outcome.value == "legal"
    what = "the deck was not recorded" if keep == ("hands",) else "the hands were not recorded"
    assert any(what in n for n in ruling.notes)


def test_dealless_still_catches_a_tile_placed_twice_and_a_draw_from_an_empty_deck() -> None:
    log = {"format": "game/1", "players": ["Ann", "Bob"], "explorations": [
        {"start_player": "Ann", "turns": [
            {"player": "Ann", "tile": "R1", "dir": "N", "lost": []},
            {"player": "Bob", "tile": "R1", "dir": "N", "lost": ["Ann"]}]}]}
    ruling = rule_game(log, source="twice")
    assert ruling.violations[0].rule.id == "dungeon/from-hand"
    assert "already lies in the dungeon" in ruling.violations[0].message


def test_dealless_exploration_ends_when_the_hands_run_out() -> None:
    # two players, basic: 3 tiles each, 48 - 6 = ... the deck runs out, then the hands
    log = random_game(random.Random(7), players=2, accuracy=1.0)
    full = rule_game(log, source="full")
    less = rule_game(without_deal(log), source="less")
    assert [r.title for r in less.rounds] == [r.title for r in full.rounds]
    assert less.final_scores == full.final_scores


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), advanced=st.booleans(),
       accuracy=st.floats(0.5, 1.0))
def test_random_games_without_the_deal_rule_the_same(seed: int, players: int, advanced: bool,
                                                     accuracy: float) -> None:
    log = random_game(random.Random(seed), players=players, advanced=advanced, accuracy=accuracy)
    full = rule_game(log, source="full")
    less = rule_game(without_deal(log), source="less")
    assert full.outcome.value == less.outcome.value == "legal"
    assert less.final_scores == full.final_scores and less.winners == full.winners
    assert [r.title for r in less.rounds] == [r.title for r in full.rounds]


MEMOARRR = sorted(p for p in (ROOT / "fixtures" / "memoarrr").glob("*.json")
                  if not p.name.startswith("malformed"))


def _memoarrr(log: dict[str, Any]) -> Any:
    from pathcheck.games import AdjudicateOptions
    from pathcheck.games.memoarrr.adjudicator import ADJUDICATOR

    return ADJUDICATOR.adjudicate(log, source="m", options=AdjudicateOptions())


@pytest.mark.parametrize("path", MEMOARRR, ids=lambda p: p.name)
def test_memoarrr_with_only_the_cards_seen_rules_the_same(path: Path) -> None:
    log = json.loads(path.read_text(encoding="utf-8"))
    text = notation.write(log)
    seen_only = notation.parse("\n".join(x for x in text.splitlines()
                                         if not x.startswith("row")), source="seen.pcn")
    full, less = _memoarrr(log), _memoarrr(seen_only)
    assert violations(less) == violations(full)
    assert less.final_scores == full.final_scores and less.winners == full.winners
    unseen = sum(card is None for row in seen_only["island"] for card in row) - 1
    notes = [n for n in less.notes if n.startswith("not checked")
             and n != TREASURES_UNKNOWN]  # a log recorded without the treasure stack
    assert notes == ([f"not checked: that the island holds each card once, for the "
                      f"{counted(unseen, 'card')} never revealed: the log leaves "
                      f"{'it' if unseen == 1 else 'them'} out (null)"] if unseen else [])


def test_memoarrr_a_revealed_card_must_be_named() -> None:
    from pathcheck.errors import RecordError

    log = json.loads((ROOT / "fixtures" / "memoarrr" / "legal-2p-2023.json").read_text())
    first = log["rounds"][0]["actions"][0]["reveal"]  # D4
    log["island"][int(first[1]) - 1]["ABCDE".index(first[0])] = None
    with pytest.raises(RecordError) as info:
        _memoarrr(log)
    assert info.value.pointer == "/island/3/3" and "revealed in round 1, action 1" in str(
        info.value)
