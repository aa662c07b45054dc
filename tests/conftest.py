"""Shared test settings: a CI profile with more examples (selected by CI=true)."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say clearly when the browser tests of the replay pages did not run."""
    from tests.browser.conftest import SKIPPED

    if SKIPPED:
        terminalreporter.write_line(
            f"BROWSER TESTS SKIPPED ({SKIPPED[0]}): the replay pages were not tested in a "
            "browser", yellow=True, bold=True)
