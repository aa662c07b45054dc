"""The rounds of a clean Memoarrr! log's ruling worded in C are the Python words, byte for byte.

``_speedups.memoarrr_word`` (pathcheck/speedups/c/memoarrr_word.c) words the C replay's
trace into the ruling's rounds; :func:`~pathcheck.games.memoarrr.fast.word_rounds` is the same
in Python, and :meth:`~MemoarrrAdjudicator.rule_python` the plain reference of the whole
ruling. Compared on random, mutated, null-card, treasure-less and hostile logs (names of any
text, surrogates too). Run under ASan/UBSan by .ci/sanitize.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.errors import RecordError
from pathcheck.games.memoarrr import fast
from pathcheck.games.memoarrr.adjudicator import ADJUDICATOR
from pathcheck.games.memoarrr.gen import random_game
from pathcheck.games.memoarrr.texts import NEVER_SEEN
from pathcheck.ruling import Ruling, SwapFact

from ..test_speedups import BUILT, REQUIRED
from .test_memoarrr_fast import mutated_log

built = pytest.mark.skipif(not BUILT and not REQUIRED,
                           reason="pathcheck._speedups was not built (no C compiler)")


def python_words(log: Any, monkeypatch: pytest.MonkeyPatch) -> Ruling | None:
    """The fast path's ruling with its rounds worded in Python."""
    with monkeypatch.context() as patched:
        patched.setattr(fast, "_word_rounds", None)
        return fast.fast_ruling(log, source="test")


def agree(log: Any, monkeypatch: pytest.MonkeyPatch) -> Ruling | None:
    """The ruling worded in C, checked against the Python words and the plain reference
    (None: the C replay declined the log, and so did the Python words)."""
    ruling = fast.fast_ruling(log, source="test")
    worded = python_words(log, monkeypatch)
    if ruling is None:
        assert worded is None
        return None
    assert worded is not None and ruling == worded
    try:
        reference = ADJUDICATOR.rule_python(log, source="test")
    except RecordError:  # pragma: no cover - the C side takes no log Python refuses
        raise AssertionError("the C side ruled on a log the Python path refuses") from None
    assert ruling == reference
    assert _json(ruling) == _json(worded) == _json(reference)  # the same bytes, facts too
    return ruling


def _json(ruling: Ruling) -> bytes | None:
    """The JSON ruling (None for names JSON cannot hold: lone surrogates)."""
    try:
        return ruling.to_json()
    except UnicodeEncodeError:
        return None


_NAMES = st.text(min_size=1, max_size=12) | st.sampled_from(
    ["\ud800", "a\nb", "\u202eevil", "Ann", "turtle/water", "B1", "\x00", "名前", "é" * 40])


@built
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from([2018, 2023]), st.booleans(),
       st.booleans(), st.integers(0, 7), st.lists(_NAMES, min_size=4, max_size=4, unique=True),
       st.integers(0, 24))
def test_random_logs(seed: int, players: int, edition: int, expert: bool, ordered: bool,
                     keep: int, names: list[str], nulls: int) -> None:
    """Random games, some cut short or half a round, any names, cards left out (null)."""
    rng = random.Random(seed)
    log = random_game(rng, players=players, edition=edition, expert=expert,
                      ordered_stack=ordered)
    renamed = dict(zip(log["players"], names, strict=False))
    log["players"] = [renamed[p] for p in log["players"]]
    log["start_player"] = renamed[log["start_player"]]
    log["peeks"] = {renamed[p]: side for p, side in log["peeks"].items()}
    for rnd in log["rounds"]:
        for action in rnd["actions"]:
            action["player"] = renamed[action["player"]]
    revealed = {a["reveal"] for r in log["rounds"] for a in r["actions"] if "reveal" in a}
    hidden = [(r, c) for r in range(5) for c in range(5)
              if (r, c) != (2, 2) and f"{'ABCDE'[c]}{r + 1}" not in revealed]
    for r, c in rng.sample(hidden, min(nulls, len(hidden))):  # not revealed where it lay
        log["island"][r][c] = None
    del log["rounds"][keep:]
    if keep and keep < 7:
        actions = log["rounds"][-1]["actions"]
        del actions[rng.randrange(len(actions)):]
    with pytest.MonkeyPatch.context() as monkeypatch:
        ruling = agree(log, monkeypatch)
    assert ruling is not None or nulls  # a swap may bring a null card to a reveal


