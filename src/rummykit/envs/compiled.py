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
import importlib.util
import os
from pathlib import Path
from typing import Any

from rummykit.native_source import stale_reason
from rummykit.solver.backend import PURE_ENV


def _load() -> tuple[Any | None, str]:
    """The compiled module, or ``None`` and why it is not used (as the solver's backend says it)."""
    if os.environ.get(PURE_ENV, "") == "1":
        return None, f"{PURE_ENV}=1"
    if importlib.util.find_spec("rummykit.envs._native") is None:
        return None, "rummykit.envs._native is not built"
    try:
        module = importlib.import_module("rummykit.envs._native")
    except ImportError as exc:  # built, but it does not load here (another ABI, a missing library)
        return None, f"rummykit.envs._native does not load ({exc})"
    stale = stale_reason(module, Path(__file__).with_name("_native.cpp"))
    return (module, "compiled") if stale is None else (None, stale)


NATIVE, NATIVE_STATUS = _load()
"""The compiled module, or ``None`` (not built, not loading, or ``RUMMYKIT_PURE=1``), and why."""


def describe() -> str:
    """One line: the active environment encoder and, for the pure twin, why."""
    if NATIVE is not None:
        return "environment encoder: native (compiled C++)"
    return f"environment encoder: python ({NATIVE_STATUS})"
