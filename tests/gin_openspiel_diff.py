"""Differential play of rummykit's ``gin`` preset against OpenSpiel's ``gin_rummy`` (RULES.md §5.4).

Both directions, move for move:

* OpenSpiel leads: a seeded OpenSpiel game samples its chance outcomes (one shuffled deck fed card by
  card) and player actions; rummykit plays the same deal. At every decision the player to move and
  the full legal action sets are compared, mapped both ways (OpenSpiel ids to rummykit actions and
  back), the same action is applied to both, and at the end both must be over with the same returns.
* rummykit leads: a seeded rummykit gin round is replayed into OpenSpiel with the same checks; the
  policy also plays the one-step ``knock C`` shortcut, expanded into OpenSpiel's actions.

Policies mix uniform random choices with a bias towards knocking and low deadwood, so that knocks,
gins, undercuts, lay-offs and the wall all occur often. Run as a script for the full count::

    python tests/gin_openspiel_diff.py --games 10000 --reverse 2000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rummykit.actions import Action, Discard, Knock, KnockDeclare, MeldAction
from rummykit.gin import values_of
from rummykit.gin_melds import deadwood, mask_of
from rummykit.interop.openspiel_gin import (
    KNOCK,
    action_id,
    openspiel_card,
    openspiel_params,
    round_from_deal,
    round_from_history,
    to_action,
)
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import Phase


@dataclass
class Tally:
    """What a differential run compared and found."""

    games: int = 0
    decisions: int = 0
    differences: list[str] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.differences += other.differences
        self.endings.update(other.endings)


def _ending(rnd: Round) -> str:
    result = rnd.result
    assert result is not None
    if result.winner is None:
        return str(result.termination)
    if rnd.knock_deadwood == 0:
        return "gin"
    return "undercut" if result.points[result.winner] < 0 else "knock"


def _choose(rng: random.Random, rnd: Round, ids: list[int], biased: bool) -> int:
    """A player action id: uniform, or (biased) knock when allowed and discard towards low deadwood."""
    if not biased or rng.random() < 0.15:
        return rng.choice(ids)
    if KNOCK in ids and rng.random() < 0.8:
        return KNOCK
    if rnd.phase is Phase.DISCARD:
        hand = list(rnd.hands[rnd.to_move])
        values = values_of(rnd.rules)
        mask = mask_of(hand)
        scored = sorted((deadwood(mask & ~(1 << c), values), openspiel_card(c)) for c in hand)
        return scored[0][1] if rng.random() < 0.7 else rng.choice(scored[:3])[1]
    if rnd.phase is Phase.DRAW and rng.random() < 0.5:
        return 53
    laying = [i for i in ids if i != 54]
    if rnd.phase is Phase.LAYOFF and laying and rng.random() < 0.85:
        return rng.choice(laying)  # lay off and meld, so that lay-off chains occur
    return rng.choice(ids)


def _compare(state: Any, rnd: Round, where: str, tally: Tally) -> list[int] | None:
    """Compare the decision; return OpenSpiel's legal ids, or ``None`` after a difference."""
    tally.decisions += 1
    os_ids = sorted(state.legal_actions())
    rk_actions = rnd.legal_actions()
    rk_ids = sorted(action_id(a) for a in rk_actions)
    if state.current_player() != rnd.to_move:
        tally.differences.append(
            f"{where}: to move OpenSpiel {state.current_player()} rummykit {rnd.to_move}"
        )
        return None
    if os_ids != rk_ids or len(set(rk_ids)) != len(rk_ids):
        tally.differences.append(f"{where}: legal ids OpenSpiel {os_ids} rummykit {rk_ids} ({rnd.phase})")
        return None
    mapped = {to_action(i, rnd) for i in os_ids}
    if mapped != set(rk_actions):
        tally.differences.append(f"{where}: mapped actions differ ({rnd.phase})")
        return None
    return os_ids


def _finish(state: Any, rnd: Round, where: str, tally: Tally) -> None:
    if not (state.is_terminal() and rnd.is_over):
        tally.differences.append(f"{where}: over OpenSpiel {state.is_terminal()} rummykit {rnd.is_over}")
        return
    assert rnd.result is not None
    returns = tuple(int(r) for r in state.returns())
    if returns != rnd.result.points:
        tally.differences.append(f"{where}: returns OpenSpiel {returns} rummykit {rnd.result.points}")
    tally.endings[_ending(rnd)] += 1


