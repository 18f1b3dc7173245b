"""What a screen reader hears at the table, and the keys, as a player without a mouse meets them: the
lines written behind a dialog, each move said once, cards in words in the lists, and the shortcuts."""

from __future__ import annotations

from typing import Any

from tests.web.pages import Pages, open_lobby, seeded_table

DESKTOP = {"width": 1280, "height": 800}
SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""

RECORD_HEARD = """(ids) => {
    window.heard = [];
    // What a live region says: its text without the parts hidden from a screen reader, and only
    // while the page is not inert behind a dialog.
    const spoken = (el) => {
        const copy = el.cloneNode(true);
        copy.querySelectorAll("[aria-hidden=true]").forEach((e) => e.remove());
        return copy.textContent;
    };
    for (const id of ids) {
        const el = document.querySelector(id);
        new MutationObserver(() => {
            const text = spoken(el);
            if (text && !el.closest("[inert]")) window.heard.push(text);
        }).observe(el, { childList: true, characterData: true, subtree: true });
    }
}"""
"""Every text the table's live regions take while a screen reader can hear them (``window.heard``)."""

BOT_MOVES = """async (moves) => {
    // Moves of the bot (seat 1) added to the state as the server sends them, one state each: a text
    // (its notation too), or [notation, text].
    const hand = S.state.match.hands_dealt;
    for (const [k, move] of moves.entries()) {
        const [action, text] = Array.isArray(move) ? move : [move, move];
        const index = Math.max(-1, ...S.state.log.map((e) => e.index)) + 1;
        S.state.log.push({ index, seat: 1, action, texts: { en: text, de: text }, hand });
        if (k === moves.length - 1) {  // after the bot's last move it is the player's turn again
            S.state.legal = ["draw", "take"]; S.state.match.to_move = 0;
        } else {
            S.state.legal = []; S.state.compose = []; S.state.match.to_move = 1;
        }
        S.state.version += 1;
        render();
        await new Promise((done) => setTimeout(done, window.botGap || 50));
    }
}"""
"""Bot moves played into the page's state (``S.ws.send`` stubbed: nothing reaches the server), 50 ms
apart (``window.botGap``: other gaps)."""


def seated(pages: Pages, seed: int = 48, locale: str = "en-US") -> Any:
    page = pages.open(DESKTOP, locale)
    seeded_table(page, pages.base, "german", seed)
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.evaluate("S.ws.send = () => {}")
    return page


def test_the_turn_and_the_moves_behind_a_hands_result_are_said_when_it_closes(pages: Pages) -> None:
    """The next hand's state arrives while the result is open: its "Your turn" and the bots' moves were
    written in the inert page, not heard, and not written again after Continue."""
    page = seated(pages)
    page.evaluate(RECORD_HEARD, ["#status", "#last-move-said"])
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    page.evaluate("S.state.legal = []; S.state.match.to_move = 1; render()")
    page.evaluate(BOT_MOVES, ["draws from the stock", "discards 5♠"])
    page.wait_for_timeout(200)
    assert page.evaluate("window.heard") == []  # behind the dialog
    page.keyboard.press("Enter")  # Continue
    page.wait_for_timeout(400)
    heard = page.evaluate("window.heard")
    assert any(h.startswith("Your turn: draw") for h in heard), heard
    assert any("Bot 2: discards 5 of spades" in h for h in heard), heard


def test_each_turn_of_the_others_is_said_once_in_a_line(pages: Pages) -> None:
    """Each bot move was said as it came ("Bot 2: draws from the stock", "Bot 2: lays off …", "Bot 2:
    discards …"), and before that again in the line of everything since the player's own move: a
    turn is said once, when it is over, in one line (the draw from the stock left out, a lay-off
    without its meld), and the line above the table shows the same, readable whole, in words."""
    page = seated(pages)
    page.evaluate(RECORD_HEARD, ["#last-move-said"])
    page.evaluate("window.botGap = 300")
    moves = [
        ["draw", "draws from the stock"],
        ["layoff 6S on 1", "lays off 6♠ on meld 1"],
        ["discard 5S", "discards 5♠"],
    ]
    page.evaluate(BOT_MOVES, moves)
    page.wait_for_timeout(100)
    assert page.evaluate("window.heard") == ["Bot 2: lays off the 6 of spades, discards 5 of spades"]
    shown = page.inner_text("#last-move .shown")
    assert shown == "Meanwhile: Bot 2: lays off the 6♠, discards 5♠"
    heard = "Meanwhile: Bot 2: lays off the 6 of spades, discards 5 of spades"
    assert page.evaluate(HEARD_LIST, "#last-move") == [heard]


