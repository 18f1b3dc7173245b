"""In Chromium: the gin line under the piles (RULES.md §5.4) — the hand's knock card, the passes on
the first upcard while that phase lasts, and after a knock the knocker's melds as laid and the cards
laid off on them, in English and German; nothing of it at a table of another game.

A seeded gin table against a bot is played with the hints (knocking as soon as the engine allows)
until a knock. Desktop is 1280×800, phone 390×844. ``RUMMYKIT_SCREENSHOTS=DIR`` keeps the screenshots.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Final

import pytest

SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""This module's tests open more tables than a public server lets one address hold."""
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NAME = "<b>Ann&Bo</b>"
"""Markup in the player's name must come out as text."""


@pytest.fixture
def page(open_page: Any, request: pytest.FixtureRequest) -> Any:
    viewport = getattr(request, "param", DESKTOP)
    return open_page(viewport, "en-US", has_touch=viewport is PHONE, timeout_ms=20000)


def open_table(page: Any, preset: str, seed: int) -> None:
    """Create a seeded table (one bot) through the page's own API call and sit down at it."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=gin]", state="attached")
    page.evaluate(
        """async ([preset, seed, name]) => {
            const bots = [{ kind: "random" }];
            const grant = await api("/api/tables", { name, preset, seats: 2, seed, bots });
            saveGrant(grant);
            await openTable(grant.code);
        }""",
        [preset, seed, NAME],
    )
    page.wait_for_selector("#game:not(.hidden)")


def gin_text(page: Any) -> str:
    return str(page.inner_text("#gin-line")).replace("\n", " ")


def shown_groups(page: Any) -> list[list[str]]:
    groups: list[list[str]] = page.eval_on_selector_all(
        "#gin-line .gin-meld", "gs => gs.map(g => [...g.querySelectorAll('.card')].map(c => c.dataset.card))"
    )
    return groups


def play_to_a_knock(page: Any, web: Any) -> dict[str, Any]:
    """Play with the hints (a knock whenever legal) until someone has knocked and laid a meld."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page.wait_for_function(
            "document.body.dataset.myTurn === '1' || S.state.view.phase === 'over'"
            " || (S.state.view.gin && S.state.view.gin.knocker_melds.length > 0)",
            timeout=30000,
        )
        view: dict[str, Any] = page.evaluate("S.state.view")
        if view["phase"] == "over":
            break
        if view["gin"]["knocker_melds"] and view["phase"] in ("knock", "layoff"):
            return view
        if "knock" in page.evaluate("legal()") and view["phase"] == "discard":
            # Gin's knock is a move of its own: the Knock button takes it with no card selected.
            page.evaluate("clearComposition()")
            assert page.is_enabled("#btn-knock")
            version = page.evaluate("S.state.version")
            page.click("#btn-knock")
            page.wait_for_function("v => S.state.version > v", arg=version)
            page.knocked_with_the_button = True
            continue
        web.act_and_wait(page, web.hinted_action(page))
    pytest.fail("no knock in time")


