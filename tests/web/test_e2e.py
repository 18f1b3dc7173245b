"""End to end: Debian's Chromium, driven by Playwright, plays a German hand against a bot.

The page is used as a person would: create a table in the German interface, draw from the stock,
compose melds by clicking cards (the running opening total must reach the minimum), lay them, and
discard by selecting a card. The hand is played to its end; the match-end screen is photographed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

POINTS = {"A": 11, "J": 10, "Q": 10, "K": 10, "10": 10}


def card_points(face: str) -> int:
    return 30 if face == "JK" else POINTS.get(face[:-1], 0) or int(face[:-1])


def click_card(page: Any, face: str) -> None:
    """Select the first not yet selected copy of ``face`` in the hand."""
    page.locator(f"#hand .card[data-card='{face}']:not(.selected)").first.click()


def compose(page: Any, action: str) -> None:
    """Lay the melds of an offered ``open``/``meld`` move by clicking cards and grouping them."""
    verb, _, body = action.partition(" ")
    for meld in body.split(" | "):
        for face in meld.split():
            click_card(page, face)
        page.click("#btn-group")
    page.wait_for_function(
        "n => document.querySelectorAll('#groups .group.ok').length === n", arg=len(body.split(" | "))
    )
    if verb == "open":
        total = int(page.inner_text("#opening-sum"))
        minimum = int(page.inner_text("#opening-total").split("/")[-1])
        assert total >= minimum, page.inner_text("#opening-total")
    page.click("#btn-play")


def test_play_a_german_hand_in_chromium(tmp_path: Path, server_factory: Any, web: Any) -> None:
    chromium = web.chromium_path()
    server = server_factory(f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay=0.05)
    shots = Path(os.environ.get("RUMMYKIT_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=web.CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860}, locale="de-DE", bypass_csp=True)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        assert page.inner_text("#btn-create") == "Tisch eröffnen"  # German labels from the browser locale
        page.wait_for_selector("#preset option[value=german]", state="attached")
        page.fill("#create-form input[name=name]", "Anna")
        page.fill("#create-form input[name=seats]", "2")
        page.fill("#create-form input[name=bots]", "1")
        page.click("#advanced summary")  # the raw option box is behind a disclosure
        page.fill("#create-form textarea[name=overrides]", "match_end=single_hand")
        page.click("#btn-create")
        page.wait_for_selector("#game:not(.hidden)")
        composed = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            turn_or_end = "document.body.dataset.myTurn === '1' || !!document.querySelector('#match-over')"
            page.wait_for_function(turn_or_end, timeout=30000)
            if page.locator("#match-over").count():
                break
            version = page.evaluate("S.state.version")
            # The page asks for the compound moves (open, meld, layoff) when the state says there
            # are some to compose; wait until they are there.
            page.wait_for_function(
                "!(S.state.compose || []).length || (S.moves && S.moves.version === S.state.version)"
            )
            legal: list[str] = page.evaluate("legal()")
            assert "Du bist dran" in page.inner_text("#status")
            if "draw" in legal:
                page.click("#stock")
            elif melds := [a for a in legal if a.startswith(("open ", "meld "))]:
                compose(page, melds[0])
                composed += 1
            elif layoffs := [a for a in legal if a.startswith("layoff ")]:
                page.click(f"#moves .move-chip[data-action='{layoffs[0]}']")
            else:
                faces = [a.split()[1] for a in legal if a.startswith("discard ")]
                click_card(page, max(faces, key=card_points))
                page.click("#btn-discard")
                if page.locator("#joker-dialog:not(.hidden)").count():  # a joker: the page asks first
                    page.click("#btn-joker-discard")
            page.wait_for_function("v => S.state.version > v", arg=version, timeout=10000)
        else:
            pytest.fail("the hand did not end in time")
        assert page.locator("#overlay:not(.hidden) #match-over").count() == 1
        assert "Partie beendet" in page.inner_text("#overlay")
        page.screenshot(path=str(shots / "e2e-match-over.png"))
        page.click("#btn-overlay")  # "Neuer Tisch" leads back to the lobby
        page.wait_for_selector("#lobby:not(.hidden)")
        browser.close()
    assert not errors, errors
    print(f"screenshot: {shots / 'e2e-match-over.png'} (melds composed in the page: {composed})")
