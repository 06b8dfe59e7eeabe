"""Measure a built site in headless Chromium and print the numbers (no assertions):

    .venv/bin/python tests/browser/audit.py [_build/site] [--lang en ...]

per page type and language: axe-core's serious/critical violations and the console errors; per page:
horizontal overflow at 390 px; the bytes a chapter page loads; each language folder's size and its
source maps. The browser tests (tests/browser/test_site.py) assert what this prints.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from pages import (
    PAGE_TYPES,
    axe_violations,
    console_errors,
    horizontal_overflow,
    page_weight,
    settle,
    site_pages,
)

from conftest import make_driver


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def folder_size(path: Path, pattern: str = "*") -> int:
    return sum(p.stat().st_size for p in path.rglob(pattern) if p.is_file())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("site", nargs="?", default="_build/site")
    parser.add_argument("--lang", action="append")
    parser.add_argument("--no-axe", action="store_true", help="skip axe-core (the slowest part)")
    parser.add_argument("--json", help="also write the raw results here")
    args = parser.parse_args(argv)
    site = Path(args.site).resolve()
    langs = args.lang or sorted(p.name for p in site.iterdir() if (p / "searchindex.js").exists())
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    driver = make_driver(Path(tempfile.mkdtemp(prefix="ba-audit-")))
    out = {"axe": {}, "console": {}, "overflow": {}, "weight": {}, "sizes": {}}

    def load(path, width=1366):
        driver.set_window_size(width, 844 if width < 500 else 900)
        driver.get_log("browser")  # what earlier pages logged is theirs
        driver.get(base + path)
        settle(driver)

    try:
        load("index.html")
        out["console"]["site-landing"] = console_errors(driver)
        if not args.no_axe:
            out["axe"]["site-landing"] = axe_violations(driver)
        for lang in langs:
            for kind, pattern in PAGE_TYPES.items():
                path = f"{lang}/{pattern.format(lang=lang)}"
                if kind == "search":
                    path += "?q=" + {
                        "en": "precision",
                        "it": "precisione",
                        "es": "precisión",
                        "pt": "precisão",
                        "fi": "tarkkuus",
                    }.get(lang, "precision")
                load(path)
                time.sleep(0.3)
                out["console"][f"{lang}/{kind}"] = console_errors(driver)
                if not args.no_axe:
                    out["axe"][f"{lang}/{kind}"] = axe_violations(driver)
            for path in site_pages(site, lang):
                load(path, 390)
                o = horizontal_overflow(driver)
                if o["scroll"] > o["width"]:
                    out["overflow"][path] = o
            for path in (p for p in site_pages(site, lang) if "/chapters/" in p and "/0" in p):
                driver.set_window_size(1366, 900)
                total, items = page_weight(driver, base + path)
                out["weight"][path] = {"total": total, "items": sorted(items, key=lambda i: -i["size"])[:12]}
            out["sizes"][lang] = {
                "folder": folder_size(site / lang),
                "maps": folder_size(site / lang, "*.map"),
            }
            if args.json:
                Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
            print(f"{lang} measured", file=sys.stderr, flush=True)
    finally:
        driver.quit()
        server.shutdown()

    print("axe-core serious/critical violations (nodes) per page:")
    for key, vs in out["axe"].items():
        print(
            f"  {key:22} {sum(v['count'] for v in vs):4d}  "
            + ", ".join(f"{v['id']}×{v['count']}" for v in vs)
        )
    print("console errors per page:")
    for key, errs in out["console"].items():
        print(f"  {key:22} {len(errs):3d}  " + " | ".join(e[:90] for e in errs[:3]))
    print(f"pages wider than 390 px: {len(out['overflow'])}")
    for path, o in out["overflow"].items():
        print(f"  {path} scrollWidth={o['scroll']}  " + "; ".join(o["offenders"][:3]))
    print("bytes loaded by each chapter page:")
    for path, w in out["weight"].items():
        print(f"  {path:50} {w['total'] / 1024:8.0f} kB")
    print("folder sizes:")
    for lang, s in out["sizes"].items():
        print(f"  {lang}: {s['folder'] / 2**20:6.1f} MB, source maps {s['maps'] / 2**20:5.2f} MB")
    counts = Counter(v["id"] for vs in out["axe"].values() for v in vs)
    print("violations by rule (pages):", dict(counts))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
