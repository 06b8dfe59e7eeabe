"""Checks of lab 1, "A screening tool on real biopsies".

Every expected answer is computed here with the lab's own procedure: the same three-way split
(same ``random_state``), the same models and the same thresholds. If the data, scikit-learn or
the lab drift apart, the lab's stored "Correct" verdicts stop matching and the tests say so.

In the lab: ``from beyond_accuracy.checks.lab1 import check``, then ``check.counts(answer)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import classification_report, f1_score, precision_score, recall_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ..datasets import load_biopsies
from ..metrics import confusion_counts, threshold_table
from ._engine import Checker, Exercise

# The lab's settings, repeated here so that the checks reproduce its numbers.
SEED = 0
COUNTS_THRESHOLD = 0.4  # the threshold of the "counts" and "precision_recall" exercises
SWEEP = np.round(np.linspace(0.10, 0.90, 17), 2)  # 0.10, 0.15, ..., 0.90


@lru_cache(maxsize=1)
def _validation_probabilities() -> tuple[np.ndarray, np.ndarray]:
    """The validation labels and the logistic regression's probabilities of malignancy (step 2-3)."""
    X, y = load_biopsies()
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.4, stratify=y, random_state=SEED)
    X_val, _, y_val, _ = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=SEED)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    y_val = y_val.to_numpy()
    proba = model.predict_proba(X_val)[:, 1]
    y_val.setflags(write=False)
    proba.setflags(write=False)
    return y_val, proba


@lru_cache(maxsize=1)
def _digits_test_predictions() -> tuple[np.ndarray, np.ndarray]:
    """The digits test labels and the logistic regression's predictions (step 10)."""
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=SEED)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    y_pred = model.predict(X_test)
    y_test.setflags(write=False)
    y_pred.setflags(write=False)
    return y_test, y_pred


def _flagged_at_counts_threshold() -> tuple[np.ndarray, np.ndarray]:
    y_val, proba = _validation_probabilities()
    return y_val, (proba >= COUNTS_THRESHOLD).astype(int)


def _solve_counts() -> tuple[int, int, int, int]:
    return tuple(confusion_counts(*_flagged_at_counts_threshold()))


def _solve_precision_recall() -> tuple[float, float]:
    y_val, flagged = _flagged_at_counts_threshold()
    return (float(precision_score(y_val, flagged)), float(recall_score(y_val, flagged)))


def _solve_best_f2() -> float:
    y_val, proba = _validation_probabilities()
    sweep = threshold_table(y_val, proba, SWEEP, betas=(1, 2))
    return float(sweep.loc[sweep["f2"].idxmax(), "threshold"])  # ties: the lowest threshold


def _wrong_counts() -> tuple:
    """scikit-learn's order (tn, fp, fn, tp), FP and FN swapped, the counts at threshold 0.5."""
    tp, fp, fn, tn = _solve_counts()
    y_val, proba = _validation_probabilities()
    at_half = tuple(confusion_counts(y_val, (proba >= 0.5).astype(int)))
    return tuple({(tn, fp, fn, tp), (tp, fn, fp, tn), at_half} - {(tp, fp, fn, tn)})


def _wrong_precision_recall() -> tuple:
    """The pair swapped, and precision computed as TP / (TP + FP + FN)."""
    tp, fp, fn, tn = _solve_counts()
    precision, recall = _solve_precision_recall()
    return ((recall, precision), (tp / (tp + fp + fn), recall))


def _wrong_best_f2() -> tuple:
    """The best-F1 threshold, the habitual 0.5, and the next step of the sweep."""
    y_val, proba = _validation_probabilities()
    sweep = threshold_table(y_val, proba, SWEEP, betas=(1, 2))
    best_f1 = float(sweep.loc[sweep["f1"].idxmax(), "threshold"])
    best = _solve_best_f2()
    return tuple({best_f1, 0.5, round(best + 0.05, 2)} - {best})


# What a reader may call each row of classification_report, in the five languages of the course.
_ROW_NAMES = {
    "accuracy": (
        "accuracy",
        "accuratezza",
        "exactitud",
        "acurácia",
        "acuracia",
        "exatidão",
        "exatidao",
        "tarkkuus",
    ),
    "macro avg": ("macro avg", "macro average", "macro"),
    "weighted avg": ("weighted avg", "weighted average", "weighted"),
}


def _solve_micro_f1() -> tuple[str, ...]:
    """The names of the report rows whose f1-score column equals the micro-averaged F1."""
    y_test, y_pred = _digits_test_predictions()
    micro_f1 = f1_score(y_test, y_pred, average="micro")
    report = classification_report(y_test, y_pred, output_dict=True)
    rows = {
        "accuracy": report["accuracy"],
        "macro avg": report["macro avg"]["f1-score"],
        "weighted avg": report["weighted avg"]["f1-score"],
    }
    return tuple(
        name for row, value in rows.items() if abs(value - micro_f1) < 1e-12 for name in _ROW_NAMES[row]
    )


