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
