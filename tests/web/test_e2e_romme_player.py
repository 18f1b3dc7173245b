"""In Chromium: what a Rommé player composing an opening sees and does. The cards picked in the hand are
judged as a meld in the making and laid with one press; a group that is no meld says why on the
screen; the cards picked stay picked while others move; a card dragged onto the tray goes into the
group it lands on or starts one; the card taken from the discard pile that must stay in the hand is
marked; the tray names a Hand-Rommé; your own turn clock says what happens when it runs out; and on a
phone the melds' box shows the meld a picked card can be laid off on.

Seed 2 of German at three seats deals seat 0 (the page's) ``AC 3C 4C AD 3D 5D QD 5H JH AS JK JK JK``;
seed 1 (greedy bots) lets seat 0 take ``AH`` from the discard pile at its first turn.
"""

from __future__ import annotations

from typing import Any

from rummykit.rules import Rules
from tests.web.pages import Pages, draw, pick, seeded_table

SERVER_ARGS = ("--max-tables-per-address", "50", "--creations-per-second", "50")
"""The module opens more tables from one address than a public server allows (5 open ones)."""

PHONE = {"width": 390, "height": 844}


def tray(page: Any) -> dict[str, Any]:
    """The tray as drawn: each group's class, cards and value, the total line, why groups are no melds."""
    return page.evaluate(
        """() => ({
            groups: [...document.querySelectorAll('#groups .group')].map((g) => ({
                pending: g.classList.contains('pending'), ok: g.classList.contains('ok'),
                bad: g.classList.contains('bad'),
                cards: [...g.querySelectorAll('.card')].map((c) => c.dataset.card),
                value: g.querySelector('.group-value').textContent })),
            total: document.querySelector('#opening-total').innerText,
            enough: document.querySelector('#opening-total').classList.contains('enough'),
            why: document.querySelector('#tray-why').classList.contains('hidden')
                ? '' : document.querySelector('#tray-why').innerText,
            play: { shown: !document.querySelector('#btn-play').classList.contains('hidden'),
                    enabled: !document.querySelector('#btn-play').disabled },
        })"""
    )


