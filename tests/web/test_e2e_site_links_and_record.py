"""The operator's imprint and privacy links at the foot of the page, and a finished table's record
downloaded from its end screen."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

import rummykit as rk
from tests.web.pages import Pages, seeded_table, waiting_table
from tests.web.test_ended_tables import play_out

pytest.importorskip("playwright")

SERVER_ARGS = ("--imprint-url", "https://example.org/impressum", "--privacy-url", "/datenschutz.html")


def test_the_operator_s_links_are_at_the_foot_of_every_screen_in_the_page_s_language(pages: Pages) -> None:
    page = pages.open()
    pages.lobby(page)
    foot = page.locator("#site-links")
    assert foot.is_visible()
    links = foot.locator("a")
    assert links.all_inner_texts() == ["Imprint", "Privacy"]
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [
        "https://example.org/impressum",
        "/datenschutz.html",
    ]
    page.click("#btn-lang")
    assert links.all_inner_texts() == ["Impressum", "Datenschutz"]


def test_a_finished_table_s_record_is_downloaded_from_its_end_screen(
    pages: Pages, module_server: Any
) -> None:
    base = module_server.url
    with httpx.Client(base_url=base) as http:
        # One hand against greedy: a match to 100 against a random bot took minutes on a loaded machine.
        one_hand = {"match_end": "single_hand"}
        spec = {"preset": "gin", "seats": 2, "bots": [{"kind": "greedy"}], "overrides": one_hand}
        grant = http.post("/api/tables", json=spec).json()
    with ThreadPoolExecutor(1) as pool:  # the browser's driver runs an event loop in this thread
        final = pool.submit(asyncio.run, play_out(base, grant["code"], grant["token"])).result(timeout=120)
    page = pages.open()
    pages.lobby(page)
    page.evaluate("(g) => { saveGrant(g); return openTable(g.code); }", grant)
    page.wait_for_selector("#match-over")
    link = page.locator(".record-link a")
    assert link.inner_text() == "Download the game record"
    shown: list[str | None] = []  # the seat's token goes along (a network out of lookups gets it too)
    page.on("request", lambda r: shown.append(r.headers.get("authorization")) if "/record" in r.url else None)
    with page.expect_download() as download:
        link.click()
    assert shown == [f"Bearer {grant['token']}"]
    assert download.value.suggested_filename == f"rummykit-{grant['code']}.json"
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    match = rk.Record.from_dict(data).replay_match()
    assert match.is_over and list(match.totals) == final["match"]["totals"]


def test_a_watch_link_watches_in_a_browser_that_holds_the_seat_and_the_players_see_the_count(
    pages: Pages,
) -> None:
    """``?table=CODE&watch=1`` (a stream's window beside the player's own) shows no hand though the
    browser's storage holds the seat; the player's header counts the watcher from the next move on, and
    the chat's field says that watchers read along; on a large screen the watcher's table is drawn larger."""
    player = pages.open()
    seeded_table(player, pages.base, "german", 3, bot="random")
    code = player.evaluate("S.code")
    assert "watching" not in player.locator("#table-info").inner_text()
    assert player.locator("#chat-input").get_attribute("placeholder") == "Say something…"
    watcher = player.context.new_page()
    watcher.goto(f"{pages.base}/?table={code}&watch=1")
    watcher.wait_for_function("S.state && S.state.view !== null")
    assert watcher.evaluate("S.seat === null && S.token === null && S.state.view.hand === null")
    assert watcher.locator("#hand .card").count() == 0
    # The piles are no buttons for a watcher (nothing to draw or take): out of the tab order.
    piles = "[...document.querySelectorAll('#stock, #discard')].map((p) => [p.role, p.tabIndex])"
    assert watcher.evaluate(piles) == [["img", -1], ["img", -1]]
    player.wait_for_function("S.state.legal.includes('draw') || S.state.legal.includes('take')")
    player.evaluate("act('draw')")
    player.wait_for_function("document.querySelector('#table-info').textContent.includes('1 watching')")
    # Before writing, the player reads that watchers read along (they see the lines from their arrival).
    assert player.locator("#chat-input").get_attribute("placeholder") == "Say something… watchers read along"
    # The watcher is told what the player to move is doing, not only who moves.
    said = "Watching · Anna to move: meld, lay off, then discard"
    watcher.wait_for_function(f"document.querySelector('#status').textContent === '{said}'")
    # A stream's 1920×1080 browser source draws the table larger for the watcher, not for the player.
    zoom = "getComputedStyle(document.body).zoom"
    for page in (watcher, player):
        page.set_viewport_size({"width": 1920, "height": 1080})
    assert (watcher.evaluate(zoom), player.evaluate(zoom)) == ("1.4", "1")
    # Zoom scales the viewport's units too: the page is no taller than the screen (a stream crops it).
    assert watcher.evaluate("document.documentElement.scrollHeight <= innerHeight")
    watcher.set_viewport_size({"width": 1280, "height": 720})
    assert watcher.evaluate(zoom) == "1"


def test_the_browser_forgets_what_tables_left_behind(pages: Pages) -> None:
    """A seat left is kept a day (to take it back), then forgotten with its token; a table's hand order,
    melds and mutes go with its grant, and a watcher's mutes (no grant) a day after they changed."""
    page = pages.open()
    pages.lobby(page)
    day = 24 * 3600 * 1000
    page.evaluate(
        """(day) => {
            const left = (token, when) => JSON.stringify({ token, seat: 1, left: when });
            localStorage.setItem("rummykit:GONE22", left("t", Date.now() - 2 * day));
            localStorage.setItem("rummykit:muted:GONE22", "[1]");
            localStorage.setItem("rummykit:LEFT22", left("u", Date.now() - 1000));
            localStorage.setItem("rummykit:OLDL22", left("v", true));
            localStorage.setItem("rummykit:order:ORPH22", "[]");
            localStorage.setItem("rummykit:groups:ORPH22", "[]");
            localStorage.setItem("rummykit:muted:ORPH22", "[2]");
            // A watcher holds no grant: its mutes stay a day after they last changed.
            const mutes = (when) => JSON.stringify({ seats: [1], at: when });
            localStorage.setItem("rummykit:muted:WTCH22", mutes(Date.now() - 1000));
            localStorage.setItem("rummykit:muted:WOLD22", mutes(Date.now() - 2 * day));
        }""",
        day,
    )
    pages.lobby(page)
    kept = page.evaluate("Object.keys(localStorage).filter((k) => /22$/.test(k)).sort()")
    assert kept == ["rummykit:LEFT22", "rummykit:OLDL22", "rummykit:muted:WTCH22"]
    assert isinstance(page.evaluate("JSON.parse(localStorage.getItem('rummykit:OLDL22')).left"), int)


