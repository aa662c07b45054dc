"""The game notation is lossless for every value: JSON -> .pcn -> JSON is the identity, for
any text in a name, symbol or free-text field and for wrong-typed values, and the ruling does
not change (docs/formats.md#values-in-the-notation)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck import games, notation
from pathcheck.errors import RecordError
from pathcheck.games.dungeon import gen as dungeon_gen
from pathcheck.games.memo_dice import gen as dice_gen
from pathcheck.games.memoarrr import gen as memoarrr_gen
from pathcheck.games.robot_memory import gen as robot_gen
from pathcheck.notation import Reader, same

ROOT = Path(__file__).resolve().parents[1]

NASTY = ["a\\b/c", "a/b", 'a/"b', "\r", "x\ry", "\u2028", "\u2029", "\x85", "\f", "\v", "\t",
         "\x1c", "\u00a0", "\u200b", "-", "?", "$5", "$", "#!x", "#", "round", "exploration",
         "hand", "deck", "+x", "!y", "|", "=3", "r1c1", "2x3", '"', '"q', "{", "}", "{a}", ".",
         "·", ";", "short-circuit", "volcano", "captain", "123", "x@N", "swap=B2", "a=b/c",
         " lead", "trail ", "\\", "\\u0041", "\U0001f600", "\ue000", "\u0301", "a b", "null"]
TEXT = st.one_of(st.text(max_size=10), st.sampled_from(NASTY),
                 st.lists(st.sampled_from(NASTY), max_size=3).map("".join))
NAME = TEXT.filter(bool)  # an empty name is malformed and has no notation of its own


def _base_logs() -> list[dict[str, Any]]:
    rng = random.Random(21)
    logs = [dungeon_gen.random_game(rng, players=3, advanced=False, rules={1, 2}),
            dungeon_gen.random_game(rng, players=2, advanced=True, rules={4}),
            memoarrr_gen.random_game(rng, players=3, edition=2023, expert=True,
                                     ordered_stack=False),
            memoarrr_gen.random_game(rng, players=2, edition=2018, expert=False,
                                     ordered_stack=True),
            dice_gen.random_game(rng, with_dice=True),
            dice_gen.random_game(rng, with_dice=False),
            robot_gen.random_game(rng, variant="standard"),
            robot_gen.random_game(rng, variant="team")]
    for name in ("legal-solo-perfect-rules-2-3-4.json", "legal-solo-seed-perfect.json"):
        logs.append(json.loads((ROOT / "fixtures" / "dungeon" / name).read_text("utf-8")))
    return logs


BASES = _base_logs()
BASE = st.sampled_from(range(len(BASES))).map(lambda i: copy.deepcopy(BASES[i]))


def ruling_of(log: dict[str, Any]) -> Any:
    """The ruling on a log as JSON, or the error it is rejected with."""
    try:
        ruling = games.for_format(str(log["format"])).adjudicate(
            copy.deepcopy(log), source="log", options=games.AdjudicateOptions())
    except RecordError as exc:  # a malformed log: the same error after the round trip
        return f"{type(exc).__name__}: {exc}"
    return ruling.to_dict()


def assert_lossless(log: dict[str, Any]) -> str:
    text = notation.write(log)
    back = notation.parse(text, source="log.pcn")
    assert same(back, log), text
    assert notation.write(back) == text
    assert ruling_of(back) == ruling_of(log)
    return text


def literal_values(text: str) -> list[str]:
    """The '$' values of a notation text (a value its usual form could not carry)."""
    reader = Reader(text, "log.pcn")
    lines = [line for _, line in reader.header.values()] + list(reader.lines)
    return [t.text for line in lines for t in line.tokens if t.kind == "json"]


# --- any text in every name, symbol and free-text field ------------------------------------

def _names(log: dict[str, Any]) -> list[str]:
    """The player (and team) names and the symbols (cards, die faces) of a log."""
    found: list[str] = list(log.get("players", ()))
    for team in log.get("teams", ()):
        found += [team["name"], *team["members"]]
    for die in log.get("dice", ()):
        found += [face["symbol"] for face in die]
    for rnd in log.get("rounds", ()):
        found += [roll["symbol"] for roll in rnd.get("covering", ())]
        found += [g["guess"] for g in rnd.get("uncovering", ()) if g["guess"] is not None]
    found += [card for row in log.get("island", ()) for card in row if card is not None]
    return list(dict.fromkeys(found))


def _rename(value: Any, new: dict[str, str]) -> Any:
    if isinstance(value, str):
        return new.get(value, value)
    if isinstance(value, list):
        return [_rename(x, new) for x in value]
    if isinstance(value, dict):
        return {new.get(k, k): _rename(v, new) for k, v in value.items()}
    return value


_FREE_TEXT: dict[str, list[Callable[[dict[str, Any], str], None]]] = {
    "game/1": [lambda log, t: log.__setitem__("note", t),
               lambda log, t: log.__setitem__("id", t),
               lambda log, t: log["explorations"][0].__setitem__("note", t),
               lambda log, t: log["explorations"][0]["turns"][0].__setitem__("note", t),
               lambda log, t: log["explorations"][-1]["turns"][-1].__setitem__("note", t)],
    "solo/1": [lambda log, t: log.__setitem__("note", t),
               lambda log, t: log.__setitem__("id", t)],
    "memo-dice/1": [lambda log, t: log.__setitem__("comment", t),
                    lambda log, t: log["rounds"][0].__setitem__("comment", t)],
    "memoarrr/1": [lambda log, t: log.__setitem__("comment", t),
                   lambda log, t: log["rounds"][0].__setitem__("comment", t)],
    "robot-memory/1": [lambda log, t: log.__setitem__("event", t)],
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=BASE, data=st.data())
def test_any_text_in_names_symbols_and_free_text_round_trips(base: dict[str, Any],
                                                           data: st.DataObject) -> None:
    old = _names(base)
    new = data.draw(st.lists(NAME, min_size=len(old), max_size=len(old), unique=True))
    log = _rename(base, dict(zip(old, new, strict=True)))
    for put in _FREE_TEXT[log["format"]]:
        put(log, data.draw(TEXT))
    text = assert_lossless(log)
    assert literal_values(text) == []  # text of any kind has its usual, quoted form
    assert text.count("\n") == len(text.splitlines())  # no value broke a line


@pytest.mark.parametrize("value", NASTY)
def test_each_awkward_text_as_every_kind_of_value(value: str) -> None:
    for base in BASES:  # (the rulings: the property above; here the exact text, quickly)
        log = _rename(base, {name: value + str(i) for i, name in enumerate(_names(base))})
        for put in _FREE_TEXT[log["format"]]:
            put(log, value)
        text = notation.write(log)
        assert same(notation.parse(text, source="log.pcn"), log), text
        assert literal_values(text) == []


# --- wrong-typed values --------------------------------------------------------------------

JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20)
    | st.floats(allow_nan=False, allow_infinity=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a log (but its format) where a value stands."""
    found = [path] if path and path != ("format",) else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