def test_cards_picked_are_judged_and_laid_with_one_press(pages: Pages) -> None:
    """Three aces picked show as a meld in the making worth 33 against the 40 needed, before any group is
    made; with a set made and 3♣ 4♣ joker picked the opening reaches 45 and "Lay melds" lays both."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick(page, ["AC", "AD", "AS"])
    page.wait_for_function("document.querySelector('#groups .group.pending.ok')")
    shown = tray(page)
    aces = {"pending": True, "ok": True, "bad": False, "cards": ["AC", "AD", "AS"], "value": "33"}
    assert shown["groups"] == [aces]
    assert shown["total"] == "Erstmeldung: 33 / 40" and not shown["enough"]
    assert shown["play"] == {"shown": True, "enabled": False}  # 33 does not open
    page.click("#btn-group")
    pick(page, ["3C", "4C", "JK"])
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 2")
    shown = tray(page)
    assert [g["pending"] for g in shown["groups"]] == [False, True]
    assert shown["total"] == "Erstmeldung: 45 / 40" and shown["enough"]
    assert shown["play"] == {"shown": True, "enabled": True}
    page.click("#btn-play")
    page.wait_for_function("S.state.view.opened[0]")
    assert [m["text"] for m in page.evaluate("S.state.view.melds")] == ["AC AD AS", "3C 4C JK(=5C)"]
    assert tray(page)["groups"] == []


def test_a_group_that_is_no_meld_says_why_on_the_screen(pages: Pages) -> None:
    """The reason a group is no meld was a tooltip (none on a phone): it is written under the tray, and
    the total is not shown as enough while such a group stops the opening."""
    page = pages.open(viewport=PHONE, locale="de-DE", has_touch=True)
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    for meld in (["AC", "AD", "AS"], ["3C", "4C", "JK"], ["3D", "5D", "QD"]):
        pick(page, meld)
        page.click("#btn-group")
    page.wait_for_function("document.querySelectorAll('#groups .group.ok, #groups .group.bad').length === 3")
    shown = tray(page)
    assert [g["bad"] for g in shown["groups"]] == [False, False, True]
    assert shown["total"] == "Erstmeldung: 45 / 40" and not shown["enough"]
    assert shown["play"] == {"shown": True, "enabled": False}
    assert shown["why"].startswith("Gruppe 3: 3♦ 5♦ D♦: ") and "lückenlos" in shown["why"]
    assert page.locator("#tray-why").is_visible()
    # The bad group taken apart: nothing left to explain.
    page.locator("#groups .group:nth-child(3) .card").first.click()
    page.wait_for_function(
        "document.querySelectorAll('#groups .group').length === 3 && "
        "document.querySelector('#groups .group:nth-child(3) .group-value').textContent === '✗'"
    )
    page.click("#btn-clear")
    assert tray(page)["why"] == "" and page.locator("#tray-why").is_hidden()


def test_cards_picked_stay_picked_while_others_move(pages: Pages) -> None:
    """A state that changes the table but not your cards (another's move) kept no selection: cards
    picked during the others' turns were let go at each of their moves. They stay picked while held; a
    card that left the hand leaves the selection, and the end of your turn lets them all go."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    page.evaluate("S.ws.send = () => {}")  # the states below are the page's own: nothing goes out
    pick(page, ["AS", "AC", "QD"])
    kept = page.evaluate(
        """() => {
            const v = S.state.version;
            onState({ ...S.state, version: v + 1 });  // another's move: the same cards in hand
            const same = selectedCards();
            // The hand in another order (a card drawn into the middle) without the queen of diamonds.
            const hand = S.state.view.hand.filter((c) => c !== "QD").reverse();
            onState({ ...S.state, version: v + 2, view: { ...S.state.view, hand } });
            const less = selectedCards();
            const marked = [...document.querySelectorAll('#hand .card.selected')].map((c) => c.dataset.card);
            onState({ ...S.state, version: v + 3, legal: [], compose: [] });  // your turn is over
            return { same, less, marked, after: selectedCards() };
        }"""
    )
    assert kept["same"] == ["AS", "AC", "QD"]
    assert kept["less"] == ["AS", "AC"] and sorted(kept["marked"]) == ["AC", "AS"]
    assert kept["after"] == []


def box(page: Any, selector: str) -> Any:
    """The bounding box of the first element at ``selector``, measured again if a redraw (another message
    of the server) replaced the element while it was measured."""
    for _ in range(20):
        found = page.locator(selector).first.bounding_box()
        if found is not None:
            return found
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} not on the page")


