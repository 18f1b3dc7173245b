"""Records as the environments' transitions (:mod:`rummykit.envs.records`): every transition is what a
live environment gives, bit for bit.

The strongest check plays a live ``rummy_v0`` environment with bots and writes, beside it, the record a
person would have written of the same game: openings of several melds in another order than the
environment's, sets' cards in another order, lay-offs with their run end named, table melds by the
numbers of the person's table, gin's ``knock C`` shortcut. The converted record must give back every
observation, mask, token, reward and end the environment handed out. Records of the library (bots'
games, a web table's version-2 record) are converted in both scopes and stepped through a fresh
environment fed the same tokens, and checked against the observations built from scratch.
"""

from __future__ import annotations

import dataclasses
import doctest
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
import numpy as np

import rummykit as rk
from rummykit.actions import (
    Action,
    BuyBack,
    Decline,
    Discard,
    Knock,
    KnockDeclare,
    LayOff,
    MeldAction,
    Open,
    Pass,
    Swap,
)
from rummykit.arena import ArenaConfig, build_games, play_recorded
from rummykit.bots import make_bot
from rummykit.cards import JOKER
from rummykit.envs import encoding as enc
from rummykit.envs import rummy_v0
from rummykit.envs.game import NotOfferedError, TokenGame
from rummykit.envs.observation import MatchFigures, encode_prefix, encode_view
from rummykit.envs.records import RecordConversionError, Transition, as_arrays, transitions
from rummykit.match import Match
from rummykit.record import Record, ReplayError
from rummykit.round import Round
from rummykit.web.matches import new_table_match

OKLAHOMA = "gin(oklahoma=true,oklahoma_spade_doubles=true)"
SEEN: Counter[str] = Counter()
"""What the person's records of :func:`play_live` held that the environment spells otherwise."""


def _round(game: Round | Match) -> Round:
    return game.round if isinstance(game, Match) else game


def _key_pairs(ours: Round, theirs: Round) -> dict[int, int]:
    """Table meld numbers of ``ours``: the number of the same meld in ``theirs`` (paired in order)."""
    free: dict[tuple[Any, ...], list[int]] = {}
    for j, meld in enumerate(theirs.live_state().melds, 1):
        free.setdefault(enc.meld_key(meld), []).append(j)
    return {i: free[enc.meld_key(meld)].pop(0) for i, meld in enumerate(ours.live_state().melds, 1)}


def _set_reversed(meld: tuple[rk.Card, ...]) -> tuple[rk.Card, ...]:
    """A set's cards in reverse order (a run's stay: their order places the jokers)."""
    ranks = {c.rank for c in meld if not c.is_joker}
    return meld[::-1] if len(ranks) == 1 else meld


def as_person_writes(action: Action, env: Round, person: Round) -> Action:
    """``action`` of the environment's game as a person writes it in theirs: melds in reverse order,
    sets' cards reversed, a lay-off's run end named where the engine takes it, table melds by the
    person's numbers."""
    if isinstance(action, (Open, MeldAction)):
        written = type(action)(tuple(_set_reversed(m) for m in action.melds[::-1]))
        if not person.is_legal(written):
            return action
        SEEN["melds in another order"] += len(written.melds) > 1
        SEEN["set cards reversed"] += any(_set_reversed(m) != m for m in action.melds)
        return written
    back = {j: i for i, j in _key_pairs(person, env).items()}
    if isinstance(action, LayOff):
        moved = LayOff(action.card, back[action.target], action.end)
        SEEN["renumbered"] += moved.target != action.target
        if moved.end is None and not person.rules.is_gin:
            for end in ("low", "high"):
                named = LayOff(moved.card, moved.target, end)
                if person.is_legal(named):
                    SEEN["end named"] += 1
                    return named
        return moved
    if isinstance(action, Swap):
        SEEN["joker exchange"] += 1
        layoffs = tuple(LayOff(lo.card, back.get(lo.target, lo.target), lo.end) for lo in action.layoffs)
        return Swap(action.cards, back[action.target], action.melds, layoffs)
    return action


