"""Slides for class: a reveal.js deck per chapter and language, derived from the chapter's source.

What goes on a slide is marked in the chapter's source, the same way in every language:
- every section (a ``##`` heading) opens a slide with its title;
- every figure (``{figure}``) is a slide: the image and its caption;
- every "Predict" box (an admonition of class ``tip``) is a slide;
- the block after the MyST comment ``% slide`` (a key formula; the book does not render comments)
  is a slide, under the title of its section.
A title slide with the chapter's title opens the deck. Numbers are the executed notebook's glued
values, text is converted like the notebooks' (tools/editions/derive.py), formulas become MathML
as on the site (tools/book/sphinx/mathml.py: no script, no CDN; the decks' math font,
``revealjs/ba-math.woff2``, is cut down to the characters of a language's decks), figures are
embedded, and reveal.js comes from the sphinx-revealjs package on the package index: a deck needs
only the ``revealjs/`` folder beside it.

    python -m tools.teaching.slides           # every chapter and language -> _build/slides/<lang>/
"""

from __future__ import annotations

import argparse
import base64
import html
import shutil
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import nbformat
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from beyond_accuracy.language import term
from tools.book.sphinx.mathml import FONT_FILE, FONT_NAME, latex_to_mathml, write_math_font
from tools.editions.derive import KEY, Block, Converter, Page, glue_texts, parse_blocks
from tools.project import BUILD, ROOT, config, languages

MARKER = "% slide"
SLIDES = BUILD / "slides"
REVEAL_FILES = (
    "LICENSE",
    "dist/reset.css",
    "dist/reveal.css",
    "dist/reveal.js",
    "dist/theme/white.css",
    "dist/theme/fonts/source-sans-pro",
)


@dataclass(frozen=True)
class Slide:
    kind: str  # "title", "section", "figure", "predict" or "marked"
    title: str  # Markdown
    body: str = ""  # Markdown (or HTML for figures)


def chapters(lang: str) -> list[Path]:
    """The executed notebooks of a language's chapters, in order."""
    from tools.project import notebook_sources

    return [p.with_suffix(".ipynb") for p in notebook_sources(lang) if p.parent.parent.name == "chapters"]


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table").use(dollarmath_plugin, double_inline=True)

    def math(display):
        def render(self, tokens, idx, options, env):
            return latex_to_mathml(tokens[idx].content.strip(), display=display == "block")

        return render

    md.add_render_rule("math_inline", math("inline"))
    md.add_render_rule("math_inline_double", math("block"))
    md.add_render_rule("math_block", math("block"))
    return md


MD = _markdown()


def to_html(markdown: str) -> str:
    return MD.render(markdown)


def _figure(block: Block, page: Page, converter: Converter) -> str:
    path = (ROOT / page.folder / block.arg).resolve()
    kind = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg"}[path.suffix]
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    alt = html.escape(block.options.get("alt", ""), quote=True)
    caption = to_html(converter.blocks("\n".join(block.body)).strip())
    return (
        f'<figure><img src="data:{kind};base64,{data}" alt="{alt}">'
        f'<figcaption class="caption">{caption}</figcaption></figure>'
    )


def slides_of(src: Path) -> list[Slide]:
    """The slides of one executed chapter notebook, in order."""
    nb = nbformat.read(src, as_version=4)
    page = Page("chapters", src.parent.name, src.stem)
    converter = Converter(page, KEY, glue_texts(nb))
    slides: list[Slide] = []
    section = ""
    marked = False
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for block in parse_blocks(cell.source):
            if block.kind == "comment":
                marked = marked or block.lines[0].strip() == MARKER
                continue
            if block.kind == "target":
                continue
            if block.kind == "text":
                paragraph: list[str] = []
                for line in [*block.lines, ""]:
                    if line.startswith("# ") and not slides:
                        slides.append(Slide("title", converter.inline(line[2:].strip())))
                    elif line.startswith("## "):
                        section = converter.inline(line[3:].strip())
                        slides.append(Slide("section", section))
                    elif line.strip():
                        paragraph.append(line)
                    elif paragraph:
                        if marked:
                            slides.append(Slide("marked", section, converter.inline("\n".join(paragraph))))
                            marked = False
                        paragraph = []
                continue
            if block.kind == "math":
                if marked:
                    slides.append(Slide("marked", section, "\n".join(block.lines)))
            elif block.kind == "directive" and block.name == "figure":
                slides.append(Slide("figure", section, _figure(block, page, converter)))
            elif (
                block.kind == "directive"
                and block.name == "admonition"
                and "tip" in block.options.get("class", "").split()
            ):
                body = converter.blocks("\n".join(block.body)).strip()
                slides.append(Slide("predict", converter.inline(block.arg), body))
            elif marked and block.kind == "directive":
                body = converter.blocks("\n".join(block.body)).strip()
                slides.append(Slide("marked", converter.inline(block.arg) or section, body))
            marked = False
    if not slides or slides[0].kind != "title":
        raise ValueError(f"{src}: a chapter starts with its # title")
    return slides


