"""The browser harness itself, on a page that needs no built site."""

import time

from pages import console_errors

PAGE = (
    "data:text/html,<img src='https://example.org/x.png' onerror='document.title=`offline`'>"
    "<script>console.error('seen')</script>"
)


def test_the_browser_reaches_no_host_but_localhost_and_keeps_the_console(browser):
    browser.get(PAGE)
    for _ in range(50):
        if browser.title:
            break
        time.sleep(0.1)
    assert browser.title == "offline"
    assert any("seen" in message for message in console_errors(browser))


def test_axe_finds_a_planted_violation_and_skips_only_the_rules_asked(browser):
    from pages import axe_violations

    browser.get(
        "data:text/html,<html lang='en'><head><title>t</title></head><body><main>"
        "<p style='color:%23bbb;background:%23fff'>faint text</p><img src='x.png'></main></body></html>"
    )
    found = {v["id"] for v in axe_violations(browser)}
    assert {"color-contrast", "image-alt"} <= found
    found = {v["id"] for v in axe_violations(browser, skip=("color-contrast",))}
    assert "color-contrast" not in found and "image-alt" in found


def test_axe_judges_the_colours_a_page_settles_on_not_a_fade(browser):
    """pydata-sphinx-theme's buttons fade for 0.15 s when auto mode turns a page dark after it
    loaded; axe reading colours mid-fade failed a dark-mode test now and then. Here a fade that is
    half done when the page loads and lasts minutes: grey on grey while it runs, white on black
    when it ends."""
    from pages import axe_violations

    browser.get(
        "data:text/html,<html lang='en'><head><title>t</title><style>"
        "p { transition: color 1000s linear -500s, background-color 1000s linear -500s;"
        " color: %23000; background: %23fff }"
        "</style></head><body><main><p id='p'>fading text</p></main><script>"
        "requestAnimationFrame(() => requestAnimationFrame(() => {"
        "const p = document.getElementById('p'); p.style.color = '%23fff'; p.style.background = '%23000'; }))"
        "</script></body></html>"
    )
    time.sleep(0.3)
    assert browser.execute_script("return getComputedStyle(document.getElementById('p')).color") not in (
        "rgb(0, 0, 0)",
        "rgb(255, 255, 255)",
    ), "the fade is not running: this test would prove nothing"
    assert "color-contrast" not in {v["id"] for v in axe_violations(browser)}


_WIDGETS = """
<html lang="pt-BR"><head><meta charset="utf-8"><title>w</title></head><body style="margin:0">
<div class="ba-widget ba-ready" data-module="fine"><div class="ba-explorer" lang="pt">
  <input type="range" style="width:300px;height:44px"></div></div>
<div class="ba-widget ba-ready" data-module="wide"><div class="ba-explorer" lang="pt">
  <div style="width:500px">a table</div></div></div>
<div class="ba-widget ba-ready" data-module="english"><div class="ba-explorer" lang="en"></div></div>
<div class="ba-widget ba-failed" data-module="broken"></div>
<div class="ba-widget ba-ready" data-module="quiz"><div class="ba-quiz" lang="pt">
  <label class="ba-quiz-option" style="display:block;height:30px">a small option</label>
  <input type="range" style="width:120px;height:44px"></div></div>
</body></html>
"""


def test_the_widget_check_finds_each_planted_fault(browser):
    """widgets_on_screen (test_every_page_on_a_phone) names each fault and says nothing of the
    widget that has none."""
    from urllib.parse import quote

    from pages import widgets_on_screen

    browser.set_window_size(390, 844)
    browser.get("data:text/html," + quote(_WIDGETS))
    problems = widgets_on_screen(browser, timeout=1)
    assert not [p for p in problems if p.startswith("fine")], problems
    expected = ["wide off screen", "wide's content overflows", "english in lang en", "broken did not render",
                "quiz: a control or option 30 px high", "quiz: a slider 120 px wide"]  # fmt: skip
    for fault in expected:
        assert any(p.startswith(fault) for p in problems), (fault, problems)
