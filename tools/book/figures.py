"""Render every figure script in figures_src/ in every language.

Each script defines NAME and draw() -> matplotlib Figure; the figure is drawn once per language
(after set_language) and saved as chapters/<lang>/figures/<NAME>.svg.

The SVG files are byte-identical on any machine with the pinned environment, because every byte
is a function of what is printed, never of the floating-point value behind it:

- no date, text as paths, fixed hash salt (plots.STYLE);
- geometry (path data, positions, sizes, transforms) is written with GEOMETRY_DECIMALS decimals
  of a point. Matplotlib writes 6; noise of a different CPU, BLAS kernel or thread count in the
  computations that place the axes (1e-12 pt or so) can flip a last digit only when a value lies
  within that noise of a rounding boundary, which three decimals make a thousand times rarer,
  while 0.001 pt (0.35 µm) is far below anything visible;
- the ids matplotlib derives from a hash of unprinted values (clip paths hash the full-precision
  rectangle; markers, hatches, collections and images hash their content) are replaced by ids
  numbered in document order, and clip paths that print the same are merged.

    python -m tools.book.figures            # regenerate the committed figures
    python -m tools.book.figures --out DIR  # render into DIR/<lang>/ (used by the tests)
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import re
import sys
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from beyond_accuracy import set_language
from beyond_accuracy.plots import course_style
from tools.project import ROOT, languages

SCRIPTS = ROOT / "figures_src"
SVG_METADATA = {"Date": None, "Creator": "Beyond Accuracy figures_src"}
GEOMETRY_DECIMALS = 3

# attributes that hold coordinates (in points, or glyph units for text drawn as paths)
_GEOMETRY_ATTR = re.compile(r'(?<=\s)(d|x|y|width|height|transform|viewBox)="([^"]*)"')
_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")
# ids matplotlib makes with _make_id: a kind and 10 hex digits of a SHA-256 (collections: C<n>_<i>_<hash>)
_HASHED_ID = re.compile(
    r'(?<=id=")(?:p|m|h|image)[0-9a-f]{10}(?=")|(?<=#)(?:p|m|h|image)[0-9a-f]{10}(?=[)"])'
)
_COLLECTION_ID = re.compile(
    r'(?<=id=")C[0-9a-f]+_[0-9a-f]+_[0-9a-f]{10}(?=")|(?<=#)C[0-9a-f]+_[0-9a-f]+_[0-9a-f]{10}(?=")'
)
_KIND = {"p": "clip", "m": "marker", "h": "hatch", "i": "image", "C": "collection"}
_CLIP_PATH = re.compile(r'\n *<clipPath id="([^"]+)">(.*?)</clipPath>', re.DOTALL)


_QUANTUM = Decimal(1).scaleb(-GEOMETRY_DECIMALS)


def _round_number(match: re.Match) -> str:
    text = format(Decimal(match.group()).quantize(_QUANTUM, rounding=ROUND_HALF_EVEN), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def round_geometry(svg: str) -> str:
    """Write every coordinate of the geometric attributes with GEOMETRY_DECIMALS decimals."""
    return _GEOMETRY_ATTR.sub(lambda m: f'{m.group(1)}="{_NUMBER.sub(_round_number, m.group(2))}"', svg)


def number_ids(svg: str) -> str:
    """Replace hashed ids by ids numbered in document order; merge clip paths that print the same."""
    first_of = {}
    duplicates = {}
    for oid, body in _CLIP_PATH.findall(svg):
        if body in first_of:
            duplicates[oid] = first_of[body]
        else:
            first_of[body] = oid
    if duplicates:
        svg = _CLIP_PATH.sub(lambda m: "" if m.group(1) in duplicates else m.group(0), svg)
        svg = re.sub(
            r"(?<=url\(#)(p[0-9a-f]{10})(?=\))", lambda m: duplicates.get(m.group(1), m.group(1)), svg
        )
    names: dict[str, str] = {}
    counts: dict[str, int] = {}

    def rename(match: re.Match) -> str:
        old = match.group()
        if old not in names:
            kind = _KIND[old[0]]
            counts[kind] = counts.get(kind, 0) + 1
            names[old] = f"{kind}{counts[kind]}"
        return names[old]

    # one pass over both patterns, so numbering follows the order of first appearance
    return re.sub(f"{_HASHED_ID.pattern}|{_COLLECTION_ID.pattern}", rename, svg)


def stable_svg(svg: str) -> str:
    """The SVG text with geometry rounded at the written precision and ids numbered in order."""
    return number_ids(round_geometry(svg))


def save_svg(fig, target: Path) -> None:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata=SVG_METADATA, bbox_inches="tight")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(stable_svg(buffer.getvalue()).encode("utf-8"))


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


def committed_path(lang: str, name: str) -> Path:
    return output_path(None, lang, name)


def render(module, lang: str, target: Path) -> Path:
    """Draw one figure script's figure in one language and save it at ``target``."""
    set_language(lang)
    try:
        with course_style():
            fig = module.draw()
            save_svg(fig, target)
        plt.close(fig)
    finally:
        set_language("en")
    return target


def render_all(
    out: Path | None = None, only: list[str] | None = None, langs: list[str] | None = None
) -> list[Path]:
    """Render every script (or the scripts whose file stem or NAME is in ``only``) in every
    language (or in ``langs``); returns the files written."""
    written = []
    for path in scripts():
        module = load(path)
        if only is not None and path.stem not in only and module.NAME not in only:
            continue
        for lang in langs or languages():
            written.append(render(module, lang, output_path(out, lang, module.NAME)))
    return written


def stale(written: list[Path]) -> list[str]:
    """The committed figures (paths relative to the repository) that differ from the rendered
    files ``written`` (each at <dir>/<lang>/<NAME>.svg) or do not exist."""
    out = []
    for path in written:
        committed = committed_path(path.parent.name, path.stem)
        if not committed.exists() or committed.read_bytes() != path.read_bytes():
            out.append(str(committed.relative_to(ROOT)))
    return out


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
