"""Verdicts as text for people: the map, the Lost point and the rule that decided, the check."""

from __future__ import annotations

from pathcheck.inputs.records import DungeonRecord, SoloRecord
from pathcheck.render.model import build_view
from pathcheck.render.text import render_map
from pathcheck.render.words import counted
from pathcheck.safe import keep_lines, one_line
from pathcheck.tracer.dungeon import TraceResult
from pathcheck.verify import DungeonVerdict, SoloVerdict, Verdict


def _where(record: DungeonRecord | SoloRecord) -> str:
    where = f"{record.source}:{record.line}"
    return where + (f" {record.pointer}" if record.pointer else "")


def lost_sentence(result: TraceResult, offset: int = 0) -> str:
    """``Lost at tile 8 (R6@E) by dead-end: Lost (A) "..."`` or that the path holds."""
    if result.lost_at is None or result.reason is None:
        held = counted(len(result.layout), "tile")
        return f"The path holds to the last tile ({held}): never Lost."
    placed = result.layout[result.lost_at - 1]
    rule = result.reason.rule
    index = result.lost_at + offset
    return (f"Lost at tile {index} ({placed.tile}@{placed.dir.name}, cell {placed.x},{placed.y}) "
            f"by {result.reason.value}.\n  Rule {rule.section}: \"{rule.quote}\"")


def verdict_text(verdict: Verdict, *, show_map: bool = True) -> str:
    """A verdict for people. Text from the record (names, file names, tile ids of a custom
    set) has its control and bidi characters escaped (:mod:`pathcheck.safe`)."""
    if isinstance(verdict, SoloVerdict):
        return solo_text(verdict, show_map=show_map)
    return dungeon_text(verdict, show_map=show_map)


def _rules_label(rules: frozenset[int], advanced: bool | None) -> str:
    parts = [] if advanced is None else ["advanced" if advanced else "basic"]
    if rules:
        parts.append("rules " + ",".join(f"#{r}" for r in sorted(rules)))
    else:
        parts.append("no additional rules")
    return ", ".join(parts)


def dungeon_text(verdict: DungeonVerdict, *, show_map: bool = True) -> str:
    record = verdict.record
    lines = [one_line(f"== {_where(record)}: {counted(len(record.tiles), 'tile')}, "
                      f"{_rules_label(record.rules, record.advanced)}")]
    lines.append(one_line("   " + " ".join(str(p) for p in record.tiles)))
    if show_map:
        lines.append(keep_lines(render_map(build_view(verdict.trace, record.tileset,
                                                      record.rules))))
    lines.append(keep_lines(lost_sentence(verdict.trace)))
    check = verdict.check
    if check is not None:
        lines.append("Check (3. Checking the Memorized Path):")
        for outcome in check.outcomes:
            rule = outcome.kind.rule
            tag = f" [rule {rule.section.rsplit(', ', 1)[-1]}]" if rule else ""
            lines.append(one_line(f"  {outcome.explain(verdict.trace.lost_at)}{tag}"))
        lines.append(one_line("Points: " + ", ".join(f"{p} {n}"
                                                     for p, n in check.points.items())))
    return "\n".join(lines)


def solo_text(verdict: SoloVerdict, *, show_map: bool = True) -> str:
    record, result = verdict.record, verdict.result
    lines = [one_line(f"== {_where(record)}: solo, {counted(len(record.dungeons), 'dungeon')}, "
                      f"{counted(result.tiles_played, 'tile')}, "
                      f"{_rules_label(record.rules, None)}")]
    offset = 0
    for number, (dungeon, traced) in enumerate(zip(record.dungeons, result.traces, strict=False),
                                               start=1):
        lines.append(one_line(f"Dungeon {number} (tiles {offset + 1}-{offset + len(dungeon)}): "
                              + " ".join(str(p) for p in dungeon)))
        if show_map:
            lines.append(keep_lines(render_map(build_view(traced, record.tileset,
                                                          record.rules))))
        lines.append(keep_lines(lost_sentence(traced, offset)))
        offset += len(dungeon)
    if result.failure is None:
        lines.append(f"No failure: score {result.score} of {result.max_score} "
                     f"({counted(result.tiles_played, 'tile')} + 4 per additional rule).")
    else:
        rule = result.failure.rule
        lines.append(f"Failure: {result.failure.value} at tile {result.failing_tile} "
                     f"(dungeon {result.failing_dungeon}, tile {result.failing_index} of it).")
        lines.append(f"  Rule {rule.section}: \"{rule.quote}\"")
        lines.append(f"Score: {result.score} (tiles placed before the failing tile; "
                     f"max {result.max_score}).")
    return "\n".join(lines)
