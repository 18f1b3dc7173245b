"""A rummykit bot against OpenSpiel's simple gin bot, with OpenSpiel as the referee.

Every game is played in OpenSpiel's ``gin_rummy`` (``pyspiel``): its state decides what is legal and
what each hand scores. The opponent is ``pyspiel.make_simple_gin_rummy_bot``, the rule bot gin research
measures against. The rummykit bot reads a rummykit view of the same game: a rummykit round dealt as
OpenSpiel dealt (:func:`rummykit.interop.openspiel_gin.round_from_deal`) that follows every action
applied to the OpenSpiel state; its choice is mapped to OpenSpiel's action id and applied there
(an id OpenSpiel does not allow stops the run). At the end both engines' scores are compared; a
difference is counted and printed (0 expected). With several bots, each after the first is also
compared with the first on the same games (:func:`paired`).

Deals are duplicated: each deck order (a seeded permutation that also fixes every stock draw) is
played twice, the rummykit bot once as OpenSpiel's player 0 (the non-dealer, first to act) and once as
player 1, so the luck of the deal cancels out.

Figures per rummykit bot: games; wins, losses and draws (a dead hand, or a knock that scores 0); the
win rate counting a draw as half a win, with its 95 % Wilson interval; the win rate of the decided
games; mean points per game (the bot's OpenSpiel return) with its 95 % interval; the rummykit bot's
time per move (wall clock and CPU time, the CPU time of every thread of the process: the native race
kernels may run on both cores) and OpenSpiel's bot's (the only machine-dependent figures); and how
the games ended (:func:`ending`: who knocked, gin or undercut, or a dead hand), and how many hands the
opponent knocked in the turn it took a discard (the rummykit bot's discard or the first upcard): the
race it won with a card it was given.

A search bot's spec may end in ``+duel``, ``+pf``, ``+pf-mix``, ``+peek`` or ``+peek-all``: its
discards are then chosen by duels against the simple bot's rule (:mod:`rummykit.bots.gin_duel`) on
opponent hands read from its view (``duel``: :func:`~rummykit.bots.gin_duel.sampled_opponents`;
``pf``: the particle filter over the hand's history, :mod:`rummykit.bots.gin_particles`; ``pf-mix``:
half of each), on the opponent's true hand with sampled stocks (``peek``) or on the true hand and the
true stock (``peek-all``). The peeking bots cheat: they measure what knowing the opponent's cards would
be worth to this search. ``+pf-race`` keeps the race and charges its discards by the particles'
reading (``GinSearchBot(reader=...)``); ``+pf-audit`` is ``+pf`` that also prints how much of the
opponent's true hand the particles and the old sampler hold, on the same decisions.
``+distilled`` keeps the race's candidates and picks among them by the model fitted to the peeking
bot's discards (``GinSearchBot(distilled=True)``, :mod:`rummykit.bots.gin_distill`; the default of
medium and hard), ``+race`` picks the race's own choice (``distilled=False``).
``+weights=FILE`` is ``+distilled`` with the coefficients that ``benchmarks/gin_distill.py fit --save
FILE`` wrote (:func:`load_weights`): a candidate model measured against ``DISCARD_WEIGHTS`` on the same
deals, e.g. ``--bots search:hard+distilled,search:hard+weights=w.json``.
``--opponent greedy`` seats rummykit's greedy bot in the opponent's chair instead (OpenSpiel still
referees).

    .venv/bin/python benchmarks/vs_openspiel.py --bots greedy,search:easy --games 200
    nice -n 10 .venv/bin/python benchmarks/vs_openspiel.py --bots search --games 2000 --workers 2 --json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rummykit.actions import TakeDiscard
from rummykit.arena import mean_interval, wilson_interval
from rummykit.bots import GinSearchBot, make_bot
from rummykit.bots.base import Bot
from rummykit.bots.gin_distill import FEATURES
from rummykit.bots.gin_duel import OpponentSample, OpponentSampler, sampled_opponents
from rummykit.bots.gin_particles import ParticleReader, held_share
from rummykit.interop.openspiel_gin import action_id, openspiel_params, round_from_deal, to_action
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

DUEL_MODES = ("duel", "pf", "pf-mix", "peek", "peek-all")
"""The spec suffixes that make a search bot choose its discards by duels (module docstring)."""
READ_MODES = ("pf-race", "distilled", "race")
"""The spec suffixes that keep the race's candidates: charged by the particle filter's reading,
picked by the distilled model, or by the race alone."""

DRAW_PHASES = (Phase.FIRST_UPCARD, Phase.DRAW, Phase.WALL)
"""The phases that begin a turn: a player takes the upcard there, or does not."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    deal: int
    player: int
    """OpenSpiel player id of the rummykit bot."""
    points: float
    """The rummykit bot's return."""
    moves: int
    seconds: float
    opponent_moves: int
    opponent_seconds: float
    mismatch: bool
    """rummykit's score of the same game differs from OpenSpiel's."""
    cpu_seconds: float = 0.0
    """CPU time of the rummykit bot's moves (every thread of the process)."""
    ending: str = ""
    """How the hand ended for the rummykit bot (:func:`ending`)."""
    knock_after_take: bool = False
    """The opponent knocked (or went gin) in the turn it took the upcard."""
    reading: tuple[float, float, int] = (0.0, 0.0, 0)
    """``+pf-audit``: summed shares of the opponent's true cards held by the particles and by the old
    sampler's hands, and the decisions scored (:class:`AuditedReader`)."""


