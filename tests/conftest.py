"""Settings for the whole test suite."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Front ends follow the locale (``rummykit play`` speaks German under ``LANG=de_DE``): tests run
    under a neutral locale, whatever the developer's is; a test that wants German says so."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh save folder for the terminal game, and a terminal of 80 × 24."""
    monkeypatch.setenv("RUMMYKIT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return tmp_path
