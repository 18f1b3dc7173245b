"""The learned discard of the knock games (:mod:`rummykit.bots.distill`) and its data collector.

The arranged heads-up Viennese deal: this seat (seat 0, the dealer with eleven cards) holds 888,
JJJ, 4-6♠, the 4♣ and the 2♣; the opponent (greedy) holds 2-4♥, 99, 5♣ 6♣, 2♦, K♠ and Q♠ (51
deadwood). This seat throws the 4♣: greedy takes it (4-6♣, no knock with 40 left) and throws a
card. Then this seat draws the 7♦ from the stock and decides its discard: the 4♠ has the rank of the
card the opponent took, the 2♣ lies two ranks below it in its suit.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit import Round, Rules, parse_cards, solver
from rummykit.actions import Discard, Draw
from rummykit.arena import ArenaConfig, build_games
from rummykit.bots.distill import (
    BASE_FEATURES,
    FEATURES,
    FeedCount,
    best,
    discard_features,
    model_rows,
    scores,
)
from rummykit.bots.duel import completes
from rummykit.bots.greedy import GreedyBot, linked
from rummykit.bots.inference import TableMemory
from rummykit.bots.ismcts import IsmctsBot
from rummykit.cards import Card
from rummykit.testing import arrange_deck
from rummykit.views import PlayerView

VIENNESE = Rules.preset("viennese")
MINE = "8S 8D 8H JS JD JC 4S 5S 6S 4C"
THEIRS = "2H 3H 4H 9S 9D 5C 6C 2D KS QS"
COLUMN = {name: i for i, name in enumerate(FEATURES)}


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def card(text: str) -> int:
    return cards(text)[0]


def arranged() -> tuple[Round, TableMemory, PlayerView]:
    """The deal above played to this seat's second discard decision, its memory having seen it all."""
    deck = arrange_deck(VIENNESE, 2, [MINE, THEIRS], dealer=0, extra="2C", stock="7D 10H QH")
    rnd = Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=1)
    memory = TableMemory()
    view = rnd.view(0)
    memory.observe(view)
    first = Discard(Card(card("4C")))
    memory.acted(view, first)
    rnd.apply(first)
    greedy, rng = GreedyBot(), random.Random(0)
    while rnd.to_move == 1:
        rnd.apply(greedy.choose(rnd.view(1), rnd.legal_actions(), rng))
    view = rnd.view(0)
    memory.observe(view)
    memory.acted(view, Draw())
    rnd.apply(Draw())
    view = rnd.view(0)
    memory.observe(view)
    return rnd, memory, view


def test_features_read_what_the_opponent_took_passed_and_threw() -> None:
    rnd, memory, view = arranged()
    evidence = memory.of(1)
    assert evidence.taken == [card("4C")]
    assert len(evidence.discarded) == 1
    thrown = evidence.discarded[0]
    assert card("7D") in [int(c) for c in view.hand]
    picks = cards("4S 2C 7D 8S")
    rows = discard_features(
        view, memory, picks, [0.5, 0.4, 0.3, 0.2], [0.0, 0.25, 0.5, 0.75], [-5.0, 2.0, 0.0, 12.0]
    )
    assert len(rows) == 4 and all(len(row) == len(BASE_FEATURES) for row in rows)
    four, two, seven, eight = rows
    assert four[COLUMN["took_rank"]] == 1.0 and four[COLUMN["took_suit"]] == 0.0
    assert two[COLUMN["took_suit"]] == 1.0 and two[COLUMN["took_rank"]] == 0.0
    assert seven[COLUMN["took_rank"]] == seven[COLUMN["took_suit"]] == 0.0
    assert [row[COLUMN["race"]] for row in rows] == [0.5, 0.4, 0.3, 0.2]
    assert [row[COLUMN["feed"]] for row in rows] == [0.0, 0.25, 0.5, 0.75]
    assert [row[COLUMN["duel"]] for row in rows] == [-0.5, 0.2, 0.0, 1.2]
    assert four[COLUMN["points"]] == 0.4 and eight[COLUMN["points"]] == 0.8
    # The least deadwood after each discard, over ten.
    hand = [int(c) for c in view.hand]
    for c, row in zip(picks, rows, strict=True):
        rest = list(hand)
        rest.remove(c)
        assert row[COLUMN["deadwood"]] == solver.min_deadwood(rest, VIENNESE) / 10.0
    # The stage: the opponent's last discard sets ``close``; one turn each played sets ``late``.
    close = 1.0 - VIENNESE.card_points(thrown) / 10.0
    assert two[COLUMN["points_close"]] == pytest.approx(two[COLUMN["points"]] * close)
    late = view.turn // 2 / 10.0
    assert four[COLUMN["race_late"]] == pytest.approx(0.5 * late)
    # A card that could share a meld with the card the opponent threw away is marked, others not.
    for c, row in zip(picks, rows, strict=True):
        assert row[COLUMN["discarded"]] == float(linked(c, thrown))
    assert rnd.to_move == 0


