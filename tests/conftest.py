"""Shared test settings: a CI profile (selected by CI=true) and a long fuzzing profile.

``python -m pytest tests/test_fuzz_differential.py --hypothesis-profile fuzz`` runs the
differential fuzz tests with 20,000 examples each (about an hour on one core); set
``HYPOTHESIS_FUZZ_EXAMPLES`` for another number.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "fuzz", deadline=None, max_examples=int(os.environ.get("HYPOTHESIS_FUZZ_EXAMPLES", 20_000)),
    suppress_health_check=list(HealthCheck),
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say clearly when the browser tests of the replay pages did not run."""
    from tests.browser.conftest import SKIPPED

    if SKIPPED:
        terminalreporter.write_line(
            f"BROWSER TESTS SKIPPED ({SKIPPED[0]}): the replay pages were not tested in a "
            "browser", yellow=True, bold=True)
