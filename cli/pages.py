"""``--html``: replay pages written by several commands (loaded only when --html is used)."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import click

from pathcheck import games
from pathcheck.errors import IOFailure
from pathcheck.games.dungeon.frames import key_page, verdict_page
from pathcheck.inputs.records import Overrides, iter_records
from pathcheck.output import write_atomic
from pathcheck.reading.reader import Document
from pathcheck.render.html import Page, render_page_bytes
from pathcheck.render.pictures import picture_name
from pathcheck.render.ruling_page import DUNGEON_WORDS, GAME_WORDS
from pathcheck.render.site import SiteWriter, is_page_file
from pathcheck.render.words import counted
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
    """One page (FILE.html: the first valid record) or a page per record and an index, each
    written as it is made."""
    single = is_page_file(target)
    site = None if single else SiteWriter(target, "pathcheck verify: " + ", ".join(files),
                                          ["record", "kind", "Lost / failure", "points"])
    count = 0
    try:
        for name in files:
            for item in iter_records(name, overrides):
                if isinstance(item, Exception):  # invalid records are reported by verify
                    continue
                verdict = verify_record(item, with_passes=True)
                count += 1
                if site is not None:
                    site.add(picture_name(verdict, ".html"), verdict_page(verdict),
                             _index_cells(verdict))
                elif count == 1:
                    write_atomic(target, render_page_bytes(verdict_page(verdict)))
        if not count:
            click.echo("pathcheck: note: no valid record to draw: no page written", err=True)
            return
        if site is None:
            if count > 1:
                click.echo(f"pathcheck: note: {counted(count - 1, 'more record')} not drawn: "
                           "give a folder to --html for a page per record and an index",
                           err=True)
            return
        written = site.finish()
    finally:
        if site is not None:
            site.discard()
    click.echo(f"pathcheck: wrote {counted(len(written) - 1, 'page')} and index.html to {target}",
               err=True)


def _where(doc: Document) -> str:
    return f"{doc.source}:{doc.line}" + (f" {doc.pointer}" if doc.pointer else "")


def _ruling_cells(doc: Document, ruling: Ruling) -> list[str]:
    words = DUNGEON_WORDS if ruling.format == "game/1" else GAME_WORDS
    if ruling.violations:
        return [_where(doc), f"{ruling.game}: illegal", "as played: " + (
            " and ".join(ruling.winners) or "none"), words.describe(ruling.violations[0])]
    return [_where(doc), f"{ruling.game}: legal", " and ".join(ruling.winners) or "none", ""]


COLLECT_EVERY = 64
"""Pages between two collections of the young objects while the collector is off."""


class AdjudicatePages:
    """``adjudicate --html``: the replay page of the first log (FILE.html), or a page per log
    and an index (DIR), each page written as its log is ruled (one log is held back, to know
    whether its file holds more: then its title and name say its line)."""

    def __init__(self, target: str, adjudicator: games.Adjudicator | None) -> None:
        self.target, self.adjudicator = target, adjudicator
        self.single = is_page_file(target)
        self.site = None if self.single else SiteWriter(
            target, "pathcheck adjudicate", ["log", "verdict", "winner", "first violation"])
        self.held: tuple[Document, Ruling] | None = None
        self.places: list[tuple[str, int, str, bool]] = []
        """Per page written: its log's source, line and pointer, and whether its file holds
        several logs."""
        self.logs = self.illegal = 0
        self.failed: IOFailure | None = None

    def _page(self, doc: Document, ruling: Ruling, several: bool) -> Page:
        from pathcheck.games.pages import page_for

        plugin = self.adjudicator or games.for_format(str(doc.value.get("format")))
        built = page_for(plugin, doc.value, ruling, lean=True)
        if several:  # one of several logs of a file: say which
            built = replace(built, title=built.title.replace(ruling.source, _where(doc), 1))
        return built

    def _write(self, doc: Document, ruling: Ruling, several: bool) -> None:
        if self.single:
            write_atomic(self.target, render_page_bytes(self._page(doc, ruling, several)))
            return
        assert self.site is not None
        self.places.append((doc.source, doc.line, doc.pointer, several))
        self.site.add("", self._page(doc, ruling, several), _ruling_cells(doc, ruling))

    def add(self, doc: Document, ruling: Ruling) -> None:
        """Take the next ruled log; a page that cannot be written stops the pages (the
        rulings go on) and is reported by :meth:`finish`."""
        self.logs += 1
        self.illegal += bool(ruling.violations)
        if self.failed is not None:
            return
        try:
            if self.single:
                if self.logs == 1:
                    self._write(doc, ruling, False)
                return
            if self.held is not None:
                same = self.held[0].source == doc.source
                self._write(*self.held, same or self._several(self.held[0].source))
            self.held = (doc, ruling)
        except IOFailure as failure:
            self.failed = failure
        finally:
            # rule_logs switches the garbage collector off while it rules (rulings are
            # acyclic), and a page's making leaves no cycle either (tests/test_html_pages.py);
            # a plug-in's page might: the young objects are collected now and then, so memory
            # stays flat without the collector's runs over every object a page makes.
            if not gc.isenabled() and self.logs % COLLECT_EVERY == 0:
                gc.collect(0)

    def _several(self, source: str) -> bool:
        return any(place[0] == source for place in self.places)

    def finish(self) -> None:
        try:
            if self.failed is not None:
                raise self.failed
            if not self.logs:
                click.echo("pathcheck: note: no log could be ruled on: no page written",
                           err=True)
                return
            if self.single:
                if self.logs > 1:
                    click.echo(f"pathcheck: note: {counted(self.logs - 1, 'more log')} not "
                               "drawn: give a folder to --html for a page per log and an index",
                               err=True)
                return
            assert self.site is not None
            if self.held is not None:
                self._write(*self.held, self._several(self.held[0].source))
                self.held = None
            written = self.site.finish(
                [f"{self.logs} logs, {self.logs - self.illegal} legal, {self.illegal} illegal"],
                names=_log_names(self.places))
        finally:
            if self.site is not None:
                self.site.discard()
        click.echo(f"pathcheck: wrote {counted(len(written) - 1, 'page')} and index.html to "
                   f"{self.target}", err=True)


def _log_names(places: Sequence[tuple[str, int, str, bool]]) -> list[str]:
    """``<stem>.html`` for a file holding one log, ``<stem>-<line>.html`` for JSON Lines."""
    names = []
    for source, line, pointer, several in places:
        stem = Path(source).stem if not source.startswith("<") else "stdin"
        if several:
            stem += f"-{line}" + (pointer.replace("/", "-") if pointer else "")
        names.append(stem + ".html")
    return names


def write_key_page(answer: AnswerKey, target: str) -> None:
    """The replay page of an answer key (``solo key CODE --reveal --html FILE``)."""
    page = key_page(str(answer.seed), answer.seed.rules,
                    [d.placements for d in answer.dungeons], answer.max_score)
    write_atomic(target, render_page_bytes(page))
