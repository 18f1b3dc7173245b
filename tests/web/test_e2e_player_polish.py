"""In Chromium: what a player used to the commercial Rommé sites found wrong at the table.

Gin's defender is told which step of the end of hand they are on, the pass comes after the melds and
asks before melds that could be laid count as deadwood ("Lay my best melds" lays them); the score
sheet of four seats shows every column and "you"; the hand's result shows its final table; the list
of possible moves gives no openings away where hints are off, and a long one keeps to one row; the
knocker's melds are drawn once; laying says why it cannot, in its own words; composed melds survive a
reload; thirteen card backs fit their box; a Viennese sheet names its elimination limit.

Desktop is 1280×800, phone 390×844 (touch). ``RUMMYKIT_SCREENSHOTS=DIR`` keeps the screenshots.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import seeded_table

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""


def sit_down(page: Any, preset: str, *, seats: int = 2, seed: int = 11, name: str = "Anna") -> None:
    """Sit down at a seeded table of ``preset``, bots in every other seat, and wait for the hand."""
    seeded_table(page, page.base, preset, seed, seats=seats, name=name)
    page.wait_for_function("S.state.view.hand !== null")


# The defender's end of a gin hand, drawn from the page's own state: the bot (the other seat) knocked
# with 2♣ 2♦ 2♥ and laid it; the defender holds 5♠ 6♠ 7♠ 8♠ and the legal list of the step.
DEFENDER = """([step, lang]) => {
    if (S.lang !== lang) { S.lang = lang; applyLanguage(); }
    const v = S.state.view, other = 1 - S.seat;
    v.hand = ["3C", "7C", "5S", "6S", "7S", "8S", "10S", "QS", "KS", "2S"];
    v.melds = [{cards: ["2C", "2D", "2H"], text: "2C 2D 2H", kind: "set", value: 6, owner: other}];
    Object.assign(v, {phase: "layoff", knocker: other, to_move: S.seat});
    v.gin = {knock_card: 10, upcard_passes: 0, upcard_draws: 0, knocker_melds: [["2C", "2D", "2H"]],
             layoffs: [], layoffs_done: step === "meld"};
    S.state.legal = step === "meld"
        ? ["pass", "meld 5S 6S 7S", "meld 6S 7S 8S", "meld 5S 6S 7S 8S"]
        : ["pass", "layoff 2S"];
    S.state.legal_texts = null;
    S.state.compose = [];
    S.moves = null;
    S.sent = [];
    window.act = (a) => S.sent.push(a);
    render();
    const chips = [...document.querySelectorAll("#moves button.move-chip")];
    return {status: $("#status").innerText, chips: chips.map((b) => b.dataset.action || b.id)};
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_gin_defender_is_told_the_step_and_asked_before_passing_melds_away(
    open_page: Any, shots: Path, viewport: dict[str, int]
) -> None:
    page = open_page(viewport, "en-US", has_touch=viewport is PHONE)
    sit_down(page, "gin")
    bot = page.evaluate("seatName(1 - S.seat)")
    layoff = page.evaluate(DEFENDER, ["layoff", "en"])
    assert layoff["status"] == f"Your turn: lay off on {bot}'s melds, then Pass"
    assert layoff["chips"] == ["layoff 2S", "pass"]  # the pass after what it gives up
    page.screenshot(path=str(shots / f"gin-defender-layoff-{viewport['width']}.png"))
    page.click("#moves .move-chip[data-action='pass']")  # nothing to lose yet: passed at once
    assert page.evaluate("S.sent") == ["pass"]

    meld = page.evaluate(DEFENDER, ["meld", "en"])
    assert meld["status"] == "Your turn: now lay your own melds, then Pass"
    assert meld["chips"] == ["btn-best-melds", "meld 5S 6S 7S 8S", "meld 5S 6S 7S", "meld 6S 7S 8S", "pass"]
    page.screenshot(path=str(shots / f"gin-defender-meld-{viewport['width']}.png"))
    # Pass with melds in hand: asked first, naming them; the keyboard is in the dialog, on the safe choice.
    page.click("#moves .move-chip[data-action='pass']")
    dialog = page.locator("#pass-dialog")
    assert dialog.is_visible() and page.evaluate("S.sent") == []
    assert page.inner_text("#pass-text") == (
        "Your melds 5♠ 6♠ 7♠ 8♠ are not laid; they would count as deadwood. Pass anyway?"
    )
    assert page.evaluate("document.activeElement.id") == "btn-pass-lay"
    page.screenshot(path=str(shots / f"gin-defender-pass-asked-{viewport['width']}.png"))
    page.keyboard.press("Escape")  # kept: nothing sent
    assert dialog.is_hidden() and page.evaluate("S.sent") == []
    page.click("#moves .move-chip[data-action='pass']")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "btn-pass-confirm"
    page.keyboard.press("Enter")
    assert dialog.is_hidden() and page.evaluate("S.sent") == ["pass"]

    # "Lay my best melds" sends the meld that lays the most cards (then the next, as states come).
    page.evaluate("S.sent = []")
    page.click("#btn-best-melds")
    assert page.evaluate("S.sent") == ["meld 5S 6S 7S 8S"]

    german = page.evaluate(DEFENDER, ["layoff", "de"])
    assert german["status"] == f"Du bist dran: leg an die Figuren von {bot} an, dann Passen"
    german = page.evaluate(DEFENDER, ["meld", "de"])
    assert german["status"] == "Du bist dran: jetzt deine eigenen Figuren auslegen, dann Passen"
    page.click("#moves .move-chip[data-action='pass']")
    assert "Deine Figuren 5♠ 6♠ 7♠ 8♠ sind nicht ausgelegt" in page.inner_text("#pass-text")
    assert page.inner_text("#btn-pass-confirm") == "Trotzdem passen"


def test_the_best_melds_queue_follows_the_states(open_page: Any) -> None:
    """The melds that lay the most cards (ties: the most points) go one after another: the next once the
    state after the previous one came and it is still legal; nothing more after that."""
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "gin")
    sent = page.evaluate(
        """() => {
            const sent = [];
            window.act = (a) => sent.push(a);
            S.state.legal = ["pass", "meld 2C 3C 4C", "meld 5S 6S 7S", "meld 3C 4C 5C"];
            S.state.view.gin = {knock_card: 10, knocker_melds: [], layoffs: [], layoffs_done: true};
            S.state.view.phase = "layoff";
            const version = S.state.version;
            layBestMelds();
            // The state after the first meld: the second is still legal and goes; then a state with it gone.
            layNextMeld({version: version + 1, you: S.seat, legal: ["pass", "meld 3C 4C 5C"]});
            layNextMeld({version: version + 2, you: S.seat, legal: ["pass", "meld 2C 3C 4C"]});
            return sent;
        }"""
    )
    assert sent == ["meld 5S 6S 7S", "meld 3C 4C 5C"]


