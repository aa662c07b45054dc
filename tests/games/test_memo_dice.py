"""Tests of the Memo Dice adjudicator: fixtures with their exact rulings, random legal games
against the generator's own count, malformed logs, the CLI. What every game shares (fixtures
rule as named, fuzzing, --at) is in test_conformance.py."""

from __future__ import annotations

import importlib
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.errors import InputError, RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.common import Moment
from pathcheck.games.memo_dice import rules
from pathcheck.games.memo_dice.adjudicator import ADJUDICATOR, MemoDiceAdjudicator
from pathcheck.games.memo_dice.gen import game_scores, random_game
from pathcheck.ruling import Outcome, Ruling, render_text

# pathcheck.cli lives in cli/ (setuptools package-dir), which mypy cannot resolve statically.
cli = importlib.import_module("pathcheck.cli").cli
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memo-dice"
OPTIONS = AdjudicateOptions()


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def rule(name: str, options: AdjudicateOptions = OPTIONS) -> Ruling:
    return ADJUDICATOR.adjudicate(load(name), source=name, options=options)


# --- fixtures: exact rulings --------------------------------------------------------------

LEGAL: dict[str, tuple[dict[str, int], list[str]]] = {
    "legal-2p.json": ({"Linda": 23, "Nora": 17}, ["Linda"]),
    "legal-3p.json": ({"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"]),
    "legal-4p-no-dice.json": ({"Linda": 10, "Nora": 17, "Ronya": 19, "Otto": 20}, ["Otto"]),
    "legal-golden-by-colour.json": ({"Linda": 16, "Nora": 18, "Ronya": 22}, ["Ronya"]),
    "legal-golden-by-last-die.json": ({"Linda": 23, "Nora": 15}, ["Linda"]),
    "legal-short-game.json": ({"Linda": 21, "Nora": 4}, ["Linda"]),
    "legal-wrong-guess-chain.json": ({"Linda": 16, "Nora": 13, "Ronya": 23}, ["Ronya"]),
    "legal-tie.json": ({"Linda": 24, "Nora": 24}, ["Linda", "Nora"]),
    "legal-unfinished.json": ({"Linda": 7, "Nora": 5, "Ronya": 6}, []),
}

# name -> (final scores, winners, first violation: rule id, round, move index, player)
ILLEGAL: dict[str, tuple[dict[str, int], list[str], tuple[str, int, int, str]]] = {
    "illegal-turn-order.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"], ("memo-dice/turn-order", 1, 3, "Linda")
    ),
    "illegal-first-player.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"],
        ("memo-dice/first-player", 2, 1, "Nora"),
    ),
    "illegal-die-once.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"], ("memo-dice/die-once", 1, 2, "Nora")
    ),
    "illegal-roll-face.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"], ("memo-dice/roll-face", 1, 1, "Linda")
    ),
    "illegal-cup-colour.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"],
        ("memo-dice/cup-colour", 1, 1, "Linda"),
    ),
    "illegal-golden-no-cup.json": (
        {"Linda": 0, "Nora": 0, "Ronya": 0}, [], ("memo-dice/golden-no-cup", 1, 7, "Linda")
    ),
    "illegal-golden-last-die.json": (
        {"Linda": 0, "Nora": 0}, [], ("memo-dice/golden-last-die", 1, 9, "Nora")
    ),
    "illegal-covering-end.json": (
        {"Linda": 0, "Nora": 0, "Ronya": 0}, [], ("memo-dice/covering-end", 1, 8, "Nora")
    ),
    "illegal-covering-stops.json": (
        {"Linda": 0, "Nora": 0, "Ronya": 0}, [], ("memo-dice/covering-end", 1, 6, "Ronya")
    ),
    "illegal-uncover-start.json": (
        {"Linda": 17, "Nora": 17, "Ronya": 20}, ["Ronya"],
        ("memo-dice/uncover-start", 1, 8, "Nora"),
    ),
    "illegal-uncover-order.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"],
        ("memo-dice/uncover-order", 2, 10, "Ronya"),
    ),
    "illegal-right-guess.json": (
        {"Linda": 18, "Nora": 15, "Ronya": 21}, ["Ronya"],
        ("memo-dice/right-guess", 1, 9, "Nora"),
    ),
    "illegal-wrong-guess.json": (
        {"Linda": 19, "Nora": 15, "Ronya": 20}, ["Ronya"],
        ("memo-dice/wrong-guess", 1, 10, "Linda"),
    ),
    "illegal-uncover-all.json": (
        {"Linda": 16, "Nora": 16, "Ronya": 20}, ["Ronya"],
        ("memo-dice/uncover-all", 1, 13, "Linda"),
    ),
    "illegal-game-end.json": (
        {"Linda": 18, "Nora": 16, "Ronya": 20}, ["Ronya"], ("memo-dice/game-end", 7, 1, "Ronya")
    ),
}

