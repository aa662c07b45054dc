"""The C replay of robot-memory/1 logs rules (and feeds the analysis) as the Python replay
does, or declines.

:func:`~pathcheck.games.robot_memory.fast.fast_ruling` (C replay and wording) must give the
very Ruling the Python replay (:func:`rule_python`) gives, byte for byte, or None; the
analysis of the C pass (:func:`~pathcheck.analysis.robot_memory.analyse_entry`) must be the
one of the Python replay (``analyse_read``). The C side must take the clean logs the project
writes (or it would save nothing) and decline every log with a violation, a note or an error,
which the Python replay words. Compared on fixtures, random games of every variant, mutated
play, Captains changing, and hostile logs. Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.analysis import robot_memory as analysis
from pathcheck.errors import RecordError
from pathcheck.games.common import Pictures
from pathcheck.games.robot_memory import fast
from pathcheck.games.robot_memory.adjudicator import ADJUDICATOR, rule_python
from pathcheck.games.robot_memory.gen import VARIANTS, random_game
from pathcheck.games.robot_memory.log import LOG_FORMAT, read_entry

from ..fuzz import examples, json_values, mutate
from ..test_speedups import BUILT, REQUIRED

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "robot-memory"
built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")


def outcome(rule: Any, log: Any) -> Any:
    """The ruling's JSON bytes, or the RecordError's text."""
    try:
        ruling = rule(log, source="test")
    except RecordError as exc:
        return str(exc)
    return None if ruling is None else ruling.to_json()


def adjudicated(log: Any, *, source: str) -> Any:
    return ADJUDICATOR.rule(log, source=source, pictures=Pictures(None))


def agree(log: Any) -> bool:
    """Whether the C path took ``log``, after checking that the adjudicator (C, then Python)
    rules on it byte for byte as the Python replay alone does, and that the analysis from the
    C pass is the Python replay's."""
    assert outcome(adjudicated, log) == outcome(rule_python, log)
    decoded = outcome(lambda value, source: ADJUDICATOR.rule_decoded(
        msgspec.json.encode(value), "robot-memory/1", source=source), log)
    assert decoded is None or decoded == outcome(rule_python, log)
    try:
        entry = LOG_FORMAT.read(log, source="test")
    except RecordError:
        return False
    try:
        reference_analysis = analysis.analyse_read(read_entry(entry, source="test"),
                                                   source="test")
    except RecordError:
        reference_analysis = None
    if reference_analysis is not None:
        found = analysis.analyse_entry(entry, source="test")
        assert msgspec.json.encode(found) == msgspec.json.encode(reference_analysis)
    ruling = fast.fast_ruling(entry, source="test")
    if ruling is None:
        assert fast.trace(entry, analysis._ANALYSIS) is None
        return False
    reference = rule_python(log, source="test")
    assert ruling == reference
    assert ruling.to_json() == reference.to_json()
    assert fast.trace(entry, analysis._ANALYSIS) is not None
    return True


def fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*.json"))


@built
@pytest.mark.parametrize("path", fixtures(), ids=lambda p: p.name)
def test_fixtures(path: Path) -> None:
    log = json.loads(path.read_text("utf-8"))
    taken = agree(log)
    if not path.name.startswith("legal-") or "unknown" in path.name:
        assert not taken  # a violation, a note or an error: the Python replay words it


@built
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_random_games_are_taken(seed: int, variant: str) -> None:
    assert agree(random_game(random.Random(seed), variant=variant))


@built
def test_every_variant_and_player_count_is_taken() -> None:
    counts = {"standard": (2, 3, 4, 8), "solo": (1,), "team": (2, 3, 6, 9),
              "5+": (5, 8), "custom": (2, 6)}
    for variant, numbers in counts.items():
        for players in numbers:
            for seed in range(6):
                log = random_game(random.Random(seed), variant=variant, players=players)
                assert agree(log), (variant, players, seed)


def _picks(log: dict[str, Any]) -> list[dict[str, Any]]:
    return [pick for rnd in log["rounds"] for turn in rnd["turns"]
            for pick in (turn, *turn.get("chain", ()))]


