"""What the page says before its script has run and when the server says how long to wait."""

from __future__ import annotations

import re

from tests.web.pages import Pages

SERVER_ARGS = ("--missed-codes-per-hour", "1")


def test_the_language_button_appears_with_the_page_s_language_and_a_refusal_says_when_to_try_again(
    pages: Pages,
) -> None:
    page = pages.open(locale="de-DE")
    page.goto(pages.base + "/", wait_until="commit")
    html = page.evaluate("fetch('/').then((r) => r.text())")
    assert re.search(r'<button id="btn-lang" class="[^"]*\bhidden\b', html)  # no "DE" on a German phone
    pages.lobby(page)
    assert page.locator("#btn-lang").is_visible() and page.inner_text("#btn-lang") == "EN"
    # A network out of misses (60 at once here): the refusal says the time the next lookup is allowed.
    said = page.evaluate(
        """async () => {
            for (let i = 0; i < 200; i++) {
                try { await api("/api/tables/ZZZZZ2"); } catch (err) {
                    if (err.code === "too_many_misses") return err.message;
                    if (err.status === 429) await new Promise((done) => setTimeout(done, 1100));
                }
            }
            return "";
        }"""
    )
    assert re.search(r"den nächsten bitte in \d+ s \(Ab \d\d:\d\d wieder möglich\.\)$", said), said
