"""In Chromium: seats (host start, join by link with a name, leave and take back), hints only where
the table offers them, the lobby's house rules, melds below the opening minimum, keyboard-only play,
the accessibility check, sorting and dragging the hand (touch), the phone header, and the last moves
of a Viennese showdown.

One browser and one server serve the module; each test opens its own contexts. Desktop is
1280×800, phone 390×844 (with touch). ``RUMMYKIT_SCREENSHOTS=DIR`` keeps the screenshots.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.errors import IllegalMeldError, NotationError
from rummykit.melds import Meld, arrange_meld
from rummykit.rules import OPTION_RANGES, Rules
from rummykit.views import TableMeld
from rummykit.web.protocol import meld_json
from tests.web.pages import Pages, seeded_table

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
POINTS = {"A": 11, "J": 10, "Q": 10, "K": 10, "10": 10}
SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""


def card_points(face: str) -> int:
    return 30 if face == "JK" else POINTS.get(face[:-1], 0) or int(face[:-1])


def create(page: Any, *, seats: int = 2, bots: int = 1, preset: str = "german", name: str = "Anna",
           advanced: str = "") -> str:  # fmt: skip
    page.select_option("#preset", preset)
    page.fill("#create-form input[name=name]", name)
    page.fill("#create-form input[name=seats]", str(seats))
    page.fill("#create-form input[name=bots]", str(bots))
    if advanced:
        page.click("#advanced summary")
        page.fill("#create-form textarea[name=overrides]", advanced)
    page.click("#btn-create")
    page.wait_for_function("S.state !== null")
    return str(page.evaluate("S.code"))


def seat_kinds(page: Any, base: str, code: str) -> list[tuple[str, str]]:
    lobby_json = page.request.get(f"{base}/api/tables/{code}").json()
    return [(s["kind"], s["name"]) for s in lobby_json["seats"]]


def shown_keys(page: Any) -> list[str]:
    """The first key of each shortcut the open keyboard dialog shows."""
    return list(page.eval_on_selector_all(
        "#keys-dialog tr:not(.hidden) th kbd:first-child", "ks => ks.map(k => k.innerText)"
    ))  # fmt: skip


def wait_turn_or_end(page: Any, end: str = "#match-over, #round-over") -> bool:
    """Wait until it is our turn (True) or the hand is over (False)."""
    over = f"!!document.querySelector('#overlay:not(.hidden) :is({end})')"
    page.wait_for_function(f"document.body.dataset.myTurn === '1' || {over}", timeout=30000)
    return page.locator(f"#overlay:not(.hidden) :is({end})").count() == 0


def test_host_starts_join_by_link_asks_a_name_leave_and_take_back(pages: Pages, shots: Path) -> None:
    host = pages.open()
    pages.lobby(host)
    code = create(host, seats=2, bots=0)
    host.wait_for_selector("#waiting:not(.hidden)")

    guest = pages.open(locale="de-DE")
    guest.goto(f"{pages.base}/?table={code}")  # a shared link: a name is asked first, in German
    guest.wait_for_selector("#name-dialog:not(.hidden)")
    assert guest.inner_text("#name-heading") == f"Tisch {code} beitreten"
    assert guest.inner_text("#btn-name-join") == "Beitreten"
    assert guest.locator("#name-seeded").is_hidden()  # no seed, no warning
    guest.click("#btn-name-join")  # an empty name is not sent
    assert guest.locator("#name-dialog:not(.hidden)").count() == 1
    guest.fill("#join-name", "Ben")
    guest.keyboard.press("Enter")
    guest.wait_for_selector("#waiting:not(.hidden)")
    # The last seat is filled, but the table waits for its host.
    assert seat_kinds(guest, pages.base, code) == [("human", "Anna"), ("human", "Ben")]
    assert guest.request.get(f"{pages.base}/api/tables/{code}").json()["status"] == "waiting"
    assert guest.inner_text("#wait-note") == "Warten, bis der Gastgeber startet."
    assert guest.locator("#btn-start").is_hidden()
    host.wait_for_function("document.querySelectorAll('#wait-seats li').length === 2 && "
                           "document.querySelector('#wait-seats').innerText.includes('Ben')")  # fmt: skip
    assert host.inner_text("#btn-start") == "Start"
    host.click("#btn-start")
    guest.wait_for_selector("#game:not(.hidden)")
    host.wait_for_selector("#game:not(.hidden)")
    # Two people and no "hints for everyone": neither page offers a hint.
    assert host.locator("#btn-hint").is_hidden() and guest.locator("#btn-hint").is_hidden()
    # The turn timer shows for the person to move, on both pages.
    host.wait_for_function("document.querySelector('#turn-timer').innerText.includes(' s left')")
    assert "noch" in guest.inner_text("#turn-timer")
    # A state that arrives late (a phone that slept) shows its clock until the page, visible again,
    # asks the server (ping) and sets the clock by the pong: here a state saying 5 s were left.
    seconds = "() => Number(document.querySelector('#turn-timer').innerText.match(/(\\d+) s/)[1])"
    guest.evaluate("onState({ ...S.state, turn_left: 5 }); renderTimer()")
    assert guest.evaluate(seconds) <= 5
    guest.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    guest.wait_for_function(f"({seconds})() > 60")

    # Chat: text stays text; a muted player's lines are hidden for the one who muted.
    guest.fill("#chat-input", "<i>Hallo</i> Anna")
    guest.keyboard.press("Enter")
    host.wait_for_function("document.querySelector('#chat-log').innerText.includes('Hallo')")
    assert host.inner_text("#chat-log li") == "Ben: <i>Hallo</i> Anna"
    assert host.locator("#chat-log i").count() == 0
    host.click("#mutes button[data-seat='1']")
    assert host.locator("#chat-log li").count() == 0
    assert host.get_attribute("#mutes button[data-seat='1']", "aria-pressed") == "true"
    assert guest.locator("#chat-log li").count() == 1  # only for the one who muted

    # Leave asks first; "stay" changes nothing.
    guest.click("#btn-leave")
    guest.wait_for_selector("#leave-dialog:not(.hidden)")
    assert "Bot" in guest.inner_text("#leave-text") and "zurücknehmen" in guest.inner_text("#leave-text")
    guest.click("#btn-leave-stay")
    assert guest.locator("#leave-dialog").is_hidden()
    assert seat_kinds(guest, pages.base, code)[1] == ("human", "Ben")
    guest.click("#btn-leave")
    guest.click("#btn-leave-confirm")
    guest.wait_for_selector("#lobby:not(.hidden)")
    assert seat_kinds(guest, pages.base, code)[1] == ("bot", "Ben (bot)")

    # Reopening the link: watching, with the offer to take the seat back from the bot.
    guest.goto(f"{pages.base}/?table={code}")
    guest.wait_for_selector("#btn-retake")
    assert "Ein Bot spielt für dich auf deinem Platz." in guest.inner_text("#status")
    assert guest.locator("#hand .card").count() == 0
    assert guest.locator("#tray").is_hidden()  # a spectator composes no melds (an empty tray showed)
    guest.click("#btn-retake")
    guest.wait_for_function("S.seat === 1 && S.state.view.hand && S.state.view.hand.length > 0")
    assert seat_kinds(guest, pages.base, code)[1] == ("human", "Ben")
    assert guest.locator("#hand .card").count() > 0


def test_a_link_to_a_seeded_table_warns_before_joining(pages: Pages) -> None:
    """Whoever created a seeded table can compute every hand: a stranger joining by link is told."""
    guest = pages.open()
    body = {"seats": 2, "bots": [], "seed": 5, "name": "Anna"}
    code = guest.request.post(f"{pages.base}/api/tables", data=body).json()["code"]
    warnings = (("en-GB", "whoever created it can know every hand"), ("de-DE", "kann jedes Blatt kennen"))
    for locale, words in warnings:
        page = pages.open(locale=locale)
        page.goto(f"{pages.base}/?table={code}")
        page.wait_for_selector("#name-seeded:not(.hidden)")
        assert words in page.inner_text("#name-seeded")


def test_a_table_made_with_hints_for_everyone_offers_them_to_every_person(pages: Pages) -> None:
    host = pages.open()
    pages.lobby(host)
    host.check("#hints-everyone")
    code = create(host, seats=2, bots=0)
    host.wait_for_selector("#waiting:not(.hidden)")
    joined = host.request.post(f"{pages.base}/api/tables/{code}/join", data={"name": "Ben"})
    assert joined.ok and host.request.get(f"{pages.base}/api/tables/{code}").json()["hints"] == "everyone"
    host.wait_for_function("document.querySelectorAll('#wait-seats li').length === 2")
    host.click("#btn-start")
    host.wait_for_selector("#game:not(.hidden)")
    assert "hints for everyone" in host.inner_text("#table-info")
    assert host.locator("#btn-hint").is_visible()
    host.wait_for_function("S.state.match.to_move === 0 || S.state.match.to_move === 1")
    if host.evaluate("S.state.match.to_move === S.seat"):
        host.keyboard.press("h")
        host.wait_for_selector("#hint:not(.hidden)")
        assert host.evaluate("S.hint").split()[0] in ("draw", "take", "open", "discard", "meld", "layoff")


def find_meld(hand: list[str], rules: Rules) -> list[str] | None:
    """Three cards of ``hand`` that make a meld."""
    for combo in itertools.combinations(hand, 3):
        try:
            arrange_meld(list(combo), rules)
        except (IllegalMeldError, NotationError):
            continue
        return list(combo)
    return None


def test_house_rules_in_the_lobby_and_lay_melds_below_the_minimum(pages: Pages, shots: Path) -> None:
    page = pages.open()
    pages.lobby(page)
    assert page.locator("#advanced textarea").is_hidden()  # the raw box waits behind "advanced"
    opening = page.get_by_label("opening minimum (points)")
    low, high = OPTION_RANGES["opening_min_points"]
    assert (opening.get_attribute("min"), opening.get_attribute("max")) == (str(low), str(high))
    assert opening.input_value() == "40"
    page.select_option("#preset", "viennese")  # knock games offer their own rules
    assert page.get_by_label("knock limit (points)").input_value() == "5"
    assert page.locator("#house-rules [data-option=opening_min_points]").count() == 0
    page.select_option("#preset", "german")
    page.get_by_label("opening minimum (points)").fill(str(high))
    page.get_by_label("joker exchange", exact=True).uncheck()
    page.screenshot(path=str(shots / "lobby-house-rules-desktop.png"))
    code = create(page)
    page.wait_for_selector("#game:not(.hidden)")
    rules = page.request.get(f"{pages.base}/api/tables/{code}").json()["rules"]
    expected = Rules.preset("german").replace(opening_min_points=high, joker_exchange=False)
    assert Rules.parse(rules) == expected  # only the controls changed, nothing else
    assert "House rules" in page.inner_text("#table-info")

    meld = drawn_meld(page, rules)
    for _ in range(3):  # a hand without any three-card meld is rare: another table then
        if meld is not None:
            break
        pages.lobby(page)
        create(page, advanced=f"opening_min_points={high}")
        meld = drawn_meld(page, rules)
    assert meld is not None, "no three-card meld in four hands"
    # Cards that make no meld: the group is marked bad and "Lay melds" stays disabled.
    hand: list[str] = page.evaluate("shownHand()")
    junk = next(c for c in itertools.combinations(hand, 3) if find_meld(list(c), Rules.parse(rules)) is None)
    for face in junk:
        page.locator(f"#hand .card[data-card='{face}']:not(.selected)").first.click()
    page.click("#btn-group")
    page.wait_for_selector("#groups .group.bad")
    assert page.is_disabled("#btn-play")
    page.click("#btn-clear")
    assert page.locator("#groups .group").count() == 0
    # A real meld below the opening minimum: "Lay melds" stays disabled too.
    for face in meld:
        page.locator(f"#hand .card[data-card='{face}']:not(.selected)").first.click()
    page.click("#btn-group")
    page.wait_for_selector("#groups .group.ok")
    total = int(page.inner_text("#opening-sum"))
    assert total < high and page.is_disabled("#btn-play")
    page.keyboard.press("l")  # the key says why nothing was laid (it used to do nothing, silently)
    page.wait_for_function(
        "t => document.querySelector('#game-error').innerText.includes(t)",
        arg=f"{total} points do not reach the opening's {high}",
    )


def drawn_meld(page: Any, rules: str) -> list[str] | None:
    """Draw at the first turn; three cards of the hand that make a meld, if any."""
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state.legal.includes('draw')")
    page.keyboard.press("d")
    page.wait_for_function("S.state.legal.some(a => a.startsWith('discard'))")
    return find_meld(page.evaluate("S.state.view.hand"), Rules.parse(rules))


def keyboard_compose(page: Any, action: str) -> None:
    """Compose the melds of an ``open``/``meld`` move by keyboard: walk to each card, space, G; then L."""
    _, _, body = action.partition(" ")
    for meld in body.split(" | "):
        for face in meld.split():
            index = page.evaluate(
                "f => shownHand().findIndex((c, i) => c === f && !S.selected.includes(i))", face
            )
            walk_to(page, index)
            page.keyboard.press("Space")
        page.keyboard.press("g")
    page.wait_for_function(
        "n => document.querySelectorAll('#groups .group.ok').length === n", arg=len(body.split(" | "))
    )
    page.keyboard.press("l")


def walk_to(page: Any, index: int) -> None:
    """Move the keyboard focus to the hand card at ``index`` with Home and the arrow keys."""
    page.locator("#hand .card[tabindex='0']").focus()
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.index") == str(index)


def axe_violations(page: Any) -> list[str]:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python")
    results = axe_module.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in bad]


def test_keyboard_only_german_hand_and_accessibility(pages: Pages, shots: Path) -> None:
    page = pages.open(locale="de-DE")
    pages.lobby(page)
    assert not axe_violations(page), axe_violations(page)
    create(page, advanced="match_end=single_hand")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state.view.hand.length > 0")
    assert not axe_violations(page), axe_violations(page)
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog:not(.hidden)")
    assert "vom Stoß ziehen" in page.inner_text("#keys-dialog")
    # German Rummy's shortcuts only: melds and lay-offs, no knock and no Rummy call.
    german = ["←", "Leertaste", "Umschalt", "↑", "D", "T", "G", "L", "1", "X", "C", "H", "W", "U", "S", "?"]
    german.append("Esc")
    assert shown_keys(page) == german
    assert not axe_violations(page), axe_violations(page)
    page.keyboard.press("Escape")
    assert page.locator("#keys-dialog").is_hidden()

    page.locator("#hand .card[tabindex='0']").focus()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and wait_turn_or_end(page, "#match-over"):
        version = page.evaluate("S.state.version")
        legal: list[str] = page.evaluate("legal()")
        if "draw" in legal:
            if page.evaluate("S.state.view.discard_pile.length > 1"):
                # The bot's discard is the last move: marked on the pile, and above the table with
                # the bot's other moves since ours ("Inzwischen: Bot 2: … · Bot 2: …").
                assert page.locator("#discard .card.last").count() == 1
                line = page.inner_text("#last-move")
                assert line.startswith(("Letzter Zug: Bot 2", "Inzwischen: Bot 2")), line
                assert "Bot 2: " in line.rsplit(" · ", 1)[-1] and "ab" in line.rsplit(" · ", 1)[-1], line
            page.keyboard.press("d")
        elif melds := [a for a in legal if a.startswith(("open ", "meld "))]:
            keyboard_compose(page, melds[0])
        elif layoffs := [a for a in legal if a.startswith("layoff ")]:
            card, meld = layoffs[0].split()[1], layoffs[0].split()[3]
            walk_to(page, page.evaluate("f => shownHand().indexOf(f)", card))
            page.keyboard.press("Space")
            page.keyboard.press(meld)
            # A card that can also take the place of that meld's joker (a set's) is not laid off unasked:
            # the lay-off and the exchanges are offered among the possible moves, the lay-off first.
            if page.evaluate("!!S.suggested && S.suggested.version === S.state.version"):
                page.locator("#moves .move-chip.suggested[data-action^='layoff ']").first.focus()
                page.keyboard.press("Enter")
        else:
            faces = [a.split()[1] for a in legal if a.startswith("discard ")]
            walk_to(page, page.evaluate("f => shownHand().indexOf(f)", max(faces, key=card_points)))
            page.keyboard.press("Space")
            page.keyboard.press("x")
            if page.locator("#joker-dialog:not(.hidden)").count():  # a joker: the page asks first
                assert page.evaluate("document.activeElement.id") == "btn-joker-keep"
                page.keyboard.press("Shift+Tab")
                assert page.evaluate("document.activeElement.id") == "btn-joker-discard"
                page.keyboard.press("Enter")
        page.wait_for_function("v => S.state.version > v", arg=version, timeout=10000)
        moves += 1
    assert page.locator("#overlay:not(.hidden) #match-over").count() == 1, "the hand did not end in time"
    assert "Partie beendet" in page.inner_text("#overlay") and moves > 0
    page.screenshot(path=str(shots / "match-over-desktop.png"))
    old_code, old_rules = page.evaluate("[S.code, S.state.table.rules]")
    assert page.inner_text("#btn-rematch").startswith("Revanche")
    page.locator("#btn-rematch").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("c => S.code !== c && S.state && S.state.table.status === 'playing'", arg=old_code)
    assert page.evaluate("S.state.table.rules") == old_rules
    assert page.locator("#overlay").is_hidden() and page.locator("#game:not(.hidden)").count() == 1


def test_a_table_opened_from_the_lobby_starts_at_its_top_on_a_phone(pages: Pages) -> None:
    """The lobby's form is long on a phone; a table made from its foot opened scrolled down as far
    (the opponents and the last move off the screen)."""
    page = pages.open({"width": 393, "height": 600}, "en-GB", has_touch=True, is_mobile=True)
    pages.lobby(page)
    page.select_option("#preset", "german")
    page.fill("#create-form input[name=name]", "Anna")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the form's button
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 100
    page.tap("#btn-create")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state !== null && S.state.view !== null")
    assert page.evaluate("document.documentElement.scrollHeight") > 650  # it could stay scrolled down
    assert page.evaluate("window.scrollY") == 0


def touch_swipe(
    page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 8, hold_ms: int = 0
) -> None:
    """A finger's swipe from ``start`` to ``end`` (Chromium's touch events, as a phone sends them),
    after holding still for ``hold_ms``."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    if hold_ms:
        page.wait_for_timeout(hold_ms)
    for k in range(1, steps + 1):
        point = {"x": x0 + (x1 - x0) * k / steps, "y": y0 + (y1 - y0) * k / steps}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_swipe_to_scroll_that_starts_on_a_card_moves_no_card(pages: Pages) -> None:
    """On a phone a swipe up or down that began on a card of the hand dragged the card (the hand took
    every touch gesture), and lifting the finger over the discard pile discarded it: a player who
    scrolled up to see the table lost their turn with a card they did not choose. A vertical swipe
    scrolls the page now; a sideways one still drags (the test above)."""
    page = pages.open(PHONE, "en-GB", has_touch=True, is_mobile=True)
    pages.lobby(page)
    create(page, preset="german")
    page.wait_for_selector("#game:not(.hidden)")
    while not wait_turn_or_end(page, "#round-over"):
        page.tap("#btn-overlay")
        page.locator("#overlay").wait_for(state="hidden")
    page.wait_for_function("S.state.legal.includes('draw')")
    page.tap("#stock")
    page.wait_for_function("S.state.view.phase !== 'draw' && document.body.dataset.myTurn === '1'")
    version = page.evaluate("S.state.version")
    before: list[str] = page.evaluate("shownHand()")
    card = page.locator("#hand .card").nth(2)
    card.scroll_into_view_if_needed()
    box, pile = card.bounding_box(), page.locator("#discard").bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # Straight up to the height of the discard pile (on screen or not), and lifted there.
    touch_swipe(page, start, (start[0], max(5.0, pile["y"] + pile["height"] / 2)))
    page.wait_for_timeout(800)  # a discard would have been sent and answered by now
    assert page.evaluate("S.state.version") == version
    assert page.evaluate("shownHand()") == before
    assert page.evaluate("document.querySelectorAll('#hand .card.dragging').length") == 0
    # A finger that holds the card still for a moment lifts it: then it goes where the finger goes,
    # up onto the discard pile too.
    page.evaluate("document.querySelector('#discard').scrollIntoView({block: 'start'})")
    card = page.locator("#hand .card").nth(2)
    box, pile = card.bounding_box(), page.locator("#discard").bounding_box()
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    end = (pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2)
    assert 0 < end[1] < start[1] < PHONE["height"], (start, end)  # both on the screen
    touch_swipe(page, start, end, hold_ms=600)
    page.wait_for_function("v => S.state.version > v", arg=version)
    assert len(page.evaluate("shownHand()")) == len(before) - 1


