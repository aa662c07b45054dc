"""A headless Chromium for the replay-page tests, one per test session.

The browser is the system's Chromium (Debian's ``chromium`` package, ``/usr/bin/chromium``, or
the one named by ``PATHCHECK_CHROMIUM``), driven by Playwright; no browser build is ever
downloaded. Where there is none, the tests are skipped with the reason (and the terminal
summary says so); under CI (``CI=true``) they fail instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    named = os.environ.get("PATHCHECK_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")  # words read by tests/conftest.py


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install -e '.[test]')")
    executable = chromium_path()
    if executable is None:
        _unavailable("no Chromium found (apt-get install chromium, or set PATHCHECK_CHROMIUM)")
    with sync_playwright() as driver:
        instance = driver.chromium.launch(executable_path=executable, args=ARGS)
        try:
            yield instance
        finally:
            instance.close()


class Opened:
    """A page opened from disk, with every console error and page error it reported."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", self._request)

    def _request(self, request: Any) -> None:
        if not request.url.startswith(("file:", "data:", "about:")):
            self.errors.append(f"network request: {request.url}")

    def open(self, path: Path, fragment: str = "") -> Any:
        self.page.goto(path.resolve().as_uri() + (f"#{fragment}" if fragment else ""))
        return self.page

    def caption(self) -> str:
        return str(self.page.text_content("#pc-caption"))

    def moment(self) -> str:
        return str(self.page.get_attribute("body", "data-moment"))

    def current_event(self) -> str:
        return str(self.page.locator("#pc-events li.current").text_content())


@pytest.fixture()
def opened(browser: Any) -> Iterator[Opened]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        yield Opened(page)
    finally:
        context.close()


VIEWPORTS = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
"""The two sizes every page is tried at: a laptop and a phone."""


@pytest.fixture(scope="session")
def viewports(browser: Any) -> Iterator[dict[str, Opened]]:
    """One page per size for the whole session, reused from test to test (each test opens
    the file it needs in it); its error list is emptied by whoever reads it."""
    contexts = [browser.new_context(viewport=size) for size in VIEWPORTS.values()]
    try:
        yield {name: Opened(context.new_page())
               for name, context in zip(VIEWPORTS, contexts, strict=True)}
    finally:
        for context in contexts:
            context.close()


LAYOUT = """() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const wide = [];
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('svg')) continue;  // a picture scrolls inside its frame: the figure
    const up = e.parentElement;  // so does the strip of marks on a phone
    if (up && up.scrollWidth > up.clientWidth
        && /auto|scroll/.test(getComputedStyle(up).overflowX)) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > vw + 1 || r.left < -1)) {
      wide.push(e.tagName + '#' + e.id + '.' + (e.getAttribute('class') || ''));
    }
  }
  const figures = [...document.querySelectorAll('#pc-picture figure')];
  const frames = figures.length ? figures : [document.getElementById('pc-picture')];
  const boxes = frames.filter(f => f).map(f => {
    const r = f.getBoundingClientRect(); return [r.left, r.right]; });
  // The marks of the moment lie inside the frame shown: the current card or the newest tile,
  // and the Lost mark too where both fit the frame's width.
  const outside = [];
  for (const f of frames.filter(f => f)) {
    const fr = f.getBoundingClientRect(), tiles = f.querySelectorAll('.tile');
    const now = f.querySelector('.current') || tiles[tiles.length - 1];
    const lost = f.querySelector('.lost'), marks = now ? [now] : [];
    if (lost && now) {
      const a = now.getBoundingClientRect(), b = lost.getBoundingClientRect();
      if (Math.max(a.right, b.right) - Math.min(a.left, b.left) <= fr.width) marks.push(lost);
    }
    for (const m of marks) {
      const r = m.getBoundingClientRect();
      if (r.left < fr.left - 1 || r.right > fr.right + 1) {
        outside.push((m.getAttribute('class') || '') + ' ' + Math.round(r.left) + '-'
                     + Math.round(r.right) + ' in ' + Math.round(fr.left) + '-'
                     + Math.round(fr.right));
      }
    }
  }
  let smallest = 1e9;
  for (const t of document.querySelectorAll('#pc-picture svg text')) {
    if (!t.textContent.trim()) continue;
    const ctm = t.getScreenCTM(); if (!ctm) continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(ctm.a, ctm.b);
    smallest = Math.min(smallest, size);
  }
  return {vw, vh, scroll: document.documentElement.scrollWidth, wide, boxes, smallest, outside,
          header: document.querySelector('header').getBoundingClientRect().height};
}"""
"""The layout of the page shown: elements wider than the viewport, the boxes of the pictures'
frames, the marks of the moment outside their frame, the smallest text of the picture in CSS
px, the header's height."""

EVERY_EVENT = """() => {
  const out = [], data = JSON.parse(document.getElementById('pc-data').textContent);
  const items = [...document.querySelectorAll('#pc-events > li')];
  const frameOf = {};
  data.frames.forEach((f, i) => { frameOf[f.k] = i; });
  items.forEach((li, n) => {
    const link = li.querySelector('a.go');
    const key = li.id.slice(2);
    if (!link || link.getAttribute('href') !== '#' + encodeURIComponent(li.id)) {
      out.push(['no link to its moment', li.id]);
    } else if (!(key in frameOf) || data.frames[frameOf[key]].e !== n) {
      out.push(['its moment is not its own', key]);
    }
  });
  // Click the first, the last, every violation and every seventh: the same code opens all.
  items.forEach((li, n) => {
    if (!(n === 0 || n === items.length - 1 || n % 7 === 3
          || li.classList.contains('violation'))) return;
    li.querySelector('a.go').click();
    const key = li.id.slice(2), now = document.body.dataset.moment;
    const current = document.querySelector('#pc-events li.current');
    if (now !== key || current !== li) out.push([key, now, current && current.id]);
    if (li.classList.contains('violation')
        && !document.getElementById('pc-notes').textContent.includes('Violation')) {
      out.push(['violation not in the notes', key]);
    }
  });
  return out;
}"""
"""Every item of the move list links to its own moment (each one a moment of its own, in
order); clicking opens it (tried on a sample and every violation). An empty list: all do."""
