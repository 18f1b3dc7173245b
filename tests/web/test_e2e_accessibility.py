"""In Chromium: what a keyboard and screen-reader player meets at the table, on German and English pages.

Table melds named in words in the page's language (as the log names cards), result dialogs named by
their heading, modal dialogs that keep Tab and Shift+Tab inside (the page behind is inert), the focus
put somewhere sensible after creating a table, a move chip or "Weiter", the drawn card said to the one
who drew it (and to nobody else), hints and the meld tray's total said once, opponents read as one
line without their card backs, and the German words of the result and the keys dialog.

``RUMMYKIT_A11Y_DIR=DIR`` keeps screenshots and accessibility snapshots of a German table there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import Card
from rummykit.i18n.cards import card_name
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.views import TableMeld
from rummykit.web.protocol import meld_json
from tests.web.pages import RECORD_ANNOUNCEMENTS, Pages, open_lobby

DESKTOP = {"width": 1280, "height": 800}
SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""



@pytest.fixture(scope="module")
def evidence(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("RUMMYKIT_A11Y_DIR") or tmp_path_factory.mktemp("a11y"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def seeded_table(page: Any, base: str, seed: int, *, seats: int = 2, preset: str = "german") -> str:
    """Sit down as Anna at a seeded table of ``preset`` with bots in every other seat."""
    open_lobby(page, base)
    code = page.evaluate(
        """async ([preset, seed, seats]) => {
            const bots = Array.from({ length: seats - 1 }, () => ({ kind: "random" }));
            const grant = await api("/api/tables", { name: "Anna", preset, seats, seed, bots });
            saveGrant(grant);
            await openTable(grant.code);
            return grant.code;
        }""",
        [preset, seed, seats],
    )
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state && S.state.view !== null && S.state.view.hand")
    return str(code)


def focused(page: Any) -> str:
    """Where the keyboard is: a hand card as ``hand``, else the element's id or tag."""
    return str(page.evaluate(
        """() => {
            const el = document.activeElement;
            if (!el || el === document.body) return "body";
            if (el.closest("#hand")) return "hand";
            const dialog = el.closest(".overlay");
            return (dialog ? dialog.id + " " : "") + (el.id || el.tagName.toLowerCase());
        }"""
    ))  # fmt: skip


def axe_violations(page: Any) -> list[str]:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python")
    results = axe_module.Axe().run(page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in bad]


def test_table_melds_are_named_in_words_in_the_pages_language(pages: Pages) -> None:
    """A meld reads "Figur 2: Herz-10, Herz-Bube, Joker (für Herz-Dame)" (the server's card names, as
    in the log), not "2: 10H JH Joker = QH"; its tooltip says the same and whose meld it is."""
    german = Rules.preset("german")
    texts = ("AC AD JK", "10H JH JK", "10C JK QC")  # a set's joker stands for its rank, a run's for a card
    melds = [meld_json(TableMeld(Meld.parse(text, german), 1)) for text in texts]
    show = """(melds) => {
        S.state.view.melds = melds;
        renderMelds();
        const shown = [...document.querySelectorAll("#melds .meld")];
        return shown.map((m) => [m.getAttribute("aria-label"), m.title]);
    }"""

    def name(text: str, lang: str) -> str:
        return card_name(Card.parse(text), lang)

    expected = {
        "de": [
            f"Figur 1: {name('AC', 'de')}, {name('AD', 'de')}, Joker (für ein Ass)",
            f"Figur 2: {name('10H', 'de')}, {name('JH', 'de')}, Joker (für {name('QH', 'de')})",
            f"Figur 3: {name('10C', 'de')}, Joker (für {name('JC', 'de')}), {name('QC', 'de')}",
        ],
        "en": [
            f"Meld 1: {name('AC', 'en')}, {name('AD', 'en')}, joker (for an ace)",
            f"Meld 2: {name('10H', 'en')}, {name('JH', 'en')}, joker (for the {name('QH', 'en')})",
            f"Meld 3: {name('10C', 'en')}, joker (for the {name('JC', 'en')}), {name('QC', 'en')}",
        ],
    }
    assert expected["de"][1] == "Figur 2: Herz-10, Herz-Bube, Joker (für Herz-Dame)"
    assert expected["en"][1] == "Meld 2: 10 of hearts, jack of hearts, joker (for the queen of hearts)"
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=1)
    for lang in ("de", "en"):
        page.evaluate("l => { S.lang = l; applyLanguage(); }", lang)
        shown = page.evaluate(show, melds)
        assert [label for label, _ in shown] == [f"{label} (Bot 2)" for label in expected[lang]]
        assert [title for _, title in shown] == [f"{label} (Bot 2)" for label in expected[lang]]
    # The role and name a screen reader gets: whose meld it is too.
    assert page.get_by_role("button", name=f"{expected['en'][0]} (Bot 2)").count() == 1


