"""The formulas as a reader meets them: MathML drawn by the browser (no script), read by screen
readers, no tab stops; on a phone (390 px, touch) and a laptop (1366 px), in light and dark mode,
a display formula wider than its column scrolls in its box and says so (its edge fades, and the box
is one labelled tab stop, so a keyboard can scroll it), and a formula that fits is none of this.
tools/book/formula_widths.py lists the formulas wider than a phone's column (page, source line,
width)."""

from __future__ import annotations

import time

import pytest
from pages import wait_for
from selenium.webdriver.common.keys import Keys

from tools.book.formula_widths import PHONE, emulate, measure, settle
from tools.maintenance.weight import chapter_and_lab_pages
from tools.project import languages

LAPTOP = 1366
COLUMN_AT_PHONE = 358  # the column of text at 390 px: 390 less the article's padding


def _set_mode(browser, mode: str) -> None:
    """pydata-sphinx-theme's colour mode, as its switch sets it."""
    browser.execute_script(
        "document.documentElement.dataset.theme = arguments[0]; document.documentElement.dataset.mode = arguments[0];",
        mode,
    )


@pytest.fixture
def device(browser):
    """Emulate a phone or a laptop on the shared browser, and leave it as it was."""
    yield lambda width: emulate(browser, width)
    emulate(browser, LAPTOP)
    _set_mode(browser, "light")


def _problems(formulas, where: str) -> list[str]:
    """A formula wider than its column without the cue (faded edge, tab stop; a display formula's
    box labelled), or one that fits with it."""
    out = []
    for f in formulas:
        if f.too_wide and not (f.cue and f.tab_stop and (f.label or not f.display)):
            out.append(
                f"{where}: {f} scrolls with no cue (cue {f.cue}, tab stop {f.tab_stop}, label {f.label!r})"
            )
        if not f.too_wide and (f.cue or f.tab_stop):
            out.append(f"{where}: {f} fits but is marked as scrolling (cue {f.cue}, tab stop {f.tab_stop})")
    return out


_MATH_COLOUR = """
const p = document.querySelector('.bd-article p');
return [...document.querySelectorAll('.bd-article math')].filter(m => m.getBoundingClientRect().width > 0
  && getComputedStyle(m).color !== getComputedStyle(m.closest('p, div, li, td') || p).color).length;
"""


@pytest.fixture(scope="module")
def phone_formulas(browser, served_site, site_root):
    """Every display formula of every chapter and lab page of every language at 390 px with touch,
    in light and in dark mode: {lang: [(mode, Formula)]}, with the problems found meanwhile."""
    emulate(browser, PHONE)
    found, problems = {}, []
    try:
        for lang in languages():
            found[lang] = []
            for page in chapter_and_lab_pages(site_root, [lang]):
                browser.get(served_site + page)
                settle(browser)
                for mode in ("light", "dark"):
                    _set_mode(browser, mode)
                    time.sleep(0.05)
                    formulas = measure(browser, page, inline=True)
                    found[lang] += [(mode, f) for f in formulas]
                    problems += _problems(formulas, f"{PHONE} px, {mode}")
                    if browser.execute_script(_MATH_COLOUR):
                        problems.append(f"{page} ({mode}): a formula not in the colour of its text")
                _set_mode(browser, "light")
    finally:
        emulate(browser, LAPTOP)
    return found, problems


@pytest.mark.parametrize("lang", languages())
def test_no_formula_wider_than_its_phone_column_without_a_cue(phone_formulas, lang):
    found, problems = phone_formulas
    formulas = [f for _, f in found[lang] if f.display]
    assert len(formulas) > 40, f"{lang}: only {len(formulas)} display formulas measured"
    assert {round(f.column) for f in formulas} == {COLUMN_AT_PHONE}, {f.column for f in formulas}
    assert len(found[lang]) > 10 * len(formulas)  # the inline ones too
    mine = [p for p in problems if f"/{lang}/" in p]
    assert not mine, "\n".join(mine)


# The display formulas that may scroll on a phone, as (page, n-th display formula of the page):
# none. Every display formula of the chapters and labs is written to fit the 358 px column in every
# language (one formula a line, aligned chains, long sums split into steps); a new one that does not
# fit belongs on several lines, not in this list. An entry needs a reason that no layout can fix
# (a wide matrix, say), written beside it.
MAY_SCROLL_ON_A_PHONE: dict[tuple[str, int], str] = {}