def ending(points: float, knocker: int | None, player: int, gin: bool) -> str:
    """How a hand ended, from the rummykit bot's side: ``gin``, ``knock`` or ``undercut`` by ``own``
    or ``opp`` (the knocker; an undercut is a knock that lost), or ``dead`` (nobody knocked)."""
    if knocker is None:
        return "dead"
    side = "own" if knocker == player else "opp"
    knocker_won = (points > 0) == (knocker == player)
    kind = "gin" if gin else "knock" if knocker_won or points == 0 else "undercut"
    return f"{side} {kind}"


def deck_order(seed: int, deal: int) -> list[int]:
    """The chance outcomes of a deal, in order: OpenSpiel card ids 0-51 shuffled by the seed."""
    cards = list(range(52))
    random.Random(f"rummykit-vs-openspiel-{seed}-{deal}").shuffle(cards)
    return cards


def peeked_opponents(mirror: Round, whole_stock: bool) -> OpponentSampler:
    """Opponent samples that read the true round: the opponent's hand with the stock in random
    orders, or (``whole_stock``) one sample with the true stock order (top first)."""

    def sample(view: PlayerView, rng: random.Random, n: int) -> list[OpponentSample]:
        theirs = [int(c) for c in mirror.hands[1 - view.seat].cards()]
        stock = [int(c) for c in reversed(mirror.stock)]
        drawable = max(0, view.stock_size - view.rules.wall_stock_size)
        if whole_stock:
            return [(theirs, stock[:drawable], 1.0)]
        samples: list[OpponentSample] = []
        for _ in range(n):
            rng.shuffle(stock)
            samples.append((theirs, stock[:drawable], 1.0))
        return samples

    return sample


class AuditedReader(ParticleReader):
    """The particle reader that also scores, at every call, how much of the opponent's true hand
    (read from the mirror round) its particles and :func:`sampled_opponents` hold
    (:func:`~rummykit.bots.gin_particles.held_share`, summed in ``shares``: filter, old sampler,
    calls). The search plays on the particles as the plain ``pf`` bot does."""

    def __init__(self, mirror: Round) -> None:
        super().__init__()
        self.mirror = mirror
        self.shares = [0.0, 0.0, 0]

    def __call__(self, view: PlayerView, rng: random.Random, n: int) -> list[OpponentSample]:
        truth = [int(c) for c in self.mirror.hands[1 - view.seat].cards()]
        audit = random.Random(rng.random())
        found = self.hands(view, audit)
        old = sampled_opponents(view, audit, n)
        if found:
            self.shares[0] += held_share(found, truth)
            self.shares[1] += held_share([(h, w) for h, _, w in old], truth)
            self.shares[2] += 1
        return super().__call__(view, rng, n)


