"""Facts as fields: every fact an event states in words is also in its JSON (``fact``), and
the fields say what the text says, on every fixture of every game. ``pathcheck schema
ruling`` is generated from the same structs and every ruling validates against it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from msgspec import UnsetType

from pathcheck import games, notation
from pathcheck.check import _OUTCOME_TEXTS, CardOutcome
from pathcheck.cli import cli
from pathcheck.render.words import counted
from pathcheck.ruling import (
    AnnounceFact,
    CaptainFact,
    CoverFact,
    CoveringEndedFact,
    CupFact,
    DieFact,
    DungeonFact,
    Event,
    ExplorationEndFact,
    GameEndFact,
    GuessFact,
    HandSizeFact,
    IllegalFact,
    LayoutFact,
    LostCardFact,
    MoveRef,
    NotCheckedFact,
    PeekSideFact,
    PositionFact,
    RoundPointsFact,
    Ruling,
    ScoreFact,
    SeedTileFact,
    SoloDungeonFact,
    SoloFailureFact,
    SoloTilesFact,
    StartFact,
    SwapFact,
    TileFact,
    TreasureFact,
    TurnFact,
    UncoverFact,
    UnfinishedRoundFact,
    Violation,
    VoidAnnouncementFact,
    VolcanoFact,
    ruling_schema,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(p for game in ("dungeon", "memoarrr", "memo-dice", "robot-memory")
                  for p in (ROOT / "fixtures" / game).glob("*")
                  if p.suffix in (".json", ".pcn") and not p.name.startswith("malformed"))


VALIDATOR = jsonschema.Draft202012Validator(ruling_schema())


def rule(path: Path) -> Ruling:
    text = path.read_text(encoding="utf-8")
    log = notation.parse(text, source=path.name) if path.suffix == ".pcn" else json.loads(text)
    adjudicator = games.for_format(str(log.get("format", "game/1")))
    return adjudicator.adjudicate(log, source=path.name, options=games.AdjudicateOptions())


def check_fact(event: Event, number: int, ruling: Ruling) -> None:
    """The fields of ``event.fact`` against ``event.text`` (and its move and points), in round
    ``number`` of ``ruling``."""
    fact, text = event.fact, event.text
    player = None if event.move is None else event.move.player
    if isinstance(fact, LostCardFact):
        assert text.startswith(f"{fact.player}")
        assert _OUTCOME_TEXTS[CardOutcome(fact.outcome)] in text
        assert (fact.after is None) == ("LOST card after tile" not in text)
        if fact.after is not None:
            assert f"(LOST card after tile {fact.after})" in text
        assert ("(never Lost)" if fact.lost_at is None else f"(Lost at tile {fact.lost_at})") \
            in text
    elif isinstance(fact, VoidAnnouncementFact):
        assert all(name in text for name in fact.void) and fact.standing in text
        assert ("earliest in turn order" in text) == (fact.by == "turn-order")
        assert (f"after {fact.standing} in the same turn" in text) == (fact.by == "first")
    elif isinstance(fact, CaptainFact):
        assert text == f"{fact.captain} takes a turn as the Captain of {fact.team} (was " \
                       f"{fact.was})"
    elif isinstance(fact, GuessFact):
        assert player == fact.guesser
        assert text.startswith((f"{fact.pointer} points at {fact.position} for {fact.guesser};",
                                f"{fact.guesser} chooses {fact.position} (after a short "
                                "circuit);"))
        assert f'names "{fact.guess}"' in text or (fact.guess == "nothing"
                                                   and "names nothing" in text)
        assert f"it is {fact.card}:" in text
        assert dict(event.points) == {fact.side: fact.points}
        assert fact.features == (("short-circuit",) if fact.guess == "short circuit" else
                                 fact.features)
    elif isinstance(fact, CupFact):
        assert player == fact.guesser
        said = "gives no answer" if fact.named is None else f"names {fact.named!r}"
        assert text.startswith(f"{said} for cup {fact.cup}")
        assert f"the {fact.colour} cup" in text
        if fact.right:
            assert fact.to == fact.guesser and "right, keeps" in text
        else:
            assert f"(it is {fact.symbol!r}): the {fact.colour} cup goes to {fact.to}," in text
    elif isinstance(fact, VolcanoFact):
        assert player == fact.player and f"the {fact.volcano} volcano" in text
        if fact.position is None:
            assert "without revealing" in text and fact.card is None
        else:
            assert text.startswith(f"reveals {fact.position} {fact.card}, ")
            assert f"of {fact.previous}:" in text
    elif isinstance(fact, SwapFact):
        assert player == fact.player
        assert text == (f"octopus swap: {fact.card_moved_to_second} {fact.first} -> "
                        f"{fact.second}, {fact.card_moved_to_first} {fact.second} -> "
                        f"{fact.first}")
    elif isinstance(fact, TreasureFact):
        assert text.startswith(f"{fact.player} is the last without a volcano")
        assert dict(event.points) == ({} if fact.rubies is None  # the stack not recorded
                                      else {fact.player: fact.rubies})
    elif isinstance(fact, StartFact):
        check_start(fact, text, number)
    elif isinstance(fact, GameEndFact):
        assert (fact.round, dict(fact.scores)) == (number, dict(ruling.rounds[number - 1].scores))
        who = " and ".join(fact.reached)
        if ruling.game == "dungeon":
            verb = "reaches" if len(fact.reached) == 1 else "reach"
            won = "wins" if len(fact.winners) == 1 else "share the victory"
            assert text == (f"{who} {verb} {fact.points} points: the game ends; "
                            f"{' and '.join(fact.winners)} {won}")
        else:
            assert text == f"{who} reached {fact.points} points: the game ends"
            assert fact.winners == tuple(ruling.winners)
    elif isinstance(fact, ExplorationEndFact):
        assert text == ("the exploration ends: " + (
            f"only {fact.player} is left in the team" if fact.reason == "one-left" else
            f"{fact.player}, the next active player, has no tile in hand"))
    elif isinstance(fact, NotCheckedFact):
        assert text.startswith("not checked: ") and all(r in text for r in fact.rules)
        assert text.endswith(f": the {fact.missing} was not recorded") or text.endswith(
            f": the {fact.missing} were not recorded")
    elif isinstance(fact, DungeonFact):
        size = f"the dungeon of {counted(fact.tiles, 'tile')}"
        assert text == (f"{size} is never Lost: the path holds to the last tile"
                        if fact.lost_at is None else
                        f"{size} is Lost at tile {fact.lost_at} ({fact.tile}, placed in turn "
                        f"{fact.turn}): {fact.reason}")
    elif isinstance(fact, SoloDungeonFact):
        assert fact.dungeon == number
        assert text == (f"dungeon {number} ({counted(fact.tiles, 'tile')}) is never Lost"
                        if fact.lost_at is None else
                        f"dungeon {number} is Lost at its tile {fact.lost_at} ({fact.tile}, tile "
                        f"{fact.stack_tile} of the stack): {fact.reason}")
    elif isinstance(fact, SoloFailureFact):
        check_solo_failure(fact, text, event.move)
    elif isinstance(fact, LayoutFact) and fact.not_recorded:
        assert text == (f"{counted(fact.memory_cards, 'memory card')}, "
                        f"{counted(fact.short_circuits, 'short circuit')} and "
                        f"{fact.not_recorded} not recorded, {fact.rows}x{fact.columns}")
    elif isinstance(fact, LayoutFact):
        assert text == (f"{counted(fact.memory_cards, 'memory card')} and "
                        f"{counted(fact.short_circuits, 'short circuit')}, "
                        f"{fact.rows}x{fact.columns}")
    elif isinstance(fact, CoverFact):
        assert text.startswith(f"rolls die {fact.die}: {fact.colour} {fact.symbol}; ")
        if fact.golden is None:
            assert fact.cup_left and text.endswith(f"; covers it with a {fact.cup} cup")
        else:
            assert fact.cup == "golden" and text.endswith("covers it with the golden cup, "
                                                          "covering ends")
            left = "" if fact.cup_left else f" (and no {fact.colour} cup is left)"
            assert (f"; the last die{left}:" in text) == (fact.golden == "last-die")
            assert (f"; no {fact.colour} cup left:" in text) == (fact.golden == "no-cup-left")
    elif isinstance(fact, RoundPointsFact):
        parts = [f"{p} +{event.points.get(p, 0)} ({', '.join(cups)})"
                 for p, cups in fact.cups.items()]
        assert text == "points: " + ("; ".join(parts) or "nobody scores")
    elif isinstance(fact, UnfinishedRoundFact):
        assert text == f"the round is unfinished in the log (still in: {', '.join(fact.still_in)})"
    elif isinstance(fact, IllegalFact):
        assert text.startswith("ILLEGAL: ") and event.rule is not None
        assert (fact.rule, fact.player) == (event.rule.id, player)
    else:
        raise AssertionError(f"no fact: {text}")


def check_start(fact: StartFact, text: str, number: int) -> None:
    """A start event's fact against its text (in round ``number``)."""
    who = fact.player
    # Said at the end of the round (exploration) before: the dungeon game, Memo Dice.
    assert fact.round == (number + 1 if fact.reason in ("last-turn", "golden-cup") else number)
    assert text == {
        "log": f"{who} starts (the log's start player)",
        "dark-volcano": f"{who} starts: took the dark volcano in round {number - 1}",
        "most-birds": f"{who} starts: took the volcano with the most birds ({fact.birds}) in "
                      f"round {number - 1}",
        "last-turn": f"next start player: {who} (took the last turn)",
        "golden-cup": f"{who} had the golden cup: {who} begins round {number + 1}",
        "fewest-points": f"{who} starts: fewest points" + (" (a tie, any of them)" if fact.tie
                                                            else ""),
        "random": f"{who} is the first active player (chosen at random)",
    }[fact.reason]