def _live_step(env: Any, token: int, trace: list[dict[str, Any]]) -> None:
    agent = env.agent_selection
    obs = env.observe(agent)
    env.step(token)
    trace.append(
        {
            "seat": int(agent.split("_")[1]),
            "observation": obs["observation"],
            "action_mask": obs["action_mask"],
            "token": token,
            "rewards": tuple(env.rewards[a] for a in env.possible_agents),
            "terminated": env.terminations[agent],
        }
    )


def _live_action(env: Any, action: Action, trace: list[dict[str, Any]]) -> None:
    """Step ``action`` (a candidate) in the live environment: its spelling, and ``DONE`` where the
    spelling alone leaves it open."""
    game: TokenGame = env.game
    for token in enc.tokens_of(enc.canonical(action)):
        _live_step(env, token, trace)
    if game.composer.tokens:
        SEEN["done"] += 1
        _live_step(env, enc.DONE, trace)


def play_live(
    rules: str, players: int, scope: str, reward: str, seed: int, bot: str = "greedy"
) -> tuple[Record, list[dict[str, Any]]]:
    """A game of the live ``rummy_v0`` played by ``bot`` (and, now and then, a compound opening or a
    random candidate), its trace, and the record a person would have written of it."""
    env = rummy_v0.env(rules=rules, players=players, scope=scope, reward=reward)
    env.reset(seed=seed)
    game: TokenGame = env.game
    start = game.match if game.match is not None else game.round
    person = (Record.from_match(start) if isinstance(start, Match) else Record.from_round(start)).start()
    player = make_bot(bot)
    rng = random.Random(seed)
    trace: list[dict[str, Any]] = []
    while not game.is_over and not game.truncated:
        engine: Round | Match = game.match if game.match is not None else game.round
        rnd, mine = _round(engine), _round(person)
        if isinstance(engine, Match) and engine.pending_buyback:
            action: Action = rng.choice([BuyBack(), Decline()])
            _live_action(env, action, trace)
            person.apply(action)
            continue
        offered = game.composer.reachable()
        compound = [a for a in offered if isinstance(a, Open) and len(a.melds) > 1]
        spelled = [enc.tokens_of(a) for a in offered]
        shorter = [a for a, t in zip(offered, spelled, strict=True)
                   if any(len(u) > len(t) and u[: len(t)] == t for u in spelled)]  # fmt: skip
        if compound and rng.random() < 0.5:
            action = rng.choice(compound)
        elif shorter and rng.random() < 0.5:
            action = rng.choice(shorter)
        elif rng.random() < 0.1:
            action = rng.choice(offered)
        else:
            action = player.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng)
        if isinstance(action, KnockDeclare) and rng.random() < 0.7:
            shortcut = next((Knock(c) for c in sorted(set(rnd.view(rnd.to_move).hand))
                             if mine.is_legal(Knock(c))), None)  # fmt: skip
            if shortcut is not None:
                SEEN["gin knock shortcut"] += 1
                laid = mine.child(shortcut).live_state().gin
                assert laid is not None
                for step in [action, Discard(shortcut.card), *(MeldAction((m,)) for m in laid.knocker_melds)]:
                    _live_action(env, step, trace)
                _live_action(env, Pass(), trace)
                person.apply(shortcut)
                continue
        written = as_person_writes(action, rnd, mine)
        _live_action(env, action, trace)
        person.apply(written)
    record = Record.from_match(person) if isinstance(person, Match) else Record.from_round(person)
    return Record.loads(record.dumps()), trace


def same(made: list[Transition], trace: list[dict[str, Any]]) -> None:
    assert len(made) == len(trace)
    for k, (t, live) in enumerate(zip(made, trace, strict=True)):
        assert (t.seat, t.token, t.terminated) == (live["seat"], live["token"], live["terminated"]), k
        assert t.observation.dtype == np.float32 and t.action_mask.dtype == np.int8
        assert t.observation.tobytes() == live["observation"].tobytes(), k
        assert np.array_equal(t.action_mask, live["action_mask"]), k
        assert t.rewards == live["rewards"] and t.reward == t.rewards[t.seat], k


