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
        ("es", "0,737", "12\u00a0345,7", "25,0\u00a0%", "-0,250"),
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


# --- found by mutation testing (make mutation): messages, metadata and the sign of zero ------------


def _captured_glue_outputs():
    shell = InteractiveShell.instance()
    outputs = []
    shell.display_pub.publish = lambda data, metadata=None, **kw: outputs.append((data, metadata))
    return outputs


def test_validation_messages_name_the_problem():
    with pytest.raises(ValueError, match="choose one of en, it, es, pt, fi$"):
        set_language("de")
    with pytest.raises(ValueError, match=r"^fmt expects a real number, got str: '0\.5'$"):
        fmt("0.5")
    with pytest.raises(ValueError, match=r"^fmt expects a real number, got NoneType: None$"):
        fmt(None)
    with pytest.raises(ValueError, match="^fmt expects a finite number, got nan$"):
        fmt(float("nan"))
    with pytest.raises(ValueError, match="^glue needs a non-empty name$"):
        glue("", 1)
    with pytest.raises(ValueError, match="^glue needs a non-empty name$"):
        glue(None, 1)


def test_fmt_groups_long_integers_and_keeps_small_negatives_signed():
    assert fmt(1234567, digits=0) == "1,234,567"
    assert fmt(-1234567.5, digits=1, lang="it") == "-1.234.567,5"
    assert fmt(-0.0004, digits=3) == "0.000"
    assert fmt(-0.0006, digits=3) == "-0.001"
    assert fmt(-0.004, digits=1, percent=True, lang="fi") == "\u22120,4\u00a0%"


def test_glue_metadata_records_the_raw_number_and_how_it_was_written():
    import numpy as np

    outputs = _captured_glue_outputs()
    set_language("pt")
    glue("share", np.float32(0.25), digits=1, percent=True)
    glue("n", 569)
    glue("label", "alto")
    data, meta = outputs[0]
    assert meta == {
        "scrapbook": {"name": "share", "mime_prefix": "application/papermill.record/"},
        "beyond_accuracy": {"raw": 0.25, "digits": 1, "percent": True, "lang": "pt"},
    }
    assert type(meta["beyond_accuracy"]["raw"]) is float
    assert type(outputs[1][1]["beyond_accuracy"]["raw"]) is float  # 569 -> 569.0
    assert outputs[1][1]["beyond_accuracy"]["digits"] == 0  # an integer is written without decimals
    assert outputs[2][0] == {"application/papermill.record/text/plain": "'alto'"}
    assert outputs[2][1]["beyond_accuracy"] == {"raw": None, "digits": 3, "percent": False, "lang": "pt"}
    json.dumps(outputs)


@pytest.mark.parametrize("bad", [None, [0.5], {"a": 1}])
def test_glue_refuses_what_is_neither_text_nor_a_number_with_a_value_error(bad):
    _captured_glue_outputs()
    with pytest.raises(ValueError, match="fmt expects a real number"):
        glue("x", bad)


def test_glue_stores_the_raw_value_with_three_decimals_more_than_it_writes():
    """Re-executed elsewhere, a notebook stores the same raw values: the last bits that differ
    between machines and solvers' paths are rounded away, not what is written nor an edge."""
    outputs = _captured_glue_outputs()
    glue("here", 2.320002036172305, digits=2)  # a fitted temperature, here and on another machine
    glue("elsewhere", 2.320002007213774, digits=2)
    glue("share", 0.123456789, digits=1, percent=True)  # a percentage: 12.3, stored to 12.3457
    glue("count", 569)
    glue("edge", 0.12345 + 1e-13, digits=4)  # noise could flip its last digit: kept whole, seen by the tests
    glue("below", 0.12344996, digits=4)  # written 0.1234, but 0.1234500 would be written 0.1235
    raw = {m["scrapbook"]["name"]: m["beyond_accuracy"]["raw"] for _, m in outputs}
    assert raw == {
        "here": 2.32,
        "elsewhere": 2.32,
        "share": 0.123457,
        "count": 569.0,
        "edge": 0.12345 + 1e-13,
        "below": 0.12344996,
    }
    texts = [d["application/papermill.record/text/plain"] for d, _ in outputs]
    assert texts == ["'2.32'", "'2.32'", "'12.3%'", "'569'", "'0.1235'", "'0.1234'"]
