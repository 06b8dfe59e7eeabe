"""Browser tests: headless Chromium (Debian's chromium and chromium-driver) drives the built site.

The site (the `site` fixture of tests/conftest.py) is served on 127.0.0.1; the browser resolves no
other host, so a page that needs the network fails here as it would behind a school firewall.
Without Chromium these tests are skipped with a message saying so; `.ci/run` installs it and sets
BA_REQUIRE_BROWSER=1, which turns the skip into a failure.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest
from pages import settle

from tools.maintenance.weight import chromium_paths

CHROMIUM, CHROMEDRIVER = chromium_paths()
NO_BROWSER = (
    "no headless Chromium: install Debian's chromium and chromium-driver "
    "(apt-get install chromium chromium-driver; bash .ci/run does) to run the browser tests"
)


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(item.path).parent == here:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


def _require_browser():
    if CHROMIUM and CHROMEDRIVER:
        return
    if os.environ.get("BA_REQUIRE_BROWSER") == "1":
        pytest.fail(NO_BROWSER + " (BA_REQUIRE_BROWSER=1)")
    pytest.skip(NO_BROWSER)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="session")
def served_site(request):
    """The reader's site on http://127.0.0.1:<port>/ (a thread of this process): the `site` fixture's
    build, or an already built site given as BA_SITE=_build/site (to iterate on the browser tests)."""
    root = os.environ.get("BA_SITE") or request.getfixturevalue("site")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def make_driver(profile: Path):
    """A headless Chromium with no network but 127.0.0.1 and the console log kept (the one
    tools/maintenance/weight.py measures page weight with)."""
    from tools.maintenance.weight import headless_chromium

    return headless_chromium(profile)


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One headless Chromium per worker, with no network but 127.0.0.1 and the console log kept."""
    _require_browser()
    driver = make_driver(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def site_root(served_site, request) -> Path:
    """The folder served by served_site."""
    return Path(os.environ.get("BA_SITE") or request.getfixturevalue("site")).resolve()


@pytest.fixture(scope="session")
def open_page(browser, served_site):
    """``open_page("it/chapters/it/01-confusion-matrix.html", width=390)`` loads a page of the
    served site in a window of that width (height 844 below 500 px, else 900), waits for the
    fonts, and returns the driver; the console log holds what this page logged."""

    def go(path: str, width: int = 1366, height: int | None = None):
        browser.set_window_size(width, height or (844 if width < 500 else 900))
        browser.get_log("browser")  # what earlier pages logged is theirs, not this page's
        browser.get(served_site + path.lstrip("/"))
        settle(browser)
        return browser

    return go


def pytest_terminal_summary(terminalreporter):
    """Say in one line, at the end of the run, that the browser tests did not run and why."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NO_BROWSER in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(
            f"NOTE: {len(skipped)} browser tests were SKIPPED: {NO_BROWSER}", yellow=True, bold=True
        )
