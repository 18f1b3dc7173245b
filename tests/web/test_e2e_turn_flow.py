"""In Chromium: what a turn's buttons and lines do with the melds composed in the tray, a joker laid
off by a click, and the line that says what the player to move may do.

Seeded German tables (seat 0 is the page's, a random bot in seat 1) give known hands: seed 48 lets
seat 0 open after drawing with ``3C 3H 3S | 6D 7D 8D | 9D 9H 9S``.
"""

from __future__ import annotations

from typing import Any

from tests.web.pages import RECORD_ANNOUNCEMENTS, Pages, draw, pick, seeded_table

OPENING = [["3C", "3H", "3S"], ["6D", "7D", "8D"], ["9D", "9H", "9S"]]
SERVER_ARGS = (
    *("--max-tables-per-address", "50", "--creations-per-second", "50"),
    *("--practice-turn-seconds", "120"),
)
"""More tables than a public server allows from one address, and the turn clock also for a person
alone with bots (the server's default runs none there), whose timer some tests read."""
"""The module opens more tables from one address than a public server allows (5 open ones)."""


def own_moves(page: Any) -> list[str]:
    """The moves of the page's seat in the state's log, in order."""
    return [str(e["action"]) for e in page.evaluate("S.state.log") if e["seat"] == 0 and e["index"] >= 0]


def compose(page: Any, cards: list[str]) -> None:
    pick(page, cards)
    page.click("#btn-group")


