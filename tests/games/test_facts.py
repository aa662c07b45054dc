"""Facts as fields: every fact an event states in words is also in its JSON (``fact``), and
the fields say what the text says, on every fixture of every game. ``pathcheck schema
ruling`` is generated from the same structs and every ruling validates against it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from msgspec import UnsetType

from pathcheck import games, notation
from pathcheck.check import _OUTCOME_TEXTS, CardOutcome
from pathcheck.cli import cli
from pathcheck.ruling import (
    CaptainFact,
    CupFact,
    Event,
    GuessFact,
    LostCardFact,
    Ruling,
    SwapFact,
    TreasureFact,
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


def check_fact(event: Event) -> None:
    """The fields of ``event.fact`` against ``event.text`` (and its move and points)."""
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
    else:
        raise AssertionError(f"no fact: {text}")


def states_a_fact(game: str, event: Event) -> bool:
    """Whether ``event`` states one of the facts the rulings must give as fields."""
    text = event.text
    if text.startswith("ILLEGAL"):
        return False
    pointer = "" if event.move is None else event.move.pointer
    if game == "dungeon":
        return ("LOST card after tile" in text or ": did not announce" in text
                or " announced Lost" in text)
    if game == "robot-memory":
        return "/picks/" in pointer or "takes a turn as the Captain" in text
    if game == "memo-dice":
        return "/uncovering/" in pointer
    return text.startswith(("octopus swap", "reveals ", "takes the ")) or \
        "takes the top treasure" in text


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fact_in_words_is_a_field_that_says_the_same(path: Path) -> None:
    ruling = rule(path)
    facts = 0
    for rnd in ruling.rounds:
        for event in rnd.events:
            if isinstance(event.fact, UnsetType):
                assert not states_a_fact(ruling.game, event), event.text
            else:
                check_fact(event)
                facts += 1
    assert facts or not path.name.startswith("legal") or ruling.format == "solo/1"
    VALIDATOR.validate(json.loads(ruling.to_json()))


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
                     "swap", "treasure"}
    assert "ruling" in CliRunner().invoke(cli, ["schema", "--list"]).output.split()
