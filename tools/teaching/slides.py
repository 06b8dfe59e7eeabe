"""Slides for class: a reveal.js deck per chapter and language, derived from the chapter's source.

What goes on a slide is marked in the chapter's source, the same way in every language:
- every figure (``{figure}``) is a slide: the image, as large as the slide allows, and its caption;
- every "Predict" box (an admonition of class ``tip``) is a slide;
- the block after the MyST comment ``% slide`` (a key formula; the book does not render comments)
  is a slide;
- every question of the chapter's quiz (the ``Quiz("<chapter>")`` cell) is a slide, whose right
  option and its feedback appear on the next fragment; the exercises (``{exercise}``) are a slide
  with their statements; the Remember box (the admonition of class ``important``) is the closing
  slide;
- a section (a ``##`` heading) that holds none of these is a slide with the opening of its prose
  (or, when the section is a list of questions in bold, the questions).
Every slide shows the title of its section; the deck opens with the chapter's title and a link to
the chapter on the site (``course.site_url``), which the closing slide repeats. The prose around
each slide (the paragraph that introduces it, and what follows until the next slide), with the
pitfalls and notes of that stretch, becomes the slide's speaker notes (reveal.js's notes: press S).

The slides are made for 16:9 at 1280×720 (reveal.js scales them to any screen). Their text is laid
out ahead (tools/teaching/fit.py measures it with the font the decks ship): a slide whose text does
not fit is set smaller, down to 22 px, and a list too long for one slide (the Remember box, the
exercises) continues on as many slides as it needs, numbered. A display formula wider than its slide
is scaled down to the slide's width when the deck opens (a last resort, for the formulas whose
sources are not written to fit yet: ``data-ba-scaled`` marks them). tests/browser/test_slide_decks.py opens
every slide in Chromium and checks that nothing scrolls, sticks out or is cut off, and that no text,
the figures' included, is smaller than 18 px.

Numbers are the executed notebook's glued values, text is converted like the notebooks' (tools/editions/
derive.py), formulas become MathML as on the site (:func:`math_html`: no script, no CDN; the decks' math
font, ``revealjs/ba-math.woff2``, is cut down to the characters of a language's decks), figures are embedded, and
reveal.js (with its notes plugin) comes from the sphinx-revealjs package on the package index: a
deck needs only the ``revealjs/`` folder and ``favicon.svg`` beside it. ``?print-pdf`` after a deck's
address lays it out for printing, one slide a page (tools/teaching/handouts.py prints the handouts).

    python -m tools.teaching.slides           # every chapter and language -> _build/slides/<lang>/
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import re
import shutil
import sys
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

import nbformat
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from beyond_accuracy.explorers.quiz import questions as quiz_questions
from beyond_accuracy.language import term
from tools.book.figures import SLIDE_DIR
from tools.book.sphinx.localisation import item_number
from tools.book.sphinx.mathml import FONT_FILE, FONT_NAME, latex_to_mathml, write_math_font
from tools.editions.derive import KEY, Block, Converter, Page, glue_texts, page_url, parse_blocks
from tools.project import BUILD, ROOT, config, languages
from tools.teaching import fit

MARKER = "% slide"
SLIDES = BUILD / "slides"
REVEAL_FILES = (
    "LICENSE",
    "dist/reset.css",
    "dist/reveal.css",
    "dist/reveal.js",
    "dist/theme/white.css",
    "dist/theme/fonts/source-sans-pro",
    "plugin/notes/notes.js",
)
FAVICON = ROOT / "tools" / "book" / "sphinx" / "static" / "favicon.svg"

# The layout (fit.py holds the slide's size and paddings; STYLE below uses the same numbers).
TITLE_PX = 40  # a slide's heading (the section's title)
LABEL_PX = 26  # "Predict", "Question 2 of 5"
BODY_PX = (30, 28, 26, 24, 22)  # a slide's text, the first size at which it fits
LIST_PX = 26  # the Remember box and the exercises, split over slides at this size
CAPTION_PX = 22
LINK_PX = 20
FORMULA_PX = 36  # a display formula on its own slide (scaled down when wider than the slide)
TITLE_GAP, LABEL_GAP, LINK_GAP = 16, 10, 12
PREDICT_INSET = 6 + 20  # the Predict box's border and padding
LEAD_LINES = 6  # a section's opening on its slide: whole sentences, up to this many lines


@dataclass
class Slide:
    kind: str  # "title", "lead", "marked", "figure", "predict", "quiz", "exercises" or "remember"
    title: str  # Markdown (inline): the section's title (the chapter's on the title slide)
    body: str = ""  # Markdown; a figure's caption
    notes: list[str] = field(default_factory=list)  # Markdown blocks: the prose around the slide
    label: str = ""  # Markdown (inline) above the body: the Predict box's title, the question's number
    items: list[str] = field(default_factory=list)  # remember, exercises: the list, split over slides
    figure: dict | None = None  # {"src", "alt", "width", "height"}: the image (viewBox size in pt)
    answer: str = ""  # quiz: Markdown shown on the next fragment
    right: int = -1  # quiz: the index of the right option among the items
    font: int = BODY_PX[0]  # px, set by fitted()
    caption_below: bool = True  # figures: the caption under the image (else in the notes only)
    link: str = ""  # the chapter's address on the site (title and closing slides)


def chapters(lang: str) -> list[Path]:
    """The executed notebooks of a language's chapters, in order."""
    from tools.project import notebook_sources

    return [p.with_suffix(".ipynb") for p in notebook_sources(lang) if p.parent.parent.name == "chapters"]


