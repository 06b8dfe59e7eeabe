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
