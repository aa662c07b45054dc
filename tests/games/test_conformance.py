"""One conformance suite for every installed game (as OpenSpiel checks every game with one
random-playthrough test): parametrised over the ``pathcheck.games`` entry points.

For each game: random legal games are ruled legal; every fixture in ``fixtures/<game>/`` rules
as its name says (``legal-*``, ``illegal-*``, ``malformed-*``); fuzzed logs give a ruling or a
one-line RecordError, never anything else; the game's JSON Schema accepts every legal fixture;
``--at`` draws every moment and rejects the rest in one line. What is particular to a game
(exact scores, messages, quotes) is tested in its own file beside this one.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import games, schemas
from pathcheck.cli import cli
from pathcheck.errors import RecordError
from pathcheck.games import AdjudicateOptions, Adjudicator
from pathcheck.ruling import GAME_TITLES, Outcome, Ruling, render_text
from tests.fuzz import json_paths, json_values, mutate

GAMES = sorted(games.available())
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
KINDS = ("legal", "illegal", "malformed")
OPTIONS = AdjudicateOptions()
EXIT_ILLEGAL, EXIT_INVALID = 1, 3


def fixtures_of(game: str) -> list[Path]:
    return sorted((FIXTURES / game).glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return value


@cache
def adjudicator(game: str) -> Adjudicator:
    return games.load(game)


PATHS = [(game, path) for game in GAMES for path in fixtures_of(game)]
CASES = [pytest.param(game, path, id=f"{game}/{path.stem}") for game, path in PATHS]
LEGAL = [pytest.param(game, path, id=f"{game}/{path.stem}") for game, path in PATHS
         if path.name.startswith("legal-")]


def rule_or_record_error(game: str, log: Any) -> Ruling | RecordError:
    """What adjudicating ``log`` gives; anything but a Ruling (that renders as text and JSON)
    or a one-line RecordError fails."""
    try:
        ruling = adjudicator(game).adjudicate(log, source="fuzz", options=OPTIONS)
    except RecordError as exc:
        assert "\n" not in str(exc), str(exc)
        assert exc.pointer == "" or exc.pointer.startswith("/"), exc.pointer
        return exc
    render_text(ruling)
    json.dumps(ruling.to_dict())
    return ruling


# --- the plug-in and its fixtures ----------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_plugin_provides_the_api(game: str) -> None:
    plugin = adjudicator(game)
    assert isinstance(plugin, Adjudicator)
    assert plugin.name == game and plugin.title
    assert len(plugin.formats) == len(plugin.schemas) >= 1
    for fmt in plugin.formats:
        assert games.for_format(fmt) is plugin
    for name in plugin.schemas:
        assert name in schemas.names()


@pytest.mark.parametrize("game", GAMES)
def test_fixtures_are_named_after_their_ruling(game: str) -> None:
    names = [p.stem for p in fixtures_of(game)]
    kinds = {name.split("-", 1)[0] for name in names}
    assert kinds == set(KINDS), f"fixtures/{game}/ needs legal-, illegal- and malformed- logs"


@pytest.mark.parametrize(("game", "path"), CASES)
def test_fixture_rules_as_its_name_says(game: str, path: Path) -> None:
    kind = path.name.split("-", 1)[0]
    log = load(path)
    if kind == "malformed":
        with pytest.raises(RecordError) as info:
            adjudicator(game).adjudicate(log, source=path.name, options=OPTIONS)
        pointer = info.value.pointer
        assert "\n" not in str(info.value) and (pointer == "" or pointer.startswith("/"))
        return
    ruling = adjudicator(game).adjudicate(log, source=path.name, options=OPTIONS)
    assert ruling.game == game and ruling.format in adjudicator(game).formats
    assert ruling.outcome is Outcome(kind)
    # the JSON ruling inlines each part's own to_dict (for speed): they must agree
    assert ruling.to_dict()["rounds"] == [r.to_dict() for r in ruling.rounds]
    if kind == "illegal":
        assert ruling.violations
        for violation in ruling.violations:
            assert violation.rule.quote and violation.rule.section and violation.message
            assert violation.move.pointer.startswith("/")
    else:
        assert not ruling.violations


SEMANTIC = ("unknown-player", "unknown-tile", "rule4-basic", "cup-range", "duplicate-card",
            "off-grid")
"""Malformed fixtures whose fault no JSON Schema can see (the reader's checks in code)."""


@pytest.mark.parametrize(("game", "path"), CASES)
def test_generated_schema_accepts_legal_logs_and_rejects_malformed_ones(game: str,
                                                                       path: Path) -> None:
    """The published schema (generated from the typed format) agrees with the reader: every
    legal and illegal fixture fits it, every malformed one with a structural fault does not."""
    import jsonschema

    log = load(path)
    plugin = adjudicator(game)
    fmt = log.get("format", plugin.formats[0])
    schema = schemas.load(plugin.schemas[plugin.formats.index(fmt)])
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(log))
    structural = path.name.startswith("malformed-") and not path.stem.endswith(SEMANTIC)
    assert bool(errors) == structural, [e.message for e in errors]


