"""What a reader's browser fetches: every chapter and lab page of every language weighs at most
1,200 KiB (the page with its scripts, style sheets, fonts and images, uncompressed, empty cache) and
none loads a script that typesets math; the search index only where search runs.
tools/maintenance/weight.py measures the same (`make bench` prints the heaviest page)."""

from __future__ import annotations

import pytest

from tools.maintenance.weight import LIMIT_KIB, chapter_and_lab_pages, kib, math_scripts, short, weigh
from tools.project import languages


@pytest.mark.parametrize("lang", languages())
def test_every_chapter_and_lab_page_is_light_and_loads_no_math_script(browser, served_site, site_root, lang):
    pages = chapter_and_lab_pages(site_root, [lang])
    assert len(pages) == 10, pages
    problems = []
    for path in pages:
        page = weigh(browser, served_site + path, width=390)
        if page["bytes"] > LIMIT_KIB * 1024:
            largest = ", ".join(f"{short(r['url'])} {kib(r['size'])}" for r in page["resources"][:5])
            problems.append(f"{path}: {kib(page['bytes'])} > {LIMIT_KIB:,} KiB ({largest})")
        if math_scripts(page):
            problems.append(f"{path} loads {math_scripts(page)}")
        if page["requests"] < 5:
            problems.append(f"{path}: only {page['requests']} requests: did the page load?")
    assert not problems, "\n".join(problems)


def test_the_search_index_is_loaded_only_where_search_runs(browser, served_site):
    chapter = weigh(browser, served_site + "en/chapters/en/01-confusion-matrix.html")
    names = [short(r["url"]) for r in chapter["resources"]]
    assert not [n for n in names if n.endswith(("searchindex.js", "searchtools.js", "language_data.js"))], (
        names
    )
    search = weigh(browser, served_site + "en/search.html?q=calibration")
    names = [short(r["url"]) for r in search["resources"]]
    assert "en/searchindex.js" in names, names
    # and search still finds the page (tests/test_site.py searches in every language)
    assert (
        browser.execute_script("return document.querySelectorAll('#search-results ul.search li').length") > 0
    )
