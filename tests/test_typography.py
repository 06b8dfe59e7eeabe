"""Typography of the sources' prose and of the catalogue's strings (tools/language/typography.py):
each rule on small strings, what it must never touch, and every page and string already clean."""

from __future__ import annotations

import pytest

from beyond_accuracy import fmt
from beyond_accuracy.catalogue import tables
from tools.language import typography as t
from tools.language.typography import NBSP, fix_source, fix_string, fix_table

FM = "---\njupytext:\n  text_representation:\n    extension: .md\n---\n\n"


def fix(text: str, lang: str) -> str:
    return fix_source(text, lang)


# ------------------------------------------------------------------ percent


@pytest.mark.parametrize("lang", ["es", "fi"])
def test_percent_gets_a_no_break_space(lang):
    assert fix("un 30% y un 1 % y 2\u202f%\n", lang) == f"un 30{NBSP}% y un 1{NBSP}% y 2{NBSP}%\n"


@pytest.mark.parametrize("lang", ["it", "pt", "en"])
def test_percent_is_tight_where_that_is_the_norm(lang):
    assert fix("il 30 % e l'1%\n", lang) == "il 30% e l'1%\n"


# ------------------------------------------------------------------ thousands


def test_finnish_thousands():
    assert fix("noin 20 000 kuvaa ja 1 000 riviä, 100000 ja 1234567\n", "fi") == (
        f"noin 20{NBSP}000 kuvaa ja 1{NBSP}000 riviä, 100{NBSP}000 ja 1{NBSP}234{NBSP}567\n"
    )


def test_spanish_thousands_and_four_digits():
    assert fix("con 20.000 casos, 1.000 filas y 100 000 pagos\n", "es") == (
        f"con 20{NBSP}000 casos, 1000 filas y 100{NBSP}000 pagos\n"
    )


@pytest.mark.parametrize("lang", ["it", "pt"])
def test_point_thousands(lang):
    assert fix(f"con 20{NBSP}000 casi e 1.000 righe\n", lang) == "con 20.000 casi e 1.000 righe\n"


@pytest.mark.parametrize("lang", ["es", "fi", "it", "pt"])
def test_years_decimals_and_versions_are_not_numbers_to_group(lang):
    text = "En 2019 y 2024, 0,966 y 0.005, versión 1.2.3, 3,14159, semilla_12345, p. 12345-6\n"
    assert fix(text, lang) == text


def test_english_numbers_are_left_alone():
    assert fix("20,000 rows and 20 000\n", "en") == "20,000 rows and 20 000\n"


# ------------------------------------------------------------------ decimal lists


def test_decimal_lists_are_separated_by_semicolons_where_the_decimal_mark_is_a_comma():
    assert fix("confidenze 0,9, 0,8, 0,95 e 0,7\n", "it") == "confidenze 0,9; 0,8; 0,95 e 0,7\n"
    assert (
        fix("las probabilidades 0,05, 0,10, 0,15 y 0,40\n", "es")
        == "las probabilidades 0,05; 0,10; 0,15 y 0,40\n"
    )
    assert fix("as probabilidades 0,05, 0,10 e 0,40\n", "pt") == "as probabilidades 0,05; 0,10 e 0,40\n"
    assert (
        fix("todennäköisyydet 0,95, 0,50, 0,05 ja 0,01\n", "fi")
        == "todennäköisyydet 0,95; 0,50; 0,05 ja 0,01\n"
    )
    # not a list of decimals
    assert fix("soglia 0,5, e 0,5 è un'abitudine; 0,5, 3 casi\n", "it") == (
        "soglia 0,5, e 0,5 è un'abitudine; 0,5, 3 casi\n"
    )
    assert fix("0.9, 0.6\n", "en") == "0.9, 0.6\n"  # a decimal point: the comma is not ambiguous


# ------------------------------------------------------------------ thousands in formulas


