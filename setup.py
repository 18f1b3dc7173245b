"""Build of the optional compiled solver (C++17 through pybind11); everything else is in pyproject.toml.

The extension is optional: where no C++ compiler exists the build skips it with a warning and
rummykit runs its pure-Python solver twin. ``RUMMYKIT_NATIVE_CFLAGS`` adds compiler flags (the
``make asan`` target builds with AddressSanitizer and UndefinedBehaviorSanitizer this way).
"""

import os
import shlex

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

extra = shlex.split(os.environ.get("RUMMYKIT_NATIVE_CFLAGS", ""))
native = Pybind11Extension(
    "rummykit.solver._native",
    ["src/rummykit/solver/_native.cpp"],
    cxx_std=17,
    extra_compile_args=["-O2", *extra],
    extra_link_args=extra,
    optional=True,
)

setup(ext_modules=[native], cmdclass={"build_ext": build_ext})
