"""OpenSpiel ``gin_rummy`` <-> rummykit gin: action ids, deals, histories and parameters.

Pure Python; ``pyspiel`` is never imported here (callers pass OpenSpiel's plain data: action ids,
``state.history()``, ``game.get_parameters()``).

Seats: OpenSpiel's player 0 acts first (the non-dealer), so an OpenSpiel game is a rummykit round of
two seats with ``dealer = 1``; player ``p`` is seat ``p``. Cards: OpenSpiel's id is
``suit * 13 + rank`` with suits ``s c d h`` and the ace 0 (:func:`openspiel_card`).

Action ids (OpenSpiel 2.0.2): 0–51 a card (a discard, the knock discard or a lay-off, by phase),
52 draw upcard (``take``), 53 draw stock (``draw``), 54 ``pass``, 55 ``knock``, 56 + meld id
(0–184) ``meld …`` (:data:`rummykit.gin_melds.GIN_MELDS`).

>>> from rummykit.actions import Action
>>> action_id(Action.parse("meld 7C 8C 9C")), action_id(Action.parse("discard 10H"))
(138, 48)
>>> str(to_action(48, Phase.DISCARD)), str(to_action(48, Phase.LAYOFF)), str(to_action(56, Phase.KNOCK))
('discard 10H', 'layoff 10H', 'meld AC AD AH')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from rummykit.actions import (
    Action,
    Discard,
    Draw,
    KnockDeclare,
    LayOffCard,
    MeldAction,
    Pass,
    TakeDiscard,
)
from rummykit.cards import NUM_FACES, Card
from rummykit.gin import meld_action
from rummykit.gin_melds import GIN_MELDS, MELD_BY_MASK, mask_of, openspiel_card, rummykit_card
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.state import RoundState
from rummykit.views import Phase, PlayerView

__all__ = [
    "DRAW_STOCK",
    "DRAW_UPCARD",
    "KNOCK",
    "MELD_BASE",
    "NUM_DISTINCT_ACTIONS",
    "PASS",
    "action_id",
    "deck_from_deal",
    "legal_action_ids",
    "openspiel_card",
    "openspiel_params",
    "round_from_deal",
    "round_from_history",
    "rules_from_params",
    "rummykit_card",
    "split_history",
    "to_action",
    "view_from_history",
]

DRAW_UPCARD: Final = 52
DRAW_STOCK: Final = 53
PASS: Final = 54
KNOCK: Final = 55
MELD_BASE: Final = 56
NUM_DISTINCT_ACTIONS: Final = MELD_BASE + len(GIN_MELDS)
DEAL_SIZE: Final = 21
"""Chance outcomes before the first decision: ten cards to player 0, ten to player 1, the upcard."""
DEALER: Final = 1
"""The rummykit dealer seat of an OpenSpiel game (player 0 acts first)."""

OPENSPIEL_FIXED: Final[Mapping[str, object]] = {
    "deal_packets": "singly",
    "start_mode": "gin_first_upcard",
    "may_discard_taken_discard": True,
    "undercut_on_tie": False,
    "wall_stock_size": 2,
    "max_upcard_draws": 50,
    "repeat_discard_draw": True,
    "eleven_card_deadwood": "openspiel",
    "layoff_run_chain": "two_per_end",
    "layoff_after_knock": "onto_knocker_unless_gin",
    "deadwood_ace": 1,
}
"""The gin options OpenSpiel's ``gin_rummy`` has no parameter for, at the one value it plays. The
other options a gin rule set may change are its parameters (:func:`openspiel_params`), change
nothing in a hand from one pack (``set_distinct_suits``) or belong to the match (``match_end`` and
its figures, ``seat_draw``, ``deal_rotation``)."""
OPENSPIEL_MAX_HAND_SIZE: Final = 10
"""OpenSpiel's ``gin_rummy`` refuses a ``hand_size`` above its default of ten."""
_NUMBER_PARAMS: Final = ("knock_card", "gin_bonus", "undercut_bonus", "hand_size")

_CARD_PHASES: Final = {Phase.DISCARD: Discard, Phase.KNOCK: Discard, Phase.LAYOFF: LayOffCard}
_FIXED: Final[Mapping[int, Action]] = {
    DRAW_UPCARD: TakeDiscard(),
    DRAW_STOCK: Draw(),
    PASS: Pass(),
    KNOCK: KnockDeclare(),
}


