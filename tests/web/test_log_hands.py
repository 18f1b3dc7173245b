"""The log of a state message, built incrementally with its cache, numbers every move's hand as a
full scan of the match would, over several hands."""

from __future__ import annotations

import random

import pytest

from rummykit.actions import TakeDiscard
from rummykit.cards import Card
from rummykit.i18n.cards import card_name
from rummykit.match import Match, MatchEvent
from rummykit.rules import Rules
from rummykit.web.handlog import hand_numbers
from rummykit.web.protocol import LogCache, log_json


def true_hands(match: Match) -> list[int]:
    """The hand of every history entry by a full scan: a move's own hand; a match decision, the hand
    before it."""
    own = {id(e): n for n, r in enumerate(match.rounds, start=1) for e in r.history}
    hands: list[int] = []
    previous = 1
    for event in match.history:
        hand = previous if isinstance(event, MatchEvent) else own[id(event)]
        hands.append(hand)
        previous = hand
    return hands


@pytest.mark.parametrize(("preset", "players", "seed"), [("german", 2, 3), ("german", 3, 8)])
def test_cached_log_and_hand_numbers_match_a_full_scan(preset: str, players: int, seed: int) -> None:
    rules = Rules.from_mapping({"preset": preset, "match_end": "fixed_hands", "num_hands": 4})
    match = Match.new(rules, players, seed=seed)
    rng = random.Random(seed)
    cache: LogCache = {}
    moves = 0
    while not match.is_over and moves < 900:
        match.apply(rng.choice(match.legal_actions()))
        moves += 1
        truth = true_hands(match)
        cached = log_json(match, cache=cache)
        assert cached == log_json(match)
        assert all(e["hand"] == truth[e["index"]] for e in cached if e["index"] >= 0)
        if moves % 37 == 0:
            for start in range(0, len(match.history), 5):
                assert hand_numbers(match, start) == truth[start:]
    assert len(match.rounds) >= 2


@pytest.mark.parametrize(("preset", "seed"), [("german", 5), ("viennese", 6), ("gin", 7)])
def test_the_log_names_a_card_taken_from_the_discard_pile_not_a_drawn_one(preset: str, seed: int) -> None:
    """A taken discard lay face up, so the move list names it, in every language (the card the
    taker saw on top of the pile); a card drawn from the stock is never named."""
    match = Match.new(Rules.preset(preset), 2, seed=seed)
    rng = random.Random(seed)
    taken: dict[int, Card] = {}
    while not match.is_over and len(match.history) < 400:
        legal = match.legal_actions()
        takes = [a for a in legal if isinstance(a, TakeDiscard)]
        action = takes[0] if takes and rng.random() < 0.5 else rng.choice(legal)
        if isinstance(action, TakeDiscard):
            top = match.round.view(match.to_move).top_discard
            assert top is not None
            taken[len(match.history)] = top
        match.apply(action)
    entries = {e["index"]: e for e in log_json(match) if e["index"] >= 0}
    named = {i: entries[i]["texts"] for i in taken if i in entries}
    assert len(named) >= 3
    for i, texts in named.items():
        card = taken[i]
        assert entries[i]["action"] == f"take {card}"
        assert texts["en"] == f"takes the {card_name(card, 'en')} from the discard pile"
        assert texts["de"] == f"nimmt {card_name(card, 'de')} von der Ablage"
    draws = [e["texts"] for e in entries.values() if e["action"] == "draw"]
    assert draws and all(t == {"en": "draws from the stock", "de": "zieht vom Stoß"} for t in draws)


@pytest.mark.parametrize(("counts", "points"), [("true", 59), ("false", 49)])
def test_an_opening_s_entry_says_what_it_counts_toward_the_minimum(counts: str, points: int) -> None:
    """Everybody checks an opponent's 40: the move list gives the opening's points, the queen taken
    from the discard pile that turn left out where the house rules do not count it."""
    from rummykit.arrange import arrange_deck
    from rummykit.web.handlog import log_entry

    rules = Rules.parse(f"german(opening_counts_taken_discard={counts})")
    dealer = "2D 5D 8S 3H 6C 9H 4S 7D 10S KD 3S 6D 9S"
    forehand = "QS QD 9C 10C JC 2H 5S 8D 3C 6H 4D 7S AS"
    deck = arrange_deck(rules, 2, [dealer, forehand], dealer=0, upcard="QH")
    match = Match.new(rules, 2, deck=deck, dealer=0)
    for action in ("take", "open QH QS QD | 9C 10C JC"):
        match.apply(action)
    entry = log_entry(len(match.history) - 1, match.history[-1], match, False, 1)
    assert entry["texts"]["en"].endswith(f"({points} points)")
    assert entry["texts"]["de"].endswith(f"({points} Punkte)")
    taken = log_entry(len(match.history) - 2, match.history[-2], match, False, 1)
    assert "points" not in taken["texts"]["en"]


