"""The committed figures are exactly what the scripts in figures_src/ produce today, and that
comparison depends on what the figures show, not on floating-point noise below what is printed."""

import re
from pathlib import Path

import numpy as np
import pytest

from tools.book.figures import (
    PHONE_SUFFIX,
    SCRIPTS,
    SLIDE_DIR,
    load,
    phone_path,
    render,
    render_all,
    scripts,
    stable_svg,
    stale,
)
from tools.project import ROOT, languages, reference_language


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every figure of every language rendered once for the module (about 40 s): the tests below
    read the same files."""
    out = tmp_path_factory.mktemp("figures")
    return out, render_all(out=out, committed_scales=True)


def kinds(written):
    """The rendered files by kind: (figures, phone layouts, slide versions)."""
    slides = [p for p in written if p.parent.name == SLIDE_DIR]
    phones = [p for p in written if p.name.endswith(PHONE_SUFFIX)]
    figures = [p for p in written if p not in slides and p not in phones]
    return figures, phones, slides


def assert_up_to_date(written):
    out_of_date = stale(written)
    assert not out_of_date, f"figures differ from their scripts (run `make figures`): {out_of_date}"


def test_there_is_a_script_per_figure():
    """Each figure a page shows is drawn by a script of figures_src/ and committed in every
    language; each script draws a figure some page shows."""
    shown = set()
    for page in ROOT.glob("chapters/*/*.md"):
        shown |= set(re.findall(r"\{figure\}\s*figures/(\S+)\.svg", page.read_text(encoding="utf-8")))
    names = [load(p).NAME for p in scripts()]
    assert len(names) == len(set(names)) == len(scripts()) >= 10
    assert sorted(shown) == sorted(names), (
        f"figures without a script or scripts without a figure: {set(shown) ^ set(names)}"
    )
    for lang in languages():
        for name in names:
            assert (ROOT / "chapters" / lang / "figures" / f"{name}.svg").exists(), f"{lang}: {name}.svg"


def test_committed_figures_are_up_to_date(rendered):
    _, written = rendered
    figures, phones, slides = kinds(written)
    # each figure, its slide version, and the phone layouts the figures need
    assert len(figures) == len(slides) == len(scripts()) * len(languages())
    assert {(p.parent.parent.name, p.name) for p in slides} == {(p.parent.name, p.name) for p in figures}
    assert_up_to_date(written)
    # and no phone layout is committed that the scripts no longer draw
    phones = {p.parent.name + "/" + p.name for p in phones}
    committed = {
        f"{lang}/{p.name}"
        for lang in languages()
        for p in (ROOT / "chapters" / lang / "figures").glob("*" + PHONE_SUFFIX)
    }
    assert committed == phones, committed ^ phones


def test_no_orphan_figures():
    names = {p.name for lang in languages() for p in (ROOT / "chapters" / lang / "figures").glob("*")}
    produced = {f"{load(p).NAME}.svg" for p in scripts()}
    produced |= {phone_path(Path(name)).name for name in produced}
    assert names <= produced, f"figures without a script: {sorted(names - produced)}"
    slides = {p.name for lang in languages() for p in (ROOT / "chapters" / lang / SLIDE_DIR).glob("*")}
    drawn = {f"{load(p).NAME}.svg" for p in scripts()}
    assert slides <= drawn, f"slide versions without a script: {sorted(slides - drawn)}"


def test_figures_are_localised(rendered):
    _, written = rendered
    by_name = {}
    for path in written:
        by_name.setdefault(path.name, []).append(path.read_bytes())
    same = [name for name, versions in by_name.items() if len(set(versions)) < len(versions)]
    assert not same, f"figures identical in two languages (labels not localised?): {same}"


def test_svg_is_deterministic(rendered, tmp_path):
    """A second rendering in the same process gives the same bytes: no state (an id counter, a
    changed rcParam) carries over from one rendering to the next. One language is enough for that;
    the staleness test above compares every language with the committed files."""
    out, written = rendered
    lang = reference_language()
    second = {
        p.relative_to(tmp_path): p.read_bytes()
        for p in render_all(out=tmp_path, langs=[lang], committed_scales=True)
    }
    first = {p.relative_to(out): p.read_bytes() for p in written if p.relative_to(out) in second}
    figures, _, slides = kinds(second)
    assert len(figures) == len(slides) == len(scripts()) and first == second
    assert all(b"<dc:date>" not in p.read_bytes() for p in written)


# --- the same bytes on any machine; a real change still fails ------------------------------------


def _cut_points_figure(monkeypatch, tmp_path, change=None, retitle=None):
    """Render the ordinal-cut-points figure (the one whose clip-path id differed between
    machines) in English, with ``change`` applied to its features or its title changed."""
    from beyond_accuracy import datasets

    module = load(SCRIPTS / "ordinal_cut_points.py")
    if change is not None:
        original = datasets.diabetes_stages

        def perturbed(*args, **kwargs):
            X, y = original(*args, **kwargs)
            return change(X), y

        monkeypatch.setattr(datasets, "diabetes_stages", perturbed)
    if retitle is not None:
        original_term = module.term
        monkeypatch.setattr(
            module, "term", lambda key: retitle if key == "cut_points" else original_term(key)
        )
    return render(module, "en", tmp_path / "en" / f"{module.NAME}.svg")[0]


@pytest.mark.slow  # renders figures: make test, not make unit
@pytest.mark.parametrize("ulps", [1, 4])
def test_float_rounding_noise_in_the_input_gives_the_same_bytes(monkeypatch, tmp_path, ulps):
    # a relative change of a few units in the last place, as another CPU, BLAS kernel or thread
    # count produces in the model fit; before ids were numbered it changed every clip-path id
    scale = 1 + ulps * np.finfo(float).eps
    written = _cut_points_figure(monkeypatch, tmp_path, change=lambda X: X * scale)
    assert written.read_bytes() == (ROOT / "chapters/en/figures/ordinal-cut-points.svg").read_bytes()
    assert_up_to_date([written])


def test_a_changed_label_fails_naming_the_file(monkeypatch, tmp_path):
    written = _cut_points_figure(monkeypatch, tmp_path, retitle="Cut-points (changed)")
    with pytest.raises(AssertionError, match=r"chapters/en/figures/ordinal-cut-points\.svg"):
        assert_up_to_date([written])


def test_a_moved_line_fails_naming_the_file(monkeypatch, tmp_path):
    # a nonlinear change of the features (a scale alone is undone by the StandardScaler)
    written = _cut_points_figure(monkeypatch, tmp_path, change=lambda X: X + 0.05 * (X - X.mean()).abs())
    assert stale([written]) == ["chapters/en/figures/ordinal-cut-points.svg"]


def _two_panel_svg(offset):
    import io

    import matplotlib.pyplot as plt

    from beyond_accuracy.plots import course_style
    from tools.book.figures import SVG_METADATA

    with course_style():
        fig, axes = plt.subplots(1, 2, figsize=(4, 2))
        for ax in axes:
            ax.plot([0, 1], [0, 1], marker="o")
        axes[1].set_position([0.6 + offset, 0.1, 0.3, 0.8])
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata=SVG_METADATA)
        plt.close(fig)
    return buffer.getvalue()


def test_ids_do_not_hash_unprinted_digits():
    # axes 1e-13 of the figure apart: matplotlib's own ids differ, the stabilised files do not
    raw_a, raw_b = _two_panel_svg(0.0), _two_panel_svg(1e-13)
    assert raw_a != raw_b
    assert stable_svg(raw_a) == stable_svg(raw_b)
    assert 'id="clip1"' in stable_svg(raw_a) and 'clip-path="url(#clip2)"' in stable_svg(raw_a)
    # a visible move (0.01 of the figure = 2.88 pt) still changes the file
    assert stable_svg(_two_panel_svg(0.01)) != stable_svg(raw_a)