@built
def test_a_swap_of_a_card_never_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Swaps name a card the log leaves out as never seen, in C as in Python."""
    found = 0
    for seed in range(400):
        log = random_game(random.Random(seed), players=3, expert=True)
        swaps = [a["swap"] for r in log["rounds"] for a in r["actions"] if "swap" in a]
        revealed = {a["reveal"] for r in log["rounds"] for a in r["actions"] if "reveal" in a}
        targets = [s for s in swaps if s not in revealed]
        if not targets:
            continue
        col, row = "ABCDE".index(targets[0][0]), int(targets[0][1]) - 1
        log["island"][row][col] = None
        ruling = agree(log, monkeypatch)
        if ruling is not None:
            facts = [e.fact for r in ruling.rounds for e in r.events
                     if isinstance(e.fact, SwapFact)]
            found += any(NEVER_SEEN in (f.card_moved_to_first, f.card_moved_to_second)
                         for f in facts)
        if found >= 3:
            break
    assert found


@built
def test_a_log_without_treasures_is_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """No treasure stack: the C side declines it and the Python path rules (no winner)."""
    for seed in range(20):
        log = random_game(random.Random(seed), players=2 + seed % 3)
        del log["treasures"]
        assert agree(log, monkeypatch) is None
        assert ADJUDICATOR.rule_python(log, source="test").winners == []


@built
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_logs(data: st.DataObject) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        agree(mutated_log(data), monkeypatch)


@built
def test_many_names_keep_the_caches_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 4,096 names the caches start again, and the words stay the same."""
    log = random_game(random.Random(1), players=2)
    for n in range(4200):
        named = copy.deepcopy(log)
        old = named["players"][0]
        new = f"p{n}"
        named["players"][0] = new
        named["peeks"][new] = named["peeks"].pop(old)
        if named["start_player"] == old:
            named["start_player"] = new
        for rnd in named["rounds"]:
            for action in rnd["actions"]:
                if action["player"] == old:
                    action["player"] = new
        ruling = fast.fast_ruling(named, source="test")
        assert ruling is not None
        if n % 1000 == 0 or n > 4090:
            assert ruling.to_json() == ADJUDICATOR.rule_python(named, source="test").to_json()
    assert all(len(said) <= 4097 for said in fast._said.values())
    assert len(fast._moves_by_name) <= 4097


@built
@pytest.mark.parametrize("change", [
    lambda t, p, k: (t, (), k),                                   # no players
    lambda t, p, k: (t, ("a", "b", "c", "d", "e"), k),            # too many
    lambda t, p, k: (t, (1, 2), k),                               # names no str
    lambda t, p, k: (t, p, k[:-1]),                               # a kit too short
    lambda t, p, k: (t, p, (*k[:2], [], *k[3:])),                 # a cache no dict
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, ((9, 1, 0, 0, 0, 0, 0),)),), p, k),  # odd kind
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, ((1, 1, 7, 0, 0, 0, 0),)),), p, k),  # odd seat
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, ((1, 1, 0, 99, 0, 0, 1),)),), p, k),  # odd place
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, ((0, 1, 0, 0, 1, -1, 99),)),), p, k),  # odd card
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, ((2, 1, 0, 0, 0, 0, 2**40),)),), p, k),  # huge
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, ((2, 1, 0, 0, 0, 0, "x"),)),), p, k),  # no int
    lambda t, p, k: (((0, -1, 1, 1, 0, 1, [(2, 1, 0, 0, 0, 0, 0)]),), p, k),  # a list
    lambda t, p, k: (((5, -1, 1, 1, 0, 1, ()),), p, k),           # odd starter
    lambda t, p, k: (((0, -1, 1, 1, 0, 1),), p, k),               # a round too short
    lambda t, p, k: ((t[0],) * 8, p, k),                          # 8 rounds
])
def test_word_refuses_bad_arguments(change: Any) -> None:
    """What the C side is handed wrong is an error, never a crash (the sanitizers watch)."""
    from pathcheck import _speedups

    log = random_game(random.Random(2), players=2)
    traced = fast.trace(log)
    assert traced is not None
    players = tuple(log["players"])
    args = change(traced[2], players, fast._kit(log["edition"]))
    with pytest.raises((TypeError, ValueError)):
        _speedups.memoarrr_word(*args)


@built
def test_word_passes_on_errors_of_its_callbacks() -> None:
    """An error raised while a text is said is raised, and a wrong answer is refused."""
    from pathcheck import _speedups

    log = random_game(random.Random(3), players=2)
    traced = fast.trace(log)
    assert traced is not None
    kit = list(fast._kit(log["edition"]))
    kit[2] = {}  # a cache of its own, so each case is asked for

    def broken(name: str, code: int) -> Any:
        raise KeyError(code)

    for word, error in ((broken, KeyError), (lambda n, c: "text", TypeError),
                        (lambda n, c: (1, None, None), TypeError)):
        kit[3] = word
        with pytest.raises(error):
            _speedups.memoarrr_word(traced[2], tuple(log["players"]), tuple(kit))


FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "memoarrr").glob("*.json"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_a_line_is_ruled_and_analysed_as_the_reader_reads_it(path: Path) -> None:
    """``adjudicate`` and ``analyse`` of a JSON line decode it once (``rule_decoded``,
    ``analyse_raw``): the same ruling and analysis as the usual way, or None where that way
    words an error (malformed fixtures, text that is no object)."""
    from pathcheck.analysis import analyse
    from pathcheck.analysis.memoarrr import analyse_raw
    from pathcheck.games import AdjudicateOptions

    raw = msgspec.json.encode(json.loads(path.read_text(encoding="utf-8")))
    log = msgspec.json.decode(raw)
    ruled = ADJUDICATOR.rule_decoded(raw, "memoarrr/1", source="t")
    analysed = analyse_raw(raw, source="t")
    if path.name.startswith("malformed-"):
        assert ruled is None and analysed is None
        return
    assert ruled is not None and ruled.to_json() == ADJUDICATOR.adjudicate(
        log, source="t", options=AdjudicateOptions()).to_json()
    assert analysed is not None and analysed.to_json() == analyse(log, source="t").to_json()
    assert ADJUDICATOR.rule_decoded(raw, "game/1", source="t") is None
    assert ADJUDICATOR.rule_decoded(b"[1]", "memoarrr/1", source="t") is None
    assert analyse_raw(b"[1]", source="t") is None