def _retyped(value: Any) -> st.SearchStrategy[Any]:
    """Values of another JSON type, the commonest mistakes first (a number as a string...)."""
    near: list[Any] = []
    if isinstance(value, bool):
        near = [int(value), str(value).lower()]
    elif isinstance(value, int | float):
        near = [str(value), float(value) if isinstance(value, int) else int(value), True]
    elif isinstance(value, str):
        near = [value.lower(), value.upper(), int(value) if value.isdigit() else 0, None,
                [value]]
    elif isinstance(value, list):
        near = [value[0] if value else None, {}, " ".join(map(str, value))]
    elif isinstance(value, dict):
        near = [list(value.values()), None]
    return st.sampled_from(near) | JSON_VALUE if near else JSON_VALUE


def _put(log: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    parent: Any = log
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=BASE, data=st.data())
def test_wrong_typed_values_survive_unchanged(base: dict[str, Any], data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(base)))
        old: Any = base
        for key in path:
            old = old[key]
        _put(base, path, data.draw(_retyped(old)))
    assert_lossless(base)


def test_the_issue_examples_stay_as_written_and_in_place() -> None:
    game = copy.deepcopy(BASES[0])
    game["explorations"][0]["turns"][1]["dir"] = "n"
    text = assert_lossless(game)
    assert literal_values(text) == [json.dumps(game["explorations"][0]["turns"][1],
                                               separators=(",", ":"))]
    assert "exploration Ann" in text  # the rest keeps its usual form

    memoarrr = copy.deepcopy(BASES[2])
    memoarrr["edition"] = "2023"
    text = assert_lossless(memoarrr)
    assert 'edition: "2023"' in text.splitlines()
    assert isinstance(ruling_of(memoarrr), str)  # malformed before and after

    robot = copy.deepcopy(BASES[6])
    card = next(c for row in robot["rounds"][0]["grid"]["cards"] for c in row
                if isinstance(c, dict) and "number" in c)
    card["number"] = str(card["number"])
    text = assert_lossless(robot)
    assert literal_values(text) == [json.dumps(card, separators=(",", ":"))]

    dice = copy.deepcopy(BASES[5])
    dice["rounds"][0]["covering"][0]["symbol"] = "cat/dog"
    dice["rounds"][0]["uncovering"][0]["guess"] = 'a\\b/c "d"'
    text = assert_lossless(dice)
    assert '"cat/dog"' in text and r'"a\\b/c \"d\""' in text


