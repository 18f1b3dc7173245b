"""In Chromium: a Rommé player on the keyboard alone, with a screen reader. L says why the cards picked
cannot be laid; G says the group it made; the cards picked go into a group of the tray by its "+" (the
keyboard's way to drop them there); a group that is no meld names its cards once; and the tray card or
table meld under the keyboard stays the same element while the others move (a screen reader said it
again at each move); the card taken from the pile says once why it stays.

Seed 2 of German at three seats deals seat 0 (the page's) ``AC 3C 4C AD 3D 5D QD 5H JH AS JK JK JK``.
"""

from __future__ import annotations

from typing import Any

from tests.web.pages import RECORD_ANNOUNCEMENTS, Pages, draw, seeded_table

SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""


def pick_by_keys(page: Any, faces: list[str]) -> None:
    """Pick the hand's ``faces`` with the arrow keys and Space (a second copy of a face is the next one
    not yet picked), from wherever the keyboard is: the down arrow goes to the hand."""
    if not page.evaluate("!!document.activeElement.closest('#hand .card')"):
        page.keyboard.press("ArrowDown")
    for face in faces:
        to = page.evaluate(
            "(face) => shownHand().findIndex((c, i) => c === face && !S.selected.includes(i))", face
        )
        at = page.evaluate("S.focus")
        for _ in range(abs(to - at)):
            page.keyboard.press("ArrowRight" if to > at else "ArrowLeft")
        assert page.evaluate("document.activeElement.dataset.card") == face
        page.keyboard.press(" ")


def ax_nodes(page: Any) -> list[dict[str, Any]]:
    """Chromium's accessibility tree of the page, each node's role, name, description (what a screen
    reader says after the name) and whether it has the focus (the document, which has it too, left out);
    nodes a screen reader skips (ignored) are left out."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return [
        {
            **{key: node.get(key, {}).get("value", "") for key in ("role", "name", "description")},
            "focused": node.get("role", {}).get("value") != "RootWebArea"
            and any(p["name"] == "focused" and p["value"]["value"] for p in node.get("properties", [])),
        }
        for node in nodes
        if not node.get("ignored")
    ]


def test_l_says_why_the_cards_picked_alone_cannot_be_laid(pages: Pages) -> None:
    """Three aces picked are a meld in the making worth 33, short of the 40 an opening needs: "Lay
    melds" is greyed, and L said nothing (it spoke only for the tray's groups); it says why."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["AC", "AD", "AS"])
    page.wait_for_function("document.querySelector('#groups .group.pending.ok')")
    page.keyboard.press("l")
    page.wait_for_selector("#game-error:not(.hidden)")
    assert page.inner_text("#game-error .error-text") == (
        "Deine Figuren lassen sich nicht auslegen: 33 Punkte reichen nicht für die Erstmeldung mit 40. "
        "Ergänze sie oder setze sie zurück."
    )


