"""The words of move lines: the help's examples, and what Tab completion offers in a move
line of a game being recorded (by game and by the state the log is in: tiles not yet placed,
positions still face down, dice not rolled).

>>> words({"format": "memo-dice/1", "players": ["Ann", "Bob"], "rounds": [
...     {"covering": [{"player": "Ann", "die": 3, "symbol": "cat", "colour": "blue",
...                    "cup": "blue"}], "uncovering": []}]})[:5]
['Ann', 'Bob', '1', '2', '4']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pathcheck import notation

if TYPE_CHECKING:
    from pathcheck.tracer.tileset import TileSet

EXAMPLES: Mapping[str, tuple[tuple[str, str], ...]] = {
    "game/1": (
        ("exploration Ann", "opens an exploration: its start player"),
        ("Ann R1@N · Bob R2@E !Ann", "turns: PLAYER TILE@DIR; !NAME a LOST card laid on it"),
    ),
    "solo/1": (
        ("START@N", "one tile a line, bottom first: TILE@DIR"),
        ("R1@N R2@E", "or several; the tile after one that gets Lost starts the next "
                      "dungeon by itself (| starts one at once)"),
    ),
    "memoarrr/1": (
        ("round dark light", "opens a round: its volcanoes, top first (players - 1)"),
        ("Ann D2 walrus/jungle · Bob D4 walrus/flowers",
         "turns: PLAYER POS ANIMAL/LANDSCAPE (or PLAYER volcano)"),
    ),
    "memo-dice/1": (
        ("round", "opens a round"),
        ("Ann 2 bell/red red · Bob 7 lemon/red red", "covering: PLAYER DIE SYMBOL/COLOUR CUP"),
        ("Ann 1 bell", "uncovering: PLAYER CUP SYMBOL-NAMED"),
    ),
    "robot-memory/1": (
        ("round 2x2 first Ann", "opens a round: its size and the first active player"),
        ("Bob Ann r1c1 bulb/red =3 is bulb/red/3",
         "a turn: CHOOSER GUESSER rRcC GUESS [=POINTS] is CARD,"),
        ("Ann Bob r2c2 short-circuit =0 is short-circuit + Bob r1c2 3 =1 is gear/blue/3",
         "  the card turned (asked for if left out; ? nobody noted it)"),
    ),
}
"""A complete example of each kind of move line, per log format, for the recorder's help
(written for the players Ann, Bob and Cy; the tests type each one)."""


def at_this_table(line: str, players: Sequence[str], edition: str = "2023") -> str:
    """An example line of the help written with the players at this table (the examples
    name Ann, Bob and Cy), a Memoarrr! round with this table's volcanoes (one fewer than
    the players; the 2018 edition's are numbered 1, 3, 7).

    >>> at_this_table("Ann R1@N · Bob R2@E !Ann", ["Linda", "Nora"])
    'Linda R1@N · Nora R2@E !Linda'
    >>> at_this_table("round dark light", ["Ann", "Bob"], "2018")
    'round 1'
    """
    names = [notation.word(p) for p in players]
    if not names:
        return line
    if re.fullmatch(r"round (dark|light)( (dark|light))*", line):
        cards = ("1", "3", "7") if edition.strip() == "2018" else ("dark", "light", "dark")
        return " ".join(["round", *cards[:max(1, len(names) - 1)]])
    table = {"Ann": names[0], "Bob": names[1 % len(names)], "Cy": names[2 % len(names)]}
    return re.sub(r"\b(Ann|Bob|Cy)\b", lambda m: table[m.group(1)], line)


def words(log: dict[str, Any], source: str = "<recording>", player: str | None = None
          ) -> list[str]:
    """The words that may come next in a move line of ``log``: names, keywords, tiles,
    positions (``player``: whose turn the line is, when known: a dungeon player's hand
    first, when the deal is recorded)."""

    fmt = log.get("format")
    names = [str(p) for p in log.get("players", ())]
    names += [str(t.get("name")) for t in log.get("teams", ()) if isinstance(t, dict)]
    names += [str(m) for t in log.get("teams", ()) if isinstance(t, dict)
              for m in t.get("members", ())]
    if fmt in ("game/1", "solo/1"):
        return names + _dungeon_words(log, names, source, player)
    if fmt == "memoarrr/1":
        cards = [f"{a}/{land}" for a in ("penguin", "octopus", "crab", "walrus", "turtle")
                 for land in ("water", "flowers", "lava", "jungle", "desert")]
        rounds = log.get("rounds") or [{}]
        seen = {a.get("reveal") for a in rounds[-1].get("actions", ())}
        positions = [f"{c}{r}" for r in "12345" for c in "ABCDE"
                     if f"{c}{r}" != "C3" and f"{c}{r}" not in seen]
        abilities = [f"{k}={p}" for k in ("swap", "mark", "peek") for p in positions]
        return [*names, "round", "volcano", "dark", "light", "1", "3", "7", *positions,
                *cards, *abilities]
    if fmt == "memo-dice/1":
        symbols = {str(f["symbol"]) for die in log.get("dice", ()) for f in die}
        for rnd in log.get("rounds", ()):
            symbols.update(str(r["symbol"]) for r in rnd["covering"])
        faces = [f"{s}/{c}" for s in sorted(symbols) for c in ("red", "blue", "black")]
        last = (log.get("rounds") or [{"covering": [], "uncovering": []}])[-1]
        if any(r["cup"] == "golden" for r in last["covering"]):
            # uncovering: the cups still covered, then the symbols
            done = {u["cup"] for u in last["uncovering"]}
            cups = [str(i) for i in range(1, len(last["covering"]) + 1)
                    if i not in done]
            return names + cups + sorted(symbols) + ["-", "round"]
        rolled = {r["die"] for r in last["covering"]}  # covering: the dice not rolled
        return names + [str(i) for i in range(1, 10) if i not in rolled] + faces + \
            ["red", "blue", "black", "golden", "round"]
    rounds = log.get("rounds", ())
    grid = rounds[-1]["grid"] if rounds else {"rows": 4, "columns": 4}
    picked = {(p["position"]["row"], p["position"]["column"])
              for t in (rounds[-1]["turns"] if rounds else ())
              for p in (t, *t.get("chain", ()))}
    positions = [f"r{r}c{c}" for r in range(1, int(grid["rows"]) + 1)
                 for c in range(1, int(grid["columns"]) + 1) if (r, c) not in picked]
    from pathcheck.games.robot_memory.notation import COLOURS, TYPES

    cards = [f"{t}/{c}/{n}" for t in TYPES for c in COLOURS for n in "1234"]
    return names + ["round", "row", "first", "captains", "+", "is", "short-circuit", "?", "-"] + \
        positions + list(TYPES) + list(COLOURS) + cards + [f"={n}" for n in range(7)]


def _tileset(log: Mapping[str, Any], source: str) -> TileSet | None:
    """The tile set of the log ``source`` as its ruling finds it (None: a bad one, which the
    ruling reports, not completion)."""
    from pathcheck.errors import TileSetError
    from pathcheck.games.dungeon.log import log_tileset

    try:  # the ruling's own rule: a built-in set or a file in the log's folder
        return log_tileset(log.get("tileset"), source)
    except TileSetError:
        return None


def tile_ids(log: Mapping[str, Any], source: str) -> dict[str, str]:
    """The log's tile ids by their lower case (``r1`` -> ``R1``)."""
    tileset = _tileset(log, source)
    return {} if tileset is None else {t.lower(): t for t in tileset.ids_for(advanced=True)}


