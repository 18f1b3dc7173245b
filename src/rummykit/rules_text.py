"""The written forms of a rule set: the text form ``german(opening_min_points=30)`` and TOML files.

This is the codec only: it reads and writes option values by their :class:`OptionType` and knows
nothing of presets or of what values are valid (that is :mod:`rummykit.rules`, which uses it).

Values are written as integers, ``true``/``false``, ``none`` (``unlimited`` for
``max_stock_rebuilds``), identifiers and pairs ``(81, 101)``.

>>> split_rules_text("viennese(knock_comparison=le, buyback_window=(80, 101))")
('viennese', [('knock_comparison', 'le'), ('buyback_window', '(80, 101)')])
>>> coerce("buyback_window", OptionType("pair"), "(80, 101)")
(80, 101)
"""

from __future__ import annotations

import json
import re
import tomllib
import types
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Union, get_args, get_origin

from rummykit.errors import RulesError, quoted

OptionKind = Literal["bool", "int", "pair", "choice", "text"]


@dataclass(frozen=True, slots=True)
class OptionType:
    """What values one option takes, read from its type annotation."""

    kind: OptionKind
    optional: bool = False
    """``None`` is a value (written ``none``, or ``unlimited`` for a limit)."""
    choices: tuple[str, ...] = ()
    """The words of a choice option, in declaration order."""

    @classmethod
    def of(cls, hint: object) -> OptionType:
        """The option type of a resolved annotation (``int | None``, ``Literal[...]``, ``tuple[int, int]``).

        >>> OptionType.of(int | None)
        OptionType(kind='int', optional=True, choices=())
        """
        optional = False
        if get_origin(hint) in (Union, types.UnionType):
            members = [a for a in get_args(hint) if a is not type(None)]
            optional = len(members) < len(get_args(hint))
            if len(members) != 1:
                raise TypeError(f"an option's type must be one type or that type and None: {hint!r}")
            hint = members[0]
        if hint is bool:
            return cls("bool", optional)
        if hint is int:
            return cls("int", optional)
        if hint is str:
            return cls("text", optional)
        if get_origin(hint) is Literal:
            return cls("choice", optional, tuple(str(a) for a in get_args(hint)))
        if get_origin(hint) is tuple and get_args(hint) == (int, int):
            return cls("pair", optional)
        raise TypeError(f"no written form for an option of type {hint!r}")


def normalise_name(name: str) -> str:
    """A preset name as looked up: lower case, accents dropped, spaces and dashes as ``_``.

    >>> normalise_name("Wiener Rommé"), normalise_name("Scala-40")
    ('wiener_romme', 'scala_40')
    """
    decomposed = unicodedata.normalize("NFKD", name.strip().lower())
    ascii_name = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\s\-]+", "_", ascii_name)


MAX_RULES_TEXT: Final = 16_384
"""The longest rules text read (every option written out is a few thousand characters): a text in a
file from a stranger is read in time linear in its length, and never a longer one."""


def split_rules_text(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The preset name and the ``option=value`` pairs (values still text) of a text form.

    Raises:
        RulesError: the text is not ``preset`` or ``preset(option=value, ...)``.
    """
    if len(text) > MAX_RULES_TEXT:
        raise RulesError(f"a rules text of {len(text)} characters: at most {MAX_RULES_TEXT} are read")
    name, opened, rest = text.strip().partition("(")
    name = name.strip()
    rest = rest.rstrip()
    if not name or ")" in name or (opened and not rest.endswith(")")):
        raise RulesError(f"malformed rules text {quoted(text)}: expected preset(option=value, ...)")
    body = rest[:-1].strip() if opened else ""
    if not body:
        return name, []
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in body:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    assignments = []
    for part in parts:
        if "=" not in part:
            shown = quoted(part.strip())
            raise RulesError(f"malformed rules text {quoted(text)}: {shown} is not option=value")
        key, raw = part.split("=", 1)
        assignments.append((key.strip(), raw.strip()))
    return name, assignments


_NONE_WORDS: Final = frozenset({"none", "null", "unlimited"})
_TRUE_WORDS: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_WORDS: Final = frozenset({"false", "no", "off", "0"})


def coerce(option: str, kind: OptionType, raw: Any) -> Any:
    """Convert text (or a TOML value) into a value of the option's type; validity is checked later.

    Raises:
        RulesError: the text cannot be a value of that type (the message names the option).
    """
    if isinstance(raw, list):
        return tuple(raw)
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    word = text.lower()
    if word in _NONE_WORDS and kind.optional:
        return None
    if kind.kind == "bool":
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
        raise RulesError(f"{option} must be true or false, not {quoted(text)}", option=option)
    if kind.kind == "int":
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"{option} must be an integer, not {quoted(text)}", option=option) from None
    if kind.kind == "pair":
        m = re.fullmatch(
            r"\(?\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*\)?", text
        )  # no int() of thousands of digits
        if m is None:
            raise RulesError(f"{option} must be a pair like (81, 101), not {quoted(text)}", option=option)
        return (int(m.group(1)), int(m.group(2)))
    return text.strip("'\"")


def format_value(option: str, value: Any) -> str:
    """An option value in the text form: ``true``, ``none``, ``unlimited``, ``(81, 101)``, ``42``."""
    if value is None:
        return "unlimited" if option == "max_stock_rebuilds" else "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "(" + ", ".join(str(v) for v in value) + ")"
    return str(value)


def toml_value(option: str, value: Any) -> str:
    """An option value as TOML that :func:`coerce` reads back: ``true``, ``42``, ``[81, 101]``, and a
    word or ``"none"`` (``"unlimited"``) as a string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(str(int(v)) for v in value) + "]"
    return json.dumps(format_value(option, value), ensure_ascii=False)  # a JSON string is a TOML one


def write_rules_file(preset: str, changes: Mapping[str, Any]) -> str:
    """A TOML rules file of ``preset`` and the options ``changes`` sets, as :func:`read_rules_file`
    reads it: ``rummykit rules --toml`` writes it, ``--rules-file`` plays it."""
    lines = [f"preset = {json.dumps(preset)}"]
    lines += [f"{option} = {toml_value(option, value)}" for option, value in changes.items()]
    return "\n".join(lines) + "\n"


def read_rules_file(path: str | Path) -> Mapping[str, Any]:
    """The option table of a TOML rules file: its ``[rules]`` table if present, else the top level.

    Raises:
        RulesError: the file cannot be read, is not TOML, or ``rules`` is not a table.
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"cannot read rules file {str(path)!r}: {exc}") from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise RulesError(f"rules file {str(path)!r}: its values are nested too deeply") from None
    except ValueError:  # an integer of more digits than Python reads (4,300)
        raise RulesError(f"rules file {str(path)!r}: a number has too many digits") from None
    table = data.get("rules", data)
    if not isinstance(table, dict):
        raise RulesError(f"rules file {str(path)!r}: [rules] must be a table")
    return table