# --------------------------------------------------------------------------------------------
# Markdown and math


def math_html(latex: str, display: bool) -> str:
    """The one place where a formula becomes HTML: MathML as on the site (tools/book/sphinx/mathml.py:
    no script, no CDN), drawn in the decks' cut-down math font (``revealjs/ba-math.woff2``)."""
    return latex_to_mathml(latex.strip(), display=display)


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table").use(dollarmath_plugin, double_inline=True)

    def inline(self, tokens, idx, options, env):
        return math_html(tokens[idx].content, display=False)

    def block(self, tokens, idx, options, env):
        return f'<div class="ba-math">{math_html(tokens[idx].content, display=True)}</div>\n'

    md.add_render_rule("math_inline", inline)
    md.add_render_rule("math_inline_double", block)
    md.add_render_rule("math_block", block)
    return md


MD = _markdown()


def to_html(markdown: str) -> str:
    return MD.render(markdown)


def inline_html(markdown: str) -> str:
    return to_html(markdown).strip().removeprefix("<p>").removesuffix("</p>")


_PUNCTUATION = re.compile(r"([\\!\"#$%&'()*+,\-./:;<=>?@\[\]^_{|}~])")


def quiz_markdown(text: str) -> str:
    """A quiz text as Markdown that renders as the quiz page shows it: `code` spans, everything
    else literally (every other ASCII punctuation mark escaped)."""
    parts = text.split("`")
    return "".join(f"`{p}`" if i % 2 else _PUNCTUATION.sub(r"\\\1", p) for i, p in enumerate(parts))


# --------------------------------------------------------------------------------------------
# What the chapter puts on slides


def _svg_size(data: bytes) -> tuple[float, float]:
    match = re.search(rb'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', data[:3000])
    if not match:
        raise ValueError("a figure's SVG has no viewBox")
    return float(match.group(1)), float(match.group(2))


def _figure(block: Block, page: Page, root: Path = ROOT) -> dict:
    """A figure of the chapter for a slide: its slide version (chapters/<lang>/slide-figures/, made
    by tools/book/figures.py with text large enough for a slide) where there is one."""
    path = (root / page.folder / block.arg).resolve()
    slide_version = path.parent.parent / SLIDE_DIR / path.name
    if slide_version.exists():
        path = slide_version
    kind = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg"}[path.suffix]
    data = path.read_bytes()
    width, height = _svg_size(data) if path.suffix == ".svg" else (4, 3)
    return {
        "src": f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}",
        "alt": block.options.get("alt", ""),
        "width": width,
        "height": height,
    }


