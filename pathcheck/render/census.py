"""The text report of a census: ``solo stats``'s table, then the extreme seeds."""

from __future__ import annotations

from pathcheck.render.chart import format_table
from pathcheck.render.words import counted
from pathcheck.solo.census.chunk import Seed
from pathcheck.solo.census.report import Census
from pathcheck.solo.census.store import describe
from pathcheck.solo.deal import grade_of
from pathcheck.solo.seed_codes import SeedCode

TITLES = {
    "hardest": "Hardest seeds",
    "easiest": "Easiest seeds",
    "most_dungeons": "Most dungeons",
    "fewest_dungeons": "Fewest dungeons",
}
RARE_SHOWN = 20
"""Seeds with many dungeons listed in the text (--format json lists them all)."""


def format_census(census: Census) -> str:
    """The census as plain text (what ``pathcheck solo census`` prints)."""
    plan = census.plan
    doc = census.to_dict()
    info = doc["census"]
    done = (f"{census.chunks_done:,} of {info['chunks']:,} chunks"
            + ("" if census.complete else ", INCOMPLETE: run the census again to resume"))
    rate = info["seeds_per_core_second"]
    unfinished = info["runs_unfinished"]
    runs = (f"  {counted(info['runs'], 'run')}, {unfinished:,} of them interrupted, failed or "
            "killed" if unfinished else None)
    lines = [f"Census of {describe(plan)}", f"  {done}; {census.deals:,} seeds counted"
             + (f", {rate:,} seeds per CPU second" if rate else ""),
             *([runs] if runs else []), ""]
    if census.result is None:
        return "\n".join([*lines, "No chunk is finished yet."])
    lines.append(format_table(census.summary(), start=plan.start, jobs=doc["jobs"],
                              seconds=doc["seconds"] or None, span=census.span(),
                              worker=_worker(census)))
    extremes = census.extremes()
    for name, title in TITLES.items():
        lines += ["", f"{title} (top {plan.limits.top})"]
        lines += [_seed_line(k, s, plan.rules) for k, s in enumerate(extremes[name], 1)]
    rare = extremes["rare"]
    lines += ["", f"Seeds with {plan.limits.rare}+ dungeons: {len(rare):,}"
              + ("" if rare else " (none in the counted seeds)")]
    lines += [_seed_line(k, s, plan.rules) for k, s in enumerate(rare[:RARE_SHOWN], 1)]
    if len(rare) > RARE_SHOWN:
        lines.append(f"  ... and {len(rare) - RARE_SHOWN:,} more (--format json lists all)")
    return "\n".join(lines)


WORKERS = {"dask": "Dask worker", "processes": "local process"}
"""What did the work of a census, by the backend of its runs (``runs.jsonl``)."""


def _worker(census: Census) -> str:
    backends = {run.backend for run in census.runs} - {"none"}
    return WORKERS.get(backends.pop(), "worker") if len(backends) == 1 else "worker"


def _seed_line(rank: int, seed: Seed, rules: frozenset[int]) -> str:
    code = SeedCode(seed.seed, rules)
    return (f"  {rank:>3}  {code}  seed {seed.seed:>14,}  {seed.dungeons} "
            f"{'dungeon ' if seed.dungeons == 1 else 'dungeons'}  "
            f"difficulty {seed.difficulty:4.1f} ({grade_of(seed.difficulty, rules)})")
