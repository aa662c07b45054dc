"""``pathcheck solo census``: chunks, their exact merge, resuming, Dask (a LocalCluster on
127.0.0.1 with two single-threaded worker processes), a worker killed mid-run, the CLI."""

from __future__ import annotations

import gzip
import importlib
import json
import os
import signal
import warnings
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.render.census import format_census
from pathcheck.solo.census import (
    Census,
    CensusDir,
    CensusError,
    CensusMismatch,
    ChunkResult,
    Limits,
    Plan,
    Seed,
    analyse_chunk,
    run_census,
)
from pathcheck.solo.census.chunk import ORDERS, analyse_chunk_python
from pathcheck.solo.stats import Constraints, analyse_deal, summarise

_CLI = importlib.import_module("pathcheck.cli")
cli: click.Command = _CLI.cli

ALL = frozenset({2, 3, 4})
LIMITS = Limits(top=5, rare=8)


def same_stats(census: dict[str, Any], stats: dict[str, Any]) -> None:
    """``solo stats`` fields equal: counts exactly, means to floating-point rounding."""
    for name, value in stats.items():
        if name in ("seconds", "jobs"):
            continue
        assert name in census
        if name == "difficulty":
            for key, inner in value.items():
                if key in ("mean", "factor_means"):
                    assert census[name][key] == pytest.approx(inner, rel=1e-12)
                else:
                    assert census[name][key] == inner, key
        elif isinstance(value, float):
            assert census[name] == pytest.approx(value, rel=1e-12)
        else:
            assert census[name] == value, name


def stats_doc(start: int, count: int, rules: frozenset[int]) -> dict[str, Any]:
    return {"start": start, **summarise(start, count, rules, chunk=7000).to_dict()}


# --- one chunk ---------------------------------------------------------------------------


def test_chunk_matches_the_python_reference_seed_by_seed() -> None:
    """The C path (when built) keeps exactly the counts and extremes of the reference, and
    the extremes are those of sorting every deal."""
    start, stop = 1000, 4000
    chunk = analyse_chunk(start, stop, ALL, LIMITS)
    assert chunk == analyse_chunk_python(start, stop, ALL, LIMITS)
    deals = [analyse_deal(n, ALL) for n in range(start, stop)]
    seeds = [Seed(d.seed, d.dungeons, d.difficulty) for d in deals]
    for name, order in ORDERS.items():
        assert getattr(chunk, name) == tuple(sorted(seeds, key=order)[:LIMITS.top]), name
    assert chunk.rare == tuple(s for s in seeds if s.dungeons >= LIMITS.rare)
    assert chunk.rare  # rules 2-4: 8 dungeons occur in a few thousand seeds
    assert chunk.deals == stop - start
    assert chunk.totals["sumsq"] == sum(n * n for d in deals for n in d.lengths)


def test_chunk_without_rules_has_no_bites() -> None:
    chunk = analyse_chunk(0, 500, frozenset(), LIMITS)
    assert chunk == analyse_chunk_python(0, 500, frozenset(), LIMITS)
    assert not chunk.bites and chunk.deals == 500


@settings(max_examples=15)
@given(st.integers(0, 2**35 - 3000), st.lists(st.integers(1, 2999), max_size=4))
def test_chunks_merge_exactly_in_any_order(start: int, cuts: list[int]) -> None:
    bounds = [start, *sorted({start + c for c in cuts}), start + 3000]
    parts = [analyse_chunk(a, b, ALL, LIMITS) for a, b in pairwise(bounds)]
    whole = analyse_chunk(start, start + 3000, ALL, LIMITS)
    merged = parts[-1]
    for part in reversed(parts[:-1]):
        merged = merged.merge(part)
    assert merged == whole


def test_chunk_json_round_trip() -> None:
    chunk = analyse_chunk(77, 2077, ALL, LIMITS)
    assert ChunkResult.from_dict(json.loads(json.dumps(chunk.to_dict()))) == chunk
    with pytest.raises(ValueError, match="do not merge"):
        chunk.merge(analyse_chunk(0, 10, frozenset(), LIMITS))


# --- the census directory ----------------------------------------------------------------


def test_census_dir_refuses_another_census_and_foreign_directories(tmp_path: Path) -> None:
    folder = CensusDir(tmp_path / "c").open(Plan(ALL, 0, 100, 10))
    assert not (tmp_path / "c").exists()  # nothing is written before a run starts
    folder.commit()
    with pytest.raises(CensusError, match="holds another census"):
        CensusDir(tmp_path / "c").open(Plan(ALL, 0, 200, 10))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(CensusError, match="not a census directory"):
        CensusDir(tmp_path / "other").open(Plan(ALL, 0, 100, 10))
    with pytest.raises(CensusError, match=r"no census\.json"):
        Census.load(CensusDir(tmp_path / "other"))
    run_census(folder, jobs=1, use_dask=False)
    damaged = folder.chunk_path(30, 40)
    damaged.write_bytes(gzip.compress(b'{"start": 30}'))
    with pytest.raises(CensusError, match="damaged chunk file"):
        Census.load(folder)
    damaged.write_bytes(b"not gzip")
    with pytest.raises(CensusError, match="damaged chunk file"):
        Census.load(folder)
    with pytest.raises(CensusError, match="not within"):
        Plan(ALL, 2**35 - 5, 10)