def test_discarding_lays_the_melds_composed_in_the_tray_first(pages: Pages) -> None:
    """Melds composed but not laid are not lost when the player discards: ready ones are laid, then the
    card goes; a tray that cannot be laid stops the discard and says why."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    draw(page)
    # Not a meld: the discard is refused with the reason, nothing is played.
    version = page.evaluate("S.state.version")
    compose(page, ["3C", "6D", "9H"])
    page.wait_for_selector("#groups .group.bad")
    loose = next(c for c in page.evaluate("shownHand()") if all(c not in meld for meld in OPENING))
    page.locator(f"#hand .card[data-card='{loose}']").first.click()
    page.click("#btn-discard")
    assert "nicht jede Gruppe ist eine gültige Figur" in page.inner_text("#game-error")
    page.wait_for_timeout(300)
    assert page.evaluate("S.state.version") == version and page.locator("#groups .group").count() == 1
    page.click("#btn-clear")
    # Three melds worth 72: "Abwerfen" lays them, then discards the selected card.
    for meld in OPENING:
        compose(page, meld)
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 3")
    assert page.is_enabled("#btn-play")
    page.locator(f"#hand .card[data-card='{loose}']").first.click()
    page.click("#btn-discard")
    page.wait_for_function("S.state.view.opened[0] && S.state.view.hand.length === 4")
    log = own_moves(page)
    assert log[-2].startswith("open ") and log[-1] == f"discard {loose}", log
    assert page.evaluate("S.groups") == []


def test_the_tray_is_cleared_when_the_turn_ends(pages: Pages) -> None:
    """Cards composed into a tray group and not laid go back to the hand when the turn ends."""
    page = pages.open()
    seeded_table(page, pages.base, "german", seed=48)
    draw(page)
    compose(page, ["3C", "6D"])
    page.wait_for_selector("#groups .group")
    loose = next(c for c in page.evaluate("shownHand()") if c not in ("3C", "6D"))
    page.evaluate("(card) => act(`discard ${card}`)", loose)  # the turn ends (as when a bot takes over)
    page.wait_for_function("document.body.dataset.myTurn === '0'")
    assert page.evaluate("S.groups") == [] and page.locator("#groups .group").count() == 0


def test_a_joker_laid_off_by_a_click_goes_to_the_high_end(pages: Pages) -> None:
    """Clicking a run with a joker selected sends the upper end (RULES.md D12), which the engine lists
    after the lower one; the lower end stays among the possible moves."""
    page = pages.open()
    seeded_table(page, pages.base, "german", seed=48)
    sent = page.evaluate(
        """() => {
            const sent = [];
            S.ws.send = (m) => sent.push(JSON.parse(m).action);
            S.state.view.hand = ["JK", "5C"];
            const actions = ["layoff JK on 1 low", "layoff JK on 1 high", "layoff JK on 2"];
            actions.push("layoff 5C on 12", "layoff 5C on 1");
            S.moves = { version: S.state.version, actions };
            render();
            // Each click as in a state of its own (a move is sent once per state).
            const click = (n) => { layOffOn(n); S.outbox = null; };
            S.selected = [shownHand().indexOf("JK")];
            click(1); click(2);
            const targets = Object.fromEntries(layoffTargets());
            S.selected = [shownHand().indexOf("5C")];
            click(1);
            const chips = [...document.querySelectorAll("#moves .move-chip")];
            return { sent, targets, chips: chips.map((b) => b.dataset.action) };
        }"""
    )
    assert sent["sent"] == ["layoff JK on 1 high", "layoff JK on 2", "layoff 5C on 1"]
    assert sent["targets"] == {"1": "layoff JK on 1 high", "2": "layoff JK on 2"}
    assert "layoff JK on 1 low" in sent["chips"]


def test_the_turn_line_offers_only_what_is_legal(pages: Pages) -> None:
    """Before opening there is no lay-off to offer; in the last turn after a Viennese knock neither a
    knock nor Rummy, and the line says whose knock it was."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    assert page.inner_text("#status") == "Du bist dran: vom Stoß ziehen oder von der Ablage nehmen"
    draw(page)
    # Written once the full list of moves has come (it follows the state): waited for, not read at once.
    page.wait_for_function(
        "document.querySelector('#status').innerText === 'Du bist dran: auslegen, dann abwerfen'"
    )
    seeded_table(page, pages.base, "viennese", seed=1)
    line = page.evaluate(
        """() => {
            const v = S.state.view;
            v.phase = "discard"; v.knocker = 1; S.state.compose = [];
            S.state.legal = v.hand.map((c) => "discard " + c);
            S.moves = null;
            renderStatus();
            const last = document.querySelector("#status").innerText;
            v.knocker = null; S.state.legal.push("knock " + v.hand[0], "rummy " + v.hand[0]);
            renderStatus();
            return [last, document.querySelector("#status").innerText];
        }"""
    )
    assert line == [
        "Bot 2 hat geklopft – dein letzter Zug: abwerfen",
        "Du bist dran: abwerfen, klopfen oder Rummy rufen",
    ]
    # A buy-back offer comes after the hand (its phase is over): the line and the chips are German.
    offer = page.evaluate(
        """() => {
            S.state.view.phase = "over"; S.state.view.knocker = null; S.state.legal = ["buyback", "decline"];
            render();
            const bare = document.querySelector("#status").innerText;
            S.state.match.buyback_offer = { seat: S.seat, chips: 5, from: 87, to: 52 };
            S.state.view.knocker = (S.seat + 1) % S.state.table.players;  // ended by a knock, as most
            render();
            return [bare, document.querySelector("#status").innerText,
                    [...document.querySelectorAll("#moves .move-chip")].map((b) => b.innerText)];
        }"""
    )
    assert offer == [
        "Du bist dran: dich zurückkaufen oder ablehnen",
        # The price and the score it leaves, which the choice depends on (the page named neither).
        "Du bist dran: dich für 5 Chips zurückkaufen (dein Stand steigt von -87 auf -52) oder ablehnen",
        ["Zurückkaufen", "Ablehnen"],
    ]


