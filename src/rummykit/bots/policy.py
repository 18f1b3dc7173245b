"""``PolicyBot``: plays a trained policy network exported to a ``.npz`` file (extra ``rl``: numpy).

The policy reads the environments' observation vector (:mod:`rummykit.envs.observation`) built from
the bot's own :class:`~rummykit.views.PlayerView` and spells its action token by token
(:mod:`rummykit.envs.encoding`), each time taking the highest-scoring token the mask allows among the
spellings of the actions the environment would offer (the legal ones and openings of several melds,
:func:`~rummykit.envs.encoding.view_candidate_actions`). A policy trained in match scope also reads
the match figures the bot is shown before each decision (``follow_match``). So it plays wherever a
bot plays: the arena, the terminal and the web (``make_bot("policy", path="policy.npz")``, or the
spec ``policy`` with the file named by the ``RUMMYKIT_POLICY`` environment variable).

The file holds the weights of a multilayer perceptron (``w0, b0, w1, b1, …``, tanh between layers,
the last layer giving one score per token) and a JSON ``meta`` entry (rule set, seats, encoding and
observation versions, derived features, gin, take bound, scope). It is read with ``allow_pickle=False``:
loading a file runs no code from it. :func:`export_policy` writes one from a stable-baselines3
``MlpPolicy``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from rummykit.actions import Action
from rummykit.envs import encoding as enc
from rummykit.envs.game import resolve_rules
from rummykit.envs.observation import (
    OBSERVATION_VERSION,
    Layout,
    MatchFigures,
    encode_prefix,
    encode_view,
    has_take_bound,
)
from rummykit.errors import RummyError, quoted
from rummykit.rules import Rules
from rummykit.views import MatchView, PlayerView

POLICY_ENV_VAR: Final = "RUMMYKIT_POLICY"
READABLE_ENCODINGS: Final = (0, enc.ENCODING_VERSION)
"""Encoding v1 only added gin's ``PASS`` after v0's tokens, so v0 files play every other rule set."""
READABLE_OBSERVATIONS: Final = (0, 1, OBSERVATION_VERSION)
"""Observation v1 only added the gin block (outside gin the vectors are v0's), v2 the take bound
block: a v0 or v1 policy is given the vector without it (what it was trained on)."""


class PolicyFileError(RummyError, ValueError):
    """A policy file that is missing, malformed or made for another encoding."""


def _check_layers(path: str | os.PathLike[str], layers: Sequence[tuple[npt.NDArray[Any], ...]]) -> None:
    """Refuse weights that cannot play (before the first move, not in the middle of a game): no
    layer, a weight that is not a matrix, a bias that does not match its layer, a layer that does
    not read what the one before writes, or numbers that are not finite."""
    if not layers:
        raise PolicyFileError(f"{path}: the policy has no layer")
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or b.shape != (w.shape[1],):
            raise PolicyFileError(f"{path}: layer {i} has weights {w.shape} and biases {b.shape}")
        written = layers[i - 1][0].shape[1] if i else w.shape[0]
        if written != w.shape[0]:
            reads = w.shape[0]
            raise PolicyFileError(f"{path}: layer {i} reads {reads} inputs, layer {i - 1} writes {written}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyFileError(f"{path}: layer {i} holds numbers that are not finite")


class PolicyBot:
    """Plays the exported policy greedily (the best-scoring allowed token at each sub-step)."""

    name = "policy"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        try:
            self.fingerprint = "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()
            """What the bot plays from: self-play records it, so a run never resumes with other weights."""
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                count = int(meta["layers"])
                self.layers = [(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                               for i in range(count)]
        except OSError as exc:
            raise PolicyFileError(f"cannot read the policy file {path}: {exc.strerror or exc}") from None
        except (KeyError, ValueError, TypeError) as exc:
            # numpy takes any file that is not .npy/.npz for a pickle and suggests allow_pickle: not
            # advice to pass on (a policy file holds arrays only, and pickles run code).
            pickled = "pickle" in str(exc)
            reason = "not a policy file (a .npz of weights written by export_policy)" if pickled else str(exc)
            raise PolicyFileError(f"cannot read the policy file {path}: {reason}") from None
        _check_layers(path, self.layers)
        if not isinstance(meta, dict) or not all(k in meta for k in ("players", "derived_features")):
            raise PolicyFileError(f"{path}: the file does not say the table it was trained for")
        encoding, observation = meta.get("encoding"), meta.get("observation")
        if encoding not in READABLE_ENCODINGS or observation not in READABLE_OBSERVATIONS:
            raise PolicyFileError(
                f"{path} was trained on encoding v{encoding}, observation v{observation}; this rummykit "
                f"reads encodings {READABLE_ENCODINGS} and observations {READABLE_OBSERVATIONS}"
            )
        tokens = enc.NUM_TOKENS if encoding == enc.ENCODING_VERSION else enc.V0_TOKENS
        if self.layers[-1][0].shape[1] != tokens:
            raise PolicyFileError(f"{path}: the last layer does not score the {tokens} tokens")
        if tokens < enc.NUM_TOKENS:  # encoding v0: PASS (gin only) came later and is never chosen
            w, b = self.layers[-1]
            pad = enc.NUM_TOKENS - tokens
            self.layers[-1] = (np.pad(w, ((0, 0), (0, pad))), np.pad(b, (0, pad), constant_values=-np.inf))
        self.meta: dict[str, Any] = meta
        self.players = int(meta["players"])
        self.derived = bool(meta["derived_features"])
        self.gin = bool(meta.get("gin", False))
        self.reads_take_bound = observation == OBSERVATION_VERSION
        """Observation v2: the rules must have the take bound block exactly when the policy was
        trained with it (a v0 or v1 policy reads vectors without it under any rules)."""
        self.take_bound = self.reads_take_bound and bool(meta.get("take_bound", False))
        if self.gin and self.take_bound:
            raise PolicyFileError(f"{path}: the file says gin and the take bound, which no rule set has")
        self.layout = Layout.of(self.players, self.derived, self.gin, self.take_bound)
        self.scope = str(meta.get("scope", "hand"))
        """``match``: trained on whole matches, whose public figures (totals, chips, pot, hands
        dealt, an open buy-back) are part of the observation; files without it were hand-scope."""
        if self.scope not in ("hand", "match"):
            raise PolicyFileError(f"{path}: scope must be 'hand' or 'match', not {quoted(self.scope)}")
        self._figures: MatchFigures | None = None
        self.trained_rules: Rules | None = _trained_rules(meta.get("rules"))
        """The rules the policy was trained under, as the file names them (``None`` when it names
        none, or rules this rummykit does not know)."""
        expected = self.layout.size
        if self.layers[0][0].shape[0] != expected:
            raise PolicyFileError(
                f"{path}: the first layer reads {self.layers[0][0].shape[0]} inputs, the observation of "
                f"a table of {self.players} has {expected}"
            )

    def scores(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        x = obs
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x

    def follow_match(self, mv: MatchView) -> None:
        """The match figures of the next decision, as the match-scope environment shows them (a
        hand-scope policy was trained without them and keeps reading zeros)."""
        if self.scope == "match":
            self._figures = MatchFigures(
                totals=mv.totals,
                chips=mv.chips,
                pot=mv.pot,
                hands_dealt=mv.hands_dealt,
                buyback_pending=mv.buyback_pending,
                is_match=True,
            )

    def check_table(self, rules: Rules, players: int) -> None:
        """Refuse a table this policy cannot read: another number of seats, gin or not gin unlike its
        training, or the take bound where it was trained without (or the reverse).

        Raises:
            PolicyFileError: the reason, before the first move.
        """
        if players != self.players:
            raise PolicyFileError(f"this policy plays at a table of {self.players}, not {players}")
        if rules.is_gin != self.gin:
            raise PolicyFileError(f"this policy was trained {'on' if self.gin else 'without'} gin rules")
        if self.reads_take_bound and has_take_bound(rules) != self.take_bound:
            applies = "applies" if self.take_bound else "does not apply"
            raise PolicyFileError(f"this policy was trained on rules where max_takes_in_a_row {applies}")

    def table_notice(self, rules: Rules) -> str | None:
        """A line saying that this policy was trained under other rules than ``rules`` (a Viennese
        policy at a German table plays, since the observation has the same layout, but it never
        learned to meld), or ``None`` when the rules are its own or the file does not name them."""
        trained = self.trained_rules
        if trained is None or trained == rules:
            return None
        return f"note: this policy was trained on {trained}; this table plays {rules}"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        seats = len(view.hand_sizes)
        self.check_table(view.rules, seats)
        composer = enc.Composer(enc.view_candidate_actions(view, legal))
        figures, self._figures = self._figures or MatchFigures.none(seats), None
        obs = encode_view(view, figures, layout=self.layout)
        while True:
            encode_prefix(obs, seats, composer.tokens)
            allowed = composer.allowed()
            scores = self.scores(obs)
            token = max(allowed, key=lambda t: scores[t])
            action = composer.step(token)
            if action is not None:
                return action


def _trained_rules(text: object) -> Rules | None:
    """The rules a policy file names (its ``meta["rules"]``, a preset name or a rules text), or
    ``None`` when it names none or rules that do not parse here."""
    if not isinstance(text, str):
        return None
    try:
        return resolve_rules(text)
    except RummyError:
        return None


def load_policy_bot(level: str | None = None, path: str | os.PathLike[str] | None = None) -> PolicyBot:
    """The factory behind ``make_bot("policy", path=…)``; without ``path`` the file named by
    ``RUMMYKIT_POLICY``. ``level`` is ignored (the policy is what it is)."""
    where = path if path is not None else os.environ.get(POLICY_ENV_VAR)
    if not where:
        raise PolicyFileError(
            f"the policy bot needs a file: set {POLICY_ENV_VAR}=FILE.npz "
            "(in Python: make_bot('policy', path=…))"
        )
    return PolicyBot(where)


def export_policy(
    model: Any,
    path: str | os.PathLike[str],
    *,
    rules: str,
    players: int,
    derived_features: bool,
    scope: str = "hand",
) -> None:
    """Write the actor of a stable-baselines3 (sb3-contrib) ``MlpPolicy`` with tanh activations
    (``scope``: the environment's, ``hand`` or ``match``)."""
    if scope not in ("hand", "match"):
        raise ValueError(f"scope must be 'hand' or 'match', not {scope!r}")
    import torch

    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(policy.action_net)
    arrays: dict[str, Any] = {}
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    meta = {
        "layers": len(linears),
        "rules": rules,
        "players": players,
        "derived_features": derived_features,
        "scope": scope,
        "gin": resolve_rules(rules).is_gin,
        "take_bound": has_take_bound(resolve_rules(rules)),
        "encoding": enc.ENCODING_VERSION,
        "observation": OBSERVATION_VERSION,
    }
    np.savez(Path(path), meta=np.array(json.dumps(meta)), **arrays)
