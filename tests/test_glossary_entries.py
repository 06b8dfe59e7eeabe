"""The glossary has an entry for every term the chapters send readers to: the headword
is the term the pages of each language use, and every language has a definition."""

from __future__ import annotations

import re

import pytest

from beyond_accuracy.language import definition, terms_table
from tools.language import typography
from tools.project import ROOT, languages

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
    "spectrum_effect": {
        "en": "spectrum effect",
        "it": "effetto spettro",
        "es": "efecto de espectro",
        "pt": "efeito de espectro",
        "fi": "spektrivaikutus",
    },
    "likelihood_ratio": {
        "en": "likelihood ratio",
        "it": "rapporto di verosimiglianza",
        "es": "razón de verosimilitud",
        "pt": "razão de verossimilhança",
        "fi": "uskottavuusosamäärä",
    },
    "confidence_calibration": {
        "en": "confidence calibration",
        "it": "calibrazione della confidenza",
        "es": "calibración de la confianza",
        "pt": "calibração da confiança",
        "fi": "varmuuden kalibrointi",
    },
    "top_label_calibration": {
        "en": "top-label calibration",
        "it": "calibrazione top-label",
        "es": "calibración de la clase predicha",
        "pt": "calibração do rótulo principal",
        "fi": "ylimmän luokan kalibrointi",
    },
    "classwise_calibration": {
        "en": "class-wise calibration",
        "it": "calibrazione per classe",
        "es": "calibración por clases",
        "pt": "calibração por classe",
        "fi": "luokkakohtainen kalibrointi",
    },
    "full_calibration": {
        "en": "full calibration",
        "it": "calibrazione completa",
        "es": "calibración completa",
        "pt": "calibração completa",
        "fi": "täysi kalibrointi",
    },
    "sample_consistency": {
        "en": "sample consistency",
        "it": "coerenza fra campioni",
        "es": "coherencia entre muestras",
        "pt": "consistência entre amostras",
        "fi": "otosten yhdenmukaisuus",
    },
    "positive_negative_agreement": {
        "en": "negative agreement",
        "it": "accordo positivo",
        "es": "concordancia positiva",
        "pt": "concordância positiva",
        "fi": "negatiivinen yhtäpitävyys",
    },
    "pabak": {
        "en": "PABAK",
        "it": "PABAK",
        "es": "PABAK",
        "pt": "PABAK",
        "fi": "PABAK",
    },
    "gwet_ac1": {
        "en": "AC1",
        "it": "AC1 di Gwet",
        "es": "AC1 de Gwet",
        "pt": "AC1 de Gwet",
        "fi": "Gwetin AC1",
    },
    "macro_mae": {
        "en": "macro-averaged MAE",
        "it": "MAE a media macro",
        "es": "MAE macropromediado",
        "pt": "MAE macro",
        "fi": "makrokeskiarvoistettu MAE",
    },
    "ranked_probability_score": {
        "en": "ranked probability score",
        "it": "ranked probability score",
        "es": "puntuación de probabilidad por rangos",
        "pt": "escore de probabilidade ordenado",
        "fi": "järjestettyjen luokkien todennäköisyyspistemäärä",
    },
    "class_conditional_noise": {
        "en": "class-conditional noise",
        "it": "rumore condizionato alla classe",
        "es": "ruido condicional a la clase",
        "pt": "ruído condicional à classe",
        "fi": "luokkaehdollinen kohina",
    },
    "confident_learning": {
        "en": "confident learning",
        "it": "confident learning",
        "es": "confident learning",
        "pt": "confident learning",
        "fi": "confident learning",
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


# (key, language) whose pages name the concept in another phrasing than the headword's (an inflected
# or compound form, or only in code): the headword is checked against the catalogue only
NOT_IN_PROSE = {("unweighted_kappa", lang) for lang in LANGS} | {
    ("cumulative_logit", "en"),
    ("class_conditional_noise", "fi"),  # luokkaehdollista kohinaa, luokkaehdollisen kohinan
}


def _prose(lang: str) -> str:
    """The prose of the language's chapters and labs (no code, math, roles or inline code), without
    emphasis marks and with every run of white space as one space: "la calibración **de la
    confianza**" and a phrase broken across two lines read as the phrase."""
    parts = []
    for kind in ("chapters", "labs"):
        for path in sorted((ROOT / kind / lang).glob("*.md")):
            for segment in typography.segments(path.read_text(encoding="utf-8")):
                if segment.kind != "other":
                    parts.append(typography._mask(segment.text)[0])
    return re.sub(r"\s+", " ", re.sub(r"\*+", "", " ".join(parts)))


@pytest.mark.parametrize("lang", LANGS)
def test_the_headword_is_the_term_the_pages_use(lang):
    """The phrase of SENT_TO is the one the chapters and labs of the language use (case aside), so
    that a page and the glossary entry it sends the reader to name the concept alike."""
    prose = _prose(lang).casefold()
    missing = [
        (key, words[lang])
        for key, words in SENT_TO.items()
        if (key, lang) not in NOT_IN_PROSE and words[lang].casefold() not in prose
    ]
    assert not missing, f"{lang}: headword phrases that no page uses: {missing}"
