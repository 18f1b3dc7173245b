"""Show a long text one screen at a time inside the terminal game (the rules page, for example).

The text is rendered at the console's width and cut into pages of ``height - 1`` lines, so each
page and its prompt fit an 80×24 terminal; the player presses Enter for the next page or types
``q`` to go back to the game.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console, RenderableType


def render_lines(console: Console, renderable: RenderableType) -> list[str]:
    """``renderable`` as printed lines at ``console``'s width, with its colours when it has any."""
    buffer = io.StringIO()
    twin = Console(
        file=buffer,
        width=console.size.width,
        force_terminal=console.is_terminal,
        color_system=console.color_system,  # type: ignore[arg-type]
        highlight=False,
    )
    twin.print(renderable)
    return buffer.getvalue().rstrip("\n").split("\n")


def page(
    console: Console,
    renderable: RenderableType,
    ask: Callable[[str], str],
    title: str = "",
    clear: Callable[[], None] | None = None,
    lang: str = "en",
) -> int:
    """Show ``renderable`` page by page; the number of pages shown (fewer when the player quits)."""
    lines = render_lines(console, renderable)
    per_page = max(1, console.size.height - 1)
    pages = [lines[i : i + per_page] for i in range(0, len(lines), per_page)]
    for number, chunk in enumerate(pages, start=1):
        if clear is not None:
            clear()
        console.file.write("\n".join(chunk) + "\n")
        console.file.flush()
        last = number == len(pages)
        where = f"{title} · " if title else ""
        if lang == "de":
            prompt = (
                f"-- {where}Seite {number} von {len(pages)} · Enter: zurück zum Spiel --"
                if last
                else f"-- {where}Seite {number} von {len(pages)} · Enter: nächste Seite · "
                "q: zurück zum Spiel --"
            )
        else:
            prompt = (
                f"-- {where}page {number} of {len(pages)} · Enter: back to the game --"
                if last
                else f"-- {where}page {number} of {len(pages)} · Enter: next page · q: back to the game --"
            )
        answer = ask(prompt + " ")
        if answer.strip().lower() in ("q", "quit", "exit"):
            return number
    return len(pages)
