from collections.abc import Callable
from typing import Any, overload

class JsonBuffer:
    """JSON written by the extension, read through the buffer protocol (``msgspec.Raw``
    keeps it without a copy; ``bytes()`` copies it)."""

    def __buffer__(self, flags: int, /) -> memoryview: ...
    def __bytes__(self) -> bytes: ...

def make_tables(
    index: dict[str, int],
    kinds: bytes,
    ghosts: bytes,
    adv_only: bytes,
    tile_json: list[bytes],
    exit_table: bytes,
    primary_move: bytes,
    is_repeat: bytes,
    reason_json: list[bytes],
    rule_json: list[bytes],
    reasons: tuple[str | None, ...],
    bound: int,
    ghost_limit: int,
    rule_bound: int,
    rule_ghost_five: int,
    rule_ghost_twice: int,
    rule_advanced_only: int,
) -> object: ...
def trace_records(
    tables: object,
    records: list[Any],
    start: int,
    first_line: int,
    prefix: bytes,
    rules_override: int,
    adv_override: int,
) -> tuple[bytes, int, tuple[int, ...]]: ...
def solo_kernel(
    tables: object,
    base: bytes,
    first_seed: int,
    count: int,
    rules_mask: int,
    portable: bool = False,
) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, bytes]: ...
def solo_simd() -> bool: ...
def solo_key_deals(
    keys: bytes, wanted: tuple[int, ...], most: int, begin: int
) -> list[list[int]]: ...
def solo_trace(
    tables: object, dungeons: tuple[tuple[object, ...], ...], rules: int
) -> tuple[int, tuple[tuple[int, int, int, str, str | None], ...]] | None: ...
def solo_moves(
    dungeons: tuple[tuple[Any, ...], ...],
    traced: tuple[tuple[Any, ...], ...],
    templates: tuple[bytes, bytes, bytes, bytes, bytes],
    reasons: tuple[bytes, ...],
    misplaced: int,
) -> tuple[bytes, int, int] | None: ...
def solo_word(
    traced: tuple[tuple[int, int, int, str, str | None], ...], kit: tuple[object, ...]
) -> list[object] | None: ...
def trace_dungeon(
    tables: object,
    tiles: tuple[int, ...],
    dirs: tuple[int, ...],
    start: int,
    stop: int,
    rules: int,
    initial_move: int,
) -> tuple[int, int, int] | None: ...
def set_layout(record_type: type, placement_type: type) -> None: ...
def scan_block(
    tables: object,
    block: bytes,
    offset: int,
    line: int,
    prefix: bytes,
    rules_override: int,
    adv_override: int,
) -> tuple[bytes, int, int, tuple[int, ...]]: ...
def scan_dgn(
    tables: object,
    block: bytes,
    offset: int,
    line: int,
    prefix: bytes,
    rules_override: int,
    adv_override: int,
    pragma: bytes,
) -> tuple[bytes, int, int, tuple[int, ...], int, int]: ...
def json_guard(data: bytes, limit: int) -> int: ...
def trace_stack(tables: object, placements: list[Any], rules: int) -> tuple[int, int] | None: ...
def dungeon_replay(
    tables: object,
    explorations: tuple[Any, ...],
    players: tuple[str, ...],
    in_play: bytes,
    start: int,
    size: int,
    mask: int,
    rule1: int,
    unset: object,
    tokens: tuple[str, ...],
    per_line: int,
) -> tuple[tuple[Any, ...], ...] | None: ...
def dungeon_word(
    traced: tuple[tuple[Any, ...], ...],
    players: tuple[str, ...],
    event: Any,
    round_: Any,
    said: dict[Any, dict[int, tuple[str, Any, Any]]],
    dungeons: dict[int, tuple[str, Any, Any]],
    word: Callable[[Any, int], tuple[str, Any, Any]],
    priority: Callable[[int, tuple[str, ...], tuple[Any, ...]], Any],
    game_end_fact: Any,
    win_points: int,
    dungeon_fact: Any,
    reasons: tuple[tuple[str, Any] | None, ...],
    tokens: tuple[str, ...],
) -> list[Any] | None: ...
def dungeon_word_json(
    traced: tuple[tuple[Any, ...], ...],
    players: tuple[str, ...],
    said: dict[Any, dict[int, bytes]],
    dungeons: dict[int, bytes],
    word: Callable[[Any, int], bytes],
    priority: Callable[[int, tuple[str, ...], tuple[Any, ...]], bytes],
    win_points: int,
    reasons: tuple[tuple[bytes, bytes] | None, ...],
    tokens: tuple[str, ...],
    /,
) -> tuple[JsonBuffer, tuple[int, ...]] | bool | None: ...
def dungeon_scores(
    traced: tuple[tuple[Any, ...], ...], players: int, win_points: int, /
) -> tuple[int, ...] | bool | None: ...
@overload
def dungeon_marks(
    traced: tuple[tuple[Any, ...], ...],
    explorations: tuple[Any, ...],
    players: tuple[str, ...],
    priority: int,
    misplaced_code: int,
    kit: tuple[Any, ...],
    holds: list[str],
    priority_why: tuple[str, ...],
    did_cache: dict[str, tuple[str, str, str, str]],
) -> tuple[list[Any], list[str], tuple[tuple[int, int, int, float, float], ...], list[Any]] | None:
    ...
