"""The dungeon in memory adjudicator: rules on ``game/1`` logs and ``solo/1`` records.

Registered as the entry point ``dungeon`` of the ``pathcheck.games`` group. A game log is
replayed by :mod:`pathcheck.games.dungeon.state` (read by :mod:`~pathcheck.games.dungeon.log`);
a solo record is checked by :mod:`pathcheck.games.dungeon.solo`. The log's ``format`` picks
which; any other format is a RecordError.

>>> import random
>>> from pathcheck.games.dungeon.gen import random_game
>>> ruling = ADJUDICATOR.adjudicate(random_game(random.Random(3), ["Ann", "Bob", "Cy"]),
...                                 source="doc", options=AdjudicateOptions())
>>> ruling.outcome.value, max(ruling.final_scores.values())
('legal', 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pathcheck.errors import RecordError
from pathcheck.games import AdjudicateOptions
from pathcheck.games.dungeon.at import game_display
from pathcheck.games.dungeon.log import read_game_log
from pathcheck.games.dungeon.rules import (
    GAME,
    GAME_FORMAT,
    GAME_SCHEMA,
    SOLO_FORMAT,
    SOLO_SCHEMA,
    TITLE,
    WIN_POINTS,
)
from pathcheck.games.dungeon.solo import rule_solo
from pathcheck.games.dungeon.state import START_DIR, Replay
from pathcheck.ruling import Ruling


def rule_game(log: Mapping[str, Any], *, source: str, at: str | None = None) -> Ruling:
    """Replay a ``game/1`` log and rule on it; RecordError if it is malformed.

    ``at`` (``R.T``) adds the map of exploration R after turn T to the ruling.
    """
    game = read_game_log(log, source=source)
    replay = Replay(game)
    rounds = replay.run()
    display = ""
    if at is not None:
        display = game_display(at, replay.stacks, game.tileset, sorted(game.rules))
    mode = "advanced" if game.advanced else "basic"
    extra = ", ".join(f"#{r}" for r in sorted(game.rules)) or "none"
    notes = [f"{mode} rules, additional rules: {extra}, tile set {game.tileset.name}; START "
             f"lies at (0, 0) with its arrow {START_DIR.name}"]
    tie = ""
    if len(replay.winners) > 1:
        tie = f"all reached {WIN_POINTS} points in the same check: a shared victory"
    return Ruling(
        game=GAME,
        format=GAME_FORMAT,
        source=source,
        players=list(game.players),
        rounds=rounds,
        final_scores=dict(replay.scores),
        winners=list(replay.winners),
        violations=tuple(replay.violations),
        tie_break=tie,
        notes=tuple(notes),
        display=display,
    )


@dataclass(frozen=True)
class DungeonAdjudicator:
    """The plug-in object registered as entry point ``dungeon``."""

    name: str = GAME
    title: str = TITLE
    formats: tuple[str, ...] = (GAME_FORMAT, SOLO_FORMAT)
    schemas: tuple[str, ...] = (GAME_SCHEMA, SOLO_SCHEMA)

    def adjudicate(
        self, log: Mapping[str, Any], *, source: str, options: AdjudicateOptions
    ) -> Ruling:
        """Rule on a game log or a solo record; RecordError if it is malformed.

        ``options.at`` (``R.T``) adds the map of exploration R after turn T (a solo record:
        dungeon R after its tile T).
        """
        if not isinstance(log, Mapping):
            raise RecordError(source, None, "", "expected a JSON object (a game log or a solo "
                                                "record)")
        fmt = log.get("format", GAME_FORMAT)
        if fmt == SOLO_FORMAT:
            return rule_solo(log, source=source, at=options.at)
        if fmt != GAME_FORMAT:
            raise RecordError(source, None, "/format",
                              f"expected \"{GAME_FORMAT}\" or \"{SOLO_FORMAT}\", got {fmt!r}")
        return rule_game(log, source=source, at=options.at)


ADJUDICATOR = DungeonAdjudicator()