def test_the_score_sheet_of_four_shows_every_column_and_says_you(open_page: Any, shots: Path) -> None:
    page = open_page(DESKTOP, "de-DE")
    sit_down(page, "german", seats=4, name="Maximilian")
    sheet = page.evaluate(
        """() => {
            const box = $("#scores"), table = box.querySelector("table");
            const right = box.getBoundingClientRect().right;
            const heads = [...table.querySelectorAll("th")];
            return {scroll: box.scrollWidth, client: box.clientWidth,
                    outside: heads.filter((h) => h.getBoundingClientRect().right > right + 0.5)
                        .map((h) => h.innerText),
                    heads: heads.map((h) => h.innerText), own: (table.querySelector("th.own") || {}).title};
        }"""
    )
    page.screenshot(path=str(shots / "scores-four-desktop.png"))
    assert sheet["scroll"] <= sheet["client"], sheet
    assert not sheet["outside"], sheet
    assert sheet["heads"] == ["Spiel\nStand", "du", "Bot 2", "Bot 3", "Bot 4"]  # Stand: totals under hands
    assert sheet["own"] == "Maximilian (du)"


def test_the_hands_result_shows_its_final_table_in_a_melding_game(open_page: Any) -> None:
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=2)
    shown = page.evaluate(
        """() => {
            const round = {
                result: {termination: "went_out", winner: 1, scored: true, points: [-25, 0],
                         hand_values: [25, 0],
                         multiplier: 1, arrangements: [null, null], penalties: [25, 0], gains: [0, 0]},
                in_play: [0, 1], active_seats: [0, 1], revealed: [["4C", "9S"], []],
                melds: [{cards: ["3C", "3H", "3S"], owner: 1}, {cards: ["7D", "8D", "9D", "10D"], owner: 0},
                        {cards: ["JS", "QS", "KS"], owner: 1}],
            };
            const box = document.createElement("div");
            box.innerHTML = resultHtml(round);
            return [...box.querySelectorAll(".showdown-seat")].map((e) =>
                [...e.querySelectorAll(".sd-meld")].map((m) => [...m.querySelectorAll(".card")].length));
        }"""
    )
    assert shown == [[4], [3, 3]]


