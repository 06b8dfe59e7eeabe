"""Slides for class (tools/teaching/slides.py): a reveal.js deck per chapter and language, derived from the
chapter's source, the same slides in every language, no raw MyST, reveal.js served with the site
(no CDN), linked from each chapter page in the page's language."""

from __future__ import annotations

import html
import re
from collections import Counter
from functools import cache

import pytest

from beyond_accuracy import term
from tools.editions.derive import raw_myst
from tools.language.translations import status
from tools.project import ROOT, languages, site_url
from tools.teaching.slides import MARKER, REVEAL_FILES, chapters, deck_html, deck_slides, slides_of

STEMS = sorted(p.stem for p in chapters("en"))
# Chapters whose translation is recorded as behind its English page (translations.json): on main
# with a notice; their deck follows the translated page, which may lack what English has gained.
BEHIND = {s.path for s in status() if s.state == "behind"}


def behind(lang: str, stem: str) -> bool:
    return f"chapters/{lang}/{stem}.md" in BEHIND


def deck_text(deck: str) -> str:
    body = re.sub(r"<math.*?</math>", " ", deck, flags=re.S)
    body = re.sub(r"<(script|style).*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", body))


@cache
def chapter_slides(lang: str, stem: str) -> tuple:
    """A chapter's slides (tools/teaching/slides.py), derived once for the two tests that read them."""
    return tuple(slides_of(ROOT / "chapters" / lang / f"{stem}.ipynb"))


@pytest.mark.parametrize("stem", STEMS)
def test_every_language_has_the_same_slides(stem):
    """The same slides in every language, but in a translation recorded as behind its English page."""
    kinds = {
        lang: [s.kind for s in chapter_slides(lang, stem)] for lang in languages() if not behind(lang, stem)
    }
    reference = kinds["en"]
    assert Counter(reference)["predict"] >= 1 and "figure" in reference and "quiz" in reference
    assert reference[0] == "title" and "marked" in reference, "no key formula marked for slides"
    assert reference[-1] == "remember", "the Remember list is not the closing slide"
    for lang, found in kinds.items():
        assert len(found) == len(reference), f"{lang}: {len(found)} slides, en has {len(reference)}"
        assert found == reference, f"{lang}: the slides differ in structure from en"


@pytest.mark.parametrize("lang", languages())
def test_the_slide_markers_are_the_same_in_every_language(lang):
    for stem in STEMS:
        if behind(lang, stem):
            continue
        text = (ROOT / "chapters" / lang / f"{stem}.md").read_text(encoding="utf-8")
        english = (ROOT / "chapters" / "en" / f"{stem}.md").read_text(encoding="utf-8")
        assert text.count(f"\n{MARKER}\n") == english.count(f"\n{MARKER}\n") > 0
        marked = [s for s in chapter_slides(lang, stem) if s.kind == "marked"]
        assert len(marked) == text.count(f"\n{MARKER}\n"), f"{lang}/{stem}: a marker is followed by nothing"


@pytest.mark.parametrize("lang", languages())
def test_decks_are_on_the_site_linked_from_their_chapter_and_need_no_cdn(site, lang):
    slides = site / lang / "slides"
    for rel in REVEAL_FILES:
        assert (slides / "revealjs" / rel).exists(), f"reveal.js file {rel} is not served with the site"
    for src in chapters(lang):
        deck = (slides / f"{src.stem}.html").read_text(encoding="utf-8")
        assert deck == deck_html(src), (
            f"{lang}/slides/{src.stem}.html is not what tools/teaching/slides.py derives"
        )
        assert not raw_myst(deck_text(deck)), f"{lang}/{src.stem}: raw MyST {raw_myst(deck_text(deck))}"
        assert "$$" not in deck_text(deck) and not re.search(r"\$[^$\s][^$]*\$", deck_text(deck))
        assert deck.count("<section") == len(deck_slides(src))  # the fitted slides
        # What the deck loads (scripts, styles, images, icon) is served with the site.
        for ref in re.findall(r'(?:\bsrc|<link\b[^>]*\bhref)="([^"]+)"', deck):
            assert not ref.startswith(("http:", "https:", "//")), f"{lang}/{src.stem} loads {ref}"
            if not ref.startswith("data:"):
                assert (slides / ref).exists(), f"{lang}/{src.stem}: {ref} does not exist"
        # What it links to (its chapter on the title and closing slides, a lab, the glossary) are
        # pages of the published site, in full so a class can type them, and each is in the built site.
        links = {html.unescape(a) for a in re.findall(r'<a\b[^>]*\bhref="([^"]+)"', deck)}
        assert f"{site_url()}/{lang}/chapters/{lang}/{src.stem}.html" in links, f"{lang}/{src.stem}"
        for url in links:
            assert url.startswith(f"{site_url()}/{lang}/"), f"{lang}/{src.stem} links to {url}"
            path = url.removeprefix(f"{site_url()}/").split("#")[0]
            assert (site / path).exists(), f"{lang}/{src.stem} links to {url}, not in the built site"
        page = (site / lang / "chapters" / lang / f"{src.stem}.html").read_text(encoding="utf-8")
        link = re.search(rf'<a href="\.\./\.\./slides/{src.stem}\.html" lang="{lang}">([^<]+)</a>', page)
        assert link and term("slides_link", lang) in link.group(1), f"{lang}/{src.stem}: no slides link"
        assert MARKER not in page, "the book renders a slide marker"
