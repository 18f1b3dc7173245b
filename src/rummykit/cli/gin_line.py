"""The gin line of the terminal table (RULES.md §5.4): what a gin hand shows beyond the piles.

Everyone at a gin table sees the hand's knock card (under ``oklahoma`` it comes from the first
upcard, and a spade there doubles the hand under ``oklahoma_spade_doubles``), how many players passed
on the first upcard while that phase lasts, and, once someone has knocked, the knocker's melds as laid
(one group per meld, in the order laid) and the cards the defender laid off onto them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from rummykit.explain.language import Lang
from rummykit.views import Phase, PlayerView


def gin_line(
    view: PlayerView, names: Sequence[str], render: Callable[[Sequence[int]], Text], lang: str = "en"
) -> Text | None:
    """The gin line of ``view`` (``None`` outside gin or after the hand); ``render(cards)`` shows
    cards as the rest of the table does."""
    gin = view.gin
    if gin is None or view.phase is Phase.OVER:
        return None
    t = Lang(lang)
    line = Text(t(f"knock card {gin.knock_card}", f"Klopfgrenze {gin.knock_card}"), style="bold")
    if gin.doubled:
        line.append(
            t(" · spade upcard: the hand counts double", " · Pik aufgedeckt: das Spiel zählt doppelt")
        )
    if view.phase is Phase.FIRST_UPCARD and gin.upcard_passes:  # nothing to say before a pass
        passes = min(gin.upcard_passes, 2)
        line.append(" · ")
        line.append(
            t("one pass on the first upcard", "einmal bei der ersten offenen Karte gepasst")
            if passes == 1
            else t("both passed on the first upcard", "beide haben bei der ersten offenen Karte gepasst")
        )
    if gin.knocker_melds and view.knocker is not None:
        line.append(" · ")
        line.append(melds_label(names[view.knocker], lang))
        for i, meld in enumerate(gin.knocker_melds):
            if i:
                line.append(" | ")
            line.append_text(render(meld))
    if gin.layoffs:
        line.append(" · ")
        line.append(t("laid off: ", "angelegt: "))
        line.append_text(render(gin.layoffs))
    return line


def melds_label(name: str, lang: str = "en") -> str:
    """The label before the knocker's melds: ``Bot 2's melds: `` (``Figuren von Bot 2: ``), and for
    the person at the terminal (named ``You`` / ``Du``) ``Your melds: `` (``Deine Figuren: ``)."""
    if lang == "de":
        return "Deine Figuren: " if name == "Du" else f"Figuren von {name}: "
    return "Your melds: " if name == "You" else f"{name}'s melds: "
