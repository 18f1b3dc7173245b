"""Where rummykit keeps the user's files: one data folder for saved games and the web database.

The folder is ``$RUMMYKIT_DATA_DIR`` when that is set, else the platform's user data folder as
:mod:`platformdirs` names it (``~/.local/share/rummykit`` or ``$XDG_DATA_HOME/rummykit`` on Linux,
``~/Library/Application Support/rummykit`` on macOS, the roaming ``%APPDATA%\\rummykit`` on
Windows). Saved games go to its ``games`` folder unless ``--save-dir`` names another.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import platformdirs

DATA_DIR_ENV: Final = "RUMMYKIT_DATA_DIR"


def data_dir() -> Path:
    """The user data directory: ``$RUMMYKIT_DATA_DIR``, else the platform's user data folder."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("rummykit", appauthor=False, roaming=True))


def games_dir(save_dir: Path | None = None) -> Path:
    """The folder of saved games: ``save_dir`` when given (``--save-dir``), else ``data_dir()/games``."""
    return save_dir if save_dir is not None else data_dir() / "games"
