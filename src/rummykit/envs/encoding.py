"""The sub-step action encoding of the rummykit environments (version 0).

An engine action is spelled as a short sequence of tokens, read off its notation
(:mod:`rummykit.actions`): ``swap 6C on 3 then meld 8D 9D JK`` is ``SWAP 6C TARGET3 THEN_MELD 8D 9D
JK``. Each token is one environment step in the fixed space ``Discrete(NUM_TOKENS)``. At every step
the mask allows exactly the tokens that continue the spelling of at least one candidate action, so
every masked-in prefix completes to an action the engine accepts and every candidate action is
reachable: the candidates are put in a trie (:class:`Composer`) and the mask is the set of children
of the current trie node. An action is applied as soon as its spelling is complete and no other
candidate continues it; where one does (``meld 7C 8C 9C`` against ``meld 7C 8C 9C 10C``) the token
``DONE`` applies the shorter one.

The candidates (:func:`candidate_actions`) are ``Round.legal_actions()`` (``Match.legal_actions()``
in a match: buy-back decisions included) plus, in the melding games, the compound openings that the
engine accepts but does not enumerate: every collection of two or more disjoint melds from the hand
that passes ``Round.check`` (up to :data:`MAX_COMPOUND_OPENINGS` per decision; the best opening is
always among the candidates). The melds of an opening are spelled in a canonical order
(:func:`canonical`), so one opening has one spelling.

===============  ==========  ==================================================================
token            ids         meaning
===============  ==========  ==================================================================
``DRAW``         0           ``draw``: take the top card of the stock (complete action)
``TAKE``         1           ``take``: take the top discard (complete action)
``OPEN``         2           start an opening (``open``); card tokens follow, meld by meld
``MELD``         3           start further melds (``meld``)
``LAYOFF``       4           start a lay-off: a card token, a ``TARGET`` token, maybe ``LOW``/``HIGH``
``SWAP``         5           start a joker exchange: card tokens, ``TARGET``, then-clauses
``DISCARD``      6           start a discard: one card token follows
``KNOCK``        7           start a knock (knock games): one card token follows
``RUMMY``        8           start a Rummy call (knock games): one card token follows
``BUYBACK``      9           match decision: buy back into the rubber (complete action)
``DECLINE``      10          match decision: decline the buy-back (complete action)
``CARD c``       11–63       the card with code ``c`` (0–51 naturals as in :mod:`rummykit.cards`,
                             52 the joker); in a meld in written order (runs low to high)
``NEXT``         64          ``|``: the current meld is complete, the next meld of the action starts
``LOW``          65          the lay-off goes at the low end of the run
``HIGH``         66          the lay-off goes at the high end of the run
``THEN_MELD``    67          joker exchange: the freed joker(s) go into the new meld(s) that follow
``THEN_LAYOFF``  68          joker exchange: the freed joker is laid off (card, ``TARGET``, end)
``DONE``         69          apply the action spelled so far (only when a longer candidate exists)
``TARGET m``     70–105      table meld ``m`` (1 to :data:`MAX_TABLE_MELDS`, numbered as in actions)
===============  ==========  ==================================================================

Version history: **v0** (this layout) — first release.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rummykit import solver
from rummykit.actions import (
    Action,
    BuyBack,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Knock,
    LayOff,
    MeldAction,
    Open,
    Swap,
    TakeDiscard,
)
from rummykit.cards import NUM_CODES, Card, Hand
from rummykit.errors import RulesError
from rummykit.match import Match
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import Phase

ENCODING_VERSION: Final = 0

DRAW: Final = 0
TAKE: Final = 1
OPEN: Final = 2
MELD: Final = 3
LAYOFF: Final = 4
SWAP: Final = 5
DISCARD: Final = 6
KNOCK: Final = 7
RUMMY: Final = 8
BUYBACK: Final = 9
DECLINE: Final = 10
NUM_VERBS: Final = 11
CARD0: Final = 11
NEXT: Final = CARD0 + NUM_CODES
LOW: Final = NEXT + 1
HIGH: Final = NEXT + 2
THEN_MELD: Final = NEXT + 3
THEN_LAYOFF: Final = NEXT + 4
DONE: Final = NEXT + 5
TARGET0: Final = DONE + 1
MAX_TABLE_MELDS: Final = 36
"""Table meld numbers the encoding can name: a deck of at most 110 cards holds at most 36 melds."""
NUM_TOKENS: Final = TARGET0 + MAX_TABLE_MELDS

MAX_COMPOUND_OPENINGS: Final = 256
"""Compound openings offered per decision beyond ``legal_actions()`` (the search stops there)."""

VERB_NAMES: Final = ("draw", "take", "open", "meld", "layoff", "swap", "discard", "knock", "rummy",
                     "buyback", "decline")


def card_token(card: int) -> int:
    return CARD0 + card


def target_token(number: int) -> int:
    """The token of table meld ``number`` (numbered from 1)."""
    if not 1 <= number <= MAX_TABLE_MELDS:
        raise RulesError(f"table meld {number} is beyond the encoding's {MAX_TABLE_MELDS} melds")
    return TARGET0 + number - 1


def token_name(token: int) -> str:
    """A readable name: ``open``, ``7H``, ``meld 3``, ``|``, ``done`` …"""
    if token < NUM_VERBS:
        return VERB_NAMES[token]
    if token < NEXT:
        return str(Card(token - CARD0))
    if token >= TARGET0:
        return f"meld {token - TARGET0 + 1}"
    return {NEXT: "|", LOW: "low", HIGH: "high", THEN_MELD: "then meld", THEN_LAYOFF: "then layoff",
            DONE: "done"}[token]


def check_rules(rules: Rules) -> None:
    """Refuse rule sets whose table could hold more melds than the encoding names, and gin, whose
    knock and lay-off decisions (``pass``, a bare ``knock``, ``layoff 5H``) the token spelling lacks."""
    if rules.is_gin:
        raise RulesError(
            "the environments do not play gin yet: its pass, knock and lay-off decisions have no tokens",
            option="hand_scoring",
        )
    if rules.deck_size // 3 > MAX_TABLE_MELDS:
        raise RulesError(
            f"the environment names at most {MAX_TABLE_MELDS} table melds; a {rules.deck_size}-card deck "
            "could hold more"
        )


def _melds_tokens(melds: Iterable[Sequence[int]]) -> list[int]:
    out: list[int] = []
    for i, meld in enumerate(melds):
        if i:
            out.append(NEXT)
        out += [CARD0 + c for c in meld]
    return out


def _layoff_tokens(layoff: LayOff) -> list[int]:
    out = [CARD0 + layoff.card, target_token(layoff.target)]
    if layoff.end is not None:
        out.append(LOW if layoff.end == "low" else HIGH)
    return out


def tokens_of(action: Action) -> list[int]:
    """The spelling of ``action`` (see the table in the module docstring)."""
    if isinstance(action, Draw):
        return [DRAW]
    if isinstance(action, TakeDiscard):
        return [TAKE]
    if isinstance(action, BuyBack):
        return [BUYBACK]
    if isinstance(action, Decline):
        return [DECLINE]
    if isinstance(action, Discard):
        return [DISCARD, CARD0 + action.card]
    if isinstance(action, Knock):
        return [KNOCK, CARD0 + action.card]
    if isinstance(action, CallRummy):
        return [RUMMY, CARD0 + action.card]
    if isinstance(action, Open):
        return [OPEN, *_melds_tokens(action.melds)]
    if isinstance(action, MeldAction):
        return [MELD, *_melds_tokens(action.melds)]
    if isinstance(action, LayOff):
        return [LAYOFF, *_layoff_tokens(action)]
    if isinstance(action, Swap):
        out = [SWAP, *(CARD0 + c for c in action.cards), target_token(action.target)]
        if action.melds:
            out += [THEN_MELD, *_melds_tokens(action.melds)]
        for layoff in action.layoffs:
            out += [THEN_LAYOFF, *_layoff_tokens(layoff)]
        return out
    raise TypeError(f"no spelling for {action!r}")


def canonical(action: Action) -> Action:
    """One representative of equivalent spellings: the melds of an opening or a further meld sorted
    (laying melds together does not depend on their order)."""
    if isinstance(action, Open) and len(action.melds) > 1:
        return Open(tuple(sorted(action.melds)))
    if isinstance(action, MeldAction) and len(action.melds) > 1:
        return MeldAction(tuple(sorted(action.melds)))
    return action


def compound_openings(rnd: Round, limit: int = MAX_COMPOUND_OPENINGS) -> list[Action]:
    """Openings of two or more disjoint melds that the engine accepts (``Round.check``), canonical.

    Every collection of disjoint melds from :func:`rummykit.solver.all_melds` is tried in index order
    until ``limit`` legal ones are found (or ``8 * limit`` collections were tried).
    """
    if rnd.rules.is_knock_game or rnd.phase is not Phase.PLAY or rnd.has_opened(rnd.to_move):
        return []
    hand = rnd.view(rnd.to_move).hand
    melds = solver.all_melds(hand, rnd.rules)
    found: list[Action] = []
    budget = [8 * limit]  # collections tried: bounds the work on joker-rich hands

    def extend(start: int, chosen: list[tuple[Card, ...]], rest: Hand) -> bool:
        for i in range(start, len(melds)):
            meld = melds[i]
            if not rest.contains_all(meld):
                continue
            budget[0] -= 1
            if budget[0] < 0:
                return True
            left = rest.copy()
            for c in meld:
                left.remove(c)
            chosen.append(meld)
            if len(chosen) > 1:
                action = Open(tuple(sorted(chosen)))
                if rnd.is_legal(action):
                    found.append(action)
                    if len(found) >= limit:
                        return True
            if len(left) and extend(i + 1, chosen, left):
                return True
            chosen.pop()
        return False

    extend(0, [], Hand(hand))
    return found


def candidate_actions(game: Round | Match) -> list[Action]:
    """The actions the encoding offers now: legal actions plus compound openings, canonical, each
    once, in ``legal_actions()`` order."""
    legal = game.legal_actions()
    rnd = game.round if isinstance(game, Match) else game
    if isinstance(game, Match) and game.pending_buyback:
        return legal
    extra = compound_openings(rnd) if not rnd.rules.is_knock_game and rnd.phase is Phase.PLAY else []
    seen: set[Action] = set()
    out: list[Action] = []
    for action in (*legal, *extra):
        c = canonical(action)
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


class _Node:
    __slots__ = ("action", "children")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.action: Action | None = None


class Composer:
    """The trie of the candidates' spellings and the player's position in it.

    >>> import rummykit as rk
    >>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
    >>> comp = Composer(rnd.legal_actions())
    >>> [token_name(t) for t in comp.allowed()]
    ['draw', 'take']
    >>> comp.step(DRAW)
    Draw()
    """

    __slots__ = ("_node", "_root", "tokens")

    def __init__(self, actions: Iterable[Action]) -> None:
        root = _Node()
        for action in actions:
            node = root
            for token in tokens_of(action):
                child = node.children.get(token)
                if child is None:
                    child = node.children[token] = _Node()
                node = child
            node.action = action
        self._root = root
        self._node = root
        self.tokens: list[int] = []
        """The tokens stepped so far in this action."""

    def copy(self) -> Composer:
        """A composer at the same position that steps on independently (the trie is shared)."""
        new = Composer.__new__(Composer)
        new._root = self._root
        new._node = self._node
        new.tokens = self.tokens[:]
        return new

    def allowed(self) -> list[int]:
        """The tokens the mask allows now, in increasing order."""
        node = self._node
        tokens = sorted(node.children)
        if node.action is not None and node.children:
            tokens.append(DONE)
        return tokens

    def is_allowed(self, token: int) -> bool:
        node = self._node
        return token in node.children or (token == DONE and node.action is not None and bool(node.children))

    def step(self, token: int) -> Action | None:
        """Step ``token``; the completed action, or ``None`` while the spelling goes on.

        Raises:
            ValueError: the mask does not allow ``token``.
        """
        node = self._node
        if token == DONE and node.action is not None and node.children:
            return node.action
        child = node.children.get(token)
        if child is None:
            raise ValueError(f"token {token} ({token_name(token) if 0 <= token < NUM_TOKENS else '?'}) "
                             "is masked out")
        self.tokens.append(token)
        self._node = child
        if child.action is not None and not child.children:
            return child.action
        return None

    def reachable(self) -> list[Action]:
        """Every action reachable from the current position (for tests and tools)."""
        out: list[Action] = []
        stack = [self._node]
        while stack:
            node = stack.pop()
            if node.action is not None:
                out.append(node.action)
            stack.extend(node.children.values())
        return out
