"""The robot memory game (Igrology, 2017): the plug-in object :data:`ADJUDICATOR` (entry point
``robot-memory``).

Static facts (cards, quoted rules, scoring) live in :mod:`~pathcheck.games.robot_memory.rules`,
log reading in :mod:`~pathcheck.games.robot_memory.log`, the replay in
:mod:`~pathcheck.games.robot_memory.state`, the pictures in
:mod:`~pathcheck.games.robot_memory.at`, random legal games in
:mod:`~pathcheck.games.robot_memory.gen`.

>>> from pathcheck.games import AdjudicateOptions
>>> from pathcheck.games.robot_memory.gen import random_game
>>> import random
>>> ruling = ADJUDICATOR.adjudicate(random_game(random.Random(1)), source="doc",
...                                 options=AdjudicateOptions())
>>> ruling.outcome.value, len(ruling.rounds)
('legal', 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pathcheck.games import GameAdjudicator
from pathcheck.games.common import Pictures
from pathcheck.games.robot_memory.at import score_table
from pathcheck.games.robot_memory.fast import fast_ruling
from pathcheck.games.robot_memory.log import (
    FORMAT,
    FORMATS,
    LOG_FORMAT,
    LOG_FORMATS,
    SCHEMAS,
    GameLog,
    RobotMemoryEntry,
    read_entry,
    read_log,
)
from pathcheck.games.robot_memory.rules import GAME, SOLO_GOAL, TITLE
from pathcheck.games.robot_memory.state import Replay
from pathcheck.ruling import Ruling


class RobotMemoryAdjudicator(GameAdjudicator):
    """The plug-in object registered as entry point ``robot-memory``."""

    name = GAME
    title = TITLE
    formats = FORMATS
    schemas = SCHEMAS
    log_formats = LOG_FORMATS

    typed_readers = ((FORMAT, LOG_FORMAT, read_entry),)

    def rule(self, log: Mapping[str, Any], *, source: str, pictures: Pictures) -> Ruling:
        """Replay ``log`` and rule on it; RecordError if it is malformed.

        A clean log is ruled on by the C fast path (:mod:`~pathcheck.games.robot_memory.fast`)
        when the extension is built and no picture is asked for; the same ruling as
        :func:`rule_python`.
        """
        return self._rule_entry(LOG_FORMAT.read(log, source=source), source, pictures)

    def json_ruling(self, entry: Any, *, source: str) -> Ruling | None:
        """:meth:`GameAdjudicator.json_ruling`: a clean log's rounds written as JSON in C
        (:func:`~pathcheck.games.robot_memory.fast.fast_ruling`)."""
        return fast_ruling(entry, source=source, for_json=True)

    def rule_typed(self, entry: Any, read_entry: Callable[..., Any], *, source: str) -> Ruling:
        """:meth:`GameAdjudicator.rule_typed`, a clean log by the C fast path."""
        return self._rule_entry(entry, source, Pictures(None))

    def _rule_entry(self, entry: RobotMemoryEntry, source: str, pictures: Pictures) -> Ruling:
        if pictures.want is None:
            ruling = fast_ruling(entry, source=source)
            if ruling is not None:
                return ruling
        return self.rule_read(read_entry(entry, source=source), source=source,
                              pictures=pictures)

    def rule_read(self, game: GameLog, *, source: str, pictures: Pictures) -> Ruling:
        """Replay a log :func:`read_log` has read and rule on it (the Python replay, the plain
        reference of the C path)."""
        replay = Replay(game, pictures)
        rounds = replay.run()
        display = score_table(game.sides, rounds) if rounds else ""
        winners, tie = replay.winners()
        notes: list[str] = []
        for team in game.teams:
            members = ", ".join(m + (" (captain)" if m == team.captain else "")
                                for m in team.members)
            notes.append(f"team {team.name}: {members}")
        notes.extend(note for gaps in replay.unchecked if (note := gaps.note()) is not None)
        if replay.solo:
            notes.append(f"solo play has no winner: {SOLO_GOAL.quote} "
                         f"Score: {replay.scores[game.sides[0]]}")
        return Ruling(
            game=GAME,
            format=FORMAT,
            source=source,
            players=list(game.sides),
            rounds=rounds,
            final_scores=dict(replay.scores),
            winners=winners,
            violations=tuple(replay.violations),
            tie_break=tie,
            notes=tuple(notes),
            display=pictures.below(display),
        )

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal game of any variant (standard, solo, team, 5+, custom)."""
        from pathcheck.games.robot_memory import gen  # only tests and demos draw random games

        return gen.random_game(rng)


ADJUDICATOR = RobotMemoryAdjudicator()


def rule_python(log: Mapping[str, Any], *, source: str, pictures: Pictures | None = None
                ) -> Ruling:
    """The ruling on ``log`` by the Python replay alone (the plain reference of the C path)."""
    return ADJUDICATOR.rule_read(read_log(log, source=source), source=source,
                                 pictures=pictures or Pictures(None))
