"""Tests of the Memoarrr! adjudicator: fixtures with their exact rulings, random legal games,
rule-breaking logs, the CLI. What every game shares (fixtures rule as named, fuzzing, --at) is
in test_conformance.py."""

from __future__ import annotations

import copy
import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.errors import InputError, RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.memoarrr.adjudicator import ADJUDICATOR
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.games.memoarrr.rules import ALL_RULES, POSITIONS, decide_winners, rule_for
from pathcheck.ruling import Ruling

# pathcheck.cli lives in cli/ (setuptools package-dir), which mypy cannot resolve statically;
# this is `from pathcheck.cli import cli`.
cli = importlib.import_module("pathcheck.cli").cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memoarrr"


def load_fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def adjudicate(log: dict[str, Any], at: str | None = None) -> Ruling:
    return ADJUDICATOR.adjudicate(log, source="test", options=AdjudicateOptions(at=at))


# name -> final rubies (seat order), winners, a phrase of the tie-break ("" for none)
LEGAL: dict[str, tuple[list[int], list[str], str]] = {
    "legal-handmade-2p-2023.json": ([7, 8], ["Ben"], ""),
    "legal-2p-2023.json": ([6, 9], ["Ben"], ""),
    "legal-3p-2023.json": ([6, 4, 5], ["Ann"], ""),
    "legal-4p-2023.json": ([3, 9, 0, 3], ["Ben"], ""),
    "legal-2p-2018.json": ([6, 9], ["Ben"], ""),
    "legal-3p-2018.json": ([3, 11, 1], ["Ben"], ""),
    "legal-4p-2018.json": ([6, 8, 0, 1], ["Ben"], ""),
    "legal-expert-3p-2023.json": ([3, 9, 3], ["Ben"], ""),
    "legal-expert-4p-2018.json": ([7, 5, 1, 2], ["Ann"], ""),
    "legal-ordered-3p-2023.json": ([4, 8, 3], ["Ben"], ""),
    "legal-ordered-expert-2p-2018.json": ([9, 6], ["Ann"], ""),
    "legal-forced-volcano-3p-2023.json": ([4, 2, 9], ["Cy"], ""),
    "legal-tiebreak-cards-4p-2018.json": ([3, 6, 0, 6], ["Ben"], "most treasure cards"),
    "legal-tiebreak-deep-4p-2023.json": ([5, 1, 4, 5], ["Ann"], "largest treasure"),
}


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_fixture(name: str) -> None:
    scores, winners, tie = LEGAL[name]
    ruling = adjudicate(load_fixture(name))
    assert ruling.violations == []
    assert list(ruling.final_scores.values()) == scores
    assert list(ruling.winners) == winners
    assert (tie in ruling.tie_break) if tie else ruling.tie_break == ""
    assert len(ruling.rounds) == 7
    assert sum(scores) == 15


def test_legal_fixture_set_covers_the_brief() -> None:
    logs = [load_fixture(n) for n in LEGAL]
    covered = {(len(g["players"]), g["edition"]) for g in logs}
    assert covered >= {(n, e) for n in (2, 3, 4) for e in (2018, 2023)}
    assert any(g["variants"]["expert"] for g in logs)
    assert any(g["variants"]["ordered_stack"] for g in logs)
    forced = load_fixture("legal-forced-volcano-3p-2023.json")
    assert any("volcano" in a for r in forced["rounds"] for a in r["actions"])


def test_handmade_game_rounds_by_hand() -> None:
    ruling = adjudicate(load_fixture("legal-handmade-2p-2023.json"))
    takers = [e.points for r in ruling.rounds for e in r.events if e.points]
    assert takers == [{"Ann": 2}, {"Ben": 1}, {"Ben": 4}, {"Ann": 2}, {"Ben": 1}, {"Ann": 3},
                      {"Ben": 2}]
    # Whoever took the dark volcano starts the next round.
    starts = [r.title.split("start: ")[1].split(";")[0] for r in ruling.rounds]
    assert starts == ["Ann", "Ben", "Ann", "Ann", "Ben", "Ann", "Ben"]
    first = ruling.rounds[0].events
    assert first[1].move is not None and first[1].move.player == "Ben"
    assert "B4 octopus/jungle" in first[1].text and "takes the dark volcano" in first[1].text
    assert first[1].rule is not None and first[1].rule.id == "memoarrr/connect"


