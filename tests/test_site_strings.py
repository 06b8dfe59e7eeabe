"""No English interface string on the pages of the other languages: the words the theme and the
Sphinx extensions put around the prose (tooltips, labels, alt texts, placeholders) are in the
page's language on every page of it, es, pt and fi.

The English interface strings are read from the English site itself, so a string a theme or an
extension adds tomorrow is covered without listing it here: every value of the attributes a reader
or a screen reader meets (title, aria-label, alt, placeholder, data-tooltip) that occurs at least
three times on the English pages, not counting what the prose writes (citations' tooltips, figures' alt texts),
minus the names that are the same in every language.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from site_html import html_of, pages

from tools.project import languages

ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "data-tooltip")
# Names, the same in every language: the services and sites the buttons open, the book's title.
NAMES = {"Colab", "Binder", "GitHub", "JupyterHub", "Beyond Accuracy"}
OTHERS = [lang for lang in languages() if lang != "en"]


def interface_strings(soup) -> list[str]:
    """The values of ATTRIBUTES on a page, but the citations' tooltips and the figures' alt texts
    (the prose's own words)."""
    out = []
    for attr in ATTRIBUTES:
        for el in soup.find_all(attrs={attr: True}):
            if (attr == "alt" and el.find_parent("figure")) or el.find_parent(class_="bibtex-citation"):
                continue
            value = " ".join(str(el[attr]).split())
            if value and any(c.isalpha() for c in value):
                out.append(value)
    return out


@cache
def english_interface(site) -> set[str]:
    en = pages(site, "en")
    counts = Counter(value for page in en for value in interface_strings(html_of(page)))
    names = {
        a.get_text(strip=True)
        for a in html_of(en[0]).select(".ba-language-switcher a, .ba-language-switcher .ba-current")
    }
    return {value for value, n in counts.items() if n >= 3 and value not in NAMES | names}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_interface_string_on_other_language_pages(site, lang):
    english = english_interface(site)
    assert any(value.startswith("Link to this") for value in english) or len(english) >= 20, english
    found = {}
    for page in pages(site, lang) + [site / lang / "search.html", site / lang / "genindex.html"]:
        for value in interface_strings(html_of(page)):
            if value in english:
                found.setdefault(value, []).append(page.relative_to(site).as_posix())
    assert not found, "\n".join(f"{v!r} {len(p)} times, e.g. on {p[0]}" for v, p in found.items())
