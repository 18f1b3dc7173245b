"""Bots: legality over many states, greedy strength against random, search reading only the view."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rummykit as rk
from rummykit import Card, parse_cards, solver
from rummykit.actions import BuyBack, Decline, Discard, Draw, TakeDiscard
from rummykit.bots import (
    Budget,
    GreedyBot,
    MatchView,
    RandomBot,
    SearchBot,
    UnknownBotError,
    make_bot,
    match_action,
)
from rummykit.bots.greedy import Situation, best_discard, buyback_pays, discard_scores, policy_action
from rummykit.determinize import sample_round
from rummykit.i18n.localize import localize_note
from rummykit.rules import Rules
from rummykit.testing import arrange_deck

PRESETS = ("german", "viennese")
TINY = Budget(determinizations=2, horizon=2, candidates=2)


def _random_states(preset: str, count: int, seed: int) -> list[rk.Round]:
    """Rounds part-way through random play (a mix of draw, play and discard phases)."""
    rules = rk.Rules.preset(preset)
    rng = random.Random(seed)
    states = []
    for i in range(count):
        rnd = rk.Round.new(rules, players=2 + i % 2, seed=seed * 1000 + i)
        for _ in range(rng.randrange(0, 60)):
            if rnd.is_over:
                break
            rnd.apply(rng.choice(rnd.legal_actions()))
        if not rnd.is_over:
            states.append(rnd)
    return states


@pytest.mark.parametrize("preset", ["german", "viennese", "scala40", "gin"])
def test_best_discard_is_the_least_scored_card(preset: str) -> None:
    """The fast discard (solver calls only for melded cards that might win) picks the card that
    scoring every card picks, on random hands with and without a barred card."""
    rules = rk.Rules.preset(preset)
    rng = random.Random(preset)
    deck = list(rk.Round.new(rules, players=2, seed=5).deck)
    size = rules.hand_size_for(2) + 1
    for _ in range(300):
        hand = [int(c) for c in rng.sample(deck, size)]
        allowed = sorted(set(hand))
        if rng.random() < 0.5:
            allowed.remove(rng.choice(allowed))
        scores = discard_scores(hand, rules, allowed)
        assert best_discard(hand, rules, allowed) == min(sorted(scores), key=scores.__getitem__)


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_and_search_return_legal_actions(preset: str) -> None:
    bots = [GreedyBot(), SearchBot(budget=TINY), make_bot("random")]
    for rnd in _random_states(preset, 40, 3):
        legal = rnd.legal_actions()
        for bot in bots:
            choice = bot.choose(rnd.view(rnd.to_move), legal, random.Random(1))
            # SearchBot may open with fewer melds than the listed best opening: legal all the same.
            assert choice in legal or (isinstance(choice, rk.actions.Open) and rnd.is_legal(choice))


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_beats_random_by_a_wide_margin(preset: str) -> None:
    rules = rk.Rules.preset(preset)
    score = 0.0
    games = 0
    for deal in range(6):
        for greedy_seat in (0, 1):
            rnd = rk.Round.new(rules, players=2, seed=deal)
            bots = {greedy_seat: GreedyBot(), 1 - greedy_seat: make_bot("random")}
            rng = random.Random(deal)
            while not rnd.is_over:
                seat = rnd.to_move
                rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rng))
            assert rnd.result is not None
            mine, theirs = rnd.result.points[greedy_seat], rnd.result.points[1 - greedy_seat]
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            games += 1
    assert score / games >= 0.9


def test_make_bot_knows_greedy_and_search_levels() -> None:
    assert make_bot("greedy").name == "greedy"
    assert make_bot("search").name == "search"
    assert (
        make_bot("search", "hard").budget.determinizations
        > make_bot("search", "easy").budget.determinizations
    )
    assert make_bot("search:easy").name == "search:easy"
    assert make_bot(" Search : Hard ").name == "search:hard"  # as typed in a --bots list


def test_a_registered_kind_is_found_whatever_its_case() -> None:
    from rummykit.bots import _FACTORIES, register_bot

    register_bot(" MyBot ", lambda level: GreedyBot())
    try:
        assert isinstance(make_bot("mybot"), GreedyBot) and isinstance(make_bot("MYBOT"), GreedyBot)
        for bad in ("", "my:bot", "a,b"):
            with pytest.raises(ValueError, match="a bot kind is a word"):
                register_bot(bad, lambda level: GreedyBot())
    finally:
        del _FACTORIES["mybot"]


@pytest.mark.parametrize("preset", PRESETS)
def test_search_needs_only_the_view(preset: str) -> None:
    """The bot gets a view and nothing else; the real round is never reachable from it."""
    rnd = _random_states(preset, 5, 11)[0]
    view = rnd.view(rnd.to_move)
    legal = rnd.legal_actions()
    real_hands = [tuple(h) for h in rnd.hands]
    bot = SearchBot(budget=TINY)
    a1 = bot.choose(view, legal, random.Random(4))
    a2 = SearchBot(budget=TINY).choose(view, legal, random.Random(4))
    assert a1 == a2 and rnd.is_legal(a1)  # deterministic for a seeded rng
    assert [tuple(h) for h in rnd.hands] == real_hands  # the real round was not touched
    world = sample_round(view, random.Random(0))
    assert tuple(sorted(world.hands[view.seat])) == tuple(sorted(view.hand))


def test_search_prefers_knocking_and_rummy() -> None:
    rules = rk.Rules.preset("viennese")
    for rnd in _random_states("viennese", 60, 5):
        legal = rnd.legal_actions()
        calls = [a for a in legal if isinstance(a, (rk.actions.CallRummy, rk.actions.Knock))]
        if calls and rnd.knocker is None:
            choice = SearchBot(budget=TINY).choose(rnd.view(rnd.to_move), legal, random.Random(0))
            assert type(choice) in (rk.actions.CallRummy, rk.actions.Knock)
    assert rules.is_knock_game


def test_policy_builds_legal_actions_in_playouts() -> None:
    """Without a legal list the greedy policy builds actions the engine accepts."""
    accepted = tried = 0
    for preset in PRESETS:
        for rnd in _random_states(preset, 30, 8):
            action = policy_action(Situation.from_round(rnd), quick=True)
            tried += 1
            accepted += rnd.is_legal(action)
    assert accepted == tried


def test_buyback_decision_reads_match_view() -> None:
    rules = rk.Rules.preset("viennese")
    m = rk.Match.new(rules, players=3, seed=1, position=rk.match.MatchPosition(totals=(90, 40, 30), pot=15))
    mv = MatchView.of(m, 0)
    assert mv.buyback_target == 40 and buyback_pays(mv)
    close = MatchView.of(
        rk.Match.new(rules, players=3, seed=1, position=rk.match.MatchPosition(totals=(90, 88, 30))), 0
    )
    assert close.buyback_target == 88 and not buyback_pays(close)
    assert GreedyBot().choose_match(mv, [BuyBack(), Decline()], random.Random(0)) == BuyBack()


def test_match_action_plays_a_whole_viennese_match() -> None:
    m = rk.Match.new(rk.Rules.preset("viennese"), players=2, seed=3)
    bots = [GreedyBot(), make_bot("random")]
    rng = random.Random(0)
    while not m.is_over:
        m.apply(match_action(bots[m.to_move], m, rng))
    assert m.winners


def test_search_levels_are_iteration_budgets() -> None:
    budgets = [make_bot("search", level).budget for level in ("easy", "medium", "hard")]
    assert all(b.time_limit is None for b in budgets)
    assert [b.determinizations for b in budgets] == sorted(b.determinizations for b in budgets)
    assert budgets[0].horizon <= budgets[1].horizon <= budgets[2].horizon


@pytest.mark.parametrize("preset", PRESETS)
def test_search_is_deterministic_and_counts_its_playouts(preset: str) -> None:
    bot = SearchBot(budget=Budget(determinizations=6, horizon=4, candidates=3))
    for rnd in _random_states(preset, 12, 23):
        view = rnd.view(rnd.to_move)
        legal = rnd.legal_actions()
        again = SearchBot(budget=bot.budget).choose(view, legal, random.Random(5))
        assert bot.choose(view, legal, random.Random(5)) == again
    assert bot.searches > 0 and bot.playouts >= 6 * bot.searches


def test_time_limit_caps_a_decision() -> None:
    """A one-sample time limit still yields a legal move (the first sample always completes)."""
    bot = SearchBot(budget=Budget(determinizations=10_000, horizon=8, candidates=6, time_limit=0.0))
    for rnd in _random_states("viennese", 10, 31):
        legal = rnd.legal_actions()
        assert bot.choose(rnd.view(rnd.to_move), legal, random.Random(0)) in legal
    assert bot.playouts < 10_000


KNOCKER = "2H 3H 4H 5C 5D 5S 9S 10S JS 2D"  # deadwood 2: knocks with the dealer's 11th card
UNLINKED = "3C 7C JC 5D KD 2H 6H 10H 4S 8S"  # no melds, no partial melds: deadwood 65


def _after_knock(hand: str, extra: str, stock: str = "") -> rk.Round:
    """A Viennese deal in which the dealer (seat 0) knocks at once; seat 1 has its extra turn."""
    rules = rk.Rules.preset("viennese")
    deck = arrange_deck(rules, 2, [KNOCKER, hand], extra=extra, stock=stock)
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=0, seed=1)
    rnd.apply(f"knock {extra}")
    assert rnd.knocker == 0 and rnd.to_move == 1
    return rnd


def test_last_turn_draws_when_the_stock_promises_more_than_the_discard() -> None:
    # Taking 9D for a ten lowers the deadwood by 1 (greedy takes it); a stock card lowers it by
    # about 3 on average, and the hand is scored at the showdown whatever happens.
    rnd = _after_knock(UNLINKED, extra="9D")
    view, legal = rnd.view(1), rnd.legal_actions()
    assert GreedyBot().choose(view, legal, random.Random(0)) == TakeDiscard()
    assert SearchBot(budget=TINY).choose(view, legal, random.Random(0)) == Draw()


def test_last_turn_takes_a_discard_that_melds() -> None:
    rnd = _after_knock("3C 7C JC 7D KD 2H 6H 10H 4S 8S", extra="7S")  # 7S completes a set of sevens
    choice = SearchBot(budget=TINY).choose(rnd.view(1), rnd.legal_actions(), random.Random(0))
    assert choice == TakeDiscard()


def test_last_turn_discards_for_the_least_deadwood_not_for_links() -> None:
    # After drawing KS: greedy keeps the pair QS KS (a partial run) and sheds 9C (57 left);
    # at the showdown only the deadwood counts, so a ten-point card goes (56 left).
    rnd = _after_knock("2C 2C 6C 9C 3D 7D 4H 8H 5S QS", extra="AD", stock="KS")
    rnd.apply("draw")
    view, legal = rnd.view(1), rnd.legal_actions()
    greedy = GreedyBot().choose(view, legal, random.Random(0))
    assert greedy == Discard(Card.parse("9C"))
    choice = SearchBot(budget=TINY).choose(view, legal, random.Random(0))
    assert isinstance(choice, Discard) and choice.card in parse_cards("QS KS")
    rest = [c for c in view.hand]
    rest.remove(choice.card)
    assert solver.min_deadwood(rest, view.rules) == 56


def test_only_the_leveled_kinds_play_differently_by_level() -> None:
    """``LEVELED_KINDS`` is what the lobby offers a level for: random and greedy choose the same move
    at every level (same position, same random stream); a search at ``easy`` and at ``hard`` differ
    in effort, so across some positions their choices differ."""
    from rummykit.bots import BOT_LEVELS, LEVELED_KINDS

    assert {"search", "search-v1"} == LEVELED_KINDS
    match = rk.Match.new(rk.Rules.preset("viennese"), 2, seed=21)
    driver = GreedyBot()
    rng = random.Random(21)
    positions = []
    while not match.is_over and len(positions) < 40:
        view, legal = match.round.view(match.to_move), match.legal_actions()
        if len(legal) > 2:
            positions.append((view, legal))
        match.apply(driver.choose(view, legal, rng))
    for kind in ("random", "greedy"):
        choices: dict[str, list[object]] = {}
        for level in BOT_LEVELS:
            bot = make_bot(kind, level)
            choices[level] = [bot.choose(v, ms, random.Random(i)) for i, (v, ms) in enumerate(positions)]
        assert choices["easy"] == choices["medium"] == choices["hard"], kind
    easy, hard = make_bot("search-v1", "easy"), make_bot("search-v1", "hard")
    assert any(
        easy.choose(v, legal, random.Random(i)) != hard.choose(v, legal, random.Random(i))
        for i, (v, legal) in enumerate(positions)
    )


def test_a_bot_is_named_with_its_level_only_where_the_level_matters() -> None:
    """The terminal names its bots ``greedy`` and ``search:hard``: a level that changes nothing is not
    shown, and a kind registered from outside keeps the level it was given."""
    from rummykit.bots import bot_label

    assert bot_label("greedy:medium") == "greedy" and bot_label("random:hard") == "random"
    assert bot_label("search:hard") == "search:hard" and bot_label("search-v1:easy") == "search-v1:easy"
    assert bot_label("policy:medium") == "policy"
    assert bot_label("openspiel-simple:medium") == "openspiel-simple"
    assert bot_label("mybot:hard") == "mybot:hard" and bot_label("search") == "search"


def _greedy_hand(rules_name: str, players: int, seed: int, cap: int) -> tuple[rk.Round, int, list[bool]]:
    """A greedy-only hand played for at most ``cap`` actions (so a loop fails the test instead of
    hanging it): the round, the actions played, and per knock-game take whether it left the taker's
    least deadwood lower than before its draw (or ended the hand)."""
    rules = rk.Rules.preset(rules_name)
    rnd = rk.Round.new(rules, players=players, seed=seed)
    bots = [GreedyBot() for _ in range(players)]
    rng = random.Random(seed)
    lowered: list[bool] = []
    actions = 0
    while not rnd.is_over and actions < cap:
        seat = rnd.to_move
        action = bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rng)
        if isinstance(action, TakeDiscard):
            before = solver.min_deadwood(list(rnd.hands[seat]), rules)
            rnd.apply(action)
            actions += 1
            seat_after = rnd.to_move
            follow = bots[seat_after].choose(rnd.view(seat_after), rnd.legal_actions(), rng)
            rnd.apply(follow)
            actions += 1
            after = solver.min_deadwood(list(rnd.hands[seat]), rules)
            lowered.append(rnd.is_over or not isinstance(follow, Discard) or after < before)
            continue
        rnd.apply(action)
        actions += 1
    return rnd, actions, lowered


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("viennese", 2, 31), ("viennese", 2, 50), ("romme_ohne_auslegen", 2, 101)],
)
def test_greedy_pair_no_longer_passes_the_same_discards_forever(
    rules_name: str, players: int, seed: int
) -> None:
    # These deals used to loop: greedy took every discard that some discard would better, then shed
    # by its partial-meld charges, so the same few cards went round and round and nobody drew.
    rnd, actions, lowered = _greedy_hand(rules_name, players, seed, cap=2000)
    assert rnd.is_over and actions < 300
    assert all(lowered)


def test_every_greedy_take_lowers_its_deadwood_in_the_knock_games() -> None:
    # The anti-cycle rule (greedy.knock_takes): a take that does not end the hand leaves the taker
    # with less deadwood after its discard, so runs of takes are finite.
    for rules_name in ("viennese", "romme_ohne_auslegen"):
        for players in (2, 3, 4):
            for seed in range(6):
                rnd, actions, lowered = _greedy_hand(rules_name, players, seed, cap=2000)
                assert rnd.is_over and actions < 400
                assert all(lowered), (rules_name, players, seed)


class _Recalling(GreedyBot):
    """A bot that asks for its past at every decision and keeps what it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[object] = []

    def recalls(self, view: rk.PlayerView) -> bool:
        return True

    def recall(self, past: object) -> None:
        self.given.append(past)


