"""Handouts (tools/teaching/handouts.py, `make handouts`): printed by headless Chromium, a deck's
PDF has one page per slide and each page holds the text of its slide; an exercise sheet's PDF
holds the sheet's text.

The text is compared word by word (the words of three letters or more, formulas and speaker notes
left out: the PDF draws formulas in the math font's own characters, and the notes are not printed),
so a page that lost a line, a slide printed on the wrong page or a blank page fails.

Printing takes minutes a language (en: 134 s on a loaded 2-core machine): `make test` checks the reference language's handouts
(the others are skipped, saying so); `make handouts-test` (BA_ALL_HANDOUTS=1) checks every language.
"""

from __future__ import annotations

import html
import re
import unicodedata

import pytest

from tools.project import languages

pypdf = pytest.importorskip("pypdf")

pytestmark = pytest.mark.slow  # printing: minutes, not for `make unit`

_SECTION = re.compile(r"<section\b[^>]*>(.*?)</section>", re.S)
_WORD = re.compile(r"[^\W\d_]{3,}")


def words(text: str) -> set[str]:
    text = unicodedata.normalize("NFKC", text)  # ligatures a PDF may hold (ﬁ) back to letters
    return {w.lower() for w in _WORD.findall(text)}


def visible_text(fragment: str) -> str:
    """The text of an HTML fragment as printed: no notes, formulas, scripts or styles."""
    fragment = re.sub(r'<aside class="notes">.*?</aside>', " ", fragment, flags=re.S)
    fragment = re.sub(r"<(math|script|style)\b.*?</\1>", " ", fragment, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def deck_sections(deck: str) -> list[str]:
    body = deck[deck.index('<div class="slides">') :]
    return [visible_text(s) for s in _SECTION.findall(body)]


@pytest.fixture
def handouts(printed_handouts):
    """(folder, PDFs written) of a language's handouts, printed once per run (tests/conftest.py:
    one language in `make test`, every language with BA_ALL_HANDOUTS=1): ``decks/`` holds the
    decks and sheets printed, ``pdf/`` the handouts."""

    def of(lang: str):
        root = printed_handouts(lang)
        return root, sorted((root / "pdf").rglob("*.pdf"))

    return of


@pytest.mark.parametrize("lang", languages())
def test_a_deck_handout_has_a_page_per_slide_holding_its_text(handouts, lang):
    root, written = handouts(lang)
    decks = sorted((root / "decks").glob("*.html"))
    assert decks, f"no deck written for {lang}"
    problems = []
    for deck in decks:
        pdf = root / "pdf" / "slides" / f"{deck.stem}.pdf"
        assert pdf in written and pdf.exists(), f"{lang}: no handout for {deck.name}"
        sections = deck_sections(deck.read_text(encoding="utf-8"))
        pages = pypdf.PdfReader(pdf).pages
        if len(pages) != len(sections):
            problems.append(f"{deck.stem}: {len(pages)} pages for {len(sections)} slides")
            continue
        for number, (section, page) in enumerate(zip(sections, pages), 1):
            missing = words(section) - words(page.extract_text())
            if missing:
                problems.append(f"{deck.stem} page {number}: missing {sorted(missing)[:8]}")
            box = page.mediabox
            if abs(float(box.width) / float(box.height) - 16 / 9) > 0.01:
                problems.append(f"{deck.stem} page {number}: {box.width}×{box.height}, not 16:9")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", languages())
def test_an_exercise_sheet_handout_holds_the_sheet(handouts, lang):
    from tools.teaching.handouts import exercise_sheets

    root, written = handouts(lang)
    sheets = exercise_sheets(lang)
    if not sheets:
        pytest.skip("tools/teaching/exercise_sheet.py is not there")
    problems = []
    for number in sheets:
        page = root / "decks" / "sheets" / f"lab{number}-exercises.html"
        pdf = root / "pdf" / f"lab{number}-exercises.pdf"
        assert pdf in written and pdf.exists(), f"{lang}: no handout for lab {number}'s sheet"
        printed = " ".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages)
        body = page.read_text(encoding="utf-8")
        missing = words(visible_text(body[body.index("<body>") :])) - words(printed)
        if missing:
            problems.append(f"lab {number}: missing {sorted(missing)[:8]}")
    assert not problems, f"{lang}:\n" + "\n".join(problems)