def action_id(action: Action) -> int:
    """OpenSpiel's id of a rummykit gin action.

    Raises:
        ValueError: the action has no single OpenSpiel id (the ``knock C`` shortcut is several
            OpenSpiel actions; other games' actions have none).
    """
    if isinstance(action, (Discard, LayOffCard)):
        return openspiel_card(action.card)
    if isinstance(action, TakeDiscard):
        return DRAW_UPCARD
    if isinstance(action, Draw):
        return DRAW_STOCK
    if isinstance(action, Pass):
        return PASS
    if isinstance(action, KnockDeclare):
        return KNOCK
    if isinstance(action, MeldAction) and len(action.melds) == 1:
        meld = MELD_BY_MASK.get(mask_of(action.melds[0]))
        if meld is not None and len(action.melds[0]) == len(meld.cards):
            return MELD_BASE + meld.id
    raise ValueError(
        f"{action}: no single OpenSpiel gin_rummy action (write it as knock, discard, meld, pass)"
    )


def to_action(action: int, phase: Phase | Round | RoundState | PlayerView) -> Action:
    """The rummykit action for OpenSpiel's action id ``action`` in ``phase`` (or a round's, a
    state's or a view's phase): a card id is a discard, or a lay-off in the lay-off phase.

    Raises:
        ValueError: no gin action has that id in that phase.
    """
    where = phase if isinstance(phase, Phase) else phase.phase
    if action in _FIXED:
        return _FIXED[action]
    if 0 <= action < NUM_FACES:
        kind = _CARD_PHASES.get(where)
        if kind is None:
            raise ValueError(f"OpenSpiel action {action} (a card) means nothing in the {where} phase")
        return kind(rummykit_card(action))
    if MELD_BASE <= action < NUM_DISTINCT_ACTIONS:
        return meld_action(GIN_MELDS[action - MELD_BASE])
    raise ValueError(f"{action} is not an OpenSpiel gin_rummy player action (0-{NUM_DISTINCT_ACTIONS - 1})")


def legal_action_ids(rnd: Round) -> list[int]:
    """The OpenSpiel ids of ``rnd``'s legal actions, sorted (as ``state.legal_actions()``)."""
    return sorted(action_id(a) for a in rnd.legal_actions())


def deck_from_deal(
    hand0: Sequence[int], hand1: Sequence[int], upcard: int, stock: Sequence[int] = ()
) -> list[Card]:
    """The rummykit deck order (top card first, for ``Round.new(..., dealer=1)``) of OpenSpiel's deal:
    the OpenSpiel card ids of player 0's and player 1's hands, the upcard and the stock cards in
    the order they will be drawn. Stock cards not given follow in card order.

    Raises:
        ValueError: not ten cards each, or a card twice.
    """
    if len(hand0) != len(hand1):
        raise ValueError(f"both hands need the same size, not {len(hand0)} and {len(hand1)}")
    order: list[int] = [c for pair in zip(hand0, hand1, strict=True) for c in pair]
    order += [upcard, *stock]
    if len(set(order)) != len(order) or not all(0 <= c < NUM_FACES for c in order):
        raise ValueError("the deal names a card twice or a card id outside 0-51")
    seen = set(order)
    order += [c for c in range(NUM_FACES) if c not in seen]
    return [rummykit_card(c) for c in order]


def rules_from_params(params: Mapping[str, object] | None = None) -> Rules:
    """The rummykit rules of an OpenSpiel ``gin_rummy`` game's parameters (``game.get_parameters()``).

    Under ``oklahoma`` the first upcard sets the knock card and OpenSpiel ignores its ``knock_card``
    parameter (``get_parameters()`` still lists it), so the rules keep the preset's knock card.

    Raises:
        ValueError: a parameter rummykit does not play (a smaller deck).
    """
    params = dict(params or {})
    for name, default in (("num_ranks", 13), ("num_suits", 4)):
        if int(params.get(name, default)) != default:  # type: ignore[call-overload]
            raise ValueError(f"{name}={params[name]}: rummykit plays gin with the full 52-card pack")
    changes: dict[str, object] = {}
    oklahoma = bool(params.get("oklahoma", False))
    numbers = ("gin_bonus", "undercut_bonus", "hand_size") if oklahoma else _NUMBER_PARAMS
    for name in numbers:
        if name in params:
            changes[name] = int(params[name])  # type: ignore[call-overload]
    if "oklahoma" in params:
        changes["oklahoma"] = oklahoma
    return Rules.preset("gin").replace(**changes)


