"""In Chromium on a small phone (360×740): after the draw, the whole hand and the buttons that end the
turn (Discard; Knock and Rummy at the knock games) are on the screen together, without scrolling, and
nothing lies over a card. German Rummy in both languages (the German labels are longer), Scala 40 (13
cards and more table melds), Viennese and Gin (the knock games' buttons).

``RUMMYKIT_SCREENSHOTS=DIR`` keeps the screenshots.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SMALL_PHONE = {"width": 360, "height": 740}
SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""
TURN_BUTTONS = ("#btn-discard", "#btn-knock", "#btn-rummy")


def sit_down(page: Any, preset: str, seats: int, seed: int) -> None:
    """Sit down at a seeded table of ``preset`` with bots in the other seats (through the page's API call)."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=german]", state="attached")
    page.evaluate(
        """async ([preset, seed, seats]) => {
            const bots = Array.from({ length: seats - 1 }, () => ({ kind: "random" }));
            const grant = await api("/api/tables", { name: "Anna", preset, seats, seed, bots });
            saveGrant(grant);
            await openTable(grant.code);
        }""",
        [preset, seed, seats],
    )
    page.wait_for_selector("#game:not(.hidden)")


def draw(page: Any, web: Any) -> None:
    """Play up to our first draw from the stock and make it: at gin pass on the first upcard, and a
    Viennese starter discards the extra card it was dealt first."""
    ours = "S.state && S.state.legal.some((a) => a === 'draw' || a === 'pass' || a.startsWith('discard '))"
    while True:
        page.wait_for_function(ours)
        legal: list[str] = page.evaluate("S.state.legal")
        if "draw" in legal:
            break
        discards = [a for a in legal if a.startswith("discard ")]
        web.act_and_wait(page, "pass" if "pass" in legal else discards[0])
    web.first_turn(page, "draw")
    web.act_and_wait(page, "draw")
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    web.landed(page)


LAYOUT = """(buttons) => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const cards = [...document.querySelectorAll("#hand .card")];
    // What a tap on a card's middle reaches: the card itself, not something laid over it.
    const covered = cards.filter((c) => {
        const r = c.getBoundingClientRect();
        const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return !hit || hit.closest("#hand .card") !== c;
    }).map((c) => c.dataset.card);
    const shown = buttons.map((id) => document.querySelector(id)).filter((b) => b.offsetParent !== null);
    return { width: innerWidth, height: innerHeight, scrolled: scrollY, covered,
             cards: cards.map(box), buttons: Object.fromEntries(shown.map((b) => [b.id, box(b)])) };
}"""


def inside(r: dict[str, float], width: int, height: int) -> bool:
    return r["left"] >= 0 and r["top"] >= 0 and r["right"] <= width and r["bottom"] <= height


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    across = a["left"] < b["right"] and b["left"] < a["right"]
    return across and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize(
    ("preset", "seats", "locale"),
    [
        ("german", 3, "de-DE"),
        ("german", 3, "en-US"),
        ("scala40", 3, "de-DE"),
        ("viennese", 3, "de-DE"),
        ("gin", 2, "de-DE"),
    ],
)
def test_after_the_draw_the_hand_and_the_discard_button_fit_a_small_phone(
    open_page: Any, web: Any, shots: Path, preset: str, seats: int, locale: str
) -> None:
    page = open_page(SMALL_PHONE, locale, has_touch=True, timeout_ms=20000)
    sit_down(page, preset, seats, seed=5)
    draw(page, web)
    page.click("#hand .card >> nth=0")  # a card chosen to discard: Discard is ready
    page.wait_for_function("S.selected.length === 1")
    layout = page.evaluate(LAYOUT, list(TURN_BUTTONS))
    page.screenshot(path=str(shots / f"phone-360-after-draw-{preset}-{locale[:2]}.png"))
    width, height = layout["width"], layout["height"]
    assert layout["scrolled"] == 0
    assert len(layout["cards"]) >= 11
    off = [i for i, card in enumerate(layout["cards"]) if not inside(card, width, height)]
    assert not off, f"cards {off} of the hand lie outside the {width}×{height} screen: {layout['cards']}"
    assert not layout["covered"], f"something lies over {layout['covered']}"
    buttons = layout["buttons"]
    assert "btn-discard" in buttons and (preset not in ("viennese", "gin") or "btn-knock" in buttons)
    for name, button in buttons.items():
        assert inside(button, width, height), f"{name} at {button} is not on the {width}×{height} screen"
        hit = [i for i, card in enumerate(layout["cards"]) if overlap(button, card)]
        assert not hit, f"{name} lies over cards {hit}"


PHONE = {"width": 390, "height": 844}
TAP_TARGETS = (
    ".topbar button", "#game .actions button", "#hand-tools button", "#moves button", "#chat-form button"
)
"""The buttons a finger taps at the table: at least 40 px high in the phone layout."""


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_tables_buttons_are_finger_sized_on_a_phone(
    open_page: Any, web: Any, shots: Path, locale: str
) -> None:
    """Top bar, move buttons, possible moves and the sort buttons were 21 to 28 px high at 390×844: each
    is at least 40 px high now, and the page still does not scroll sideways."""
    page = open_page(PHONE, locale, has_touch=True, timeout_ms=20000)
    sit_down(page, "german", 3, seed=5)
    draw(page, web)
    # The possible moves come in a message of their own after the state (later on a loaded machine).
    page.wait_for_function("[...document.querySelectorAll('#moves button')].some((b) => b.offsetParent)")
    sizes = page.evaluate(
        """(selectors) => selectors.flatMap((sel) => [...document.querySelectorAll(sel)]
            .filter((b) => b.offsetParent !== null)
            .map((b) => [sel, b.id || b.dataset.action || b.innerText, b.getBoundingClientRect().height]))""",
        list(TAP_TARGETS),
    )
    page.screenshot(path=str(shots / f"phone-390-tap-targets-{locale[:2]}.png"), full_page=True)
    shown = {sel for sel, _, _ in sizes}
    assert shown >= {".topbar button", "#game .actions button", "#hand-tools button", "#moves button"}, sizes
    small = [(sel, name, round(h, 1)) for sel, name, h in sizes if h < 40]
    assert not small, f"buttons under 40 px high: {small}"
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


LANDSCAPE = ({"width": 844, "height": 390}, {"width": 640, "height": 360})
"""An iPhone 12 and a small Android phone held sideways."""
TABLE_PARTS = ("#stock", "#discard", ".felt", "#status")


@pytest.mark.parametrize("viewport", LANDSCAPE, ids=lambda v: f"{v['width']}x{v['height']}")
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_a_phone_held_sideways_shows_the_table_and_the_hand_together(
    open_page: Any, web: Any, shots: Path, viewport: dict[str, int], locale: str
) -> None:
    """Held sideways (844×390, 640×360) a phone got the single column of a phone held upright: at the
    player's turn the hand began below the screen's foot and Discard lower still, so every turn needed
    scrolling between the table and the hand. The piles, the turn's line, every card of the hand and
    Discard are on the screen together now, without scrolling."""
    page = open_page(viewport, locale, has_touch=True, timeout_ms=20000)
    sit_down(page, "german", 3, seed=5)
    draw(page, web)
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("i => document.querySelectorAll('#hand .card')[i].click()", 0)  # no scrolling to it
    page.wait_for_function("S.selected.length === 1")
    layout = page.evaluate(LAYOUT, list(TURN_BUTTONS))
    parts = page.evaluate(
        "(sels) => sels.map((s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return [s, { left: r.left, top: r.top, right: r.right, bottom: r.bottom }]; })",
        list(TABLE_PARTS),
    )
    page.screenshot(path=str(shots / f"landscape-{viewport['width']}-after-draw-{locale[:2]}.png"))
    width, height = layout["width"], layout["height"]
    assert (width, height) == (viewport["width"], viewport["height"]), "the page is wider than the screen"
    assert layout["scrolled"] == 0
    for name, box in parts:
        assert inside(box, width, height), f"{name} at {box} is not on the {width}×{height} screen"
    assert len(layout["cards"]) >= 14
    off = [i for i, card in enumerate(layout["cards"]) if not inside(card, width, height)]
    assert not off, f"cards {off} of the hand lie outside the {width}×{height} screen: {layout['cards']}"
    assert not layout["covered"], f"something lies over {layout['covered']}"
    assert "btn-discard" in layout["buttons"]
    for name, button in layout["buttons"].items():
        assert inside(button, width, height), f"{name} at {button} is not on the {width}×{height} screen"
        hit = [i for i, card in enumerate(layout["cards"]) if overlap(button, card)]
        assert not hit, f"{name} lies over cards {hit}"


def test_a_laptop_keeps_the_side_panel_beside_the_table(open_page: Any, web: Any) -> None:
    """The sideways phone's layout is for short screens only: a laptop's table keeps the scores and
    the chat in a column on the right, and the hand below the table."""
    page = open_page({"width": 1280, "height": 800}, "en-US")
    sit_down(page, "german", 3, seed=5)
    boxes = page.evaluate(
        """() => Object.fromEntries(['.felt', '.side', '#hand']
            .map((s) => [s, document.querySelector(s).getBoundingClientRect().toJSON()]))"""
    )
    assert boxes[".side"]["left"] >= boxes[".felt"]["right"]
    assert boxes["#hand"]["top"] >= boxes[".felt"]["bottom"]


def test_a_chat_line_not_seen_is_counted_beside_the_turns_line(open_page: Any, shots: Path) -> None:
    """On a phone the chat is the page's last block, and a friend's line came without a sign near the
    table. A line not in view is counted on a Chat button beside the turn's line (on the screen),
    said once to a screen reader, and the count goes when the chat is scrolled into view; the button
    goes to the chat."""
    from tests.web.pages import RECORD_ANNOUNCEMENTS

    host = open_page({"width": 1280, "height": 800}, "en-US")
    host.goto(host.base + "/")
    host.wait_for_selector("#preset option[value=german]", state="attached")
    code = host.evaluate(
        """async () => {
            const grant = await api("/api/tables", {
                name: "Oma Inge", preset: "german", seats: 3, bots: [{ kind: "random" }], listed: false });
            saveGrant(grant); await openTable(grant.code); return grant.code;
        }"""
    )
    phone = open_page({"width": 360, "height": 640}, "de-DE", has_touch=True, timeout_ms=20000)
    phone.goto(f"{phone.base}/?table={code}")
    phone.wait_for_selector("#name-dialog:not(.hidden)")
    phone.fill("#join-name", "Lena")
    phone.click("#btn-name-join")
    phone.wait_for_selector("#waiting:not(.hidden)")
    host.wait_for_function("document.querySelector('#wait-seats').innerText.includes('Lena')")
    host.click("#btn-start")
    phone.wait_for_selector("#game:not(.hidden)")
    phone.evaluate("window.scrollTo(0, 0)")
    phone.evaluate(RECORD_ANNOUNCEMENTS)
    badge = phone.locator("#chat-jump")
    assert badge.is_hidden()

    host.evaluate("send({ type: 'chat', text: 'Lena, du bist dran!' })")
    phone.wait_for_selector("#chat-jump:not(.hidden)")
    host.evaluate("send({ type: 'chat', text: 'Beeil dich bitte' })")
    phone.wait_for_function("document.querySelector('#chat-count').textContent === '2'")
    phone.screenshot(path=str(shots / "phone-360-chat-unread.png"))
    box = badge.bounding_box()
    status = phone.locator("#status").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640 and box["x"] + box["width"] <= 360, box
    assert abs(box["y"] - status["y"]) < 40, (box, status)  # beside the turn's line
    assert badge.get_attribute("aria-label") == "Chat: 2 ungelesen"
    phone.wait_for_function("window.said.some((s) => s.includes('Beeil dich bitte'))")
    said = " · ".join(phone.evaluate("window.said"))
    assert said.count("Chat, Oma Inge: Lena, du bist dran!") == 1, said  # each line once
    assert said.count("Beeil dich bitte") == 1, said
    assert phone.get_attribute("#chat-log", "aria-live") is None  # the whole log is not said again

    # Scrolled into view: seen, the count goes.
    phone.locator("#chat-log").scroll_into_view_if_needed()
    phone.wait_for_selector("#chat-jump", state="hidden")
    # Another line while the chat is in view: not counted.
    host.evaluate("send({ type: 'chat', text: 'Danke' })")
    phone.wait_for_function("document.querySelector('#chat-log').innerText.includes('Danke')")
    assert badge.is_hidden()
    # Back at the table, a line comes: the button takes the player to the chat.
    phone.evaluate("window.scrollTo(0, 0)")
    host.evaluate("send({ type: 'chat', text: 'Bis gleich' })")
    phone.wait_for_selector("#chat-jump:not(.hidden)")
    assert phone.inner_text("#chat-count") == "1"
    badge.tap()
    phone.wait_for_selector("#chat-jump", state="hidden")
    log = phone.locator("#chat-log").bounding_box()
    assert log["y"] < 640 and log["y"] + log["height"] > 0, log
    assert phone.evaluate("document.activeElement.id") == "chat-log"


def test_a_shared_link_shows_no_lobby_while_the_table_is_looked_up(open_page: Any) -> None:
    """On a slow connection a shared link showed the lobby's "New table" form (in English, its lists
    empty, Create live) for seconds before the join prompt: a player could make a stray table. Until
    the script has run, and then until the table is looked up, the page shows a neutral loading
    screen in the page's language, with no form."""
    page = open_page({"width": 360, "height": 640}, "de-DE", has_touch=True, timeout_ms=20000)
    table = {"name": "Oma Inge", "preset": "german", "seats": 2, "bots": [], "listed": False}
    grant = page.request.post(page.base + "/api/tables", data=table).json()
    code = grant["code"]
    held: dict[str, Any] = {}
    page.route("**/static/app.js", lambda route: held.setdefault("script", route))
    page.route(f"**/api/tables/{code}", lambda route: held.setdefault("lookup", route))
    page.goto(f"{page.base}/?table={code}", wait_until="commit")
    page.wait_for_selector("#loading")
    # A browser paints nothing before the stylesheet in the head has loaded, and until then no class
    # hides anything: the page is looked at as it is first painted.
    page.wait_for_function("(document.querySelector('link[rel=stylesheet]').sheet?.cssRules.length ?? 0) > 0")
    for _ in range(100):  # the held request reaches the handler while the test waits on the page
        if "script" in held:
            break
        page.wait_for_timeout(50)
    assert "script" in held
    assert page.locator("#lobby").is_hidden() and page.locator("#create-form").is_hidden()
    assert page.locator("#loading").is_visible()
    held["script"].continue_()
    page.wait_for_function("document.querySelector('#loading-text').textContent !== ''")
    assert page.inner_text("#loading-text") == f"Tisch {code} wird geöffnet…"
    assert page.locator("#lobby").is_hidden() and page.locator("#btn-create").is_hidden()
    assert "lookup" in held
    page.unroute(f"**/api/tables/{code}")
    held["lookup"].continue_()
    page.wait_for_selector("#name-dialog:not(.hidden)")
    assert page.locator("#loading").is_hidden()


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 844, "height": 390}],
                         ids=lambda v: f"{v['width']}x{v['height']}")  # fmt: skip