STYLE = """
.reveal { font-size: 30px; }
.reveal h1 { font-size: 2.0em; } .reveal h2 { font-size: 1.4em; } .reveal h3 { font-size: 1.1em; }
.reveal section { text-align: left; }
.reveal h1, .reveal h2, .reveal h3 { text-transform: none; }
.reveal section.title, .reveal section.section { text-align: center; }
.reveal section.figure img { max-height: 58vh; max-width: 100%; margin: 0 auto; display: block; }
.reveal .caption { font-size: 0.6em; color: #555; }
.reveal section.predict { border-left: 0.4em solid #2e7d32; padding-left: 0.8em; }
.reveal section.predict h3 { color: #2e7d32; }
.reveal math { font-family: "BA Math", math; }
.reveal math[display="block"] { font-size: 1.1em; margin: 0.8em 0; max-width: 100%; overflow-x: auto; }
.reveal section.marked math[display="block"] { font-size: 0.9em; }
.reveal .course { font-size: 0.6em; color: #555; }
"""


def deck_html(src: Path, reveal: str = "revealjs") -> str:
    """The reveal.js deck of an executed chapter notebook (reveal.js at the relative path ``reveal``)."""
    lang = src.parent.name
    slides = slides_of(src)
    sections = []
    for slide in slides:
        title = to_html(slide.title).strip().removeprefix("<p>").removesuffix("</p>")
        if slide.kind == "title":
            inner = f'<h1>{title}</h1>\n<p class="course">{html.escape(config()["title"])}</p>'
        elif slide.kind == "section":
            inner = f"<h2>{title}</h2>"
        elif slide.kind == "figure":
            inner = (f"<h3>{title}</h3>\n" if title else "") + slide.body
        else:
            inner = (f"<h3>{title}</h3>\n" if title else "") + to_html(slide.body)
        sections.append(f'<section class="{slide.kind}">\n{inner}\n</section>')
    title = html.escape(to_html(slides[0].title).strip().removeprefix("<p>").removesuffix("</p>"))
    body = "\n".join(sections)
    return f"""<!doctype html>
<!-- Generated by tools/teaching/slides.py from chapters/{lang}/{src.stem}.md: do not edit. -->
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{title} — {html.escape(term("slides_link", lang))}</title>
<link rel="icon" href="../_static/favicon.svg">
<link rel="stylesheet" href="{reveal}/dist/reset.css">
<link rel="stylesheet" href="{reveal}/dist/reveal.css">
<link rel="stylesheet" href="{reveal}/dist/theme/white.css">
<style>@font-face {{ font-family: "{FONT_NAME}"; src: url("{reveal}/{FONT_FILE}") format("woff2"); }}
{STYLE}</style>
</head>
<body>
<div class="reveal"><div class="slides">
{body}
</div></div>
<script src="{reveal}/dist/reveal.js"></script>
<script>Reveal.initialize({{ hash: true, slideNumber: "c/t", width: 1280, height: 720 }});</script>
</body>
</html>
"""


def install_reveal(dest: Path) -> Path:
    """Copy the reveal.js files the decks use (from the sphinx-revealjs package) into dest."""
    source = resources.files("sphinx_revealjs").joinpath("_static/revealjs")
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    for rel in REVEAL_FILES:
        src = Path(str(source.joinpath(rel)))
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target)
        else:
            shutil.copy2(src, target)
    return dest


def deck_name(src: Path) -> str:
    return f"{src.stem}.html"


def write_decks(lang: str, dest: Path) -> list[Path]:
    """Every chapter deck of a language into dest/, with reveal.js in dest/revealjs/."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("*.html"):
        old.unlink()
    install_reveal(dest / "revealjs")
    written = []
    for src in chapters(lang):
        path = dest / deck_name(src)
        path.write_text(deck_html(src), encoding="utf-8")
        written.append(path)
    write_math_font((p.read_text(encoding="utf-8") for p in written), dest / "revealjs")
    return written


def slides_link(lang: str, stem: str) -> str:
    """The HTML link from a chapter page (chapters/<lang>/<stem>.html) to its deck (slides/<stem>.html)."""
    label = html.escape(term("slides_link", lang))
    return f'<p class="ba-slides-link"><a href="../../slides/{stem}.html" lang="{lang}">🎞️ {label}</a></p>'


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    args = parser.parse_args(argv)
    for lang in args.lang or languages():
        for path in write_decks(lang, SLIDES / lang):
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
