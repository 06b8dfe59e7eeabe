"""The notebooks: every .md has its executed .ipynb twin, every language has the same notebooks
with the same code (only the language cell differs), and their stored outputs agree."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import jupytext
import nbformat
import pytest

from beyond_accuracy import fmt
from beyond_accuracy.datasets import twenty_patients
from tools import myst
from tools.book.notebooks import merge_streams, notebook_command
from tools.language.translations import status
from tools.project import ROOT, first_cell, languages, notebook_sources, reference_language

SOURCES = notebook_sources()
# Translations recorded as behind their English page (translations.json): on main with a notice,
# as the README promises; the suite reports them (tests/conftest.py) and the tests below that need
# the English page's prose in every language leave them out.
BEHIND = {ROOT / s.path for s in status() if s.state == "behind"}
GLUE_PREFIX = "application/papermill.record/"
WIDGET = "application/vnd.jupyter.widget-view+json"


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def by_name() -> dict[tuple[str, str], dict[str, Path]]:
    groups = defaultdict(dict)
    for path in SOURCES:
        groups[(path.parent.parent.name, path.name)][path.parent.name] = path
    return groups


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


@cache
def source(path: Path):
    """The .md read as a notebook, once per run (several tests read each; none changes it)."""
    return jupytext.read(path)


def test_there_are_notebooks():
    assert SOURCES, "no chapter or lab notebooks found"


@pytest.mark.parametrize("kind_name", sorted(by_name()), ids=lambda k: f"{k[0]}/{k[1]}")
def test_every_language_has_the_notebook(kind_name):
    present = sorted(by_name()[kind_name])
    assert present == sorted(languages()), f"{kind_name[0]}/*/{kind_name[1]} exists only in {present}"


def pairing_problem(md_nb, ip_nb, path: Path) -> str | None:
    """What makes the .ipynb no longer the executed .md, with the one command that fixes it: the
    prose sync when only Markdown changed, else the notebook's re-execution."""
    md_cells = [(c.cell_type, c.source.strip(), c.metadata.get("tags", [])) for c in md_nb.cells]
    ip_cells = [(c.cell_type, c.source.strip(), c.metadata.get("tags", [])) for c in ip_nb.cells]
    if md_cells == ip_cells:
        return None
    code_changed = [c for c in md_cells if c[0] == "code"] != [c for c in ip_cells if c[0] == "code"]
    fix = f"make notebook NB={rel(path)}" if code_changed else f"make prose NB={rel(path)}"
    first = next(
        (i for i, (a, b) in enumerate(zip(md_cells, ip_cells)) if a != b), min(len(md_cells), len(ip_cells))
    )
    what = "code" if code_changed else "Markdown"
    return f"{rel(path)}: {what} differs from its .ipynb from cell {first} on: run `{fix}`"


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_ipynb_is_paired_with_md(path):
    """Same cells, same sources, same tags: the .ipynb was produced from this .md."""
    ipynb = path.with_suffix(".ipynb")
    assert ipynb.exists(), f"{rel(ipynb)} is missing: run `make notebook NB={rel(path)}`"
    problem = pairing_problem(source(path), nbformat.read(ipynb, as_version=4), path)
    assert problem is None, problem


def test_a_stale_ipynb_names_the_command_that_fixes_it():
    path = ROOT / "chapters" / "it" / "03-calibration.md"
    md_nb = source(path)
    assert pairing_problem(md_nb, nbformat.read(path.with_suffix(".ipynb"), as_version=4), path) is None
    prose = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    next(c for c in prose.cells if c.cell_type == "markdown").source += " Una parola."
    assert pairing_problem(md_nb, prose, path).endswith("run `make prose NB=chapters/it/03-calibration.md`")
    code = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    code_cells(code)[3].source += "\nx = 1"
    assert pairing_problem(md_nb, code, path).endswith("run `make notebook NB=chapters/it/03-calibration.md`")


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_ipynb_was_executed(path):
    nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    for i, cell in enumerate(code_cells(nb)):
        assert cell.execution_count is not None, (
            f"{rel(path)}: code cell {i} has not been executed: run `make notebook NB={rel(path)}`"
        )
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"{rel(path)}: code cell {i} raised {errors[0].ename}"


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_first_code_cell_is_the_language_cell(path):
    cells = code_cells(source(path))
    assert cells[0].source == first_cell(path.parent.name), (
        f"{rel(path)}: the first code cell must be the language cell: run `make notebook NB={rel(path)}`"
    )