def drag(page: Any, source: str, target: str, right: bool = False) -> None:
    """Drag the element at ``source`` onto ``target`` (its middle, or near its right edge) with the mouse,
    in steps (a drag starts past 8 px), once the tray's groups are judged (the judgement draws the tray
    anew: a group measured before it is replaced)."""
    page.wait_for_function(
        "![...document.querySelectorAll('#groups .group-value')].some((v) => v.textContent === '…')"
    )
    start, end = box(page, source), box(page, target)
    x = end["x"] + end["width"] - 16 if right else end["x"] + end["width"] / 2
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def test_a_card_dragged_onto_the_tray_goes_into_the_group_it_lands_on(pages: Pages) -> None:
    """Dropped beside the groups, a card went into the last group whatever it held (a set of three aces
    took a club next): it fills a group still short of three cards, else begins a new one; dropped on
    a group it goes into that group."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    for face in ("AC", "AD", "AS"):
        drag(page, f"#hand .card[data-card='{face}']", "#tray", right=True)
    assert page.evaluate("S.groups") == [["AC", "AD", "AS"]]
    drag(page, "#hand .card[data-card='3C']", "#tray", right=True)
    assert page.evaluate("S.groups") == [["AC", "AD", "AS"], ["3C"]]
    drag(page, "#hand .card[data-card='4C']", "#groups .group:nth-child(2)")
    drag(page, "#hand .card[data-card='JK']", "#groups .group:nth-child(2) .card")
    assert page.evaluate("S.groups") == [["AC", "AD", "AS"], ["3C", "4C", "JK"]]
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 2")
    assert tray(page)["total"] == "Erstmeldung: 45 / 40"


def test_the_card_taken_from_the_pile_is_marked_while_it_must_stay(pages: Pages) -> None:
    """Taken from the discard pile, the ace of hearts may not be discarded in that turn: the card is
    marked in the hand and the turn's line says so, which the refusal alone said after a try."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=1, seats=3, bot="greedy")
    page.wait_for_function("S.state.legal.includes('take')")
    page.click("#discard")
    page.wait_for_function(
        "S.state.view.taken_discard === 'AH' && S.state.legal.some(a => a.startsWith('discard'))"
    )
    marked = page.evaluate(
        "[...document.querySelectorAll('#hand .card.taken')]"
        ".map((c) => [c.dataset.card, c.getAttribute('aria-label')])"
    )
    assert marked == [["AH", "Herz-Ass, von der Ablage: darf in diesem Zug nicht abgeworfen werden"]]
    line = "Du bist dran: abwerfen · A♥ von der Ablage: darf in diesem Zug nicht abgeworfen werden"
    assert page.inner_text("#status").split("\n")[0] == line
    loose = next(c for c in page.evaluate("shownHand()") if c != "AH")
    page.evaluate("(card) => act(`discard ${card}`)", loose)
    page.wait_for_function("document.body.dataset.myTurn === '0'")
    assert page.locator("#hand .card.taken").count() == 0 and "Ablage" not in page.inner_text("#status")


def test_the_tray_names_a_hand_romme(pages: Pages) -> None:
    """Melds that leave at most one card before opening go out in one turn: a Hand-Rommé, which doubles
    the others' points; the tray says so once the melds are judged, and not while more cards are left.
    (The hand is set in the page: the server judges the groups, not whose cards they are.)"""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    hand = ["AC", "AD", "AS", "3C", "4C", "5C", "7H", "8H", "9H", "10H", "KD", "KS", "KH", "2D"]
    page.evaluate("(hand) => { S.state.view.hand = hand; S.groups = []; S.selected = []; render(); }", hand)
    for meld in (["AC", "AD", "AS"], ["3C", "4C", "5C"], ["7H", "8H", "9H", "10H"]):
        pick(page, meld)
        page.click("#btn-group")
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 3")
    assert page.locator("#hand-out").count() == 0  # KD KS KH 2D still in hand
    pick(page, ["KD", "KS", "KH"])  # picked, not yet a group: counted as the melds are
    page.wait_for_function(
        "document.querySelectorAll('#groups .group.ok').length === 4 && document.querySelector('#hand-out')"
    )
    line = "Erstmeldung: 109 / 40 · Hand-Rommé möglich (zählt ×2)"
    assert page.inner_text("#opening-total") == line