def test_handmade_expert_game() -> None:
    ruling = adjudicate(load_fixture("legal-handmade-expert-3p-2018.json"), at="1.5")
    assert ruling.violations == []
    assert dict(ruling.final_scores) == {"Ann": 1, "Ben": 1, "Cy": 0}
    assert list(ruling.winners) == []  # two rounds of seven
    assert any("ends before the game does" in n for n in ruling.notes)
    assert ruling.rounds[1].events[0].text.startswith("Ben starts: took the volcano with the "
                                                      "most birds (7)")
    grid = ruling.display.split("\n\nIsland in round 1, after turn 5:\n")[1].splitlines()
    # The octopus revealed at B1 on move 5 (moved there on move 2) went on to A1.
    assert grid[1].split()[:3] == ["1", "[OCT", "FLO]"]
    assert "[PEN WAT]" in grid[1] and "to move: Ann" in ruling.display


def test_walrus_mark_shown() -> None:
    ruling = adjudicate(load_fixture("legal-handmade-expert-3p-2018.json"), at="1.6")
    assert "!tur flo!" in ruling.display


# name -> rule id, round, move index, player, pointer, final rubies, winners
ILLEGAL: dict[str, tuple[str, int | None, int | None, str | None, str, list[int], list[str]]] = {
    "illegal-peek-different-side.json":
        ("peek-different-side", None, None, "Ben", "/peeks/Ben", [7, 6, 2], ["Ann"]),
    "illegal-round1-peeked-card.json":
        ("round1-peeked-card", 1, 1, "Ann", "/rounds/0/actions/0", [0, 0, 0], []),
    "illegal-ordered-stack.json":
        ("ordered-stack", None, None, None, "/treasures", [2, 6, 7], ["Cy"]),
    "illegal-start-player.json":
        ("start-player", 2, 1, "Ann", "/rounds/1/actions/0", [0, 0, 2], []),
    "illegal-turn-order.json":
        ("turn-order", 1, 2, "Cy", "/rounds/0/actions/1", [0, 0, 0], []),
    "illegal-reveal-face-down.json":
        ("reveal-face-down", 1, 2, "Ben", "/rounds/0/actions/1", [0, 0, 0], []),
    "illegal-must-reveal.json":
        ("must-reveal", 1, 2, "Ben", "/rounds/0/actions/1", [0, 0, 0], []),
    "illegal-all-revealed-volcano.json":
        ("all-revealed-volcano", 1, 25, "Ben", "/rounds/0/actions/24", [0, 0, 1], []),
    "illegal-round-end.json":
        ("round-end", 1, 9, "Ben", "/rounds/0/actions/8", [0, 0, 2], []),
    "illegal-round-end-unfinished.json":
        ("round-end", 2, None, None, "/rounds/1", [0, 0, 0], []),
    "illegal-game-end.json":
        ("game-end", 8, None, None, "/rounds/7", [7, 6, 2], ["Ann"]),
    "illegal-fixed-positions.json":
        ("fixed-positions", 1, 1, "Ann", "/rounds/0/actions/0", [0, 0, 0], []),
    "illegal-ability-compulsory.json":
        ("ability-compulsory", 1, 11, "Ben", "/rounds/0/actions/10", [9, 4, 2], ["Ann"]),
    "illegal-ability-not-earned.json":
        ("ability-not-earned", 1, 19, "Ben", "/rounds/0/actions/18", [9, 4, 2], ["Ann"]),
    "illegal-octopus-adjacent.json":
        ("octopus-adjacent", 1, 4, "Cy", "/rounds/0/actions/3", [0, 0, 0], []),
    "illegal-walrus-blocked.json":
        ("walrus-blocked", 1, 2, "Ann", "/rounds/0/actions/1", [9, 4, 2], ["Ann"]),
    "illegal-walrus-face-down.json":
        ("walrus-face-down", 1, 1, "Cy", "/rounds/0/actions/0", [9, 4, 2], ["Ann"]),
    "illegal-walrus-last-card.json":
        ("walrus-last-card", 2, 23, "Ann", "/rounds/1/actions/22", [5, 10], ["Ben"]),
    "illegal-penguin-face-down.json":
        ("penguin-face-down", 1, 11, "Ben", "/rounds/0/actions/10", [9, 4, 2], ["Ann"]),
    "illegal-crab-extra-turn.json":
        ("crab-extra-turn", 1, 8, "Ann", "/rounds/0/actions/7", [0, 0, 0], []),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_fixture(name: str) -> None:
    rule_id, rnd, index, player, pointer, scores, winners = ILLEGAL[name]
    log = load_fixture(name)
    ruling = adjudicate(log)
    assert len(ruling.violations) == 1
    first = ruling.violations[0]
    assert first.rule.id == "memoarrr/" + rule_id
    assert (first.move.round, first.move.index, first.move.player) == (rnd, index, player)
    assert first.move.pointer == pointer
    assert first.rule == rule_for(next(r for r in ALL_RULES if r.id == first.rule.id),
                                  log["edition"])
    assert list(ruling.final_scores.values()) == scores
    assert list(ruling.winners) == winners


def test_every_violation_rule_has_an_illegal_fixture() -> None:
    event_only = {"connect", "first-reveal", "treasure", "winner"}
    ids = {r.id.removeprefix("memoarrr/") for r in ALL_RULES}
    assert ids - event_only == {v[0] for v in ILLEGAL.values()}
    assert len(ids) == len(ALL_RULES)


def test_stopped_replay_says_so() -> None:
    ruling = adjudicate(load_fixture("illegal-round-end.json"))
    assert any("replay stopped at round 1" in n and "not ruled on" in n for n in ruling.notes)
    assert len(ruling.rounds) == 1


@pytest.mark.parametrize(
    ("name", "pointer"),
    [("malformed-unknown-player.json", "/rounds/2/actions/1/player"),
     ("malformed-duplicate-card.json", "/island/4/4")],
)
def test_malformed_fixture(name: str, pointer: str) -> None:
    with pytest.raises(RecordError) as info:
        adjudicate(load_fixture(name))
    assert info.value.pointer == pointer


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        (lambda g: g.update(start_player="Zed"), "/start_player"),
        (lambda g: g["island"][2].__setitem__(2, "crab/lava"), "/island/2/2"),
        (lambda g: g["island"][0].__setitem__(0, None), "/island/0/0"),
        (lambda g: g.update(treasures=[1, 1, 1, 2, 2, 3, 4]), "/treasures"),
        (lambda g: g["rounds"][0].update(volcanoes=["light", "light"]),
         "/rounds/0/volcanoes"),
        (lambda g: g["rounds"][0].update(volcanoes=[7, 3]), "/rounds/0/volcanoes/0"),
        (lambda g: g["rounds"][0].update(volcanoes=["dark"]), "/rounds/0/volcanoes"),
        (lambda g: g["rounds"][0]["actions"][0].update(reveal="C3"),
         "/rounds/0/actions/0/reveal"),
        (lambda g: g["rounds"][0]["actions"][0].update(reveal="F1"),
         "/rounds/0/actions/0/reveal"),
        (lambda g: g["peeks"].pop("Ben"), "/peeks"),
        (lambda g: g.pop("island"), ""),
    ],
)
def test_semantic_record_errors(change: Any, pointer: str) -> None:
    log = load_fixture("legal-3p-2023.json")
    change(log)
    with pytest.raises(RecordError) as info:
        adjudicate(log)
    assert info.value.pointer == pointer