def test_phone_header_sorting_and_touch_drag_kept_across_reloads(pages: Pages, shots: Path) -> None:
    page = pages.open(PHONE, "de-DE", has_touch=True, is_mobile=True)
    pages.lobby(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the lobby fits the phone
    create(page, preset="viennese")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state.view.hand.length >= 10")
    info = page.locator("#table-info")
    assert info.evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # nothing cut off
    box = info.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert "Wiener" in info.inner_text()
    assert "Spiel 1" in page.inner_text("#round-info") and "Geber" in page.inner_text("#round-info")
    assert page.is_visible("#btn-rummy")  # a Viennese table offers the Rummy call (gin's does not)
    assert not axe_violations(page), axe_violations(page)

    page.tap("#btn-sort-rank")
    by_rank: list[str] = page.evaluate("shownHand()")
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    ranks = [99 if c == "JK" else order.index(c[:-1]) for c in by_rank]
    assert ranks == sorted(ranks)
    page.tap("#btn-sort-suit")
    by_suit: list[str] = page.evaluate("shownHand()")
    suits = [c[-1] if c != "JK" else "~" for c in by_suit]
    assert all(suits.index(s) == i or suits[i - 1] == s for i, s in enumerate(suits))  # grouped by suit

    # Sounds are off until switched on; the choice is kept.
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
    page.tap("#btn-sound")
    assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
    # Touch: drag the first card to the end of the first row. Measured on our turn, when the layout is
    # settled: a bot's move changes the status line, which can move the hand on a phone mid-gesture.
    # (A bot that ends the hand before our first turn shows the result; we continue past it.)
    while not wait_turn_or_end(page, "#round-over"):
        page.tap("#btn-overlay")
        page.locator("#overlay").wait_for(state="hidden")
    before: list[str] = page.evaluate("shownHand()")
    first = page.locator("#hand .card").nth(0)
    target = page.locator("#hand .card").nth(4)
    a, b = first.bounding_box(), target.bounding_box()
    cdp = page.context.new_cdp_session(page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] * 0.8, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, 9):
        point = {"x": x0 + (x1 - x0) * k / 8, "y": y0 + (y1 - y0) * k / 8}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    # The whole order is compared: two decks can put two equal cards side by side at the front.
    page.wait_for_function("b => JSON.stringify(shownHand()) !== JSON.stringify(b)", arg=before)
    after: list[str] = page.evaluate("shownHand()")
    assert after == before[1:5] + before[:1] + before[5:]
    assert page.evaluate("S.selected.length") == 0  # a drag is not a tap
    page.screenshot(path=str(shots / "table-phone.png"), full_page=True)
    # Animations run unless the system asks for reduced motion.
    animation = (
        "() => { const c = document.querySelector('#hand .card'); c.classList.add('fresh');"
        " return getComputedStyle(c).animationName; }"
    )
    assert page.evaluate(animation) == "card-in"
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    page.wait_for_function("S.state && S.state.view && S.state.view.hand.length >= 10")
    assert page.evaluate("shownHand()") == after  # kept across reloads
    assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
    assert page.evaluate(animation) == "none"


