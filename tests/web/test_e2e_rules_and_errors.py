"""In Chromium, at a desktop and a phone viewport: the rules pages and errors that stay visible.

The English page runs at 1280×800 and the German one at 390×844. The lobby shows each preset by
the name players use and its rules page; every table has a "Rules"/"Regeln" button showing that
table's own rules (a house rule appears on its page). Errors in the lobby (an unknown code, a bad
rule change) and at the table appear where the user is looking, stay until dismissed, corrected or
followed by the next action, and never break the page.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.explain import preset_line

VIEWPORTS = {
    "desktop": ({"width": 1280, "height": 800}, "en-US", "en"),
    "phone": ({"width": 390, "height": 844}, "de-DE", "de"),
}
LABELS = {
    "en": {"rules": "Rules", "read": "Read the rules", "points": "30 points"},
    "de": {"rules": "Regeln", "read": "Regeln lesen", "points": "30 Punkte"},
}
NO_TABLE = {"en": "There is no table {}.", "de": "Es gibt keinen Tisch {}."}
STAYS = 4.0
"""Seconds an error must stay (errors used to vanish, and the page to throw, after 3.5 s)."""


@pytest.fixture(params=list(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, module_server: Any) -> Iterator[Any]:
    viewport, locale, lang = VIEWPORTS[request.param]
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.name, page.lang, page.base = request.param, lang, module_server.url
    yield page
    context.close()
    assert not page.errors, page.errors


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("RUMMYKIT_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is shown and wholly inside the viewport (where the user looks)."""
    return bool(
        page.eval_on_selector(
            selector,
            "e => { const r = e.getBoundingClientRect(); return !e.closest('.hidden') && r.height > 0"
            " && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }",
        )
    )


def test_lobby_errors_stay_visible_until_dismissed_or_corrected(page: Any, shots: Path) -> None:
    join_error, create_error = page.locator("#join-error"), page.locator("#create-error")
    page.goto(page.base + "/?table=NOPE42")  # a shared link to a table that does not exist
    join_error.wait_for(state="visible")
    assert join_error.inner_text().startswith(NO_TABLE[page.lang].format("NOPE42"))
    assert in_view(page, "#join-error")
    assert page.locator("#lobby:not(.hidden)").count() == 1 and "table=" not in page.url
    page.fill("#join-form input[name=code]", "ZZ99")  # correcting the input clears the error
    assert join_error.is_hidden()
    page.click("#join-form button[type=submit]")
    join_error.wait_for(state="visible")
    assert join_error.inner_text().startswith(NO_TABLE[page.lang].format("ZZ99"))
    assert in_view(page, "#join-error")
    page.click("#advanced summary")  # the raw option box is behind a disclosure
    page.fill("#create-form textarea[name=overrides]", "opening_min_points=abc")
    page.click("#btn-create")
    create_error.wait_for(state="visible")
    assert "opening_min_points" in create_error.inner_text() and in_view(page, "#create-error")
    page.wait_for_timeout(STAYS * 1000)
    assert join_error.is_visible() and create_error.is_visible()
    assert page.locator("#lobby:not(.hidden)").count() == 1 and not page.errors
    page.screenshot(path=str(shots / f"lobby-error-{page.name}.png"))
    page.click("#create-error .error-close")
    assert create_error.is_hidden() and join_error.is_visible()
    page.click("#join-error .error-close")
    assert join_error.is_hidden()


def test_rules_from_the_lobby_and_at_the_table(page: Any, shots: Path, web: Any) -> None:
    lang, labels = page.lang, LABELS[page.lang]
    dialog, body = page.locator("#rules-dialog"), page.locator("#rules-body")
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=viennese]", state="attached")
    german_name, german_line = preset_line("german", lang)
    assert page.inner_text("#preset option[value=german]") == german_name
    assert page.inner_text("#preset-line") == german_line
    page.select_option("#preset", "viennese")
    assert page.inner_text("#preset-line") == preset_line("viennese", lang)[1]
    assert page.inner_text("#btn-preset-rules") == labels["read"]
    page.click("#btn-preset-rules")
    dialog.wait_for(state="visible")
    assert preset_line("viennese", lang)[0] in page.inner_text("#rules-body h1")
    page.click("#btn-rules-close")
    assert dialog.is_hidden()

    page.select_option("#preset", "german")
    page.fill("#create-form input[name=seats]", "2")
    page.fill("#create-form input[name=bots]", "1")
    page.click("#advanced summary")  # the raw option box is behind a disclosure
    page.fill("#create-form textarea[name=overrides]", "opening_min_points=30")
    page.click("#btn-create")
    page.wait_for_selector("#game:not(.hidden)")
    web.first_turn(page)
    version = page.evaluate("S.state.version")
    page.locator("#hand .card").first.drag_to(page.locator("#discard"))  # discarding before drawing
    table_error = page.locator("#game-error")
    table_error.wait_for(state="visible")
    shown_at = time.monotonic()
    assert table_error.inner_text().strip() and in_view(page, "#game-error")
    assert page.evaluate("S.state.version") == version

    assert page.inner_text("#btn-rules") == labels["rules"]
    page.click("#btn-rules")
    dialog.wait_for(state="visible")
    code = page.evaluate("S.code")
    assert page.inner_text("#rules-heading") == f"{labels['rules']} · {code}"
    assert labels["points"] in body.inner_text()
    assert body.locator("script, [onclick], [onerror]").count() == 0
    page.screenshot(path=str(shots / f"rules-{page.name}.png"))
    page.keyboard.press("Escape")
    assert dialog.is_hidden()

    page.wait_for_timeout(max(0.0, STAYS - (time.monotonic() - shown_at)) * 1000)
    assert table_error.is_visible()  # still there, until the next action
    page.click("#stock")
    assert table_error.is_hidden()
    page.wait_for_function("v => S.state.version > v", arg=version)
