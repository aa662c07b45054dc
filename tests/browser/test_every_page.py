"""Every fixture's replay page at 1280x900 and 390x844 in headless Chromium: nothing wider
than the screen, the picture inside it, readable labels, every move and event reachable from
the move list, every violation shown at its moment; and the page's controls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pathcheck.cli import main
from tests.browser.conftest import EVERY_EVENT, LAYOUT, Opened

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GAMES = ("dungeon", "memoarrr", "memo-dice", "robot-memory")
PLAYABLE = [(game, p.stem) for game in GAMES for p in sorted((FIXTURES / game).glob("*.json"))
            if not p.name.startswith("malformed")]


FITS = """() => {
  const out = [];
  for (const card of document.querySelectorAll('#pc-picture g.card')) {
    const box = card.querySelector('rect').getBoundingClientRect();
    for (const text of card.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(text.textContent);
    }
  }
  const svg = document.querySelector('#pc-picture svg');
  if (svg) {
    const frame = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll(':scope > g > text')) {
      const r = text.getBoundingClientRect();
      if (r.right > frame.right + 1) out.push('clipped: ' + text.textContent);
    }
  }
  return out;
}"""
"""Texts of the picture that stick out of their card, or out of the picture (an empty list:
none)."""

MARKS = "document.querySelectorAll('#pc-marks a.lost, #pc-marks a.violation')"
"""The slider's marks of the Lost points and violations (each a link to its moment)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every playable fixture's page, a folder (and an index) per game."""
    root = tmp_path_factory.mktemp("every")
    for game in GAMES:
        logs = sorted(str(p) for p in (FIXTURES / game).glob("*.json")
                      if not p.name.startswith("malformed"))
        assert main(["adjudicate", *logs, "-o", str(root / f"{game}.txt"), "--html",
                     str(root / game)]) in (0, 1)
    return root


def _errors(opened: Opened) -> list[str]:
    errors, opened.errors[:] = list(opened.errors), []
    return errors


@pytest.mark.parametrize("size", ["wide", "phone"])
@pytest.mark.parametrize(("game", "stem"), PLAYABLE, ids=[f"{g}/{s}" for g, s in PLAYABLE])
def test_page_fits_and_every_event_is_reachable(site: Path, viewports: dict[str, Opened],
                                                game: str, stem: str, size: str) -> None:
    opened = viewports[size]
    page = opened.open(site / game / f"{stem}.html")
    layout: dict[str, Any] = page.evaluate(LAYOUT)
    assert layout["scroll"] <= layout["vw"] and not layout["wide"], layout["wide"][:5]
    for left, right in layout["boxes"]:
        assert left >= -1 and right <= layout["vw"] + 1, (left, right)
    assert layout["smallest"] >= 9.95, f"a label of {layout['smallest']:.1f} px"
    assert layout["outside"] == []  # the moment's marks are inside the frame shown
    if size == "wide":
        assert page.evaluate(EVERY_EVENT) == []  # the script is the same at any size
    else:
        assert layout["header"] <= layout["vh"] / 5, f"header {layout['header']:.0f} px"
    for n in range(page.evaluate(MARKS + ".length")):  # each Lost point and violation
        page.evaluate(f"{MARKS}[{n}].click()")
        assert page.evaluate(LAYOUT)["outside"] == [], opened.moment()
    page.keyboard.press("End")  # the last moment: the most text under the picture
    assert page.evaluate(FITS) == []
    assert _errors(opened) == []


def test_index_links_open_each_page_at_its_first_violation(site: Path,
                                                           viewports: dict[str, Opened]
                                                           ) -> None:
    opened = viewports["phone"]
    for game in GAMES:  # every index fits a phone
        page = opened.open(site / game / "index.html")
        layout: dict[str, Any] = page.evaluate(LAYOUT)
        assert layout["scroll"] <= 390 and not layout["wide"], (game, layout["wide"][:3])
    page = opened.open(site / "memoarrr" / "index.html")
    page.click("text=illegal-walrus-blocked.json")
    page.wait_for_url("**/illegal-walrus-blocked.html#1.2b")
    assert opened.moment() == "1.2b"
    assert "walrus" in opened.current_event() and "violation" in opened.current_event().lower()
    assert _errors(opened) == []


def test_keyboard_marks_and_buttons(site: Path, viewports: dict[str, Opened]) -> None:
    opened = viewports["wide"]
    page = opened.open(site / "memo-dice" / "illegal-wrong-guess.html", "1.0")
    assert opened.moment() == "1.0"
    page.keyboard.press("ArrowDown")  # up and down page-wide scroll the page, as anywhere
    assert opened.moment() == "1.0"
    page.focus("#pc-slider")
    page.keyboard.press("ArrowDown")  # on the slider (or the move list): a round
    assert opened.moment() == "2.0"
    page.locator("#pc-events a.go").first.focus()
    page.keyboard.press("ArrowUp")
    assert opened.moment() == "1.0"
    page.keyboard.press("ArrowRight")
    assert opened.moment() == "1.1"
    live = page.text_content("#pc-live") or ""
    assert "Round 1, move 1" in live and "rolls die" in live  # announced: caption and event
    assert live.count("rolls die") == 1, live  # the move said once
    page.click("#pc-nextv")
    assert opened.moment() == "1.10b" and "violation" in opened.current_event().lower()
    page.click("#pc-nextv")
    assert opened.moment() == "1.11b"
    marks = page.locator("#pc-marks a.violation")
    assert marks.count() == 2
    page.keyboard.press("Home")
    marks.nth(1).click()
    assert opened.moment() == "1.11b"
    page.locator("#pc-events a.go").nth(5).focus()  # Enter on a move goes there
    page.keyboard.press("Enter")
    assert opened.moment() == "1.5"
    page.click("#pc-copy")
    page.wait_for_function("document.getElementById('pc-status').textContent !== ''")
    assert "#1.5" in (page.text_content("#pc-status") or "")
    assert _errors(opened) == []


def test_an_unknown_fragment_says_so(site: Path, viewports: dict[str, Opened]) -> None:
    opened = viewports["wide"]
    page = opened.open(site / "dungeon" / "legal-3p-basic.html", "9.99")
    assert opened.moment() == "1.0"
    assert "#9.99: no such moment" in (page.text_content("#pc-status") or "")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#pc-status") == ""
    assert _errors(opened) == []


def test_every_dungeon_event_is_a_moment(site: Path, viewports: dict[str, Opened]) -> None:
    opened = viewports["wide"]
    page = opened.open(site / "dungeon" / "legal-3p-basic.html", "1.7b")
    assert opened.moment() == "1.7b" and "Bob announces Lost" in opened.current_event()
    assert page.locator("#pc-picture .lost-card").count() == 1
    assert page.locator("#pc-picture .placer").count() >= 7
    assert page.locator("#pc-events > li").count() == page.evaluate(
        "JSON.parse(document.getElementById('pc-data').textContent).frames.length")
    assert _errors(opened) == []


def test_without_javascript_the_page_shows_the_end_and_every_event(
        site: Path, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False,
                                  viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto((site / "memo-dice" / "illegal-game-end.html").resolve().as_uri())
        assert not page.is_visible("#pc-controls")  # no dead buttons
        assert page.locator("#pc-picture svg").count() == 1
        assert "End of the game" in (page.text_content("#pc-caption") or "")
        assert page.locator("#pc-events > li").count() > 100
        assert "Linda" in (page.text_content("#pc-scores") or "")
    finally:
        context.close()


LONG = "Maximiliane-Sophia von Hohenberg"


@pytest.mark.parametrize("size", ["wide", "phone"])
@pytest.mark.parametrize("fixture", ["memo-dice/legal-3p.json", "memoarrr/legal-3p-2023.json",
                                     "robot-memory/legal-standard-3p.json"])
def test_long_names_fit_and_odd_file_names_link(tmp_path: Path, viewports: dict[str, Opened],
                                                fixture: str, size: str) -> None:
    text = (FIXTURES / fixture).read_text()
    first = json.loads(text)["players"][0]
    log = tmp_path / "a game #1? 100%.json"
    log.write_text(text.replace(f'"{first}"', json.dumps(LONG)))
    folder = tmp_path / "pages"
    assert main(["adjudicate", str(log), "-o", str(tmp_path / "r.txt"), "--html",
                 str(folder)]) in (0, 1)
    opened = viewports[size]
    page = opened.open(folder / "index.html")
    page.click("table.listing a")  # a name with #, ? and % opens its page
    page.wait_for_function("document.body.dataset.moment !== undefined && "
                           "document.getElementById('pc-events') !== null")
    assert LONG in (page.text_content("#pc-events") or "")  # the full name in the list
    for key in ("1.3", "1.9", "end"):
        page.evaluate(f"location.hash = '#{key}'")
        layout: dict[str, Any] = page.evaluate(LAYOUT)
        assert not layout["wide"], layout["wide"][:5]
        assert page.evaluate(FITS) == [], key
    shortened: list[list[str]] = page.evaluate(
        "[...document.querySelectorAll('#pc-picture svg text')].filter(t => t.textContent"
        ".endsWith('…')).map(t => [t.textContent, t.querySelector('title') ? "
        "t.querySelector('title').textContent : ''])")
    for shown, full in shortened:  # whatever is shortened has its full text on hover
        assert full and (full + "…").startswith(shown.replace(full, "", 1)[:-1]), (shown, full)
    assert _errors(opened) == []