LIVE = [
    ("german", 2, "hand", "score", 1),
    ("german", 4, "hand", "margin", 2),
    ("german_dskv", 4, "hand", "win", 3),
    ("scala40", 3, "hand", "win", 3),
    ("viennese", 3, "hand", "score", 4),
    ("gin", 2, "hand", "score", 5),
    (OKLAHOMA, 2, "hand", "margin", 6),
    ("german(match_end=fixed_hands,num_hands=2)", 2, "match", "score", 7),
    ("german(match_end=fixed_hands,num_hands=2)", 3, "match", "margin", 8),
    ("viennese", 3, "match", "score", 14),
    ("viennese(match_end=fixed_hands,num_hands=2)", 4, "match", "win", 9),
    ("gin(oklahoma=true,match_end=target_score,target_score=40)", 2, "match", "score", 10),
]


@pytest.fixture(scope="module")
def live() -> dict[tuple[Any, ...], tuple[Record, list[dict[str, Any]], Counter[str]]]:
    """Every game of :data:`LIVE`: the person's record, the live trace and what the record spells
    otherwise than the environment."""
    games = {}
    for args in LIVE:
        SEEN.clear()
        record, trace = play_live(*args)  # type: ignore[arg-type]
        games[args] = (record, trace, Counter(SEEN))
    return games


@pytest.mark.parametrize("args", LIVE, ids=[f"{a[0]}-{a[1]}-{a[2]}-{a[3]}" for a in LIVE])
def test_a_persons_record_converts_to_what_the_live_environment_gave(
    live: dict[tuple[Any, ...], tuple[Record, list[dict[str, Any]], Counter[str]]], args: tuple[Any, ...]
) -> None:
    record, trace, _ = live[args]
    _, _, scope, reward, _ = args
    same(list(transitions(record, scope=scope, reward=reward)), trace)


def test_the_persons_records_hold_every_spelling_the_environment_changes(
    live: dict[tuple[Any, ...], tuple[Record, list[dict[str, Any]], Counter[str]]],
) -> None:
    """The games above cover what a naive conversion gets wrong: openings of several melds in another
    order (and table melds numbered otherwise later), sets' cards in another order, lay-offs with the
    run end named, joker exchanges, ``DONE`` after a spelling another candidate goes on from, gin's
    knock shortcut, and buy-back decisions of a rubber."""
    seen = sum((counts for _, _, counts in live.values()), Counter[str]())
    wanted = ("melds in another order", "set cards reversed", "renumbered", "end named", "joker exchange",
              "done", "gin knock shortcut")  # fmt: skip
    assert all(seen[what] >= 2 for what in wanted), seen
    actions = [a for record, _, _ in live.values() for a in record.actions]
    assert sum(isinstance(a, (BuyBack, Decline)) for a in actions) >= 2


# Records of the library, stepped through a fresh environment ---------------------------------------


def hand_starts(record: Record) -> list[Round]:
    """A copy of every hand of ``record`` at its deal, from a replay of its own."""
    game = record.start()
    if isinstance(game, Round):
        return [game.copy()]
    starts = [game.round.copy()]
    for action in record.actions:
        before = game.round
        game.apply(action)
        if game.round is not before:
            starts.append(game.round.copy())
    return starts


def figures_of(match: Match | None, players: int) -> MatchFigures:
    if match is None:
        return MatchFigures.none(players)
    pending = bool(match.pending_buyback)
    return MatchFigures(match.totals, match.chips, match.pot, match.hands_counted, pending, True)


