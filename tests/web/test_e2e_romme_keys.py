"""In Chromium: a Rommé player on the keyboard alone, with a screen reader. L says why the cards picked
cannot be laid, and a group that is no meld names its cards once.

Seed 2 of German at three seats deals seat 0 (the page's) ``AC 3C 4C AD 3D 5D QD 5H JH AS JK JK JK``.
"""

from __future__ import annotations

from typing import Any

from tests.web.pages import Pages, draw, seeded_table

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


def test_a_group_that_is_no_meld_names_its_cards_once(pages: Pages) -> None:
    """The reason a group is no meld begins with its cards, which the group's name has just said: a
    screen reader heard "Gruppe 1: Kreuz-3, Kreuz-4 — Kreuz-3, Kreuz-4: Eine Figur …"."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick_by_keys(page, ["3C", "4C"])
    page.keyboard.press("g")
    page.wait_for_function("document.querySelector('#groups .group.bad')")
    label = page.get_attribute("#groups .group", "aria-label")
    assert label == "Gruppe 1: Kreuz-3, Kreuz-4 — Eine Figur braucht mindestens 3 Karten"