_BOLD_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\*\*(.+?)\*\*")
_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")


def _chunks(lines: list[str]) -> list[list[str]]:
    """Runs of non-blank lines."""
    out, current = [], []
    for line in [*lines, ""]:
        if line.strip():
            current.append(line)
        elif current:
            out.append(current)
            current = []
    return out


def list_items(markdown: str) -> list[str]:
    """The items of a Markdown list (each item's lines joined), in order."""
    items: list[str] = []
    for line in markdown.split("\n"):
        if _ITEM.match(line.strip()) and not line.startswith("  "):
            items.append(_ITEM.sub("", line.strip(), count=1))
        elif items and line.strip():
            items[-1] += " " + line.strip()
    return items


class _Chapter:
    """Walks a chapter's cells and collects its slides and their notes."""

    def __init__(self, src: Path):
        self.src = src
        self.nb = nbformat.read(src, as_version=4)
        self.page = Page("chapters", src.parent.name, src.stem)
        self.lang = self.page.lang
        self.converter = Converter(self.page, KEY, glue_texts(self.nb))
        self.slides: list[Slide] = []
        self.closing: list[Slide] = []  # the Remember box: moved to the end
        self.section = ""
        self.current: Slide | None = None  # the section's latest slide: it takes the prose that follows
        self.section_notes: list[str] = []  # the section's prose before its first slide
        self.section_prose: list[list[str]] = []  # the section's paragraphs (lines), for its lead
        self.exercises: list[str] = []
        self.exercise_notes: list[str] = []
        self.exercise_count = 0  # the chapter's exercises so far: they are numbered as on the site (3.1, 3.2)
        self.marked = False
        self.last_note: tuple[list[str], int] | None = None  # where the previous block's note went

    # -- notes
    def note(self, markdown: str) -> None:
        markdown = markdown.strip()
        if not markdown:
            return
        target = self.current.notes if self.current is not None else self.section_notes
        target.append(markdown)
        self.last_note = (target, len(target) - 1)

    def add(self, slide: Slide, closing: bool = False) -> None:
        """A slide of the current section; it takes the notes that came before the section's first
        slide, and the paragraph just before it when that paragraph introduces it (ends in a colon)."""
        intro = []
        if self.last_note is not None:
            target, i = self.last_note
            if i == len(target) - 1 and target[i].rstrip().endswith(":"):
                intro = [target.pop()]
        slide.notes = self.section_notes + intro + slide.notes
        self.section_notes = []
        (self.closing if closing else self.slides).append(slide)
        self.current = slide
        self.last_note = None

    # -- sections
    def open_section(self, title: str) -> None:
        self.close_section()
        self.section = title
        self.current = None
        self.section_notes, self.section_prose = [], []

    def close_section(self) -> None:
        if self.exercises:
            self.add(Slide("exercises", self.section, items=self.exercises, notes=self.exercise_notes))
            self.exercises, self.exercise_notes = [], []
        if not self.section:  # the chapter's opening, before its first section: the title slide's notes
            if self.slides:
                self.slides[0].notes += self.section_notes
            self.section_notes = []
            return
        if self.current is not None:
            return
        body = ""
        for chunk in self.section_prose:
            items = list_items("\n".join(chunk)) if _ITEM.match(chunk[0].strip()) else []
            leads = [re.match(r"\*\*(.+?)\*\*", item) for item in items]
            if len(leads) >= 2 and all(leads):
                texts = [item if m.group(1).endswith(":") else m.group(1) for item, m in zip(items, leads)]
                ordered = chunk[0].strip()[0].isdigit()
                body = _list_markdown([self.converter.inline(t) for t in texts], ordered=ordered)
                break
        if not body and self.section_prose:
            body = self.converter.inline("\n".join(self.section_prose[0]))
        if body:
            self.add(Slide("lead", self.section, body=body))

    # -- the walk
    def walk(self) -> list[Slide]:
        for cell in self.nb.cells:
            if cell.cell_type == "code":
                match = re.search(r'\bQuiz\("([\w-]+)"\)', cell.source)
                if match and "remove-cell" not in cell.metadata.get("tags", []):
                    self.quiz(match.group(1))
                continue
            if cell.cell_type != "markdown":
                continue
            for block in parse_blocks(cell.source):
                self.block(block)
        self.close_section()
        if not self.slides or self.slides[0].kind != "title":
            raise ValueError(f"{self.src}: a chapter starts with its # title")
        slides = self.slides + self.closing
        link = page_url(self.page.docname, self.lang)
        slides[0] = replace(slides[0], link=link)
        slides[-1] = replace(slides[-1], link=link)
        return slides

    def block(self, block: Block) -> None:
        if block.kind == "comment":
            self.marked = self.marked or block.lines[0].strip() == MARKER
            return
        if block.kind == "target":
            return
        if block.kind == "text":
            self.text(block.lines)
            return
        marked, self.marked = self.marked, False
        if block.kind == "math":
            latex = "\n".join(block.lines)
            if marked:
                self.add(Slide("marked", self.section, body=latex))
            else:
                self.note(latex)
            return
        if block.kind == "code":
            return
        name, body = block.name, "\n".join(block.body)
        classes = block.options.get("class", "").split()
        if name == "figure":
            caption = self.converter.blocks(body).strip()
            title = self.section or self.slides[0].title
            self.add(Slide("figure", title, body=caption, figure=_figure(block, self.page)))
        elif name == "admonition" and "tip" in classes:
            text = self.converter.blocks(body).strip()
            self.add(Slide("predict", self.section, body=text, label=self.converter.inline(block.arg)))
        elif name == "admonition" and "important" in classes:
            items = list_items(self.converter.blocks(body))
            if not items:
                raise ValueError(f"{self.src}: the Remember box is not a list")
            self.add(Slide("remember", self.section, items=items), closing=True)
        elif name == "exercise":
            title = self.converter.inline(block.arg)
            text = self.converter.blocks(body).strip()
            self.exercise_count += 1
            number = item_number(self.page.docname, self.exercise_count)
            item = f"**{number}** · **{title}.** {text}" if title else f"**{number}** · {text}"
            self.exercises.append(re.sub(r"\s*\n\s*", " ", item))
            self.exercise_notes.append(item)
        elif name == "solution":
            return
        elif marked:
            title = self.converter.inline(block.arg) or self.section
            self.add(Slide("marked", title, body=self.converter.blocks(body)))
        elif name == "admonition" or name in ("note", "warning", "important", "caution"):
            title = (
                self.converter.inline(block.arg) if name == "admonition" else term(f"nb_{name}", self.lang)
            )
            self.note(f"**{title}.** {self.converter.blocks(body).strip()}")

    def text(self, lines: list[str]) -> None:
        paragraph: list[str] = []

        def flush():
            if not paragraph:
                return
            if self.marked:
                self.marked = False
                self.add(Slide("marked", self.section, body=self.converter.inline("\n".join(paragraph))))
            else:
                self.section_prose.append(list(paragraph))
                self.note(self.converter.inline("\n".join(paragraph)))
            paragraph.clear()

        for line in [*lines, ""]:
            if line.startswith("# ") and not self.slides:
                flush()
                self.slides.append(Slide("title", self.converter.inline(line[2:].strip())))
                self.section_start = 1
            elif line.startswith("## "):
                flush()
                self.open_section(self.converter.inline(line[3:].strip()))
            elif line.startswith("### "):
                flush()
                self.note(f"**{self.converter.inline(line[4:].strip())}**")
            elif line.strip():
                paragraph.append(line)
            else:
                flush()

    def quiz(self, chapter: str) -> None:
        found = quiz_questions(chapter, self.lang)
        for n, q in enumerate(found, 1):
            options = [quiz_markdown(o["text"]) for o in q["options"]]
            right = next(i for i, o in enumerate(q["options"]) if o["correct"])
            letters = "ABCDE"
            notes = [
                f"**{letters[i]}.** {quiz_markdown(o['text'])} — {quiz_markdown(o['feedback'])}"
                for i, o in enumerate(q["options"])
            ]
            answer = f"**✔ {term('quiz_right', self.lang)}** {quiz_markdown(q['options'][right]['feedback'])}"
            self.add(
                Slide(
                    "quiz",
                    self.section,
                    body=quiz_markdown(q["prompt"]),
                    label=term("quiz_question", self.lang).format(n=n, total=len(found)),
                    items=options,
                    answer=answer,
                    right=right,
                    notes=notes,
                )
            )


