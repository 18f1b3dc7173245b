"""In Chromium: the page on a network that drops, stalls and comes back.

The table's websocket goes through Playwright's websocket routing (:class:`Network`), which plays
the network: a connection that goes silent both ways without a close (a phone that changed network,
a train in a tunnel), new connections that reach no server, and answers that come late. The page's
link timings (``LINK``) are shortened so that a dead link is found in three seconds.
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from tests.web.pages import Pages, seeded_table
from tests.web.test_ended_tables import play_out

SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""
LOST = "(document.querySelector('#link-state') || {}).innerText?.startsWith(t('connection_lost'))"


class Network:
    """The page's table sockets: ``cut_off`` silences the open ones for good and lets new ones reach no
    server (nothing answers their hello) until ``restore``; ``hold`` keeps what the server says from
    the page until ``release``. ``acts`` are the moves that reached the server."""

    def __init__(self, page: Any) -> None:
        self.down = False
        self.held: list[tuple[Any, str]] | None = None
        self.dead: list[dict[str, bool]] = []
        self.acts: list[dict[str, Any]] = []
        page.route_web_socket(re.compile(r".*/ws/.*"), self._route)

    def _route(self, ws: Any) -> None:
        if self.down:
            ws.on_message(lambda message: None)  # open, but nothing behind it answers
            return
        server = ws.connect_to_server()
        link = {"dead": False}
        self.dead.append(link)

        def up(message: str) -> None:
            if link["dead"]:
                return
            if json.loads(message).get("type") == "act":
                self.acts.append(json.loads(message))
            server.send(message)

        def down(message: str) -> None:
            if link["dead"]:
                return
            if self.held is not None:
                self.held.append((ws, message))
            else:
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    def cut_off(self) -> None:
        self.down = True
        for link in self.dead:
            link["dead"] = True

    def restore(self) -> None:
        self.down = False

    def hold(self) -> None:
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for ws, message in held:
            ws.send(message)


def at_the_draw(pages: Pages, locale: str = "en-US") -> tuple[Any, Network, int]:
    """A seeded German table against a bot, routed through a :class:`Network`, at the page's draw."""
    page = pages.open(locale=locale)
    network = Network(page)
    seeded_table(page, pages.base, "german", seed=7)
    page.evaluate("typeof LINK === 'object' && (LINK.answer = 3000)")
    page.wait_for_function("S.state.legal.includes('draw')")
    return page, network, page.evaluate("S.state.version")


def test_a_dead_link_is_found_and_the_move_lost_in_it_is_played_once(pages: Pages) -> None:
    """The draw goes into a connection the network dropped without a word: the page notices that
    nothing answers, says it is reconnecting, and on the new connection sends the draw again, which
    the server plays once. The page used to wait on the dead socket, showing 'your turn', for good."""
    page, network, version = at_the_draw(pages)
    cards = page.evaluate("S.state.view.hand.length")
    network.cut_off()
    page.click("#stock")
    page.wait_for_function(LOST)
    assert page.inner_text("#link-state").endswith(" – your move waits for the connection")
    network.restore()
    page.wait_for_function("v => S.state.version === v + 1", arg=version)
    assert page.evaluate("S.state.view.hand.length") == cards + 1
    assert [a["action"] for a in network.acts if a["version"] == version] == ["draw"]
    page.wait_for_selector("#link-state", state="hidden")
    assert page.locator("#game-error").is_hidden()


def test_a_move_made_while_not_connected_waits_and_is_said_to_wait(pages: Pages) -> None:
    """The phone was locked and its link died meanwhile: unlocked, the page checks the link and finds it
    dead (in German): the line says so and that the draw clicked meanwhile waits for the connection,
    in English once the page is switched to English; once connected it is played once."""
    page, network, version = at_the_draw(pages, locale="de-DE")
    network.cut_off()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # unlocked: the link is checked
    page.wait_for_function(LOST)
    assert page.inner_text("#link-state") == "Verbindung verloren, verbinde neu…"
    page.click("#stock")
    assert page.inner_text("#link-state") == (
        "Verbindung verloren, verbinde neu… – dein Zug wartet auf die Verbindung"
    )
    page.click("#btn-lang")  # the line follows the page's language at once, not at the next connection
    english = "Connection lost, reconnecting… – your move waits for the connection"
    assert page.inner_text("#link-state") == english
    network.restore()
    page.wait_for_function("v => S.state.version === v + 1", arg=version)
    assert [a["action"] for a in network.acts if a["version"] == version] == ["draw"]
    page.wait_for_selector("#link-state", state="hidden")


