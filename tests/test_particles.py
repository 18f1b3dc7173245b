"""The particle filter over the opponents' hands (rummykit.bots.particles) on arranged deals: the
log it replays, what a take, a pass, a discard and a knock not made say about a hand, and that every
determinization it deals fits the view (sizes, unseen cards, two decks' repeated codes)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

import rummykit as rk
from rummykit.actions import Action
from rummykit.bots import make_bot
from rummykit.bots.inference import OwnDraw, Stretch, TableMemory, Turn, sample_hidden
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.particles import WAIT_EPS, Model, ParticleFilter, ParticleSampler, Story
from rummykit.bots.search import Budget
from rummykit.cards import parse_cards
from rummykit.determinize import unseen_cards
from rummykit.testing import arrange_deck

VIENNESE = rk.Rules.preset("viennese")
# Seat 0 deals (11 cards, discards first); seat 1 holds a pair of sevens and no hearts near 8H.
DEALER = "7H 2C 4D 6S 9C JD KS QC 3S 5C"
OPPONENT = "7C 7S 2D 4S 6C 9D JS KD QD 3C"


def _cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _play(rnd: rk.Round, memory: TableMemory, seat: int, script: list[str]) -> None:
    """Apply ``script``; ``seat``'s decisions go through the memory as a bot's would."""
    for text in script:
        if rnd.to_move == seat:
            view = rnd.view(seat)
            memory.observe(view)
            action = Action.parse(text)
            memory.acted(view, action)
            rnd.apply(action)
        else:
            rnd.apply(text)


def _took_7h_passed_8h(rules: rk.Rules = VIENNESE) -> tuple[rk.Round, TableMemory]:
    deck = arrange_deck(rules, 2, [DEALER, OPPONENT], extra="8H", stock="10C 5H AS KC")
    rnd = rk.Round.new(rules, 2, deck=deck, dealer=0, seed=3)
    memory = TableMemory()
    script = ["discard 7H", "take", "discard 2D", "draw", "discard 8H", "draw", "discard 4S"]
    _play(rnd, memory, 0, script)
    memory.observe(rnd.view(0))
    return rnd, memory


def test_the_memory_logs_turns_and_own_draws_in_order() -> None:
    _, memory = _took_7h_passed_8h()
    seven, eight = _cards("7H 8H")
    assert memory.log == [
        Stretch((Turn(1, 1, seven, True, False, _cards("2D")[0]),)),
        OwnDraw(_cards("10C")[0]),
        Stretch((Turn(1, 3, eight, False, True, _cards("4S")[0]),)),
    ]


def test_the_stretch_before_the_first_own_turn_is_logged_but_teaches_no_evidence() -> None:
    """Seat 1's first view comes after the dealer's opening discard (no draw: the extra card)."""
    deck = arrange_deck(VIENNESE, 2, [DEALER, OPPONENT], extra="8H", stock="10C 5H AS KC")
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=3)
    rnd.apply("discard 7H")
    memory = TableMemory()
    memory.observe(rnd.view(1))
    assert memory.log == [Stretch((Turn(0, 0, None, False, False, _cards("7H")[0]),))]
    assert memory.deal_hand == tuple(sorted(_cards(OPPONENT)))
    assert memory.evidence == {}


def _hands(view: rk.PlayerView, memory: TableMemory, n: int, seed: int) -> tuple[Counter[int], Counter[int]]:
    """Cards of seat 1's sampled hands over ``n`` determinizations: particles and uniform."""
    sampler = ParticleSampler()
    rng_p, rng_u = random.Random(seed), random.Random(seed)
    particles: Counter[int] = Counter()
    uniform: Counter[int] = Counter()
    for _ in range(n):
        particles.update(sampler(view, rng_p, memory)[0][1])
        uniform.update(sample_hidden(view, rng_u, None, behaviour=False)[0][1])
    return particles, uniform


def test_a_seat_that_took_7h_and_passed_8h_holds_sevens_more_often() -> None:
    rnd, memory = _took_7h_passed_8h()
    view = rnd.view(0)
    particles, uniform = _hands(view, memory, 600, 1)
    sevens = _cards("7C 7D 7S")
    assert sum(particles[c] for c in sevens) > 1.5 * sum(uniform[c] for c in sevens)
    # Passing the 8H: its partners that do not join a seven are rarer.
    eights = _cards("8C 8D 8S 9H 10H")
    assert sum(particles[c] for c in eights) < 0.8 * sum(uniform[c] for c in eights)


