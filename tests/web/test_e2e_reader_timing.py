"""What a screen reader hears at the table as things happen one after another: moves close together, the
others' turns, a player a bot stands in for, the turn clock running low, a new hand behind a result, and
the focus on the hand while the marks on its cards change."""

from __future__ import annotations

from typing import Any

from tests.web.pages import Pages, seeded_table
from tests.web.test_e2e_reader_and_keys import BOT_MOVES, seated

SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")

RECORD_SPOKEN = """(ids) => {
    window.spoken = [];
    // A live region's text, as a screen reader gets it: without the parts hidden from it, not while
    // the page is inert behind a dialog, not while the region is aria-live="off".
    const text = (el) => {
        const copy = el.cloneNode(true);
        copy.querySelectorAll("[aria-hidden=true]").forEach((e) => e.remove());
        return copy.textContent;
    };
    // One observer for all: its records come in the order the regions changed.
    const observer = new MutationObserver((records) => {
        for (const record of records) {
            const id = ids.find((i) => document.querySelector(i).contains(record.target));
            const el = document.querySelector(id), said = text(el);
            const last = window.spoken[window.spoken.length - 1];
            if (!said || el.closest("[inert]") || el.getAttribute("aria-live") === "off") continue;
            if (!last || last[0] !== id || last[1] !== said) window.spoken.push([id, said]);
        }
    });
    const what = { childList: true, characterData: true, subtree: true };
    for (const id of ids) observer.observe(document.querySelector(id), what);
}"""
"""Every text the named live regions give a screen reader, in order, with the region (``window.spoken``)."""


def spoken(page: Any) -> list[list[str]]:
    said: list[list[str]] = page.evaluate("window.spoken")
    return said


def test_a_move_replaced_at_once_is_said_with_the_next(pages: Pages) -> None:
    """A screen reader reads a live region's last text: a bot's draw and discard 20 ms apart lost the
    draw, and the list of moves arriving just after a move emptied the line before it was read."""
    page = seated(pages)
    page.evaluate("window.botGap = 20")
    page.evaluate(BOT_MOVES, ["draws from the stock", "discards 5♠"])
    page.wait_for_timeout(50)
    line = page.inner_text("#last-move-said")
    assert "Bot 2: draws from the stock, discards 5 of spades" in line, line
    page.wait_for_timeout(300)
    page.evaluate("window.botGap = 300")
    page.evaluate("""async () => {
        const index = Math.max(...S.state.log.map((e) => e.index)) + 1;
        const hand = S.state.match.hands_dealt;
        S.state.log.push({ index, seat: 0, action: "draws from the stock", texts: null, hand });
        S.state.version += 1; render();
        await new Promise((done) => setTimeout(done, 20));
        render();  // the list of moves, a hint, the evaluation: drawn again at once
    }""")
    assert page.inner_text("#last-move-said") == "Anna (you): draws from the stock"


def test_the_others_turns_are_not_said_in_the_turn_line(pages: Pages) -> None:
    """The turn's line said "Bot 2 to move" before each of the bot's moves, which say whose they are;
    a player hears the line when it concerns them. Chromium takes aria-live="off" on the line's
    role=status for what it is: no live region."""
    page = seated(pages)
    page.evaluate(RECORD_SPOKEN, ["#status", "#last-move-said"])
    page.evaluate("window.botGap = 300")
    page.evaluate(BOT_MOVES, ["draws from the stock", "discards 5♠"])
    page.wait_for_timeout(400)
    assert spoken(page) == [
        ["#last-move-said", "Bot 2: draws from the stock, discards 5 of spades"],
        ["#status", "Your turn: draw from the stock or take the discard"],
    ]
    page.evaluate(
        "S.state.legal = []; S.state.compose = []; S.state.match.to_move = 1; S.state.version++; render()"
    )
    assert page.inner_text("#status") == "Bot 2 to move"
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.getDocument")
    node = cdp.send("DOM.querySelector", {"nodeId": 1, "selector": "#status"})["nodeId"]
    ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
    live = {p["name"]: p["value"]["value"] for p in ax.get("properties", [])}.get("live", "off")
    assert live == "off", ax