# --- random legal games -------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_legal_games_are_ruled_legal(game: str, seed: int) -> None:
    log = adjudicator(game).random_game(random.Random(seed))
    ruling = adjudicator(game).adjudicate(log, source=f"seed {seed}", options=OPTIONS)
    assert not ruling.violations and ruling.outcome is Outcome.LEGAL


# --- fuzzing: a ruling or a one-line RecordError, nothing else -----------------------------


def words_and_keys(document: Any) -> tuple[list[str], list[str]]:
    """The strings and object keys of a document, for plausible fuzz values."""
    words: set[str] = {"", "x"}
    keys: set[str] = {"format"}
    for path in json_paths(document):
        value = document
        for key in path:
            value = value[key]
        if isinstance(value, str):
            words.add(value)
        keys.update(k for k in path if isinstance(k, str))
    return sorted(words), sorted(keys)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 1000))
def test_mutated_logs_give_a_ruling_or_a_one_line_error(game: str, data: st.DataObject,
                                                        seed: int) -> None:
    log = adjudicator(game).random_game(random.Random(seed))
    words, keys = words_and_keys(log)
    mutate(data, log, json_values(words, keys), renames=keys)
    rule_or_record_error(game, log)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_documents_give_a_ruling_or_a_one_line_error(game: str,
                                                           data: st.DataObject) -> None:
    words, keys = words_and_keys(load(fixtures_of(game)[-1]))
    value = data.draw(json_values(words, keys))
    if isinstance(value, dict) and data.draw(st.booleans()):
        value["format"] = data.draw(st.sampled_from(adjudicator(game).formats))
    rule_or_record_error(game, value)


# --- --at: the state at a moment ----------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["adjudicate", *args])


@pytest.mark.parametrize("game", GAMES)
def test_pictures_cover_the_moments_that_at_shows(game: str) -> None:
    path = next(p for p in fixtures_of(game) if p.name.startswith("legal-"))
    pictures = adjudicator(game).pictures(load(path), source=path.name)
    moments = [moment for moment, _ in pictures]
    assert moments == sorted(moments) and moments[0].round == 1
    for moment, picture in (pictures[0], pictures[len(pictures) // 2], pictures[-1]):
        assert picture
        result = invoke(game, str(path), "--at", str(moment))
        assert result.exit_code == 0, result.output
        assert picture in result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_at_outside_the_log_is_a_one_line_error(game: str) -> None:
    path = next(p for p in fixtures_of(game) if p.name.startswith("legal-"))
    result = invoke(game, str(path), "--at", "99.0")
    assert result.exit_code == EXIT_INVALID
    assert "--at 99.0: out of range; this log can show 1." in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("at", "message"), [
    ("x", "'x': expected ROUND.TURN, e.g. 2.5 (round from 1, turn from 0)"),
    ("0.1", "'0.1': expected ROUND.TURN"),
])
def test_at_that_is_no_moment_is_a_usage_error(at: str, message: str) -> None:
    path = next(p for p in fixtures_of(GAMES[0]) if p.name.startswith("legal-"))
    result = invoke(str(path), "--at", at)
    assert result.exit_code == 2 and result.stdout == ""  # before any log is ruled on
    assert f"Invalid value for '--at': {message}" in result.stderr


# --- the command line, the same for every game --------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_cli_picks_the_game_from_the_format_and_exits_by_outcome(game: str) -> None:
    for kind, code in (("legal", 0), ("illegal", EXIT_ILLEGAL), ("malformed", EXIT_INVALID)):
        path = next(p for p in fixtures_of(game) if p.name.startswith(f"{kind}-"))
        result = invoke(str(path))
        assert result.exit_code == code, result.output
        if kind == "malformed":
            assert result.stderr.startswith(f"pathcheck: invalid: {path}:1: /")
            assert len(result.stderr.strip().splitlines()) == 1
        else:
            assert f"{path}: {GAME_TITLES.get(game, game)} (" in result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_cli_json_ruling_names_the_game(game: str) -> None:
    path = next(p for p in fixtures_of(game) if p.name.startswith("illegal-"))
    result = invoke(game, "--format", "json", str(path))
    assert result.exit_code == EXIT_ILLEGAL
    [ruling] = json.loads(result.stdout)
    assert ruling["game"] == game and ruling["outcome"] == "illegal" and ruling["violations"]