def test_viennese_showdown_shows_the_moves_after_the_knock(pages: Pages, shots: Path, web: Any) -> None:
    page = pages.open(DESKTOP, "en-US")
    pages.lobby(page)
    create(page, preset="viennese")
    page.wait_for_selector("#game:not(.hidden)")
    page.keyboard.press("?")  # Viennese shortcuts: knock and Rummy, no melds or lay-offs during play
    viennese = ["←", "Space", "Shift", "↑", "D", "T", "X", "K", "R", "C", "H", "W", "U", "S", "M", "?", "Esc"]
    assert shown_keys(page) == viennese
    page.keyboard.press("Escape")
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and wait_turn_or_end(page):
        legal: list[str] = page.evaluate("legal()")
        knocks = [a for a in legal if a.startswith(("knock ", "rummy "))]
        if not knocks:
            web.act_and_wait(page, web.hinted_action(page))
            continue
        # As a person knocks: select the card in the hand, then the Knock (or Rummy) button.
        verb, card = knocks[0].split()
        page.evaluate("clearComposition()")
        page.locator(f"#hand .card[data-card='{card}']").first.click()
        button = "#btn-knock" if verb == "knock" else "#btn-rummy"
        assert page.is_enabled(button), (verb, card)
        version = page.evaluate("S.state.version")
        page.click(button)
        page.wait_for_function("v => S.state.version > v", arg=version)
    overlay = page.locator("#overlay:not(.hidden)")
    assert overlay.locator("#round-over, #match-over").count() == 1, "no showdown in time"
    moves = [m.lower() for m in overlay.locator(".last-moves li").all_inner_texts()]  # "calls Rummy …"
    assert any(" knock" in m or "rummy" in m for m in moves), moves
    knock_at = next(i for i, m in enumerate(moves) if " knock" in m or "rummy" in m)
    if " knock" in moves[knock_at]:
        assert len(moves) > knock_at + 1  # the other player's last turn after the knock is shown
    page.screenshot(path=str(shots / "showdown-desktop.png"))


