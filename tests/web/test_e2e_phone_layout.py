"""In Chromium on a small phone (360×740): after the draw, the whole hand and the buttons that end the
turn (Discard; Knock and Rummy at the knock games) are on the screen together, without scrolling, and
nothing lies over a card. German Rummy in both languages (the German labels are longer), Scala 40 (13
cards and more table melds), Viennese and Gin (the knock games' buttons).

``RUMMYKIT_SCREENSHOTS=DIR`` keeps the screenshots.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

SMALL_PHONE = {"width": 360, "height": 740}
SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""
TURN_BUTTONS = ("#btn-discard", "#btn-knock", "#btn-rummy")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("RUMMYKIT_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