def slides_of(src: Path) -> list[Slide]:
    """The slides of one executed chapter notebook, in order, before fitting (the same slides in
    every language: :func:`fitted` may split a long one)."""
    return _Chapter(src).walk()


# --------------------------------------------------------------------------------------------
# Fitting the slides to 1280×720


def _title_height(slide: Slide) -> float:
    return fit.heading_height(slide.title, TITLE_PX) + TITLE_GAP if slide.title else 0.0


def _room(slide: Slide) -> float:
    """The height left for a slide's body."""
    room = fit.SLIDE_H - fit.PAD_TOP - fit.PAD_BOTTOM - _title_height(slide)
    if slide.label:
        room -= fit.heading_height(slide.label, LABEL_PX) * fit.LINE / fit.HEAD_LINE + LABEL_GAP
    if slide.link:
        room -= LINK_PX * fit.LINE + LINK_GAP
    return room


def _width(slide: Slide) -> float:
    return fit.INNER_W - (PREDICT_INSET if slide.kind == "predict" else 0)


def _list_markdown(items: list[str], ordered: bool = False) -> str:
    if ordered:
        return "\n".join(f"{n}. {item}" for n, item in enumerate(items, 1))
    return "\n".join(f"- {item}" for item in items)


def body_markdown(slide: Slide) -> str:
    """What a slide shows under its title and label, as Markdown (for the fitting; a figure's is its
    caption)."""
    if slide.kind == "quiz":
        return f"{slide.body}\n\n{_list_markdown(slide.items, ordered=True)}\n\n{slide.answer}"
    if slide.kind == "exercises":
        return _list_markdown(slide.items)
    if slide.kind == "remember":
        return _list_markdown(slide.items)
    if slide.kind == "marked" and not slide.body.lstrip().startswith("$$"):
        return slide.body
    return slide.body


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[^\s])", text.strip()) if s]


