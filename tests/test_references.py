"""The references page, the citations and the plots' alt text in the page's language.

The reference list is labelled the way the chapters cite (author-year, never pybtex's [Bri50]), its
words and the citations' tooltips come from the catalogue's theme.csv (src/beyond_accuracy/data/
strings/), and every code-output plot carries a description of the figure, not a file path, as its
alt text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_html import html_of

from tools.project import languages

LANGS = languages()
OTHERS = [lang for lang in LANGS if lang != "en"]


def _messages(lang: str) -> dict[str, str]:
    from tools.book.sphinx.localisation import messages

    return messages(lang)


def _word(lang: str, msgid: str) -> str:
    """The translation of a message, or the message itself (without its "bibliography:") in English."""
    return _messages(lang).get(msgid, msgid.removeprefix("bibliography:"))


def reference_list(site: Path, lang: str) -> dict[str, tuple[str, str]]:
    """{anchor id: (label, entry text)} of the language's references page."""
    soup = html_of(site / lang / "chapters" / lang / "references.html")
    entries = {}
    for div in soup.select("div.citation"):
        label = div.select_one("span.label").get_text().strip("[] \n")
        entries[div["id"]] = (label, re.sub(r"\s+", " ", div.find("p").get_text()))
    assert entries, f"{lang}: no entries on the references page"
    return entries


def citations(site: Path, lang: str):
    """(page, anchor id, link text, tooltip) of every in-text citation of a language."""
    for page in sorted((site / lang).rglob("*.html")):
        if "_static" in page.parts or "slides" in page.parts or page.name == "references.html":
            continue
        for a in html_of(page).select('a[href*="references.html#"]'):
            yield page.name, a["href"].split("#", 1)[1], a.get_text(), a.get("title", "")


def entry(entries, start: str) -> str:
    found = [text for _, text in entries.values() if text.startswith(start)]
    assert found, f"no reference entry starting with {start!r}"
    return found[0]


@pytest.mark.parametrize("lang", LANGS)
def test_reference_labels_are_author_year_like_the_citations(site, lang):
    entries = reference_list(site, lang)
    bad = [label for label, _ in entries.values() if not re.fullmatch(r".+, \d{4}[a-z]?", label)]
    assert not bad, f"{lang}: reference labels that are not 'Author, year' (pybtex's alpha labels?): {bad}"
    labels = [label for label, _ in entries.values()]
    assert len(labels) == len(set(labels)), f"{lang}: two reference entries share a label"
    seen = 0
    for page, anchor, text, _ in citations(site, lang):
        if anchor not in entries:
            continue
        label = entries[anchor][0]
        text = re.sub(r"\s+", " ", text).strip()
        # [Chicco e Jurman, 2020] (cite:p) or Chicco e Jurman [2020] (cite:t), whose link is the year.
        assert text in (label, label.rsplit(", ", 1)[1]), (
            f"{lang}/{page}: the citation {text!r} does not agree with its reference's label {label!r}"
        )
        seen += 1
    assert seen > 20, f"{lang}: only {seen} citations link to the references page"


