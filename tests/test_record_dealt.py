"""Records of games dealt from a secret (the server's tables that are not seeded): every deal and every
reshuffle's stock is kept (record version 2), since the seed deals nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rummykit as rk
from rummykit.errors import NotationError
from rummykit.record import DEALT_VERSION, VERSION, Record, RecordedShuffles
from rummykit.web.dealing import deal_order
from rummykit.web.matches import new_table_match

RULES = rk.Rules.from_mapping({"preset": "viennese", "num_hands": 2, "match_end": "fixed_hands"})
SECRET = bytes(range(4, 36))


def played(rules: rk.Rules = RULES, secret: bytes = SECRET, seed: int = 4, players: int = 2) -> rk.Match:
    """A match dealt from ``secret`` and played to its end by random moves (seed 4: hand 1 reshuffles
    three times, hand 2 once)."""
    match = new_table_match(rules, players, None, secret, None)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.fixture(scope="module")
def match() -> rk.Match:
    return played()


def test_a_secret_match_is_recorded_with_every_deal_and_every_reshuffle(match: rk.Match) -> None:
    assert [len(r.reshuffled_stocks) for r in match.rounds] == [3, 1]
    record = Record.from_match(match)
    assert record.deals == tuple(tuple(deal_order(RULES, SECRET, n)) for n in (1, 2))
    assert record.reshuffles == tuple(r.reshuffled_stocks for r in match.rounds)
    data = record.to_dict()
    assert data["version"] == DEALT_VERSION and "deck" not in data and len(data["deals"]) == 2
    replayed = Record.loads(record.dumps()).replay_match()
    assert replayed.totals == match.totals and replayed.chips == match.chips
    assert [r.deck for r in replayed.rounds] == [r.deck for r in match.rounds]
    for old, new in zip(match.rounds, replayed.rounds, strict=True):
        assert new.reshuffled_stocks == old.reshuffled_stocks
        assert [new.view(s) for s in range(2)] == [old.view(s) for s in range(2)]
    # Read and written again, the file is the same: the replay is recorded as the original was.
    assert Record.from_match(replayed).dumps() == record.dumps()


def test_every_state_of_a_recorded_secret_match_can_be_stepped_through(match: rk.Match) -> None:
    states = list(Record.from_match(match).states())
    assert len(states) == len(match.actions) + 1
    assert states[-1].stock == match.round.state().stock


def test_a_seeded_match_is_still_written_as_version_1() -> None:
    m = rk.Match.new(RULES, 2, seed=5)
    m.apply(m.legal_actions()[0])
    data = Record.from_match(m).to_dict()
    assert data["version"] == VERSION and "deals" not in data and "reshuffles" not in data


def test_a_secret_round_is_recorded_with_its_reshuffles(match: rk.Match) -> None:
    first = match.rounds[0]
    record = Record.from_round(first)
    assert record.reshuffles == (first.reshuffled_stocks,) and record.to_dict()["version"] == DEALT_VERSION
    again = Record.loads(record.dumps()).replay_round()
    assert again.result == first.result and again.reshuffled_stocks == first.reshuffled_stocks


def edited(match: rk.Match, change: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Record.from_match(match).dumps())
    change(data)
    return data


def test_a_version_1_reader_field_set_is_refused_with_the_version_named(match: rk.Match) -> None:
    def as_version_1(d: dict[str, Any]) -> None:
        d["version"] = 1

    with pytest.raises(NotationError, match="'deals' and 'reshuffles' need record version 2"):
        Record.from_dict(edited(match, as_version_1))
    with pytest.raises(NotationError, match="unsupported record version 3"):
        Record.from_dict(edited(match, lambda d: d.update(version=3)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(deals=[]), "'deals' must be a list of deck orders"),
        (lambda d: d["deals"].__setitem__(1, d["deals"][1].replace("AS", "AH", 1)), "deal 2 is not the 106"),
        (lambda d: d["deals"].__setitem__(0, 7), "deal 1 must be a deck order"),
        (lambda d: d.update(reshuffles=[[]]), "'reshuffles' must list the stock of each reshuffle"),
        (lambda d: d.update(reshuffles=[[1], []]), "'reshuffles' must list the stock of each reshuffle"),
        (lambda d: (d.pop("deals"), d.update(kind="match")), "holds its 'deals' too"),
        (lambda d: d.update(deck=d["deals"][0]), "a record with 'deals' has no 'deck'"),
        (lambda d: (d.pop("deals"), d.pop("reshuffles")), "holds its 'deals' or its 'reshuffles'"),
    ],
)
def test_a_malformed_dealt_record_is_refused_when_read(match: rk.Match, change: Any, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Record.from_dict(edited(match, change))


def test_a_reshuffle_that_is_not_the_discard_pile_stops_the_replay_at_its_move(match: rk.Match) -> None:
    def swap(d: dict[str, Any]) -> None:
        stock = d["reshuffles"][0][0].split()
        d["reshuffles"][0][0] = " ".join([*stock[:-1], d["deals"][0].split()[0]])

    record = Record.from_dict(edited(match, swap))
    with pytest.raises(NotationError, match="reshuffle 1 of hand 1 in the record is not the discard pile"):
        record.replay()


def test_a_record_with_too_few_deals_or_reshuffles_says_so(match: rk.Match) -> None:
    fewer = Record.from_dict(edited(match, lambda d: (d["deals"].pop(), d["reshuffles"].pop())))
    with pytest.raises(NotationError, match="deals hand 2, but the record holds only 1 deals"):
        fewer.replay()
    short = Record.from_dict(edited(match, lambda d: d["reshuffles"][0].pop()))
    with pytest.raises(NotationError, match=r"reshuffles the discard pile more often than the record holds"):
        short.replay()


def test_recorded_shuffles_copy_on_write_like_the_engine() -> None:
    """The engine copies its generator before it draws: a copy goes on from where it was made, and the
    original is not advanced (undo snapshots keep theirs)."""
    a, b = tuple(rk.cards.parse_cards("5H 6H 7H")), tuple(rk.cards.parse_cards("2C 3C"))
    first = RecordedShuffles((a, b), 1)
    pile = list(reversed(a))
    twin = __import__("copy").copy(first)
    twin.shuffle(pile)
    assert tuple(pile) == a
    pile = list(b)
    again = __import__("copy").deepcopy(twin)
    again.shuffle(pile)
    assert tuple(pile) == b
    pile = list(a)
    first.shuffle(pile)  # the original has not moved on
    assert tuple(pile) == a


@pytest.mark.parametrize(("preset", "players"), [("german", 3), ("gin", 2), ("basic", 4)])
def test_other_games_dealt_from_a_secret_replay_from_their_records(preset: str, players: int) -> None:
    rules = rk.Rules.from_mapping({"preset": preset, "num_hands": 2, "match_end": "fixed_hands"})
    m = played(rules, bytes(range(9, 41)), seed=1, players=players)
    again = Record.loads(Record.from_match(m).dumps()).replay_match()
    assert again.totals == m.totals and len(again.rounds) == len(m.rounds)


def test_deals_or_reshuffles_the_moves_do_not_use_are_refused(match: rk.Match) -> None:
    """Left over, they replayed without a word and were lost when the game was written again."""
    extra_deal = Record.from_dict(
        edited(match, lambda d: (d["deals"].append(d["deals"][0]), d["reshuffles"].append([])))
    )
    with pytest.raises(NotationError, match="deals held by the record: 3; hands its moves deal: 2"):
        extra_deal.replay()
    extra_stock = Record.from_dict(edited(match, lambda d: d["reshuffles"][1].append(d["reshuffles"][1][0])))
    with pytest.raises(NotationError, match="hand 2 held by the record: 2; made by its moves: 1"):
        extra_stock.replay()


def test_a_replayed_secret_match_pickles(match: rk.Match) -> None:
    import pickle

    replayed = Record.from_match(match).replay_match()
    again = pickle.loads(pickle.dumps(replayed))
    assert again.totals == replayed.totals
    assert Record.from_match(again).dumps() == Record.from_match(match).dumps()


def test_a_web_table_s_record_replays_but_does_not_resume(match: rk.Match, tmp_path: Any) -> None:
    """Its deals end where the record ends: ``rummykit play --resume`` would run out of them."""
    from rummykit.cli.saves import load_saved

    data = Record.from_match(match).to_dict()
    data["meta"] = {"names": ["Anna", "Bot"], "players": ["human", "greedy"]}
    path = tmp_path / "web.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(NotationError, match="is a web table's record; 'rummykit replay' shows it"):
        load_saved(path)
