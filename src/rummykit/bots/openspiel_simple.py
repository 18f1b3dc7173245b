"""``openspiel-simple``: OpenSpiel's simple gin rule bot as a rummykit bot.

OpenSpiel's ``SimpleGinRummyBot`` (``pyspiel.make_simple_gin_rummy_bot``) is the opponent gin research
measures against. It reads an OpenSpiel ``gin_rummy`` state: its own hand, the upcard, the discard
pile, the stock size, the knock card and the opponent's laid melds (its observation), and the legal
actions. :class:`OpenSpielSimpleBot` builds, for every decision, an OpenSpiel state that shows the bot
exactly what its rummykit view shows (:func:`openspiel_history`), asks the bot and maps its answer back
(:mod:`rummykit.interop.openspiel_gin`). The opponent's hidden cards, which the bot never reads, are
filled in with cards this seat cannot see.

The state is rebuilt from the view by a short made-up history that reaches the same observation:
every card of the discard pile below the top goes there by a stock draw thrown back at once, and the
first upcard is taken and thrown back by the player who makes the turn order come out right; a
knock, the knocker's melds and the defender's lay-offs and melds are then replayed as the view shows
them. OpenSpiel's bot keeps a plan between the decisions of a knock (discard, melds, pass), so one
bot object serves one seat through a hand; it restarts when a new hand begins.

``pyspiel`` is imported when the first bot is built; without ``open-spiel`` installed building one
raises :class:`OpenSpielMissingError` (``pip install open-spiel``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from rummykit.actions import Action
from rummykit.cards import NUM_FACES
from rummykit.errors import RummyError
from rummykit.gin_melds import MELD_BY_MASK, mask_of, openspiel_card
from rummykit.interop.openspiel_gin import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    PASS,
    openspiel_params,
    to_action,
)
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

INSTALL_HINT: Final = "pip install open-spiel (or rummykit[bench])"


class OpenSpielMissingError(RummyError, ImportError):
    """OpenSpiel (``pyspiel``) is not installed."""


class NotOpenSpielGinError(RummyError, ValueError):
    """The bot was asked to play something other than OpenSpiel-compatible gin."""


def import_pyspiel() -> Any:
    """The ``pyspiel`` module, or :class:`OpenSpielMissingError` with the install hint."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise OpenSpielMissingError(f"the openspiel-simple bot needs OpenSpiel: {INSTALL_HINT}") from None
    return pyspiel


def openspiel_player(view: PlayerView, seat: int | None = None) -> int:
    """OpenSpiel's player id of ``seat`` (default: the view's): the non-dealer is player 0."""
    seat = view.seat if seat is None else seat
    return 1 if seat == view.dealer else 0


def _deal(hands: Sequence[Sequence[int]], upcard: int) -> list[int]:
    return [*hands[0], *hands[1], upcard]


def _draw_phase(hands: Sequence[Sequence[int]], pile: Sequence[int], upcard: int, to_move: int) -> list[int]:
    """A history that ends with ``to_move`` to draw: ``hands`` (by player, ten cards each), the
    discard pile ``pile`` under the upcard ``upcard``, one stock draw per pile card.

    The first upcard is the bottom pile card (or ``upcard`` when the pile is empty); each later pile
    card and finally ``upcard`` are drawn from the stock and thrown back at once, alternately. Who
    draws first is set by a take-and-throw-back of the first upcard: by player 1 after player 0
    passed (player 0 then draws first) or by player 0 (player 1 draws first)."""
    first = pile[0] if pile else upcard
    drawn = [*pile[1:], upcard] if pile else []
    history = _deal(hands, first)
    history += [PASS, DRAW_UPCARD, first] if len(drawn) % 2 == to_move else [DRAW_UPCARD, first]
    for card in drawn:
        history += [DRAW_STOCK, card, card]
    return history