MALFORMED: dict[str, str] = {
    "malformed-unknown-player.json": "/rounds/0/covering/2/player",
    "malformed-die-range.json": "/rounds/0/covering/0/die",
    "malformed-cup-range.json": "/rounds/0/uncovering/0/cup",
    "malformed-cup-colour.json": "/rounds/0/covering/0/cup",
    "malformed-guess-type.json": "/rounds/0/uncovering/0/guess",
    "malformed-too-many-players.json": "/players",
}


def test_every_fixture_is_listed() -> None:
    names = {p.name for p in FIXTURES.glob("*.json")}
    assert names == set(LEGAL) | set(ILLEGAL) | set(MALFORMED)


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_fixture(name: str) -> None:
    scores, winners = LEGAL[name]
    ruling = rule(name)
    assert ruling.outcome is Outcome.LEGAL
    assert ruling.violations == ()
    assert dict(ruling.final_scores) == scores
    assert list(ruling.winners) == winners
    assert ruling.rounds[-1].scores == scores
    # the generator's own count agrees with the adjudicator's
    assert game_scores(load(name)) == scores


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_fixture(name: str) -> None:
    scores, winners, (rule_id, rnd, index, player) = ILLEGAL[name]
    ruling = rule(name)
    assert ruling.outcome is Outcome.ILLEGAL
    first = ruling.violations[0]
    assert (first.rule.id, first.move.round, first.move.index, first.move.player) == (
        rule_id, rnd, index, player
    )
    assert first.rule in rules.ALL_RULES
    assert first.move.pointer.startswith(f"/rounds/{rnd - 1}/")
    assert dict(ruling.final_scores) == scores
    assert list(ruling.winners) == winners
    text = render_text(ruling)
    assert f"ILLEGAL: round {rnd}, move {index} ({player})" in text
    assert first.rule.quote in text


def test_each_violation_rule_has_an_illegal_fixture() -> None:
    cited = {ILLEGAL[name][2][0] for name in ILLEGAL}
    event_only = {rules.POINTS.id, rules.MOST_POINTS.id}
    assert cited == {r.id for r in rules.ALL_RULES} - event_only


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_fixture(name: str) -> None:
    with pytest.raises(RecordError) as info:
        rule(name)
    assert info.value.pointer == MALFORMED[name]
    assert info.value.source == name
    if name == "malformed-unknown-player.json":
        assert info.value.message == "unknown player 'Zed' (players: Linda, Nora, Ronya)"


# --- fixtures: what the edge cases show --------------------------------------------------


def test_golden_cup_forced_by_colour() -> None:
    first = rule("legal-golden-by-colour.json").rounds[0]
    golden = [e for e in first.events if e.rule is rules.GOLDEN_NO_CUP]
    assert len(golden) == 1
    assert golden[0].move is not None and golden[0].move.index == 5
    assert "no blue cup left" in golden[0].text or "no red cup left" in golden[0].text or (
        "no black cup left" in golden[0].text
    )


def test_golden_cup_for_the_last_die() -> None:
    first = rule("legal-golden-by-last-die.json").rounds[0]
    golden = [e for e in first.events if e.rule is rules.GOLDEN_LAST_DIE]
    assert len(golden) == 1
    assert golden[0].move is not None and golden[0].move.index == 9
    assert "no black cup" not in golden[0].text  # a cup of its colour was still left
    assert "  9  golden" in first.display


def test_chain_of_wrong_guesses_goes_round_the_table() -> None:
    log = load("legal-wrong-guess-chain.json")
    ruling = rule("legal-wrong-guess-chain.json")
    players = log["players"]
    guesses = log["rounds"][0]["uncovering"]
    assert len(guesses) > len(players)  # the chain passes every player at least once
    seats = [players.index(g["player"]) for g in guesses]
    assert all((b - a) % len(players) == 1 for a, b in itertools.pairwise(seats))
    wrong = [e for e in ruling.rounds[0].events if "goes to" in e.text]
    assert len(wrong) == len(guesses)
    # cup N went to the player after the one who guessed it
    rows = ruling.rounds[0].display.splitlines()[1:]
    for g, row in zip(guesses, rows, strict=True):
        receiver = players[(players.index(g["player"]) + 1) % len(players)]
        assert row.rstrip().endswith(f"{receiver} ({g['player']} was wrong)")


