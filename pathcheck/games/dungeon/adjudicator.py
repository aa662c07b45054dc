"""The dungeon in memory adjudicator: rules on ``game/1`` logs and ``solo/1`` records.

Registered as the entry point ``dungeon`` of the ``pathcheck.games`` group. A game log is
read by :mod:`~pathcheck.games.dungeon.log` and replayed by
:mod:`~pathcheck.games.dungeon.state`; a solo record is checked by
:mod:`~pathcheck.games.dungeon.solo`. The log's ``format`` picks which; any other format is a
RecordError.

>>> import random
>>> from pathcheck.games.dungeon.gen import random_game
>>> ruling = ADJUDICATOR.adjudicate(random_game(random.Random(3), players=3),
...                                 source="doc", options=AdjudicateOptions())
>>> ruling.outcome.value, max(ruling.final_scores.values())
('legal', 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pathcheck.errors import RecordError, json_value
from pathcheck.games import AdjudicateOptions, GameAdjudicator
from pathcheck.games.common import Pictures
from pathcheck.games.dungeon.at import take_game_pictures
from pathcheck.games.dungeon.fast import fast_ruling
from pathcheck.games.dungeon.log import (
    FORMATS,
    GAME_FORMAT,
    GAME_LOG,
    LOG_FORMATS,
    SCHEMAS,
    SOLO_FORMAT,
    GameEntry,
    GameLog,
    read_game_entry,
    read_game_log,
)
from pathcheck.games.dungeon.rules import (
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    WIN_POINTS,
    rules_text,
)
from pathcheck.games.dungeon.solo import rule_solo
from pathcheck.games.dungeon.solo_fast import rule_solo_decoded
from pathcheck.games.dungeon.state import START_DIR, Replay
from pathcheck.ruling import Ruling

__all__ = ["ADJUDICATOR", "AdjudicateOptions", "DungeonAdjudicator", "rule_game",
           "rule_game_python"]


def rule_game(log: Mapping[str, Any], *, source: str, pictures: Pictures | None = None) -> Ruling:
    """Replay a ``game/1`` log and rule on it; RecordError if it is malformed.

    ``pictures`` collects the map of exploration R after turn T for the moments it wants.
    A clean log is ruled on by the C fast path (:mod:`~pathcheck.games.dungeon.fast`) when
    the extension is built and no picture is asked for; the same ruling as
    :func:`rule_game_python`.
    """
    return _rule_entry(GAME_LOG.read(log, source=source), source, pictures)


def rule_game_python(log: Mapping[str, Any], *, source: str,
                     pictures: Pictures | None = None) -> Ruling:
    """:func:`rule_game` by the Python replay alone (the plain reference of the C path)."""
    return _rule(read_game_log(log, source=source), source, pictures)


def _rule_entry(entry: GameEntry, source: str, pictures: Pictures | None) -> Ruling:
    if pictures is None or pictures.want is None:
        ruling = fast_ruling(entry, source=source)
        if ruling is not None:
            return ruling
    return _rule(read_game_entry(entry, source=source), source, pictures)


def _rule(game: GameLog, source: str, pictures: Pictures | None) -> Ruling:
    replay = Replay(game)
    rounds = replay.run()
    if pictures is not None and pictures.want is not None:
        take_game_pictures(pictures, replay.stacks, game.tileset, sorted(game.rules))
    mode = "advanced" if game.advanced else "basic"
    notes = [f"{mode} rules, additional rules: {rules_text(game.rules)}, tile set "
             f"{game.tileset.name}; START lies at (0, 0) with its arrow {START_DIR.name}"]
    by_text: dict[str, list[int]] = {}
    for index, why in replay.unchecked:
        by_text.setdefault(why, []).append(index + 1)
    for text, which in sorted(by_text.items()):
        many = "s" if len(which) > 1 else ""
        notes.append(f"not checked in exploration{many} {', '.join(map(str, which))}: {text}")
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
        display=pictures.below("") if pictures is not None else "",
    )


class DungeonAdjudicator(GameAdjudicator):
    """The plug-in object registered as entry point ``dungeon``."""

    name = GAME
    title = TITLE
    formats = FORMATS
    schemas = SCHEMAS
    log_formats = LOG_FORMATS

    def rule(self, log: Mapping[str, Any], *, source: str, pictures: Pictures) -> Ruling:
        """Rule on a game log or a solo record; RecordError if it is malformed.

        Moment ``R.T`` is exploration R after its turn T (a solo record: dungeon R after its
        tile T).
        """
        if type(log) is not dict and not isinstance(log, Mapping):  # (a dict skips the ABC)
            raise RecordError(source, None, "", "expected a JSON object (a game log or a solo "
                                                "record)")
        fmt = log.get("format", GAME_FORMAT)
        if fmt == SOLO_FORMAT:
            return rule_solo(log, source=source, pictures=pictures)
        if fmt != GAME_FORMAT:
            raise RecordError(source, None, "/format",
                              f"expected \"{GAME_FORMAT}\" or \"{SOLO_FORMAT}\", "
                              f"got {json_value(fmt)}")
        return rule_game(log, source=source, pictures=pictures)

    typed_readers = ((GAME_FORMAT, GAME_LOG, read_game_entry),)

    def rule_decoded(self, data: bytes, fmt: str, *, source: str, for_json: bool = False
                     ) -> Ruling | None:
        """:meth:`GameAdjudicator.rule_decoded`; a ``solo/1`` record by its fast path
        (:mod:`~pathcheck.games.dungeon.solo_fast`)."""
        if fmt == SOLO_FORMAT:
            return rule_solo_decoded(data, source=source)
        return super().rule_decoded(data, fmt, source=source, for_json=for_json)

    def json_ruling(self, entry: Any, *, source: str) -> Ruling | None:
        """:meth:`GameAdjudicator.json_ruling`: a clean ``game/1`` log's rounds written as
        JSON in C (:func:`~pathcheck.games.dungeon.fast.fast_ruling` with ``for_json``);
        any other log replayed in Python at once (the C replay has declined it already)."""
        ruling = fast_ruling(entry, source=source, for_json=True)
        if ruling is not None:
            return ruling
        return _rule(read_game_entry(entry, source=source), source, None)

    def rule_typed(self, entry: Any, read_entry: Callable[..., Any], *, source: str) -> Ruling:
        """:meth:`GameAdjudicator.rule_typed`, a clean ``game/1`` log by the C fast path."""
        return _rule_entry(entry, source, Pictures(None))

    def rule_read(self, game: GameLog, *, source: str, pictures: Pictures) -> Ruling:
        """Replay a ``game/1`` log :func:`read_game_log` has read and rule on it."""
        return _rule(game, source, pictures)

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal ``game/1`` log: 2-5 players, basic or advanced, any additional rules."""
        from pathcheck.games.dungeon import gen  # only tests and demos draw random games

        advanced = rng.random() < 0.5
        rules = [r for r in (1, 2, 3, 4) if rng.random() < 0.3 and (advanced or r != 4)]
        return gen.random_game(rng, players=rng.randint(MIN_PLAYERS, MAX_PLAYERS),
                               advanced=advanced, rules=rules)


ADJUDICATOR = DungeonAdjudicator()