@pytest.mark.parametrize("lang", ["es", "fi"])
def test_a_thousands_point_in_a_formula_becomes_a_thin_space(lang):
    src = "así que $R^2 = 1 - 10.000/40.000$ y $p = 0{,}005$, $$x = 1.234.567$$\n"
    assert fix(src, lang) == "así que $R^2 = 1 - 10\\,000/40\\,000$ y $p = 0{,}005$, $$x = 1\\,234\\,567$$\n"
    assert fix("$0.005$ y `10.000`\n", lang) == "$0.005$ y `10.000`\n"  # a decimal, and code


def test_a_thousands_point_in_a_formula_stays_where_the_point_groups():
    assert fix("$R^2 = 1 - 10.000/40.000$\n", "it") == "$R^2 = 1 - 10.000/40.000$\n"


# ------------------------------------------------------------------ Finnish heading dash


def test_finnish_heading_dash():
    src = "## Vaihe 1 — Lataa\n\n### Tehtävä—neljä\n\nTeksti — ei otsikko.\n"
    assert fix(src, "fi") == "## Vaihe 1 – Lataa\n\n### Tehtävä – neljä\n\nTeksti — ei otsikko.\n"
    assert fix("## Vaihe 1 — Lataa\n", "it") == "## Vaihe 1 — Lataa\n"


# ------------------------------------------------------------------ quotes


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("it", "la riga «macro avg» e «low», «high»."),
        ("es", "la riga «macro avg» e «low», «high»."),
        ("pt", "la riga “macro avg” e “low”, “high”."),
        ("fi", "la riga ”macro avg” e ”low”, ”high”."),
        ("en", "la riga “macro avg” e “low”, “high”."),
    ],
)
def test_quotes_per_language(lang, want):
    assert fix('la riga "macro avg" e "low", "high".\n', lang) == want + "\n"


def test_other_styles_become_the_languages_style_and_apostrophes_stay():
    assert fix("l'area “vera” e «falsa»\n", "pt") == "l'area “vera” e “falsa”\n"
    assert fix("l'area “vera” e ”falsa”\n", "it") == "l'area «vera» e «falsa»\n"
    assert fix("sano “kyllä” tai «ei»\n", "fi") == "sano ”kyllä” tai ”ei”\n"
    assert fix('("sì", in parentesi) e "a capo\nriga"\n', "it") == "(«sì», in parentesi) e «a capo\nriga»\n"


# ------------------------------------------------------------------ glossary link


def test_glossary_mid_sentence_lowercase():
    assert fix("O {doc}`glossary` traz os nomes.\n", "pt") == "O {doc}`glossário <glossary>` traz os nomes.\n"
    assert fix("consulta el {doc}`glossary`.\n", "es") == "consulta el {doc}`glosario <glossary>`.\n"
    # at the start of a sentence, paragraph or list item: the capitalised title stays
    for src in ("Fin. {doc}`glossary` recoge.\n", "{doc}`glossary` recoge.\n", "- {doc}`glossary`\n"):
        assert fix(src, "es") == src
    assert fix("see the {doc}`glossary`.\n", "en") == "see the {doc}`glossary`.\n"


# ------------------------------------------------------------------ what is never touched


NOT_PROSE = (
    FM
    + 'Texto "a" con 10%.\n\n'
    + '```{code-cell} ipython3\n:tags: [hide-cell]\nx = "a"  # 10% of 20000, 20 000\nprint(f"{x}")\n```\n\n'
    + '```python\ns = "b" # 1 000 %\n```\n\n'
    + 'Con `"x" 10%` y {glue:text}`acc_10%` y $p = 10\\%$ y $$\n"q" 20000\n$$ y <https://a.org/"x"?p=10%25>.\n\n'
    + '[enlace](https://e.org/a%20b "título") y https://x.org/20000?a="b"\n\n'
    + '$$\n\\text{"a"} 20000\n$$\n\n'
    + '```{figure} figures/x.svg\n:alt: Una "figura" con 10% y 20000\n:name: fig-x\n\nPie "de" figura con 10%.\n```\n\n'
    + ':::{admonition} Título "con" 10%\n:class: tip\nCuerpo "a".\n:::\n\n'
    + '<!-- "comentario" 10% -->\n% comentario "myst" 10%\n(target-20000)=\n'
)