def test_a_rubbers_score_sheet_shows_its_buy_backs_the_players_out_and_the_pot_won(pages: Pages) -> None:
    """A buy-back appears after its hand (the totals below it add up again), the limit row says what
    each player may still take and "out" for the players out (it marked them "close to the limit"),
    and the match's end names the pot the winner takes."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    sheet = page.evaluate(
        """() => {
            const m = S.state.match;
            m.hands = [{ hand: 1, points: [-40, -91, 0], gains: [0, 0, 0], termination: "knock", winner: 2,
                         active_seats: [0, 1, 2] },
                       { hand: 2, points: [-70, -10, 0], gains: [0, 0, 0], termination: "knock", winner: 2,
                         active_seats: [0, 1, 2] }];
            m.buybacks = [{ hand: 1, seat: 1, from: 91, to: 40, chips: 5 }];
            m.totals = [110, 50, 0]; m.scores = [-110, -50, 0]; m.eliminated = [true, false, false];
            m.is_rubber = true; m.chips = [-6, -11, -6]; m.pot = 23;
            renderScores();
            // Each cell's own text, and apart the total after the hand under a hand's points.
            const own = (c) => (c.firstChild ? c.firstChild.textContent.trim() : "");
            const rows = [...document.querySelectorAll("#scores tr")].map((r) => [...r.children].map(own));
            const running = [...document.querySelectorAll("#scores tbody tr")].map(
                (r) => [...r.querySelectorAll(".running")].map((e) => e.innerText.split(/\\s+/).join(" ")));
            const title = document.querySelector("#scores tr.buyback td[title]").title;
            const price = document.querySelector("#scores tr.buyback td[title]").innerText;
            return { rows, running, title, price };
        }"""
    )
    rows = sheet["rows"]
    assert rows[1] == ["1", "-40", "-91", "0"]
    assert rows[2] == ["Bought back", "", "-91 → -40", ""]  # in the sheet's sign, as its hands and totals
    assert rows[3] == ["2", "-70", "-10", "0"]
    # Under each hand's points the total after it (a buy-back's counted from its hand on): they add
    # up to the Total row.
    assert sheet["running"][0] == ["total: -40", "total: -91", "total: 0"]
    assert sheet["running"][2] == ["total: -110", "total: -50", "total: 0"]
    assert rows[4] == ["Total", "-110", "-50", "0"]
    assert rows[5] == ["Points to 101", "out", "51", "101"]
    assert "bought back for 5 chips: -91 → -40" in sheet["title"]
    # The price is in view under the change, not only in the title (no touch screen or printout shows a
    # title, and the scorekeeper settles the chips from the sheet).
    assert sheet["price"].split("\n") == ["-91 → -40", "5 chips paid"]
    won = page.evaluate(
        """() => {
            const m = S.state.match;
            m.is_over = true; m.winners = [2]; m.pot_won = 23; m.pot = 0;
            showMatchOver({ ...S.state, view: { ...S.state.view, result: null }, last_round: null });
            return document.querySelector("#overlay .pot-won").innerText;
        }"""
    )
    assert won == "The winner takes the pot: 23 chips"


def test_a_rubbers_score_sheet_shows_each_hands_chips_and_who_took_the_pot(pages: Pages) -> None:
    """Under each hand the chips it moved (the knock money) in view; once the rubber is over the Pot row
    says what the pot held and each winner's share (it read 0: the pot had been paid out), a shared
    pot as it split. A hand's result counts the chips of that hand, not the next hand's ante."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    sheet = page.evaluate(
        """() => {
            const m = S.state.match;
            m.hands = [{ hand: 1, points: [-40, -9, 0], gains: [0, 0, 0], termination: "knock", winner: 2,
                         active_seats: [0, 1, 2], chips: [-1, -1, 2], knock_money: [-1, -1, 2] },
                       { hand: 2, points: [-70, 0, -2], gains: [0, 0, 0], termination: "rummy", winner: 1,
                         active_seats: [1, 2], chips: [0, 1, -1], knock_money: [0, 1, -1] }];
            m.buybacks = [];
            m.totals = [110, 9, 2]; m.scores = [-110, -9, -2]; m.eliminated = [true, false, false];
            m.is_rubber = true; m.chips = [-6, -5, -4]; m.pot = 15; m.is_over = false;
            renderScores();
            const chipsOf = (c) => (c.querySelector(".chips-moved") || {}).innerText || "";
            const moved = () => [...document.querySelectorAll("#scores tbody tr")].slice(0, 2).map(
                (r) => [...r.children].slice(1).map(chipsOf));
            const potRow = () => [...document.querySelector("#scores tr.pot").children].map(
                (c) => c.innerText);
            const running = potRow();
            m.is_over = true; m.winners = [1]; m.pot_won = 15; m.pot = 0; m.chips = [-6, 10, -4];
            m.pot_shares = [0, 15, 0];
            renderScores();
            const won = potRow();
            const title = document.querySelector("#scores tr.pot td.win").title;
            m.winners = [1, 2]; m.pot_won = 15; m.pot_shares = [0, 8, 7];
            renderScores();
            const shared = potRow();
            // A hand's result: the chips of that hand (a per-hand ante of the next one is no part of it).
            const before = { ...m, chips: [-6, -5, -4], is_over: false };
            const after = { ...m, is_over: false, chips: [-11, -9, -10],
                            hands: [...m.hands, { hand: 3, knock_money: [-1, 2, -1], chips: [-6, -3, -6] }] };
            const result = handChipsMoved(after, before);
            const last = handChipsMoved({ ...after, is_over: true, pot_shares: [0, 20, 0] }, before);
            return { moved: moved(), running, won, title, shared, result, last };
        }"""
    )
    assert sheet["moved"] == [["-1 chip", "-1 chip", "+2 chips"], ["", "+1 chip", "-1 chip"]]
    assert sheet["running"] == ["Pot", "15"]
    assert sheet["won"] == ["Pot: 15 chips", "", "+15", ""]  # not "0": the pot went to the winner
    assert sheet["title"] == f"{sheet_name(page, 1)} takes 15 of the pot"
    assert sheet["shared"] == ["Pot shared: 15 chips", "", "+8", "+7"]
    assert sheet["result"] == [-1, 2, -1]
    assert sheet["last"] == [-1, 22, -1]


