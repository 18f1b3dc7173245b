"""Mask exactness: the actions reachable through masked sub-steps are exactly the legal ones.

At thousands of decision points of random rounds of every preset, every path of masked-in tokens is
followed from the start of the decision: each one must end in an action the engine accepts (no
masked-in dead end), every action of ``legal_actions()`` must be reached (no masked-out legal move),
and what is reached beyond ``legal_actions()`` must be a compound opening the engine accepts.
Gin hands are driven partly by the greedy bot so that every gin decision (first upcard, wall, knock,
knock discard, melds one by one, lay-offs and the passes) is among the points checked.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import rummykit as rk
from rummykit.actions import Action, Discard, KnockDeclare, LayOffCard, MeldAction, Open, Pass
from rummykit.bots import make_bot
from rummykit.envs import encoding as enc
from rummykit.envs.game import TokenGame


def reach(composer: enc.Composer) -> tuple[list[Action], int]:
    """Every action reached by stepping only masked-in tokens, and the number of prefixes walked."""
    found: list[Action] = []
    stack = [composer]
    walked = 0
    while stack:
        comp = stack.pop()
        allowed = comp.allowed()
        assert allowed, f"masked-in prefix with no continuation: {comp.tokens}"
        for token in allowed:
            walked += 1
            branch = comp.copy()
            action = branch.step(token)
            if action is not None:
                found.append(action)
            else:
                stack.append(branch)
        for token in range(enc.NUM_TOKENS):
            if token not in allowed:
                assert not comp.is_allowed(token)
    return found, walked


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_masked_sub_steps_reach_exactly_the_legal_actions(preset: str) -> None:
    rng = random.Random(preset)
    rules = rk.Rules.preset(preset)
    greedy = make_bot("greedy")
    decisions = compounds = 0
    hand = 0
    kinds: set[tuple[rk.Phase, type[Action]]] = set()
    while decisions < 700:
        players = rng.randint(max(2, rules.min_players), min(4, rules.max_players))
        game = TokenGame(rules, players)
        game.reset(seed=hand)
        hand += 1
        while not game.is_over and decisions < 700:
            if not game.composer.tokens:
                rnd = game.round
                legal = [enc.canonical(a) for a in rnd.legal_actions()]
                reached, _ = reach(game.composer)
                assert len(reached) == len(set(reached)), "one action, one spelling"
                assert set(legal) <= set(reached), "a legal action is masked out"
                for action in set(reached) - set(legal):
                    assert isinstance(action, Open) and len(action.melds) > 1
                    rnd.check(action)
                    compounds += 1
                for action in reached:
                    rnd.check(action)  # no masked-in dead end
                    kinds.add((rnd.phase, type(action)))
                decisions += 1
                # Greedy reaches knocks, random play rarely; random play reaches the wall.
                if rules.is_gin and hand % 2 and rng.random() < 0.7:
                    game.apply(greedy.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
                    continue
            game.step(rng.choice(game.composer.allowed()))
    assert decisions == 700
    if not rules.is_knock_game and (rules.opening_min_points or 0) > 0:
        assert compounds > 0  # compound openings do occur and are reachable
    if rules.is_gin:
        phase = rk.Phase
        assert {
            (phase.FIRST_UPCARD, Pass), (phase.DISCARD, KnockDeclare), (phase.WALL, Pass),
            (phase.KNOCK, Discard), (phase.KNOCK, MeldAction), (phase.KNOCK, Pass),
            (phase.LAYOFF, LayOffCard), (phase.LAYOFF, Pass), (phase.LAYOFF, MeldAction),
        } <= kinds


def test_done_token_ends_a_meld_that_could_grow() -> None:
    short, long = rk.Action.parse("meld 7C 8C 9C"), rk.Action.parse("meld 7C 8C 9C 10C")
    composer = enc.Composer([short, long, rk.Action.parse("discard 2H")])
    assert composer.allowed() == [enc.MELD, enc.DISCARD]
    assert composer.step(enc.MELD) is None
    for card in ("7C", "8C", "9C"):
        assert composer.step(enc.card_token(rk.Card.parse(card))) is None
    assert composer.allowed() == [enc.card_token(rk.Card.parse("10C")), enc.DONE]
    assert composer.copy().step(enc.DONE) == short
    assert composer.step(enc.card_token(rk.Card.parse("10C"))) == long
    with pytest.raises(ValueError, match="masked out"):
        enc.Composer([short]).step(enc.DRAW)


def test_every_action_kind_has_a_spelling_that_names_it() -> None:
    texts = [
        "draw", "take", "open 10H JH QH | AS AD AC", "meld 7C 8C 9C", "layoff 5H on 2 low",
        "swap 6C on 3 then meld 8D 9D JK", "swap 6C on 3 then layoff JK on 2 high", "discard QS",
        "knock QS", "rummy QS", "buyback", "decline", "pass", "knock", "layoff 5H",
    ]
    for text in texts:
        action = rk.Action.parse(text)
        tokens = enc.tokens_of(action)
        assert enc.Composer([action]).reachable() == [action]
        names = " ".join(enc.token_name(t) for t in tokens)
        assert names.split()[0] == text.split()[0]
        if " on " not in text:  # the tokens read as the notation (a target reads "meld 2")
            assert names == text
        assert all(0 <= t < enc.NUM_TOKENS for t in tokens)


def test_a_verb_offered_alone_and_with_a_card_shares_one_node() -> None:
    # Short spellings only: the one-pass trie; the verb alone and with a card: the general one.
    knock, knock_qs = rk.Action.parse("knock"), rk.Action.parse("knock QS")
    for actions in ([knock, knock_qs], [knock_qs, knock]):
        composer = enc.Composer([*actions, rk.Action.parse("discard 2H")])
        assert composer.allowed() == [enc.DISCARD, enc.KNOCK]
        assert composer.step(enc.KNOCK) is None
        assert composer.allowed() == [enc.card_token(rk.Card.parse("QS")), enc.DONE]
        assert composer.copy().step(enc.DONE) == knock
        assert composer.step(enc.card_token(rk.Card.parse("QS"))) == knock_qs
    short = enc.Composer([rk.Action.parse("discard 2H"), rk.Action.parse("discard 3H"), knock_qs])
    assert short.allowed() == [enc.DISCARD, enc.KNOCK]
    assert short.copy().step(enc.DISCARD) is None
    assert sorted(map(str, short.reachable())) == ["discard 2H", "discard 3H", "knock QS"]


@pytest.mark.parametrize(
    "rules",
    [
        "german", "german_dskv", "scala40", "basic", "german(opening_counts_taken_discard=false)",
        "german(hand_romme_requires_opening_min=false)", "basic(going_out_requires_discard=false)",
        "scala40(opening_scope=single_meld)",
    ],
)
def test_opening_check_judges_collections_of_melds_as_the_engine_plans_them(rules: str) -> None:
    """``MeldingFamily.opening_check`` (what the compound openings are judged by) says of every
    collection of two or three disjoint melds from the hand what ``Round.is_legal`` says."""
    from rummykit import solver
    from rummykit.melding import MELDING_FAMILY

    rule_set = rk.Rules.parse(rules) if "(" in rules else rk.Rules.preset(rules)
    rng = random.Random(rules)
    verdicts = {True: 0, False: 0}
    seed = 0
    while verdicts[True] < 40 or seed < 30:
        assert seed < 400, verdicts
        rnd = rk.Round.new(rule_set, 3, seed=seed)
        seed += 1
        while not rnd.is_over:
            state = rnd.live_state()
            check = MELDING_FAMILY.opening_check(state)
            if rnd.phase is rk.Phase.PLAY and not rnd.has_opened(rnd.to_move):
                assert (check is None) == (state.must_lay is not None)
            else:
                assert check is None
            if check is not None:
                hand = state.hands[rnd.to_move]
                melds = solver.all_melds(hand.cards(), rule_set)
                collections = [(a, b) for i, a in enumerate(melds) for b in melds[i + 1 :]]
                collections += [(*pair, c) for pair in collections[:20] for c in melds]
                for collection in rng.sample(collections, min(60, len(collections))):
                    if not hand.contains_all([c for meld in collection for c in meld]):
                        continue  # not disjoint within the hand
                    ordered = tuple(sorted(collection))
                    verdict = check(ordered)
                    assert verdict == rnd.is_legal(Open(ordered)), (rules, ordered)
                    verdicts[verdict] += 1
            rnd.apply(rng.choice(rnd.legal_actions()))
    if rule_set.opening_min_points:  # without a minimum every such collection may open
        assert verdicts[False] > 0


@pytest.mark.parametrize("preset", ["german", "german_dskv", "scala40", "basic", "viennese"])
def test_a_policy_bot_is_offered_from_its_view_what_the_environment_offers(preset: str) -> None:
    """``view_candidate_actions`` (what ``PolicyBot`` composes its choice from) equals the
    environment's ``candidate_actions`` at every decision, compound openings included: a trained
    policy plays on the choices it was trained on, though the bot sees only its view."""
    rules = rk.Rules.preset(preset)
    players = max(rules.min_players, 3)
    compared = with_openings = 0
    for seed in range(8):
        rnd = rk.Round.new(rules, players, seed=seed)
        rng = random.Random(seed)
        bots = [make_bot("greedy"), make_bot("random")]
        while not rnd.is_over:
            seat = rnd.to_move
            legal = rnd.legal_actions()
            offered = enc.candidate_actions(rnd)
            assert enc.view_candidate_actions(rnd.view(seat), legal) == offered
            compared += 1
            with_openings += len(offered) > len(legal)
            rnd.apply(bots[seat % 2].choose(rnd.view(seat), legal, rng))
    assert compared > 200
    if not rules.is_knock_game:
        assert with_openings > 0  # where the bot's choices differed before: openings of several melds
