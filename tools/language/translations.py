"""Translation drift guard: which translated pages are behind their English source.

``translations.json`` at the top of the repository records, for every translated page
(chapters/<lang>/*.md and labs/<lang>/*.md of every language but English), the content hash of its
English source when the translation was last brought up to date, as a whole and per section (the
text before the first ``##`` heading, then one hash per ``##`` heading). The hash is taken over the
English MyST ``.md`` (prose and code) without its front matter, so re-executing the notebooks does
not change it. A page is *behind* when the English page's hash differs from the recorded one; the
report names the sections that changed, were added or were removed.

    python -m tools.language.translations                 # one line per page that is behind, and a summary; exit 0
    python -m tools.language.translations --check         # the same; exit 1 if any page is behind or missing
    python -m tools.language.translations --record        # record every page as up to date with today's English
    python -m tools.language.translations --record --lang it chapters/en/02-imbalance.md
                                                 # only the Italian chapter 2 (paths: English or translated)

The build (tools/book/build.py) puts a short notice in the reader's language, with a link to the English
page, at the top of every translated page that is behind.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import html
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tools import myst
from tools.project import KINDS, ROOT, read_yaml

RECORD_NAME = "translations.json"
ABOUT = (
    "The English source each translated page was last brought up to date with: a hash of the English "
    ".md (front matter excluded) and of each of its sections. Written by `make translations RECORD=1`; "
    "read by `make translations` and the build. See tools/language/translations.py."
)
OPENING = "(opening)"


def _course(root: Path) -> dict:
    return read_yaml(root / "_config.yml")["course"]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def normalised(text: str) -> str:
    """The prose and code of a MyST page: no front matter, Unix line ends, no trailing blanks."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            text = text[end + 5 :]
    text = _LANGUAGE_CELL.sub("```{code-cell} ipython3\n(the language cell)\n```", text, count=1)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n") + "\n"