def test_a_dealer_sitting_out_shows_the_ante_paid_and_an_older_server_s_state_draws(pages: Pages) -> None:
    """A dealer who sits the hand out at a table of four still pays a per-hand ante: its cell shows the
    dash and the chips paid. A state from a server that sends no hands' chips and no pot_shares (before
    they came) still draws its sheet: the Pot row then names the winners, and a hand's chips are the
    difference of the chips before and after."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    sheet = page.evaluate(
        """() => {
            const m = S.state.match;
            m.hands = [{ hand: 1, points: [0, -9, -7], gains: [0, 0, 0], termination: "knock", winner: 0,
                         active_seats: [0, 1, 2], chips: [1, -3, -3], knock_money: [2, -1, -1] },
                       { hand: 2, points: [null, -4, 0], gains: [0, 0, 0], termination: "knock", winner: 2,
                         active_seats: [1, 2], chips: [-2, -3, -1], knock_money: [0, -1, 1] }];
            m.buybacks = []; m.totals = [0, 13, 7]; m.scores = [0, -13, -7];
            m.eliminated = [false, false, false]; m.is_rubber = true; m.is_over = false;
            m.chips = [-1, -6, -4]; m.pot = 11;
            renderScores();
            const row = [...document.querySelectorAll("#scores tbody tr")][1];
            const out = row.children[1];
            const paid = (out.querySelector(".chips-moved") || {}).innerText || "";
            const dealer = { cls: out.className, moved: paid };
            // An older server: no chips on its hands, no pot_shares.
            for (const h of m.hands) { delete h.chips; delete h.knock_money; }
            delete m.pot_shares;
            m.is_over = true; m.winners = [2]; m.pot_won = 11; m.pot = 0; m.chips = [-1, -6, 7];
            renderScores();
            const pot = [...document.querySelector("#scores tr.pot").children].map((c) => c.innerText);
            const moved = document.querySelectorAll("#scores .chips-moved").length;
            const diff = handChipsMoved(m, { ...m, chips: [-1, -5, -5] });
            return { dealer, pot, moved, diff };
        }"""
    )
    assert sheet["dealer"] == {"cls": "out", "moved": "-2 chips"}
    assert sheet["pot"] == ["Pot: 11 chips", sheet_name(page, 2)]
    assert sheet["moved"] == 0
    assert sheet["diff"] == [0, -1, 12]


def sheet_name(page: Any, seat: int) -> str:
    return str(page.evaluate(f"seatName({seat})"))


def test_the_turn_timer_waits_for_the_result_to_be_closed(pages: Pages) -> None:
    """In the break after a hand the timer of a person whose clock rests is not shown; closing the
    hand's result tells the server (``ready``)."""
    page = pages.open()
    seeded_table(page, pages.base, "german", seed=48)
    page.wait_for_function("document.querySelector('#turn-timer').innerText !== ''")
    shown = page.evaluate(
        """() => {
            const sent = [];
            S.ws.send = (m) => sent.push(JSON.parse(m));
            S.state.rest = [S.state.match.to_move];
            renderTimer();
            const resting = document.querySelector("#turn-timer").innerText;
            S.state.rest = [];
            renderTimer();
            showRoundOver({ ...S.state, last_round: { result: null } });
            document.querySelector("#btn-overlay").click();
            return { resting, running: document.querySelector("#turn-timer").innerText, sent };
        }"""
    )
    assert shown["resting"] == "" and shown["running"].startswith("Anna (you): ")
    assert {"type": "ready"} in shown["sent"]


