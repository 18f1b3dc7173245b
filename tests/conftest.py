"""Settings for the whole test suite."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Front ends follow the locale (``rummykit play`` speaks German under ``LANG=de_DE``): tests run
    under a neutral locale, whatever the developer's is; a test that wants German says so."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
