"""The rules pages are written for every option value the engine accepts: each value the option
witnesses list (``rummykit.option_witnesses``) on its preset, in both languages, and the set sizes
up to eight. A page that builds an example meld the options refuse (a set of three under
``set_size_min = 4``) stopped ``rules --explain``, the terminal's ``rules`` command and the web
table's rules page."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.cli import app
from rummykit.explain import explain
from rummykit.option_witnesses import WITNESSES

VARIANTS = [(preset, key) for preset, entries in WITNESSES.items() for key in entries]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_witnessed_option_value_has_its_rules_page(lang: str) -> None:
    failed = []
    for preset, key in VARIANTS:
        try:
            explain(rk.Rules.parse(f"{preset}({key})"), lang)
        except rk.RummyError as exc:
            failed.append(f"{preset}({key}): {exc}")
    assert len(VARIANTS) > 500 and not failed, failed


@pytest.mark.parametrize("size", range(3, 9))
def test_the_opening_example_set_is_as_large_as_the_smallest_set(size: int) -> None:
    rules = rk.Rules.parse(f"german(set_size_max=8, set_distinct_suits=false, set_size_min={size})")
    page = explain(rules, "en")
    assert "4♠ 4♦ 4♣" in page
    assert explain(rules, "de")


def test_rules_explain_on_the_command_line_with_sets_of_four() -> None:
    result = CliRunner().invoke(app, ["rules", "german", "--set", "set_size_min=4", "--explain"])
    assert result.exit_code == 0, result.output
    assert "4♠ 4♦ 4♣ 4♥" in result.output
