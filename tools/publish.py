"""What the sites' buttons open, and what the publish workflow puts online.

- Launch buttons (Colab, Binder) of both sites open the student notebook on the branch
  ``course.notebooks_branch`` of the repository, at the same path as in the repository
  (``labs/<lang>/<name>.ipynb``): :func:`launch_settings` points the book's configuration there,
  and the workflow fills that branch from ``_build/publish/`` (tools/editions.py writes it).
- The download button of both sites gives the same student notebook: :func:`install_downloads`
  replaces the ``.ipynb`` Sphinx copies into ``_sources/``.
- Figures are served by the site at the path they have in the repository, so the notebooks, which
  are opened alone, can show them by URL: :func:`install_figures`.

    python -m tools.publish              # both sites, the notebooks, the packs -> _build/pages/ (what
                                         # GitHub Pages serves: the reader's site, the student site
                                         # under student/) and _build/publish/ (the notebooks branch)
    python -m tools.publish --linkcheck  # the weekly link check (needs the network): Sphinx's
                                         # linkcheck on every language, and every notebook the
                                         # launch buttons open, on the notebooks branch
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from .project import BUILD, KINDS, ROOT, languages, notebook_sources, notebooks_branch, repository_url

PAGES = BUILD / "pages"


def launch_settings(cfg: dict) -> dict:
    """The book configuration with its launch buttons on the published notebooks branch."""
    cfg = dict(cfg)
    cfg["repository"] = {**cfg.get("repository", {}), "branch": notebooks_branch(), "path_to_book": ""}
    return cfg


def install_downloads(lang_site: Path, lang: str, publish: Path) -> list[Path]:
    """Make the download button of every chapter and lab give the published student notebook."""
    replaced = []
    for kind in KINDS:
        for target in sorted((lang_site / "_sources" / kind / lang).glob("*.ipynb")):
            source = publish / kind / lang / target.name
            if not source.exists():
                raise FileNotFoundError(f"no student notebook {source} for the download button")
            shutil.copyfile(source, target)
            replaced.append(target)
    return replaced


def install_figures(lang_site: Path, lang: str) -> Path:
    """Serve the figures of a language at <site>/<lang>/chapters/<lang>/figures/ (their repository path)."""
    src = ROOT / "chapters" / lang / "figures"
    dest = lang_site / "chapters" / lang / "figures"
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest)
    return dest


def pages(root: Path = BUILD, out: Path = PAGES) -> Path:
    """What GitHub Pages serves: the reader's site, with the student site under student/."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(root / "site", out)
    shutil.copytree(root / "student-site", out / "student")
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
    from .build import stage

    failures = 0
    for lang in langs or languages():
        source = stage(lang, student=False, out=root / "stage")
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

    from .build import build
    from .instructor import build_packs

    for student in (False, True):
        if build(student=student):
            return 1
    print(f"pages: {pages()}")
    build_packs()
    return 0