@pytest.mark.parametrize("kind_name", sorted(by_name()), ids=lambda k: f"{k[0]}/{k[1]}")
def test_code_is_identical_across_languages(kind_name):
    paths = by_name()[kind_name]
    ref = reference_language()
    ref_cells = code_cells(source(paths[ref]))
    differ = {}
    for _lang, path in paths.items():
        cells = code_cells(source(path))
        if len(cells) != len(ref_cells):
            differ[path] = f"{len(cells)} code cells, {ref} has {len(ref_cells)}"
            continue
        for i, (a, b) in enumerate(zip(cells[1:], ref_cells[1:]), start=1):
            if a.source != b.source or a.metadata.get("tags", []) != b.metadata.get("tags", []):
                differ[path] = f"code cell {i} (source or tags) differs from the {ref} version"
                break
    assert not differ, (
        "; ".join(f"{rel(p)}: {why}" for p, why in differ.items())
        + f". The {ref} .md is the source of the code: `{notebook_command(list(differ))}` copies it and "
        "re-executes"
    )


def glue_outputs(cell) -> dict[str, dict]:
    found = {}
    for out in cell.outputs:
        meta = out.get("metadata", {})
        if "scrapbook" in meta:
            found[meta["scrapbook"]["name"]] = {
                "text": out["data"][GLUE_PREFIX + "text/plain"],
                **meta.get("beyond_accuracy", {}),
            }
    return found


def explorer_data(html: str) -> tuple[str, dict]:
    """An explorer's module and exported data without what is localised (labels, number style)."""
    module = re.search(r'data-module="([^"]+)"', html).group(1)
    payload = re.search(r'<script type="application/json">(.*?)</script>', html, re.S).group(1)
    data = json.loads(payload)["data"]
    return module, {k: v for k, v in data.items() if k not in ("labels", "number_style")}


def comparable(cell) -> list:
    """The outputs of a cell that must match across languages (an image's bytes and description, widgets
    and glue excluded)."""
    items = []
    for out in merge_streams([o.copy() for o in cell.outputs]):
        if "scrapbook" in out.get("metadata", {}):
            continue
        if out.output_type == "stream":
            items.append(("stream", out.name, out.text))
        elif out.output_type in ("execute_result", "display_data"):
            if WIDGET in out.data:  # a live widget: random model id, localised labels in its repr
                continue
            if out.data.get("text/html", "").startswith('<div class="ba-widget"'):
                items.append(("explorer", explorer_data(out.data["text/html"])))
                continue
            if any(k.startswith("image/") for k in out.data):
                # a plot: its text/plain is its description in the page's language (the image's alt
                # text, tests/test_references.py); the same kinds of image in every language
                items.append((out.output_type, sorted(k for k in out.data if k.startswith("image/"))))
                continue
            items.append((out.output_type, out.data))
    return items


def verdicts(cell) -> list[str]:
    """Check feedback is localised: compare only its verdict (the leading symbol of each line)."""
    streams = merge_streams([o.copy() for o in cell.outputs])
    return [
        line.split()[0] for o in streams if o.output_type == "stream" for line in o.text.splitlines() if line
    ]


