import json

import pytest
from IPython.core.interactiveshell import InteractiveShell

from beyond_accuracy import LANGUAGES, fmt, get_language, glue, set_language, term, terms_table
from beyond_accuracy.language import definition


@pytest.mark.parametrize(
    "lang, plain, grouped, percent, negative",
    [
        ("en", "0.737", "12,345.7", "25.0%", "-0.250"),
        ("it", "0,737", "12.345,7", "25,0%", "-0,250"),
        ("es", "0,737", "12.345,7", "25,0\u00a0%", "-0,250"),
        ("pt", "0,737", "12.345,7", "25,0%", "-0,250"),
        ("fi", "0,737", "12\u00a0345,7", "25,0\u00a0%", "\u22120,250"),
    ],
)
def test_fmt_follows_each_languages_conventions(lang, plain, grouped, percent, negative):
    set_language(lang)
    assert fmt(0.73684) == plain
    assert fmt(12345.67, digits=1) == grouped
    assert fmt(0.25, digits=1, percent=True) == percent
    assert fmt(-0.25) == negative


def test_fmt_details():
    assert fmt(1000, digits=0) == "1,000"
    assert fmt(1000, digits=0, lang="es") == "1000"  # Spanish groups from five digits
    assert fmt(569, digits=0, lang="it") == "569"
    assert fmt(-0.0001) == "0.000"  # never a negative zero


@pytest.mark.parametrize(
    "bad, message",
    [
        (float("nan"), "fmt expects a finite number, got nan"),
        (float("inf"), "fmt expects a finite number, got inf"),
        ("0.5", "fmt expects a real number, got str: '0.5'"),
        (None, "fmt expects a real number, got NoneType: None"),
        (True, "fmt expects a real number, got bool: True"),
        ([0.5], r"fmt expects a real number, got list: \[0.5\]"),
    ],
)
def test_fmt_rejects_what_is_not_a_finite_number(bad, message):
    with pytest.raises(ValueError, match=message):
        fmt(bad)


def test_fmt_rejects_bad_digits():
    with pytest.raises(ValueError, match="digits"):
        fmt(0.5, digits=-1)


def test_language_state_and_validation():
    assert get_language() == "en"
    set_language("fi")
    assert get_language() == "fi"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        set_language("de")
    assert get_language() == "fi"


def test_terms_cover_every_language():
    table = terms_table()
    for lang in LANGUAGES:
        empty = table.index[table[lang].str.strip() == ""].tolist()
        assert not empty, f"terms without a {lang} text: {empty}"
    assert set(table["kind"]) <= {"term", "label", "ui"}


def test_term_lookup():
    assert term("recall", "it") == "recall (sensibilità)"
    set_language("es")
    assert term("confusion_matrix") == "matriz de confusión"
    with pytest.raises(ValueError, match="unknown term"):
        term("no_such_term")


def test_glue_writes_hidden_localised_output(capsys):
    shell = InteractiveShell.instance()
    outputs = []
    shell.display_pub.publish = lambda data, metadata=None, **kw: outputs.append((data, metadata))
    set_language("it")
    glue("acc", 0.7368)
    glue("n", 569)
    glue("share", 0.25, digits=1, percent=True)
    texts = {m["scrapbook"]["name"]: d["application/papermill.record/text/plain"] for d, m in outputs}
    assert texts == {"acc": "'0,737'", "n": "'569'", "share": "'25,0%'"}
    raw = {m["scrapbook"]["name"]: m["beyond_accuracy"]["raw"] for d, m in outputs}
    assert raw == {"acc": 0.7368, "n": 569.0, "share": 0.25}
    json.dumps(outputs)  # storable in a notebook
    with pytest.raises(ValueError, match="glue needs a non-empty name"):
        glue("", 1)


def test_every_glossary_term_has_a_definition_in_every_language():
    table = terms_table()
    for key in table.index[table["kind"] == "term"]:
        for lang in LANGUAGES:
            text = definition(key, lang)
            assert len(text) > 20, f"definition of {key} in {lang} is missing or too short"
    with pytest.raises(ValueError, match="no definition"):
        definition("sick")