def test_result_dialogs_are_named_by_their_heading(pages: Pages) -> None:
    """The end of a hand and of the match are announced as "Spiel beendet" / "Partie beendet" (their
    visible headings), not as an English "result"."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=1)
    page.evaluate("S.ws.send = () => {}")  # nothing reaches the server: the dialogs are only drawn
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    assert page.get_by_role("dialog", name="Spiel beendet").is_visible()
    page.click("#btn-overlay")
    page.evaluate(
        """() => showMatchOver({ ...S.state, match: { ...S.state.match, winners: [0] },
                                 view: { ...S.state.view, result: null }, last_round: null })"""
    )
    assert page.get_by_role("dialog", name="Partie beendet").is_visible()
    assert page.locator("#overlay").get_attribute("aria-label") is None


def test_modal_dialogs_keep_tab_and_shift_tab_inside(pages: Pages, evidence: Path) -> None:
    """In the keys dialog (its shortcuts checkbox and "Schließen") and the result dialog ("Weiter") Tab
    and Shift+Tab go round the dialog's own controls; the page behind is inert while it is open, and
    usable again after."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=1)
    page.locator("#hand .card[tabindex='0']").focus()
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog:not(.hidden)")
    assert focused(page) == "keys-dialog btn-keys-close"
    # Its controls: the single-key shortcuts' checkbox and "Schließen".
    controls = {"keys-dialog single-keys", "keys-dialog btn-keys-close"}
    seen = set()
    for key in ("Tab", "Tab", "Shift+Tab", "Shift+Tab", "Tab"):
        page.keyboard.press(key)
        seen.add(focused(page))
    assert seen == controls
    assert page.evaluate("document.querySelector('#main').inert")
    page.screenshot(path=str(evidence / "keys-dialog-de.png"))
    page.keyboard.press("Escape")
    assert page.locator("#keys-dialog").is_hidden()
    assert not page.evaluate("document.querySelector('#main').inert")
    assert focused(page) == "hand"  # back where it was

    # The match's end: the record's link, a rematch button and "Neuer Tisch"; Tab goes round the three.
    page.evaluate("S.ws.send = () => {}")
    page.evaluate(
        """() => showMatchOver({ ...S.state, match: { ...S.state.match, winners: [0] },
                                 view: { ...S.state.view, result: null }, last_round: null })"""
    )
    assert focused(page) == "overlay match-over"  # its heading: an Enter does not leave the match
    seen = set()
    for _ in range(6):
        page.keyboard.press("Tab")
        seen.add(focused(page))
    assert seen == {"overlay btn-overlay", "overlay btn-rematch", "overlay a"}
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
        assert focused(page).startswith("overlay "), focused(page)
    page.screenshot(path=str(evidence / "match-over-de.png"))


def create_by_keyboard(page: Any, pages: Pages, *, bots: int, seats: int | None = None) -> None:
    """Fill the lobby's form for Anna and press Enter on "Tisch eröffnen"."""
    pages.lobby(page)
    page.fill("#create-form input[name=name]", "Anna")
    if seats is not None:
        page.fill("#create-form input[name=seats]", str(seats))
    page.fill("#create-form input[name=bots]", str(bots))
    page.locator("#btn-create").focus()
    page.keyboard.press("Enter")


