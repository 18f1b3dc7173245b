"""``docs/bots.md``, the bot author's page: its Python runs as written, in order, and says what it
prints; the README links it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummykit.bots import _FACTORIES

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "bots.md"
PRINTED = re.compile(
    r"^(scala40|Rommé ohne Auslegen|basic): (keeper|greedy) wins [01]\.\d\d \([01]\.\d\d-[01]\.\d\d\)$"
)


def test_every_python_block_of_the_bot_page_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The blocks share one namespace (the bot of the first is tested and played by the later ones);
    the arena block prints a win rate and its interval for each bot in each of the three games."""
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 4
    namespace = {"__name__": "bots_page"}
    try:
        for block in blocks:
            exec(compile(block, str(PAGE), "exec"), namespace)
    finally:
        _FACTORIES.pop("keeper", None)
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 6 and all(PRINTED.match(line) for line in printed), printed


def test_the_readme_links_the_bot_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/bots.md)" in readme
