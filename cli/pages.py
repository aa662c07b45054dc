"""``--html``: replay pages written by several commands (loaded only when --html is used)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import click

from pathcheck import games
from pathcheck.games.dungeon.frames import key_page, verdict_page
from pathcheck.output import write_atomic
from pathcheck.reader import Document
from pathcheck.records import Overrides, iter_records
from pathcheck.render.html import Page, render_page
from pathcheck.render.pictures import picture_name
from pathcheck.render.site import Site, is_page_file, unique_names, write_site
from pathcheck.ruling import Ruling
from pathcheck.solo.challenge import AnswerKey
from pathcheck.verify import DungeonVerdict, Verdict, verify_record


def _index_cells(verdict: Verdict) -> list[str]:
    record = verdict.record
    where = f"{record.source}:{record.line}" + (f" {record.pointer}" if record.pointer else "")
    if isinstance(verdict, DungeonVerdict):
        traced = verdict.trace
        lost = "never Lost" if traced.lost_at is None or traced.reason is None else \
            f"tile {traced.lost_at}, {traced.reason.value}"
        points = "" if verdict.check is None else ", ".join(
            f"{p} {n}" for p, n in verdict.check.points.items())
        return [where, f"dungeon, {len(verdict.record.tiles)} tiles", lost, points]
    result = verdict.result
    failure = "none" if result.failure is None else \
        f"{result.failure.value} at stack tile {result.failing_tile}"
    return [where, f"solo, {len(verdict.record.dungeons)} dungeons", failure,
            f"score {result.score} of {result.max_score}"]


def write_verify_pages(files: Sequence[str], overrides: Overrides, target: str) -> None:
    """One page (FILE.html: the first valid record) or a page per record and an index."""
    verdicts: list[Verdict] = []
    for name in files:
        for item in iter_records(name, overrides):
            if not isinstance(item, Exception):  # invalid records are reported by verify
                verdicts.append(verify_record(item, with_passes=True))
    if not verdicts:
        click.echo("pathcheck: note: no valid record to draw: no page written", err=True)
        return
    if is_page_file(target):
        write_atomic(target, render_page(verdict_page(verdicts[0])))
        if len(verdicts) > 1:
            click.echo(f"pathcheck: note: {len(verdicts) - 1} more record(s) not drawn: give a "
                       "folder to --html for a page per record and an index", err=True)
        return
    names = unique_names([picture_name(v, ".html") for v in verdicts])
    site = Site("pathcheck verify: " + ", ".join(files),
                ["record", "kind", "Lost / failure", "points"],
                [(n, verdict_page(v), _index_cells(v)) for n, v in zip(names, verdicts,
                                                                      strict=True)])
    written = write_site(target, site)
    click.echo(f"pathcheck: wrote {len(written) - 1} page(s) and index.html to {target}",
               err=True)


def _log_names(drawn: Sequence[tuple[Document, Ruling]]) -> list[str]:
    """``<stem>.html`` for a file holding one log, ``<stem>-<line>.html`` for JSON Lines."""
    per_source: dict[str, int] = {}
    for doc, _ in drawn:
        per_source[doc.source] = per_source.get(doc.source, 0) + 1
    names = []
    for doc, _ in drawn:
        stem = Path(doc.source).stem if not doc.source.startswith("<") else "stdin"
        if per_source[doc.source] > 1:
            stem += f"-{doc.line}" + (doc.pointer.replace("/", "-") if doc.pointer else "")
        names.append(stem + ".html")
    return unique_names(names)


def _ruling_cells(doc: Document, ruling: Ruling) -> list[str]:
    first = ruling.violations[0].describe() if ruling.violations else ""
    where = f"{doc.source}:{doc.line}" + (f" {doc.pointer}" if doc.pointer else "")
    return [where, f"{ruling.game}: " + ("illegal" if ruling.violations else "legal"),
            " and ".join(ruling.winners) or "none", first]


def write_adjudicate_pages(drawn: Sequence[tuple[Document, Ruling]],
                           adjudicator: games.Adjudicator | None, target: str) -> None:
    """The replay page of the first log (FILE.html) or of every log and an index (DIR)."""
    from pathcheck.games.pages import page_for

    counts: dict[str, int] = {}
    for doc, _ in drawn:
        counts[doc.source] = counts.get(doc.source, 0) + 1

    def page(doc: Document, ruling: Ruling) -> Page:
        plugin = adjudicator or games.for_format(str(doc.value.get("format")))
        built = page_for(plugin, doc.value, ruling)
        if counts[doc.source] > 1:  # one of several logs of a file: say which
            where = f"{doc.source}:{doc.line}" + (f" {doc.pointer}" if doc.pointer else "")
            built = replace(built, title=built.title.replace(ruling.source, where, 1))
        return built

    if not drawn:
        click.echo("pathcheck: note: no log could be ruled on: no page written", err=True)
        return
    if is_page_file(target):
        write_atomic(target, render_page(page(*drawn[0])))
        if len(drawn) > 1:
            click.echo(f"pathcheck: note: {len(drawn) - 1} more log(s) not drawn: give a "
                       "folder to --html for a page per log and an index", err=True)
        return
    names = _log_names(drawn)
    illegal = sum(1 for _, r in drawn if r.violations)
    site = Site("pathcheck adjudicate", ["log", "verdict", "winner", "first violation"],
                [(n, page(d, r), _ruling_cells(d, r)) for n, (d, r) in zip(names, drawn,
                                                                           strict=True)],
                [f"{len(drawn)} logs, {len(drawn) - illegal} legal, {illegal} illegal"])
    written = write_site(target, site)
    click.echo(f"pathcheck: wrote {len(written) - 1} page(s) and index.html to {target}",
               err=True)


def write_key_page(answer: AnswerKey, target: str) -> None:
    """The replay page of an answer key (``solo key CODE --reveal --html FILE``)."""
    page = key_page(str(answer.seed), answer.seed.rules,
                    [d.placements for d in answer.dungeons], answer.max_score)
    write_atomic(target, render_page(page))
