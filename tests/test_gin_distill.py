"""The distilled gin discard: features read from arranged deals, the fitted model's choices, the bot
option, and the rows of the data collector."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.actions import Action, Discard
from rummykit.bots.gin_distill import (
    DISCARD_WEIGHTS,
    FEATURES,
    Reading,
    discard_features,
    distilled_choice,
    read_history,
    scores,
)
from rummykit.bots.gin_particles import ParticleReader
from rummykit.bots.gin_search import GinSearchBot, race_choice
from rummykit.interop.openspiel_gin import round_from_deal
from rummykit.rules import Rules
from rummykit.views import Phase

GIN = Rules.preset("gin")
TESTS = Path(__file__).resolve().parent


def _load(path: Path, name: str) -> Any:
    """The module at ``path`` (a benchmark script or a test module), imported once as ``name``."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


arranged = _load(TESTS / "test_gin_particles.py", "test_gin_particles")
card, cards, took_seven_passed_eight = arranged.card, arranged.cards, arranged.took_seven_passed_eight


def named(row: list[float]) -> dict[str, float]:
    return dict(zip(FEATURES, row, strict=True))


def test_taken_passed_and_thrown_cards_mark_their_neighbours() -> None:
    # Seat 1 passed the first upcard 8S, took seat 0's 7H and threw the KS.
    rnd, reader = took_seven_passed_eight()
    view = rnd.view(0)
    reading = read_history(view, reader.history)
    assert reading == Reading(frozenset({card("7H")}), frozenset({card("8S")}), (card("KS"),))
    picked = cards("8H 7S 8C QS 4D")
    n = len(picked)
    rows = [
        named(r)
        for r in discard_features(
            view, picked, [0.5] * n, [0.1] * n, [0.0] * n, reading, [0.4] * n, [0.3] * n
        )
    ]
    eight_h, seven_s, eight_c, queen_s, four_d = rows
    assert eight_h["taken_run"] == 1.0 and eight_h["taken_set"] == 0.0  # the 7H's neighbour in hearts
    assert eight_h["passed_set"] == 1.0  # an eight, the rank of the passed 8S
    assert seven_s["taken_set"] == 1.0 and seven_s["taken_run"] == 0.0
    assert eight_c["passed_set"] == 1.0 and eight_c["taken_run"] == 0.0
    assert queen_s["thrown_run"] == 1.0 and queen_s["passed_run"] == 0.0  # KS thrown; 8S is four ranks away
    assert all(v == 0.0 for k, v in four_d.items() if k.startswith(("taken", "passed", "thrown")))
    # Its last discard was a king (10 points): nothing ranks above it, and it is not low.
    assert all(r["above_last"] == 0.0 and r["low_last_feed"] == 0.0 for r in rows)
    # Without a readable history only the known (taken) cards remain.
    assert read_history(view, None) == Reading(frozenset({card("7H")}))


def test_a_low_last_discard_scales_the_charges_and_marks_higher_cards() -> None:
    rnd, _ = took_seven_passed_eight()
    view = rnd.view(0)
    reading = Reading(thrown=(card("KS"), card("3C")))  # the opponent's last discard: a three
    picked = cards("5D AS")
    five, ace = (
        named(r)
        for r in discard_features(
            view, picked, [0.6, 0.4], [0.5, 0.2], [0.25, 0.0], reading, [0.45, 0.55], [0.35, 0.5]
        )
    )
    assert five["above_last"] == 1.0 and ace["above_last"] == 0.0
    assert five["low_last_feed"] == pytest.approx(0.7 * 0.5) and ace["low_last_feed"] == pytest.approx(
        0.7 * 0.2
    )
    assert five["low_last_race"] == pytest.approx(0.7 * 0.6) and five["low_last_knock"] == pytest.approx(
        0.7 * 0.25
    )
    assert five["value"] == 0.5 and ace["value"] == 0.1
    assert (five["duel"], five["pf_duel"], ace["duel"], ace["pf_duel"]) == (0.45, 0.35, 0.55, 0.5)
    assert five["rank_order"] == 0.0 and ace["rank_order"] == 0.1
    late = 1.0 - view.stock_size / 31
    assert five["late_race"] == pytest.approx(late * 0.6) and five["late_feed"] == pytest.approx(late * 0.5)