@pytest.mark.parametrize("kind_name", sorted(by_name()), ids=lambda k: f"{k[0]}/{k[1]}")
def test_stored_outputs_agree_across_languages(kind_name):
    paths = by_name()[kind_name]
    ref = reference_language()
    ref_cells = code_cells(nbformat.read(paths[ref].with_suffix(".ipynb"), as_version=4))
    for _lang, path in paths.items():
        cells = code_cells(nbformat.read(path.with_suffix(".ipynb"), as_version=4))
        for i, (a, b) in enumerate(zip(cells[1:], ref_cells[1:]), start=1):
            where = f"{rel(path)} code cell {i}"
            if "check." in a.source:
                assert verdicts(a) == verdicts(b), f"{where}: check verdicts differ from {ref}"
                continue
            assert comparable(a) == comparable(b), (
                f"{where}: outputs differ from the {ref} version: `{notebook_command(list(paths.values()))}`"
            )
            ga, gb = glue_outputs(a), glue_outputs(b)
            assert ga.keys() == gb.keys(), f"{where}: glued names differ from {ref}"
            for name in ga:
                assert ga[name].get("raw") == pytest.approx(gb[name].get("raw")), f"{where}: {name} differs"


# How each language writes a number, typed here from its style guide rather than read from the
# package: decimal mark, thousands separator, the fewest digits of an integer part that is grouped
# (Spanish writes 1234 but 12.345), minus sign, percent sign.
WRITING = {
    "en": (".", ",", 4, "-", "%"),
    "it": (",", ".", 4, "-", "%"),
    "es": (",", "\u00a0", 5, "-", "\u00a0%"),
    "pt": (",", ".", 4, "-", "%"),
    "fi": (",", "\u00a0", 4, "\u2212", "\u00a0%"),
}


def written(raw: float, digits: int, percent: bool, lang: str) -> str:
    """``raw`` as ``lang`` writes it with ``digits`` decimals: Python's own grouping and rounding,
    then each mark replaced by the language's (a rule written apart from beyond_accuracy.fmt)."""
    decimal, group, fewest, minus, percent_sign = WRITING[lang]
    value = raw * 100 if percent else raw
    text = format(abs(value), f",.{digits}f")
    if float(text.replace(",", "")) == 0:  # a value that rounds to zero has no sign
        value = 0.0
    whole, _, decimals = text.partition(".")
    if len(whole.replace(",", "")) < fewest:
        whole = whole.replace(",", "")
    text = whole.replace(",", group) + (decimal + decimals if decimals else "")
    return (minus if value < 0 else "") + text + (percent_sign if percent else "")


# (value, digits, percent) and how each language writes it, typed by hand
TYPED = [
    ((0.7368, 3, False), {"en": "0.737", "it": "0,737", "es": "0,737", "pt": "0,737", "fi": "0,737"}),
    ((1234, 0, False), {"en": "1,234", "it": "1.234", "es": "1234", "pt": "1.234", "fi": "1\u00a0234"}),
    (
        (12345.6, 1, False),
        {"en": "12,345.6", "it": "12.345,6", "es": "12\u00a0345,6", "pt": "12.345,6", "fi": "12\u00a0345,6"},
    ),
    ((-0.25, 2, False), {"en": "-0.25", "it": "-0,25", "es": "-0,25", "pt": "-0,25", "fi": "\u22120,25"}),
    ((-0.0001, 3, False), {"en": "0.000", "it": "0,000", "es": "0,000", "pt": "0,000", "fi": "0,000"}),
    (
        (0.25, 1, True),
        {"en": "25.0%", "it": "25,0%", "es": "25,0\u00a0%", "pt": "25,0%", "fi": "25,0\u00a0%"},
    ),
    ((0.985, 0, True), {"en": "98%", "it": "98%", "es": "98\u00a0%", "pt": "98%", "fi": "98\u00a0%"}),
]


@pytest.mark.parametrize("lang", languages())
def test_the_writing_rule_and_fmt_agree_with_typed_numbers(lang):
    for (raw, digits, percent), texts in TYPED:
        assert written(raw, digits, percent, lang) == texts[lang], (raw, digits, percent)
        assert fmt(raw, digits=digits, percent=percent, lang=lang) == texts[lang], (raw, digits, percent)


