"""The search bot's memory of the hand is a function of the match alone.

A bot that played the match so far, a fresh bot caught up on it (a resumed game, a table replayed
after a restart, a copy in another process) and the same bot after an undo (the match rebuilt from a
prefix of its actions) choose the same actions on the same random numbers; a game environment's
episode plays the same whether the environment is fresh or its last episode was cut short.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
import random
from collections.abc import Sequence

import numpy as np
import pytest

from rummykit.actions import Action, Discard
from rummykit.bots import Bot, make_bot
from rummykit.bots.base import catch_up, match_action, new_game
from rummykit.bots.calibrated import CalibratedSampler
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.inference import TableMemory
from rummykit.bots.ismcts import IsmctsBot
from rummykit.match import Match
from rummykit.round import Round
from rummykit.rules import Rules

pytest.importorskip("gymnasium")
from rummykit.envs.single import RummyEnv


def _rng(match: Match, seat: int) -> random.Random:
    """The terminal game's generator of one decision (``cli/play.py``: an undo replays the same)."""
    return random.Random(f"rummykit-bot-{match.seed}-{seat}-{len(match.actions)}")


def _rebuilt(rules: Rules, seed: int, actions: Sequence[Action]) -> Match:
    m = Match.new(rules, 2, seed=seed)
    for a in actions:
        m.apply(a)
    return m


def _play(m: Match, bots: Sequence[Bot], until: int) -> None:
    while not m.is_over and len(m.actions) < until:
        seat = m.to_move
        m.apply(match_action(bots[seat], m, _rng(m, seat)))


# -- the environment's episodes ------------------------------------------------------------------


