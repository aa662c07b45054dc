"""``adjudicate --html`` pages of every game, driven in headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathcheck.cli import main
from tests.browser.conftest import Opened
from tests.browser.png import count_colour

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

ORANGE, GREEN = (0xE6, 0x9F, 0x00), (0x00, 0x9E, 0x73)

# (fixture, a moment, CSS selector -> how many the picture shows then, and an element whose
# screenshot must show a colour: START's green circle, the orange border of the current card)
CASES = [
    ("dungeon/legal-3p-basic.json", "1.3", {".tile": 4, ".lost": 0, ".start": 1},
     (".start", GREEN)),
    ("dungeon/illegal-solo-premature.json", "2.1",
     {"figure:first-of-type .tile": 1, "figure:last-of-type .tile": 6},
     ("figure:first-of-type .start", GREEN)),
    ("memoarrr/legal-2p-2023.json", "2.3", {".card.up": 3, ".card.current": 1},
     (".card.current", ORANGE)),
    ("memo-dice/legal-2p.json", "1.9", {".card.up": 2, ".card.down": 5, ".card.current": 1},
     (".card.current", ORANGE)),
    ("robot-memory/legal-standard-2p.json", "1.13b", {".card.up": 14, ".card.current": 2},
     (".card.current", ORANGE)),
]


@pytest.mark.parametrize(("fixture", "moment", "expected", "seen"), CASES,
                         ids=[c[0].split("/")[0] + "/" + c[1] for c in CASES])
def test_game_page(fixture: str, moment: str, expected: dict[str, int],
                   seen: tuple[str, tuple[int, int, int]], tmp_path: Path,
                   opened: Opened) -> None:
    target = tmp_path / "page.html"
    result = tmp_path / "ruling.json"
    assert main(["adjudicate", str(FIXTURES / fixture), "--format", "json", "-o", str(result),
                 "--html", str(target)]) in (0, 1)
    ruling = json.loads(result.read_text())[0]

    page = opened.open(target, moment)  # the fragment opens the moment
    assert opened.moment() == moment
    for selector, count in expected.items():
        assert page.locator(f"#pc-picture {selector}").count() == count, selector
    selector, colour = seen
    shot = page.locator(f"#pc-picture {selector}").first.screenshot()
    assert count_colour(shot, colour) > 20, f"{selector} is not drawn in {colour}"
    if selector == ".card.current":  # and a card that is not current has no orange border
        other = page.locator("#pc-picture .card.down").first.screenshot()
        assert count_colour(other, colour) == 0
    event = opened.current_event()
    page.keyboard.press("ArrowRight")
    assert opened.moment() != moment and page.url.endswith("#" + opened.moment())
    assert opened.current_event() != event
    page.keyboard.press("ArrowLeft")
    assert opened.moment() == moment and opened.current_event() == event

    page.keyboard.press("End")
    assert opened.moment() == "end"
    rows = page.locator("#pc-scores tr")
    shown = {rows.nth(i).locator("th").inner_text(): int(rows.nth(i).locator("td").inner_text())
             for i in range(rows.count())}
    assert shown == ruling["final_scores"]
    for violation in ruling["violations"][:1]:
        assert page.locator("#pc-events li.violation").count() >= 1
        assert violation["rule"]["section"] in (page.text_content("#pc-events") or "")
    assert opened.errors == []
