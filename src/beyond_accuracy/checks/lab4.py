"""Checks of lab 4, "Stars, stages and distances".

Every expected answer is computed here with the lab's own procedure: the same stratified split of
the marriage ratings (same ``random_state``), the same four models, the same metrics, and the same
error mechanism for the kappa paradox. If the data, scikit-learn or the lab drift apart, the lab's
stored "Correct" verdicts stop matching and the tests say so.

In the lab: ``from beyond_accuracy.checks.lab4 import check``, then ``check.qwk_by_hand(answer)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import accuracy_score, cohen_kappa_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ..datasets import labels_from_counts, marriage_ratings
from ..ordinal import OrdinalLogisticRegression
from ._engine import DECIMAL_FORM, Checker, Exercise

# The lab's settings, repeated here so that the checks reproduce its numbers.
SEED = 0
TEST_SIZE = 0.3
P_MOVE = 0.2  # the error mechanism: one class up or down, at random, with this probability
PARADOX_PROPORTIONS = (0.70, 0.20, 0.10)  # the population of the "paradox_qwk" exercise

# The data of the "qwk_by_hand" exercise: 20 patients, pain graded by a nurse (rows) and by a
# model (columns). It is the exercise's input, defined in the lab and repeated here.
PAIN_LEVELS = ["mild", "moderate", "severe"]
PAIN_COUNTS = [[6, 2, 0], [1, 5, 1], [1, 1, 3]]


class _RoundedRegression(ClassifierMixin, BaseEstimator):
    """The lab's regression + rounding: least squares on the class numbers, rounded, clipped."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.regression_ = LinearRegression().fit(X, y)
        return self

    def predict(self, X):
        raw = self.regression_.predict(X)
        return np.clip(np.rint(raw), self.classes_.min(), self.classes_.max()).astype(int)


# The lab's model names, and what a reader may call each model in the five languages.
_MODEL_NAMES = {
    "majority": (
        "majority",
        "majority class",
        "most frequent",
        "most_frequent",
        "dummy",
        "baseline",
        "maggioranza",
        "classe maggioritaria",
        "mayoría",
        "mayoria",
        "clase mayoritaria",
        "maioria",
        "classe majoritária",
        "classe majoritaria",
        "enemmistö",
        "enemmisto",
        "enemmistöluokka",
        "enemmistoluokka",
        "linha de base",
        "linea di base",
        "línea base",
        "linea base",
        "vertailutaso",
    ),
    "multinomial LR": (
        "multinomial LR",
        "multinomial",
        "multinomial logistic regression",
        "LogisticRegression",
        "logistic regression",
        "nominal",
        "nominal LR",
        "regressione logistica multinomiale",
        "multinomiale",
        "logistica multinomiale",
        "regresión logística multinomial",
        "regresion logistica multinomial",
        "regressão logística multinomial",
        "regressao logistica multinomial",
        "multinomiaalinen",
        "multinomiaalinen logistinen regressio",
        "multinominen logistinen regressio",
        "multinominen",
        "regressione logistica",
        "regresión logística",
        "regresion logistica",
        "regressão logística",
        "regressao logistica",
        "logistinen regressio",
    ),
    "regression + rounding": (
        "regression + rounding",
        "regression+rounding",
        "rounding",
        "rounded regression",
        "RoundedRegression",
        "linear regression",
        "regressione + arrotondamento",
        "regressione con arrotondamento",
        "regresión + redondeo",
        "regresion + redondeo",
        "regresión con redondeo",
        "regressão + arredondamento",
        "regressao + arredondamento",
        "regressão com arredondamento",
        "regressio + pyöristys",
        "regressio + pyoristys",
        "regressio ja pyöristys",
        "regressione lineare",
        "regresión lineal",
        "regresion lineal",
        "regressão linear",
        "regressao linear",
        "lineaarinen regressio",
    ),
    "ordinal LR": (
        "ordinal LR",
        "ordinal",
        "ordinal regression",
        "ordinal logistic regression",
        "OrdinalLogisticRegression",
        "proportional odds",
        "cumulative logit",
        "regressione ordinale",
        "regressione logistica ordinale",
        "ordinale",
        "regresión ordinal",
        "regresion ordinal",
        "regresión logística ordinal",
        "regresion logistica ordinal",
        "regressão ordinal",
        "regressao ordinal",
        "regressão logística ordinal",
        "regressao logistica ordinal",
        "ordinaalinen",
        "ordinaalinen regressio",
        "ordinaalinen logistinen regressio",
        "järjestysasteikollinen regressio",
        "järjestysregressio",
        "chances proporcionais",
        "logito cumulativo",
        "odds proporzionali",
        "logit cumulativo",
        "odds proporcionales",
        "logit acumulado",
    ),
}


