"""In Chromium, measured on the page: the Tab key goes the way the eye does at the table (a phone held
upright or sideways, a laptop), every control a finger taps on a 360×640 phone is at least 44×44 px
(WCAG 2.5.5), and players' names in a narrow score sheet wrap between words, never inside one.

``RUMMYKIT_SCREENSHOTS=DIR`` keeps the screenshots.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import Pages, draw, open_lobby, seeded_table, waiting_table

SERVER_ARGS = (
    "--max-tables-per-address", "50", "--creations-per-second", "50", "--max-seats-per-address", "50"
)  # fmt: skip
"""The module opens more tables from one address than a public server allows (5 open ones), and seats
people at them from the same address."""
PORTRAIT, LANDSCAPE = {"width": 390, "height": 844}, {"width": 844, "height": 390}
LAPTOP = {"width": 1280, "height": 800}
SMALL = {"width": 360, "height": 640}


def drawn(page: Any, web: Any) -> None:
    """Draw from the stock at our first turn and wait for the possible moves (a message of their own)."""
    web.first_turn(page, "draw")
    web.act_and_wait(page, "draw")
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.wait_for_function("[...document.querySelectorAll('#moves button')].some((b) => b.offsetParent)")
    web.landed(page)
    page.evaluate("window.scrollTo(0, 0)")


def tab_stops(page: Any, most: int = 40) -> list[dict[str, Any]]:
    """The table's controls in the order the Tab key reaches them (from the table's start to the chat's
    field), each with its box on the page and which part of the table it is."""
    page.evaluate(
        """() => { const start = document.createElement("span"); start.id = "tab-start"; start.tabIndex = -1;
                   document.querySelector("#game").prepend(start); start.focus(); }"""
    )
    stops: list[dict[str, Any]] = []
    for _ in range(most):
        page.keyboard.press("Tab")
        stop = page.evaluate(
            """() => {
                const e = document.activeElement, r = e.getBoundingClientRect();
                const part = e.closest("#hand") ? "hand" : e.closest("#hand-tools") ? "tools"
                    : e.closest(".actions") ? "actions" : e.closest("#moves") ? "moves"
                    : e.closest(".table-view") ? "table" : e.closest(".side") ? "side" : "other";
                return { id: e.id || e.textContent.trim().slice(0, 24), part, left: r.left + scrollX,
                         top: r.top + scrollY, height: r.height };
            }"""
        )
        stops.append(stop)
        if stop["id"] == "chat-input":
            break
    return stops


@pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE, LAPTOP], ids=("portrait", "landscape", "laptop"))
def test_tab_goes_through_the_turn_as_the_eye_does(
    pages: Pages, web: Any, shots: Path, viewport: dict[str, int]
) -> None:
    """A phone held upright showed the sort buttons and the hand above the move buttons, held sideways
    the hand above them, but Tab reached the move buttons and the possible moves first and the hand
    last, below the fold of what it had passed. On every screen now the page's order is the screen's:
    sort buttons, hand, move buttons, possible moves, each control below or to the right of the one
    before (the table's own column on a phone held sideways first, the side panel last), and the
    headings and live regions a screen reader uses are where they were."""
    page = pages.open(viewport, "en-US", has_touch=viewport["width"] < 1000)
    seeded_table(page, pages.base, "german", 5, seats=3)
    drawn(page, web)
    page.screenshot(path=str(shots / f"tab-order-{viewport['width']}x{viewport['height']}.png"))
    stops = tab_stops(page)
    parts = [s["part"] for s in stops]
    assert stops[-1]["id"] == "chat-input", stops
    # Each part once, in one block, in this order.
    blocks = [p for i, p in enumerate(parts) if i == 0 or parts[i - 1] != p]
    assert blocks == ["table", "tools", "hand", "actions", "moves", "side"], blocks
    # And on the screen: each stop of the turn's column below the one before, or beside it to the right.
    turn = [s for s in stops if s["part"] in ("tools", "hand", "actions", "moves")]
    for before, after in itertools.pairwise(turn):
        same_row = abs(after["top"] - before["top"]) < min(before["height"], after["height"]) / 2
        below = after["top"] >= before["top"] + before["height"] / 2
        assert (same_row and after["left"] > before["left"]) or below, f"Tab goes from {before} up to {after}"
    # The structure a screen reader walks is unchanged: the hand's heading just before its sort buttons
    # and hand, the table's heading and the live lines.
    assert page.evaluate("$('#hand-tools').previousElementSibling.textContent") == "Your hand"
    assert page.evaluate("$('#hand-tools').nextElementSibling.id") == "hand"
    assert page.locator(".table-view h2.sr-only").inner_text() == "The table"
    assert page.get_attribute("#last-move-said", "role") == "status"
    assert page.get_attribute("#status", "role") == "status"
    assert page.get_attribute(".side", "role") == "complementary"


SMALL_TARGETS = """() => {
    const controls = "button, a[href], input, select, textarea, summary, [role=button], [tabindex='0']";
    // A scrolled panel is focused to scroll it by keys, not tapped; a card of the hand shows 24 px (the
    // hand keeps to one row: test_e2e_phone_layout); a link inside a sentence is exempt (WCAG 2.5.5).
    const inline = (e) => e.matches("a") && e.parentElement.matches("p, li, td")
        && e.parentElement.textContent.trim() !== e.textContent.trim();
    const exempt = (e) => e.matches("#scores, #log, #chat-log, #hand .card") || inline(e);
    const inert = (e) => e.closest(".sr-only, .hidden, [inert]")
        || getComputedStyle(e).visibility === "hidden";
    return [...document.querySelectorAll(controls)].filter((e) => !inert(e) && !exempt(e)).map((e) => {
        // A checkbox is tapped with its words: its label is the target.
        const target = e.matches("input[type=checkbox]") && e.closest("label") ? e.closest("label") : e;
        const r = target.getBoundingClientRect();
        const words = (e.textContent || e.name || "").trim().slice(0, 30);
        return { what: `${e.tagName.toLowerCase()}#${e.id} ${words}`,
                 width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 };
    }).filter((t) => t.width > 0 && (t.width < 44 || t.height < 44));
}"""
WIDE = "[document.documentElement.scrollWidth, innerWidth]"
MATCH_OVER = (
    "(w) => showMatchOver({ ...S.state, match: { ...S.state.match, winners: [w] }, last_round: null })"
)
"""The match's end shown with the table's seats and totals (seat ``w`` the winner)."""


def small_targets(page: Any, screen: str, shots: Path) -> list[tuple[str, dict[str, Any]]]:
    page.screenshot(path=str(shots / f"targets-360x640-{screen}.png"))
    wide = page.evaluate(WIDE)
    assert wide[0] <= wide[1], f"{screen}: the page scrolls sideways {wide}"
    return [(screen, t) for t in page.evaluate(SMALL_TARGETS)]


def test_every_control_a_finger_taps_on_a_small_phone_is_44_px(pages: Pages, web: Any, shots: Path) -> None:
    """At 360×640 the top bar's buttons, the move buttons, the sort buttons and the possible moves were
    40 px high (kept lower so that a short phone's hand and buttons fitted, which they did not anyway)
    and the checkboxes' labels 24 px: every control of the lobby, the waiting room, the table in the
    middle of a turn, its score sheet, a hand's result, the match's end and the rules is at least 44×44
    px now, and no screen is wider than the phone."""
    found: list[tuple[str, dict[str, Any]]] = []
    page = pages.open(SMALL, "de-DE", has_touch=True)
    open_lobby(page, pages.base)
    page.wait_for_selector("#house-rules label.check")
    found += small_targets(page, "lobby", shots)
    waiting_table(page, pages.base, "german", seats=3)
    found += small_targets(page, "waiting", shots)

    page = pages.open(SMALL, "de-DE", has_touch=True)
    seeded_table(page, pages.base, "german", 5, seats=3)
    drawn(page, web)
    found += small_targets(page, "table", shots)
    page.locator("#scores").scroll_into_view_if_needed()
    found += small_targets(page, "scores", shots)
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    page.wait_for_selector("#overlay:not(.hidden) #round-over")
    found += small_targets(page, "result", shots)
    page.click("#btn-overlay")
    page.evaluate(MATCH_OVER_SHEET)  # the match's end with its hands: the sheet's disclosure too
    page.wait_for_selector("#overlay:not(.hidden) .final-sheet summary")
    found += small_targets(page, "match-over", shots)
    page.evaluate("closeDialog('#overlay')")  # its button leaves for the lobby
    page.click("#btn-rules")
    page.wait_for_selector("#rules-dialog:not(.hidden) #rules-body h1")
    found += small_targets(page, "rules", shots)
    assert not found, "controls under 44×44 px:\n" + "\n".join(f"{s}: {t}" for s, t in found)


def test_a_tray_group_s_plus_is_44_px_on_a_small_phone(pages: Pages) -> None:
    """While cards are picked each group of the tray has a "+" that puts them into it: on a finger's
    phone it was 44 px wide but 24 px high (its own height outweighed the buttons' 44 px). Two groups
    with their "+" at 360×640 keep to the phone's width."""
    page = pages.open(SMALL, "en-US", has_touch=True)
    seeded_table(page, pages.base, "german", 2, seats=3)
    draw(page)
    for faces in (["AC", "AD", "AS"], ["3C", "4C"]):
        for face in faces:
            page.locator(f"#hand .card[data-card='{face}']").first.tap()
        page.locator("#btn-group").tap()
    page.locator("#hand .card[data-card='JK']").first.tap()
    page.wait_for_selector("#groups .group:nth-child(2) .group-add")
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#groups .group-add')].map((b) => {
            const r = b.getBoundingClientRect();
            const name = b.getAttribute('aria-label');
            return { name, width: r.width, height: r.height, inside: r.right <= innerWidth };
        })"""
    )
    assert shown == [
        {"name": f"Add joker to group {n}", "width": 44, "height": 44, "inside": True} for n in (1, 2)
    ]
    wide = page.evaluate(WIDE)
    assert wide[0] <= wide[1]
    page.locator("#groups .group:nth-child(2) .group-add").tap()
    page.wait_for_function("S.groups.length === 2 && S.groups[1].length === 3")


NAMES = ("Donaudampfschifffahrtskapitän", "Anna-Lena von Hohenzollern", "Kim")
BROKEN_WORDS = """(sel) => {
    // Every word of every name in the headers of ``sel``: on one line (a word broken inside has boxes
    // on two), and the whole name kept as the cell's text or title.
    const broken = [];
    const heads = [...document.querySelectorAll(sel)].filter((th) => th.title || th.textContent.trim());
    for (const th of heads) {
        const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) broken.push(m[0]);
            }
        }
    }
    return { broken, names: heads.map((th) => th.title || th.textContent.trim()) };
}"""


def test_long_names_in_a_narrow_score_sheet_are_not_broken_inside_a_word(pages: Pages, shots: Path) -> None:
    """At 360 px the score sheet and the match's final sheet broke "Donaudampfschifffahrtskapitän" into
    "Donaudampfs / chifffahrtskap / itän" and "Hohenzollern" into "Hohe / nzolle / rn": a name wraps
    between its words now, a word too long for its column ends in an ellipsis, the whole name is the
    header's title, and neither sheet nor page is wider than the phone."""
    page = pages.open(SMALL, "de-DE", has_touch=True)
    code = waiting_table(page, pages.base, "german", seats=4, name="Oma Inge")
    for name in NAMES:
        joined = page.request.post(f"{pages.base}/api/tables/{code}/join", data={"name": name})
        assert joined.ok, joined.text()
    page.wait_for_function("document.querySelector('#wait-seats').innerText.includes('Kim')")
    page.click("#btn-start")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("document.querySelectorAll('#scores th').length === 5")
    page.locator("#scores").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "names-360-score-sheet.png"))
    sheet = page.evaluate(BROKEN_WORDS, "#scores th")
    assert sheet["broken"] == [], sheet
    assert set(NAMES) <= set(sheet["names"]), sheet
    assert page.evaluate("[$('#scores').scrollWidth, $('#scores').clientWidth]")[0] <= 333
    wide = page.evaluate(WIDE)
    assert wide[0] <= wide[1], wide

    page.evaluate(MATCH_OVER, 1)
    page.wait_for_selector("#overlay:not(.hidden) #match-over")
    page.screenshot(path=str(shots / "names-360-match-over.png"))
    final = page.evaluate(BROKEN_WORDS, "#overlay .final-scores th")
    assert final["broken"] == [], final
    assert set(NAMES) <= set(final["names"]), final
    winner = page.evaluate(BROKEN_WORDS, "#overlay .winners b")
    assert winner["broken"] == [], winner
    box = page.evaluate("[$('#overlay .overlay-box').scrollWidth, $('#overlay .overlay-box').clientWidth]")
    assert box[0] <= box[1], f"the result scrolls sideways: {box}"


