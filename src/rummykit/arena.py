"""Arena: bots play many seeded rounds or matches; win rates, points, confidence intervals and Elo.

Every game is fixed by ``(seed, pairing, deal, rotation)``: a deal's deck order comes from the seed
and is replayed once per rotation of the seats (duplicate deals: every bot plays every seat of the
same cards), so luck of the deal cancels out. At three bots or more the deals also take the orders
round the table in turn (:func:`seat_orders`), so that no bot always sits behind the same one. Bots
get their randomness from the same key, so a run gives identical figures whatever the number of
workers or the backend (``local`` process pool or ``ray``).

Figures per bot (``ArenaResult.to_dict()["bots"]``):

* ``win_rate``: the fraction of its games it won; a game is won by the seat(s) with the best points
  of the round (most points: fewest minus or bad points), ties and unscored rounds shared equally;
  for whole matches the match winner(s). A round a bot sat out (the dealer at a full table under
  ``dealer_sits_out_at_table_of``) is none of its games, in every figure.
* ``ci95``: Wilson score interval of the win rate at 95 %.
* ``mean_points``: mean points per game (negative: minus or bad points) and ``points_ci95``; for
  whole matches whose rules move chips (Viennese: antes, knock money, buy-backs) also
  ``mean_chips`` and ``chips_ci95``, what a match pays.
* ``elo``: Bradley–Terry ratings on the Elo scale (400 per factor 10 of the odds) fitted by
  maximum likelihood to every pairwise comparison within a game, one virtual draw per pair so that
  a clean sweep stays finite, and shifted so that the mean rating is 1500.
* ``seconds_per_move``: mean thinking time per decision (the only figure that depends on the machine).

Figures per pair of bots (``pairs``): ``score_a``, the head-to-head share of games in which ``a``
scored more points than ``b`` (ties half; for whole matches: won the match, or, neither winning it,
finished with more points) with its ``ci95``; and ``lead_points``, the points ``a``
scored minus those of ``b`` per game they sat at together, with ``lead_ci95`` over the ``deals``
(each deal's rotations averaged first): the figure the game itself decides by, paired on the same
cards. A single game (or deal) gives no interval: its bounds are null.

>>> from rummykit.arena import ArenaConfig, run_arena
>>> res = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=4, seed=1), workers=1)
>>> res.games, sorted(res.to_dict()["bots"])
(4, ['greedy', 'random'])
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import importlib.util
import io
import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from rummykit.bots import check_seat, make_bot, match_action
from rummykit.cluster import Backend, BackendError, Runner, batches_of, package_digest
from rummykit.errors import RummyError
from rummykit.guard import HandWatch
from rummykit.match import Match
from rummykit.record import Record
from rummykit.record_seats import bot_seats
from rummykit.revisions import RULES_REVISION
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.solver import backend as solver_backend
from rummykit.version import __version__

Z95: Final = 1.959963984540054
ELO_BASE: Final = 1500.0
BATCHES_PER_CPU: Final = 8
MAX_BATCH: Final = 64
BALANCED_WORK: Final = 600_000
"""Orders :func:`seat_orders` may weigh in all while choosing for balance (each choice weighs every
order left): every order up to seven bots at a table (720 of them), the first 119 of 5,040 at eight."""
MAX_GAMES: Final = 1_000_000
"""The most games one arena run plays: it keeps every result (about half a kilobyte each) for the
paired leads and the ratings. ``rummykit selfplay`` writes longer runs to disk, a batch at a time."""


class EndlessHandError(RummyError, RuntimeError):
    """A hand ran past :data:`~rummykit.guard.MAX_IDLE_ACTIONS` actions without a change of the
    stock, or past :data:`~rummykit.guard.MAX_HAND_ACTIONS` actions in all (:mod:`rummykit.guard`);
    the message names the game (rules, seed, table, deal, rotation, the deal's seed, the hand of a
    match) and the bots per seat. Not bad input but bots that never end a hand; a
    :class:`RummyError` so that the command line reports it as an error message rather than a
    traceback."""


Mode = Literal["rounds", "matches"]
ARENA_FORMAT: Final = "rummykit-arena"
ARENA_VERSION: Final = 1
"""What ``rummykit arena --json`` writes: this format name and version, then the figures
(:meth:`ArenaResult.to_dict`); ``games`` counts rounds or matches by ``mode``."""


class ArenaError(RummyError, ValueError):
    """A bad arena set-up (unknown bot, too few bots, bad counts or backend)."""


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: ``rules`` (preset or text form), bot specs (``kind`` or ``kind:level``), the
    number of rounds (or matches) per pairing, the seed, and whether every pair plays heads-up
    (``round_robin``) or all bots sit at one table."""

    rules: str
    bots: tuple[str, ...]
    rounds: int = 100
    seed: int = 0
    mode: Mode = "rounds"
    round_robin: bool = False

    def names(self) -> tuple[str, ...]:
        """Display names: the specs, numbered where a spec repeats (``greedy#1``, ``greedy#2``)."""
        counts: dict[str, int] = {}
        for b in self.bots:
            counts[b] = counts.get(b, 0) + 1
        seen: dict[str, int] = {}
        names = []
        for b in self.bots:
            if counts[b] > 1:
                seen[b] = seen.get(b, 0) + 1
                names.append(f"{b}#{seen[b]}")
            else:
                names.append(b)
        return tuple(names)

    def tables(self) -> list[tuple[int, ...]]:
        """The bot indices sitting together: every pair, or one table of all bots."""
        if self.round_robin:
            return list(itertools.combinations(range(len(self.bots)), 2))
        return [tuple(range(len(self.bots)))]