@lru_cache(maxsize=1)
def _test_scores() -> pd.DataFrame:
    """Accuracy and QWK of the lab's four models on the test part of its split (step 2)."""
    X, y = marriage_ratings()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=TEST_SIZE, stratify=y, random_state=SEED
    )
    models = {
        "majority": DummyClassifier(strategy="most_frequent"),
        "multinomial LR": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        "regression + rounding": make_pipeline(StandardScaler(), _RoundedRegression()),
        "ordinal LR": make_pipeline(StandardScaler(), OrdinalLogisticRegression()),
    }
    rows = {}
    for name, model in models.items():
        pred = model.fit(X_train, y_train).predict(X_test)
        rows[name] = {
            "accuracy": accuracy_score(y_test, pred),
            "qwk": cohen_kappa_score(y_test, pred, weights="quadratic"),
        }
    return pd.DataFrame(rows).T


def _pick(metric: str) -> str:
    return str(_test_scores()[metric].idxmax())  # ties: the first model in the lab's order


def _solve_accuracy_pick() -> tuple[str, ...]:
    return _MODEL_NAMES[_pick("accuracy")]


def _solve_qwk_pick() -> tuple[str, ...]:
    return _MODEL_NAMES[_pick("qwk")]


def _wrong_pick(metric: str) -> tuple[str, ...]:
    """Every other model, under the lab's name (the other metric's winner among them)."""
    return tuple(name for name in _MODEL_NAMES if name != _pick(metric))


def _kappa_from_counts(counts, labels, weights=None) -> float:
    table = pd.DataFrame(counts, index=labels, columns=labels)
    y_true, y_pred = labels_from_counts(table)
    return float(cohen_kappa_score(y_true, y_pred, labels=labels, weights=weights))


def _solve_qwk_by_hand() -> float:
    return _kappa_from_counts(PAIN_COUNTS, PAIN_LEVELS, weights="quadratic")


def _wrong_qwk_by_hand() -> tuple[float, ...]:
    """Unweighted and linear kappa, plain accuracy, 1 − weighted disagreement without the chance
    matrix, and the chance matrix left as counts × counts (not divided by the total)."""
    O = np.asarray(PAIN_COUNTS, dtype=float)
    n = O.sum()
    i, j = np.indices(O.shape)
    W = (i - j) ** 2 / (len(O) - 1) ** 2
    E_not_divided = np.outer(O.sum(axis=1), O.sum(axis=0))
    return (
        _kappa_from_counts(PAIN_COUNTS, PAIN_LEVELS),
        _kappa_from_counts(PAIN_COUNTS, PAIN_LEVELS, weights="linear"),
        float(np.trace(O) / n),
        float(1 - (W * O).sum() / n),
        float(1 - (W * O).sum() / (W * E_not_divided).sum()),
    )


def _error_mechanism(k: int, p_move: float, edge_stays: bool = True) -> np.ndarray:
    """Row i: where an item of class i ends up. Up or down one class with probability p_move/2
    each; at an edge the impossible move stays in place (or, if not ``edge_stays``, the whole
    p_move goes inwards: a misreading of the mechanism)."""
    M = np.zeros((k, k))
    for i in range(k):
        M[i, i] += 1 - p_move
        for j in (i - 1, i + 1):
            if 0 <= j < k:
                M[i, j] += p_move / 2
            elif edge_stays:
                M[i, i] += p_move / 2
            else:
                M[i, 2 * i - j] += p_move / 2  # the move bounces back inwards
    return M


def _expected_kappa(proportions, weights="quadratic", edge_stays=True) -> float:
    p = np.asarray(proportions, dtype=float)
    O = p[:, None] * _error_mechanism(len(p), P_MOVE, edge_stays)
    i, j = np.indices(O.shape)
    return float(cohen_kappa_score(i.ravel(), j.ravel(), weights=weights, sample_weight=O.ravel()))


def _solve_paradox_qwk() -> float:
    return _expected_kappa(PARADOX_PROPORTIONS)


def _wrong_paradox_qwk() -> tuple[float, ...]:
    """Accuracy instead of QWK, unweighted and linear kappa, the whole move bouncing inwards at the
    edges, and the equal-thirds value read from the table."""
    p = np.asarray(PARADOX_PROPORTIONS, dtype=float)
    accuracy = float(np.sum(p * np.diag(_error_mechanism(len(p), P_MOVE))))
    return (
        accuracy,
        _expected_kappa(p, weights=None),
        _expected_kappa(p, weights="linear"),
        _expected_kappa(p, edge_stays=False),
        _expected_kappa(np.full(len(p), 1 / len(p))),
    )


