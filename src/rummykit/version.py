"""The version of rummykit (what ``pyproject.toml`` declares), importable without the package's
``__init__``: records and self-play runs name the version that wrote them."""

from typing import Final

__version__: Final = "0.1.0"
