"""The organiser's page in a browser (``rummykit serve --organiser``): the address the server printed
shows every table, its key leaves the address bar, and closing a table tells its player why."""

from __future__ import annotations

import re
from typing import Any

from tests.web.pages import Pages, seeded_table

SERVER_ARGS = ("--organiser",)


def organiser_address(module_server: Any) -> str:
    """The organiser's address as ``rummykit serve`` printed it at its start."""
    found = re.search(r"organiser's page is (http://\S+/#organise=[A-Za-z0-9_-]+)", module_server.output())
    assert found, module_server.output()
    return found.group(1)


def test_the_organiser_sees_a_practice_table_and_closes_it(pages: Pages, module_server: Any) -> None:
    player = pages.open()
    seeded_table(player, pages.base, "german", 5, seats=3, bot="random", name="Pia")
    code = player.evaluate("S.code")
    organiser = pages.open()
    organiser.goto(organiser_address(module_server))
    row = organiser.locator("#organise-tables tbody tr", has_text=code)
    row.wait_for()
    assert organiser.url.endswith("/?organise")  # the key is not left in the address bar
    text = row.inner_text()
    assert "German Rummy" in text and "by link only" in text and "playing" in text and "Pia 0" in text
    assert row.locator("a", has_text="Watch").get_attribute("href") == f"/?table={code}&watch=1"
    organiser.reload()  # the key is kept for the tab
    row.wait_for()
    organiser.once("dialog", lambda dialog: dialog.accept())
    row.locator("button", has_text="Close").click()
    rows = "[...document.querySelectorAll('#organise-tables tbody tr')]"
    organiser.wait_for_function(f"{rows}.some((r) => r.textContent.includes('closed'))")
    assert row.locator("button").count() == 0  # an ended table cannot be closed again
    player.wait_for_function("S.state.table.status === 'closed'")
    player.wait_for_function("document.body.innerText.includes('the organiser closed this table')")


def test_a_wrong_key_shows_no_table(pages: Pages) -> None:
    player = pages.open()
    seeded_table(player, pages.base, "gin", 6, name="Tom")
    code = player.evaluate("S.code")
    stranger = pages.open(locale="de-DE")
    stranger.goto(f"{pages.base}/#organise=guessed")
    stranger.wait_for_selector("#organise-error:not(.hidden)")
    assert "Seite der Spielleitung" in stranger.inner_text("#organise-error")
    assert code not in stranger.inner_text("body")
