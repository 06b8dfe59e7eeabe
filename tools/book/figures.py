"""Render every figure script in figures_src/ in every language.

Each script defines NAME and draw() -> matplotlib Figure; the figure is drawn once per language
(after set_language) and saved as chapters/<lang>/figures/<NAME>.svg; a figure whose smallest text
would be under 9 CSS px across a phone's 358 px column is laid out again for that column (panels
stacked, narrower) and saved beside it as <NAME>.phone.svg, which the reader's site shows on narrow
screens (tools/book/sphinx/reader_site.py: a <picture> with a media query).

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
import textwrap
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
# The width a figure is shown at on a 390 px phone (the column, 358 px, less the figure's margins:
# measured 327 px in headless Chromium), with a few pixels to spare.
PHONE_COLUMN_PX = 320
# The smallest text a figure may show there (the reader's review: labels about 5 px were unreadable).
PHONE_TEXT_PX = 9
PHONE_SUFFIX = ".phone.svg"

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


def smallest_font(fig) -> float:
    """The smallest font size (points) of the figure's visible text."""
    from matplotlib.text import Text

    sizes = [
        t.get_fontsize()
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip() and t.get_figure() is fig
    ]
    return min(sizes) if sizes else 10.0


def phone_width(fig) -> float:
    """The widest the saved figure (its tight bounding box) can be, in inches, for its smallest
    text to be PHONE_TEXT_PX CSS pixels high when the figure is shown PHONE_COLUMN_PX wide."""
    return smallest_font(fig) * PHONE_COLUMN_PX / PHONE_TEXT_PX / 72


def _saved_width(fig) -> float:
    """The width (inches) of what bbox_inches="tight" saves."""
    fig.canvas.draw()
    pad = matplotlib.rcParams["savefig.pad_inches"]
    return fig.get_tightbbox(fig.canvas.get_renderer()).width + 2 * float(pad)


def relaid_for_phone(fig) -> bool:
    """Lay a figure wider than phone_width() out for the phone's column, in place: panels side by
    side are stacked, each as wide as the column, and a single panel is drawn narrower (its text
    keeps its size, so it is larger relative to the plot); then the figure is narrowed until what
    is saved fits. False if the figure already fits."""
    limit = phone_width(fig)
    if _saved_width(fig) <= limit:
        return False
    width, height = fig.get_size_inches()
    target = limit * 0.94
    # Legends' and titles' long lines would keep the figure wide: broken into lines that fit (a
    # legend sits inside its axes, so in half the width).
    # Each text's line length follows its own font size (a 10 pt title breaks sooner than 8 pt text).
    wraps = [(t, 1.0) for t in fig.texts]
    for ax in fig.axes:
        wraps += [(ax.title, 1.0), (ax._left_title, 0.5), (ax._right_title, 0.5)]
        if ax.get_legend():
            wraps += [(t, 0.5) for t in ax.get_legend().get_texts()]
    for text, share in wraps:
        most = int(share * target * 72 / (0.55 * text.get_fontsize()))
        lines = text.get_text().split("\n")
        if any(len(line) > max(most, 12) for line in lines):
            text.set_text("\n".join(textwrap.fill(line, max(most, 12)) for line in lines))
    specs = [ax.get_subplotspec() for ax in fig.axes if ax.get_subplotspec() is not None]
    grids = {spec.get_gridspec() for spec in specs}
    grid = grids.pop() if len(grids) == 1 else None
    if grid is not None and grid.nrows == 1 and grid.ncols > 1 and len(specs) == len(fig.axes):
        n = grid.ncols
        column = fig.add_gridspec(n, 1)
        for ax in fig.axes:
            ax.set_subplotspec(column[ax.get_subplotspec().colspan.start, 0])
        panel_height = height * target / (width / n)
        fig.set_size_inches(target, min(panel_height, 1.1 * target) * n)
    else:
        fig.set_size_inches(target, max(height * target / width, min(height, 0.8 * target)))
    if fig.get_layout_engine() is None:
        fig.set_layout_engine("constrained")
    for _ in range(4):
        excess = _saved_width(fig) - limit * 0.99
        if excess <= 0:
            break
        w, h = fig.get_size_inches()
        if w - excess < 0.6 * target:  # something as wide as the figure that does not shrink
            break
        fig.set_size_inches(w - excess, h)
    return True


def phone_path(target: Path) -> Path:
    """Where the phone layout of the figure saved at ``target`` goes: <NAME>.phone.svg beside it."""
    return target.with_name(target.stem + PHONE_SUFFIX)


def render(module, lang: str, target: Path) -> list[Path]:
    """Draw one figure script's figure in one language and save it at ``target``; a figure too wide
    for its text to be legible on a phone is drawn again for the phone's column (relaid_for_phone)
    and saved beside it (phone_path). Returns the files written."""
    set_language(lang)
    written = [target]
    try:
        with course_style():
            fig = module.draw()
            save_svg(fig, target)
            if relaid_for_phone(fig):
                save_svg(fig, phone_path(target))
                written.append(phone_path(target))
            else:
                phone_path(target).unlink(missing_ok=True)
        plt.close(fig)
    finally:
        set_language("en")
    return written


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
            written += render(module, lang, output_path(out, lang, module.NAME))
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
