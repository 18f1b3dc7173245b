"""The key of the stored address digests.

The database keeps client addresses only as digests (:func:`~rummykit.web.owners.address_digest`),
enough to count tables, seats, connections and requests per network. A plain hash of an address
can be reversed by trying them all (an IPv4 address is one of 2³² texts, an afternoon's work), so a
server keys its digests: HMAC-SHA-256 with 32 random bytes kept in a file **outside** the database.
A leaked copy of the database then names nobody without the key file as well.

Digests are counted, never shown; a server that changes from plain to keyed digests takes the
database over (the open tables' plain digests then count no longer, and are erased as those tables
end); from keyed back to plain, or to another key, it refuses.

``rummykit serve`` reads the key from ``--address-key-file`` (default ``address.key`` in the user's
data directory, made on first start, readable by its owner only). Every process sharing one
database needs the same key, or their counts would not meet: the database records a check value of
the key (``rk_meta``), and a server started with another key, or with none where one was used,
refuses to start (:class:`AddressKeyError`). ``create_app`` without a key keeps plain digests, for
tests and embedding.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Final

from rummykit.errors import RummyError

KEY_FILE_ENV: Final = "RUMMYKIT_ADDRESS_KEY_FILE"
KEY_BYTES: Final = 32
SETTING: Final = "address_digests"
"""The ``rk_meta`` row that holds the check value of the key the database's digests were made with."""
PLAIN: Final = "plain"
"""The check value of unkeyed digests."""


class AddressKeyError(RummyError, ValueError):
    """An unreadable key file, or a key other than the one the database's digests were made with."""


def default_key_file() -> Path:
    """``$RUMMYKIT_ADDRESS_KEY_FILE``, else ``address.key`` in the user's data directory."""
    env = os.environ.get(KEY_FILE_ENV)
    if env:
        return Path(env)
    from rummykit.cli.paths import data_dir

    return data_dir() / "address.key"


def load_key(path: Path, make_folder: bool = False) -> bytes:
    """The key in ``path`` (64 hex digits), made there first if the file does not exist (owner-only;
    ``make_folder``: its folder too, for the default file).

    Raises:
        AddressKeyError: the file cannot be read or made, or holds something else.
    """
    try:
        if make_folder:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(KEY_BYTES) + "\n")
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise AddressKeyError(
            f"address key file {str(path)!r}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise AddressKeyError(
            f"address key file {str(path)!r} does not hold a key ({2 * KEY_BYTES} hex digits); "
            "remove it to have a new one made"
        )
    return key


def check_value(key: bytes | None) -> str:
    """What the database records of ``key``: enough to tell two keys apart, nothing to find it."""
    if key is None:
        return PLAIN
    return "hmac-sha256:" + hmac.new(key, b"rummykit-address-key-check", hashlib.sha256).hexdigest()[:32]


Claim = Callable[[str, str, tuple[str, ...]], str]
"""A store's :meth:`~rummykit.web.store.Store.claim_meta`: (name, value, values it may replace) to
the value recorded now."""


def claim_key(claim: Claim, key: bytes | None) -> None:
    """Record in the database that its digests are made with ``key`` (a keyed server takes over a
    database of plain digests).

    Raises:
        AddressKeyError: the database's digests are made with another key, or keyed where ``key``
            is ``None``.
    """
    wanted = check_value(key)
    claimed = claim(SETTING, wanted, (PLAIN,) if key is not None else ())
    if claimed == wanted:
        return
    if key is None:
        raise AddressKeyError(
            "this database's address digests are keyed: start the server with the same address key "
            "(--address-key-file) as the other processes of this database"
        )
    raise AddressKeyError(
        "this database's address digests were made with another key: give every server process of "
        "one database the same --address-key-file"
    )
