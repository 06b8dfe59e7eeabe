"""One word for one idea in each language: the variants a language settled against do
not come back in its chapters, labs, glossary or check feedback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from beyond_accuracy.catalogue import tables
from tools.project import ROOT

# language -> (variant that must not appear, the form the course uses)
SETTLED = {
    "it": [(r"pre-elaborazione", "preelaborazione"), (r"\bdisaccordano\b", "non concordano / disaccordo")],
    "es": [
        (r"desviaci[oó]n est[aá]ndar", "desviación típica"),
        (r"\bel F[12]\b", "la F1"),
        (r"cuatro veces demasiado", "exagera por un factor de cuatro"),
    ],
    "pt": [(r"\b[oO]s? F[12]\b", "a F1"), (r"\bum F1\b", "uma F1"), (r"um fio de 0", "a distância de 0")],
    "fi": [
        (r"vedonlyöntisuhte", "vetosuhde"),
        (r"turmeltu", "virheelliseksi muutettu nimiö"),
        (r"järjestysregressio|ordinaalimalli", "ordinaalinen regressio"),
        (r"luokkarajoihin", "katkaisukohdat"),
    ],
}


def texts(lang: str) -> dict[str, str]:
    """Every text of a language a reader or student sees: its pages, and its column of every table
    of the catalogue (terms, glossary, theme, quizzes, the checks' hints)."""
    found = {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for kind in ("chapters", "labs")
        for p in sorted((ROOT / kind / lang).glob("*.md"))
    }
    for name, table in tables().items():
        found.update({f"{name}.csv {key} ({lang})": row[lang] for key, row in table.items()})
    return found


@pytest.mark.parametrize("lang", sorted(SETTLED))
def test_settled_terms_do_not_drift_back(lang):
    hits = [
        f"{where}: {match.group(0)!r} (the course says {preferred!r})"
        for pattern, preferred in SETTLED[lang]
        for where, text in texts(lang).items()
        for match in re.finditer(pattern, text)
    ]
    assert not hits, "\n".join(hits)


def test_the_scan_finds_a_variant(tmp_path: Path):
    assert re.search(SETTLED["pt"][0][0], "compare o F1 dos dois modelos")
    assert not re.search(SETTLED["pt"][0][0], "e então F1 = 0,5")
