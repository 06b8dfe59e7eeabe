"""Sphinx extension: the math is rendered when the site is built, as MathML Core, which every current
browser draws natively; no page loads a script to typeset it.

- The HTML math renderer ``ba_mathml`` writes each formula's LaTeX as MathML with math-core (a
  LaTeX-to-MathML-Core converter on the package index, MIT): ``$…$`` becomes an inline ``<math>``,
  ``$$…$$`` a ``<math display="block">`` inside ``<div class="math">``, which scrolls sideways when
  the formula is wider than the column (static/reader-site.css draws a shadow at the edge that hides
  more; static/reader-site.js makes such a box one tab stop, labelled, so that a keyboard can scroll
  it; a formula that fits is no tab stop). As with Sphinx's MathJax renderer, a display formula
  with ``\\\\`` outside an environment is aligned on its ``&`` (``aligned``), and paragraphs of a
  display block are stacked. A formula that math-core cannot convert is a build warning (the book
  builds with -W) naming the page and the LaTeX.
- The font: a browser draws MathML with a font that has an OpenType MATH table (stretchy brackets,
  large operators, script sizes). Phones differ in which one they have, and some have none, so the
  site brings its own: STIX Two Math (SIL Open Font License 1.1; the copy shipped in the ziamath
  package on the package index), cut down after the build to the characters the site's formulas use
  (with their italic forms, which MathML gives a one-letter identifier, and the glyph variants the
  MATH table needs) and renamed "BA Math" as the licence asks of a modified font:
  ``_static/fonts/ba-math.woff2`` (about 37 KiB), its licence beside it. A page without math never
  fetches it.

``latex_to_mathml`` and ``write_math_font`` serve the slides too (tools/teaching/slides.py).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)
HERE = Path(__file__).parent
ENV_VERSION = 1
SCROLL_LABEL = "Formula: scroll sideways"  # translated in the catalogue (data/strings/theme.csv)
FONT_NAME = "BA Math"
FONT_FILE = "ba-math.woff2"
LICENSE_FILE = "ba-math-LICENSE.txt"
# OpenType features the MATH layout uses: script-size glyphs, flattened accents over capitals,
# dotless i and j under accents.
FONT_FEATURES = ["ssty", "flac", "dtls"]


class MathError(ValueError):
    """LaTeX that math-core cannot convert."""


@cache
def _converter():
    from math_core import LatexToMathML

    return LatexToMathML(fancy_error=False)


_ENV = re.compile(r"\\begin\{([^}]*)\}(?:(?!\\begin\{).)*?\\end\{\1\}", re.S)


def _has_top_level_newline(latex: str) -> bool:
    """Whether ``\\\\`` occurs outside every environment (matrices, aligned blocks...)."""
    previous = None
    while previous != latex:
        previous, latex = latex, _ENV.sub(" ", latex)
    return "\\\\" in latex


def display_source(latex: str) -> str:
    """The LaTeX of a display block as Sphinx's MathJax renderer reads it: paragraphs (separated by
    a blank line) are stacked, and a paragraph that breaks lines with ``\\\\`` outside an environment
    is aligned on ``&`` (Sphinx wraps it in ``split``; math-core, like MathML, has ``aligned``)."""
    parts = [p.strip() for p in latex.split("\n\n") if p.strip()]
    parts = ["\\begin{aligned}" + p + "\\end{aligned}" if _has_top_level_newline(p) else p for p in parts]
    if len(parts) > 1:
        return "\\begin{gathered}" + " \\\\ ".join(parts) + "\\end{gathered}"
    return parts[0] if parts else ""


def latex_to_mathml(latex: str, display: bool) -> str:
    """The MathML Core of a formula (``display``: a block, else inline), e.g.
    ``latex_to_mathml("x^2", False) == "<math><msup><mi>x</mi><mn>2</mn></msup></math>"``."""
    from math_core import LatexError

    source = display_source(latex) if display else latex.strip()
    try:
        return _converter().convert_with_local_state(source, displaystyle=display)
    except LatexError as exc:
        raise MathError(f"{exc} in {'$$' if display else '$'}{latex.strip()}") from None


def _render(self, node, display: bool) -> str:
    latex = node.astext()
    try:
        if display and node.get("nowrap"):
            return _converter().convert_with_local_state(latex.strip(), displaystyle=True)
        return latex_to_mathml(latex, display)
    except Exception as exc:  # math-core's LatexError, or MathError
        logger.warning("math: %s", exc, location=node)
        return f'<code class="ba-math-error">{html.escape(latex)}</code>'


def visit_math(self, node):
    mathml = _render(self, node, display=False)
    if node.get("ids"):
        mathml = mathml.replace("<math", f'<math id="{node["ids"][0]}"', 1)
    self.body.append(mathml)
    raise nodes.SkipNode


def visit_displaymath(self, node):
    from sphinx.locale import _
    from sphinx.util.math import get_node_equation_number

    # the label of the box once it scrolls (static/reader-site.js), in the page's language
    label = _(SCROLL_LABEL)
    self.body.append(
        self.starttag(node, "div", CLASS="math notranslate nohighlight", **{"data-ba-label": label})
    )
    if node.get("number"):
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    self.body.append(_render(self, node, display=True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


# --- the font -------------------------------------------------------------------------------------

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TEXT = re.compile(r">([^<]+)<")
_GREEK_ITALIC = {0x2202: 0x1D715, 0x03F5: 0x1D716, 0x03D1: 0x1D717, 0x03F0: 0x1D718, 0x03D5: 0x1D719}
_GREEK_ITALIC |= {0x03F1: 0x1D71A, 0x03D6: 0x1D71B, 0x2207: 0x1D6FB, 0x0131: 0x1D6A4, 0x0237: 0x1D6A5}


# Glyphs the browser draws for an element rather than for its text: the radical sign of <msqrt>
# and <mroot>.
IMPLICIT = {0x221A}


def italic(code: int) -> int | None:
    """The mathematical italic form of a letter (what MathML draws for a one-letter ``<mi>``)."""
    if 0x41 <= code <= 0x5A:
        return 0x1D434 + code - 0x41
    if 0x61 <= code <= 0x7A:
        return 0x210E if code == 0x68 else 0x1D44E + code - 0x61
    if 0x391 <= code <= 0x3A9 and code != 0x3A2:
        return 0x1D6E2 + code - 0x391
    if 0x3B1 <= code <= 0x3C9:
        return 0x1D6FC + code - 0x3B1
    return _GREEK_ITALIC.get(code)


def math_characters(pages: Iterable[str]) -> set[int]:
    """The code points of every formula (``<math>…</math>``) of the given HTML texts, with the
    italic form of each letter."""
    codes = set()
    for text in pages:
        for formula in _MATH.findall(text):
            for run in _TEXT.findall(formula):
                codes.update(ord(c) for c in html.unescape(run))
    codes |= {i for i in map(italic, list(codes)) if i}
    codes.discard(0x0A)
    if codes:
        codes |= IMPLICIT
    return codes


def font_source() -> Path:
    """STIX Two Math, as the ziamath package ships it (found without importing ziamath)."""
    import importlib.util

    spec = importlib.util.find_spec("ziamath")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("ziamath is not installed: run `make setup` (it is in the book extra)")
    path = Path(list(spec.submodule_search_locations)[0]) / "fonts" / "STIXTwoMath-Regular.ttf"
    if not path.exists():
        raise RuntimeError(
            f"no STIX Two Math in {path.parent}: run `make setup` (ziamath is in the book extra)"
        )
    return path


def math_font(codes: Iterable[int]) -> bytes:
    """STIX Two Math cut down to ``codes`` (and the glyphs its MATH table needs for them), renamed
    BA Math, as WOFF2."""
    import io

    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = list(FONT_FEATURES)
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    font = TTFont(str(font_source()), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(codes) | {0x20}))
    subsetter.subset(font)
    names = font["name"]
    for ident, value in (
        (1, FONT_NAME),
        (3, f"{FONT_NAME} Regular"),
        (4, FONT_NAME),
        (6, FONT_NAME.replace(" ", "") + "-Regular"),
    ):
        names.setName(value, ident, 3, 1, 0x409)
        names.setName(value, ident, 1, 0, 0)
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def license_text() -> str:
    from fontTools.ttLib import TTFont

    copyright_line = TTFont(str(font_source()), lazy=True)["name"].getDebugName(0)
    return (
        f"{FONT_FILE}: the font of the formulas, named {FONT_NAME}. It is STIX Two Math cut down to the\n"
        "characters the formulas use and renamed, as the licence below asks of a modified font\n"
        "(tools/book/sphinx/mathml.py makes it). STIX Fonts and STIX Two are trademarks of The\n"
        "Institute of Electrical and Electronics Engineers, Inc.\n\n"
        f"{copyright_line}\n\n" + (HERE / "fonts" / "OFL-1.1.txt").read_text(encoding="utf-8")
    )


def write_math_font(pages: Iterable[str], folder: Path) -> Path | None:
    """The font of the formulas of these HTML texts, and its licence, into ``folder``; None (and
    nothing written) when they hold no formula."""
    codes = math_characters(pages)
    if not codes:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FONT_FILE).write_bytes(math_font(codes))
    (folder / LICENSE_FILE).write_text(license_text(), encoding="utf-8")
    return folder / FONT_FILE


def on_config_inited(app, config):
    config.html_math_renderer = "ba_mathml"


def on_build_finished(app, exc):
    if exc is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    pages = (p.read_text(encoding="utf-8") for p in out.rglob("*.html") if "_static" not in p.parts)
    write_math_font(pages, out / "_static" / "fonts")


def setup(app):
    app.add_html_math_renderer("ba_mathml", (visit_math, None), (visit_displaymath, None))
    app.connect("config-inited", on_config_inited)
    app.connect("build-finished", on_build_finished)
    # env_version: a change to what the renderer writes bumps it, and Sphinx then rewrites every
    # page of an existing build (it rewrites only the changed pages otherwise)
    return {
        "version": "1.0",
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