def _discard_phase(
    hands: Sequence[Sequence[int]], pile: Sequence[int], to_move: int, taken: int | None
) -> list[int]:
    """A history that ends with ``to_move`` holding eleven cards (``hands[to_move]``) before its
    discard: it took ``taken`` (the upcard), else it drew its last card from the stock over ``pile``
    (an empty pile: the first upcard was taken)."""
    own = list(hands[to_move])
    if taken is None and not pile:
        taken = own[-1]
    if taken is not None:
        own.remove(taken)
        before = [own if p == to_move else list(hands[p]) for p in range(2)]
        return [*_draw_phase(before, pile, taken, to_move), DRAW_UPCARD]
    drawn = own.pop()
    before = [own if p == to_move else list(hands[p]) for p in range(2)]
    return [*_draw_phase(before, pile[:-1], pile[-1], to_move), DRAW_STOCK, drawn]


def _meld_id(cards: Sequence[int]) -> int:
    """OpenSpiel's action id laying the meld of the rummykit ``cards``."""
    return MELD_BASE + MELD_BY_MASK[mask_of(cards)].id


def openspiel_history(view: PlayerView) -> list[int]:
    """An OpenSpiel ``gin_rummy`` history after which the view's seat, to move, observes what the
    view shows (hand, upcard, discard pile, stock size, laid melds, lay-offs) and has the same legal
    actions. The opponent's unseen cards are filled in with cards this seat cannot see (cards it is
    known to hold first).

    Raises:
        NotOpenSpielGinError: not a gin view, or not this seat's turn.
    """
    info = view.gin
    if info is None or view.phase is Phase.OVER or view.to_move != view.seat:
        raise NotOpenSpielGinError("an OpenSpiel state is built for the gin player to move")
    me = openspiel_player(view)
    other = 1 - me
    other_seat = next(s for s in range(len(view.hand_sizes)) if s != view.seat)
    hand = [openspiel_card(c) for c in view.hand]
    pile = [openspiel_card(c) for c in view.discard_pile]
    knocker_melds = [[openspiel_card(c) for c in m] for m in info.knocker_melds]
    knocker_ids = [_meld_id(m) for m in info.knocker_melds]
    layoffs = [openspiel_card(c) for c in info.layoffs]
    mine_laid = [tm.meld.cards for tm in view.melds if tm.owner == view.seat]
    my_melds = [[openspiel_card(c) for c in m] for m in mine_laid]
    my_ids = [_meld_id(m) for m in mine_laid]
    visible = {
        *hand,
        *pile,
        *(c for m in knocker_melds for c in m),
        *layoffs,
        *(c for m in my_melds for c in m),
    }
    known = [openspiel_card(c) for c in (view.known_cards[other_seat] if view.known_cards else ())]
    revealed = view.revealed[other_seat] if view.revealed else None
    shown = [openspiel_card(c) for c in revealed] if revealed is not None else []
    pool = [c for c in (*known, *shown) if c not in visible]
    pool += [c for c in range(NUM_FACES) if c not in visible and c not in pool]

    def hands(mine: Sequence[int], theirs_size: int) -> list[list[int]]:
        theirs = [c for c in pool if c not in mine][:theirs_size]
        return [list(mine), theirs] if me == 0 else [theirs, list(mine)]

    size = view.rules.hand_size
    if view.phase is Phase.FIRST_UPCARD:
        return [*_deal(hands(hand, size), pile[-1]), *[PASS] * info.upcard_passes]
    if view.phase in (Phase.DRAW, Phase.WALL):
        return _draw_phase(hands(hand, size), pile[:-1], pile[-1], me)
    if view.phase is Phase.DISCARD:
        taken = openspiel_card(view.taken_discard) if view.taken_discard is not None else None
        return _discard_phase(hands(hand, size), pile, me, taken)
    if view.phase is Phase.KNOCK:
        melded = [c for m in knocker_melds for c in m]
        discarded = len(hand) + len(melded) == size
        eleven = [*hand, *melded, *([pile[-1]] if discarded else [])]
        taken = openspiel_card(view.taken_discard) if view.taken_discard is not None else None
        below = pile[:-1] if discarded else pile
        if taken is not None and view.stock_size <= view.rules.wall_stock_size:
            # A knock at the wall: OpenSpiel's knock itself takes the upcard into the hand.
            ten = [c for c in eleven if c != taken]
            history = _draw_phase(hands(ten, size), below, taken, me)
        else:
            history = _discard_phase(hands(eleven, size), below, me, taken)
        history += [KNOCK, *([pile[-1]] if discarded else []), *knocker_ids]
        return history
    # LAYOFF: the opponent knocked; its hand is its melds and its cards left (shown, or low fillers).
    melded = [c for m in knocker_melds for c in m]
    left = [c for c in shown if c not in melded] if revealed is not None else []
    if revealed is None:
        fillers = sorted(pool, key=lambda c: (c % 13, c))
        left = fillers[: size - len(melded)]
    mine = [*hand, *layoffs, *(c for m in my_melds for c in m)]
    eleven = [*melded, *left, pile[-1]]
    before = hands(mine, 0)
    before[other] = eleven
    history = _discard_phase(before, pile[:-1], other, None)
    history += [KNOCK, pile[-1], *knocker_ids, PASS]
    history += layoffs
    if info.layoffs_done and left:
        history.append(PASS)
    return history + my_ids


