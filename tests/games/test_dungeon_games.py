"""dungeon in memory game logs (game/1): fixtures with their exact rulings, random legal games
checked against an independent recomputation, the CLI and the plug-in seam. What every game
shares (fixtures rule as named, fuzzing, --at) is in test_conformance.py."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pathcheck.games
from pathcheck.errors import RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR
from pathcheck.games.dungeon.gen import random_game
from pathcheck.games.dungeon.rules import GAME_RULES
from pathcheck.ruling import Outcome, Ruling, render_text
from pathcheck.tracer.dungeon import Placement, trace
from pathcheck.tracer.geometry import Direction

# pathcheck.cli lives in cli/ (setuptools package-dir), which mypy cannot resolve statically;
# this is `from pathcheck.cli import cli, main`.
_CLI = importlib.import_module("pathcheck.cli")
cli = _CLI.cli
main = _CLI.main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dungeon"
OPTIONS = AdjudicateOptions()


def load(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    return value


def rule(log: dict[str, Any], source: str = "log") -> Ruling:
    return ADJUDICATOR.adjudicate(log, source=source, options=OPTIONS)


# --- an independent recomputation of a legal log's scores ------------------------------


def recompute(log: dict[str, Any]) -> tuple[dict[str, int], list[str]]:
    """Scores and winners of a legal log, from the tracer and rules I-III written out here."""
    players: list[str] = log["players"]
    rules = set(log.get("rules", []))
    scores = dict.fromkeys(players, 0)
    for exp in log["explorations"]:
        stack = [Placement("START", Direction.N)]
        card_at: dict[str, int] = {}
        for turn in exp["turns"]:
            stack.append(Placement(turn["tile"], Direction[turn["dir"]]))
            callers = list(turn.get("lost", []))
            if 1 in rules and callers and turn.get("simultaneous") is False:
                callers = callers[:1]  # one after the other: the first stands
            elif 1 in rules and callers:
                seat = players.index(turn["player"])
                order = [players[(seat + i) % len(players)] for i in range(1, len(players))]
                callers = [min(callers, key=order.index)]
            for name in callers:
                card_at[name] = len(stack)
        lost_at = trace(stack, rules=rules).lost_at
        if lost_at is None:  # rule III: those who did not announce score; rule I: the rest fail
            for name in players:
                scores[name] += name not in card_at
        else:  # rule II: the first group of LOST cards at or after the Lost point
            later = [k for k in card_at.values() if k >= lost_at]
            for name, k in card_at.items():
                scores[name] += bool(later) and k == min(later)
    winners = [p for p, s in scores.items() if s >= 3]
    return scores, winners


# --- legal fixtures --------------------------------------------------------------------

LEGAL: dict[str, tuple[dict[str, int], list[str], int]] = {
    "legal-2p-advanced-rule4": ({"Ann": 0, "Bob": 3}, ["Bob"], 3),
    "legal-2p-basic": ({"Ann": 3, "Bob": 0}, ["Ann"], 3),
    "legal-3p-advanced": ({"Ann": 2, "Bob": 3, "Cy": 0}, ["Bob"], 3),
    "legal-3p-basic-rule1": ({"Ann": 0, "Bob": 3, "Cy": 1}, ["Bob"], 4),
    "legal-3p-basic": ({"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"], 3),
    "legal-3p-shared-victory": ({"Ann": 0, "Bob": 3, "Cy": 3}, ["Bob", "Cy"], 3),
    "legal-4p-advanced-rules-1-2": ({"Ann": 0, "Bob": 0, "Cy": 3, "Dee": 0}, ["Cy"], 3),
    "legal-4p-basic-rule3": ({"Ann": 3, "Bob": 0, "Cy": 1, "Dee": 2}, ["Ann"], 3),
    "legal-5p-advanced-rules-3-4": (
        {"Ann": 3, "Bob": 2, "Cy": 1, "Dee": 3, "Eve": 2}, ["Ann", "Dee"], 3),
    "legal-5p-basic-rules-1-2-3": ({"Ann": 0, "Bob": 0, "Cy": 3, "Dee": 0, "Eve": 0}, ["Cy"], 3),
}


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_fixture(name: str) -> None:
    log = load(name)
    ruling = rule(log)
    scores, winners, rounds = LEGAL[name]
    assert ruling.outcome is Outcome.LEGAL, [v.describe() for v in ruling.violations]
    assert dict(ruling.final_scores) == scores
    assert list(ruling.winners) == winners
    assert len(ruling.rounds) == rounds
    assert recompute(log) == (scores, winners)


def test_every_player_count_mode_and_rule_has_a_legal_game() -> None:
    seen = set()
    for name in LEGAL:
        log = load(name)
        seen.add(("players", len(log["players"])))
        seen.add(("advanced", log["advanced"]))
        seen.update(("rule", r) for r in log["rules"])
        seen.update(("without", r) for r in {1, 2, 3, 4} - set(log["rules"]))
    assert seen >= {("players", n) for n in range(2, 6)} | {("advanced", True),
                                                            ("advanced", False)} \
        | {("rule", r) for r in range(1, 5)} | {("without", r) for r in range(1, 5)}


def test_base_game_rounds_exactly() -> None:
    ruling = rule(load("legal-3p-basic"))
    first = ruling.rounds[0]
    assert first.title == "Exploration 1 (start player Ann, 7 turns)"
    assert first.display == "START@N R1@N R2@E R3@S I4@W R4@W R5@N R6@E !Bob !Cy"
    assert [e.text for e in first.events] == [
        "the exploration ends: only Ann is left in the team",
        "the dungeon of 8 tiles is Lost at tile 8 (R6@E, placed in turn 7): dead-end",
        "Ann: did not announce, and the dungeon got Lost: no point (Lost at tile 8)",
        "Bob (LOST card after tile 8): among the first LOST cards after getting Lost: 1 point "
        "(Lost at tile 8)",
        "Cy (LOST card after tile 8): among the first LOST cards after getting Lost: 1 point "
        "(Lost at tile 8)",
        "next start player: Ann (took the last turn)",
    ]
    assert [e.rule.id if e.rule else None for e in first.events] == [
        "dungeon/exploration-end", "dungeon/lost-dead-end", None, "dungeon/check-II",
        "dungeon/check-II", "dungeon/next-start"]
    assert [dict(r.scores) for r in ruling.rounds] == [
        {"Ann": 0, "Bob": 1, "Cy": 1}, {"Ann": 0, "Bob": 1, "Cy": 2},
        {"Ann": 0, "Bob": 2, "Cy": 3}]
    second = [e.text for e in ruling.rounds[1].events]
    assert "the dungeon of 3 tiles is never Lost: the path holds to the last tile" in second
    assert "Cy: did not announce, and the path held: 1 point (never Lost)" in second
    assert ("Bob (LOST card after tile 2): announced Lost before getting Lost: the announcement "
            "fails (never Lost)") in second
    third = [e.text for e in ruling.rounds[2].events]
    assert "the dungeon of 3 tiles is Lost at tile 2 (L4@E, placed in turn 1): misplaced" in third
    assert third[-1] == "Cy reaches 3 points: the game ends; Cy wins"
    assert ruling.rounds[2].events[-1].rule is not None
    assert ruling.rounds[2].events[-1].rule.id == "dungeon/game-end"


def test_rule_1_keeps_the_earliest_announcer_after_the_active_player() -> None:
    ruling = rule(load("legal-3p-basic-rule1"))
    voids = [(r.number, e.text) for r in ruling.rounds for e in r.events
             if e.rule is not None and e.rule.id == "dungeon/rule-1-priority"]
    assert voids == [
        (1, "Cy also announced Lost: void, Bob is the earliest in turn order after Ann; "
            "Cy stays in the team"),
        (2, "Bob also announced Lost: void, Ann is the earliest in turn order after Cy; "
            "Bob stays in the team"),
        (3, "Ann also announced Lost: void, Cy is the earliest in turn order after Bob; "
            "Ann stays in the team"),
        (4, "Cy also announced Lost: void, Bob is the earliest in turn order after Ann; "
            "Cy stays in the team"),
    ]
    # Cy's void call kept Cy in the team: Cy played on and announced nothing that counted.
    assert ruling.rounds[0].display.endswith("R6@E !Bob I5@N !Ann")
    assert [dict(r.scores) for r in ruling.rounds] == [
        {"Ann": 0, "Bob": 1, "Cy": 0}, {"Ann": 0, "Bob": 2, "Cy": 0},
        {"Ann": 0, "Bob": 2, "Cy": 1}, {"Ann": 0, "Bob": 3, "Cy": 1}]


def test_shared_victory_is_reported() -> None:
    ruling = rule(load("legal-3p-shared-victory"))
    assert ruling.tie_break == "all reached 3 points in the same check: a shared victory"
    assert "Winner: Bob and Cy win (shared)" in render_text(ruling)


# --- illegal fixtures: every violation kind --------------------------------------------

ILLEGAL: dict[str, tuple[list[tuple[str, str]], str, dict[str, int], list[str]]] = {
    "illegal-after-game-end": (
        [("dungeon/game-end", "/explorations/3")],
        "the game ended after exploration 3 (Cy reached 3 points); no further exploration is "
        "played",
        {"Ann": 0, "Bob": 3, "Cy": 4}, ["Cy"]),
    "illegal-announce-active": (
        [("dungeon/announce-non-active", "/explorations/0/turns/6/lost/2")],
        "Ann is the active player and cannot announce Lost",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-announce-left": (
        [("dungeon/announce-in-team", "/explorations/1/turns/1/lost/1")],
        "Bob already left the team (LOST card after tile 2) and cannot announce again",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-deal-hand-size": (
        [("dungeon/deal", "/explorations/0/hands/Ann")],
        "Ann was dealt 4 tiles; the basic rules deal 3",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-deal-deck-length": (
        [("dungeon/deal", "/explorations/0/deck")],
        "the deck holds 23 tiles; after dealing 3 to each of 3 players the basic rules leave 24 "
        "of the 33",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-deal-missing-tile": (
        [("dungeon/deal", "/explorations/0/deck")],
        "1 tile of the basic set is in no hand and not in the deck: BL2",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-deal-repeat-basic": (
        [("dungeon/deal", "/explorations/1/deck/23"), ("dungeon/deal", "/explorations/1/deck")],
        "RE1 is not in play with the basic rules",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-deal-start": (
        [("dungeon/deal", "/explorations/0/deck/23"), ("dungeon/deal", "/explorations/0/deck")],
        "START lies in the middle of the table: it is not dealt",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-deal-twice": (
        [("dungeon/deal", "/explorations/0/deck/23"), ("dungeon/deal", "/explorations/0/deck")],
        "R1 is dealt twice (also at /explorations/0/hands/Ann/0)",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-draw": (
        [("dungeon/draw", "/explorations/0/turns/1/draw")],
        "Bob draws I6, but the top of the deck is I5",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-exploration-unfinished": (
        [("dungeon/exploration-end", "/explorations/0/turns"),
         ("dungeon/next-start", "/explorations/1/start_player")],
        "the log stops while the exploration goes on (still in the team: Ann, Bob, Cy)",
        {"Ann": 1, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-from-hand": (
        [("dungeon/from-hand", "/explorations/0/turns/6/tile")],
        "Ann plays R7, which is not in their hand (they hold R6, I3, I7): R7 is still in the "
        "deck (position 10 from the top)",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-game-unfinished": (
        [("dungeon/game-end", "/explorations")],
        "the log ends before anyone reached 3 points (best: Cy with 2)",
        {"Ann": 0, "Bob": 1, "Cy": 2}, []),
    "illegal-next-start": (
        [("dungeon/next-start", "/explorations/1/start_player"),
         ("dungeon/turn-order", "/explorations/1/turns/0")],
        "the start player is Ann, who took the last turn of exploration 1, not Bob",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-turn-after-end": (
        [("dungeon/exploration-end", "/explorations/2/turns/2"),
         ("dungeon/from-hand", "/explorations/2/turns/2/tile")],
        "the exploration had already ended (only Ann is left in the team): no turn 3 is played",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-turn-order-left": (
        [("dungeon/turn-order", "/explorations/1/turns/1"),
         ("dungeon/next-start", "/explorations/2/start_player")],
        "Bob plays, but it is Cy's turn: Bob left the team (LOST card after tile 2)",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
    "illegal-turn-order": (
        [("dungeon/turn-order", "/explorations/0/turns/0")],
        "Ann plays, but it is Bob's turn: the turn passes clockwise to Bob",
        {"Ann": 0, "Bob": 2, "Cy": 3}, ["Cy"]),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_fixture(name: str) -> None:
    found, message, scores, winners = ILLEGAL[name]
    ruling = rule(load(name))
    assert ruling.outcome is Outcome.ILLEGAL
    assert [(v.rule.id, v.move.pointer) for v in ruling.violations] == found
    assert ruling.violations[0].message == message
    assert dict(ruling.final_scores) == scores
    assert list(ruling.winners) == winners


def test_every_game_rule_has_an_illegal_fixture() -> None:
    cited = {rule_id for found, *_ in ILLEGAL.values() for rule_id, _ in found}
    # Rule #1 priority is applied, never broken: void announcements are rulings, not errors.
    assert cited == {r.id for r in GAME_RULES} - {"dungeon/rule-1-priority"}


def test_violation_points_at_move_and_quotes_rulebook() -> None:
    violation = rule(load("illegal-announce-active")).violations[0]
    assert violation.move.round == 1
    assert violation.move.index == 7
    assert violation.move.player == "Ann"
    assert violation.rule.section == "2-B. Lost Announcement"
    assert violation.rule.quote == "* Only non-active players can announce Lost."


MALFORMED = {
    "malformed-rule4-basic": ("/rules", "additional rule #4 is for the advanced rules only "
                                        "(set \"advanced\": true)"),
    "malformed-unknown-tile": ("/explorations/0/turns/2/tile",
                               "unknown tile 'Q9' (not in tile set 'standard')"),
    "malformed-unknown-player": ("/explorations/0/turns/2/lost/0",
                                 "unknown player 'Zed' (players: Ann, Bob, Cy)"),
    "malformed-dir": ("/explorations/0/turns/2/dir", "'NE' is not one of 'E', 'N', 'S', 'W'"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_fixture(name: str) -> None:
    with pytest.raises(RecordError) as info:
        rule(load(name), source=name)
    assert (info.value.pointer, info.value.message) == MALFORMED[name]
    assert info.value.line is None


def test_missing_tileset_file_is_a_record_error() -> None:
    log = load("legal-3p-basic")
    log["tileset"] = "/nonexistent/tiles.toml"
    with pytest.raises(RecordError, match="inside its own folder"):
        rule(log)
    log["tileset"] = "nonexistent-tiles.toml"
    with pytest.raises(RecordError, match="no tile set 'nonexistent-tiles\\.toml' beside"):
        rule(log)


# --- random legal games ----------------------------------------------------------------


@st.composite
def random_logs(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(2, 5))
    advanced = draw(st.booleans())
    rules = draw(st.sets(st.sampled_from([1, 2, 3, 4] if advanced else [1, 2, 3])))
    seed = draw(st.integers(0, 2**32))
    accuracy = draw(st.sampled_from([0.6, 0.9, 1.0]))
    return random_game(random.Random(seed), players=count, advanced=advanced,
                       rules=rules, accuracy=accuracy)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_logs())
def test_random_legal_games_replay_without_violation(log: dict[str, Any]) -> None:
    ruling = rule(log)
    assert ruling.violations == ()
    scores, winners = recompute(log)
    assert dict(ruling.final_scores) == scores
    assert list(ruling.winners) == winners
    assert winners  # the game ran until someone reached 3 points


# --- the CLI ---------------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["adjudicate", *args])


def test_cli_text_legal() -> None:
    result = invoke("dungeon", str(FIXTURES / "legal-3p-basic.json"))
    assert result.exit_code == 0, result.output
    assert "Exploration 1 (start player Ann, 7 turns)" in result.output
    assert "    START@N R1@N R2@E R3@S I4@W R4@W R5@N R6@E !Bob !Cy" in result.output
    assert "Final: Ann 0, Bob 2, Cy 3" in result.output
    assert "Winner: Cy wins" in result.output
    assert result.output.rstrip().endswith("Verdict: legal")


def test_cli_text_illegal_names_the_move_and_the_rule() -> None:
    result = invoke("dungeon", str(FIXTURES / "illegal-from-hand.json"))
    assert result.exit_code == 1
    assert ("ILLEGAL: exploration 1, turn 7 (Ann): Ann plays R7, which is not in their hand"
            in result.output)
    assert ("rule (2-A. Exploration (Active Player)): \"The active player chooses a tile from "
            "their hand") in result.output
    assert "at /explorations/0/turns/6/tile" in result.output
    assert "The scores above take the log as played." in result.output


def test_cli_json_illegal() -> None:
    result = invoke("dungeon", "--format", "json", str(FIXTURES / "illegal-draw.json"))
    assert result.exit_code == 1
    (doc,) = json.loads(result.output)
    assert doc["outcome"] == "illegal"
    assert doc["format"] == "game/1"
    assert doc["violations"][0]["rule"]["id"] == "dungeon/draw"
    assert doc["violations"][0]["move"] == {"round": 1, "index": 2, "player": "Bob",
                                            "pointer": "/explorations/0/turns/1/draw"}
    assert doc["final_scores"] == {"Ann": 0, "Bob": 2, "Cy": 3}
    assert doc["winners"] == ["Cy"]


def test_cli_json_legal_lists_rounds() -> None:
    result = invoke("--format", "json", str(FIXTURES / "legal-3p-shared-victory.json"))
    assert result.exit_code == 0
    (doc,) = json.loads(result.output)
    assert [r["scores"] for r in doc["rounds"]] == [
        {"Ann": 0, "Bob": 1, "Cy": 1}, {"Ann": 0, "Bob": 2, "Cy": 2},
        {"Ann": 0, "Bob": 3, "Cy": 3}]
    assert doc["winners"] == ["Bob", "Cy"]


# --- the plug-in seam ------------------------------------------------------------------


@pytest.fixture
def broken_plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register a plug-in whose module does not exist, next to the real ones."""
    real = importlib.metadata.entry_points
    broken = EntryPoint(name="broken", value="pathcheck_no_such_module:ADJUDICATOR",
                        group=pathcheck.games.ENTRY_POINT_GROUP)

    def fake(*, group: str) -> list[EntryPoint]:
        found = list(real(group=group))
        if group == pathcheck.games.ENTRY_POINT_GROUP:
            found.append(broken)
        return found

    monkeypatch.setattr(pathcheck.games, "entry_points", fake)
    pathcheck.games.forget()  # the entry points are scanned once per process
    yield
    pathcheck.games.forget()


