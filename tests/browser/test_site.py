"""The reader's site in headless Chromium: every page on a phone, the language switcher, search, the
sidebar toggles, axe-core and the console.

One browser per worker, reused; every page is loaded once, at a phone's width, for what is checked
on every page, and one page of each type for the rest. tests/browser/audit.py prints
the same measurements without asserting them.
"""

from __future__ import annotations

import pytest
from pages import (
    PAGE_TYPES,
    axe_violations,
    console_errors,
    horizontal_overflow,
    set_colour_mode,
    site_pages,
    wait_for,
    widgets_on_screen,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tools.project import languages

LANGS = languages()
# A word each language's search finds (the index stems it): the page's own word for precision.
SEARCH_TERMS = {
    "en": "precision",
    "it": "precisione",
    "es": "precisión",
    "pt": "precisão",
    "fi": "täsmällisyys",
}
# What myst-nb's ipywidgets embed loads from a CDN; no page may (the labs' explorers are kernel-free).
CDN_WIDGET_URLS = ("cdnjs.cloudflare.com/ajax/libs/require.js", "cdn.jsdelivr.net/npm/@jupyter-widgets/")


def _console_by_cause(browser) -> tuple[list[str], list[str]]:
    """(errors, errors of the ipywidgets CDN embed) on the current page."""
    errors = console_errors(browser)
    widget = [e for e in errors if any(url in e for url in CDN_WIDGET_URLS)]
    return [e for e in errors if e not in widget], widget


_SWITCHER = """
const nav = document.querySelector('.ba-language-switcher');
if (!nav) return null;
const r = nav.getBoundingClientRect();
const covered = [...nav.querySelectorAll('a, .ba-current')].filter(a => {
  const b = a.getBoundingClientRect();
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return !(hit && nav.contains(hit));
}).map(a => a.textContent.trim());
const overlapping = [...document.querySelectorAll(
    '.bd-article h1, .bd-article > section > p, .bd-article > section > section > p')]
  .filter(el => { const b = el.getBoundingClientRect();
    return b.bottom > r.top && b.top < r.bottom && b.right > r.left && b.left < r.right; })
  .map(el => el.tagName + ' ' + el.textContent.trim().slice(0, 30));
return {
  links: [...nav.querySelectorAll('a.ba-language')].map(a => [a.getAttribute('hreflang'), a.href]),
  current: nav.querySelector('.ba-current') && nav.querySelector('.ba-current').getAttribute('lang'),
  covered, overlapping,
  visible: r.width > 0 && r.bottom > 0 && r.right <= window.innerWidth + 1,
};
"""


def _page_for(path: str, lang: str, other: str) -> str:
    """lang/chapters/lang/x.html -> other/chapters/other/x.html"""
    return "/".join(other if part == lang else part for part in path.split("/"))


def _check_switcher(browser, served_site, path, lang) -> list[str]:
    info = browser.execute_script(_SWITCHER)
    if info is None:
        return [f"{path}: no language switcher"]
    problems = []
    expected = {other: served_site + _page_for(path, lang, other) for other in LANGS if other != lang}
    if info["current"] != lang or dict(info["links"]) != expected:
        problems.append(
            f"{path}: switcher links {info['links']} (current {info['current']}), expected {expected}"
        )
    if not info["visible"] or info["covered"] or info["overlapping"]:
        problems.append(f"{path}: switcher covered by {info['covered']} / overlapping {info['overlapping']}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_on_a_phone(open_page, served_site, site_root, lang):
    """Every page, loaded once at 390 px: it is no wider than the screen; its switcher is on screen,
    covers nothing, and links to the same page in every other language, and on scrolling it covers
    no text; each explorer and quiz renders in the page's language, fits the screen and offers
    controls a finger can hit (pages.widgets_on_screen); and the page logs no error (a failed request, a script error), in particular none of
    myst-nb's ipywidgets embed, which would load from a CDN (the explorers need no network)."""
    pages = site_pages(site_root, lang)
    assert len(pages) >= 12, pages
    problems = []
    for path in pages:
        browser = open_page(path, width=390)
        overflow = horizontal_overflow(browser)
        if overflow["scroll"] > overflow["width"]:
            problems.append(f"{path}: {overflow['scroll']} px wide: {overflow['offenders'][:3]}")
        problems += _check_switcher(browser, served_site, path, lang)
        problems += [f"{path}: {problem}" for problem in widgets_on_screen(browser)]
        browser.execute_script("window.scrollTo(0, 1200)")
        covered = browser.execute_script(
            "const n = document.querySelector('.ba-language-switcher').getBoundingClientRect();"
            "return n.bottom > 0 && getComputedStyle(document.querySelector('.bd-header-article')).position"
            " !== 'static' ? 'sticky on a phone' : '';"
        )
        if covered:
            problems.append(f"{path}: the header stays over the text at 390 px ({covered})")
        errors, widget = _console_by_cause(browser)
        if widget:
            problems.append(f"{path}: needs the network for its widgets: {widget}")
        if errors:
            problems.append(f"{path}: logs {errors}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_switcher_leads_to_the_same_page(open_page, served_site, lang):
    others = [x for x in LANGS if x != lang]
    path = f"{lang}/" + PAGE_TYPES["chapter"].format(lang=lang)
    for width in (390, 1366):
        target = others[(LANGS.index(lang) + (width == 390)) % len(others)]
        browser = open_page(path, width=width)
        browser.find_element(By.CSS_SELECTOR, f'.ba-language-switcher a[hreflang="{target}"]').click()
        wait_for(browser, f"return document.documentElement.lang.startsWith('{target}')")
        assert browser.current_url == served_site + _page_for(path, lang, target)
        assert browser.execute_script("return document.documentElement.lang").startswith(target)


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_pages_in_the_page_language(open_page, served_site, lang):
    browser = open_page(f"{lang}/search.html")
    box = next(b for b in browser.find_elements(By.CSS_SELECTOR, 'input[name="q"]') if b.is_displayed())
    box.clear()
    box.send_keys(SEARCH_TERMS[lang], Keys.ENTER)
    found = wait_for(
        browser,
        "const r = document.querySelectorAll('#search-results ul.search li a');"
        "return r.length ? [...r].map(a => a.href) : null;",
        timeout=15,
    )
    assert found, f"no result for {SEARCH_TERMS[lang]!r} on {lang}/search.html"
    assert all(url.startswith(served_site + f"{lang}/") for url in found), found
    assert any(f"/chapters/{lang}/" in url for url in found), found


_VISIBLE_LINKS = """
const root = document.querySelector(arguments[0]);
if (!root) return 0;
return [...root.querySelectorAll('a')].filter(a => { const r = a.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.left >= 0 && r.left < window.innerWidth; }).length;
"""

_TOGGLE = """
const b = [...document.querySelectorAll(arguments[0])].find(x => x.getBoundingClientRect().width > 0);
if (!b) return null;
const r = b.getBoundingClientRect();
return {onScreen: r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth,
        size: [r.width, r.height]};
"""


def _click_visible(browser, selector):
    for button in browser.find_elements(By.CSS_SELECTOR, selector):
        if button.is_displayed():
            button.click()
            return
    raise AssertionError(f"no visible {selector}")


@pytest.mark.parametrize("width", [390, 768])
@pytest.mark.parametrize("lang", ["en", "fi"])
def test_sidebars_open_on_narrow_screens(open_page, lang, width):
    browser = open_page(f"{lang}/" + PAGE_TYPES["chapter"].format(lang=lang), width=width)
    for toggle, dialog in (
        (".primary-toggle", "#pst-primary-sidebar-modal"),
        (".secondary-toggle", "#pst-secondary-sidebar-modal"),
    ):
        state = browser.execute_script(_TOGGLE, toggle)
        assert state and state["onScreen"], f"{toggle} at {width} px: {state}"
        if width < 500:
            assert min(state["size"]) >= 44, f"{toggle} is {state['size']} px, a touch target needs 44"
        _click_visible(browser, toggle)
        assert wait_for(browser, f"return document.querySelector('{dialog}').open"), f"{dialog} did not open"
        assert browser.execute_script(_VISIBLE_LINKS, dialog) >= 5, f"{dialog} shows no links"
        browser.find_element(By.CSS_SELECTOR, dialog).send_keys(Keys.ESCAPE)
        assert wait_for(browser, f"return !document.querySelector('{dialog}').open"), (
            f"{dialog} did not close"
        )


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_sidebars_on_a_wide_screen(open_page, lang):
    """At 1366 px both sidebars are shown; the toggle folds the table of contents away and back."""
    browser = open_page(f"{lang}/" + PAGE_TYPES["chapter"].format(lang=lang), width=1366)
    assert console_errors(browser) == []  # at a desktop's width too (every page: at a phone's)
    assert browser.execute_script(_VISIBLE_LINKS, "#pst-secondary-sidebar") >= 5
    assert browser.execute_script(_VISIBLE_LINKS, "#pst-primary-sidebar") >= 5
    hidden = "return getComputedStyle(document.querySelector('#pst-primary-sidebar')).visibility === 'hidden'"
    _click_visible(browser, ".bd-header-article .primary-toggle")
    assert wait_for(browser, hidden), "the table of contents did not fold away"
    _click_visible(browser, ".bd-header-article .primary-toggle")
    assert wait_for(browser, "return !(" + hidden[7:] + ")"), "the table of contents did not come back"


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_in_page_links_land_below_the_sticky_header(open_page, lang):
    browser = open_page(f"{lang}/" + PAGE_TYPES["chapter"].format(lang=lang), width=1366)
    links = browser.find_elements(By.CSS_SELECTOR, "#pst-secondary-sidebar a.nav-link")
    assert len(links) >= 5
    links[4].click()
    target = links[4].get_attribute("href").split("#", 1)[1]
    wait_for(browser, "return window.scrollY > 0")
    heading_top, header_bottom = browser.execute_script(
        "const h = document.getElementById(arguments[0]).querySelector('h2, h3') || document.getElementById(arguments[0]);"
        "return [h.getBoundingClientRect().top, document.querySelector('.bd-header-article').getBoundingClientRect().bottom];",
        target,
    )
    assert heading_top >= header_bottom - 1, (heading_top, header_bottom)


NAMED_RULES = {
    "empty-table-header",
    "duplicate-id",
    "duplicate-id-active",
    "duplicate-id-aria",
    "label-content-name-mismatch",
}


def _type_path(kind: str, lang: str) -> str:
    path = f"{lang}/" + PAGE_TYPES[kind].format(lang=lang)
    return path + ("?q=" + SEARCH_TERMS[lang] if kind == "search" else "")


# Colour contrast is the theme's stylesheet's and the explorers' (the same in every language) and
# half of axe-core's time on a chapter page: checked on every page type in one language.
CONTRAST_RULES = ("color-contrast",)
CONTRAST_LANG = "en"


# The pages whose markup each language writes (its landing page, chapters, labs) in every language;
# the pages generated from the same template and data for every language (glossary, references,
# search) in CONTRAST_LANG and in one other language each, in turn.
WRITTEN = ("landing", "chapter", "lab")
GENERATED = [kind for kind in PAGE_TYPES if kind not in WRITTEN]
OTHERS = [lang for lang in LANGS if lang != CONTRAST_LANG]
AXE_CASES = [(lang, kind) for kind in WRITTEN for lang in LANGS]
AXE_CASES += [(CONTRAST_LANG, kind) for kind in GENERATED]
AXE_CASES += [(OTHERS[i % len(OTHERS)], kind) for i, kind in enumerate(GENERATED)]


@pytest.mark.parametrize(("lang", "kind"), AXE_CASES)
def test_axe_finds_nothing_serious(open_page, lang, kind):
    """No serious or critical violation, nor one of the rules the accessibility review named whatever axe-core's
    impact for them (duplicate ids in exercises, pandas' empty index header); the contrast rules
    in CONTRAST_LANG only."""
    skip = () if lang == CONTRAST_LANG else CONTRAST_RULES
    violations = [
        v
        for v in axe_violations(open_page(_type_path(kind, lang)), impacts=None, skip=skip)
        if v["impact"] in ("serious", "critical") or v["id"] in NAMED_RULES
    ]
    assert not violations, [(v["id"], v["impact"], v["count"], v["nodes"][:3]) for v in violations]


# Dark mode (the system's, which the theme follows): the page types that hold widgets, code and
# figures, contrast rules included, in two languages.
AXE_DARK_CASES = [(CONTRAST_LANG, kind) for kind in WRITTEN] + [(OTHERS[0], "chapter"), (OTHERS[1], "lab")]


@pytest.mark.parametrize(("lang", "kind"), AXE_DARK_CASES)
def test_axe_finds_nothing_serious_in_dark_mode(open_page, browser, lang, kind):
    """As test_axe_finds_nothing_serious, with the system in dark mode (the theme's default mode,
    auto, follows it), colour contrast included."""
    set_colour_mode(browser, "dark")
    try:
        page = open_page(_type_path(kind, lang))
        assert page.execute_script("return document.documentElement.dataset.theme") == "dark"
        wait_for(
            page,
            "return [...document.querySelectorAll('.ba-widget')].every("
            "w => w.matches('.ba-ready, .ba-failed'))",
            timeout=20,
        )
        violations = [
            v
            for v in axe_violations(page, impacts=None)
            if v["impact"] in ("serious", "critical") or v["id"] in NAMED_RULES
        ]
    finally:
        set_colour_mode(browser, None)
    assert not violations, [(v["id"], v["impact"], v["count"], v["nodes"][:3]) for v in violations]


def test_the_language_landing_page(open_page):
    browser = open_page("index.html")
    assert console_errors(browser) == []
    assert axe_violations(browser) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_general_index_fits_a_phone(open_page, lang):
    """Sphinx's genindex.html (left out of site_pages) is no wider than a phone either."""
    overflow = horizontal_overflow(open_page(f"{lang}/genindex.html", width=390))
    assert overflow["scroll"] <= overflow["width"], overflow["offenders"][:3]


def test_switcher_keeps_the_search_query(open_page, served_site):
    """On the search page the switcher's links carry the query to the other languages' search."""
    browser = open_page("it/search.html?q=precisione", width=1366)
    hrefs = [
        a.get_attribute("href")
        for a in browser.find_elements(By.CSS_SELECTOR, ".ba-language-switcher a.ba-language")
    ]
    assert hrefs and all(h.endswith("/search.html?q=precisione") for h in hrefs), hrefs


def test_the_phone_contents_drawer_closes_on_a_tap(open_page):
    """Tapping an entry of the page's contents on a phone goes there and closes the drawer."""
    browser = open_page("en/" + PAGE_TYPES["chapter"].format(lang="en"), width=390)
    _click_visible(browser, ".secondary-toggle")
    assert wait_for(browser, "return document.querySelector('#pst-secondary-sidebar-modal').open")
    links = [
        a
        for a in browser.find_elements(By.CSS_SELECTOR, "#pst-secondary-sidebar-modal a")
        if a.is_displayed()
    ]
    links[3].click()
    assert wait_for(browser, "return !document.querySelector('#pst-secondary-sidebar-modal').open"), (
        "the drawer stays open over the page"
    )
    assert wait_for(browser, "return window.scrollY > 0")


@pytest.mark.parametrize("lang", LANGS)
def test_wide_output_tables_say_they_scroll_on_a_phone(open_page, lang):
    """Lab 1's tables at 390 px: each one wider than the column scrolls in its own box, which fades
    out on the side that hides more and is one tab stop (reader-site.js, formulaBoxes)."""
    browser = open_page(f"{lang}/labs/{lang}/01-screening-lab.html", width=390)
    boxes = browser.execute_script(
        "return Array.from(document.querySelectorAll('.bd-article .cell_output .output.text_html')).map(b =>"
        " ({wide: b.scrollWidth - b.clientWidth > 1, cue: b.classList.contains('ba-more-right'),"
        " tab: b.getAttribute('tabindex')}));"
    )
    wide = [b for b in boxes if b["wide"]]
    assert wide, f"{lang}: no table of lab 1 is wider than a phone's column"
    assert all(b["cue"] and b["tab"] == "0" for b in wide), boxes
    # one that fits is no tab stop: no tabindex, or the theme's -1 (pydata-sphinx-theme marks every
    # notebook output by whether it scrolls, debounced, so either may be there when this looks)
    assert all(b["tab"] in (None, "-1") for b in boxes if not b["wide"]), boxes
