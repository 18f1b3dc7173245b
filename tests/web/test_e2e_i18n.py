"""In Chromium with a German browser: engine texts at the table are German (issue #19, item 6):
the refusal of an illegal move, the move chips and the move log; switching to English shows them in
English without reconnecting. The lobby's list of tables follows the language switch too."""

from __future__ import annotations

import re
from typing import Any

import pytest


@pytest.fixture
def page(open_page: Any) -> Any:
    return open_page({"width": 390, "height": 844}, "de-DE")


def test_engine_texts_in_german_and_english(page: Any, web: Any) -> None:
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=german]", state="attached")
    page.select_option("#preset", "german")
    page.fill("#create-form input[name=seats]", "2")
    page.fill("#create-form input[name=bots]", "1")
    page.click("#btn-create")
    page.wait_for_selector("#game:not(.hidden)")
    web.first_turn(page)
    assert page.evaluate("S.lang") == "de"
    # An illegal move (discarding before drawing) is refused in German.
    page.locator("#hand .card").first.drag_to(page.locator("#discard"))
    error = page.locator("#game-error .error-text")
    error.wait_for(state="visible")
    assert error.inner_text().strip().endswith(": Zuerst vom Stoß ziehen oder von der Ablage nehmen")
    assert "abwerfen" in error.inner_text()
    # The move is made; the log says it in German.
    version = page.evaluate("S.state.version")
    page.evaluate("act('draw')")
    page.wait_for_function(f"S.state.version > {version} && S.state.log.some(e => e.index >= 0)")
    log = page.evaluate("document.querySelector('#log').textContent")  # folded away on a phone
    assert "zieht vom Stoß" in log and ": draw" not in log
    # English at the press of the language button, from the texts already received.
    page.click("#btn-lang")
    assert page.evaluate("S.lang") == "en"
    page.wait_for_function("document.querySelector('#log').textContent.includes('draws from the stock')")


def test_the_lobbys_table_list_follows_the_language_switch(page: Any) -> None:
    """The open tables are listed in the page's language, and drawn again when it changes (no reload)."""
    made = page.request.post(page.base + "/api/tables", data={"preset": "german", "seats": 3, "name": "Ben"})
    code = made.json()["code"]
    page.goto(page.base + "/")
    row = page.locator("#table-list li", has_text=code)
    row.wait_for()
    assert "wartet" in row.inner_text() and row.locator("button").inner_text() == "Beitreten"
    page.click("#btn-lang")
    assert "waiting" in row.inner_text() and "2 open" in row.inner_text()
    assert row.locator("button").inner_text() == "Join"


def test_german_pages_show_german_packs_letters(page: Any, web: Any) -> None:
    """A German page shows jacks and queens as German packs print them (B Bube, D Dame), on the
    cards and in the server's texts; the English page shows J and Q. The notation sent stays J/Q."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=german]", state="attached")
    page.fill("#create-form input[name=seats]", "2")
    page.fill("#create-form input[name=bots]", "1")
    page.click("#btn-create")
    page.wait_for_selector("#game:not(.hidden)")
    court = "[...document.querySelectorAll('#hand .card')].filter(c => /^[JQ][CDHS]$/.test(c.dataset.card))"
    shown = f"{court}.map(c => c.querySelector('text.idx').textContent + c.dataset.card)"
    labels = page.evaluate(
        "[Cards.label('QH'), Cards.label('JS'), Cards.label('JK'), Cards.faces('10♥ J♥ Q♥ · JK(=Q♠) · QS')]"
    )
    assert labels == ["D♥", "B♠", "Joker", "10♥ B♥ D♥ · JK(=D♠) · QS"]
    for letter_and_card in page.evaluate(shown):  # "DQH": the letter drawn, then the card's notation
        assert letter_and_card[0] == {"J": "B", "Q": "D"}[letter_and_card[1]]
    # A card's tooltip names it as the page shows it, and a face-down card is named in German.
    titles = page.evaluate(
        "[...document.querySelectorAll('#hand .card')].map(c => [c.title, c.dataset.card])"
    )
    assert titles and all(title == page.evaluate(f"Cards.label('{card}')") for title, card in titles)
    assert 'aria-label="Kartenrücken"' in page.evaluate("Cards.back()")
    # A screen reader hears each card in words, as the log names it ("7 ♣" before, the symbols spelt).
    spoken = page.evaluate("[...document.querySelectorAll('#hand .card svg')].map(s => s.ariaLabel)")
    word = re.compile(r"(Kreuz|Pik|Herz|Karo)-(\d+|Ass|Bube|Dame|König)|Joker")
    assert spoken and all(word.fullmatch(w) for w in spoken), spoken
    assert 'aria-label="Herz-Dame"' in page.evaluate("Cards.svg('QH')")
    # A German player who prefers J and Q keeps the German page: the letters switch alone, and stays.
    page.click("#btn-letters")
    page.wait_for_function(f"{shown}.every(s => s[0] === s[1])")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.evaluate("Cards.faces('10♥ B♥ D♥')") == "10♥ J♥ Q♥"
    page.reload()
    page.wait_for_selector("#hand .card")
    page.wait_for_function(f"{shown}.every(s => s[0] === s[1])")
    page.click("#btn-letters")
    page.wait_for_function(f"{shown}.every(s => s[0] !== s[1])")  # B and D again
    page.click("#btn-lang")
    assert page.locator("#btn-letters").is_hidden()  # an English page has J and Q anyway
    assert 'aria-label="card back"' in page.evaluate("Cards.back()")
    assert page.evaluate("[Cards.label('QH'), Cards.faces('10♥ B♥ D♥')]") == ["Q♥", "10♥ J♥ Q♥"]
    page.wait_for_function(f"{shown}.every(s => s[0] === s[1])")
