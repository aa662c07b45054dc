"""The ASCII fast paths of :func:`pathcheck.safe.one_line`, :func:`pathcheck.safe.keep_lines`
and :func:`pathcheck.render.html.one_line` (checked at C speed before any regex, issue #33
point 4: a ruling's text maps are thousands of characters) answer as the regexes alone do."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pathcheck import safe
from pathcheck.render import html

TEXT = st.text(alphabet=st.characters(max_codepoint=0x7F)) | st.text() | st.sampled_from(
    ["", "\n", "a\nb", "\x7f", "row 1\nrow\t2", "Zoë", "a\u2028b", "\x85", "~ ~"])


@given(TEXT)
def test_the_fast_paths_answer_as_the_regexes(text: str) -> None:
    assert safe.one_line(text) == safe._ANY.sub(safe._escape, text)
    assert safe.keep_lines(text) == safe._BUT_NEWLINE.sub(safe._escape, text)
    assert html.one_line(text) == (html._BOUNDARY.search(text) is None)


def test_every_ascii_character() -> None:
    for code in range(0x80):
        text = f"a{chr(code)}b\n"
        assert safe.one_line(text) == safe._ANY.sub(safe._escape, text)
        assert safe.keep_lines(text) == safe._BUT_NEWLINE.sub(safe._escape, text)
        assert html.one_line(text) == (html._BOUNDARY.search(text) is None)
