"""``PolicyBot``: plays a trained policy network exported to a ``.npz`` file (extra ``rl``: numpy).

The policy reads the environments' observation vector (:mod:`rummykit.envs.observation`) built from
the bot's own :class:`~rummykit.views.PlayerView` and spells its action token by token
(:mod:`rummykit.envs.encoding`), each time taking the highest-scoring token the mask allows among the
spellings of the actions the environment would offer (the legal ones and openings of several melds,
:func:`~rummykit.envs.encoding.view_candidate_actions`). A policy trained in match scope also reads
the match figures the bot is shown before each decision (``follow_match``). So it plays in the
arena, self-play and the terminal (``make_bot("policy", path="policy.npz")``, the spec
``policy:policy.npz``, or the spec ``policy`` with the file named by the ``RUMMYKIT_POLICY``
environment variable); not at the web server's tables, which seat only its own bots (a stranger's
table must not read files from the server's disk).

The file holds the weights of a multilayer perceptron (``w0, b0, w1, b1, …``, tanh between layers,
the last layer giving one score per token) and a JSON ``meta`` entry (rule set, seats, encoding and
observation versions, derived features, gin, take bound, doubled, scope). It is read with
``allow_pickle=False``: loading a file runs no code from it. :func:`export_policy` writes one from a
stable-baselines3 ``MlpPolicy``.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import zipfile
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
    has_doubled,
    has_take_bound,
    match_totals,
)
from rummykit.errors import RummyError, quoted
from rummykit.rules import Rules
from rummykit.views import MatchView, PlayerView

POLICY_ENV_VAR: Final = "RUMMYKIT_POLICY"
READABLE_ENCODINGS: Final = (0, enc.ENCODING_VERSION)
"""Encoding v1 only added gin's ``PASS`` after v0's tokens, so v0 files play every other rule set."""
READABLE_OBSERVATIONS: Final = (0, 1, 2, 3, OBSERVATION_VERSION)
"""Observation v1 only added the gin block (outside gin the vectors are v0's), v2 the take bound
block, v3 the doubled block: a policy of an earlier version is given the vector without the blocks
added after it (what it was trained on). v4 changed only the match totals of a ``winner_collects``
match (:func:`~rummykit.envs.observation.match_totals`): a match-scope policy of an earlier version is
shown the minus points there, as it was trained."""


MAX_POLICY_BYTES: Final = 64 * 2**20
"""The most bytes a policy file may hold, on disk and unpacked (its arrays together, as their headers
declare them). The largest policy the project's trainer writes (``examples/train_maskable_ppo.py``:
``net_arch [128, 128]``, float32) is 1.9 MB at a table of 8 (observation of 3,442 numbers; 1.5 MB at
the Viennese table of 2 it trains): the limit leaves room for hidden layers of 1,024 in float64, and
keeps a crafted file (a few hundred KB packing gigabytes of zeros, a header claiming terabytes) from
taking the memory before any check."""
MAX_META_BYTES: Final = 2**20
"""The most bytes the JSON ``meta`` entry may unpack to (the trainer's is under 1 KB; a rules text
there is at most 16,384 characters, 64 KB as numpy stores text)."""
MAX_SEATS: Final = 8
"""The largest table a policy can be trained for (``Rules.max_players`` goes up to 8)."""
NOT_A_POLICY: Final = "not a policy file (a .npz of weights written by export_policy)"


class PolicyFileError(RummyError, ValueError):
    """A policy file that is missing, malformed or made for another encoding."""


def _read_member(
    path: str | os.PathLike[str], archive: zipfile.ZipFile, name: str, kind: str
) -> npt.NDArray[Any]:
    """The array ``name`` of the archive, read only after its header is checked: a numpy array
    (format 1.0 or 2.0) of dtype kind ``kind`` (``"f"``: floating point numbers; ``"U"``: text), no
    object array (``allow_pickle=False``), whose declared size fits :data:`MAX_POLICY_BYTES`."""
    member = f"{name}.npy"
    try:
        info = archive.getinfo(member)
    except KeyError:
        raise PolicyFileError(f"cannot read the policy file {path}: it holds no array {name}") from None
    with archive.open(info) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"array format {version}")
        size = dtype.itemsize * int(np.prod(shape, dtype=object))
        limit = MAX_META_BYTES if kind == "U" else MAX_POLICY_BYTES
        if dtype.kind != kind or dtype.hasobject:
            wanted = "text" if kind == "U" else "floating point numbers"
            raise _unreadable(path, f"array {name} holds {dtype}, not {wanted}")
        if size > limit:
            raise PolicyFileError(
                f"cannot read the policy file {path}: array {name} of shape {quoted(shape)} would take "
                f"{size:,} bytes, more than the {limit:,} a policy may (the largest trained here is 1.9 MB)"
            )
    with archive.open(info) as f:
        array: npt.NDArray[Any] = np.load(f, allow_pickle=False)
    return array


def _unreadable(path: str | os.PathLike[str], reason: str) -> PolicyFileError:
    return PolicyFileError(f"cannot read the policy file {path}: {reason}")


def _read_policy(
    path: str | os.PathLike[str],
) -> tuple[str, dict[str, Any], list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]]:
    """The fingerprint, the parsed ``meta`` and the layers of the policy file at ``path``; sizes are
    checked before anything is unpacked (:data:`MAX_POLICY_BYTES`).

    Raises:
        PolicyFileError: the file cannot be read, is too large, or is not a policy file.
    """
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_POLICY_BYTES + 1)
    except OSError as exc:
        raise PolicyFileError(f"cannot read the policy file {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_POLICY_BYTES:
        raise PolicyFileError(
            f"cannot read the policy file {path}: it holds more than {MAX_POLICY_BYTES:,} bytes, "
            "which no policy needs (the largest trained here is 1.9 MB)"
        )
    fingerprint = "sha256:" + hashlib.sha256(data).hexdigest()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_POLICY_BYTES:
                raise PolicyFileError(
                    f"cannot read the policy file {path}: it unpacks to {unpacked:,} bytes, more than the "
                    f"{MAX_POLICY_BYTES:,} a policy may (the largest trained here is 1.9 MB)"
                )
            text = str(_read_member(path, archive, "meta", "U"))
            try:
                meta = json.loads(text)
            except RecursionError:
                raise _unreadable(path, "its meta entry is nested too deeply") from None
            except ValueError:
                raise _unreadable(path, "its meta entry is not JSON") from None
            if not isinstance(meta, dict):
                raise _unreadable(path, "its meta entry is not a JSON object")
            count = meta.get("layers")
            if type(count) is not int or not 1 <= count <= len(archive.infolist()):
                raise PolicyFileError(
                    f"cannot read the policy file {path}: meta 'layers' must be the number of layers, "
                    f"not {quoted(count)}"
                )
            layers = [
                (
                    _read_member(path, archive, f"w{i}", "f").astype(np.float32, copy=False),
                    _read_member(path, archive, f"b{i}", "f").astype(np.float32, copy=False),
                )
                for i in range(count)
            ]
    except PolicyFileError:
        raise
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, TypeError, KeyError, NotImplementedError):
        # numpy takes any file that is not .npy/.npz for a pickle and suggests allow_pickle: not
        # advice to pass on (a policy file holds arrays only, and pickles run code); other messages
        # may repeat what the file holds.
        raise PolicyFileError(f"cannot read the policy file {path}: {NOT_A_POLICY}") from None
    return fingerprint, meta, layers


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
        self.fingerprint, meta, self.layers = _read_policy(path)
        """What the bot plays from: self-play records it, so a run never resumes with other weights."""
        _check_layers(path, self.layers)
        if not all(k in meta for k in ("players", "derived_features")):
            raise PolicyFileError(f"{path}: the file does not say the table it was trained for")
        players = meta["players"]
        if type(players) is not int or not 2 <= players <= MAX_SEATS:
            raise PolicyFileError(f"{path}: a table has 2 to {MAX_SEATS} players, not {quoted(players)}")
        encoding, observation = meta.get("encoding"), meta.get("observation")
        if encoding not in READABLE_ENCODINGS or observation not in READABLE_OBSERVATIONS:
            raise PolicyFileError(
                f"{path} was trained on encoding v{quoted(encoding)}, observation v{quoted(observation)}; "
                f"this rummykit reads encodings {READABLE_ENCODINGS} and observations {READABLE_OBSERVATIONS}"
            )
        tokens = enc.NUM_TOKENS if encoding == enc.ENCODING_VERSION else enc.V0_TOKENS
        if self.layers[-1][0].shape[1] != tokens:
            raise PolicyFileError(f"{path}: the last layer does not score the {tokens} tokens")
        if tokens < enc.NUM_TOKENS:  # encoding v0: PASS (gin only) came later and is never chosen
            w, b = self.layers[-1]
            pad = enc.NUM_TOKENS - tokens
            self.layers[-1] = (np.pad(w, ((0, 0), (0, pad))), np.pad(b, (0, pad), constant_values=-np.inf))
        self.meta: dict[str, Any] = meta
        self.players = players
        self.derived = bool(meta["derived_features"])
        self.gin = bool(meta.get("gin", False))
        self.reads_take_bound = observation >= 2
        """Observation v2 on: the rules must have the take bound block exactly when the policy was
        trained with it (a v0 or v1 policy reads vectors without it under any rules)."""
        self.take_bound = self.reads_take_bound and bool(meta.get("take_bound", False))
        if self.gin and self.take_bound:
            raise PolicyFileError(f"{path}: the file says gin and the take bound, which no rule set has")
        self.reads_doubled = observation >= 3
        """Observation v3: the rules must have the doubled block exactly when the policy was trained
        with it (a v0, v1 or v2 policy reads vectors without it under any rules)."""
        self.doubled = self.reads_doubled and bool(meta.get("doubled", False))
        if self.doubled and not self.gin:
            raise PolicyFileError(f"{path}: the file says doubled without gin, which no rule set has")
        self.layout = Layout.of(self.players, self.derived, self.gin, self.take_bound, self.doubled)
        self.reads_plus_points = observation >= 4
        """Observation v4: the match totals of a ``winner_collects`` match are its plus points
        (:func:`~rummykit.envs.observation.match_totals`); earlier policies read the minus points."""
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
            totals = mv.totals
            if self.reads_plus_points:
                gains = tuple(score + total for score, total in zip(mv.scores, totals, strict=True))
                totals = match_totals(mv.rules, totals, gains)
            self._figures = MatchFigures(
                totals=totals,
                chips=mv.chips,
                pot=mv.pot,
                hands_dealt=mv.hands_counted,
                buyback_pending=mv.buyback_pending,
                is_match=True,
            )

    def check_table(self, rules: Rules, players: int) -> None:
        """Refuse a table this policy cannot read: another number of seats, gin or not gin unlike its
        training, the take bound or the doubled block where it was trained without (or the reverse).

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
        if self.reads_doubled and has_doubled(rules) != self.doubled:
            on = "on" if self.doubled else "off"
            raise PolicyFileError(f"this policy was trained on rules where oklahoma_spade_doubles is {on}")

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
    (``scope``: the environment's, ``hand`` or ``match``).

    The policy bot computes exactly that network: tanh between the layers, on the observation as the
    environment gives it. Anything else is refused rather than written to play otherwise than the
    model (a ReLU network exported and played with tanh agreed with the model on 88 of 200
    decisions): another ``activation_fn``, a features extractor other than the flattening one. The
    statistics of a ``VecNormalize`` wrapper are not part of the model: a policy trained on
    normalised observations must not be exported.

    Raises:
        ValueError: ``scope`` is neither ``hand`` nor ``match``, or the model is not such a network.
    """
    if scope not in ("hand", "match"):
        raise ValueError(f"scope must be 'hand' or 'match', not {scope!r}")
    import torch
    from stable_baselines3.common.torch_layers import FlattenExtractor

    policy = model.policy
    activation = getattr(policy, "activation_fn", None)
    if activation is not torch.nn.Tanh:
        named = getattr(activation, "__name__", repr(activation))
        raise ValueError(
            f"the policy bot plays MlpPolicy networks with tanh activations, not {named}: train with "
            "policy_kwargs={'activation_fn': torch.nn.Tanh} (stable-baselines3's default for PPO)"
        )
    extractors = [getattr(policy, name, None) for name in ("features_extractor", "pi_features_extractor")]
    if not all(e is None or isinstance(e, FlattenExtractor) for e in extractors):
        raise ValueError(
            "the policy bot reads the observation as the environment gives it: a features extractor "
            "other than stable-baselines3's FlattenExtractor cannot be exported"
        )
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(policy.action_net)
    arrays: dict[str, Any] = {}
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    trained = resolve_rules(rules)
    meta = {
        "layers": len(linears),
        "rules": rules,
        "players": players,
        "derived_features": derived_features,
        "scope": scope,
        "gin": trained.is_gin,
        "take_bound": has_take_bound(trained),
        "doubled": has_doubled(trained),
        "encoding": enc.ENCODING_VERSION,
        "observation": OBSERVATION_VERSION,
    }
    np.savez(Path(path), meta=np.array(json.dumps(meta)), **arrays)
