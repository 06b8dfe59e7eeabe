"""What the buttons of a built site open.

- Launch buttons (Colab, Binder) of the site open the student notebook on the branch
  ``course.notebooks_branch`` of the repository, at the same path as in the repository
  (``labs/<lang>/<name>.ipynb``): :func:`launch_settings` points the book's configuration there,
  and the publish workflow fills that branch from ``_build/publish/`` (tools/editions/derive.py
  writes it).
- The download button of the site gives the same student notebook: :func:`install_downloads`
  replaces the ``.ipynb`` Sphinx copies into ``_sources/``.
- Figures are served by the site at the path they have in the repository, so the notebooks, which
  are opened alone, can show them by URL: :func:`install_figures`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tools.project import KINDS, ROOT, notebooks_branch


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