def mutate_play(log: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``log`` with one plausible slip of play or of recording."""
    log = copy.deepcopy(log)
    names = list(log.get("players") or [m for t in log["teams"] for m in t["members"]])
    rnd = rng.choice(log["rounds"])
    picks = _picks(log)
    kind = rng.randrange(13)
    pick = rng.choice(picks)
    if kind == 0:
        pick["points"] = rng.choice([0, 1, 3, 6, 7])
    elif kind == 1:
        pick["guess"] = rng.choice(["short-circuit", {}, {"type": "gear"},
                                    {"colour": "red", "number": 2},
                                    {"type": "bulb", "colour": "blue", "number": 4}])
    elif kind == 2:
        pick["chooser"] = rng.choice(names)
    elif kind == 3 and rnd["turns"]:
        rng.choice(rnd["turns"])["guesser"] = rng.choice(names)
    elif kind == 4 and len(rnd["turns"]) > 1:
        i = rng.randrange(len(rnd["turns"]) - 1)
        rnd["turns"][i], rnd["turns"][i + 1] = rnd["turns"][i + 1], rnd["turns"][i]
    elif kind == 5 and rnd["turns"]:
        del rnd["turns"][rng.randrange(len(rnd["turns"]))]
    elif kind == 6:
        other = rng.choice(picks)
        pick["position"] = dict(other["position"])
    elif kind == 7:
        rnd["first"] = rng.choice(log.get("players") or [t["name"] for t in log["teams"]])
    elif kind == 8:
        cards = rnd["grid"]["cards"]
        row = rng.randrange(len(cards))
        cards[row][rng.randrange(len(cards[row]))] = rng.choice(
            [None, "short-circuit", "unknown", {"type": "tool", "colour": "green", "number": 1}])
    elif kind == 9:
        del log["rounds"][rng.randrange(len(log["rounds"])):]
        if not log["rounds"]:
            log["rounds"] = [copy.deepcopy(rnd)]
    elif kind == 10:
        log["rounds"].append(copy.deepcopy(rnd))
    elif kind == 11 and rnd["turns"]:
        turn = rng.choice(rnd["turns"])
        turn.setdefault("chain", []).append({"chooser": turn["guesser"],
                                             "position": dict(pick["position"]),
                                             "guess": "short-circuit"})
    else:
        log["difficulty"] = rng.choice(["basic", "custom"])
    return log


@built
@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_mutated_play(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    log = random_game(rng, variant=variant)
    agree(mutate_play(log, rng))
    shorter = copy.deepcopy(log)
    del shorter["rounds"][-1]
    assert not agree(shorter)  # two rounds: a violation


@built
def test_captains_changing_are_worded_by_python() -> None:
    """A member guessing who is not the Captain (a Captain's change) goes to Python; a
    round's new captains are taken in C."""
    taken = declined = 0
    for seed in range(40):
        log = random_game(random.Random(seed), variant="team", players=5)
        new = any("captains" in rnd for rnd in log["rounds"][1:])
        taken += agree(log) and new
        turn = log["rounds"][1]["turns"][0]
        team = next(t for t in log["teams"] if turn["guesser"] in t["members"])
        others = [m for m in team["members"] if m != turn["guesser"]]
        turn["guesser"] = others[0]
        assert not agree(log)
        declined += 1
    assert taken and declined


WORDS = ("Ann", "Ben", "Cat", "Bolts", "Nuts", "", "\x00", "é", "short-circuit", "unknown",
         "battery", "gear", "tool", "bulb", "yellow", "red", "blue", "green", "team", "solo",
         "5+", "custom", "standard", "basic", "robot-memory/1")
KEYS = ("format", "variant", "players", "teams", "rounds", "difficulty", "grid", "first",
        "turns", "captains", "rows", "columns", "cards", "chooser", "guesser", "position",
        "guess", "points", "chain", "row", "column", "type", "colour", "number", "name",
        "captain", "members")


@built
@settings(max_examples=examples(120), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.data())
def test_hostile_logs(seed: int, data: st.DataObject) -> None:
    log = random_game(random.Random(seed))
    mutate(data, log, json_values(WORDS, KEYS), most=3)
    agree(log)


@built
def test_str_subclasses_and_odd_entries_are_declined() -> None:
    """Names that are str subclasses, and values no decoder makes: None, never a crash."""

    class Name(str):
        pass

    log = random_game(random.Random(2), variant="standard", players=3)
    entry = LOG_FORMAT.read(log, source="test")
    assert fast.fast_ruling(entry, source="test") is not None
    assert isinstance(entry.players, tuple)
    subclassed = msgspec.structs.replace(entry, players=tuple(Name(p) for p in entry.players))
    assert fast.fast_ruling(subclassed, source="test") is None
    rnd = entry.rounds[0]
    odd_rounds: list[Any] = [
        (object(), *entry.rounds[1:]),
        (msgspec.structs.replace(rnd, turns=[1]), *entry.rounds[1:]),
        (msgspec.structs.replace(rnd, turns=(object(),)), *entry.rounds[1:]),
        (msgspec.structs.replace(rnd, grid=object()), *entry.rounds[1:]),
        (msgspec.structs.replace(rnd, first=7), *entry.rounds[1:]),
        (msgspec.structs.replace(rnd, captains={"Ann": "Ann"}), *entry.rounds[1:]),
        list(entry.rounds),
    ]
    for rounds in odd_rounds:
        assert fast.fast_ruling(msgspec.structs.replace(entry, rounds=rounds),
                                source="test") is None
    grid = rnd.grid
    for cards in ((("joker",) * grid.columns,) * grid.rows, ((object(),) * grid.columns,) *
                  grid.rows, ((1,) * grid.columns,) * grid.rows):
        odd = msgspec.structs.replace(rnd, grid=msgspec.structs.replace(grid, cards=cards))
        assert fast.fast_ruling(msgspec.structs.replace(
            entry, rounds=(odd, *entry.rounds[1:])), source="test") is None
    assert fast.fast_ruling(object(), source="test") is None  # type: ignore[arg-type]


@built
def test_misuse_is_an_exception() -> None:
    from pathcheck import _speedups

    entry = LOG_FORMAT.read(random_game(random.Random(3)), source="test")
    call = _speedups.robot_replay
    with pytest.raises(TypeError):
        call()  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        call(entry, msgspec.UNSET, [None] * 3, fast._word, fast._KIT, None)
    with pytest.raises(ValueError):
        call(entry, msgspec.UNSET, fast._said, fast._word, fast._KIT[:-1], None)
    with pytest.raises(ZeroDivisionError):
        call(entry, msgspec.UNSET, [None] * len(fast._said), lambda _: 1 / 0, fast._KIT, None)
    said: list[Any] = [None] * len(fast._said)
    assert call(entry, msgspec.UNSET, said, lambda _: ("odd",), fast._KIT, None) is None


def renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every str that is a name (or a team's name) replaced, keys too."""
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


@built
@pytest.mark.parametrize("variant", VARIANTS)
def test_odd_names_are_taken(variant: str) -> None:
    """Names of any script and width (the final table pads them by characters), and long."""
    odd = ["Zoë", "李雷", "a" * 60, "👩‍🚀", "\u202eevil", "Ann Ann", "x", "\t"]
    for seed in range(4):
        log = random_game(random.Random(seed), variant=variant)
        names = dict(zip(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Bolts",
                          "Nuts"], [*odd, "Équipe ☃", "Nuts"], strict=True))
        assert agree(renamed(log, names))


@built
@pytest.mark.parametrize("layout", [(1, 1, 1, 0), (1, 1, 0, 1), (9, 10, 40, 6), (12, 11, 64, 6),
                                    (20, 20, 64, 6), (20, 1, 10, 2), (1, 20, 18, 2)])
def test_layouts_of_any_size_are_taken(layout: tuple[int, int, int, int]) -> None:
    """Grids up to 20x20 (two-digit row and column names, holes, wide and narrow columns)."""
    for seed in range(3):
        log = random_game(random.Random(seed), variant="custom", layout=layout)
        assert agree(log)


@built
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_name_with_no_utf8_form_is_worded_alike(variant: str) -> None:
    """A lone surrogate (Python's JSON reader lets one through; no JSON writer can write it
    back): C words the texts with it another way, and the Ruling is the Python replay's."""
    log = renamed(random_game(random.Random(1), variant=variant),
                  {"Ann": "lone \ud800", "Bolts": "\udfff team"})
    entry = LOG_FORMAT.read(log, source="test")
    ruling = fast.fast_ruling(entry, source="test")
    assert ruling is not None
    assert ruling == rule_python(log, source="test")
    found = fast.trace(entry, analysis._ANALYSIS)
    assert found is not None
    reference = analysis.analyse_read(read_entry(entry, source="test"), source="test")
    assert list(found[1]) == list(reference.moves)