def fitted(slides: list[Slide]) -> list[Slide]:
    """The slides as the deck shows them: each with the largest text size at which it fits;
    a section's opening cut to whole sentences; a Remember box or exercise list that does not fit
    at LIST_PX continued on further slides (labelled 1/2, 2/2)."""
    out: list[Slide] = []
    for slide in slides:
        if slide.kind == "title":
            out.append(slide)
        elif slide.kind == "figure":
            out.append(_fit_figure(slide))
        elif slide.kind in ("remember", "exercises"):
            out += _split(slide)
        elif slide.kind == "lead":
            out.append(_fit_lead(slide))
        else:
            out.append(_fit_size(slide))
    return out


def _fit_size(slide: Slide) -> Slide:
    markdown = body_markdown(slide)
    math = FORMULA_PX if slide.kind == "marked" else None
    for size in BODY_PX:
        if fit.height(markdown, _width(slide), size, math_px=math) <= _room(slide):
            return replace(slide, font=size)
    return replace(slide, font=BODY_PX[-1])


def _fit_lead(slide: Slide) -> Slide:
    if slide.body.lstrip()[:2] in ("- ",) or slide.body.lstrip()[:1].isdigit():
        return _fit_size(slide)
    sentences = _sentences(slide.body)
    limit = min(_room(slide), LEAD_LINES * fit.LINE * BODY_PX[0])
    body = sentences[0]
    for sentence in sentences[1:]:
        if fit.height(f"{body} {sentence}", _width(slide), BODY_PX[0]) > limit:
            break
        body = f"{body} {sentence}"
    return _fit_size(replace(slide, body=body))