def test_the_focus_goes_to_the_table_after_creating_it_a_move_chip_and_weiter(pages: Pages, web: Any) -> None:
    """The keyboard does not drop to the page's body: after "Tisch eröffnen" it is in the hand (or, at
    a table that waits for players, at the waiting room's heading), after a move from "Mögliche Züge"
    and after closing a hand's result with "Weiter" it is back in the hand."""
    page = pages.open(DESKTOP, "de-DE")
    create_by_keyboard(page, pages, bots=0, seats=2)
    page.wait_for_selector("#waiting:not(.hidden)")
    page.wait_for_function("document.activeElement !== document.body", timeout=5000)
    assert page.evaluate("document.activeElement.closest('#waiting h2') !== null")

    create_by_keyboard(page, pages, bots=1)
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("!!document.activeElement.closest('#hand')", timeout=5000)

    # A move chip ("Ziehen" under "Mögliche Züge"), pressed with the keyboard.
    web.first_turn(page)
    chip = page.locator("#moves .move-chip[data-action='draw']")
    chip.focus()
    version = page.evaluate("S.state.version")
    page.keyboard.press("Enter")
    page.wait_for_function("v => S.state.version > v", arg=version)
    page.wait_for_function("!!document.activeElement.closest('#hand')", timeout=5000)

    # A hand's result over a hand drawn anew meanwhile: "Weiter" gives the keyboard back to the hand.
    page.evaluate("S.ws.send = () => {}")
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    assert focused(page) == "overlay btn-overlay"
    page.evaluate("render()")  # a state arrives behind the dialog: the hand's cards are new elements
    page.keyboard.press("Enter")
    assert page.locator("#overlay").is_hidden()
    assert focused(page) == "hand"


def test_the_drawn_card_is_said_to_the_one_who_drew_it_only(pages: Pages, web: Any) -> None:
    """After a draw from the stock the player hears "Du ziehst Karo-Ass" (the new card of their own
    hand, in words); a spectator hears no card, and the bot's draws are not said to the player."""
    page = pages.open(DESKTOP, "de-DE")
    code = seeded_table(page, pages.base, seed=3)
    watcher = pages.open(DESKTOP, "de-DE")
    watcher.goto(f"{pages.base}/?table={code}")  # the table plays: the link watches
    watcher.wait_for_selector("#game:not(.hidden)")
    watcher.wait_for_function("S.state && S.seat === null")
    for p in (page, watcher):
        p.evaluate(RECORD_ANNOUNCEMENTS)
    web.first_turn(page)
    before: list[str] = page.evaluate("S.state.view.hand")
    version = page.evaluate("S.state.version")
    page.keyboard.press("d")
    page.wait_for_function("v => S.state.version > v", arg=version)
    after: list[str] = page.evaluate("S.state.view.hand")
    new = list(after)
    for c in before:
        new.remove(c)
    assert len(new) == 1
    said = "Du ziehst " + ("einen Joker" if new[0] == "JK" else card_name(Card.parse(new[0]), "de"))
    page.wait_for_function("t => window.said.includes(t)", arg=said)
    assert page.inner_text("#last-move").endswith("zieht vom Stoß")  # the log keeps the card to itself
    # The discard ends the turn; the bot draws and discards: nothing more about drawn cards is said.
    web.act_and_wait(page, next(a for a in page.evaluate("legal()") if a.startswith("discard ")))
    page.wait_for_function("legal().includes('draw') || !$('#overlay').classList.contains('hidden')")
    watcher.wait_for_function("v => S.state.version >= v", arg=page.evaluate("S.state.version"))
    page.wait_for_timeout(300)
    assert page.evaluate("window.said.filter((s) => s.includes('ziehst'))") == [said]
    assert watcher.evaluate("window.said") == []
    # A joker is drawn with its article, as the log names a joker as the object of a move.
    joker = "[Cards.objectName('JK'), t('you_draw', { card: Cards.objectName('QH') })]"
    assert page.evaluate(joker) == ["einen Joker", "Du ziehst Herz-Dame"]
    assert "Karo" not in watcher.inner_text("#announce") and "ziehst" not in watcher.inner_text("#announce")


