"""Memo Dice (Amigo, Haim Shafir): the plug-in object :data:`ADJUDICATOR` (entry point
``memo-dice``).

The static facts and the quoted rules live in :mod:`~pathcheck.games.memo_dice.rules`, the log
reader in :mod:`~pathcheck.games.memo_dice.log`, the replay in
:mod:`~pathcheck.games.memo_dice.state`, the pictures in :mod:`~pathcheck.games.memo_dice.at`,
random legal games in :mod:`~pathcheck.games.memo_dice.gen`.

>>> from pathcheck.games import AdjudicateOptions
>>> from pathcheck.games.memo_dice.gen import random_game
>>> import random
>>> log = random_game(random.Random(7), players=2)
>>> ruling = ADJUDICATOR.adjudicate(log, source="example", options=AdjudicateOptions())
>>> ruling.outcome.value, max(ruling.final_scores.values()) >= 20
('legal', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pathcheck.games import GameAdjudicator
from pathcheck.games.common import Pictures
from pathcheck.games.memo_dice.fast import fast_json_ruling, fast_ruling, ruling_of
from pathcheck.games.memo_dice.log import (
    FORMAT,
    FORMATS,
    LOG_FORMAT,
    LOG_FORMATS,
    SCHEMAS,
    MemoDiceEntry,
    MemoDiceLog,
    read_entry,
    read_log,
)
from pathcheck.games.memo_dice.rules import GAME, TITLE
from pathcheck.games.memo_dice.state import Replay
from pathcheck.ruling import Ruling


class MemoDiceAdjudicator(GameAdjudicator):
    """The ``memo-dice`` plug-in: reads ``memo-dice/1`` logs."""

    name = GAME
    title = TITLE
    formats = FORMATS
    schemas = SCHEMAS
    log_formats = LOG_FORMATS

    typed_readers = ((FORMAT, LOG_FORMAT, read_entry),)

    def rule(self, log: Mapping[str, Any], *, source: str, pictures: Pictures) -> Ruling:
        """Replay ``log`` and rule on it; RecordError if it is malformed. A clean log is ruled
        on by the C fast path (:mod:`~pathcheck.games.memo_dice.fast`) when the extension is
        built and no picture is asked for: the same ruling as :func:`rule_python`."""
        return self.rule_entry(LOG_FORMAT.read(log, source=source), source=source,
                               pictures=pictures)

    def rule_entry(self, entry: MemoDiceEntry, *, source: str, pictures: Pictures) -> Ruling:
        """Rule on a log in its typed form (:data:`~pathcheck.games.memo_dice.log.
        LOG_FORMAT`), by the C fast path where it takes the log."""
        if pictures.want is None:
            ruling = fast_ruling(entry, source=source)
            if ruling is not None:
                return ruling
        return self.rule_read(read_entry(entry, source=source), source=source, pictures=pictures)

    def json_ruling(self, entry: Any, *, source: str) -> Ruling | None:
        """:meth:`GameAdjudicator.json_ruling`: a clean log's rounds written as JSON in C
        (:func:`~pathcheck.games.memo_dice.fast.fast_json_ruling`)."""
        return fast_json_ruling(entry, source=source)

    def rule_typed(self, entry: Any, read_entry: Callable[..., Any], *, source: str) -> Ruling:
        """:meth:`GameAdjudicator.rule_typed`, a clean log by the C fast path."""
        return self.rule_entry(entry, source=source, pictures=Pictures(None))

    def rule_read(self, game: MemoDiceLog, *, source: str, pictures: Pictures) -> Ruling:
        """Replay a log :func:`read_log` has read and rule on it."""
        replay = Replay(game, pictures, source=source)
        replay.play()
        return ruling_of(replay.players, tuple(replay.rounds), dict(replay.scores),
                         pictures.below(replay.final_table()), source, replay.violations,
                         replay.notes)

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal game: 2-4 players, with or without the dice faces."""
        from pathcheck.games.memo_dice import gen  # only tests and demos draw random games

        return gen.random_game(rng, with_dice=rng.random() < 0.7)


def rule_python(log: Mapping[str, Any], *, source: str,
                pictures: Pictures | None = None) -> Ruling:
    """The ruling on ``log`` by the Python replay alone (the plain reference of the C path)."""
    return ADJUDICATOR.rule_read(read_log(log, source=source), source=source,
                                 pictures=pictures or Pictures(None))


ADJUDICATOR = MemoDiceAdjudicator()
"""The object registered as entry point ``memo-dice`` in the ``pathcheck.games`` group."""
