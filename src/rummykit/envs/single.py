"""``rummykit/Rummy-v0``: one seat of any rule set against rummykit bots, as a Gymnasium environment.

>>> import gymnasium, rummykit.envs
>>> env = gymnasium.make("rummykit/Rummy-v0", rules="german", opponents="greedy")
>>> obs, info = env.reset(seed=7)
>>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum())
(True, 2)

The agent spells its actions token by token exactly as in :mod:`rummykit.envs.rummy_v0` (same
encoding, same observation vector, as a flat ``Box``); the other seats are played by bots
(``opponents``: a bot spec such as ``"random"``, ``"greedy"``, ``"search:easy"``, or one spec per
other seat) that see only their own views. The agent's seat is drawn for every episode unless
``seat`` fixes it; ``reset(options={"record": record})`` deals the episode from a game record's
first deal, as :mod:`rummykit.envs.rummy_v0` does. The mask is in ``info["action_mask"]`` and
:meth:`RummyEnv.action_masks` (for sb3-contrib's MaskablePPO); once the episode has ended, however
it ended (the hand over, a masked-out token, a truncation), and before the first ``reset``, both are
all zeros. A masked-out
token ends the episode (``terminated``) with ``illegal_reward`` and ``info["illegal"] = True``; an
action that is no token 0-106 at all (a float, an integer out of range) raises ``ValueError``. The
episode is truncated when the hand passes the guard against endless hands (:mod:`rummykit.guard`:
10,000 engine actions without a draw from the stock, or 1,000,000 in one hand; real hands stay far
below), whether the agent or the bots keep it going, and should the engine offer no action before
the end (``TokenGame.stuck``); ``info["truncation"]`` says which. Rewards as in
:mod:`rummykit.envs.game` (``reward="score"``, ``"win"`` or ``"margin"``; ``"score"`` is zero-sum
only in gin, and pays a stalled, unscored hand as much as a win in German and Scala 40): an
episode's rewards add up to the agent's result. In match scope the bots may finish whole hands
before the agent's first move (a Hand-Rommé by the forehand); what those hands paid the agent's
seat comes with the reward of its first step (``info["reward_before_first_move"]`` after ``reset``
says how much).

The step that ends the hand (in match scope the match) by the rules carries its outcome in
``info["result"]`` for the agent's seat (:meth:`TokenGame.result_info
<rummykit.envs.game.TokenGame.result_info>`: points per seat, ``own_points``, ``winner``,
``winners``, ``won``, ``termination``, ``scored``; in match scope ``match`` with the match scores, and
chips in a rubber, Viennese or Rommé ohne Auslegen): under auto-reset (Gymnasium's vector
environments, stable-baselines3's ``VecEnv``) the game has already dealt the next hand when a
trainer looks, so this is where win rates, unscored hands and points are read. An episode ended by
a masked-out token or a truncation has no result (``info["illegal"]``, ``info["truncation"]``).

:meth:`RummyEnv.set_opponents` replaces the opponents from the next ``reset`` (a league of past
policies, a harder bot), also through ``VecEnv.env_method("set_opponents", …)``.

``render_mode="ansi"``: ``render()`` returns the terminal game's board from the seat to move (the
agent's, while the episode runs; once the hand or match is over, how it ended and the score table;
once the episode was cut short, why) as text; ``render_mode="human"``: the same board printed to
``sys.stdout`` at the end of every ``reset`` and ``step`` (Gymnasium's convention), and by
``render()``, which returns ``None``. The ``observation_space`` is a ``Box`` whose bounds hold every
observation (:func:`~rummykit.envs.observation.feature_bounds`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummykit.bots import Bot, check_seat, make_bot, match_action
from rummykit.bots.base import new_game
from rummykit.envs import encoding as enc
from rummykit.envs.game import RewardKind, Scope, TokenGame
from rummykit.envs.rummy_v0 import RENDER_MODES, check_render_mode, record_option, render_game, token_of
from rummykit.rules import Rules


def _opponent(spec: object) -> Bot:
    """An opponent from a bot kind (``"greedy"``, ``"search:hard"``) or a bot object."""
    if isinstance(spec, str):
        return make_bot(spec)
    if isinstance(spec, Bot):
        return spec
    kind = type(spec).__name__
    raise TypeError(
        f"opponents: give a bot kind such as 'greedy' or a bot with a name and choose(), not {kind}"
    )


Opponents: TypeAlias = str | Bot | Sequence[str | Bot]
"""What ``opponents`` takes: one bot spec or bot for every other seat, or one per other seat."""


def opponents_for(opponents: Opponents, rules: Rules, players: int) -> list[Bot]:
    """The bots of the other seats at a table of ``players`` under ``rules``: one spec or bot for
    every other seat, or one per other seat (``players - 1``), each able to play the table.

    Raises:
        ValueError: not one spec and not ``players - 1`` of them; an unknown bot kind.
        TypeError: an entry that is neither a bot kind nor a bot.
        RummyError: a bot that cannot play this table (its own error, from its ``check_table``: a
            policy trained for another table, OpenSpiel's gin bot at German).
    """
    if isinstance(opponents, (str, Bot)):
        specs: list[str | Bot] = [opponents] * (players - 1)
    else:
        specs = list(opponents)
    if len(specs) != players - 1:
        raise ValueError(f"opponents: give one bot spec or {players - 1}, not {len(specs)}")
    bots = [_opponent(spec) for spec in specs]
    for bot in bots:
        check_seat(bot, rules, players)
    return bots


_NOT_STARTED: Final = " (no episode has started)"


class RummyEnv(gymnasium.Env[npt.NDArray[np.float32], int]):
    """One seat against bots; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (gymnasium's attribute)

    def __init__(
        self,
        rules: Rules | str = "viennese",
        players: int = 2,
        opponents: Opponents = "random",
        *,
        seat: int | None = None,
        scope: Scope = "hand",
        reward: RewardKind = "score",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        derived_features: bool = False,
    ) -> None:
        check_render_mode(render_mode)
        self.game = TokenGame(rules, players, scope, reward, derived_features)
        self.bots: list[Bot] = opponents_for(opponents, self.game.rules, players)
        """The opponents of the episode being played (those of ``set_opponents`` from the next
        ``reset``)."""
        self._next_bots: list[Bot] | None = None
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} does not exist at a table of {players}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        default = self.game.default_illegal_reward
        self.illegal_reward = default if illegal_reward is None else float(illegal_reward)
        self._ended = _NOT_STARTED
        """Why the episode ended though the hand did not (a masked-out token, a truncation), or that
        no episode has started yet (``step`` before ``reset``)."""
        self.render_mode = render_mode
        low, high = self.game.observation_bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space: spaces.Space[int] = spaces.Discrete(enc.NUM_TOKENS)  # type: ignore[assignment]
        self._bot_rng = random.Random()
        self._bot_for: dict[int, Bot] = {}
        self._unpaid = 0.0
        """The agent's rewards from the bots' moves before its first step (paid with that step)."""

    def set_opponents(self, opponents: Opponents) -> None:
        """Play the other seats with ``opponents`` (what the constructor takes) from the next
        ``reset()`` on; the episode being played keeps its bots to its end. Checked at once, as the
        constructor checks them (the count, the bot kinds, each bot able to play the table), so a
        bad league entry fails where it is set. Reachable through stable-baselines3's
        ``vec_env.env_method("set_opponents", opponents)`` (``SubprocVecEnv`` pickles the specs or
        bots to its workers) and Gymnasium's ``vector_env.call("set_opponents", opponents)``.

        Raises:
            ValueError, TypeError, RummyError: as the constructor's ``opponents``.
        """
        self._next_bots = opponents_for(opponents, self.game.rules, self.game.players)

    def _mask(self) -> npt.NDArray[np.int8]:
        """The agent's mask: all zeros once the episode has ended (the hand over, a masked-out token,
        a truncation) or before the first ``reset``, when ``step`` accepts no token."""
        if self._ended:
            return np.zeros(enc.NUM_TOKENS, dtype=np.int8)
        return self.game.mask()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The tokens allowed now (sb3-contrib's ``MaskablePPO`` reads this); all zeros once the
        episode has ended, however it ended."""
        return self._mask().astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start an episode: a new deal (dealt again while the bots would finish it before the agent's
        first move), or with ``options={"record": record}`` the record's first deal
        (:func:`~rummykit.envs.rummy_v0.record_option`). Where the bots would finish the record's deal
        before the agent's drawn seat moves (the forehand going out at once), the agent takes the
        next seat clockwise that does move, the same for the same seed; with a fixed ``seat`` that
        never moves the reset is refused, ``ValueError``."""
        super().reset(seed=seed)
        record = record_option(options)
        self._ended = ""
        if self._next_bots is not None:
            self.bots, self._next_bots = self._next_bots, None
        rng = self.np_random
        players = self.game.players
        while True:  # a deal the bots finish before the agent's first move is dealt again
            for bot in self.bots:  # an episode cut short leaves nothing in a bot's memory
                new_game(bot)
            deal_seed = int(rng.integers(2**32))
            if record is None:
                self.game.reset(deal_seed)
            else:
                self.game.play_record(record, deal_seed)
            bot_seed = int(rng.integers(2**32))
            self._bot_rng = random.Random(bot_seed)
            self.seat = int(rng.integers(players)) if self.fixed_seat is None else self.fixed_seat
            drawn = self.seat
            while True:
                others = [s for s in range(players) if s != self.seat]
                self._bot_for = dict(zip(others, self.bots, strict=True))
                before = self._play_bots()
                if not self.game.is_over and not self.game.truncated:
                    self._unpaid = before
                    info = self._info()
                    info["reward_before_first_move"] = before
                    if self.render_mode == "human":
                        self.render()
                    return self.game.observe(self.seat), info
                if record is None:
                    break  # dealt again
                self.seat = (self.seat + 1) % players
                if self.fixed_seat is not None or self.seat == drawn:
                    self._ended = _NOT_STARTED
                    raise ValueError(
                        f"the bots end this record's first deal before seat {drawn} moves: "
                        "start it with another seat"
                    )
                # The record's deal again, the same bots' moves, the next seat for the agent.
                for bot in self.bots:
                    new_game(bot)
                self.game.play_record(record, deal_seed)
                self._bot_rng = random.Random(bot_seed)

    def _play_bots(self) -> float:
        """Let the bots move until the agent is to move or the game is over; the agent's rewards."""
        game = self.game
        total = 0.0
        while not game.is_over and not game.truncated and game.to_move != self.seat:
            bot = self._bot_for[game.to_move]
            try:
                if game.match is not None:
                    action = match_action(bot, game.match, self._bot_rng)
                else:
                    rnd = game.round
                    action = bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), self._bot_rng)
            except Exception as exc:
                exc.add_note(f"the opponent bot {getattr(bot, 'name', bot)!r} at seat {game.to_move}")
                raise
            total += game.apply(action)[self.seat]
        return total

    def step(self, action: int) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        result = self._step(action)
        if self.render_mode == "human":
            self.render()
        return result

    def _step(self, action: int) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        game = self.game
        if self._ended is _NOT_STARTED:
            raise RuntimeError("no episode has started: call reset() before step()")
        if game.is_over or self._ended:
            raise RuntimeError(f"the episode is over{self._ended}: call reset()")
        token = token_of(action, f"seat {self.seat}")
        if not game.composer.is_allowed(token):
            self._ended = f" (ended by the masked-out token {token})"
            info = self._info()
            info["illegal"] = True
            return game.observe(self.seat), float(self.illegal_reward), True, False, info
        applied, rewards = game.step(token)
        reward, self._unpaid = rewards[self.seat] + self._unpaid, 0.0
        if applied is not None:
            reward += self._play_bots()
        if game.truncated:
            self._ended = f" (truncated: {game.truncation})"
        info = self._info()
        if game.truncated:
            info["truncation"] = game.truncation
        elif game.is_over:
            info["result"] = game.result_info(self.seat)
        return game.observe(self.seat), reward, game.is_over, game.truncated, info

    def render(self) -> str | None:
        """The board in ``"ansi"``; printed, and ``None``, in ``"human"``; ``None`` without a mode."""
        ended = self._ended
        cut = ended[2:-1] if ended and ended is not _NOT_STARTED else None  # " (why)"
        return render_game(self.game, self.render_mode, cut)