def test_a_german_turn_line_names_its_cards_as_objects(pages: Pages) -> None:
    """The line of another's turn said "nimmt Joker" and "legt Joker an", no German: a card taken or
    laid off is its short form ("legt B♣ an"), a joker "einen Joker", as the server's moves say it;
    heard, a jack is declined ("legt Kreuz-Buben an")."""
    page = seated(pages, locale="de-DE")
    moves = [
        ["take JK", "nimmt einen Joker von der Ablage"],
        ["layoff JC on 1", "legt Kreuz-Buben an Figur 1 an"],
        ["layoff JK on 1", "legt einen Joker an Figur 1 an"],
        ["discard QH", "wirft Herz-Dame ab"],
    ]
    page.evaluate(BOT_MOVES, moves)
    page.wait_for_timeout(100)
    shown = page.inner_text("#last-move .shown")
    assert shown == "Inzwischen: Bot 2: nimmt einen Joker, legt 2 Karten an, wirft Herz-Dame ab", shown
    page.evaluate(BOT_MOVES, moves[:2] + moves[3:])
    page.wait_for_timeout(100)
    shown = page.inner_text("#last-move .shown")
    assert shown.endswith("Bot 2: nimmt einen Joker, legt B♣ an, wirft Herz-Dame ab"), shown
    heard = page.evaluate(HEARD_LIST, "#last-move")[0]
    assert heard.endswith("Bot 2: nimmt einen Joker, legt Kreuz-Buben an, wirft Herz-Dame ab"), heard


HEARD_LIST = """(sel) => [...document.querySelectorAll(sel)].map((li) => {
    const copy = li.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach((e) => e.remove());
    return copy.textContent;
})"""
"""What a screen reader reads of each item of a list."""


def test_the_moves_panel_and_the_results_last_moves_say_cards_in_words(pages: Pages) -> None:
    """The Moves panel and a hand's "Last moves" were read with the symbols ("10 black club suit JK");
    they say the cards in words, as the live lines do, and show them as before."""
    page = seated(pages, locale="de-DE")
    page.evaluate(BOT_MOVES, ["wirft 10♣ ab", "legt aus: 10♣ 10♦ JK"])
    page.evaluate("$('#log-box').open = true; S.handMoves = null; renderLog()")
    heard = page.evaluate(HEARD_LIST, "#log li")
    assert heard[-2:] == ["Bot 2: wirft Kreuz-10 ab", "Bot 2: legt aus: Kreuz-10, Karo-10, Joker"]
    shown = page.locator("#log li").last.locator("[aria-hidden=true]").inner_text()
    assert shown == "Bot 2: legt aus: 10♣ 10♦ JK"
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    heard = page.evaluate(HEARD_LIST, "#overlay .last-moves li")
    assert heard[-2:] == ["Bot 2: wirft Kreuz-10 ab", "Bot 2: legt aus: Kreuz-10, Karo-10, Joker"]
    assert "10♣ 10♦ JK" in page.inner_text("#overlay .last-moves")


def test_passing_a_game_in_the_menu_keeps_the_seats_the_player_set(pages: Pages) -> None:
    """Arrowing through the game menu passes DSkV (three seats at least), which set three seats and two
    bots; the games after it kept them. Each game starts from what the player set, where it allows it."""
    page = pages.open(DESKTOP, "en-US")
    open_lobby(page, pages.base)
    form = "['seats', 'bots'].map((n) => $('#create-form').elements[n].value)"
    page.select_option("#preset", "german")
    assert page.evaluate(form) == ["2", "1"]
    page.select_option("#preset", "german_dskv")
    assert page.evaluate(form) == ["3", "2"]
    for game in ("viennese", "german"):
        page.select_option("#preset", game)
        assert page.evaluate(form) == ["2", "1"], game
    page.fill("#create-form input[name=seats]", "4")
    page.fill("#create-form input[name=bots]", "2")
    page.select_option("#preset", "gin")
    assert page.evaluate(form) == ["2", "1"]
    page.select_option("#preset", "german_dskv")
    assert page.evaluate(form) == ["4", "2"]


