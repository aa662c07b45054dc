"""Deal analysis, difficulty, aggregation, divergence from the answer key and the chart."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.render.chart import format_table, stats_chart_svg
from pathcheck.solo.play import answer_key, check_solo
from pathcheck.solo.seed_codes import SEED_LIMIT, deal
from pathcheck.solo.stats import (
    DIFFICULTY_THRESHOLDS,
    GRADES,
    Constraints,
    Summary,
    analyse_deal,
    first_divergence,
    grade_of,
    search,
    summarise,
    summarise_range,
)
from pathcheck.tracer.dungeon import Placement
from pathcheck.tracer.geometry import Direction

RULE_SETS = [frozenset(), frozenset({2}), frozenset({3, 4}), frozenset({2, 3, 4})]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: "rules" + "".join(map(str, sorted(r))))
def test_fast_analysis_agrees_with_the_answer_key(rules: frozenset[int]) -> None:
    for seed in range(0, 400, 37):
        stats = analyse_deal(seed, rules)
        key = answer_key(deal(seed), rules=rules)
        assert stats.lengths == tuple(len(d.placements) for d in key)
        assert stats.reasons == tuple(None if d.trace.reason is None else d.trace.reason.value
                                      for d in key)
        assert sum(stats.lengths) == 38
        assert stats.grade in GRADES


def test_difficulty_is_explained_by_its_factors() -> None:
    stats = analyse_deal(7, frozenset({2, 3}))
    factors = stats.factors
    assert stats.difficulty == factors.score
    assert factors.explain().endswith(f"= {factors.score:g}")
    assert factors.path_lost + factors.rule_lost in (stats.dungeons, stats.dungeons - 1)
    assert any(analyse_deal(s, frozenset()).revisits > 0 for s in range(60))


def test_grades_follow_the_pinned_thresholds() -> None:
    for rules, (easy, hard) in DIFFICULTY_THRESHOLDS.items():
        assert easy < hard
        assert grade_of(easy, rules) == "easy"
        assert grade_of(easy + 0.1, rules) == "medium"
        assert grade_of(hard + 0.1, rules) == "hard"
    assert len(DIFFICULTY_THRESHOLDS) == 8


def test_summaries_merge_and_parallel_equals_serial() -> None:
    rules = frozenset({2})
    serial = summarise_range(100, 400, rules)
    merged = Summary(rules)
    merged.merge(summarise_range(100, 250, rules))
    merged.merge(summarise_range(250, 400, rules))
    parallel = summarise(100, 300, rules, jobs=2, chunk=100)
    for other in (merged, parallel):
        assert other.deals == serial.deals == 300
        assert other.dungeon_counts == serial.dungeon_counts
        assert other.lengths == serial.lengths
        assert other.reasons == serial.reasons
        assert other.difficulty == serial.difficulty
        assert other.rule_bites == serial.rule_bites


def test_progress_is_reported_for_every_seed() -> None:
    seen: list[int] = []
    summarise(0, 250, frozenset(), chunk=100, progress=seen.append)
    assert seen == [100, 100, 50]


def test_table_and_chart() -> None:
    summary = summarise(0, 300, frozenset({2, 3, 4}))
    table = format_table(summary, start=0, jobs=1, seconds=0.5)
    for heading in ("Dungeons per deal", "Dungeon length", "How dungeons end",
                    "How often each rule bites", "Difficulty", "easy", "hard"):
        assert heading in table
    svg = stats_chart_svg(summary)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for title in ("Dungeons per deal", "Dungeon length", "How dungeons end", "Difficulty"):
        assert title in text
    assert "rule #4 bites" in text
    data = summary.to_dict()
    assert sum(data["difficulty"]["grades"].values()) == 300


# --- divergence --------------------------------------------------------------------------


def _key(seed: int, rules: frozenset[int]) -> list[tuple[Placement, ...]]:
    return [d.placements for d in answer_key(deal(seed), rules=rules)]


def test_the_key_itself_does_not_diverge_even_rotated() -> None:
    key = _key(3, frozenset())
    assert first_divergence(key, key) is None
    rotated = [key[0]] + [tuple(Placement(p.tile, Direction((p.dir + 1) % 4)) for p in d)
                          for d in key[1:]]
    assert first_divergence(key, rotated) is None
    assert check_solo(rotated, rules=()).failure is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, SEED_LIMIT - 1), st.sampled_from(RULE_SETS), st.data())
def test_divergence_kind_is_the_check_failure(
    seed: int, rules: frozenset[int], data: st.DataObject
) -> None:
    key = _key(seed, rules)
    flat = [(n, p) for n, d in enumerate(key) for p in d]
    position = data.draw(st.integers(1, len(flat) - 1))
    mutation = data.draw(st.sampled_from(["turn", "split", "join"]))
    played: list[list[Placement]] = []
    for i, (n, p) in enumerate(flat):
        starts = i == 0 or flat[i - 1][0] != n
        if i == position and mutation == "split" and not starts:
            played.append([])
        elif i == position and mutation == "join" and starts:
            pass
        elif starts:
            played.append([])
        if i == position and mutation == "turn" and not starts:
            p = Placement(p.tile, Direction((p.dir + 1) % 4))
        played[-1].append(p)
    result = check_solo(played, rules=rules)
    divergence = first_divergence(key, played)
    if result.failure is None:
        assert divergence is None
        return
    assert divergence is not None
    assert divergence.kind == result.failure.value
    assert divergence.position == result.failing_tile
    assert divergence.describe().startswith(f"stack tile {divergence.position} ")


def test_search_finds_the_same_seeds_in_parallel_and_in_order() -> None:
    wanted = Constraints(min_dungeons=6, lost_by=frozenset({"loop"}))
    assert wanted.any and not Constraints().any
    serial, tried = search(0, frozenset(), wanted, count=3, limit=20_000, modulo=SEED_LIMIT)
    parallel, _ = search(0, frozenset(), wanted, count=3, limit=20_000, modulo=SEED_LIMIT,
                         jobs=2, chunk=500)
    assert [s.seed for s in serial] == [s.seed for s in parallel]
    assert len(serial) == 3 and tried >= serial[-1].seed + 1
    assert all(s.dungeons >= 6 and "loop" in s.reasons for s in serial)
    wrapped, _ = search(SEED_LIMIT - 5, frozenset(), Constraints(max_dungeons=38), count=8,
                        limit=8, modulo=SEED_LIMIT)
    assert [s.seed for s in wrapped] == [*range(SEED_LIMIT - 5, SEED_LIMIT), 0, 1, 2]