def _split(slide: Slide) -> list[Slide]:
    """A list slide as it fits at LIST_PX: itself, or the fewest parts that fit, the items shared
    out so that the fullest part is as empty as it can be."""
    items = slide.items
    n = len(items)
    heights: dict[tuple[int, int], float] = {}

    def height(i: int, j: int) -> float:  # items[i:j] on one slide
        if (i, j) not in heights:
            heights[i, j] = fit.height(_list_markdown(items[i:j]), fit.INNER_W, LIST_PX)
        return heights[i, j]

    if height(0, n) <= _room(slide):
        return [replace(slide, font=LIST_PX)]
    labelled = replace(slide, label="1/2")
    room, last_room = _room(replace(labelled, link="")), _room(labelled)
    for k in range(2, n + 1):
        # best[j][p]: the least fullness (height / room) of the fullest of p parts holding items[:j]
        best = [[float("inf")] * (k + 1) for _ in range(n + 1)]
        cut = [[0] * (k + 1) for _ in range(n + 1)]
        best[0][0] = 0.0
        for p in range(1, k + 1):
            limit = last_room if p == k else room
            for j in range(1, n + 1):
                for i in range(p - 1, j):
                    fullness = max(best[i][p - 1], height(i, j) / limit)
                    if fullness < best[j][p]:
                        best[j][p], cut[j][p] = fullness, i
        if best[n][k] <= 1.0:
            break
    bounds, j = [], n
    for p in range(k, 0, -1):
        bounds.append((cut[j][p], j))
        j = cut[j][p]
    bounds.reverse()
    return [
        replace(
            slide,
            items=items[i:j],
            label=f"{p}/{k}",
            font=LIST_PX,
            notes=slide.notes if p == 1 else [],
            link=slide.link if p == k else "",
        )
        for p, (i, j) in enumerate(bounds, 1)
    ]


def _fit_figure(slide: Slide) -> Slide:
    """The image as large as the slide allows; its caption under it when there is room left (the
    image is then as large as without it), else in the notes only."""
    figure = slide.figure
    room = _room(slide)
    drawn = min(fit.INNER_W / figure["width"], room / figure["height"])
    image_height = figure["height"] * drawn
    caption = fit.height(slide.body, fit.INNER_W, CAPTION_PX) + LABEL_GAP if slide.body else 0
    if slide.body and image_height + caption <= room:
        return replace(slide, caption_below=True)
    notes = ([slide.body] if slide.body else []) + slide.notes
    return replace(slide, caption_below=False, notes=notes)


# --------------------------------------------------------------------------------------------
# The deck