counts = Exercise(
    name="counts",
    solve=_solve_counts,
    kind="numbers",
    hint={
        "en": "Flag a biopsy as malignant when the logistic regression's probability of malignancy "
        "is at least the threshold (>=, not >), and count on the validation set only. With its "
        "default label order, scikit-learn's confusion_matrix starts with TN: give the counts "
        "in the order TP, FP, FN, TN.",
        "it": "Segnala una biopsia come maligna quando la probabilità di malignità stimata dalla "
        "regressione logistica è almeno pari alla soglia (>=, non >) e fai il conteggio solo "
        "sull'insieme di validazione. Con l'ordine predefinito delle etichette, confusion_matrix di "
        "scikit-learn comincia da TN: scrivi i conteggi nell'ordine TP, FP, FN, TN.",
        "es": "Marca una biopsia como maligna cuando la probabilidad de malignidad que da la "
        "regresión logística es mayor o igual que el umbral (>=, no >), y haz el recuento "
        "solo en el conjunto de validación. Con el orden de etiquetas por defecto, confusion_matrix de scikit-learn "
        "empieza por TN: da los recuentos en el orden TP, FP, FN, TN.",
        "pt": "Sinalize uma biópsia como maligna quando a probabilidade de malignidade dada pela "
        "regressão logística for maior ou igual ao limiar (>=, não >) e conte apenas no conjunto de "
        "validação. Com a ordem padrão dos rótulos, a confusion_matrix do scikit-learn começa "
        "por TN: informe as contagens na ordem TP, FP, FN, TN.",
        "fi": "Merkitse koepala pahanlaatuiseksi, kun logistisen regression antama pahanlaatuisuuden "
        "todennäköisyys on vähintään kynnysarvo (>=, ei >), ja laske vain validointiaineistosta. "
        "Nimiöiden oletusjärjestyksellä scikit-learnin confusion_matrix alkaa TN:stä: anna lukumäärät "
        "järjestyksessä TP, FP, FN, TN.",
    },
    form={
        "en": "a tuple of four whole numbers, (tp, fp, fn, tn).",
        "it": "una tupla di quattro numeri interi, (tp, fp, fn, tn).",
        "es": "una tupla de cuatro números enteros, (tp, fp, fn, tn).",
        "pt": "uma tupla de quatro números inteiros, (tp, fp, fn, tn).",
        "fi": "neljän kokonaisluvun monikko (tuple), (tp, fp, fn, tn).",
    },
    tol=0.0,
    wrong_examples=lambda: _wrong_counts(),
)

precision_recall = Exercise(
    name="precision_recall",
    solve=_solve_precision_recall,
    kind="numbers",
    hint={
        "en": "Precision reads the predicted-positive column: TP divided by all flagged biopsies "
        "(TP + FP). Recall reads the actual-positive row: TP divided by all malignant biopsies "
        "(TP + FN). Check the order of the pair as well.",
        "it": "La precision si legge nella colonna dei positivi previsti: TP diviso il numero di "
        "biopsie segnalate (TP + FP). La recall si legge nella riga dei positivi reali: TP "
        "diviso il numero di biopsie maligne (TP + FN). Controlla anche l'ordine della coppia.",
        "es": "La precisión se lee en la columna de los positivos predichos: TP entre todas las "
        "biopsias marcadas (TP + FP). La exhaustividad (recall) se lee en la fila de los "
        "positivos reales: TP entre todas las biopsias malignas (TP + FN). Revisa también el "
        "orden del par.",
        "pt": "A precisão se lê na coluna dos positivos previstos: TP dividido pelo total de "
        "biópsias sinalizadas (TP + FP). A revocação (recall) se lê na linha dos positivos "
        "reais: TP dividido pelo total de biópsias malignas (TP + FN). Confira também a ordem "
        "do par.",
        "fi": "Täsmällisyys (precision) luetaan ennustettujen positiivisten sarakkeesta: TP jaettuna "
        "kaikkien merkittyjen koepalojen määrällä (TP + FP). Herkkyys (recall) luetaan "
        "todellisten positiivisten riviltä: TP jaettuna kaikkien pahanlaatuisten koepalojen "
        "määrällä (TP + FN). Tarkista myös parin järjestys.",
    },
    form={
        "en": "a pair of proportions between zero and one, (precision, recall).",
        "it": "una coppia di proporzioni tra zero e uno, (precision, recall).",
        "es": "un par de proporciones entre cero y uno, (precisión, exhaustividad).",
        "pt": "um par de proporções entre zero e um, (precisão, revocação).",
        "fi": "osuuksien pari väliltä 0–1: (täsmällisyys, herkkyys).",
    },
    tol=0.005,  # accepts answers rounded to two decimals; the wrong examples lie much further
    wrong_examples=lambda: _wrong_precision_recall(),
)

