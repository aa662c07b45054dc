"""Build step for the optional C speed-up (everything else is in pyproject.toml).

pathcheck._speedups traces batches of records in C; when it cannot be compiled (no C
compiler), the install still succeeds and pathcheck uses its pure-Python fast tracer.
"""

import sys
from pathlib import Path

from setuptools import Extension, setup

# GCC/Clang flags; the extension compiles warning-free under them (.ci/sanitize adds -Werror).
FLAGS = [] if sys.platform == "win32" else ["-O2", "-Wall", "-Wextra"]

setup(
    ext_modules=[
        Extension(
            "pathcheck._speedups",
            ["pathcheck/speedups/_speedups.c"],
            # One translation unit: _speedups.c includes these parts (rebuild when they change).
            depends=sorted(str(p) for p in Path("pathcheck/speedups/c").glob("*.c")),
            optional=True,
            extra_compile_args=FLAGS,
        )
    ]
)