def test_your_own_clock_says_a_bot_plays_when_it_runs_out(pages: Pages) -> None:
    """The last seconds of your own turn clock say what comes at zero (a bot plays for you), on the
    screen as a screen reader hears it; another's clock keeps its name and seconds."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    page.wait_for_function("S.state.legal.includes('draw')")
    page.evaluate("S.ws.send = () => {}")
    shown = page.evaluate(
        """() => {
            const clock = (left) => {
                onState({ ...S.state, version: S.state.version + 1, turn_left: left,
                          table: { ...S.state.table, turn_seconds: 120 } });
                return document.querySelector('#turn-timer').innerText;
            };
            return [clock(60), clock(12)];
        }"""
    )
    assert shown == ["Anna (du): noch 60 s", "Noch 12 s, dann spielt ein Bot für dich"]


def test_a_picked_card_brings_its_meld_into_the_phone_s_meld_box(pages: Pages) -> None:
    """On a phone the table's melds scroll in a box of their own past two rows: a card that lies off only
    on a meld below its fold scrolls that meld into view when it is picked."""
    page = pages.open(viewport=PHONE, locale="de-DE", has_touch=True)
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    page.evaluate("S.ws.send = () => {}")
    shown = page.evaluate(
        """() => {
            const sets = ['2', '3', '4', '5', '6', '7', '8', '9', '10'].map((r) => ({
                owner: 1, kind: 'set', cards: [r + 'C', r + 'D', r + 'H'], text: `${r}C ${r}D ${r}H` }));
            const queens = { owner: 1, kind: 'set', cards: ['QC', 'QH', 'QS'], text: 'QC QH QS' };
            S.state.view.melds = sets.concat([queens]);
            S.moves = { version: S.state.version, actions: S.state.legal.concat(['layoff QD on 10']) };
            render();
            const box = document.querySelector('#melds');
            const before = box.scrollTop;
            S.selected = [shownHand().indexOf('QD')];
            render();
            const meld = box.querySelector('.meld[data-meld="10"]').getBoundingClientRect();
            const view = box.getBoundingClientRect();
            return { scrolls: box.scrollHeight > box.clientHeight, before, after: box.scrollTop,
                     inView: meld.top >= view.top - 1 && meld.bottom <= view.bottom + 1,
                     legal: box.querySelector('.meld[data-meld="10"]').classList.contains('legal') };
        }"""
    )
    assert shown["scrolls"] and shown["before"] == 0 and shown["after"] > 0
    assert shown["inView"] and shown["legal"]


def test_the_lobby_offers_the_rule_that_a_taken_discard_is_laid(pages: Pages) -> None:
    """The house rule of many Rommé rooms, that the discard may be taken only to lay it in the same turn,
    is a control of the lobby (it was reachable only as ``option=value`` text); off by default, as the
    preset plays. At a table that plays it, the card taken is marked as one to lay."""
    page = pages.open(locale="de-DE")
    pages.lobby(page)
    rule = page.get_by_label("von der Ablage genommene Karte muss ausgelegt werden")
    assert not rule.is_checked()
    rule.check()
    page.fill("#create-form input[name=name]", "Anna")
    page.click("#btn-create")
    page.wait_for_function("S.state !== null && S.state.view !== null")
    code = page.evaluate("S.code")
    rules = page.request.get(f"{pages.base}/api/tables/{code}").json()["rules"]
    assert Rules.parse(rules) == Rules.preset("german").replace(discard_pickup_requires_meld=True)
    # The mark, on a state as a take under this rule leaves it (the engine names the card to lay).
    page.wait_for_function("S.state.legal.includes('draw')")
    page.evaluate("S.ws.send = () => {}")
    marked = page.evaluate(
        """() => {
            const card = S.state.view.hand[0];
            onState({ ...S.state, version: S.state.version + 1, legal: [`discard ${S.state.view.hand[1]}`],
                      view: { ...S.state.view, phase: 'play', taken_discard: card, must_lay: card } });
            const el = document.querySelector('#hand .card.taken');
            return { card, marked: el && el.dataset.card, line: document.querySelector('#status').innerText };
        }"""
    )
    assert marked["marked"] == marked["card"]
    assert "von der Ablage: muss in diesem Zug ausgelegt werden" in marked["line"]


def test_a_card_that_fits_a_set_with_a_joker_offers_the_exchange_too(pages: Pages) -> None:
    """5♥ put on the set 5♠ 5♣ joker both lies off there and can take the joker's place. A click on the
    set laid it off unasked, and a joker in a set could never be exchanged from the page: now the click
    offers both, the lay-off first, and the card put on the joker itself offers the exchanges. A meld
    without such a choice still takes the card at once."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    shown = page.evaluate(
        """() => {
            const sent = [];
            S.ws.send = (m) => sent.push(JSON.parse(m).action);
            S.state.view.hand = ["5H", "2H", "4H", "9C"];
            S.state.view.melds = [
                { owner: 1, kind: 'set', cards: ['5S', '5C', 'JK'], text: '5S 5C JK' },
                { owner: 2, kind: 'run', cards: ['6C', '7C', '8C'], text: '6C 7C 8C' }];
            const swap = "swap 5H on 1 then meld 2H JK 4H";
            S.moves = { version: S.state.version, actions: ["layoff 5H on 1", swap, "layoff 9C on 2"] };
            render();
            const chips = () => [...document.querySelectorAll('#moves .move-chip.suggested')]
                .map((b) => b.dataset.action);
            const said = () => document.querySelector('#game-error .error-text').innerText.split('\\n')[0];
            S.selected = [shownHand().indexOf('5H')];
            render();
            document.querySelector('#melds .meld[data-meld="1"] .card[data-card="5S"]').click();
            const onMeld = { sent: sent.slice(), chips: chips(), said: said() };
            S.selected = [shownHand().indexOf('5H')];
            render();
            document.querySelector('#melds .meld[data-meld="1"] .card[data-card="JK"]').click();
            const onJoker = { sent: sent.slice(), chips: chips(), said: said() };
            S.selected = [shownHand().indexOf('9C')];
            render();
            document.querySelector('#melds .meld[data-meld="2"]').click();
            return { onMeld, onJoker, plain: sent.slice() };
        }"""
    )
    assert shown["onMeld"] == {
        "sent": [],
        "chips": ["layoff 5H on 1", "swap 5H on 1 then meld 2H JK 4H"],
        "said": "5♥ lässt sich an Figur 1 anlegen oder den Joker dort ersetzen: wähle unter „Mögliche Züge“.",
    }
    assert shown["onJoker"] == {
        "sent": [],
        "chips": ["swap 5H on 1 then meld 2H JK 4H"],
        "said": "5♥ kann den Joker von Figur 1 ersetzen: wähle unter „Mögliche Züge“ einen Tausch.",
    }
    assert shown["plain"] == ["layoff 9C on 2"]