def test_hints_and_the_opening_total_are_said_once(pages: Pages, web: Any) -> None:
    """A hint (H) and the meld tray's opening total ("Erstmeldung: 11 / 40") are said in the polite
    announcer when they come or change, not again at every render."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=5)
    page.evaluate(RECORD_ANNOUNCEMENTS)
    web.first_turn(page)
    page.keyboard.press("h")
    page.wait_for_function("window.said.some((s) => s.startsWith('Tipp: '))")
    hint = page.inner_text("#hint .hint-text")
    assert page.evaluate("window.said") == [f"Tipp: {hint}"]
    web.act_and_wait(page, "draw")
    page.wait_for_function("window.said.some((s) => s.startsWith('Du ziehst '))")
    page.evaluate("window.said = []")
    # One card in the tray: the group made is said, and its total against the opening minimum once the
    # server evaluated it (the two in one line or two, as they come).
    page.locator("#hand .card").first.click()
    page.keyboard.press("g")
    page.wait_for_function("window.said.join(' · ').includes('Erstmeldung: ')")
    total = page.inner_text("#opening-total")
    assert total.startswith("Erstmeldung: ") and total.endswith(" / 40")
    page.evaluate("render(); render(); renderTray()")
    page.wait_for_timeout(400)
    said = " · ".join(page.evaluate("window.said"))
    assert said.startswith("Gruppe 1: ") and f" · {total} · " in said  # with why one card is no meld
    assert said.count("Erstmeldung") == 1
    group = page.get_attribute("#groups .group", "aria-label")
    assert group.startswith("Gruppe 1: ") and " — " in group  # its cards in words, and the same reason
    page.keyboard.press("c")  # cleared: the next tray is said again
    page.locator("#hand .card").first.click()
    page.keyboard.press("g")
    page.wait_for_function("window.said.join(' · ').split('Erstmeldung: ').length === 3")


def test_opponents_read_as_one_line_without_their_card_backs(pages: Pages, evidence: Path) -> None:
    """An opponent is "Bot 2 (Bot): 13 Karten · Geber" to a screen reader: the name and its badge do
    not run together, and the card backs are hidden from it. The accessibility tree of a German table
    is kept as evidence, and axe finds nothing serious there."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=2, seats=3)
    page.evaluate("S.ws.onmessage = () => {}; render()")  # the bots play on: the page stays at this state
    dealer = page.evaluate("S.state.view.dealer")
    opponent = page.locator("#opponents .opponent[data-seat='1']")
    snapshot = opponent.aria_snapshot()
    sizes = page.evaluate("S.state.view.hand_sizes")
    line = f"Bot 2 (Bot): {sizes[1]} Karten" + (" · Geber" if dealer == 1 else "")
    assert snapshot == f'- listitem: "{line}"', snapshot  # one item of the list of opponents
    assert "Kartenrücken" not in page.locator("#opponents").aria_snapshot()
    (evidence / "table-de.aria.yaml").write_text(page.locator("body").aria_snapshot())
    page.screenshot(path=str(evidence / "table-de.png"))
    assert not axe_violations(page), axe_violations(page)