class Stop(Exception):
    """Stands for an interruption (Ctrl-C, a lost connection) in the middle of a census."""


def stop_after(chunks: int) -> Callable[[ChunkResult], None]:
    seen = []

    def on_done(result: ChunkResult) -> None:
        seen.append(result)
        if len(seen) == chunks:
            raise Stop

    return on_done


def test_local_census_resumes_after_an_interruption(tmp_path: Path) -> None:
    plan = Plan(ALL, 5000, 30_000, 2500, LIMITS)
    whole = CensusDir(tmp_path / "whole").open(plan)
    run_census(whole, jobs=1, use_dask=False)
    broken = CensusDir(tmp_path / "broken").open(plan)
    with pytest.raises(Stop):
        run_census(broken, jobs=2, use_dask=False, on_done=stop_after(3))
    assert 3 <= len(broken.done()) < len(plan.chunks())
    partial = Census.load(broken)
    assert not partial.complete and partial.deals == 2500 * len(broken.done())
    assert "INCOMPLETE: run the census again to resume" in format_census(partial)
    info = run_census(broken, jobs=2, use_dask=False)
    assert info.skipped >= 3 and info.chunks == len(plan.chunks()) - info.skipped
    resumed, reference = Census.load(broken), Census.load(whole)
    assert resumed.complete and resumed.result == reference.result
    same_stats(resumed.to_dict(), stats_doc(5000, 30_000, ALL))


# --- Dask --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    distributed = importlib.import_module("distributed")
    with warnings.catch_warnings():  # "port 8787 in use" of the scheduler's health routes
        warnings.simplefilter("ignore", UserWarning)
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=None,
                                           silence_logs=50)
    with cluster, distributed.Client(cluster) as c:
        yield c


DASK_PLAN = Plan(ALL, 123_456, 400_000, 25_000, LIMITS)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Census:
    """The same census on one local process."""
    folder = CensusDir(tmp_path_factory.mktemp("census") / "one").open(DASK_PLAN)
    run_census(folder, jobs=1, use_dask=False)
    return Census.load(folder)


def test_dask_census_equals_solo_stats_of_the_range(tmp_path: Path, client: Any,
                                                     reference: Census) -> None:
    folder = CensusDir(tmp_path / "dask").open(DASK_PLAN)
    info = run_census(folder, jobs=2, client=client)
    assert info.backend == "dask" and info.workers == 2
    assert info.chunks == len(DASK_PLAN.chunks()) and info.seeds == DASK_PLAN.count
    census = Census.load(folder)
    assert census.complete and census.result == reference.result
    doc = census.to_dict()
    same_stats(doc, stats_doc(DASK_PLAN.start, DASK_PLAN.count, ALL))
    assert doc["census"]["chunks_done"] == 16 and doc["jobs"] == 2
    assert set(doc["extremes"]) == {*ORDERS, "rare"}
    hardest = doc["extremes"]["hardest"][0]
    assert analyse_deal(hardest["seed"], ALL).difficulty == hardest["difficulty"]


def test_dask_census_resumes_after_an_interruption(tmp_path: Path, client: Any,
                                                    reference: Census) -> None:
    folder = CensusDir(tmp_path / "dask").open(DASK_PLAN)
    with pytest.raises(Stop):
        run_census(folder, jobs=2, client=client, on_done=stop_after(4))
    assert 4 <= len(folder.done()) < len(DASK_PLAN.chunks())
    info = run_census(folder, jobs=2, client=client)
    assert info.skipped >= 4
    assert Census.load(folder).result == reference.result


def test_dask_census_survives_a_killed_worker(tmp_path: Path, client: Any,
                                              reference: Census) -> None:
    killed: list[int] = []

    def kill_one(result: ChunkResult) -> None:
        if not killed:
            pids = client.run(os.getpid)  # worker address -> its process id
            killed.append(min(pids.values()))
            os.kill(killed[0], signal.SIGKILL)

    folder = CensusDir(tmp_path / "dask").open(DASK_PLAN)
    run_census(folder, jobs=2, client=client, on_done=kill_one)
    assert killed
    census = Census.load(folder)
    assert census.complete and census.result == reference.result
    client.wait_for_workers(2, timeout=60)
    assert killed[0] not in client.run(os.getpid).values()


# --- the command line --------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["solo", *args], catch_exceptions=False)