def test_g_says_the_group_it_made(pages: Pages) -> None:
    """G took the cards picked out of the hand into the tray, and a screen reader heard only the card
    the keyboard landed on: the total said after a change was the same (three aces picked counted 33
    already). The group made is said, with its cards."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["AC", "AD", "AS"])
    page.wait_for_function("document.querySelector('#groups .group.pending.ok')")
    page.wait_for_timeout(300)  # the total said
    page.evaluate(RECORD_ANNOUNCEMENTS)
    page.keyboard.press("g")
    page.wait_for_function("document.querySelector('#groups .group.ok:not(.pending)')")
    page.wait_for_timeout(300)
    assert page.evaluate("window.said") == ["Gruppe 1: Kreuz-Ass, Karo-Ass, Pik-Ass"]


def test_g_on_cards_that_are_no_meld_says_their_cards_once(pages: Pages) -> None:
    """G says the group it made with its cards, and the tray's total comes after it with why a group is
    no meld: that reason named the cards again ("Gruppe 1: Kreuz-3, Kreuz-4 · Erstmeldung: 0 / 40 ·
    Kreuz-3, Kreuz-4: Eine Figur …"). It names the group."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    page.wait_for_function("document.querySelector('#announce').textContent.startsWith('Du ziehst ')")
    pick_by_keys(page, ["3C", "4C"])
    page.evaluate(RECORD_ANNOUNCEMENTS)
    page.keyboard.press("g")
    page.wait_for_function("window.said.join(' · ').includes('Erstmeldung')")
    page.wait_for_timeout(300)
    assert " · ".join(page.evaluate("window.said")) == (
        "Gruppe 1: Kreuz-3, Kreuz-4 · Erstmeldung: 0 / 40 · Gruppe 1: Eine Figur braucht mindestens 3 Karten"
    )


def test_the_cards_picked_go_into_a_tray_group_by_its_plus(pages: Pages) -> None:
    """A card dragged onto a group of the tray goes into it; the keyboard had no way to do so (only to
    take the group apart). While cards are picked, each group has a "+" that puts them into it, named
    with the cards and the group; the keyboard goes back to the hand."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["AC", "AD", "AS"])
    page.keyboard.press("g")
    pick_by_keys(page, ["3C", "4C"])
    page.keyboard.press("g")
    assert page.locator("#groups .group-add").count() == 0  # nothing picked: no "+"
    pick_by_keys(page, ["JK"])
    names = page.evaluate(
        "[...document.querySelectorAll('#groups .group-add')].map((b) => b.getAttribute('aria-label'))"
    )
    assert names == ["Joker zu Gruppe 1 hinzufügen", "Joker zu Gruppe 2 hinzufügen"]
    page.locator("#groups .group:nth-child(2) .group-add").focus()
    page.evaluate(RECORD_ANNOUNCEMENTS)
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 2")
    page.wait_for_function("window.said.join(' · ').includes('Erstmeldung')")
    said = " · ".join(page.evaluate("window.said"))
    assert said == "Gruppe 2: Kreuz-3, Kreuz-4, Joker · Erstmeldung: 45 / 40 · reicht zum Auslegen"
    shown = page.evaluate(
        """() => ({ groups: S.groups, picked: S.selected.length,
                    inHand: !!document.activeElement.closest('#hand .card'),
                    plus: document.querySelectorAll('#groups .group-add').length,
                    total: document.querySelector('#opening-total').innerText })"""
    )
    assert shown == {
        "groups": [["AC", "AD", "AS"], ["3C", "4C", "JK"]],
        "picked": 0,
        "inHand": True,
        "plus": 0,
        "total": "Erstmeldung: 45 / 40",
    }


def test_a_group_that_is_no_meld_names_its_cards_once(pages: Pages) -> None:
    """The reason a group is no meld begins with its cards, which the group's name has just said: a
    screen reader heard "Gruppe 1: Kreuz-3, Kreuz-4 — Kreuz-3, Kreuz-4: Eine Figur …", and then the
    group's tooltip, the reason again (it is written under the tray)."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["3C", "4C"])
    page.keyboard.press("g")
    page.wait_for_function("document.querySelector('#groups .group.bad')")
    tray = [n for n in ax_nodes(page) if n["role"] == "group" and n["name"].startswith("Gruppe")]
    groups = [{"name": n["name"], "description": n["description"]} for n in tray]
    assert groups == [
        {"name": "Gruppe 1: Kreuz-3, Kreuz-4 — Eine Figur braucht mindestens 3 Karten", "description": ""}
    ]


ANOTHERS_MOVE = """(selector) => {
    window.was = document.querySelector(selector);
    window.was.focus();
    window.focusins = 0;
    document.addEventListener('focusin', () => { window.focusins += 1; });
    window.judged = S.evaluation;
    onState({ ...S.state, version: S.state.version + 1 });  // another's move: nothing of yours changed
}"""
"""The element at a selector focused, and a state of another's move that leaves the page's seat as it was;
``window.focusins`` counts the focus events after it."""

KEPT = "() => ({ same: window.was === document.activeElement, focusins: window.focusins })"
"""Whether the element focused before the state still has the focus, and how often the focus moved."""


def test_the_tray_card_under_the_keyboard_stays_while_others_move(pages: Pages) -> None:
    """The tray was drawn anew at every state and again at its evaluation: the tray card with the
    keyboard focus was replaced and focused again, and a screen reader said "Kreuz-Ass zurück auf die
    Hand nehmen" twice at each of the others' moves. A tray that did not change keeps its elements."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["AC", "AD", "AS"])
    page.keyboard.press("g")
    page.wait_for_function("document.querySelector('#groups .group.ok')")
    page.evaluate(ANOTHERS_MOVE, "#groups .group .card")
    page.wait_for_function("S.evaluation !== window.judged")  # the tray judged again after the state, drawn
    assert page.evaluate(KEPT) == {"same": True, "focusins": 0}


def test_the_meld_under_the_keyboard_stays_while_others_move(pages: Pages) -> None:
    """The table's melds were drawn anew at every state: the meld with the keyboard focus was replaced
    and focused again, and a screen reader said it again at each of the others' moves. A meld that did
    not change keeps its element."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["AC", "AD", "AS"])
    page.keyboard.press("g")
    pick_by_keys(page, ["3C", "4C", "JK"])
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 2")
    page.keyboard.press("l")
    page.wait_for_function("S.state.view.opened[0] && S.state.view.melds.length === 2")
    page.evaluate(ANOTHERS_MOVE, "#melds .meld[data-meld='2']")
    assert page.evaluate(KEPT) == {"same": True, "focusins": 0}


def test_the_card_taken_from_the_pile_says_why_once(pages: Pages) -> None:
    """The card taken from the discard pile that may not be discarded says so in its name; its tooltip,
    which a screen reader says after the name, said it again ("Herz-Ass, von der Ablage: darf … — A♥ von
    der Ablage: darf …"). The tooltip names the card, as every card's does. (Seed 1 with greedy bots
    lets seat 0 take the ace of hearts at its first turn.)"""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=1, seats=3, bot="greedy")
    page.wait_for_function("S.state.legal.includes('take')")
    page.keyboard.press("t")
    page.wait_for_function("document.querySelector('#hand .card.taken[data-card=AH]')")
    page.keyboard.press("ArrowDown")
    to = page.evaluate("shownHand().indexOf('AH')")
    for _ in range(to - page.evaluate("S.focus")):
        page.keyboard.press("ArrowRight")
    focused = [{"name": n["name"], "description": n["description"]} for n in ax_nodes(page) if n["focused"]]
    assert focused == [
        {"name": "Herz-Ass, von der Ablage: darf in diesem Zug nicht abgeworfen werden", "description": "A♥"}
    ]
