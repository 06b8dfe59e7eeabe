"""Typography of the sources' prose (tools/language/typography.py):
each rule on small strings, what it must never touch, and every source already clean."""

from __future__ import annotations

import pytest

from tools.language import typography as t
from tools.language.typography import NBSP, fix_source

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


# ------------------------------------------------------------------ Italian decimal lists


def test_italian_decimal_lists():
    assert fix("confidenze 0,9, 0,8, 0,95 e 0,7\n", "it") == "confidenze 0,9; 0,8; 0,95 e 0,7\n"
    # not a list of decimals
    assert fix("soglia 0,5, e 0,5 è un'abitudine; 0,5, 3 casi\n", "it") == (
        "soglia 0,5, e 0,5 è un'abitudine; 0,5, 3 casi\n"
    )
    assert fix("0,9, 0,6\n", "es") == "0,9, 0,6\n"  # Italian only


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


# ------------------------------------------------------------------ the sources


def test_every_source_is_typographically_clean():
    pending = t.check(t.sources())
    assert not pending, "run `make typography`: " + ", ".join(str(p.relative_to(t.ROOT)) for p in pending)


def test_check_mode_exits_non_zero_on_a_dirty_source(tmp_path, capsys):
    dirty = tmp_path / "es" / "x.md"
    dirty.parent.mkdir()
    dirty.write_text('Un "pago" del 1%.\n', encoding="utf-8")
    assert t.main(["--check", str(dirty)]) == 1
    assert dirty.read_text(encoding="utf-8") == 'Un "pago" del 1%.\n'
    assert t.main([str(dirty)]) == 0
    assert t.main(["--check", str(dirty)]) == 0