def openspiel_params(rules: Rules) -> dict[str, object]:
    """The ``pyspiel.load_game("gin_rummy", params)`` parameters of gin ``rules``.

    OpenSpiel deals the cards singly (:data:`OPENSPIEL_FIXED`) and at most ten to a hand
    (:data:`OPENSPIEL_MAX_HAND_SIZE`), and a hand size whose hand and drawn card can all lie in melds
    of three (2, 5, 8) is refused: there the games part (a hand with every card melded). The match
    options are not refused: OpenSpiel plays one hand, and every hand of a match is such a hand.

    Raises:
        ValueError: the rules differ from OpenSpiel's game in something it has no parameter for,
            or ask for a value OpenSpiel's parameter does not take.
    """
    if not rules.is_gin:
        raise ValueError(f"{rules.name} is not gin")
    for option, value in OPENSPIEL_FIXED.items():
        if getattr(rules, option) != value:
            raise ValueError(f"{option}={getattr(rules, option)}: OpenSpiel's gin_rummy plays {value} only")
    if rules.big_gin_bonus is not None:
        raise ValueError(f"big_gin_bonus={rules.big_gin_bonus}: OpenSpiel's gin_rummy has no big gin")
    if rules.oklahoma_spade_doubles:
        raise ValueError("oklahoma_spade_doubles=true: OpenSpiel's gin_rummy never doubles a hand")
    if rules.hand_size > OPENSPIEL_MAX_HAND_SIZE:
        most = OPENSPIEL_MAX_HAND_SIZE
        raise ValueError(f"hand_size={rules.hand_size}: OpenSpiel's gin_rummy deals at most {most} cards")
    if (rules.hand_size + 1) % 3 == 0:
        raise ValueError(
            f"hand_size={rules.hand_size}: {rules.hand_size + 1} cards can all lie in melds of three, "
            "where OpenSpiel's gin_rummy offers a knock that no discard completes and is left without a "
            "legal action; rummykit counts the deadwood a discard leaves there (eleven_card_deadwood), "
            "so the two games part"
        )
    return {
        "oklahoma": rules.oklahoma,
        "knock_card": rules.knock_card,
        "gin_bonus": rules.gin_bonus,
        "undercut_bonus": rules.undercut_bonus,
        "hand_size": rules.hand_size,
    }


def split_history(history: Iterable[int], hand_size: int = 10) -> tuple[list[int], list[int | None]]:
    """Split an OpenSpiel ``gin_rummy`` history into its chance outcomes and its player actions.

    Returns ``(cards, moves)``: the chance outcomes in order (the deal, then each card drawn from the
    stock) and the player actions, where ``None`` follows a stock draw to mark where its card came.
    """
    chance: list[int] = []
    moves: list[int | None] = []
    deal = 2 * hand_size + 1
    expect_card = False
    for i, action in enumerate(history):
        if i < deal or expect_card:
            chance.append(action)
            if expect_card:
                moves.append(None)
            expect_card = False
            continue
        moves.append(action)
        expect_card = action == DRAW_STOCK
    return chance, moves


def round_from_deal(chance: Sequence[int], rules: Rules | None = None) -> Round:
    """A rummykit round dealt as OpenSpiel dealt: ``chance`` are the chance outcomes (player 0's
    cards, player 1's, the upcard, then the stock cards in the order drawn; missing stock cards
    follow in card order)."""
    rules = rules or Rules.preset("gin")
    n = rules.hand_size
    if len(chance) < 2 * n + 1:
        raise ValueError(f"an OpenSpiel deal has {2 * n + 1} chance outcomes, got {len(chance)}")
    deck = deck_from_deal(chance[:n], chance[n : 2 * n], chance[2 * n], chance[2 * n + 1 :])
    return Round.new(rules, 2, deck=deck, dealer=DEALER, seed=0)


def round_from_history(history: Sequence[int], rules: Rules | None = None) -> Round:
    """The rummykit round of an OpenSpiel ``gin_rummy`` history (``state.history()``): the same
    deal and every player action applied. Stock cards not drawn yet lie in card order (a view built
    from the round does not show them). A history that ends on a stock draw whose card is still to
    come (a chance node) is rebuilt up to before that draw: rummykit draws the card at once.

    Raises:
        ValueError: the history is not a game of these rules (an action rummykit finds illegal).
    """
    rules = rules or Rules.preset("gin")
    chance, moves = split_history(history, rules.hand_size)
    if moves and moves[-1] == DRAW_STOCK:
        moves.pop()  # the card drawn is not dealt yet
    rnd = round_from_deal(chance, rules)
    for move in moves:
        if move is None:
            continue
        action = to_action(move, rnd)
        if not rnd.is_legal(action):
            raise ValueError(f"OpenSpiel action {move} ({action}) is illegal in rummykit at turn {rnd.turn}")
        rnd.apply(action)
    return rnd


def view_from_history(history: Sequence[int], player: int, rules: Rules | None = None) -> PlayerView:
    """What ``player`` sees in the OpenSpiel game with this history, as a rummykit view."""
    return round_from_history(history, rules).view(player)