def load_weights(path: str) -> list[float]:
    """The coefficients of a JSON file written by ``gin_distill.py fit --save`` (its ``features`` must
    be :data:`~rummykit.bots.gin_distill.FEATURES`)."""
    with open(path, encoding="utf-8") as f:
        saved = json.load(f)
    if tuple(saved["features"]) != FEATURES:
        raise ValueError(f"{path}: fitted on other features than {FEATURES}")
    return [float(w) for w in saved["weights"]]


def build_bot(spec: str, mirror: Round) -> Bot:
    """``make_bot(spec)``, or a search bot with duels for a spec ending in a :data:`DUEL_MODES` suffix
    (``pf-audit``: ``pf`` that also scores its reading, :class:`AuditedReader`; ``weights=FILE``: the
    distilled discard with :func:`load_weights`)."""
    name, _, mode = spec.partition("+")
    if not mode:
        return make_bot(spec)
    kind, _, level = name.partition(":")
    if kind == "search" and mode.startswith("weights="):
        bot = GinSearchBot(level or None, distilled=True, weights=load_weights(mode.removeprefix("weights=")))
        bot.name = spec
        return bot
    if kind != "search" or mode not in (*DUEL_MODES, *READ_MODES, "pf-audit"):
        raise ValueError(f"{spec}: only a search bot takes a duel suffix ({', '.join(DUEL_MODES)})")
    if mode in READ_MODES:
        if mode == "pf-race":
            bot = GinSearchBot(level or None, reader=ParticleReader())
        else:
            bot = GinSearchBot(level or None, distilled=mode == "distilled")
        bot.name = spec
        return bot
    opponents: OpponentSampler
    if mode == "duel":
        opponents = sampled_opponents
    elif mode == "pf":
        opponents = ParticleReader()
    elif mode == "pf-mix":
        opponents = ParticleReader(mix=0.5)
    elif mode == "pf-audit":
        opponents = AuditedReader(mirror)
    else:
        opponents = peeked_opponents(mirror, mode == "peek-all")
    bot = GinSearchBot(level or None, opponents=opponents)
    bot.name = spec
    return bot


def play_game(
    spec: str,
    rules_text: str,
    seed: int,
    deal: int,
    player: int,
    opponent_spec: str = "simple",
    make: Callable[[Round], Bot] | None = None,
) -> GameOutcome:
    """One game: the rummykit bot ``spec`` as OpenSpiel's ``player`` on deal ``deal``, against
    OpenSpiel's simple bot or (``opponent_spec`` a rummykit bot, e.g. ``greedy``) that bot on its view
    of the mirror round. ``make`` builds the bot from the mirror round instead of ``spec`` (the
    distillation's recording bot)."""
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    rules = Rules.parse(rules_text)
    game = pyspiel.load_game("gin_rummy", openspiel_params(rules))
    state = game.new_initial_state()
    deck = deck_order(seed, deal)
    mirror = round_from_deal(deck, rules)
    bot = make(mirror) if make is not None else build_bot(spec, mirror)
    opponent = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - player)
    other = None if opponent_spec == "simple" else make_bot(opponent_spec)
    other_rng = random.Random(f"rummykit-vs-openspiel-opponent-{seed}-{deal}-{player}")
    rng = random.Random(f"rummykit-vs-openspiel-bot-{seed}-{deal}-{player}")
    cards = iter(deck)
    took = [False, False]  # per player: its turn began by taking the upcard
    moves = opponent_moves = 0
    seconds = opponent_seconds = cpu = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(cards))
            continue
        to_move = state.current_player()
        if to_move == player:
            view, legal = mirror.view(player), mirror.legal_actions()
            start, start_cpu = time.perf_counter(), time.process_time()
            action = bot.choose(view, legal, rng)
            seconds += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            moves += 1
            move = action_id(action)
            if move not in state.legal_actions():
                raise RuntimeError(f"deal {deal}: OpenSpiel refuses {action} ({move}) of {spec}")
        else:
            start = time.perf_counter()
            if other is None:
                move = opponent.step(state)
                action = to_action(move, mirror)
            else:
                action = other.choose(mirror.view(to_move), mirror.legal_actions(), other_rng)
                move = action_id(action)
            opponent_seconds += time.perf_counter() - start
            opponent_moves += 1
        if mirror.phase in DRAW_PHASES:
            took[to_move] = isinstance(action, TakeDiscard)
        mirror.apply(action)
        state.apply_action(move)
    points = state.returns()[player]
    result = mirror.result
    ours = result.points[player] if result is not None else None
    knocker = mirror.view(player).knocker
    gin = result is not None and knocker is not None and result.hand_values[knocker] == 0
    end = ending(points, knocker, player, gin)  # rummykit seats are OpenSpiel's player ids
    fed = knocker is not None and knocker != player and took[knocker]
    audit = getattr(bot, "opponents", None)
    reading = (
        (audit.shares[0], audit.shares[1], int(audit.shares[2]))
        if isinstance(audit, AuditedReader)
        else (0.0, 0.0, 0)
    )
    return GameOutcome(
        deal,
        player,
        points,
        moves,
        seconds,
        opponent_moves,
        opponent_seconds,
        ours != points,
        cpu,
        end,
        fed,
        reading,
    )


