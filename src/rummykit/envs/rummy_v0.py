"""``rummy_v0``: every rummykit rule set as a PettingZoo environment (AEC, classic conventions).

>>> from rummykit.envs import rummy_v0
>>> from rummykit.envs.encoding import token_name
>>> env = rummy_v0.env(rules="german", players=4)
>>> env.reset(seed=1)
>>> obs, reward, termination, truncation, info = env.last()
>>> sorted(obs), [token_name(t) for t in obs["action_mask"].nonzero()[0]]
(['action_mask', 'observation'], ['draw', 'take'])

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers of the engine). The agent to move is the
engine's seat to move; it spells its action over several steps (the turn's sub-steps), so the same
agent is often selected several times in a row.

* **Actions**: ``Discrete(107)`` tokens, see :mod:`rummykit.envs.encoding` (table, mask exactness,
  version history); gin (two players) is spelled with the same tokens plus ``PASS``. ``raw_env``
  raises ``ValueError`` on a masked-out token, and on an action that is no token 0-106 (a float, an
  integer out of range: never rounded to a token), nothing changed; ``env`` follows the classic
  convention (an illegal token ends the game, the offender gets ``illegal_reward``) with the checks of
  PettingZoo's classic wrappers built in (:class:`classic_env`).
* **Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``, see
  :mod:`rummykit.envs.observation` (layout, version history). The mask is all zeros for agents that
  are not to move.
* **Rewards**: per hand (``scope="hand"``, the default) or over a match (``scope="match"``; the
  rubbers of Viennese and Rommé ohne Auslegen with chips), points, win/loss or zero-sum points
  (``reward="score"|"win"|"margin"``; ``"score"`` is not zero-sum outside gin, and lets stalling
  pay: see :mod:`rummykit.envs.game`).
* **Results**: the step that ends the hand (match) by the rules puts its outcome, for each agent's
  seat, in ``infos[agent]["result"]`` (:meth:`TokenGame.result_info
  <rummykit.envs.game.TokenGame.result_info>`: points per seat, ``own_points``, ``winner``,
  ``winners``, ``won``, ``termination``, ``scored``, and in ``scope="match"`` the match's scores and a
  rubber's chips), which each agent reads with its final ``last()``; the Parallel API returns the
  same ``infos``. An illegal token or a truncation ends the game without one.
* **Ends**: every agent terminates when the hand (match) ends. Every agent is truncated after
  ``max_cycles`` steps (tokens) when that is set; when a hand passes the guard against endless hands
  (:mod:`rummykit.guard`: 10,000 engine actions without a draw from the stock, or 1,000,000 actions
  in one hand, which only unlimited stock rebuilds allow; real hands stay far below);
  and when the engine offers no action before the end (``TokenGame.stuck``, an engine defect).
  ``infos[agent]["truncation"]`` then says which.
* ``render_mode="ansi"``: the terminal game's board (``rich`` needed, part of the ``rl`` extra) from
  the seat to move, with the action spelled so far (once the hand or match is over: how it ended and
  the score table, every hand shown; once the episode was cut short: why), drawn when ``render()``
  is called (a step draws nothing, so training with the mode set costs nothing).
  ``render_mode="human"``: the same board printed to ``sys.stdout`` after ``reset`` and after every
  step (PettingZoo's classic convention: a step of an agent already done prints nothing), and by
  ``render()``, which returns ``None``.
* ``observation_space``: a ``Box`` whose bounds hold every observation the environment hands out
  (:func:`~rummykit.envs.observation.feature_bounds`: proved from the rules, not measured; ``inf``
  only where the rules bound nothing, such as the hands of a match that ends on a score).
* ``seed`` through ``reset(seed=…)``: the same seed deals the same cards to the same dealer.
* ``reset(options={"record": record})`` starts the episode on a game record's first deal
  (:class:`~rummykit.record.Record`, or its JSON data): its rules and seats (refused unless they are
  the environment's), dealer, deck, a version-2 record's deals and reshuffles, and in
  ``scope="match"`` the match from the position it started at, so that a policy plays the deals
  people played. Stepping the record's own tokens there gives what
  :func:`rummykit.envs.records.transitions` yields; play that leaves them deals on
  (:meth:`TokenGame.play_record <rummykit.envs.game.TokenGame.play_record>`).

:func:`parallel_env` gives the same game in PettingZoo's Parallel API: every step each live agent
submits a token and the token of the agent to move is used; a masked-out token there is ignored
(the agent is still to move) and costs ``illegal_reward``, as does none; an action that is no token
0-106 at all (a float, an integer out of range) raises ``ValueError``, as in :func:`env`, and so does
a key of ``actions`` that names no agent (a seat number instead of ``"player_0"``: the mover's token
would be missing at every step); a step once every agent is done (or before ``reset``) raises
``RuntimeError``.

Version history (the name ``rummy_v0`` is kept; the changes only add to what v0 offered):

* observation v4: in ``scope="match"`` under ``hand_scoring = winner_collects`` (the basic preset)
  each seat's match total is its plus points, the score the match is decided on
  (:func:`~rummykit.envs.observation.match_totals`); v3 showed the minus points, which that scoring
  never pays (always 0). Every other observation is v3's.
* observation v3: where ``oklahoma_spade_doubles`` is on (gin under ``oklahoma``) the observation
  has one entry more, 1 when the hand scores double (``observation_space`` one longer); every other
  rule set's observations are v2's.
* observation v2: where ``max_takes_in_a_row`` applies (every rule set but gin and Scala 40) the
  observation has one entry more, the turns in a row begun by taking the discard pile over that
  bound (``observation_space`` one longer); gin's and Scala 40's observations are v1's.
* encoding v1, observation v1: gin is playable (``PASS``, ``Discrete(107)``, the gin block of the
  observation). Outside gin the observations and masks are v0's, with one more (never allowed) token.
* encoding v0, observation v0: first release.
"""

