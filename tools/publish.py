"""What the sites' buttons open, and what the publish workflow puts online.

- Launch buttons (Colab, Binder) of both sites open the student notebook on the branch
  ``course.notebooks_branch`` of the repository, at the same path as in the repository
  (``labs/<lang>/<name>.ipynb``): :func:`launch_settings` points the book's configuration there,
  and the workflow fills that branch from ``_build/publish/`` (tools/editions.py writes it).
- The download button of both sites gives the same student notebook: :func:`install_downloads`
  replaces the ``.ipynb`` Sphinx copies into ``_sources/``.
- Figures are served by the site at the path they have in the repository, so the notebooks, which
  are opened alone, can show them by URL: :func:`install_figures`.

    python -m tools.publish    # both sites, the notebooks, the pack -> _build/pages/ (what GitHub
                               # Pages serves: the reader's site, the student site under student/)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from .project import BUILD, KINDS, ROOT, notebooks_branch

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


def main() -> int:
    from .build import build
    from .instructor import build_packs

    for student in (False, True):
        if build(student=student):
            return 1
    print(f"pages: {pages()}")
    build_packs()
    return 0


if __name__ == "__main__":
    sys.exit(main())
