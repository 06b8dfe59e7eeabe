"""Reading the built site in tests: the pages of a language and their parsed HTML."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bs4 import BeautifulSoup


def pages(site: Path, lang: str, *, index: bool = True) -> list[Path]:
    """Every book page of a language's site: not Sphinx's generated index and search pages, not
    _static, not the reveal.js decks under slides/ (tests/test_slides.py covers them); with
    ``index=False`` the language's landing page (index.html) is left out too."""
    skip = {"genindex.html", "search.html"} | (set() if index else {"index.html"})
    return sorted(
        p
        for p in (site / lang).rglob("*.html")
        if p.name not in skip and "_static" not in p.parts and p.relative_to(site / lang).parts[0] != "slides"
    )


@cache
def html_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