def test_a_log_the_notation_cannot_shape_is_written_whole() -> None:
    log = {"format": "memo-dice/1", "players": "Ann", "rounds": [], "extra": {"x": [1]}}
    text = assert_lossless(log)
    assert text.splitlines()[0] == "#! memo-dice/1" and literal_values(text)[0].startswith("{")
    with pytest.raises(notation.NotationError, match="format game/1"):
        notation.parse('#! game/1\n${"format":"memo-dice/1"}\n', source="t.pcn")
    with pytest.raises(notation.NotationError, match=r"t.pcn:2:1: .*JSON object"):
        notation.parse("#! game/1\n$[1]\n", source="t.pcn")
    with pytest.raises(notation.NotationError, match=r"t.pcn:3:5: .*JSON value right after"):
        notation.parse("#! game/1\nplayers: A\n    $nope\n", source="t.pcn")


ALL_FIXTURES = sorted(
    p for p in ROOT.glob("fixtures/**/*.json")
    if isinstance(v := json.loads(p.read_text(encoding="utf-8")), dict)
    and v.get("format") in notation.formats())


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_malformed_ones_too_round_trips(path: Path) -> None:
    assert_lossless(json.loads(path.read_text(encoding="utf-8")))


ROBOT_BASES = [i for i, log in enumerate(BASES) if log["format"] == "robot-memory/1"]


def _with_unknown_cards(log: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """``log`` with some of its cards not recorded (``"unknown"``)."""
    for rnd in log["rounds"]:
        cards = rnd["grid"]["cards"]
        places = [(r, c) for r, row in enumerate(cards) for c, card in enumerate(row)
                  if card is not None]
        for r, c in data.draw(st.lists(st.sampled_from(places), max_size=len(places))):
            cards[r][c] = "unknown"
    return log


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.sampled_from(ROBOT_BASES), data=st.data())
def test_robot_cards_not_recorded_round_trip(index: int, data: st.DataObject) -> None:
    log = _with_unknown_cards(copy.deepcopy(BASES[index]), data)
    text = assert_lossless(log)
    unknown = sum(row.count("unknown") for rnd in log["rounds"] for row in rnd["grid"]["cards"])
    rows = [line.split()[1:] for line in text.splitlines() if line.startswith("row ")]
    assert sum(row.count("?") for row in rows) == unknown


def _revealed_as_played(log: dict[str, Any]) -> str:
    """The notation of a robot-memory log as the recorder keeps it: no ``row`` lines, each
    card named on the turn that turns it face up (``is CARD``)."""
    from pathcheck.games.robot_memory.notation import features

    written = notation.write(log).splitlines()
    out = written[:next(i for i, line in enumerate(written) if line.startswith("round "))]
    for rnd in log["rounds"]:
        grid = rnd["grid"]
        out.append(f"round {grid['rows']}x{grid['columns']} first {rnd['first']}")
        if "captains" in rnd:
            out.append("captains " + " ".join(f"{k} {v}" for k, v in rnd["captains"].items()))
        for turn in rnd["turns"]:
            words = [turn["chooser"], turn["guesser"]]
            for i, pick in enumerate([turn, *turn.get("chain", ())]):
                if i:
                    words += ["+", pick["chooser"]]
                row, column = pick["position"]["row"], pick["position"]["column"]
                words += [f"r{row}c{column}", features(pick["guess"], {})]
                if "points" in pick:
                    words.append(f"={pick['points']}")
                words += ["is", features(grid["cards"][row - 1][column - 1])]
            out.append(" ".join(words))
    return "\n".join(out) + "\n"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.sampled_from(ROBOT_BASES), data=st.data())
def test_robot_cards_named_when_revealed_fill_in_the_grid(index: int,
                                                           data: st.DataObject) -> None:
    """Cards named as they are turned (the recorder's way) read as the grid that holds
    them; a card never turned stays not recorded, and ``?`` leaves one not recorded."""
    log = _with_unknown_cards(copy.deepcopy(BASES[index]), data)
    for rnd in log["rounds"]:
        turned = {(p["position"]["row"], p["position"]["column"])
                  for turn in rnd["turns"] for p in [turn, *turn.get("chain", ())]}
        dropped = data.draw(st.sampled_from(sorted(turned))) if turned else None
        cards = rnd["grid"]["cards"]
        for r, row in enumerate(cards, 1):
            for c, card in enumerate(row, 1):
                if card is not None and ((r, c) not in turned or (r, c) == dropped):
                    cards[r - 1][c - 1] = "unknown"
    back = notation.parse(_revealed_as_played(log), source="log.pcn")
    assert same(back, log)