best_f2 = Exercise(
    name="best_f2",
    solve=_solve_best_f2,
    kind="number",
    hint={
        "en": "Use the logistic regression's validation probabilities and the whole sweep, build "
        "the table with an F2 column (betas=(1, 2)) and take the threshold of the row where F2 "
        "is largest; if several rows tie, take the lowest threshold. F2 is not F1.",
        "it": "Usa le probabilità della regressione logistica sull'insieme di validazione e tutta la "
        "scansione delle soglie, costruisci la tabella con una colonna F2 (betas=(1, 2)) e "
        "prendi la soglia della riga in cui F2 è massimo; a parità, la soglia più bassa. F2 non "
        "è F1.",
        "es": "Usa las probabilidades de la regresión logística en validación y todo el barrido de "
        "umbrales, construye la tabla con una columna F2 (betas=(1, 2)) y toma el umbral de la "
        "fila donde F2 es máximo; si hay empate, el umbral más bajo. F2 no es F1.",
        "pt": "Use as probabilidades da regressão logística na validação e toda a varredura de "
        "limiares, monte a tabela com uma coluna F2 (betas=(1, 2)) e pegue o limiar da linha "
        "em que F2 é máximo; em caso de empate, o limiar mais baixo. F2 não é F1.",
        "fi": "Käytä logistisen regression todennäköisyyksiä validointiaineistossa ja koko "
        "kynnysarvojen läpikäyntiä, rakenna taulukko, jossa on F2-sarake (betas=(1, 2)), ja "
        "valitse sen rivin kynnysarvo, jolla F2 on suurin; tasatilanteessa pienin kynnysarvo. "
        "F2 ei ole F1.",
    },
    form={
        "en": "one number: a threshold from the sweep, written as a Python decimal (for example 0.35).",
        "it": "un solo numero: una soglia della scansione, scritta come decimale Python, con il punto (per esempio 0.35).",
        "es": "un solo número: un umbral del barrido, escrito como número decimal de Python, con punto (p. ej., 0.35).",
        "pt": "um único número: um limiar da varredura, escrito como decimal do Python, com ponto (por exemplo 0.35).",
        "fi": "yksi luku: läpikäynnin kynnysarvo Pythonin desimaalilukuna, pisteellä (esimerkiksi 0.35).",
    },
    tol=0.001,
    wrong_examples=lambda: _wrong_best_f2(),
)

micro_f1 = Exercise(
    name="micro_f1",
    solve=_solve_micro_f1,
    kind="choice",
    hint={
        "en": 'Compute f1_score(..., average="micro") on the digits test set and compare it with '
        "every number in the report's f1-score column, including the rows below the ten digits. "
        "One of those rows has no precision and no recall.",
        "it": 'Calcola f1_score(..., average="micro") sull\'insieme di test delle cifre e confrontalo '
        "con ogni numero della colonna f1-score del report, comprese le righe sotto le dieci "
        "cifre. Una di quelle righe non ha né precision né recall.",
        "es": 'Calcula f1_score(..., average="micro") en el conjunto de prueba de los dígitos y '
        "compáralo con cada número de la columna f1-score del informe, incluidas las filas que hay "
        "debajo de los diez dígitos. Una de esas filas no tiene valores en las columnas precision y recall.",
        "pt": 'Calcule f1_score(..., average="micro") no conjunto de teste dos dígitos e compare-o '
        "com cada número da coluna f1-score do relatório, incluindo as linhas abaixo dos dez "
        "dígitos. Uma dessas linhas não tem valores nas colunas precision e recall.",
        "fi": 'Laske f1_score(..., average="micro") numeroiden testiaineistosta ja vertaa sitä '
        "raportin f1-score-sarakkeen jokaiseen lukuun, myös kymmenen numerorivin alapuolella "
        "oleviin riveihin. Yhdellä näistä riveistä ei ole precision- eikä recall-arvoa.",
    },
    form={
        "en": "the name of a row of the report, as a string in quotes.",
        "it": "il nome di una riga del report, come stringa tra virgolette.",
        "es": "el nombre de una fila del informe, como cadena entre comillas.",
        "pt": "o nome de uma linha do relatório, como uma string entre aspas.",
        "fi": "raportin rivin nimi merkkijonona lainausmerkeissä.",
    },
    wrong_examples=("macro avg", "weighted avg", "recall"),
)

check = Checker(counts, precision_recall, best_f2, micro_f1)

__all__ = ["check"]
