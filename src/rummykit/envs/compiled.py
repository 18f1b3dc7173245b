"""The environments' compiled extension (``rummykit.envs._native``, C++ through pybind11), if any.

It is built by ``pip install`` where a C++17 compiler exists; it holds compiled twins of the
observation encoder (:class:`~rummykit.envs.observation.CompiledEncoder`) and of the trie of the
decisions whose candidates are all spelled as a verb or a verb and a card
(:func:`~rummykit.envs.encoding.composer`), with results identical to the Python code, which runs
where it was not built or when the environment variable ``RUMMYKIT_PURE`` is ``1`` (as for the
solver).
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Final

from rummykit.solver.backend import PURE_ENV


def _load() -> Any | None:
    if os.environ.get(PURE_ENV, "") == "1":
        return None
    try:
        return importlib.import_module("rummykit.envs._native")
    except ImportError:
        return None


NATIVE: Final = _load()
"""The compiled module, or ``None`` (not built, or ``RUMMYKIT_PURE=1``)."""


def describe() -> str:
    """One line: the active environment encoder and, for the pure twin, why."""
    if NATIVE is not None:
        return "environment encoder: native (compiled C++)"
    reason = f"{PURE_ENV}=1" if os.environ.get(PURE_ENV, "") == "1" else "rummykit.envs._native is not built"
    return f"environment encoder: python ({reason})"