def test_cli_census_report_has_the_fields_of_solo_stats(tmp_path: Path) -> None:
    out = str(tmp_path / "c")
    done = run("census", "--out", out, "--rules", "2,3,4", "--start", "1000", "--count",
               "20000", "--chunk", "4000", "--local", "-j", "1", "--format", "json")
    assert done.exit_code == 0, done.output
    assert "5 chunks (20,000 seeds)" in done.stderr
    report = run("census", "--report", out, "--format", "json")
    stats = run("stats", "--rules", "2,3,4", "--start", "1000", "--count", "20000",
                "--format", "json", "-j", "1")
    doc = json.loads(report.stdout)
    assert doc == json.loads(done.stdout)
    same_stats(doc, json.loads(stats.stdout))
    again = run("census", "--out", out, "--local", "-j", "1")  # resuming a finished census
    assert again.exit_code == 0 and "Census of rules #2 #3 #4, seeds 1,000-20,999" in again.stdout
    assert "Hardest seeds (top 20)" in again.stdout and "Seeds with 9+ dungeons" in again.stdout
    chart = tmp_path / "census.svg"
    assert run("census", "--report", out, "--chart", str(chart)).exit_code == 0
    assert chart.read_text().startswith("<svg")
    other = run("census", "--out", out, "--rules", "2", "--local")
    assert other.exit_code == 3 and "holds another census" in other.stderr
    both = run("census", "--report", out, "--rules", "2")
    assert both.exit_code == 2 and "only for a run" in both.stderr


def test_cli_census_on_a_local_cluster_and_without_dask(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    done = run("census", "--out", str(tmp_path / "d"), "--count", "60000", "--chunk", "20000",
               "-j", "2", "--format", "json")
    assert done.exit_code == 0, done.stderr
    assert "on 2 Dask workers: " in done.stderr
    same_stats(json.loads(done.stdout), stats_doc(0, 60000, frozenset()))
    monkeypatch.setattr("pathcheck.solo.census.dask_available", lambda: False)
    local = run("census", "--out", str(tmp_path / "l"), "--count", "60000", "--chunk", "20000",
                "-j", "1", "--format", "json")
    assert "Dask is not installed: running on 1 local process (" in local.stderr
    assert "pip install '.[cluster]'" in local.stderr
    assert json.loads(local.stdout)["dungeons"] == json.loads(done.stdout)["dungeons"]
    refused = run("census", "--out", str(tmp_path / "s"), "--scheduler", "tcp://127.0.0.1:1")
    assert refused.exit_code == 2 and "needs Dask" in refused.stderr


def test_solo_new_picks_from_the_census(tmp_path: Path) -> None:
    out = str(tmp_path / "c")
    run("census", "--out", out, "--rules", "2,3,4", "--count", "30000", "--chunk", "10000",
        "--local", "-j", "1", "--rare-dungeons", "8", "--format", "json")
    census = Census.load(CensusDir(out))
    rare = census.extremes()["rare"]
    assert rare
    picked = run("new", "--census", out, "--rules", "2,3,4", "--min-dungeons", "8", "--start",
                 "0", "--count", "2", "--format", "json")
    assert picked.exit_code == 0, picked.stderr
    assert [d["seed"] for d in json.loads(picked.stdout)] == [s.seed for s in rare[:2]]
    most = census.extremes()["most_dungeons"][0].dungeons
    none = run("new", "--census", out, "--rules", "2,3,4", "--min-dungeons", str(most + 1))
    assert none.exit_code == 1 and "has no seed with these constraints" in none.stderr
    unknown = run("new", "--census", out, "--rules", "2,3,4", "--min-dungeons", "5",
                  "--count", "100")
    assert unknown.exit_code == 1 and "search without --census" in unknown.stderr
    missing = run("new", "--census", str(tmp_path / "nothing"), "--min-dungeons", "8")
    assert missing.exit_code == 4 and "no such census directory" in missing.stderr
    other = run("new", "--census", out, "--rules", "2", "--min-dungeons", "8")
    assert other.exit_code == 2 and "the census counts rules #2 #3 #4, not #2" in other.stderr
    with pytest.raises(CensusMismatch):
        census.pick(frozenset(), Constraints(min_dungeons=8), 1, 0)


@pytest.mark.parametrize("rules", ["1", "2,5", "x"])
def test_cli_census_refuses_rules_that_are_not_solo_rules(tmp_path: Path, rules: str) -> None:
    done = run("census", "--out", str(tmp_path / "c"), "--rules", rules, "--count", "10",
               "--local")
    assert done.exit_code == 2 and "Invalid value for '--rules'" in done.stderr
    assert not (tmp_path / "c").exists()


def test_cli_census_runs_at_most_one_process_a_core(tmp_path: Path) -> None:
    from pathcheck.lifeline import cap_jobs

    done = run("census", "--out", str(tmp_path / "c"), "--count", "10", "--local", "-j", "999",
               "--format", "json")
    assert done.exit_code == 0, done.stderr
    from pathcheck.render.words import counted

    assert f"on {counted(cap_jobs(999), 'local process')}: " in done.stderr
