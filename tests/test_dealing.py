"""The cards a match deals are pinned: a seed, a table's secret and a record deal exactly these hands
and reshuffles, so that a record written earlier and a table stored earlier (its secret and moves,
replayed on a restart) replay to the same game.

Each case plays a match of three hands by random choices and pins a digest of every hand it dealt:
the hand's seed, dealer, seats in play, deck order and the stock of every reshuffle of the discard
pile, with the draw for the first dealer.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random

import pytest

import rummykit as rk
from rummykit.cards import format_cards
from rummykit.match import Match, SeededDealing
from rummykit.record import Record
from rummykit.web.matches import new_table_match
from rummykit.web.practice import play_on

SECRET = bytes(range(40, 72))


def rules(preset: str) -> rk.Rules:
    return rk.Rules.from_mapping({"preset": preset, "num_hands": 3, "match_end": "fixed_hands"})


def dealt(match: Match) -> str:
    """Every hand ``match`` dealt and every reshuffle it made, as text."""
    lines = [repr(match.seat_draw), f"first dealer {match.first_dealer} seed {match.seed}"]
    for number, rnd in enumerate(match.rounds, start=1):
        lines.append(f"hand {number}: seed {rnd.seed} dealer {rnd.dealer} in play {rnd.in_play}")
        lines.append(format_cards(rnd.deck))
        lines.extend(f"reshuffle: {format_cards(stock)}" for stock in rnd.reshuffled_stocks)
    return "\n".join(lines)


def digest(match: Match) -> str:
    return hashlib.sha256(dealt(match).encode()).hexdigest()[:16]


def play(match: Match, seed: int) -> Match:
    """``match`` played to its end by random choices seeded by ``seed``."""
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


SEEDED = [
    ("german", 2, 7, "1843c5bc2cf1945c"),
    ("viennese", 3, 1, "32c4767b0a9991da"),
    ("gin", 2, 5, "c0909ef1bc5e4dff"),
    ("basic", 4, 3, "004d20248888b814"),
]


@pytest.mark.parametrize(("preset", "players", "seed", "pinned"), SEEDED)
def test_a_seed_deals_the_pinned_hands(preset: str, players: int, seed: int, pinned: str) -> None:
    match = play(Match.new(rules(preset), players, seed=seed), seed)
    assert digest(match) == pinned
    again = Record.loads(Record.from_match(match).dumps()).replay_match()
    assert dealt(again) == dealt(match)


def test_a_given_first_deck_and_then_the_seed_deal_the_pinned_hands() -> None:
    table = rules("german")
    deck = format_cards(reversed(rk.Round.new(table, 2, seed=3).deck))  # as text, top card first
    position = rk.MatchPosition(totals=(40, 70), hands_dealt=1)
    match = play(Match.new(table, 2, seed=11, dealer=1, deck=deck, position=position), 2)
    assert match.first_deck == match.rounds[0].deck
    assert digest(match) == "eb40bc1bd0da7cec"
    again = Record.loads(Record.from_match(match).dumps()).replay_match()
    assert dealt(again) == dealt(match)


SECRETS = [
    ("german", 3, "6e5c3d9b78318145"),
    ("viennese", 2, "385f0c8f80c4c2d6"),
    ("gin", 2, "a5d0697a40521518"),
]


def secret_match(preset: str, players: int) -> Match:
    return play(new_table_match(rules(preset), players, None, SECRET, None), players)


@pytest.mark.parametrize(("preset", "players", "pinned"), SECRETS)
def test_a_table_secret_deals_the_pinned_hands(preset: str, players: int, pinned: str) -> None:
    match = secret_match(preset, players)
    assert digest(match) == pinned
    assert not match.deals_follow_seed and match.first_deck is None


@pytest.mark.parametrize(("preset", "players", "pinned"), SECRETS)
def test_a_stored_table_replays_its_moves_to_the_pinned_hands(preset: str, players: int, pinned: str) -> None:
    """What a restarted server does with a table's row: a fresh match from the secret, the moves."""
    moves = [str(a) for a in secret_match(preset, players).actions]
    match = new_table_match(rules(preset), players, None, SECRET, None)
    play_on(match, moves)
    assert digest(match) == pinned


