"""Replay pages of dungeon in memory, driven in headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathcheck.cli import main
from tests.browser.conftest import EVERY_EVENT, LAYOUT, Opened
from tests.browser.png import count_colour

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "fixtures" / "dungeons" / "examples.dgn"
VERMILION = (0xD5, 0x5E, 0x00)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pages") / "verify"
    assert main(["verify", str(EXAMPLES), "-q", "--html", str(folder)]) == 0
    return folder


def test_check_example_steps_through_the_dungeon(site: Path, opened: Opened) -> None:
    # Line 11: the check example, Lost at tile 5 by loop; Bob early, Cy and Dee score.
    page = opened.open(site / "examples-11.html")
    assert opened.moment() == "1.1"
    assert page.locator("#pc-picture .tile").count() == 1
    first_event = opened.current_event()
    page.keyboard.press("ArrowRight")
    assert opened.moment() == "1.2" and page.url.endswith("#1.2")
    assert opened.current_event() != first_event
    assert page.locator("#pc-picture .tile").count() == 2
    page.click("#pc-next")
    page.click("#pc-prev")
    page.keyboard.press("ArrowLeft")
    assert opened.moment() == "1.1" and opened.current_event() == first_event
    page.keyboard.press("End")
    assert opened.moment() == "checkd"  # each player's outcome of the check is a moment
    scores = page.text_content("#pc-scores") or ""
    assert "Cy1" in scores.replace(" ", "") and "Bob0" in scores.replace(" ", "")
    assert "(3. Checking" in opened.caption()
    assert opened.errors == []


def test_fragment_opens_the_moment_and_the_screenshot_shows_it(site: Path,
                                                               opened: Opened) -> None:
    page = opened.open(site / "examples-11.html", "1.5")
    assert opened.moment() == "1.5" and "tile 5" in opened.caption()
    assert page.locator("#pc-picture .tile").count() == 5
    assert page.locator("#pc-picture .lost").count() == 1
    box = page.locator("#pc-picture .lost").bounding_box()
    clip = {"x": box["x"] - 4, "y": box["y"] - 4, "width": box["width"] + 8,
            "height": box["height"] + 8}
    assert count_colour(page.screenshot(clip=clip), VERMILION) > 20  # the cross, drawn
    page.evaluate("location.hash = '#1.4'")
    page.wait_for_function("document.body.dataset.moment === '1.4'")
    assert page.locator("#pc-picture .tile").count() == 4
    assert page.locator("#pc-picture .lost").count() == 0
    assert count_colour(page.screenshot(clip=clip), VERMILION) == 0  # not Lost yet
    page.keyboard.press("ArrowRight")
    notes = page.text_content("#pc-notes") or ""
    assert "Lost at tile 5" in notes and "circle in a loop" in notes
    assert opened.errors == []


def test_slider_index_and_narrow_screen(site: Path, opened: Opened) -> None:
    page = opened.open(site / "index.html")
    links = page.locator("table.listing a")
    assert links.count() == 10
    page.click("text=examples.dgn:5")
    page.wait_for_url("**/examples-5.html*")
    assert opened.moment() == "1.1"
    page.set_viewport_size({"width": 360, "height": 740})
    page.fill("#pc-slider", "7")
    assert opened.moment() == "1.8"
    assert "Lost at tile 8" in (page.text_content("#pc-notes") or "")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways at 360 px ({width} px wide)"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.id")
    assert focused.startswith("pc-")
    assert opened.errors == []


def test_answer_key_page(tmp_path: Path, opened: Opened) -> None:
    target = tmp_path / "key.html"
    assert main(["solo", "key", "1303N-QK8NC", "--reveal", "--html", str(target)]) == 0
    page = opened.open(target, "2.1")
    assert opened.moment() == "2.1" and "Dungeon 2, tile 1" in opened.caption()
    layout = page.evaluate(LAYOUT)  # an answer key's labels are readable too
    assert layout["smallest"] >= 9.95 and not layout["wide"], layout
    page.click("#pc-last")
    assert opened.moment() == "score"
    assert "46" in (page.text_content("#pc-scores") or "")
    assert opened.errors == []


@pytest.mark.parametrize("line", [4, 5, 6, 8, 9, 11, 13, 15, 17, 19])
def test_record_pages_fit_and_read(site: Path, viewports: dict[str, Opened], line: int) -> None:
    for size, opened in viewports.items():
        page = opened.open(site / f"examples-{line}.html")
        page.keyboard.press("End")
        layout = page.evaluate(LAYOUT)
        assert layout["scroll"] <= layout["vw"] and not layout["wide"], layout["wide"][:3]
        if size == "wide":
            assert layout["smallest"] >= 9.95, layout["smallest"]
        assert page.evaluate(EVERY_EVENT) == []
        errors, opened.errors[:] = list(opened.errors), []
        assert errors == []