from __future__ import annotations

import io
import sys
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.env_logger import EnvLogger

from rummykit.actions import Action
from rummykit.envs import encoding as enc
from rummykit.envs.game import RewardKind, Scope, TokenGame
from rummykit.record import Record
from rummykit.rules import Rules

ENV_NAME = "rummy_v0"


def _agent(seat: int) -> str:
    return f"player_{seat}"


_TEXTS: dict[int, tuple[Action, str]] = {}
"""``str(action)`` by ``id(action)``, with the action kept alive so that its id stays its own: the
engine offers the same action objects again and again (draws, takes, discards)."""
_TEXTS_KEPT: Final = 4096


def action_text(action: Action) -> str:
    """``str(action)``, remembered for the action objects the engine offers again and again."""
    key = id(action)
    entry = _TEXTS.get(key)
    if entry is not None and entry[0] is action:
        return entry[1]
    if len(_TEXTS) >= _TEXTS_KEPT:
        _TEXTS.clear()
    text = str(action)
    _TEXTS[key] = (action, text)
    return text


_NO_TOKENS: Final = np.zeros(enc.NUM_TOKENS, dtype=np.int8)
"""The mask of an agent that may not act (copied for each observation)."""

RENDER_MODES: Final = ("ansi", "human")
"""The render modes of the environments (``metadata["render_modes"]``)."""


class RenderModeError(ValueError, TypeError):
    """A render mode the environments do not offer (such as ``"rgb_array"``).

    A ``ValueError``, and a ``TypeError`` too: stable-baselines3's ``make_vec_env`` makes a registered
    environment with ``render_mode="rgb_array"`` unless told another mode, and makes it again without
    one when that raises ``TypeError`` (what an environment without the argument raises), so
    ``make_vec_env("rummykit/Rummy-v0", …)`` works as it does for other environments."""


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode the environments do not offer.

    Raises:
        RenderModeError: ``render_mode`` is neither ``None`` nor one of :data:`RENDER_MODES`.
    """
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RenderModeError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")


def observation_space(low: npt.NDArray[np.float32], high: npt.NDArray[np.float32]) -> spaces.Dict:
    """The observation space: the vector within ``low`` and ``high`` (``TokenGame.observation_bounds``)
    and the mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (enc.NUM_TOKENS,), np.int8),
        }
    )