@overload
def dungeon_marks(
    traced: tuple[tuple[Any, ...], ...],
    explorations: tuple[Any, ...],
    players: tuple[str, ...],
    priority: int,
    misplaced_code: int,
    kit: tuple[Any, ...],
    holds: list[str],
    priority_why: tuple[str, ...],
    did_cache: dict[str, tuple[str, str, str, str]],
    encoded: dict[Any, bytes],
) -> tuple[JsonBuffer, list[str], tuple[tuple[int, int, int, float, float], ...], list[Any]] | None:
    ...
@overload
def memoarrr_replay(
    log: Any, cards: dict[str, int]
) -> tuple[int, int, tuple[tuple[Any, ...], ...]] | None: ...
@overload
def memoarrr_replay(
    log: Any, cards: dict[str, int], texts: tuple[tuple[str, ...], tuple[str, ...]]
) -> tuple[int, int, tuple[tuple[Any, ...], ...], list[int | str | None]] | None: ...
@overload
def memoarrr_lenient(
    log: Any, cards: dict[str, int]
) -> tuple[int, int, tuple[tuple[Any, ...], ...], tuple[tuple[int, ...], ...],
           tuple[int, int, int, int] | None] | None: ...
@overload
def memoarrr_lenient(
    log: Any, cards: dict[str, int], texts: tuple[tuple[str, ...], tuple[str, ...]]
) -> tuple[int, int, tuple[tuple[Any, ...], ...], tuple[tuple[int, ...], ...],
           tuple[int, int, int, int] | None, list[int | str | None],
           list[tuple[int, int, int, int, int]]] | None: ...
def memoarrr_lenient_json(
    log: Any, cards: dict[str, int], kit: tuple[Any, ...]
) -> tuple[int, int, tuple[tuple[Any, ...], ...], tuple[tuple[int, ...], ...],
           tuple[int, int, int, int] | None,
           tuple[bytes, tuple[tuple[int, int, int, int, float, float], ...]] | None,
           list[tuple[int, int, int, int, int]]] | None: ...