@pytest.mark.parametrize(("locale", "words"), [("en-US", "does not count"), ("de-DE", "zählt nicht")])
def test_a_hand_dealt_again_says_so_in_its_result(open_page: Any, locale: str, words: str) -> None:
    """With ``unscored_hand = redeal`` the result of a hand that ended unscored said nothing of what
    comes next: it says that the hand does not count and the same dealer deals again."""
    page = open_page(DESKTOP, locale)
    sit_down(page, "german", seats=2)
    said = page.evaluate(
        """() => {
            const round = {result: {termination: "stock_exhausted", winner: null, scored: false,
                                    points: [0, 0], hand_values: [0, 0], multiplier: 1,
                                    arrangements: [null, null], penalties: [0, 0], gains: [0, 0]},
                           in_play: [0, 1], active_seats: [0, 1], revealed: [[], []], melds: []};
            const hand = {hand: 1, points: [0, 0], termination: "stock_exhausted", winner: null,
                          active_seats: [0, 1]};
            const texts = [];
            for (const again of [true, false]) {
                const match = {...S.state.match, is_over: false, hands: [{...hand, dealt_again: again}]};
                showRoundOver({...S.state, match, last_round: round});
                texts.push(document.querySelector("#overlay").innerText);
            }
            return texts;
        }"""
    )
    assert words in said[0] and words not in said[1]


def test_a_real_hands_end_shows_the_melds_left_on_the_table(open_page: Any, web: Any, shots: Path) -> None:
    """Played through with the hints at a practice table until the first result: the dialog holds the
    final table's melds (the server's last round lists them), every one of them."""
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=2, seed=3)
    over = "!!document.querySelector('#overlay:not(.hidden) #round-over, #overlay:not(.hidden) #match-over')"
    for _ in range(300):
        page.wait_for_function(f"document.body.dataset.myTurn === '1' || {over}", timeout=30000)
        if page.evaluate(over):
            break
        web.act_and_wait(page, web.hinted_action(page))
    else:
        pytest.fail("no hand ended")
    melds = page.evaluate("S.state.last_round ? S.state.last_round.melds.length : S.state.view.melds.length")
    page.screenshot(path=str(shots / "result-final-table-desktop.png"))
    assert page.locator("#overlay .sd-meld").count() == melds


OPENINGS = """(others) => {
    if (others) {
        S.state.table.seats.forEach((s, i) => { if (i !== S.seat) { s.kind = "human"; s.held = false; } });
    }
    const v = S.state.view, hand = v.hand;
    const opens = [];
    for (let k = 0; k + 2 < hand.length; k++) opens.push(`open ${hand[k]} ${hand[k + 1]} ${hand[k + 2]}`);
    for (let k = 0; k + 2 < hand.length; k++) {
        opens.push(`open ${hand[k + 2]} ${hand[k + 1]} ${hand[k]} | ${hand[k]}`);
    }
    S.state.compose = ["open"];
    S.state.legal = hand.map((c) => `discard ${c}`);
    const swap = `swap ${hand[0]} on 1 then meld x`;
    S.moves = {version: S.state.version, actions: S.state.legal.concat(opens, [swap])};
    render();
    const chips = [...document.querySelectorAll("#moves .move-chip")];
    return {chips: chips.filter((b) => !b.classList.contains("hidden")).map((b) => b.dataset.action),
            all: chips.length, playable: document.querySelectorAll("#hand .card.playable").length,
            hint: hintsAllowed()};
}"""