def _play(task: tuple[str, str, int, int, int, str]) -> GameOutcome:
    return play_game(*task)


def run(
    spec: str, rules_text: str, games: int, seed: int, workers: int, opponent: str = "simple"
) -> list[GameOutcome]:
    """``games`` games (rounded up to whole duplicate pairs) of ``spec`` against OpenSpiel's bot (or
    the rummykit bot ``opponent``)."""
    deals = -(-games // 2)
    tasks = [(spec, rules_text, seed, deal, player, opponent) for deal in range(deals) for player in (0, 1)]
    if workers <= 1:
        return [_play(t) for t in tasks]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return list(pool.imap(_play, tasks, chunksize=8))


def summary(spec: str, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """The figures of the module docstring."""
    n = len(outcomes)
    wins = sum(1 for o in outcomes if o.points > 0)
    losses = sum(1 for o in outcomes if o.points < 0)
    draws = n - wins - losses
    lo, hi = wilson_interval(wins + draws / 2, n)
    mean, mlo, mhi = mean_interval([o.points for o in outcomes])
    moves = sum(o.moves for o in outcomes)
    opponent_moves = sum(o.opponent_moves for o in outcomes)
    return {
        "bot": spec,
        "games": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": (wins + draws / 2) / n if n else 0.0,
        "ci95": [lo, hi],
        "decided_win_rate": wins / (wins + losses) if wins + losses else 0.0,
        "mean_points": mean,
        "points_ci95": [mlo, mhi],
        "ms_per_move": 1e3 * sum(o.seconds for o in outcomes) / max(1, moves),
        "cpu_ms_per_move": 1e3 * sum(o.cpu_seconds for o in outcomes) / max(1, moves),
        "openspiel_ms_per_move": 1e3 * sum(o.opponent_seconds for o in outcomes) / max(1, opponent_moves),
        "mismatches": sum(o.mismatch for o in outcomes),
        "endings": dict(sorted(Counter(o.ending for o in outcomes).items())),
        "opponent_knocks_after_take": sum(o.knock_after_take for o in outcomes),
        "reading": _reading(outcomes),
    }


def paired(outcomes: Sequence[GameOutcome], base: Sequence[GameOutcome]) -> dict[str, list[float]]:
    """Against ``base`` on the same games (deal and seat): the mean difference of the game's win value
    (1, a half for a draw, 0) and of its points, each with its 95 % interval (games in both only)."""
    by_game = {(o.deal, o.player): o for o in base}
    pairs = [(o, by_game[(o.deal, o.player)]) for o in outcomes if (o.deal, o.player) in by_game]

    def won(o: GameOutcome) -> float:
        return 1.0 if o.points > 0 else 0.0 if o.points < 0 else 0.5

    return {
        "win_rate": list(mean_interval([won(a) - won(b) for a, b in pairs])),
        "points": list(mean_interval([a.points - b.points for a, b in pairs])),
    }


def _reading(outcomes: Sequence[GameOutcome]) -> dict[str, float] | None:
    """``+pf-audit``: the mean share of the opponent's true cards held by a weighted particle and by
    a weighted old sample, over the decisions scored."""
    count = sum(o.reading[2] for o in outcomes)
    if not count:
        return None
    return {
        "decisions": count,
        "particles": sum(o.reading[0] for o in outcomes) / count,
        "sampled": sum(o.reading[1] for o in outcomes) / count,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="greedy,search", help="comma-separated rummykit bots")
    parser.add_argument("--games", type=int, default=200, help="games per bot (whole duplicate pairs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="gin", help="gin rules (preset or text form)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--opponent", default="simple", help="OpenSpiel's simple bot, or a rummykit bot (greedy) in its seat"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per bot")
    parser.add_argument("--outcomes", help="also write every game's outcome as JSON lines to this file")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install open-spiel", file=sys.stderr)
        return 2
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    if not args.json:
        against = "OpenSpiel's simple gin bot" if args.opponent == "simple" else args.opponent
        print(f"rummykit bots vs {against}, OpenSpiel referee; seed {args.seed}; load {load}")
        print(
            f"{'bot':<16}{'games':>6}{'W/L/D':>14}{'win rate':>10}{'95 % interval':>17}{'decided':>9}"
            f"{'points/game':>13}{'95 % interval':>17}{'ms/move':>9}{'CPU ms':>8}{'OS ms/move':>11}"
            f"{'diff':>5}"
        )
    first: list[GameOutcome] | None = None
    for spec in [b.strip() for b in args.bots.split(",") if b.strip()]:
        start = time.perf_counter()
        outcomes = run(spec, args.rules, args.games, args.seed, args.workers, args.opponent)
        figures = summary(spec, outcomes)
        if first is None:
            first = outcomes
        else:
            figures["paired_vs_first"] = paired(outcomes, first)
        figures["wall_seconds"] = time.perf_counter() - start
        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
        if args.outcomes:
            with open(args.outcomes, "a", encoding="utf-8") as f:
                for o in outcomes:
                    f.write(json.dumps({"bot": spec, "seed": args.seed, **asdict(o)}) + "\n")
        if args.json:
            print(json.dumps(figures), flush=True)
            continue
        f = figures
        wld = f"{f['wins']}/{f['losses']}/{f['draws']}"
        interval = f"{f['ci95'][0]:.3f}-{f['ci95'][1]:.3f}"
        points = f"{f['points_ci95'][0]:+.1f}..{f['points_ci95'][1]:+.1f}"
        print(
            f"{spec:<16}{f['games']:>6}{wld:>14}{f['win_rate']:>10.3f}{interval:>17}{f['decided_win_rate']:>9.3f}"
            f"{f['mean_points']:>+13.2f}{points:>17}{f['ms_per_move']:>9.2f}{f['cpu_ms_per_move']:>8.2f}"
            f"{f['openspiel_ms_per_move']:>11.3f}"
            f"{f['mismatches']:>5}",
            flush=True,
        )
        endings = ", ".join(f"{k} {100 * v / max(1, f['games']):.1f} %" for k, v in f["endings"].items())
        fed = 100 * f["opponent_knocks_after_take"] / max(1, f["games"])
        print(f"{'':<16}endings: {endings}; the opponent knocked on a taken upcard {fed:.1f} %", flush=True)
        if "paired_vs_first" in f:
            w, p = f["paired_vs_first"]["win_rate"], f["paired_vs_first"]["points"]
            print(
                f"{'':<16}against the first bot on the same games: win rate {100 * w[0]:+.1f} "
                f"({100 * w[1]:+.1f}..{100 * w[2]:+.1f}) points of percent, points per game "
                f"{p[0]:+.2f} ({p[1]:+.2f}..{p[2]:+.2f})",
                flush=True,
            )
        if f["reading"]:
            r = f["reading"]
            print(
                f"{'':<16}share of the opponent's true cards held: particles {r['particles']:.3f}, "
                f"old sampler {r['sampled']:.3f} ({r['decisions']} decisions)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