def test_a_discarded_card_is_held_only_as_its_second_copy() -> None:
    """With one deck a discarded card is never held again (it lies in the pile); with two decks only
    the other copy can be held, and the greedy model makes that rarer than chance (a discarded card
    of a pair is unlikely)."""
    one_deck = rk.Rules.parse("viennese(num_decks=1, max_players=4)")
    rnd, memory = _took_7h_passed_8h(one_deck)
    particles, _ = _hands(rnd.view(0), memory, 300, 2)
    assert particles[_cards("2D")[0]] == 0 and particles[_cards("4S")[0]] == 0
    rnd, memory = _took_7h_passed_8h()
    particles, uniform = _hands(rnd.view(0), memory, 600, 2)
    discarded = _cards("2D 4S")
    assert sum(particles[c] for c in discarded) < 0.8 * sum(uniform[c] for c in discarded)


def _replayed(hands: list[list[int]], wait_eps: float) -> list[float]:
    """The log weights of particles holding ``hands`` (with the known 7H) after seat 1's second turn
    (it drew, discarded 4S and did not knock) under a model with ``wait_eps``."""
    deck = arrange_deck(VIENNESE, 2, [DEALER, OPPONENT], extra="8H", stock="10C 5H AS KC")
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=3)
    memory = TableMemory()
    _play(rnd, memory, 0, ["discard 7H", "take", "discard 2D", "draw", "discard 8H"])
    view = rnd.view(0)
    f = ParticleFilter(view, memory, random.Random(0), len(hands), Model(wait_eps=wait_eps))
    f.update(view, memory, random.Random(0))
    f.resample_at = 0.0
    for particle, hand in zip(f.hands, hands, strict=True):
        particle[1] = [*_cards("7H"), *hand]
    f.logw = [0.0] * f.count
    rnd.apply("draw")
    rnd.apply("discard 4S")
    view = rnd.view(0)
    memory.observe(view)
    f.update(view, memory, random.Random(0))
    return f.logw


def test_a_hand_that_could_have_knocked_is_weighted_down() -> None:
    """Seat 1 drew, discarded 4S and did not knock: a particle whose hand would have knocked (runs
    5H-7H and 9S-JS, three 2s, the 3C: deadwood 3 after any discard) is weighted by WAIT_EPS against
    one that could not, beyond what the draw and the discard say."""
    close = _cards("5H 6H 2C 2D 2S 9S 10S JS 3C")
    far = _cards("2H 6D 4H 8D KH 9S QH JC 3D")
    waiting = _replayed([close, far], WAIT_EPS)
    eager = _replayed([close, far], 1.0)
    assert math.isclose((waiting[0] - waiting[1]) - (eager[0] - eager[1]), math.log(WAIT_EPS))


def _check_fits(view: rk.PlayerView, hands: dict[int, list[int]], stock: list[int]) -> None:
    unseen = Counter(int(c) for c in unseen_cards(view))
    dealt: Counter[int] = Counter(stock)
    for s in view.active_seats:
        if s == view.seat:
            continue
        assert len(hands[s]) == view.hand_sizes[s]
        rest = Counter(hands[s])
        rest.subtract(int(c) for c in view.known_cards[s])
        assert min(rest.values(), default=0) >= 0  # the known cards are held
        dealt.update(+rest)
    assert dealt == unseen  # nothing seen dealt, every unseen card (and its copies) placed once


