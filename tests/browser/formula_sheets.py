"""Screenshots of a built site's formulas, to compare two builds by eye (no assertions):

    .venv/bin/python tests/browser/formula_sheets.py shoot SITE OUT [--lang en ...] [--inline-every 6]
    .venv/bin/python tests/browser/formula_sheets.py compare BEFORE_OUT AFTER_OUT SHEETS

``shoot`` loads every chapter and lab page of a site in headless Chromium (1366 px) and saves a PNG
of every display formula and of every ``--inline-every``-th inline formula (and of every inline
formula that holds ``\\text``, whose words are the page's language) with a manifest of their TeX
sources, in document order; ``--like EARLIER`` shoots the same formulas as an earlier shoot (the
MathML pages keep no TeX to choose by). A formula is the n-th of its page in both builds when the sources are
the same, whatever renders it (MathJax's ``mjx-container`` or a ``math`` element).
``compare`` pairs the formulas of two shoots by page and position, checks that their sources are the
same, and draws contact sheets: each row the TeX source, the formula before and after.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools.maintenance.weight import chapter_and_lab_pages, headless_chromium, serve  # noqa: E402

_ELEMENTS = """
const mj = document.querySelectorAll('mjx-container');
const els = mj.length ? [...mj] : [...document.querySelectorAll('.bd-article math')];
return els.map(e => ({display: mj.length ? e.getAttribute('display') === 'true' : e.getAttribute('display') === 'block',
                       w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height}));
"""


def sources(html: str) -> list[tuple[bool, str]]:
    """The TeX of every formula of a page, in document order: (display?, source). Sphinx's MathJax
    output keeps it in span.math / div.math; the MathML output in the math element's alttext."""
    soup = BeautifulSoup(html, "html.parser")
    out = []
    article = soup.select_one(".bd-article") or soup
    for el in article.find_all(["span", "div", "math"]):
        classes = el.get("class") or []
        if el.name == "math":
            out.append((el.get("display") == "block", el.get("alttext", "")))
        elif "math" in classes and el.find("math") is None:
            text = el.get_text().strip()
            for a, b in (("\\(", "\\)"), ("\\[", "\\]")):
                if text.startswith(a) and text.endswith(b):
                    text = text[2:-2].strip()
            out.append((el.name == "div", text))
    return out


def shoot(
    site: Path, out: Path, langs: list[str] | None, inline_every: int, like: Path | None = None
) -> None:
    """``like``: the folder of an earlier shoot, whose formulas (page and position) to shoot."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = {}
    wanted = None
    if like is not None:
        earlier = json.loads((like / "manifest.json").read_text(encoding="utf-8"))
        wanted = {page: {e["index"] for e in entries} for page, entries in earlier.items()}
    with serve(site) as base, tempfile.TemporaryDirectory(prefix="ba-sheets-") as profile:
        driver = headless_chromium(Path(profile))
        driver.set_window_size(1366, 900)
        try:
            for path in chapter_and_lab_pages(site, langs):
                driver.get(base + path)
                driver.set_script_timeout(60)
                driver.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "const mj = window.MathJax && MathJax.startup && MathJax.startup.promise;"
                    "Promise.all([mj || null, document.fonts.ready]).then(() => done(true));"
                )
                srcs = sources((site / path).read_text(encoding="utf-8"))
                info = driver.execute_script(_ELEMENTS)
                if len(srcs) != len(info):
                    print(f"{path}: {len(srcs)} sources but {len(info)} rendered formulas", file=sys.stderr)
                elements = driver.execute_script(
                    "const mj = document.querySelectorAll('mjx-container');"
                    "return mj.length ? [...mj] : [...document.querySelectorAll('.bd-article math')];"
                )
                entries = []
                inline_seen = 0
                for i, (el, meta) in enumerate(zip(elements, info)):
                    tex = srcs[i][1] if i < len(srcs) else ""
                    if wanted is not None:
                        if i not in wanted.get(path, ()):
                            continue
                    elif not meta["display"]:
                        inline_seen += 1
                        if inline_seen % inline_every and "\\text" not in tex:
                            continue
                    if meta["w"] < 1 or meta["h"] < 1:
                        continue  # folded away (a closed solution)
                    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
                    png = el.screenshot_as_png
                    name = f"{path.replace('/', '_')}_{i:03d}.png"
                    (out / name).write_bytes(png)
                    entries.append({"index": i, "display": meta["display"], "tex": tex, "png": name})
                manifest[path] = entries
                print(f"{path}: {len(entries)} of {len(info)} formulas", file=sys.stderr)
        finally:
            driver.quit()
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")


def _norm(tex: str) -> str:
    return " ".join(tex.split())


def compare(before: Path, after: Path, sheets: Path, per_sheet: int = 14) -> None:
    from PIL import Image, ImageDraw, ImageFont

    a = json.loads((before / "manifest.json").read_text(encoding="utf-8"))
    b = json.loads((after / "manifest.json").read_text(encoding="utf-8"))
    sheets.mkdir(parents=True, exist_ok=True)
    font = ImageFont.load_default(size=14)
    pairs, mismatched = [], 0
    for path, entries in a.items():
        other = {e["index"]: e for e in b.get(path, [])}
        for e in entries:
            f = other.get(e["index"])
            if f is None:
                print(f"missing after: {path} #{e['index']} {e['tex'][:60]}")
                continue
            if f["tex"] and _norm(f["tex"]) != _norm(e["tex"]):
                mismatched += 1
                print(f"different source: {path} #{e['index']}: {e['tex'][:50]!r} / {f['tex'][:50]!r}")
            pairs.append((path, e, f))
    print(
        f"{len(pairs)} formulas paired ({sum(e['display'] for _, e, _ in pairs)} display), {mismatched} sources differ"
    )
    for start in range(0, len(pairs), per_sheet):
        rows = []
        for path, e, f in pairs[start : start + per_sheet]:
            left = Image.open(io.BytesIO((before / e["png"]).read_bytes())).convert("RGB")
            right = Image.open(io.BytesIO((after / f["png"]).read_bytes())).convert("RGB")
            rows.append((f"{path.split('/')[-1]} #{e['index']}  {e['tex'][:150]}", left, right))
        width = max(max(left.width + right.width + 30, 900) for _, left, right in rows)
        height = sum(max(left.height, right.height) + 26 for _, left, right in rows)
        sheet = Image.new("RGB", (width, height), "white")
        draw = ImageDraw.Draw(sheet)
        y = 0
        for label, left, right in rows:
            draw.text((4, y + 4), label, fill=(90, 90, 90), font=font)
            y += 22
            sheet.paste(left, (0, y))
            sheet.paste(right, (left.width + 30, y))
            draw.line(
                [(left.width + 15, y), (left.width + 15, y + max(left.height, right.height))], fill="red"
            )
            y += max(left.height, right.height) + 4
        sheet.save(sheets / f"sheet-{start // per_sheet:03d}.png")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("shoot")
    s.add_argument("site", type=Path)
    s.add_argument("out", type=Path)
    s.add_argument("--lang", action="append")
    s.add_argument("--inline-every", type=int, default=6)
    s.add_argument("--like", type=Path, help="shoot the formulas an earlier shoot (its folder) shot")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("sheets", type=Path)
    args = parser.parse_args(argv)
    if args.command == "shoot":
        shoot(args.site.resolve(), args.out, args.lang, args.inline_every, args.like)
    else:
        compare(args.before, args.after, args.sheets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