def test_the_fitted_model_prefers_the_quicker_race_and_shuns_feeding_a_close_opponent() -> None:
    assert len(DISCARD_WEIGHTS) == len(FEATURES)
    w = named(list(DISCARD_WEIGHTS))
    assert w["race"] > 0 and w["duel"] > 0 and w["pf_duel"] > 0 and w["low_last_feed"] < 0
    base = {name: 0.0 for name in FEATURES} | {"race": 0.5, "value": 0.5, "duel": 0.5, "pf_duel": 0.5}
    quick = base | {"race": 0.55}
    decision = [[d[name] for name in FEATURES] for d in (base, quick)]
    assert distilled_choice(decision) == 1 and scores(decision)[1] > scores(decision)[0]
    # The opponent's last discard was a two (low: 0.8); the race prefers the quicker discard although
    # the opponent melds it in half the sampled hands; the model keeps it.
    risky = base | {"race": 0.56, "feed": 0.5, "low_last_feed": 0.8 * 0.5, "low_last_race": 0.8 * 0.56}
    safe = base | {"race": 0.50, "feed": 0.1, "low_last_feed": 0.8 * 0.1, "low_last_race": 0.8 * 0.50}
    pair = [[d[name] for name in FEATURES] for d in (risky, safe)]
    assert race_choice([0.56, 0.50], [0.5, 0.1]) == 0
    assert distilled_choice(pair) == 1
    # Without the low discard the quicker race wins in the model too.
    calm = [
        [d[name] for name in FEATURES]
        for d in (risky | {"low_last_feed": 0.0}, safe | {"low_last_feed": 0.0})
    ]
    assert distilled_choice(calm) == 0


def test_the_option_picks_the_models_candidate() -> None:
    """Over the discards of dealt hands, the distilled bot plays the model's choice among the race's
    candidates, which differs from the race's somewhere; on by default at medium and hard."""
    assert GinSearchBot("easy").distilled is False
    assert GinSearchBot("medium").distilled is True and GinSearchBot("hard").distilled is True
    assert GinSearchBot("hard", reader=ParticleReader()).distilled is False
    differ = 0
    for seed in range(12):
        rnd = round_from_deal(
            list(range(52)) if seed == 0 else random.Random(seed).sample(range(52), 52), GIN
        )
        for action in ("pass", "pass", "draw"):
            rnd.apply(Action.parse(action))
        view = rnd.view(rnd.to_move)
        assert view.phase is Phase.DISCARD
        legal = rnd.legal_actions()
        reference = GinSearchBot("easy", distilled=True)
        picked = reference.discard_candidates(view, legal)
        rng = random.Random(seed)
        chances, feeds = reference.race_values(view, picked, rng)
        features = reference.distilled_features(view, picked, chances, feeds, rng)
        model = picked[distilled_choice(features)]
        race = picked[race_choice(chances, feeds)]
        # The bots draw the same stocks from the same seed, so their values are these.
        distilled = GinSearchBot("easy", distilled=True).gin_discard(view, legal, random.Random(seed))
        assert distilled == Discard(model)  # type: ignore[arg-type]
        assert GinSearchBot("easy").gin_discard(view, legal, random.Random(seed)) == Discard(race)  # type: ignore[arg-type]
        differ += model != race
    assert differ > 0