def test_code_math_glue_urls_options_front_matter_untouched():
    out = fix(NOT_PROSE, "es")
    want = (
        NOT_PROSE.replace('Texto "a" con 10%.', f"Texto «a» con 10{NBSP}%.")
        .replace('Pie "de" figura con 10%.', f"Pie «de» figura con 10{NBSP}%.")
        .replace('Título "con" 10%', f"Título «con» 10{NBSP}%")
        .replace('Cuerpo "a".', "Cuerpo «a».")
    )
    assert out == want


def test_code_inside_exercises_untouched():
    src = (
        '````{exercise}\n:label: ex-1\n\nUn "ejercicio".\n\n```{code-cell} ipython3\ny = "z" # 10%\n```\n````\n\n'
        '````{solution} ex-1\n:class: dropdown\n\n```{code-cell} ipython3\nw = "v"\n```\nFin "ya".\n````\n'
    )
    assert fix(src, "es") == src.replace('Un "ejercicio"', "Un «ejercicio»").replace('Fin "ya"', "Fin «ya»")


def test_segments_cover_the_source_exactly():
    for path in t.sources():
        text = path.read_text(encoding="utf-8")
        assert "".join(s.text for s in t.segments(text)) == text


@pytest.mark.parametrize("lang", t.LANGS)
def test_idempotent(lang):
    once = fix(NOT_PROSE + 'y "otra" 30 % de 20.000 y 0,9, 0,6\n\n## A — B\n', lang)
    assert fix(once, lang) == once


# ------------------------------------------------------------------ one thousands separator per language


@pytest.mark.parametrize("lang", t.LANGS)
@pytest.mark.parametrize("n", [1234, 12345, 1234567])
def test_typed_numbers_follow_the_number_style_of_fmt(lang, n):
    """fmt's numbers are clean, and a string's number typed in another grouping comes out as fmt's."""
    want = fmt(n, digits=0, lang=lang)
    assert fix(f"x {want} y\n", lang) == f"x {want} y\n"
    assert fix_string(want, lang) == want
    digits = str(n)
    typed = {digits, t._group(digits, NBSP)} | ({t._group(digits, ".")} if lang != "en" else set())
    for number in typed:
        assert fix_string(f"x {number} y", lang) == f"x {want} y", number


# ------------------------------------------------------------------ the catalogue's strings


@pytest.mark.parametrize(
    ("lang", "text", "want"),
    [
        ("it", "L'accuratezza di un'AUC, un po' come l'80 %", "L’accuratezza di un’AUC, un po’ come l’80%"),
        ("en", "the model's score, the chapters' quizzes", "the model’s score, the chapters’ quizzes"),
        (
            "it",
            'leggi la sua "k" e f1_score(..., average="micro")',
            'leggi la sua «k» e f1_score(..., average="micro")',
        ),
        (
            "pt",
            'curve["k"], weights="quadratic" e `labels="a"` e "low"',
            'curve["k"], weights="quadratic" e `labels="a"` e “low”',
        ),
        (
            "fi",
            "985/1000 ja 1 000, 800/1800 vuonna 2019",
            f"985/1{NBSP}000 ja 1{NBSP}000, 800/1{NBSP}800 vuonna 2019",
        ),
        ("it", "Su 1.000 pazienti, 985/1000 = 0,985", "Su 1.000 pazienti, 985/1.000 = 0,985"),
        ("en", "Among 1,000 patients, 985/1000 of 100000", "Among 1,000 patients, 985/1,000 of 100,000"),
        ("es", "De 1000 pacientes, 985/1000 de 100.000", f"De 1000 pacientes, 985/1000 de 100{NBSP}000"),
        ("es", "las probabilidades 0,05, 0,10 y el 1 %", f"las probabilidades 0,05; 0,10 y el 1{NBSP}%"),
        ("it", "{n} casi, {threshold}", "{n} casi, {threshold}"),
    ],
)
def test_catalogue_strings_get_the_rules_of_their_language(lang, text, want):
    assert fix_string(text, lang) == want
    assert fix_string(want, lang) == want  # idempotent