def _against_greedy(
    rules: rk.Rules, players: int, sampler: ParticleSampler, each_fit: Callable[[], None]
) -> int:
    """Play a hand (seed 11, at most 40 turns) of the search bot on ``sampler`` against greedy and
    check that every determinization fits seat 0's view (``each_fit`` runs after each); the count."""
    rnd = rk.Round.new(rules, players, seed=11)
    bot = IsmctsBot(budget=Budget(determinizations=6, horizon=4, candidates=2))
    bot.sampler = sampler
    greedy = make_bot("greedy")
    rng, probe = random.Random(1), random.Random(2)
    checked = 0
    while not rnd.is_over and rnd.turn < 40:
        view = rnd.view(rnd.to_move)
        if rnd.to_move == 0:
            memory = bot.memory(0)
            memory.observe(view)
            for _ in range(3):
                hands, stock = sampler(view, probe, memory)
                if all(
                    view.revealed[s] is None for s in view.active_seats
                ):  # a hand laid open is dealt as shown
                    _check_fits(view, hands, stock)
                    each_fit()
                    checked += 1
        player = bot if rnd.to_move == 0 else greedy
        rnd.apply(player.choose(view, rnd.legal_actions(), rng))
    return checked


def test_particles_fit_every_view_in_two_deck_games() -> None:
    """Viennese heads-up and German at three (two decks, jokers; the German stretches with several
    movers and tabled cards fall back to repairing the particles): every determinization fits."""
    for name, players in (("viennese", 2), ("german", 2), ("german", 3)):
        sampler = ParticleSampler(count=30)
        assert _against_greedy(rk.Rules.preset(name), players, sampler, lambda: None) > 6
        assert sampler.filters[0].reseeds == 0


def _moved(
    model: Model, moves: int = 3, count: int = 200, seed: int = 0
) -> tuple[rk.PlayerView, ParticleFilter]:
    """The filter of seat 0 after seat 1 took the 7H, threw the 2D, drew and threw the 4S, resampled
    after every update and moved ``moves`` times per particle."""
    rnd, memory = _took_7h_passed_8h()
    view = rnd.view(0)
    f = ParticleFilter(view, memory, random.Random(seed), count, model, moves=moves)
    f.resample_at = 1.0
    f.update(view, memory, random.Random(seed))
    return view, f


def test_moves_keep_every_particle_consistent_with_the_log() -> None:
    """After the moves each story follows the log (the 7H taken in turn 0 and held, the 2D thrown
    in turn 0, the 4S in turn 1), its held cards are the particle's hand, its guessed cards are
    unseen and its cached scores are those of the turns as they now stand."""
    view, f = _moved(Model())
    seven, two, four = _cards("7H 2D 4S")
    unseen = Counter(int(c) for c in unseen_cards(view))
    assert f.proposed > 0 and 0 < f.accepted < f.proposed
    assert f.resamples > 0 and len(f.turns) == 2
    stories = [s for s in f.stories if s is not None]
    assert len(stories) == f.count
    for story, hands in zip(f.stories, f.hands, strict=True):
        assert story is not None
        assert Counter(story.held()) == Counter(hands[1])
        assert [r for r in story.records if r[3]] == [[seven, 0, None, 1]]  # the 7H taken
        assert [r[0] for r in story.records if r[2] == 0] == [two]  # thrown in turn 0
        assert [r[0] for r in story.records if r[2] == 1] == [four]
        guessed = Counter(int(r[0]) for r in story.guessed())  # type: ignore[arg-type]
        assert not guessed - unseen  # no seen card guessed
        assert sum(guessed.values()) == view.hand_sizes[1] - 1
        for k, score in enumerate(story.scores):
            assert score is None or math.isclose(score, f._score(story, k))
    for _ in range(20):
        _check_fits(view, *f.draw(view, random.Random(3), [int(c) for c in unseen_cards(view)]))


def test_moves_under_flat_likelihoods_accept_every_exchange() -> None:
    """With the likelihoods to the power 0 the target is the uniform deal, which the proposal keeps
    (a uniform copy of the stock for a uniform guessed card): every exchange is accepted, and the
    guessed cards spread over the stock (each unseen card about equally often)."""
    view, f = _moved(Model(power=0), moves=10, count=300)
    assert f.proposed > 0 and f.accepted == f.proposed
    held: Counter[int] = Counter()
    for story in f.stories:
        assert story is not None
        held.update(int(r[0]) for r in story.guessed())  # type: ignore[arg-type]
    unseen = Counter(int(c) for c in unseen_cards(view))
    expected = sum(held.values()) / sum(unseen.values())
    for card, copies in unseen.items():
        assert held[card] < 3 * expected * copies