def _episode(env: RummyEnv, seed: int, limit: int | None = None) -> list[tuple[object, ...]]:
    obs, info = env.reset(seed=seed)
    pick = np.random.default_rng(seed)
    out: list[tuple[object, ...]] = [("reset", env.seat, obs.tobytes())]
    while limit is None or len(out) <= limit:
        a = int(pick.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        out.append((a, r, obs.tobytes()))
        if term or trunc:
            break
    return out


@pytest.mark.parametrize(("rules", "seed"), [("german", 9), ("viennese", 2), ("viennese", 5)])
def test_an_episode_after_one_cut_short_plays_as_in_a_fresh_environment(rules: str, seed: int) -> None:
    """``reset`` starts every opponent bot's game afresh: the episode of a seed does not depend on how
    the environment's previous episode ended (a time limit stopping it after a few steps)."""
    fresh = _episode(RummyEnv(rules, 2, "search:easy"), seed)
    env = RummyEnv(rules, 2, "search:easy")
    _episode(env, 1000 + seed, limit=3)
    assert _episode(env, seed) == fresh


@pytest.mark.parametrize("rules", ["german", "viennese"])
def test_after_a_cut_short_episode_the_opponent_remembers_only_the_new_hand(rules: str) -> None:
    """The opponent's memory after a few steps of an episode is that of a fresh environment."""

    def memory(env: RummyEnv) -> object:
        bot = env.bots[0]
        assert isinstance(bot, IsmctsBot)
        return {
            s: (m.ambiguous, repr(m.log), sorted((k, repr(v)) for k, v in m.evidence.items()))
            for s, m in bot.memories.items()
        }

    for seed in range(6):
        a = RummyEnv(rules, 2, "search:easy")
        _episode(a, seed, limit=6)
        b = RummyEnv(rules, 2, "search:easy")
        _episode(b, 1000 + seed, limit=2)
        _episode(b, seed, limit=6)
        assert memory(a) == memory(b), seed


def test_a_new_deal_with_the_same_dealer_is_a_new_hand_whatever_its_turn() -> None:
    """The memory's new-hand test reads the deal, not the turn counter alone: a view of another deal
    with the same seat and dealer at a later turn than the last one starts a new hand."""
    rules = Rules.preset("german")
    old = Round.new(rules, 2, seed=1, dealer=0)
    memory = TableMemory()
    bot = GreedyBot()
    while old.view(1).turn < 6 and not old.is_over:
        seat = old.to_move
        action = bot.choose(old.view(seat), old.legal_actions(), random.Random(0))
        if seat == 1:
            memory.observe(old.view(1))
            memory.acted(old.view(1), action)
        old.apply(action)
    assert memory.evidence and memory.log
    new = Round.new(rules, 2, seed=2, dealer=0)
    while new.to_move != 1:
        new.apply(bot.choose(new.view(new.to_move), new.legal_actions(), random.Random(0)))
    later = dataclasses.replace(new.view(1), turn=memory._last_turn + 2)
    hands = memory.hands
    memory.observe(later)
    assert memory.hands == hands + 1 and not memory.evidence
    assert memory.deal_hand == tuple(int(c) for c in later.hand)


# -- catching up -----------------------------------------------------------------------------------


CASES = [
    ("german", "search:easy", 0),
    ("german", "search:easy", 1),
    ("viennese", "search:easy", 0),
    ("viennese", "search:easy", 1),
    ("gin", "search:easy", 0),
    ("gin", "search:medium", 1),
    ("german", "search:medium", 2),
    ("viennese", "search:medium", 2),
]


@pytest.mark.parametrize(("rules_name", "spec", "seed"), CASES)
def test_a_fresh_bot_caught_up_on_the_match_chooses_as_the_bot_that_played_it(
    rules_name: str, spec: str, seed: int
) -> None:
    """At every decision of the search bot, a fresh bot of the same kind (a resumed game, a web table
    replayed after a restart) chooses what the bot that played along chooses: through
    :func:`match_action` (which catches it up by itself) and through :func:`catch_up` first."""
    rules = Rules.preset(rules_name)
    m = Match.new(rules, 2, seed=seed)
    along, greedy = make_bot(spec), GreedyBot()
    decisions = 0
    while not m.is_over and len(m.rounds) <= 2 and len(m.actions) < 140:
        seat = m.to_move
        if seat == 1:
            m.apply(match_action(greedy, m, _rng(m, seat)))
            continue
        fresh = make_bot(spec)
        restored = match_action(fresh, m, _rng(m, seat))
        explicit = make_bot(spec)
        catch_up(explicit, m, seat)  # match_action then sees it caught up on this round
        chosen = match_action(explicit, m, _rng(m, seat))
        action = match_action(along, m, _rng(m, seat))
        assert restored == action == chosen, (len(m.actions), action, restored, chosen)
        decisions += 1
        m.apply(action)
    assert decisions >= 10


@pytest.mark.parametrize(("rules_name", "spec", "seed"), CASES[:6])
def test_an_undo_replays_the_same_bot_moves(rules_name: str, spec: str, seed: int) -> None:
    """The terminal game's undo rebuilds the match from a prefix of its actions and keeps the bot
    objects: the bot then plays exactly the moves it played the first time, after one undo or after
    several (back to the person's decisions, seat 0, whose moves are replayed unchanged)."""
    rules = Rules.preset(rules_name)
    straight = Match.new(rules, 2, seed=seed)
    _play(straight, [GreedyBot(), make_bot(spec)], 90)
    actions = straight.actions
    bots: list[Bot] = [GreedyBot(), make_bot(spec)]
    m = Match.new(rules, 2, seed=seed)
    for stop, back in ((30, 1), (55, 3), (80, 2)):
        _play(m, bots, stop)
        keep = len(m.actions)
        for _ in range(back):  # each undo takes back the person's last move and the replies after it
            mine = [i for i, e in enumerate(m.history[:keep]) if e.seat == 0 and i < keep - 1]
            keep = mine[-1] if mine else 0
        m = _rebuilt(rules, seed, m.actions[:keep])
    _play(m, bots, 90)
    assert m.actions == actions


def test_a_copy_of_the_bot_caught_up_after_an_undo_chooses_as_the_straight_bot() -> None:
    """After an undo, a copy of the bot as it stood before the undo (its memory ahead of the match)
    chooses what a bot that played only the kept actions chooses."""
    rules = Rules.preset("german")
    m = Match.new(rules, 2, seed=4)
    bots: list[Bot] = [GreedyBot(), make_bot("search:easy")]
    _play(m, bots, 40)
    ahead = copy.deepcopy(bots[1])
    for keep in (35, 20, 6):
        short = _rebuilt(rules, 4, m.actions[:keep])
        straight: list[Bot] = [GreedyBot(), make_bot("search:easy")]
        replay = Match.new(rules, 2, seed=4)
        for a in m.actions[:keep]:
            if replay.to_move == 1:
                assert match_action(straight[1], replay, _rng(replay, 1)) == a
            replay.apply(a)
        while short.to_move != 1:
            short.apply(match_action(bots[0], short, _rng(short, 0)))
            replay.apply(short.actions[-1])
        bot = copy.deepcopy(ahead)
        assert match_action(bot, short, _rng(short, 1)) == match_action(straight[1], replay, _rng(replay, 1))


# -- the hooks -----------------------------------------------------------------------------------


def test_new_game_forgets_the_memory_and_is_a_no_op_for_bots_without_one() -> None:
    rules = Rules.preset("german")
    m = Match.new(rules, 2, seed=3)
    bot = make_bot("search:easy")
    _play(m, [GreedyBot(), bot], 20)
    assert isinstance(bot, IsmctsBot) and bot.memories
    new_game(bot)
    assert not bot.memories
    new_game(GreedyBot())  # nothing to forget
    assert isinstance(match_action(bot, m, _rng(m, m.to_move)), Action)


def test_the_calibrated_sampler_never_takes_another_memory_for_the_cached_one() -> None:
    """The pool is cached per memory object, held: a new memory (even at the freed address of the
    old one, with the same hand count) deals a new pool."""
    rules = Rules.preset("viennese")
    rnd = Round.new(rules, 2, seed=5)
    while not any(isinstance(a, Discard) for a in rnd.legal_actions()):
        rnd.apply(GreedyBot().choose(rnd.view(rnd.to_move), rnd.legal_actions(), random.Random(0)))
    view = rnd.view(rnd.to_move)
    sampler = CalibratedSampler(pool=4)
    sampler(view, random.Random(1), TableMemory())
    first = sampler._dealt
    assert first
    gc.collect()
    sampler(view, random.Random(1), TableMemory())
    assert sampler._dealt is not first


@pytest.mark.parametrize("rules_name", ["german", "viennese"])
def test_a_pickled_copy_of_the_bot_follows_the_pickled_match_without_catching_up(
    rules_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's bot process decides on pickled copies of the bot and the match: the copy knows
    where it stood by content, so it catches up once a hand (as the bot in one process does), not
    at every decision, and decides the same."""
    import pickle

    calls: list[int] = []
    original = IsmctsBot.catch_up

    def counting(self: IsmctsBot, past: object, view: object) -> None:
        calls.append(1)
        original(self, past, view)  # type: ignore[arg-type]

    monkeypatch.setattr(IsmctsBot, "catch_up", counting)
    played: list[list[str]] = []
    catch_ups: list[int] = []
    for copied in (False, True):
        calls.clear()
        match = Match.new(Rules.preset(rules_name), 2, seed=5)
        bot, other = make_bot("search:easy"), make_bot("greedy")
        actions: list[str] = []
        while not match.is_over and len(actions) < 160:
            rng = random.Random(len(actions))
            if match.to_move == 0:
                if copied:
                    bot = pickle.loads(pickle.dumps(bot))
                on = pickle.loads(pickle.dumps(match)) if copied else match
                action = match_action(bot, on, rng)
            else:
                action = match_action(other, match, rng)
            match.apply(action)
            actions.append(str(action))
        played.append(actions)
        catch_ups.append(len(calls))
    assert played[0] == played[1]
    assert catch_ups[1] == catch_ups[0] <= match.hands_dealt + 1


@pytest.mark.parametrize(
    "rules_name", ["german", "german_dskv", "viennese", "romme_ohne_auslegen", "scala40", "basic"]
)
def test_no_card_reaches_a_hand_between_its_seats_turns(rules_name: str) -> None:
    """What the memory's new-hand test rests on (``TableMemory.follows``: the seat holds exactly the
    cards its last action left it): in the melding and knock games only a seat's own actions change
    its hand within a hand. A rule that gives a card out of turn (a penalty card, "May I") must
    teach the memory first; this fails if one does."""
    checked = 0
    for seed in range(3):
        match = Match.new(Rules.preset(rules_name), 3, seed=seed)
        rng = random.Random(seed)
        left: dict[int, tuple[int, ...]] = {}
        hand_no = match.hands_dealt
        for _ in range(400):
            if match.is_over:
                break
            if match.hands_dealt != hand_no:  # a new deal: hands start afresh
                left, hand_no = {}, match.hands_dealt
            seat = match.to_move
            if not match.pending_buyback:
                held = tuple(sorted(int(c) for c in match.round.state().hands[seat]))
                assert left.get(seat, held) == held, f"seat {seat}'s hand changed between its turns"
                checked += seat in left
            action = rng.choice(match.legal_actions())
            match.apply(action)
            if not match.is_over and match.hands_dealt == hand_no and not match.pending_buyback:
                left[seat] = tuple(sorted(int(c) for c in match.round.state().hands[seat]))
    assert checked > 300  # seats' hands compared across other seats' turns, not a vacuous pass
