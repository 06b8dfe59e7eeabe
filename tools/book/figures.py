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

Each figure also has a slide version, chapters/<lang>/slide-figures/<NAME>.svg, for the chapters'
decks (tools/teaching/slides.py): the same drawing on a smaller canvas, so that its text, whose
size in points does not change, is at least SLIDE_MIN_TEXT px when the deck scales the figure to
fill a slide's free room (SLIDE_BOX). The canvas scale is found from the figure's own smallest text
(drawn as paths: its size is the scale of the glyphs' group), and written in the file.

    python -m tools.book.figures            # regenerate the committed figures
    python -m tools.book.figures --out DIR  # render into DIR/<lang>/ (used by the tests)
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import math
import re
import sys
import textwrap
import warnings
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
SLIDE_DIR = "slide-figures"
# The room a figure fills on a 1280x720 slide whose title takes two lines (tools/teaching/slides.py),
# and the smallest text it must show there, with a margin for the layout's rounding.
SLIDE_BOX = (1168, 540)
SLIDE_MIN_TEXT = 18.5
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


def save_svg(fig, target: Path, metadata: dict | None = None) -> None:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={**SVG_METADATA, **(metadata or {})}, bbox_inches="tight")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(stable_svg(buffer.getvalue()).encode("utf-8"))


_VIEWBOX = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')
_TEXT_GROUP = re.compile(r'<g transform="[^"]*scale\(([\d.]+) -\1\)">(.*?)</g>', re.S)
_GLYPH_SCALE = re.compile(r'<use xlink:href="#[^"]+" transform="[^"]*scale\(([\d.]+)\)"')


def svg_text_size(svg: str) -> tuple[float, float, float]:
    """(width, height, smallest text) of a figure's SVG, in points: matplotlib draws text as paths,
    each text a group of glyphs scaled to its size (100 units per point), a superscript scaled
    again inside it."""
    width, height = map(float, _VIEWBOX.search(svg).groups())
    sizes = []
    for scale, body in _TEXT_GROUP.findall(svg):
        size = float(scale) * 100
        sizes.append(min([size] + [size * float(g) for g in _GLYPH_SCALE.findall(body)]))
    return width, height, min(sizes) if sizes else float("inf")


def slide_text_px(svg: str, box: tuple[float, float] = SLIDE_BOX) -> float:
    """The smallest text of a figure, in px, once scaled to fill ``box`` (px; aspect kept)."""
    width, height, smallest = svg_text_size(svg)
    return smallest * min(box[0] / width, box[1] / height)


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


def slide_path(out: Path | None, lang: str, name: str) -> Path:
    """Where the slide version of a figure goes: chapters/<lang>/slide-figures/ (or out/<lang>/slide-figures/)."""
    base = ROOT / "chapters" if out is None else out
    return base / lang / SLIDE_DIR / f"{name}.svg"


_RECORDED_SCALE = re.compile(r"canvas scale ([\d.]+)")


def _svg_text(fig, metadata: dict | None = None) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={**SVG_METADATA, **(metadata or {})}, bbox_inches="tight")
    return stable_svg(buffer.getvalue())


