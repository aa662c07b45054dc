"""The solo kernel against the kernel before issue #33: every seed of a range, and the speed.

    python tests/bench/solo_exact.py                     # 10^8 seeds, rules 2, 3, 4
    python tests/bench/solo_exact.py --count 1000000 --rules all
    python tests/bench/solo_exact.py --speed-only        # keys a second, pair by pair

The reference is built from the C sources of a git revision (``--revision``, default
d3c3549: the kernel of 1.66M answer keys a second, before the rewrite; 6ff6cc2 is the kernel
before the third pass, 9921305 before the fourth) with this Python's compiler flags into a
temporary folder, or taken from a built extension file (``--reference``), and loaded beside the
installed ``pathcheck._speedups``. Both play every seed of the range in chunks; the byte strings the
reference returns (histograms, per-deal keys, shapes, and from 6ff6cc2 on the key histogram)
must be the new kernel's, byte for byte, with both of its shuffles (the vector one where the
processor has it, and ``portable``) when ``--both-shuffles`` is given, and the new kernel's
key histogram must be the Counter of the keys. The speed part times both on the
same 2^20 seeds (rules 2, 3, 4) in turn, round after round, in CPU time of the calling thread,
and prints the medians, the median of the per-round ratios and /proc/loadavg around them.
Not a test: it takes minutes (10^8 seeds: about three on an idle core for the two kernels).
Exit 0 when every seed matched, 1 otherwise, 2 when the reference could not be built.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
REVISION = "d3c3549"
CHUNK = 1 << 20


def build_reference(revision: str, folder: Path) -> Path:
    """The extension of ``revision``'s C sources, built in ``folder``."""
    sources = ["pathcheck/speedups/_speedups.c"]
    listing = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", revision,
                              "pathcheck/speedups/c/"], check=True, capture_output=True,
                             text=True).stdout.split()
    sources += [name for name in listing if name.endswith(".c")]
    for name in sources:
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{name}"],
                              check=True, capture_output=True).stdout
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text)
    out = folder / f"_speedups{sysconfig.get_config_var('EXT_SUFFIX')}"
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    flags = (sysconfig.get_config_var("CFLAGS") or "").split()
    subprocess.run([*cc, *flags, "-O2", "-fPIC", "-shared",
                    f"-I{sysconfig.get_paths()['include']}",
                    str(folder / sources[0]), "-o", str(out)], check=True)
    return out


def load(path: Path) -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader("_speedups", str(path))
    spec = importlib.util.spec_from_loader("_speedups", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def tables_of(kernel: ModuleType) -> object:
    """The standard tables, made by ``kernel`` itself (its own capsule)."""
    from pathcheck import speedups
    from pathcheck.tracer.tileset import load_tileset

    saved = speedups._speedups
    speedups._speedups = kernel
    try:
        return speedups.make_tables(load_tileset())
    finally:
        speedups._speedups = saved


def compare(reference: ModuleType, start: int, count: int, rules: frozenset[int],
            both: bool, say: Callable[[str], None]) -> int:
    """Seeds start..start+count-1 under ``rules``; returns the number of differing chunks."""
    from pathcheck.solo.deal import _compiled
    from pathcheck.speedups import _speedups, _tables
    from pathcheck.tracer.constants import tracing_mask

    base, mask = bytes(_compiled()[1]), tracing_mask(rules)
    theirs, ours = tables_of(reference), _tables()
    shuffles = [False, True] if both else [False]
    bad = 0
    began = time.monotonic()
    for first in range(start, start + count, CHUNK):
        n = min(CHUNK, start + count - first)
        want = reference.solo_kernel(theirs, base, first, n, mask)
        for portable in shuffles:
            got = _speedups.solo_kernel(ours, base, first, n, mask, portable)
            table = array("q", got[6])  # key, deals, first, last
            counted = dict(zip(table[0::4], table[1::4], strict=True))
            # A reference of issue #33's second pass on returns the key histogram as well.
            if tuple(got[:len(want)]) != tuple(want) \
                    or counted != Counter(array("q", want[4])):
                bad += 1
                say(f"  DIFFERENT: seeds {first:,}-{first + n - 1:,} rules {sorted(rules)} "
                    f"({'portable' if portable else 'default'} shuffle)")
        done = first + n - start
        if done % (16 * CHUNK) == 0 or done == count:
            say(f"  rules {sorted(rules)}: {done:,} of {count:,} seeds compared, "
                f"{time.monotonic() - began:.0f} s")
    return bad


def speed(reference: ModuleType, rounds: int, say: Callable[[str], None]) -> None:
    from pathcheck.solo.deal import _compiled
    from pathcheck.speedups import _speedups, _tables
    from pathcheck.tracer.constants import tracing_mask

    base, mask = bytes(_compiled()[1]), tracing_mask(frozenset({2, 3, 4}))
    theirs, ours = tables_of(reference), _tables()

    def rate(run: Callable[[], object]) -> float:
        began = time.thread_time()
        run()
        return CHUNK / (time.thread_time() - began)

    load_before = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() \
        else "?"
    old: list[float] = []
    new: list[float] = []
    for _ in range(rounds):
        old.append(rate(lambda: reference.solo_kernel(theirs, base, 0, CHUNK, mask)))
        new.append(rate(lambda: _speedups.solo_kernel(ours, base, 0, CHUNK, mask)))
    load_after = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() \
        else "?"
    ratios = [b / a for a, b in zip(old, new, strict=True)]
    say(f"answer keys a second, rules 2,3,4, one core, {CHUNK:,} seeds, {rounds} rounds in "
        f"turn (CPU time of the thread): before {statistics.median(old) / 1e6:.2f}M, now "
        f"{statistics.median(new) / 1e6:.2f}M; now / before {statistics.median(ratios):.2f}x "
        f"(rounds {min(ratios):.2f}x-{max(ratios):.2f}x); vector shuffle "
        f"{'on' if _speedups.solo_simd() else 'off'}")
    say(f"/proc/loadavg before: {load_before}; after: {load_after}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10 ** 8)
    parser.add_argument("--rules", default="2,3,4",
                        help="a rule set (2,3,4; 'none' for none) or 'all' for all eight")
    parser.add_argument("--both-shuffles", action="store_true",
                        help="compare the portable shuffle as well as the default one")
    parser.add_argument("--revision", default=REVISION)
    parser.add_argument("--reference", type=Path, help="a built extension file instead")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--speed-only", action="store_true")
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        print(text, flush=True)

    with tempfile.TemporaryDirectory(prefix="pathcheck-reference-") as folder:
        try:
            path = args.reference or build_reference(args.revision, Path(folder))
        except (OSError, subprocess.CalledProcessError) as exc:
            say(f"the reference kernel could not be built: {exc}")
            return 2
        reference = load(path)
    say(f"reference: {args.reference or 'revision ' + args.revision}")
    speed(reference, args.rounds, say)
    if args.speed_only:
        return 0
    if args.rules == "all":
        from itertools import combinations

        rule_sets = [frozenset(c) for n in range(4) for c in combinations((2, 3, 4), n)]
    elif args.rules == "none":
        rule_sets = [frozenset()]
    else:
        rule_sets = [frozenset(int(r) for r in args.rules.split(","))]
    bad = 0
    for rules in rule_sets:
        bad += compare(reference, args.start, args.count, rules, args.both_shuffles, say)
    say(f"seeds {args.start:,}-{args.start + args.count - 1:,}, rule sets "
        f"{', '.join(str(sorted(r)) for r in rule_sets)}: "
        + ("every answer key, histogram and shape the same" if not bad
           else f"{bad} chunks DIFFERENT"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
