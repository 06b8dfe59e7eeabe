"""The catalogue (src/beyond_accuracy/data/strings/, beyond_accuracy.catalogue): one format and one
loader for every translated string, which refuses a broken table with a clear ValueError; and no
translated string left anywhere else (Python code, the quizzes' JSON)."""

from __future__ import annotations

import ast
import importlib
import json
import re
import unicodedata
from pathlib import Path

import pytest
import tomllib

from beyond_accuracy import catalogue
from beyond_accuracy.catalogue import Localised, format_table, localised, parse_table, tables, text
from beyond_accuracy.checks._engine import lab_exercises
from beyond_accuracy.language import LANGUAGES, set_language, term
from tools.project import ROOT

PACKAGE = ROOT / "src" / "beyond_accuracy"
FOLDER = PACKAGE / "data" / "strings"
HEADER = "key,en,it,es,pt,fi\n"


def test_every_table_loads_and_every_key_is_unique_in_the_whole_catalogue():
    found = tables()
    assert set(found) == {
        "terms",
        "glossary",
        "theme",
        "quiz",
        "typography",
        *(f"lab{n}" for n in range(1, 6)),
    }
    every = [key for table in found.values() for key in table]
    assert len(every) == len(set(every)) == len(catalogue.keys())
    for name, table in found.items():
        for key, row in table.items():
            assert all(row[lang].strip() for lang in LANGUAGES), (name, key)


def test_the_stored_tables_are_what_the_loader_reads_back():
    for path in sorted(FOLDER.glob("*.csv")):
        table = parse_table(path.read_text(encoding="utf-8"), path.stem)
        header = path.read_text(encoding="utf-8").splitlines()[0].split(",")
        again = format_table(header, list(table.values()))
        assert parse_table(again, path.stem) == table, path.name