class OpenSpielSimpleBot:
    """OpenSpiel's ``SimpleGinRummyBot`` playing a rummykit seat (see the module docstring)."""

    name = "openspiel-simple"

    def __init__(self) -> None:
        self._pyspiel = import_pyspiel()
        self._games: dict[tuple[tuple[str, object], ...], Any] = {}
        self._bot: Any = None
        self._player = -1
        self._turn = -1
        self._stock = -1

    def check_table(self, rules: Rules, players: int) -> None:
        """Refuse a table that is not OpenSpiel's gin (two players, rules it can load).

        Raises:
            NotOpenSpielGinError: the reason, before the first move.
        """
        if players != 2:
            raise NotOpenSpielGinError(f"openspiel-simple plays OpenSpiel's gin of 2 players, not {players}")
        try:
            openspiel_params(_as_openspiel(rules))
        except ValueError as exc:
            raise NotOpenSpielGinError(f"openspiel-simple plays OpenSpiel's gin only: {exc}") from None

    def _game(self, view: PlayerView) -> Any:
        try:
            params = openspiel_params(_as_openspiel(view.rules))
        except ValueError as exc:
            raise NotOpenSpielGinError(f"openspiel-simple plays OpenSpiel's gin only: {exc}") from None
        key = tuple(sorted(params.items()))
        if key not in self._games:
            self._games[key] = self._pyspiel.load_game("gin_rummy", params)
        return self._games[key]

    def state(self, view: PlayerView) -> Any:
        """The OpenSpiel state built for ``view`` (see :func:`openspiel_history`)."""
        state = self._game(view).new_initial_state()
        for action in openspiel_history(view):
            state.apply_action(action)
        if state.current_player() != openspiel_player(view):
            raise NotOpenSpielGinError(f"rebuilt OpenSpiel state has player {state.current_player()} to move")
        return state

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        state = self.state(view)
        player = openspiel_player(view)
        new_hand = view.turn < self._turn or view.stock_size > self._stock
        if self._bot is None or player != self._player or new_hand:
            game = self._game(view)
            self._bot = self._pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
            self._player = player
        self._turn, self._stock = view.turn, view.stock_size
        action = to_action(self._bot.step(state), view)
        if action not in legal:
            raise NotOpenSpielGinError(f"OpenSpiel's bot chose {action}, not legal here")
        return action


def _as_openspiel(rules: Rules) -> Rules:
    """``rules`` as OpenSpiel's game the bot plays: Oklahoma's spade doubling only scales a hand's score
    and changes no legal move and none of the bot's decisions, so its table is played as OpenSpiel's."""
    return rules.replace(oklahoma_spade_doubles=False) if rules.oklahoma_spade_doubles else rules
