"""The notebooks people open, derived from the executed chapters and labs: one pipeline, two editions.

For every chapter and lab notebook (``chapters/<lang>/*.ipynb``, ``labs/<lang>/*.ipynb``, executed
by ``tools.book.notebooks``) this module writes

- the **answer key**: the notebook as it is, in plain Jupyter Markdown that renders in Colab and
  JupyterLab (see below), with its outputs and its solutions;
- the **student notebook**: the same, without any solution: ``{solution}`` blocks dropped, each
  code cell tagged ``solution`` replaced by a localised comment saying where to type (and, where
  the language writes decimals with a comma, that Python needs a point) plus ``answer_<name> = ...``
  for each answer it assigned, the stored outputs of check cells and of cells tagged
  ``hide-output-student`` cleared, and cells tagged ``remove-student`` dropped (a paragraph that
  discusses, after an exercise, the answer the student has just found: in MyST, the paragraph
  stands in a cell of its own opened by ``+++ {"tags": ["remove-student"]}``).

Plain Jupyter Markdown means no MyST is left: glue roles become the values the executed notebook
glued, admonitions, exercises and solutions become quoted blocks with a bold title, figures become
images whose URL is the published site (``course.site_url`` in _config.yml; the build copies the
figures there), ``{cite}`` becomes an author-year reference with a short reference line at the end
of its cell, ``{doc}``/``{ref}``/``{numref}`` become links to the site's pages, comments and targets
disappear. Anything else raises an error naming it, so a new construct cannot slip through as raw
MyST. Cells tagged ``remove-cell`` (the glue bookkeeping) are dropped; the language cell stays first.

The reader's site shows the labs as students get them: the same student transformation on the cells,
with MyST kept (Sphinx renders it): :func:`lab_page_notebook`.

    python -m tools.editions.derive               # every language -> _build/publish/ and _build/answer-keys/
    python -m tools.editions.derive --lang it     # one language
"""

from __future__ import annotations

import argparse
import ast
import copy
import posixpath
import re
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

import nbformat

from beyond_accuracy.language import _NUMBER_STYLE, term
from tools import myst
from tools.book.sphinx.localisation import item_number
from tools.project import (
    BUILD,
    KINDS,
    ROOT,
    install_spec,
    languages,
    notebook_sources,
    notebooks_branch,
    repository_url,
    site_url,
)

KEY, STUDENT = "key", "student"
PUBLISH = BUILD / "publish"  # the student notebooks, as the notebooks branch holds them
ANSWER_KEYS = BUILD / "answer-keys"  # the Colab-ready answer keys (for the instructor pack)
GLUE_PREFIX = "application/papermill.record/"

_LANG_CELL = re.compile(r'^LANG = "([a-z]{2})"$', re.M)


# --------------------------------------------------------------------------------------------
# Where a notebook belongs


@dataclass(frozen=True)
class Page:
    """A chapter or lab notebook of one language: ``kind/lang/stem`` is its page on the site."""

    kind: str
    lang: str
    stem: str

    @property
    def docname(self) -> str:
        return f"{self.kind}/{self.lang}/{self.stem}"

    @property
    def folder(self) -> str:
        return f"{self.kind}/{self.lang}"