def test_the_line_of_a_player_a_bot_stands_in_for_is_said_once(pages: Pages) -> None:
    """While a bot played for the player, the line "A bot plays for you … I'm back" was written anew
    with every state: said with each of the bot's moves, and its button under the keyboard replaced."""
    page = seated(pages)
    page.evaluate(RECORD_SPOKEN, ["#status"])
    page.evaluate("S.state.table.seats[0].away = true; S.state.version += 1; render()")
    page.focus("#back")
    page.evaluate("window.back = document.activeElement")
    page.evaluate("window.botGap = 200")
    page.evaluate(BOT_MOVES, ["draws from the stock", "discards 5♠"])
    page.evaluate("S.state.version += 1; render()")
    said = [text for _, text in spoken(page)]
    assert said == ["A bot plays for you (you did not move in time) I'm back"], said
    assert page.evaluate("document.activeElement === window.back")


def test_the_turn_clock_is_said_as_it_runs_low(pages: Pages) -> None:
    """The turn clock was shown only (aria-live off): a blind player's turn ran out unheard. At 30 s
    left (a turn of a minute) it is said politely, at 10 s at once, each once; in the page's language."""
    page = seated(pages, locale="de-DE")
    page.evaluate(RECORD_SPOKEN, ["#announce", "#announce-now"])
    clock = """(left) => {
        S.state.table.turn_seconds = 60; S.state.turn_left = left; S.state.version += 1; render();
    }"""
    page.evaluate(clock, 31.5)
    page.wait_for_function("window.spoken.length >= 1", timeout=5000)
    page.evaluate(clock, 10.5)
    page.wait_for_function("window.spoken.length >= 2", timeout=5000)
    page.wait_for_timeout(1200)  # the clock's next second says nothing more
    assert spoken(page) == [
        ["#announce", "Noch 30 Sekunden für deinen Zug, dann spielt ein Bot für dich"],
        ["#announce-now", "Noch 10 Sekunden für deinen Zug, dann spielt ein Bot für dich"],
    ]
    assert page.get_attribute("#announce-now", "role") == "alert"


def test_the_focused_card_stays_while_its_marks_change(pages: Pages) -> None:
    """A hint, the list of moves (playable cards) or a card picked redrew the whole hand: the focused
    card's element was replaced, and a screen reader read it again and broke off what it was saying,
    two or three times a turn. The cards are marked where they are."""
    page = seated(pages)
    page.focus("#hand .card[data-index='2']")
    page.evaluate("""() => {
        window.focusMoves = 0;
        document.addEventListener("focusin", () => { window.focusMoves += 1; });
        window.card = document.activeElement;
    }""")
    page.evaluate("S.hint = 'discard ' + S.state.view.hand[0]; render()")
    assert page.locator("#hand .card.hinted").count() >= 1
    page.keyboard.press("Space")  # the focused card picked
    assert page.get_attribute("#hand .card[data-index='2']", "aria-selected") == "true"
    page.evaluate("S.hint = null; render()")
    assert page.evaluate("[document.activeElement === window.card, window.focusMoves]") == [True, 0]