@pytest.mark.usefixtures("broken_plugin")
def test_broken_plugin_leaves_the_others_working() -> None:
    assert "broken" in pathcheck.games.available()
    assert invoke("dungeon", str(FIXTURES / "legal-3p-basic.json")).exit_code == 0
    assert invoke(str(FIXTURES / "legal-3p-basic.json")).exit_code == 0
    help_result = CliRunner().invoke(cli, ["--help"])
    assert help_result.exit_code == 0
    assert "adjudicate" in help_result.output


@pytest.mark.usefixtures("broken_plugin")
def test_broken_plugin_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["adjudicate", "broken", "x.json"])
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1
    assert err.startswith("pathcheck: error: adjudicator plug-in 'broken' "
                          "(pathcheck_no_such_module:ADJUDICATOR) failed to load: "
                          "ModuleNotFoundError")


def test_dungeon_plugin_is_registered_lazily() -> None:
    target = "pathcheck.games.dungeon.adjudicator:ADJUDICATOR"
    assert pathcheck.games.available()["dungeon"] == target
    adjudicator = pathcheck.games.load("dungeon")
    assert (adjudicator.name, adjudicator.title) == ("dungeon", "dungeon in memory")
    assert adjudicator.formats == ("game/1", "solo/1")
    assert adjudicator.schemas == ("game", "solo")
    assert pathcheck.games.for_format("solo/1") is adjudicator