def test_the_result_names_a_hand_rommé_and_shows_a_rubbers_chips(pages: Pages) -> None:
    """A doubled hand says why ("Hand-Rommé ×2", in the knock games "Rummy ×2"); a rubber's result
    shows what each seat won or paid in chips with the hand and what it holds now."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    heads = page.evaluate(
        """() => {
            const round = (termination, multiplier) => ({ in_play: [0, 1], revealed: [["5C"], []], result: {
                scored: true, termination, winner: 1, multiplier, points: [-10, 0], hand_values: [5, 0],
                arrangements: [] } });
            const head = (html) => { const d = document.createElement("div"); d.innerHTML = html; return d; };
            const german = head(resultHtml(round("went_out", 2))).querySelector(".result-head").innerText;
            S.state.table.knock_game = true;
            S.state.match.is_rubber = true; S.state.match.chips = [-6, -4]; S.chipsMoved = [-1, 1];
            const rubber = head(resultHtml(round("rummy", 2)));
            return [german, rubber.querySelector(".result-head").innerText,
                    [...rubber.querySelectorAll(".sd-chips")].map((e) => e.innerText)];
        }"""
    )
    assert heads == [
        "Bot 2 hat ausgemacht (Hand-Rommé ×2)",
        "Bot 2 hat Rummy gerufen (Rummy ×2)",
        ["Chips: -1, jetzt -6", "Chips: +1, jetzt -4"],
    ]


def test_a_hand_ended_by_the_take_bound_is_named_so(pages: Pages) -> None:
    """The server sends ``takes_bound`` with a hand ended dead by ``max_takes_in_a_row`` (a real hand
    in tests/test_endless_hands.py); the result's head names the bound in the page's language, and a
    dead gin hand (other causes) keeps the general words."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    heads = page.evaluate(
        """() => {
            const round = (takes_bound) => ({ in_play: [0, 1], revealed: [[], []], result: {
                scored: false, termination: "drawn", winner: null, multiplier: 1, points: [0, 0],
                hand_values: [40, 52], arrangements: [], takes_bound } });
            const head = (r) => {
                const d = document.createElement("div"); d.innerHTML = resultHtml(r);
                return d.querySelector(".result-head").innerText;
            };
            const german = [head(round(50)), head(round(null))];
            S.lang = "en";
            return german.concat([head(round(50))]);
        }"""
    )
    assert heads == [
        "ein totes Spiel nach 50 Aufnahmen hintereinander – keine Wertung",
        "ein totes Spiel (die abgelegten Karten gingen hin und her) – keine Wertung",
        "a dead hand after 50 takes in a row — not scored",
    ]


def test_the_card_a_joker_stands_for_offers_the_swap(pages: Pages) -> None:
    """Clicking the meld whose joker stands for the selected card sends no lay-off the engine refuses:
    the page says the card can take the joker's place and puts the swaps first among the moves."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    shown = page.evaluate(
        """() => {
            const sent = [];
            S.ws.send = (m) => sent.push(JSON.parse(m).action);
            S.state.view.hand = ["6C", "8D", "9D"];
            const swaps = ["swap 6C on 1 then meld JK 8D 9D", "swap 6C on 1 then meld 8D 9D JK"];
            S.moves = { version: S.state.version, actions: ["layoff 9D on 3"].concat(swaps) };
            render();
            S.selected = [shownHand().indexOf("6C")];
            layOffOn(1);
            const chips = [...document.querySelectorAll("#moves .move-chip")];
            const first = chips.slice(0, 2).map((b) => [b.dataset.action, b.classList.contains("suggested")]);
            return { sent, error: document.querySelector("#game-error").innerText, first };
        }"""
    )
    assert shown["sent"] == []
    assert "6♣ lässt sich nicht an Figur 1 anlegen, kann aber den Joker dort ersetzen" in shown["error"]
    assert shown["first"] == [
        ["swap 6C on 1 then meld JK 8D 9D", True],
        ["swap 6C on 1 then meld 8D 9D JK", True],
    ]


def test_the_turn_line_names_no_meld_where_the_hand_has_none(pages: Pages) -> None:
    """The rules permit composing an opening (``compose``), but seed 1's hand after the draw holds no
    meld: once the full list of moves has come, the line says "discard" alone. It used to say "meld,
    then discard" for every hand that had not opened."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=1)
    draw(page)
    page.wait_for_function("S.moves && S.moves.version === S.state.version")
    assert "open" in page.evaluate("S.state.compose")
    assert not any(a.startswith(("open", "meld")) for a in page.evaluate("S.moves.actions"))
    page.wait_for_function("document.querySelector('#status').innerText === 'Du bist dran: abwerfen'")