def localisation_problems(nb, lang: str) -> list[str]:
    problems = []
    for cell in code_cells(nb):
        for name, g in glue_outputs(cell).items():
            if g.get("lang") != lang:
                problems.append(f"{name} was glued in {g.get('lang')!r}")
            elif g.get("raw") is not None:
                expected = written(g["raw"], g["digits"], g["percent"], lang)
                if g["text"] != repr(expected):
                    problems.append(f"{name} is {g['text']}, not {expected!r}")
    return problems


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_glued_numbers_are_localised(path):
    """Each glued number is written as the notebook's language writes it (the rule above)."""
    nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    problems = localisation_problems(nb, path.parent.name)
    assert not problems, f"{rel(path)}: {problems}"


def test_a_number_glued_with_the_wrong_marks_is_seen():
    """A fmt that wrote Finnish numbers with English marks would reproduce them when a test
    recomputes with fmt; the rule does not."""
    path = ROOT / "chapters" / "fi" / "02-imbalance.ipynb"
    nb = nbformat.read(path, as_version=4)
    assert not localisation_problems(nb, "fi")
    changed = 0
    for cell in code_cells(nb):
        for out in cell.outputs:
            meta = out.get("metadata", {}).get("beyond_accuracy", {})
            if meta.get("raw") is not None:
                english = repr(fmt(meta["raw"], digits=meta["digits"], percent=meta["percent"], lang="en"))
                changed += english != out["data"][GLUE_PREFIX + "text/plain"]
                out["data"][GLUE_PREFIX + "text/plain"] = english
    assert changed > 5 and len(localisation_problems(nb, "fi")) == changed


GLUE_ROLE = re.compile(r"\{glue(?::text)?\}`([^`]+)`")


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_every_glue_reference_is_defined_and_used(path):
    """Every glued number is used by the prose and every use is glued; a translation recorded as
    behind may not use yet what its English page newly glues (its code is the English code)."""
    nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    defined = set()
    for cell in code_cells(nb):
        defined |= set(glue_outputs(cell))
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    used = {name.split(":")[0] for name in GLUE_ROLE.findall(prose)}
    assert not used - defined, f"{rel(path)}: prose uses undefined glue {sorted(used - defined)}"
    if path not in BEHIND:
        assert not defined - used, f"{rel(path)}: glued but never used in prose {sorted(defined - used)}"


DECIMAL_IN_PROSE = re.compile(r"(?<![\w.,/\-])[01][.,]\d{2,}(?![\d])")


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_no_hand_typed_metric_values_in_prose(path):
    """Computed values (0.737, 0,737 ...) belong in glue, not typed into prose. Math, code and
    directive options are skipped; the story's given inputs (scores such as 0.95) are allowed
    when they are the data itself."""
    nb = source(path)
    # the twenty patients' scores of chapter 1, and thresholds the pages set
    allowed = {f"{s:.2f}" for s in (*twenty_patients()["score"], 0.99, 0.01, 0.50, 0.37)}
    allowed |= {a.replace(".", ",") for a in allowed}
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$|`[^`\n]*`", " ", cell.source, flags=re.S)
        group = "," if path.parent.name == "en" else "."  # 1,000 / 1.000 is a thousand, not a decimal
        hits = [
            h
            for h in DECIMAL_IN_PROSE.findall(text)
            if h not in allowed and not (h[1] == group and len(h) == 5)
        ]
        assert not hits, f"{rel(path)}: typed decimals {hits} in prose; glue computed values"


FIGURE = re.compile(r"^(`{3,}|:{3,})\{figure\}\s*(\S+)\s*\n(.*?)^\1\s*$", re.S | re.M)


