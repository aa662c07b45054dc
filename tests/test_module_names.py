"""Public names keep importing from where they were.

Two moves happened: modules were split (batch into batch_items, batch_fast and parallel;
records into record_values and dgn; bounded into regular_files), then every flat module of
the engine moved into its wing (issue #30, docs/design.md). Code written against the old
paths goes on working: a split module still offers every name it had, and an old module path
imports the module at its new place with a DeprecationWarning (pathcheck/_moved.py).
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pathcheck._moved import MOVED

ROOT = Path(__file__).resolve().parent.parent

BEFORE_THE_SPLIT = {  # every public name of each module at commit 44f1e60
    "pathcheck.batch": [
        "Block", "CHUNK", "FileEnd", "Item", "MEANT_FOR", "NO_RECORD", "Rendered", "Result",
        "RunSummary", "Settings", "Task", "WRONG_PRAGMA", "input_size", "iter_items",
        "misdirected", "parallel_map", "process_item", "process_task", "render_verdict", "run",
        "usable_cores"],
    "pathcheck.inputs.records": [
        "ALL_RULES", "DUNGEON_FORMAT", "DUNGEON_KEYS", "DungeonRecord", "NOT_RULED",
        "Overrides", "Record", "SOLO_FORMAT", "SOLO_KEYS", "SoloRecord", "dgn_blank",
        "dgn_lines", "dgn_text", "is_dgn", "iter_records", "iter_solo_records",
        "parse_dgn_bytes", "parse_dgn_line", "parse_dungeon_record", "parse_pragma",
        "parse_rules_option", "parse_solo_record", "pragma_line", "pragma_settings",
        "record_from_document"],
    "pathcheck.reading.bounded": [
        "BLOCK_SIZE", "Element", "Guard", "HEAD", "JSON_SPACE", "MAX_DEPTH", "MAX_DIGITS",
        "MAX_NAME", "MAX_PLAYERS", "MAX_RECORD_BYTES", "MAX_TILESET_BYTES",
        "MAX_TILESET_TILES", "MAX_TOKENS", "Oversized", "Prefixed", "QUOTE", "Readable",
        "UnfitFile", "array_elements", "brief", "cut", "depth_message", "duplicate_keys",
        "duplicate_message", "guard", "gunzip", "line_blocks", "lines", "oversized_message",
        "read_regular", "too_deep"],
}


@pytest.mark.parametrize("module", sorted(BEFORE_THE_SPLIT))
def test_every_name_of_a_split_module_still_imports_from_it(module: str) -> None:
    imported = importlib.import_module(module)
    missing = [name for name in BEFORE_THE_SPLIT[module] if not hasattr(imported, name)]
    assert missing == []
    exported = getattr(imported, "__all__", None)  # what mypy --strict lets others import
    if exported is not None:
        assert [name for name in BEFORE_THE_SPLIT[module] if name not in exported] == []


def test_wrong_pragma_is_the_fast_paths() -> None:
    from pathcheck import batch
    from pathcheck.batch import fast

    assert batch.WRONG_PRAGMA is fast.WRONG_PRAGMA


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_imports_the_moved_module_with_a_warning(old: str) -> None:
    """Run in a fresh interpreter: in this one the old name may already be imported."""
    new = MOVED[old]
    script = (
        "import importlib, warnings, sys\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({new!r})\n"
        "texts = [str(w.message) for w in caught if w.category is DeprecationWarning]\n"
        f"assert old is new, (old, new)\n"
        f"assert texts == [{f'{old} is now {new}; import it from there'!r}], texts\n"
        f"assert new.__spec__.name == {new!r}\n"
        f"parent, _, leaf = {old!r}.rpartition('.')\n"
        "exec(f'from {parent} import {leaf} as again')\n"
        "assert again is new\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)


def test_no_source_uses_an_old_path() -> None:
    """The project itself uses the new paths (only the alias table and this test name the old)."""
    pattern = re.compile("|".join(
        rf"(?<![\w.]){re.escape(old)}(?![\w])" for old in sorted(MOVED, key=len, reverse=True)))
    from_form = re.compile(r"from pathcheck(?:\.games|\.render)? import ([\w ,]+)")
    leaves = {old.rpartition(".")[2]: old for old in MOVED}
    found = []
    files = [*ROOT.glob("pathcheck/**/*.py"), *ROOT.glob("cli/**/*.py"),
             *ROOT.glob("tests/**/*.py"), *ROOT.glob("docs/**/*.md"), ROOT / "README.md"]
    for path in files:
        if path.name in ("_moved.py", "test_module_names.py"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = [m.group(0) for m in pattern.finditer(line)]
            for match in from_form.finditer(line):
                prefix = line[match.start():match.start(1)].split()[1]
                hits += [f"{prefix}.{n.split()[0]}" for n in match.group(1).split(",")
                         if n.strip() and f"{prefix}.{n.split()[0]}" in MOVED
                         and n.split()[0] in leaves]
            found += [f"{path.relative_to(ROOT)}:{number}: {hit}" for hit in hits]
    assert found == []


PACKAGES_THAT_WERE_MODULES = {  # package -> the module holding what the old module held
    "pathcheck.notation": "pathcheck.notation.core",
    "pathcheck.batch": "pathcheck.batch.records",
    "pathcheck.recorder": "pathcheck.recorder.recording",
}


@pytest.mark.parametrize("package", sorted(PACKAGES_THAT_WERE_MODULES))
def test_a_package_that_was_a_module_offers_all_its_public_names(package: str) -> None:
    """``from pathcheck.recorder import X`` works for every public X its module defines."""
    core = importlib.import_module(PACKAGES_THAT_WERE_MODULES[package])
    names = getattr(core, "__all__", None) or [
        name for name, value in vars(core).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == core.__name__]
    imported = importlib.import_module(package)
    assert [name for name in names if not hasattr(imported, name)] == []