def memo_dice_replay(
    rounds: tuple[Any, ...], players: tuple[str, ...], dice: tuple[Any, ...] | None,
    kit: tuple[Any, ...], target: int, word: bool, /
) -> list[Any] | tuple[int, ...] | None: ...
def memo_dice_json(
    rounds: tuple[Any, ...], players: tuple[str, ...], dice: tuple[Any, ...] | None,
    kit: tuple[Any, ...], target: int, /
) -> tuple[bytes, tuple[int, ...], str] | None: ...
def memo_dice_marks(
    rounds: tuple[Any, ...], players: tuple[str, ...], dice: tuple[Any, ...] | None,
    kit: tuple[Any, ...], target: int, /
) -> tuple[bytes, tuple[int, ...], tuple[tuple[int, int, float, float], ...]] | None: ...
def memo_dice_lenient(
    rounds: tuple[Any, ...], players: tuple[str, ...], dice: tuple[Any, ...] | None,
    kit: tuple[Any, ...], target: int, word: Callable[..., bytes], /
) -> tuple[bytes, tuple[int, ...], str, tuple[int, ...], int, int] | None: ...
def robot_replay(
    entry: Any,
    unset: Any,
    said: list[Any],
    word: Callable[[int], Any],
    kit: tuple[Any, ...],
    analysis: tuple[Any, list[Any], Callable[[int], Any]] | None,
) -> tuple[Any, Any] | None: ...
def robot_replay_json(
    entry: Any,
    unset: Any,
    said: list[Any],
    word: Callable[[int], Any],
    said_json: list[Any],
    word_json: Callable[[int], Any],
    kit: tuple[Any, ...],
    /,
) -> tuple[bytes, str, tuple[int, ...]] | bool | None: ...
def robot_marks_json(
    entry: Any,
    unset: Any,
    said: list[Any],
    word: Callable[[int], Any],
    judged: list[Any],
    judge: Callable[[int], Any],
    /,
) -> (
    tuple[bytes, tuple[int, ...], tuple[tuple[int, int, int, int, float, float], ...]]
    | bool
    | None
): ...
def memoarrr_word(
    rounds: tuple[tuple[Any, ...], ...], players: tuple[str, ...], kit: tuple[Any, ...]
) -> list[Any]: ...
def memoarrr_word_json(
    rounds: tuple[tuple[Any, ...], ...], players: tuple[str, ...], kit: tuple[Any, ...]
) -> bytes | None: ...
def memoarrr_marks(
    judged: list[Any], players: tuple[str, ...], rule: Any, kit: tuple[Any, ...]
) -> tuple[list[Any], tuple[tuple[int, int, int, int, float, float], ...]]: ...
def script_json(data: bytes) -> bytes: ...
def dungeon_pictures(
    lines: dict[str, int],
    pictures: dict[tuple[int, ...], int],
    drawn: dict[int, tuple[Any, int]],
    make: Callable[[tuple[str, ...]], Any],
    head: tuple[str, ...],
    fixed: tuple[str, ...],
    tiles: tuple[tuple[int, int, str, str, str, str, str], ...],
    passes: tuple[Any, ...],
    taken: list[str | None],
    taken_make: Callable[[int], str],
    shift_y: float,
    start: str,
    steps: tuple[tuple[int, int, str, str | None, tuple[str, ...]], ...],
) -> list[Any]: ...
def lean_add(
    moments: Any,
    state: tuple[Any, ...],
    base: str,
    caption: str,
    event: Any,
    picture: Any,
    notes: Any,
    scores: Any,
    kinds: dict[Any, str],
    rule_html: dict[Any, str],
) -> bool: ...
def game_moments(
    moments: Any,
    state: tuple[Any, ...],
    kinds: dict[Any, str],
    rule_html: dict[Any, str],
    add: Callable[[str, str, Any, Any, list[Any], Any], None],
    make_notes: Callable[[Any, int, int], list[Any]],
    make: Callable[[type], Any],
    event_type: type,
    note_type: type,
    info: Any,
    number: int,
    start: str,
    turns: tuple[tuple[str, tuple[str, ...]], ...],
    tiles: tuple[str, ...],
    hands: list[str],
    drawn: list[tuple[Any, Any]],
    whole: int,
    never_lost: bool,
    scores: Any,
) -> None: ...
