"""Each language's how-to-use page says, once, that code output is English with a decimal point
beside the localised prose, by design."""

import pytest

from tools.project import ROOT, languages

SAYS = {
    "en": ("in English", "decimal point", "the same in every language"),
    "it": ("in inglese", "punto decimale", "identico in tutte le lingue"),
    "es": ("en inglés", "punto decimal", "idéntico en todos los idiomas"),
    "pt": ("em inglês", "ponto decimal", "idêntico em todos os idiomas"),
    "fi": ("englanniksi", "desimaalipiste", "sama kurssin kaikilla kielillä"),
}


@pytest.mark.parametrize("lang", languages())
def test_how_to_use_explains_english_code_output(lang):
    text = " ".join((ROOT / "chapters" / lang / "how-to-use.md").read_text(encoding="utf-8").split())
    for words in SAYS[lang]:
        assert words in text, (lang, words)
    assert text.count(SAYS[lang][1]) == 1, f"{lang}: the decimal-point note is stated more than once"