def test_decide_winners() -> None:
    assert decide_winners({"A": [4, 1], "B": [2, 2]}) == (["A"], "")
    winners, why = decide_winners({"A": [4, 1], "B": [3, 2]})
    assert winners == ["A"] and "largest treasure (4 rubies)" in why
    winners, why = decide_winners({"A": [3, 2], "B": [3, 2], "C": [1]})
    assert winners == ["A", "B"] and "share the win" in why


def test_at_out_of_range() -> None:
    log = load_fixture("legal-handmade-2p-2023.json")
    with pytest.raises(InputError, match="out of range"):
        adjudicate(log, at="8.0")
    with pytest.raises(InputError, match=r"1\.0-1\.4"):
        adjudicate(log, at="1.5")
    assert "Island in round 7, after turn 2" in adjudicate(log, at="7.2").display


# --- random legal games ---------------------------------------------------------------------

game_args = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32),
    "players": st.integers(2, 4),
    "edition": st.sampled_from([2018, 2023]),
    "expert": st.booleans(),
    "ordered_stack": st.booleans(),
    "skill": st.floats(0.0, 1.0),
})


@settings(max_examples=60, deadline=None)
@given(game_args)
def test_random_legal_games_replay_clean(args: dict[str, Any]) -> None:
    seed = args.pop("seed")
    log = random_game(random.Random(seed), **args)
    ruling = adjudicate(log)
    assert ruling.violations == []
    assert len(ruling.rounds) == 7
    scores = dict(ruling.final_scores)
    assert sum(scores.values()) == 15
    takers = [p for r in ruling.rounds for e in r.events for p in e.points]
    assert len(takers) == 7
    best = max(scores.values())
    assert ruling.winners and all(scores[w] == best for w in ruling.winners)
    if args["ordered_stack"]:
        # The ordered stack pays 1,1,2,2,2,3,4 in round order.
        assert [v for r in ruling.rounds for e in r.events for v in e.points.values()] == [
            1, 1, 2, 2, 2, 3, 4]