PAGES = sorted({*SOURCES, *ROOT.glob("chapters/*/*.md"), *ROOT.glob("labs/*/*.md")})  # each page once


def figure_problems(path: Path, text: str) -> list[str]:
    """What is wrong with the figures of a page: a missing file, no alt text, or a file that is
    not in the page's own language folder (resolved, so ``../en/figures/`` is seen)."""
    problems = []
    home = path.relative_to(ROOT).parts[:2]  # (kind, language)
    for _, target, body in FIGURE.findall(text):
        file = (path.parent / target).resolve()
        if not file.exists():
            problems.append(f"figure {target} does not exist")
        if not re.search(r"^:alt:\s*(\S.*)$", body, re.M):
            problems.append(f"figure {target} has no :alt: text")
        if not file.is_relative_to(ROOT) or file.relative_to(ROOT).parts[:2] != home:
            problems.append(f"figure {target} is not in {'/'.join(home)}/: a figure of another language")
    return problems


def test_pages_are_collected_once():
    assert len(PAGES) == len({p.resolve() for p in PAGES})
    assert set(SOURCES) <= set(PAGES) and ROOT / "chapters" / "en" / "index.md" in PAGES


@pytest.mark.parametrize("path", PAGES, ids=rel)
def test_figures_exist_and_have_alt_text(path):
    problems = figure_problems(path, path.read_text(encoding="utf-8"))
    assert not problems, f"{rel(path)}: {problems}"


def test_a_figure_of_another_language_is_seen():
    page = ROOT / "chapters" / "it" / "02-imbalance.md"
    text = page.read_text(encoding="utf-8")
    assert "{figure} figures/imbalance-roc-vs-pr.svg" in text and not figure_problems(page, text)
    borrowed = text.replace(
        "{figure} figures/imbalance-roc-vs-pr.svg", "{figure} ../en/figures/imbalance-roc-vs-pr.svg"
    )
    assert figure_problems(page, borrowed) == [
        "figure ../en/figures/imbalance-roc-vs-pr.svg is not in chapters/it/: a figure of another language"
    ]
    no_alt = re.sub(r"^:alt:.*\n", "", text, count=1, flags=re.M)
    assert any("has no :alt: text" in problem for problem in figure_problems(page, no_alt))


def headings(nb) -> list[int]:
    """The levels of the prose's headings, where myst-parser finds them (tools/myst.py)."""
    return [h.level for c in nb.cells if c.cell_type == "markdown" for h in myst.headings(c.source)]


DIRECTIVES = ("exercise", "solution", "figure", "warning", "note", "admonition", "important", "tip")


def directives(nb) -> list[str]:
    """The exercises, solutions, figures and admonitions of the prose, nested ones too, in order."""
    return [
        b.name
        for c in nb.cells
        if c.cell_type == "markdown"
        for b in myst.walk(c.source)
        if b.name in DIRECTIVES
    ]


@pytest.mark.parametrize("kind_name", sorted(by_name()), ids=lambda k: f"{k[0]}/{k[1]}")
def test_same_sections_exercises_and_figures_in_every_language(kind_name):
    """Every language has the English page's sections, exercises, figures and admonitions, in
    order; a translation recorded as behind may lack what its English page has since gained."""
    paths = by_name()[kind_name]
    ref = source(paths[reference_language()])
    for _lang, path in paths.items():
        if path in BEHIND:
            continue
        nb = source(path)
        assert headings(nb) == headings(ref), f"{rel(path)}: section structure differs from the reference"
        assert directives(nb) == directives(ref), f"{rel(path)}: exercises/figures/admonitions differ"


def test_every_language_has_the_same_pages():
    ref = reference_language()
    names = sorted(p.name for p in (ROOT / "chapters" / ref).glob("*.md"))
    for lang in languages():
        found = sorted(p.name for p in (ROOT / "chapters" / lang).glob("*.md"))
        assert found == names, f"chapters/{lang} has {found}, chapters/{ref} has {names}"
