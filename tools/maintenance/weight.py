"""Page weight: the bytes a browser fetches to show a page of the built site, measured in headless
Chromium (Debian's chromium and chromium-driver, as the browser tests use).

A page's weight is the document plus every resource the browser fetched for it with an empty cache
(scripts, style sheets, fonts, images, the explorers' modules), uncompressed (the local server does
not compress; a web server's gzip would send about a third), read from the page's Resource Timing
entries once it has loaded, its fonts are ready and no request has been added for half a second.

    python -m tools.maintenance.weight [_build/site] [--pages chapters|types|all] [--json FILE]

prints the weight and request count of every chapter and lab page of every language (or of the
review's seven page types), heaviest first, and the largest resources of the heaviest page.
`make bench` prints the same (its part "weight"); tests/browser/test_weight.py asserts the limit.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from tools.project import BUILD, languages

LIMIT_KIB = 1200  # a chapter or lab page, every language (issue "The reader on a phone…")
# The seven page types of the reader's review (2026-12-07), as paths in the site.
PAGE_TYPES = {
    "landing": "index.html",
    "en chapter 1": "en/chapters/en/01-confusion-matrix.html",
    "it chapter 3": "it/chapters/it/03-calibration.html",
    "fi chapter 4": "fi/chapters/fi/04-ordinal.html",
    "pt lab 2": "pt/labs/pt/02-fraud-desk-lab.html",
    "es glossary": "es/chapters/es/glossary.html",
    "en search ?q=calibration": "en/search.html?q=calibration",
}
# Scripts that typeset math in the browser: no page may load one.
MATH_SCRIPTS = ("mathjax", "tex-chtml", "tex-mml", "tex-svg", "katex")


def chapter_and_lab_pages(site: Path, langs: list[str] | None = None) -> list[str]:
    """Every chapter and lab page of every language, as paths in the site: the numbered pages
    (chapters/<lang>/0N-*.html, labs/<lang>/0N-*.html)."""
    out = []
    for lang in langs or languages():
        for kind in ("chapters", "labs"):
            out += [
                p.relative_to(site).as_posix() for p in sorted((site / lang / kind / lang).glob("0*.html"))
            ]
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(folder: Path):
    """Serve ``folder`` on http://127.0.0.1:<free port>/ from a thread; yields the base URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # no host but 127.0.0.1: a page that needs the network fails here as behind a school firewall
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)


def chromium_paths() -> tuple[str | None, str | None]:
    return (shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver"))


def headless_chromium(profile: Path):
    """A headless Chromium (selenium) that reaches no host but 127.0.0.1 and keeps the console log."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = chromium_paths()
    if not (binary and driver):
        raise RuntimeError("no headless Chromium: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (*CHROMIUM_ARGS, f"--user-data-dir={profile}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


_RESOURCES = """
const nav = performance.getEntriesByType('navigation')[0];
return [{url: location.href, type: 'document', size: nav ? nav.encodedBodySize : 0}].concat(
  performance.getEntriesByType('resource').map(r => ({url: r.name, type: r.initiatorType, size: r.encodedBodySize})));
"""

_SETTLED = """
const done = arguments[arguments.length - 1];
Promise.all([document.fonts ? document.fonts.ready : null,
             new Promise(r => document.readyState === 'complete' ? r() : addEventListener('load', r))])
  .then(() => done(true), () => done(false));
"""


def weigh(driver, url: str, width: int = 1366, quiet: float = 0.5, timeout: float = 20.0) -> dict:
    """{url, bytes, requests, resources: [{url, type, size}]}: what the browser fetched for the page
    at ``url`` in a window ``width`` px wide, with an empty cache."""
    driver.set_window_size(width, 844 if width < 500 else 900)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    try:
        driver.get("about:blank")
        driver.get(url)
        driver.set_script_timeout(timeout)
        driver.execute_async_script(_SETTLED)
        # wait until no request has been added for `quiet` seconds (scripts that load modules,
        # the search page's result pages)
        end = time.monotonic() + timeout
        count, since = -1, time.monotonic()
        while time.monotonic() < end:
            now = driver.execute_script("return performance.getEntriesByType('resource').length")
            if now != count:
                count, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
            time.sleep(0.1)
        items = driver.execute_script(_RESOURCES)
    finally:
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return {
        "url": url,
        "bytes": sum(i["size"] for i in items),
        "requests": len(items),
        "resources": sorted(items, key=lambda i: -i["size"]),
    }


def math_scripts(page: dict) -> list[str]:
    """The resources of a weighed page that are a math-typesetting script."""
    return [
        r["url"]
        for r in page["resources"]
        if r["url"].split("?")[0].endswith(".js") and any(m in r["url"].lower() for m in MATH_SCRIPTS)
    ]


def weigh_site(site: Path, paths: list[str], width: int = 1366) -> dict[str, dict]:
    """{path: weight} of each page (path in the site, query allowed) of a built site."""
    out = {}
    with serve(site) as base, tempfile.TemporaryDirectory(prefix="ba-weight-") as profile:
        driver = headless_chromium(Path(profile))
        try:
            for path in paths:
                out[path] = weigh(driver, base + path, width=width)
        finally:
            driver.quit()
    return out


def kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB"


def short(url: str) -> str:
    """A resource's URL without the server: the path in the site."""
    return url.split("/", 3)[-1] if url.startswith("http") else url


def report(weights: dict[str, dict], names: dict[str, str] | None = None, top: int = 8) -> str:
    """The pages heaviest first (bytes, requests, math scripts), then the largest resources of the
    heaviest page."""
    names = names or {}
    lines = []
    ordered = sorted(weights.items(), key=lambda kv: -kv[1]["bytes"])
    for path, w in ordered:
        label = names.get(path, path)
        flag = "  LOADS A MATH SCRIPT" if math_scripts(w) else ""
        over = "  over the limit" if w["bytes"] > LIMIT_KIB * 1024 else ""
        lines.append(f"  {kib(w['bytes']):>11}  {w['requests']:3d} requests  {label}{over}{flag}")
    if ordered:
        path, w = ordered[0]
        lines.append(f"heaviest page: {names.get(path, path)}, {kib(w['bytes'])} (limit {LIMIT_KIB:,} KiB)")
        for r in w["resources"][:top]:
            lines.append(f"  {kib(r['size']):>11}  {short(r['url'])}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("site", nargs="?", type=Path, default=BUILD / "site")
    parser.add_argument(
        "--pages",
        choices=("chapters", "types", "all"),
        default="all",
        help="every chapter and lab page of every language, the seven page types, or both",
    )
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--json", type=Path, help="also write every measurement here")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").exists():
        parser.error(f"no built site in {site}: run `make book` first")
    result = {}
    if args.pages in ("types", "all"):
        types = weigh_site(site, list(PAGE_TYPES.values()), width=args.width)
        print(f"the seven page types (bytes fetched, uncompressed, at {args.width} px):")
        print(report(types, {v: k for k, v in PAGE_TYPES.items()}))
        result["types"] = types
    if args.pages in ("chapters", "all"):
        pages = weigh_site(site, chapter_and_lab_pages(site), width=args.width)
        print(f"every chapter and lab page ({len(pages)}), heaviest first:")
        print(report(pages))
        result["chapters"] = pages
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