# --- the tile set a log names ----------------------------------------------------------


def test_a_tileset_path_is_found_beside_the_log_first(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    tiles = importlib.import_module("pathcheck.tiles")  # the data package (tiles/)
    standard = Path(str(tiles.__file__)).parent / "standard.toml"
    (folder / "mine.toml").write_text(standard.read_text("utf-8"), "utf-8")
    log = load("legal-3p-basic")
    log["tileset"] = "mine.toml"
    path = folder / "game.json"
    path.write_text(json.dumps(log), "utf-8")
    monkeypatch.chdir(tmp_path)  # not the log's folder: only "beside the log" finds it
    ruling = rule(log, source=str(path))
    assert ruling.outcome is Outcome.LEGAL
    assert "tile set" in ruling.notes[0]
    with pytest.raises(RecordError, match=r"no tile set 'mine\.toml'"):
        rule(log, source="<stdin>")
    log["tileset"] = "standard"  # always the built-in set, whatever lies beside the log
    (folder / "standard").write_text("not a tile set", "utf-8")
    assert rule(log, source=str(path)).outcome is Outcome.LEGAL


def test_built_in_games_agree_with_their_entry_points() -> None:
    """The built-in games are loaded without scanning the entry points (start-up time): the
    table that does it must say what pyproject.toml registers."""
    group = pathcheck.games.ENTRY_POINT_GROUP
    registered = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=group)}
    for name, (target, formats) in pathcheck.games.BUILT_IN.items():
        assert registered[name] == target
        adjudicator = pathcheck.games.load(name)
        assert adjudicator.formats == formats
        for fmt in formats:
            assert pathcheck.games.for_format(fmt) is adjudicator


def test_a_log_file_alone_needs_no_plugin_scan() -> None:
    """``adjudicate LOG`` and ``analyse LOG`` start without importing importlib.metadata (the
    scan of the entry points), and a game's name or a mistyped one still reads as before."""
    code = ("import sys; from pathcheck.cli import main\n"
            "for command in ('adjudicate', 'analyse'):\n"
            "    try: main([command, sys.argv[1]])\n"
            "    except SystemExit: pass\n"
            "print('importlib.metadata' in sys.modules, 'html' in sys.modules,"
            " 'importlib.abc' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(FIXTURES / "legal-3p-basic.json")],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "False False False"
    assert invoke("dungeon", str(FIXTURES / "legal-3p-basic.json")).exit_code == 0
    mistyped = invoke("dungeonn", str(FIXTURES / "legal-3p-basic.json"))
    assert mistyped.exit_code == 2 and "did you mean dungeon?" in mistyped.output
