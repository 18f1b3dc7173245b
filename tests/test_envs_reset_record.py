"""``rummy_v0`` starting from a game record's first deal (``reset(options={"record": record})``): the
record's own tokens give what :func:`~rummykit.envs.records.transitions` yields, other play deals
on, and a record of other rules or seats is refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

import rummykit as rk
from rummykit.bots import make_bot
from rummykit.envs import rummy_v0
from rummykit.envs.records import transitions
from rummykit.record import Record, RecordedShuffles
from rummykit.testing import arrange_deck
from rummykit.web.matches import new_table_match


def _bots_round(rules: str, players: int, seed: int) -> Record:
    rnd = rk.Round.new(rk.Rules.preset(rules), players=players, seed=seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not rnd.is_over:
        rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    return Record.loads(Record.from_round(rnd).dumps())


def _dealt_match(rules: rk.Rules, players: int, secret: bytes, seed: int) -> Record:
    match = new_table_match(rules, players, None, secret, None)  # as a server's table deals
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return Record.loads(Record.from_match(match).dumps())


def _replayed_in_env(record: Record, scope: Any = "hand", reward: Any = "score", **options: Any) -> int:
    """Step the record's tokens in a fresh environment started from it; check every observation, mask
    and reward against the transitions. The number of tokens stepped."""
    env = rummy_v0.raw_env(rules=record.rules, players=record.players, scope=scope, reward=reward)
    env.reset(seed=3, options={"record": record, **options})
    steps = 0
    for t in transitions(record, scope=scope, reward=reward):
        if t.hand > 1 and scope == "hand":
            break  # the episode is the first hand
        agent = f"player_{t.seat}"
        assert env.agent_selection == agent
        seen = env.observe(agent)
        assert np.array_equal(seen["observation"], t.observation)
        assert np.array_equal(seen["action_mask"], t.action_mask)
        env.step(t.token)
        assert tuple(env.rewards[f"player_{s}"] for s in range(record.players)) == t.rewards
        assert env.terminations[agent] == t.terminated
        steps += 1
    return steps


def test_a_round_record_s_tokens_replay_in_the_environment() -> None:
    record = _bots_round("german", 2, 7)
    assert _replayed_in_env(record, reward="margin") == 103


def test_a_gin_round_and_its_data_as_the_option() -> None:
    record = _bots_round("gin", 2, 4)
    env = rummy_v0.env(rules="gin", players=2)
    env.reset(options={"record": record.to_dict()})
    first = next(transitions(record))
    assert np.array_equal(env.observe(f"player_{first.seat}")["observation"], first.observation)
    assert _replayed_in_env(record) > 10


def test_a_dealt_match_with_reshuffles_replays_in_match_scope_and_its_first_hand_in_hand_scope() -> None:
    rules = rk.Rules.parse("german(match_end=fixed_hands,num_hands=2)")
    record = _dealt_match(rules, 5, bytes(range(4, 36)), 1)
    assert record.reshuffles is not None and [len(r) for r in record.reshuffles] == [2, 1]
    everything = sum(1 for _ in transitions(record, scope="match"))
    assert _replayed_in_env(record, scope="match", reward="margin") == everything
    first_hand = sum(1 for t in transitions(record) if t.hand == 1)
    assert _replayed_in_env(record) == first_hand


def test_a_match_with_a_seat_draw_and_a_position_starts_where_it_started() -> None:
    rules = rk.Rules.preset("viennese")
    position = rk.MatchPosition(totals=(30, 50, 0), pot=0, hands_dealt=1)
    match = rk.Match.new(rules, 3, seed=6, position=position)
    rng = random.Random(6)
    while not match.is_over and len(match.actions) < 80:
        match.apply(rng.choice(match.legal_actions()))
    record = Record.loads(Record.from_match(match).dumps())
    assert _replayed_in_env(record, scope="match") == sum(1 for _ in transitions(record, scope="match"))
    drawn = Record.from_match(rk.Match.new(rules, 3, seed=2))  # its first dealer drawn by the rules
    env = rummy_v0.raw_env(rules=rules, players=3, scope="match")
    env.reset(options={"record": drawn})
    assert env.game.match is not None and env.game.match.seat_draw == drawn.seat_draw is not None
    assert env.game.match.first_dealer == drawn.dealer


def test_play_that_leaves_the_record_deals_on() -> None:
    """Random tokens from a dealt record's deal: hands beyond its deals are shuffled from the reset's
    seed (another seed, another deal; not the record's seed 0, the same for every server record), and
    a reshuffle of other cards than the record's is shuffled, not refused."""
    rules = rk.Rules.parse("german(match_end=fixed_hands,num_hands=3)")
    stopped = new_table_match(rules, 2, None, bytes(32), None)  # a table closed early in hand 1
    for _ in range(6):
        stopped.apply(random.Random(2).choice(stopped.legal_actions()))
    record = Record.loads(Record.from_match(stopped).dumps())
    assert record.deals is not None and len(record.deals) == 1

    def played(seed: int) -> rk.Match:
        env = rummy_v0.raw_env(rules=rules, players=2, scope="match")
        env.reset(seed=seed, options={"record": record})
        rng = np.random.default_rng(1)
        for agent in env.agent_iter(100_000):
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        match = env.game.match
        assert match is not None and match.is_over and match.hands_dealt == 3
        assert match.rounds[0].deck == record.deals[0]
        return match

    first, other, again = (played(seed).rounds[1].deck for seed in (1, 2, 1))
    assert first != other and first == again
    shuffles = RecordedShuffles((tuple(rk.parse_cards("2C 3C")),), 1, free_play=True)
    pile = list(rk.parse_cards("4D 5D 6D"))
    shuffles.shuffle(pile)  # not the recorded stock's cards: shuffled
    assert sorted(pile) == sorted(rk.parse_cards("4D 5D 6D"))
    with pytest.raises(rk.NotationError, match="not the discard pile's cards"):
        RecordedShuffles((tuple(rk.parse_cards("2C 3C")),), 1).shuffle(pile)


def test_a_record_of_other_rules_or_seats_or_a_bad_option_is_refused() -> None:
    record = _bots_round("german", 2, 7)
    with pytest.raises(ValueError, match=r"the record's rules \(german\) are not this environment's"):
        rummy_v0.env(rules="viennese", players=2).reset(options={"record": record})
    with pytest.raises(ValueError, match="the record has 2 seats, this environment 3"):
        rummy_v0.env(rules="german", players=3).reset(options={"record": record})
    with pytest.raises(ValueError, match="a round record holds one hand and no match"):
        rummy_v0.env(rules="german", players=2, scope="match").reset(options={"record": record})
    ignored = rummy_v0.raw_env(rules="german", players=2)
    ignored.reset(seed=1, options={"options": 1})  # other keys are ignored (PettingZoo's API test)
    assert ignored.game.round.deck != record.deck
    with pytest.raises(TypeError, match="not str"):
        rummy_v0.env(rules="german", players=2).reset(options={"record": record.dumps()})
    with pytest.raises(rk.NotationError, match="not a rummykit record"):
        rummy_v0.env(rules="german", players=2).reset(options={"record": {"format": "x"}})


def test_the_parallel_api_starts_from_a_record_too() -> None:
    record = _bots_round("german", 2, 7)
    env = rummy_v0.parallel_env(rules="german", players=2)
    observations, _ = env.reset(options={"record": record})
    first = next(transitions(record))
    assert np.array_equal(observations[f"player_{first.seat}"]["observation"], first.observation)


def test_the_gymnasium_environment_starts_from_a_record_too() -> None:
    import gymnasium

    import rummykit.envs  # noqa: F401 (registers the environments)

    record = _bots_round("german", 2, 7)
    first = next(transitions(record))
    env = gymnasium.make("rummykit/Rummy-v0", rules="german", opponents="greedy", seat=first.seat)
    obs, info = env.reset(seed=1, options={"record": record})
    assert np.array_equal(obs, first.observation) and np.array_equal(info["action_mask"], first.action_mask)
    with pytest.raises(ValueError, match="not this environment's"):
        gymnasium.make("rummykit/Rummy-v0", rules="gin", opponents="greedy").reset(options={"record": record})


def _first_rebuilt_stock(match: rk.Match) -> tuple[rk.Card, ...]:
    """Draw and discard (nobody melds) until the stock is rebuilt from the discard pile; its order."""
    rng = random.Random(0)
    rnd = match.round
    while rnd.stock_rebuilds == 0:
        legal = match.legal_actions()
        draw = [a for a in legal if str(a) == "draw"]
        match.apply(draw[0] if draw else rng.choice([a for a in legal if str(a).startswith("discard")]))
    return tuple(rnd.stock)


def test_free_play_reshuffles_follow_the_episodes_seed() -> None:
    """A reshuffle the record does not hold is shuffled from the reset's seed and the hand: another
    seed, another stock (nothing a learner could learn from the discard pile across episodes), the
    same seed, the same stock."""
    rules = rk.Rules.parse("german(match_end=fixed_hands,num_hands=2)")
    stopped = new_table_match(rules, 2, None, bytes(32), None)  # closed before any reshuffle
    stopped.apply(stopped.legal_actions()[0])
    record = Record.loads(Record.from_match(stopped).dumps())
    assert record.deals is not None and not any(record.reshuffles or ())

    def stock(seed: int) -> tuple[rk.Card, ...]:
        env = rummy_v0.raw_env(rules=rules, players=2, scope="match")
        env.reset(seed=seed, options={"record": record})
        assert env.game.match is not None
        return _first_rebuilt_stock(env.game.match)

    stocks = {seed: stock(seed) for seed in (1, 2, 3)}
    assert stock(1) == stocks[1]
    assert len(set(stocks.values())) == 3
    started = [_first_rebuilt_stock(record.start(free_play=True, free_seed=s)) for s in (5, 5, 6)]
    assert started[0] == started[1] != started[2]


def test_the_gymnasium_agent_takes_a_seat_that_moves_in_the_records_deal() -> None:
    """The forehand (seat 1, a greedy bot unless the agent sits there) can go out at once: an agent
    drawn to seat 0 would never move, so it takes the next seat that does, the same for a seed; a
    fixed seat that never moves is refused."""
    import gymnasium

    import rummykit.envs  # noqa: F401 (registers the environments)

    rules = rk.Rules.preset("german")
    hands = ["JK AS KS QS 8C 7D 4H 9D 6C JS 2S 6H 8H", "10H JH QH KH AH 5C 5D 5S 8S 9S 10S 2D 3D"]
    deck = arrange_deck(rules, 2, hands, dealer=0, upcard="2C", stock="4D")
    record = Record.from_round(rk.Round.new(rules, 2, deck=deck, seed=1, dealer=0))
    env = gymnasium.make("rummykit/Rummy-v0", rules="german", opponents="greedy")
    for seed in range(8):
        _, info = env.reset(seed=seed, options={"record": record})
        again = env.reset(seed=seed, options={"record": record})[1]
        assert again["seat"] == info["seat"] == 1
    fixed = gymnasium.make("rummykit/Rummy-v0", rules="german", opponents="greedy", seat=0)
    with pytest.raises(ValueError, match="before seat 0 moves: start it with another seat"):
        fixed.reset(seed=0, options={"record": record})
