"""The math of the site and the slides, rendered when they are built (tools/book/sphinx/mathml.py):
MathML Core from every formula of the sources, and the math font cut down to what they use. The
browser tests (tests/browser/test_formulas.py) look at the built pages."""

from __future__ import annotations

import io
import re

import pytest

from tools.book.formula_widths import blank_code
from tools.book.sphinx import mathml
from tools.project import ROOT, languages

DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
INLINE = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")


def formulas(path) -> list[tuple[bool, str]]:
    """(display?, LaTeX) of every formula of a MyST source, code blocks left out."""
    text = blank_code(path.read_text(encoding="utf-8"))  # code blocks, not directives
    out = [(True, m.group(1)) for m in DISPLAY.finditer(text)]
    return out + [(False, m.group(1)) for m in INLINE.finditer(DISPLAY.sub("", text))]


SOURCES = sorted(
    p for kind in ("chapters", "labs") for lang in languages() for p in (ROOT / kind / lang).glob("*.md")
)


def test_inline_and_display_math_become_mathml_core():
    assert mathml.latex_to_mathml("x^2", display=False) == "<math><msup><mi>x</mi><mn>2</mn></msup></math>"
    block = mathml.latex_to_mathml(
        r"\text{recall} = \frac{\mathrm{TP}}{\mathrm{TP} + \mathrm{FN}}", display=True
    )
    assert block.startswith('<math display="block">')
    assert "<mtext>recall</mtext>" in block and "<mfrac>" in block and "<mi>TP</mi>" in block
    assert "script" not in block and "xmlns" not in block


def test_the_words_of_text_keep_every_language_s_letters():
    for word in ("precisão", "richiamo", "täsmällisyys", "exhaustividad", "sensibilité"):
        assert f"<mtext>{word}</mtext>" in mathml.latex_to_mathml(rf"\text{{{word}}} = 1", display=True)


def test_a_display_block_breaks_lines_and_stacks_paragraphs_as_sphinx_does():
    # \\ outside an environment: aligned (Sphinx's MathJax renderer wraps it in split)
    assert mathml.display_source(r"a &= b \\ &= c") == r"\begin{aligned}a &= b \\ &= c\end{aligned}"
    # \\ inside a matrix is the matrix's
    matrix = r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}"
    assert mathml.display_source(matrix) == matrix
    assert mathml.display_source("a = 1\n\nb = 2") == r"\begin{gathered}a = 1 \\ b = 2\end{gathered}"
    two_lines = mathml.latex_to_mathml(r"a = b \\ c = d", display=True)
    assert two_lines.count("<mtr>") == 2  # math-core alone would drop the line break


def test_latex_that_cannot_be_converted_is_an_error_naming_it():
    with pytest.raises(mathml.MathError, match=r"\\notacommand"):
        mathml.latex_to_mathml(r"x = \notacommand{y}", display=False)


def test_every_formula_of_every_chapter_and_lab_converts():
    """What the build would report as a warning, found without building: every formula of the
    sources, in every language, is MathML that math-core wrote without error."""
    count = 0
    for path in SOURCES:
        for display, latex in formulas(path):
            out = mathml.latex_to_mathml(latex, display)
            assert out.startswith("<math"), (path, latex)
            count += 1
    assert count > 2000


def test_the_font_holds_the_formulas_characters_and_their_italic_forms():
    page = "<p>x</p>" + mathml.latex_to_mathml(r"\text{è} + \hat y_i \ge \beta \cdot \sum_i p_i", True)
    codes = mathml.math_characters([page])
    assert {ord("è"), ord("+"), 0x2265, ord("β"), 0x2211, 0x22C5} <= codes
    assert {mathml.italic(ord("y")), mathml.italic(ord("β")), mathml.italic(ord("p"))} <= codes
    assert mathml.italic(ord("h")) == 0x210E  # the italic h is Planck's constant
    assert ord("x") not in codes  # outside the formulas
    # the radical sign is no character of the MathML (<msqrt>): the browser draws it from the font
    assert 0x221A in mathml.math_characters([mathml.latex_to_mathml(r"\sqrt{2}", False)])
    assert mathml.math_characters(["<p>no formula</p>"]) == set()


def test_the_math_font_is_a_renamed_woff2_with_a_math_table():
    from fontTools.ttLib import TTFont

    codes = mathml.math_characters(
        [mathml.latex_to_mathml(r"\left(\frac{a}{b}\right) = \sum_{i=1}^m x_i", True)]
    )
    data = mathml.math_font(codes)
    assert data[:4] == b"wOF2"
    font = TTFont(io.BytesIO(data))
    assert "MATH" in font  # stretchy parentheses, large operators, script sizes
    assert font["name"].getDebugName(1) == "BA Math"
    assert not any("STIX" in (n.toUnicode() or "") for n in font["name"].names if n.nameID in (1, 3, 4, 6))
    assert codes <= set(font.getBestCmap())
    assert len(data) < 30_000


@pytest.mark.slow  # derives every English deck: make test, not make unit
def test_the_slides_use_the_same_mathml_and_bring_the_font(tmp_path):
    from tools.teaching import slides

    assert slides.to_html("$x^2$").strip() == "<p><math><msup><mi>x</mi><mn>2</mn></msup></math></p>"
    written = slides.write_decks("en", tmp_path)
    deck = written[0].read_text(encoding="utf-8")
    assert "revealjs/ba-math.woff2" in deck and 'font-family: "BA Math"' in deck
    assert (tmp_path / "revealjs" / "ba-math.woff2").stat().st_size > 1000
    assert "BA Math" in (tmp_path / "revealjs" / "ba-math-LICENSE.txt").read_text(encoding="utf-8")


def test_code_is_blanked_but_a_fenced_directive_keeps_its_formulas():
    text = "a $x$\n```{code-cell} ipython3\ny = '$z$'\n```\n```{admonition} Note\n$$w$$\n```\n````python\n$q$\n````\nb"
    assert blank_code(text).split("\n") == ["a $x$", "", "", "", "", "$$w$$", "", "", "", "", "b"]