def test_house_rule_menus_and_fields_fit_a_phone(pages: Pages) -> None:
    """On a 360-pixel phone every house-rule menu shows its longest choice whole (the arrow aside) and
    the empty number field its whole placeholder, in both languages and for every game."""
    measure = """() => {
        const ctx = document.createElement('canvas').getContext('2d'), out = [];
        for (const el of document.querySelectorAll('#house-rules select, #house-rules input[placeholder]')) {
            ctx.font = getComputedStyle(el).font;
            const menu = el.tagName === 'SELECT';
            const texts = menu ? [...el.options].map(o => o.textContent) : [el.placeholder];
            const room = el.clientWidth - (menu ? 24 : 30);
            for (const text of texts) if (ctx.measureText(text).width > room) out.push(text);
        }
        return out;
    }"""
    for locale in ("de-DE", "en-US"):
        page = pages.open({"width": 360, "height": 740}, locale)
        pages.lobby(page)
        for preset in ("german", "viennese", "gin", "basic"):
            page.select_option("#preset", preset)
            assert page.evaluate(measure) == [], (locale, preset)
        page.close()


def test_read_the_rules_in_the_lobby_shows_the_house_rules_picked(pages: Pages) -> None:
    """The lobby's "Read the rules" showed the preset's page whatever house rules were picked."""
    page = pages.open({"width": 1280, "height": 800}, "de-DE")
    pages.lobby(page)
    page.select_option("#preset", "german")
    page.click("#btn-preset-rules")
    page.wait_for_selector("#rules-dialog:not(.hidden)")
    plain = page.inner_text("#rules-body")
    page.click("#btn-rules-close")
    page.select_option("#house-rules [data-option=unscored_hand]", "redeal")
    page.click("#btn-preset-rules")
    # The closed dialog's text reads empty, so the new page is waited for by what it must say.
    page.wait_for_selector("#rules-dialog:not(.hidden)")
    said = "derselbe Geber gibt neu"
    page.wait_for_function("s => document.querySelector('#rules-body').innerText.includes(s)", arg=said)
    assert "derselbe Geber gibt neu" in page.inner_text("#rules-body")
    assert "derselbe Geber gibt neu" not in plain


