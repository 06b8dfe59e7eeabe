"""The notebooks people open (tools/editions/derive.py): every chapter and lab, every language, as a
Colab-ready answer key and as a student notebook.

- The conversion of MyST to plain Jupyter Markdown, construct by construct, and on every derived
  notebook: no raw MyST is left, the language cell comes first, the bookkeeping cells are gone.
- The student edition keeps no solution: no solution code, no {solution} block, no stored output
  of a check cell or of a cell tagged hide-output-student, a localised comment where to type.
- Run as a student would: a student lab notebook, copied alone into an empty folder outside the
  repository, runs top to bottom with the package installed from its wheel (never the checkout),
  every check says "not attempted" in the notebook's language; with the answer key's answers filled
  in, every check says "correct". Each lab and each chapter runs so once, in one language per
  notebook, every language once per kind (lab k in the language after chapter k's): their code is
  the same in every language (test_notebooks.py), nbval re-executes every language's notebook with
  its checks, and every notebook in every language runs in the Colab-like benchmark
  (`make colab ARGS=--chapters`). No stored output and no prose of any language's student notebook
  shows a checked answer: the answers of the lab's run, whose solution cells are the same code in
  every language.
"""

from __future__ import annotations

import pickle
import re
from functools import cache
from pathlib import Path

import nbformat
import pytest

from beyond_accuracy import term
from tools.editions.colab import run_as_student, solutions_and_checks
from tools.editions.derive import (
    KEY,
    NOT_RANKED,
    STUDENT,
    Converter,
    Page,
    answer_key,
    answer_leaks,
    choice_leaks,
    choice_rankings,
    derive,
    is_check_cell,
    page_of,
    parse_blocks,
    placeholder,
    publish_path,
    raw_myst,
    sources,
    student_notebook,
    tags,
)
from tools.project import ROOT, first_cell, languages, site_url

SOURCES = sources()
LABS = [p for p in SOURCES if p.parent.parent.name == "labs"]
CHAPTERS = [p for p in SOURCES if p.parent.parent.name == "chapters"]


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def convert(text: str, edition: str = KEY, lang: str = "en", glue=None) -> str:
    return Converter(Page("chapters", lang, "01-confusion-matrix"), edition, glue or {}).convert(text)


# ---------------------------------------------------------------------------------------------
# MyST -> plain Markdown, construct by construct


def test_glue_roles_become_the_glued_text():
    out = convert(
        "F1 is {glue:text}`f1` and {glue}`n`, not `{glue:text}` in code.", glue={"f1": "0,737", "n": "20"}
    )
    assert out == "F1 is 0,737 and 20, not `{glue:text}` in code."
    with pytest.raises(ValueError, match="missing"):
        convert("{glue:text}`missing`")


def test_admonitions_become_quoted_blocks_with_their_title():
    out = convert(":::{admonition} Predict\n:class: tip\nHow many $m$\nare there?\n:::\n\nAfter.")
    assert out.startswith("> **🤔 Predict**\n>\n> How many $m$\n> are there?")
    assert out.endswith("After.") and ":class:" not in out
    assert convert(":::{warning}\nCareful.\n:::", lang="it").startswith("> **⚠️ Attenzione**")


def test_display_math_in_a_quoted_block_is_kept_on_one_line():
    out = convert(":::{admonition} Remember\n:class: important\n$$\na = b\n+ c\n$$\n:::")
    assert "> $$ a = b + c $$" in out


def test_exercises_are_numbered_and_solutions_go_to_the_answer_key_only():
    text = (
        "````{exercise} Counting\n:label: ex-a\n\nCount the cells.\n````\n\n"
        "````{solution} ex-a\n:class: dropdown\n\nThere are **four**.\n\n```python\nsecret = 4\n```\n````\n"
    )
    key = convert(text)
    assert "> **✏️ Exercise 1.1 (Counting)**" in key and "> **Solution — Exercise 1.1 (Counting)**" in key
    assert "> ```python\n> secret = 4\n> ```" in key
    student = convert(text, STUDENT, lang="fi")
    assert "**✏️ Tehtävä 1.1 (Counting)**" in student
    assert "four" not in student and "secret" not in student and "Ratkaisu" not in student


