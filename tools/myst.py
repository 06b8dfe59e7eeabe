"""The block structure of a MyST page, as myst-parser reads it.

myst-parser parses MyST with markdown-it-py and the mdit-py-plugins used here (front matter, MyST's
targets ``(name)=`` and comments ``%``, colon fences ``:::``, dollar math ``$$``); jupytext splits a
MyST notebook into cells with the same parser. The tools that need to know where a page's fences,
directives, headings, targets and comments are ask :func:`blocks` rather than scanning lines with
regular expressions, so that a construct the book renders is a construct they see.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin

FENCES = ("fence", "colon_fence")  # ``` (and ~~~) fences, and ::: fences
OPTION = re.compile(r"^:([\w-]+):(?:\s+(.*))?$")  # a directive's option line, right after its opening


@cache
def parser() -> MarkdownIt:
    """Block-level MyST (inline markup is not needed to find blocks)."""
    return (
        MarkdownIt("commonmark")
        .enable("table")
        .use(front_matter_plugin)
        .use(myst_block_plugin)
        .use(colon_fence_plugin)
        .use(dollarmath_plugin)
        .disable("inline", True)
    )


@dataclass(frozen=True)
class Block:
    """A top-level block of a page: its markdown-it token type (``fence``, ``colon_fence``,
    ``heading``, ``math_block``, ``myst_target``, ``myst_line_comment``, ``paragraph``...), its lines
    ``[start, end)``, and for a fence its directive name (``exercise`` in ```` ```{exercise} ````, ""
    for a plain code fence), the rest of its opening line, and for a heading its level and text."""

    kind: str
    start: int
    end: int
    name: str = ""
    arg: str = ""
    level: int = 0
    text: str = ""
    markup: str = ""

    @property
    def directive(self) -> bool:
        return self.kind in FENCES and bool(self.name)


def blocks(text: str) -> list[Block]:
    """The top-level blocks of a MyST text, in order (a heading as kind ``heading``)."""
    tokens = parser().parse(text)
    found = []
    for i, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.type.endswith("_close"):
            continue
        kind = token.type.removesuffix("_open")
        name = arg = heading = ""
        level = 0
        if kind in FENCES and token.info.startswith("{") and "}" in token.info:
            name, _, arg = token.info[1:].partition("}")
            arg = arg.strip()
        elif kind in FENCES:
            arg = token.info
        elif kind == "heading":
            level, heading = int(token.tag[1:]), tokens[i + 1].content
        elif kind == "myst_target":
            heading = token.content
        found.append(Block(kind, token.map[0], token.map[1], name, arg, level, heading, token.markup))
    return found


def walk(text: str, offset: int = 0):
    """Every block of a page in document order, those inside directives too (MyST parses a
    directive's content as MyST; its option lines are skipped), with lines counted in ``text``."""
    lines = text.split("\n")
    for block in blocks(text):
        yield Block(**{**block.__dict__, "start": block.start + offset, "end": block.end + offset})
        if block.directive and block.name != "code-cell":
            inner = block.start + 1
            while inner < block.end - 1 and OPTION.match(lines[inner]):
                inner += 1
            yield from walk("\n".join(lines[inner : block.end - 1]), offset + inner)


def headings(text: str, level: int | None = None) -> list[Block]:
    """The headings of a page outside fences (of one level, if given)."""
    return [b for b in blocks(text) if b.kind == "heading" and level in (None, b.level)]