def test_arrow_keys_scroll_the_moves_and_the_scores_panels(pages: Pages) -> None:
    """The Moves and Scores panels take the focus so that they can be scrolled by keyboard; up and down
    there jumped into the hand instead."""
    page = seated(pages)
    page.evaluate(BOT_MOVES, [f"draws from the stock ({k})" for k in range(40)])
    page.evaluate("$('#log-box').open = true; S.handMoves = null; renderLog()")
    page.focus("#log")
    bottom = page.evaluate("$('#log').scrollTop")
    assert bottom > 0
    page.keyboard.press("ArrowUp")
    page.wait_for_function("b => $('#log').scrollTop < b", arg=bottom)
    assert page.evaluate("document.activeElement.id") == "log"
    page.focus("#scores")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.id") == "scores"
    page.focus("#btn-sort-suit")  # elsewhere at the table the arrows still go to the hand
    page.keyboard.press("ArrowDown")
    assert page.evaluate("!!document.activeElement.closest('#hand')")


SPY = "() => { window.sent = []; S.ws.send = (m) => window.sent.push(JSON.parse(m).action); }"
"""Moves the page sends, kept in ``window.sent`` (nothing reaches the server)."""


def test_letter_shortcuts_take_shift_and_can_be_turned_off(pages: Pages) -> None:
    """Shift+D (or D with Caps Lock) did nothing; Ctrl+D is the browser's. The single-key shortcuts can
    be turned off in the keyboard help (WCAG 2.1.4), and stay off in this browser."""
    page = seated(pages, locale="de-DE")
    page.evaluate(SPY)
    page.keyboard.press("Control+d")
    page.keyboard.press("Shift+D")
    assert page.evaluate("window.sent") == ["draw"]
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog:not(.hidden)")
    assert "Spracheingabe" in page.inner_text("#keys-dialog")
    page.get_by_label("Einzeltasten-Kürzel").uncheck()
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-dialog", state="hidden")
    page.keyboard.press("d")
    page.keyboard.press("?")
    assert page.locator("#keys-dialog").is_hidden() and page.evaluate("window.sent") == ["draw"]
    page.reload()
    page.wait_for_function("S.state && S.state.view")
    page.evaluate(SPY)
    page.keyboard.press("d")
    page.click("#btn-keys")
    assert not page.get_by_label("Einzeltasten-Kürzel").is_checked()
    assert page.evaluate("window.sent") == []


def test_an_enter_at_the_match_end_does_not_leave_it(pages: Pages) -> None:
    """At the match's end the keyboard was on "New table": the Enter that closes every hand's result
    left the page. It starts at the heading; Tab goes on through the dialog."""
    page = seated(pages)
    page.evaluate(
        """() => showMatchOver({ ...S.state, match: { ...S.state.match, winners: [0] },
                                 view: { ...S.state.view, result: null }, last_round: null })"""
    )
    assert page.evaluate("document.activeElement.id") == "match-over"
    page.keyboard.press("Enter")
    assert page.locator("#overlay").is_visible() and page.url.endswith(page.evaluate("location.search"))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#overlay .overlay-box') !== null")


def test_the_unread_chat_button_is_a_finger_high_on_a_touch_screen(pages: Pages) -> None:
    """The unread-chat button kept its own 32 px height over the 44 px every touch target has."""
    page = pages.open({"width": 1024, "height": 768}, "en-US", has_touch=True)
    seeded_table(page, pages.base, "german", 48)
    page.evaluate("S.chatUnread = 2; renderChatJump()")
    assert page.locator("#chat-jump").bounding_box()["height"] >= 44


def test_escape_in_the_chat_field_goes_back_to_the_hand(pages: Pages) -> None:
    """Escape in the chat's text field did nothing: the keyboard had to Tab back to the table."""
    page = seated(pages)
    page.evaluate("$('#chat-box').open = true")
    page.focus("#chat-input")
    page.keyboard.press("Escape")
    assert page.evaluate("!!document.activeElement.closest('#hand')")