def test_tab_reaches_every_table_meld_and_the_result_dialog_takes_the_keyboard(pages: Pages) -> None:
    """Table melds are buttons the Tab key reaches (the digit keys reach only the first nine), and
    the hand's result dialog takes the keyboard focus so that Enter goes on."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    draw(page)
    for meld in OPENING:
        compose(page, meld)
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 3")
    page.keyboard.press("l")
    page.wait_for_function("S.state.view.melds.length === 3")
    melds = page.locator("#melds .meld")
    assert [melds.nth(i).get_attribute("tabindex") for i in range(3)] == ["0", "0", "0"]
    assert melds.first.get_attribute("role") == "button"
    melds.nth(2).focus()
    page.keyboard.press("Enter")  # no card selected: the lay-off asks for one
    page.wait_for_function("document.querySelector('#game-error').innerText.length > 0")
    page.evaluate("renderMelds()")  # every state draws the melds anew: the focused one keeps the keyboard
    assert page.evaluate("document.activeElement.dataset.meld") == "3"
    page.evaluate("showOverlay('<h2>x</h2>', 'Weiter', null)")
    assert page.evaluate("document.activeElement.id") == "btn-overlay"
    page.keyboard.press("Enter")
    assert page.locator("#overlay").is_hidden()


def test_a_score_sheet_of_six_seats_stays_inside_a_laptop_screen(pages: Pages) -> None:
    """At 1280×720 the score sheet of five or six seats was wider than the side panel: its last
    columns were cut and the whole page scrolled sideways."""
    page = pages.open(viewport={"width": 1280, "height": 720})
    seeded_table(page, pages.base, "german", seed=5, seats=6)
    page.evaluate("S.state.match.scores = S.state.match.scores.map(() => -123); renderScores()")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    side = page.evaluate("document.querySelector('.side').getBoundingClientRect().right")
    sheet = page.evaluate("document.querySelector('#scores').getBoundingClientRect().right")
    assert sheet <= side + 1
    # Every seat's column shows at once: the panel widens for five or six seats, nothing to scroll.
    assert page.evaluate("(s => s.scrollWidth <= s.clientWidth + 1)(document.querySelector('#scores'))")
    names = page.locator("#scores th")
    assert names.nth(1).get_attribute("title") == "Anna (you)"


def test_a_reload_in_the_break_after_a_hand_shows_its_result_again(pages: Pages) -> None:
    """Seed 639 of Viennese lets the first player call Rummy at once. Reloading the page while the
    hand's result is up showed the table without it (and ended the break); the result comes back,
    and closing it goes on to the next hand."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=639)
    page.wait_for_function("legal().some(a => a.startsWith('rummy ')) || legal().includes('draw')")
    if "draw" in page.evaluate("legal()"):
        page.click("#stock")
    page.wait_for_function("legal().some(a => a.startsWith('rummy '))")
    page.evaluate("act(legal().find(a => a.startsWith('rummy ')))")
    page.wait_for_selector("#overlay:not(.hidden) #round-over")
    page.reload()
    page.wait_for_selector("#overlay:not(.hidden) #round-over")
    hands = page.evaluate("S.state.match.hands.length")
    page.click("#btn-overlay")
    page.wait_for_selector("#overlay", state="hidden")
    page.wait_for_function("n => S.state.match.hands.length === n && S.state.view.hand.length > 0", arg=hands)


