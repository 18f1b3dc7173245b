"""Browser pages of the browser tests (the ``pages`` fixture of ``conftest.py``)."""

from __future__ import annotations

from typing import Any

PAGE_DESKTOP = {"width": 1280, "height": 800}


class Pages:
    """Browser contexts of one test; page errors fail the test."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser, self.base = browser, base
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, viewport: dict[str, int] = PAGE_DESKTOP, locale: str = "en-US", **options: Any) -> Any:
        options = {"bypass_csp": True, **options}  # wait_for_function evaluates strings in the page
        context = self.browser.new_context(viewport=viewport, locale=locale, **options)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.set_default_timeout(20000)
        return page

    def lobby(self, page: Any) -> None:
        """Open the lobby on ``page`` and wait for its list of games."""
        open_lobby(page, self.base)


def open_lobby(page: Any, base: str) -> None:
    """Open the lobby of the server at ``base`` on ``page`` and wait for its list of games."""
    page.goto(base + "/")
    page.wait_for_selector("#preset option[value=german]", state="attached")


def seeded_table(
    page: Any, base: str, preset: str, seed: int, *, seats: int = 2, bot: str = "random", name: str = "Anna"
) -> None:
    """Sit down as ``name`` at a seeded table of ``preset`` (bots in every other seat) made through the
    page's API call: the deal, and so the dealer and the first hand, follow from the seed."""
    open_lobby(page, base)
    page.evaluate(
        """async ([preset, seed, seats, kind, name]) => {
            const bots = Array.from({ length: seats - 1 }, () => ({ kind }));
            const grant = await api("/api/tables", { name, preset, seats, seed, bots });
            saveGrant(grant);
            await openTable(grant.code);
        }""",
        [preset, seed, seats, bot, name],
    )
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state && S.state.view !== null")


def waiting_table(page: Any, base: str, preset: str = "german", seats: int = 3, name: str = "Anna") -> str:
    """Make a table of ``preset`` with ``seats`` open seats from the lobby on ``page`` and wait in its
    waiting room as its host (``name``); the table's code."""
    open_lobby(page, base)
    code: str = page.evaluate(
        """async ([preset, seats, name]) => {
            const grant = await api("/api/tables", { name, preset, seats });
            saveGrant(grant);
            await openTable(grant.code);
            return grant.code;
        }""",
        [preset, seats, name],
    )
    page.wait_for_selector("#waiting:not(.hidden)")
    return code


def draw(page: Any) -> None:
    """Draw from the stock by a click once the page's seat may, and wait until it may discard."""
    page.wait_for_function("S.state.legal.includes('draw')")
    page.click("#stock")
    page.wait_for_function("S.state.legal.some(a => a.startsWith('discard'))")


def pick(page: Any, cards: list[str]) -> None:
    """Click the hand's ``cards`` (faces; a second copy of a face is the next card not yet picked)."""
    for face in cards:
        page.locator(f"#hand .card[data-card='{face}']:not(.selected)").first.click()


RECORD_ANNOUNCEMENTS = """() => {
    window.said = [];
    new MutationObserver(() => {
        const text = document.querySelector("#announce").textContent;
        if (text) window.said.push(text);
    }).observe(document.querySelector("#announce"), { childList: true, characterData: true, subtree: true });
}"""
"""Every text the polite announcer (#announce) takes, in order (an observer installed in the page)."""