MATCH_OVER_SHEET = """(hands) => {
    // The hands played (three by default), Bot 2 (seat 1) won the match.
    const m = S.state.match;
    m.hands = hands || [
        { hand: 1, points: [-20, 35, -15], winner: 1, dealer: 0 },
        { hand: 2, points: [40, -25, -15], winner: 0, dealer: 1 },
        { hand: 3, points: [-30, 60, -30], winner: 1, dealer: 2 },
    ];
    m.scores = [-10, 70, -60];
    m.totals = [10, -70, 60];
    showMatchOver({ ...S.state, match: { ...m, is_over: true, winners: [1] }, last_round: null });
}"""


@pytest.mark.parametrize(("screen", "locale"), [(SMALL | {"height": 740}, "de-DE"), (LAPTOP, "en-US")])
def test_the_match_s_end_opens_the_whole_score_sheet(
    pages: Pages, shots: Path, screen: dict[str, int], locale: str
) -> None:
    """The match-over dialog gave each player's total only: the hands that made them were gone with
    the table. Below the totals the whole sheet is one step away (a disclosure the keyboard reaches
    and a screen reader says), every hand with the total after it, the winner's total marked; on a
    360-px phone it fits the dialog."""
    en = locale == "en-US"
    page = pages.open(screen, locale)
    seeded_table(page, pages.base, "german", 5, seats=3)
    page.wait_for_selector("#game:not(.hidden)")
    page.evaluate(MATCH_OVER_SHEET)
    page.wait_for_selector("#overlay:not(.hidden) #match-over")
    summary = page.locator("#overlay .final-sheet summary")
    assert summary.inner_text() == ("Score sheet: all 3 hands" if en else "Punkteliste: alle 3 Spiele")
    assert not page.locator("#overlay .final-sheet-body table").is_visible()
    for _ in range(12):  # from the heading the keyboard reaches the sheet before the dialog's button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "SUMMARY":
            break
    assert page.evaluate("document.activeElement.closest('.final-sheet') !== null")
    page.keyboard.press("Enter")
    sheet = page.locator("#overlay .final-sheet-body table")
    assert sheet.is_visible()
    rows = page.evaluate(
        """() => [...document.querySelectorAll("#overlay .final-sheet-body tbody tr")].map(
            (r) => [...r.querySelectorAll("td")].map((d) => d.textContent))"""
    )
    total = "Total" if en else "Summe"
    running = "total: " if en else "Stand: "
    assert rows[:3] == [
        ["1", f"-20{running}-20", f"35{running}35", f"-15{running}-15"],
        ["2", f"40{running}20", f"-25{running}10", f"-15{running}-30"],
        ["3", f"-30{running}-10", f"60{running}70", f"-30{running}-60"],
    ], rows
    winner = "Winner" if en else "Gewinner"
    assert rows[3] == [total, "-10", f"70 ({winner})", "-60"], rows
    assert page.locator("#overlay .final-sheet-body tr.total td.win").count() == 1
    label = page.get_attribute("#overlay .final-sheet-body", "aria-label")
    assert label == summary.inner_text()
    page.screenshot(path=str(shots / f"match-over-sheet-{screen['width']}x{screen['height']}-{locale}.png"))
    box = page.evaluate("[$('#overlay .overlay-box').scrollWidth, $('#overlay .overlay-box').clientWidth]")
    assert box[0] <= box[1], f"the dialog scrolls sideways: {box}"
    body = page.evaluate("(b => [b.scrollWidth, b.clientWidth])($('#overlay .final-sheet-body'))")
    assert body[0] <= body[1], f"the sheet is wider than the dialog: {body}"


