"""The rules pages the browser shows: a table's own rules, and each preset's, as escaped HTML.

The page is built by :func:`rummykit.explain.explain_html` from the option values, so a house-rule
table shows its own values. Every text in it is escaped there; the browser inserts the fragment as
it is and nothing else. Pages are cached per rule set and language in a cache of
:data:`PAGE_CACHE_SIZE` pages, the least recently asked for dropped first. Anyone may ask for the page
of house rules they only consider (``POST /api/presets/{name}/rules``), so a stranger asking for many
can make the cache build the presets' pages again (a few milliseconds each, at the lobby's request
rate), but never grow it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, Literal

from rummykit.explain import explain_html, preset_line
from rummykit.explain.language import LANGUAGES
from rummykit.rules import PRESET_NAMES, Rules

PageLang = Literal["en", "de"]
"""The languages a rules page is written in."""

PAGE_CACHE_SIZE: Final = 256

__all__ = ["PageLang", "preset_lines", "preset_rules", "rules_page"]


@lru_cache(maxsize=PAGE_CACHE_SIZE)
def _page(rules: Rules, lang: str) -> str:
    return explain_html(rules, lang)


def rules_page(rules: Rules, lang: PageLang) -> dict[str, Any]:
    """The JSON answer of a rules request: the language, the rule set's text and the HTML page."""
    return {"lang": lang, "rules": str(rules), "html": _page(rules, lang)}


@lru_cache(maxsize=1)
def preset_lines() -> dict[str, dict[str, list[str]]]:
    """Each preset's name as players know it and one line on it, per language (for the lobby)."""
    return {name: {lang: list(preset_line(name, lang)) for lang in LANGUAGES} for name in PRESET_NAMES}


def preset_rules(name: str) -> Rules | None:
    """The preset called ``name``, or ``None`` if there is none (the caller answers 404)."""
    return Rules.preset(name) if name in PRESET_NAMES else None
