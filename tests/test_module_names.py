"""Public names keep importing from the module they were in before it was split (batch into
batch_items, batch_fast and parallel; records into record_values and dgn; bounded into
regular_files): code written against the old modules goes on working."""

from __future__ import annotations

import importlib

import pytest

BEFORE_THE_SPLIT = {  # every public name of each module at commit 44f1e60
    "batch": [
        "Block", "CHUNK", "FileEnd", "Item", "MEANT_FOR", "NO_RECORD", "Rendered", "Result",
        "RunSummary", "Settings", "Task", "WRONG_PRAGMA", "input_size", "iter_items",
        "misdirected", "parallel_map", "process_item", "process_task", "render_verdict", "run",
        "usable_cores"],
    "records": [
        "ALL_RULES", "DUNGEON_FORMAT", "DUNGEON_KEYS", "DungeonRecord", "NOT_RULED",
        "Overrides", "Record", "SOLO_FORMAT", "SOLO_KEYS", "SoloRecord", "dgn_blank",
        "dgn_lines", "dgn_text", "is_dgn", "iter_records", "iter_solo_records",
        "parse_dgn_bytes", "parse_dgn_line", "parse_dungeon_record", "parse_pragma",
        "parse_rules_option", "parse_solo_record", "pragma_line", "pragma_settings",
        "record_from_document"],
    "bounded": [
        "BLOCK_SIZE", "Element", "Guard", "HEAD", "JSON_SPACE", "MAX_DEPTH", "MAX_DIGITS",
        "MAX_NAME", "MAX_PLAYERS", "MAX_RECORD_BYTES", "MAX_TILESET_BYTES",
        "MAX_TILESET_TILES", "MAX_TOKENS", "Oversized", "Prefixed", "QUOTE", "Readable",
        "UnfitFile", "array_elements", "brief", "cut", "depth_message", "duplicate_keys",
        "duplicate_message", "guard", "gunzip", "line_blocks", "lines", "oversized_message",
        "read_regular", "too_deep"],
}


@pytest.mark.parametrize("module", sorted(BEFORE_THE_SPLIT))
def test_every_name_of_a_split_module_still_imports_from_it(module: str) -> None:
    imported = importlib.import_module(f"pathcheck.{module}")
    missing = [name for name in BEFORE_THE_SPLIT[module] if not hasattr(imported, name)]
    assert missing == []
    exported = getattr(imported, "__all__", None)  # what mypy --strict lets others import
    if exported is not None:
        assert [name for name in BEFORE_THE_SPLIT[module] if name not in exported] == []


def test_wrong_pragma_is_the_fast_paths() -> None:
    from pathcheck import batch, batch_fast

    assert batch.WRONG_PRAGMA is batch_fast.WRONG_PRAGMA
