"""What every game package shares: moments (``--at``), their pictures, and the player check.

A game's replay (its ``state.py``) reports each moment it passes to a :class:`Pictures`
collector with a function that draws the state then; the collector keeps the pictures that
were asked for, so the ``--at`` view of every game reads, and fails, the same way.

>>> moment = Moment.parse("2.5")
>>> moment, str(moment)
(Moment(round=2, turn=5), '2.5')
>>> pictures = Pictures(Moment(1, 1))
>>> for turn in range(3):
...     pictures.take(Moment(1, turn), lambda: f"picture {turn}")
>>> pictures.picture()
'picture 1'
>>> Pictures(Moment(4, 0)).picture()
Traceback (most recent call last):
  ...
pathcheck.errors.InputError: --at 4.0: out of range; the log has no moment to show
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pathcheck.errors import InputError, RecordError
from pathcheck.reading.bounded import cut
from pathcheck.reading.text import ascii_number

_MOMENT = re.compile(r"([0-9]+)\.([0-9]+)")


@dataclass(frozen=True, order=True)
class Moment:
    """A point of a replayed log: ``round`` (from 1) after its ``turn`` (0: its start).

    What a round and a turn are is the game's own (a dungeon exploration and its turns, a
    Memo Dice round and its moves...); each game page of docs/games/ says.
    """

    round: int
    turn: int

    def __str__(self) -> str:
        return f"{self.round}.{self.turn}"

    @classmethod
    def parse(cls, text: str) -> Moment:
        """``"ROUND.TURN"`` as a Moment; InputError for anything else.

        >>> Moment.parse(" 3.0 ")
        Moment(round=3, turn=0)
        >>> Moment.parse("0.1")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        pathcheck.errors.InputError: --at '0.1': expected ROUND.TURN, e.g. 2.5 (round from 1, ...
        """
        match = _MOMENT.fullmatch(text.strip())
        number = ascii_number(match.group(1)) if match else None
        turn = ascii_number(match.group(2)) if match else None
        if number is None or turn is None or number < 1:
            raise InputError(f"--at {cut(text)}: expected ROUND.TURN, e.g. 2.5 (round from 1, "
                             "turn from 0)")
        return cls(number, turn)


EVERY_MOMENT = "every"
"""Ask a :class:`Pictures` for every moment (a replay page shows them all)."""


class Pictures:
    """Collects the pictures of the state at the moments asked for while a replay runs.

    ``want`` is one Moment (``--at``), :data:`EVERY_MOMENT`, or None (no picture: the
    replay then draws nothing).
    """

    def __init__(self, want: Moment | str | None) -> None:
        self.want = want
        self.pictures: dict[Moment, str] = {}
        self.svgs: dict[Moment, str] = {}
        """SVG pictures of every moment, for a replay page (only with EVERY_MOMENT)."""
        self.says: dict[Moment, str] = {}
        """Who did what in the move that led to each moment, where the game says it (a
        replay page's move list; only with EVERY_MOMENT)."""
        self._spans: dict[int, tuple[int, int]] = {}

    def take(self, moment: Moment, draw: Callable[[], str],
             svg: Callable[[], str] | None = None, says: Callable[[], str] | None = None
             ) -> None:
        """Note that the replay reached ``moment``; draw it if it is wanted (and, for a replay
        page, draw it as SVG with ``svg`` and say the move that led to it with ``says``)."""
        if self.want is None:  # no picture asked for: nothing to draw or to word
            return
        first, last = self._spans.get(moment.round, (moment.turn, moment.turn))
        self._spans[moment.round] = (min(first, moment.turn), max(last, moment.turn))
        if self.want == EVERY_MOMENT or self.want == moment:
            self.pictures[moment] = draw()
        if self.want == EVERY_MOMENT and svg is not None:
            self.svgs[moment] = svg()
        if self.want == EVERY_MOMENT and says is not None:
            self.says[moment] = says()

    def __iter__(self) -> Iterator[tuple[Moment, str]]:
        return iter(sorted(self.pictures.items()))

    def picture(self) -> str:
        """The picture of the wanted moment; InputError naming what the log can show if the
        replay never reached it."""
        if isinstance(self.want, Moment) and self.want in self.pictures:
            return self.pictures[self.want]
        if not self._spans:
            shows = "the log has no moment to show"
        else:
            shows = "this log can show " + ", ".join(
                f"{r}.{first}-{r}.{last}" for r, (first, last) in sorted(self._spans.items()))
        raise InputError(f"--at {self.want}: out of range; {shows}")

    def below(self, display: str) -> str:
        """``display`` with the wanted picture under it (just ``display`` if none is wanted)."""
        if not isinstance(self.want, Moment):
            return display
        return "\n\n".join(part for part in (display, self.picture()) if part)


def wanted(at: str | None) -> Pictures:
    """The collector for an ``--at`` option (None: no picture)."""
    return Pictures(None if at is None else Moment.parse(at))


def check_player(name: str, players: Sequence[str], *, source: str, pointer: str,
                 known: Iterable[str] | None = None) -> str:
    """``name`` if it is one of ``players``; else a RecordError at ``pointer`` listing them.

    ``known`` lists the names to show when they differ from ``players`` (e.g. every team
    member).

    >>> check_player("Bob", ("Ann", "Bob"), source="log", pointer="/turns/0/player")
    'Bob'
    >>> check_player("Zed", ("Ann", "Bob"), source="log", pointer="/turns/0/player")
    Traceback (most recent call last):
      ...
    pathcheck.errors.RecordError: log: /turns/0/player: unknown player 'Zed' (players: Ann, Bob)
    """
    if name not in players:
        names = ", ".join(players if known is None else known)
        raise RecordError(source, None, pointer, f"unknown player {name!r} (players: {names})")
    return name


def log_folder(source: str) -> Path | None:
    """The folder of the log file ``source`` names (``file.json`` or ``file.jsonl#/3``), where
    files a log names (a tile set) are looked for first; None when it is not a file.

    >>> log_folder("<stdin>") is None
    True
    """
    path = Path(source.split("#", 1)[0])
    return path.parent if path.is_file() else None
