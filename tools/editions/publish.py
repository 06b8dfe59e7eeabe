"""What the publish workflow puts online (`make publish`), and the weekly link check.

    python -m tools.editions.publish              # the site, the notebooks, the packs -> _build/pages/
                                                  # (what GitHub Pages serves: the reader's site, whose
                                                  # labs are the student editions) and _build/publish/
                                                  # (the notebooks branch)
    python -m tools.editions.publish --linkcheck  # the weekly link check (needs the network): Sphinx's
                                                  # linkcheck on every language, and every notebook the
                                                  # launch buttons open, on the notebooks branch

What the buttons of a built site open is set by the build: tools/book/launch.py.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from tools.book.build import build, stage
from tools.project import BUILD, ROOT, languages, notebook_sources, notebooks_branch, repository_url
from tools.teaching.instructor import build_packs

PAGES = BUILD / "pages"


def pages(root: Path = BUILD, out: Path = PAGES) -> Path:
    """What GitHub Pages serves: the reader's site."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(root / "site", out)
    (out / ".nojekyll").write_text("", encoding="utf-8")  # serve _static/, _images/, _sources/
    return out


def published_notebook_urls(langs: list[str] | None = None) -> list[str]:
    """Where GitHub serves each student notebook of the notebooks branch (what the buttons open)."""
    repo = urlparse(repository_url()).path.strip("/")
    return [
        f"https://raw.githubusercontent.com/{repo}/{notebooks_branch()}/{path.relative_to(ROOT).with_suffix('.ipynb')}"
        for lang in langs or languages()
        for path in notebook_sources(lang)
    ]


def linkcheck(langs: list[str] | None = None, root: Path = BUILD / "linkcheck") -> int:
    """Sphinx's linkcheck builder on every language's book, then a request for every published
    notebook; returns the number of failures."""
    failures = 0
    for lang in langs or languages():
        source = stage(lang, out=root / "stage")
        cmd = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()", "build", str(source),
               "--path-output", str(root / "out" / lang), "--builder", "linkcheck"]  # fmt: skip
        code = subprocess.run(cmd).returncode
        print(f"linkcheck {lang}: {'ok' if code == 0 else 'BROKEN LINKS (see the output above)'}")
        failures += code != 0
    for url in published_notebook_urls(langs):
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=30) as response:
                ok = response.status == 200
        except OSError as exc:
            ok, response = False, exc
        if not ok:
            failures += 1
            print(f"missing published notebook: {url} ({response})")
    return failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--linkcheck", action="store_true", help="check links (needs the network)")
    args = parser.parse_args(argv)
    if args.linkcheck:
        return 1 if linkcheck() else 0

    if build():
        return 1
    print(f"pages: {pages()}")
    build_packs()
    return 0
