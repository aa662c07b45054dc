"""The analysis against the plain one (tests/analysis/plain.py: knowledge from scratch at
every move) on every legal fixture and on random games of every game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.analysis import analyse
from pathcheck.games.dungeon.gen import random_game as dungeon_game
from pathcheck.games.memo_dice.gen import random_game as dice_game
from pathcheck.games.memoarrr.gen import random_game as memoarrr_game
from pathcheck.games.memoarrr.rules import POSITIONS
from pathcheck.games.robot_memory.gen import random_game as robot_game

from .plain import plain_costs, plain_unseen

FIXTURES = Path(__file__).parents[2] / "fixtures"
LEGAL = sorted(p for p in FIXTURES.glob("*/legal-*.json"))


def main_marks(log: dict[str, Any]
               ) -> list[tuple[int, int, str, str, float | None, float, int | None]]:
    return [(m.round, m.index, m.player, m.mark.value, m.chance, m.cost, m.age)
            for m in analyse(log, source="test").moves]


def same(log: dict[str, Any]) -> None:
    """Every move's mark, chance and cost agree with the plain recomputation's, and
    Memoarrr!'s ages (the plain model works out no other game's)."""
    ours, plain = main_marks(log), plain_costs(log)
    assert [m[:4] for m in ours] == [m[:4] for m in plain]
    if log["format"] == "memoarrr/1":
        assert [m[6] for m in ours] == [m[6] for m in plain]
    for a, b in zip(ours, plain, strict=True):
        if a[4] is None or b[4] is None:
            assert a[4] is b[4] is None
        else:
            assert abs(a[4] - b[4]) < 1e-9
        assert abs(a[5] - b[5]) < 1e-3, (a, b)


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixtures_agree(path: Path) -> None:
    same(json.loads(path.read_text()))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), expert=st.booleans(),
       edition=st.sampled_from((2018, 2023)))
def test_random_memoarrr(seed: int, players: int, expert: bool, edition: int) -> None:
    same(memoarrr_game(random.Random(seed), players=players, expert=expert, edition=edition))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), advanced=st.booleans(),
       rules=st.sets(st.sampled_from((1, 2, 3))))
def test_random_dungeon(seed: int, players: int, advanced: bool, rules: set[int]) -> None:
    if advanced and seed % 2:
        rules = rules | {4}
    same(dungeon_game(random.Random(seed), players=players, advanced=advanced, rules=rules))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_memo_dice_and_robot(seed: int) -> None:
    same(dice_game(random.Random(seed)))
    same(robot_game(random.Random(seed)))


@pytest.mark.parametrize("path", [p for p in LEGAL if "memoarrr" in str(p) or "solo" in p.name],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_without_the_c_extension_the_analysis_is_the_same(path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from pathcheck.games.dungeon import solo
    from pathcheck.games.memoarrr import fast

    log = json.loads(path.read_text())
    with_c = analyse(log, source="c")
    monkeypatch.setattr(fast, "_replay", None)
    monkeypatch.setattr(solo, "_c_tracer", lambda: None)
    assert analyse(log, source="c") == with_c


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_typed_read_gives_the_same_analysis(seed: int) -> None:
    import msgspec

    from pathcheck.analysis import analyse_decoded

    rng = random.Random(seed)
    for log in (dungeon_game(rng, players=3, rules={1, 2}), dice_game(rng), robot_game(rng)):
        typed = analyse_decoded(msgspec.json.encode(log), log["format"], source="t")
        assert typed is not None and typed == analyse(log, source="t")
    assert analyse_decoded(b'{"format": "memo-dice/1"}', "memo-dice/1", source="t") is None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), blanks=st.integers(1, 6),
       skill=st.floats(0, 1))
def test_random_memoarrr_with_cards_left_out(seed: int, players: int, blanks: int,
                                             skill: float) -> None:
    # a card the log leaves out (null) counts as unseen, even where a side or a peek showed
    # its place (docs/analysis.md): the plain analysis knows only the cards the log names
    rng = random.Random(seed)
    log = memoarrr_game(rng, players=players, skill=skill)
    revealed = {a.get("reveal") for rnd in log["rounds"] for a in rnd["actions"]}
    hidden = [p for p in POSITIONS if str(p) not in revealed]  # cards nobody revealed
    for pos in rng.sample(hidden, min(blanks, len(hidden))):
        log["island"][pos.row][pos.col] = None
    same(log)
    unseen = {(r, k): n for r, k, n in plain_unseen(log)}
    for move in analyse(log, source="test").moves:  # "k of the n cards they could reveal seen"
        seen, choices = (int(w) for w in move.knew.split("; ")[1].split()[0:4:3])
        assert choices - seen == unseen[move.round, move.index]


_PLACES = [str(p) for p in POSITIONS]


def _spoilt(log: dict[str, Any], rng: random.Random) -> None:
    """One to three moves of ``log`` made illegal: a reveal moved anywhere (a card face up,
    walrus-marked, peeked at before round 1), a move by another player, an ability named
    that was not earned."""
    for _ in range(rng.randint(1, 3)):
        actions = rng.choice(log["rounds"])["actions"]
        k = rng.randrange(len(actions))
        action = actions[k]
        if "reveal" not in action:
            continue
        kind = rng.randrange(4)
        if kind == 0 and k:
            action["reveal"] = actions[rng.randrange(k)].get("reveal", action["reveal"])
        elif kind == 1:
            action["reveal"] = rng.choice(_PLACES)
        elif kind == 2:
            action["player"] = rng.choice(log["players"])
        else:
            action[rng.choice(("swap", "mark", "peek"))] = rng.choice(_PLACES)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), expert=st.booleans(),
       stack=st.booleans(), blanks=st.integers(0, 4))
def test_random_illegal_memoarrr(seed: int, players: int, expert: bool, stack: bool,
                                 blanks: int) -> None:
    """Illegal logs (the analysis judges the reveals the rules allow, as played), with cards
    left out and without the treasure stack: every move judged is the plain analysis's, its
    mark, chance, cost and age (the plain walk makes a move of every reveal; those the
    analysis leaves out, after a fatal fault or of a card the rules bar, are not compared)."""
    rng = random.Random(seed)
    log = memoarrr_game(rng, players=players, expert=expert)
    _spoilt(log, rng)
    if not stack:
        del log["treasures"]
    named = {a.get(k) for rnd in log["rounds"] for a in rnd["actions"] for k in ("reveal", "swap")}
    hidden = [p for p in POSITIONS if str(p) not in named]  # no card of them was revealed
    for pos in rng.sample(hidden, min(blanks, len(hidden))):
        log["island"][pos.row][pos.col] = None
    ours = main_marks(log)
    judged = {m[:2] for m in ours}
    plain = [m for m in plain_costs(log) if m[:2] in judged]
    assert [(*m[:4], m[6]) for m in ours] == [(*m[:4], m[6]) for m in plain]
    for a, b in zip(ours, plain, strict=True):
        assert (a[4] is None) == (b[4] is None) and abs((a[4] or 0) - (b[4] or 0)) < 1e-9
        assert abs(a[5] - b[5]) < 1e-3, (a, b)


@pytest.mark.parametrize("seed", [7, 52, 69, 87])
def test_the_age_when_every_card_not_seen_connects(seed: int) -> None:
    """A rare reveal (a card not seen, when every card not seen connects): its age is the
    oldest card seen among those the player could reveal, none if they had seen none; these
    seeds make one each (with an age, without)."""
    log = memoarrr_game(random.Random(seed), players=2, skill=0.9)
    assert any(m.why == "every card not seen connects" for m in analyse(log, source="t").moves)
    same(log)