def test_the_host_removes_a_stranger_from_the_waiting_table(pages: Pages) -> None:
    host = pages.open()
    code = waiting_table(host, pages.base)
    with httpx.Client(base_url=pages.base) as http:
        assert http.post(f"/api/tables/{code}/join", json={"name": "Mallory"}).json()["seat"] == 1
    remove = host.get_by_role("button", name="Remove Mallory from the table")
    remove.click()
    host.wait_for_function("S.state.table.seats[1].kind === 'open'")
    assert host.locator("#wait-seats li").nth(1).inner_text() == "— open —"


NAME_AND_NUMBER = """([sel, number]) => {
    // The x of a chat line's name (its <b>) and of the number written after it.
    const li = document.querySelector(sel), range = document.createRange();
    range.selectNodeContents(li.querySelector('b'));
    const name = range.getBoundingClientRect();
    const text = li.lastChild, at = text.textContent.indexOf(number);
    range.setStart(text, at); range.setEnd(text, at + number.length);
    return [name.left, name.right, range.getBoundingClientRect().left];
}"""


def test_a_right_to_left_name_leaves_a_number_after_it_where_it_was_written(pages: Pages) -> None:
    """A stranger's Hebrew name ending in a digit took the number written after it into its own
    direction: "דני 2: 15 minutes" showed the 15 left of the name. A name is isolated where the page
    puts it among other words; the host's remove still names the person as they gave their name."""
    host = pages.open()
    code = waiting_table(host, pages.base)
    with httpx.Client(base_url=pages.base) as http:
        assert http.post(f"/api/tables/{code}/join", json={"name": "דני 2"}).json()["seat"] == 1
        host.wait_for_function("document.querySelectorAll('#wait-seats li button').length === 1")
        assert host.locator("#wait-seats li").nth(1).inner_text().startswith("\u2068דני 2\u2069")
        host.click("#wait-seats li button")  # the server frees the seat only for the name it holds
        host.wait_for_function("S.state.table.seats[1].kind === 'open'")
        assert http.post(f"/api/tables/{code}/join", json={"name": "דני 2"}).json()["seat"] == 1
    host.wait_for_function("S.state.table.seats[1].kind === 'human'")
    host.click("#btn-start")
    host.wait_for_selector("#game:not(.hidden)")
    host.evaluate("""() => { $('#chat-box').open = true;
        S.chat = [{ seat: 1, name: S.state.table.seats[1].name, text: "15 minutes" }]; renderChat(); }""")
    left, right, number = host.evaluate(NAME_AND_NUMBER, ["#chat-log li", "15"])
    assert left < right <= number, (left, right, number)  # the name's <b> ends with its ": "