def render_ansi(game: TokenGame, cut: str | None = None) -> str:
    """The terminal game's board seen from the seat to move, as text with ANSI colours; once the hand
    (match) is over, how it ended and the terminal game's score table (every hand, as scored) instead
    of a seat to move; once the episode was cut short before that (``cut``: why), that instead."""
    from rich.console import Console
    from rich.text import Text

    from rummykit.cli.screen import (
        Board,
        Scoreboard,
        match_scoreboard,
        render_board,
        result_table,
        termination_text,
    )

    seat = game.to_move
    view = game.view(seat)
    score = match_scoreboard(game.match) if game.match is not None else Scoreboard()
    names = tuple(_agent(s) for s in range(game.players))
    spelled = " ".join(enc.token_name(t) for t in game.composer.tokens)
    result = view.result if game.is_over else None
    if result is None and cut is not None:
        status = Text(f"the episode was cut short: {cut}")
    elif result is None:
        status = Text(f"{names[seat]} to move" + (f": {spelled} …" if spelled else ""))
    else:
        over = "the match is over" if game.match is not None else "the hand is over"
        status = Text(f"{over}: {termination_text(result, names, rules=game.rules)}")
    board = Board(view=view, names=names, score=score, hands={seat: view.hand}, status=status, height=40)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=100)
    console.print(render_board(board))
    if result is not None:
        console.print(result_table(view, names, score))
    return buffer.getvalue()


def render_game(game: TokenGame, render_mode: str | None, cut: str | None = None) -> str | None:
    """What ``render()`` gives in ``render_mode``: ``None`` without one; in ``"ansi"`` the board as text
    (:func:`render_ansi`, ``cut`` why the episode was cut short, if it was); in ``"human"`` ``None``,
    the same text printed to ``sys.stdout`` (looked up at each call, so that a caller may capture or
    redirect it)."""
    if render_mode is None:
        return None
    text = render_ansi(game, cut)
    if render_mode != "human":
        return text
    out = sys.stdout
    out.write(text)
    out.flush()
    return None


def token_of(action: object, who: str) -> int:
    """``action`` as a token of ``Discrete(107)``: an integer (Python or numpy, or an integer array of
    one entry, as a policy's ``predict()`` returns for one observation) from 0 to 106.

    Raises:
        ValueError: anything else (a float, an out-of-range integer, ``None``), naming ``who`` moves:
            the environments never round an action or read it as some other token.
    """
    value = action
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < enc.NUM_TOKENS:
        return int(value)
    raise ValueError(f"{who} is to move: its action must be a token 0-{enc.NUM_TOKENS - 1}, not {action!r}")


def masked_out_message(game: TokenGame, who: str, token: int) -> str:
    """Why ``raw_env`` refuses ``token`` of the seat to move (``who``): the token, what was spelled of
    the action so far and the tokens the mask allows now, by name."""
    spelled = " ".join(enc.token_name(t) for t in game.composer.tokens)
    allowed = ", ".join(enc.token_name(t) for t in game.composer.allowed())
    after = f" after {spelled}" if spelled else ""
    name = enc.token_name(token)
    return f"{who} is to move: token {token} ({name}) is masked out{after}; allowed: {allowed}"


RESET_OPTIONS: Final = ("record",)
"""The keys ``reset(options=…)`` takes (:func:`record_option`)."""