def test_the_choice_offered_by_a_key_takes_the_focus(pages: Pages) -> None:
    """The meld's digit (or Enter on the meld) that offers the lay-off and the exchange moves the focus
    to the first move offered, so a keyboard's player chooses with Enter or Tab at once (the focus
    stayed on the hand, the moves a long way of Tabs off); a click leaves the focus where it was. The
    move with the focus is ringed apart, white: the accent ring every move offered wears hid the focus
    ring, and the focused move looked as the other."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    page.evaluate(
        """() => {
            S.ws.send = () => {};
            S.state.view.hand = ["5H", "2H", "4H", "9C"];
            S.state.view.melds = [{ owner: 1, kind: 'set', cards: ['5S', '5C', 'JK'], text: '5S 5C JK' }];
            const swap = "swap 5H on 1 then meld 2H JK 4H";
            S.moves = { version: S.state.version, actions: ["layoff 5H on 1", swap] };
            S.selected = [shownHand().indexOf('5H')];
            render();
            document.querySelector('#melds .meld[data-meld="1"] .card[data-card="5S"]').click();
        }"""
    )
    focused = "(e => e.classList.contains('move-chip') ? e.dataset.action : null)(document.activeElement)"
    assert page.evaluate(focused) is None
    page.evaluate("S.selected = [shownHand().indexOf('5H')]; render()")
    page.locator("#hand .card[data-card='5H']").focus()
    page.keyboard.press("1")
    assert page.evaluate(focused) == "layoff 5H on 1"
    rings = page.evaluate(
        """() => [...document.querySelectorAll('#moves .move-chip.suggested')].map((b) => {
            const s = getComputedStyle(b);
            return { focused: b === document.activeElement, ring: `${s.outlineWidth} ${s.outlineColor}` };
        })"""
    )
    assert rings == [
        {"focused": True, "ring": "3px rgb(255, 255, 255)"},
        {"focused": False, "ring": "2px rgb(242, 193, 78)"},
    ]


def test_a_picked_card_laid_off_does_not_leave_its_twin_picked(pages: Pages) -> None:
    """Two packs hold two copies of a face (here three jokers). A picked joker laid off on a meld left the
    hand, and the cards picked were picked again by face: the other joker came up picked in its place,
    and the next card picked made two (the discard that followed was refused with "select one card")."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    pick(page, ["AC", "AD", "AS"])
    page.click("#btn-group")
    pick(page, ["3C", "4C", "JK"])
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 2")
    page.click("#btn-play")
    page.wait_for_function("S.state.view.opened[0] && S.state.view.melds.length === 2")
    pick(page, ["QD"])
    page.click("#btn-discard")
    draw(page)
    page.wait_for_function(
        "S.moves && S.moves.version === S.state.version && legal().includes('layoff JK on 1')"
    )
    pick(page, ["JK"])
    version = page.evaluate("S.state.version")
    page.click("#melds .meld[data-meld='1']")
    page.wait_for_function("v => S.state.version > v", arg=version)
    shown = page.evaluate(
        """() => ({ jokers: S.state.view.hand.filter((c) => c === 'JK').length, picked: selectedCards(),
                    marked: document.querySelectorAll('#hand .card.selected').length })"""
    )
    assert shown == {"jokers": 1, "picked": [], "marked": 0}
    # Picked again by face where the hand did not lose that face: a twin drawn meanwhile changes nothing.
    kept = page.evaluate(
        """() => {
            S.ws.send = () => {};
            S.selected = [shownHand().indexOf('JK'), shownHand().indexOf('5H')];
            const hand = S.state.view.hand.concat(['5H']);
            onState({ ...S.state, version: S.state.version + 1, view: { ...S.state.view, hand } });
            return selectedCards();
        }"""
    )
    assert kept == ["JK", "5H"]


