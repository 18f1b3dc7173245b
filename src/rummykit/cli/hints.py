"""The solver's suggestion for the seat to move (``hint`` in terminal play).

A hint reads only the seat's :class:`~rummykit.views.PlayerView` and the legal actions; it tries
its plan on a copy of the round (``Round.copy``/``apply``), so every suggested step is legal when
it is made. Suggestions: draw or take, the best opening (Erstmeldung), further melds, lay-offs
(anlegen), the discard, and in knock games knock (klopfen) or Rummy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.actions import (
    Action,
    BuyBack,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Knock,
    KnockDeclare,
    LayOff,
    LayOffCard,
    MeldAction,
    Open,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.bots.gin_play import best_knock_deadwood, gin_action, prefers_big_gin
from rummykit.cards import JOKER_CODE, Card, Hand, format_cards
from rummykit.errors import RummyError
from rummykit.explain.language import Lang
from rummykit.i18n.moves import describe_action
from rummykit.melding_table import jokers_freed
from rummykit.melds import Meld
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView


@dataclass(frozen=True, slots=True)
class Hint:
    """Suggested actions in order, and a line of explanation."""

    actions: tuple[Action, ...]
    reason: str

    def text(
        self,
        lang: str = "en",
        taken: int | None = None,
        phase: Phase | None = None,
        layoffs_done: bool | None = None,
        table: Sequence[Meld] | None = None,
        rules: Rules | None = None,
    ) -> str:
        """The steps and the reason in one line: in English the steps in notation (what the player
        would type), in German in words (``Kreuz-Ass abwerfen``); ``taken`` names the card a ``take``
        picks up, ``phase`` (the phase of the first step) tells what a gin ``pass`` means, and
        ``layoffs_done`` which of the gin defender's two passes it is. With the ``table`` melds the
        first step is made on (and the ``rules``) a joker exchange says how many jokers it takes
        (``5♥ 7♥ gegen zwei Joker von Figur 1 tauschen``), read on that table while the steps before
        it leave the table as it is (a draw or a take)."""
        if lang == "de":
            said = []
            for a in self.actions:
                freed = None
                if isinstance(a, Swap) and table is not None and rules is not None:
                    freed = jokers_freed(a, table, rules)
                if not isinstance(a, (Draw, TakeDiscard)):
                    table = None  # the table may have changed: no count read on it after this step
                said.append(
                    describe_action(
                        a, "de", form="verb", taken=taken, phase=phase, layoffs_done=layoffs_done, freed=freed
                    )
                )
            steps = " → ".join(said)
        else:
            steps = " → ".join(str(a) for a in self.actions)
        return f"{steps}  ({self.reason})" if self.reason else steps


def _best_discard_after(cards: Sequence[Card], rules: Rules, barred: int | None) -> tuple[int, Card] | None:
    """The discard leaving the least deadwood (never the barred card; jokers last), and that deadwood."""
    best: tuple[int, int, int, Card] | None = None
    held = Hand(cards)
    for c in sorted(set(cards)):
        if barred is not None and c == barred:
            continue
        d = solver.min_deadwood(held.without([c]), rules)
        key = (d, 1 if c == JOKER_CODE else 0, -rules.card_points(c), c)
        if best is None or key < best:
            best = key
    return None if best is None else (best[0], best[3])


def draw_hint(view: PlayerView, legal: Sequence[Action], lang: str = "en") -> Hint:
    t = Lang(lang)
    rules = view.rules
    top = view.top_discard
    hand = list(view.hand)
    if top is None or TakeDiscard() not in legal:
        return Hint(
            (Draw(),),
            t("the discard pile cannot be taken now", "von der Ablage kann jetzt nicht genommen werden"),
        )
    if rules.is_knock_game:
        now = solver.min_deadwood(hand, rules)
        after = _best_discard_after([*hand, top], rules, top if not rules.may_discard_taken_discard else None)
        if after is not None and after[0] < now:
            return Hint(
                (TakeDiscard(),),
                t(
                    f"{top} lowers your deadwood from {now} to {after[0]}, discarding {after[1]}",
                    f"{top} senkt deine Restpunkte von {now} auf {after[0]}, wenn du {after[1]} abwirfst",
                ),
            )
        return Hint(
            (Draw(),),
            t(f"{top} does not lower your deadwood ({now})", f"{top} senkt deine Restpunkte nicht ({now})"),
        )
    with_top = [*hand, top]
    opened = view.opened[view.seat]
    if not opened:
        opening = solver.best_opening(with_top, rules, must_include=top)
        if opening is not None:
            value = sum(m.value for m in opening)
            return Hint(
                (TakeDiscard(),),
                t(
                    f"{top} lets you open with {value} points",
                    f"mit {top} kannst du {value} Punkte auslegen",
                ),
            )
    if solver.melds_containing(with_top, top, rules):
        return Hint((TakeDiscard(),), t(f"{top} completes a meld", f"{top} ergänzt eine Figur"))
    if opened and solver.layoff_targets([top], [m.meld for m in view.melds], rules):
        return Hint((TakeDiscard(),), t(f"{top} can be laid off", f"{top} kann angelegt werden"))
    return Hint((Draw(),), t(f"{top} fits nothing in your hand", f"{top} passt zu nichts auf deiner Hand"))


def _try(sim: Round, action: Action, steps: list[Action]) -> bool:
    try:
        sim.apply(action)
    except RummyError:
        return False
    steps.append(action)
    return True


def play_hint(view: PlayerView, rnd: Round, lang: str = "en") -> Hint:
    """Melding games after the draw: open or meld, lay off, then discard."""
    t = Lang(lang)
    rules = view.rules
    seat = view.seat
    sim = rnd.copy()
    steps: list[Action] = []
    notes: list[str] = []
    if not view.opened[seat]:
        opening = solver.best_opening(list(view.hand), rules, must_include=view.must_lay)
        need = rules.opening_min_points
        if opening is not None and _try(sim, Open(tuple(m.cards for m in opening)), steps):
            value = sum(m.value for m in opening)
            if need:
                notes.append(t(f"opening worth {value}", f"Auslegen mit {value} Punkten"))
        elif not need:
            notes.append(t("no meld in your hand yet", "noch keine Figur auf der Hand"))
        else:
            best = solver.max_opening_value(list(view.hand), rules, keep_one=True)
            notes.append(
                t(
                    f"no opening yet: your best melds are worth {best} of {need}",
                    f"noch kein Auslegen: deine besten Figuren zählen {best} von {need}",
                )
            )
    else:
        arrangement = solver.best_arrangement(list(view.hand), rules)
        for meld in arrangement.melds:
            _try(sim, MeldAction((meld.cards,)), steps)
    current = sim.view(seat)
    if current.opened[seat] and sim.phase is Phase.PLAY:
        chain = solver.layoff_chain(list(current.hand), [m.meld for m in current.melds], rules)
        for card, index, end in chain:
            if sim.phase is not Phase.PLAY:
                break
            _try(sim, LayOff(card, index + 1, end), steps)
    if sim.phase is Phase.PLAY:
        current = sim.view(seat)
        barred = current.taken_discard if not rules.may_discard_taken_discard else None
        choice = _best_discard_after(current.hand, rules, barred)
        if choice is not None:
            if _try(sim, Discard(choice[1]), steps):
                notes.append(
                    t(f"keeps {choice[0]} points of unmelded cards", f"du behältst {choice[0]} Restpunkte")
                )
            else:
                for c in current.hand:
                    if _try(sim, Discard(c), steps):
                        break
    if sim.is_over and sim.result is not None and sim.result.winner == seat:
        notes.append(t("you go out", "du machst aus"))
    return Hint(tuple(steps), "; ".join(notes))


def discard_hint(view: PlayerView, legal: Sequence[Action], lang: str = "en") -> Hint:
    """Knock games after the draw: Rummy, knock or the discard that keeps the least deadwood."""
    t = Lang(lang)
    rules = view.rules
    barred = view.taken_discard if not rules.may_discard_taken_discard else None
    choice = _best_discard_after(view.hand, rules, barred)
    if choice is None:
        return Hint((legal[-1],), "")
    deadwood, card = choice
    rest = solver.best_arrangement(Hand(view.hand).without([card]), rules)
    shown = " | ".join(
        part for part in (" ".join(f"[{m}]" for m in rest.melds), format_cards(rest.deadwood_cards)) if part
    )
    for action, why in (
        (CallRummy(card), t("every other card is melded", "alle anderen Karten sind in Figuren")),
        (
            Knock(card),
            t(f"deadwood {deadwood} lets you knock", f"mit {deadwood} Restpunkten darfst du klopfen"),
        ),
        (Discard(card), t(f"keeps deadwood {deadwood}", f"du behältst {deadwood} Restpunkte")),
    ):
        if action in legal:
            return Hint((action,), f"{why}: {shown}".strip())
    return Hint((legal[-1],), "")


def gin_hint(view: PlayerView, legal: Sequence[Action], lang: str = "en") -> Hint:
    """Gin after the draw: what the greedy bot plays (``auto`` plays the same), with its reason. It
    knocks as soon as the deadwood after the best discard is within the knock card (gin at 0), else
    discards to keep the least deadwood; the knocker then discards and lays the melds of the best
    arrangement one at a time; the other player lays off what fits, then lays their own melds."""
    t = Lang(lang)
    action = gin_action(view, legal)
    hand = Hand(view.hand)
    if isinstance(action, KnockDeclare) and view.phase is Phase.WALL:
        return Hint((action,), t("at the wall a knock scores the hand", "an der Mauer zählt nur ein Klopfen"))
    if isinstance(action, KnockDeclare):
        deadwood = best_knock_deadwood(view.rules, list(view.hand))
        if prefers_big_gin(view.rules, list(view.hand)):
            why = t(
                f"big gin: all {len(view.hand)} cards lie in melds",
                f"großes Gin: alle {len(view.hand)} Karten liegen in Figuren",
            )
        elif deadwood == 0:
            why = t("gin: every card but the discard is melded", "Gin: alles außer dem Abwurf in Figuren")
        else:
            why = t(f"deadwood {deadwood} lets you knock", f"mit {deadwood} Restpunkten darfst du klopfen")
        return Hint((action,), why)
    if isinstance(action, Discard):
        rest = solver.best_arrangement(hand.without([action.card]), view.rules)
        melds = " ".join(f"[{m}]" for m in rest.melds)
        shown = " | ".join(part for part in (melds, format_cards(rest.deadwood_cards)) if part)
        why = t(f"keeps deadwood {rest.deadwood}", f"du behältst {rest.deadwood} Restpunkte")
        return Hint((action,), f"{why}: {shown}" if shown else why)
    if isinstance(action, LayOffCard):
        return Hint((action,), t("it fits a meld of the knocker's", "sie passt an eine Figur des Klopfenden"))
    if isinstance(action, MeldAction) and any(isinstance(a, Discard) for a in legal):
        return Hint(
            (action,),
            t("big gin: lay every card, with no discard", "großes Gin: alle Karten auslegen, ohne Abwurf"),
        )
    if isinstance(action, MeldAction):
        return Hint((action,), t("lay your melds one at a time", "lege deine Figuren einzeln aus"))
    if not isinstance(action, Pass):
        return Hint((action,), "")
    if view.phase is Phase.LAYOFF and view.gin is not None and not view.gin.layoffs_done:
        return Hint((action,), t("nothing more fits the knocker's melds", "nichts passt mehr an die Figuren"))
    if view.phase in (Phase.KNOCK, Phase.LAYOFF):
        return Hint((action,), t("no meld left to lay", "keine Figur mehr auszulegen"))
    return Hint((action,), "")


def hint(view: PlayerView, legal: Sequence[Action], rnd: Round | None, lang: str = "en") -> Hint:
    """The suggestion for ``view.seat`` given the ``legal`` actions; ``rnd`` is used only to check a
    multi-step plan on a copy (melding games after the draw). ``lang``: the language of the reason."""
    t = Lang(lang)
    if BuyBack() in legal:
        return Hint(
            (BuyBack(),),
            t(
                "buying back keeps you in the rubber; the chips go to the pot",
                "Zurückkaufen hält dich in der Partie; die Chips gehen in den Pott",
            ),
        )
    if Decline() in legal:
        return Hint((Decline(),), "")
    if view.phase is Phase.DRAW:
        return draw_hint(view, legal, lang)
    if view.phase is Phase.FIRST_UPCARD and TakeDiscard() in legal:  # gin: take the upcard or pass
        suggestion = draw_hint(view, legal, lang)
        return suggestion if suggestion.actions == (TakeDiscard(),) else Hint((Pass(),), suggestion.reason)
    if view.gin is not None:
        return gin_hint(view, legal, lang)
    if view.rules.is_knock_game or rnd is None:
        return discard_hint(view, legal, lang)
    return play_hint(view, rnd, lang)