def check_solo_failure(fact: SoloFailureFact, text: str, move: MoveRef | None) -> None:
    assert move is not None and move.round == fact.dungeon
    assert text.startswith(f"tile {fact.stack_tile} of the stack: {fact.tile} ")
    assert f"({fact.failure})" in text
    assert text.endswith(f"the score counts the {counted(fact.score, 'tile')} before it")


def check_violation_fact(violation: Violation, ruling: Ruling) -> None:
    """A violation's fact against its message."""
    fact, message = violation.fact, violation.message
    if isinstance(fact, GameEndFact):
        assert dict(fact.scores) == dict(ruling.rounds[fact.round - 1].scores)
        assert (f"after exploration {fact.round} ({' and '.join(fact.reached)} reached "
                f"{fact.points} points)" in message
                or f"after the game ended in round {fact.round}" in message
                or f"after the game ended with round {fact.round}" in message)
    elif isinstance(fact, StartFact):
        assert fact.reason == "last-turn" and message.startswith(
            f"the start player is {fact.player}, who took the last turn of exploration "
            f"{fact.round - 1}, not ")
    elif isinstance(fact, SoloFailureFact):
        check_solo_failure(fact, message, violation.move)
    elif isinstance(fact, PositionFact):
        assert message.startswith((f"{fact.position} ", f"marked {fact.position} ",
                                   f"peeked at {fact.position}, ")) or (
            message.startswith("swapped ") and f" with {fact.position}, but " in message)
        assert fact.card is None or message.startswith(f"{fact.position} ({fact.card}) ")
    elif isinstance(fact, ScoreFact):
        assert message.startswith(f"{counted(fact.recorded, 'point')} recorded; ")
        assert fact.recorded != fact.points
        due = "no points" if fact.points == 0 else counted(fact.points, "point")
        assert f": {due}" in message.removeprefix(f"{fact.recorded} ")
    elif isinstance(fact, CoverFact):  # a cover as played, with a cup that was not due
        assert fact.golden is None
        assert message.startswith((f"{fact.colour} {fact.symbol} covered with ",
                                   f"the last die ({fact.symbol}) covered with "))
        assert (f" covered with a {fact.cup} cup" in message
                or f" covered with the {fact.cup} cup" in message)
        if not message.startswith("the last die"):  # which does not say whether one was left
            assert fact.cup_left == (f"no {fact.colour} cup was left" not in message)
    elif isinstance(fact, TileFact):
        assert message.startswith((f"{fact.player} draws {fact.tile}, but ",
                                   f"{fact.player} plays {fact.tile}, which is not in their "
                                   "hand"))
    elif isinstance(fact, DieFact):
        if fact.symbol is None:
            assert message == f"die {fact.die} was already rolled and covered this round"
        elif fact.colour is None:
            assert message == f"die {fact.die} has no {fact.symbol!r} face"
        else:
            assert message.startswith(f"{fact.symbol} is {fact.colour} on die {fact.die}, not ")
    elif isinstance(fact, UncoverFact):
        assert message == (f"cup {fact.cup} is uncovered before cup {fact.due}"
                           if fact.due is not None else
                           f"cup {fact.cup} was already uncovered (it went to {fact.holder})")
    elif isinstance(fact, PeekSideFact):
        assert message == (f"{fact.player} peeked at the {fact.side} side, already chosen by "
                           f"{fact.chosen_by}")
    elif isinstance(fact, LayoutFact):
        assert message.startswith(f"{fact.memory_cards} memory cards and {fact.short_circuits} "
                                  f"short circuits in {fact.rows}x{fact.columns} places (")
    elif isinstance(fact, SoloTilesFact):
        assert message.startswith(f"{fact.placed} tiles placed; ")
        assert message.endswith(f": missing {', '.join(fact.missing)}")
    elif isinstance(fact, SeedTileFact):
        assert message == (f"tile {fact.stack_tile} of seed {fact.seed} is {fact.tile}, not "
                           f"{fact.placed}")
    elif isinstance(fact, AnnounceFact):
        assert message == {
            "active": f"{fact.player} is the active player and cannot announce Lost",
            "twice": f"{fact.player} announces Lost twice in one turn",
            "left": f"{fact.player} already left the team (LOST card after tile {fact.after}) "
                    "and cannot announce again"}[fact.reason]
    elif isinstance(fact, HandSizeFact):
        assert message.startswith(f"{fact.player} was dealt " + (
            "no hand" if fact.tiles is None else counted(fact.tiles, "tile")) + "; the ")
        assert message.endswith((f" rules deal {fact.size}", f" rules deal {fact.size} tiles"))
    elif isinstance(fact, CoveringEndedFact):
        assert message == (f"{fact.player} rolls die {fact.die} after {fact.golden_by} covered "
                           "a die with the golden cup, which ended covering")
    elif isinstance(fact, TurnFact):
        assert fact.player != fact.expected
        assert fact.player in message and fact.expected in message
    else:
        assert isinstance(fact, UnsetType), message


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_event_states_its_fact_as_fields_that_say_the_same(path: Path) -> None:
    ruling = rule(path)
    for rnd in ruling.rounds:
        for event in rnd.events:
            assert not isinstance(event.fact, UnsetType), f"no fact: {event.text}"
            check_fact(event, rnd.number, ruling)
    for violation in ruling.violations:
        check_violation_fact(violation, ruling)
    VALIDATOR.validate(json.loads(ruling.to_json()))