def test_figures_point_at_the_published_site():
    out = convert(
        "```{figure} figures/twenty-scores.svg\n:alt: Twenty [patients]\n:name: fig-x\n:width: 100%\n\nThe caption.\n```"
    )
    url = f"{site_url()}/en/chapters/en/figures/twenty-scores.svg"
    assert out == f"![Twenty (patients)]({url})\n\n*The caption.*"
    assert f"{site_url()}/en/chapters/en/figures/" in convert(
        "```{figure} figures/twenty-scores.svg\n```", STUDENT
    )
    with pytest.raises(ValueError, match="does not exist"):
        convert("```{figure} figures/no-such-figure.svg\n```")


def test_cross_references_link_to_the_site_pages():
    out = convert("See the {doc}`lab <../../labs/it/01-screening-lab>` and {doc}`glossary`.", lang="it")
    assert f"[lab]({site_url()}/it/labs/it/01-screening-lab.html)" in out
    assert f"({site_url()}/it/chapters/it/glossary.html)" in out and "[Glossario" in out
    student = convert("{doc}`../../labs/en/01-screening-lab`", STUDENT)
    assert student.startswith("[Lab 1 — ") and f"{site_url()}/en/labs/en/01-screening-lab.html" in student


def test_citations_give_author_year_and_a_reference_line():
    out = convert("As {cite:t}`fawcett2006` and others {cite:p}`chicco2020,fawcett2006` show.", lang="it")
    references = f"{site_url()}/it/chapters/it/references.html"
    assert f"[Fawcett [2006]]({references})" in out
    assert f"[[Chicco e Jurman, 2020]({references}); [Fawcett, 2006]({references})]" in out
    assert out.count("An introduction to ROC analysis") == 1 and "Pattern Recognition Letters" in out
    with pytest.raises(ValueError, match="unknown reference"):
        convert("{cite:p}`nobody1900`")


def test_comments_and_targets_disappear():
    assert convert("(sec-a)=\n## Title\n\n% slide\n$$\nx\n$$") == "## Title\n\n$$\nx\n$$"


def test_unknown_constructs_are_refused_rather_than_left_raw():
    with pytest.raises(ValueError, match="role"):
        convert("{term}`recall`")
    with pytest.raises(ValueError, match="directive"):
        convert(":::{margin}\nside\n:::")
    with pytest.raises(ValueError, match="not closed"):
        parse_blocks(":::{admonition} Open\nno end")


def test_raw_myst_finder_finds_each_construct():
    for text in ("{glue:text}`x`", ":::{note}", "```{figure} a.svg", "(label)=", "% comment", ":class: tip"):
        assert raw_myst(text), text
    assert (
        raw_myst("Plain **text**, `code`, $x$, a [link](https://x.org)\n\n```python\n% not myst\n```") == []
    )


def test_solution_cells_become_localised_placeholders():
    source = "pred = scores >= 0.4\nanswer_counts = (1, 2, 3, 4)\nanswer_f1: float = 0.5\n"
    out = placeholder(source, "pt")
    assert out.endswith("answer_counts = ...\nanswer_f1 = ...") and "0.4" not in out
    assert "Sua vez" in out and "0,09" in out  # where to type; Portuguese writes decimals with a comma
    assert all(line.startswith("#") and len(line) <= 100 for line in out.splitlines()[:-2])
    english = placeholder(source, "en")
    assert "0,09" not in english and english.splitlines()[0].startswith("# Your turn")
    with pytest.raises(ValueError, match="answer_"):
        placeholder("x = 1")


