"""Shared test settings: hypothesis profiles, and the closing line when browser tests skipped.

Profiles (``--hypothesis-profile NAME``): ``ci`` (selected by CI=true) and ``dev`` run the
example counts written in the tests. The differential fuzz tests (marker ``fuzz``, counts
from :func:`tests.fuzz.examples`) grow with two more: ``long``, 2,000 examples a test, which
CI runs as its second step (``python3 -m pytest -m fuzz --hypothesis-profile long``, about
three minutes on two busy cores), and ``fuzz``, 20,000 (about an hour on one core;
``python -m pytest tests/test_fuzz_differential.py --hypothesis-profile fuzz``; set
``HYPOTHESIS_FUZZ_EXAMPLES`` for another number).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.register_profile("long", deadline=None, max_examples=2_000,
                          suppress_health_check=list(HealthCheck))
settings.register_profile(
    "fuzz", deadline=None, max_examples=int(os.environ.get("HYPOTHESIS_FUZZ_EXAMPLES", 20_000)),
    suppress_health_check=list(HealthCheck),
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

BROWSER_SKIP = "browser tests skipped: "
"""How tests/browser/conftest.py words the skip of a browser test (its reason follows)."""


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say clearly when the browser tests of the replay pages did not run. Read from the skip
    reports, which reach this process from every worker (pytest-xdist runs the tests in
    others)."""
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        message = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        if BROWSER_SKIP in message:
            reason = message.split(BROWSER_SKIP, 1)[1]
            terminalreporter.write_line(
                f"BROWSER TESTS SKIPPED ({reason}): the replay pages were not tested in a "
                "browser", yellow=True, bold=True)
            return
