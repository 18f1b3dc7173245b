"""The round's state: copies and children are independent, ``from_state``/``status``, undo from the
snapshot stack, the automatic steps on events, ``Record.states()`` and ``Rules.family``."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rummykit as rk
from rummykit import Round, Rules
from rummykit.cards import Card, Hand, parse_cards
from rummykit.determinize import sample_round
from rummykit.errors import IllegalActionError
from rummykit.events import HandEnded, Showdown, StockRebuilt
from rummykit.round import RoundStatus
from rummykit.rules import PRESET_NAMES
from rummykit.state import RoundState
from rummykit.views import Phase, Termination

PLAYERS = {"german_dskv": 3}


def snapshot(rnd: Round) -> tuple[object, ...]:
    """Everything observable of a round: every seat's view, history, and the full state."""
    return (tuple(rnd.view(s) for s in range(rnd.seats)), rnd.history, rnd.state())


def random_round(preset: str, seed: int, actions: int) -> tuple[Round, random.Random]:
    rnd = Round.new(Rules.preset(preset), PLAYERS.get(preset, 2), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if rnd.is_over:
            break
        rnd.apply(rng.choice(rnd.legal_actions()))
    return rnd, rng


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_copy_and_child_are_independent(preset: str) -> None:
    rnd, rng = random_round(preset, 4, 25)
    before = snapshot(rnd)
    copy = rnd.copy()
    children = [rnd.child(a) for a in rnd.legal_actions()]
    assert snapshot(rnd) == before  # children leave their parent untouched
    assert snapshot(copy) == before
    while not copy.is_over:  # playing the copy to its end does not touch the original ...
        copy.apply(rng.choice(copy.legal_actions()))
    assert snapshot(rnd) == before
    for child in children:  # ... nor the children, which differ from it by one action each
        assert len(child.history) == len(before[1]) + 1
    original_children = [snapshot(c) for c in children]
    while not rnd.is_over:  # and playing the original leaves copies and children alone
        rnd.apply(rng.choice(rnd.legal_actions()))
    assert [snapshot(c) for c in children] == original_children


def test_read_only_fields_are_copies() -> None:
    rnd, _ = random_round("german", 1, 30)
    before = snapshot(rnd)
    rnd.hands[0].add(Card.parse("AH"))
    rnd.known_cards[0].add(Card.parse("AH"))
    rnd.discard_pile.append(Card.parse("AH"))
    rnd.stock.clear()
    rnd.table.clear()
    rnd.state().hands[1].remove(next(iter(rnd.hands[1])))
    assert snapshot(rnd) == before and rnd.status() is RoundStatus.VALID
    with pytest.raises(AttributeError):
        rnd.phase = Phase.OVER  # type: ignore[misc]


def test_view_names_and_round_names_agree() -> None:
    rnd, _ = random_round("german", 2, 9)
    view = rnd.view(rnd.to_move)
    assert rnd.active_seats == rnd.active == view.active_seats
    assert rnd.must_lay == rnd.pending_taken == view.must_lay
    assert rnd.taken_discard == rnd.taken == view.taken_discard
    assert rnd.stock_rebuilds == rnd.rebuilds == view.stock_rebuilds
    assert tuple(rnd.melds) == tuple(rnd.table) == view.melds
    assert rnd.opened_turn == view.opened_turn and rnd.extra_turns == view.extra_turns


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_from_state_goes_on_identically(preset: str) -> None:
    rnd, rng = random_round(preset, 6, 15)
    other = Round.from_state(rnd.state())
    assert other.status() is RoundStatus.VALID
    assert [rnd.view(s) for s in range(rnd.seats)] == [other.view(s) for s in range(other.seats)]
    while not rnd.is_over:
        legal = rnd.legal_actions()
        assert other.legal_actions() == legal
        action = rng.choice(legal)
        assert rnd.apply(action).card == other.apply(action).card
    assert other.result == rnd.result


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_undo_restores_every_earlier_state(preset: str) -> None:
    rnd, _ = random_round(preset, 3, 0)
    rng = random.Random(3)
    states = [rnd.state()]
    events = []
    while not rnd.is_over:
        events.append(rnd.apply(rng.choice(rnd.legal_actions())))
        states.append(rnd.state())
        assert rnd.status() is RoundStatus.VALID
    for expected_event in reversed(events):
        assert rnd.undo() == expected_event
        states.pop()
        assert rnd.state() == states[-1]
    assert rnd.history == ()
    with pytest.raises(IllegalActionError) as caught:
        rnd.undo()
    assert caught.value.rule == "nothing_to_undo"


def test_undo_then_apply_replays_the_same_reshuffle() -> None:
    rules = Rules.preset("german").replace(max_stock_rebuilds=3)
    rnd = Round.new(rules, 6, seed=11)
    while not rnd.rebuilds:
        event = rnd.apply("draw")
        last = rnd.apply(f"discard {event.card}")
    rebuilt = [s for s in last.steps if isinstance(s, StockRebuilt)]
    assert rebuilt and rebuilt[0].rebuilds == 1 and rebuilt[0].shuffled
    assert rebuilt[0].stock_size == len(rnd.stock)
    stock = rnd.stock
    rnd.undo()
    assert rnd.rebuilds == 0
    assert rnd.apply(last.action) == last and rnd.stock == stock


def test_hand_ended_closes_every_finished_round() -> None:
    for preset in PRESET_NAMES:
        rnd, _ = random_round(preset, 8, 10_000)
        assert rnd.result is not None
        steps = rnd.history[-1].steps
        ended = steps[-1]
        assert isinstance(ended, HandEnded)
        assert (ended.termination, ended.winner, ended.points) == (
            rnd.result.termination,
            rnd.result.winner,
            rnd.result.points,
        )
        assert all(not any(isinstance(s, HandEnded) for s in e.steps) for e in rnd.history[:-1])
        shown = [s for s in steps if isinstance(s, Showdown)]
        if rnd.result.termination in (Termination.KNOCK, Termination.RUMMY):
            assert shown and shown[0].arrangements == rnd.result.arrangements
        else:
            assert not shown


def test_status_flags_hand_built_states() -> None:
    rnd, _ = random_round("german", 5, 12)
    good = rnd.state()
    assert Round.from_state(good).status() is RoundStatus.VALID

    def status(**changes: object) -> RoundStatus:
        return Round.from_state(dataclasses.replace(good.copy(), **changes)).status()

    short = [h.copy() for h in good.hands]
    short[0] = Hand(list(short[0])[1:])
    assert status(hands=short) == RoundStatus.CARDS_NOT_CONSERVED
    assert status(to_move=7) & RoundStatus.BAD_TO_MOVE
    assert status(phase=Phase.DISCARD) == RoundStatus.BAD_PHASE  # a knock-game phase
    assert status(phase=Phase.OVER) == RoundStatus.BAD_PHASE  # over without a result
    assert status(knocker=good.to_move) == RoundStatus.BAD_KNOCK
    assert status(active_seats=(0,)) == RoundStatus.BAD_SEATS
    assert status(opened_turn=[good.turn + 5] * good.seats) == RoundStatus.BAD_OPENING
    missing = next(c for c in parse_cards("AC 2C 3C 4C 5C") if c not in good.hands[good.to_move])
    assert status(must_lay=missing) == RoundStatus.MUST_LAY_NOT_HELD


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_determinized_rounds_are_valid_states(preset: str) -> None:
    rnd, _ = random_round(preset, 9, 20)
    if rnd.is_over:
        pytest.skip("the round ended early")
    sampled = sample_round(rnd.view(rnd.to_move), random.Random(1))
    assert sampled.status() is RoundStatus.VALID
    assert sampled.legal_actions() == rnd.legal_actions()


def test_a_determinized_round_has_no_record_and_says_how_to_save_it() -> None:
    """A sampled round's deck is not a real deal: a record of it could never be read back, so
    ``Record.from_round`` refuses it (its state saves and rebuilds it)."""
    rnd, _ = random_round("german", 2, 20)
    sampled = sample_round(rnd.view(rnd.to_move), random.Random(1))
    for built in (sampled, Round.from_state(rnd.state()), Round.from_state(rnd.state()).copy()):
        assert not built.from_deal
        with pytest.raises(rk.NotationError, match=r"built from a state .*Round.from_state"):
            rk.Record.from_round(built)  # it would replay to the deal, not to this position
    rebuilt = Round.from_state(sampled.state())
    assert rebuilt.state() == sampled.state() and rebuilt.legal_actions() == sampled.legal_actions()
    assert rnd.from_deal and rnd.copy().from_deal
    assert rk.Record.loads(rk.Record.from_round(rnd).dumps()).replay().state() == rnd.state()


def test_record_states_step_through_a_round_and_a_match() -> None:
    rnd, _ = random_round("viennese", 2, 40)
    record = rk.Record.from_round(rnd)
    states = list(record.states())
    assert len(states) == len(record.actions) + 1
    replay = Round.new(rnd.rules, rnd.seats, deck=rnd.deck, seed=rnd.seed, dealer=rnd.dealer)
    assert states[0] == replay.state()
    for action, state in zip(record.actions, states[1:], strict=True):
        replay.apply(action)
        assert state == replay.state()

    match = rk.Match.new(Rules.preset("german").replace(match_end="fixed_hands", num_hands=2), 2, seed=4)
    rng = random.Random(4)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    match_states = list(rk.Record.from_match(match).states())
    assert len(match_states) == len(match.actions) + 1
    assert match_states[-1] == match.round.state()
    assert {s.deck for s in match_states} == {r.deck for r in match.rounds}


def test_rules_name_their_family() -> None:
    families = {name: Rules.preset(name).family for name in PRESET_NAMES}
    assert families == {
        "german": "melding",
        "german_dskv": "melding",
        "viennese": "knock",
        "romme_ohne_auslegen": "knock",
        "scala40": "melding",
        "basic": "melding",
        "gin": "gin",
    }


def test_state_fields_match_the_view() -> None:
    view_fields = {f.name for f in dataclasses.fields(rk.PlayerView)}
    state_fields = {f.name for f in dataclasses.fields(RoundState)}
    shared = {"active_seats", "melds", "discard_pile", "taken_discard", "must_lay", "stock_rebuilds"}
    assert shared <= view_fields & state_fields
    assert shared | {"known_cards", "extra_turns", "opened_turn", "in_play", "knocker"} <= state_fields


def test_copies_share_no_undo_state() -> None:
    rnd, rng = random_round("german", 12, 30)
    earlier = [rnd.state()]
    for _ in range(6):
        rnd.apply(rng.choice(rnd.legal_actions()))
        earlier.append(rnd.state())
    copy = rnd.copy()
    for _ in range(3):  # the copy takes back three actions and plays on differently
        copy.undo()
    while not copy.is_over:
        copy.apply(rng.choice(copy.legal_actions()))
    for expected in reversed(earlier[:-1]):  # the original's own undo stack is intact
        rnd.undo()
        assert rnd.state() == expected


@pytest.mark.parametrize("seed", ["x", 1.5, b"ab", True])
def test_a_seed_that_a_record_cannot_store_is_refused(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an integer or None"):
        Round.new(Rules.preset("german"), 2, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an integer or None"):
        rk.Match.new(Rules.preset("viennese"), 2, seed=seed)  # type: ignore[arg-type]
    rnd = Round.new(Rules.preset("german"), 2, seed=2**70)  # any integer is stored
    assert rk.Record.loads(rk.Record.from_round(rnd).dumps()).replay().state() == rnd.state()
    np = pytest.importorskip("numpy")
    same = Round.new(Rules.preset("german"), 2, seed=np.int64(7))  # NumPy's integers are integers
    assert type(same.seed) is int and same.state() == Round.new(Rules.preset("german"), 2, seed=7).state()
