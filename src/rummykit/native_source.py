"""Whether a compiled extension was built from the C++ source beside it.

The build (``setup.py``) writes the SHA-256 of each extension's source into the extension
(``SOURCE_DIGEST``). In a checkout, where the source sits next to the compiled module, a module
built from other sources (the C++ was edited, or the branch changed, since the last ``make
native``) is not used: its answers could differ from the source's and from the pure-Python twin's,
and nothing else would say so. An installed wheel carries no source, and its module is used as
built.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import ModuleType


def source_digest(source: Path) -> str:
    """The SHA-256 of a source file, as the build writes it into the extension."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def stale_reason(module: ModuleType, source: Path) -> str | None:
    """Why ``module`` must not be used (built from other sources than ``source``), or ``None``."""
    if not source.is_file():
        return None  # an installed package: no source to compare with
    built = getattr(module, "SOURCE_DIGEST", "")
    if built == source_digest(source):
        return None
    return f"{module.__name__} was built from other sources than {source.name} (run make native)"