def test_a_move_never_sent_is_said_not_played_when_the_table_moved_on(pages: Pages) -> None:
    """A draw clicked while not connected, and the first state of the next connection is a later one
    (a bot played the turn meanwhile, say): the page says the move was not played, not nothing."""
    page, network, _version = at_the_draw(pages)
    network.cut_off()
    page.evaluate("send({ type: 'ping' })")
    page.wait_for_function(LOST)
    page.click("#stock")
    page.evaluate("onMessage({ type: 'welcome', seat: S.seat, code: S.code })")  # as the next connection
    page.evaluate("onMessage({ ...S.state, type: 'state', version: S.state.version + 2 })")
    assert page.inner_text("#game-error .error-text") == (
        "Your move was not played: the table changed while you were not connected."
    )


def test_the_network_coming_back_reconnects_at_once(pages: Pages) -> None:
    """Without a network for a while, the page tries again only every 10 s at last; the browser's
    'online' event makes it try at once."""
    page, network, _version = at_the_draw(pages)
    network.cut_off()
    page.evaluate("send({ type: 'ping' })")
    page.wait_for_function(LOST)
    page.evaluate("S.retry = 6")  # as after many failed tries: the next wait is 10 s
    page.wait_for_function("S.reconnect && S.retry === 7")
    network.restore()
    page.context.set_offline(True)
    page.context.set_offline(False)
    page.wait_for_selector("#link-state", state="hidden", timeout=4000)


def test_a_double_click_on_a_slow_link_sends_the_move_once(pages: Pages) -> None:
    """The answer is slow: a double click on the stock sends one draw, the line says the move is on its
    way, and no refusal follows (the second copy was refused as stale, in the server's words)."""
    page, network, version = at_the_draw(pages)
    network.hold()
    page.dblclick("#stock")
    page.wait_for_timeout(300)
    assert [a["action"] for a in network.acts if a["version"] == version] == ["draw"]
    page.wait_for_function("(document.querySelector('#link-state') || {}).innerText === t('move_sending')")
    network.release()
    page.wait_for_function("v => S.state.version === v + 1", arg=version)
    assert [a["action"] for a in network.acts if a["version"] == version] == ["draw"]
    page.wait_for_selector("#link-state", state="hidden")
    assert page.locator("#game-error").is_hidden()


def test_a_stale_refusal_is_said_in_the_pages_words(pages: Pages) -> None:
    """A move that reaches the server after the table moved on (a second tab played meanwhile) is
    refused; the page says so plainly, not 'your move was made against version 3; the table is at 4'."""
    page, _network, _version = at_the_draw(pages)
    page.evaluate("send({ type: 'act', action: 'draw', version: S.state.version - 1 })")
    page.wait_for_selector("#game-error", state="visible")
    assert page.inner_text("#game-error .error-text") == (
        "The table changed before your move arrived; it was not played."
    )


def test_a_chat_line_written_while_not_connected_stays_in_its_box(pages: Pages) -> None:
    """Enter while not connected used to empty the box and send nothing: the line stays, and goes
    once the connection is back."""
    page, network, _version = at_the_draw(pages)
    network.cut_off()
    page.evaluate("send({ type: 'ping' })")  # unanswered: the link is found dead
    page.wait_for_function(LOST)
    page.fill("#chat-input", "bin im Zug")
    page.press("#chat-input", "Enter")
    assert page.input_value("#chat-input") == "bin im Zug"
    network.restore()
    page.wait_for_selector("#link-state", state="hidden")
    page.press("#chat-input", "Enter")
    page.wait_for_function("document.querySelector('#chat-log').innerText.includes('bin im Zug')")
    assert page.input_value("#chat-input") == ""


