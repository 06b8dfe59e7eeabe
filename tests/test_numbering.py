"""Figures and exercises are numbered per chapter: 3.1, 3.2 ... in chapter 3, in every language, on
the site (captions, exercise titles, {numref} links), in the derived notebooks and on the slides.

The numbering is tools/book/sphinx/localisation.py (``on_env_get_updated``, ``item_number``); the
derived editions and the slides use the same ``item_number``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_html import html_of

from tools.book.sphinx.localisation import chapter_number, item_number
from tools.project import ROOT, languages

LANGS = languages()


def test_item_number_prefixes_the_chapter_only_on_chapters():
    assert chapter_number("chapters/it/03-calibration") == 3
    assert item_number("chapters/it/03-calibration", 2) == "3.2"
    assert item_number("chapters/fi/05-error-inspection", 11) == "5.11"
    assert chapter_number("labs/en/01-screening-lab") is None
    assert item_number("labs/en/01-screening-lab", 2) == "2"
    assert item_number("chapters/en/how-to-use", 1) == "1"


def _chapters(site: Path, lang: str) -> list[Path]:
    pages = sorted((site / lang / "chapters" / lang).glob("0*.html"))
    assert len(pages) == len(list((ROOT / "chapters" / lang).glob("0*.md"))), "a chapter page is missing"
    return pages


@pytest.mark.parametrize("lang", LANGS)
def test_figures_and_exercises_are_numbered_per_chapter(site, lang):
    """Each chapter's figures read N.1, N.2 ... in their order, and so do its exercises."""
    counted = {"figure": 0, "exercise": 0}
    for page in _chapters(site, lang):
        chapter = int(page.name[:2])
        soup = html_of(page)
        for kind, selector in (
            ("figure", "figure figcaption span.caption-number"),
            ("exercise", "div.exercise p.admonition-title span.caption-number"),
        ):
            numbers = [
                re.search(r"[\d.]+(?=\s*$)", span.get_text().strip()) for span in soup.select(selector)
            ]
            found = [m.group(0).rstrip(".") if m else span for m, span in zip(numbers, soup.select(selector))]
            expected = [f"{chapter}.{i}" for i in range(1, len(found) + 1)]
            assert found == expected, f"{lang}/{page.name}: {kind} numbers {found}, expected {expected}"
            counted[kind] += len(found)
    assert counted["figure"] >= 5 and counted["exercise"] >= 5, f"{lang}: too few numbered items {counted}"


@pytest.mark.parametrize("lang", LANGS)
def test_derived_notebooks_number_exercises_and_references_per_chapter(lang):
    """The student notebooks and answer keys (tools/editions/derive.py) say "Exercise 3.1" where
    the site does, and a {numref} to a figure of chapter 3 reads 3.k."""
    from beyond_accuracy.language import term
    from tools.editions.derive import KEY, Converter, Page, labels

    page = Page("chapters", lang, "03-calibration")
    text = "````{exercise} A\n:label: ex-a\n\nOne.\n````\n\n````{exercise} B\n:label: ex-b\n\nTwo.\n````\n"
    out = Converter(page, KEY, {}).convert(text)
    word = term("nb_exercise", lang)
    assert f"{word} 3.1 (A)" in out and f"{word} 3.2 (B)" in out, out
    figures = {k: v for k, v in labels(lang).items() if v.kind == "figure" and "/03-" in v.docname}
    assert figures and all(re.fullmatch(r"3\.\d+", v.number) for v in figures.values()), figures
    name = next(iter(figures))
    linked = Converter(page, KEY, {}).convert(f"See {{numref}}`{name}`.")
    assert f" {figures[name].number}]" in linked, linked
