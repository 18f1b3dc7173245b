"""Build of the optional compiled solver and environment encoder (C++17 through pybind11); everything
else is in pyproject.toml.

The extensions are optional: where no C++ compiler exists the build skips them with a warning and
rummykit runs their pure-Python twins. ``RUMMYKIT_NATIVE_CFLAGS`` adds compiler flags (the
``make asan`` target builds with AddressSanitizer and UndefinedBehaviorSanitizer this way).
"""

import hashlib
import os
import shlex
from pathlib import Path

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

extra = shlex.split(os.environ.get("RUMMYKIT_NATIVE_CFLAGS", ""))


def extension(name: str, source: str) -> Pybind11Extension:
    """An optional C++17 extension module (skipped with a warning where nothing compiles it), which
    names the SHA-256 of its source (``SOURCE_DIGEST``: rummykit.native_source)."""
    digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
    return Pybind11Extension(
        name,
        [source],
        cxx_std=17,
        extra_compile_args=["-O2", *extra],
        extra_link_args=extra,
        define_macros=[("RUMMYKIT_SOURCE_DIGEST", f'"{digest}"')],
        optional=True,
    )


setup(
    ext_modules=[
        extension("rummykit.solver._native", "src/rummykit/solver/_native.cpp"),
        extension("rummykit.envs._native", "src/rummykit/envs/_native.cpp"),
    ],
    cmdclass={"build_ext": build_ext},
)
