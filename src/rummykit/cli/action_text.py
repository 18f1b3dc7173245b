"""Moves in words for the terminal's log, shared by ``rummykit play`` and ``rummykit replay``.

``Bot 2 takes 7♥``, ``You discard Q♠``: a verb agrees with the name (``You`` takes the bare form).
Everybody at the terminal reads the log, so a card that goes face down (a face-down knock, a
Rummy call, a face-down last discard; :mod:`rummykit.disclosure` decides) is not named, as on the
web.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

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
from rummykit.cli import screen
from rummykit.disclosure import face_down_card
from rummykit.i18n import describe_action
from rummykit.i18n.cards import card_object
from rummykit.i18n.moves import joker_count, second_person_de
from rummykit.melding_conditions import opening_points
from rummykit.melding_table import jokers_freed
from rummykit.views import Phase, PlayerView


def describe(
    action: Action,
    name: str,
    before: PlayerView | None,
    ascii_only: bool = False,
    lang: str = "en",
    drawn: int | None = None,
) -> Text:
    """A move in words for the log: ``Bot 2 takes 7♥``, ``You discard Q♠``; in German
    ``Bot 2: nimmt Herz-7 von der Ablage``, ``Du nimmst Herz-7 von der Ablage``
    (:func:`rummykit.i18n.describe_action`). ``drawn`` names the card a draw from the stock brought,
    for a log only its drawer reads (``You draw A♦ from the stock``, ``Du ziehst Karo-Ass vom Stoß``)."""
    phase = before.phase if before is not None else None
    # Which of a gin defender's two passes this is (the one ending the lay-offs, or the melds).
    layoffs_done = before.gin.layoffs_done if before is not None and before.gin is not None else None
    if drawn is not None and isinstance(action, Draw):
        if lang == "de":
            said = f"zieht {card_object(drawn, 'de')} vom Stoß"
            if name == "Du":
                return Text("Du ", style="cyan").append(second_person_de(said))
            return Text(f"{name}: ", style="cyan").append(said)
        drew = Text(f"{name} ", style="cyan").append("draw " if name == "You" else "draws ")
        return drew.append_text(screen.cards_text([drawn], ascii_only)).append(" from the stock")
    # An opening says what it counts toward the minimum (every player checks an opponent's 40).
    points = opening_points(action, before.rules, before.taken_discard) if before is not None else None
    # How many jokers an exchange frees: two naturals may free one (DSkV) or two.
    freed = (
        jokers_freed(action, [tm.meld for tm in before.melds], before.rules)
        if before is not None and isinstance(action, Swap)
        else None
    )
    if lang == "de":
        if before is None:
            said = describe_action(action, "de", freed=freed)
        else:
            said = describe_action(
                action,
                "de",
                taken=before.top_discard,
                rules=before.rules,
                goes_out=len(before.hand) == 1,
                phase=phase,
                layoffs_done=layoffs_done,
                freed=freed,
            )
        if points is not None:
            said += f" ({points} Punkte)"
        if name == "Du":  # the person at the keyboard is spoken to: "Du nimmst Herz-8 von der Ablage"
            return Text("Du ", style="cyan").append(second_person_de(said))
        return Text(f"{name}: ", style="cyan").append(said)
    you = name == "You"

    def verb(word: str) -> str:
        return word if you else word + ("es" if word.endswith(("sh", "ch", "s", "x")) else "s")

    def cards(cs: Sequence[int]) -> Text:
        return screen.cards_text(cs, ascii_only)

    text = Text(f"{name} ", style="cyan")
    # Everybody at the terminal reads the log: a card that goes face down is not named (as on the web).
    if (
        before is not None
        and face_down_card(action, before.rules, goes_out=len(before.hand) == 1) is not None
    ):
        words = {Knock: ("knock", "knocks"), CallRummy: ("call Rummy", "calls Rummy")}
        own, other = words.get(type(action), ("go out", "goes out"))
        return text.append(f"{own if you else other}, laying a card face down")
    if isinstance(action, Draw):
        text.append(f"{verb('draw')} from the stock")
    elif isinstance(action, TakeDiscard):
        text.append(f"{verb('take')} ")
        top = before.top_discard if before is not None else None
        text.append_text(cards([top]) if top is not None else Text("the discard"))
    elif isinstance(action, (Open, MeldAction)):
        text.append(f"{verb('open') if isinstance(action, Open) else verb('meld')} ")
        text.append_text(Text(" | ").join(cards(m) for m in action.melds))
        if points is not None:
            text.append(f" ({points} points)")
    elif isinstance(action, LayOff):
        text.append(f"{verb('lay')} ")
        text.append_text(cards([action.card]))
        text.append(f" off on meld {action.target}")
    elif isinstance(action, Swap):
        text.append(f"{verb('swap')} ")
        text.append_text(cards(action.cards))
        text.append(f" for {joker_count(freed, len(action.cards), 'en')} of meld {action.target}")
        if action.melds:
            text.append(" and " + verb("meld") + " ")
            text.append_text(Text(" | ").join(cards(m) for m in action.melds))
    elif isinstance(action, Knock):
        text.append(
            f"{verb('knock')} with the upcard, discarding "
            if phase is Phase.WALL
            else f"{verb('knock')}, discarding "
        )
        text.append_text(cards([action.card]))
    elif isinstance(action, (Pass, KnockDeclare)):
        # Gin: what a pass or a knock means depends on the phase (the first upcard, the wall, the melds).
        said = describe_action(
            action, "en", form="verb" if you else "third", phase=phase, layoffs_done=layoffs_done
        )
        text.append(said)
    elif isinstance(action, LayOffCard):
        text.append(f"{verb('lay')} ")
        text.append_text(cards([action.card]))
        text.append(" off on the knocker's melds")
    elif isinstance(action, CallRummy):
        text.append(f"{verb('call')} Rummy, laying ")
        text.append_text(cards([action.card]))
        text.append(" face down")
    elif isinstance(action, Discard):
        text.append(f"{verb('discard')} ")
        text.append_text(cards([action.card]))
    elif isinstance(action, BuyBack):
        text.append(f"{verb('buy')} back into the rubber")
    elif isinstance(action, Decline):
        text.append(f"{verb('decline')} the buy-back")
    else:
        text.append(str(action))
    return text