def test_a_picked_card_dragged_to_the_pile_is_discarded_after_the_tray_s_melds(pages: Pages) -> None:
    """Melds in the tray are laid before a discard, with the cards picked as a meld in the making. A card
    dragged to the pile from among three picked was judged with them: the three, no meld, stopped the
    discard ("not every group is a meld"); a card that made a meld with them was laid with it and never
    discarded. The dragged card leaves the cards picked: the tray's melds go down, then the card."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    for meld in (["AC", "AD", "AS"], ["3C", "4C", "JK"]):
        pick(page, meld)
        page.click("#btn-group")
    page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 2")
    pick(page, ["5H", "JH", "QD"])
    page.wait_for_function("document.querySelector('#groups .group.pending.bad')")
    drag(page, "#hand .card[data-card='QD']", "#discard")
    page.wait_for_function("document.body.dataset.myTurn === '0'")
    shown = page.evaluate(
        "({ melds: S.state.view.melds.map((m) => m.text),"
        "   error: document.querySelector('#game-error').innerText })"
    )
    assert shown["melds"] == ["AC AD AS", "3C 4C JK(=5C)"]
    assert "Gruppe" not in shown["error"]
    assert any(e.get("action") == "discard QD" for e in page.evaluate("S.state.log"))


def test_no_hand_romme_is_named_below_the_minimum_or_before_the_draw(pages: Pages) -> None:
    """A Hand-Rommé must reach the opening minimum too (as German plays it), and the card still to be
    drawn stays in the hand: the tray named a Hand-Rommé for four runs worth 33 of the 40, and before the
    draw for melds that would leave the drawn card and one more. (The hand is set in the page.)"""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    low = ["AC", "2C", "3C", "2D", "3D", "4D", "2H", "3H", "4H", "2S", "3S", "4S", "KD"]
    melds = [low[0:3], low[3:6], low[6:9], low[9:12]]

    def compose(hand: list[str], state: str = "S.state") -> dict[str, Any]:
        page.evaluate(
            f"(hand) => {{ S.state = {state}; S.state.view.hand = hand; S.groups = []; S.selected = [];"
            " render(); }",
            hand,
        )
        for meld in melds:
            pick(page, meld)
            page.click("#btn-group")
        page.wait_for_function("document.querySelectorAll('#groups .group.ok').length === 4")
        named = page.locator("#hand-out").count()
        return {"total": page.inner_text("#opening-total").split(" · ")[0], "named": named}

    assert compose(low) == {"total": "Erstmeldung: 33 / 40", "named": 0}
    # Kings for the twos of spades, and a card in hand besides: named after the draw only.
    melds[3] = ["KC", "KH", "KS"]
    high = [*low[:9], "KC", "KH", "KS", "5D"]
    assert compose(high) == {"total": "Erstmeldung: 54 / 40", "named": 1}
    before = "{ ...S.state, legal: ['draw', 'take'], compose: [], view: { ...S.state.view, phase: 'draw' } }"
    assert compose(high, before) == {"total": "Erstmeldung: 54 / 40", "named": 0}


def test_one_copy_of_a_taken_card_to_lay_is_marked(pages: Pages) -> None:
    """Under the rule that a taken discard is laid in the same turn, one card is to be laid: where its twin
    of the other pack is held too, both were marked as cards to lay (and a copy composed in the tray, which
    the lay-down takes, left the one in the hand marked). One copy is marked, none while one is composed."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    page.wait_for_function("S.state.legal.includes('draw')")
    page.evaluate("S.ws.send = () => {}")
    marked = page.evaluate(
        """() => {
            const hand = S.state.view.hand.concat(['JK']);  // four jokers: the taken one and three more
            onState({ ...S.state, version: S.state.version + 1, legal: ['discard AC'], compose: [],
                      view: { ...S.state.view, hand, phase: 'play', taken_discard: 'JK', must_lay: 'JK' } });
            const taken = () => [...document.querySelectorAll('#hand .card.taken')]
                .map((c) => c.dataset.card);
            const one = taken();
            S.groups = [['JK', '3C', '4C']];
            render();
            return { one, composed: taken(), line: document.querySelector('#status').innerText };
        }"""
    )
    assert marked["one"] == ["JK"] and marked["composed"] == []
    assert "Joker von der Ablage: muss in diesem Zug ausgelegt werden" in marked["line"]