def test_gin_knock_limit_is_greyed_out_under_oklahoma(pages: Pages) -> None:
    """With Oklahoma the first upcard sets the knock limit, so the lobby greys the limit out and does
    not send it: the table is made, with Oklahoma, instead of the server refusing the pair."""
    page = pages.open()
    pages.lobby(page)
    page.select_option("#preset", "gin")
    raw_box = "#create-form textarea[name=overrides]"
    assert page.get_attribute(raw_box, "placeholder") == "undercut_on_tie=true"  # an example gin takes
    limit = page.locator("#house-rules [data-option=knock_card]")
    limit.fill("5")
    assert limit.is_enabled()
    page.check("#house-rules [data-option=oklahoma]")
    assert limit.is_disabled()
    page.uncheck("#house-rules [data-option=oklahoma]")
    assert limit.is_enabled()
    page.check("#house-rules [data-option=oklahoma]")
    create(page, preset="gin", seats=2, bots=1)
    rules = page.evaluate("S.state.table.rules")
    assert "oklahoma=true" in rules and "knock_card" not in rules, rules


def test_the_dskv_dealer_sits_out_at_the_table_in_the_result_and_on_the_score_sheet(pages: Pages) -> None:
    """At a DSkV table of four the dealer sits the hand out: the table says so (not "0 cards"), the
    result lists the seat as sitting out (not "0 points" like the winner) and the score sheet shows a
    dash for it; in both languages, and to the dealer's own page."""
    page = pages.open()
    seeded_table(page, pages.base, "german_dskv", seed=2, seats=4)  # seat 3 (Bot 4) deals
    assert page.evaluate("[S.state.view.dealer, S.state.view.active_seats]") == [3, [0, 1, 2]]
    dealer = page.locator("#opponents .opponent[data-seat='3'] .opp-meta")
    assert dealer.inner_text() == "sits out this hand · Dealer"
    assert page.locator("#opponents .opponent[data-seat='3'] .fan .card").count() == 0
    assert page.inner_text("#opponents .opponent[data-seat='1'] .opp-meta").startswith("13 cards")
    # The hand's end as the page draws it, with this hand's seats: Anna went out, Bot 4 dealt.
    shown = """() => {
        const round = { ...S.state.view, revealed: [[], ["KS"], ["2C", "9D"], []],
            result: { termination: "went_out", winner: 0, scored: true, points: [0, -10, -11, 0],
                      hand_values: [0, 10, 11, 0], multiplier: 1, arrangements: [null, null, null, null],
                      penalties: [0, 10, 11, 0], gains: [0, 0, 0, 0], gin: false, undercut_by: null } };
        const box = document.createElement("div");
        box.innerHTML = resultHtml(round);
        S.state.match.hands = [{ hand: 1, points: [0, -10, -11, 0], termination: "went_out", winner: 0,
                                 active_seats: [0, 1, 2], dealer: 3, multiplier: 1 },
                               { hand: 2, points: [0, 0, -20, -22], termination: "went_out", winner: 1,
                                 active_seats: [1, 2, 3], dealer: 0, multiplier: 2 }];
        S.state.match.scores = [0, -10, -31, -22];
        renderScores();
        const row = document.querySelectorAll("#scores tbody tr:first-child td");
        const cells = [...row].map((c) => c.firstChild.textContent);  // without the total under it
        const second = document.querySelector("#scores tbody tr:nth-child(2) td");
        const running = [...document.querySelectorAll("#scores tbody tr:nth-child(2) .running")].map(
            (e) => e.lastChild.textContent);
        const dealers = [...document.querySelectorAll("#scores tbody td.hand-no")].map((c) => c.title);
        const items = box.querySelectorAll(".showdown[role=list] > .showdown-seat[role=listitem]").length;
        const seats = [...box.querySelectorAll(".showdown-seat")].map((e) => e.innerText.trim());
        return { seats, cells, items, second: second.innerText, dealers, running };
    }"""
    result = page.evaluate(shown)
    # The sheet keeps who dealt each hand (the hand's title) and marks a Hand-Rommé's factor.
    assert result["second"] == "2 ×2" and result["dealers"] == ["Dealer: Bot 4", "Dealer: Anna (you)"]
    assert result["seats"][0] == "Anna (you): 0 points" and result["seats"][3] == "Bot 4: sits out this hand"
    assert result["items"] == 4  # a list a screen reader counts and steps through by seat
    assert result["cells"] == ["1", "0", "-10", "-11", "–"]
    assert result["running"] == ["0", "-10", "-31", "-22"]  # a seat sitting a hand out keeps its total
    page.click("#btn-lang")
    assert dealer.inner_text() == "setzt dieses Spiel aus · Geber"
    assert page.evaluate(shown)["seats"][3] == "Bot 4: setzt dieses Spiel aus"
    assert page.evaluate(shown)["dealers"] == ["Geber: Bot 4", "Geber: Anna (du)"]

    own = pages.open(locale="de-DE")
    seeded_table(own, pages.base, "german_dskv", seed=1, seats=4)  # Anna deals and sits out
    assert own.evaluate("S.state.view.dealer") == 0
    own.wait_for_function("$('#status').innerText.startsWith('Du setzt dieses Spiel aus')")