def test_the_game_end_a_violation_names_is_a_field() -> None:
    ruling = rule(ROOT / "fixtures" / "dungeon" / "illegal-after-game-end.json")
    fact = next(v.fact for v in ruling.violations if v.rule.id == "dungeon/game-end")
    assert isinstance(fact, GameEndFact) and fact.round == 3 and fact.winners == ("Cy",)
    document = json.loads(ruling.to_json())
    written = next(v for v in document["violations"] if v["rule"]["id"] == "dungeon/game-end")
    assert list(written) == ["rule", "move", "message", "fact"]
    assert written["fact"]["kind"] == "game-end" and written["fact"]["scores"]["Cy"] == 3


def test_an_event_without_a_fact_has_no_fact_key() -> None:
    assert b'"fact"' not in Ruling("g", "g/1", "s", ["Ann"], [], {}, []).to_json()
    event = Event("Ann starts")
    assert event.to_dict() == {"text": "Ann starts", "move": None, "rule": None, "points": {}}


def test_schema_ruling_is_published() -> None:
    result = CliRunner().invoke(cli, ["schema", "ruling"])
    assert result.exit_code == 0, result.output
    schema = json.loads(result.output)
    assert schema == json.loads(json.dumps(ruling_schema()))
    kinds = {d["properties"]["kind"]["enum"][0] for name, d in schema["$defs"].items()
             if name.endswith("Fact")}
    assert kinds == {"lost-card", "void-announcements", "captain", "guess", "cup", "volcano",
                     "swap", "treasure", "start", "turn", "position", "tile", "score",
                     "die", "uncover", "peek-side", "solo-tiles", "seed-tile",
                     "announce", "hand-size", "covering-ended",
                     "game-end",
                     "exploration-end", "not-checked", "dungeon", "solo-dungeon",
                     "solo-failure", "layout", "cover", "round-points", "unfinished-round",
                     "illegal"}
    assert "ruling" in CliRunner().invoke(cli, ["schema", "--list"]).output.split()


@pytest.mark.parametrize("game", ["dungeon", "memoarrr", "memo-dice", "robot-memory"])
def test_random_games_and_their_deal_less_copies_state_every_fact(game: str) -> None:
    """Beyond the fixtures: generated games (and, for the dungeon game, the same games with
    the deal left out, whose rulings say what they do not check)."""
    plugin = games.load(game)
    rng = random.Random(21)
    for _ in range(6):
        logs = [plugin.random_game(rng)]
        if game == "dungeon":
            logs += [{**logs[0], "explorations": [
                {k: v for k, v in exp.items() if k not in leave_out}
                for exp in logs[0]["explorations"]]}
                for leave_out in (("hands",), ("deck",), ("hands", "deck"))]
        for log in logs:
            adjudicator = games.for_format(str(log["format"]))
            ruling = adjudicator.adjudicate(log, source="gen",
                                            options=games.AdjudicateOptions())
            for rnd in ruling.rounds:
                for event in rnd.events:
                    assert not isinstance(event.fact, UnsetType), f"no fact: {event.text}"
                    check_fact(event, rnd.number, ruling)
            for violation in ruling.violations:
                check_violation_fact(violation, ruling)
