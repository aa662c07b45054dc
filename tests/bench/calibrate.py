"""The calibration of the memory score (docs/analysis.md): logs of every game generated with
players of a known memory (:mod:`pathcheck.analysis.players`), analysed, and per game and
style the memory score, the accuracy and the memory span, as the Markdown table of
docs/analysis.md.

Run: ``python3 -m tests.bench.calibrate [--games N] [--seed S]`` (N logs per game and style,
3 players each; 40 by default, about a minute). Not a timed test: what it prints is the
table; tests/analysis/test_calibration.py checks the ranking on a small sample.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from pathcheck.analysis import analyse
from pathcheck.analysis.core import memory_score
from pathcheck.analysis.players import GAMES, STYLES, generate
from pathcheck.analysis.table import PlayerRow, Tally, span_text


def calibrate(games: int, seed: int = 1, styles: Sequence[str] = STYLES,
              of: Sequence[str] = GAMES) -> dict[str, dict[str, list[PlayerRow]]]:
    """Per game (of ``of``) and style: the tournament table's rows of its players over
    ``games`` logs."""
    out: dict[str, dict[str, list[PlayerRow]]] = {}
    for game in of:
        out[game] = {}
        for name in styles:
            rng = random.Random(f"{seed}:{game}:{name}")
            tally = Tally()
            for _ in range(games):
                tally.add(analyse(generate(game, name, rng), source=f"{game}-{name}"))
            out[game][name] = tally.rows()
    return out


def style_score(rows: Sequence[PlayerRow]) -> float | None:
    """One style's memory score: all its players' points lost against those at stake."""
    return memory_score(sum(r.lost for r in rows), sum(r.at_stake for r in rows))


def _accuracy(rows: Sequence[PlayerRow]) -> str:
    sound, slips = sum(r.sound for r in rows), sum(r.slips for r in rows)
    return "-" if not sound + slips else f"{100 * sound / (sound + slips):.1f}%"


def table(results: dict[str, dict[str, list[PlayerRow]]]) -> str:
    """The Markdown table: a row per game and style."""
    lines = ["| game | style | memory score | accuracy | span (first player) |",
             "|---|---|---|---|---|"]
    for game, by_style in results.items():
        for name, rows in by_style.items():
            score = style_score(rows)
            lines.append(f"| {game} | {name} | {'-' if score is None else f'{score:.1f}'} | "
                         f"{_accuracy(rows)} | {span_text(rows[0]) if rows else '-'} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="logs per game and style")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(table(calibrate(args.games, args.seed)))


if __name__ == "__main__":
    main()