STYLE = f"""
.reveal .slides {{ text-align: left; }}
.reveal .slides > section {{ padding: 0; }}
.reveal .ba-slide {{ box-sizing: border-box; width: {fit.SLIDE_W}px; height: {fit.SLIDE_H}px;
  padding: {fit.PAD_TOP}px {fit.PAD_X}px {fit.PAD_BOTTOM}px; display: flex; flex-direction: column;
  line-height: {fit.LINE}; }}
.reveal .ba-slide h1, .reveal .ba-slide h2 {{ text-transform: none; flex: none; overflow-wrap: break-word; }}
.reveal .ba-slide h2 {{ font-size: {TITLE_PX}px; line-height: {fit.HEAD_LINE}; margin: 0 0 {TITLE_GAP}px; }}
.reveal .ba-label {{ font-size: {LABEL_PX}px; font-weight: 600; margin: 0 0 {LABEL_GAP}px; color: #1b5e20;
  flex: none; }}
.reveal .ba-body {{ flex: 1 1 auto; min-height: 0; }}
.reveal .ba-body p {{ margin: 0 0 {fit.PARA_GAP}em; }}
.reveal .ba-body ul, .reveal .ba-body ol {{ display: block; margin: 0 0 {fit.PARA_GAP}em;
  padding-left: {fit.LIST_INDENT}em; }}
.reveal .ba-body ul ul, .reveal .ba-body ol ol {{ margin: 0; }}
.reveal .ba-exercises .ba-body > ul {{ list-style: none; }}
.reveal .ba-body li {{ margin: 0 0 {fit.ITEM_GAP}em; }}
.reveal .ba-body code {{ font-family: monospace; font-size: 0.9em; overflow-wrap: anywhere; }}
.reveal math {{ font-family: "{FONT_NAME}", math; }}
.reveal .ba-math {{ margin: {fit.MATH_GAP}em 0; }}
.reveal .ba-math math {{ margin: 0; }}
.reveal .ba-link {{ font-size: {LINK_PX}px; margin: {LINK_GAP}px 0 0; flex: none; overflow-wrap: anywhere; }}
.reveal .ba-title {{ justify-content: center; text-align: center; }}
.reveal .ba-title h1 {{ font-size: 56px; line-height: 1.15; margin: 0 0 24px; }}
.reveal .ba-title .ba-course {{ font-size: 30px; color: #444; margin: 0 0 24px; flex: none; }}
.reveal .ba-predict .ba-body {{ border-left: 6px solid #2e7d32; padding-left: 20px; }}
.reveal .ba-figure .ba-body {{ display: flex; flex-direction: column; }}
.reveal .ba-image {{ flex: 1 1 0; min-height: 0; }}
.reveal .ba-image img {{ display: block; width: 100%; height: 100%; object-fit: contain; margin: 0;
  max-width: 100%; max-height: 100%; border: 0; box-shadow: none; }}  /* reveal's theme: 95 % */
.reveal .ba-caption {{ flex: none; font-size: {CAPTION_PX}px; color: #444; margin: {LABEL_GAP}px 0 0; }}
.reveal .ba-quiz ol.ba-options {{ list-style-type: upper-alpha; }}
.reveal .ba-quiz .fragment.highlight-green.visible {{ color: #1b5e20; font-weight: 600; }}
.reveal .ba-marked .ba-math {{ font-size: {FORMULA_PX}px; text-align: center; }}
.reveal .ba-answer {{ border-left: 6px solid #2e7d32; padding-left: 14px; }}
.reveal .slide-number {{ font-size: 18px; }}
html.print-pdf .reveal .ba-answer, html.print-pdf .reveal .fragment {{ opacity: 1; visibility: visible; }}
"""

# Runs before reveal.js lays the deck out: a display formula wider than its box is scaled down to the
# box's width (the slide's width, for a formula whose source is not yet written to fit).
FIT_MATH = """
function baFitMath() {
  for (const section of document.querySelectorAll('.reveal .slides > section')) {
    const formulas = section.querySelectorAll('.ba-math > math');
    if (!formulas.length) continue;
    const saved = section.style.cssText;
    section.style.display = 'block';
    section.style.visibility = 'hidden';
    for (const m of formulas) {
      const box = m.parentElement.clientWidth;
      const parts = [...m.children].map(c => c.getBoundingClientRect());
      const need = Math.max(...parts.map(r => r.right)) - Math.min(...parts.map(r => r.left));
      if (need > box) {
        m.style.fontSize = (Math.floor(1000 * box / need) / 10) + '%';
        m.dataset.baScaled = (box / need).toFixed(3);
      }
    }
    section.style.cssText = saved;
  }
}
"""


def _notes_html(notes: list[str]) -> str:
    if not notes:
        return ""
    return f'<aside class="notes">\n{to_html(chr(10).join(n + chr(10) for n in notes))}</aside>\n'


def _link_html(slide: Slide, lang: str) -> str:
    if not slide.link:
        return ""
    url = html.escape(slide.link, quote=True)
    label = html.escape(term("slides_chapter_link", lang))
    return f'<p class="ba-link">{label}: <a href="{url}">{html.escape(slide.link)}</a></p>\n'