def record_option(options: dict[str, Any] | None) -> Record | None:
    """The record ``reset(options={"record": record})`` starts from (a :class:`~rummykit.record.Record`
    or its :meth:`~rummykit.record.Record.to_dict` data), ``None`` without one: the episode is the
    record's first deal (:meth:`TokenGame.play_record <rummykit.envs.game.TokenGame.play_record>`).

    Other keys are ignored, as Gymnasium and PettingZoo environments ignore options they do not take
    (PettingZoo's API test passes some): spell ``record`` right.

    Raises:
        TypeError: a ``record`` that is neither a record nor its data.
        NotationError: record data that is not a record.
    """
    if not options:
        return None
    record = options.get("record")
    if record is None or isinstance(record, Record):
        return record
    if isinstance(record, dict):
        return Record.from_dict(record)
    raise TypeError(f"reset option 'record' takes a rummykit.Record or its data, not {type(record).__name__}")


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]  # PettingZoo's name
    """The AEC environment without wrappers; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "name": ENV_NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "german",
        players: int = 2,
        *,
        scope: Scope = "hand",
        reward: RewardKind = "score",
        render_mode: str | None = None,
        derived_features: bool = False,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be positive, not {max_cycles}")
        self.game = TokenGame(rules, players, scope, reward, derived_features)
        self.render_mode = render_mode
        self._human = render_mode == "human"
        self.max_cycles = max_cycles
        self.possible_agents = [_agent(s) for s in range(players)]
        self._obs_space = observation_space(*self.game.observation_bounds())
        self._act_space = spaces.Discrete(enc.NUM_TOKENS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = {a: spaces.Discrete(enc.NUM_TOKENS) for a in self.possible_agents}
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._steps = 0
        self._rewarded = False
        self._cut: str | None = None
        """Why the episode was cut short (truncated, or ended by an illegal token), if it was: no agent
        may act, so every mask is all zeros, and the board says so."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def rules(self) -> Rules:
        return self.game.rules

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: a new deal (``seed`` reseeds the deal stream), or with
        ``options={"record": record}`` the record's first deal (:func:`record_option`)."""
        record = record_option(options)
        if record is None:
            self.game.reset(seed)
        else:
            self.game.play_record(record, seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._steps = 0
        self._rewarded = False
        self._cut = None
        if self.game.truncated:
            self._cut_short(self.game.truncation or "truncated")
        if self._human:
            self.render()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation and mask; the mask is all zeros unless ``agent`` is to move, and
        once the episode has ended, however it ended (the hand or match over, a truncation, an
        illegal token): a done agent may only step ``None``."""
        seat = self._seats[agent]
        game = self.game
        mask = _NO_TOKENS.copy() if self._cut else game.mask_of(seat)
        return {"observation": game.observe(seat), "action_mask": mask}

    def _cut_short(self, why: str) -> None:
        """Truncate every agent: the episode ends before the hand (match) does, for ``why``."""
        self.truncations = dict.fromkeys(self.agents, True)
        self._cut = why

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move and must give a token, not None")
        token = token_of(action, agent)
        if not self.game.composer.is_allowed(token):
            raise ValueError(masked_out_message(self.game, agent, token))
        self._step_token(agent, token)
        if self._human:
            self.render()

    def _step_token(self, agent: str, token: int) -> None:
        """The step of the live ``agent`` to move with ``token`` (checked by the game)."""
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        applied, rewards = game.step(token)
        self._steps += 1
        if applied is None:
            # A sub-step: nobody is rewarded and the same agent spells on.
            if self._rewarded:
                self.rewards = dict.fromkeys(self.rewards, 0.0)
                self._rewarded = False
            if self.max_cycles is not None and self._steps >= self.max_cycles:
                self._cut_short(self._max_cycles_reached())
                self.infos = {a: {"truncation": self._cut} for a in self.agents}
                self._next_agent(agent)
            return
        if rewards is not game.no_rewards or self._rewarded:  # else every reward is 0 already
            self.rewards = {a: rewards[i] for i, a in enumerate(self.possible_agents) if a in self.rewards}
            self._rewarded = any(rewards)
        infos: dict[str, dict[str, Any]] = {}
        for a in self.agents:  # a loop, not a comprehension: no frame of its own on every action
            infos[a] = {}
        infos[agent] = {"action": action_text(applied)}
        self.infos = infos
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                infos[a]["result"] = game.result_info(self._seats[a])
        elif game.truncated or (self.max_cycles is not None and self._steps >= self.max_cycles):
            why = game.truncation or self._max_cycles_reached()
            self._cut_short(why)
            for a in self.agents:
                infos[a]["truncation"] = why
        if game.is_over or any(self.truncations.values()):
            self._next_agent(agent)
        else:
            self.agent_selection = self.possible_agents[game.to_move]
        if self._rewarded:
            self._accumulate_rewards()

    def _max_cycles_reached(self) -> str:
        return f"max_cycles ({self.max_cycles} steps) reached"

    def _next_agent(self, agent: str) -> None:
        """At the end every agent is selected in turn (to take its final observation)."""
        self.agent_selection = self.possible_agents[(self._seats[agent] + 1) % len(self.possible_agents)]

    def render(self) -> str | None:
        """The board in ``"ansi"``; printed, and ``None``, in ``"human"``; ``None`` without a mode."""
        return render_game(self.game, self.render_mode, self._cut)

    def close(self) -> None:
        pass


class classic_env(raw_env):  # PettingZoo's lower-case name for environment classes
    """The AEC environment with the guarantees of PettingZoo's classic wrappers, built in.

    The same behaviour as ``raw_env`` wrapped in ``TerminateIllegalWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (what ``env()`` gave before), in one
    object: each attribute read by the AEC loop (``agent_selection``, ``terminations`` …) is a plain
    attribute instead of a lookup forwarded through three wrappers, which cost about 40 % of a step.

    * A masked-out token ends the game: the offender receives ``illegal_reward``, everybody else 0,
      and every agent is terminated and truncated (as ``TerminateIllegalWrapper`` does). The
      offender's final ``info`` says ``"illegal": True`` (as the Gymnasium and Parallel environments
      say it); the others' are empty (no ``action`` of an earlier step is left in them).
    * A token outside ``Discrete(107)``, or ``None`` for a live agent, raises ``ValueError`` (the
      wrapper asserted; an assertion would vanish under ``python -O``).
    * ``step``, ``observe``, ``render`` and ``agent_iter`` before ``reset`` raise an error; reading
      ``rewards``, ``terminations``, ``truncations``, ``infos`` or ``agent_selection`` before
      ``reset`` raises ``AttributeError``; a step when no agent is left warns.
    """

    def __init__(self, *, illegal_reward: float | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        default = self.game.default_illegal_reward
        self.illegal_reward = default if illegal_reward is None else float(illegal_reward)
        self._has_reset = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        seat = self._seats[agent]  # raw_env.observe written out: the AEC loop calls it on every step
        game = self.game
        mask = _NO_TOKENS.copy() if self._cut else game.mask_of(seat)
        return {"observation": game.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            super().step(action)
            return
        token = token_of(action, agent)
        if self.game.composer.is_allowed(token):
            self._step_token(agent, token)
            if self._human:
                self.render()
            return
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self._cut_short(f"{agent} played the masked-out token {token} ({enc.token_name(token)})")
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.infos = {a: {} for a in self.agents}
        self.infos[agent]["illegal"] = True
        self._accumulate_rewards()
        self._deads_step_first()
        if self._human:
            self.render()

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, dict[str, npt.NDArray[Any]], int]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)


def env(**kwargs: Any) -> classic_env:
    """The AEC environment with the classic conventions (:class:`classic_env`): an illegal token ends
    the game and the offender gets ``illegal_reward``, by default worse than any hand
    (:attr:`TokenGame.default_illegal_reward`)."""
    return classic_env(**kwargs)


class parallel_env(ParallelEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """The game in PettingZoo's Parallel API (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "name": ENV_NAME,
        "is_parallelizable": True,
    }

    def __init__(self, *, illegal_reward: float | None = None, **kwargs: Any) -> None:
        self.aec = raw_env(**kwargs)
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode
        default = self.aec.game.default_illegal_reward
        self.illegal_reward = default if illegal_reward is None else float(illegal_reward)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def _observations(self) -> dict[str, dict[str, npt.NDArray[Any]]]:
        return {a: self.aec.observe(a) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, npt.NDArray[Any]]], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, npt.NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        aec = self.aec
        if not hasattr(aec, "agent_selection"):
            raise RuntimeError("no episode has started: call reset() before step()")
        if not self.agents:
            raise RuntimeError("the episode is over (every agent is done): call reset() before step()")
        unknown = [key for key in actions if key not in aec._seats]
        if unknown:
            raise ValueError(
                f"actions are keyed by agent ({', '.join(self.possible_agents)}), not {unknown[0]!r}"
            )
        mover = aec.agent_selection
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        token = actions.get(mover)
        if token is not None:
            token = token_of(token, mover)
        if token is None or not aec.game.composer.is_allowed(token):
            rewards[mover] = self.illegal_reward
            infos[mover]["illegal"] = True
            aec._steps += 1
            if aec.max_cycles is not None and aec._steps >= aec.max_cycles:
                why = aec._max_cycles_reached()
                aec._cut_short(why)
                for a in self.agents:
                    infos[a]["truncation"] = why
            if aec._human:  # aec.step (a legal token) prints the board itself
                aec.render()
        else:
            aec.step(int(token))
            for a in self.agents:
                rewards[a] = aec.rewards.get(a, 0.0)
            infos.update({a: dict(aec.infos.get(a, {})) for a in self.agents})
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        observations = self._observations()
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
