"""Memo Dice: the row of cups of one round, as the replay builds it and the pictures draw it.

>>> CupInRow(1, "golden", "turtle", "red", "Ann").holder is None
True
"""

from __future__ import annotations

import msgspec

from pathcheck.games.memo_dice.log import ColourName, CupName


class CupInRow(msgspec.Struct, gc=False):
    """A cup of this round's row (replay state): what it covers and who ends up with it.

    ``cup`` and ``colour`` are the names (:class:`~pathcheck.games.memo_dice.rules.Cup` and
    :class:`~pathcheck.games.memo_dice.rules.Colour` values) as the log writes them. It holds
    only text and numbers, so the garbage collector need not track it (``gc=False``)."""

    number: int
    cup: CupName
    symbol: str
    colour: ColourName
    coverer: str
    holder: str | None = None
    how: str = ""