def test_a_game_that_needs_more_seats_keeps_the_bots_filling_them(pages: Pages) -> None:
    """DSkV needs three players: choosing it raises the seats from 2 to 3, and bots that filled every
    other seat still do, so Create starts the game (as for every other game) instead of leaving an open
    seat in a waiting room. Bots that left seats open for people are not added to."""
    page = pages.open()
    pages.lobby(page)
    seats, bots = "#create-form input[name=seats]", "#create-form input[name=bots]"
    page.fill(bots, "0")
    page.select_option("#preset", "german_dskv")
    assert [page.input_value(seats), page.input_value(bots)] == ["3", "0"]
    page.select_option("#preset", "german")
    page.fill(seats, "2")
    page.dispatch_event(seats, "change")
    page.fill(bots, "1")
    page.select_option("#preset", "german_dskv")
    assert [page.input_value(seats), page.input_value(bots)] == ["3", "2"]
    page.fill("#create-form input[name=name]", "Anna")
    page.click("#btn-create")
    page.wait_for_selector("#game:not(.hidden)")
    assert page.evaluate("S.state.table.seats.map((s) => s.kind)") == ["human", "bot", "bot"]


def test_a_knock_games_showdown_keeps_the_leftover_cards_inside_the_dialog_on_a_phone(pages: Pages) -> None:
    """A loser's deadwood in a knock game's result is one group of cards: on a 360-pixel phone it
    wraps inside the dialog like the melding games' cards, instead of running past its right edge."""
    page = pages.open({"width": 360, "height": 740}, "de-DE", has_touch=True)
    seeded_table(page, pages.base, "romme_ohne_auslegen", seed=3)
    overflow = page.evaluate("""() => {
        const dead = ["KS", "QH", "JD", "10C", "9S", "9H", "8D", "7C", "6S", "5H"];
        const round = { ...S.state.view, revealed: [null, null],
            result: { termination: "knock", winner: 0, scored: true, points: [-3, -85], hand_values: [3, 85],
                      multiplier: 1, penalties: [3, 85], gains: [0, 0], gin: false, undercut_by: null,
                      arrangements: [
                          { melds: [], meld_cards: [["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"]],
                            deadwood_cards: ["AS"], deadwood: 3 },
                          { melds: [], meld_cards: [], deadwood_cards: dead, deadwood: 85 }] } };
        showOverlay(resultHtml(round), t("continue"));
        const box = document.querySelector("#overlay .overlay-box").getBoundingClientRect();
        return [...document.querySelectorAll("#overlay .card")]
            .filter((c) => c.getBoundingClientRect().right > box.right).length;
    }""")
    assert overflow == 0
    assert page.evaluate("document.querySelector('#overlay .overlay-box').scrollWidth") <= 360


