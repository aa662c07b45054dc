"""Dungeon in memory (game/1, solo/1): random playthroughs, perfect play, planted slips, the
exploration report and positions."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.analysis import analyse
from pathcheck.analysis.core import Mark
from pathcheck.analysis.positions import analyse_position
from pathcheck.errors import InputError
from pathcheck.games.dungeon.gen import random_game
from pathcheck.solo.play import answer_key
from pathcheck.tracer.check import LostCard, score_lost_cards
from pathcheck.tracer.dungeon import parse_notation
from pathcheck.tracer.tileset import load_tileset

from .plain import _leaving, plain_marks, plain_perfect_turns, plain_verdicts


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5),
       rules=st.sets(st.sampled_from((1, 2, 3))))
def test_perfect_play_is_all_sound(seed: int, players: int, rules: set[int]) -> None:
    log = random_game(random.Random(seed), players=players, rules=rules, perfect=True)
    analysis = analyse(log, source="perfect")
    assert analysis.moves and {m.mark for m in analysis.moves} == {Mark.SOUND}
    assert all(s.accuracy == 100.0 for s in analysis.summaries)
    # under rule #1 one announcement a turn stands: the others, voided, come again at their
    # next chance (or the exploration ends first); one voided in their own perfect turn
    # because a player behind them spoke first (a turn marked one after the other) stands
    # later than a perfect memory's would, or is not judged (the log need not list it)
    fine = {"on-time", "no-chance", "held-on"} | ({"not-judged"} if 1 in rules else set())
    for e, exp in enumerate(analysis.explorations):
        turns = log["explorations"][e]["turns"]
        for a in exp.announcements:
            if a.verdict == "late":
                assert 1 in rules and a.perfect_turn is not None
                assert a.player in turns[a.perfect_turn - 1]["lost"]
                assert turns[a.perfect_turn - 1]["simultaneous"] is False
            else:
                assert a.verdict in fine


def test_a_missed_announcement_is_found_exactly() -> None:
    log = random_game(random.Random(11), players=3, perfect=True)
    exp = next(e for e in log["explorations"] if e["turns"][-1]["lost"])
    turn = exp["turns"][-1]
    t = len(exp["turns"])
    number = log["explorations"].index(exp) + 1
    keeper = turn["lost"][0]
    turn["lost"] = [p for p in turn["lost"] if p != keeper]  # keeper forgets to announce
    analysis = analyse(log, source="planted")
    slips = [(m.round, m.index, m.player, m.why) for m in analysis.moves if m.mark is Mark.SLIP]
    assert (number, t, keeper, "missed: the path is Lost") in slips
    assert [s for s in slips if s[0] == number] == [(number, t, keeper, "missed: the path is Lost")]
    report = analysis.explorations[number - 1]
    assert next(a for a in report.announcements if a.player == keeper).verdict == "missed"


def test_an_early_announcement_is_a_slip_of_rule_i() -> None:
    log = random_game(random.Random(3), players=3, perfect=True)
    exp = log["explorations"][0]
    first = exp["turns"][0]
    other = next(p for p in log["players"] if p != first["player"])
    if first["lost"]:
        pytest.skip("the first tile made the path Lost in this deal")  # pragma: no cover
    first["lost"] = [other]
    analysis = analyse(log, source="planted")
    slip = next(m for m in analysis.moves if m.mark in (Mark.SLIP, Mark.HARMLESS))
    assert (slip.round, slip.index, slip.player, slip.rule and slip.rule.id) == (
        1, 1, other, "dungeon/check-I")
    perfect = next(a for a in analysis.explorations[0].announcements if a.player == other)
    assert slip.cost == perfect.perfect_points  # what staying on would have scored
    assert next(a for a in analysis.explorations[0].announcements
                if a.player == other).verdict == "too-early"


def _key_log(seed: int, rules: tuple[int, ...] = ()) -> dict[str, Any]:
    deck = load_tileset().deck_ids(False)
    random.Random(seed).shuffle(deck)
    key = answer_key(["START", *deck], rules=rules)
    return {"format": "solo/1", "rules": list(rules),
            "dungeons": [[{"tile": p.tile, "dir": p.dir.name} for p in d.placements]
                         for d in key]}


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sets(st.sampled_from((2, 3))))
def test_solo_answer_keys_are_all_sound_and_spoilt_ones_agree(seed: int, rules: set[int]) -> None:
    log = _key_log(seed, tuple(sorted(rules)))
    analysis = analyse(log, source="key")
    assert {m.mark for m in analysis.moves} == {Mark.SOUND}
    assert len(analysis.moves) == sum(len(d) for d in log["dungeons"]) - 1
    spoilt = copy.deepcopy(log)
    rng = random.Random(seed)
    dungeons = spoilt["dungeons"]
    assert isinstance(dungeons, list)
    if len(dungeons) > 1:  # join two dungeons: a late (or premature) move
        k = rng.randrange(len(dungeons) - 1)
        dungeons[k:k + 2] = [dungeons[k] + dungeons[k + 1]]
    ours = [(m.round, m.index, m.player, m.mark.value) for m in analyse(spoilt, source="s").moves]
    assert ours == [m[:4] for m in plain_marks(spoilt)]


def test_a_misplaced_solo_tile_is_found_exactly() -> None:
    log = _key_log(5)
    dungeons = log["dungeons"]
    assert isinstance(dungeons, list)
    tile = dungeons[0][2]
    tile["dir"] = {"N": "S", "S": "N", "E": "W", "W": "E"}[tile["dir"]]
    slips = [(m.round, m.index, m.why) for m in analyse(log, source="s").moves
             if m.mark is Mark.SLIP]
    assert slips[0] == (1, 3, "misplaced")


def test_position_hand_and_chance() -> None:
    result = analyse_position(parse_notation("START@N R1@N R2@E R3@S I4@W R4@W R5@N"),
                              ["R6", "L1"])
    assert result.heading == "E"
    assert [(h.placement, h.goes_on, h.reason, h.lost_tile) for h in result.hand] == [
        ("R6@E", False, "dead-end", 8), ("L1@E", True, None, None)]
    assert (result.unseen, result.lost_next) == (25, 15)
    assert result.chance_lost == round(15 / 25, 4)


def test_position_errors_name_the_tile() -> None:
    with pytest.raises(InputError, match="R1 is given twice"):
        analyse_position(parse_notation("START@N R1@N"), ["R1"])
    with pytest.raises(InputError, match="unknown tile 'Q9'"):
        analyse_position(parse_notation("START@N"), ["Q9"])
    with pytest.raises(InputError, match="RE1 is not in play"):
        analyse_position(parse_notation("START@N"), ["RE1"])


def _fixture(name: str) -> dict[str, Any]:
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "fixtures" / "dungeon" / name
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def test_rule_1_a_player_outranked_in_a_turn_could_not_announce() -> None:
    # Exploration 1, turn 3: Bob lays the tile that makes the path Lost; Ann and Cy announce,
    # Cy (next after Bob) has priority, Ann's announcement is void; Dee stays. Dee comes
    # after Cy in turn order: an announcement of Dee's would have been void too.
    log = _fixture("legal-4p-advanced-rules-1-2.json")
    analysis = analyse(log, source="rule-1")
    dee = next(m for m in analysis.moves if (m.round, m.index, m.player) == (1, 3, "Dee"))
    assert (dee.mark, dee.rule and dee.rule.id) == (Mark.SOUND, "dungeon/rule-1-priority")
    assert dee.why.startswith("Cy announced Lost with priority")
    report = {a.player: a for a in analysis.explorations[0].announcements}
    # turn 3 was Cy's; Dee lays turn 4; the first turn each could still announce in:
    assert (report["Ann"].perfect_turn, report["Dee"].perfect_turn) == (4, 5)
    assert report["Cy"].verdict == "on-time"
    # without rule #1 every player may announce in turn 3, and Dee's staying is a slip
    log["rules"] = [2]
    free = analyse(log, source="no-rule-1")
    dee = next(m for m in free.moves if (m.round, m.index, m.player) == (1, 3, "Dee"))
    assert (dee.mark, dee.why) == (Mark.SLIP, "missed: the path is Lost")
    assert {a.player: a.perfect_turn for a in free.explorations[0].announcements}["Dee"] == 3


def test_rule_1_a_player_before_the_one_that_stood_had_priority() -> None:
    # Exploration 2, turn 7: Dee lays the Lost tile, Cy announces; Ann comes before Cy in
    # turn order after Dee, so Ann's announcement would have stood: turn 7 is her perfect
    # turn. Whether she spoke after Cy (void) the log need not say: not judged.
    analysis = analyse(_fixture("legal-4p-advanced-rules-1-2.json"), source="rule-1")
    assert not [m for m in analysis.moves if (m.round, m.index, m.player) == (2, 7, "Ann")]
    assert "2.7 Ann" in analysis.notes[0]
    report = {a.player: a for a in analysis.explorations[1].announcements}
    assert (report["Ann"].verdict, report["Ann"].perfect_turn) == ("not-judged", 7)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5),
       rules=st.sets(st.sampled_from((1, 2, 3))))
def test_perfect_turns_agree_with_the_plain_ones(seed: int, players: int,
                                                 rules: set[int]) -> None:
    log = random_game(random.Random(seed), players=players, rules=rules)
    analysis = analyse(log, source="random")
    ours = [{a.player: a.perfect_turn for a in exp.announcements}
            for exp in analysis.explorations]
    assert ours == plain_perfect_turns(log)
    for exp in analysis.explorations:  # the perfect card scored with the others as they lay
        cards = [LostCard(a.player, a.announced_turn + 1) for a in exp.announcements
                 if a.announced_turn is not None]
        for a in exp.announcements:
            others = [c for c in cards if c.player != a.player]
            if a.perfect_turn is not None:
                others.append(LostCard(a.player, a.perfect_turn + 1))
            if exp.lost_tile is None or a.perfect_turn is not None:
                expected = score_lost_cards(exp.lost_tile, others, log["players"])
                assert a.perfect_points == expected.points[a.player]
            else:
                assert a.perfect_points == 0


@pytest.mark.parametrize("name", ["legal-4p-advanced-rules-1-2.json",
                                  "legal-5p-basic-rules-1-2-3.json", "legal-3p-basic.json"])
def test_perfect_turns_of_fixtures_agree_with_the_plain_ones(name: str) -> None:
    log = _fixture(name)
    ours = [{a.player: a.perfect_turn for a in exp.announcements}
            for exp in analyse(log, source=name).explorations]
    assert ours == plain_perfect_turns(log)


def test_rule_1_a_voided_player_who_passes_over_a_later_chance_missed_it() -> None:
    for seed in range(200):  # a perfect game in which a voided announcer stood a turn later
        log = random_game(random.Random(seed), players=4, rules={1}, perfect=True)
        analysis = analyse(log, source="planted")
        found = [(e, a) for e, exp in enumerate(analysis.explorations)
                 for a in exp.announcements
                 if a.verdict == "on-time" and a.announced_turn is not None
                 and log["explorations"][e]["turns"][a.announced_turn - 1]["lost"] == [a.player]
                 and any(a.player in turn["lost"]
                         for turn in log["explorations"][e]["turns"][:a.announced_turn - 1])]
        if found:
            break
    e, again = found[0]
    assert again.announced_turn is not None
    turns = log["explorations"][e]["turns"]
    for turn in turns[again.announced_turn - 1:]:  # never announces again after being voided
        turn["lost"] = [p for p in turn["lost"] if p != again.player]
    planted = analyse(log, source="planted")
    verdict = next(a for a in planted.explorations[e].announcements if a.player == again.player)
    assert (verdict.verdict, verdict.perfect_turn) == ("missed", again.perfect_turn)
    slip = next(m for m in planted.moves if m.mark in (Mark.SLIP, Mark.HARMLESS))
    assert (slip.round, slip.index, slip.player) == (e + 1, again.perfect_turn, again.player)
    assert slip.cost == verdict.perfect_points


def _spoken_second(dee_speaks: bool) -> dict[str, Any]:
    """Cy's tile makes the path Lost; Ann speaks first and stands (one after the other);
    Dee, first after Cy in turn order, speaks second or not at all."""
    return {"format": "game/1", "players": ["Ann", "Bob", "Cy", "Dee"], "rules": [1],
            "explorations": [{"start_player": "Ann", "turns": [
                {"player": "Ann", "tile": "I9", "dir": "N", "lost": []},
                {"player": "Bob", "tile": "L8", "dir": "N", "lost": []},
                {"player": "Cy", "tile": "X2", "dir": "N",
                 "lost": ["Ann", "Dee"] if dee_speaks else ["Ann"], "simultaneous": False},
                {"player": "Dee", "tile": "I5", "dir": "W", "lost": ["Cy", "Bob"]}]}]}


@pytest.mark.parametrize("dee_speaks", [True, False])
def test_rule_1_turn_order_decides_a_perfect_turn_whether_or_not_one_spoke(
        dee_speaks: bool) -> None:
    analysis = analyse(_spoken_second(dee_speaks), source="rule-1")
    dee = next(a for a in analysis.explorations[0].announcements if a.player == "Dee")
    # Dee comes before Ann in turn order after Cy: at once, Dee's announcement would stand
    assert (dee.perfect_turn, dee.perfect_points) == (3, 1)
    # Dee may have spoken second (void) or not at all: a log may list only Ann's, so the
    # analysis does not judge it either way
    assert (dee.verdict, dee.rule and dee.rule.id) == ("not-judged", "dungeon/rule-1-priority")
    assert not [m for m in analysis.moves if (m.round, m.index, m.player) == (1, 3, "Dee")]
    assert analysis.notes == ("not judged: 1.3 Dee: under additional rule #1 another player's "
                              "announcement stood, and a log may list only that one "
                              "(adjudicate decision 3), so whether they announced too is not "
                              "known",)
    # Bob, after Ann in turn order, could not have announced: sound either way
    bob = next(m for m in analysis.moves if (m.round, m.index, m.player) == (1, 3, "Bob"))
    assert (bob.mark, bob.rule and bob.rule.id) == (Mark.SOUND, "dungeon/rule-1-priority")


def _short(log: dict[str, Any]) -> dict[str, Any]:
    """``log`` with each turn listing only the announcement that stood (the flag left out)."""
    short = copy.deepcopy(log)
    for exp in short["explorations"]:
        left: set[str] = set()
        for turn in exp["turns"]:
            stood = _leaving(short["players"], turn, set(short["players"]) - left,
                             frozenset(short["rules"]))
            turn["lost"] = stood
            turn.pop("simultaneous", None)
            left |= set(stood)
    return short


def _comparable(log: dict[str, Any]) -> tuple[Any, ...]:
    """The analysis of ``log`` but for what the log records of each move (its text and
    pointer): what a turn listing only the standing announcement cannot say."""
    analysis = analyse(log, source="both-ways")
    moves = [(m.round, m.index, m.player, m.best, m.mark, m.why, m.rule, m.chance)
             for m in analysis.moves]
    return (moves, analysis.summaries, analysis.explorations, analysis.winners,
            analysis.final_scores, analysis.notes)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 5), perfect=st.booleans())
def test_rule_1_the_analysis_is_the_same_whichever_way_a_turn_is_recorded(
        seed: int, players: int, perfect: bool) -> None:
    log = random_game(random.Random(seed), players=players, rules={1, 2}, perfect=perfect)
    short = _short(log)
    assert _comparable(short) == _comparable(log)
    assert plain_verdicts(short) == plain_verdicts(log)


def test_rule_1_both_ways_by_hand() -> None:
    full, short = _spoken_second(True), _spoken_second(False)
    assert _comparable(full) == _comparable(short)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), perfect=st.booleans(),
       rules=st.sets(st.sampled_from((1, 2, 3))))
def test_verdicts_agree_with_the_plain_ones(seed: int, players: int, perfect: bool,
                                            rules: set[int]) -> None:
    log = random_game(random.Random(seed), players=players, rules=rules, perfect=perfect)
    ours = [{a.player: a.verdict for a in exp.announcements}
            for exp in analyse(log, source="verdicts").explorations]
    assert ours == plain_verdicts(log)


@pytest.mark.parametrize("rules", [[], [1]])
def test_an_ignored_announcement_by_the_active_player_is_no_chance_not_voided(
        rules: list[int]) -> None:
    # Ann's own tile makes the path Lost and the log ends: her announcement is ignored (the
    # active player does not announce, adjudicate decision 5), and she had no turn to speak
    log = {"format": "game/1", "players": ["Ann", "Bob"], "rules": rules,
           "explorations": [{"start_player": "Ann", "turns": [
               {"player": "Ann", "tile": "R1", "dir": "E", "lost": ["Bob", "Ann"]}]}]}
    exp = analyse(log, source="active").explorations[0]
    verdicts = {a.player: (a.verdict, a.perfect_turn, a.rule and a.rule.id)
                for a in exp.announcements}
    assert exp.lost_turn == 1
    assert verdicts == {"Ann": ("no-chance", None, "dungeon/check-II"),
                        "Bob": ("on-time", 1, "dungeon/check-II")}