def test_no_openings_are_offered_where_hints_are_off(open_page: Any, shots: Path) -> None:
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=2)
    # Another person at the table: no hints, so no list of openings and no "playable" outline.
    shown = page.evaluate(OPENINGS, True)
    assert shown["hint"] is False
    assert shown["chips"] == [] and shown["playable"] == 0, shown
    # The server's list leaves the openings out there: the status still says melding is allowed, as
    # the rules permit it (it named melding only when the list held a meld).
    said = page.evaluate(
        "S.moves = {version: S.state.version, actions: S.state.legal.slice()}; render(); turnText(S.state)"
    )
    assert "meld" in said, said
    # The simple moves stay.
    page.evaluate("S.state.legal = ['draw', 'take']; S.state.compose = []; S.moves = null; render()")
    actions = page.eval_on_selector_all("#moves .move-chip", "bs => bs.map((b) => b.dataset.action)")
    assert actions == ["draw", "take"]


def test_a_long_list_of_moves_keeps_to_one_row_at_a_practice_table(open_page: Any, shots: Path) -> None:
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=2)
    shown = page.evaluate(OPENINGS, False)
    assert shown["hint"] is True and shown["playable"] > 0
    rows = (
        "new Set([...document.querySelectorAll('#moves .move-chip:not(.hidden), #btn-more-moves')]"
        ".map((b) => b.offsetTop)).size"
    )
    assert page.evaluate(rows) == 1
    toggle = page.locator("#btn-more-moves")
    hidden = shown["all"] - len(shown["chips"])
    assert hidden > 0 and toggle.inner_text() == f"more ({hidden})…"
    hand = page.locator("#hand").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= DESKTOP["height"], hand
    page.screenshot(path=str(shots / "moves-folded-desktop.png"))
    toggle.click()
    assert page.locator("#moves .move-chip.hidden").count() == 0
    assert page.evaluate("document.activeElement.id") == "btn-more-moves"
    assert page.evaluate(rows) > 1
    page.click("#btn-more-moves")
    assert page.evaluate(rows) == 1


def test_the_gin_knockers_melds_are_drawn_once(open_page: Any, shots: Path) -> None:
    page = open_page(PHONE, "en-US", has_touch=True)
    sit_down(page, "gin")
    page.evaluate(DEFENDER, ["meld", "en"])
    page.evaluate("S.state.view.gin.layoffs = ['2S']; renderGinLine()")
    bot = page.evaluate("seatName(1 - S.seat)")
    line = page.inner_text("#gin-line").replace("\n", " ")
    assert f"{bot}'s melds: Meld 1" in line and "laid off: 2♠" in line
    assert page.locator("#gin-line .card").count() == 0
    assert page.locator("#melds .meld .card").count() == 3
    page.screenshot(path=str(shots / "gin-knock-once-phone.png"), full_page=True)


def test_laying_a_bad_meld_says_so_in_words_for_laying(open_page: Any) -> None:
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=2)
    said = page.evaluate(
        """(lang) => {
            const out = [];
            for (const l of ["en", "de"]) {
                S.lang = l;
                const hand = S.state.view.hand;
                S.state.legal = hand.map((c) => `discard ${c}`);
                S.moves = null;
                S.groups = [[hand[0], hand[1]]];
                S.evaluation = {melds: [{cards: [hand[0], hand[1]], legal: false}], total: 0};
                render();
                layKey();
                out.push($("#game-error .error-text").innerText);
                S.evaluation = {melds: [{cards: [hand[0], hand[1]], legal: true, value: 12}], total: 12};
                render();
                layKey();
                out.push($("#game-error .error-text").innerText);
                clearComposition();
            }
            return out;
        }"""
    )
    assert said[0] == (
        "Your composed melds cannot be laid: not every group is a meld. Complete them or clear them."
    )
    assert said[1].startswith("Your composed melds cannot be laid: 12 points do not reach the opening's 40.")
    assert "discard" not in said[0] + said[1]
    assert "abwirfst" not in said[2] + said[3]
    assert said[2].startswith("Deine Figuren lassen sich nicht auslegen")


def test_composed_melds_survive_a_reload(open_page: Any) -> None:
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=2)
    hand = page.evaluate("shownHand()")
    page.locator("#hand .card >> nth=0").click()
    page.locator("#hand .card >> nth=1").click()
    page.click("#btn-group")
    page.wait_for_function("S.groups.length === 1")
    page.reload()
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state && S.state.view && S.state.view.hand")
    still = page.evaluate("(cs) => cs.every((c) => S.state.view.hand.includes(c))", hand[:2])
    if still:
        assert page.evaluate("S.groups") == [hand[:2]]
        assert page.locator("#groups .group .card").count() == 2
    page.click("#btn-clear")
    page.reload()
    page.wait_for_function("S.state && S.state.view && S.state.view.hand")
    assert page.evaluate("S.groups") == []


