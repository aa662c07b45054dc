"""Facts as fields: every fact an event or a violation states in words is also in its JSON
(``fact``), and the fields say what the text says, on every fixture of every game and on
generated and mutated games: no event lacks a fact, and no violation (``Violation.fact`` is
required). ``pathcheck schema ruling`` is generated from the same structs and every ruling
validates against it."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, get_args

import jsonschema
import pytest
from click.testing import CliRunner
from msgspec import UnsetType

from pathcheck import games, notation
from pathcheck.cli import cli
from pathcheck.errors import PathcheckError
from pathcheck.facts import (
    CoveringStopsFact,
    DealtTileFact,
    DeckSizeFact,
    FaceDownFact,
    Fact,
    FewestPointsFact,
    FirstTileFact,
    MissingTilesFact,
    NeverUncoveredFact,
    NoFeatureFact,
    RepeatedCardFact,
    RoundEndFact,
    RoundsFact,
    SeedRulesFact,
    ShortCircuitsFact,
    TreasureStackFact,
    UnfinishedExplorationFact,
    UnfinishedGameFact,
    UnusedAbilityFact,
)
from pathcheck.games.dungeon.rules import rules_text
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
from pathcheck.tracer.check import _OUTCOME_TEXTS, CardOutcome
from tests.fuzz import json_paths
from tests.games.test_dealless_exact import MUTATIONS, STRIPS, mutate
from tests.games.test_unseen import without_deal

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(p for game in ("dungeon", "memoarrr", "memo-dice", "robot-memory")
                  for p in (ROOT / "fixtures" / game).glob("*")
                  if p.suffix in (".json", ".pcn") and not p.name.startswith("malformed"))


VALIDATOR = jsonschema.Draft202012Validator(ruling_schema())
VIOLATION_VALIDATOR = jsonschema.Draft202012Validator(
    {"$ref": "#/$defs/ViolationDocument", "$defs": ruling_schema()["$defs"]})


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
        assert text == f"the exploration ends: {exploration_end_words(fact)}"
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


def exploration_end_words(fact: ExplorationEndFact) -> str:
    return (f"only {fact.player} is left in the team" if fact.reason == "one-left" else
            f"{fact.player}, the next active player, has no tile in hand")


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


def check_every_fact(ruling: Ruling) -> None:
    """Every event of ``ruling`` states a fact, and each fact (of an event or a violation)
    says what its text says."""
    for rnd in ruling.rounds:
        for event in rnd.events:
            assert not isinstance(event.fact, UnsetType), f"no fact: {event.text}"
            check_fact(event, rnd.number, ruling)
    for violation in ruling.violations:
        check_violation_fact(violation, ruling)


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
                                   f"marked {fact.position}, ",
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
        assert message.startswith((f"{fact.player} draws {fact.tile or 'nothing'}, but ",
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
    elif isinstance(fact, ExplorationEndFact):
        assert message == (f"the exploration had already ended ({exploration_end_words(fact)}): "
                           f"no turn {violation.move.index} is played")
    else:
        check_new_violation_fact(violation, ruling)


def check_new_violation_fact(violation: Violation, ruling: Ruling) -> None:
    """The violations' facts that only violations carry, against their messages (the rest of
    :func:`check_violation_fact`); a violation of no known kind fails."""
    fact, message, move = violation.fact, violation.message, violation.move
    if isinstance(fact, DeckSizeFact):
        assert fact.expected == fact.set_size - fact.players * fact.hand_size != fact.tiles
        assert message == (f"the deck holds {counted(fact.tiles, 'tile')}; after dealing "
                           f"{fact.hand_size} to each of {fact.players} players the {fact.mode} "
                           f"rules leave {fact.expected} of the {fact.set_size}")
    elif isinstance(fact, DealtTileFact):
        assert (fact.also_at is None) == (fact.reason != "twice")
        assert message == {
            "start": f"{fact.tile} lies in the middle of the table: it is not dealt",
            "not-in-play": f"{fact.tile} is not in play with the {fact.mode} rules",
            "twice": f"{fact.tile} is dealt twice (also at {fact.also_at})"}[fact.reason]
    elif isinstance(fact, MissingTilesFact):
        are = "is" if len(fact.tiles) == 1 else "are"
        assert message == (f"{counted(len(fact.tiles), 'tile')} of the {fact.mode} set {are} in "
                           f"no hand and not in the deck: {', '.join(fact.tiles)}")
    elif isinstance(fact, UnfinishedExplorationFact):
        going = (f"still in the team: {', '.join(fact.team)}" if fact.turns else
                 "no turn is recorded")
        assert message == f"the log stops while the exploration goes on ({going})"
        assert move.round is not None
        assert ruling.rounds[move.round - 1].title.endswith(f", {counted(fact.turns, 'turn')})")
    elif isinstance(fact, UnfinishedGameFact):
        assert message == (f"the log ends before anyone reached {fact.points} points (best: "
                           f"{' and '.join(fact.leaders)} with {fact.best})")
        assert fact.best == max(ruling.final_scores.values()) < fact.points
        assert fact.leaders == tuple(p for p, s in ruling.final_scores.items() if s == fact.best)
    elif isinstance(fact, CoveringStopsFact):
        dice = "1 die" if fact.covered == 1 else f"{fact.covered} dice"
        assert message == (f"covering stops after {dice}, before any was covered with the "
                           "golden cup")
        assert move.index == fact.covered
    elif isinstance(fact, NeverUncoveredFact):
        cups = ", ".join(map(str, fact.cups))
        assert message == (f"cup {cups} was never uncovered; it scores for nobody"
                           if len(fact.cups) == 1 else
                           f"cups {cups} were never uncovered; they score for nobody")
    elif isinstance(fact, UnusedAbilityFact):
        assert (fact.animal, fact.ability) in {("octopus", "swap"), ("walrus", "mark"),
                                               ("penguin", "peek")}
        assert message == f"the {fact.animal} {fact.ability} was not recorded"
    elif isinstance(fact, FaceDownFact):
        if fact.positions is None:
            assert message == f"took a volcano with {counted(fact.cards, 'face-down card')} left"
        else:
            assert len(fact.positions) == fact.cards
            assert message == (f"the round ends with {counted(fact.cards, 'card')} face down: "
                               f"{', '.join(fact.positions)}")
    elif isinstance(fact, TreasureStackFact):
        assert fact.recorded != fact.ordered
        assert message == (f"the ordered stack must be {','.join(map(str, fact.ordered))} from "
                           f"the top, not {','.join(map(str, fact.recorded))}")
    elif isinstance(fact, RoundEndFact):
        if fact.still_in:
            assert move.round == fact.round + 1
            assert message == (f"round {fact.round + 1} began before round {fact.round}'s last "
                               f"volcano was taken (still in: {', '.join(fact.still_in)})")
        else:
            assert move.round == fact.round
            assert message == "the round was already over: the last volcano was taken"
    elif isinstance(fact, ShortCircuitsFact):
        short = counted(fact.short_circuits, "short circuit")
        if fact.players is None:
            assert fact.short_circuits > fact.limit
            assert message == f"{short}; the box has {fact.limit}"
        else:
            assert fact.players >= 5
            assert message == (f"{short} with {fact.players} players; 5 or more add at least "
                               f"{fact.limit}")
    elif isinstance(fact, RepeatedCardFact):
        assert fact.first != fact.position
        assert message == f"{fact.card} is laid out twice: at {fact.first} and {fact.position}"
    elif isinstance(fact, NoFeatureFact):
        assert move.player == fact.guesser
        assert message == f"no feature named for {fact.position}"
    elif isinstance(fact, FewestPointsFact):
        assert move.player == fact.player and fact.player not in fact.due
        assert fact.points > fact.fewest
        assert message == (f"{fact.player} starts with {counted(fact.points, 'point')}; fewest "
                           f"is {fact.fewest} ({', '.join(fact.due)})")
    elif isinstance(fact, RoundsFact):
        assert message == (f"a round {fact.round} is recorded; the game has {fact.rounds}"
                           if fact.round > fact.rounds else
                           f"only {counted(fact.round, 'round')} recorded; the game has "
                           f"{fact.rounds}")
    elif isinstance(fact, FirstTileFact):
        assert fact.tile != fact.start
        assert message == f"the first tile is {fact.tile}; the solo game starts with {fact.start}"
    elif isinstance(fact, SeedRulesFact):
        assert fact.rules != fact.recorded
        assert message == (f"seed {fact.seed} plays with additional rules "
                           f"{rules_text(fact.rules)}; the record with {rules_text(fact.recorded)}")
    else:
        raise AssertionError(f"no fact: {message}")


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_event_states_its_fact_as_fields_that_say_the_same(path: Path) -> None:
    ruling = rule(path)
    check_every_fact(ruling)
    document = json.loads(ruling.to_json())
    VALIDATOR.validate(document)
    assert all("fact" in v for v in document["violations"])


def test_the_fixtures_state_every_kind_of_fact() -> None:
    """Every kind of fact is stated by some fixture, so that the checks above check it."""
    stated = {type(fact) for path in FIXTURES for fact in facts_of(rule(path))}
    assert set(get_args(Fact)) - stated == set()


def facts_of(ruling: Ruling) -> list[Fact]:
    return [*(e.fact for r in ruling.rounds for e in r.events
              if not isinstance(e.fact, UnsetType)),
            *(v.fact for v in ruling.violations)]


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
                     "illegal", "deck-size", "dealt-tile", "missing-tiles",
                     "unfinished-exploration", "unfinished-game", "covering-stops",
                     "never-uncovered", "unused-ability", "face-down", "treasure-stack",
                     "round-end", "short-circuits", "repeated-card", "no-feature",
                     "fewest-points", "rounds", "first-tile", "seed-rules"}
    assert "fact" in schema["$defs"]["ViolationDocument"]["required"]
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
            check_every_fact(adjudicator.adjudicate(log, source="gen",
                                                    options=games.AdjudicateOptions()))


def _mutated(log: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``log`` with one to three of its lists or values changed the way a table gets a log
    wrong: an entry dropped, repeated, moved or copied over another, a value replaced by one
    of the same type from elsewhere in the log."""
    log = copy.deepcopy(log)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in json_paths(log) if p and p[0] != "format"]
        path = rng.choice(paths)
        parent: Any = log
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = rng.choice(["drop", "repeat", "move", "copy"])
        if isinstance(parent, list):
            if how == "drop":
                del parent[key]
            elif how == "repeat":
                parent.insert(key, copy.deepcopy(parent[key]))
            elif how == "move":
                other = rng.randrange(len(parent))
                parent[key], parent[other] = parent[other], parent[key]
            else:
                parent[key] = copy.deepcopy(rng.choice(parent))
        elif how == "drop":
            del parent[key]
        elif not isinstance(parent[key], (dict, list)):
            values = []
            for elsewhere in json_paths(log):
                value: Any = log
                for part in elsewhere:
                    value = value[part]
                if type(value) is type(parent[key]):
                    values.append(value)
            parent[key] = rng.choice(values)
    return log