@pytest.mark.parametrize(("preset", "players", "pinned"), SECRETS)
def test_a_secret_table_s_record_replays_the_pinned_hands(preset: str, players: int, pinned: str) -> None:
    record = Record.from_match(secret_match(preset, players))
    again = Record.loads(record.dumps()).replay_match()
    assert digest(again) == pinned
    assert Record.from_match(again).dumps() == record.dumps()


@pytest.mark.parametrize("how", ["pickle", "copy"])
@pytest.mark.parametrize("kind", ["seed", "secret", "record"])
def test_a_copied_match_deals_on_as_the_original(kind: str, how: str) -> None:
    """A copy or a pickle made in the middle of the first hand deals the same later hands."""
    table = rules("viennese")
    if kind == "seed":
        played, fresh = play(Match.new(table, 2, seed=9), 2), Match.new(table, 2, seed=9)
    else:
        played, fresh = secret_match("viennese", 2), new_table_match(table, 2, None, SECRET, None)
        if kind == "record":
            fresh = Record.from_match(played).start()  # the recorded match before its first move
    moves, cut = played.actions, 5
    for action in moves[:cut]:
        fresh.apply(action)
    twin = pickle.loads(pickle.dumps(fresh)) if how == "pickle" else copy.deepcopy(fresh)
    assert type(twin) is type(fresh)
    for game in (fresh, twin):
        for action in moves[cut:]:
            game.apply(action)
        assert dealt(game) == dealt(played)


class ReversedDecks:
    """A dealing of its own: hand ``n`` is the deck of seed ``n`` upside down; the seed reshuffles."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    def deck(self, table: rk.Rules, hand: int) -> list[int]:
        self.asked.append(("deck", hand))
        return list(reversed(rk.Round.new(table, 2, seed=hand).deck))

    def reshuffle_rng(self, hand: int) -> random.Random | None:
        self.asked.append(("reshuffles", hand))
        return None


def test_a_dealing_deals_every_hand_the_first_included() -> None:
    table = rules("german")
    dealing = ReversedDecks()
    position = rk.MatchPosition(totals=(10, 20), hands_dealt=1)  # hands before the match are not asked for
    match = Match.new(table, 2, seed=4, position=position, dealing=dealing)
    assert dealing.asked == [("deck", 1), ("reshuffles", 1)] and match.dealing is dealing
    play(match, 4)
    assert dealing.asked[-2:] == [("deck", 2), ("reshuffles", 2)] and len(match.rounds) == 2
    assert [list(r.deck) for r in match.rounds] == [dealing.deck(table, n) for n in (1, 2)]
    # Not the seed's dealing: the record keeps every deal and reshuffle, and replays the match.
    assert not match.deals_follow_seed and match.first_deck is None
    record = Record.from_match(match)
    assert record.deals == tuple(r.deck for r in match.rounds) and record.deck is None
    assert dealt(Record.loads(record.dumps()).replay_match()) == dealt(match)


def test_the_seed_s_dealing_is_the_default_and_a_deck_is_its_first_deal() -> None:
    table = rules("german")
    deck = rk.Round.new(table, 2, seed=8).deck
    assert Match.new(table, 2, seed=1).dealing == SeededDealing()
    given = Match.new(table, 2, seed=1, deck=format_cards(deck))
    assert given.dealing == SeededDealing(deck) and given.first_deck == deck and given.deals_follow_seed
    assert given.copy().dealing is given.dealing  # immutable: shared, not copied
    assert dealt(Match.new(table, 2, seed=1, dealing=SeededDealing(deck))) == dealt(given)
    with pytest.raises(TypeError, match="a deck or a dealing, not both"):
        Match.new(table, 2, seed=1, deck=deck, dealing=SeededDealing())
