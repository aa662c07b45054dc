"""Where a recorded game stands, as the recorder shows it: the round and move counts, the
picture everyone at the table may see, and the referee's picture (face-down cards shown)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pathcheck.ruling import Ruling

if TYPE_CHECKING:
    from pathcheck.recorder.up_next import Next

REFEREE_HEADER = ("REFEREE'S VIEW (face-down cards and covered symbols shown: not for "
                  "players)")


def counts(log: Mapping[str, Any]) -> tuple[int, int]:
    """The current round (exploration, dungeon) of ``log`` and the moves recorded in it.

    >>> counts({"format": "memo-dice/1", "rounds": [{"covering": [1, 2], "uncovering": [3]}]})
    (1, 3)
    >>> counts({"format": "game/1", "explorations": []})
    (0, 0)
    """
    fmt = log.get("format")
    if fmt == "solo/1":
        dungeons = log.get("dungeons", [])
        return len(dungeons), len(dungeons[-1]) if dungeons else 0
    if fmt == "game/1":
        rounds = log.get("explorations", [])
        return len(rounds), len(rounds[-1]["turns"]) if rounds else 0
    rounds = log.get("rounds", [])
    if not rounds:
        return 0, 0
    last = rounds[-1]
    if fmt == "memoarrr/1":
        return len(rounds), len(last["actions"])
    if fmt == "memo-dice/1":
        return len(rounds), len(last["covering"]) + len(last["uncovering"])
    return len(rounds), len(last["turns"])


def public_picture(where: str, up: Next) -> str:
    """What everyone at the table can see: where the next move goes and who makes it
    (``up``: :func:`~pathcheck.recorder.up_next.next_move`), and the view of the table."""
    lines = [f"{where}: {up.prompt().rstrip(' >')}"]
    if up.view:
        lines.append(up.view)
    lines.append("(:show all is the referee's view, with what is face down)")
    return "\n".join(lines)


def referee_picture(ruling: Ruling, up: Next) -> str:
    """The adjudicator's picture of the game so far (``ruling`` at the last move)."""
    display = ruling.display
    extra: list[str] = []
    if "Final table:" in display and not up.over:
        # Memoarrr!: no final table while the game goes on; the treasures taken so far,
        # counted as :show counts them
        display = "\n\n".join(block for block in display.split("\n\n")
                              if not block.startswith("Final table:"))
        extra = up.view.splitlines()[-1:]
    if not display:
        rnd = ruling.rounds[-1] if ruling.rounds else None
        display = (rnd.display or rnd.title) if rnd is not None else "nothing to show"
    return "\n".join([display, *extra])
