"""Reinforcement-learning environments (extra ``rl``: gymnasium, pettingzoo, numpy).

* :mod:`rummykit.envs.rummy_v0`: PettingZoo AEC environment for every rule set and player count,
  ``rummy_v0.env(rules="viennese", players=4)``.
* ``gymnasium.make("rummykit/Rummy-v0", rules="viennese", opponents="greedy")``: one seat against
  rummykit bots (:class:`rummykit.envs.single.RummyEnv`); registered when this package is imported.
* :mod:`rummykit.envs.encoding` and :mod:`rummykit.envs.observation`: the action tokens with their
  exact mask, and the observation layout.
* :mod:`rummykit.envs.records`: game records as the transitions the environments give (training data).
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401  (rummy_v0 is a PettingZoo environment)
except ModuleNotFoundError as exc:  # a core install: say which extra brings the environments
    raise ModuleNotFoundError(
        f"rummykit.envs needs the rl extra ({exc.name} is missing): pip install 'rummykit[rl]'",
        name=exc.name,
    ) from None

from rummykit.envs import rummy_v0
from rummykit.envs.single import RummyEnv

GYM_ID = "rummykit/Rummy-v0"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="rummykit.envs.single:RummyEnv")

__all__ = ["GYM_ID", "RummyEnv", "rummy_v0"]