def test_a_long_result_keeps_its_continue_button_in_view(open_page: Any, viewport: dict[str, int]) -> None:
    """A hand's result taller than a phone's screen put Continue below the dialog's visible area: it
    stays at the dialog's foot, in view and not covered, while the result scrolls above it."""
    page = open_page(viewport, "en-US", has_touch=True, timeout_ms=20000)
    sit_down(page, "german", 2, seed=5)
    page.evaluate(
        """() => showOverlay('<h2 id="round-over">Showdown</h2>'
            + '<p>Bot 2: 12 points</p>'.repeat(40), t("continue"))"""
    )
    page.wait_for_selector("#overlay:not(.hidden)")
    found = page.evaluate(
        """() => {
            const box = document.querySelector("#overlay .overlay-box");
            const b = document.querySelector("#btn-overlay");
            const r = b.getBoundingClientRect(), outer = box.getBoundingClientRect();
            const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
            return { scrolls: box.scrollHeight > box.clientHeight, button: r.toJSON(), box: outer.toJSON(),
                     reached: hit === b || b.contains(hit), height: innerHeight };
        }"""
    )
    assert found["scrolls"], "the result is not taller than the dialog: the test shows nothing"
    button, box = found["button"], found["box"]
    assert box["top"] <= button["top"] and button["bottom"] <= box["bottom"] <= found["height"], found
    assert found["reached"], found
    page.tap("#btn-overlay")
    page.wait_for_selector("#overlay", state="hidden")


