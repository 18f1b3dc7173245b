"""In Chromium under the server's Content Security Policy (the other browser tests bypass it, as
Playwright's ``wait_for_function`` evaluates strings in the page): the lobby, a table against bots,
a hint, a move and the rules dialog work, and the browser refuses nothing the page does."""

from __future__ import annotations

from typing import Any

from rummykit.web.headers import CONTENT_SECURITY_POLICY


def test_the_page_plays_under_its_content_security_policy(open_page: Any) -> None:
    page = open_page({"width": 1280, "height": 800}, "en-US", bypass_csp=False, timeout_ms=20000)
    response = page.goto(page.base + "/")
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    page.wait_for_selector("#preset option[value=german]", state="attached")
    page.evaluate(
        """async () => {
            const bots = [{ kind: "greedy" }];
            const spec = { name: "Anna", preset: "german", seats: 2, seed: 5, bots };
            const grant = await api("/api/tables", spec);
            saveGrant(grant);
            await openTable(grant.code);
        }"""
    )
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("body[data-my-turn='1']")
    page.click("#btn-hint")
    page.wait_for_selector("#hint .hint-text, #hint code", state="attached")
    page.click("#btn-rules")
    page.wait_for_selector("#rules-body h2, #rules-body h3, #rules-body p")
    assert page.inner_text("#rules-body").strip()
    page.click("#btn-rules-close")
    page.click("#stock")  # draw from the stock
    page.wait_for_selector("#hand .card >> nth=13")  # the 13 dealt and the card drawn
    assert not page.errors, page.errors