def slide_html(slide: Slide, lang: str) -> str:
    """One slide: a <section> holding the slide (a 1280×720 box) and its notes."""
    title = inline_html(slide.title)
    label = f'<p class="ba-label">{inline_html(slide.label)}</p>\n' if slide.label else ""
    style = f' style="font-size: {slide.font}px"'
    if slide.kind == "title":
        inner = f'<h1>{title}</h1>\n<p class="ba-course">{html.escape(config()["title"])}</p>\n'
        body = ""
    else:
        inner = f"<h2>{title}</h2>\n" if title else ""
        if slide.kind == "figure":
            figure = slide.figure
            alt = html.escape(figure["alt"], quote=True)
            caption = (
                f'<div class="ba-caption">{to_html(slide.body)}</div>\n'
                if slide.body and slide.caption_below
                else ""
            )
            body = f'<div class="ba-body"><div class="ba-image"><img src="{figure["src"]}" alt="{alt}"></div>\n{caption}</div>\n'
        elif slide.kind == "quiz":
            options = "".join(
                f'<li class="fragment highlight-green" data-fragment-index="0">{inline_html(o)}</li>\n'
                if i == slide.right
                else f"<li>{inline_html(o)}</li>\n"
                for i, o in enumerate(slide.items)
            )
            body = (
                f'<div class="ba-body"{style}>\n{to_html(slide.body)}<ol class="ba-options">\n{options}</ol>\n'
                f'<div class="ba-answer fragment" data-fragment-index="0">{to_html(slide.answer)}</div>\n</div>\n'
            )
        elif slide.kind in ("remember", "exercises"):
            markdown = _list_markdown(slide.items)  # the exercises carry their numbers (3.1, 3.2)
            body = f'<div class="ba-body"{style}>\n{to_html(markdown)}</div>\n'
        else:
            body = f'<div class="ba-body"{style}>\n{to_html(slide.body)}</div>\n'
    return (
        f'<section data-kind="{slide.kind}">\n<div class="ba-slide ba-{slide.kind}">\n'
        f"{inner}{label}{body}{_link_html(slide, lang)}</div>\n{_notes_html(slide.notes)}</section>"
    )


def deck_slides(src: Path) -> list[Slide]:
    """The slides of the deck of an executed chapter notebook, fitted: what the deck shows."""
    return fitted(slides_of(src))


REVEAL_CONFIG = {
    "hash": True,
    "slideNumber": "c/t",
    "width": fit.SLIDE_W,
    "height": fit.SLIDE_H,
    "margin": 0,
    "center": False,
    "pdfSeparateFragments": False,
    "pdfMaxPagesPerSlide": 1,
}


def deck_html(src: Path, reveal: str = "revealjs") -> str:
    """The reveal.js deck of an executed chapter notebook (reveal.js at the relative path ``reveal``)."""
    lang = src.parent.name
    slides = deck_slides(src)
    body = "\n".join(slide_html(slide, lang) for slide in slides)
    title = html.escape(re.sub(r"<[^>]+>", "", inline_html(slides[0].title)))
    options = json.dumps(REVEAL_CONFIG)
    return f"""<!doctype html>
<!-- Generated by tools/teaching/slides.py from chapters/{lang}/{src.stem}.md: do not edit. -->
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{title} — {html.escape(term("slides_link", lang))}</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
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
<script src="{reveal}/plugin/notes/notes.js"></script>
<script>{FIT_MATH}
document.fonts.ready.then(() => {{
  baFitMath();
  Reveal.initialize(Object.assign({options}, {{ plugins: [RevealNotes] }}));
}});
</script>
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
    """Every chapter deck of a language into dest/, with reveal.js in dest/revealjs/ and the
    favicon beside them."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("*.html"):
        old.unlink()
    install_reveal(dest / "revealjs")
    shutil.copyfile(FAVICON, dest / "favicon.svg")
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