def _dungeon_words(log: dict[str, Any], names: list[str], source: str,
                   player: str | None) -> list[str]:
    tileset = _tileset(log, source)
    if tileset is None:
        return []
    if log.get("format") == "solo/1":
        tiles = tileset.ids_for(advanced=True)
        placed = {p["tile"] for dungeon in log.get("dungeons", ()) for p in dungeon}
        return ["|"] + [f"{t}@{d}" for t in tiles if t not in placed for d in "NESW"]
    tiles = tileset.deck_ids(bool(log.get("advanced", False)))
    explorations = log.get("explorations", ())
    placed = {t["tile"] for t in explorations[-1]["turns"]} if explorations else set()
    free = [t for t in tiles if t not in placed]
    held = _hand(log, source, player) if player is not None else []
    free = [t for t in held if t in free] + [t for t in free if t not in held]
    return (["exploration", "hand", "deck"] + [f"{t}@{d}" for t in free for d in "NESW"]
            + [f"!{notation.word(n)}" for n in names] + [f"+{t}" for t in free] + ["+-"] + tiles)


def _hand(log: dict[str, Any], source: str, player: str) -> list[str]:
    """The tiles in ``player``'s hand now, as the replay has them (none it did not see)."""
    from pathcheck.games.dungeon.deal import UNSEEN
    from pathcheck.games.dungeon.log import read_game_log
    from pathcheck.games.dungeon.state import Replay

    try:
        replay = Replay(read_game_log(log, source=source))
        replay.run()
    except (ValueError, KeyError):  # a log that stops mid-deal: no hand to offer yet
        return []
    return [t for t in replay.hands.get(player, ()) if t != UNSEEN]