def test_a_new_hand_is_said_before_its_moves_when_the_result_closes(pages: Pages) -> None:
    """The next hand is dealt and played behind the last hand's result: after Continue its moves and
    "Your turn" were said first, "Hand 2 · Dealer: …" after them, and the moves said began with the
    ended hand's last ones (read in the result already)."""
    page = seated(pages)
    page.evaluate(BOT_MOVES, ["draws from the stock"])  # heard before the hand ends
    page.evaluate(RECORD_SPOKEN, ["#announce", "#last-move-said", "#status"])
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    page.evaluate("S.state.legal = []; S.state.match.to_move = 1; render()")
    page.evaluate(BOT_MOVES, ["discards 5♠"])  # the first hand's last move
    page.evaluate("S.state.match.hands_dealt = 2; S.state.view.dealer = 1")
    page.evaluate(BOT_MOVES, ["draws from the stock", "discards 7♥"])
    page.keyboard.press("Enter")  # Continue
    page.wait_for_timeout(500)
    said = spoken(page)
    assert [region for region, _ in said] == ["#announce", "#last-move-said", "#status"], said
    assert said[0][1].startswith("Hand 2 · Dealer: Bot 2"), said
    assert said[1][1] == "Bot 2: draws from the stock, discards 7 of hearts", said


def test_the_ended_hands_last_move_is_not_said_in_the_next(pages: Pages) -> None:
    """A hand the player goes out in ends behind its result; the next one begins with the player's
    turn: after Continue its last move ("Anna: goes out …") was said after "Hand 2 · Dealer: …"."""
    page = seated(pages)
    page.evaluate(BOT_MOVES, ["draws from the stock"])
    page.evaluate(RECORD_SPOKEN, ["#announce", "#last-move-said"])
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    page.evaluate(BOT_MOVES, ["goes out"])
    page.evaluate("S.state.match.hands_dealt = 2; S.state.version += 1; render()")
    page.keyboard.press("Enter")  # Continue
    page.wait_for_timeout(500)
    said = spoken(page)
    assert [region for region, _ in said] == ["#announce"], said


def test_the_players_own_draw_is_said_once_with_its_card(pages: Pages) -> None:
    """A draw from the stock was said twice each turn: "Anna (you): draws from the stock", then "You
    draw the 2 of clubs". The second says it (the line above the table still shows the first)."""
    page = seated(pages)
    page.evaluate(RECORD_SPOKEN, ["#announce", "#last-move-said"])
    page.evaluate("""() => {
        const st = structuredClone(S.state), index = Math.max(-1, ...st.log.map((e) => e.index)) + 1;
        const texts = { en: "draws from the stock", de: "zieht vom Stoß" };
        st.log.push({ index, seat: 0, action: "draw", texts, hand: st.match.hands_dealt });
        st.view.hand.push("2C"); st.version += 1; st.legal = ["discard 2C"]; st.compose = [];
        onState(st);
    }""")
    page.wait_for_timeout(400)
    assert spoken(page) == [["#announce", "You draw the 2 of clubs"]]
    assert page.inner_text("#last-move") == "Last move: Anna (you): draws from the stock"


def test_the_matchs_end_takes_the_focus_once(pages: Pages) -> None:
    """The match's end focused "New table", then at once its heading: a screen reader began "New table,
    button" and was cut off. The heading alone takes the focus."""
    page = seated(pages)
    page.evaluate("""() => {
        window.focused = [];
        document.addEventListener("focusin", (ev) => window.focused.push(ev.target.id || "?"));
        showMatchOver({ ...S.state, match: { ...S.state.match, winners: [0] },
                        view: { ...S.state.view, result: null }, last_round: null });
    }""")
    assert page.evaluate("window.focused") == ["match-over"]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#overlay') !== null")


def test_the_focused_card_keeps_the_focus_when_a_card_comes_before_it(pages: Pages) -> None:
    """A card drawn into the hand before the focused one moved it along: the focus stayed at its place
    and a screen reader named the neighbour, as if the focus had moved. It stays on the card."""
    page = seated(pages)
    page.focus("#hand .card[data-index='2']")
    card = page.evaluate("document.activeElement.dataset.card")
    page.evaluate("""() => {
        const st = structuredClone(S.state);
        st.view.hand.unshift("2C"); st.version += 1; st.legal = ["discard 2C"]; st.compose = [];
        onState(st);
    }""")
    assert page.evaluate("document.activeElement.dataset.card") == card
    assert page.evaluate("document.activeElement.dataset.index") != "2"