@pytest.mark.parametrize(("preset", "seed"), [("german", 3), ("viennese", 5), ("gin", 7)])
def test_the_hand_s_log_built_move_by_move_is_the_log_built_whole(preset: str, seed: int) -> None:
    """The ``hand_log`` answer is built on from the last version's (a long hand cost a full build
    per move): at every version of a match of several hands it is the whole log, built from scratch."""
    import json

    from rummykit.bots import make_bot
    from rummykit.web.handlog import hand_log_json, hand_log_text
    from rummykit.web.protocol import seat_draw_json

    match = Match.new(Rules.preset(preset), 2, seed=seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    version = 0
    while not match.is_over and len(match.rounds) <= 3:
        built = json.loads(hand_log_text(match, version, seat_draw_json))
        whole = hand_log_json(match, seat_draw_json)
        assert built == {"type": "hand_log", "version": version, **whole}, version
        legal, view = match.legal_actions(), match.round.view(match.to_move)
        match.apply(rng.choice(legal) if rng.random() < 0.3 else bot.choose(view, legal, rng))
        version += 1
    assert version > 60


def test_the_hand_s_log_kept_between_versions_costs_about_its_text() -> None:
    """The log built on from the last version's kept, besides its answer, a string per entry: a long
    hand's log took about two and a half times its text in memory at every table a watcher asked at.
    The entries to build on are read from the answer's own text."""
    import gc
    import tracemalloc

    from rummykit.web.handlog import hand_log_text
    from rummykit.web.protocol import seat_draw_json

    match = Match.new(Rules.from_mapping({"preset": "german", "max_stock_rebuilds": 10}), 2, seed=7)
    rng = random.Random(1)

    def step() -> None:  # draws and discards only: a long hand
        legal = match.legal_actions()
        plain = [a for a in legal if str(a).split(" ", 1)[0] in ("draw", "discard")]
        match.apply(rng.choice(plain or legal))

    for _ in range(600):
        step()
    assert len(match.rounds) == 1
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        hand_log_text(match, 1, seat_draw_json)  # built whole
        step()
        text = hand_log_text(match, 2, seat_draw_json)  # built on
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(match.rounds) == 1 and text.count('"index"') > 600
    assert kept < 1.4 * len(text), (kept, len(text))


def test_six_tables_with_long_hands_each_build_on_their_own_kept_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each table's match keeps its own hand's log (none pushes another's out): with six long hands
    asked for in turn, every new version of each costs the entries of its new move, not the hand's."""
    import copy

    from rummykit.web import handlog
    from rummykit.web.protocol import seat_draw_json

    rules = Rules.from_mapping({"preset": "german", "max_stock_rebuilds": None})
    rng = random.Random(1)

    def step(match: Match) -> None:  # draws and discards only: a long hand
        legal = match.legal_actions()
        match.apply(rng.choice([a for a in legal if str(a).split(" ", 1)[0] in ("draw", "discard")]))

    first = Match.new(rules, 2, seed=7)
    for _ in range(1500):
        step(first)
    tables = [copy.deepcopy(first) for _ in range(6)]
    for match in tables:
        handlog.hand_log_text(match, len(match.actions), seat_draw_json)
    built: list[int] = []
    entry = handlog.log_entry
    monkeypatch.setattr(handlog, "log_entry", lambda *a: built.append(1) or entry(*a))
    for _ in range(5):
        for match in tables:
            step(match)
            text = handlog.hand_log_text(match, len(match.actions), seat_draw_json)
            assert text.count('"index"') == len(match.rounds[0].history) + 2  # the seat draw's two too
    assert len(built) <= 2 * 5 * 6, len(built)  # the last move's entry again, and the new one's


def test_a_joker_exchange_s_entry_counts_the_jokers_it_took() -> None:
    """The move list said "swaps 5♥ 7♥ for jokers of meld 1": not how many. Two naturals took both
    jokers of the run; the entry says so in every language and carries the count for the page."""
    from rummykit.arrange import arrange_deck
    from rummykit.web.handlog import hand_log_json, log_entry
    from rummykit.web.protocol import seat_draw_json

    rules = Rules.preset("german")
    dealer = "QC QD QS 10H 10D 10S 5H 7H 8D 9D 2C 6C 4H"
    forehand = "JK 6H JK 8H KS KD KC 3C 7C JC 4D QD 2S"
    deck = arrange_deck(rules, 2, [dealer, forehand], dealer=0, upcard="7S", stock="8S JH 4S 9C")
    match = Match.new(rules, 2, deck=deck, dealer=0)
    for action in (
        "draw", "open JK 6H JK 8H | KS KD KC", "discard 8S",
        "draw", "open QC QD QS | 10H 10D 10S", "discard JH",
        "draw", "discard 4S",
        "draw", "swap 5H 7H on 1 then meld 8D 9D JK JK", "discard 2C",
    ):  # fmt: skip
        match.apply(action)
    index = len(match.history) - 2
    entry = log_entry(index, match.history[index], match, False, 1)
    assert entry["texts"] == {
        "en": "swaps 5♥ 7♥ for two jokers of meld 1 and melds 8♦ 9♦ JK JK",
        "de": "tauscht 5♥ 7♥ gegen zwei Joker von Figur 1 und legt aus: 8♦ 9♦ JK JK",
    }
    assert entry["freed"] == 2
    assert [e for e in hand_log_json(match, seat_draw_json)["entries"] if "freed" in e] == [entry]