def test_german_words_of_the_result_and_the_keys(pages: Pages) -> None:
    """The result says "hat ausgemacht" as the rules pages and the log do; the keys dialog names the
    keys as German keyboards print them (Leertaste, Pos1, Ende, Umschalt); English stays English."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=1)
    heads = page.evaluate(
        """() => [0, 1].map((winner) => {
            const result = { scored: true, termination: "went_out", winner, multiplier: 1, points: [0, 0],
                             hand_values: [0, 0], arrangements: [] };
            const round = { in_play: [0, 1], revealed: [[], []], result };
            const d = document.createElement("div");
            d.innerHTML = resultHtml(round);
            return d.querySelector(".result-head").innerText;
        })"""
    )
    assert heads == ["Anna (du) hat ausgemacht", "Bot 2 hat ausgemacht"]
    keys = "#keys-dialog tr:first-child th, #keys-dialog tr:nth-child(2) th, #keys-dialog tr:nth-child(3) th"
    page.keyboard.press("?")
    assert page.eval_on_selector_all(keys, "ths => ths.map((t) => t.innerText)") == [
        "← → Pos1 Ende", "Leertaste Enter", "Umschalt+← →",
    ]  # fmt: skip
    page.keyboard.press("Escape")
    page.click("#btn-lang")
    page.keyboard.press("?")
    assert page.eval_on_selector_all(keys, "ths => ths.map((t) => t.innerText)") == [
        "← → Home End", "Space Enter", "Shift+← →",
    ]  # fmt: skip


def test_cards_in_moves_hints_and_refusals_are_said_in_words(pages: Pages) -> None:
    """A meld's cards are written with suit symbols ("Q♠ JK Q♣ | 4♠ 5♠ JK"), which a screen reader read
    as "Q black spade suit JK vertical line": the live regions, the hint, an error and a move button
    say them in words, a list of cards with commas and the melds apart; what is shown stays as it was."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, 48)
    said = page.evaluate(
        """() => {
            const meld = "legt zum ersten Mal aus: 10♣ B♣ D♣ | JK(=3♥/3♠) 3♦ 3♣";
            say(document.querySelector("#last-move"), meld);
            const region = document.querySelector("#last-move");
            showError("Anlegen geht nicht: 8♠ passt nicht zu D♠ JK D♣");
            const error = document.querySelector("#game-error .error-text .sr-only").textContent;
            say(region, meld);  // the same text again: not rewritten, so not read out again
            return { shown: region.querySelector("[aria-hidden=true]").textContent,
                     heard: region.querySelector(".sr-only").textContent, error,
                     plain: Cards.spoken("Klopfen bis 10") };
        }"""
    )
    assert said["shown"] == "legt zum ersten Mal aus: 10♣ B♣ D♣ | JK(=3♥/3♠) 3♦ 3♣"
    assert said["heard"] == (
        "legt zum ersten Mal aus: Kreuz-10, Kreuz-Bube, Kreuz-Dame; "
        "Joker (für Herz-3 oder Pik-3), Karo-3, Kreuz-3"
    )
    assert said["error"] == "Anlegen geht nicht: Pik-8 passt nicht zu Pik-Dame, Joker, Kreuz-Dame"
    assert said["plain"] == "Klopfen bis 10"  # no card, nothing changed
    page.click("#btn-lang")
    english = page.evaluate("Cards.spoken('opens with Q♠ JK(=K♣) Q♣ | 4♠ 5♠ JK')")
    assert english == (
        "opens with queen of spades, joker (for the king of clubs), queen of clubs; "
        "4 of spades, 5 of spades, joker"
    )


def test_the_keyboard_stays_on_the_hand_and_unchanged_lines_are_not_read_again(pages: Pages) -> None:
    """The hint (H) and closing an error dropped the focus to the page; a state that changes nothing in
    the hand or the status line rewrote them, so a screen reader read the focused card and the line
    again at every bot move. Esc closes a hand's result as its button does."""
    page = pages.open()
    seeded_table(page, pages.base, 48)
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.locator("#hand .card").first.focus()
    page.keyboard.press("ArrowRight")
    page.evaluate("S.hint = null")
    page.keyboard.press("h")
    page.wait_for_function("S.hint !== null")
    assert page.evaluate("document.activeElement.closest('#hand') !== null && S.focus === 1")
    page.evaluate("showError('x')")
    page.click("#game-error .error-close")
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    rewrites = page.evaluate(
        """() => {
            let n = 0;
            const seen = new MutationObserver((records) => { n += records.length; });
            const what = { childList: true, characterData: true, subtree: true };
            for (const id of ["#hand", "#status", "#last-move"]) seen.observe($(id), what);
            render(); render();
            return new Promise((done) => setTimeout(() => { seen.disconnect(); done(n); }, 50));
        }"""
    )
    assert rewrites == 0
    page.evaluate("showRoundOver({ ...S.state, last_round: { result: null } })")
    page.wait_for_selector("#overlay:not(.hidden) #round-over")
    page.keyboard.press("Escape")
    page.wait_for_selector("#overlay", state="hidden")


