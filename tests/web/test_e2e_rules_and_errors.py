"""In Chromium, at a desktop and a phone viewport: the rules pages and errors that stay visible.

The English page runs at 1280×800 and the German one at 390×844. The lobby shows each preset by
the name players use and its rules page; every table has a "Rules"/"Regeln" button showing that
table's own rules (a house rule appears on its page). Errors in the lobby (an unknown code, a bad
rule change) and at the table appear where the user is looking, stay until dismissed, corrected or
followed by the next action, and never break the page. A move the rules refuse can still be asked
for with the mouse or a key (a greyed but "explainable" control): the server's refusal says why.
"""

from __future__ import annotations

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
SERVER_ARGS = ("--max-tables-per-address", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""
NO_TABLE = {"en": "There is no table {}.", "de": "Es gibt keinen Tisch {}."}
REFUSED = {
    "en": {
        "take": "take: 4♣ must be laid this turn (taken discard must be melded)",
        "taken": "you may not discard the card you took from the discard pile",
        "knock": "cannot knock with 45 points of deadwood: the deadwood must be < 10",
        "rummy": "cannot call Rummy: 45 points of your cards fit in no meld",
    },
    "de": {
        "take": "Kreuz-4 müsste in diesem Zug ausgelegt werden",
        "taken": "Die gerade von der Ablage genommene Karte darfst du nicht abwerfen",
        "knock": "Klopfen mit 45 Restpunkten geht nicht",
        "rummy": "Rummy geht nicht: 45 Punkte deiner Karten passen in keine Figur",
    },
}
"""The refusals of the seeded hands below (seed 1: the person moves first), in each language."""
STAYS = 4.0
"""Seconds an error must stay (errors used to vanish, and the page to throw, after 3.5 s)."""


@pytest.fixture(params=list(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, module_server: Any) -> Iterator[Any]:
    viewport, locale, lang = VIEWPORTS[request.param]
    context = browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.name, page.lang, page.base = request.param, lang, module_server.url
    yield page
    context.close()
    assert not page.errors, page.errors


IN_VIEW = (
    "e => { const r = e.getBoundingClientRect(); return !e.closest('.hidden') && r.height > 0"
    " && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"
)


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is shown and wholly inside the viewport (where the user looks)."""
    return bool(page.eval_on_selector(selector, IN_VIEW))


def wait_in_view(page: Any, selector: str) -> None:
    """Wait (at most 2 s, else fail) until the element is in view once the page has drawn what it was
    loading."""
    page.wait_for_function(f"s => ({IN_VIEW})(document.querySelector(s))", arg=selector, timeout=2000)


def test_lobby_errors_stay_visible_until_dismissed_or_corrected(page: Any, shots: Path) -> None:
    join_error, create_error = page.locator("#join-error"), page.locator("#create-error")
    page.goto(page.base + "/?table=NOPE42")  # a shared link to a table that does not exist
    join_error.wait_for(state="visible")
    assert join_error.inner_text().startswith(NO_TABLE[page.lang].format("NOPE42"))
    wait_in_view(page, "#join-error")  # the lobby may still be filling in above it
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


def test_a_table_this_version_cannot_play_says_why_in_the_lobby(page: Any) -> None:
    """The websocket of a stored table this server cannot play sends an ``error`` ``table_unreadable``
    (naming the rule change) and closes with 4409: the page goes to the lobby and shows that text in
    its language; it said "There is no table", though the table is stored."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=gin]", state="attached")
    texts = {"en": "table QQQQQQ was stored by another rummykit version", "de": "Tisch QQQQQQ wurde von"}
    page.evaluate(
        """(texts) => {
            S.code = "QQQQQQ";
            onMessage({ type: "error", code: "table_unreadable", message: texts.en, texts });
            tableUnreadable(S.code);
        }""",
        texts,
    )
    join_error = page.locator("#join-error")
    join_error.wait_for(state="visible")
    assert join_error.inner_text().startswith(texts[page.lang])
    assert page.locator("#lobby:not(.hidden)").count() == 1 and page.evaluate("S.code") is None


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


def seeded_table(page: Any, preset: str, seed: int) -> None:
    """Sit down at a seeded table of ``preset`` against one bot (the deal follows from the seed)."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=german]", state="attached")
    page.evaluate(
        """async ([preset, seed]) => {
            const bots = [{ kind: "random" }];
            const grant = await api("/api/tables", { name: "Anna", preset, seats: 2, seed, bots });
            saveGrant(grant);
            await openTable(grant.code);
        }""",
        [preset, seed],
    )
    page.wait_for_selector("#game:not(.hidden)")


def refusal(page: Any) -> str:
    """The refusal the table shows (the error box comes back for each refused move)."""
    page.locator("#game-error").wait_for(state="visible")
    return str(page.inner_text("#game-error .error-text"))


def refused_move(page: Any, send: Any) -> str:
    """Clear the error box, ``send()`` a refused move, and return the server's refusal."""
    page.evaluate("clearError($('#game-error'))")
    version = page.evaluate("S.state.version")
    send()
    text = refusal(page)
    assert page.evaluate("S.state.version") == version  # nothing was played
    return text


def test_refused_moves_are_explained_from_the_greyed_controls(page: Any) -> None:
    """Scala 40 before opening: the discard pile cannot be taken (the card must open at once). It looks
    unavailable, but tapping it, or T, shows why. Rommé ohne Auslegen: the card just taken cannot be
    discarded, and 45 deadwood allows no knock nor Rummy: the greyed Discard, Knock and Rummy buttons
    (aria-disabled, not disabled) and their keys send the move, and the refusal says why. Buttons
    that cannot mean anything now (no card selected, the draw phase) stay disabled."""
    texts = REFUSED[page.lang]
    seeded_table(page, "scala40", seed=1)
    page.wait_for_function("S.state.legal.includes('draw')")
    assert page.get_attribute("#discard", "aria-disabled") == "true"
    # (Playwright waits for an aria-disabled control to become enabled: force clicks as a person can.)
    assert texts["take"] in refused_move(page, lambda: page.click("#discard", force=True))
    assert texts["take"] in refused_move(page, lambda: page.keyboard.press("t"))
    page.locator("#hand .card").first.click()  # a card selected in the draw phase: no discard yet
    assert page.is_disabled("#btn-discard") and page.get_attribute("#btn-discard", "aria-disabled") is None

    seeded_table(page, "romme_ohne_auslegen", seed=1)
    page.wait_for_function("S.state.legal.includes('take')")
    assert page.get_attribute("#discard", "aria-disabled") is None
    page.click("#discard")  # takes the 4 of clubs
    page.wait_for_function("S.state.view.phase === 'discard' && S.state.view.taken_discard === '4C'")
    assert page.is_disabled("#btn-discard")  # nothing selected
    page.locator("#hand .card[data-card='4C']").click()
    discard = page.locator("#btn-discard")
    assert discard.get_attribute("aria-disabled") == "true" and discard.evaluate("b => !b.disabled")
    assert texts["taken"] in refused_move(page, lambda: discard.click(force=True))
    page.evaluate("clearComposition()")
    page.locator("#hand .card[data-card='3C']").click()
    assert page.get_attribute("#btn-discard", "aria-disabled") is None and page.is_enabled("#btn-discard")
    knock = page.locator("#btn-knock")
    assert knock.get_attribute("aria-disabled") == "true" and knock.evaluate("b => !b.disabled")
    assert texts["knock"] in refused_move(page, lambda: knock.click(force=True))
    assert page.get_attribute("#btn-rummy", "aria-disabled") == "true"
    assert texts["rummy"] in refused_move(page, lambda: page.keyboard.press("r"))