def test_a_notice_that_the_database_is_slow_stays_until_the_move_arrives(pages: Pages) -> None:
    """The server's ``notice`` (a move waiting for a slow database) is shown in the page's language
    and goes once the table's next state arrives: the move it waited for."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=48)
    page.wait_for_function("S.state.legal.includes('draw')")
    version = page.evaluate("S.state.version")
    page.evaluate(
        """v => onMessage({ type: "notice", code: "storage_slow", version: v, message: "slow",
            texts: { en: "slow", de: "Die Datenbank des Servers antwortet langsam" } })""",
        version,
    )
    assert page.inner_text("#game-error").strip().startswith("Die Datenbank des Servers antwortet langsam")
    draw(page)
    page.wait_for_selector("#game-error", state="hidden")


def test_discarding_a_joker_asks_first_and_keeping_it_changes_nothing(pages: Pages) -> None:
    """Seed 1 of German deals seat 0 a joker: a discard of it by the button, the pile or a drag asks
    in a dialog (focus on "Keep it"); keeping it sends nothing, confirming discards it."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=1)
    draw(page)
    version = page.evaluate("S.state.version")
    page.locator("#hand .card[data-card='JK']").first.click()
    page.click("#btn-discard")
    page.wait_for_selector("#joker-dialog:not(.hidden)")
    assert page.inner_text("#joker-heading") == "Joker abwerfen?"
    assert page.evaluate("document.activeElement.id") == "btn-joker-keep"
    page.click("#btn-joker-keep")
    page.wait_for_selector("#joker-dialog", state="hidden")
    page.wait_for_timeout(300)
    assert page.evaluate("S.state.version") == version and "JK" in page.evaluate("S.state.view.hand")
    page.evaluate("dropOn(document.querySelector('#discard'), shownHand().indexOf('JK'))")
    page.wait_for_selector("#joker-dialog:not(.hidden)")
    page.click("#btn-joker-discard")
    page.wait_for_function("v => S.state.version > v", arg=version)
    assert own_moves(page)[-1] == "discard JK"  # the pile's top may be the bot's discard already


def test_the_joker_question_is_answered_by_keyboard(pages: Pages) -> None:
    """Space and x on the joker ask; the focus is on "Keep it", Shift+Tab reaches "Discard" and Enter
    discards (a keyboard-only player is not stuck in the question)."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=1)
    draw(page)
    version = page.evaluate("S.state.version")
    page.locator("#hand .card[tabindex='0']").focus()
    page.keyboard.press("Home")
    for _ in range(page.evaluate("shownHand().indexOf('JK')")):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("x")
    page.wait_for_selector("#joker-dialog:not(.hidden)")
    assert page.evaluate("document.activeElement.id") == "btn-joker-keep"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "btn-joker-discard"
    page.keyboard.press("Enter")
    page.wait_for_function("v => S.state.version > v", arg=version)
    assert own_moves(page)[-1] == "discard JK"  # the pile's top may be the bot's discard already


def test_a_joker_question_left_open_is_closed_by_the_next_state_and_discards_nothing(pages: Pages) -> None:
    page = pages.open()
    seeded_table(page, pages.base, "german", seed=1)
    draw(page)
    page.locator("#hand .card[data-card='JK']").first.click()
    page.click("#btn-discard")
    page.wait_for_selector("#joker-dialog:not(.hidden)")
    version = page.evaluate("S.state.version")
    page.evaluate("v => onState({ ...S.state, version: v + 1, legal: [] })", version)  # the turn ended
    page.wait_for_selector("#joker-dialog", state="hidden")
    sent = page.evaluate(
        "(() => { const seen = []; S.ws.send = (m) => seen.push(m); discardJoker(); return seen; })()"
    )
    assert sent == []


def test_the_knockers_face_up_hand_shows_its_melds_and_deadwood(pages: Pages) -> None:
    """During the others' last turns the knocker's hand lay as an unsorted fan of ten cards (unreadable
    on a phone): it shows its melds apart and the deadwood counted, and says them in words."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    shown = page.evaluate(
        """() => {
            const v = S.state.view, knocker = (S.seat + 1) % 3;
            v.knocker = knocker; v.phase = "draw";
            v.revealed[knocker] = ["6C", "6H", "6S", "8C", "8D", "8H", "9D", "JK", "JD", "3H"];
            v.knocker_shown = { melds: [["6C", "6H", "6S"], ["8C", "8D", "8H"], ["9D", "JK", "JD"]],
                                deadwood_cards: ["3H"], deadwood: 3 };
            renderOpponents();
            const box = document.querySelector(`.opponent[data-seat="${knocker}"] .knocker-hand`);
            const n = (sel) => box.querySelectorAll(sel).length;
            const text = (sel) => box.querySelector(sel).textContent;
            const said = text(".sr-only");
            return { melds: n(".sd-meld"), dead: n(".sd-dead .card"), count: text(".sd-dw"), said };
        }"""
    )
    assert shown["melds"] == 3 and shown["dead"] == 1 and shown["count"] == "= 3"
    assert shown["said"].startswith("melds: 6 of clubs, 6 of hearts, 6 of spades; 8 of clubs")
    assert shown["said"].endswith("left in hand: 3 of hearts. Deadwood 3")


