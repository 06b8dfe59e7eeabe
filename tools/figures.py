"""Render every figure script in figures_src/ in every language.

Each script defines NAME and draw() -> matplotlib Figure; the figure is drawn once per language
(after set_language) and saved as chapters/<lang>/figures/<NAME>.svg. SVG output is made
deterministic: fixed hash salt (plots.STYLE), no date, text as paths.

    python -m tools.figures            # regenerate the committed figures
    python -m tools.figures --out DIR  # render into DIR/<lang>/ (used by the tests)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from beyond_accuracy import set_language
from beyond_accuracy.plots import course_style

from .project import ROOT, languages

SCRIPTS = ROOT / "figures_src"
SVG_METADATA = {"Date": None, "Creator": "Beyond Accuracy figures_src"}


def scripts() -> list[Path]:
    return sorted(p for p in SCRIPTS.glob("*.py") if not p.name.startswith("_"))


def load(path: Path):
    if str(SCRIPTS) not in sys.path:  # scripts may import the shared helpers in figures_src/_*.py
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(f"figures_src.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def output_path(out: Path | None, lang: str, name: str) -> Path:
    if out is None:
        return ROOT / "chapters" / lang / "figures" / f"{name}.svg"
    return out / lang / f"{name}.svg"


def render_all(out: Path | None = None) -> list[Path]:
    written = []
    for path in scripts():
        module = load(path)
        for lang in languages():
            set_language(lang)
            with course_style():
                fig = module.draw()
                target = output_path(out, lang, module.NAME)
                target.parent.mkdir(parents=True, exist_ok=True)
                fig.savefig(target, format="svg", metadata=SVG_METADATA, bbox_inches="tight")
            plt.close(fig)
            written.append(target)
    set_language("en")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    for p in render_all(args.out):
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)


if __name__ == "__main__":
    main()
