"""A fixed corpus of replay pages, written through the CLI, for the byte-for-byte page test.

Every kind of page pathcheck writes: ``adjudicate --html`` of every game fixture (a page each)
and of batches (a folder and its index: the bench's random ``game/1`` logs of 3-5 players and
random logs of every game), ``analyse --html`` of every legal game fixture, ``verify --html``
of the example records and of a batch of records, ``solo key --html``. ``tests/data/
page_digests.json`` holds the SHA-256 of each page as written before pages were made faster
(issue #33 point 4); :mod:`tests.test_page_bytes` checks every page still matches it.

To rewrite the digests after a change that means to change pages (say why in the commit)::

    python3 -m tests.page_corpus --write
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[1]
DIGESTS = ROOT / "tests" / "data" / "page_digests.json"
GAMES = ("dungeon", "memoarrr", "memo-dice", "robot-memory")


def game_fixtures(root: Path = ROOT) -> list[Path]:
    return sorted(p for folder in GAMES for p in (root / "fixtures" / folder).glob("*.json")
                  if not p.name.startswith("malformed"))


def bench_logs(count: int, path: Path, seed: int) -> None:
    """Random legal ``game/1`` logs of 3, 4 and 5 players, as tests/bench/pages.py makes them."""
    from pathcheck.games.dungeon.gen import random_game

    rng = random.Random(seed)
    with open(path, "wb") as out:
        for i in range(count):
            out.write(msgspec.json.encode(random_game(rng, players=3 + i % 3)) + b"\n")


def every_game_logs(path: Path, per_game: int) -> None:
    """Random logs of every installed game (legal and, from the generators, often not)."""
    from pathcheck import games

    with open(path, "wb") as out:
        for name in sorted(games.available()):
            adjudicator = games.load(name)
            for seed in range(per_game):
                out.write(msgspec.json.encode(adjudicator.random_game(random.Random(seed)))
                          + b"\n")


def _run(args: list[str]) -> None:
    from pathcheck.cli import main

    code = main(args)
    assert code in (0, 1), (args, code)


def _folder(folder: Path, prefix: str, out: dict[str, str]) -> None:
    for page in sorted(folder.iterdir()):
        out[f"{prefix}/{page.name}"] = hashlib.sha256(page.read_bytes()).hexdigest()


def digests(work: Path) -> dict[str, str]:
    """The SHA-256 of every page of the corpus, by a name that says how it was written (run
    in ``work`` on copies of the fixtures: a page names its input by the path given)."""
    for folder in (*GAMES, "dungeons", "batch"):
        shutil.copytree(ROOT / "fixtures" / folder, work / "fixtures" / folder)
    with contextlib.chdir(work):
        return _digests(Path("."))


def _digests(work: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in game_fixtures(work):
        name = f"{path.parent.name}/{path.stem}"
        page = work / f"{path.parent.name}-{path.stem}.html"
        _run(["adjudicate", str(path), "-o", str(work / "r.txt"), "--html", str(page)])
        out[f"adjudicate/{name}"] = hashlib.sha256(page.read_bytes()).hexdigest()
        if path.stem.startswith("legal"):
            page = work / f"{path.parent.name}-{path.stem}-analysis.html"
            _run(["analyse", str(path), "-o", str(work / "a.txt"), "--html", str(page)])
            out[f"analyse/{name}"] = hashlib.sha256(page.read_bytes()).hexdigest()
    for seed in (1, 2):
        logs = work / f"bench-{seed}.jsonl"
        bench_logs(30, logs, seed)
        _run(["adjudicate", str(logs), "-o", str(work / "r.txt"), "--html",
              str(work / f"bench-{seed}") + "/"])
        _folder(work / f"bench-{seed}", f"bench-{seed}", out)
    every = work / "every-game.jsonl"
    every_game_logs(every, 8)
    _run(["adjudicate", str(every), "-o", str(work / "r.txt"), "--html",
          str(work / "every-game") + "/"])
    _folder(work / "every-game", "every-game", out)
    for records in (work / "fixtures" / "dungeons" / "examples.dgn",
                    work / "fixtures" / "batch" / "dungeons.jsonl"):
        folder = work / f"verify-{records.stem}"
        _run(["verify", str(records), "-o", str(work / "v.txt"), "--html", str(folder) + "/"])
        _folder(folder, f"verify-{records.stem}", out)
    _run(["adjudicate", str(work / "fixtures" / "batch" / "logs.jsonl"), "-o",
          str(work / "r.txt"), "--html", str(work / "batch-logs") + "/"])
    _folder(work / "batch-logs", "batch-logs", out)
    for code in ("1303N-QK8NC",):
        page = work / f"key-{code}.html"
        _run(["solo", "key", code, "--reveal", "-o", str(work / "k.txt"), "--html", str(page)])
        out[f"solo-key/{code}"] = hashlib.sha256(page.read_bytes()).hexdigest()
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        found = digests(Path(tmp))
    if "--write" in sys.argv:
        DIGESTS.parent.mkdir(parents=True, exist_ok=True)
        DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"{len(found)} pages")