def page_of(src: Path, nb=None) -> Page:
    """The page a notebook file is (its language read from its language cell, so a copy outside
    the repository works too)."""
    src = Path(src)
    nb = nb if nb is not None else nbformat.read(src, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    found = _LANG_CELL.search(code[0].source) if code else None
    if not found:
        raise ValueError(f"{src}: the first code cell does not set LANG: not a course notebook")
    lang = found.group(1)
    kind = src.parent.parent.name
    if kind not in KINDS:
        kinds = [k for k in KINDS if (ROOT / k / lang / f"{src.stem}.md").exists()]
        if len(kinds) != 1:
            raise ValueError(f"{src}: no chapter or lab named {src.stem!r} in {lang}")
        kind = kinds[0]
    return Page(kind, lang, src.stem)


def sources(langs: list[str] | None = None) -> list[Path]:
    """The executed .ipynb of every chapter and lab (in the languages given)."""
    found = []
    for lang in langs or languages():
        found += [p.with_suffix(".ipynb") for p in notebook_sources(lang)]
    return found


# --------------------------------------------------------------------------------------------
# What the executed notebook knows: glued values


def glue_texts(nb) -> dict[str, str]:
    """Every value glued in the notebook, as the text the prose shows."""
    found = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            meta = out.get("metadata", {})
            if "scrapbook" in meta:
                raw = out["data"][GLUE_PREFIX + "text/plain"]
                found[meta["scrapbook"]["name"]] = ast.literal_eval(raw)
    return found


def is_glue_output(out) -> bool:
    return "scrapbook" in out.get("metadata", {}) or any(
        k.startswith(GLUE_PREFIX) for k in out.get("data", {})
    )


# --------------------------------------------------------------------------------------------
# The site: pages, titles, labels and the bibliography


def page_url(docname: str, lang: str, anchor: str = "") -> str:
    url = f"{site_url()}/{lang}/{docname}.html"
    return f"{url}#{anchor}" if anchor else url


def file_url(path: str, lang: str) -> str:
    """A file of the site (a figure), by its path inside the language's site."""
    return f"{site_url()}/{lang}/{path}"


@cache
def doc_title(docname: str) -> str:
    """The title of a page of the site (its first ``#`` heading)."""
    parts = docname.split("/")
    if len(parts) == 3 and parts[0] == "chapters" and parts[2] == "glossary":
        from tools.book.glossary import glossary_markdown

        text = glossary_markdown(parts[1])
    else:
        path = ROOT / f"{docname}.md"
        if not path.exists():
            raise ValueError(f"no page {docname!r}")
        text = path.read_text(encoding="utf-8")
    titles = myst.headings(text, level=1)
    if not titles:
        raise ValueError(f"page {docname!r} has no title")
    return titles[0].text


@dataclass(frozen=True)
class Label:
    docname: str
    title: str
    kind: str  # "section", "figure" or "exercise"
    number: str = ""  # as the site numbers it: "3.2", the second figure of chapter 3 (item_number)


@cache
def labels(lang: str) -> dict[str, Label]:
    """Every target of a language's pages: ``(name)=`` before a heading, a figure's ``:name:``,
        an exercise's ``:label:``; figures and exercises numbered as the site numbers them (per chapter,
    tools/book/sphinx/localisation.py item_number)."""
    found: dict[str, Label] = {}
    for kind in KINDS:
        for path in sorted((ROOT / kind / lang).glob("*.md")):
            docname = f"{kind}/{lang}/{path.stem}"
            text = path.read_text(encoding="utf-8")
            lines = text.split("\n")
            counters = {"figure": 0, "exercise": 0}
            pending = None
            for block in myst.walk(text):
                if block.kind == "myst_target":
                    pending = block.text
                elif block.kind == "heading" and pending:
                    found[pending] = Label(docname, block.text, "section")
                    pending = None
                elif block.name in counters:
                    counters[block.name] += 1
                    option = "name" if block.name == "figure" else "label"
                    options, _ = directive_options(lines[block.start + 1 : block.end - 1])
                    if option in options:
                        title = block.arg if block.name == "exercise" else ""
                        number = item_number(docname, counters[block.name])
                        found[options[option]] = Label(docname, title, block.name, number)
    return found


@lru_cache(maxsize=1)
def bibliography():
    from pybtex.database import parse_file

    return parse_file(ROOT / "references.bib")


def cite_label(key: str, lang: str, textual: bool = False) -> str:
    """Author-year label of a reference, as the site writes it (sphinxcontrib-bibtex's author_year)."""
    entries = bibliography().entries
    if key not in entries:
        raise ValueError(f"{{cite}} of an unknown reference {key!r} (not in references.bib)")
    entry = entries[key]
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [" ".join([*p.prelast_names, *p.last_names]) for p in people]
    names = [re.sub(r"[{}]", "", n) for n in names] or [re.sub(r"[{}]", "", entry.fields.get("title", key))]
    if len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} {term('and', lang)} {names[1]}"
    else:
        who = f"{names[0]} et al."
    year = entry.fields.get("year", "")
    return f"{who} [{year}]" if textual else f"{who}, {year}"


@cache
def _reference_style():
    """pybtex's "plain" style, made once: each making looks up its plugins among every installed
    package's entry points (a third of the time of writing every edition)."""
    from pybtex.plugin import find_plugin

    return find_plugin("pybtex.style.formatting", "plain")()


@cache
def reference_text(key: str) -> str:
    """The full reference, as the site's references page lists it, in plain text."""
    (entry,) = _reference_style().format_entries([bibliography().entries[key]])
    text = entry.text.render_as("text")
    return re.sub(r"([*\[\]<>])", r"\\\1", text)


# --------------------------------------------------------------------------------------------
# MyST -> plain Jupyter Markdown

_ROLE = re.compile(
    r"(?P<role>\{(?P<name>[A-Za-z][\w:+-]*)\}`(?P<content>[^`]+)`)|(?P<code>(?P<ticks>`+).+?(?P=ticks))",
    re.S,
)
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)