@dataclass(frozen=True, slots=True)
class Game:
    """One round or match to play: bot specs per seat and the keys that fix every random choice."""

    index: int
    rules: str
    mode: Mode
    seed: int
    table: int
    deal: int
    rotation: int
    seats: tuple[int, ...]
    """Bot index per seat."""
    specs: tuple[str, ...]
    """Bot spec per seat."""


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    seats: tuple[int, ...]
    points: tuple[int, ...]
    shares: tuple[float, ...]
    """Win share per seat (1 for a sole winner, 1/k for k tied winners)."""
    moves: tuple[int, ...]
    seconds: tuple[float, ...]
    chips: tuple[int, ...] | None = None
    """Per seat, the chips won less those paid over a whole match played as a rubber (antes, knock
    money, buy-backs: Viennese), else ``None``."""
    sat_out: tuple[int, ...] = ()
    """The seats that sat the round out (``dealer_sits_out_at_table_of``: the dealer at a full
    table). Their 0 is no score: the round is none of their games, and they are compared with
    nobody in it. A match counts every seat (sitting out a hand is part of the match)."""


def build_games(config: ArenaConfig) -> list[Game]:
    """Every game of the run in a fixed order (deals × rotations per table)."""
    if len(config.bots) < 2:
        raise ArenaError("an arena needs at least two bots")
    if config.rounds < 1:
        raise ArenaError("rounds must be at least 1")
    rules = _rules(config.rules)
    made = {spec: make_bot(spec) for spec in set(config.bots)}  # fail early on unknown bots
    tables = config.tables()
    planned = sum(-(-config.rounds // len(table)) * len(table) for table in tables)
    if planned > MAX_GAMES:
        raise ArenaError(
            f"{planned:,} games are more than an arena plays ({MAX_GAMES:,}: it keeps every result in "
            "memory); rummykit selfplay writes longer runs to disk"
        )
    games: list[Game] = []
    for t, table in enumerate(tables):
        k = len(table)
        try:
            rules.check_table(k)
        except RummyError as exc:
            raise ArenaError(str(exc).removeprefix("players: ")) from None
        for i in table:  # a bot that cannot play this table says so before the first game
            check_seat(made[config.bots[i]], rules, k)
        deals = -(-config.rounds // k)
        orders = seat_orders(table, deals)
        for deal in range(deals):
            order = orders[deal % len(orders)]
            for rotation in range(k):
                seats = tuple(order[(s + rotation) % k] for s in range(k))
                games.append(
                    Game(
                        index=len(games),
                        rules=config.rules,
                        mode=config.mode,
                        seed=config.seed,
                        table=t,
                        deal=deal,
                        rotation=rotation,
                        seats=seats,
                        specs=tuple(config.bots[i] for i in seats),
                    )
                )
    return games


@functools.cache
def seat_orders(table: tuple[int, ...], deals: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The orders round the table that the deals take in turn, each played in every rotation: with
    the first bot fixed, every order of the others ((k-1)! of them for k bots; the given order first),
    or the first ``deals`` of them.

    Rotations alone would keep every bot behind the same neighbour (with three bots, ``a`` would
    always discard to ``b`` and never to ``c``); cycling the orders seats every bot after every other
    one as often once the deals cover the orders (2 deals at three bots, 6 at four, 24 at five, 120
    at six). So that a run that stops short of that is balanced too, each next order is the one whose
    neighbours (who sits directly before whom) have sat together least so far, ties going to the
    earlier order in :func:`itertools.permutations` (as many so chosen as :data:`BALANCED_WORK`
    allows, the rest in that order: only tables of eight have more).
    """
    first, rest = table[0], table[1:]
    left = [(first, *others) for others in itertools.permutations(rest)]
    wanted = min(len(left) if deals is None else deals, len(left), BALANCED_WORK // len(left))
    k = len(table)
    together: dict[tuple[int, int], int] = {}
    chosen: list[tuple[int, ...]] = []
    while len(chosen) < wanted:
        best, best_key = 0, (math.inf, math.inf)
        for n, order in enumerate(left):
            counts = [together.get((order[s], order[(s + 1) % k]), 0) for s in range(k)]
            key = (max(counts), sum(counts))
            if key < best_key:
                best, best_key = n, key
        order = left.pop(best)
        chosen.append(order)
        for s in range(k):
            pair = (order[s], order[(s + 1) % k])
            together[pair] = together.get(pair, 0) + 1
    return (*chosen, *left[: None if deals is None else max(0, deals - len(chosen))])


def bot_fingerprints(specs: Sequence[str]) -> dict[str, str]:
    """What the bots of ``specs`` play from, where a bot says so (its ``fingerprint``, e.g. the SHA-256
    of the policy bot's weights file), by spec.

    Raises:
        RummyError: a bot that cannot be made (unknown, or its file missing).
    """
    found: dict[str, str] = {}
    for spec in sorted(set(specs)):
        fingerprint = getattr(make_bot(spec), "fingerprint", None)
        if isinstance(fingerprint, str):
            found[spec] = fingerprint
    return found


def _rules(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except RummyError as exc:
        raise ArenaError(str(exc)) from None


def deal_seed(seed: int, table: int, deal: int) -> int:
    """The seed of a deal: the same for every rotation of the seats."""
    return random.Random(f"rummykit-arena-{seed}-{table}-{deal}").randrange(2**32)


def play_game(game: Game) -> GameResult:
    """Play one game to its end (pure function of ``game``)."""
    return play_recorded(game)[0]


class _HandGuard:
    """Watches the hand being played (:class:`~rummykit.guard.HandWatch`) and raises
    :class:`EndlessHandError` past either limit."""

    __slots__ = ("game", "seed", "watch")

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.watch = HandWatch()

    def count(self, rnd: Round, hand: int | None) -> None:
        """One more action in ``rnd`` (``hand``: its number in a match, from 1)."""
        passed = self.watch.count(rnd)
        if passed is not None:
            raise EndlessHandError(self.message(hand, passed))

    def message(self, hand: int | None, what: str) -> str:
        game = self.game
        where = f" at hand {hand} of the match" if hand is not None else ""
        bots = ", ".join(f"seat {s}: {spec}" for s, spec in enumerate(game.specs))
        return (
            f"stopped{where}: {what} (a tool guard, not a rule of the game): rules "
            f"{game.rules!r}, game {game.index}, seed {game.seed}, table {game.table}, deal {game.deal}, "
            f"rotation {game.rotation} (deal seed {self.seed}); bots {bots}. The bots keep playing "
            "without ending the hand or the match (for example never going out, so that the stock is "
            "rebuilt without end or every hand ends dead, unscored)"
        )


def _blame(exc: BaseException, game: Game, seat: int, hand: int | None) -> None:
    """Note on a bot's failure (an error it raised, or an action the engine refused) which bot, seat
    and game it was; the note travels with the error out of a worker process."""
    where = f"hand {hand} of game {game.index}" if hand is not None else f"game {game.index}"
    exc.add_note(
        f"bot {game.specs[seat]!r} at seat {seat} in {where} (rules {game.rules!r}, seed {game.seed}, "
        f"table {game.table}, deal {game.deal}, rotation {game.rotation})"
    )


def play_recorded(game: Game) -> tuple[GameResult, Record]:
    """Play one game to its end; its result and its replayable record (pure function of ``game``),
    which says that a bot played every seat and which (:attr:`Record.seats`)."""
    rules = _rules(game.rules)
    players = len(game.seats)
    bots = [make_bot(spec) for spec in game.specs]
    rngs = [
        random.Random(f"rummykit-bot-{game.seed}-{game.table}-{game.deal}-{game.rotation}-{s}")
        for s in range(players)
    ]
    moves = [0] * players
    seconds = [0.0] * players
    sat_out: tuple[int, ...] = ()
    chips: tuple[int, ...] | None = None
    seed = deal_seed(game.seed, game.table, game.deal)
    if game.mode == "matches":
        m = Match.new(rules, players, seed=seed)
        guard = _HandGuard(game, seed)
        while not m.is_over:
            guard.count(m.round, len(m.rounds))
            seat = m.to_move
            t0 = time.perf_counter()
            try:
                action = match_action(bots[seat], m, rngs[seat])
                seconds[seat] += time.perf_counter() - t0
                moves[seat] += 1
                m.apply(action)
            except Exception as exc:
                _blame(exc, game, seat, len(m.rounds))
                raise
        points = m.scores
        winners = m.winners
        record = Record.from_match(m)
        chips = m.chips if m.is_rubber else None  # a rubber's antes, knock money and buy-backs
    else:
        rnd = Round.new(rules, players, seed=seed)
        guard = _HandGuard(game, seed)
        while not rnd.is_over:
            guard.count(rnd, None)
            seat = rnd.to_move
            legal = rnd.legal_actions()
            t0 = time.perf_counter()
            try:
                action = bots[seat].choose(rnd.view(seat), legal, rngs[seat])
                seconds[seat] += time.perf_counter() - t0
                moves[seat] += 1
                rnd.apply(action)
            except Exception as exc:
                _blame(exc, game, seat, None)
                raise
        assert rnd.result is not None
        points = rnd.result.points
        best = max(points[s] for s in rnd.active_seats)
        winners = tuple(s for s in rnd.active_seats if points[s] == best)
        sat_out = tuple(s for s in range(players) if s not in rnd.active_seats)
        record = Record.from_round(rnd)
    record = dataclasses.replace(record, seats=bot_seats(game.specs))
    shares = tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(players))
    result = GameResult(
        game.index, game.seats, tuple(points), shares, tuple(moves), tuple(seconds), chips, sat_out
    )
    return result, record


def _play_batch(games: Sequence[Game]) -> list[GameResult]:
    """Play a batch of games (a task of :func:`run_arena`)."""
    return [play_game(g) for g in games]


# Statistics ---------------------------------------------------------------------------------------
def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``wins / n`` (ties may count as half wins).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


_T975: Final = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
"""Student's t at 97.5 % for 1 to 30 degrees of freedom."""


def t975(df: int) -> float:
    """Student's t quantile at 97.5 % (the half-width factor of a 95 % interval of a mean) for ``df``
    degrees of freedom: from the table up to 30, beyond by the Cornish–Fisher expansion around the
    normal quantile (within 1e-4 of the exact figure).

    >>> t975(1), t975(30), round(t975(1000), 4)
    (12.7062, 2.0423, 1.9623)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_interval(values: Sequence[float], z: float | None = None) -> tuple[float, float, float]:
    """Mean and its 95 % interval: Student's t with ``n - 1`` degrees of freedom (:func:`t975`), so
    a handful of games gets the wide interval it deserves; ``z`` sets another factor. One value
    bounds nothing: its interval is unbounded (``-inf`` to ``inf``; the figures write it as null).

    >>> mean_interval([4.0])
    (4.0, -inf, inf)
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = (t975(n - 1) if z is None else z) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def _bounds(low: float, high: float) -> list[float | None]:
    """An interval as the figures write it: rounded, and ``None`` for an unbounded end (JSON null,
    an empty CSV cell) where a single game or deal gives no interval."""
    return [round(low, 6) if math.isfinite(low) else None, round(high, 6) if math.isfinite(high) else None]


def elo_ratings(
    scores: dict[tuple[int, int], float], games: dict[tuple[int, int], int], players: int, prior: float = 1.0
) -> list[float]:
    """Bradley–Terry maximum-likelihood ratings on the Elo scale, mean ``ELO_BASE``.

    ``scores[(i, j)]`` is what ``i`` scored against ``j`` (wins plus half the ties) over
    ``games[(i, j)]`` comparisons (stored for ``i < j``). ``prior`` adds that many virtual draws
    per compared pair so that unbeaten players keep a finite rating. Solved by the MM iteration of
    Hunter (2004).

    >>> [round(r, 1) for r in elo_ratings({(0, 1): 75.0}, {(0, 1): 100}, 2, prior=0)]
    [1595.4, 1404.6]
    """
    n_ij = [[0.0] * players for _ in range(players)]
    w = [0.0] * players
    for (i, j), n in games.items():
        if n <= 0:
            continue
        s = scores.get((i, j), 0.0)
        n_ij[i][j] = n_ij[j][i] = n + prior
        w[i] += s + prior / 2
        w[j] += n - s + prior / 2
    gamma = [1.0] * players
    for _ in range(10_000):
        new = []
        for i in range(players):
            denom = sum(n_ij[i][j] / (gamma[i] + gamma[j]) for j in range(players) if j != i and n_ij[i][j])
            new.append(max(w[i], 1e-9) / denom if denom else gamma[i])
        logs = [math.log(g) for g in new]
        shift = sum(logs) / players
        new = [math.exp(v - shift) for v in logs]
        done = max(abs(a - b) for a, b in zip(new, gamma, strict=True)) < 1e-12
        gamma = new
        if done:
            break
    return [ELO_BASE + 400.0 * math.log10(g) for g in gamma]


@dataclass
class BotFigures:
    name: str
    games: int = 0
    wins: float = 0.0
    points: list[float] = field(default_factory=list)
    chips: list[float] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0


@dataclass
class NodeFigures:
    """What one machine (host, or Ray node id) did: games played and CPU seconds spent on them."""

    games: int = 0
    cpu_seconds: float = 0.0

    def to_dict(self, wall_seconds: float) -> dict[str, Any]:
        """Games, CPU seconds and ``cpu_use``: the cores kept busy on average over ``wall_seconds``."""
        return {
            "games": self.games,
            "cpu_seconds": round(self.cpu_seconds, 3),
            "cpu_use": round(self.cpu_seconds / max(wall_seconds, 1e-9), 3),
        }


@dataclass
class ArenaResult:
    """Every game result of a run and the figures derived from them."""

    config: ArenaConfig
    results: list[GameResult]
    backend: str
    workers: int
    """Worker processes, or CPUs of the Ray cluster."""
    wall_seconds: float
    nodes: dict[str, NodeFigures] = field(default_factory=dict)
    """Per host or Ray node: games and CPU seconds (``to_dict`` adds ``cpu_use``: cores busy on
    average over the run)."""

    @property
    def games(self) -> int:
        return len(self.results)

    def figures(self) -> list[BotFigures]:
        names = self.config.names()
        figs = [BotFigures(n) for n in names]
        for r in sorted(self.results, key=lambda r: r.index):
            for seat, bot in enumerate(r.seats):
                if seat in r.sat_out:
                    continue  # not one of its games
                f = figs[bot]
                f.games += 1
                f.wins += r.shares[seat]
                f.points.append(r.points[seat])
                if r.chips is not None:
                    f.chips.append(r.chips[seat])
                f.moves += r.moves[seat]
                f.seconds += r.seconds[seat]
        return figs

    def pairwise(self) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], int]]:
        """Head-to-head scores from every game: points compared seat by seat (ties half); in a
        match the winner is ahead, and of two who did not win, the one with more points."""
        scores: dict[tuple[int, int], float] = {}
        games: dict[tuple[int, int], int] = {}
        matches = self.config.mode == "matches"
        for r in sorted(self.results, key=lambda r: r.index):
            for a, b in itertools.combinations(range(len(r.seats)), 2):
                if a in r.sat_out or b in r.sat_out:
                    continue
                i, j = r.seats[a], r.seats[b]
                # A match: its winner ahead; of two who did not win it, the one with more points.
                pa = (r.shares[a] if matches else 0.0, float(r.points[a]))
                pb = (r.shares[b] if matches else 0.0, float(r.points[b]))
                s = 1.0 if pa > pb else 0.5 if pa == pb else 0.0
                if i > j:
                    i, j, s = j, i, 1.0 - s
                games[(i, j)] = games.get((i, j), 0) + 1
                scores[(i, j)] = scores.get((i, j), 0.0) + s
        return scores, games

    def point_leads(self) -> dict[tuple[int, int], list[float]]:
        """Per pair of bots ``(i, j)``, ``i < j``: the points ``i`` scored minus those of ``j``, one
        value per duplicate deal they played together (the mean over its rotations, so the luck of
        the cards cancels within the deal and an interval counts deals). A bot in two seats of one
        game is not compared with itself."""
        deal_of = {game.index: (game.table, game.deal) for game in build_games(self.config)}
        leads: dict[tuple[int, int], dict[tuple[int, int], list[float]]] = {}
        for r in sorted(self.results, key=lambda r: r.index):
            for a, b in itertools.combinations(range(len(r.seats)), 2):
                i, j = r.seats[a], r.seats[b]
                if i == j or a in r.sat_out or b in r.sat_out:
                    continue
                lead = float(r.points[a]) - float(r.points[b])
                if i > j:
                    i, j, lead = j, i, -lead
                leads.setdefault((i, j), {}).setdefault(deal_of[r.index], []).append(lead)
        return {pair: [sum(v) / len(v) for v in deals.values()] for pair, deals in leads.items()}

    @functools.cached_property
    def _provenance(self) -> dict[str, Any]:
        """What played, once per result (it reads every source file and makes every bot): the
        sources' ``digest`` (the version alone changes rarely), the rules ``revision`` and the bots'
        ``bot_inputs`` where they read a file."""
        inputs = bot_fingerprints(self.config.bots)
        return {
            "digest": package_digest(),
            "revision": RULES_REVISION,
            **({"bot_inputs": inputs} if inputs else {}),
        }

    @staticmethod
    def _chips(figures: BotFigures) -> dict[str, Any]:
        """``mean_chips`` and ``chips_ci95`` per match where the rules move chips (what a Viennese
        rubber pays), else nothing."""
        if not figures.chips:
            return {}
        mean, low, high = mean_interval(figures.chips)
        return {"mean_chips": round(mean, 6), "chips_ci95": _bounds(low, high)}

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        """The figures as plain data (``timing=False`` leaves out the machine-dependent ones)."""
        names = self.config.names()
        figs = self.figures()
        scores, games = self.pairwise()
        elo = elo_ratings(scores, games, len(names))
        bots: dict[str, Any] = {}
        for i, f in enumerate(figs):
            lo, hi = wilson_interval(f.wins, f.games)
            mean, plo, phi = mean_interval(f.points)
            entry: dict[str, Any] = {
                "games": f.games,
                "wins": round(f.wins, 6),
                "win_rate": round(f.wins / f.games, 6) if f.games else 0.0,
                "ci95": [round(lo, 6), round(hi, 6)],
                "mean_points": round(mean, 6),
                "points_ci95": _bounds(plo, phi),
                **self._chips(f),
                "elo": round(elo[i], 1),
                "moves": f.moves,
            }
            if timing:
                entry["seconds_per_move"] = round(f.seconds / f.moves, 6) if f.moves else 0.0
            bots[names[i]] = entry
        leads = self.point_leads()
        pairs = []
        for (i, j), n in sorted(games.items()):
            s = scores[(i, j)]
            lo, hi = wilson_interval(s, n)
            pair: dict[str, Any] = {
                "a": names[i],
                "b": names[j],
                "games": n,
                "score_a": round(s / n, 6),
                "ci95": [round(lo, 6), round(hi, 6)],
            }
            if (i, j) in leads:
                lead, llo, lhi = mean_interval(leads[(i, j)])
                deals = len(leads[(i, j)])
                pair.update(lead_points=round(lead, 6), lead_ci95=_bounds(llo, lhi), deals=deals)
            pairs.append(pair)
        out: dict[str, Any] = {
            "format": ARENA_FORMAT,
            "version": ARENA_VERSION,
            "rules": str(_rules(self.config.rules)),  # with its house rules, as a record writes it
            "rummykit": __version__,
            **self._provenance,
            "solver": solver_backend.current.name,  # this process's (each worker checks its code)
            "mode": self.config.mode,
            "games": self.games,
            "rounds" if self.config.mode == "rounds" else "matches": self.games,  # as before "games"
            "seed": self.config.seed,
            "round_robin": self.config.round_robin,
            "bots": bots,
            "pairs": pairs,
        }
        if timing:
            wall = max(self.wall_seconds, 1e-9)
            out.update(
                backend=self.backend,
                workers=self.workers,
                wall_seconds=round(self.wall_seconds, 3),
                games_per_second=round(self.games / wall, 3),
                nodes={node: f.to_dict(self.wall_seconds) for node, f in sorted(self.nodes.items())},
            )
        return out

    def to_csv(self, timing: bool = True) -> str:
        """One row per bot: the figures of :meth:`to_dict`, with the run's rules, mode and seed on
        every row (``timing=False`` leaves out the time per move, which depends on the machine; the
        chips where a Viennese rubber pays them)."""
        data = self.to_dict(timing)
        chips = all("mean_chips" in b for b in data["bots"].values())
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(
            [
                "bot",
                "rules",
                "mode",
                "seed",
                "games",
                "wins",
                "win_rate",
                "ci95_lo",
                "ci95_hi",
                "mean_points",
                "points_ci95_lo",
                "points_ci95_hi",
                *(["mean_chips", "chips_ci95_lo", "chips_ci95_hi"] if chips else []),
                "elo",
                *(["seconds_per_move"] if timing else []),
            ]
        )
        for name, b in data["bots"].items():
            writer.writerow(
                [
                    name,
                    data["rules"],
                    data["mode"],
                    data["seed"],
                    b["games"],
                    b["wins"],
                    b["win_rate"],
                    b["ci95"][0],
                    b["ci95"][1],
                    b["mean_points"],
                    b["points_ci95"][0],
                    b["points_ci95"][1],
                    *([b["mean_chips"], *b["chips_ci95"]] if chips else []),
                    b["elo"],
                    *([b["seconds_per_move"]] if timing else []),
                ]
            )
        return buf.getvalue()


# Running ------------------------------------------------------------------------------------------
Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as results come in."""


def batch_size(games: int, cpus: int) -> int:
    """Games per task: about :data:`BATCHES_PER_CPU` tasks per CPU, at most :data:`MAX_BATCH` games.

    A task costs a round trip (a few milliseconds on Ray, more across machines) and a game of the
    cheapest bots about as much, so batches of many games keep scheduling overhead small; several
    batches per CPU keep every CPU busy until the end and a lost node costs little work. The size
    never changes a figure: every game is a pure function of its keys.

    >>> batch_size(2000, 2), batch_size(8, 2), batch_size(100, 6)
    (64, 1, 3)
    """
    return max(1, min(MAX_BATCH, -(-games // (BATCHES_PER_CPU * max(1, cpus)))))


def run_arena(
    config: ArenaConfig,
    workers: int | None = None,
    backend: Backend = "local",
    progress: Progress | None = None,
    ray_address: str | None = None,
    batch: int | None = None,
) -> ArenaResult:
    """Play every game of ``config`` and return the results (identical for any workers, backend,
    number of nodes or batch size).

    ``workers``: processes of the local pool (default: CPU count; 1 plays in this process) or CPUs
    for a local Ray instance started here. ``ray_address`` (else ``RAY_ADDRESS``) connects the
    ``ray`` backend to an existing cluster (see :mod:`rummykit.cluster`); an already initialised Ray
    is used as it is. ``batch``: games per task (default :func:`batch_size`).

    Raises:
        ArenaError: bad configuration or backend, Ray missing (the ``[ray]`` extra), cluster
            unreachable or running other versions, or a batch lost for good.
    """
    games = build_games(config)
    start = time.perf_counter()
    try:
        with Runner(backend, workers, ray_address) as runner:
            size = batch if batch is not None else batch_size(len(games), runner.cpus)
            if size < 1:
                raise ArenaError("batch must be at least 1 game")
            results: list[GameResult] = []
            nodes: dict[str, NodeFigures] = {}
            for done in runner.map(_play_batch, batches_of(games, size)):
                results += done.result
                node = nodes.setdefault(done.node, NodeFigures())
                node.games += len(done.result)
                node.cpu_seconds += done.cpu_seconds
                if progress:
                    progress(len(results), len(games))
            cpus = runner.cpus
    except BackendError as exc:
        raise ArenaError(str(exc)) from None
    results.sort(key=lambda r: r.index)
    if [r.index for r in results] != list(range(len(games))):
        raise ArenaError("the results do not count every game exactly once")
    return ArenaResult(config, results, backend, cpus, time.perf_counter() - start, nodes)


# Plot ---------------------------------------------------------------------------------------------
def check_plot_path(path: str) -> None:
    """Raise :class:`ArenaError` unless a ladder can be drawn to ``path`` (checked before any game).

    Raises:
        ArenaError: the file type is not png/svg, or matplotlib (the ``[plot]`` extra) is missing.
    """
    if not path.lower().endswith((".png", ".svg")):
        raise ArenaError(f"plot: write a .png or .svg file, not {path!r}")
    if importlib.util.find_spec("matplotlib") is None:
        raise ArenaError("plotting needs matplotlib: pip install 'rummykit[plot]'")


def plot_ladder(data: dict[str, Any] | Iterable[dict[str, Any]], path: str, title: str | None = None) -> None:
    """Draw the ladder (win rate with its 95 % interval, and Elo) to ``path`` (.png or .svg).

    ``data`` is one :meth:`ArenaResult.to_dict` or several (one panel row each). Needs matplotlib
    (the ``[plot]`` extra).

    Raises:
        ArenaError: matplotlib is missing or the file type is not png/svg.
    """
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [data] if isinstance(data, dict) else list(data)
    fig, axes = plt.subplots(len(runs), 2, figsize=(10, 2.2 + 1.4 * len(runs) * 1.2), squeeze=False)
    for row, run in enumerate(runs):
        bots = sorted(run["bots"].items(), key=lambda kv: kv[1]["elo"])
        names = [n for n, _ in bots]
        rates = [b["win_rate"] for _, b in bots]
        err = [
            [r - b["ci95"][0] for r, (_, b) in zip(rates, bots, strict=True)],
            [b["ci95"][1] - r for r, (_, b) in zip(rates, bots, strict=True)],
        ]
        ax = axes[row][0]
        ax.barh(names, rates, xerr=err, color="#4c72b0", capsize=4)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (95 % interval)")
        count = run.get("rounds", run.get("matches", 0))
        ax.set_title(f"{run['rules']}: {count} {run['mode']}")
        ax2 = axes[row][1]
        ax2.barh(names, [b["elo"] - ELO_BASE for _, b in bots], left=ELO_BASE, color="#dd8452")
        ax2.axvline(ELO_BASE, color="grey", linewidth=0.8)
        ax2.set_xlabel("Elo")
        for y, (_, b) in enumerate(bots):
            ax2.text(b["elo"], y, f" {b['elo']:.0f}", va="center")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "Game",
    "GameResult",
    "NodeFigures",
    "batch_size",
    "build_games",
    "elo_ratings",
    "mean_interval",
    "play_game",
    "play_recorded",
    "plot_ladder",
    "run_arena",
    "wilson_interval",
]