def test_moves_fit_every_view_of_a_viennese_hand() -> None:
    """A Viennese heads-up hand against greedy with the moves on: every determinization fits the
    view, and most particles keep their stories to the end."""
    sampler = ParticleSampler(count=60, moves=2)

    def stories_kept() -> None:
        f = sampler.filters[0]
        assert sum(s is not None for s in f.stories) > f.count // 2

    assert _against_greedy(VIENNESE, 2, sampler, stories_kept) > 6
    assert sampler.filters[0].accepted > 0


class _Scripted(random.Random):
    """Random numbers given in advance: the indices ``randrange`` returns and one uniform number."""

    def __init__(self, picks: list[int], u: float) -> None:
        super().__init__(0)
        self.picks = picks
        self.u = u

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        return self.picks.pop(0)

    def random(self) -> float:
        return self.u


def test_a_move_is_accepted_by_the_likelihood_ratio_of_the_turns_it_changes() -> None:
    """One proposed exchange (the first guessed card for a card of the stock that makes the logged
    turns less likely) is accepted exactly when the uniform number falls under the ratio of the
    turns' likelihoods, scored afresh on the story before and after."""
    rnd, memory = _took_7h_passed_8h()
    view = rnd.view(0)
    f = ParticleFilter(view, memory, random.Random(0), 50, Model(), moves=1)
    f.resample_at = 0.0
    f.update(view, memory, random.Random(0))
    story, hands = next((s, h) for s, h in zip(f.stories, f.hands, strict=True) if s is not None)
    guessed = story.guessed()
    record = guessed[0]
    free = Counter(int(c) for c in unseen_cards(view))
    for r in guessed:
        free[int(r[0])] -= 1  # type: ignore[arg-type]
    pool = list((+free).elements())
    start = max(int(record[1]), 0)  # type: ignore[arg-type]

    def likelihood(s: Story) -> float:
        return sum(f._score(s, k) for k in range(start, len(f.turns)))

    old = likelihood(story)

    def ratio_of(card: int) -> float:
        other = story.copy()
        next(r for r in other.guessed() if r[0] == record[0] and r[1] == record[1])[0] = card
        return likelihood(other) - old

    # The first exchange that lowers the likelihood (a card that fits the turns less well).
    at, card, ratio = next((i, c, r) for i, c in enumerate(pool) if (r := ratio_of(c)) < -0.05)
    for shift, accepted in ((-0.01, True), (0.01, False)):
        mine = story.copy()
        f.stories, f.hands = [mine], [{1: list(hands[1])}]
        f.proposed = f.accepted = 0
        f._move(view, _Scripted([0, at], 1.0 - math.exp(ratio + shift)))
        assert f.proposed == 1 and f.accepted == int(accepted)
        held = Counter(mine.held())
        assert Counter(f.hands[0][1]) == held
        assert (held[card] > Counter(story.held())[card]) == accepted


def test_a_taken_copy_leaves_first_when_a_seat_throws_a_face_it_holds_twice() -> None:
    """Seat 1, dealt a 7H, takes the dealer's 7H and later throws a 7H: the table no longer knows it
    holds one (either copy may have gone), so no story holds a taken copy the view does not know, and
    none is dropped for it: every story's guessed cards are its particle's hand."""
    opponent = OPPONENT.replace("3C", "7H")
    deck = arrange_deck(VIENNESE, 2, [DEALER, opponent], extra="8H", stock="10C 5H AS KC")
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=3)
    memory = TableMemory()
    _play(rnd, memory, 0, ["discard 7H", "take", "discard 2D", "draw", "discard 8H", "draw", "discard 7H"])
    view = rnd.view(0)
    memory.observe(view)
    assert view.known_cards[1] == ()
    f = ParticleFilter(view, memory, random.Random(0), 100, Model(), moves=2)
    f.resample_at = 1.0
    f.update(view, memory, random.Random(0))
    assert all(story is not None for story in f.stories)
    for story, hands in zip(f.stories, f.hands, strict=True):
        assert story is not None
        assert not [r for r in story.records if r[3] and r[2] is None]  # no taken copy held
        assert sorted(int(r[0]) for r in story.guessed()) == sorted(hands[1])  # type: ignore[arg-type]
