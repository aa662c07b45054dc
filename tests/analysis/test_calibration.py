"""The memory score ranks players of known memory (pathcheck.analysis.players) in order, on
a small sample of every game: perfect > forgets a little > forgets much > random and passive,
random and passive clearly low. The full table: python3 -m tests.bench.calibrate."""

from __future__ import annotations

import random

import pytest

from pathcheck.analysis import analyse
from pathcheck.analysis.players import GAMES, STYLES, generate, style
from tests.bench.calibrate import calibrate, style_score


@pytest.mark.parametrize("game", GAMES)
def test_the_score_ranks_the_styles(game: str) -> None:
    results = calibrate(6, seed=3)[game]
    perfect, little, much, rand, passive = (style_score(results[s]) for s in STYLES)
    assert perfect == 100.0
    assert little is not None and much is not None and rand is not None
    assert passive is not None
    assert perfect > little > much > max(rand, passive)
    assert max(rand, passive) < 50  # clearly low


def test_a_perfect_memory_makes_no_costly_move() -> None:
    for game in GAMES:
        analysis = analyse(generate(game, "perfect", random.Random(5)), source="p")
        assert all(m.cost == 0 for m in analysis.moves), game


def test_styles_are_checked() -> None:
    assert style("forgetful:0.1").forget == 0.1
    for bad in ("forgetful:1", "forgetful:x", "lucky", "random:1"):
        with pytest.raises(ValueError):
            style(bad)


def test_the_span_of_a_forgetful_memory_is_found_and_a_perfect_one_has_none() -> None:
    """A robot-game player who forgets a fifth of what they know each card turned is right
    half as often some cards later; a perfect memory never halves."""
    from pathcheck.analysis.table import Tally

    rows = {}
    for name in ("perfect", "forgetful:0.2"):
        tally = Tally()
        rng = random.Random(7)
        for _ in range(20):
            tally.add(analyse(generate("robot-memory", name, rng, players=2), source=name))
        rows[name] = tally.rows()
        assert all(sum(b.moves for b in row.ages) > 0 for row in rows[name])
    assert all(row.span is None for row in rows["perfect"])
    for row in rows["forgetful:0.2"]:
        assert row.span is not None and 1 <= row.span <= 17
        assert row.span_low is not None and row.span_low <= row.span


def test_memoarrr_spans_are_shorter_the_more_a_memory_forgets() -> None:
    """Memoarrr! (ages in reveals, docs/analysis.md): over 6 logs a style (their players'
    moves binned together), forgetful:0.2 is right half as often as at its youngest ages
    within the ages seen; forgetful:0.05 later or beyond them; a perfect memory never."""
    from pathcheck.analysis.span import estimate

    spans = {}
    for name, rows in calibrate(6, seed=3, styles=("perfect", "forgetful:0.05", "forgetful:0.2"),
                                of=("memoarrr",))["memoarrr"].items():
        bins = [[sum(r.ages[i].right for r in rows), sum(r.ages[i].moves for r in rows)]
                for i in range(len(rows[0].ages))]
        assert sum(moves for _, moves in bins) > 100
        spans[name] = estimate(bins)[0]
    little, much = spans["forgetful:0.05"], spans["forgetful:0.2"]
    assert spans["perfect"] is None
    assert much is not None and 2 <= much <= 24
    assert little is None or little > much