def test_a_german_hand_after_the_draw_keeps_to_one_row_on_a_390_px_phone(open_page: Any, web: Any) -> None:
    """14 cards on a 390 px phone (an iPhone's width): the 14th wrapped onto a row of its own while
    30 px of each card showed. 24 px show now (the card's corner, and the smallest finger target WCAG's
    level AA allows), and a narrower phone wraps the row without scrolling sideways."""
    for width, rows in ((390, 1), (360, 2)):
        page = open_page({"width": width, "height": 844}, "de-DE", has_touch=True, timeout_ms=20000)
        sit_down(page, "german", 3, seed=5)
        draw(page, web)
        hand = page.evaluate(
            """() => {
                const boxes = [...document.querySelectorAll("#hand .card")];
                const cards = boxes.map((c) => c.getBoundingClientRect());
                const steps = cards.slice(1).map((r, i) => r.left - cards[i].left).filter((d) => d > 0);
                return { n: cards.length, rows: new Set(cards.map((r) => Math.round(r.top))).size,
                         shown: Math.min(...steps), wide: document.documentElement.scrollWidth };
            }"""
        )
        assert hand["n"] == 14 and hand["rows"] == rows, (width, hand)
        assert hand["shown"] >= 24 and hand["wide"] <= width, (width, hand)