def test_the_bot_scores_with_the_weights_it_is_given() -> None:
    """A bot given other coefficients plays their choice among the same candidates (somewhere not the
    default model's); a vector of the wrong length is refused."""
    assert GinSearchBot("hard").weights == DISCARD_WEIGHTS
    with pytest.raises(ValueError):
        GinSearchBot("hard", weights=DISCARD_WEIGHTS[:-1])
    highest = [1.0 if name == "value" else 0.0 for name in FEATURES]  # throw the costliest card
    differ = 0
    for seed in range(8):
        rnd = round_from_deal(random.Random(100 + seed).sample(range(52), 52), GIN)
        for action in ("pass", "pass", "draw"):
            rnd.apply(Action.parse(action))
        view, legal = rnd.view(rnd.to_move), rnd.legal_actions()
        reference = GinSearchBot("easy", distilled=True)
        picked = reference.discard_candidates(view, legal)
        rng = random.Random(seed)
        chances, feeds = reference.race_values(view, picked, rng)
        features = reference.distilled_features(view, picked, chances, feeds, rng)
        chosen = picked[distilled_choice(features, highest)]
        assert chosen == max(picked, key=lambda c: (GIN.card_points(c), -picked.index(c)))
        bot = GinSearchBot("easy", distilled=True, weights=highest)
        assert bot.gin_discard(view, legal, random.Random(seed)) == Discard(chosen)  # type: ignore[arg-type]
        differ += chosen != picked[distilled_choice(features)]
    assert differ > 0


def test_the_collector_writes_consistent_rows(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    bench = _load(
        Path(__file__).resolve().parent.parent / "benchmarks" / "gin_distill.py", "gin_distill_bench"
    )
    out = tmp_path / "rows.jsonl"
    assert bench.main(["collect", "--games", "2", "--seed", "7", "--level", "easy", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and {(r["deal"], r["player"]) for r in rows} == {(0, 0), (0, 1)}
    for r in rows:
        k = len(r["cards"])
        assert k >= 2 and len(set(r["cards"])) == k
        assert len(r["features"]) == k == len(r["teacher"]) and all(
            len(f) == len(FEATURES) for f in r["features"]
        )
        assert all(0.0 <= v <= 1.0 for v in r["teacher"])
        races = [f[FEATURES.index("race")] for f in r["features"]]
        feeds = [f[FEATURES.index("feed")] for f in r["features"]]
        assert r["race"] == race_choice(races, feeds)  # the label of the race is its own rule
        assert [f[FEATURES.index("rank_order")] for f in r["features"]] == pytest.approx(
            [i / 10 for i in range(k)]
        )
    x, mask, values, best, race = bench.arrays(rows)
    assert len(race) == len(x) and all(mask[n, r] for n, r in enumerate(race))
    assert (values[best] >= values.max(axis=1).repeat(best.sum(axis=1)) - 1e-9).all()
    assert x.shape[1:] == (mask.shape[1], len(FEATURES)) and (best <= mask).all() and best.any(axis=1).all()


def test_a_fresh_copy_that_recalls_the_hand_decides_as_the_bot_that_played_it() -> None:
    """The web server decides in worker processes, each from a copy of the bot that has not seen the
    hand: :func:`~rummykit.bots.base.match_action` makes it recall the hand first, and it then
    chooses what the bot that played along chooses, on the same random numbers."""
    import copy

    from rummykit.bots.base import match_action
    from rummykit.bots.greedy import GreedyBot
    from rummykit.match import Match

    played_along = GinSearchBot("medium")
    fresh = copy.deepcopy(played_along)
    match = Match.new(Rules.preset("gin"), 2, seed=5)
    opponent = GreedyBot()
    decisions = differences = 0
    while not match.round.is_over:
        seat = match.to_move
        if seat == 0:
            along = played_along.choose(match.round.view(0), match.legal_actions(), random.Random(decisions))
            recalled = match_action(copy.deepcopy(fresh), match, random.Random(decisions))
            differences += along != recalled
            decisions += 1
            action = along
        else:
            action = opponent.choose(match.round.view(1), match.legal_actions(), random.Random(7))
        match.apply(action)
    assert decisions >= 8
    assert differences == 0
    assert played_along.tracker is not None and not played_along.tracker.history.broken