def openspiel_leads(pyspiel: Any, seed: int, rules: Rules, check_history: bool = False) -> Tally:
    """One OpenSpiel game with its chance outcomes and actions drawn from ``seed``, mirrored."""
    tally = Tally(games=1)
    rng = random.Random(seed)
    game = pyspiel.load_game("gin_rummy", openspiel_params(rules))
    state = game.new_initial_state()
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = 0
    rnd = round_from_deal(deck, rules)
    biased = seed % 4 != 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(deck[dealt])
            dealt += 1
            continue
        where = f"seed {seed} move {len(state.history())}"
        ids = _compare(state, rnd, where, tally)
        if ids is None:
            return tally
        choice = _choose(rng, rnd, ids, biased)
        state.apply_action(choice)
        rnd.apply(to_action(choice, rnd))
        if check_history and rng.random() < 0.1 and not state.is_terminal() and not state.is_chance_node():
            rebuilt = round_from_history(state.history(), rules)
            if rebuilt.view(rnd.to_move) != rnd.view(rnd.to_move):
                tally.differences.append(f"{where}: the view rebuilt from OpenSpiel's history differs")
    _finish(state, rnd, f"seed {seed}", tally)
    return tally


def rummykit_leads(pyspiel: Any, seed: int, rules: Rules) -> Tally:
    """One rummykit round (seeded deal, seeded choices) replayed into OpenSpiel."""
    tally = Tally(games=1)
    rng = random.Random(seed)
    rnd = Round.new(rules, 2, seed=seed, dealer=1)
    deck = rnd.deck
    n = rules.hand_size
    chance = [openspiel_card(c) for c in (*deck[0 : 2 * n : 2], *deck[1 : 2 * n : 2], *deck[2 * n :])]
    game = pyspiel.load_game("gin_rummy", openspiel_params(rules))
    state = game.new_initial_state()
    dealt = 0
    biased = seed % 4 != 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance[dealt])
            dealt += 1
            continue
        where = f"rummykit seed {seed} turn {rnd.turn}"
        ids = _compare(state, rnd, where, tally)
        if ids is None:
            return tally
        action: Action = to_action(_choose(rng, rnd, ids, biased), rnd)
        if isinstance(action, KnockDeclare) and rng.random() < 0.5:
            discards = [a for a in rnd.child(action).legal_actions() if isinstance(a, Discard)]
            action = Knock(rng.choice(discards).card)
        if isinstance(action, Knock):
            laid = len(rnd.melds)
            rnd.apply(action)
            expanded = [KNOCK, openspiel_card(action.card)]
            expanded += [action_id(MeldAction((tuple(tm.meld.cards),))) for tm in rnd.melds[laid:]]
            expanded.append(54)
            for i in expanded:
                if i not in state.legal_actions():
                    tally.differences.append(
                        f"{where}: shortcut {action} expands to {i}, illegal in OpenSpiel"
                    )
                    return tally
                state.apply_action(i)
            continue
        state.apply_action(action_id(action))
        rnd.apply(action)
    _finish(state, rnd, f"rummykit seed {seed}", tally)
    return tally


def run(games: int, reverse: int, start: int = 0, rules: Rules | None = None) -> tuple[Tally, Tally]:
    import pyspiel

    rules = rules or Rules.preset("gin")
    ahead, behind = Tally(), Tally()
    for seed in range(start, start + games):
        ahead.add(openspiel_leads(pyspiel, seed, rules, check_history=seed % 50 == 0))
    for seed in range(start, start + reverse):
        behind.add(rummykit_leads(pyspiel, seed, rules))
    return ahead, behind


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="OpenSpiel-led games")
    parser.add_argument("--reverse", type=int, default=2_000, help="rummykit-led games")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--rules", default="gin", help="rules text (an OpenSpiel-compatible gin)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    ahead, behind = run(args.games, args.reverse, args.start, Rules.parse(args.rules))
    seconds = time.perf_counter() - began
    for name, tally in (("OpenSpiel leads", ahead), ("rummykit leads", behind)):
        endings = ", ".join(f"{k} {v}" for k, v in sorted(tally.endings.items()))
        print(
            f"{name}: {tally.games} games, {tally.decisions} decisions compared, "
            f"{len(tally.differences)} differences ({endings})"
        )
        for line in tally.differences[:20]:
            print("  ", line)
    print(f"{seconds:.1f} s")
    return 1 if ahead.differences or behind.differences else 0


if __name__ == "__main__":
    sys.exit(main())