def test_tie_shares_the_win() -> None:
    ruling = rule("legal-tie.json")
    assert list(ruling.winners) == ["Linda", "Nora"]
    assert "tied on 24 points" in ruling.tie_break
    assert "Winner: Linda and Nora win (shared)" in render_text(ruling)


def test_unfinished_game_has_no_winner() -> None:
    ruling = rule("legal-unfinished.json")
    assert ruling.winners == ()
    assert any("not over" in n for n in ruling.notes)


def test_next_round_begins_with_the_golden_cup_holder() -> None:
    ruling = rule("legal-3p.json")
    log = load("legal-3p.json")
    for rnd, nxt in zip(ruling.rounds, log["rounds"][1:], strict=False):
        begins = [e for e in rnd.events if e.rule is rules.FIRST_PLAYER]
        assert begins and begins[0].text.startswith(nxt["covering"][0]["player"] + " had")


def test_rounds_after_the_end_do_not_count() -> None:
    ruling = rule("illegal-game-end.json")
    assert len(ruling.rounds) == 6
    assert ruling.notes == ("round 7 was not ruled on (replay stopped at the violation above)",)


def test_stopped_replay_says_so() -> None:
    ruling = rule("illegal-covering-end.json")
    assert any("not ruled on" in n for n in ruling.notes)
    assert len(ruling.rounds) == 1


def test_at_shows_the_row() -> None:
    ruling = rule("legal-3p.json", AdjudicateOptions(at="1.2"))
    assert "State at round 1, move 2" in ruling.display
    state = ruling.display.split("State at")[1].splitlines()
    assert len([line for line in state if "(covered)" in line]) == 2
    with pytest.raises(InputError, match=r"out of range; this log can show 1\.0-1\.14, "):
        rule("legal-3p.json", AdjudicateOptions(at="99.1"))
    with pytest.raises(InputError):
        Moment.parse("two")


def test_only_violation_of_the_swapped_cups() -> None:
    ruling = rule("illegal-uncover-order.json")
    assert [v.rule for v in ruling.violations] == [rules.UNCOVER_ORDER]
    events = ruling.rounds[1].events
    assert any(e.text.startswith("ILLEGAL: cup 2 is uncovered before cup 1") for e in events)


def test_guesses_ignore_case_and_spacing() -> None:
    log = load("legal-2p.json")
    for rnd in log["rounds"]:
        for guess in rnd["uncovering"]:
            if guess["guess"] is not None:
                guess["guess"] = "  " + guess["guess"].upper() + " "
    ruling = ADJUDICATOR.adjudicate(log, source="upper", options=OPTIONS)
    assert ruling.violations == ()
    assert dict(ruling.final_scores) == LEGAL["legal-2p.json"][0]


def test_duplicate_symbol_on_the_dice_is_malformed() -> None:
    log = load("legal-2p.json")
    log["dice"][8][5]["symbol"] = log["dice"][0][0]["symbol"].upper()
    with pytest.raises(RecordError) as info:
        ADJUDICATOR.adjudicate(log, source="dup", options=OPTIONS)
    assert info.value.pointer == "/dice/8/5/symbol"
    assert "die 1" in info.value.message


def test_rolls_match_the_faces_ignoring_case_and_spacing() -> None:
    log = load("legal-2p.json")
    for rnd in log["rounds"]:
        for roll in rnd["covering"]:
            roll["symbol"] = " " + roll["symbol"].upper().replace(" ", "  ")
    ruling = ADJUDICATOR.adjudicate(log, source="upper", options=OPTIONS)
    assert ruling.violations == ()
    assert dict(ruling.final_scores) == LEGAL["legal-2p.json"][0]


def test_same_dice_read_again_fail_the_same_way() -> None:
    # The dice of a log are checked once and remembered: a second log with the same faces
    # gets the same error, under its own name.
    log = load("legal-2p.json")
    log["dice"][3][2]["symbol"] = log["dice"][1][4]["symbol"]
    for source in ("first", "second"):
        with pytest.raises(RecordError) as info:
            ADJUDICATOR.adjudicate(log, source=source, options=OPTIONS)
        assert (info.value.source, info.value.pointer) == (source, "/dice/3/2/symbol")
        assert "die 2" in info.value.message


def test_unknown_player_in_the_uncovering_is_malformed() -> None:
    log = load("legal-3p.json")
    log["rounds"][1]["uncovering"][2]["player"] = "Zed"
    with pytest.raises(RecordError) as info:
        ADJUDICATOR.adjudicate(log, source="zed", options=OPTIONS)
    assert info.value.pointer == "/rounds/1/uncovering/2/player"
    assert info.value.message.startswith("unknown player 'Zed'")


