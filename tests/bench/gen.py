"""Generate benchmark input: dungeon/1 records of flawless solo play of random decks.

Each deck is played perfectly (spec section 5); every dungeon of the answer key becomes one
record, so lengths vary from 1 to 38 tiles and every Lost reason occurs. :func:`shapes` writes
the same dungeons in the shapes users feed: tidy records, records with players and LOST cards,
hand-written ``.dgn`` and records written by other tools (ids, notes, escapes, key orders).

    python tests/bench/gen.py --records 100000 --rules 2,3,4 -o /tmp/bench.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

import msgspec

from pathcheck.solo.play import answer_key
from pathcheck.tracer.tileset import load_tileset

# Names as a club's score sheets have them: accents, other scripts, hyphens (no spaces: a
# .dgn token cannot hold one).
NAMES = ["Ann", "Bob", "Chloé", "Dmitri", "Eve", "Fatima", "Gábor", "Hiro", "Ingrid", "José",
         "Kwame", "Lena", "Mia", "Noah", "Olga", "Pál", "Quinn", "Rosa", "Søren", "Tomás",
         "Uma", "Zoë", "Łucja", "Björn", "Ngozi", "Jan-Erik", "Mary-Ann", "Ümit", "Chen_Wei",
         "Àlex", "Yuki", "Ana-María"]
NOTES = ["played at the club", "Saturday table 2", "café night, Zoë's copy of the game",
         "rematch", "new players", "tournament round 3 — final", ""]


def _games(count: int, rules: list[int], seed: int) -> Iterator[tuple[int, list[Any]]]:
    """(game number, placements) of the dungeons of flawless play of random decks."""
    tileset = load_tileset()
    rng = random.Random(seed)
    deck_ids = tileset.deck_ids(advanced=True)
    made = game = 0
    while made < count:
        deck = deck_ids[:]
        rng.shuffle(deck)
        game += 1
        for dungeon in answer_key([tileset.start, *deck], rules=rules, tileset=tileset):
            yield game, list(dungeon.placements)
            made += 1
            if made >= count:
                return


def records(count: int, rules: list[int], seed: int = 1) -> Iterator[bytes]:
    """Tidy JSON Lines records (the shape of figure 1)."""
    for _, placements in _games(count, rules, seed):
        record = {
            "format": "dungeon/1",
            "advanced": True,
            "rules": rules,
            "tiles": [{"tile": p.tile, "dir": p.dir.name} for p in placements],
        }
        yield msgspec.json.encode(record) + b"\n"


def _cards(rng: random.Random, players: list[str], length: int) -> list[tuple[str, int]]:
    """LOST cards as players lay them: most announce near the end of the dungeon (the last
    tile is where flawless play got Lost), some early, some never."""
    cards = []
    for name in players:
        if rng.random() < 0.75:
            after = max(1, length - rng.choice([0, 0, 0, 1, 1, 2, 4]))
            cards.append((name, after))
    cards.sort(key=lambda card: card[1])
    return cards


def shapes(count: int, rules: list[int], seed: int = 1) -> Iterator[tuple[bytes, bytes, bytes,
                                                                        bytes]]:
    """The same dungeons four ways, line by line: tidy JSON Lines; with players and LOST
    cards; ``.dgn`` text (comments and a ``#!`` settings line before each game; empty for a
    dungeon that opens no new line); JSON written by another tool (Python's json.dumps: ASCII
    escapes, spaces, its own key order, an id and a note)."""
    rng = random.Random(seed + 1)
    players: list[str] = []
    current = 0
    for game, placements in _games(count, rules, seed):
        tiles = [{"tile": p.tile, "dir": p.dir.name} for p in placements]
        head = b""
        if game != current:
            current = game
            players = rng.sample(NAMES, rng.randint(2, 5))
            head = (f"\n# game {game}, table {rng.randint(1, 9)}\n"
                    f"#! advanced rules={','.join(map(str, rules))} players={','.join(players)}"
                    "\n").encode()
        cards = _cards(rng, players, len(tiles))
        tidy = {"format": "dungeon/1", "advanced": True, "rules": rules, "tiles": tiles}
        full = {**tidy, "players": players,
                "lost": [{"player": name, "after": after} for name, after in cards]}
        tokens = []
        for index, p in enumerate(placements, 1):
            tokens.append(f"{p.tile}@{p.dir.name}")
            tokens += [f"!{name}" for name, after in cards if after == index]
        comment = "   # " + rng.choice(NOTES) if rng.random() < 0.1 else ""
        dgn = head + (" ".join(tokens) + comment + "\n").encode()
        other: dict[str, Any] = {"id": f"g{game}-{rng.randint(1, 999)}",
                                 "note": rng.choice(NOTES)}
        other.update(tidy)
        keys = list(other)
        rng.shuffle(keys)
        other = {k: other[k] for k in keys}
        other["tiles"] = [t if rng.random() < 0.5 else {"dir": t["dir"], "tile": t["tile"]}
                          for t in tiles]
        odd = json.dumps(other).encode() + b"\n"
        yield msgspec.json.encode(tidy) + b"\n", msgspec.json.encode(full) + b"\n", dgn, odd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--rules", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shape", choices=["tidy", "players", "dgn", "other"], default="tidy")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    rules = [int(r) for r in args.rules.split(",") if r]
    which = ["tidy", "players", "dgn", "other"].index(args.shape)
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")  # noqa: SIM115
    with out:
        for lines in shapes(args.records, rules, args.seed):
            out.write(lines[which])


if __name__ == "__main__":
    main()
