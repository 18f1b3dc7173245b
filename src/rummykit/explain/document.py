"""A small document model for the rules pages, rendered as Markdown or as an HTML fragment.

The pages are built as blocks (headings, paragraphs, bullet lists, tables) rather than as Markdown
text, so that both renderings come from the same data and the HTML needs no Markdown parser. Inline
text may use two marks only: ``**bold**`` and ```code```. Every piece of text is escaped for HTML,
so an option value can never inject markup.

>>> doc = (Heading(1, "Rules"), Paragraph("Lay **40 points** first."))
>>> print(to_markdown(doc))
# Rules
<BLANKLINE>
Lay **40 points** first.
<BLANKLINE>
>>> to_html(doc)
'<h1>Rules</h1>\\n<p>Lay <strong>40 points</strong> first.</p>\\n'
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str


@dataclass(frozen=True, slots=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Heading | Paragraph | Bullets | Table

_INLINE: Final = re.compile(r"\*\*(.+?)\*\*|`([^`]+)`")


def to_markdown(blocks: Sequence[Block]) -> str:
    """The blocks as Markdown (GitHub flavour), one blank line between blocks."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + block.text)
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Bullets):
            out.append("\n".join(f"- {item}" for item in block.items))
        else:
            lines = [_row(block.header), "| " + " | ".join("---" for _ in block.header) + " |"]
            lines += [_row(row) for row in block.rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def tables_as_items(blocks: Sequence[Block]) -> list[Block]:
    """The blocks with each table turned into a bullet list, one item per row: its first cell, then
    each other cell after its column's name. What a narrow terminal shows instead of a table whose
    columns would cut their cells (an option's name is what a player types).

    >>> tables_as_items([Table(("option", "values"), (("`seats`", "2–6"),))])
    [Bullets(items=('`seats` — values: 2–6',))]
    """
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, Table):
            pairs = [zip(block.header[1:], row[1:], strict=True) for row in block.rows]
            out.append(
                Bullets(
                    tuple(
                        f"{row[0]} — " + "; ".join(f"{head}: {cell}" for head, cell in cells)
                        for row, cells in zip(block.rows, pairs, strict=True)
                    )
                )
            )
        else:
            out.append(block)
    return out


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def inline_html(text: str) -> str:
    """Escape ``text`` for HTML and turn the two inline marks into ``<strong>`` and ``<code>``."""
    parts: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        parts.append(html.escape(text[pos : m.start()]))
        if m.group(1) is not None:
            parts.append(f"<strong>{html.escape(m.group(1))}</strong>")
        else:
            parts.append(f"<code>{html.escape(m.group(2))}</code>")
        pos = m.end()
    parts.append(html.escape(text[pos:]))
    return "".join(parts)


def to_html(blocks: Sequence[Block]) -> str:
    """The blocks as an HTML fragment (no ``<html>``/``<body>``; the page around it is the caller's)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            level = min(6, max(1, block.level))
            out.append(f"<h{level}>{inline_html(block.text)}</h{level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{inline_html(block.text)}</p>")
        elif isinstance(block, Bullets):
            items = "".join(f"<li>{inline_html(item)}</li>" for item in block.items)
            out.append(f"<ul>{items}</ul>")
        else:
            head = "".join(f"<th>{inline_html(cell)}</th>" for cell in block.header)
            body = "".join(
                "<tr>" + "".join(f"<td>{inline_html(cell)}</td>" for cell in row) + "</tr>"
                for row in block.rows
            )
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "\n".join(out) + "\n"