def test_sitting_a_hand_out_is_said_once(pages: Pages) -> None:
    """The dealer at a table of four sits the hand out (DSkV): "You sit out this hand · Bot 2 to move"
    was said with every turn of the others, the whole hand long."""
    page = pages.open()
    seeded_table(page, pages.base, "german", 48, seats=3)
    page.evaluate("S.ws.send = () => {}")
    page.evaluate(RECORD_SPOKEN, ["#status"])
    turn = """(seat) => {
        S.state.view.in_play = [0, 1, 2]; S.state.view.active_seats = [1, 2];
        S.state.legal = []; S.state.compose = []; S.state.match.to_move = seat;
        S.state.version += 1; render();
    }"""
    for seat in (1, 2, 1):
        page.evaluate(turn, seat)
        page.wait_for_timeout(100)
    said = [text for _, text in spoken(page)]
    assert said == ["You sit out this hand (the dealer sits out at a table of four) · Bot 2 to move"], said


def test_another_person_a_bot_stands_in_for_is_said_and_their_return(pages: Pages) -> None:
    """Another person taken over by a bot (away, or out of time) showed only a mark in their box: a
    screen reader heard nothing of it, nor of their coming back. Both are said once, in the page's
    language, and a state that changes nothing about it says nothing."""
    page = seated(pages, locale="de-DE")
    page.evaluate(RECORD_SPOKEN, ["#announce"])
    page.evaluate("S.state.table.seats[1] = { ...S.state.table.seats[1], kind: 'human', name: 'Ben' }")
    page.evaluate("render()")
    for away in ("true", "true", "false"):
        page.evaluate(f"S.state.table.seats[1].away = {away}; S.state.version += 1; render()")
        page.wait_for_timeout(250)  # the announcements of one moment are said together, 100 ms on
    said = [text for _, text in spoken(page)]
    assert said == [
        "Ben ist nicht da: ein Bot spielt an diesem Platz",
        "Ben ist zurück und spielt wieder",
    ], said


OTHERS_MOVE = """async (moves) => {
    // [seat, notation, text, German text, freed] moves of the others (the German text the English
    // one unless given; freed: the jokers an exchange took), one state each, 200 ms apart; then it is
    // the player's turn.
    const hand = S.state.match.hands_dealt;
    for (const [k, [seat, action, text, de, freed]] of moves.entries()) {
        const index = Math.max(-1, ...S.state.log.map((e) => e.index)) + 1;
        const entry = { index, seat, action, texts: { en: text, de: de === undefined ? text : de }, hand };
        if (freed) entry.freed = freed;
        S.state.log.push(entry);
        const last = k === moves.length - 1;
        S.state.legal = last ? ["draw", "take"] : []; S.state.compose = [];
        S.state.match.to_move = last ? 0 : seat;
        S.state.version += 1; render();
        await new Promise((done) => setTimeout(done, 200));
    }
}"""
THREE_BOTS = [
    [1, "draw", "draws from the stock"],
    [1, "open 10H JH QH | AS AD AC | 4C 4D 4H", "opens with 10♥ J♥ Q♥ | A♠ A♦ A♣ | 4♣ 4♦ 4♥ (43 points)"],
    [1, "discard KS", "discards K♠"],
    [2, "take KS", "takes K♠ from the discard pile"],
    [2, "layoff 5C on 3", "lays off 5♣ on meld 3"],
    [2, "layoff KH on 1", "lays off K♥ on meld 1"],
    [2, "discard 7D", "discards 7♦"],
    [3, "draw", "draws from the stock"],
    [3, "discard 9S", "discards 9♠"],
]


