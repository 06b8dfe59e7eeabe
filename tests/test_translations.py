"""The translation drift guard (tools/language/translations.py, translations.json, `make translations`).

The guard's behaviour is tested on a small tree of its own (``tree``: a configuration, three English
pages and their translations, recorded as up to date), so that what the live repository holds (a
page may be behind on main, as the README promises) does not decide these tests."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from beyond_accuracy.language import term
from tools.language import translations as tr
from tools.project import ROOT

LANGS = ["it", "es", "pt", "fi"]
PAGE = "chapters/en/03-calibration.md"
FRONT = "---\njupytext:\n  text_representation:\n    format_name: myst\n    format_version: 0.13\n---\n"


def page_text(lang: str, title: str) -> str:
    """A small MyST page: an opening, two ``##`` sections, a code cell whose comment looks like a
    heading; the prose is marked with the language, the code is the same in every language."""
    return (
        f"{FRONT}\n# {title} ({lang})\n\nOpening, {lang}.\n\n## Why\n\nWhy, {lang}.\n\n"
        "```{code-cell} ipython3\n## not a heading\nx = 1\n```\n\n"
        f"## How\n\nHow, {lang}.\n"
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A tree of its own: five languages, three English pages (chapters/en/index.md,
    chapters/en/03-calibration.md, labs/en/02-fraud-desk-lab.md) and their translations, all
    recorded as up to date."""
    (tmp_path / "_config.yml").write_text(
        "course:\n  languages: [en, it, es, pt, fi]\n  reference_language: en\n", encoding="utf-8"
    )
    for page in ("chapters/en/index.md", PAGE, "labs/en/02-fraud-desk-lab.md"):
        for lang in ["en", *LANGS]:
            path = tmp_path / page.replace("/en/", f"/{lang}/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(page_text(lang, Path(page).stem), encoding="utf-8")
    assert len(tr.record(tmp_path)) == 3 * len(LANGS)
    return tmp_path


def edit_english(root: Path, page: str = PAGE) -> str:
    """Add a sentence to the first ``##`` section of an English page; returns that section's title."""
    path = root / page
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("## "))
    lines.insert(at + 1, "\nA sentence the translations do not have yet.")
    path.write_text("\n".join(lines), encoding="utf-8")
    return lines[at][3:].strip()


def behind(root: Path) -> list[tr.Status]:
    return [s for s in tr.status(root) if s.state != "up to date"]


def test_the_tree_of_the_tests_starts_up_to_date(tree):
    assert len(tr.status(tree)) == 3 * len(LANGS) and behind(tree) == []
    assert tr.english_pages(tree) == [
        "chapters/en/03-calibration.md",
        "chapters/en/index.md",
        "labs/en/02-fraud-desk-lab.md",
    ]


def test_pages_behind_are_reported_by_the_suite_not_failed(tree):
    """The live repository may hold translations behind English (on main, with their notice):
    the suite's summary lists them (tests/conftest.py), and no test fails for it."""
    assert tr.report_lines(tree) == []
    section = edit_english(tree)
    lines = tr.report_lines(tree)
    assert len(lines) == 4 and all(f'"{section}"' in line for line in lines)
    assert lines[0].startswith("chapters/it/03-calibration.md: behind chapters/en/03-calibration.md")


def test_every_translated_page_is_in_the_record():
    pages = {s.path for s in tr.status(ROOT)}
    assert pages == set(tr.load_record(ROOT)), (
        "translated pages missing from translations.json (or recorded but gone): "
        f"{sorted(pages ^ set(tr.load_record(ROOT)))}; record them once up to date: "
        "make translations RECORD=1 PAGES=..."
    )
    assert {s.lang for s in tr.status(ROOT)} == set(LANGS)
    assert {"chapters/fi/index.md", "chapters/pt/how-to-use.md", "labs/es/04-ordinal-lab.md"} <= pages


def test_an_english_edit_puts_exactly_that_page_behind_in_the_four_languages(tree, capsys):
    section = edit_english(tree)
    late = behind(tree)
    assert sorted(s.path for s in late) == sorted(f"chapters/{lang}/03-calibration.md" for lang in LANGS)
    assert all(s.state == "behind" and s.changed == [section] and not s.added and not s.removed for s in late)

    assert tr.main(["--root", str(tree)]) == 0  # the report never fails without --check
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if " behind " in line]
    assert len(lines) == 4
    for lang, line in zip(LANGS, lines):
        assert line.startswith(f"chapters/{lang}/03-calibration.md: behind chapters/en/03-calibration.md")
        assert f'"{section}"' in line
    assert out[-1].startswith("translations: 8 up to date, 4 behind, 0 missing")

    assert tr.record(tree) == [f"chapters/{lang}/03-calibration.md" for lang in LANGS]
    assert behind(tree) == []


def test_check_fails_only_when_a_page_is_behind(tree, capsys):
    assert tr.main(["--check", "--root", str(tree)]) == 0
    edit_english(tree, "labs/en/02-fraud-desk-lab.md")
    assert tr.main(["--check", "--root", str(tree)]) == 1
    assert tr.main(["--record", "--root", str(tree)]) == 0
    assert tr.main(["--check", "--root", str(tree)]) == 0