def text_overlaps(fig) -> set[tuple[int, int]]:
    """The pairs of a figure's drawn texts (by their order of drawing) whose boxes overlap. Only the
    texts the renderer draws count: matplotlib keeps the labels of ticks outside an axis's view,
    which it does not draw."""
    from unittest import mock

    from matplotlib.text import Text

    drawn: dict[int, Text] = {}
    original = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.setdefault(id(self), self)
        return original(self, renderer)

    with mock.patch.object(Text, "draw", record):
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in drawn.values()]
    return {
        (i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if boxes[i].overlaps(boxes[j])
    }


@contextlib.contextmanager
def _drawn_at(module, lang: str, scale: float):
    """The figure drawn on its canvas times ``scale``, in its language and the course's style
    (both kept while the block saves it: tick labels take the language's decimal mark when drawn)."""
    set_language(lang)
    try:
        with course_style():
            fig = module.draw()
            width, height = fig.get_size_inches()
            fig.set_size_inches(width * scale, height * scale)
            try:
                yield fig
            finally:
                plt.close(fig)
    finally:
        set_language("en")


def _legends_inside(fig) -> list[bool]:
    """For each axes' legend, in order: whether it lies inside its axes."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
            found.append(
                box.x0 >= frame.x0 - 1
                and box.y0 >= frame.y0 - 1
                and box.x1 <= frame.x1 + 1
                and box.y1 <= frame.y1 + 1
            )
    return found


def _probe(module, lang: str, scale: float) -> tuple[float, set]:
    """(smallest text in px on a slide, problems) of the figure at a canvas scale: the pairs of
    texts that overlap, each legend that lies outside its axes, and "layout" when the canvas is
    too small for matplotlib's layout."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        with _drawn_at(module, lang, scale) as fig:
            problems = text_overlaps(fig)
            problems |= {("legend outside", i) for i, inside in enumerate(_legends_inside(fig)) if not inside}
            px = slide_text_px(_svg_text(fig))
    if any("layout not applied" in str(w.message) for w in caught):
        problems.add(("layout", "collapsed"))
    return px, problems


def slide_scale(module, lang: str) -> float:
    """The canvas scale of a figure's slide version: the largest scale (at most 1) at which its
    smallest text is SLIDE_MIN_TEXT px in SLIDE_BOX, unless some of its texts then overlap that
    do not overlap at full size (tick labels that collide, an axis label longer than its axis) or
    the layout gives up: then the smallest scale, to 0.02, at which neither happens, and the
    figure's text stays smaller than SLIDE_MIN_TEXT (tests/browser/test_slide_decks.py reports it)."""
    px, clean = _probe(module, lang, 1.0)
    if px >= SLIDE_MIN_TEXT:
        return 1.0
    scale = round(px / SLIDE_MIN_TEXT, 3)
    for _ in range(3):  # the labels' size does not scale: approach the target in a few steps
        found, problems = _probe(module, lang, scale)
        if found >= SLIDE_MIN_TEXT:
            break
        scale = round(scale * found / SLIDE_MIN_TEXT * 0.99, 3)
    if problems <= clean:
        return scale
    low, high = scale, 1.0  # problems at low, none at high
    while high - low > 0.02:
        middle = round((low + high) / 2, 3)
        if _probe(module, lang, middle)[1] <= clean:
            high = middle
        else:
            low = middle
    return high


def recorded_scale(path: Path) -> float | None:
    """The canvas scale a committed slide version was drawn at (written in its metadata)."""
    if not path.exists():
        return None
    found = _RECORDED_SCALE.search(path.read_text(encoding="utf-8")[:4000])
    return float(found.group(1)) if found else None


def render_slide(module, lang: str, target: Path, scale: float | None = None) -> Path:
    """Draw the slide version of a figure (see the module's docstring) at ``target``: at the
    canvas scale :func:`slide_scale` finds, or at ``scale``. Its metadata says the scale and the
    size of its smallest text once it fills SLIDE_BOX."""
    scale = slide_scale(module, lang) if scale is None else scale
    with _drawn_at(module, lang, scale) as fig:
        svg = _svg_text(fig, {"Description": f"slide version, canvas scale {scale:.3f}; smallest text @PX@"})
    px = f"{math.floor(slide_text_px(svg) * 10) / 10:.1f} px in {SLIDE_BOX[0]}x{SLIDE_BOX[1]} px"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(svg.replace("@PX@", px, 1).encode("utf-8"))
    return target


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
    out: Path | None = None,
    only: list[str] | None = None,
    langs: list[str] | None = None,
    slides: bool = True,
    committed_scales: bool = False,
) -> list[Path]:
    """Render every script (or the scripts whose file stem or NAME is in ``only``) in every
    language (or in ``langs``), with its slide version unless ``slides`` is False (at the canvas
    scale recorded in the committed slide version with ``committed_scales``, as the tests do:
    finding it draws the figure several times); returns the files written."""
    written = []
    for path in scripts():
        module = load(path)
        if only is not None and path.stem not in only and module.NAME not in only:
            continue
        for lang in langs or languages():
            written += render(module, lang, output_path(out, lang, module.NAME))
            if slides:
                scale = recorded_scale(slide_path(None, lang, module.NAME)) if committed_scales else None
                written.append(render_slide(module, lang, slide_path(out, lang, module.NAME), scale))
    return written


def stale(written: list[Path]) -> list[str]:
    """The committed figures (paths relative to the repository) that differ from the rendered
    files ``written`` (each at <dir>/<lang>/<NAME>.svg, a phone layout at
    <dir>/<lang>/<NAME>.phone.svg, a slide version at <dir>/<lang>/slide-figures/<NAME>.svg) or do
    not exist."""
    out = []
    for path in written:
        if path.parent.name == SLIDE_DIR:
            committed = slide_path(None, path.parent.parent.name, path.stem)
        else:
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