# The first code cell is derived per language (tools.project.first_cell, which a test holds every
# page to): a change of its wording is not a change of the page that its translations must follow.
_LANGUAGE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n.*?^```[ \t]*$", re.S | re.M)


def sections(text: str) -> dict[str, str]:
    """Hash of each section of a page: the opening (up to the first ``##`` heading), then each
    ``##`` heading, keyed by its title; only the headings myst-parser reads as headings count (not
    a ``## comment`` in a code cell)."""
    lines = normalised(text).split("\n")
    cuts = [(0, OPENING)] + [(h.start, h.text) for h in myst.headings("\n".join(lines), level=2)]
    out: dict[str, str] = {}
    for (start, title), (end, _) in zip(cuts, [*cuts[1:], (len(lines), "")]):
        key, n = title, 2
        while key in out:
            key, n = f"{title} ({n})", n + 1
        out[key] = _digest("\n".join(lines[start:end]))
    return out


def english_pages(root: Path = ROOT) -> list[str]:
    """The English pages that are translated: every .md of chapters/<ref>/ and labs/<ref>/."""
    ref = _course(root)["reference_language"]
    return [
        path.relative_to(root).as_posix()
        for kind in KINDS
        for path in sorted((root / kind / ref).glob("*.md"))
    ]


def translated_path(english: str, lang: str, root: Path = ROOT) -> str:
    ref = _course(root)["reference_language"]
    return "/".join(lang if part == ref else part for part in english.split("/"))


def translation_languages(root: Path = ROOT) -> list[str]:
    course = _course(root)
    return [lang for lang in course["languages"] if lang != course["reference_language"]]


def load_record(root: Path = ROOT) -> dict[str, dict]:
    path = root / RECORD_NAME
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("pages", {})


def save_record(pages: dict[str, dict], root: Path = ROOT) -> None:
    data = {"about": ABOUT, "pages": dict(sorted(pages.items()))}
    (root / RECORD_NAME).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@dataclass
class Status:
    path: str  # the translated page
    source: str  # its English page
    lang: str
    state: str  # "up to date", "behind", "missing" (no translated file)
    recorded: str = ""  # the date it was last recorded up to date
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def line(self) -> str:
        if self.state == "missing":
            return f"{self.path}: missing (the English page is {self.source})"
        if self.state == "up to date":
            return f"{self.path}: up to date with {self.source}"
        since = f" (last up to date on {self.recorded})" if self.recorded else " (never recorded)"
        details = []
        for label, names in (("changed", self.changed), ("added", self.added), ("removed", self.removed)):
            if names:
                details.append(f"{label}: " + "; ".join(f'"{n}"' for n in names))
        tail = f" — sections {', '.join(details)}" if details else ""
        return f"{self.path}: behind {self.source}{since}{tail}"


def status(root: Path = ROOT, langs: list[str] | None = None) -> list[Status]:
    """The state of every translated page (of ``langs``, default all), English page by page."""
    record = load_record(root)
    out = []
    for english in english_pages(root):
        now = sections((root / english).read_text(encoding="utf-8"))
        whole = _digest(normalised((root / english).read_text(encoding="utf-8")))
        for lang in langs or translation_languages(root):
            path = translated_path(english, lang, root)
            if not (root / path).exists():
                out.append(Status(path, english, lang, "missing"))
                continue
            entry = record.get(path)
            if entry is None:
                out.append(Status(path, english, lang, "behind"))
                continue
            if entry.get("hash") == whole:
                out.append(Status(path, english, lang, "up to date", entry.get("recorded", "")))
                continue
            then = entry.get("sections", {})
            out.append(
                Status(
                    path,
                    english,
                    lang,
                    "behind",
                    entry.get("recorded", ""),
                    changed=[k for k in now if k in then and then[k] != now[k]],
                    added=[k for k in now if k not in then],
                    removed=[k for k in then if k not in now],
                )
            )
    return out


def report_lines(root: Path = ROOT) -> list[str]:
    """One line per translated page that is not up to date (what ``make translations`` prints and
    the test suite's summary repeats)."""
    return [s.line() for s in status(root) if s.state != "up to date"]


def record(root: Path = ROOT, langs: list[str] | None = None, paths: list[str] | None = None) -> list[str]:
    """Record the selected translated pages (default: all) as up to date with today's English.
    ``paths`` may name English or translated pages. Returns the translated paths whose record changed."""
    pages = load_record(root)
    wanted = None
    if paths:
        wanted = set()
        for p in paths:
            p = Path(p).as_posix()
            wanted.add(
                p.removeprefix(root.as_posix() + "/")
            )  # an English page stands for all its translations
    today = datetime.date.today().isoformat()
    changed = []
    for english in english_pages(root):
        text = (root / english).read_text(encoding="utf-8")
        whole, parts = _digest(normalised(text)), sections(text)
        for lang in langs or translation_languages(root):
            path = translated_path(english, lang, root)
            if not (root / path).exists():
                continue
            if wanted is not None and english not in wanted and path not in wanted:
                continue
            if pages.get(path, {}).get("hash") == whole:
                continue
            pages[path] = {"source": english, "recorded": today, "hash": whole, "sections": parts}
            changed.append(path)
    if wanted is None and not langs:  # a full record forgets pages that no longer exist
        for path in [p for p in pages if not (root / p).exists() or not (root / pages[p]["source"]).exists()]:
            del pages[path]
            changed.append(path)
    save_record(pages, root)
    return changed


# --- the notice on the built page of a translation that is behind ---------------------------------

NOTICE_TERMS = ("translation_behind_title", "translation_behind_text", "translation_behind_link")


def notice(page: str, lang: str) -> str:
    """The HTML notice at the top of a translated page (``page`` is its path without extension,
    e.g. ``chapters/it/02-imbalance``) that is behind: one line, in the page's language, with a link
    to the English page in the English site (<site>/<lang>/<page>.html, as the language switcher)."""
    from beyond_accuracy.language import term

    ref = _course(ROOT)["reference_language"]
    up = "../" * (page.count("/") + 1)
    english = "/".join(ref if part == lang else part for part in page.split("/"))
    title, text, link = (html.escape(term(key, lang)) for key in NOTICE_TERMS)
    return (
        f'<div class="admonition warning ba-translation-behind" lang="{lang}">'
        f'<p class="admonition-title">{title}</p>'
        f'<p>{text} <a href="{up}{ref}/{english}.html" hreflang="{ref}">{link}</a>.</p></div>'
    )


def behind_pages(lang: str, root: Path = ROOT) -> set[str]:
    """The translated pages of ``lang`` that are behind, as paths without extension."""
    return {s.path.removesuffix(".md") for s in status(root, [lang]) if s.state == "behind"}


def with_notice(markdown: str, block: str) -> str:
    """``markdown`` with ``block`` as its own paragraph right under the first ``# `` title (or at the
    top, after any front matter, if there is none)."""
    lines = markdown.split("\n")
    start = 0
    if lines and lines[0] == "---":
        start = next((i + 1 for i in range(1, len(lines)) if lines[i] == "---"), 0)
    at = next((i + 1 for i in range(start, len(lines)) if lines[i].startswith("# ")), start)
    return "\n".join(lines[:at] + ["", block, ""] + lines[at:])


def add_notice_to_notebook(notebook: Path, block: str) -> None:
    """Put ``block`` under the title of the first Markdown cell of a staged notebook."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "markdown")
    cell.source = with_notice(cell.source, block).strip("\n")
    nbformat.write(nb, notebook)


# --- command line ---------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", help="with --record: only these pages (English or translated)")
    parser.add_argument("--check", action="store_true", help="exit 1 if any page is behind or missing")
    parser.add_argument("--record", action="store_true", help="record the pages as up to date")
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    parser.add_argument("--all", action="store_true", help="also print the pages that are up to date")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.record:
        changed = record(root, args.lang, args.paths)
        for path in changed:
            print(f"{path}: recorded as up to date")
        print(f"{RECORD_NAME}: {len(changed)} page(s) recorded")
    elif args.paths:
        parser.error("paths are for --record")
    found = status(root, args.lang)
    for s in found:
        if s.state != "up to date" or args.all:
            print(s.line())
    counts = {state: sum(s.state == state for s in found) for state in ("up to date", "behind", "missing")}
    langs = sorted({s.lang for s in found})
    print(
        f"translations: {counts['up to date']} up to date, {counts['behind']} behind, "
        f"{counts['missing']} missing ({len(found)} pages in {len(langs)} languages: {', '.join(langs)})"
    )
    if args.check and (counts["behind"] or counts["missing"]):
        print("translations: CHECK failed — bring the pages up to date, then record them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
