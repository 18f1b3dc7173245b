"""The ``openspiel-simple`` bot kind and the vs-OpenSpiel benchmark (skipped without ``pyspiel``)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import rummykit as rk
from rummykit.arena import ArenaConfig, run_arena
from rummykit.bots import GreedyBot, UnknownBotError, make_bot
from rummykit.bots.openspiel_simple import NotOpenSpielGinError, OpenSpielSimpleBot, openspiel_history
from rummykit.interop.openspiel_gin import action_id, openspiel_params, round_from_deal, to_action

GIN = rk.Rules.preset("gin")


def test_a_clear_error_without_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(UnknownBotError, match="pip install open-spiel"):
        make_bot("openspiel-simple")


def _rebuilt_matches(pyspiel: Any, game: Any, state: Any, view: rk.PlayerView, player: int) -> None:
    """The state rebuilt from the view shows the player what the real state shows."""
    rebuilt = game.new_initial_state()
    for a in openspiel_history(view):
        rebuilt.apply_action(a)
    assert rebuilt.current_player() == player
    assert rebuilt.observation_tensor(player) == state.observation_tensor(player)
    assert rebuilt.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("mode", ["greedy", "random"])
def test_rebuilt_states_show_the_bot_exactly_its_observation(mode: str) -> None:
    """OpenSpiel referee, a rummykit round in step: at every decision of either player the state
    rebuilt from the rummykit view has the same observation tensor and legal actions."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy", openspiel_params(GIN))
    phases: set[str] = set()
    for deal in range(12 if mode == "greedy" else 6):
        deck = list(range(52))
        random.Random(deal).shuffle(deck)
        state = game.new_initial_state()
        mirror = round_from_deal(deck, GIN)
        cards = iter(deck)
        rng = random.Random(deal)
        simple = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), deal % 2)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(next(cards))
                continue
            player = state.current_player()
            view = mirror.view(player)
            phases.add(view.phase.value)
            _rebuilt_matches(pyspiel, game, state, view, player)
            if mode == "random":
                move = rng.choice(state.legal_actions())
                action = to_action(move, mirror)
            elif player == deal % 2:
                move = simple.step(state)
                action = to_action(move, mirror)
            else:
                action = GreedyBot().choose(view, mirror.legal_actions(), rng)
                move = action_id(action)
            mirror.apply(action)
            state.apply_action(move)
    if mode == "greedy":
        assert {"first_upcard", "draw", "discard", "knock", "layoff"} <= phases


def test_openspiel_simple_plays_in_the_arena() -> None:
    pytest.importorskip("pyspiel")
    result = run_arena(ArenaConfig("gin", ("greedy", "openspiel-simple"), rounds=6, seed=3), workers=1)
    figures = result.to_dict()["bots"]
    assert result.games == 6 and set(figures) == {"greedy", "openspiel-simple"}
    assert figures["greedy"]["mean_points"] == -figures["openspiel-simple"]["mean_points"]


def test_openspiel_simple_refuses_other_games() -> None:
    pytest.importorskip("pyspiel")
    rnd = rk.Round.new(rk.Rules.preset("viennese"), 2, seed=1)
    with pytest.raises(NotOpenSpielGinError):
        OpenSpielSimpleBot().choose(rnd.view(rnd.to_move), rnd.legal_actions(), random.Random(0))


