"""How closely the search's table play-outs play the greedy bot: the same deals played both ways.

Run: ``python benchmarks/fidelity.py --rules german --deals 300 --seed 500``.

The search bot (:class:`~rummykit.bots.ismcts.IsmctsBot`) values its moves in the melding games by
play-outs (:class:`~rummykit.bots.rollout.TablePlay`) in which every seat plays one cheap policy,
meant to stand for how the opponents (and the bot itself later on) play. This benchmark deals each
round once and plays it to the end twice from the deal, with nothing hidden: through the round
engine with the greedy bot in every seat, and as a play-out with every seat's true hand and the true
stock order (drawn as one pile, :meth:`~rummykit.bots.rollout.TablePlay.start` with ``one_pile``),
once with the play-outs' own policy and once with greedy's discard and joker exchanges
(:attr:`~rummykit.bots.rollout.TablePlay.greedy`). The closer a play-out agrees with the engine,
the better it models greedy's play. Printed per side: how often it gives the engine's winner and
first seat to open, the hand's length in turns, the points of the losing hands, the turn of each
opening, the discards taken per round, and how often the first seat to open wins. It prints
figures only and never fails.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import dataclass, field

import rummykit as rk
from rummykit.actions import Open, TakeDiscard
from rummykit.bots import make_bot
from rummykit.bots.rollout import TablePlay

MAX_TURNS = 400
"""Turns a play-out may run before it counts as unfinished (the stock running out ends it too)."""


@dataclass
class Hand:
    """One hand played to its end (``winner`` ``None``: it did not finish)."""

    winner: int | None
    points: list[float]
    turns: int
    opened: dict[int, int] = field(default_factory=dict)
    """Seat: the turn it opened."""
    takes: int = 0

    @property
    def first_open(self) -> int | None:
        return min(self.opened, key=lambda s: self.opened[s]) if self.opened else None


def by_engine(rnd: rk.Round) -> Hand:
    """The round played to its end by the greedy bot in every seat."""
    bot = make_bot("greedy")
    rng = random.Random(0)
    hand = Hand(None, [], 0)
    while not rnd.is_over:
        seat = rnd.to_move
        action = bot.choose(rnd.view(seat), rnd.legal_actions(), rng)
        if isinstance(action, Open):
            hand.opened.setdefault(seat, rnd.turn)
        hand.takes += isinstance(action, TakeDiscard)
        rnd.apply(action)
    assert rnd.result is not None
    hand.points = [float(p) for p in rnd.result.points]
    hand.turns = rnd.turn
    hand.winner = max(rnd.active_seats, key=lambda s: hand.points[s])
    return hand


def by_playout(rnd: rk.Round, greedy: bool) -> Hand:
    """The round played to its end as a table play-out from the deal, nothing hidden (``greedy``:
    with greedy's discard and joker exchanges)."""
    seat = rnd.to_move
    view = rnd.view(seat)
    hands = {s: [int(c) for c in rnd.hands[s]] for s in view.active_seats if s != seat}
    play = TablePlay.start(view, hands, [int(c) for c in reversed(rnd.stock)], one_pile=True)
    play.greedy = greedy
    hand = Hand(None, [], 0)
    for turn in range(MAX_TURNS):
        if not play.stock[seat]:
            break
        was_open = bool(play.opened.get(seat))
        take = play.meld_take(seat) and bool(play.pile)
        hand.takes += take
        points = play.meld_turn(seat, take)
        if play.opened.get(seat) and not was_open:
            hand.opened[seat] = turn
        hand.turns = turn
        if points is not None:
            hand.points = [points.get(s, 0.0) for s in range(len(rnd.hands))]
            hand.winner = max(points, key=lambda s: points[s])
            break
        seat = play.next_seat(seat)
    return hand


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="german", help="a melding-game preset")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    rules = rk.Rules.preset(args.rules)
    if rules.family != "melding":
        parser.error("the table play-outs compared here are the melding games'")
    start, load = time.process_time(), os.getloadavg()[0]
    sides: list[list[Hand]] = [[], [], []]
    for i in range(args.deals):
        sides[0].append(by_engine(rk.Round.new(rules, args.players, seed=args.seed + i)))
        for greedy in (False, True):
            sides[1 + greedy].append(
                by_playout(rk.Round.new(rules, args.players, seed=args.seed + i), greedy)
            )
    n = args.deals
    print(f"{args.rules}, {args.players} players, {n} deals from seed {args.seed}, nothing hidden")
    print(
        "| side | engine's winner | engine's first to open | turns | losing hands' points | opening turn "
        "| never opened | discards taken | first to open wins | unfinished |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    names = (
        "engine, greedy in every seat",
        "table play-out",
        "table play-out, greedy's discard and joker exchanges",
    )
    for name, hands in zip(names, sides, strict=True):
        winner = sum(h.winner == e.winner for h, e in zip(hands, sides[0], strict=True))
        opener = sum(h.first_open == e.first_open for h, e in zip(hands, sides[0], strict=True))
        done = [h for h in hands if h.winner is not None]
        losers = [p for h in done for s, p in enumerate(h.points) if s != h.winner and p <= 0]
        opens = [t for h in hands for t in h.opened.values()]
        never = sum(args.players - len(h.opened) for h in hands)
        first_wins = sum(1 for h in done if h.first_open is not None and h.first_open == h.winner)
        turns, lost = mean([h.turns for h in hands]), mean(losers)
        print(
            f"| {name} | {winner}/{n} | {opener}/{n} | {turns:.1f} | {lost:.1f} | {mean(opens):.2f} "
            f"| {never} | {mean([h.takes for h in hands]):.2f} | {first_wins}/{len(done)} | {n - len(done)} |"
        )
    print(f"CPU {time.process_time() - start:.1f} s, load {load:.1f}–{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