def test_no_display_formula_is_wider_than_a_phone_s_column(phone_formulas):
    found, _ = phone_formulas
    displays = [f for lang in found for mode, f in found[lang] if mode == "light" and f.display]
    assert len(displays) > 40, f"only {len(displays)} display formulas measured"
    wide = [str(f) for f in displays if f.too_wide and (f.page, f.index) not in MAY_SCROLL_ON_A_PHONE]
    assert not wide, (
        f"{len(wide)} display formulas wider than the column at {PHONE} px (write them on several lines: "
        "one formula a line, `aligned` blocks):\n" + "\n".join(wide)
    )
    scrolling = {(f.page, f.index) for f in displays if f.too_wide}
    assert not set(MAY_SCROLL_ON_A_PHONE) - scrolling, "allowed to scroll, but fits: take it off the list"


@pytest.mark.parametrize("lang", languages())
def test_no_formula_wider_than_its_laptop_column_without_a_cue(browser, served_site, site_root, device, lang):
    device(LAPTOP)
    problems, count = [], 0
    for page in chapter_and_lab_pages(site_root, [lang]):
        browser.get(served_site + page)
        settle(browser)
        for mode in ("light", "dark"):
            _set_mode(browser, mode)
            formulas = measure(browser, page, inline=True)
            count += len(formulas)
            problems += _problems(formulas, f"{LAPTOP} px, {mode}")
    assert count > 400
    assert not problems, "\n".join(problems)


_TAB_STOPS = """
const focusable = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
const stops = [...document.querySelectorAll(focusable)].filter(e => !e.disabled && e.getClientRects().length);
return {stops: stops.length,
        math: stops.filter(e => e.matches('math, math *') || e.querySelector('math')).map(e => e.className),
        formulas: document.querySelectorAll('.bd-article math').length,
        shown: [...document.querySelectorAll('.bd-article math')].filter(m => m.checkVisibility({visibilityProperty: true})).length,
        typesetters: document.querySelectorAll('mjx-container, .katex, script[src*="mathjax"]').length};
"""


def test_formulas_are_mathml_for_screen_readers_and_no_tab_stops(browser, served_site, device):
    device(LAPTOP)
    browser.get(served_site + "en/chapters/en/01-confusion-matrix.html")
    settle(browser)
    info = browser.execute_script(_TAB_STOPS)
    assert info["formulas"] > 150 and info["typesetters"] == 0, info
    # no formula is a tab stop; a display formula's box is, only while it scrolls (MathJax made
    # each of chapter 1's 194 formulas a tab stop: 417 stops in all)
    assert all("ba-scrolls" in c.split() for c in info["math"]), info
    assert len(info["math"]) == browser.execute_script(
        "return document.querySelectorAll('div.math.ba-scrolls').length"
    )
    assert info["stops"] < 250, info
    # the accessibility tree that screen readers read has every formula shown as math, with its
    # parts (those in a folded solution join it when it opens)
    tree = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    roles = [n.get("role", {}).get("value") for n in tree if not n.get("ignored")]
    assert roles.count("MathMLMath") == info["shown"] > 150
    assert roles.count("MathMLFraction") > 20


def test_a_formula_that_scrolls_is_one_tab_stop_and_scrolls_by_keyboard(browser, served_site, device):
    device(PHONE)
    browser.get(served_site + "fi/chapters/fi/01-confusion-matrix.html")
    settle(browser)
    boxes = browser.execute_script(
        "return [...document.querySelectorAll('.bd-article div.math')].sort((a, b) => b.scrollWidth - a.scrollWidth)"
    )
    box = boxes[0]  # the widest display formula of the page
    if not browser.execute_script("return arguments[0].classList.contains('ba-scrolls')", box):
        device(240)  # after the sources' rewrite every formula may fit 358 px: a narrower screen
        settle(browser)
    assert browser.execute_script("return arguments[0].classList.contains('ba-scrolls')", box)
    assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "group"
    assert box.get_attribute("aria-label") == "Kaava: vieritä sivusuunnassa"  # the page's language
    classes = box.get_attribute("class").split()
    assert "ba-more-right" in classes and "ba-more-left" not in classes
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", box)
    assert browser.execute_script("return document.activeElement === arguments[0]", box)
    for _ in range(40):
        box.send_keys(Keys.ARROW_RIGHT)
    assert wait_for(
        browser, "return arguments[0].scrollLeft > 0".replace("arguments[0]", "document.activeElement")
    )
    browser.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", box)
    assert wait_for(browser, "return document.activeElement.classList.contains('ba-more-left')")
    assert "ba-more-right" not in box.get_attribute("class").split()  # the end: nothing more to the right
