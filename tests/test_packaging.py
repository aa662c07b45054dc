"""The installed package holds every module of the tree: each folder with an ``__init__.py``
below pathcheck/, cli/ and tiles/ is a package pyproject.toml lists (an editable install,
which the tests run on, would not notice a missing one; a regular install would lack it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_installed() -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    folders = {name: ROOT / folder for name, folder in setup["package-dir"].items()}
    found = set()
    for name, folder in folders.items():
        for init in folder.rglob("__init__.py"):
            parts = init.parent.relative_to(folder).parts
            if "__pycache__" not in parts:
                found.add(".".join((name, *parts)))
    assert found - set(setup["packages"]) == set()
    assert set(setup["packages"]) - found == set()
