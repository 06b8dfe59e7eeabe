"""The edit loop (README, "Everyday tasks"): one command per edit. `make notebook` re-executes one
notebook in one or more languages, `make prose` copies Markdown edits into the .ipynb, `make code`
copies the English code cells into the translations, `make check` runs the tests of one page;
tools.book.notebooks refuses a path it does not know; a language given to make is never the
shell's locale."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest

from tools.book import check, notebooks
from tools.book.notebooks import copy_code, notebook_command, selected
from tools.project import ROOT, languages

CH2 = ROOT / "chapters" / "en" / "02-imbalance.md"


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --- which notebooks -----------------------------------------------------------------------------


def test_one_notebook_in_one_all_or_some_languages():
    assert selected([CH2], None) == [CH2]
    assert [rel(p) for p in selected([CH2], "all")] == [
        f"chapters/{lang}/02-imbalance.md" for lang in languages()
    ]
    assert [rel(p) for p in selected([CH2], "it, fi")] == [
        "chapters/it/02-imbalance.md",
        "chapters/fi/02-imbalance.md",
    ]
    assert [p.parent.name for p in selected([], "pt")] == ["pt"] * 10
    assert len(selected([], None)) == 10 * len(languages())


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            "chapters/en/02-imbalance.ipynb",
            "the .ipynb is written from its source; give chapters/en/02-imbalance.md",
        ),
        ("chapters/en/02-imbalnce.md", "no such notebook; did you mean chapters/en/02-imbalance.md?"),
        ("README.md", "not a chapter or lab notebook"),
    ],
)
def test_a_path_that_is_not_a_notebook_source_is_refused_and_nothing_runs(
    given, message, capsys, monkeypatch
):
    monkeypatch.chdir(ROOT)
    ran = []
    monkeypatch.setattr(notebooks, "execute", lambda *a, **k: ran.append(a))
    monkeypatch.setattr(notebooks, "sync_prose", lambda *a, **k: ran.append(a))
    for extra in ([], ["--prose-only"], ["--code-only"]):
        with pytest.raises(SystemExit) as exit_:
            notebooks.main([given, *extra])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert message in err and "nothing was run" in err
    assert ran == []


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language de"):
        selected([CH2], "it,de")


def test_the_command_that_re_executes_names_the_notebook_and_its_languages():
    family = {lang: ROOT / "chapters" / lang / "02-imbalance.md" for lang in languages()}
    assert notebook_command([family["it"]]) == "make notebook NB=chapters/it/02-imbalance.md"
    assert notebook_command(list(family.values())) == "make notebook NB=chapters/en/02-imbalance.md ALL=1"
    assert (
        notebook_command([family["fi"], family["it"]])
        == 'make notebook NB=chapters/en/02-imbalance.md LANGS="it fi"'
    )
    assert notebook_command([family["it"], ROOT / "labs" / "it" / "03-trust-lab.md"]) == "make notebooks"


# --- code written once ---------------------------------------------------------------------------


def _pair(tmp_path: Path, name: str = "02-imbalance.md") -> tuple[Path, Path]:
    for lang in ("en", "it"):
        (tmp_path / "chapters" / lang).mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "chapters" / lang / name, tmp_path / "chapters" / lang / name)
    return tmp_path / "chapters" / "en" / name, tmp_path / "chapters" / "it" / name


def _cells(path: Path, kind: str) -> list[str]:
    return [c.source for c in jupytext.read(path).cells if c.cell_type == kind]


def test_copying_the_english_code_changes_only_the_translations_code(tmp_path):
    english, italian = _pair(tmp_path)
    assert copy_code(italian) == [] and copy_code(english) == []
    prose = _cells(italian, "markdown")
    text = english.read_text(encoding="utf-8")
    code = _cells(english, "code")
    changed = text.replace(code[3], code[3] + "\nprint('one more line')", 1)
    english.write_text(changed, encoding="utf-8")
    assert copy_code(italian, write=False) == ["code cell 3 copied"]
    assert _cells(italian, "code")[3] == code[3]  # write=False changes nothing
    assert copy_code(italian) == ["code cell 3 copied"]
    assert _cells(italian, "code")[1:] == _cells(english, "code")[1:]
    assert _cells(italian, "code")[0] != _cells(english, "code")[0]  # the language cell stays Italian
    assert _cells(italian, "markdown") == prose
    assert copy_code(italian) == []


def test_cells_the_english_page_adds_or_removes_are_added_or_removed(tmp_path):
    english, italian = _pair(tmp_path)
    lines = english.read_text(encoding="utf-8").split("\n")
    spans = notebooks.code_cells("\n".join(lines))
    (s4, e4), e6 = spans[4], spans[6][1]
    new_cell = ["", "```{code-cell} ipython3", ":tags: [remove-cell]", "added = True", "```"]
    lines[e6:e6] = new_cell  # a new cell after code cell 6
    del lines[s4:e4]  # code cell 4 removed
    english.write_text("\n".join(lines), encoding="utf-8")
    notes = copy_code(italian)
    assert notes == [
        "1 code cell(s) removed",
        "1 code cell(s) added after code cell 6 (move them to their place in the prose)",
    ]
    it_nb, en_nb = jupytext.read(italian), jupytext.read(english)
    assert [c.source for c in it_nb.cells if c.cell_type == "code"][1:] == _cells(english, "code")[1:]
    added = next(c for c in it_nb.cells if c.source == "added = True")
    assert added.metadata["tags"] == ["remove-cell"]
    assert len(en_nb.cells) - len(it_nb.cells) == len(en_nb.cells) - len(jupytext.read(italian).cells)


def test_make_code_copies_an_english_page_into_every_translation(monkeypatch, capsys):
    copied = []
    monkeypatch.setattr(notebooks, "copy_code", lambda path, write=True: copied.append(path) or [])
    assert notebooks.main(["--code-only", str(CH2)]) == 0
    assert [p.parent.name for p in copied] == languages()


# --- the make targets ------------------------------------------------------------------------------


def make_n(*args: str, env: dict | None = None) -> str:
    """What make would run; the variables of a make that runs these tests (`make check ALL=1`,
    passed down in MAKEFLAGS) are not passed on."""
    inherited = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**inherited, **(env or {})},
    )
    return " ".join((done.stdout + done.stderr).split())


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["notebook", f"NB={rel(CH2)}"], f"-m tools.book.notebooks --jobs 2 {rel(CH2)}"),
        (["notebook", f"NB={rel(CH2)}", "ALL=1"], f"--languages all {rel(CH2)}"),
        (["notebook", f"NB={rel(CH2)}", "LANGS=it es"], f'--languages "it es" {rel(CH2)}'),
        (["notebook"], "make notebook needs NB="),
        (["notebooks", "LANGS=fi"], '-m tools.book.notebooks --jobs 2 --languages "fi"'),
        (["prose", "NB=chapters/it/03-calibration.md"], "--prose-only chapters/it/03-calibration.md"),
        (["prose"], "-m tools.book.notebooks --prose-only"),
        (["code", f"NB={rel(CH2)}"], f"-m tools.book.notebooks --code-only {rel(CH2)}"),
        (["check", f"NB={rel(CH2)}", "ALL=1"], f"-m tools.book.check --languages all {rel(CH2)}"),
    ],
)
def test_the_edit_loop_targets_pass_their_options(args, expected):
    assert expected in make_n(*args)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_a_language_is_what_make_is_given_never_the_shells_locale():
    locale = {"LANG": "C.UTF-8"}
    assert "make grade needs the submissions' language" in make_n(
        "grade", "LAB=3", "SUBMISSIONS=x", env=locale
    )
    assert '--lang "it"' in make_n("grade", "LAB=3", "LANG=it", "SUBMISSIONS=x", env=locale)
    assert "tools.editions.lab --lang en" in make_n("lab", env={"LANG": "it_IT.UTF-8"})
    assert "tools.editions.lab --lang it" in make_n("lab", "LANG=it", env=locale)
    assert "--lang" not in make_n("translations", env={"LANG": "fi"})  # the locale, not a choice
    assert "--lang pt" in make_n("translations", "LANG=pt", env=locale)


def test_the_readme_names_every_edit_loop_target():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tasks = text.split("## Everyday tasks", 1)[1].split("\n## ", 1)[0]
    for target in ("notebook", "prose", "code", "check", "notebooks", "unit"):
        assert re.search(rf"`make {target}\b", tasks), f"README's Everyday tasks lack `make {target}`"


# --- checking one page -------------------------------------------------------------------------------


def test_the_check_of_a_page_runs_its_tests_and_nbval_of_its_notebooks():
    cmd = check.command(ROOT / "chapters" / "it" / "03-calibration.md")
    assert cmd[:3] == [sys.executable, "-m", "pytest"]
    assert cmd[cmd.index("-m", 3) + 1] == "not slow"
    keyword = cmd[cmd.index("-k") + 1]
    assert keyword.split(" or ")[0] == "03-calibration"
    assert "tests" in cmd and cmd[-1] == "chapters/it/03-calibration.ipynb" and "--nbval" in cmd
    every = check.command(CH2, "all")
    assert every[-5:] == [f"chapters/{lang}/02-imbalance.ipynb" for lang in languages()]
    page = check.command(ROOT / "chapters" / "fi" / "index.md")
    assert "--nbval" not in page and page[page.index("-k") + 1].startswith("index.md or ")
    with pytest.raises(ValueError, match="not a page of the book"):
        check.command(ROOT / "README.md")


def test_the_tests_the_check_of_a_page_adds_exist():
    """The tests that read every page, which the check of one page runs too, are still there."""
    defined = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    assert check.EVERY_PAGE and set(check.EVERY_PAGE) <= defined


# --- nbval under xdist's default distribution -------------------------------------------------------


@pytest.mark.slow  # runs nbval with two workers
def test_nbval_with_two_workers_keeps_a_notebooks_cells_together(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in ("x = 1", "print(x)", "y = x + 1", "print(y)")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, kernel_name="python3").execute()
    (tmp_path / "nb").mkdir()
    nbformat.write(nb, tmp_path / "nb" / "probe.ipynb")
    shutil.copy2(ROOT / "conftest.py", tmp_path / "conftest.py")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "2",
            "--nbval",
            "nb/probe.ipynb",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "4 passed" in run.stdout, run.stdout[-2000:]