def replayed_in_environment(record: Record, made: list[Transition], scope: str, reward: str) -> None:
    """Step ``made``'s tokens through a fresh environment game started where the record starts (each
    hand from its deal in ``scope="hand"``): the same seats, observations, masks, rewards and ends; at
    the start of each decision the observation is the one built from scratch from the seat's view,
    and mid-spelling that with the tokens so far. The last hand ends where the record's replay does."""
    game = TokenGame(record.rules, record.players, scope, reward)  # type: ignore[arg-type]
    starts = hand_starts(record)
    if scope == "match":
        game.play_from(record.start())
    hand = 0
    spelled: list[int] = []
    for k, t in enumerate(made):
        if scope == "hand" and t.hand != hand:
            hand = t.hand
            game.play_from(starts[hand - 1])
        assert game.to_move == t.seat, k
        observation = game.observe(t.seat)
        assert observation.tobytes() == t.observation.tobytes(), k
        assert np.array_equal(game.mask(), t.action_mask) and t.action_mask[t.token] == 1, k
        fresh = encode_view(game.view(t.seat), figures_of(game.match, record.players))
        encode_prefix(fresh, record.players, spelled)
        assert fresh.tobytes() == t.observation.tobytes(), k
        applied, rewards = game.step(t.token)
        spelled = [] if applied is not None else [*spelled, t.token]
        assert tuple(rewards) == t.rewards and (game.is_over, applied) == (t.terminated, t.action), k
    ended = record.replay()
    assert enc.position_key(game.round) == enc.position_key(_round(ended))
    if isinstance(ended, Match) and scope == "match":
        assert game.match is not None and game.match.scores == ended.scores


def converted_both_ways(record: Record, reward: str = "score") -> dict[str, list[Transition]]:
    scopes = ("hand", "match") if record.kind == "match" else ("hand",)
    made = {scope: list(transitions(record, scope=scope, reward=reward)) for scope in scopes}  # type: ignore[arg-type]
    for scope, steps in made.items():
        replayed_in_environment(record, steps, scope, reward)
        assert [t.action_index for t in steps] == sorted(t.action_index for t in steps)
    if "match" in made:  # the same tokens but the buy-back decisions, which are no hand's
        decisions = (enc.BUYBACK, enc.DECLINE)
        in_match = [(t.action_index, t.token) for t in made["match"] if t.token not in decisions]
        assert [(t.action_index, t.token) for t in made["hand"]] == in_match
    return made


BOTS_GAMES = [
    ("german", ("greedy", "random"), "rounds", "score"),
    ("german", ("greedy", "greedy", "random", "greedy"), "rounds", "margin"),
    ("scala40", ("greedy", "greedy", "greedy"), "rounds", "win"),
    ("viennese", ("greedy", "greedy", "greedy"), "matches", "score"),
    ("gin", ("greedy", "random"), "rounds", "score"),
    ("gin(oklahoma=true,match_end=target_score,target_score=50)", ("greedy", "greedy"), "matches", "margin"),
]


@pytest.mark.parametrize(("rules", "bots", "mode", "reward"), BOTS_GAMES)
def test_records_of_bots_games_convert_in_both_scopes(rules: str, bots: tuple[str, ...], mode: str,
                                                      reward: str) -> None:  # fmt: skip
    game = build_games(ArenaConfig(rules, bots, rounds=1, seed=3, mode=mode))[0]  # type: ignore[arg-type]
    _, record = play_recorded(game)
    converted_both_ways(Record.loads(record.dumps()), reward)


def _dealt(rules: rk.Rules, players: int, secret: bytes, seed: int, bots: bool) -> rk.Match:
    match = new_table_match(rules, players, None, secret, None)  # as a server's table deals
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    while not match.is_over:
        if bots and not match.pending_buyback:
            rnd = match.round
            action = greedy.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng)
        else:
            action = rng.choice(match.legal_actions())
        match.apply(action)
    return match


def test_a_web_tables_version_2_record_converts_with_its_deals_and_reshuffles() -> None:
    """A table of five dealt from a secret (the server's), played by random moves: hand 1 reshuffles
    twice, hand 2 once; the record holds every deal and reshuffle (version 2)."""
    rules = rk.Rules.parse("german(match_end=fixed_hands,num_hands=2)")
    match = _dealt(rules, 5, bytes(range(4, 36)), 1, bots=False)
    record = Record.loads(Record.from_match(match).dumps())
    assert record.to_dict()["version"] == 2 and record.reshuffles is not None
    assert [len(r) for r in record.reshuffles] == [2, 1]
    made = converted_both_ways(record, "margin")
    assert {t.hand for t in made["match"]} == {1, 2} and made["match"][-1].terminated


