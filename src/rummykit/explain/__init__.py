"""The rules for players: a page per rule set, in English or German, as Markdown or HTML.

:func:`explain` writes the rules of any :class:`~rummykit.rules.Rules` value for players, built from
its option values: a house-rule table shows its own opening minimum, card values, knock limit or ante,
and names the options that differ from its preset. The pages of the presets are committed under
``docs/rules/`` (regenerate with ``python -m rummykit.explain docs/rules``); the terminal shows them
with ``rummykit rules --explain PRESET`` and ``rules`` at the game prompt, and a web server can serve
:func:`explain_html` for a table's rules.

>>> from rummykit.rules import Rules
>>> page = explain(Rules.preset("german").replace(opening_min_points=30), "en")
>>> page.splitlines()[0]
'# German Rummy (Rommé) — house rules'
>>> "| opening minimum (points) | 30 | 40 |" in page
True
>>> "mindestens **30 Punkte**" in explain(Rules.preset("german").replace(opening_min_points=30), "de")
True
"""

from __future__ import annotations

import sys
from pathlib import Path

from rummykit.errors import RulesError
from rummykit.explain.document import Bullets, Heading, Paragraph, Table, to_html, to_markdown
from rummykit.explain.language import LANGUAGES, Lang
from rummykit.explain.options_page import PAGE_NAME, options_markdown
from rummykit.explain.pages import page_blocks, summary, title
from rummykit.i18n.cards import face_letters
from rummykit.rules import PRESET_NAMES, Rules


def check_language(lang: str) -> str:
    """``lang`` normalised (``"DE"`` → ``"de"``, ``"de_DE"`` → ``"de"``).

    Raises:
        RulesError: not one of :data:`LANGUAGES`.
    """
    code = lang.strip().lower().replace("-", "_").split("_", 1)[0]
    if code not in LANGUAGES:
        raise RulesError(f"no rules page in {lang[:20]!r}; languages: {', '.join(LANGUAGES)}")
    return code


def explain(rules: Rules, lang: str = "en") -> str:
    """The rules of ``rules`` as a Markdown page for players in ``lang`` (``en`` or ``de``).

    Raises:
        RulesError: an unknown language.
    """
    lang = check_language(lang)
    return _lettered(to_markdown(page_blocks(rules, Lang(lang))), lang)


def _lettered(text: str, lang: str) -> str:
    """A German page writes its cards with German packs' letters (``B♥``, ``D♠``), as the German
    table shows them (:func:`rummykit.i18n.cards.face_letters`)."""
    return face_letters(text, "de") if lang == "de" else text


def explain_html(rules: Rules, lang: str = "en") -> str:
    """The same page as :func:`explain` as an HTML fragment (headings, paragraphs, lists, tables),
    for a browser's reader: it names no command and no typing.

    All text is escaped; the fragment has no scripts, styles or links, so a server may embed it as is.

    Raises:
        RulesError: an unknown language.
    """
    lang = check_language(lang)
    return _lettered(to_html(page_blocks(rules, Lang(lang, commands=False))), lang)


def preset_line(preset: str, lang: str = "en") -> tuple[str, str]:
    """A preset's name as players know it and one line on it, for a lobby or an index.

    >>> preset_line("viennese", "de")[0]
    'Wiener Rommé (Wiener Rummy)'

    Raises:
        RulesError: an unknown preset or language.
    """
    t = Lang(check_language(lang))
    rules = Rules.preset(preset)
    return title(rules, t), summary(rules, t)


def page_name(preset: str, lang: str) -> str:
    """The file name of a preset's committed page: ``german.en.md``."""
    return f"{preset}.{check_language(lang)}.md"


def index_markdown() -> str:
    """``docs/rules/README.md``: every preset with a line on it and links to its pages."""
    en, de = Lang("en"), Lang("de")
    rows = tuple(
        (
            f"`{name}`",
            f"[{title(Rules.preset(name), en)}]({page_name(name, 'en')})",
            f"[{title(Rules.preset(name), de)}]({page_name(name, 'de')})",
            summary(Rules.preset(name), en),
        )
        for name in PRESET_NAMES
    )
    blocks = (
        Heading(1, "Rules of the games / Spielregeln"),
        Paragraph(
            "How to play each game that rummykit offers, written for players, in English and German. "
            "The pages are generated from the presets' option values, so they always match the engine."
        ),
        Table(("preset", "English", "Deutsch", "in one line"), rows),
        Paragraph("In the terminal and for house rules:"),
        Bullets(
            (
                "`rummykit rules --explain viennese` (add `--lang de` for German);",
                "`rummykit rules --explain german --set opening_min_points=30` shows a house-rule table's "
                "page;",
                "type `rules` at the prompt of `rummykit play` for the current table's rules.",
            )
        ),
        Paragraph(
            f"Every rule option, what it means, what it may be set to and each game's value: "
            f"[English]({PAGE_NAME}.en.md), [Deutsch]({PAGE_NAME}.de.md); in the terminal "
            "`rummykit rules --options PRESET`. "
            "Regenerate these pages with `python -m rummykit.explain docs/rules`."
        ),
    )
    return to_markdown(blocks)


def rendered_pages() -> dict[str, str]:
    """Every committed page by file name: one per preset and language, and the index ``README.md``."""
    pages = {
        page_name(name, lang): explain(Rules.preset(name), lang)
        for name in PRESET_NAMES
        for lang in LANGUAGES
    }
    for lang in LANGUAGES:
        pages[f"{PAGE_NAME}.{lang}.md"] = options_markdown(Lang(lang))
    pages["README.md"] = index_markdown()
    return pages


def write_pages(folder: Path) -> list[Path]:
    """Write :func:`rendered_pages` into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in rendered_pages().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m rummykit.explain FOLDER``: write the rules pages into FOLDER."""
    args = sys.argv[1:] if argv is None else argv
    usage = "usage: python -m rummykit.explain FOLDER  (writes the rules pages, one per preset and language)"
    if args in (["-h"], ["--help"]):
        print(usage)
        return 0
    if len(args) != 1 or args[0].startswith("-"):  # an option is no folder: write nothing
        print(usage, file=sys.stderr)
        return 2
    for path in write_pages(Path(args[0])):
        print(path)
    return 0


__all__ = [
    "LANGUAGES",
    "check_language",
    "explain",
    "explain_html",
    "index_markdown",
    "options_markdown",
    "page_name",
    "preset_line",
    "rendered_pages",
    "write_pages",
]