def test_the_focused_card_is_in_view_when_the_turn_starts(pages: Pages) -> None:
    """On a 1024×768 touch screen the line of the others' moves grew at the start of a turn and pushed
    the focused card of the hand partly off the screen."""
    page = pages.open({"width": 1024, "height": 768}, "en-US", has_touch=True)
    seeded_table(page, pages.base, "german", 48)
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.evaluate("S.ws.send = () => {}")
    page.locator("#hand .card").first.focus()
    page.evaluate("onState({ ...S.state, version: S.state.version + 1, legal: [], compose: [] })")
    # The card just above the screen's lower edge, as a player who scrolled to the hand had it.
    page.evaluate(
        """() => {
            const card = document.activeElement.getBoundingClientRect();
            scrollBy(0, card.bottom - innerHeight + 4);
        }"""
    )
    turn = """() => {
        const log = S.state.log.slice(), hand = S.state.match.hands_dealt;
        const last = Math.max(-1, ...log.map((e) => e.index));
        for (let k = 1; k <= 6; k++) {
            const text = `lays off ${k}♠ on a long row of melds that takes a line of its own on a tablet`;
            log.push({ index: last + k, seat: 1, action: text, texts: { en: text, de: text }, hand });
        }
        onState({ ...S.state, version: S.state.version + 1, legal: ["draw", "take"], log });
    }"""
    page.evaluate(turn)
    box = page.evaluate(
        "(r => [r.top, r.bottom, innerHeight])(document.activeElement.getBoundingClientRect())"
    )
    assert page.evaluate("!!document.activeElement.closest('#hand')")
    assert box[0] >= 0 and box[1] <= box[2], box


SORT_SPY = """() => {
    window.sorted = [];
    const sort = sortHand;
    sortHand = (by) => { window.sorted.push(by); sort(by); };
}"""
"""The sortings asked for, kept in ``window.sorted``."""


def test_the_keyboard_help_lists_up_and_down_and_m_sorts_by_melds(pages: Pages) -> None:
    """The help left out the up and down keys, and "Sort by melds" (the knock games and gin) had no key:
    M sorts by melds where that button is."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, "viennese", 1)
    page.wait_for_function("!$('#btn-sort-melds').classList.contains('hidden')")
    page.evaluate(SORT_SPY)
    page.keyboard.press("m")
    assert page.evaluate("window.sorted") == ["melds"]
    page.keyboard.press("?")
    help_text = page.inner_text("#keys-dialog")
    assert "↑ ↓\tzur Hand gehen (in den Feldern Züge, Punkte und Chat: sie blättern)" in help_text
    assert "M\tnach Figuren sortieren" in help_text
    seeded_table(page, pages.base, "german", 48)  # no sorting by melds: neither the key nor its line
    page.evaluate(SORT_SPY)
    page.keyboard.press("m")
    page.keyboard.press("?")
    assert "nach Figuren sortieren" not in page.inner_text("#keys-dialog")
    assert page.evaluate("window.sorted") == []


def test_the_waiting_room_says_who_sits_down_and_who_leaves(pages: Pages) -> None:
    """Before the start a screen reader heard nobody come or go, only the start once the last seat
    was taken: the host waited without knowing who had joined."""
    from tests.web.pages import RECORD_ANNOUNCEMENTS, waiting_table

    host = pages.open(DESKTOP)
    code = waiting_table(host, pages.base)
    host.evaluate(RECORD_ANNOUNCEMENTS)
    guest = pages.open(DESKTOP)
    open_lobby(guest, pages.base)
    token = guest.evaluate(
        "async (code) => (await api(`/api/tables/${code}/join`, { name: 'Ben' })).token", code
    )
    host.wait_for_function("window.said.some((s) => s.includes('Ben sat down (2 of 3 seats taken)'))")
    guest.evaluate("async ([code, token]) => api(`/api/tables/${code}/leave`, { token })", [code, token])
    host.wait_for_function("window.said.some((s) => s.includes('Ben left the seat (1 of 3 seats taken)'))")
    assert not any("Anna" in said for said in host.evaluate("window.said"))  # not the host's own seat


def test_the_table_has_headings_and_a_side_landmark_to_jump_between(pages: Pages) -> None:
    """A screen reader's user jumps by headings and landmarks; the table screen had neither besides the
    page's banner and main, so the hand, the table and the scores were found by reading everything."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, "german", 5, seats=2, bot="random")
    shown = "[...document.querySelectorAll('#game h2')].filter((h) => !h.closest('.hidden'))"
    headings = page.evaluate(shown + ".map((h) => h.textContent)")
    assert headings == ["Der Tisch", "Deine Hand", "Punkte, Züge und Chat"]
    tree = page.locator("#game").aria_snapshot()
    assert 'heading "Deine Hand"' in tree and 'complementary "Punkte, Züge und Chat"' in tree