def test_a_dealt_rubber_converts_with_its_buy_back_decisions() -> None:
    match = _dealt(rk.Rules.preset("viennese"), 3, bytes(range(9, 41)), 2, bots=True)
    record = Record.loads(Record.from_match(match).dumps())
    made = converted_both_ways(record)
    bought = [t for t in made["match"] if t.token == enc.BUYBACK]
    assert bought and all(t.reward < 0 for t in bought)  # the buyer pays into the pot
    chips = np.sum([t.rewards for t in made["match"]], axis=0)
    assert tuple(chips) == match.chips  # the rubber's rewards add up to its chips, antes included


# Records written by hand --------------------------------------------------------------------------


def _german_after_opening() -> tuple[Round, MeldAction]:
    """A German hand where the seat to move has opened and may lay two melds at once (``meld A | B``,
    which the engine takes and the environment offers one meld at a time)."""
    rules = rk.Rules.preset("german")
    for seed in range(40):
        rnd = rk.Round.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            melds = [a for a in rnd.legal_actions() if isinstance(a, MeldAction)]
            for i, first in enumerate(melds):
                for second in melds[i + 1 :]:
                    both = MeldAction(second.melds + first.melds)
                    if rnd.is_legal(both) and enc.canonical(both) != both:
                        return rnd, both
            rnd.apply(rng.choice(rnd.legal_actions()))
    raise AssertionError("no hand offers two melds at once")


def test_a_meld_of_several_melds_is_one_decision_per_meld() -> None:
    rnd, both = _german_after_opening()
    number = len(rnd.history) + 1
    rnd.apply(both)
    rng = random.Random(1)
    greedy = make_bot("greedy")
    while not rnd.is_over:
        rnd.apply(greedy.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    record = Record.from_round(rnd)
    made = converted_both_ways(record)["hand"]
    spelled = [t for t in made if t.action_index == number]
    laid = [t.action for t in spelled if t.action is not None]
    assert laid == [MeldAction((m,)) for m in sorted(both.melds)]
    assert spelled[0].token == enc.MELD and len({t.seat for t in spelled}) == 1


def _compound_swap() -> tuple[Round, Swap]:
    """A German hand with joker exchanges where the seat to move may exchange a joker and lay more
    than the meld that takes it (the terminal takes that from a person; the environment offers the
    exchange with one meld, the other melds as decisions of their own)."""
    rules = rk.Rules.parse("german(joker_exchange=true)")
    greedy = make_bot("greedy")
    for seed in range(110, 130):
        rnd = rk.Round.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            for swap in (a for a in legal if isinstance(a, Swap)):
                used = set(swap.cards) | {c for m in swap.melds for c in m}
                for meld in (a for a in legal if isinstance(a, MeldAction)):
                    if not used & set(meld.melds[0]):
                        both = Swap(swap.cards, swap.target, swap.melds + meld.melds, swap.layoffs)
                        if rnd.is_legal(both):
                            return rnd, both
            bot = rng.random() < 0.7
            rnd.apply(greedy.choose(rnd.view(rnd.to_move), legal, rng) if bot else rng.choice(legal))
    raise AssertionError("no hand with a joker exchange that lays two melds")


def test_a_joker_exchange_that_lays_two_melds_is_the_environment_s_three_decisions() -> None:
    rnd, both = _compound_swap()
    number = len(rnd.history) + 1
    rnd.apply(both)
    rng = random.Random(1)
    while not rnd.is_over:
        rnd.apply(rng.choice(rnd.legal_actions()))
    made = converted_both_ways(Record.loads(Record.from_round(rnd).dumps()))["hand"]
    applied = [t.action for t in made if t.action_index == number and t.action is not None]
    assert [type(a) for a in applied] == [Swap, MeldAction]
    assert applied[0].melds and JOKER in applied[0].melds[0]  # the exchange with the freed joker's meld


def _unlisted_opening() -> tuple[Round, Open]:
    """A German hand where the seat to move may open with melds the engine does not list (the
    environment adds them: :func:`~rummykit.envs.encoding.compound_openings`)."""
    for seed in range(100):
        rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            listed = {enc.canonical(a) for a in rnd.legal_actions()}
            extra = [a for a in enc.compound_openings(rnd) if a not in listed]
            if extra and isinstance(extra[0], Open):
                return rnd, Open(extra[0].melds[::-1])
            rnd.apply(rng.choice(rnd.legal_actions()))
    raise AssertionError("no hand with an opening the engine does not list")


def test_an_opening_the_environment_does_not_offer_is_refused_naming_the_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An opening of several melds beyond those the environment lists at a decision (here it lists
    none beyond the engine's): the error names the action and why; the tokens before it are given."""
    rnd, opening = _unlisted_opening()
    number = len(rnd.history) + 1
    rnd.apply(opening)
    record = Record.from_round(rnd)
    assert len(list(transitions(record))) > number
    monkeypatch.setattr(enc, "compound_openings", lambda rnd, limit=0: [])
    made: list[Transition] = []
    why = f"record action {number} \\(open .*an opening the environment does not offer"
    with pytest.raises(RecordConversionError, match=why) as info:
        made.extend(transitions(record))
    assert (info.value.number, info.value.action) == (number, str(opening))
    assert made and max(t.action_index for t in made) == number - 1
    assert info.value.__suppress_context__  # the refusal it was found by is no second traceback


def test_rules_the_environments_do_not_play_are_refused_at_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(rules: rk.Rules) -> None:
        raise rk.RulesError("too many melds")

    monkeypatch.setattr(enc, "check_rules", refuse)
    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=1)
    with pytest.raises(RecordConversionError, match="do not play this record's rules") as info:
        transitions(Record.from_round(rnd))
    assert info.value.number == 0


def test_an_action_the_engine_refuses_raises_the_replay_error() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=1)
    rnd.apply("draw")
    data = Record.from_round(rnd).to_dict()
    data["actions"].append("draw")
    steps = transitions(Record.from_dict(data))
    with pytest.raises(ReplayError, match=r"record action 2 \(draw\)"):
        list(steps)