def test_recording_one_language_or_page_leaves_the_others_behind(tree):
    edit_english(tree)
    edit_english(tree, "chapters/en/index.md")
    assert tr.record(tree, langs=["it"], paths=[PAGE]) == ["chapters/it/03-calibration.md"]
    assert tr.record(tree, paths=["chapters/fi/index.md"]) == ["chapters/fi/index.md"]
    still = {s.path for s in behind(tree)}
    assert still == {f"chapters/{lang}/03-calibration.md" for lang in ("es", "pt", "fi")} | {
        f"chapters/{lang}/index.md" for lang in ("it", "es", "pt")
    }


def test_added_and_removed_sections_are_named(tree):
    path = tree / PAGE
    text = path.read_text(encoding="utf-8")
    first = next(line for line in text.split("\n") if line.startswith("## "))
    path.write_text(text.replace(first, "## A brand-new section", 1), encoding="utf-8")
    late = behind(tree)
    assert len(late) == 4
    assert all(s.added == ["A brand-new section"] and s.removed == [first[3:]] for s in late)


def test_front_matter_and_code_comments_are_not_sections_and_do_not_count(tree):
    path = tree / PAGE
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n") and "## not a heading" in text
    assert list(tr.sections(text)) == [tr.OPENING, "Why", "How"]
    path.write_text(text.replace("format_version: 0.13", "format_version: 0.99", 1), encoding="utf-8")
    assert behind(tree) == []
    parts = tr.sections(
        "# Title\n\nText.\n\n```{code-cell} ipython3\n## not a heading\nx = 1\n```\n\n## Real\n"
    )
    assert list(parts) == [tr.OPENING, "Real"]


def test_the_notice_is_in_the_pages_language_with_a_link_to_the_english_page():
    texts = set()
    for lang in LANGS:
        block = tr.notice(f"labs/{lang}/03-trust-lab", lang)
        for key in tr.NOTICE_TERMS:
            wording = term(key, lang)
            assert wording and wording != term(key, "en")
            texts.add(wording)
        assert term("translation_behind_title", lang) in block
        assert f'lang="{lang}"' in block
        assert 'href="../../../en/labs/en/03-trust-lab.html" hreflang="en"' in block
        assert "\n" not in block  # one raw HTML block in Markdown
    assert len(texts) == 4 * len(tr.NOTICE_TERMS)


def test_the_notice_goes_under_the_title(tmp_path):
    md = "---\ntitle: x\n---\n# Título\n\nTexto.\n"
    assert tr.with_notice(md, "<div>N</div>") == "---\ntitle: x\n---\n# Título\n\n<div>N</div>\n\n\nTexto.\n"
    notebook = tmp_path / "lab.ipynb"
    shutil.copy2(ROOT / "labs" / "pt" / "01-screening-lab.ipynb", notebook)
    tr.add_notice_to_notebook(notebook, "<div>N</div>")
    first = nbformat.read(notebook, as_version=4).cells[0].source
    assert first.split("\n")[0].startswith("# ") and first.split("\n")[2] == "<div>N</div>"


@pytest.mark.slow  # stages a whole language for the build: make test, not make unit
def test_the_build_stages_the_notice_only_on_pages_that_are_behind(tmp_path, monkeypatch):
    from tools.book import build

    monkeypatch.setattr(build, "behind_pages", lambda lang: set())  # whatever the live record says
    staged = build.stage("es", tmp_path / "up-to-date")
    for path in [*staged.glob("*/es/*.ipynb"), *staged.glob("*/es/*.md")]:
        assert "ba-translation-behind" not in path.read_text(encoding="utf-8"), path

    monkeypatch.setattr(
        build, "behind_pages", lambda lang: {"chapters/es/03-calibration", "chapters/es/index"}
    )
    staged = build.stage("es", tmp_path / "behind")
    marked = {
        path.relative_to(staged).as_posix()
        for path in [*staged.glob("*/es/*.ipynb"), *staged.glob("*/es/*.md")]
        if "ba-translation-behind" in path.read_text(encoding="utf-8")
    }
    assert marked == {"chapters/es/03-calibration.ipynb", "chapters/es/index.md"}
    cell = nbformat.read(staged / "chapters/es/03-calibration.ipynb", as_version=4).cells[0].source
    assert term("translation_behind_link", "es") in cell
    assert "../../../en/chapters/en/03-calibration.html" in cell


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "-m tools.language.translations"),
        (["CHECK=1"], "-m tools.language.translations --check"),
        (
            ["RECORD=1", "LANG=it", "PAGES=chapters/en/02-imbalance.md"],
            "--record chapters/en/02-imbalance.md --lang it",
        ),
    ],
)
def test_make_translations_passes_its_options(args, expected):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "LANG")}
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", "translations", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    command = [line for line in out.splitlines() if "tools.language.translations" in line]
    assert len(command) == 1 and expected in " ".join(command[0].split())


def test_a_new_wording_of_the_language_cell_puts_no_page_behind():
    """The first code cell is derived per language (tools.project.first_cell): rewording its
    messages (say, an apostrophe made typographic) changes no page its translations follow."""
    page = (ROOT / "chapters/en/01-confusion-matrix.md").read_text(encoding="utf-8")
    first = page.index("```{code-cell}")
    end = page.index("\n```", first + 3)
    reworded = page[:first] + page[first:end].replace("The course", "This course") + page[end:]
    assert reworded != page and "This course" in reworded
    assert tr.sections(reworded) == tr.sections(page)
    # a change to any other code cell still counts
    second = page.index("```{code-cell}", end)
    edited = page[:second] + page[second:].replace("\n```\n", "\nx = 1\n```\n", 1)
    assert tr.sections(edited) != tr.sections(page)