def test_thirteen_card_backs_fit_their_box(open_page: Any, shots: Path) -> None:
    for viewport in (DESKTOP, PHONE):
        page = open_page(viewport, "en-US", has_touch=viewport is PHONE)
        sit_down(page, "german", seats=3)
        boxes = page.evaluate(
            """() => [...document.querySelectorAll("#opponents .opponent")].map((o) => {
                const r = o.getBoundingClientRect(), cards = [...o.querySelectorAll(".fan .card")];
                const last = cards[cards.length - 1].getBoundingClientRect();
                return {n: cards.length, right: r.right, last: last.right};
            })"""
        )
        page.screenshot(path=str(shots / f"fan-{viewport['width']}.png"))
        assert boxes and all(b["n"] >= 12 for b in boxes), boxes
        assert all(b["last"] <= b["right"] for b in boxes), boxes


def test_the_viennese_sheet_names_its_elimination_limit(open_page: Any, shots: Path) -> None:
    page = open_page(DESKTOP, "de-DE")
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=viennese]", state="attached")
    page.evaluate(
        """async () => {
            const grant = await api("/api/tables", { name: "Anna", preset: "viennese", seats: 2, seed: 4,
                bots: [{ kind: "random" }], overrides: { elimination_threshold: 151 } });
            saveGrant(grant);
            await openTable(grant.code);
        }"""
    )
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state && S.presets")
    page.wait_for_selector("#scores tr.limit")
    assert page.inner_text("#scores tr.limit td >> nth=0") == "Punkte bis 151"
    page.evaluate("S.state.match.totals = [120, 20]; renderScores()")
    assert page.locator("#scores tr.limit td.near").count() == 1
    assert page.inner_text("#scores tr.limit td.near") == "31 ⚠"  # what may still be taken, not the total
    page.screenshot(path=str(shots / "viennese-limit-desktop.png"))
    # A German Rummy sheet has no such line.
    sit_down(page, "german", seats=2)
    assert page.locator("#scores tr.limit").count() == 0


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_a_match_to_a_limit_of_minus_points_shows_them_against_the_limit(
    open_page: Any, shots: Path, locale: str
) -> None:
    """A club player's audit: with winner_gets_sum the match ended on minus points (218, 127, 81 at a
    limit of 200) while the sheet showed only the scores (-185, 1, 184). The sheet and the match-end
    dialog now show the minus points and what is left of the limit."""
    page = open_page(DESKTOP, locale)
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=german]", state="attached")
    page.evaluate(
        """async () => {
            const grant = await api("/api/tables", { name: "Anna", preset: "german", seats: 3, seed: 0,
                bots: [{ kind: "random" }, { kind: "random" }], overrides: {
                    hand_scoring: "winner_gets_sum", match_end: "penalty_limit", penalty_limit: 200 } });
            saveGrant(grant);
            await openTable(grant.code);
        }"""
    )
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_function("S.state && S.presets")
    en = locale == "en-US"
    heading = "Minus points (limit 200)" if en else "Minuspunkte (Grenze 200)"
    page.wait_for_selector("#scores tr.limit.minus")
    assert page.inner_text("#scores tr.minus td >> nth=0") == heading
    page.wait_for_function("turnOf(S.state)")  # the bots wait for us: no state comes to redraw the sheet
    rows = page.evaluate(
        """() => {
            S.state.match.totals = [218, 127, 81];
            S.state.match.scores = [-185, 1, 184];
            renderScores();
            return [...document.querySelectorAll("#scores tr.limit")].map(
                (r) => [...r.querySelectorAll("td")].map((d) => d.textContent));
        }"""
    )
    assert rows == [
        [heading, "218", "127", "81"],
        ["Left to 200" if en else "Bis 200 noch", "reached" if en else "erreicht", "73", "119"],
    ]
    total = page.evaluate(
        """() => [...document.querySelectorAll("#scores tr.total td")].map((d) => d.textContent)"""
    )
    assert total[1:] == ["-185", "1", "184"]
    page.screenshot(path=str(shots / f"penalty-limit-sheet-{locale}.png"))
    # The match-end dialog says the same below the totals.
    page.evaluate(
        """() => {
            S.state.match.is_over = true;
            S.state.match.winners = [2];
            showMatchOver(S.state);
        }"""
    )
    final = page.evaluate(
        """() => [...document.querySelectorAll("#overlay table.final-scores tr.limit")].map(
            (r) => [...r.querySelectorAll("td")].map((d) => d.textContent))"""
    )
    assert final == rows
    page.screenshot(path=str(shots / f"penalty-limit-match-over-{locale}.png"))
    # A sheet of a match to another end has no such rows.
    sit_down(page, "german", seats=2)
    assert page.locator("#scores tr.minus").count() == 0


