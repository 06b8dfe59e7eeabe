"""Checks of lab 4, "Stars, stages and distances".

Every expected answer is computed from what the check cell passes (the student's test labels and
each model's test predictions, the pain table) or, for the kappa paradox, from the error mechanism
the exercise states. A rerun with another ``SEED`` is checked against the student's own models.

In the lab: ``from beyond_accuracy.checks.lab4 import check``, then
``check.qwk_by_hand(answer_qwk_by_hand, pain_counts)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, cohen_kappa_score, mean_absolute_error

from ..datasets import labels_from_counts
from ..metrics import one_off_accuracy
from ._engine import Checker, Exercise, Mistake, texts

P_MOVE = 0.2  # the error mechanism: one class up or down, at random, with this probability
PARADOX_PROPORTIONS = (0.70, 0.20, 0.10)  # the population of the "paradox_qwk" exercise
MODELS = ("majority", "multinomial LR", "regression + rounding", "ordinal LR")  # the board's rows


def _kappa_from_counts(counts, labels, weights=None) -> float:
    table = pd.DataFrame(counts, index=labels, columns=labels)
    y_true, y_pred = labels_from_counts(table)
    return float(cohen_kappa_score(y_true, y_pred, labels=labels, weights=weights))


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


def _pain_kappa(table, weights="quadratic") -> float:
    table = pd.DataFrame(table)
    if list(table.index) != list(table.columns):
        raise ValueError("pass the pain table: the same levels in its rows and its columns")
    return _kappa_from_counts(table.to_numpy(), list(table.index), weights=weights)


def _pain_shortcut(table, chance_divided=True) -> float:
    O = pd.DataFrame(table).to_numpy(dtype=float)
    i, j = np.indices(O.shape)
    W = (i - j) ** 2 / (len(O) - 1) ** 2
    if chance_divided is None:  # no chance matrix at all
        return float(1 - (W * O).sum() / O.sum())
    E = np.outer(O.sum(axis=1), O.sum(axis=0))
    return float(1 - (W * O).sum() / (W * E).sum())


_SCORES = {
    "accuracy": (accuracy_score, max),
    "qwk": (lambda t, p: cohen_kappa_score(t, p, weights="quadratic"), max),
    "kappa": (cohen_kappa_score, max),
    "one_off": (lambda t, p: one_off_accuracy(t, p, tolerance=1), max),
    "mae": (mean_absolute_error, min),
}


def _pick(metric):
    score, best = _SCORES[metric]

    def value(y_test, test_pred):
        if not set(test_pred) <= set(MODELS):
            raise ValueError(f"pass the dictionary of test predictions of the models {MODELS}")
        found = {name: float(score(np.asarray(y_test), np.asarray(pred))) for name, pred in test_pred.items()}
        top = best(found.values())
        return tuple(name for name, v in found.items() if v == top)  # ties: any of the tied models

    return value


def _one_pick(metric):
    pick = _pick(metric)
    return lambda y_test, test_pred: pick(y_test, test_pred)[0]


_PICK_SKILL = texts(
    "Read a model comparison by the metric that was declared, and see that metrics can disagree.",
    "Leggere un confronto tra modelli con la metrica dichiarata e vedere che le metriche possono non essere d'accordo.",
    "Leer una comparación de modelos con la métrica declarada y ver que las métricas pueden discrepar.",
    "Ler uma comparação de modelos pela métrica declarada e ver que as métricas podem discordar.",
    "Lukea mallivertailu ilmoitetun mittarin mukaan ja nähdä, että mittarit voivat olla eri mieltä.",
)


accuracy_pick = Exercise(
    name="accuracy_pick",
    kind="choice",
    options=MODELS,
    inputs=("y_test", "test_pred"),
    expected=_pick("accuracy"),
    skill=_PICK_SKILL,
    hint=texts(
        "Compute accuracy_score(y_test, pred) for each model's test predictions and keep the largest.",
        "Calcola accuracy_score(y_test, pred) per le previsioni di test di ogni modello e tieni la più grande.",
        "Calcula accuracy_score(y_test, pred) para las predicciones de prueba de cada modelo y quédate con la mayor.",
        "Calcule accuracy_score(y_test, pred) para as previsões de teste de cada modelo e fique com a maior.",
        "Laske accuracy_score(y_test, pred) jokaisen mallin testiennusteille ja valitse suurin.",
    ),
    mistakes=(
        Mistake(
            "by_qwk",
            _one_pick("qwk"),
            about=texts(
                "the QWK winner",
                "il vincitore per QWK",
                "el ganador por QWK",
                "o vencedor pelo QWK",
                "QWK:n voittaja",
            ),
            hint=texts(
                "That model wins on QWK. The exercise asks for the model that accuracy (the share of exact "
                "answers) picks.",
                "Quel modello vince per QWK. L'esercizio chiede il modello scelto dall'accuratezza (la quota "
                "di risposte esatte).",
                "Ese modelo gana por QWK. El ejercicio pide el modelo que elige la exactitud (la proporción "
                "de respuestas exactas).",
                "Esse modelo vence pelo QWK. O exercício pede o modelo escolhido pela acurácia (a proporção "
                "de respostas exatas).",
                "Tämä malli voittaa QWK:lla. Tehtävä kysyy mallia, jonka tarkkuus (accuracy) eli täsmälleen "
                "oikeiden vastausten osuus valitsee.",
            ),
        ),
        Mistake(
            "by_one_off",
            _one_pick("one_off"),
            about=texts(
                "the one-off winner",
                "il vincitore per accuratezza entro una classe",
                "el ganador por exactitud con tolerancia de una clase",
                "o vencedor pela acurácia com tolerância de uma classe",
                "yhden luokan toleranssin voittaja",
            ),
            hint=texts(
                "That model wins when an answer one class away counts as right. Accuracy counts only exact answers.",
                "Quel modello vince quando una risposta a una classe di distanza conta come giusta. "
                "L'accuratezza conta solo le risposte esatte.",
                "Ese modelo gana cuando una respuesta a una clase de distancia cuenta como correcta. La "
                "exactitud solo cuenta las respuestas exactas.",
                "Esse modelo vence quando uma resposta a uma classe de distância conta como certa. A "
                "acurácia conta só as respostas exatas.",
                "Tämä malli voittaa, kun yhden luokan päässä oleva vastaus lasketaan oikeaksi. Tarkkuus laskee vain täsmälleen oikeat.",
            ),
        ),
    ),
)

qwk_pick = Exercise(
    name="qwk_pick",
    kind="choice",
    options=MODELS,
    inputs=("y_test", "test_pred"),
    expected=_pick("qwk"),
    skill=_PICK_SKILL,
    hint=texts(
        'Compute cohen_kappa_score(y_test, pred, weights="quadratic") for each model and keep the largest.',
        'Calcola cohen_kappa_score(y_test, pred, weights="quadratic") per ogni modello e tieni il più grande.',
        'Calcula cohen_kappa_score(y_test, pred, weights="quadratic") para cada modelo y quédate con el mayor.',
        'Calcule cohen_kappa_score(y_test, pred, weights="quadratic") para cada modelo e fique com o maior.',
        'Laske cohen_kappa_score(y_test, pred, weights="quadratic") jokaiselle mallille ja valitse suurin.',
    ),
    mistakes=(
        Mistake(
            "by_accuracy",
            _one_pick("accuracy"),
            about=texts(
                "the accuracy winner",
                "il vincitore per accuratezza",
                "el ganador por exactitud",
                "o vencedor pela acurácia",
                "tarkkuuden voittaja",
            ),
            hint=texts(
                "That model wins on accuracy. QWK asks whether the predictions rise and fall with the truth: compute it.",
                "Quel modello vince per accuratezza. Il QWK chiede se le previsioni salgono e scendono con la verità: calcolalo.",
                "Ese modelo gana por exactitud. El QWK pregunta si las predicciones suben y bajan con la verdad: calcúlalo.",
                "Esse modelo vence pela acurácia. O QWK pergunta se as previsões sobem e descem com a verdade: calcule-o.",
                "Tämä malli voittaa tarkkuudella. QWK kysyy, nousevatko ja laskevatko ennusteet totuuden mukana: laske se.",
            ),
        ),
        Mistake(
            "by_mae",
            _one_pick("mae"),
            about=texts(
                "the MAE winner",
                "il vincitore per MAE",
                "el ganador por MAE",
                "o vencedor pelo MAE",
                "MAE:n voittaja",
            ),
            hint=texts(
                "That model has the lowest MAE, by hugging the middle. QWK compares the agreement with "
                "the agreement chance would give: compute it.",
                "Quel modello ha il MAE più basso perché resta al centro. Il QWK confronta l'accordo con "
                "quello che darebbe il caso: calcolalo.",
                "Ese modelo tiene el MAE más bajo porque se queda en el centro. El QWK compara la "
                "concordancia con la que daría el azar: calcúlalo.",
                "Esse modelo tem o menor MAE porque fica no meio. O QWK compara a concordância com a que "
                "o acaso daria: calcule-o.",
                "Tällä mallilla on pienin MAE, koska se pysyttelee keskellä. QWK vertaa yhtäpitävyyttä "
                "sattuman antamaan: laske se.",
            ),
        ),
    ),
)

qwk_by_hand = Exercise(
    name="qwk_by_hand",
    kind="number",
    tol=0.005,  # by hand: two decimals are enough
    inputs=("pain_counts",),
    expected=_pain_kappa,
    skill=texts(
        "Compute quadratic-weighted kappa from a confusion matrix: chance matrix, weights, two sums.",
        "Calcolare il kappa con pesi quadratici da una matrice di confusione: matrice attesa per caso, pesi, due somme.",
        "Calcular el kappa con ponderación cuadrática a partir de una matriz de confusión: matriz del azar, pesos, dos sumas.",
        "Calcular o kappa com ponderação quadrática a partir de uma matriz de confusão: matriz do acaso, pesos, duas somas.",
        "Laskea neliöllisesti painotettu kappa sekaannusmatriisista: sattumamatriisi, painot, kaksi summaa.",
    ),
    hint=texts(
        "E = (row totals × column totals) / n; W[i, j] = (i - j)² / (k - 1)²; "
        "QWK = 1 - Σ W·O / Σ W·E, with O the table of counts.",
        "E = (totali di riga × totali di colonna) / n; W[i, j] = (i - j)² / (k - 1)²; "
        "QWK = 1 - Σ W·O / Σ W·E, dove O è la tabella dei conteggi.",
        "E = (totales de fila × totales de columna) / n; W[i, j] = (i - j)² / (k - 1)²; "
        "QWK = 1 - Σ W·O / Σ W·E, con O la tabla de recuentos.",
        "E = (totais de linha × totais de coluna) / n; W[i, j] = (i - j)² / (k - 1)²; "
        "QWK = 1 - Σ W·O / Σ W·E, com O a tabela de contagens.",
        "E = (rivisummat × sarakesummat) / n; W[i, j] = (i - j)² / (k - 1)²; "
        "QWK = 1 - Σ W·O / Σ W·E, missä O on lukumäärätaulukko.",
    ),
    mistakes=(
        Mistake(
            "unweighted",
            lambda t: _pain_kappa(t, weights=None),
            about=texts(
                "unweighted kappa",
                "kappa non pesato",
                "kappa sin ponderar",
                "kappa não ponderado",
                "painottamaton kappa",
            ),
            hint=texts(
                "That is the unweighted kappa: every disagreement counts the same. Weight each cell by (i - j)².",
                "È il kappa non pesato: ogni disaccordo conta allo stesso modo. Pesa ogni cella con (i - j)².",
                "Es el kappa sin ponderar: todo desacuerdo cuenta igual. Pondera cada celda por (i - j)².",
                "É o kappa não ponderado: toda discordância conta da mesma forma. Pondere cada célula por (i - j)².",
                "Tämä on painottamaton kappa: jokainen erimielisyys lasketaan samoin. Painota jokaista solua (i - j)²:lla.",
            ),
        ),
        Mistake(
            "linear",
            lambda t: _pain_kappa(t, weights="linear"),
            about=texts(
                "linear weights", "pesi lineari", "pesos lineales", "pesos lineares", "lineaariset painot"
            ),
            hint=texts(
                "Those are linear weights, |i - j|. Quadratic weights square the distance.",
                "Quelli sono pesi lineari, |i - j|. I pesi quadratici elevano al quadrato la distanza.",
                "Esos son pesos lineales, |i - j|. Los cuadráticos elevan la distancia al cuadrado.",
                "Esses são pesos lineares, |i - j|. Os quadráticos elevam a distância ao quadrado.",
                "Nämä ovat lineaariset painot |i - j|. Neliölliset painot korottavat etäisyyden toiseen.",
            ),
        ),
        Mistake(
            "accuracy",
            lambda t: float(np.trace(pd.DataFrame(t).to_numpy()) / pd.DataFrame(t).to_numpy().sum()),
            about=texts(
                "the share on the diagonal",
                "la quota sulla diagonale",
                "la proporción en la diagonal",
                "a proporção na diagonal",
                "lävistäjän osuus",
            ),
            hint=texts(
                "That is the share of exact agreement. Kappa compares the weighted disagreement with what chance would give.",
                "È la quota di accordo esatto. Il kappa confronta il disaccordo pesato con quello dovuto al caso.",
                "Es la proporción de concordancia exacta. El kappa compara el desacuerdo ponderado con el del azar.",
                "É a proporção de concordância exata. O kappa compara a discordância ponderada com a do acaso.",
                "Tämä on täsmällisen yhtäpitävyyden osuus. Kappa vertaa painotettua erimielisyyttä sattuman antamaan.",
            ),
        ),
        Mistake(
            "no_chance",
            lambda t: _pain_shortcut(t, chance_divided=None),
            about=texts(
                "no chance matrix",
                "senza matrice attesa per caso",
                "sin matriz del azar",
                "sem matriz do acaso",
                "ilman sattumamatriisia",
            ),
            hint=texts(
                "You divided by n instead of by the weighted sum of the chance matrix E.",
                "Hai diviso per n invece che per la somma pesata della matrice attesa per caso E.",
                "Has dividido entre n en lugar de entre la suma ponderada de la matriz del azar E.",
                "Você dividiu por n em vez de pela soma ponderada da matriz do acaso E.",
                "Jaoit n:llä etkä sattumamatriisin E painotetulla summalla.",
            ),
        ),
        Mistake(
            "chance_not_divided",
            lambda t: _pain_shortcut(t),
            about=texts(
                "E not divided by n",
                "E non diviso per n",
                "E sin dividir entre n",
                "E sem dividir por n",
                "E jakamatta n:llä",
            ),
            hint=texts(
                "The chance matrix is row totals × column totals divided by n, so that E adds up to n like O.",
                "La matrice attesa per caso è totali di riga × totali di colonna diviso per n, così che la somma di E "
                "sia n, come quella di O.",
                "La matriz del azar es totales de fila × totales de columna entre n, para que E sume n como O.",
                "A matriz do acaso é totais de linha × totais de coluna dividido por n, para que a soma de E seja n, "
                "como a de O.",
                "Sattumamatriisi on rivisummat × sarakesummat jaettuna n:llä, jotta E:n summa on n kuten O:n.",
            ),
        ),
    ),
)

paradox_qwk = Exercise(
    name="paradox_qwk",
    kind="number",
    tol=0.005,
    expected=lambda: _expected_kappa(PARADOX_PROPORTIONS),
    skill=texts(
        "See that the same rater gets a different kappa in a different population (the kappa paradox).",
        "Vedere che lo stesso valutatore ottiene un kappa diverso in un'altra popolazione (il paradosso del kappa).",
        "Ver que el mismo evaluador obtiene otro kappa en otra población (la paradoja del kappa).",
        "Ver que o mesmo avaliador obtém outro kappa em outra população (o paradoxo do kappa).",
        "Nähdä, että sama arvioija saa eri kappan eri populaatiossa (kappaparadoksi).",
    ),
    hint=texts(
        "Use the same error mechanism (0.2, edges as in the lab) with the shares 0.70, 0.20, 0.10: "
        "expected_scores([0.70, 0.20, 0.10]) gives the expected QWK.",
        "Usa lo stesso meccanismo d'errore (0,2; estremi trattati come nel laboratorio) con le quote 0,70; "
        "0,20 e 0,10: expected_scores([0.70, 0.20, 0.10]) dà il QWK atteso.",
        "Usa el mismo mecanismo de error (0,2; extremos como en el laboratorio) con las proporciones 0,70; "
        "0,20 y 0,10: expected_scores([0.70, 0.20, 0.10]) da el QWK esperado.",
        "Use o mesmo mecanismo de erro (0,2; bordas como no laboratório) com as proporções 0,70; 0,20 e "
        "0,10: expected_scores([0.70, 0.20, 0.10]) dá o QWK esperado.",
        "Käytä samaa virhemekanismia (0,2; reunat kuten harjoituksessa) osuuksilla 0,70; 0,20; 0,10: "
        "expected_scores([0.70, 0.20, 0.10]) antaa odotetun QWK:n.",
    ),
    mistakes=(
        Mistake(
            "accuracy",
            lambda: float(np.sum(np.asarray(PARADOX_PROPORTIONS) * np.diag(_error_mechanism(3, P_MOVE)))),
            about=texts(
                "the expected accuracy",
                "l'accuratezza attesa",
                "la exactitud esperada",
                "a acurácia esperada",
                "odotettu tarkkuus",
            ),
            hint=texts(
                "That is the expected accuracy, the share on the diagonal; the exercise asks for the expected QWK.",
                "È l'accuratezza attesa, la quota sulla diagonale; l'esercizio chiede il QWK atteso.",
                "Es la exactitud esperada, la proporción en la diagonal; el ejercicio pide el QWK esperado.",
                "É a acurácia esperada, a proporção na diagonal; o exercício pede o QWK esperado.",
                "Tämä on odotettu tarkkuus eli lävistäjän osuus; tehtävä kysyy odotettua QWK:ta.",
            ),
        ),
        Mistake(
            "unweighted",
            lambda: _expected_kappa(PARADOX_PROPORTIONS, weights=None),
            about=texts(
                "unweighted kappa",
                "kappa non pesato",
                "kappa sin ponderar",
                "kappa não ponderado",
                "painottamaton kappa",
            ),
            hint=texts(
                "That is the unweighted kappa; the exercise asks for the quadratic-weighted one.",
                "È il kappa non pesato; l'esercizio chiede quello con pesi quadratici.",
                "Es el kappa sin ponderar; el ejercicio pide el kappa con ponderación cuadrática.",
                "É o kappa não ponderado; o exercício pede o kappa com ponderação quadrática.",
                "Tämä on painottamaton kappa; tehtävä kysyy neliöllisesti painotettua.",
            ),
        ),
        Mistake(
            "equal_thirds",
            lambda: _expected_kappa(np.full(3, 1 / 3)),
            about=texts(
                "the value for equal thirds",
                "il valore per tre terzi uguali",
                "el valor para tercios iguales",
                "o valor para terços iguais",
                "arvo yhtä suurilla osuuksilla",
            ),
            hint=texts(
                "That is the QWK of a population split in equal thirds. Use the shares 0.70, 0.20, 0.10.",
                "È il QWK di una popolazione divisa in tre terzi uguali. Usa le quote 0,70; 0,20 e 0,10.",
                "Es el QWK de una población dividida en tercios iguales. Usa las proporciones 0,70; 0,20 y 0,10.",
                "É o QWK de uma população dividida em terços iguais. Use as proporções 0,70; 0,20 e 0,10.",
                "Tämä on QWK populaatiolle, joka jakautuu kolmeen yhtä suureen osaan. Käytä osuuksia 0,70; 0,20; 0,10.",
            ),
        ),
    ),
)

check = Checker(accuracy_pick, qwk_pick, qwk_by_hand, paradox_qwk)

__all__ = ["check"]