# --- rule-breaking logs replay leniently (generic fuzzing: test_conformance.py) -------------


_BASE = [random_game(random.Random(s), players=p, edition=e, expert=True, skill=0.7)
         for s, p, e in ((1, 2, 2018), (2, 3, 2023), (3, 4, 2023))]


positions = st.sampled_from([str(p) for p in POSITIONS])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_rule_breaking_mutations_replay_leniently(data: st.DataObject) -> None:
    log = copy.deepcopy(data.draw(st.sampled_from(_BASE)))
    for _ in range(data.draw(st.integers(1, 4))):
        rnd = data.draw(st.sampled_from(log["rounds"]))
        actions = rnd["actions"]
        i = data.draw(st.integers(0, len(actions)))
        kind = data.draw(st.sampled_from(["reveal", "swap", "mark", "peek", "player", "volcano",
                                          "drop", "dup"]))
        if kind == "drop" and actions:
            actions.pop(min(i, len(actions) - 1))
        elif kind == "dup" and actions:
            actions.insert(i, dict(actions[min(i, len(actions) - 1)]))
        elif kind == "volcano":
            actions.insert(i, {"player": data.draw(st.sampled_from(log["players"])),
                               "volcano": True})
        elif actions:
            action = actions[min(i, len(actions) - 1)]
            if kind == "player":
                action["player"] = data.draw(st.sampled_from(log["players"]))
            else:
                if "volcano" in action:
                    del action["volcano"]
                    action["reveal"] = data.draw(positions)
                action[kind] = data.draw(positions)
    ruling = adjudicate(log)  # rule-breaking, never malformed: a ruling, no exception
    assert ruling.players == tuple(log["players"])
    assert sum(ruling.final_scores.values()) <= 15


# --- the command line -----------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_cli_text_legal() -> None:
    result = run("adjudicate", "memoarrr", str(FIXTURES / "legal-handmade-2p-2023.json"))
    assert result.exit_code == 0, result.output
    assert "Winner: Ben wins" in result.output and "Verdict: legal" in result.output
    assert "Final: Ann 7, Ben 8" in result.output


def test_cli_json_illegal() -> None:
    path = str(FIXTURES / "illegal-walrus-blocked.json")
    result = run("adjudicate", "memoarrr", path, "--format", "json")
    assert result.exit_code == 1
    (doc,) = json.loads(result.output)
    assert doc["outcome"] == "illegal"
    assert doc["violations"][0]["rule"]["id"] == "memoarrr/walrus-blocked"
    assert doc["violations"][0]["move"]["pointer"] == "/rounds/0/actions/1"
    assert doc["winners"] == ["Ann"]


def test_cli_text_illegal_quotes_rule() -> None:
    result = run("adjudicate", "memoarrr", str(FIXTURES / "illegal-crab-extra-turn.json"))
    assert result.exit_code == 1
    assert "ILLEGAL: round 1, move 8 (Ann)" in result.output
    assert "You must immediately take another turn." in result.output


def test_cli_at() -> None:
    path = str(FIXTURES / "legal-handmade-expert-3p-2018.json")
    result = run("adjudicate", path, "--at", "2.0")
    assert result.exit_code == 0
    assert "Island in round 2, at the start:" in result.output
    bad = run("adjudicate", path, "--at", "two")
    assert bad.exit_code == 2 and "ROUND.TURN" in bad.output
    far = run("adjudicate", path, "--at", "3.1")
    assert far.exit_code == 3 and "out of range" in far.output


def test_cli_schema() -> None:
    result = run("schema", "memoarrr")
    assert result.exit_code == 0
    assert json.loads(result.output)["properties"]["format"] == {"const": "memoarrr/1"}
