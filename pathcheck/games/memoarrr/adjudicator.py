"""The Memoarrr! plug-in object :data:`ADJUDICATOR` (entry point ``memoarrr``).

Static facts and quoted rules live in :mod:`~pathcheck.games.memoarrr.rules`, log reading in
:mod:`~pathcheck.games.memoarrr.log`, the replay in :mod:`~pathcheck.games.memoarrr.state`,
the pictures in :mod:`~pathcheck.games.memoarrr.at`, random legal games in
:mod:`~pathcheck.games.memoarrr.gen`.

>>> import random
>>> from pathcheck.games import AdjudicateOptions
>>> from pathcheck.games.memoarrr.gen import random_game
>>> log = random_game(random.Random(5), players=3)
>>> ruling = ADJUDICATOR.adjudicate(log, source="demo", options=AdjudicateOptions())
>>> ruling.outcome.value, len(ruling.rounds), sum(ruling.final_scores.values())
('legal', 7, 15)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec

from pathcheck.errors import RecordError
from pathcheck.games import GameAdjudicator
from pathcheck.games.common import Pictures
from pathcheck.games.memoarrr.at import final_table
from pathcheck.games.memoarrr.fast import fast_ruling
from pathcheck.games.memoarrr.log import (
    FORMAT,
    FORMATS,
    LOG_FORMATS,
    SCHEMAS,
    read_log,
)
from pathcheck.games.memoarrr.plain import read_plain
from pathcheck.games.memoarrr.rules import EDITIONS, GAME, ROUNDS, TITLE, decide_winners
from pathcheck.games.memoarrr.state import Replay
from pathcheck.games.memoarrr.texts import TREASURES_UNKNOWN, edition_note, unseen_note
from pathcheck.ruling import Ruling

_decode = msgspec.json.Decoder().decode
"""The reader's decoding (pathcheck.reading.reader.decode_value's, a plain Decoder)."""


class MemoarrrAdjudicator(GameAdjudicator):
    """Rules on ``memoarrr/1`` logs (both editions, expert and ordered-stack variants)."""

    name = GAME
    title = TITLE
    formats = FORMATS
    schemas = SCHEMAS
    log_formats = LOG_FORMATS

    def rule(self, log: Mapping[str, Any], *, source: str, pictures: Pictures) -> Ruling:
        """Replay ``log`` and rule on it; RecordError if it is malformed.

        A clean log is ruled on by the C fast path when the extension is built and no
        picture is asked for; the Python path (:meth:`rule_python`) rules on the others.
        """
        if pictures.want is None:
            ruling = fast_ruling(log, source=source)
            if ruling is not None:
                return ruling
        return self.rule_python(log, source=source, pictures=pictures)

    def rule_decoded(self, data: bytes, fmt: str, *, source: str, for_json: bool = False
                     ) -> Ruling | None:
        """:meth:`GameAdjudicator.rule_decoded` for ``memoarrr/1``: the JSON text (passed by
        the reader's guard: no key twice, not too deep) decoded as the reader decodes it, and
        ruled on by the C fast path, else by :meth:`rule_python` on the same value; None for
        another format, a text that is no JSON object, or a log the Python path refuses (the
        usual way then words the error where it lies). ``for_json``: the ruling is only to
        be encoded, so its rounds may come as JSON (:func:`~.fast.fast_ruling`)."""
        if fmt != FORMAT:
            return None
        log = _decode(data)
        if type(log) is not dict:
            return None
        ruling = fast_ruling(log, source=source, for_json=for_json)
        if ruling is None:
            try:
                ruling = self.rule_python(log, source=source)
            except RecordError:
                return None
        return ruling

    def rule_python(self, log: Mapping[str, Any], *, source: str,
                    pictures: Pictures | None = None) -> Ruling:
        """The reference path: read ``log`` (the plain reader, else ``read_log``, which words
        the errors), replay it in Python and rule on it."""
        if pictures is None:
            pictures = Pictures(None)
        setup = read_plain(log) or read_log(log, source=source)  # read_log words errors
        replay = Replay(setup, pictures)
        replay.run()
        state = replay.state
        complete = state.round == ROUNDS and state.round_over
        known = setup.treasures is not None
        winners, tie_break = decide_winners(state.treasures) if complete and known \
            else ([], "")
        edition = edition_note(setup.edition, expert=setup.expert,
                               ordered_stack=setup.ordered_stack)
        notes = [edition, *replay.notes]
        if not known:
            notes.append(TREASURES_UNKNOWN)
        unseen = 24 - len(setup.island)
        if unseen:
            notes.append(unseen_note(unseen))
        return Ruling(
            game=self.name,
            format=FORMAT,
            source=source,
            players=setup.players,
            rounds=replay.rounds,
            final_scores={p: state.rubies(p) for p in setup.players},
            winners=winners,
            violations=replay.violations,
            tie_break=tie_break,
            notes=notes,
            display=pictures.below(final_table(setup, state)),
        )

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal game: 2-4 players, either edition, with or without the variants."""
        from pathcheck.games.memoarrr import gen  # only tests and demos draw random games

        return gen.random_game(rng, players=rng.randint(2, 4), edition=rng.choice(EDITIONS),
                               expert=rng.random() < 0.5, ordered_stack=rng.random() < 0.3)


ADJUDICATOR = MemoarrrAdjudicator()