def test_three_bots_turns_are_said_a_line_each_and_w_says_them_in_full(pages: Pages) -> None:
    """Against three fast bots a screen reader heard every move between two of the player's turns,
    each meld card by card, the draws from the stock too (and the last six moves again): more than
    the speech keeps up with. Each turn is one line ("Bot 3: takes …, lays off 2 cards, discards …");
    W says the moves since the player's last one in full."""
    page = pages.open(locale="en-US")
    seeded_table(page, pages.base, "german", 48, seats=4, bot="random")
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.evaluate("S.ws.send = () => {}; S.state.legal = []; S.state.match.to_move = 1; render()")
    page.evaluate(RECORD_SPOKEN, ["#announce", "#last-move-said", "#status"])
    page.evaluate(OTHERS_MOVE, THREE_BOTS)
    page.wait_for_timeout(300)
    assert [text for region, text in spoken(page) if region != "#status"] == [
        "Bot 2: lays out 9 cards (43 points), discards king of spades",
        "Bot 3: takes the king of spades, lays off 2 cards, discards 7 of diamonds",
        "Bot 4: discards 9 of spades",
    ], spoken(page)
    page.keyboard.press("w")
    page.wait_for_function("window.spoken.some(([region]) => region === '#announce')")
    full = [text for region, text in spoken(page) if region == "#announce"][-1]
    assert full.startswith("The moves in full: Bot 2: draws from the stock · Bot 2: opens with 10 of"), full
    assert full.endswith("Bot 4: draws from the stock · Bot 4: discards 9 of spades"), full
    page.click("#btn-lang")
    page.evaluate("window.spoken = []")
    page.keyboard.press("w")
    page.wait_for_function("window.spoken.some(([region]) => region === '#announce')")
    assert spoken(page)[-1][1].startswith("Die Züge ausführlich: Bot 2: draws from the stock"), spoken(page)


def test_a_hint_is_said_before_the_move_it_led_to_and_not_after_a_move(pages: Pages) -> None:
    """A hint asked for and played at once (H, then P) was said after the move's line: it waited to be
    announced while the move's line was written. A hint that comes after a move made meanwhile is
    for a turn that is gone: not said."""
    page = seated(pages)
    page.evaluate(RECORD_SPOKEN, ["#announce", "#last-move-said"])
    move = """(action) => {
        const st = structuredClone(S.state), index = Math.max(-1, ...st.log.map((e) => e.index)) + 1;
        const texts = { en: "takes 5♠ from the discard pile", de: "nimmt Pik-5 von der Ablage" };
        st.log.push({ index, seat: 0, action, texts, hand: st.match.hands_dealt });
        st.version += 1; st.legal = []; st.compose = [];
        onState(st);
    }"""
    texts = "{ en: 'take the 5♠', de: 'Pik-5 nehmen' }"
    hint = f"{{ type: 'hint', action: 'take', texts: {texts}, version: S.state.version }}"
    page.evaluate(f"onMessage({hint}); act('take')")
    page.evaluate(move, "take 5S")
    page.wait_for_timeout(300)
    assert spoken(page) == [
        ["#announce", "Hint: take the 5 of spades"],
        ["#last-move-said", "Anna (you): takes 5 of spades from the discard pile"],
    ]
    page.evaluate("S.state.legal = ['discard 5S']; S.state.version += 1; render(); window.spoken = []")
    page.evaluate(f"act('discard 5S'); onMessage({hint})")  # asked, but the move went first
    page.wait_for_timeout(300)
    assert spoken(page) == [] and page.locator("#hint").is_hidden()