qwk_by_hand = Exercise(
    name="qwk_by_hand",
    solve=_solve_qwk_by_hand,
    kind="number",
    hint={
        "en": "Three tables of the same shape: the observed counts O; the chance counts E, where "
        "each cell is its row total times its column total divided by the number of patients; "
        "the weights W, (i − j)² / (K − 1)², so 0 on the diagonal, 0.25 next to it and 1 in the "
        "corners. QWK is 1 − Σ W·O / Σ W·E. Unweighted kappa and accuracy are different "
        "numbers.",
        "it": "Servono tre tabelle della stessa forma: i conteggi osservati O; i conteggi attesi per "
        "caso E, in cui ogni cella è il totale della sua riga per il totale della sua colonna "
        "diviso il numero di pazienti; i pesi W, (i − j)² / (K − 1)², cioè 0 sulla diagonale, "
        "0,25 accanto a essa e 1 negli angoli. Il QWK è 1 − Σ W·O / Σ W·E. Il kappa non pesato "
        "e l'accuratezza sono numeri diversi.",
        "es": "Hacen falta tres tablas de la misma forma: los recuentos observados O; los recuentos "
        "esperados por azar E, donde cada celda es el total de su fila por el total de su "
        "columna dividido entre el número de pacientes; los pesos W, (i − j)² / (K − 1)², es "
        "decir, 0 en la diagonal, 0,25 junto a ella y 1 en las esquinas. El QWK es "
        "1 − Σ W·O / Σ W·E. El kappa sin pesos y la exactitud son otros números.",
        "pt": "São três tabelas do mesmo formato: as contagens observadas O; as contagens esperadas "
        "ao acaso E, em que cada célula é o total da sua linha vezes o total da sua coluna "
        "dividido pelo número de pacientes; os pesos W, (i − j)² / (K − 1)², ou seja, 0 na "
        "diagonal, 0,25 ao lado dela e 1 nos cantos. O QWK é 1 − Σ W·O / Σ W·E. O kappa sem "
        "pesos e a acurácia são outros números.",
        "fi": "Tarvitset kolme samanmuotoista taulukkoa: havaitut lukumäärät O; sattuman mukaiset "
        "odotetut lukumäärät E, joissa kukin solu on rivinsä summa kertaa sarakkeensa summa "
        "jaettuna potilaiden määrällä; painot W, (i − j)² / (K − 1)², eli lävistäjällä 0, sen "
        "vieressä 0,25 ja kulmissa 1. QWK on 1 − Σ W·O / Σ W·E. Painottamaton kappa ja "
        "tarkkuus (accuracy) ovat eri lukuja.",
    },
    form=DECIMAL_FORM,
    tol=0.001,
    wrong_examples=_wrong_qwk_by_hand,
)

_PICK_FORM = {
    "en": "the name of a model (a row of the step 2 table), as a string in quotes.",
    "it": "il nome di un modello (una riga della tabella del passo 2), come stringa tra virgolette.",
    "es": "el nombre de un modelo (una fila de la tabla del paso 2), como cadena entre comillas.",
    "pt": "o nome de um modelo (uma linha da tabela do passo 2), como uma string entre aspas.",
    "fi": "mallin nimi (vaiheen 2 taulukon rivi) merkkijonona lainausmerkeissä.",
}

accuracy_pick = Exercise(
    name="accuracy_pick",
    solve=_solve_accuracy_pick,
    kind="choice",
    hint={
        "en": "Read only the accuracy column of the step 2 table, computed on the test set, and take "
        "the model with the largest value. Do not let the other columns, or what you expect "
        "of an ordinal model, decide for you.",
        "it": "Leggi solo la colonna dell'accuratezza nella tabella del passo 2, calcolata sull'insieme "
        "di test, e prendi il modello con il valore più alto. Non lasciare che le altre colonne, "
        "o quello che ti aspetti da un modello ordinale, decidano al posto tuo.",
        "es": "Lee solo la columna de la exactitud en la tabla del paso 2, calculada en el conjunto de "
        "prueba, y toma el modelo con el valor más alto. No dejes que las otras columnas, ni lo "
        "que esperas de un modelo ordinal, decidan por ti.",
        "pt": "Leia só a coluna da acurácia na tabela do passo 2, calculada no conjunto de teste, e "
        "escolha o modelo com o maior valor. Não deixe que as outras colunas, nem o que você "
        "espera de um modelo ordinal, decidam por você.",
        "fi": "Lue vaiheen 2 taulukosta vain testiaineistosta lasketun tarkkuuden (accuracy) sarake ja "
        "valitse malli, jolla arvo on suurin. Älä anna muiden sarakkeiden tai ordinaalimallia "
        "koskevien odotustesi ratkaista puolestasi.",
    },
    form=_PICK_FORM,
    wrong_examples=lambda: _wrong_pick("accuracy"),
)

