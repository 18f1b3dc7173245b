"""The language of a front end: ``en`` or ``de``, from an option or from the locale environment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

LANGUAGES: Final = ("en", "de")
"""Languages the engine's texts for people are written in."""
LOCALE_VARIABLES: Final = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where POSIX looks for the language of messages, the first one set wins."""


def normalize_lang(value: str | None) -> str | None:
    """``value`` as a language code: ``de``, ``DE``, ``de-AT``, ``de_DE.UTF-8`` give ``de``; an unknown
    language (``fr``), the ``C``/``POSIX`` locale or nothing give ``None``.

    >>> normalize_lang("de_DE.UTF-8"), normalize_lang("en-GB"), normalize_lang("C.UTF-8")
    ('de', 'en', None)
    """
    if not value:
        return None
    code = value.strip().lower().replace("-", "_").split(".", 1)[0].split("_", 1)[0].split("@", 1)[0]
    return code if code in LANGUAGES else None


def lang_from_env(environ: Mapping[str, str], default: str = "en") -> str:
    """The language the locale asks for (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, as POSIX
    orders them); ``default`` when the first one set names no language of :data:`LANGUAGES`."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name)
        if value:
            return normalize_lang(value) or default
    return default