def test_check_cells_are_found_by_their_call():
    assert is_check_cell("check.counts(answer_counts)")
    assert is_check_cell("result = check.best(answer, seed=SEED)")
    assert not is_check_cell("from beyond_accuracy.checks.lab1 import check")


# ---------------------------------------------------------------------------------------------
# Every derived notebook


@pytest.mark.slow  # derives both editions of all 50 notebooks: make test, not make unit
@pytest.mark.parametrize("src", SOURCES, ids=rel)
def test_derived_notebooks_are_plain_jupyter(src):
    nb = nbformat.read(src, as_version=4)
    page = page_of(src, nb)
    for edition in (KEY, STUDENT):
        derived = derive(nb, page, edition)
        code = [c for c in derived.cells if c.cell_type == "code"]
        assert code[0].source == first_cell(page.lang), (
            f"{rel(src)} ({edition}): the language cell is not first"
        )
        for i, cell in enumerate(derived.cells):
            where = f"{rel(src)} ({edition}) cell {i}"
            assert "remove-cell" not in tags(cell), f"{where}: a remove-cell cell was kept"
            if cell.cell_type == "markdown":
                assert not raw_myst(cell.source), f"{where}: raw MyST {raw_myst(cell.source)}"
            else:
                mimes = {m for out in cell.outputs for m in out.get("data", {})}
                assert not any(m.startswith("application/papermill") for m in mimes), f"{where}: glue output"
        nbformat.validate(derived)


@pytest.mark.slow  # derives both editions of all 50 notebooks: make test, not make unit
@pytest.mark.parametrize("src", SOURCES, ids=rel)
def test_student_notebook_has_no_solution(src, tmp_path):
    key = nbformat.read(src, as_version=4)
    student = nbformat.read(student_notebook(src, tmp_path / src.name), as_version=4)
    lang = page_of(src, key).lang
    text = "\n".join(c.source for c in student.cells)
    solutions = [c.source for c in key.cells if "solution" in tags(c)]
    for source in solutions:
        assert source not in text, f"{rel(src)}: solution code is in the student notebook"
    if src.parent.parent.name == "labs":
        assert solutions, f"{rel(src)}: a lab without solution cells: nothing was tested"
        assert text.count("= ...") >= len(solutions)
        assert text.count(term("nb_your_turn", lang)[:20]) == len(solutions)
    solution_prose = [c.source for c in key.cells if c.cell_type == "markdown" and "{solution}" in c.source]
    key_edition = "\n".join(c.source for c in derive(key, page_of(src, key), KEY).cells)
    heading = f"**{term('nb_solution', lang)} — {term('nb_exercise', lang)} "
    assert key_edition.count(heading) == sum(s.count("{solution}") for s in solution_prose)
    assert heading not in text, f"{rel(src)}: a solution block is in the student notebook"
    for cell in student.cells:
        if cell.cell_type == "code" and (is_check_cell(cell.source) or "hide-output-student" in tags(cell)):
            assert not cell.outputs, f"{rel(src)}: a check or hide-output-student cell kept its output"
        assert "solution" not in tags(cell)


def test_the_student_notebook_of_a_copy_outside_the_repository(tmp_path):
    """The grading tools call student_notebook on notebooks anywhere: the language comes from the
    notebook's own language cell."""
    src = ROOT / "labs" / "es" / "01-screening-lab.ipynb"
    outside = tmp_path / "submitted" / "01-screening-lab.ipynb"
    outside.parent.mkdir()
    outside.write_bytes(src.read_bytes())
    assert (
        student_notebook(outside, tmp_path / "a.ipynb").read_bytes()
        == student_notebook(src, tmp_path / "b.ipynb").read_bytes()
    )
    assert answer_key(outside, tmp_path / "k.ipynb").exists()


URL = re.compile(r"\]\((https?://[^)\s]+)\)")