def test_gin_line_knock_card_upcard_passes_and_the_knockers_melds(page: Any, shots: Path, web: Any) -> None:
    open_table(page, "gin", seed=11)
    page.wait_for_function("S.state.view.phase === 'first_upcard'")
    knock_card = page.evaluate("S.state.view.gin.knock_card")
    line = page.locator("#gin-line")
    assert line.is_visible()
    assert f"Knock at {knock_card} or less" in gin_text(page)
    passes = page.evaluate("Math.min(S.state.view.gin.upcard_passes, 2)")
    said = ["", "one pass on the first upcard", "both passed on the first upcard"]
    assert said[passes] in gin_text(page) and ("first upcard" in gin_text(page)) is (passes > 0)
    page.screenshot(path=str(shots / "gin-upcard-desktop.png"))
    # Gin has no Rummy call: its button is not offered (the knock and the discard are).
    assert page.is_visible("#btn-knock") and page.is_visible("#btn-discard")
    assert not page.is_visible("#btn-rummy")
    # The keyboard dialog lists gin's shortcuts: knock and lay-offs, no meld composing and no Rummy.
    page.keyboard.press("?")
    keys = page.eval_on_selector_all(
        "#keys-dialog tr:not(.hidden) th kbd:first-child", "ks => ks.map(k => k.innerText)"
    )
    gin_keys = ["←", "Space", "Shift", "↑", "D", "T", "1", "X", "K", "C", "H", "W", "U", "S", "M", "?", "Esc"]
    assert keys == gin_keys
    page.keyboard.press("Escape")

    page.click("#btn-lang")
    assert f"Klopfen bis {knock_card}" in gin_text(page)
    gesagt = ["", "einmal bei der ersten offenen Karte gepasst", "beide haben"]
    assert gesagt[passes] in gin_text(page)
    page.click("#btn-lang")

    view = play_to_a_knock(page, web)
    assert getattr(page, "knocked_with_the_button", False)  # this seed's deal lets the person knock
    page.wait_for_function("S.state.view.gin.knocker_melds.length > 0")
    view = page.evaluate("S.state.view")
    gin = view["gin"]
    text = gin_text(page)
    assert "first upcard" not in text  # only while that phase lasts
    own = page.evaluate("S.state.view.knocker === S.seat")
    knocker = page.evaluate("seatName(S.state.view.knocker)")
    assert ("Your melds:" if own else f"{knocker}'s melds:") in text
    # The knocker's melds lie on the table: the line names them by their numbers there ("Meld 1, Meld 2"),
    # it does not draw them a second time.
    assert shown_groups(page) == [] and page.locator("#gin-line .card").count() == 0
    numbers = [k + 1 for k, m in enumerate(view["melds"]) if m["owner"] == view["knocker"]]
    assert numbers and ", ".join(f"Meld {n}" for n in numbers) in text
    assert ("laid off:" in text) == bool(gin["layoffs"])
    assert page.locator("#gin-line b").count() == 0  # the name's markup is text
    page.screenshot(path=str(shots / "gin-knock-desktop.png"))

    page.click("#btn-lang")
    assert ("Deine Figuren:" if own else f"Figuren von {knocker}:") in gin_text(page)
    page.click("#btn-lang")
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "gin-knock-phone.png"), full_page=True)

    # The defender's side of the line, drawn from the same view: another seat knocked (under a name
    # with markup, which stays text) and a card was laid off on its melds.
    page.evaluate(
        """() => {
            const v = S.state.view, other = 1 - S.seat;
            S.state.table.seats[other].name = "<i>Bo</i>";
            Object.assign(v, { phase: "layoff", knocker: other });
            v.melds.forEach((m) => { m.owner = other; });
            v.gin.layoffs = ["9S"];
            renderGinLine();
        }"""
    )
    text = gin_text(page)
    assert "<i>Bo</i>'s melds:" in text and "laid off: 9♠" in text
    assert page.locator("#gin-line i").count() == 0
    # A screen reader hears the cards laid off in words ("9 of spades"), not "9♠".
    assert page.get_attribute("#gin-line .gin-layoffs", "aria-label") == "9 of spades"
    assert "Meld 1" in text
    # What the knocker kept out of its melds (face up) is counted for the defender: an undercut in
    # reach or not, without adding up; a gin says that nothing may be laid off.
    kept = """k => {
        const v = S.state.view;
        v.revealed = [null, null];
        v.revealed[v.knocker] = k;
        renderGinLine();
    }"""
    page.evaluate(kept, ["4D", "AS", "5S"])
    assert gin_text(page).endswith("<i>Bo</i> knocked with 10")
    page.evaluate(kept, ["KD"])
    assert gin_text(page).endswith("<i>Bo</i> knocked with 10")
    page.evaluate(kept, [])
    assert gin_text(page).endswith("<i>Bo</i> has gin: nothing may be laid off")
    page.evaluate("() => { S.lang = 'de'; applyLanguage(); }")
    page.evaluate(kept, ["AS", "2S"])
    assert gin_text(page).endswith("<i>Bo</i> hat mit 3 geklopft")
    page.evaluate("() => { S.lang = 'en'; applyLanguage(); }")

    # The defender lays a card off onto the knocker's melds as a whole ("layoff 9S", the engine finds
    # the meld): every table meld takes the drop or the number key, and the move sent names no meld
    # (a "layoff 9S on 1" was refused at a gin table).
    sent = page.evaluate(
        """() => {
            const card = shownHand()[0], sent = [];
            S.state.legal = ["pass", `layoff ${card}`];
            S.moves = null;
            S.selected = [0];
            window.act = (a) => sent.push(a);
            const targets = [...layoffTargets().keys()];
            layOffOn(1);
            layOffOn(S.state.view.melds.length);
            return {card, targets, sent, melds: S.state.view.melds.length};
        }"""
    )
    assert sent["targets"] == list(range(1, sent["melds"] + 1)) and sent["melds"] > 0
    assert sent["sent"] == [f"layoff {sent['card']}"] * 2


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_gin_line_on_a_phone_and_not_at_a_german_rummy_table(page: Any, shots: Path) -> None:
    open_table(page, "gin", seed=11)
    page.wait_for_function("S.state.view.gin !== null")
    line = page.locator("#gin-line")
    assert line.is_visible() and "Knock at" in gin_text(page)
    box = line.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(shots / "gin-upcard-phone.png"))

    open_table(page, "german", seed=11)
    page.wait_for_function("S.state.view.gin === null")
    assert not line.is_visible() and gin_text(page) == ""