def test_a_table_is_fixed_except_where_it_is_not_prose():
    text = (
        "key,en,it,es,pt,fi,note\n"
        "theme.x,you've found it,l'hai trovato,lo has encontrado,você o encontrou,löysit sen,don't touch\n"
    )
    fixed, changes = fix_table(text, "theme")
    assert changes == [
        ("theme.x", "it", "l'hai trovato", "l’hai trovato")
    ]  # en is the msgid; notes are not shown
    assert fixed == text.replace("l'hai", "l’hai")
    assert fix_table(fixed, "theme") == (fixed, [])


def test_every_catalogue_string_is_typographically_clean():
    pending = [
        f"{name}.csv {key} ({lang}): {old!r} -> {new!r}"
        for path in t.tables()
        for name in [path.stem]
        for key, lang, old, new in fix_table(path.read_text(encoding="utf-8"), name)[1]
    ]
    assert set(t.tables()) and {p.stem for p in t.tables()} == set(tables())
    assert not pending, "run `make typography`:\n" + "\n".join(pending)


def test_check_mode_lists_each_catalogue_string_and_exits_non_zero(tmp_path, capsys):
    table = tmp_path / "quiz.csv"
    table.write_text(
        "key,en,it,es,pt,fi\nquiz.q.prompt,It's 1%,È l'1 %,Es el 1%,É 1%,On 1%\n", encoding="utf-8"
    )
    assert t.main(["--check", str(table)]) == 1
    out = capsys.readouterr().out
    assert "quiz.q.prompt (en)" in out and "quiz.q.prompt (it)" in out and "quiz.q.prompt (es)" in out
    assert "(pt)" not in out
    assert t.main([str(table)]) == 0
    assert table.read_text(encoding="utf-8") == (
        f"key,en,it,es,pt,fi\nquiz.q.prompt,It’s 1%,È l’1%,Es el 1{NBSP}%,É 1%,On 1{NBSP}%\n"
    )
    assert t.main(["--check", str(table)]) == 0


# ------------------------------------------------------------------ the sources

# Pages of chapters and labs 01–05, written by the content helpers, on which the rules added with the
# catalogue (decimal lists in es/pt/fi, thousands in Spanish formulas) still find something: page ->
# the number of lines `make typography` would change. The count may only go down; remove a page once
# `make typography` has fixed it.
PENDING: dict[str, int] = {}


def _content_page(path) -> bool:
    return path.parent.parent.name in ("chapters", "labs") and path.name[:3] in {
        f"0{n}-" for n in range(1, 6)
    }


def test_every_source_is_typographically_clean():
    found = {}
    for path in t.sources():
        old = path.read_text(encoding="utf-8")
        lines = t._changed_lines(old, fix_source(old, t.language_of(path)))
        if lines:
            found[str(path.relative_to(t.ROOT))] = lines
    late = {p: n for p, n in found.items() if n > PENDING.get(p, 0)}
    assert not late, f"run `make typography` (lines to change per page): {late}"


def test_the_pending_pages_are_content_pages():
    assert all(_content_page(t.ROOT / p) for p in PENDING)


def test_check_mode_exits_non_zero_on_a_dirty_source(tmp_path, capsys):
    dirty = tmp_path / "es" / "x.md"
    dirty.parent.mkdir()
    dirty.write_text('Un "pago" del 1%.\n', encoding="utf-8")
    assert t.main(["--check", str(dirty)]) == 1
    assert dirty.read_text(encoding="utf-8") == 'Un "pago" del 1%.\n'
    assert t.main([str(dirty)]) == 0
    assert t.main(["--check", str(dirty)]) == 0


def test_the_quotation_marks_have_one_home():
    """typography.csv's typography.quotes: the marks the tool writes and the ones Sphinx typesets."""
    from beyond_accuracy.language import quotes
    from tools.book.build import smart_quotes
    from tools.project import config

    assert smart_quotes() == {"en": "“”‘’", "it": "«»‘’", "es": "«»‘’", "pt-br": "“”‘’", "fi": "””’’"}
    assert {lang: tuple(quotes(lang)[:2]) for lang in t.LANGS} == t.QUOTES
    assert "quotes" not in config()["course"]