def test_the_arguments_are_checked_at_the_call() -> None:
    rnd = rk.Round.new(rk.Rules.preset("gin"), 2, seed=1)
    record = Record.from_round(rnd)
    with pytest.raises(ValueError, match="round record"):
        transitions(record, scope="match")
    with pytest.raises(ValueError, match="reward"):
        transitions(record, reward="points")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="scope"):
        transitions(record, scope="game")  # type: ignore[arg-type]
    assert list(transitions(record)) == []


def test_derived_features_are_the_environments() -> None:
    record, trace = play_live("german", 3, "hand", "margin", 11)
    made = list(transitions(record, reward="margin", derived_features=True))
    game = TokenGame("german", 3, reward="margin", derived_features=True)
    game.play_from(record.start())
    for t in made:
        assert game.observe(t.seat).tobytes() == t.observation.tobytes()
        game.step(t.token)
    assert len(made) == len(trace) and made[0].observation.size > trace[0]["observation"].size


def test_as_arrays_stacks_every_field() -> None:
    record, _ = play_live("gin", 2, "hand", "score", 12)
    made = list(transitions(record))
    arrays = as_arrays(made)
    assert arrays["observation"].shape == (len(made), made[0].observation.size)
    assert arrays["observation"].dtype == np.float32 and arrays["action_mask"].dtype == np.int8
    assert arrays["rewards"].shape == (len(made), 2) and arrays["terminated"][-1]
    assert list(arrays["token"]) == [t.token for t in made]
    with pytest.raises(ValueError, match="no transitions"):
        as_arrays([])


# The pieces it is built on ------------------------------------------------------------------------