def test_the_knock_line_and_the_knock_are_said_once_a_turn(pages: Pages) -> None:
    """Viennese: the deadwood line was said after the draw and again after the discard (the same
    number, without "after your best discard"); after another's knock the turn's line said "Bot 2
    knocked – your last turn" at the draw and again at the discard."""
    page = seated(pages, locale="de-DE")
    page.evaluate(RECORD_SPOKEN, ["#knock-line", "#status"])
    turn = """([legal, after, knocker]) => {
        S.state.legal = legal; S.state.compose = []; S.state.match.to_move = legal.length ? 0 : 1;
        S.state.view.phase = after ? "discard" : "draw"; S.state.view.knocker = knocker;
        S.state.view.knock_line = { deadwood: 18, after_discard: after, threshold: 5, comparison: "lt" };
        S.state.version += 1; render();
    }"""
    page.evaluate(turn, [["discard 5S"], True, None])  # drawn: the deadwood after the best discard
    page.evaluate(turn, [[], False, None])  # discarded
    page.evaluate(turn, [["draw", "take"], False, 1])  # Bot 2 knocked: the last turn
    page.evaluate(turn, [["discard 5S"], True, 1])
    page.wait_for_timeout(200)
    assert spoken(page) == [
        ["#knock-line", "Restpunkte 18 nach dem besten Abwurf · klopfen unter 5"],
        ["#status", "Du bist dran: abwerfen"],
        ["#status", "Bot 2 hat geklopft – dein letzter Zug: vom Stoß ziehen oder von der Ablage nehmen"],
        ["#knock-line", "Restpunkte 18 nach dem besten Abwurf"],
        ["#status", "Dein letzter Zug: abwerfen"],
    ], spoken(page)
    assert page.inner_text("#status .shown") == "Bot 2 hat geklopft – dein letzter Zug: abwerfen"


def described(page: Any, selector: str) -> str:
    """The accessible description Chromium gives the element at ``selector``."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.getDocument")
    node = cdp.send("DOM.querySelector", {"nodeId": 1, "selector": selector})["nodeId"]
    ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
    return str(ax.get("description", {}).get("value", ""))


def test_the_results_description_names_the_winner_once(pages: Pages) -> None:
    """The result dialog was described by its lines one after another: "Bot 2 knocked. Bot 2 scores
    9 − 4 = 5", at the match's end "Winner: Anna (you). Anna (you) went out." Each name is said once."""
    page = pages.open(locale="en-US")
    seeded_table(page, pages.base, "gin", 11)
    page.wait_for_function("S.state.view.gin !== null")
    page.evaluate("S.ws.send = () => {}")
    page.evaluate(
        """() => {
            const result = { termination: "knock", winner: 1, scored: true, points: [-5, 5],
                             hand_values: [9, 4], multiplier: 1, arrangements: [null, null],
                             penalties: [0, 0], gains: [0, 0],
                             gin: false, undercut_by: null };
            const round = { result, in_play: [0, 1], revealed: [["4C"], ["9S"]], melds: [] };
            showRoundOver({ ...S.state, last_round: round });
        }"""
    )
    assert page.inner_text("#overlay .gin-sum") == "Bot 2 scores 9 − 4 = 5"  # shown as it was
    assert described(page, "#overlay") == "Bot 2 knocked, scores 9 − 4 = 5"
    page.click("#btn-overlay")
    page.evaluate(
        """() => {
            const result = { termination: "knock", winner: 0, scored: true, points: [5, -5],
                             hand_values: [4, 9], multiplier: 1, arrangements: [null, null],
                             penalties: [0, 0], gains: [0, 0],
                             gin: false, undercut_by: null };
            const round = { result, in_play: [0, 1], revealed: [["4C"], ["9S"]], melds: [] };
            showMatchOver({ ...S.state, match: { ...S.state.match, winners: [0] },
                            view: { ...S.state.view, result: null }, last_round: round });
        }"""
    )
    assert described(page, "#overlay") == "Winner: Anna (you), knocked, scores 9 − 4 = 5"