@pytest.mark.parametrize("game", ["dungeon", "memoarrr", "memo-dice", "robot-memory"])
def test_mutated_games_state_the_fact_of_every_violation(game: str) -> None:
    """Rule-breaking logs beyond the fixtures: every violation of every mutated game carries a
    fact that says what its message says."""
    plugin = games.load(game)
    rng = random.Random(4)
    base = [plugin.random_game(rng) for _ in range(4)]
    logs = [_mutated(rng.choice(base), rng) for _ in range(120)]
    if game == "dungeon":  # and the deal's own breaks, with the deal recorded or not
        for kind in MUTATIONS:
            log = copy.deepcopy(rng.choice(base))
            mutate(log, kind, rng)
            logs += [log, *(without_deal(log, keep) for keep in STRIPS)]
    rules: set[str] = set()
    for log in logs:
        adjudicator = games.for_format(str(log.get("format", "game/1")))
        try:
            ruling = adjudicator.adjudicate(log, source="mutated",
                                            options=games.AdjudicateOptions())
        except PathcheckError:
            continue  # malformed, not rule-breaking
        for violation in ruling.violations:
            check_violation_fact(violation, ruling)
            if violation.rule.id not in rules:  # and its JSON, once a rule (it takes time)
                VIOLATION_VALIDATOR.validate(violation.to_dict())
            rules.add(violation.rule.id)
    assert len(rules) >= 5  # the mutations break rules of many kinds
