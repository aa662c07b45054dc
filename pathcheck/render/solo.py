"""Text of the solo challenges: a deal to stack, an answer key, a checked record."""

from __future__ import annotations

from pathcheck.render.words import counted
from pathcheck.solo.challenge import AnswerKey, Challenge, SeedCheck, rules_text


def _rows(items: list[str], per_row: int, width: int) -> list[str]:
    cells = [f"{i:>3} {item:<{width}}" for i, item in enumerate(items, start=1)]
    return ["  " + "".join(cells[k:k + per_row]).rstrip() for k in range(0, len(cells), per_row)]


def render_deal(deal: Challenge) -> str:
    code = deal.code
    lines = [f"Seed code {code}  (rules {rules_text(code.rules)}, maximum score "
             f"{deal.max_score}, difficulty {deal.stats.grade})",
             "Stack face down, START on top, then top to bottom:"]
    return "\n".join(lines + _rows(code.deck, 8, 6))


def render_key(key: AnswerKey) -> str:
    seed, dungeons = key.seed, key.dungeons
    lines = [f"Answer key of {seed} (rules {rules_text(seed.rules)}): {len(dungeons)} "
             f"dungeons, maximum score {key.max_score}"]
    first = 1
    for number, dungeon in enumerate(dungeons, start=1):
        count = len(dungeon.placements)
        lines += ["", f"Dungeon {number}: stack tiles {first}-{first + count - 1} "
                      f"({counted(count, 'tile')})"]
        lines += _rows([str(p) for p in dungeon.placements], 8, 7)
        result = dungeon.trace
        if result.lost_at is None or result.reason is None:
            lines.append("  holds to the last tile of the deck")
        else:
            tile = dungeon.placements[result.lost_at - 1].tile
            rule = result.reason.rule
            lines.append(f"  Lost at its tile {result.lost_at} ({tile}, stack tile "
                         f"{first + result.lost_at - 1}): {result.reason.value} - "
                         f"{rule.section}: {rule.quote}")
            if number < len(dungeons):
                lines.append(f"  -> the next tile starts dungeon {number + 1}")
        first += count
    return "\n".join(lines)


def render_check(check: SeedCheck) -> str:
    """A matching record's score and first divergence (a mismatch is an error line)."""
    result = check.result
    assert result is not None, "a mismatch is reported as an error, not rendered"
    score = f"score {result.score} of {result.max_score}"
    if result.failure is None:
        head = f"{check.where}: {check.seed}: {score}, no failure"
    else:
        head = (f"{check.where}: {check.seed}: {score}, failed: {result.failure.value} "
                f"at stack tile {result.failing_tile} (dungeon {result.failing_dungeon}, "
                f"tile {result.failing_index})")
    from pathcheck.safe import one_line

    head = one_line(head)  # the file name may hold control characters
    divergence = check.divergence
    if divergence is None:
        return head + "\nThe record follows the answer key."
    return (f"{head}\nFirst divergence from the answer key ({divergence.kind}): "
            + one_line(divergence.describe()))
