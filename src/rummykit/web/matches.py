"""The match a web table plays: dealt from the table's secret, or the library's seeded match for a
seeded table, with the first dealer drawn as the rules say (:func:`new_table_match`).
"""

from __future__ import annotations

from rummykit.match import Match
from rummykit.rules import Rules
from rummykit.seating import draw_first_dealer
from rummykit.web.dealing import SecretDealing, seat_draw_seed

__all__ = ["new_table_match"]


def new_table_match(
    rules: Rules, players: int, seed: int | None, secret: bytes | None, dealer: int | None
) -> Match:
    """A secret table's match deals from the secret (:class:`SecretDealing`, with seed 0); a seeded
    one is the library's seeded match.

    The first dealer is drawn (RULES.md §3.2) from the secret or the seed, so a stored table
    repeats its draw; a table stored with another first dealer keeps that dealer without a draw.

    Raises:
        ValueError: neither a secret nor a seed, or a secret shorter than 128 bits.
    """
    if secret is not None:
        draw_seed = seat_draw_seed(secret)
    elif seed is not None:
        draw_seed = seed
    else:
        raise ValueError("a table deals from its secret or from a seed")
    draw = draw_first_dealer(rules, players, draw_seed)
    chosen = draw if dealer is None or dealer == draw.dealer else None
    if secret is not None:
        return Match.new(rules, players, seed=0, dealer=dealer, draw=chosen, dealing=SecretDealing(secret))
    return Match.new(rules, players, seed=seed, dealer=dealer, draw=chosen)