ADMONITION_ICONS = {"tip": "🤔", "warning": "⚠️", "important": "📌", "note": "ℹ️", "caution": "⚠️"}
NAMED_ADMONITIONS = ("note", "tip", "warning", "important", "caution")


@dataclass
class Block:
    """One block of MyST: ``text`` lines, a ``code`` fence, a ``math`` block, a ``directive``,
    a ``comment`` or a ``target``."""

    kind: str
    lines: list[str]
    name: str = ""
    arg: str = ""
    options: dict = field(default_factory=dict)
    body: list[str] = field(default_factory=list)


def directive_options(inner: list[str]) -> tuple[dict, list[str]]:
    """A directive's ``:key: value`` option lines and the body after them."""
    options, k = {}, 0
    while k < len(inner) and myst.OPTION.match(inner[k]):
        key, value = myst.OPTION.match(inner[k]).groups()
        options[key] = (value or "").strip()
        k += 1
    return options, inner[k:]


# What myst-parser's blocks are here (tools/myst.py): the rest is text.
_KINDS = {
    "math_block": "math",
    "math_block_label": "math",
    "myst_line_comment": "comment",
    "myst_target": "target",
}


def parse_blocks(text: str) -> list[Block]:
    """Split MyST Markdown into blocks (directives with their options and body, fences, display
    math, comments, targets and runs of ordinary lines), where myst-parser finds them."""
    lines = text.split("\n")
    blocks: list[Block] = []
    at = 0
    for found in myst.blocks(text):
        kind = "fence" if found.kind in myst.FENCES else _KINDS.get(found.kind)
        if kind is None:
            continue
        if found.start > at:
            blocks.append(Block("text", lines[at : found.start]))
        at = found.end
        own = lines[found.start : found.end]
        if kind != "fence":
            blocks.append(Block(kind, own))
            continue
        closing = own[-1].strip()
        if len(own) < 2 or set(closing) != {found.markup[0]} or len(closing) < len(found.markup):
            raise ValueError(f"a fence is not closed: {own[0].strip()!r}")
        if not found.name:
            blocks.append(Block("code", own))
            continue
        options, body = directive_options(own[1:-1])
        if body and body[0].strip() == "---":
            raise ValueError(f"YAML options of {{{found.name}}} are not supported")
        blocks.append(Block("directive", own, name=found.name, arg=found.arg, options=options, body=body))
    if at < len(lines):
        blocks.append(Block("text", lines[at:]))
    return blocks


_MATH_SPAN = re.compile(
    r"(?P<fence>^```.*?^```\s*$)|(?P<math>\$\$.+?\$\$|\$[^$\n]+(?:\n[^$\n]+)?\$)", re.S | re.M
)


def one_line_math(text: str) -> str:
    """Math on one line: a renderer that lifts math out before parsing Markdown (JupyterLab does)
    would otherwise keep the ``>`` of a quoted block inside the formula."""

    def join(match):
        if match.group("fence"):
            return match.group("fence")
        return re.sub(r"\s*\n\s*", " ", match.group("math"))

    return _MATH_SPAN.sub(join, text)


def quote(text: str) -> str:
    """A quoted block (how admonitions, exercises and solutions look in a plain notebook)."""
    lines = one_line_math(text.strip("\n")).split("\n")
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


