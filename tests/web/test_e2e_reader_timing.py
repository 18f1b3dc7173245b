"""What a screen reader hears at the table as things happen one after another: moves close together, the
others' turns, a player a bot stands in for, the turn clock running low, a new hand behind a result, and
the focus on the hand while the marks on its cards change."""

from __future__ import annotations

from typing import Any

from tests.web.pages import Pages
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
    assert "Bot 2: draws from the stock" in line and "Bot 2: discards 5 of spades" in line, line
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
    assert said[1][1] == "Meanwhile: Bot 2: draws from the stock · Bot 2: discards 7 of hearts", said