def test_a_passed_card_marks_its_partners() -> None:
    """An opponent that left the 9♥ lying: the J♠ shares neither its rank nor its suit and stays
    unmarked; once it also left the 4♦, the 4♠ (the same rank) is marked ``passed``."""
    _, memory, view = arranged()
    memory.of(1).passed.append(card("9H"))
    rows = discard_features(view, memory, cards("JS 4S"), [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    assert rows[0][COLUMN["passed"]] == 0.0  # J♠: another suit, another rank
    memory.of(1).passed.append(card("4D"))
    rows = discard_features(view, memory, cards("JS 4S"), [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    assert rows[1][COLUMN["passed"]] == 1.0  # 4♠ shares the rank of the passed 4♦


def test_model_rows_place_each_race_among_the_decision_s() -> None:
    base = [[0.5] + [0.0] * (len(BASE_FEATURES) - 1), [0.3] + [0.0] * (len(BASE_FEATURES) - 1)]
    base.append([0.4] + [1.0] * (len(BASE_FEATURES) - 1))
    rows = model_rows(base)
    assert all(
        len(row) == len(FEATURES) and row[: len(BASE_FEATURES)] == b
        for row, b in zip(rows, base, strict=True)
    )
    assert [row[COLUMN["race_best"]] for row in rows] == [1.0, 0.0, 0.0]
    assert [row[COLUMN["race_scaled"]] for row in rows] == pytest.approx([0.0, -1.0, -0.5])
    assert [row[COLUMN["duel_best"]] for row in rows] == [0.0, 0.0, 1.0]
    flat = model_rows([base[0], base[0]])
    assert [row[COLUMN["race_best"]] for row in flat] == [1.0, 1.0]
    assert [row[COLUMN["race_scaled"]] for row in flat] == [0.0, 0.0]
    assert [row[COLUMN["duel_best"]] for row in flat] == [1.0, 1.0]


def test_feed_count_answers_as_the_rule_and_counts_the_feeds() -> None:
    theirs = cards(THEIRS)
    count = FeedCount(completes)
    assert count(VIENNESE, theirs, card("4C")) is True  # 4-6♣
    assert count(VIENNESE, theirs, card("KD")) is False
    assert count(VIENNESE, cards("2H 3H 4H 9S 9D 5C 7C 2D KS QS"), card("4C")) is False
    assert count.share(card("4C")) == 0.5 and count.share(card("KD")) == 0.0
    assert count.share(card("7D")) == 0.0
    silent = FeedCount(None)
    assert silent(VIENNESE, theirs, card("4C")) is False and silent.share(card("4C")) == 1.0


def _row(late: float = 0.0, close: float = 0.0, **named: float) -> list[float]:
    """A base row of :data:`BASE_FEATURES` with its stage interactions filled in."""
    row = dict.fromkeys(BASE_FEATURES, 0.0) | named
    row["points_close"] = row["points"] * close
    row["deadwood_close"] = row["deadwood"] * close
    row["race_late"], row["feed_late"], row["points_late"] = (
        row["race"] * late,
        row["feed"] * late,
        row["points"] * late,
    )
    return [row[name] for name in BASE_FEATURES]


def test_the_fitted_model_shuns_a_feeding_discard_late_and_sheds_the_king_when_the_opponent_is_close() -> (
    None
):
    """Constructed decisions, the candidates alike but for what is named."""
    # Late in the hand (ten turns played) a discard that feeds the next seat on 80 % of the
    # determinizations loses to one that does not.
    alike = {"race": 0.3, "duel": 0.5, "points": 0.5, "deadwood": 3.0, "outs": 0.5}
    fed = _row(late=1.0, **(alike | {"feed": 0.8}))
    safe = _row(late=1.0, **alike)
    assert best(model_rows([fed, safe])) == 1 and best(model_rows([safe, fed])) == 0
    # The opponent threw an ace last (greedy sheds its costliest deadwood: it is close to knocking):
    # shedding the king (10) beats shedding a three that leaves 7 points more, though the race
    # values them alike.
    king = _row(close=0.9, race=0.3, points=1.0, deadwood=3.0)
    three = _row(close=0.9, race=0.3, points=0.3, deadwood=3.7)
    assert best(model_rows([three, king])) == 1
    values = scores(model_rows([three, king]))
    assert values[1] > values[0]
    # A faster race wins when nothing else differs.
    slow, fast = _row(race=0.3), _row(race=0.4)
    assert best(model_rows([slow, fast])) == 1


def _weights(**named: float) -> tuple[float, ...]:
    return tuple(named.get(name, 0.0) for name in FEATURES)


def test_the_distilled_option_plays_the_model_s_choice() -> None:
    """On the arranged decision: with the race's value as the only weight the distilled bot plays the
    race's own choice; with its negative, the candidate the race values least (another card), unless
    the margin is out of reach; and off, the race's choice."""
    _, memory, view = arranged()
    legal = [Discard(c) for c in view.hand]
    bot = IsmctsBot("easy")
    race = bot.choose(view, legal, random.Random(5))
    bot = IsmctsBot("easy")
    candidates = bot.knock_candidates(view, legal, legal[0])
    samples = bot.duel_samples(view, random.Random(5), memory)
    races, _ = bot.distill_rows(view, memory, [int(a.card) for a in candidates], samples)  # type: ignore[attr-defined]
    worst = candidates[min(range(len(races)), key=lambda i: (races[i], i))]
    assert worst != race
    for weights, want in ((_weights(race=1.0), race), (_weights(race=-1.0), worst)):
        bot = IsmctsBot("easy")
        bot.distilled = True
        bot.discard_weights = weights
        assert bot.choose(view, legal, random.Random(5)) == want
    # A margin the learned score cannot clear keeps the race's choice.
    bot = IsmctsBot("easy")
    bot.distilled, bot.discard_weights, bot.distill_margin = True, _weights(race=-1.0), 1e9
    assert bot.choose(view, legal, random.Random(5)) == race


def _load(name: str) -> Any:
    if name not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_the_collector_writes_consistent_rows(tmp_path: Path) -> None:
    """One round of ``search:easy`` against greedy: every recorded decision has two candidates or
    more, a feature row of the right length each, the race's choice the best race value, the
    oracle's the best duel value, and the candidates are cards of distinct faces."""
    _load("ceiling")
    distill = _load("distill")
    out = tmp_path / "rows.jsonl"
    game = build_games(ArenaConfig(rules="viennese", bots=("search:easy", "greedy"), rounds=1, seed=4242))[0]
    assert game.specs[game.seats.index(0)] == "search:easy"
    total = distill.collect(VIENNESE, [game], "easy", str(out))
    decisions = [json.loads(line) for line in out.read_text().splitlines()]
    assert total == len(decisions) > 0
    for d in decisions:
        n = len(d["cards"])
        assert n >= 2 and len(set(d["cards"])) == n
        assert len(d["rows"]) == len(d["duels"]) == n
        assert all(len(row) == len(BASE_FEATURES) for row in d["rows"])
        race = [row[COLUMN["race"]] for row in d["rows"]]
        assert d["race"] == max(range(n), key=lambda i: (race[i], -i))
        assert d["oracle"] == max(range(n), key=lambda i: (d["duels"][i], -i))
    weights = distill.fit(decisions, 1.0)
    assert len(weights) == len(FEATURES)
    figures = distill.evaluate(decisions, weights)
    assert 0.0 <= figures["model agrees"] <= 1.0 and figures["race regret"] >= 0.0