@pytest.mark.parametrize("lang", languages())
def test_figures_and_links_of_the_notebooks_exist_on_the_site(lang, site, editions):
    """Every figure and page a derived notebook links to is a file of the built site."""
    checked = 0
    for root, edition in ((editions / "publish", STUDENT), (editions / "answer-keys", KEY)):
        built = site
        base = site_url() + "/"
        for path in sorted(root.glob(f"*/{lang}/*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            for cell in nb.cells:
                if cell.cell_type != "markdown":
                    continue
                for url in URL.findall(cell.source):
                    if not url.startswith(site_url()):
                        continue
                    assert url.startswith(base), f"{path.name} ({edition}) links to the other site: {url}"
                    target = built / url[len(base) :].split("#")[0]
                    assert target.exists(), f"{path.name} ({edition}): {url} is not on the built site"
                    checked += 1
    assert checked > 100, "hardly any link was checked"


# ---------------------------------------------------------------------------------------------
# Run as a student would


@cache
def student_run(src: Path, publish: Path, python: Path):
    return run_as_student(publish_path(page_of(src), publish), src, python)


def assert_runs_alone_from_the_wheel(src: Path, editions: Path, wheel_python: Path):
    run = student_run(src, editions / "publish", wheel_python)
    lang = page_of(src).lang
    assert run.folder_files == [src.name], "the notebook was not alone in its folder"
    venv = wheel_python.parent.parent
    assert Path(run.package).is_relative_to(venv), f"the package came from {run.package}, not the wheel"
    assert not any(Path(p).resolve().is_relative_to(ROOT / "src") for p in run.sys_path if p)
    expected = len(solutions_and_checks(nbformat.read(src, as_version=4)))
    assert len(run.student_checks) == len(
        [c for c in nbformat.read(src, as_version=4).cells if is_check_cell(c.source)]
    )
    assert len(run.filled_checks) == expected
    not_attempted, correct = term("check_not_attempted", lang), term("check_correct", lang)
    for i, out in enumerate(run.student_checks):
        assert out.strip() == f"✏️ {not_attempted}", (
            f"{rel(src)}: check {i} of the student run printed {out!r}"
        )
    for i, out in enumerate(run.filled_checks):
        lines = out.strip().splitlines()
        assert lines and all(line == f"✅ {correct}" for line in lines), (
            f"{rel(src)}: check {i} with the answer key's answer printed {out!r}"
        )
    return run


def assert_gives_no_answer_away(
    src: Path, editions: Path, wheel_python: Path, answers_of: Path | None = None
):
    """No stored output or prose of src's student notebook shows an answer that the run of
    ``answers_of`` (the same lab in another language; src itself by default) collected."""
    run = student_run(answers_of or src, editions / "publish", wheel_python)
    assert run.answers, f"{rel(src)}: no checked answer was collected"
    student = nbformat.read(publish_path(page_of(src), editions / "publish"), as_version=4)
    lang = page_of(src).lang
    leaks = answer_leaks(student, run.answers, lang)
    for name, ranking in choice_rankings().items():
        if name not in run.check_inputs:
            continue
        values = ranking.values(*pickle.loads(run.check_inputs[name]))
        answer = run.answers[f"answer_{name}"]
        assert ranking.answer(values) == answer, f"{name}: the ranking does not decide the answer {answer!r}"
        check_cell = next(i for i, c in enumerate(student.cells) if f"check.{name}(" in c.source)
        above = nbformat.from_dict({**student, "cells": student.cells[:check_cell]})
        if ranking.material:  # the exercise reads the ranking off a table above it
            assert choice_leaks(above, name, values, answer, lang), (
                f"{name}: its ranking is not printed above it"
            )
        else:
            leaks += choice_leaks(student, name, values, answer, lang, ranking.words, after=check_cell)
    assert not leaks, f"{rel(src)}: the student notebook shows checked answers:\n" + "\n".join(leaks)


def lab_params(number: int) -> list[Path]:
    return [p for p in LABS if p.stem.startswith(f"{number:02d}-")]


def rotated(paths: list[Path], shift: int = 0) -> list[Path]:
    """The k-th notebook (by name) in the (k + shift)-th language: every notebook once and, with
    five of them, every language once."""
    langs = languages()
    stems = sorted({p.stem for p in paths})
    kind = paths[0].parent.parent.name
    return [ROOT / kind / langs[(i + shift) % len(langs)] / f"{stem}.ipynb" for i, stem in enumerate(stems)]


def run_language_of(lab: Path) -> Path:
    """The lab's notebook that runs from the wheel (rotated(LABS, 1))."""
    return next(p for p in rotated(LABS, 1) if p.stem == lab.stem)


def solution_cells(src: Path) -> list[str]:
    return [solution for solution, _ in solutions_and_checks(nbformat.read(src, as_version=4))]


def pytest_generate_tests(metafunc):
    if "lab" in metafunc.fixturenames:
        metafunc.parametrize("lab", lab_params(metafunc.cls.number), ids=rel)
    if "run_lab" in metafunc.fixturenames:
        metafunc.parametrize("run_lab", [run_language_of(lab_params(metafunc.cls.number)[0])], ids=rel)


class LabTests:
    """One class per lab, so that pytest-xdist (--dist loadscope) spreads the labs over workers;
    the lab runs from the wheel in one language (student_run is cached)."""

    number = 0

    def test_runs_alone_from_the_wheel(self, run_lab, editions, wheel_python):
        assert_runs_alone_from_the_wheel(run_lab, editions, wheel_python)

    def test_gives_no_answer_away(self, lab, editions, wheel_python):
        ran = run_language_of(lab)
        assert solution_cells(lab) == solution_cells(ran), (
            f"{rel(lab)}: its solutions differ from {rel(ran)}'s, whose answers are looked for"
        )
        assert_gives_no_answer_away(lab, editions, wheel_python, answers_of=ran)


class TestLab1(LabTests):
    number = 1


class TestLab2(LabTests):
    number = 2


class TestLab3(LabTests):
    number = 3


class TestLab4(LabTests):
    number = 4


class TestLab5(LabTests):
    number = 5


def test_every_checked_choice_is_decided_by_a_ranking_or_says_why_not():
    """The leak test looks for each choice's deciding values: a new choice exercise needs its
    Ranking in tools/editions/derive.py (or a reason in NOT_RANKED)."""
    from beyond_accuracy.checks import _engine, lab1, lab2, lab3, lab4, lab5

    choices = {
        name
        for lab in (lab1, lab2, lab3, lab4, lab5)
        for name, exercise in _engine.lab_exercises(int(lab.__name__[-1])).items()
        if exercise.kind == "choice"
    }
    assert choices == set(choice_rankings()) | set(NOT_RANKED)
    assert not set(choice_rankings()) & set(NOT_RANKED)


def test_a_ranked_choice_leaks_through_a_table_the_gaps_or_the_prose():
    values = {"temperature": 0.0748, "sigmoid": 0.0833, "isotonic": 0.0834}
    nb = nbformat.v4.new_notebook()
    table = "             brier\ntemperature 0.0748\nsigmoid     0.0833\nisotonic    0.0834\n"
    gaps = "sigmoid +0.0085 isotonic +0.0086 temperature 0.0000"
    nb.cells = [
        nbformat.v4.new_markdown_cell("Which calibrator has the lowest Brier score?"),
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("stream", text=table)]),
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("stream", text=gaps)]),
        nbformat.v4.new_markdown_cell("Its best Brier score after any repair, 0.075, is still worse."),
        nbformat.v4.new_markdown_cell("A Brier score of 0.0833 is not the point here."),
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("stream", text="temperature: 0.075\n")]),
    ]
    leaks = choice_leaks(nb, "best_calibrator", values, "temperature", "en", ("Brier",), after=0)
    assert not choice_leaks(nb, "best_calibrator", values, "temperature", "en", ("Brier",), after=9)[2:]
    assert [leak.split(":")[0] for leak in leaks] == [
        "best_calibrator in cell 1 (output)",
        "best_calibrator in cell 2 (output)",
        "best_calibrator in cell 3 (prose)",
    ], leaks
    assert not choice_leaks(nb, "best_calibrator", {**values, "temperature": 0.05}, "temperature", "en")[2:]
    other = nbformat.v4.new_notebook()  # the same number, of another quantity: not the answer's
    other.cells = [
        nbformat.v4.new_markdown_cell("The ECE goes from 0.046 with five bins to 0.075 with thirty.")
    ]
    assert not choice_leaks(other, "best_calibrator", values, "temperature", "en", ("Brier",))
    share = nbformat.v4.new_notebook()
    share.cells = [
        nbformat.v4.new_markdown_cell("They make up 99% of the 100 lowest losses and 6% of the highest.")
    ]
    assert choice_leaks(share, "leak_tail", {"top": 0.06, "bottom": 0.99}, "bottom", "en")