def test_spell_gives_the_environments_spelling_of_an_action_written_otherwise() -> None:
    record, _ = play_live("german", 2, "hand", "score", 1)
    game = TokenGame("german", 2)
    game.play_from(record.start())
    otherwise = 0
    for action in record.actions:
        if isinstance(action, (LayOff, Swap)):
            break  # it names a table meld by the record's number
        tokens = game.spell(action)
        written = enc.tokens_of(action)
        otherwise += tokens[: len(written)] != written
        assert all(game.step(token)[0] is None for token in tokens[:-1])
        assert game.step(tokens[-1])[0] is not None
    assert otherwise  # an opening in another order, or a set's cards


def _layoff_with_one_end() -> tuple[Round, LayOff, LayOff]:
    """A German hand where a lay-off the engine offers without its run end is legal with it named."""
    greedy = make_bot("greedy")
    for seed in range(60):
        rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            for lo in (a for a in legal if isinstance(a, LayOff) and a.end is None):
                for end in ("low", "high"):
                    named = LayOff(lo.card, lo.target, end)
                    if rnd.is_legal(named):
                        return rnd, lo, named
            rnd.apply(greedy.choose(rnd.view(rnd.to_move), legal, rng))
    raise AssertionError("no lay-off with a run end to name")


def test_spell_leaves_out_a_run_end_the_environment_does_not_name() -> None:
    rnd, offered, named = _layoff_with_one_end()
    game = TokenGame("german", 2)
    game.play_from(rnd.copy())
    assert game.spell(named) == game.spell(offered) == enc.tokens_of(offered)
    with pytest.raises(rk.IllegalActionError):
        game.spell(LayOff(offered.card, offered.target + 30))
    game.step(enc.LAYOFF)
    with pytest.raises(ValueError, match="stepped already"):
        game.spell(offered)


def test_spell_names_the_gin_knock_shortcut_as_not_offered() -> None:
    for seed in range(200):
        rnd = rk.Round.new(rk.Rules.preset("gin"), 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            if any(isinstance(a, KnockDeclare) for a in rnd.legal_actions()):
                knock = next(Knock(c) for c in rnd.view(rnd.to_move).hand if rnd.is_legal(Knock(c)))
                game = TokenGame("gin", 2)
                game.play_from(rnd)
                with pytest.raises(NotOfferedError, match="no action the environment offers"):
                    game.spell(knock)
                return
            rnd.apply(rng.choice(rnd.legal_actions()))
    raise AssertionError("no gin hand reached a knock")


def test_play_from_a_match_counts_the_rewards_from_the_figures_it_started_with() -> None:
    position = rk.MatchPosition(totals=(30, 10), gains=(0, 5), hands_dealt=1)
    rules = rk.Rules.parse("german(match_end=fixed_hands,num_hands=3)")
    match = rk.Match.new(rules, 2, seed=5, position=position)
    game = TokenGame(rules, 2, scope="match")
    game.play_from(match)
    rng = random.Random(5)
    total = np.zeros(2)
    while not game.is_over:
        total += game.step(int(rng.choice(np.flatnonzero(game.mask()))))[1]
    assert tuple(total) == (match.scores[0] + 30, match.scores[1] + 5)
    with pytest.raises(ValueError, match="play_from"):
        game.play_from(match.round)
    with pytest.raises(ValueError, match="play_from"):
        TokenGame("german", 2).play_from(rk.Match.new(rk.Rules.preset("german"), 2, seed=1))


def test_play_from_a_match_under_way_counts_only_what_comes_after() -> None:
    """A match whose first hand was played: the rewards of the game that goes on from it add up to
    the change of the scores from then on, not from the match's start."""
    rules = rk.Rules.parse("german(match_end=fixed_hands,num_hands=2)")
    match = rk.Match.new(rules, 2, seed=8)
    rng = random.Random(8)
    while match.hands_dealt < 2:
        match.apply(rng.choice(match.legal_actions()))
    before = match.scores
    assert before != (0, 0)
    game = TokenGame(rules, 2, scope="match")
    game.play_from(match)
    total = np.zeros(2)
    while not game.is_over:
        total += game.step(int(rng.choice(np.flatnonzero(game.mask()))))[1]
    assert tuple(total) == tuple(after - b for after, b in zip(match.scores, before, strict=True))



# The page that describes records ------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def test_the_records_page_examples_run() -> None:
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    failures, tried = doctest.testfile(str(DOCS), module_relative=False, optionflags=flags, verbose=False)
    assert tried >= 10 and not failures


def test_the_records_page_names_every_field_a_record_holds() -> None:
    match = _dealt(rk.Rules.parse("german(match_end=single_hand)"), 2, bytes(range(32)), 1, bots=True)
    dealt = Record.from_match(match).to_dict()
    position = rk.MatchPosition(totals=(3, 4), gains=(0, 0), pot=0, hands_dealt=1)
    started = Record.from_match(rk.Match.new(rk.Rules.preset("german"), 2, seed=1, position=position))
    rnd = rk.Round.new(rk.Rules.preset("german"), 3, seed=1, in_play=(0, 2))
    seated = dataclasses.replace(Record.from_round(rnd), seats=(rk.RecordSeat.person(),) * 3)
    keys = {*dealt, *started.to_dict(), *seated.to_dict()}
    page = DOCS.read_text(encoding="utf-8")
    assert {"seat_draw", "deals", "reshuffles", "position", "in_play", "deck", "seats"} <= keys
    assert [key for key in sorted(keys) if f"| `{key}` |" not in page] == []
    assert [key for key in position.to_dict() if f"`{key}`" not in page] == []


# Who played each seat ----------------------------------------------------------------------------


def _seated(seats: tuple[rk.RecordSeat, ...] | None) -> Record:
    rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=7)
    rng = random.Random(7)
    while not rnd.is_over and len(rnd.history) < 12:
        rnd.apply(rng.choice(rnd.legal_actions()))
    return Record.loads(dataclasses.replace(Record.from_round(rnd), seats=seats).dumps())