def test_a_hand_that_ended_unscored_is_no_showdown(pages: Pages) -> None:
    """A Viennese hand ended by the stock (no knock) was titled "Showdown" with a row of 0 points for
    everybody: it is a hand's end, each seat "not scored"."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    shown = page.evaluate(
        """() => {
            const round = { in_play: [0, 1, 2], revealed: [["5C"], ["6D"], ["7H"]], result: {
                scored: false, termination: "stock_exhausted", winner: null, multiplier: 1, points: [0, 0, 0],
                hand_values: [5, 6, 7], arrangements: [] } };
            showRoundOver({ ...S.state, match: { ...S.state.match, is_over: false }, last_round: round });
            const box = document.querySelector("#overlay");
            return [box.querySelector("h2").innerText,
                    [...box.querySelectorAll(".sd-name")].map((e) => e.innerText)];
        }"""
    )
    assert shown[0] == "Hand over"
    assert all(": not scored · Chips: now -5" in name for name in shown[1]), shown


def test_a_new_stock_is_said_and_counted_against_the_limit(pages: Pages) -> None:
    """The discard pile turned into the stock without a word: the stock shows "new stock 1 of 3" (the
    rules' max_stock_rebuilds) and the change is said once, to everybody."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    page.evaluate(RECORD_ANNOUNCEMENTS)
    shown = page.evaluate(
        """() => {
            const before = S.state, after = JSON.parse(JSON.stringify(before));
            after.view.stock_rebuilds = 1; after.version = before.version + 1;
            announceRebuild(before, after);
            S.state = after; renderPiles();
            // Read at once: a bot's move may bring the real state (no new stock) a moment later.
            return [document.querySelector("#stock .rebuilds").innerText,
                    document.querySelector("#stock").getAttribute("aria-label")];
        }"""
    )
    assert shown[0] == "new stock 1 of 3" and "new stock 1 of 3" in shown[1]
    page.wait_for_function("window.said.length > 0")
    assert page.evaluate("window.said") == ["The discard pile is shuffled into a new stock (1 of 3)"]


def test_no_deadwood_after_the_draw_says_rummy_not_a_knock_limit(pages: Pages) -> None:
    """With every card in melds after the draw the line read "Deadwood 0 · knock below 5": what the
    hand allows is a Rummy call."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    page.wait_for_function("S.state.view.knock_line !== null")
    line = page.evaluate(
        """() => {
            const v = S.state.view;
            v.knocker = null; v.knock_line = { ...v.knock_line, deadwood: 0, after_discard: true };
            renderKnockLine();
            const rummy = document.querySelector("#knock-line").textContent;
            v.knock_line = { ...v.knock_line, deadwood: 3 };
            renderKnockLine();
            return [rummy, document.querySelector("#knock-line").textContent];
        }"""
    )
    assert line == [
        "Deadwood 0 after your best discard · Rummy possible",
        "Deadwood 3 after your best discard · knock below 5",
    ]


def test_a_new_hand_is_said_once_when_it_is_dealt(pages: Pages) -> None:
    """A new hand was said only when its predecessor's result was closed, so one dealt after a buy-back
    decided there was never said; a seat that is out heard "you hold 0 cards"."""
    page = pages.open()
    seeded_table(page, pages.base, "viennese", seed=11, seats=3)
    page.evaluate(RECORD_ANNOUNCEMENTS)
    # States made here (a bot's move may bring a real one meanwhile: an older hand, never said again).
    cards = page.evaluate(
        """() => {
            const next = JSON.parse(JSON.stringify(S.state));
            next.version += 1; next.match.hands_dealt = 2; next.view.phase = "draw"; next.view.dealer = 1;
            onState(next);
            onState({ ...next, version: next.version + 1 });  // the same hand: not said again
            return next.view.hand.length;
        }"""
    )
    page.wait_for_function("window.said.length > 0")
    page.wait_for_timeout(300)
    assert page.evaluate("window.said") == [f"Hand 2 · Dealer: Bot 2 · you hold {cards} cards"]
    out = page.evaluate(
        """() => {
            window.said = [];
            const next = JSON.parse(JSON.stringify(S.state));
            next.version += 1; next.match.hands_dealt = 3; next.view.phase = "draw"; next.view.dealer = 1;
            next.view.hand = []; next.view.active_seats = next.view.active_seats.filter((s) => s !== S.seat);
            onState(next);
            return new Promise((done) => setTimeout(() => done(window.said), 300));
        }"""
    )
    assert out == ["Hand 3 · Dealer: Bot 2"]