def test_a_joker_exchanged_out_of_a_meld_marks_it_as_the_last_move(pages: Pages) -> None:
    """A meld that changed with the last move is ringed (as a lay-off's meld is): a joker exchanged out
    of a set leaves it as long as it was, and the meld with its new card was not marked."""
    page = pages.open(locale="de-DE")
    seeded_table(page, pages.base, "german", seed=2, seats=3)
    draw(page)
    marked = page.evaluate(
        """() => {
            const moved = (melds) => onState({ ...S.state, version: S.state.version + 1,
                                               view: { ...S.state.view, melds } });
            const set = { owner: 1, kind: 'set', cards: ['5S', '5C', 'JK'], text: '5S 5C JK', value: 15 };
            const run = { owner: 2, kind: 'run', cards: ['6C', '7C', '8C'], text: '6C 7C 8C', value: 21 };
            moved([set, run]);
            moved([{ ...set, cards: ['5S', '5C', '5H'], text: '5S 5C 5H' }, run]);
            return [...document.querySelectorAll('#melds .meld')]
                .map((m) => [m.getAttribute('aria-label'), m.classList.contains('last')]);
        }"""
    )
    assert marked == [
        ["Figur 1: Pik-5, Kreuz-5, Herz-5 (Bot 2)", True],
        ["Figur 2: Kreuz-6, Kreuz-7, Kreuz-8 (Bot 3)", False],
    ]