def test_the_runs_from_the_wheel_cover_every_notebook_and_every_language():
    for paths, shift in ((LABS, 1), (CHAPTERS, 0)):
        runs = rotated(paths, shift)
        assert sorted(p.stem for p in runs) == sorted({p.stem for p in paths})
        assert sorted(p.parent.name for p in runs) == sorted(languages())
    assert all(lab.parent.name != ch.parent.name for lab, ch in zip(rotated(LABS, 1), rotated(CHAPTERS)))


class TestChapters:
    @pytest.mark.parametrize("src", rotated(CHAPTERS), ids=rel)
    def test_runs_alone_from_the_wheel(self, src, editions, wheel_python):
        run = student_run(src, editions / "publish", wheel_python)
        assert run.folder_files == [src.name], "the notebook was not alone in its folder"
        assert Path(run.package).is_relative_to(wheel_python.parent.parent), f"package from {run.package}"
        assert not run.student_checks, "a chapter with check cells: test it like a lab"


def test_the_install_cell_installs_the_pinned_release():
    """One release, set in _config.yml, is what Colab's install cell and Binder install."""
    import tomllib

    from tools.editions.derive import binder_files
    from tools.project import install_spec, release, release_tag, repository_url

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert release() == version, "course.release in _config.yml and the version in pyproject.toml differ"
    assert install_spec() == f"beyond-accuracy @ git+{repository_url()}@{release_tag()}"
    assert release_tag() == f"v{version}"
    for lang in languages():
        assert f'"{install_spec()}"' in first_cell(lang) and "@main" not in first_cell(lang)
    assert install_spec() in binder_files()["requirements.txt"].splitlines()