def test_the_host_s_rematch_asked_on_a_dead_link_is_asked_again(pages: Pages) -> None:
    """The host presses Rematch while the link is dead: once connected again the page asks again (the
    server answers with the one rematch and the host's seat there) and goes to the new table. The
    button used to stay disabled, the rematch never asked."""
    with httpx.Client(base_url=pages.base) as http:
        one_hand = {"match_end": "single_hand"}
        spec = {"preset": "gin", "seats": 2, "bots": [{"kind": "greedy"}], "overrides": one_hand}
        grant = http.post("/api/tables", json=spec).json()
    with ThreadPoolExecutor(1) as pool:  # the browser's driver runs an event loop in this thread
        pool.submit(asyncio.run, play_out(pages.base, grant["code"], grant["token"])).result(timeout=120)
    page = pages.open()
    network = Network(page)
    pages.lobby(page)
    page.evaluate("(g) => { saveGrant(g); return openTable(g.code); }", grant)
    page.wait_for_selector("#btn-rematch")
    page.evaluate("typeof LINK === 'object' && (LINK.answer = 3000)")
    network.cut_off()
    page.click("#btn-rematch")
    page.wait_for_function(LOST)
    network.restore()
    moved = "code => S.code !== code && S.seat === 0 && S.state && S.state.table.code === S.code"
    page.wait_for_function(moved, arg=grant["code"])


def test_a_chat_line_sent_into_a_link_not_yet_found_dead_is_sent_again(pages: Pages) -> None:
    """Enter in the seconds before the page found the link dead sent the line into it: the box was
    emptied and the line never arrived. It is kept until the server sends it back: the line above the
    table says it waits, and the next connection sends it, once."""
    page, network, _version = at_the_draw(pages)
    network.cut_off()
    page.fill("#chat-input", "bin im Tunnel")
    page.press("#chat-input", "Enter")  # the socket still looks open
    assert page.input_value("#chat-input") == ""
    page.wait_for_function(LOST)
    assert page.inner_text("#link-state").endswith(" – your chat line waits for the connection")
    network.restore()
    page.wait_for_function("document.querySelector('#chat-log').innerText.includes('bin im Tunnel')")
    page.wait_for_selector("#link-state", state="hidden")
    page.wait_for_timeout(300)
    assert page.locator("#chat-log li", has_text="bin im Tunnel").count() == 1


def test_coming_back_says_what_the_bot_played_for_you(pages: Pages) -> None:
    """The link was down long enough for a bot to play the seat (a takeover after a second here, while
    another person plays on): on coming back only the log said so. The page says once, shown and
    heard, that a bot played for the player and what it did."""
    page = pages.open(locale="de-DE")
    network = Network(page)
    pages.lobby(page)
    code = page.evaluate(
        """async () => {
            const grant = await api("/api/tables", { name: "Anna", preset: "german", seats: 3, seed: 7,
                                                     bots: [{ kind: "random" }], takeover_seconds: 1 });
            saveGrant(grant);
            await openTable(grant.code);
            return grant.code;
        }"""
    )
    guest = pages.open()
    pages.lobby(guest)
    guest.evaluate(
        """async (code) => {
            saveGrant(await api(`/api/tables/${code}/join`, { name: "Ben" }));
            await openTable(code);
            // Ben plays on by himself: draws, and discards the first card he may.
            setInterval(() => {
                const L = S.state ? S.state.legal : [];
                const discard = L.find((a) => a.startsWith("discard "));
                if (L.length && !S.outbox) act(L.includes("draw") ? "draw" : discard);
            }, 200);
        }""",
        code,
    )
    page.evaluate("async (code) => api(`/api/tables/${code}/start`, { token: S.token })", code)
    page.wait_for_function("S.state && S.state.legal.includes('draw')")
    page.evaluate("LINK.answer = 3000")
    network.cut_off()
    page.evaluate("send({ type: 'ping' })")  # unanswered: the link is found dead, the socket closed
    page.wait_for_function(LOST)
    page.wait_for_timeout(2500)  # the takeover time: a bot plays the seat
    network.restore()
    page.wait_for_selector("#game-error", state="visible")
    text = page.inner_text("#game-error .error-text .shown")
    assert text.startswith("Ein Bot hat für dich gespielt, während du nicht verbunden warst: "), text
    assert "wirft" in text, text  # what it did: its discard at least
    assert page.get_attribute("#game-error", "role") == "alert"