def test_a_game_that_moves_the_seats_says_so(pages: Pages) -> None:
    """Choosing gin (two players) at a form set for three moved the seats and the bots without a word
    to a screen reader user."""
    page = pages.open(DESKTOP, "en-US")
    open_lobby(page, pages.base)
    page.evaluate(RECORD_ANNOUNCEMENTS)
    page.select_option("#preset", "german")
    page.fill("#create-form input[name=seats]", "3")
    page.fill("#create-form input[name=bots]", "2")
    page.select_option("#preset", "gin")
    page.wait_for_function("window.said.length > 0")
    assert page.evaluate("window.said") == ["Now 2 seats, 1 of them a bot"]


def test_the_status_line_is_written_once_the_moves_have_come(pages: Pages, web: Any) -> None:
    """After a draw the line first named what the rules permit ("meld, lay off, swap a joker, then
    discard") and a moment later what the hand allows ("discard"), and a screen reader said both (the
    region was marked busy meanwhile, which not every screen reader heeds): it is written once, when
    the full list of moves has come, or after a second should the list not come."""
    page = pages.open()
    seeded_table(page, pages.base, 48)
    web.first_turn(page)
    web.act_and_wait(page, "draw")
    page.wait_for_function("S.moves && S.moves.version === S.state.version")
    written = page.evaluate(
        """() => new Promise((done) => {
            const moves = S.moves, status = document.querySelector("#status"), texts = [];
            new MutationObserver(() => texts.push(status.textContent))
                .observe(status, { childList: true, characterData: true, subtree: true });
            S.state.compose = ["meld", "layoff", "swap"];
            S.moves = null; status.dataset.said = ""; renderStatus();  // the state, before its moves
            setTimeout(() => {
                S.moves = moves; renderStatus();  // the moves come
                setTimeout(() => {
                    const listed = texts.slice();
                    S.moves = null; status.dataset.said = ""; S.state.version += 1; renderStatus();
                    setTimeout(() => done([listed, texts.length - listed.length]), 1300);  // they do not
                }, 100);
            }, 300);
        })"""
    )
    assert len(written[0]) == 1 and written[0][0].startswith("Your turn: "), written
    assert "swap" not in written[0][0]
    assert written[1] == 1


def test_a_card_is_taken_out_of_a_tray_group_by_keyboard(pages: Pages, web: Any) -> None:
    """A card in the meld tray could only be clicked out of its group (the keyboard could clear the
    whole tray): it is a button named for what it does, Enter takes it back into the hand and the
    keyboard stays in the group, else goes to the hand."""
    page = pages.open(DESKTOP, "de-DE")
    seeded_table(page, pages.base, seed=5)
    web.first_turn(page)
    web.act_and_wait(page, "draw")
    cards = page.locator("#hand .card")
    held = cards.count()
    cards.nth(0).click()
    cards.nth(1).click()
    page.keyboard.press("g")
    page.wait_for_selector("#groups .group .card")
    first = page.locator("#groups .group .card").first
    assert first.get_attribute("role") == "button"
    assert first.get_attribute("aria-label").endswith(" zurück auf die Hand nehmen")
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#groups .group .card').length === 1")
    assert page.evaluate("document.activeElement.closest('#groups') !== null")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#groups .group').length === 0")
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    assert page.locator("#hand .card").count() == held