def test_a_knock_game_shows_your_deadwood_and_the_knock_limit(pages: Pages) -> None:
    """Rommé ohne Auslegen: under the piles, your own deadwood and the knock limit (as gin shows its
    knock card); after the draw, the least deadwood a discard leaves. In both languages."""
    page = pages.open()
    seeded_table(page, pages.base, "romme_ohne_auslegen", seed=1)  # Anna moves first
    line = page.locator("#knock-line")
    page.wait_for_function("S.state.legal.includes('take')")
    assert line.inner_text() == "Deadwood 44 · knock below 10"
    page.click("#discard")
    page.wait_for_function("S.state.view.phase === 'discard'")
    assert line.inner_text() == "Deadwood 37 after your best discard · knock below 10"
    page.click("#btn-lang")
    assert line.inner_text() == "Restpunkte 37 nach dem besten Abwurf · klopfen unter 10"
    # Gin: the deadwood alone (its own line above says the knock card), from the seat's own hand.
    seeded_table(page, pages.base, "gin", seed=11)
    page.wait_for_function("S.state.view.knock_line !== null")
    deadwood = page.evaluate("S.state.view.knock_line.deadwood")
    assert line.inner_text() == f"Restpunkte {deadwood}" and "Klopfen bis" in page.inner_text("#gin-line")
    seeded_table(page, pages.base, "german", seed=1)
    assert line.is_hidden()