def run_the_install_cell(lang, monkeypatch, capsys, before, after, imported=(), in_colab=True):
    """The install cell's code, run as in Colab (``google.colab`` imported), with pip replaced by
    a change of the installed versions from ``before`` to ``after``; returns (pip calls, printed)."""
    import importlib.metadata
    import subprocess
    import sys
    import types

    versions = dict(before)

    class Distribution:
        def __init__(self, name, version):
            self.metadata, self.version = {"Name": name}, version

    calls = []

    def pip(command, check):
        calls.append(command)
        versions.clear()
        versions.update(after)

    # the top-level modules of each distribution; beyond_accuracy, which this test process has
    # imported, counts only where a case says so (in a fresh Colab session it is not imported)
    modules = {"sklearn": ["scikit-learn"], "numpy": ["numpy"]}
    if "beyond_accuracy" in imported:
        modules["beyond_accuracy"] = ["beyond-accuracy"]
    monkeypatch.setattr(
        importlib.metadata, "distributions", lambda: [Distribution(*i) for i in versions.items()]
    )
    monkeypatch.setattr(importlib.metadata, "packages_distributions", lambda: modules)
    monkeypatch.setattr(subprocess, "run", pip)
    if in_colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    if "sklearn" in imported:
        monkeypatch.setitem(sys.modules, "sklearn", sys.modules.get("sklearn") or types.ModuleType("sklearn"))
    else:
        monkeypatch.delitem(sys.modules, "sklearn", raising=False)
    exec(compile(first_cell(lang), "<install cell>", "exec"), {})
    return calls, capsys.readouterr().out


