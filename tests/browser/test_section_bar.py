"""Finding one's way in a long chapter on a phone (390 px): the section bar of reader-site.js
(sectionBar) stays at the top of the screen with the title of the section being read, and its
button opens the page's contents and the language switcher, so that any section (or the same page
in another language) is two taps away from anywhere in the page.
"""

from __future__ import annotations

import pytest
from pages import PAGE_TYPES, axe_violations, horizontal_overflow, set_colour_mode, wait_for
from selenium.webdriver.common.by import By

from tools.project import languages

LANGS = languages()

_SECTIONS = """
return Array.from(document.querySelectorAll('#pst-page-toc-nav a.nav-link[href^="#"]')).map(a => {
  const el = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
  return [a.getAttribute('href'), a.textContent.trim(), el ? el.getBoundingClientRect().top + window.scrollY : null];
});
"""
_BAR = """
const bar = document.querySelector('.ba-section-bar');
if (!bar) return null;
const r = bar.getBoundingClientRect();
return {top: r.top, height: r.height, shown: getComputedStyle(bar).display !== 'none',
        current: bar.querySelector('.ba-section-current').textContent.trim()};
"""


def _chapter(open_page, lang: str):
    return open_page(f"{lang}/" + PAGE_TYPES["chapter"].format(lang=lang), width=390)


@pytest.mark.parametrize("lang", LANGS)
def test_the_section_bar_shows_the_section_being_read(open_page, lang):
    """Scrolled into a section of chapter 1, the bar is at the top of the screen and names it."""
    browser = _chapter(open_page, lang)
    sections = browser.execute_script(_SECTIONS)
    assert len(sections) >= 10, f"{lang}: chapter 1 lists {len(sections)} sections"
    for _href, title, top in (sections[2], sections[len(sections) // 2], sections[-2]):
        browser.execute_script("window.scrollTo(0, arguments[0]);", top + 150)
        current = f"const b = document.querySelector('.ba-section-current'); return !!b && b.textContent.trim() === {title!r};"
        assert wait_for(browser, current), (
            f"{lang}: scrolled into {title!r}, the bar says {browser.execute_script(_BAR)}"
        )
        bar = browser.execute_script(_BAR)
        assert bar["shown"] and abs(bar["top"]) <= 1, (
            f"{lang}: the bar is not at the top of the screen: {bar}"
        )
        assert bar["height"] <= 60, f"{lang}: the bar is not slim: {bar}"
    overflow = horizontal_overflow(browser)
    assert overflow["scroll"] <= overflow["width"], overflow["offenders"][:3]


@pytest.mark.parametrize("lang", LANGS)
def test_any_section_and_the_languages_are_two_taps_away(open_page, lang):
    """From deep in the page: tap the bar, tap a section: the page is there and the list closed.
    The other languages' links are in the same list (no scrolling back to the top)."""
    browser = _chapter(open_page, lang)
    sections = browser.execute_script(_SECTIONS)
    browser.execute_script("window.scrollTo(0, arguments[0]);", sections[-3][2] + 100)
    button = browser.find_element(By.CSS_SELECTOR, ".ba-section-button")
    assert button.is_displayed() and button.get_attribute("aria-expanded") == "false"
    button.click()  # tap 1
    assert button.get_attribute("aria-expanded") == "true"
    panel = browser.find_element(By.ID, button.get_attribute("aria-controls"))
    assert panel.is_displayed()
    languages = [a for a in panel.find_elements(By.CSS_SELECTOR, "a[hreflang]") if a.is_displayed()]
    assert {a.get_attribute("hreflang") for a in languages} == set(LANGS) - {lang}, (
        "the switcher is not in the list"
    )
    href, title, _ = sections[4]
    link = next(a for a in panel.find_elements(By.CSS_SELECTOR, "a") if a.get_attribute("hash") == href)
    browser.execute_script("arguments[0].scrollIntoView({block: 'nearest'});", link)
    link.click()  # tap 2
    assert wait_for(browser, f"return location.hash === {href!r};")
    target = browser.execute_script(
        "return document.getElementById(decodeURIComponent(arguments[0].slice(1))).getBoundingClientRect().top;",
        href,
    )
    below = browser.execute_script(_BAR)
    assert below["top"] + below["height"] - 1 <= target <= 250, (
        f"{lang}: {title!r} is at {target} px, not at the top of the screen below the bar ({below})"
    )
    assert not panel.is_displayed() and button.get_attribute("aria-expanded") == "false"
    assert wait_for(
        browser, f"return document.querySelector('.ba-section-current').textContent.trim() === {title!r};"
    )


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_open_section_bar_passes_axe(open_page, browser, mode):
    """The open list, in both colour modes: contrast of at least 4.5:1, names, roles (axe-core)."""
    set_colour_mode(browser, mode)
    try:
        browser = _chapter(open_page, "it")
        browser.execute_script("window.scrollTo(0, document.body.scrollHeight / 2);")
        browser.find_element(By.CSS_SELECTOR, ".ba-section-button").click()
        violations = axe_violations(browser)
        ours = [v for v in violations if any("ba-section" in str(n) for n in v.get("nodes", []))]
        assert not ours, ours
        browser.find_element(By.CSS_SELECTOR, ".ba-section-button").click()
    finally:
        set_colour_mode(browser, None)