def test_the_match_s_end_counts_a_hand_dealt_again_once(pages: Pages) -> None:
    """Under unscored_hand = redeal a hand that did not count shares its number with its new deal: the
    disclosure said "all 4 hands" over a sheet whose rows went up to hand 3."""
    page = pages.open(LAPTOP, "en-US")
    seeded_table(page, pages.base, "german", 5, seats=3)
    page.wait_for_selector("#game:not(.hidden)")
    first = {"hand": 1, "points": [-20, 35, -15], "winner": 1, "dealer": 0}
    redealt = {"hand": 2, "points": [0, 0, 0], "winner": None, "dealer": 1, "dealt_again": True}
    second = {"hand": 2, "points": [40, -25, -15], "winner": 0, "dealer": 1}
    third = {"hand": 3, "points": [-30, 60, -30], "winner": 1, "dealer": 2}
    page.evaluate(MATCH_OVER_SHEET, [first, redealt, second, third])
    page.wait_for_selector("#overlay:not(.hidden) #match-over")
    assert page.locator("#overlay .final-sheet summary").inner_text() == "Score sheet: all 3 hands"
    # A match of one hand says it in words ("the 1 hand" read like a misprint).
    page.evaluate(MATCH_OVER_SHEET, [first])
    assert page.locator("#overlay .final-sheet summary").inner_text() == "Score sheet: the one hand"