@pytest.mark.parametrize(
    ("name", "csv_text", "message"),
    [
        ("lab9", "", "is empty"),
        ("lab9", "id,en,it,es,pt,fi\n", "the first column must be 'key'"),
        ("lab9", "key,en,it,es,pt\nlab9.a,a,a,a,a\n", "lacks the language column(s) fi"),
        ("lab9", "key,en,it,es,pt,fi,de\n", "stray column(s) 'de'"),
        ("lab9", "key,en,it,es,pt,fi,note,note\n", "repeats a column"),
        ("lab9", HEADER + "lab9.a,a,a,a,a\n", "line 2: 5 cells for 6 columns"),
        ("lab9", HEADER + "lab9.a,a,a,a,a,a\nlab9.a,b,b,b,b,b\n", "line 3: the key 'lab9.a' is already used"),
        ("lab9", HEADER + "lab9.a,a,a, ,a,a\n", "the key 'lab9.a' has no text in es"),
        ("lab9", HEADER + "lab9.a,a,a,a,a,\n", "has no text in fi"),
        ("lab9", HEADER + "lab1.a,a,a,a,a,a\n", "does not start with the table's name, 'lab9.'"),
        ("lab9", HEADER + "lab9 a,a,a,a,a,a\n", "the key 'lab9 a' is empty or has characters"),
        ("terms", HEADER + "lab9.a,a,a,a,a,a\n", "of terms.csv has a dot"),
        (
            "lab9",
            HEADER + "lab9.a,{n} cases,{n} casi,{m} casos,{n} casos,{n} tapausta\n",
            "has the placeholders {m} in es but {n} in en",
        ),
        (
            "lab9",
            HEADER + "lab9.a,Fig. %s,Figura,Figura %s,Figura %s,Kuva %s\n",
            "placeholders none in it but %s in en",
        ),
    ],
)
def test_the_loader_refuses_a_broken_table_naming_the_problem(name, csv_text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_table(csv_text, name)


def test_a_table_may_carry_kind_and_note_columns():
    table = parse_table("key,kind,en,it,es,pt,fi,note\nx,ui,a,b,c,d,e,\n", "terms")
    assert table["x"]["kind"] == "ui" and table["x"]["fi"] == "e"


def test_a_key_in_two_tables_is_refused(tmp_path, monkeypatch):
    (tmp_path / "terms.csv").write_text(HEADER + "x,a,a,a,a,a\n", encoding="utf-8")
    (tmp_path / "lab1.csv").write_text(HEADER + "lab1.a.b,a,a,a,a,a\n", encoding="utf-8")
    monkeypatch.setattr(catalogue, "_folder", lambda: tmp_path)
    catalogue.tables.cache_clear()
    try:
        assert set(catalogue.tables()) == {"lab1", "terms"}
        (tmp_path / "lab1.a.csv").write_text(HEADER + "lab1.a.b,c,c,c,c,c\n", encoding="utf-8")
        catalogue.tables.cache_clear()
        with pytest.raises(
            ValueError, match=re.escape("the key 'lab1.a.b' is in both lab1.csv and lab1.a.csv")
        ):
            catalogue.tables()
    finally:
        catalogue.tables.cache_clear()
        catalogue._index.cache_clear()


def test_lookup_by_key_in_the_active_language_or_the_one_asked():
    assert text("lab1.counts.skill", "en").startswith("Turn probabilities into decisions")
    set_language("it")
    try:
        assert text("quiz.cm-accuracy-paradox.1.text") == term("quiz.cm-accuracy-paradox.1.text", "it")
    finally:
        set_language("en")
    hint = localised("lab1.counts.hint")
    assert isinstance(hint, Localised) and hint.key == "lab1.counts.hint" and list(hint) == list(LANGUAGES)
    assert dict(hint) == {lang: text("lab1.counts.hint", lang) for lang in LANGUAGES}
    with pytest.raises(ValueError, match="unknown key 'lab1.nothing': it is in no table"):
        localised("lab1.nothing")
    with pytest.raises(ValueError, match="unknown language 'de'"):
        text("lab1.counts.hint", "de")


# --- no translated string anywhere else ------------------------------------------------------------


def _string_literals(path: Path):
    """(line, value) of every string literal of a module that is not a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def _has_non_ascii_letters(s: str) -> bool:
    return any(ord(c) > 127 and unicodedata.category(c).startswith("L") for c in s)


def test_no_python_module_of_the_package_holds_a_translated_string():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {value[:60]!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, value in _string_literals(path)
        if _has_non_ascii_letters(value) and value != "θ"  # θ: a symbol in a plot's formula
    ]
    assert not found, "translated strings belong in the catalogue (data/strings/):\n" + "\n".join(found)


def test_the_scan_for_translated_strings_finds_one(tmp_path):
    module = tmp_path / "lab9.py"
    module.write_text(
        '"""Docstring: è."""\nhint = {"it": "Segnala la biopsia più probabile"}\n', encoding="utf-8"
    )
    assert [v for _, v in _string_literals(module) if _has_non_ascii_letters(v)] == [
        "Segnala la biopsia più probabile"
    ]


def test_the_checks_modules_hold_logic_only():
    """No five-language text in checks/: every hint, skill and about is a key of the catalogue."""
    for path in sorted((PACKAGE / "checks").glob("lab*.py")):
        source = path.read_text(encoding="utf-8")
        assert "texts(" not in source, path.name
        calls = [
            node
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Exercise", "Mistake")
        ]
        for call in calls:
            for keyword in call.keywords:
                if keyword.arg in ("hint", "skill", "about"):
                    value = keyword.value
                    assert isinstance(value, (ast.Call, ast.Name)), f"{path.name}:{call.lineno} {keyword.arg}"


def test_every_text_of_the_checks_is_used_by_one_exercise_and_each_exercise_has_its_own_keys():
    for lab in range(1, 6):
        importlib.import_module(f"beyond_accuracy.checks.lab{lab}")
        used = set()
        for name, exercise in lab_exercises(lab).items():
            for field in ("skill", "hint"):
                texts = getattr(exercise, field)
                assert isinstance(texts, Localised), (lab, name, field)
                assert texts.key in (f"lab{lab}.{name}.{field}", f"lab{lab}.pick.skill"), texts.key
                used.add(texts.key)
            for mistake in exercise.mistakes:
                for field in ("hint", "about"):
                    texts = getattr(mistake, field)
                    assert texts.key == f"lab{lab}.{name}.{mistake.key}.{field}", texts.key
                    used.add(texts.key)
        assert used == set(catalogue.keys(f"lab{lab}.")), (
            f"lab{lab}.csv: unused {set(catalogue.keys(f'lab{lab}.')) - used}"
        )


def test_the_quiz_files_hold_no_words():
    def walk(node, field=None):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, key)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value, field)
        elif isinstance(node, str):
            yield field, node

    for path in sorted((PACKAGE / "data" / "quizzes").glob("*.json")):
        strings = list(walk(json.loads(path.read_text(encoding="utf-8"))))
        assert {field for field, _ in strings} <= {"chapter", "id", "kind"}, path.name
        assert all(re.fullmatch(r"[a-z0-9_-]+", value) for _, value in strings), path.name


def test_the_catalogue_ships_with_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["beyond_accuracy"]
    for path in FOLDER.glob("*.csv"):
        assert any(path.relative_to(PACKAGE).match(p) for p in patterns), path.name
    assert not list(FOLDER.glob("*/")), "data/strings/ is flat: the package data lists data/strings/*.csv"


# --- what the explorers show -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explorers_name_metrics_with_short_labels_not_glossary_headwords(lang):
    """A metric in an explorer is "MCC", "NPV", "F1", "Brier", "recall": its own short label, never
    the glossary headword with its gloss ("recall (sensibilità)", "F1-luku (F1 score)")."""
    from beyond_accuracy.explorers import _widget, calibration, kappa, prevalence, threshold

    shown = {}
    for module in (threshold, prevalence, kappa, calibration):
        shown.update(_widget.labels(module._LABELS, lang))
    metrics = {key: label for key, label in shown.items() if key in _widget.SHORT_LABELS}
    assert set(metrics) == set(_widget.SHORT_LABELS)  # every short label is used
    for key, label in metrics.items():
        assert "(" not in label and len(label) <= 26, (key, label)
    assert metrics["mcc"] == "MCC" and metrics["npv"] == "NPV" and metrics["f1"] == "F1"
    assert metrics["brier_score"] == "Brier"