qwk_pick = Exercise(
    name="qwk_pick",
    solve=_solve_qwk_pick,
    kind="choice",
    hint={
        "en": "Read only the QWK column of the step 2 table (cohen_kappa_score with "
        'weights="quadratic" on the test set) and take the model with the largest value. The '
        "two best are close, so compare them to the third decimal.",
        "it": "Leggi solo la colonna QWK nella tabella del passo 2 (cohen_kappa_score con "
        'weights="quadratic" sull\'insieme di test) e prendi il modello con il valore più alto. '
        "I due migliori sono vicini: confrontali fino alla terza cifra decimale.",
        "es": "Lee solo la columna QWK en la tabla del paso 2 (cohen_kappa_score con "
        'weights="quadratic" en el conjunto de prueba) y toma el modelo con el valor más alto. '
        "Los dos mejores están cerca: compáralos hasta el tercer decimal.",
        "pt": 'Leia só a coluna QWK na tabela do passo 2 (cohen_kappa_score com weights="quadratic" '
        "no conjunto de teste) e escolha o modelo com o maior valor. Os dois melhores estão "
        "próximos: compare-os até a terceira casa decimal.",
        "fi": 'Lue vaiheen 2 taulukosta vain QWK-sarake (cohen_kappa_score, weights="quadratic", '
        "testiaineistossa) ja valitse malli, jolla arvo on suurin. Kaksi parasta ovat lähellä "
        "toisiaan, joten vertaa niitä kolmanteen desimaaliin asti.",
    },
    form=_PICK_FORM,
    wrong_examples=lambda: _wrong_pick("qwk"),
)

paradox_qwk = Exercise(
    name="paradox_qwk",
    solve=_solve_paradox_qwk,
    kind="number",
    hint={
        "en": "Use the error mechanism of step 5 (probability 0.2 of moving one class, half up and "
        "half down; at an edge the impossible move stays in place) and the class shares exactly "
        "as given, not split equally. Weight the expected confusion matrix quadratically: "
        "the unweighted kappa and the accuracy are different numbers.",
        "it": "Usa il meccanismo di errore del passo 5 (probabilità 0,2 di spostarsi di una classe, "
        "metà in su e metà in giù; al bordo lo spostamento impossibile lascia la risposta dov'è) "
        "e le quote delle classi esattamente come date, non divise in parti uguali. Pesa la "
        "matrice di confusione attesa in modo quadratico: il kappa non pesato e l'accuratezza "
        "sono numeri diversi.",
        "es": "Usa el mecanismo de error del paso 5 (probabilidad 0,2 de moverse una clase, la mitad "
        "hacia arriba y la mitad hacia abajo; en un extremo, el movimiento imposible deja la "
        "respuesta donde está) y las proporciones de clase tal como se dan, no repartidas a "
        "partes iguales. Pondera la matriz de confusión esperada de forma cuadrática: la kappa "
        "sin pesos y la exactitud son otros números.",
        "pt": "Use o mecanismo de erro do passo 5 (probabilidade 0,2 de mover uma classe, metade para "
        "cima e metade para baixo; na borda, o movimento impossível deixa a resposta onde está) "
        "e as proporções das classes exatamente como dadas, não divididas em partes iguais. "
        "Pondere a matriz de confusão esperada de forma quadrática: o kappa sem pesos e a "
        "acurácia são outros números.",
        "fi": "Käytä vaiheen 5 virhemekanismia (todennäköisyydellä 0,2 vastaus siirtyy yhden luokan, "
        "puolet kerroista ylös ja puolet alas; reunalla mahdoton siirto jättää vastauksen "
        "paikalleen) ja luokkien osuuksia täsmälleen annettuina, ei tasan jaettuina. Painota "
        "odotettu sekaannusmatriisi neliöllisesti: painottamaton kappa ja tarkkuus (accuracy) "
        "ovat eri lukuja.",
    },
    form=DECIMAL_FORM,
    tol=0.005,
    wrong_examples=_wrong_paradox_qwk,
)

check = Checker(qwk_by_hand, accuracy_pick, qwk_pick, paradox_qwk)

__all__ = ["check"]
