"""How much room a slide's text takes, computed when the decks are written (no browser needed).

The decks' text is set in Source Sans Pro, the font of reveal.js's white theme, which ships with the
decks (``revealjs/dist/theme/fonts/``); its advance widths (fontTools reads them from the very
files the browser loads) give each word's width, and a greedy line breaker, like the browser's,
gives the number of lines of a paragraph or list item at a width. Characters the font lacks (Greek
letters, symbols, emoji) fall back to another font: they count as wide as the widest of those.
Code is monospaced; inline math is counted from its LaTeX. The estimate errs on the large side,
and tests/browser/test_slide_decks.py measures every slide in Chromium.

``height(markdown, width, font_px)`` is the height of a block of slide Markdown (paragraphs, lists,
display math) in the layout of tools/teaching/slides.py's style sheet (the constants below are the
same numbers as its CSS).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

# the layout of a slide (tools/teaching/slides.py's STYLE uses the same numbers)
SLIDE_W, SLIDE_H = 1280, 720
PAD_X, PAD_TOP, PAD_BOTTOM = 56, 36, 36
INNER_W = SLIDE_W - 2 * PAD_X
LINE = 1.3  # line height of the body text
HEAD_LINE = 1.15  # line height of the headings
PARA_GAP = 0.45  # em after a paragraph
ITEM_GAP = 0.25  # em after a list item
LIST_INDENT = 1.4  # em of a list's left padding
MATH_GAP = 0.35  # em above and below a display formula
SAFETY = 1.04  # widths are taken this much larger than measured

_FONT_FILES = {
    "regular": "source-sans-pro-regular.ttf",
    "bold": "source-sans-pro-semibold.ttf",
    "italic": "source-sans-pro-italic.ttf",
}
FALLBACK_EM = 0.62  # a character Source Sans Pro lacks (β, ≥, ✔): DejaVu Sans's widest usual glyphs
EMOJI_EM = 1.25
CODE_EM = 0.6 * 0.9  # monospace, at the 0.9em the style sheet gives code


def font_folder() -> Path:
    return Path(
        str(resources.files("sphinx_revealjs").joinpath("_static/revealjs/dist/theme/fonts/source-sans-pro"))
    )


@cache
def _metrics(style: str) -> tuple[dict[int, float], float]:
    """{code point: advance in em} of one face of Source Sans Pro, and the width of a space."""
    from fontTools.ttLib import TTFont

    font = TTFont(font_folder() / _FONT_FILES[style], lazy=True)
    units = font["head"].unitsPerEm
    advances = font["hmtx"].metrics
    widths = {code: advances[glyph][0] / units for code, glyph in font.getBestCmap().items()}
    return widths, widths[ord(" ")]


def char_em(char: str, style: str = "regular") -> float:
    widths, _ = _metrics(style)
    code = ord(char)
    if code in widths:
        return widths[code]
    if code >= 0x1F000 or 0x2600 <= code < 0x2800:
        return EMOJI_EM
    return FALLBACK_EM


def text_em(text: str, style: str = "regular") -> float:
    """The width of a run of text in em."""
    return sum(char_em(c, style) for c in text)


_COMMAND = re.compile(r"\\[A-Za-z]+|\\.")


def math_em(latex: str) -> float:
    """A rough width of inline math from its LaTeX: a command counts as one symbol, braces and
    script markers as nothing, sub- and superscripts as most of a character."""
    text = _COMMAND.sub("x", latex)
    text = re.sub(r"[{}\s]", "", text)
    scripts = text.count("^") + text.count("_")
    return 0.62 * (len(text) - 2 * scripts) + 0.45 * scripts + 0.2


def _runs(children) -> list[tuple[str, str]]:
    """(text, style) runs of markdown-it inline children; style is regular, bold, italic, code,
    math or a line break."""
    runs, bold, italic = [], 0, 0
    for tok in children or []:
        if tok.type == "text" or tok.type == "html_inline":
            text = tok.content if tok.type == "text" else re.sub(r"<[^>]+>", "", tok.content)
            runs.append((text, "bold" if bold else "italic" if italic else "regular"))
        elif tok.type == "code_inline":
            runs.append((tok.content, "code"))
        elif tok.type in ("math_inline", "math_inline_double"):
            runs.append((tok.content, "math"))
        elif tok.type == "softbreak":
            runs.append((" ", "regular"))
        elif tok.type == "hardbreak":
            runs.append(("\n", "break"))
        elif tok.type == "strong_open":
            bold += 1
        elif tok.type == "strong_close":
            bold -= 1
        elif tok.type == "em_open":
            italic += 1
        elif tok.type == "em_close":
            italic -= 1
    return runs


def _words(runs) -> list[float | None]:
    """The widths in em of the unbreakable pieces (None: a forced line break), spaces included at
    their end."""
    words: list[float | None] = []
    current = 0.0
    for text, style in runs:
        if style == "break":
            words.append(current)
            words.append(None)
            current = 0.0
        elif style == "math":
            current += math_em(text)
        elif style == "code":
            for i, piece in enumerate(text.split(" ")):
                if i:
                    words.append(current + CODE_EM)
                    current = 0.0
                current += CODE_EM * len(piece)
        else:
            face = "bold" if style == "bold" else "italic" if style == "italic" else "regular"
            space = _metrics(face)[1]
            for piece in re.split(r"(?<=[ \u2009])", text):
                if not piece:
                    continue
                if piece.endswith(" "):
                    words.append(current + text_em(piece[:-1], face) + space)
                    current = 0.0
                else:
                    current += text_em(piece, face)
    if current:
        words.append(current)
    return words


def _break(words, width_px: float, font_px: float) -> int:
    limit = width_px / (font_px * SAFETY)
    lines, used = 1, 0.0
    for word in words:
        if word is None:
            lines, used = lines + 1, 0.0
            continue
        if used and used + word > limit + 0.3:  # the trailing space of the last word may overhang
            lines, used = lines + 1, 0.0
        if word > limit:
            lines += int(word // limit)
            used = word % limit
        else:
            used += word
    return lines


def lines_of(children, width_px: float, font_px: float, bold: bool = False) -> int:
    """The lines a paragraph (markdown-it inline children) takes at a width: greedy breaking at
    spaces, as the browser does (which may also break after a hyphen: the estimate is then one
    line too many, never too few); a word wider than the line takes lines of its own."""
    runs = _runs(children)
    if bold:
        runs = [(t, "bold" if s in ("regular", "italic") else s) for t, s in runs]
    return _break(_words(runs), width_px, font_px)


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table").use(dollarmath_plugin, double_inline=True)


MD = _md()


def _math_lift(children, lines: int) -> float:
    """The extra height in em of a paragraph's lines that hold inline math with scripts or
    fractions (the browser makes such a line taller): counted on every line, to err on the large
    side when the formulas are many."""
    tall = [t.content for t in children or [] if t.type == "math_inline"]
    if any("\\frac" in t for t in tall):
        return 0.6 * min(lines, len(tall))
    if any("^" in t or "_" in t or "\\hat" in t or "\\bar" in t for t in tall):
        return 0.35 * min(lines, len(tall))
    return 0.0


def display_math_em(latex: str) -> float:
    """The height of a display formula in em: taller with fractions, sums and roots, and one
    row per line of an aligned or gathered block."""
    rows = latex.count("\\\\") + 1
    fractions = len(re.findall(r"\\[dt]?frac", latex))
    nested = bool(re.search(r"\\frac\{[^{}]*\\frac|\\sqrt\{[^{}]*\\frac|\\frac\{[^{}]*\\sqrt", latex))
    tall = fractions or "\\sum" in latex or "\\prod" in latex or "\\int" in latex
    per_row = 3.4 if nested else 2.6 if tall else 1.5
    return rows * per_row


def height(markdown: str, width_px: float, font_px: float, math_px: float | None = None) -> float:
    """The height in px of a block of slide Markdown at a width and a font size (display formulas
    at ``math_px`` when given)."""
    tokens = MD.parse(markdown)
    total = 0.0
    depth = 0  # list nesting
    gap = 0.0
    for tok in tokens:
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif tok.type == "inline":
            width = width_px - depth * LIST_INDENT * font_px
            lines = lines_of(tok.children, width, font_px)
            total += gap + lines * LINE * font_px + _math_lift(tok.children, lines) * font_px
            gap = (ITEM_GAP if depth else PARA_GAP) * font_px
        elif tok.type == "math_block":
            total += gap + (display_math_em(tok.content) + 2 * MATH_GAP) * (math_px or font_px)
            gap = 0.0
        elif tok.type in ("fence", "code_block"):
            rows = tok.content.rstrip("\n").count("\n") + 1
            total += gap + rows * LINE * 0.9 * font_px + 0.6 * font_px
            gap = PARA_GAP * font_px
        elif tok.type == "html_block":
            total += gap + LINE * font_px
            gap = PARA_GAP * font_px
    return total


def heading_height(markdown_inline: str, font_px: float, width_px: float = INNER_W) -> float:
    """The height in px of a heading (semibold, one paragraph of inline Markdown) at a font size."""
    tokens = MD.parseInline(markdown_inline)
    children = tokens[0].children if tokens else []
    return lines_of(children, width_px, font_px, bold=True) * HEAD_LINE * font_px