def test_the_meld_tray_says_nothing_of_an_opening_where_there_is_no_minimum(pages: Pages) -> None:
    """Basic Rummy has no opening minimum: the tray shows the melds' total ("Total: 30"), not
    "Opening: 30 / 0"; German Rummy's tray still counts toward its 40."""
    compose = "() => { S.evaluation = null; S.groups = [S.state.view.hand.slice(0, 3)]; evaluate(); }"
    page = pages.open(locale="de-DE")
    labels = {"basic": ("Summe: ", "Total: "), "german": ("Erstmeldung: ", "Opening: ")}
    for preset, (german, english) in labels.items():
        seeded_table(page, pages.base, preset, seed=1)
        page.evaluate(compose)
        page.wait_for_function("S.evaluation !== null")
        shown = page.inner_text("#opening-total")
        assert shown.startswith(german) and shown.endswith("/ 40") == (preset == "german"), shown
        assert ("/" in shown) == (preset == "german"), shown
        page.click("#btn-lang")
        assert page.inner_text("#opening-total").startswith(english)
        page.click("#btn-lang")


def test_the_bots_are_named_in_words_in_the_lobby_and_the_waiting_room(pages: Pages) -> None:
    """The bot menu and the waiting room name each bot kind in the page's language, not by its id."""
    page = pages.open()
    pages.lobby(page)
    menu = "#bot-kind option"
    assert page.eval_on_selector_all(menu, "os => os.map((o) => o.value)") == ["random", "greedy", "search"]
    assert page.eval_on_selector_all(menu, "os => os.map((o) => o.text)") == ["Random", "Greedy", "Search"]
    page.select_option("#bot-kind", "greedy")
    page.click("#btn-lang")
    assert page.eval_on_selector_all(menu, "os => os.map((o) => o.text)") == ["Zufall", "Gierig", "Suche"]
    assert page.input_value("#bot-kind") == "greedy"  # the choice is kept
    create(page, seats=3, bots=1)
    page.wait_for_selector("#waiting:not(.hidden)")
    assert page.inner_text("#wait-seats li:last-child") == "Bot 3 (Bot: Gierig)"
    page.click("#btn-lang")
    assert page.inner_text("#wait-seats li:last-child") == "Bot 3 (bot: Greedy)"


def test_a_jokers_stand_in_label_leaves_its_joker_text_readable(pages: Pages) -> None:
    """A joker in a meld is labelled with the card it stands for ("=J♣"), in a set with its rank ("=Q":
    it had no label); the label covers neither the joker's corner "JK" nor its "JOKER" at the foot (it
    covered "JO", leaving "KER"). Desktop and phone."""
    german = Rules.preset("german")
    texts = ("10C JK QC", "9H JK JH QH", "QH QS JK")  # the server works out each joker's stand-in
    melds = [meld_json(TableMeld(Meld.parse(text, german), 1)) for text in texts]
    overlaps = """(melds) => {
        S.state.view.melds = melds;  // as the server sends them (protocol.meld_json)
        renderMelds();
        const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        return [...document.querySelectorAll("#melds .card.stands")].map((card) => {
            const label = card.querySelector(".stands-label"), box = label.getBoundingClientRect();
            const texts = [...card.querySelectorAll("svg text.idx")];  // J, K and JOKER
            const covered = texts.filter((t) => hit(box, t.getBoundingClientRect())).length;
            return { label: label.innerText, covered, texts: texts.length };
        });
    }"""
    for viewport, locale in ((DESKTOP, "en-US"), ({"width": 360, "height": 740}, "de-DE")):
        page = pages.open(viewport, locale)
        seeded_table(page, pages.base, "german", seed=1)
        jack = "=B♣" if locale == "de-DE" else "=J♣"  # a German page shows German packs' letters
        queen = "=D" if locale == "de-DE" else "=Q"  # a set's joker: its rank, in whichever suit is missing
        labels = [{"label": jack, "covered": 0, "texts": 3}, {"label": "=10♥", "covered": 0, "texts": 3}]
        labels.append({"label": queen, "covered": 0, "texts": 3})
        assert page.evaluate(overlaps, melds) == labels
