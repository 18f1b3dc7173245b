"""The backend seam: choosing the backend, saying which is active, and the pure-Python switch."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.solver import backend


def active_in_subprocess(**env: str) -> str:
    code = "from rummykit.solver import backend; print(backend.current.name)"
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_pure_switch() -> None:
    assert active_in_subprocess(RUMMYKIT_PURE="1") == "python"
    expected = "native" if backend.native is not None else "python"
    assert active_in_subprocess(RUMMYKIT_PURE="0") == expected


def test_info_names_the_backend() -> None:
    result = CliRunner().invoke(app, ["info"])
    assert result.exit_code == 0
    assert backend.describe() in result.output
    assert backend.current.name in result.output


def test_select_and_use() -> None:
    before = backend.current
    with backend.use("python") as chosen:
        assert backend.current is chosen is backend.python
    assert backend.current is before
    with pytest.raises(ValueError, match="not available"):
        backend.select("fortran")


def test_notice_only_when_missing() -> None:
    if backend.native is not None or backend.pure_requested:
        assert backend.notice() is None
    else:
        notice = backend.notice()
        assert notice is not None and "pure Python" in notice and "\n" not in notice
