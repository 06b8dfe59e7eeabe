"""The glossary has an entry for every term the chapters send readers to: the headword
is the term the pages of each language use, and every language has a definition."""

from __future__ import annotations

import pytest

from beyond_accuracy.language import definition, terms_table
from tools.project import languages

LANGS = languages()
# key: a phrase the headword of each language contains (the term its chapters and labs use)
SENT_TO = {
    "unweighted_kappa": {
        "en": "unweighted kappa",
        "it": "kappa non pesato",
        "es": "kappa sin ponderar",
        "pt": "kappa sem ponderação",
        "fi": "painottamaton kappa",
    },
    "micro_average": {
        "en": "micro averaging",
        "it": "media micro",
        "es": "promedio micro",
        "pt": "média micro",
        "fi": "mikrokeskiarvo",
    },
    "macro_average": {
        "en": "macro averaging",
        "it": "media macro",
        "es": "promedio macro",
        "pt": "média macro",
        "fi": "makrokeskiarvo",
    },
    "undersampling": {
        "en": "undersampling",
        "it": "sottocampionamento",
        "es": "submuestreo",
        "pt": "subamostragem",
        "fi": "alinäytteistys",
    },
    "platt_scaling": {
        "en": "Platt scaling",
        "it": "calibrazione di Platt",
        "es": "escalado de Platt",
        "pt": "calibração de Platt",
        "fi": "Plattin skaalaus",
    },
    "cut_point": {
        "en": "cut-point",
        "it": "punto di taglio",
        "es": "punto de corte",
        "pt": "ponto de corte",
        "fi": "katkaisukohta",
    },
    "cumulative_logit": {
        "en": "cumulative logit",
        "it": "logit cumulativo",
        "es": "logit acumulado",
        "pt": "logito cumulativo",
        "fi": "kumulatiivinen logit",
    },
}


@pytest.mark.parametrize("key", sorted(SENT_TO))
def test_term_has_a_glossary_entry_in_every_language(key):
    terms = terms_table()
    assert terms.loc[key, "kind"] == "term"
    for lang in LANGS:
        assert SENT_TO[key][lang] in terms.loc[key, lang], (key, lang, terms.loc[key, lang])
        assert len(definition(key, lang)) > 80, (key, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_lists_them(lang):
    from tools.book.glossary import glossary_markdown

    glossary = glossary_markdown(lang)
    missing = [key for key, words in SENT_TO.items() if words[lang] not in glossary]
    assert not missing, f"{lang}: glossary entries missing: {missing}"
