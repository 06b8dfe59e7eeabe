"""The browser harness itself, on a page that needs no built site."""

import time

PAGE = "data:text/html,<img src='https://example.org/x.png' onerror='document.title=`offline`'>"


def test_the_browser_reaches_no_host_but_localhost(browser):
    browser.get(PAGE)
    for _ in range(50):
        if browser.title:
            break
        time.sleep(0.1)
    assert browser.title == "offline"