@pytest.mark.parametrize("lang", LANGS)
def test_reference_list_words_in_the_page_language(site, lang):
    entries = reference_list(site, lang)
    word_and = _word(lang, "and")
    brodersen = entry(entries, "Kay H. Brodersen")
    assert f"Klaas E. Stephan{',' if lang == 'en' else ''} {word_and} Joachim" in brodersen, brodersen
    assert f"Chicco {word_and} Giuseppe" in entry(entries, "Davide Chicco")
    assert f" {_word(lang, 'bibliography:In')} " in brodersen, brodersen
    platt = entry(entries, "John C. Platt")
    assert f"{_word(lang, 'bibliography:pages')} 61–74" in platt, platt
    book = entry(entries, "C. J. van Rijsbergen")
    edition = "2nd edition" if lang == "en" else _word(lang, "bibliography:{n} edition").replace("{n}", "2")
    assert edition in book, book
    assert _word(lang, "bibliography:Chapter {n}").replace("{n}", "7") in book, book


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_words_of_the_bibliography_style(site, lang):
    """Neither the reference list nor any citation tooltip says "In", "pages", "edition", "Chapter"
    in English (the "and" between authors: the test above)."""
    # Italian says "In" too.
    english_in = r"\. In |" if _word(lang, "bibliography:In") != "In" else ""
    english = re.compile(
        english_in + r"\bpages \d|\d edition\b|\bChapter \d|\bsection \d|\b(?:editors?|visited on)\b"
    )
    texts = [("references", text) for _, text in reference_list(site, lang).values()]
    texts += [(page, tip) for page, _, _, tip in citations(site, lang) if tip]
    bad = [(page, m.group(0), text[:90]) for page, text in texts for m in english.finditer(text)]
    assert not bad, f"{lang}: English words of the bibliography style: {bad[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_bibliography_style_formats_every_entry(lang):
    """Without a build: the style of every language formats all of references.bib, with
    author-year labels ("and others" becomes et al.) that are unique."""
    import sys

    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    from tools.project import ROOT

    sys.path.insert(0, str(ROOT / "tools" / "book" / "sphinx"))
    from localisation import bibliography_style, messages

    style = find_plugin("pybtex.style.formatting", bibliography_style(lang, messages(lang)))()
    bib = parse_file(str(ROOT / "references.bib"))
    formatted = {e.key: e for e in style.format_entries(list(bib.entries.values()))}
    assert len(formatted) == len(bib.entries)
    labels = [e.label for e in formatted.values()]
    assert len(set(labels)) == len(labels), sorted(labels)
    assert formatted["pedregosa2011"].label == "Pedregosa et al., 2011"
    assert "Pedregosa et al." in formatted["pedregosa2011"].text.render_as("text")
    assert "others" not in " ".join(e.text.render_as("text") for e in formatted.values())
    assert formatted["vanrijsbergen1979"].label == "van Rijsbergen, 1979"
    assert formatted["brier1950"].label == "Brier, 1950"


@pytest.mark.parametrize("lang", LANGS)
def test_code_output_plots_have_alt_text_in_the_language(site, lang):
    """The plots of code cells say what they show, in the page's language, never a file path nor
    the generic "Plot drawn by the code above: <section>": the figure's own description
    (beyond_accuracy.plots.describe_figure, stored by the notebook as the figure's plain text),
    which opens with the language's word for a chart and names its axes or series in that language."""
    from beyond_accuracy.language import term

    generic = _word(lang, "Plot drawn by the code above: %s").split("%s")[0]
    openings = (term("plot_alt_chart", lang) + ":", term("plot_alt_panels", lang).split("{n}")[0])
    own_words = [
        term(key, lang).split("{")[0] for key in ("plot_alt_x_axis", "plot_alt_y_axis", "plot_alt_series")
    ]
    own_words.append(term("plot_alt_more", lang).split("{n}")[-1].strip())
    plots, bad = 0, []
    for page in sorted((site / lang).rglob("*.html")):
        if "_static" in page.parts or "slides" in page.parts:
            continue
        for img in html_of(page).find_all("img"):
            alt = img.get("alt", "")
            if img.find_parent(class_="btn__icon-container") is not None and alt == "":
                continue  # a launch button's logo: decorative, the button's own text names the service
            if (
                not alt
                or "_images/" in alt
                or "../" in alt
                or re.search(r"\.(png|jpe?g|svg|gif)$", alt, re.I)
            ):
                bad.append((page.name, alt))
        for img in html_of(page).select(".cell_output img"):
            plots += 1
            alt = img.get("alt", "")
            if (
                alt.startswith(generic)
                or not alt.startswith(openings)
                or not any(word in alt for word in own_words)
            ):
                bad.append((page.name, alt))
    assert plots >= 20, f"{lang}: only {plots} code-output plots found"
    assert not bad, (
        f"{lang}: images whose alt text is a file path, missing or generic: {bad[:5]} ({len(bad)} in all)"
    )
