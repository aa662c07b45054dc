"""Replay pages in headless Chromium: right-to-left names, phones (a long name in an index,
the header of ``analyse --html``), history, dark mode, the slider's words, a card's signs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pathcheck.cli import main
from tests.browser.conftest import LAYOUT, VIEWPORTS, Opened

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RTL = "עדי"
LONG = "Maximiliane-Sophia-Antonia-Charlotte-Friederike-von-Hohenberg"  # 60 characters


def _renamed(tmp_path: Path, fixture: str, name: str) -> Path:
    """The fixture with its first player renamed, written to ``tmp_path``."""
    text = (FIXTURES / fixture).read_text()
    first = json.loads(text)["players"][0]
    log = tmp_path / Path(fixture).name
    log.write_text(text.replace(f'"{first}"', json.dumps(name)))
    return log


def _pages(tmp_path: Path, *logs: Path) -> Path:
    folder = tmp_path / "pages"
    assert main(["adjudicate", *map(str, logs), "-o", str(tmp_path / "r.txt"), "--html",
                 str(folder)]) in (0, 1)
    return folder


ISOLATED = """name => {
  const inBdi = sel => [...document.querySelectorAll(sel + ' bdi')]
    .some(b => b.textContent === name);
  const svg = [...document.querySelectorAll('#pc-picture svg text')]
    .some(t => t.textContent.includes('\\u2068' + name + '\\u2069'));
  const bare = [...document.querySelectorAll('header p, #pc-events li, #pc-notes li')]
    .filter(e => e.textContent.includes(name) && !e.querySelector('bdi')).length;
  return {header: inBdi('header .summary'), events: inBdi('#pc-events'),
          notes: inBdi('#pc-notes'), caption: inBdi('#pc-caption'),
          scores: inBdi('#pc-scores'), svg, bare};
}"""
"""Where a name stands isolated: a ``<bdi>`` of exactly the name in the header, the move list,
the notes, the caption and the scores, FSI ... PDI in the picture's text; and how many lines
show the name with no ``<bdi>`` at all."""


@pytest.mark.parametrize("fixture", ["memoarrr/legal-3p-2023.json",
                                     "memoarrr/illegal-walrus-blocked.json",
                                     "memo-dice/legal-2p.json"])
def test_a_right_to_left_name_is_isolated_everywhere(tmp_path: Path,
                                                     viewports: dict[str, Opened],
                                                     fixture: str) -> None:
    folder = _pages(tmp_path, _renamed(tmp_path, fixture, RTL))
    opened = viewports["wide"]
    page = opened.open(folder / "index.html")
    assert page.locator("table.listing bdi", has_text=RTL).count() >= 1
    page.click("table.listing a")
    page.wait_for_function("document.getElementById('pc-events') !== null")
    page.keyboard.press("End")  # the final scores: in the header, the notes and the table
    seen: dict[str, Any] = page.evaluate(ISOLATED, RTL)
    assert seen["header"] and seen["events"] and seen["scores"] and seen["notes"], seen
    assert seen["bare"] == 0, seen
    for n in range(page.evaluate("JSON.parse(document.getElementById('pc-data')"
                                 ".textContent).frames.length")):
        page.fill("#pc-slider", str(n))  # the picture names the player at some moment
        if page.evaluate(ISOLATED, RTL)["svg"]:
            break
    else:
        pytest.fail("the picture never shows the name isolated")
    assert page.evaluate(ISOLATED, RTL)["bare"] == 0
    # the score stands on the name's right: the name's box ends before the number begins
    order = page.evaluate("""name => {
      const row = [...document.querySelectorAll('#pc-scores tr')]
        .find(r => r.textContent.includes(name));
      const a = row.querySelector('th').getBoundingClientRect();
      const b = row.querySelector('td').getBoundingClientRect();
      return a.right <= b.left + 1;
    }""", RTL)
    assert order
    assert opened.errors == []
    opened.errors[:] = []


def test_an_index_with_a_long_name_fits_a_phone(tmp_path: Path,
                                                viewports: dict[str, Opened]) -> None:
    folder = _pages(tmp_path, _renamed(tmp_path, "memo-dice/legal-2p.json", LONG),
                    _renamed(tmp_path, "memoarrr/illegal-walrus-blocked.json", LONG))
    opened = viewports["phone"]
    page = opened.open(folder / "index.html")
    assert LONG in (page.text_content("table.listing") or "")
    layout: dict[str, Any] = page.evaluate(LAYOUT)
    assert layout["scroll"] <= 390 and not layout["wide"], layout["wide"][:3]
    assert opened.errors == []


@pytest.mark.parametrize("fixture", ["dungeon/legal-3p-basic.json",
                                     "memo-dice/legal-3p.json"])
def test_the_analysis_header_is_compact_on_a_phone(tmp_path: Path,
                                                   viewports: dict[str, Opened],
                                                   fixture: str) -> None:
    target = tmp_path / "analysed.html"
    assert main(["analyse", str(FIXTURES / fixture), "-o", str(tmp_path / "a.txt"), "--html",
                 str(target)]) in (0, 1)
    opened = viewports["phone"]
    page = opened.open(target)
    layout: dict[str, Any] = page.evaluate(LAYOUT)
    assert layout["header"] <= layout["vh"] / 5, f"header {layout['header']:.0f} px"
    assert layout["scroll"] <= 390 and not layout["wide"], layout["wide"][:3]
    assert page.locator("nav.strip a").count() > 10  # the strip is all there, scrolling
    assert opened.errors == []


def test_back_walks_the_moments_stepped_through(tmp_path: Path,
                                                viewports: dict[str, Opened]) -> None:
    folder = _pages(tmp_path, FIXTURES / "memo-dice" / "legal-2p.json")
    opened = viewports["wide"]
    page = opened.open(folder / "legal-2p.html", "1.0")
    page.click("#pc-next")
    page.keyboard.press("ArrowRight")
    assert opened.moment() == "1.2"
    page.go_back()
    page.wait_for_function("document.body.dataset.moment === '1.1'")
    page.go_back()
    page.wait_for_function("document.body.dataset.moment === '1.0'")
    page.go_forward()
    page.wait_for_function("document.body.dataset.moment === '1.1'")
    assert opened.errors == []


def test_dark_mode_follows_the_system(tmp_path: Path, browser: Any) -> None:
    folder = _pages(tmp_path, FIXTURES / "dungeon" / "illegal-draw.json")
    context = browser.new_context(color_scheme="dark", viewport=VIEWPORTS["wide"])
    try:
        page = context.new_page()
        page.goto((folder / "illegal-draw.html").resolve().as_uri())
        colours = page.evaluate("""() => {
          const rgb = c => c.match(/\\d+/g).slice(0, 3).map(Number);
          const lum = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
          const s = e => getComputedStyle(document.querySelector(e));
          return {paper: lum(rgb(s('body').backgroundColor)), ink: lum(rgb(s('body').color)),
                  bar: lum(rgb(s('.controls').backgroundColor)),
                  button: lum(rgb(s('.controls button').backgroundColor)),
                  illegal: lum(rgb(s('.summary .illegal').color))};
        }""")
        assert colours["paper"] < 0.15 and colours["bar"] < 0.2 and colours["button"] < 0.25
        assert colours["ink"] > 0.75 and colours["illegal"] > 0.45, colours
    finally:
        context.close()


def test_dungeon_slider_marks_use_the_rulebook_words(tmp_path: Path,
                                                     viewports: dict[str, Opened]) -> None:
    folder = _pages(tmp_path, FIXTURES / "dungeon" / "legal-3p-basic.json",
                    FIXTURES / "dungeon" / "legal-solo-perfect-rules-2-3-4.json")
    opened = viewports["wide"]
    for stem, word in (("legal-3p-basic", "exploration"),
                       ("legal-solo-perfect-rules-2-3-4", "dungeon")):
        page = opened.open(folder / f"{stem}.html")
        titles = page.evaluate("[...document.querySelectorAll('#pc-marks a.round')]"
                               ".map(a => a.title)")
        assert titles and all(t.startswith(f"{word} ") and t.endswith(" starts")
                              for t in titles), titles
    assert opened.errors == []


SIGNS = """() => {
  const out = [];
  for (const card of document.querySelectorAll('#pc-picture g.card')) {
    const texts = [...card.querySelectorAll(':scope > text')];
    const signs = texts.filter(t => /[\\u25B6\\u2605\\u26A1!]/.test(t.textContent)
                                     && t.getAttribute('text-anchor') !== 'middle');
    for (const s of signs) {
      const a = s.getBoundingClientRect();
      for (const t of texts) {
        if (t === s) continue;
        const b = t.getBoundingClientRect();
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
          out.push(s.textContent + ' over ' + t.textContent);
        }
      }
    }
  }
  return out;
}"""
"""A card's signs (▶, ★, ⚡, !) that overlap a line of its text (an empty list: none)."""


@pytest.mark.parametrize("fixture", ["memo-dice/legal-golden-by-colour.json",
                                     "memoarrr/legal-2p-2023.json",
                                     "robot-memory/legal-standard-2p.json"])
def test_a_cards_signs_stay_clear_of_its_text(tmp_path: Path, viewports: dict[str, Opened],
                                              fixture: str) -> None:
    folder = _pages(tmp_path, FIXTURES / fixture)
    opened = viewports["wide"]
    page = opened.open(folder / f"{Path(fixture).stem}.html")
    frames = page.evaluate("JSON.parse(document.getElementById('pc-data').textContent)"
                           ".frames.length")
    for n in range(frames):
        page.fill("#pc-slider", str(n))
        assert page.evaluate(SIGNS) == [], opened.moment()
    assert opened.errors == []
