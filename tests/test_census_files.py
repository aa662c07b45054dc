"""A census's own files, damaged or not what they claim (issue 20, points 5 and 6), through
every command that reads them: ``solo census --report``, ``solo census --out`` (resuming)
and ``solo new --census``. Each is one line naming the file and what is wrong, exit 3 (a
file that cannot be read: 4), quickly and in bounded memory; never a traceback or 70."""

from __future__ import annotations

import gzip
import importlib
import json
import os
import re
import shutil
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcheck.solo.census import Census, CensusDir, CensusError, Limits, Plan, run_census
from pathcheck.solo.census.files import MAX_CHUNKS
from tests.test_own_files import no_hang

cli: click.Command = importlib.import_module("pathcheck.cli").cli
PLAN = Plan(frozenset({2, 3, 4}), 1000, 3000, 1000, Limits(top=5, rare=7))
CHUNK = "chunks/00000002000-00000003000.json.gz"
"""The middle chunk of PLAN."""


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["solo", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = CensusDir(tmp_path_factory.mktemp("census") / "c").open(PLAN)
    run_census(folder, jobs=1, use_dask=False)
    return folder.path


@pytest.fixture
def census(made: Path, tmp_path: Path) -> Path:
    """A fresh copy of a complete census of PLAN, to damage."""
    return Path(shutil.copytree(made, tmp_path / "c", symlinks=True))


def every_reader(census: Path) -> list[Any]:
    """The report, a resumed run and `solo new --census`, each on the census as it is."""
    with no_hang():
        return [run("census", "--report", str(census), "--format", "json"),
                run("census", "--out", str(census), "--local", "-j", "1"),
                run("new", "--census", str(census), "--rules", "2,3,4", "--min-dungeons", "7")]


def refused(census: Path, *words: str, code: int = 3) -> None:
    for done in every_reader(census):
        assert done.exit_code == code, (done.args if hasattr(done, "args") else "", done.output)
        line = done.stderr.strip()
        prefix = "pathcheck: invalid: " if code == 3 else "pathcheck: error: "  # bad input
        assert line.count("\n") == 0 and line.startswith(prefix), line
        assert line.isprintable(), line  # a bidi or control character is shown escaped
        for word in words:
            assert word in line, line


def chunk_doc(census: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(gzip.decompress((census / CHUNK).read_bytes()))
    return doc


RAW = "raw number: "
"""A string value written into the JSON text as the number after it (1e400, 5,000 digits)."""


def write_chunk(census: Path, doc: Any) -> None:
    text = json.dumps(doc)
    for raw in set(re.findall(f'"{RAW}([^"]*)"', text)):
        text = text.replace(f'"{RAW}{raw}"', raw)
    (census / CHUNK).write_bytes(gzip.compress(text.encode()))


def test_the_untouched_census_reads_everywhere(census: Path) -> None:
    for done in every_reader(census):
        assert done.exit_code in (0, 1), done.output  # new: 1 when fewer seeds than asked
    report = json.loads(run("census", "--report", str(census), "--format", "json").stdout,
                        parse_constant=lambda name: pytest.fail(f"{name} in JSON output"))
    assert report["census"]["seeds_counted"] == [[1000, 3999]]


# --- not what they claim (point 5) -------------------------------------------------------


def make_unfit(path: Path, kind: str) -> None:
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()


UNFIT = {"fifo": "a FIFO", "zero": "a character device", "dir": "a directory"}


@pytest.mark.parametrize("kind", list(UNFIT))
@pytest.mark.parametrize("name", [CHUNK, "census.json", "runs.jsonl"])
def test_a_census_file_that_is_not_a_regular_file(census: Path, name: str, kind: str) -> None:
    make_unfit(census / name, kind)
    refused(census, f"{census / name}: damaged", f"not a regular file ({UNFIT[kind]})")


def bomb(size: int) -> bytes:
    """``size`` bytes of JSON whitespace, gzip-compressed (about a thousandth of it)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b" " * (1 << 20)
    return b"".join([*(packer.compress(block) for _ in range(size >> 20)), packer.flush()])


def test_a_gzip_bomb_of_a_chunk_is_decompressed_no_further_than_a_chunk_can_hold(
        census: Path) -> None:
    packed = bomb(64 << 20)  # 64 MB of spaces in about 64 kB
    assert len(packed) < 96 << 10
    (census / CHUNK).write_bytes(packed)
    refused(census, f"{census / CHUNK}: damaged chunk file", "decompresses to more than")
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="decompresses to more than"):
            Census.load(CensusDir(census))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20  # a chunk of 1,000 seeds holds a few hundred kB at most


# --- validated, not trusted (point 6) ----------------------------------------------------


CHUNK_DAMAGE: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("a negative count", lambda d: d["dungeons"][0].__setitem__(1, -5), "/dungeons/0/1"),
    ("counts that leave seeds out", lambda d: d["dungeons"][0].__setitem__(
        1, d["dungeons"][0][1] - 1), "/dungeons: counts 999 deals, not the chunk's 1,000"),
    ("an infinite difficulty", lambda d: d["hardest"][0].__setitem__(2, RAW + "1e400"),
     "/hardest/0/2"),
    ("a difficulty key out of range", lambda d: d["difficulty"][0].__setitem__(0, -1.0),
     "/difficulty/0/0"),
    ("an unknown reason", lambda d: d["reasons"].__setitem__(
        "\u202eheld", d["reasons"].pop("held")), "\\u202eheld"),
    ("a seed outside the chunk", lambda d: d["easiest"][0].__setitem__(0, 5),
     "/easiest/0/0: seed 5 is outside the chunk's seeds 2000-2999"),
    ("too many extremes", lambda d: d["hardest"].extend(d["easiest"]), "/hardest"),
    ("a rare seed too few", lambda d: d["rare"].pop(), "/rare"),
    ("a string for a count", lambda d: d["totals"].__setitem__("sumsq", "many"),
     "/totals/sumsq"),
    ("another shape", lambda d: d.__setitem__("dungeons", {"3": 1}), "/dungeons"),
    ("a field more", lambda d: d.__setitem__("extra", 1), "extra"),
    ("a huge number", lambda d: d.__setitem__("top", RAW + "9" * 5000), "/top"),
]


@pytest.mark.parametrize(("change", "words"), [c[1:] for c in CHUNK_DAMAGE],
                         ids=[c[0] for c in CHUNK_DAMAGE])
def test_a_damaged_chunk_is_named_with_what_is_wrong(census: Path, change: Any,
                                                     words: str) -> None:
    doc = chunk_doc(census)
    change(doc)
    write_chunk(census, doc)
    refused(census, f"{census / CHUNK}: damaged chunk file", words,
            "delete it and run the census again")


@pytest.mark.parametrize(("data", "words"), [
    (b"not gzip", "damaged chunk file"),
    (gzip.compress(b'{"dungeons": ' + b"[" * 50_000), "/dungeons/0/0: Expected `int`"),
    (gzip.compress(b"\xff\xfe{}"), "not JSON"),
    (gzip.compress(b'{"start": Infinity}'), "not JSON"),
    (gzip.compress(b"{}")[:-4], "cut short"),
], ids=["not-gzip", "deep", "not-utf8", "infinity", "cut"])
def test_a_chunk_that_is_not_a_chunk(census: Path, data: bytes, words: str) -> None:
    (census / CHUNK).write_bytes(data)
    refused(census, f"{census / CHUNK}: damaged chunk file", words)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats()
    | st.sampled_from([0, 1, 2, 3, 4, 7, 38, 999, 1000, 2000, 2999, 3000, -1])
    | st.text(max_size=8) | st.sampled_from(["held", "loop", "\u202e", "sumsq"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=3),
    max_leaves=8)


def leaves(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every value inside a decoded JSON document (containers too)."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += leaves(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += leaves(item, (*at, index))
    return found


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_changed_value_in_a_chunk_is_a_damaged_file_or_a_sound_report(
        made: Path, data: st.DataObject) -> None:
    """Any value of a chunk replaced by any JSON value: the census reads, and its report is
    JSON without Infinity or NaN, or the chunk is a damaged file; never another error."""
    folder = CensusDir(made)
    original = (made / CHUNK).read_bytes()
    doc = json.loads(gzip.decompress(original))
    path = data.draw(st.sampled_from(leaves(doc)[1:]))
    holder = doc
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = data.draw(JSON_VALUES)
    text = json.dumps(doc).replace("Infinity", "1e400").replace("NaN", "1e400")
    try:
        (made / CHUNK).write_bytes(gzip.compress(text.encode()))
        try:
            report = Census.load(folder).to_dict()
        except CensusError as exc:
            assert str(exc).startswith(f"{made / CHUNK}: ")
        else:
            json.dumps(report, allow_nan=False)
    finally:
        (made / CHUNK).write_bytes(original)


def manifest(census: Path, **changes: Any) -> None:
    doc = {**json.loads((census / "census.json").read_text()), **changes}
    (census / "census.json").write_text(json.dumps(doc).replace("Infinity", "1e400"))


@pytest.mark.parametrize(("changes", "words"), [
    ({"rules": [9]}, "/rules/0: 9 is not one of 2, 3, 4"),
    ({"top": 1e400}, "/top: Number out of range"),
    ({"chunk": 1, "count": 2e7}, "/count: Expected `int`, got `float`"),
    ({"chunk": 1, "count": 20_000_000}, f"more than the limit of {MAX_CHUNKS:,}"),
    ({"start": -1}, "/start"),
    ({"format": "pathcheck-census/2"}, "/format"),
    ({"rare": True}, "/rare: Expected `int`, got `bool`"),
])
def test_a_damaged_manifest_is_named_with_what_is_wrong(census: Path, changes: dict[str, Any],
                                                        words: str) -> None:
    manifest(census, **changes)
    refused(census, f"{census / 'census.json'}: not a pathcheck census manifest", words)


def test_a_manifest_too_large_or_not_text(census: Path) -> None:
    (census / "census.json").write_bytes(b" " * (1 << 20))
    refused(census, "census.json: damaged census manifest: larger than the limit")
    (census / "census.json").write_bytes(b"\xff")
    refused(census, "census.json: not a pathcheck census manifest", "not JSON")


@pytest.mark.parametrize(("line", "words"), [
    (b"[1]", "Expected `object`, got `array`"),
    (b'{"backend": "dask", "workers": "x"}', "/workers: Expected `int`, got `str`"),
    (b"\xff", "not JSON"),
    (b"{" * 5000, "not JSON"),
], ids=["array", "workers", "not-utf8", "deep"])
def test_a_damaged_run_log_names_its_line(census: Path, line: bytes, words: str) -> None:
    with open(census / "runs.jsonl", "ab") as log:
        log.write(line + b"\n")
    lines = (census / "runs.jsonl").read_bytes().count(b"\n")
    refused(census, f"{census / 'runs.jsonl'}:{lines}: damaged run log", words)


def test_a_run_log_line_with_infinite_seconds(census: Path) -> None:
    first = json.loads((census / "runs.jsonl").read_text().splitlines()[-1])
    text = json.dumps({**first, "seconds": 1}).replace('"seconds": 1', '"seconds": 1e400')
    (census / "runs.jsonl").write_text(text + "\n")
    refused(census, "runs.jsonl:1: damaged run log", "/seconds")


def test_out_names_a_directory(tmp_path: Path) -> None:
    for name in ("/dev/null", str(tmp_path / "file")):
        Path(tmp_path / "file").write_text("mine")
        for args in (["census", "--out", name, "--local"], ["census", "--report", name],
                     ["new", "--census", name, "--min-dungeons", "8"]):
            done = run(*args)
            assert done.exit_code == 2 and f"{name}' is" in done.stderr, done.output
    assert (tmp_path / "file").read_text() == "mine"


def test_options_that_plan_too_many_chunks_are_a_usage_error(tmp_path: Path) -> None:
    done = run("census", "--out", str(tmp_path / "c"), "--count", "20000000", "--chunk", "1",
               "--local")
    assert done.exit_code == 2 and f"more than the limit of {MAX_CHUNKS:,}" in done.stderr
    assert "use chunks of at least 153 seeds" in done.stderr
    assert not (tmp_path / "c").exists()


# --- round three (issue 31, points 1 and 7) ------------------------------------------------


def test_a_run_log_line_not_utf8_is_one_line_and_exit_3(census: Path) -> None:
    with (census / "runs.jsonl").open("ab") as log:
        log.write(b'{"backend": "proc\xffesses"}\n')
    refused(census, "runs.jsonl:", "not UTF-8 text")


def test_a_manifest_key_not_utf8_is_one_line_and_exit_3(census: Path) -> None:
    manifest = census / "census.json"
    manifest.write_bytes(manifest.read_bytes().replace(b'"top"', b'"t\xffop"'))
    refused(census, "census.json", "not UTF-8 text")


def test_a_manifest_key_given_twice_is_named_not_a_chunk(census: Path) -> None:
    manifest = census / "census.json"
    doc = manifest.read_text()
    manifest.write_text(doc.replace('"count": 3000,', '"count": 3000, "count": 1000,'))
    refused(census, "census.json", "/count", "'count' is given twice")
    for done in every_reader(census):
        assert "chunks/" not in done.stderr


def test_a_chunk_key_given_twice_is_damage(census: Path) -> None:
    text = gzip.decompress((census / CHUNK).read_bytes()).decode()
    (census / CHUNK).write_bytes(gzip.compress(text.replace('"top":', '"top":9,"top":', 1)
                                               .encode()))
    refused(census, CHUNK, "'top' is given twice")


def test_chunks_replaced_by_a_file_is_named_as_such(census: Path) -> None:
    shutil.rmtree(census / "chunks")
    (census / "chunks").write_text("not a folder\n")
    refused(census, "chunks: damaged census: not a folder")
    for done in every_reader(census):
        assert "resume" not in done.stderr
    assert (census / "chunks").read_text() == "not a folder\n"