def test_the_lobby_offers_the_seats_the_chosen_game_allows(page: Any) -> None:
    """Gin is played by two: choosing it sets the seats to 2 (at most 2) and at most one bot; back at
    German Rummy the range is 2 to 6 again and a typed 9 comes back to 6."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=gin]", state="attached")
    seats, bots = "#create-form input[name=seats]", "#create-form input[name=bots]"
    page.fill(seats, "4")
    page.dispatch_event(seats, "change")
    page.fill(bots, "3")
    page.select_option("#preset", "gin")
    assert page.eval_on_selector(seats, "s => [s.value, s.min, s.max]") == ["2", "2", "2"]
    assert page.eval_on_selector(bots, "b => [b.value, b.max]") == ["1", "1"]
    page.select_option("#preset", "german")
    assert page.locator("#create-error").is_hidden()  # a game chosen moves the seats without a word
    page.fill(seats, "9")
    page.dispatch_event(seats, "change")
    assert page.eval_on_selector(seats, "s => [s.value, s.min, s.max]") == ["6", "2", "6"]
    assert page.eval_on_selector(bots, "b => b.max") == "5"
    # A typed count is changed where the player sees it, and said why (it changed silently).
    assert "is played by 2 to 6 players: the table now has 6 seats" in page.inner_text("#create-error")


def test_the_hands_end_says_gin_undercut_and_the_deadwood(page: Any) -> None:
    """The result dialog of a gin hand: "has gin" when the knocker has no deadwood, the undercut named
    (the knocker is the result's winner, scoring below zero; the defender is highlighted), each
    player's melds and deadwood, and a dead hand at the wall said as such; in both languages."""
    open_table(page, "gin", seed=11)
    page.wait_for_function("S.state.view.gin !== null")
    result = """([termination, points, values]) => {
        const scored = termination === "knock";
        const undercut_by = scored && points[1] < 0 ? 0 : null, gin = scored && values[1] === 0;
        const round = {
            result: {termination, winner: scored ? 1 : null, scored, points, hand_values: values,
                     multiplier: 1, arrangements: [null, null], penalties: [0, 0], gains: [0, 0],
                     gin, undercut_by},
            in_play: [0, 1], revealed: [["4C"], ["9S"]],
            melds: [{cards: ["3C", "3H", "3S"], owner: 1}, {cards: ["7D", "8D", "9D"], owner: 0}],
        };
        const box = document.createElement("div");
        box.innerHTML = resultHtml(round);
        const seats = [...box.querySelectorAll(".showdown-seat")];
        const win = seats.findIndex((e) => e.classList.contains("win"));
        const melds = seats.map((e) => e.querySelectorAll(".sd-meld").length);
        return {text: box.innerText.replace(/\\s+/g, " ").trim(), win, melds};
    }"""
    bot = page.evaluate("seatName(1)")
    undercut = page.evaluate(result, ["knock", [25 + 5, -(25 + 5)], [4, 9]])
    assert undercut["text"].startswith(f"{bot} knocked — {NAME} (you) undercut"), undercut
    assert "Deadwood 4" in undercut["text"] and "Deadwood 9" in undercut["text"] and undercut["win"] == 0
    assert undercut["melds"] == [1, 1]  # each player's laid melds next to their deadwood
    gin = page.evaluate(result, ["knock", [-35, 35], [10, 0]])
    assert gin["text"].startswith(f"{bot} has gin") and gin["win"] == 1
    assert page.evaluate(result, ["wall", [0, 0], [0, 0]])["text"].startswith("the stock reached the wall")
    page.click("#btn-lang")
    german = page.evaluate(result, ["knock", [29, -29], [4, 9]])["text"]
    assert f"{bot} hat geklopft — {NAME} (du) unterbietet" in german and "Restpunkte 4" in german
    # Every label of the page has its German text.
    assert page.evaluate("Object.keys(I18N.en).filter((k) => !(k in I18N.de))") == []
    assert page.evaluate("Object.keys(I18N.de).filter((k) => !(k in I18N.en))") == []


def play_by_the_controls(page: Any, hint: str) -> str:
    """Play ``hint`` the way a person does, through the page's controls, and say which one."""
    parts = hint.split()
    if hint == "draw":
        page.click("#stock")
        return "stock"
    if hint == "take":
        page.click("#discard")
        return "pile"
    page.evaluate("clearComposition()")
    if hint == "knock":
        page.click("#btn-knock")
        return "knock"
    if parts[0] in ("discard", "layoff") and len(parts) == 2:
        page.locator(f"#hand .card[data-card='{parts[1]}']").first.click()
        if parts[0] == "discard":
            page.click("#btn-discard")
            return "discard"
        page.locator("#melds .meld").first.click()  # any of the knocker's melds takes a lay-off
        return "layoff"
    page.click(f"#moves .move-chip[data-action='{hint}']")  # melds after the knock, and the passes
    return "chip"


def test_a_seeded_gin_hand_is_played_to_its_result_by_the_controls_alone(page: Any) -> None:
    """Every move of the hand through a button, the piles, a card and a meld, or a move chip, as the
    hint says (the knock button and the lay-off by meld click once did nothing at a gin table)."""
    open_table(page, "gin", seed=11)
    used: set[str] = set()
    lines: set[str] = set()
    over = "!!document.querySelector('#overlay:not(.hidden) :is(#round-over, #match-over)')"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page.wait_for_function(f"document.body.dataset.myTurn === '1' || {over}", timeout=30000)
        if page.evaluate(over):
            break
        lines.add(page.inner_text("#status"))
        version = page.evaluate("S.state.version")
        page.evaluate("S.hint = null")
        page.keyboard.press("h")
        page.wait_for_function("S.hint !== null")
        used.add(play_by_the_controls(page, str(page.evaluate("S.hint"))))
        page.wait_for_function("v => S.state.version > v", arg=version, timeout=10000)
    else:
        pytest.fail("the hand did not end in time")
    assert {"stock", "discard", "knock", "chip"} <= used, used
    assert "Deadwood" in page.inner_text("#overlay")
    # The turn line said what was legal: gin has no Rummy call (it once offered one at every discard).
    assert not any("Rummy" in line for line in lines), lines
    assert any(line.endswith(": discard or knock") for line in lines), lines
    # A hand's result: Enter goes on; the match's end starts at its heading (an Enter does not leave it).
    ended = "match-over" if page.locator("#overlay #match-over").count() else "btn-overlay"
    assert page.evaluate("document.activeElement.id") == ended
    recap = page.locator("#overlay .last-moves li").all_inner_texts()
    assert any("knock" in line for line in recap), recap  # the recap starts at the knock


BIG_GIN_SEED: Final = 1423
"""Gin of five-card hands with big gin at 31: this seed's first hand gives the person (non-dealer)
3♦ 5♦ 3♥ 5♥ 3♠ and the upcard 5♠, six cards in two melds."""


def lay_a_big_gin(page: Any, web: Any, shots: Path, *, knock_first: bool = True, **rules: object) -> None:
    """Sit down at the seeded five-card table (:data:`BIG_GIN_SEED`) with ``rules`` besides, take the
    upcard and lay a big gin with one button: after knocking (``knock_first``), or at once from the
    discard step ("Big gin!", which knocks itself). Either lays every meld and passes."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=gin]", state="attached")
    page.evaluate(
        """async ([seed, rules]) => {
            const overrides = { big_gin_bonus: 31, hand_size: 5, ...rules };
            const grant = await api("/api/tables", { name: "Ann", preset: "gin", seats: 2, seed, overrides,
                                                     bots: [{ kind: "random" }] });
            saveGrant(grant);
            await openTable(grant.code);
        }""",
        [BIG_GIN_SEED, rules],
    )
    page.wait_for_function("S.state && S.state.view && S.state.view.phase === 'first_upcard'")
    page.wait_for_function("S.state.view.to_move === S.seat")
    web.act_and_wait(page, "take")
    button = page.locator("#btn-big-gin")
    if knock_first:
        page.evaluate("clearComposition()")
        version = page.evaluate("S.state.version")
        page.click("#btn-knock")
        page.wait_for_function("v => S.state.version > v && S.state.view.phase === 'knock'", arg=version)
        assert "discard, or lay all 6 cards in melds for big gin" in page.inner_text("#status")
        assert button.inner_text() == "Big gin: lay all 6"
    else:
        assert "all 6 cards lie in melds: big gin" in page.inner_text("#status")
        assert button.inner_text() == "Big gin! (all 6 in melds)"
    page.screenshot(path=str(shots / f"gin-big-gin-{'knocked' if knock_first else 'discard'}.png"))
    button.click()
    page.wait_for_function("!!document.querySelector('#overlay:not(.hidden) :is(#round-over, #match-over)')")


def test_a_big_gin_is_offered_after_the_knock_laid_with_one_button_and_named_in_the_result(
    page: Any, shots: Path, web: Any
) -> None:
    lay_a_big_gin(page, web, shots)
    check_the_big_gin_result(page)


def test_a_big_gin_is_offered_at_the_discard_step(page: Any, shots: Path, web: Any) -> None:
    """With every card in melds after the draw, "Big gin!" is offered before any knock: one click
    knocks, lays the melds and passes."""
    lay_a_big_gin(page, web, shots, knock_first=False)
    check_the_big_gin_result(page)


def check_the_big_gin_result(page: Any) -> None:
    text = page.inner_text("#overlay")
    assert "Ann (you) has big gin" in text
    result = page.evaluate("(S.state.view.result || S.state.last_round.result)")
    assert result["big_gin"] is True and result["points"][0] == result["hand_values"][1] + 31
    # The arithmetic as the apps show it: the other's deadwood, less one's own, and the bonus named.
    assert f"Ann (you) scores {result['hand_values'][1]} − 0 + 31 (big gin) = {result['points'][0]}" in text


def test_a_game_to_100_counts_the_points_won_and_what_each_still_needs(
    page: Any, shots: Path, web: Any
) -> None:
    """Gin to 100 adds up the points of the hands won (a lost hand takes none away): the score sheet
    shows those and what each player still needs, not the net totals (which gave the loser minus)."""
    lay_a_big_gin(page, web, shots, match_end="target_score", target_score=100)
    assert page.locator("#overlay #round-over").count() == 1  # 70 points: the game goes on
    won = page.evaluate("S.state.last_round.result.points[0]")
    # The hand's result gives each the points won, as the sheet adds them: the loser 0, not a minus.
    seats = page.locator("#overlay .showdown .sd-name").all_inner_texts()
    assert [s.split(" · ")[0] for s in seats] == [f"Ann (you): {won} points", "Bot 2: 0 points"]
    page.click("#btn-overlay")
    page.wait_for_function("S.state.match.hands.length === 1")
    # Read in one evaluation: the sheet is drawn again when the next hand's state comes, and a row taken
    # before that and read after it is no longer laid out (its innerText runs "Hand" and "total" together).
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#scores tr')]"
        ".map(r => [...r.children].map(c => c.innerText.trim().split(/\\s+/).join(' ')))"
    )
    # The hand's points, and under them the total after it; in German "Stand".
    assert rows[0][0] == "Hand total"
    assert rows[1] == ["1", f"{won} total: {won}", "0 total: 0"] and rows[2] == ["Total", str(won), "0"]
    assert rows[3] == ["To 100: still", str(100 - won), "100"]
    assert "· to 100 ·" in page.inner_text("#round-info")
    page.click("#btn-lang")
    assert "· bis 100 ·" in page.inner_text("#round-info") and "Bis 100 fehlen" in page.inner_text("#scores")
    running = page.inner_text("#scores tbody tr:first-child td:nth-child(2) .running")
    assert running.split() == ["Stand:", str(won)]
    assert page.inner_text("#scores thead th:first-child").split() == ["Spiel", "Stand"]
    page.click("#btn-lang")


def test_the_end_of_a_game_itemises_its_bonuses_and_says_the_margin(page: Any, shots: Path, web: Any) -> None:
    """A game to 10 that the first hand's big gin wins with a shutout: the final table lists the box
    bonus, the game bonus and the shutout's doubling row by row (not one "Bonuses" sum), and says by
    how much the winner won, in English and German."""
    bonuses = {"box_bonus": 25, "game_bonus": 100, "shutout_doubles": True}
    lay_a_big_gin(page, web, shots, match_end="target_score", target_score=10, **bonuses)
    assert page.locator("#overlay #match-over").count() == 1
    won = page.evaluate("S.state.last_round.result.points[0]")
    before_doubling = won + 25 + 100
    words = "rs => rs.map(r => [...r.children].map(c => c.innerText.trim()))"
    rows = page.eval_on_selector_all("#overlay .final-scores tr", words)
    assert rows[1:] == [
        ["Box bonus (25 a hand won)", "25", "0"],
        ["Game bonus", "100", "0"],
        ["Shutout: doubled", str(before_doubling), "0"],
        ["Total", str(2 * before_doubling), "0"],
    ]
    assert f"Ann (you) wins the game by {2 * before_doubling} points." in page.inner_text("#overlay")
    page.screenshot(path=str(shots / "gin-game-over-bonuses.png"))
    # In German (the dialog is modal: the language is set as the button does, and the end shown again).
    page.evaluate("() => { S.lang = 'de'; applyLanguage(); showMatchOver(S.state); }")
    rows = page.eval_on_selector_all("#overlay .final-scores tr", words)
    german = ["Box-Bonus (25 je gewonnenes Spiel)", "Partiebonus", "Zu null gewonnen: verdoppelt"]
    assert [r[0] for r in rows[1:4]] == german
    margin = f"Ann (du) gewinnt die Partie mit {2 * before_doubling} Punkten Vorsprung."
    assert margin in page.inner_text("#overlay")
    title = page.get_attribute("#overlay .final-scores tr.bonus-box td:nth-child(2)", "title")
    assert title == "Ann (du): 1 gewonnenes Spiel × 25"
    # The bonuses came after the win: a winner who ends level or behind (the loser's box bonuses) is
    # given no margin, and a margin of one point is said in the singular.
    said = "g => marginLine({...S.state, match: {...S.state.match, gains: g}})"
    assert page.evaluate(said, [82, 225]) == "" and page.evaluate(said, [100, 100]) == ""
    assert "mit 1 Punkt Vorsprung." in page.evaluate(said, [101, 100])
    page.evaluate("() => { S.lang = 'en'; applyLanguage(); }")
    assert "wins the game by 1 point." in page.evaluate(said, [101, 100])
    assert "by 2 points." in page.evaluate(said, [102, 100])


def test_straight_gin_and_oklahoma_are_said_in_the_gin_line(page: Any) -> None:
    """Knock card 0 reads "Gin only" (not "Knock at 0 or less"); under Oklahoma the line says where its
    knock card comes from (one table, its rules and knock card set in the page)."""
    open_table(page, "gin", seed=11)
    page.wait_for_function("S.state.view.gin !== null")
    assert "Knock at" in gin_text(page) and "Oklahoma" not in gin_text(page)
    page.evaluate("() => { S.state.view.gin.knock_card = 0; renderGinLine(); }")
    assert "Gin only (no knock with deadwood)" in gin_text(page) and "Knock at" not in gin_text(page)
    page.evaluate("() => { S.state.view.gin.knock_card = 7; S.state.table.rules = 'gin(oklahoma=true)'; }")
    page.evaluate("renderGinLine()")
    assert "Knock at 7 or less (Oklahoma: the first upcard's value)" in gin_text(page)
    page.click("#btn-lang")
    assert "Klopfen bis 7 (Oklahoma: der Wert der ersten offenen Karte)" in gin_text(page)


def test_sort_by_melds_groups_the_hand_as_its_best_arrangement(page: Any) -> None:
    """Knock games and gin: "Sort by melds" puts the melds of the hand's best arrangement first (the
    server sends them with your deadwood), the other cards after them by suit; the order is kept."""
    open_table(page, "gin", seed=13)  # 9♥ 10♥ J♥ in the first hand
    page.wait_for_function("S.state.view.knock_line !== null && S.state.view.knock_line.melds.length > 0")
    assert page.is_visible("#btn-sort-melds")
    page.click("#btn-sort-melds")
    melds = page.evaluate("S.state.view.knock_line.melds.flat()")
    shown = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    assert shown[: len(melds)] == melds and sorted(shown) == sorted(page.evaluate("S.state.view.hand"))
    open_table(page, "german", seed=11)
    page.wait_for_function("S.state.view.knock_line === null")
    assert not page.is_visible("#btn-sort-melds")


SPADE_SEED: Final = 9
"""Under Oklahoma this seed's first upcard is the K♠: knock card 10, and the hand counts double."""