def test_wrong_format_is_malformed() -> None:
    log = load("legal-2p.json")
    log["format"] = "memoarrr/1"
    with pytest.raises(RecordError) as info:
        ADJUDICATOR.adjudicate(log, source="fmt", options=OPTIONS)
    assert info.value.pointer == "/format"


def test_rules_are_distinct_and_quoted() -> None:
    ids = [r.id for r in rules.ALL_RULES]
    assert len(ids) == len(set(ids))
    assert all(r.id.startswith("memo-dice/") and r.quote and r.section for r in rules.ALL_RULES)


def test_plugin_is_registered() -> None:
    adjudicator = games.load("memo-dice")
    assert isinstance(adjudicator, MemoDiceAdjudicator)
    assert adjudicator == ADJUDICATOR
    assert isinstance(games.for_format("memo-dice/1"), MemoDiceAdjudicator)
    assert adjudicator.schemas == ("memo-dice",)


# --- random legal games -------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), with_dice=st.booleans())
def test_random_legal_games_replay_clean(seed: int, players: int, with_dice: bool) -> None:
    log = random_game(random.Random(seed), players=players, with_dice=with_dice)
    names = log["players"]
    ruling = ADJUDICATOR.adjudicate(log, source="random", options=OPTIONS)
    assert ruling.violations == ()
    assert dict(ruling.final_scores) == game_scores(log)
    best = max(ruling.final_scores.values())
    assert best >= rules.TARGET
    assert list(ruling.winners) == [p for p in names if ruling.final_scores[p] == best]
    # the game ended in its last round, not before
    before = ruling.rounds[-2].scores if len(ruling.rounds) > 1 else dict.fromkeys(names, 0)
    assert max(before.values()) < rules.TARGET
    assert len(ruling.rounds) == len(log["rounds"])


# --- reshuffled moves never raise anything but RecordError (generic fuzzing: conformance) --


def _rule_or_record_error(log: Any) -> None:
    try:
        ruling = ADJUDICATOR.adjudicate(log, source="mutant", options=OPTIONS)
    except RecordError as exc:
        assert exc.source == "mutant"
        return
    render_text(ruling)
    json.dumps(ruling.to_dict())


@settings(max_examples=80, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_reshuffled_moves_raise_only_record_error(data: st.DataObject, seed: int) -> None:
    """Moves reordered or reassigned: a ruling (often illegal) or a RecordError, no crash."""
    log = random_game(random.Random(seed))
    rnd = data.draw(st.sampled_from(log["rounds"]))
    phase = data.draw(st.sampled_from(["covering", "uncovering"]))
    moves = rnd[phase]
    rnd[phase] = data.draw(st.permutations(moves))
    for move in rnd[phase]:
        if data.draw(st.booleans()):
            move["player"] = data.draw(st.sampled_from(log["players"]))
    _rule_or_record_error(log)


# --- the command line ----------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["adjudicate", *args])


def test_cli_text_legal() -> None:
    result = invoke("memo-dice", str(FIXTURES / "legal-2p.json"))
    assert result.exit_code == 0, result.output
    assert "Final: Linda 23, Nora 17" in result.output
    assert "Winner: Linda wins" in result.output
    assert "Verdict: legal" in result.output
    assert "Final table" in result.output


def test_cli_json_illegal() -> None:
    result = invoke("memo-dice", "--format", "json", str(FIXTURES / "illegal-cup-colour.json"))
    assert result.exit_code == 1
    [doc] = json.loads(result.output)
    assert doc["outcome"] == "illegal"
    assert doc["violations"][0]["rule"]["id"] == "memo-dice/cup-colour"
    assert doc["violations"][0]["move"]["pointer"] == "/rounds/0/covering/0"
    assert doc["final_scores"] == {"Linda": 18, "Nora": 16, "Ronya": 20}


def test_cli_text_illegal_quotes_the_rule() -> None:
    result = invoke("memo-dice", str(FIXTURES / "illegal-turn-order.json"))
    assert result.exit_code == 1
    assert "ILLEGAL: round 1, move 3 (Linda)" in result.output
    assert rules.TURN_ORDER.quote in result.output


def test_cli_malformed_exits_3() -> None:
    result = invoke("memo-dice", str(FIXTURES / "malformed-unknown-player.json"))
    assert result.exit_code == 3
    assert "/rounds/0/covering/2/player" in result.output
    assert "unknown player 'Zed'" in result.output


def test_cli_at_option() -> None:
    result = invoke("memo-dice", "--at", "2.3", str(FIXTURES / "legal-2p.json"))
    assert result.exit_code == 0
    assert "State at round 2, move 3" in result.output