def test_transitions_say_whose_decision_each_token_was() -> None:
    record = _seated(None)
    first = list(transitions(record))
    seat_of = {t.action_index: t.seat for t in first}
    mine = sorted(n for n, s in seat_of.items() if s == 0)
    stand_in, hinted = mine[:1], mine[1:2]
    seats = (rk.RecordSeat.person(stand_in=stand_in, hinted=hinted), rk.RecordSeat.of_bot("random"))
    steps = list(transitions(_seated(seats)))
    for t in steps:
        if t.seat == 1:
            assert (t.player, t.stand_in, t.hinted, t.by_person) == ("bot", False, False, False)
        else:
            assert t.player == "person"
            assert t.stand_in == (t.action_index in stand_in) and t.hinted == (t.action_index in hinted)
            assert t.by_person == (t.action_index not in stand_in + hinted)
    data = as_arrays(steps)
    assert data["by_person"].tolist() == [t.by_person for t in steps]
    assert set(data["player"].tolist()) == {0, 1} and data["stand_in"].dtype == np.int8
    # The observations are those of the record without seats: the field changes nothing of the game.
    assert all(np.array_equal(a.observation, b.observation) for a, b in zip(first, steps, strict=True))


def test_transitions_of_a_record_that_does_not_say_know_nothing_of_the_players() -> None:
    steps = list(transitions(_seated(None)))
    assert {(t.player, t.stand_in, t.hinted, t.by_person) for t in steps} == {(None, None, None, False)}
    data = as_arrays(steps)
    assert set(data["player"].tolist()) == set(data["stand_in"].tolist()) == {-1}
    unknown = _seated((rk.RecordSeat("person"), rk.RecordSeat("person", stand_in=())))
    for t in transitions(unknown):
        assert t.player == "person" and not t.by_person
        assert t.hinted is None and t.stand_in == (None if t.seat == 0 else False)


def test_a_record_marking_another_seat_s_action_is_refused_there() -> None:
    seat_of = {t.action_index: t.seat for t in transitions(_seated(None))}
    theirs = min(n for n, s in seat_of.items() if s == 1)
    record = _seated((rk.RecordSeat.person(stand_in=[theirs]), rk.RecordSeat.person()))
    with pytest.raises(RecordConversionError, match="marks it as seat 0's; seat 1 played it") as caught:
        list(transitions(record))
    assert caught.value.number == theirs
