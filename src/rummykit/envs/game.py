"""The engine side of the environments: one hand or one match driven token by token.

:class:`TokenGame` owns a :class:`~rummykit.round.Round` (``scope="hand"``) or a
:class:`~rummykit.match.Match` (``scope="match"``), the :func:`~rummykit.envs.encoding.composer` of
the seat to move and the per-seat observations. It knows nothing of PettingZoo or Gymnasium.

Rewards (``reward=``):

* ``"score"`` (default): ``scope="hand"``: each seat's points of the hand when it ends
  (``RoundResult.points``: minus points or bad points as negative numbers, plus points where the
  winner collects; 0 for an unscored hand). ``scope="match"``: after every hand (and buy-back
  decision) the change of the seat's match score, so the rewards add up to ``Match.scores``; in a
  rubber (``Match.is_rubber``: Viennese and Rommé ohne Auslegen) the change of its chips instead
  (antes, knock money, buy-backs and the pot; the first hand's reward includes the ante paid at the
  start), adding up to ``Match.chips``.
* ``"win"``: zero-sum win/loss at the end of the hand (or match): the winners share +1, the others
  share -1; an unscored hand gives 0. A hand is won by the seats dealt in with the best points (a
  dealer who sits the hand out, ``dealer_sits_out_at_table_of``, gets 0), a match by
  ``Match.winners``.
* ``"margin"``: zero-sum points. ``scope="hand"``: at the end of the hand each seat dealt in gets its
  points minus the mean of the other dealt-in seats' points (a dealer who sits the hand out gets 0
  and is left out of the mean); an unscored hand gives 0. ``scope="match"``: at the same moments as
  ``"score"``, the change of the seat's match score (chips in a rubber) minus the mean of
  the other seats' changes, over every seat of the match; the rewards add up to the seat's
  ``Match.scores`` (``Match.chips``) minus the mean of the other seats'. The rewards of every step
  sum to 0 over the seats.

Why ``"margin"``: ``"score"`` pays the engine's points, which are zero-sum only under
``hand_scoring = gin_difference`` (the gin preset) and ``winner_gets_sum``. A hand where every seat
only draws and discards ends unscored (the stock exhausted; in gin the wall) and pays every seat 0,
in every preset. Under ``losers_penalty`` (the german, german_dskv and scala40 presets) the winner
scores 0 too, so stalling pays as much as winning; under ``deadwood_all`` (viennese,
romme_ohne_auslegen) the winner pays its own deadwood, so stalling pays more than most wins; under
``winner_collects`` (basic) the losers score 0 whatever they hold, so a stalled hand pays as much as a
lost one and nothing rewards a loser for keeping its hand small. Under ``"margin"`` a hand won pays
more than a stalled one (0), which pays more than a hand lost, in every preset.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, Final, Literal, cast

import numpy as np
import numpy.typing as npt

from rummykit.actions import Action, BuyBack, Decline
from rummykit.cards import build_deck
from rummykit.envs import encoding as enc
from rummykit.envs.observation import Layout, MatchFigures, match_totals, observation_bounds, state_encoder
from rummykit.errors import RummyError
from rummykit.guard import HandWatch
from rummykit.match import Match
from rummykit.record import Record
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import PlayerView, RoundResult

Scope = Literal["hand", "match"]
RewardKind = Literal["score", "win", "margin"]
SCOPES: Final = ("hand", "match")
REWARDS: Final = ("score", "win", "margin")
"""The reward kinds (``reward=``), described in the module docstring."""


class NotOfferedError(RummyError, ValueError):
    """An action the engine takes now that no candidate of the environment plays
    (:meth:`TokenGame.spell`)."""


def check_reward(reward: object) -> None:
    """Refuse a reward kind that is not one of :data:`REWARDS`, listing them.

    Raises:
        ValueError: ``reward`` is not ``"score"``, ``"win"`` or ``"margin"``.
    """
    if not isinstance(reward, str) or reward not in REWARDS:
        kinds = ", ".join(repr(r) for r in REWARDS)
        raise ValueError(f"reward must be one of {kinds}, not {reward!r}")


def resolve_rules(rules: Rules | str) -> Rules:
    """A :class:`Rules` from a preset name, an alias or a text form such as
    ``"german(opening_min_points=30)"``."""
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, str):
        kind = type(rules).__name__
        raise TypeError(f"rules must be a Rules or a preset's name such as 'german', not {kind}")
    return Rules.parse(rules) if "(" in rules else Rules.preset(rules)


def worst_hand_points(rules: Rules) -> int:
    """A bound that no seat's points for one hand reach under ``rules``: every card of the deck held
    at its end-of-hand value (:meth:`Rules.card_points`), times the larger of the Hand-Rommé and
    Rummy-call multipliers, less every bonus a winner can collect from it (gin, big gin, undercut);
    doubled where a spade upcard doubles a gin hand (``oklahoma_spade_doubles``).

    A seat never holds the whole deck, so real hands stay far above it: in random play of every
    preset (150 hands per table size) the worst hand was -242 points (German, six players), where
    this bound is -1,930."""
    deck = sum(rules.card_points(c) for c in build_deck(rules.num_decks, rules.jokers_total))
    multiplier = max(rules.hand_romme_multiplier, rules.rummy_multiplier, 1)
    bonuses = max(rules.gin_bonus, rules.big_gin_bonus or 0) + rules.undercut_bonus
    doubled = 2 if rules.oklahoma_spade_doubles else 1  # validation keeps it to gin under Oklahoma
    return -(deck * multiplier + bonuses) * doubled


def worst_match_points(rules: Rules, players: int) -> int:
    """A bound that no seat's rewards over a whole match (``scope="match"``) reach under ``rules``:
    :func:`worst_hand_points` for every hand a seat can lose before the match ends.

    ``fixed_hands``: that many hands (one per player by default). ``penalty_limit``: the match ends
    once a total passes the limit, so a seat loses at most the limit and one more hand.
    ``elimination_last_survivor``: the threshold and one more hand per life (the first and each
    buy-back); a rubber's rewards are chips, far fewer than its points. ``target_score``:
    ``winner_collects`` gives plus points only (one hand's bound), while under ``winner_gets_sum`` and
    gin's difference a seat's minus points are plus points the others won, each of them below the
    target before the last hand: ``players * (target_score - 1)`` and one hand. Gin's end-of-game
    bonuses (:func:`most_game_bonus`) only add to a seat's score, never take from it.
    ``single_hand`` is one hand: one hand's bound."""
    hand = worst_hand_points(rules)
    if rules.match_end == "fixed_hands":
        return hand * (rules.num_hands or players)
    if rules.match_end == "penalty_limit":
        return hand - rules.penalty_limit
    if rules.match_end == "elimination_last_survivor":
        lives = 1 + rules.buyback_limit
        return (hand - (rules.elimination_threshold or 0)) * lives
    if rules.match_end == "target_score" and rules.hand_scoring != "winner_collects":
        return hand - players * (rules.target_score - 1)
    return hand


def most_game_bonus(rules: Rules) -> int:
    """The most gin's end-of-game bonuses (``box_bonus``, ``game_bonus``, ``shutout_doubles``;
    :mod:`rummykit.match`) add to one seat's match score, 0 where they do not apply.

    Every hand won pays at least one point and the hands before the last pay less than
    ``target_score``, so a seat wins at most ``target_score`` hands: ``box_bonus`` that often and
    ``game_bonus``. A shutout doubles that and the seat's plus points, at most ``target_score - 1``
    and one hand (:func:`worst_hand_points`)."""
    if rules.not_applicable("box_bonus") is not None:
        return 0
    most = rules.box_bonus * rules.target_score + rules.game_bonus
    if rules.shutout_doubles:
        most = 2 * most + rules.target_score - 1 - worst_hand_points(rules)
    return most


def share(winners: Sequence[int], seats: Sequence[int], total: int) -> list[float]:
    """Zero-sum win/loss: ``winners`` share +1, the other ``seats`` share -1."""
    out = [0.0] * total
    losers = [s for s in seats if s not in winners]
    if not winners or not losers:
        return out
    for s in winners:
        out[s] = 1.0 / len(winners)
    for s in losers:
        out[s] = -1.0 / len(losers)
    return out


def margin(points: Sequence[float], seats: Sequence[int], total: int) -> list[float]:
    """Zero-sum margins: each of ``seats`` gets its ``points`` minus the mean of the other ``seats``'
    points; the seats not in ``seats`` get 0 (as all do when fewer than two seats count)."""
    out = [0.0] * total
    if len(seats) < 2:
        return out
    whole = sum(points[s] for s in seats)
    others = len(seats) - 1
    for s in seats:
        out[s] = (len(seats) * points[s] - whole) / others  # points[s] - (whole - points[s]) / others
    return out


def hand_winners(result: RoundResult, seats: Sequence[int]) -> list[int]:
    """The seats with the best points of a scored hand (none for an unscored one)."""
    if not result.scored:
        return []
    best = max(result.points[s] for s in seats)
    return [s for s in seats if result.points[s] == best]


def match_figures(match: Match) -> MatchFigures:
    """The figures of ``match`` that the observations of ``scope="match"`` show: totals
    (:func:`~rummykit.envs.observation.match_totals`: minus or bad points, plus points where the hand
    scoring pays no minus points), chips, pot, hands dealt and whether a buy-back decision is open."""
    return MatchFigures(
        totals=match_totals(match.rules, match.totals, match.gains),
        chips=match.chips,
        pot=match.pot,
        hands_dealt=match.hands_counted,  # the series' hands: one dealt again does not count
        buyback_pending=bool(match.pending_buyback),
        is_match=True,
    )


def starting_ledger(match: Match) -> tuple[int, ...]:
    """What ``scope="match"`` counts the rewards of ``match`` from: each seat's chips (a rubber) or
    score (plus points less minus points) before its first deal and ante: those of the position it
    started from, zero for a fresh match."""
    zero = (0,) * match.players
    position = match.position
    if position is None:
        return zero
    if match.is_rubber:
        return position.chips or zero
    gains = position.gains or zero
    return tuple(g - t for g, t in zip(gains, position.totals, strict=True))


class TokenGame:
    """A hand or a match played one token at a time.

    Per engine decision the candidates' trie is built once (:func:`~rummykit.envs.encoding.composer`)
    and walked token by token; each node keeps the tokens it allows. Each seat has an encoder
    (:func:`~rummykit.envs.observation.state_encoder`: compiled where built) that is brought up to
    date at most once per decision; the action spelled so far is written on the copy handed out.
    """

    def __init__(
        self,
        rules: Rules | str,
        players: int,
        scope: Scope = "hand",
        reward: RewardKind = "score",
        derived_features: bool = False,
    ) -> None:
        self.rules = resolve_rules(rules)
        self.rules.check_table(players)
        enc.check_rules(self.rules)
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")
        check_reward(reward)
        self.players = players
        self.scope: Scope = scope
        self.reward_kind: RewardKind = reward
        self.derived = derived_features
        self.layout = Layout.for_rules(self.rules, players, derived_features)
        self.obs_size = self.layout.size
        self._rng = random.Random()
        self.match: Match | None = None
        self.round: Round = Round.new(self.rules, players, seed=0)
        self.composer: enc.TokenComposer = enc.composer(())
        self.no_rewards: tuple[float, ...] = (0.0,) * players
        self._no_figures = MatchFigures.none(players)
        self._encoders = [state_encoder(self.layout, self.rules) for _ in range(players)]
        self._encoded = [-1] * players
        self._decision = 0
        self._over = False
        self.to_move = 0
        """The seat to move (the engine's, kept per decision)."""
        self.engine_actions = 0
        self._watch = HandWatch()
        self.endless: str | None = None
        """The hand guard's limit passed by the hand being played (:mod:`rummykit.guard`), if any."""

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The ``low`` and ``high`` of every entry of this game's observations
        (:func:`~rummykit.envs.observation.observation_bounds` of its rules, table, derived block and
        scope): the bounds of the environments' observation space."""
        return observation_bounds(self.rules, self.players, self.derived, self.scope == "match")

    # Copies -------------------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, object]:
        """Pickle (and ``copy.deepcopy``) without the compiled parts, which are rebuilt from the game:
        the trie of the decision (its tokens spelled so far kept) and the observation encoders (they
        read everything from the state; only caches are lost)."""
        state = dict(self.__dict__)
        state["composer"] = list(self.composer.tokens)
        del state["_encoders"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        tokens = cast(list[int], state.pop("composer"))
        self.__dict__.update(state)
        self._encoders = [state_encoder(self.layout, self.rules) for _ in range(self.players)]
        self._encoded = [-1] * self.players
        game: Round | Match = self.match if self.match is not None else self.round
        self.composer = enc.composer(() if self._over else enc.candidate_actions(game))
        for token in tokens:
            self.composer.step(token)

    @property
    def default_illegal_reward(self) -> float:
        """What the environments give a masked-out token unless told otherwise: worse than any hand.

        With ``reward="win"`` -1, a lost hand (the classic convention). With ``reward="score"`` one
        point below :func:`worst_hand_points`: a learner that does not read the mask must never find
        an illegal token cheaper than playing the hand out (a flat -1 was better than the -20 to
        -100 points a lost German hand costs, so unmasked learners learned to forfeit). In
        ``scope="match"`` one point below :func:`worst_match_points`, a whole match's worst.

        With ``reward="margin"`` a seat's margin is its points less the mean of the other seats'.
        In a hand no seat gains more than the others' hands are worth (at most ``players - 1`` times
        the bound), so the others' mean is at most the bound and the margin at least twice it: one
        point below that. Over a match the others' gains come from every seat's penalties or hands,
        the margin's own included (at most ``players`` times the match bound, so a mean of at most
        twice it): one point below three times the match bound, less ``target_score`` in a match to a
        target score (the others' plus points reach it) and less :func:`most_game_bonus` (gin's
        end-of-game bonuses raise the others' scores, and so their mean, by at most that)."""
        if self.reward_kind == "win":
            return -1.0
        if self.scope == "match":
            worst = worst_match_points(self.rules, self.players)
        else:
            worst = worst_hand_points(self.rules)
        if self.reward_kind == "margin" and self.scope == "match":
            target = self.rules.target_score if self.rules.match_end == "target_score" else 0
            worst = 3 * worst - target - most_game_bonus(self.rules)
        elif self.reward_kind == "margin":
            worst = 2 * worst
        return float(worst - 1)

    # Life cycle ---------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Deal a new hand (or start a new match); ``seed`` reseeds the deal stream."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal_seed = self._rng.randrange(2**32)
        dealer = self._rng.randrange(self.players)
        if self.scope == "match":
            self.match = Match.new(self.rules, self.players, seed=deal_seed, dealer=dealer)
            self.round = self.match.round
        else:
            self.match = None
            self.round = Round.new(self.rules, self.players, seed=deal_seed, dealer=dealer)
        self.engine_actions = 0
        self._watch, self.endless = HandWatch(), None
        self._ledger: tuple[int, ...] = (0,) * self.players
        self._new_decision()

    def play_from(self, game: Round | Match) -> None:
        """Go on from ``game``: in ``scope="hand"`` a round (a hand in progress, a position to study,
        a hand of a record), in ``scope="match"`` a match (a record's, from :meth:`Record.start
        <rummykit.record.Record.start>`). The game plays on that very round or match (pass a copy to
        keep yours).

        In a match the rewards count the change of each seat's ledger (``Match.scores``,
        ``Match.chips`` in a rubber): from the figures the match started with (its
        :class:`~rummykit.match.MatchPosition`, or zero) for a match before its first action, as after
        :meth:`reset`, so that over a whole match they add up to its final figures, the antes paid at
        its start included; from its figures now for a match already under way.

        Raises:
            ValueError: a round in ``scope="match"``, a match in ``scope="hand"``, or another rule
                set or table size than this game's.
        """
        wanted = Round if self.scope == "hand" else Match
        seats = game.seats if isinstance(game, Round) else game.players
        if not isinstance(game, wanted) or game.rules != self.rules or seats != self.players:
            raise ValueError(
                "play_from takes a round in scope='hand' and a match in scope='match', of this game's "
                "rules and table"
            )
        if isinstance(game, Match):
            self.match = game
            self.round = game.round
            if game.actions:  # under way: what was won or lost before is no reward of this game
                self._ledger = game.chips if game.is_rubber else game.scores
            else:
                self._ledger = starting_ledger(game)
        else:
            self.match = None
            self.round = game
        self.engine_actions = 0
        self._watch, self.endless = HandWatch(), None
        self._new_decision()

    def play_record(self, record: Record, seed: int | None = None) -> None:
        """Start on ``record``'s first deal, as its game started: its rules, seats and dealer, its deck
        (a version-2 record's deals and reshuffles), and in ``scope="match"`` the match it was, from
        the position it started from (its seat draw and figures). In ``scope="hand"`` the episode is
        its first hand (a match record's too). Play may leave the record's actions (a policy
        evaluated on the deals people played): the game deals on as :meth:`Record.start
        <rummykit.record.Record.start>` does in free play, its reshuffles beyond the record's drawn
        from the deal stream (so they differ from episode to episode, and the same ``seed`` repeats
        them). ``seed`` reseeds the deal stream, as :meth:`reset` does.

        Raises:
            ValueError: the record's rules or seat count are not this game's, or a round record in
                ``scope="match"``.
            NotationError, RulesError: the record cannot start (:meth:`Record.start`).
        """
        if record.rules != self.rules:
            raise ValueError(
                f"the record's rules ({record.rules}) are not this environment's ({self.rules}): make the "
                "environment with the record's rules"
            )
        if record.players != self.players:
            raise ValueError(
                f"the record has {record.players} seats, this environment {self.players}: make the "
                "environment with the record's players"
            )
        if self.scope == "match" and record.kind != "match":
            raise ValueError("a round record holds one hand and no match: start it in scope='hand'")
        if seed is not None:
            self._rng = random.Random(seed)
        game = record.start(free_play=True, free_seed=self._rng.randrange(2**32))
        self.play_from(game.round.copy() if self.scope == "hand" and isinstance(game, Match) else game)

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def stuck(self) -> bool:
        """The game is not over but the engine offers no action: the episode is truncated.

        ``Round.legal_actions()`` promises an action until the end of every hand; this guards the
        environments should an engine defect ever break that promise.
        """
        return not self._over and self.composer.is_empty

    @property
    def truncated(self) -> bool:
        """The episode is cut short: the game is :attr:`stuck`, or the hand being played passed a
        limit of the hand guard (:attr:`endless`: a hand that never ends, as policies that never go
        out can play under unlimited stock rebuilds; passing the same discards back and forth ends
        by the rules, ``max_takes_in_a_row``; not a rule of the game, and far beyond any real hand)."""
        return self.stuck or self.endless is not None

    @property
    def truncation(self) -> str | None:
        """Why the episode is truncated, in words (``None``: it is not)."""
        if self.stuck:
            return "the engine offers no action (an engine defect)"
        if self.endless is not None:
            return f"{self.endless} (a guard against endless hands)"
        return None

    def _new_decision(self) -> None:
        self._decision += 1
        game: Round | Match = self.match if self.match is not None else self.round
        self._over = game.is_over
        self.to_move = game.to_move
        self.composer = enc.composer(() if self._over else enc.candidate_actions(game))

    # Play ---------------------------------------------------------------------------------------
    def mask(self) -> npt.NDArray[np.int8]:
        """The mask of the seat to move (a fresh array; all zeros once the game is over)."""
        if self._over:
            return np.zeros(enc.NUM_TOKENS, dtype=np.int8)
        return self.composer.mask()

    def mask_of(self, seat: int) -> npt.NDArray[np.int8]:
        """The mask of ``seat``: the seat to move's, all zeros for the others (a fresh array)."""
        if seat != self.to_move or self._over:
            return np.zeros(enc.NUM_TOKENS, dtype=np.int8)
        return self.composer.mask()

    def spell(self, action: Action) -> list[int]:
        """The tokens that make this game apply ``action`` at the decision to be taken, written as a
        record, a person or a bot may write it: the spelling of the candidate the environment offers
        for it (:func:`~rummykit.envs.encoding.spelling`: ``action`` itself or with the melds of an
        opening in canonical order, ``DONE`` added where a longer candidate goes on), or else that of
        the candidate that leaves the same position up to the order of the table's melds
        (:func:`~rummykit.envs.encoding.equivalent_candidate`: a lay-off with a run end named where
        only one fits, a set's cards in another order). Nothing is stepped.

        Table melds are named by this game's numbers, which differ from a record's where an opening
        of several melds was written in another order (:mod:`rummykit.envs.records` renumbers them).

        Raises:
            ValueError: the game is over, or a token of this decision was stepped already.
            IllegalActionError: the engine refuses ``action`` now.
            NotOfferedError: the engine takes ``action`` but the environment offers no candidate
                that plays it (an opening beyond the compound openings it lists,
                :data:`~rummykit.envs.encoding.MAX_COMPOUND_OPENINGS`; gin's ``knock C`` shortcut,
                which is several decisions).
        """
        if self._over:
            raise ValueError(f"{action}: the game is over")
        if self.composer.tokens:
            raise ValueError(f"{action}: tokens of this decision were stepped already; spell from its start")
        tokens = enc.spelling(self.composer, action)
        if tokens is not None:
            return tokens
        game: Round | Match = self.match if self.match is not None else self.round
        game.check(action)
        offered = enc.equivalent_candidate(game, action, self.composer.reachable())
        tokens = None if offered is None else enc.spelling(self.composer, offered)
        if tokens is None:
            raise NotOfferedError(f"{action}: legal, but no action the environment offers plays it")
        return tokens

    def step(self, token: int) -> tuple[Action | None, Sequence[float]]:
        """Step one token of the seat to move; the applied action (if the spelling completed it) and
        the rewards it brought per seat.

        Raises:
            ValueError: the token is masked out (nothing changes).
        """
        action = self.composer.step(token)
        if action is None:
            return None, self.no_rewards
        return action, self.apply(action)

    def apply(self, action: Action) -> Sequence[float]:
        """Apply a whole engine action (a bot's move); the rewards it brought per seat
        (:attr:`no_rewards`, shared, when nobody is rewarded by a hand's action).

        Raises:
            IllegalActionError: the engine refuses the action (nothing changes).
        """
        rewards: Sequence[float] = self.no_rewards
        if self.match is not None:
            rewards = self._apply_in_match(action)
        else:
            self.round.apply(action)
            if self.round.is_over:
                rewards = self._hand_rewards(self.round)
        self.engine_actions += 1
        if self.endless is None and not self.round.is_over:
            self.endless = self._watch.count(self.round)
        self._new_decision()
        return rewards

    def _hand_rewards(self, rnd: Round) -> list[float]:
        result = rnd.result
        assert result is not None  # the round is over
        if self.reward_kind == "win":
            # The seats dealt in: a dealer sitting out holds no cards, so their 0 points would tie
            # with a German winner's 0.
            seats = rnd.active_seats
            return share(hand_winners(result, seats), seats, self.players)
        if self.reward_kind == "margin":
            return margin(result.points, rnd.active_seats, self.players)
        return [float(p) for p in result.points]

    def _apply_in_match(self, action: Action) -> list[float]:
        """Apply in the match; at the end of a hand (or after a buy-back decision) the change of each
        seat's ledger since the last reward, counted from zero so that antes paid at the start are
        part of the first hand's reward."""
        match = self.match
        assert match is not None
        played = match.round
        match.apply(action)
        self.round = match.round
        if self.reward_kind == "win":
            if match.is_over:
                return share(match.winners, range(self.players), self.players)
            return [0.0] * self.players
        if not (played.is_over or isinstance(action, (BuyBack, Decline))):
            return [0.0] * self.players
        ledger = match.chips if match.is_rubber else match.scores
        rewards = [float(a - b) for a, b in zip(ledger, self._ledger, strict=True)]
        self._ledger = ledger
        if self.reward_kind == "margin":
            return margin(rewards, range(self.players), self.players)
        return rewards

    # Results ------------------------------------------------------------------------------------
    def result_info(self, seat: int) -> dict[str, Any] | None:
        """What the environments put in ``info["result"]`` (for ``seat``) once the hand, or in
        ``scope="match"`` the match, has ended by the rules; ``None`` before, or when the episode was
        cut short (an illegal token, a truncation: the game has no result then).

        Plain JSON (ints, bools, strings, lists), with no ``None``: Gymnasium's vector environments
        gather each field into one array over the sub-environments, and an integer array cannot hold
        ``None``. The hand's fields (in ``scope="match"``, those of the match's last hand):

        * ``seat``: the seat the result is for; ``own_points``: its ``points``.
        * ``termination``: ``str(RoundResult.termination)`` (``"went_out"``, ``"rummy"``, ``"knock"``,
          ``"stock_exhausted"``, ``"wall"``, ``"drawn"``); ``scored``: ``RoundResult.scored`` (an
          unscored hand pays every seat 0 under ``reward="score"``).
        * ``winner``: ``RoundResult.winner``, who went out, called Rummy or knocked, ``-1`` when the
          hand was not scored; ``winners``: the seats dealt in with the best points, as
          ``reward="win"`` counts them (empty for an unscored hand; in gin an undercut defender, not
          the knocker); ``won``: ``seat`` is one of them.
        * ``points``, ``penalties``, ``gains``: ``RoundResult``'s, per seat (``points = gains -
          penalties``; 0 for a seat that sat the hand out).

        In ``scope="match"`` also ``match``: ``winners`` (``Match.winners``) and ``won``, ``scores``
        (``Match.scores``) and ``own_score``, ``totals`` (``Match.totals``), ``hands_dealt``; in a
        rubber (``Match.is_rubber``: Viennese, Rommé ohne Auslegen) ``chips`` (``Match.chips``) and
        ``own_chips`` as well.
        Under ``reward="score"`` an episode's rewards add up to ``own_points`` (hand), ``own_score``
        (match) or ``own_chips`` (rubber)."""
        if not self._over:
            return None
        result = self.round.result
        assert result is not None  # the hand (the match's last) is over
        winners = hand_winners(result, self.round.active_seats)
        info: dict[str, Any] = {
            "seat": seat,
            "termination": str(result.termination),
            "scored": result.scored,
            "winner": -1 if result.winner is None else result.winner,
            "winners": winners,
            "won": seat in winners,
            "points": list(result.points),
            "own_points": result.points[seat],
            "penalties": list(result.penalties),
            "gains": list(result.gains),
        }
        m = self.match
        if m is not None:
            scores = m.scores
            figures: dict[str, Any] = {
                "winners": list(m.winners),
                "won": seat in m.winners,
                "scores": list(scores),
                "own_score": scores[seat],
                "totals": list(m.totals),
                "hands_dealt": m.hands_dealt,
            }
            if m.is_rubber:
                figures["chips"] = list(m.chips)
                figures["own_chips"] = m.chips[seat]
            info["match"] = figures
        return info

    # Observations -------------------------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        return self.round.view(seat)

    def figures(self) -> MatchFigures:
        """The match figures the observations show (:func:`match_figures`; all zero in
        ``scope="hand"``)."""
        m = self.match
        if m is None:
            return self._no_figures
        return match_figures(m)

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """Seat ``seat``'s observation vector (a fresh array)."""
        encoder = self._encoders[seat]
        if self._encoded[seat] != self._decision:
            rnd = self.round
            figures = self._no_figures if self.match is None else self.figures()
            view = functools.partial(rnd.view, seat) if self.derived else None
            encoder.encode_state(rnd.live_state(), seat, figures, view)
            self._encoded[seat] = self._decision
        tokens = self.composer.tokens
        return encoder.snapshot(tokens if tokens and seat == self.to_move and not self._over else None)
