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
