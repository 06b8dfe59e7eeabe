"""Open the student notebooks of one language in JupyterLab: ``make lab LANG=it``.

The student notebooks of the language (the files the site's Colab, Binder and download buttons
open, derived afresh by tools/editions/derive.py) are copied into ``workspace/<lang>/chapters/`` and
``workspace/<lang>/labs/``; a notebook already there is kept, because it holds your work (delete it
to start that notebook again). Then JupyterLab starts in ``workspace/<lang>/``. The helper package
is the one installed in .venv, so nothing is downloaded, and the calibration explorer's widgets
work: JupyterLab finds the ipywidgets extension that the package's dependencies install.

    python -m tools.editions.lab --lang it                  # prepare workspace/it/ and start JupyterLab
    python -m tools.editions.lab --lang it --prepare-only   # only prepare it
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.editions.derive import write_editions
from tools.project import ROOT, languages

WORKSPACE = ROOT / "workspace"
WIDGETS_EXTENSION = "@jupyter-widgets/jupyterlab-manager"


def prepare(lang: str, workspace: Path = WORKSPACE) -> tuple[list[Path], list[Path]]:
    """Copy the language's student notebooks into workspace/<lang>/; returns (copied, kept)."""
    if lang not in languages():
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(languages())}")
    copied, kept = [], []
    with tempfile.TemporaryDirectory() as tmp:
        write_editions([lang], publish=Path(tmp) / "publish", keys=Path(tmp) / "keys")
        for src in sorted((Path(tmp) / "publish").glob(f"*/{lang}/*.ipynb")):
            dest = workspace / lang / src.parent.parent.name / src.name
            if dest.exists():
                kept.append(dest)
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
            copied.append(dest)
    return copied, kept


def widgets_extension_installed() -> bool:
    out = subprocess.run(
        [sys.executable, "-m", "jupyter", "labextension", "list"], capture_output=True, text=True
    )
    return WIDGETS_EXTENSION in out.stdout + out.stderr


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", default="en", help="the course language (en, it, es, pt, fi)")
    parser.add_argument("--prepare-only", action="store_true", help="copy the notebooks, start nothing")
    args = parser.parse_args(argv)
    copied, kept = prepare(args.lang)
    folder = WORKSPACE / args.lang
    print(f"{folder.relative_to(ROOT)}: {len(copied)} notebooks copied, {len(kept)} kept (your work)")
    if args.prepare_only:
        return 0
    if shutil.which("jupyter-lab", path=str(Path(sys.executable).parent)) is None:
        print("JupyterLab is not installed: run `make lab` (it installs .[lab]) or pip install jupyterlab")
        return 1
    if not widgets_extension_installed():
        print(f"warning: {WIDGETS_EXTENSION} is missing: the explorer widgets will not show", file=sys.stderr)
    lab = Path(sys.executable).parent / "jupyter-lab"
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # e.g. in a container
    os.execv(str(lab), [str(lab), f"--notebook-dir={folder}", *root])


if __name__ == "__main__":
    sys.exit(main())