def test_another_s_joker_exchange_says_the_cards_the_jokers_and_the_meld(pages: Pages) -> None:
    """The line of another's turn said "swaps for a joker" for every exchange: not which cards went
    in, on which meld, nor that two naturals took two jokers. It names them, in both languages."""
    page = pages.open(locale="en-US")
    seeded_table(page, pages.base, "german", 48, seats=4, bot="random")
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.evaluate("S.ws.send = () => {}; S.state.legal = []; S.state.match.to_move = 1; render()")
    page.evaluate(RECORD_SPOKEN, ["#last-move-said"])
    page.evaluate(OTHERS_MOVE, [
        [1, "draw", "draws from the stock", "zieht vom Stoß", None],
        [1, "swap 5H 7H on 1 then meld 8D 9D JK JK", "", "", 2],
        [1, "discard KS", "discards K♠", "wirft Pik-König ab", None],
        [2, "draw", "draws from the stock", "zieht vom Stoß", None],
        [2, "swap 6C on 2 then meld 8S 9S JK", "", "", None],
        [2, "discard 9S", "discards 9♠", "wirft Pik-9 ab", None],
    ])
    page.wait_for_timeout(300)
    assert [text for _, text in spoken(page)] == [
        "Bot 2: swaps 5 of hearts, 7 of hearts for two jokers of meld 1, lays out 4 cards,"
        " discards king of spades",
        "Bot 3: swaps the 6 of clubs for a joker of meld 2, lays out 3 cards, discards 9 of spades",
    ], spoken(page)
    page.click("#btn-lang")
    page.evaluate("window.spoken = []; S.heardMove = null")
    page.evaluate(OTHERS_MOVE, [
        [3, "draw", "draws from the stock", "zieht vom Stoß", None],
        [3, "swap 5D 7D on 3 then meld 8C 9C JK JK", "", "", 2],
        [3, "discard 2S", "discards 2♠", "wirft Pik-2 ab", None],
    ])
    page.wait_for_timeout(300)
    assert [text for _, text in spoken(page)] == [
        "Bot 4: tauscht Karo-5, Karo-7 gegen zwei Joker von Figur 3, legt 4 Karten aus, wirft Pik-2 ab",
    ], spoken(page)


STOOD_IN_STATE = """(endsHand) => {
    // Back after a bot played the seat's discard; with endsHand that move ended the hand.
    const st = structuredClone(S.state), hand = st.match.hands_dealt;
    const index = Math.max(-1, ...st.log.map((e) => e.index)) + 1;
    const texts = { en: "discards 5♠", de: "wirft Pik-5 ab" };
    st.log.push({ index, seat: S.seat, action: "discard 5S", texts, hand });
    st.version += 1;
    if (endsHand) {
        st.match.hands = [...st.match.hands, { hand, points: st.match.scores.map(() => 0), winner: 1 }];
        st.last_round = { result: null };
    }
    onMessage({ type: "welcome", seat: S.seat, code: S.code, stood_in: [index] });
    onMessage(st);
}"""
STOOD_IN = "A bot played for you while you were not connected: discards 5♠"


def test_what_a_bot_played_for_you_is_said_in_the_hand_s_result_not_behind_it(pages: Pages) -> None:
    """Back after a bot finished the hand for the player, the note of what it played was flashed in
    the page just before the hand's result opened over it: hidden behind the dialog, and the page
    went inert before a screen reader read it. It is said in the dialog, with its description."""
    page = seated(pages)
    page.evaluate(STOOD_IN_STATE, True)
    page.wait_for_selector("#overlay:not(.hidden) #round-over")
    shown = page.locator("#overlay .stood-in-note [aria-hidden=true]")
    assert shown.inner_text() == STOOD_IN
    described = page.evaluate("$('#' + $('#overlay').getAttribute('aria-describedby')).textContent")
    heard = "A bot played for you while you were not connected: discards 5 of spades"
    assert described.startswith(heard), described
    assert page.locator("#game-error").is_hidden() or STOOD_IN not in page.inner_text("#game-error")
    page.keyboard.press("Enter")  # Continue
    page.wait_for_selector("#overlay", state="hidden")
    # Without a result to open, it is flashed on the page as before.
    page.evaluate(STOOD_IN_STATE, False)
    page.wait_for_selector("#game-error:not(.hidden)")
    assert STOOD_IN in page.inner_text("#game-error")