class Converter:
    """Turns the Markdown cells of one executed notebook into plain Jupyter Markdown."""

    def __init__(self, page: Page, edition: str, glue: dict[str, str], nb=None):
        if edition not in (KEY, STUDENT):
            raise ValueError(f"edition must be {KEY!r} or {STUDENT!r}, not {edition!r}")
        self.page, self.edition, self.glue = page, edition, glue
        self.lang = page.lang
        self.exercises: dict[str, tuple[int, str]] = {}
        self._cited: list[str] = []

    # -- inline -------------------------------------------------------------------------------
    def inline(self, text: str) -> str:
        def replace(match):
            if match.group("code"):
                return match.group("code")
            return self.role(match.group("name"), match.group("content"))

        return _ROLE.sub(replace, text)

    def role(self, name: str, content: str) -> str:
        if name in ("glue", "glue:text", "glue:md", "glue:any"):
            key = content.split(":")[0].strip()
            if key not in self.glue:
                raise ValueError(f"{self.page.docname}: glue {key!r} is used in the prose but not glued")
            return self.glue[key]
        if name in ("cite", "cite:p", "cite:t", "cite:ps", "cite:ts"):
            keys = [k.strip() for k in content.split(",") if k.strip()]
            for key in keys:
                if key not in self._cited:
                    self._cited.append(key)
            references = page_url(f"chapters/{self.lang}/references", self.lang)
            textual = name.startswith("cite:t")
            links = [f"[{cite_label(k, self.lang, textual)}]({references})" for k in keys]
            return "; ".join(links) if textual else "[" + "; ".join(links) + "]"
        if name == "doc":
            text, target = self._explicit(content)
            base = "" if target.startswith("/") else self.page.folder
            docname = posixpath.normpath(posixpath.join(base, target.lstrip("/")))
            return f"[{text or doc_title(docname)}]({page_url(docname, self.lang)})"
        if name in ("ref", "numref"):
            text, target = self._explicit(content)
            label = labels(self.lang).get(target)
            if label is None:
                raise ValueError(f"{self.page.docname}: {{{name}}} to an unknown label {target!r}")
            if name == "numref":
                number = str(label.number)
                default = (
                    f"{term('nb_figure' if label.kind == 'figure' else 'nb_exercise', self.lang)} {number}"
                )
                text = text.replace("%s", number).replace("{number}", number) if text else default
            return f"[{text or label.title}]({page_url(label.docname, self.lang, target)})"
        if name == "math":
            return f"${content}$"
        if name in ("sub", "sup"):
            return f"<{name}>{content}</{name}>"
        raise ValueError(f"{self.page.docname}: the MyST role {{{name}}} has no plain-Markdown form yet")

    @staticmethod
    def _explicit(content: str) -> tuple[str, str]:
        match = _EXPLICIT.match(content.strip())
        if match:
            return match.group("text").strip(), match.group("target").strip()
        return "", content.strip()

    # -- blocks -------------------------------------------------------------------------------
    def convert(self, text: str) -> str:
        """One Markdown cell, with the reference line of what it cites at its end."""
        self._cited = []
        body = self.blocks(text).strip("\n")
        if self._cited:
            title = doc_title(f"chapters/{self.lang}/references")
            refs = "; ".join(reference_text(k) for k in self._cited)
            body += f"\n\n<small>📚 {title}: {refs}</small>"
        return body

    def blocks(self, text: str) -> str:
        out = []
        for block in parse_blocks(text):
            if block.kind in ("comment", "target"):
                continue
            if block.kind in ("code", "math"):
                out.append("\n".join(block.lines))
            elif block.kind == "text":
                out.append(self.inline("\n".join(block.lines)))
            else:
                out.append(self.directive(block))
        return re.sub(r"\n{3,}", "\n\n", "\n".join(out))

    def directive(self, block: Block) -> str:
        name, lang = block.name, self.lang
        body = "\n".join(block.body)
        if name == "admonition":
            icon = ADMONITION_ICONS.get(block.options.get("class", "").split(" ")[0], "")
            title = self.inline(block.arg)
            return quote(f"**{icon + ' ' if icon else ''}{title}**\n\n{self.blocks(body).strip()}") + "\n"
        if name in NAMED_ADMONITIONS:
            title = term(f"nb_{name}", lang)
            return quote(f"**{ADMONITION_ICONS[name]} {title}**\n\n{self.blocks(body).strip()}") + "\n"
        if name == "exercise":
            number = item_number(self.page.docname, len(self.exercises) + 1)
            title = self.inline(block.arg)
            if "label" in block.options:
                self.exercises[block.options["label"]] = (number, title)
            heading = f"{term('nb_exercise', lang)} {number}" + (f" ({title})" if title else "")
            return quote(f"**✏️ {heading}**\n\n{self.blocks(body).strip()}") + "\n"
        if name == "solution":
            if block.arg not in self.exercises:
                raise ValueError(f"{self.page.docname}: solution of an unknown exercise {block.arg!r}")
            if self.edition == STUDENT:
                return ""
            number, title = self.exercises[block.arg]
            heading = f"{term('nb_solution', lang)} — {term('nb_exercise', lang)} {number}"
            heading += f" ({title})" if title else ""
            return quote(f"**{heading}**\n\n{self.blocks(body).strip()}") + "\n"
        if name == "figure":
            target = posixpath.normpath(posixpath.join(self.page.folder, block.arg))
            if not (ROOT / target).exists():
                raise ValueError(f"{self.page.docname}: figure {block.arg} does not exist")
            alt = block.options.get("alt", "").replace("[", "(").replace("]", ")")
            image = f"![{alt}]({file_url(target, lang)})"
            caption = self.blocks(body).strip()
            return image + (f"\n\n*{caption}*" if caption and "\n\n" not in caption else f"\n\n{caption}")
        if name == "math":
            return "$$\n" + body.strip() + "\n$$"
        raise ValueError(f"{self.page.docname}: the MyST directive {{{name}}} has no plain-Markdown form yet")