def test_a_spade_upcard_under_oklahoma_doubles_the_hand_and_says_so(page: Any, shots: Path, web: Any) -> None:
    """With ``oklahoma_spade_doubles`` the gin line says the hand counts double, and the result shows
    the arithmetic doubled: "(a − b + bonus) × 2 (spade upcard) = n", in both languages."""
    page.goto(page.base + "/")
    page.wait_for_selector("#preset option[value=gin]", state="attached")
    page.evaluate(
        """async (seed) => {
            const overrides = { oklahoma: true, oklahoma_spade_doubles: true };
            const grant = await api("/api/tables", { name: "Ann", preset: "gin", seats: 2, seed, overrides,
                                                     bots: [{ kind: "random" }] });
            saveGrant(grant);
            await openTable(grant.code);
        }""",
        SPADE_SEED,
    )
    page.wait_for_function("S.state && S.state.view && S.state.view.gin")
    assert page.evaluate("S.state.view.gin.doubled") is True
    okla = "Knock at 10 or less (Oklahoma: the first upcard's value)"
    assert f"{okla} spade upcard: the hand counts double" in gin_text(page)
    page.click("#btn-lang")
    assert "Pik aufgedeckt: das Spiel zählt doppelt" in gin_text(page)
    page.click("#btn-lang")
    page.screenshot(path=str(shots / "gin-oklahoma-spade.png"))
    over = "!!document.querySelector('#overlay:not(.hidden) :is(#round-over, #match-over)')"
    deadline = time.monotonic() + 120
    while not page.evaluate(over):
        assert time.monotonic() < deadline, "the hand did not end in time"
        page.wait_for_function(f"document.body.dataset.myTurn === '1' || {over}", timeout=30000)
        if not page.evaluate(over):
            web.act_and_wait(page, web.hinted_action(page))
    page.screenshot(path=str(shots / "gin-oklahoma-spade-result.png"))
    result = page.evaluate("(S.state.view.result || S.state.last_round.result)")
    assert result["termination"] == "knock" and result["multiplier"] == 2
    text = page.inner_text("#overlay")
    scorer = result["undercut_by"] if result["undercut_by"] is not None else result["winner"]
    points = result["points"][scorer]
    assert points % 2 == 0 and f"× 2 (spade upcard) = {points}" in text, text
    assert "Rummy ×2" not in text and "×2)" not in text  # the factor is named once, in the arithmetic