def test_leaving_a_practice_table_says_it_ends_and_closes_it(open_page: Any) -> None:
    """The only person leaving a table of bots was told a bot would keep their seat for them, and the
    table played on for nobody, counting against their open tables; now the dialog says the game
    ends, and the table is closed."""
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=3)
    code = page.evaluate("S.code")
    page.click("#btn-leave")
    page.wait_for_selector("#leave-dialog:not(.hidden)")
    assert page.inner_text("#leave-text") == (
        "You are the last person at this table: leaving ends the game and closes the table."
    )
    page.click("#btn-leave-confirm")
    page.wait_for_selector("#lobby:not(.hidden)")
    assert page.request.get(f"{page.base}/api/tables/{code}").json()["status"] == "closed"
    assert page.evaluate(f"localStorage.getItem('rummykit:{code}')") is None  # nothing to take back


def test_the_lobby_lists_your_tables_to_resume_or_leave(open_page: Any) -> None:
    """A practice table whose tab was closed stayed open, and after five of them the lobby refused a
    new table ("finish or leave one first") with no way to reach them: the lobby lists the tables this
    browser holds a seat at, to resume or leave (which closes a practice table)."""
    page = open_page(DESKTOP, "de-DE")
    sit_down(page, "german", seats=2)
    first = page.evaluate("S.code")
    sit_down(page, "viennese", seats=2)
    second = page.evaluate("S.code")
    page.goto(page.base + "/")  # the tab reopened on the lobby, both tables still open
    page.wait_for_selector("#my-tables-panel:not(.hidden)")
    assert page.inner_text("#my-tables-title") == "Deine Tische"
    rows = page.locator("#my-tables li")
    codes = page.eval_on_selector_all("#my-tables li code", "cs => cs.map((c) => c.textContent)")
    assert sorted(codes) == sorted([first, second])
    row = rows.filter(has_text=first)
    row.get_by_role("button", name="Verlassen").click()  # asked first, as at the table
    page.wait_for_selector("#leave-dialog:not(.hidden)")
    assert page.inner_text("#leave-text").startswith("Du bist die letzte Person an diesem Tisch")
    page.click("#btn-leave-confirm")
    page.wait_for_function(f"!document.querySelector('#my-tables').innerText.includes('{first}')")
    assert page.request.get(f"{page.base}/api/tables/{first}").json()["status"] == "closed"
    rows.filter(has_text=second).get_by_role("button", name="Weiterspielen").click()
    page.wait_for_selector("#game:not(.hidden)")
    assert page.evaluate("S.code") == second and page.evaluate("S.seat") == 0


def test_the_line_above_the_table_says_what_the_others_did_meanwhile(open_page: Any) -> None:
    """Bots move every fraction of a second and the line above the table showed only the last move,
    replaced each time: at your turn it now repeats what the others did since your last move."""
    page = open_page(DESKTOP, "en-US")
    sit_down(page, "german", seats=3)
    after_others = """() => {
        const moves = S.state.log.filter((e) => e.index >= 0);
        return turnOf(S.state) && moves.some((e) => e.seat === S.seat)
            && moves[moves.length - 1].seat !== S.seat;
    }"""
    for _ in range(12):  # play the last simple move until the bots have moved after one of ours
        if page.evaluate(after_others):
            break
        page.wait_for_function("turnOf(S.state)")
        version = page.evaluate("S.state.version")
        page.evaluate("act(S.state.legal[S.state.legal.length - 1])")
        page.wait_for_function("v => S.state.version > v", arg=version)
    page.wait_for_function(after_others)
    text = page.inner_text("#last-move")
    assert text.startswith("Meanwhile: ") and "Bot 2: " in text and "Bot 3: " in text, text
