"""How the server deals: every deck order and every bot decision comes from a secret of the table.

A normal table draws a 256-bit secret from the operating system (:func:`secrets.token_bytes`) when it
is created. It is stored in the database with the table and never sent to anybody; with the server's
key file the table deals from its seal under that key (:func:`seal`), so the stored value alone deals
nothing. Every deal
of the match is the deck shuffled by :class:`SecretRandom` keyed by the secret and labelled with the
deal's number; every reshuffle of a discard pile and every bot decision has its own label. The
generator is HMAC-SHA256 in counter mode: its outputs reveal nothing of the key or of other outputs
(a Mersenne Twister, by contrast, gives its whole state away after 624 outputs), and the same key and
label always give the same stream, so a restarted server that replays a table's moves deals exactly
the same cards.

A *seeded* table (``"seed"`` in the create request: teaching, replaying a famous deal, testing) is
dealt the library's reproducible way instead (:class:`rummykit.match.SeededDealing`): anybody who
knows the seed can know every hand, and the table says so to everybody (:data:`SEEDED_NOTICE`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.cards import build_deck
from rummykit.rules import Rules

SECRET_BYTES: Final = 32
"""Size of a table's secret: 256 bits."""
MIN_KEY_BYTES: Final = 16
"""The smallest key :class:`SecretRandom` accepts (128 bits)."""
SEEDED_NOTICE: Final = "seeded: every hand can be known"
"""What the lobby and the table show for a table created with a fixed seed."""


def new_secret() -> bytes:
    """A fresh table secret from the operating system's CSPRNG."""
    return secrets.token_bytes(SECRET_BYTES)


class SecretRandom(random.Random):
    """A deterministic cryptographic generator: HMAC-SHA256(key, label ‖ counter) as a byte stream.

    Every method of :class:`random.Random` (``shuffle``, ``choice``, ``random`` …) draws from the
    stream through :meth:`getrandbits` and :meth:`random`. Without the key the outputs cannot be
    predicted, even from all earlier outputs; with the key and the label they are reproduced exactly.
    """

    def __init__(self, key: bytes, label: str) -> None:
        if len(key) < MIN_KEY_BYTES:
            raise ValueError(f"SecretRandom needs a key of at least {MIN_KEY_BYTES} bytes, got {len(key)}")
        self._key = bytes(key)
        self._label = label.encode("utf-8")
        self._counter = 0
        self._buffer = b""
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """A keyed generator is not seeded: :class:`random.Random` calls this once, and it does nothing."""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._label + b"\x00" + self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._take(n), "big") >> (n * 8 - k)

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._label, self._counter, self._buffer)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._label, self._counter, self._buffer = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.getstate(),))


def _restore(state: tuple[Any, ...]) -> SecretRandom:
    rng = SecretRandom(state[0], "")
    rng.setstate(state)
    return rng


def seal(key: bytes, stored: bytes) -> bytes:
    """The dealing secret of a table whose database row holds ``stored``: an HMAC under the server's
    key file (:mod:`rummykit.web.address_key`), so the database alone (a backup, a dump, a reader
    of it) cannot rebuild any deal, hidden hand or stock order of a live table."""
    return hmac.new(key, b"rummykit-table-secret:" + stored, hashlib.sha256).digest()


def derive_key(secret: bytes, purpose: str) -> bytes:
    """A separate key for ``purpose`` (``"bots"``, ``"hints"``): one leaked stream opens no other."""
    return hmac.new(secret, b"rummykit-key:" + purpose.encode("utf-8"), hashlib.sha256).digest()


def seeded_key(seed: int) -> bytes:
    """The key of a seeded table's hints: public by design, like everything of a seeded table."""
    return hashlib.sha256(f"rummykit-seeded-table:{seed}".encode()).digest()


def deal_order(rules: Rules, secret: bytes, deal: int) -> list[int]:
    """The deck order (top card first) of deal number ``deal`` (from 1) of a table with ``secret``."""
    rng = SecretRandom(derive_key(secret, "deals"), f"deal:{deal}")
    deck = [int(c) for c in build_deck(rules.num_decks, rules.jokers_total)]
    rng.shuffle(deck)
    return deck


def seat_draw_seed(secret: bytes) -> int:
    """The seed of the draw for the first dealer (RULES.md §3.2): a key of its own, 128 bits.

    The drawn cards are shown to everybody, and nothing of the deals can be learnt from them.
    """
    return int.from_bytes(derive_key(secret, "seat-draw")[:16], "big")


def reshuffler(secret: bytes, deal: int) -> SecretRandom:
    """The generator that reshuffles discard piles into the stock during deal number ``deal``."""
    return SecretRandom(derive_key(secret, "deals"), f"reshuffle:{deal}")


@dataclass(frozen=True, slots=True)
class SecretDealing:
    """How a table that is not seeded deals (a :class:`~rummykit.match.Dealing`): hand number ``n`` of
    its match is the deck order :func:`deal_order` of the secret, and its reshuffles come from
    :func:`reshuffler`. The library's seed deals nothing then (the server's matches keep seed 0).

    Raises:
        ValueError: a secret of fewer than :data:`MIN_KEY_BYTES` bytes.
    """

    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) < MIN_KEY_BYTES:
            raise ValueError(f"a table secret has at least {MIN_KEY_BYTES} bytes, got {len(self.secret)}")

    def deck(self, rules: Rules, hand: int) -> list[int]:
        return deal_order(rules, self.secret, hand)

    def reshuffle_rng(self, hand: int) -> SecretRandom:
        return reshuffler(self.secret, hand)

    def __deepcopy__(self, memo: dict[int, Any]) -> SecretDealing:
        return self  # immutable: a copy of the match shares it
