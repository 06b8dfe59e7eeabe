"""The committed figures are exactly what the scripts in figures_src/ produce today."""

from tools.figures import render_all, scripts
from tools.project import ROOT, languages


def test_there_is_a_script_per_figure():
    assert scripts()


def test_committed_figures_are_up_to_date(tmp_path):
    written = render_all(out=tmp_path)
    assert len(written) == len(scripts()) * len(languages())
    stale = []
    for path in written:
        lang, name = path.parent.name, path.name
        committed = ROOT / "chapters" / lang / "figures" / name
        if not committed.exists() or committed.read_bytes() != path.read_bytes():
            stale.append(str(committed.relative_to(ROOT)))
    assert not stale, f"figures differ from their scripts (run `make figures`): {stale}"


def test_no_orphan_figures():
    names = {p.name for lang in languages() for p in (ROOT / "chapters" / lang / "figures").glob("*")}
    from tools.figures import load

    produced = {f"{load(p).NAME}.svg" for p in scripts()}
    assert names <= produced, f"figures without a script: {sorted(names - produced)}"


def test_figures_are_localised(tmp_path):
    written = render_all(out=tmp_path)
    by_name = {}
    for path in written:
        by_name.setdefault(path.name, set()).add(path.read_bytes())
    same = [name for name, versions in by_name.items() if len(versions) < len(languages())]
    assert not same, f"figures identical in two languages (labels not localised?): {same}"


def test_svg_is_deterministic(tmp_path):
    first = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in render_all(out=tmp_path / "a")}
    second = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in render_all(out=tmp_path / "b")}
    assert first == second
    assert all(b"<dc:date>" not in data for data in first.values())