# --------------------------------------------------------------------------------------------
# Code cells: what the student edition changes


def answer_names(source: str) -> list[str]:
    """The ``answer*`` variables a solution cell assigns at top level, in order."""
    names = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for target in targets:
            if isinstance(target, ast.Name) and target.id.startswith("answer") and target.id not in names:
                names.append(target.id)
    return names


def placeholder(source: str, lang: str = "en") -> str:
    """What replaces a solution cell: where to type, in the student's language (and, where the
    language writes decimals with a comma, that Python needs a point), then ``answer_<name> = ...``."""
    names = answer_names(source)
    if not names:
        raise ValueError("a solution cell must assign at least one answer_<name> variable")
    said = [term("nb_your_turn", lang)]
    if _NUMBER_STYLE[lang]["decimal"] != ".":
        said.append(term("nb_decimal_point", lang))
    lines = [f"# {line}" for sentence in said for line in textwrap.wrap(sentence, 96)]
    lines += [f"{name} = ..." for name in names]
    return "\n".join(lines)


def is_check_cell(source: str) -> bool:
    """A cell that calls ``check.<exercise>(...)``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "check." in source
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "check"
        for node in ast.walk(tree)
    )


REMOVE_STUDENT = "remove-student"  # a cell the student editions leave out


def tags(cell) -> list[str]:
    return list(cell.metadata.get("tags", []))


def _clear(cell) -> None:
    cell.outputs, cell.execution_count = [], None


def student_code_cell(cell, lang: str) -> None:
    """The student edition of a code cell, in place."""
    cell_tags = tags(cell)
    if "solution" in cell_tags:
        cell.source = placeholder(cell.source, lang)
        cell.metadata["tags"] = [t for t in cell_tags if t != "solution"]
        if not cell.metadata["tags"]:
            del cell.metadata["tags"]
        _clear(cell)
    elif "hide-output-student" in cell_tags or is_check_cell(cell.source):
        _clear(cell)


# --------------------------------------------------------------------------------------------
# The editions


def derive(nb, page: Page, edition: str):
    """The answer key (``edition="key"``) or the student notebook of an executed notebook."""
    nb = copy.deepcopy(nb)
    converter = Converter(page, edition, glue_texts(nb), nb)
    cells = []
    for cell in nb.cells:
        cell_tags = tags(cell)
        if "remove-cell" in cell_tags or (edition == STUDENT and REMOVE_STUDENT in cell_tags):
            continue
        if cell.cell_type == "markdown":
            cell.source = converter.convert(cell.source)
            if not cell.source.strip():
                continue
        elif cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if not is_glue_output(o)]
            if "remove-output" in cell_tags:
                _clear(cell)
            if edition == STUDENT:
                student_code_cell(cell, page.lang)
        cells.append(cell)
    nb.cells = cells
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        **({"widgets": nb.metadata["widgets"]} if "widgets" in nb.metadata else {}),
    }
    return nb


def _write(nb, dest: Path) -> Path:
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, dest)  # validates
    return dest


def student_notebook(src: Path, dest: Path) -> Path:
    """Write the student notebook of an answer-key ``.ipynb`` (an executed chapter or lab) to dest:
    the notebook every launch and download button opens."""
    nb = nbformat.read(src, as_version=4)
    return _write(derive(nb, page_of(src, nb), STUDENT), dest)


def answer_key(src: Path, dest: Path) -> Path:
    """Write the Colab-ready answer key of an executed chapter or lab to dest."""
    nb = nbformat.read(src, as_version=4)
    return _write(derive(nb, page_of(src, nb), KEY), dest)


def student_markdown(text: str) -> str:
    """MyST text without its sphinx-exercise ``{solution}`` blocks (backtick or colon fenced)."""
    lines = text.splitlines(keepends=True)
    for block in reversed(myst.blocks(text)):
        if block.name == "solution":
            closing = lines[block.end - 1].strip()
            if (
                block.end - block.start < 2
                or set(closing) != {block.markup[0]}
                or len(closing) < len(block.markup)
            ):
                raise ValueError("a {solution} block is not closed")
            del lines[block.start : block.end]
    return "".join(lines)


def lab_page_notebook(src: Path, dest: Path) -> Path:
    """The student edition of a notebook for the site (the labs' pages): the same cell changes as
    the student notebook, with MyST kept for Sphinx (and the hidden glue cells, which the prose needs)."""
    nb = nbformat.read(src, as_version=4)
    lang = page_of(src, nb).lang
    nb.cells = [cell for cell in nb.cells if REMOVE_STUDENT not in tags(cell)]
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = student_markdown(cell.source)
        elif cell.cell_type == "code":
            student_code_cell(cell, lang)
    return _write(nb, dest)


# --------------------------------------------------------------------------------------------
# The published tree: what the notebooks branch holds


def publish_path(page: Page, root: Path = PUBLISH) -> Path:
    """Where the student notebook of a page lives in the published tree (the same path as in the
    repository, which is the path the launch buttons name)."""
    return root / page.kind / page.lang / f"{page.stem}.ipynb"


def binder_files() -> dict[str, str]:
    """The files Binder reads at the top of the notebooks branch: it installs the pinned release."""
    return {
        "requirements.txt": f"{install_spec()}\njupyterlab>=4.2\n",
        "runtime.txt": "python-3.12\n",
        "README.md": (
            "# Beyond Accuracy: the student notebooks\n\n"
            f"Generated from {repository_url()} by its publish workflow (`make publish`); do not edit.\n"
            f"Every chapter and lab in every language, without solutions, as the Colab, Binder and\n"
            f"download buttons of the course site ({site_url()}) open them. Binder installs\n"
            f"`{install_spec()}` (requirements.txt).\n\n"
            f"Branch: `{notebooks_branch()}`.\n"
        ),
    }


def write_editions(
    langs: list[str] | None = None, publish: Path = PUBLISH, keys: Path = ANSWER_KEYS
) -> list[Path]:
    """Write every student notebook into ``publish`` (with the Binder files) and every answer key
    into ``keys``; the languages not given are left as they are. Returns the files written."""
    langs = langs or languages()
    written = []
    for lang in langs:
        for root in (publish, keys):
            for kind in KINDS:
                target = root / kind / lang
                if target.exists():
                    for old in target.glob("*.ipynb"):
                        old.unlink()
    for src in sources(langs):
        page = page_of(src)
        written.append(student_notebook(src, publish_path(page, publish)))
        written.append(answer_key(src, publish_path(page, keys)))
    for name, text in binder_files().items():
        (publish / name).write_text(text, encoding="utf-8")
        written.append(publish / name)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    args = parser.parse_args(argv)
    written = write_editions(args.lang)
    print(
        f"{sum(p.suffix == '.ipynb' for p in written)} notebooks -> {PUBLISH.relative_to(ROOT)}/ (student)"
        f" and {ANSWER_KEYS.relative_to(ROOT)}/ (answer keys)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())


# --------------------------------------------------------------------------------------------
# What gives an answer away: a checked answer's value in a stored output or in the prose

RAW_MYST = {
    "role": re.compile(r"\{[A-Za-z][\w:+-]*\}`"),
    "directive": re.compile(r"^\s*(`{3,}|:{3,})\s*\{", re.M),
    "target": re.compile(r"^\s*\([\w.:-]+\)=\s*$", re.M),
    "comment": re.compile(r"^\s*%", re.M),
    "directive option": re.compile(r"^>?\s*:[\w-]+:(\s|$)", re.M),
    "block break": re.compile(r"^\+\+\+", re.M),
    "substitution": re.compile(r"\{\{[^}]*\}\}"),
}
_CODE_FENCE = re.compile(r"^(?P<f>`{3,}|~{3,})(?!\s*\{).*?^(?P=f)\s*$", re.S | re.M)


def raw_myst(markdown: str) -> list[str]:
    """The MyST constructs left in a Markdown text (code blocks excepted), as ``kind: text``."""
    text = _CODE_FENCE.sub("", markdown)
    text = re.sub(r"`[^`\n]+`", "", text) if not RAW_MYST["role"].search(text) else text
    found = []
    for kind, pattern in RAW_MYST.items():
        for match in pattern.finditer(text):
            line = text[text.rfind("\n", 0, match.start()) + 1 : text.find("\n", match.end())]
            found.append(f"{kind}: {line.strip()[:80]}")
    return found


def _number_forms(x: float, lang: str) -> set[str]:
    """How a page may print a computed number: Python's repr, 3 or 4 decimals, with the language's
    decimal comma, or as a percentage. A number with at most 2 decimals (a threshold such as 0.2)
    counts as printed with 1 or 2 (``0.2``, ``0.20``): padded to 3 it is one row of a grid of
    candidates (0.150, 0.200, 0.250 ...), which is the student's to read."""
    from beyond_accuracy.language import fmt

    if abs(round(x, 2) - x) < 1e-9:
        forms = {f"{x:.2f}", f"{x:g}", fmt(x, 2, lang=lang), fmt(x, 1, lang=lang) if round(x, 1) == x else ""}
    else:
        forms = {repr(float(x)), f"{x:.4f}", f"{x:.3f}", fmt(x, 3, lang=lang), fmt(x, 4, lang=lang)}
        if abs(x) <= 1:
            forms |= {f"{100 * x:.1f}%", fmt(x, 1, percent=True, lang=lang)}
    return {f for f in forms if f.strip("0.,-%\u00a0\u2212") != ""}


def answer_patterns(value, lang: str) -> list[list[set[str]]]:
    """The ways an answer can show: a list of alternatives, each a list of token sets that must all
    appear in one row (a line, a table row, a paragraph). A number shows as itself (an integer only
    from 10 on: small counts are everywhere); a tuple of numbers shows when all its members appear
    in one row; strings (choices) are not searched."""
    import numbers

    def number(v) -> bool:
        return isinstance(v, numbers.Real) and not isinstance(v, bool)

    if isinstance(value, dict):
        return [p for v in value.values() for p in answer_patterns(v, lang)]
    if number(value) and isinstance(value, numbers.Integral):
        return [[{str(value), f"{value:,}"}]] if abs(value) >= 10 else []
    if number(value):
        return [[_number_forms(float(value), lang)]]
    if isinstance(value, (list, tuple)) and all(number(v) for v in value) and value:
        if len(value) == 1:
            return answer_patterns(value[0], lang)
        return [
            [{str(v)} if isinstance(v, numbers.Integral) else _number_forms(float(v), lang) for v in value]
        ]
    return []


def _rows_of_output(out) -> list[str]:
    rows = []
    if out.get("output_type") == "stream":
        rows += out.get("text", "").splitlines()
    for mime, data in out.get("data", {}).items():
        text = "".join(data) if isinstance(data, list) else str(data)
        if mime == "text/html":
            rows += [re.sub(r"<[^>]+>", " ", r) for r in re.split(r"<tr[\s>]", text)]
        elif mime in ("text/plain", "text/markdown", "text/latex"):
            rows += text.splitlines()
    return rows


def _token(form: str) -> re.Pattern:
    return re.compile(rf"(?<![\w.,]){re.escape(form)}(?![\w]|[.,]\d)")


def answer_leaks(nb, answers: dict, lang: str) -> list[str]:
    """Where a student notebook shows the value of a checked answer: ``cell N (output|prose): row``."""
    patterns = {name: answer_patterns(value, lang) for name, value in answers.items()}
    rows = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            rows += [(index, "prose", p) for p in re.split(r"\n\s*\n", cell.source)]
        elif cell.cell_type == "code":
            rows += [(index, "output", r) for out in cell.get("outputs", []) for r in _rows_of_output(out)]
    found = []
    for name, alternatives in patterns.items():
        for pattern in alternatives:
            for index, where, row in rows:
                if all(any(_token(form).search(row) for form in forms) for forms in pattern):
                    found.append(f"{name} in cell {index} ({where}): {' '.join(row.split())[:120]}")
                    break
    return list(dict.fromkeys(found))


# --------------------------------------------------------------------------------------------
# What gives a checked choice away: the values that rank its options, printed or stated


@dataclass(frozen=True)
class Ranking:
    """How a checked choice is decided: ``values(*inputs)`` gives, from the inputs its check cell
    passes, the number that decides each option (the check's own helpers compute it), and the
    answer is the option with the ``best`` ("min" or "max") of them. ``material``: the lab prints
    that ranking above the exercise on purpose, and the exercise asks to read it off. ``words``:
    the quantity's name in the five languages (a paragraph that gives the winner's value says it)."""

    values: Callable[..., dict]
    best: str
    material: bool = False
    words: tuple[str, ...] = ()  # what names the deciding quantity in prose, in any language

    def answer(self, values: dict) -> str:
        pick = min if self.best == "min" else max
        return pick(values, key=values.get)


def _lab_rankings() -> dict[str, Ranking]:
    from sklearn.metrics import brier_score_loss

    from beyond_accuracy.checks import lab2, lab3, lab4, lab5

    def calibrators(y_eval, probs):
        return {m: float(brier_score_loss(y_eval, lab3._nb(probs, m))) for m in lab3.CALIBRATORS}

    def board(metric):
        score = lab4._SCORES[metric][0]
        return lambda y_test, test_pred: {n: float(score(y_test, p)) for n, p in test_pred.items()}

    def tails(leaked, loss):
        leaked, order = lab5._ranking(leaked, loss)
        return {
            "top": float(leaked[order[: lab5.TAIL]].mean()),
            "bottom": float(leaked[order[-lab5.TAIL :]].mean()),
        }

    return {
        "best_lever": Ranking(
            lambda table, costs, n: lab2._lever_costs(table, costs, n),
            "min",
            words=("cost", "costo", "coste", "custo", "kustannu", "maksa"),
        ),
        "best_calibrator": Ranking(calibrators, "min", words=("Brier",)),
        "accuracy_pick": Ranking(board("accuracy"), "max", material=True),
        "qwk_pick": Ranking(board("qwk"), "max", material=True),
        "leak_tail": Ranking(tails, "max"),
    }


# Checked choices that no ranking decides, with the reason.
NOT_RANKED = {
    "micro_f1": "which row of classification_report equals micro-F1: a fact about the report, read "
    "from its rows (the exercise's material), whatever their values",
}


def choice_rankings() -> dict[str, Ranking]:
    """The Ranking of every checked choice that a ranking decides (see NOT_RANKED for the others)."""
    return _lab_rankings()


def _significant(form: str) -> int:
    return len(re.sub(r"\D", "", form).lstrip("0"))


def _choice_forms(x: float, lang: str) -> set[str]:
    """How a page may print a number that decides a choice: as _number_forms, with at least two
    significant digits (0.0085, not 0.008 or 1%: those match too much); a share of 100 (0.99, 0.06)
    also with 2 or 3 decimals and as a whole percentage (0.990, 99%, 6%), exactly as it is."""
    from beyond_accuracy.language import fmt

    if x in (0, 1, -1):  # printed as 0, 1.000 or 100% everywhere: not looked for
        return set()
    exact = abs(round(100 * x) - 100 * x) < 1e-9
    forms = _number_forms(x, lang)
    if exact:
        forms |= {f"{x:.2f}", f"{x:.3f}", fmt(x, 2, lang=lang), fmt(x, 3, lang=lang)}
        if abs(x) <= 1:
            forms |= {f"{100 * x:.0f}%", fmt(x, 0, percent=True, lang=lang)}
    return {f for f in forms if f.strip("0.,-%\u00a0\u2212") != "" and (exact or _significant(f) >= 2)}


def _units(nb) -> list[tuple[int, str, str]]:
    """(cell index, "prose" or "output", text): each paragraph, and all the outputs of a code cell
    together (a table's rows are one unit)."""
    units = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            units += [(index, "prose", p) for p in re.split(r"\n\s*\n", cell.source)]
        elif cell.cell_type == "code":
            rows = [r for out in cell.get("outputs", []) for r in _rows_of_output(out)]
            if rows:
                units.append((index, "output", "\n".join(rows)))
    return units


def choice_leaks(
    nb, name: str, values: dict, answer: str, lang: str, words: tuple[str, ...] = (), after: int = 0
) -> list[str]:
    """Where a student notebook lets the answer of a ranked choice be read off:

    - a table, an output or a paragraph that shows the deciding value of every option that has
      one (the whole ranking; a value of exactly 0 or 1 is not looked for: it prints everywhere);
    - an output or a paragraph that shows how far every other option is from the answer (their
      gaps to the best: the best is the one at zero);
    - a paragraph after the exercise's check (cell ``after``) that states the answer's own value,
      naming the quantity (one of ``words``): prose that discusses the winner.

    One option's value alone, before the exercise, is the exercise's material.
    """
    shows = {o: [_token(f) for f in _choice_forms(v, lang)] for o, v in values.items()}
    gaps = {}
    if answer in values:
        gaps = {
            o: [_token(f) for g in (v - values[answer], values[answer] - v) for f in _choice_forms(g, lang)]
            for o, v in values.items()
            if o != answer
        }
    searchable = [o for o, patterns in shows.items() if patterns]  # a value of 0 prints as 0.000 anywhere
    gapped = [o for o, patterns in gaps.items() if patterns]
    found = []
    for index, where, text in _units(nb):
        shown = [o for o, patterns in shows.items() if any(p.search(text) for p in patterns)]
        apart = [o for o, patterns in gaps.items() if any(p.search(text) for p in patterns)]
        line = " ".join(text.split())[:120]
        if len(shown) == len(searchable) >= 2:
            found.append(f"{name} in cell {index} ({where}): the values of {', '.join(shown)}: {line}")
        elif gapped and len(apart) == len(gapped):
            found.append(
                f"{name} in cell {index} ({where}): the gaps of {', '.join(apart)} to the best: {line}"
            )
        elif (
            where == "prose"
            and index > after
            and answer in shown
            and any(w.lower() in text.lower() for w in words)
        ):
            found.append(f"{name} in cell {index} (prose): the answer's own value: {line}")
    return found
