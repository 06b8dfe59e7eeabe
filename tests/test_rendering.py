"""Rendering defects that a reader sees on the built site, and that must not come back.

Each test reads the built HTML of every language (the session fixture ``site`` of conftest.py) or
the sources, and names the page and the offending text when it fails.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from site_html import html_of, pages

from tools.project import languages

LANGS = languages()
LETTER = r"[^\W\d_]"


def _split(path: Path) -> tuple[str, str]:
    """(the page's <article>…</article>, the page without it), cut from the HTML text: each part
    is parsed on its own (a parsed page is not copied; copying one breaks find_all)."""
    text = path.read_text(encoding="utf-8")
    start, end = text.find("<article"), text.rfind("</article>")
    if start < 0 or end < start:
        return "", text
    end += len("</article>")
    return text[start:end], text[:start] + text[end:]


@cache
def article(path: Path) -> BeautifulSoup:
    """The page's article (what the reader reads) without code, scripts and styles; parsed once
    per page and worker (the tests only read it)."""
    markup, rest = _split(path)
    soup = BeautifulSoup(markup or rest, "html.parser")
    soup = soup if markup else (soup.body or soup)  # a page without an article: its body
    for tag in soup.find_all(["pre", "code", "script", "style", "math"]):
        tag.decompose()
    for tag in soup.select(".math, .MathJax, .cell_output, .output"):
        tag.decompose()
    return soup


@cache
def blocks(path: Path) -> tuple[str, ...]:
    """The text of each block of prose (paragraphs, list items, definitions, table cells, headings)."""
    soup = article(path)
    tags = soup.find_all(["p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "h4", "caption"])
    return tuple(re.sub(r"\s+", " ", t.get_text()) for t in tags)


def where(path: Path, site: Path) -> str:
    return str(path.relative_to(site))


# 1. Apostrophes ------------------------------------------------------------------------------


def misquoted_apostrophes(text: str) -> list[str]:
    """Apostrophes typeset as a double or opening quote: a ” or “ or ‘ between letters (L”area), or a
    ” after a letter that closes no “ in the same block (un po” di)."""
    bad = [m.group(0) for m in re.finditer(rf"{LETTER}[”“‘]{LETTER}", text)]
    depth = 0
    for m in re.finditer(r"[“”]", text):
        if m.group(0) == "“":
            depth += 1
        elif depth:
            depth -= 1
        elif m.start() and re.match(LETTER, text[m.start() - 1]):
            bad.append(text[max(0, m.start() - 12) : m.end() + 12])
    return bad


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "fi"])
def test_apostrophes_are_apostrophes(site, lang):
    # Finnish quotes are ”…” (both marks closing), so an unopened ” after a letter is right there;
    # the between-letters check still applies to Finnish below.
    bad = [
        (where(page, site), hit)
        for page in pages(site, lang)
        for text in blocks(page)
        for hit in misquoted_apostrophes(text)
    ]
    assert not bad, f"apostrophes typeset as quotation marks: {bad[:10]} ({len(bad)} in all)"


def test_finnish_apostrophes_are_apostrophes(site):
    bad = [
        (where(page, site), m.group(0))
        for page in pages(site, "fi")
        for text in blocks(page)
        for m in re.finditer(rf"{LETTER}[“‘]{LETTER}", text)
    ]
    assert not bad, f"apostrophes typeset as quotation marks: {bad[:10]}"


def test_italian_elisions_render_as_apostrophes(site):
    """The elisions of the Italian sources reach the page with the typographic apostrophe ’."""
    text = " ".join(t for page in pages(site, "it") for t in blocks(page))
    for word in ("un po’", "L’", "l’", "dell’", "c’è"):
        assert word in text, f"{word!r} is not on the Italian pages"
    assert "po”" not in text and "L”" not in text


# 2. Raw MyST ---------------------------------------------------------------------------------

RAW_MYST = re.compile(r":::|```|\{(glue|doc|cite|ref|numref|term|eq|math|download)[:\w]*\}|\{[a-z][\w:-]*\}`")


@pytest.mark.parametrize("lang", LANGS)
def test_no_raw_myst_in_rendered_text(site, lang):
    bad = []
    for page in pages(site, lang):
        text = article(page).get_text()
        for m in RAW_MYST.finditer(text):
            bad.append((where(page, site), text[max(0, m.start() - 50) : m.end() + 30].replace("\n", " ")))
    assert not bad, f"MyST markup printed as text instead of rendered: {bad[:10]} ({len(bad)} in all)"


def _markdown_sources():
    from tools.project import ROOT

    for kind in ("chapters", "labs"):
        for lang in LANGS:
            yield from sorted((ROOT / kind / lang).glob("*.md"))


def unclosed_fences(text: str) -> list[str]:
    """Colon fences (``:::{admonition}`` … ``:::``) whose closing line is missing or sits at the end
    of a line of prose, where MyST prints it and lets the box swallow the next paragraph."""
    bad, stack = [], []
    in_code = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        opening = re.match(r"^(:{3,})\{", line)
        if opening:
            stack.append((len(opening.group(1)), n))
        elif re.match(r"^:{3,}\s*$", line):
            if not stack:
                bad.append(f"line {n}: a ':::' closes nothing")
            else:
                stack.pop()
        elif re.search(r"\S\s*:::\s*$", line):
            bad.append(f"line {n}: ':::' at the end of prose: {line.strip()[-50:]}")
    bad += [f"line {n}: ':::' fence never closed" for _, n in stack]
    return bad


@pytest.mark.parametrize(
    "path", list(_markdown_sources()), ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}"
)
def test_colon_fences_are_closed_on_their_own_line(path):
    bad = unclosed_fences(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.name}: {bad}"


# 3 and 4. Words of the machinery: sphinx-exercise, numbered figures, the theme ------------------

OTHER_LANGS = [lang for lang in LANGS if lang != "en"]


def _messages(lang: str) -> dict[str, str]:
    from tools.book.sphinx.localisation import messages

    return messages(lang)


def test_every_message_is_translated_into_every_language():
    from beyond_accuracy.catalogue import tables
    from tools.book.sphinx.localisation import THEME

    rows = list(tables()[THEME].values())  # the catalogue's loader refuses an empty text
    for lang in OTHER_LANGS:
        assert set(_messages(lang)) == {row["en"] for row in rows}, lang
    for row in rows:
        for lang in OTHER_LANGS:
            assert row["en"].count("%s") == row[lang].count("%s"), (row["en"], lang)


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_exercises_solutions_and_figures_are_labelled_in_the_language(site, lang):
    words = _messages(lang)
    exercise, solution_to = words["Exercise"], words["Solution to"]
    figure = words["Fig. %s"].replace("%s", "").strip()
    seen = {"exercise": 0, "solution": 0, "figure": 0}
    for page in pages(site, lang):
        soup = html_of(page)
        for title in soup.select("div.exercise > p.admonition-title"):
            seen["exercise"] += 1
            assert title.get_text().strip().startswith(exercise), (where(page, site), title.get_text())
        for title in soup.select("div.solution > p.admonition-title"):
            seen["solution"] += 1
            text = re.sub(r"\s+", " ", title.get_text()).strip()
            assert text.startswith(f"{solution_to} {exercise}"), (where(page, site), text)
        for number in soup.select("figcaption .caption-number"):
            seen["figure"] += 1
            assert number.get_text().strip().startswith(figure), (where(page, site), number.get_text())
        text = article(page).get_text()
        for english in ("Solution to", "Exercise ", "Fig. "):
            assert english not in text, (where(page, site), english)
    assert all(seen.values()), f"no exercise, solution or numbered figure found on the {lang} pages: {seen}"


@cache
def chrome(path: Path) -> frozenset[str]:
    """What the theme shows or says around the article: its texts, tooltips and labels."""
    soup = BeautifulSoup(_split(path)[1], "html.parser")
    for tag in soup.find_all(["script", "style"]):
        tag.decompose()
    from bs4 import Comment

    found = {s.strip() for s in soup.find_all(string=True) if s.strip() and not isinstance(s, Comment)}
    for tag in soup.find_all(True):
        for attribute in ("title", "aria-label", "data-bs-title", "placeholder"):
            if tag.get(attribute):
                found.add(tag[attribute].strip())
    return frozenset(found)


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_theme_speaks_the_language(site, lang):
    english = {msgid for msgid, text in _messages(lang).items() if text != msgid and "%s" not in msgid}
    english.discard("Launch on")
    bad = set()
    for page in pages(site, lang):
        for text in chrome(page):
            if text in english or text.startswith("Launch on "):
                bad.add((where(page, site), text))
    assert not bad, f"theme strings in English on the {lang} pages: {sorted(bad)[:15]} ({len(bad)} in all)"


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_the_toggle_buttons_are_labelled_in_the_language(site, lang):
    """sphinx-togglebutton's script (the chevron that opens a solution) and myst-nb's folded cells
    hard-code the aria-label "Toggle hidden content", which a screen reader reads out: the script's
    is translated, the folded cells' is dropped (their visible text names them)."""
    english = 'aria-label="Toggle hidden content"'
    label = _messages(lang)["Toggle hidden content"]
    assert label != "Toggle hidden content"
    script = (site / lang / "_static" / "togglebutton.js").read_text(encoding="utf-8")
    assert english not in script and f'aria-label="{label}"' in script
    assert not [where(p, site) for p in pages(site, lang) if english in p.read_text(encoding="utf-8")]


# 5. Citations --------------------------------------------------------------------------------

CITED_PAIR = r"({L}[\w'’-]+) ({word}) ({L}[\w'’-]+)(?:, | \[)(\d{{4}})"


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_citations_join_authors_in_the_language(site, lang):
    """'Chicco and Jurman [2020]' reads 'Chicco e Jurman' (it, pt), 'y' (es), 'ja' (fi)."""
    word = _messages(lang)["and"]
    english, local = [], 0
    for page in pages(site, lang):
        for citation in article(page).select(".bibtex-citation, a[href*='references.html#']"):
            text = re.sub(r"\s+", " ", citation.get_text())
            english += [(where(page, site), text) for _ in re.finditer(r"\w and \w", text)]
        text = re.sub(r"\s+", " ", article(page).get_text())
        english += [
            (where(page, site), m.group(0))
            for m in re.finditer(CITED_PAIR.format(L=r"[A-Z]", word="and"), text)
        ]
        local += len(re.findall(CITED_PAIR.format(L=r"[A-Z]", word=re.escape(word)), text))
    assert not english, f"English 'and' in {lang} citations: {english[:10]} ({len(english)} in all)"
    assert local, f"no two-author citation joined by {word!r} on the {lang} pages"


# 6. Glossary ---------------------------------------------------------------------------------


def _headwords(site: Path, lang: str) -> list[str]:
    soup = html_of(site / lang / "chapters" / lang / "glossary.html")
    return [
        re.sub(r"\s+", " ", dt.get_text()).strip().rstrip("¶#").strip()
        for dt in soup.select("dl.glossary dt")
    ]


def _unaccented(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


@pytest.mark.parametrize("lang", ["en", "it", "es", "pt"])
def test_glossary_is_in_alphabetical_order(site, lang):
    words = _headwords(site, lang)
    assert len(words) > 20
    keys = [unicodedata_nfd(w).replace("n\u0303", "n{") if lang == "es" else _unaccented(w) for w in words]
    out_of_order = [(a, b) for a, b, ka, kb in zip(words, words[1:], keys, keys[1:]) if ka > kb]
    assert not out_of_order, f"{lang} glossary out of alphabetical order: {out_of_order}"


def unicodedata_nfd(word: str) -> str:
    """Spanish key: accents dropped except the tilde of ñ (a letter after n)."""
    import unicodedata

    text = unicodedata.normalize("NFD", word.casefold())
    return "".join(
        c
        for i, c in enumerate(text)
        if not unicodedata.combining(c) or (c == "\u0303" and text[i - 1] == "n")
    )


def test_glossary_sorts_accented_words_with_their_letter():
    from tools.book.glossary import collation_key

    es = sorted(
        ["puntuación", "pérdida logarítmica", "área bajo la curva", "bootstrap", "ñandú", "nulo", "oro"],
        key=lambda w: collation_key(w, "es"),
    )
    assert es == [
        "área bajo la curva",
        "bootstrap",
        "nulo",
        "ñandú",
        "oro",
        "pérdida logarítmica",
        "puntuación",
    ]
    fi = sorted(["ääni", "zeta", "öljy", "aamu", "åland"], key=lambda w: collation_key(w, "fi"))
    assert fi == ["aamu", "zeta", "åland", "ääni", "öljy"]


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_code_is_code(site, lang):
    soup = html_of(site / lang / "chapters" / lang / "glossary.html")
    codes = {c.get_text() for c in soup.select("dl.glossary dd code")}
    for expected in ('class_weight="balanced"', 'DummyRegressor(strategy="mean")', "cross_val_predict"):
        assert expected in codes, f"{expected} is not rendered as code in the {lang} glossary"
    text = article(site / lang / "chapters" / lang / "glossary.html").get_text()
    assert not re.search(r"=[”“«»]", text), f"smart quotes in code of the {lang} glossary"


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_search_page_says_how_many_pages_it_found(site, lang):
    import json

    text = (site / lang / "_static" / "translations.js").read_text(encoding="utf-8")
    catalogue = json.loads(text[text.index("{") : text.rindex("}") + 1])
    found = catalogue["messages"].get(
        "Search finished, found ${resultCount} page(s) matching the search query."
    )
    assert found and "${resultCount}" in found, f"the {lang} search page shows no 'found N pages' line"