def test_a_recalling_bot_is_shown_its_own_views_and_actions_never_the_round() -> None:
    """``match_action`` gave a bot with a ``recall`` method the true round (every hand, the stock and
    its reshuffle generator); it now gives the seat's earlier views and actions, which a bot that
    played along saw anyway, and a bot whose ``recall`` is a plain field is left alone."""
    from rummykit.views import PlayerView

    m = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3)
    bot, rng = _Recalling(), random.Random(3)
    played: list[tuple[PlayerView, object]] = []
    while not m.round.is_over:
        seat = m.to_move
        action = match_action(bot if seat == 0 else GreedyBot(), m, rng)
        if seat == 0:
            assert bot.given[-1] == played  # exactly the views it decided from, and its actions
            played.append((m.round.view(0), action))
        m.apply(action)
    assert len(bot.given) >= 5
    assert all(isinstance(v, PlayerView) and v.seat == 0 for past in bot.given for v, _ in past)  # type: ignore[attr-defined]

    class Field(GreedyBot):
        recall = 0.5
        follow_match = "off"

    m = rk.Match.new(rk.Rules.preset("viennese"), 2, seed=3)
    assert match_action(Field(), m, rng) in m.legal_actions()


def test_without_the_rl_extra_the_policy_bot_and_the_envs_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A core install answered ``unknown bot 'policy'`` and a bare ``No module named 'gymnasium'``."""
    import subprocess
    import sys

    import rummykit.bots as bots

    real = bots.find_spec
    monkeypatch.setattr(bots, "find_spec", lambda name: None if name == "gymnasium" else real(name))
    with pytest.raises(bots.UnknownBotError, match=r"needs the rl extra \(gymnasium missing\): pip install"):
        make_bot("policy")
    code = "import sys; sys.modules['gymnasium'] = None\nfrom rummykit.envs import rummy_v0"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    wanted = "rummykit.envs needs the rl extra (gymnasium is missing): pip install 'rummykit[rl]'"
    assert wanted in result.stderr


def _install_plugin(folder: Path) -> None:
    """A distribution on ``folder`` that offers the bot kind ``firstlegal`` (rummykit.bots group)."""
    (folder / "firstlegal_bot.py").write_text(
        "class FirstLegal:\n"
        "    name = 'firstlegal'\n"
        "    def choose(self, view, legal, rng):\n"
        "        return legal[-1]\n"
        "def make(level=None, **options):\n"
        "    return FirstLegal()\n",
        encoding="utf-8",
    )
    info = folder / "firstlegal_bot-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: firstlegal-bot\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[rummykit.bots]\nfirstlegal = firstlegal_bot:make\n")


def test_an_installed_package_offers_a_bot_kind_to_the_arena_and_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot author's package declares an entry point in the ``rummykit.bots`` group: ``make_bot``,
    ``rummykit arena --bots`` (whose worker processes load it too) and ``rummykit play --bots`` play
    it like a built-in kind. Before, a kind outside the package was only reachable from Python."""
    import os
    import subprocess
    import sys

    from rummykit.bots import _FACTORIES, bot_kinds

    _install_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "firstlegal" in bot_kinds()
    try:
        bot = make_bot("FirstLegal")
        assert type(bot).__name__ == "FirstLegal"
    finally:
        _FACTORIES.pop("firstlegal", None)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    arena = [sys.executable, "-m", "rummykit", "arena", "--rules", "viennese", "--bots", "firstlegal,random"]
    played = [*arena, "--rounds", "4", "--workers", "2", "--json"]
    result = subprocess.run(played, capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert "firstlegal" in json.loads(result.stdout)["bots"]
    broken = tmp_path / "firstlegal_bot.py"
    broken.write_text("raise ImportError('needs torch')\n", encoding="utf-8")
    result = subprocess.run([*arena, "--rounds", "2"], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 2 and "does not load: needs torch" in result.stderr, result.stderr


def test_an_installed_bot_named_like_a_built_in_one_is_named_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package offering ``greedy`` is not played (rummykit's own greedy bot stays the arena's
    baseline); before, its author saw their bot silently replaced by the built-in one. Now the
    arena, the terminal game (in German too) and ``rummykit info`` say so."""
    import os
    import subprocess
    import sys

    from rummykit.bots import plugin_bots, seat_notices, shadowed_plugins

    _install_plugin(tmp_path)
    entry = tmp_path / "firstlegal_bot-1.0.dist-info" / "entry_points.txt"
    entry.write_text("[rummykit.bots]\nfirstlegal = firstlegal_bot:make\nGreedy = firstlegal_bot:make\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugin_bots() == {"firstlegal": "firstlegal_bot:make", "greedy": "firstlegal_bot:make"}
    assert shadowed_plugins() == {"greedy": "firstlegal_bot:make"}
    assert isinstance(make_bot("greedy"), GreedyBot)
    said = (
        "the bot 'greedy' of the installed package 'firstlegal_bot:make' is not played: 'greedy' is "
        "rummykit's own bot; the package must offer it under another name"
    )
    assert seat_notices(Rules.preset("viennese"), ["greedy:hard", "Greedy", "random"]) == [said]
    assert seat_notices(Rules.preset("viennese"), ["random"]) == []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    arena = [sys.executable, "-m", "rummykit", "arena", "--rules", "viennese", "--bots", "greedy,random"]
    result = subprocess.run([*arena, "--rounds", "2", "--json"], capture_output=True, text=True, env=env)
    assert result.returncode == 0 and said in result.stderr, result.stderr
    info = subprocess.run([sys.executable, "-m", "rummykit", "info"], capture_output=True, text=True, env=env)
    assert "bot firstlegal from firstlegal_bot:make: played" in info.stdout, info.stdout
    assert "bot greedy from firstlegal_bot:make: not played: rummykit's own bot has that name" in info.stdout
    german = (
        "Der Bot 'greedy' des installierten Pakets 'firstlegal_bot:make' wird nicht gespielt: 'greedy' "
        "ist ein Bot von rummykit; das Paket muss ihn unter einem anderen Namen anbieten"
    )
    assert localize_note(said, "de") == german


class _NoLevel:
    """A bot class whose constructor takes no level: what an author naturally registers first."""

    name = "nolevel"

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        return legal[0]


@pytest.mark.parametrize("factory", [_NoLevel, lambda: _NoLevel(), "not callable"])
def test_a_factory_that_cannot_take_a_level_is_refused_when_registered(factory: Any) -> None:
    """A factory is called as ``factory(level)``; one that takes no level (a bot class, ``lambda:
    MyBot()``) was registered without a word and failed in the middle of an arena run with a bare
    ``TypeError`` naming no bot."""
    from rummykit.bots import _FACTORIES, register_bot

    with pytest.raises(TypeError, match="the factory of the bot 'nolevel' "):
        register_bot("nolevel", factory)
    assert "nolevel" not in _FACTORIES
    register_bot("nolevel", lambda level=None, **options: _NoLevel())
    try:
        assert isinstance(make_bot("nolevel:hard"), _NoLevel)
    finally:
        del _FACTORIES["nolevel"]


def test_an_installed_bot_class_without_a_level_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry point naming a bot class whose constructor takes nothing stopped ``rummykit arena``
    with a traceback; now ``make_bot`` says which package's bot and what its factory must take."""
    from rummykit.bots import _FACTORIES

    _install_plugin(tmp_path)
    entry = tmp_path / "firstlegal_bot-1.0.dist-info" / "entry_points.txt"
    entry.write_text("[rummykit.bots]\nfirstlegal = firstlegal_bot:FirstLegal\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        wanted = r"^bot 'firstlegal' of 'firstlegal_bot:FirstLegal': .*called as factory\(level, "
        with pytest.raises(UnknownBotError, match=wanted):
            make_bot("firstlegal")
    finally:
        _FACTORIES.pop("firstlegal", None)


def test_a_built_in_kind_is_replaced_only_on_purpose() -> None:
    """``register_bot("greedy", …)`` replaced the arena's baseline for the whole process without a
    word; now it takes ``replace=True``."""
    from rummykit.bots import _FACTORIES, register_bot

    with pytest.raises(ValueError, match="'greedy' is a built-in bot; give yours another name"):
        register_bot(" Greedy ", lambda level=None: GreedyBot())
    built_in = _FACTORIES["greedy"]
    register_bot("greedy", lambda level=None: RandomBot(), replace=True)
    try:
        assert isinstance(make_bot("greedy"), RandomBot)
    finally:
        _FACTORIES["greedy"] = built_in
    assert isinstance(make_bot("greedy"), GreedyBot)


def test_an_option_a_bot_does_not_take_is_refused_in_one_line() -> None:
    """``make_bot("greedy", x=1)`` raised a bare ``TypeError`` from a lambda and
    ``make_bot("openspiel-simple", x=1)`` ignored ``x``: an option must have an effect or be refused."""
    import rummykit.bots as bots

    with pytest.raises(bots.UnknownBotError, match=r"^the bot 'greedy' does not take the option 'x'$"):
        make_bot("greedy", x=1)
    with pytest.raises(bots.UnknownBotError, match=r"^the bot 'search' does not take the options 'y', 'z'$"):
        make_bot("search:hard", y=2, z=3)
    with pytest.raises(bots.UnknownBotError, match=r"'openspiel-simple' does not take the option 'x'"):
        make_bot("openspiel-simple", x=1)
    with pytest.raises(bots.UnknownBotError, match=r"'policy' does not take the option 'file'"):
        make_bot("policy", file="a.npz")