COLAB_BEFORE = {"numpy": "2.1.3", "scikit-learn": "1.6.1"}
COLAB_AFTER = {"numpy": "2.1.3", "scikit-learn": "1.9.1", "beyond-accuracy": "0.2.0"}


def test_the_install_cell_says_what_it_installed_and_that_no_restart_is_needed(monkeypatch, capsys):
    from beyond_accuracy import get_language
    from tools.project import install_spec

    calls, printed = run_the_install_cell("en", monkeypatch, capsys, COLAB_BEFORE, COLAB_AFTER)
    assert calls and calls[0][-1] == install_spec() and calls[0][2:4] == ["pip", "install"]
    assert printed.splitlines() == [
        "Installed: beyond-accuracy 0.2.0, scikit-learn 1.6.1 → 1.9.1.",
        "No restart needed.",
    ]
    assert get_language() == "en"
    _, printed = run_the_install_cell("it", monkeypatch, capsys, COLAB_AFTER, COLAB_AFTER)
    assert printed.splitlines() == [
        "Il pacchetto del corso era già installato: non è cambiato nulla.",
        "Non serve riavviare la sessione.",
    ]
    assert get_language() == "it"
    calls, printed = run_the_install_cell(
        "en", monkeypatch, capsys, COLAB_BEFORE, COLAB_AFTER, in_colab=False
    )
    assert not calls and not printed, "outside Colab the cell only sets the language"


@pytest.mark.parametrize("lang", languages())
def test_the_install_cell_asks_for_a_restart_only_if_an_upgraded_module_was_in_use(lang, monkeypatch, capsys):
    from tools.project import _terms_csv

    with pytest.raises(SystemExit) as stopped:
        run_the_install_cell(lang, monkeypatch, capsys, COLAB_BEFORE, COLAB_AFTER, imported=("sklearn",))
    message = str(stopped.value)
    assert message == _terms_csv()["install_restart"][lang].format(modules="sklearn")
    _, printed = run_the_install_cell(lang, monkeypatch, capsys, COLAB_BEFORE, COLAB_AFTER)
    assert printed.splitlines()[-1] == _terms_csv()["install_no_restart"][lang]
    newer = {**COLAB_AFTER, "beyond-accuracy": "0.3.0"}  # run again after a new release, in the same session
    with pytest.raises(SystemExit) as stopped:
        run_the_install_cell(lang, monkeypatch, capsys, COLAB_AFTER, newer, imported=("beyond_accuracy",))
    assert str(stopped.value) == _terms_csv()["install_restart"][lang].format(modules="beyond_accuracy")


def test_the_colab_like_run_reads_colabs_runtime_from_one_dated_table():
    import datetime

    from tools.editions.colab import colab_runtime, install_cell

    runtime = colab_runtime()
    datetime.date.fromisoformat(runtime.as_of)
    assert runtime.python == "3.13"
    assert runtime.packages["ipywidgets"].startswith("7.") and runtime.packages["scikit-learn"] == "1.6.1"
    assert all(r.count("==") == 1 for r in runtime.requirements())
    cell = install_cell(ROOT / "dist" / "beyond_accuracy-0.2.0-py3-none-any.whl")
    assert cell == first_cell("en").replace(
        install_spec_(),
        f"beyond-accuracy @ {(ROOT / 'dist' / 'beyond_accuracy-0.2.0-py3-none-any.whl').as_uri()}",
    )


def install_spec_():
    from tools.project import install_spec

    return install_spec()
