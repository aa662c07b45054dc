"""Generate benchmark input: dungeon/1 records of flawless solo play of random decks.

Each deck is played perfectly (spec section 5); every dungeon of the answer key becomes one
record, so lengths vary from 1 to 38 tiles and every Lost reason occurs.

    python tests/bench/gen.py --records 100000 --rules 2,3,4 -o /tmp/bench.jsonl
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator

import msgspec

from pathcheck.solo import answer_key
from pathcheck.tileset import load_tileset


def records(count: int, rules: list[int], seed: int = 1) -> Iterator[bytes]:
    tileset = load_tileset()
    rng = random.Random(seed)
    deck_ids = tileset.deck_ids(advanced=True)
    made = 0
    while made < count:
        deck = deck_ids[:]
        rng.shuffle(deck)
        for dungeon in answer_key([tileset.start, *deck], rules=rules, tileset=tileset):
            record = {
                "format": "dungeon/1",
                "advanced": True,
                "rules": rules,
                "tiles": [{"tile": p.tile, "dir": p.dir.name} for p in dungeon.placements],
            }
            yield msgspec.json.encode(record) + b"\n"
            made += 1
            if made >= count:
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--rules", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    rules = [int(r) for r in args.rules.split(",") if r]
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")  # noqa: SIM115
    with out:
        for line in records(args.records, rules, args.seed):
            out.write(line)


if __name__ == "__main__":
    main()