def _load(path: Path, name: str) -> Any:
    """The module at ``path`` (a benchmark script or a test module), imported once as ``name``."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while it runs
        spec.loader.exec_module(module)
    return sys.modules[name]


def _vs_openspiel() -> Any:
    return _load(Path(__file__).resolve().parent.parent / "benchmarks" / "vs_openspiel.py", "vs_openspiel")


def test_vs_openspiel_smoke_game_with_seats_swapped() -> None:
    pytest.importorskip("pyspiel")
    bench = _vs_openspiel()
    outcomes = bench.run("greedy", "gin", games=4, seed=7, workers=1)
    assert [(o.deal, o.player) for o in outcomes] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert not any(o.mismatch for o in outcomes)
    assert all(o.moves > 0 and o.opponent_moves > 0 for o in outcomes)
    figures = bench.summary("greedy", outcomes)
    assert figures["games"] == 4 and figures["wins"] + figures["losses"] + figures["draws"] == 4
    assert figures["ci95"][0] <= figures["win_rate"] <= figures["ci95"][1]
    assert sum(figures["endings"].values()) == 4
    kinds = {f"{side} {kind}" for side in ("own", "opp") for kind in ("gin", "knock", "undercut")}
    assert all(o.ending in kinds | {"dead"} for o in outcomes)
    assert all(o.ending.startswith("opp") for o in outcomes if o.knock_after_take)
    assert outcomes[0].knock_after_take  # deal 0: OpenSpiel's bot goes gin in the turn it takes the upcard
    assert figures["opponent_knocks_after_take"] == sum(o.knock_after_take for o in outcomes)


def test_vs_openspiel_duel_specs_play_and_peek_only_where_asked() -> None:
    pytest.importorskip("pyspiel")
    bench = _vs_openspiel()
    runs = {}
    for spec in ("search:easy+duel", "search:easy+peek", "search:easy+peek-all", "search:easy+pf-race"):
        outcomes = bench.run(spec, "gin", games=2, seed=7, workers=1)
        assert len(outcomes) == 2 and not any(o.mismatch for o in outcomes), spec
        runs[spec] = outcomes
    # Paired on the same games: a bot against itself differs by nothing.
    same = bench.paired(runs["search:easy+duel"], runs["search:easy+duel"])
    assert same["win_rate"] == [0.0, 0.0, 0.0] and same["points"] == [0.0, 0.0, 0.0]
    spread = bench.paired(runs["search:easy+peek"], runs["search:easy+duel"])
    assert spread["points"][1] <= spread["points"][0] <= spread["points"][2]
    mirror = rk.Round.new(rk.Rules.preset("gin"), 2, seed=3)
    assert bench.build_bot("search:easy+distilled", mirror).distilled is True
    assert bench.build_bot("search:hard+race", mirror).distilled is False
    assert bench.build_bot("search:hard", mirror).gin_search.distilled is True
    audited = bench.run("search:easy+pf-audit", "gin", games=2, seed=7, workers=1)
    reading = bench.summary("search:easy+pf-audit", audited)["reading"]
    assert reading["decisions"] > 0 and 0.0 < reading["particles"] < 1.0 and 0.0 < reading["sampled"] < 1.0
    against_greedy = bench.run("search:easy+pf", "gin", games=2, seed=7, workers=1, opponent="greedy")
    assert len(against_greedy) == 2 and not any(o.mismatch for o in against_greedy)
    mirror = rk.Round.new(rk.Rules.preset("gin"), 2, seed=3)
    view = mirror.view(0)
    peek = bench.build_bot("search:easy+peek-all", mirror).opponents
    [(theirs, stock, weight)] = peek(view, random.Random(0), 5)
    assert theirs == [int(c) for c in mirror.hands[1].cards()] and weight == 1.0
    top_first = [int(c) for c in reversed(mirror.stock)]
    assert stock == top_first[: view.stock_size - 2]  # the wall's two cards are not drawn
    assert len(bench.build_bot("search:easy+peek", mirror).opponents(view, random.Random(0), 5)) == 5
    with pytest.raises(ValueError, match="duel suffix"):
        bench.build_bot("greedy+peek", mirror)
    with pytest.raises(ValueError, match="duel suffix"):
        bench.build_bot("search+look", mirror)


def test_vs_openspiel_names_how_a_game_ended() -> None:
    ending = _vs_openspiel().ending
    assert ending(0.0, None, 0, False) == "dead"
    assert ending(12.0, 0, 0, False) == "own knock"
    assert ending(-20.0, 0, 0, False) == "own undercut"  # the knocker lost
    assert ending(35.0, 1, 1, True) == "own gin"
    assert ending(-9.0, 1, 0, False) == "opp knock"
    assert ending(27.0, 1, 0, False) == "opp undercut"
    assert ending(-40.0, 0, 1, True) == "opp gin"


def test_a_knock_at_the_wall_is_rebuilt_for_the_knocker() -> None:
    """OpenSpiel's knock at the wall takes the upcard itself: the bot knocks there, and its next
    decisions (discard, melds, pass) are asked on states reached that way."""
    pytest.importorskip("pyspiel")
    from rummykit.actions import KnockDeclare
    from rummykit.interop.openspiel_gin import legal_action_ids

    helpers = _load(Path(__file__).resolve().parent / "test_bots_gin.py", "gin_bot_tests")
    rnd = helpers._to_the_wall("AC 4D 5D 6D 7S 8S 9S 10S JS KS", "7H 8H 2S 3S 4S QD QC QH 3D 2C", "9H")
    bot = OpenSpielSimpleBot()
    assert bot.choose(rnd.view(1), rnd.legal_actions(), random.Random(0)) == KnockDeclare()
    rnd.apply(KnockDeclare())
    while not rnd.is_over and rnd.to_move == 1:
        view = rnd.view(1)
        assert sorted(bot.state(view).legal_actions()) == legal_action_ids(rnd)
        rnd.apply(bot.choose(view, rnd.legal_actions(), random.Random(0)))
    assert rnd.phase.value == "layoff"
