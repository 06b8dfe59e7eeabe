"""Checks of lab 3, "Can we trust 0.8?".

Every expected answer is computed here with the lab's own procedure: the same biopsies (the ten
"mean" features), the same stratified split (30% held out for evaluation; of the rest, two thirds
to fit and one third to calibrate, same ``random_state``), the same naive Bayes model and the same
calibrators fitted on the calibration split with ``CalibratedClassifierCV(FrozenEstimator(...))``.
If the data, scikit-learn or the lab drift apart, the lab's stored "Correct" verdicts stop
matching and the tests say so.

In the lab: ``from beyond_accuracy.checks.lab3 import check``, then ``check.rain_ece(answer)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.frozen import FrozenEstimator
from sklearn.metrics import brier_score_loss
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from ..datasets import load_biopsies
from ..metrics import expected_calibration_error
from ._engine import PROPORTION_FORM, Checker, Exercise

# The lab's settings, repeated here so that the checks reproduce its numbers.
SEED = 0
EVAL_SHARE = 0.3  # held out for evaluation
CAL_SHARE = 1 / 3  # of the rest: one third to calibrate, two thirds to fit
THRESHOLD = 0.5  # the decision threshold of the "temperature_decisions" exercise
CALIBRATORS = ("temperature", "sigmoid", "isotonic")  # the `method` names of CalibratedClassifierCV

# The "rain_ece" exercise: a forecaster's record, one row per forecast value.
RAIN = ((0.20, 100, 18), (0.50, 200, 130), (0.80, 100, 84))  # (forecast, days, rainy days)
RAIN_BINS = 3  # equal-width bins [0, 1/3), [1/3, 2/3), [2/3, 1]: one forecast value per bin


# --- rain_ece -----------------------------------------------------------------------------------


def _rain_arrays() -> tuple[np.ndarray, np.ndarray]:
    """The rain table expanded to one (outcome, forecast) pair per day."""
    y, p = [], []
    for forecast, days, rainy in RAIN:
        y += [1] * rainy + [0] * (days - rainy)
        p += [forecast] * days
    return np.array(y), np.array(p)


def _solve_rain_ece() -> float:
    return expected_calibration_error(*_rain_arrays(), n_bins=RAIN_BINS)


def _wrong_rain_ece() -> tuple:
    """The gaps averaged without weights, the signed gaps, the worst gap (MCE), the plain sum of
    the gaps, and the squared gaps (Murphy's reliability term)."""
    forecast = np.array([r[0] for r in RAIN])
    days = np.array([r[1] for r in RAIN])
    observed = np.array([r[2] for r in RAIN]) / days
    weights = days / days.sum()
    gaps = observed - forecast
    return tuple(
        float(x)
        for x in (
            np.abs(gaps).mean(),
            np.sum(weights * gaps),
            np.abs(gaps).max(),
            np.abs(gaps).sum(),
            np.sum(weights * gaps**2),
        )
    )


# --- the biopsies: split, naive Bayes, calibrators ----------------------------------------------


@lru_cache(maxsize=1)
def _naive_bayes_probabilities() -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The evaluation labels and naive Bayes' evaluation probabilities, raw ("none") and after each
    calibrator fitted on the calibration split (steps 1, 2 and 7 of the lab)."""
    X, y = load_biopsies(features="mean")
    y = y.to_numpy()
    X_rest, X_eval, y_rest, y_eval = train_test_split(
        X, y, test_size=EVAL_SHARE, stratify=y, random_state=SEED
    )
    X_fit, X_cal, y_fit, y_cal = train_test_split(
        X_rest, y_rest, test_size=CAL_SHARE, stratify=y_rest, random_state=SEED
    )
    model = GaussianNB().fit(X_fit, y_fit)
    probs = {"none": model.predict_proba(X_eval)[:, 1]}
    for method in CALIBRATORS:
        calibrated = CalibratedClassifierCV(FrozenEstimator(model), method=method).fit(X_cal, y_cal)
        probs[method] = calibrated.predict_proba(X_eval)[:, 1]
    for p in probs.values():
        p.setflags(write=False)
    y_eval.setflags(write=False)
    return y_eval, probs


# What a reader may answer, in the five languages of the course (compared without case and spacing).
_NO = (
    "no",
    "none",
    "0",
    "zero",
    "no decision",
    "not one",
    "nessuna",
    "nessuno",
    "nessuna decisione",
    "ninguna",
    "ninguno",
    "ninguna decisión",
    "ninguna decision",
    "cero",
    "não",
    "nao",
    "nenhuma",
    "nenhum",
    "nenhuma decisão",
    "nenhuma decisao",
    "ei",
    "ei yhtään",
    "ei yhtaan",
    "ei yhtäkään",
    "ei mitään",
    "ei mitaan",
    "nolla",
)
_YES = ("yes", "sì", "si", "sí", "sim", "kyllä", "kylla", "joo")
_CALIBRATOR_NAMES = {
    "temperature": (
        "temperature",
        "temperature scaling",
        "temperatura",
        "scalatura della temperatura",
        "scaling della temperatura",
        "scaling di temperatura",
        "escalado de temperatura",
        "escalado por temperatura",
        "escalonamento de temperatura",
        "escalonamento por temperatura",
        "escala de temperatura",
        "lämpötila",
        "lampotila",
        "lämpötilaskaalaus",
        "lampotilaskaalaus",
        "lämpötilan skaalaus",
        "scalatura di temperatura",
        "riscalamento con temperatura",
        "escalonamento pela temperatura",
    ),
    "sigmoid": (
        "sigmoid",
        "platt",
        "platt scaling",
        "platt's scaling",
        "sigmoid calibration",
        "sigmoide",
        "scaling di platt",
        "scalatura di platt",
        "metodo di platt",
        "escalado de platt",
        "escalamiento de platt",
        "método de platt",
        "escalonamento de platt",
        "escala de platt",
        "sigmoidi",
        "platt skaalaus",
        "plattin skaalaus",
        "plattin menetelmä",
        "calibrazione di platt",
        "calibración de platt",
        "calibração de platt",
        "plattin kalibrointi",
    ),
    "isotonic": (
        "isotonic",
        "isotonic regression",
        "isotonica",
        "regressione isotonica",
        "isotónica",
        "regresión isotónica",
        "regresion isotonica",
        "isotônica",
        "regressão isotônica",
        "regressao isotonica",
        "isotoninen",
        "isotoninen regressio",
    ),
}


# --- temperature_decisions ----------------------------------------------------------------------


def _changed_by_temperature() -> int:
    y_eval, probs = _naive_bayes_probabilities()
    return int(np.sum((probs["temperature"] >= THRESHOLD) != (probs["none"] >= THRESHOLD)))


def _solve_temperature_decisions() -> tuple[str, ...]:
    """The words for no, in any language, if temperature changed no decision at 0.5; otherwise the
    words for yes and the number of decisions changed."""
    changed = _changed_by_temperature()
    return _NO if changed == 0 else (*_YES, str(changed))


def _wrong_temperature_decisions() -> tuple:
    """The opposite verdict, in several languages, and a count one too high."""
    changed = _changed_by_temperature()
    opposite = (
        ("yes", "sì", "sí", "sim", "kyllä") if changed == 0 else ("no", "nessuna", "ninguna", "não", "ei")
    )
    return (*opposite, str(changed + 1))


# --- best_calibrator ----------------------------------------------------------------------------


def _brier_by_calibrator() -> dict[str, float]:
    y_eval, probs = _naive_bayes_probabilities()
    return {method: brier_score_loss(y_eval, probs[method]) for method in CALIBRATORS}


def _solve_best_calibrator() -> tuple[str, ...]:
    brier = _brier_by_calibrator()
    return _CALIBRATOR_NAMES[min(brier, key=brier.get)]


def _wrong_best_calibrator() -> tuple:
    """The other two calibrators (the best by ECE or by log loss is a plausible confusion), and
    the uncalibrated model."""
    brier = _brier_by_calibrator()
    best = min(brier, key=brier.get)
    others = [name for method in CALIBRATORS if method != best for name in _CALIBRATOR_NAMES[method][:2]]
    return (*others, "none")


rain_ece = Exercise(
    name="rain_ece",
    solve=_solve_rain_ece,
    kind="number",
    hint={
        "en": "For each row, compare the share of rainy days (rainy days divided by days) with the "
        "forecast and keep the gap without its sign. Then weight each gap by that row's share of "
        "all the days, not by one third, and add the weighted gaps. Do not square the gaps.",
        "it": "Per ogni riga confronta la quota di giorni di pioggia (giorni di pioggia diviso giorni) "
        "con la previsione e tieni lo scarto senza segno. Poi pesa ogni scarto con la quota di "
        "giorni di quella riga sul totale, non con un terzo, e somma gli scarti pesati. Non elevare "
        "gli scarti al quadrato.",
        "es": "En cada fila, compara la proporción de días de lluvia (días de lluvia divididos entre el total de días de la fila) con el "
        "pronóstico y quédate con la diferencia sin signo. Después pondera cada diferencia por la "
        "proporción de días de esa fila sobre el total, no por un tercio, y suma las diferencias "
        "ponderadas. No eleves las diferencias al cuadrado.",
        "pt": "Em cada linha, compare a proporção de dias de chuva (dias de chuva divididos pelos dias) "
        "com a previsão e fique com a diferença sem sinal. Depois pondere cada diferença pela "
        "proporção de dias dessa linha no total, não por um terço, e some as diferenças "
        "ponderadas. Não eleve as diferenças ao quadrado.",
        "fi": "Vertaa jokaisella rivillä sadepäivien osuutta (sadepäivät jaettuna päivillä) ennusteeseen "
        "ja ota erotuksen itseisarvo. Painota sitten jokaista erotusta rivin osuudella kaikista "
        "päivistä, ei kolmasosalla, ja laske painotetut erotukset yhteen. Älä korota erotuksia "
        "toiseen potenssiin.",
    },
    form=PROPORTION_FORM,
    tol=0.001,
    wrong_examples=lambda: _wrong_rain_ece(),
)

temperature_decisions = Exercise(
    name="temperature_decisions",
    solve=_solve_temperature_decisions,
    kind="choice",
    hint={
        "en": "Compare naive Bayes' decisions at the threshold 0.5 before and after temperature "
        'scaling, biopsy by biopsy, on the evaluation split: probs[("naive Bayes", "none")] '
        'against probs[("naive Bayes", "temperature")]. Count the biopsies whose decision '
        "differs. Think also about what dividing a logit by a positive number does to its sign.",
        "it": "Confronta, biopsia per biopsia sull'insieme di valutazione, le decisioni del naive Bayes "
        'alla soglia 0,5 prima e dopo il temperature scaling: probs[("naive Bayes", "none")] '
        'contro probs[("naive Bayes", "temperature")]. Conta le biopsie la cui decisione '
        "cambia. Pensa anche a che cosa fa al segno di un logit la divisione per un numero "
        "positivo.",
        "es": "Compara, biopsia a biopsia en el conjunto de evaluación, las decisiones de naive Bayes con "
        'el umbral 0,5 antes y después del escalado por temperatura: probs[("naive Bayes", '
        '"none")] frente a probs[("naive Bayes", "temperature")]. Cuenta las biopsias cuya '
        "decisión cambia. Piensa también qué le hace al signo de un logit dividirlo por un número "
        "positivo.",
        "pt": "Compare, biópsia a biópsia no conjunto de avaliação, as decisões do naive Bayes com o "
        'limiar 0,5 antes e depois do escalonamento por temperatura: probs[("naive Bayes", '
        '"none")] contra probs[("naive Bayes", "temperature")]. Conte as biópsias cuja '
        "decisão muda. Pense também no que dividir um logit por um número positivo faz com o "
        "sinal dele.",
        "fi": "Vertaa arviointiaineistossa koepala kerrallaan naiivin Bayesin päätöksiä kynnysarvolla "
        '0,5 ennen lämpötilaskaalausta ja sen jälkeen: probs[("naive Bayes", "none")] ja '
        'probs[("naive Bayes", "temperature")]. Laske koepalat, joiden päätös muuttuu. Mieti '
        "myös, mitä logitin etumerkille tapahtuu, kun logit jaetaan positiivisella luvulla.",
    },
    form={
        "en": 'a word in quotes: "yes" or "no".',
        "it": 'una parola tra virgolette: "sì" o "no".',
        "es": 'una palabra entre comillas: "sí" o "no".',
        "pt": 'uma palavra entre aspas: "sim" ou "não".',
        "fi": 'sana lainausmerkeissä: "kyllä" tai "ei".',
    },
    wrong_examples=lambda: _wrong_temperature_decisions(),
)

best_calibrator = Exercise(
    name="best_calibrator",
    solve=_solve_best_calibrator,
    kind="choice",
    hint={
        "en": "Use naive Bayes' probabilities on the evaluation split after each of the three "
        'calibrators, probs[("naive Bayes", method)], and compute brier_score_loss for each; '
        'lower is better. Compare Brier scores, not ECE or log loss, and leave "none" out: it is '
        "not a calibrator.",
        "it": "Usa le probabilità del naive Bayes sull'insieme di valutazione dopo ciascuno dei tre "
        'calibratori, probs[("naive Bayes", method)], e calcola brier_score_loss per ognuno; più '
        "basso è meglio. Confronta i punteggi di Brier, non l'ECE né la log-loss, e lascia fuori "
        '"none": non è un calibratore.',
        "es": "Usa las probabilidades de naive Bayes en el conjunto de evaluación tras cada uno de los "
        'tres calibradores, probs[("naive Bayes", method)], y calcula brier_score_loss para '
        "cada uno; cuanto más bajo, mejor. Compara puntuaciones de Brier, no el ECE ni la pérdida "
        'logarítmica (log loss), y deja fuera "none": no es un calibrador.',
        "pt": "Use as probabilidades do naive Bayes no conjunto de avaliação depois de cada um dos três "
        'calibradores, probs[("naive Bayes", method)], e calcule brier_score_loss para cada um; '
        "quanto menor, melhor. Compare escores de Brier, não o ECE nem a perda logarítmica (log loss), e deixe "
        '"none" de fora: não é um calibrador.',
        "fi": "Käytä naiivin Bayesin todennäköisyyksiä arviointiaineistossa kunkin kolmen kalibroijan "
        'jälkeen, probs[("naive Bayes", method)], ja laske kullekin brier_score_loss; pienempi '
        "on parempi. Vertaa Brierin pistemääriä, älä ECE:tä äläkä logaritmista häviötä (log loss), "
        'ja jätä "none" pois: se ei ole kalibroija.',
    },
    form={
        "en": 'the name of a calibrator as a string in quotes, as in the code: "temperature", '
        '"sigmoid" or "isotonic".',
        "it": 'il nome di un calibratore come stringa tra virgolette, come nel codice: "temperature", '
        '"sigmoid" o "isotonic".',
        "es": 'el nombre de un calibrador como cadena entre comillas, como en el código: "temperature", '
        '"sigmoid" o "isotonic".',
        "pt": 'o nome de um calibrador como uma string entre aspas, como no código: "temperature", '
        '"sigmoid" ou "isotonic".',
        "fi": 'kalibroijan nimi merkkijonona lainausmerkeissä, kuten koodissa: "temperature", '
        '"sigmoid" tai "isotonic".',
    },
    wrong_examples=lambda: _wrong_best_calibrator(),
)

check = Checker(rain_ece, temperature_decisions, best_calibrator)

__all__ = ["check"]
