"""Checks of lab 3, "Can we trust these probabilities?".

Every expected answer is computed from what the check cell passes: the forecaster's table, the
student's naive Bayes probabilities before and after temperature scaling, and the student's
evaluation labels and calibrated probabilities. A rerun with another ``SEED`` or other splits is
checked against the student's own numbers.

In the lab: ``from beyond_accuracy.checks.lab3 import check``, then
``check.rain_ece(answer_rain_ece, rain)``.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import brier_score_loss, log_loss

from ..metrics import expected_calibration_error
from ._engine import Checker, Exercise, Mistake, texts

EX_THRESHOLD = 0.2  # the screening threshold of the "temperature_decisions" exercise
CALIBRATORS = ("temperature", "sigmoid", "isotonic")  # the options of "best_calibrator"


def _rain(table):
    days = np.asarray(table["days"], dtype=float)
    rainy = np.asarray(table["rainy"], dtype=float)
    forecast = np.asarray(table["forecast"], dtype=float)
    if np.any(days <= 0) or np.any(rainy > days):
        raise ValueError("the forecaster's table needs positive days and at most as many rainy days")
    return forecast, days, rainy / days


def _rain_ece(table) -> float:
    forecast, days, observed = _rain(table)
    return float(np.sum(days / days.sum() * np.abs(observed - forecast)))


def _changed(p_raw, p_scaled, threshold=EX_THRESHOLD) -> int:
    before = np.asarray(p_raw, dtype=float) >= threshold
    after = np.asarray(p_scaled, dtype=float) >= threshold
    if before.shape != after.shape:
        raise ValueError("pass naive Bayes' probabilities before and after temperature scaling")
    return int(np.sum(before != after))


def _nb(probs, method):
    return np.asarray(probs[("naive Bayes", method)], dtype=float)


def _lowest(score):
    def value(y_eval, probs):
        found = {m: score(np.asarray(y_eval), _nb(probs, m)) for m in CALIBRATORS}
        return min(found, key=found.get)

    return value


rain_ece = Exercise(
    name="rain_ece",
    kind="number",
    proportion=True,
    tol=0.005,  # by hand: two decimals are enough
    inputs=("rain",),
    expected=_rain_ece,
    skill=texts(
        "Compute the expected calibration error from binned forecasts, weighting each bin by its size.",
        "Calcolare l'errore di calibrazione atteso da previsioni raggruppate, pesando ogni intervallo con la sua dimensione.",
        "Calcular el error de calibración esperado a partir de pronósticos agrupados, ponderando cada intervalo por su tamaño.",
        "Calcular o erro de calibração esperado a partir de previsões agrupadas, ponderando cada faixa pelo seu tamanho.",
        "Laskea odotettu kalibrointivirhe ryhmitellyistä ennusteista painottaen jokaista väliä sen koolla.",
    ),
    hint=texts(
        "For each forecast value: the share of rainy days minus the forecast, in absolute value, "
        "weighted by that row's share of all days. Add the three terms.",
        "Per ogni valore di previsione: quota di giorni di pioggia meno la previsione, in valore "
        "assoluto, pesata con la quota di giorni di quella riga. Somma i tre termini.",
        "Para cada valor del pronóstico: la proporción de días de lluvia menos el pronóstico, en "
        "valor absoluto, ponderada por la proporción de días de esa fila. Suma los tres términos.",
        "Para cada valor da previsão: a proporção de dias de chuva menos a previsão, em valor "
        "absoluto, ponderada pela proporção de dias daquela linha. Some os três termos.",
        "Jokaiselle ennustearvolle: sadepäivien osuus miinus ennuste itseisarvona, painotettuna rivin "
        "osuudella kaikista päivistä. Laske kolme termiä yhteen.",
    ),
    mistakes=(
        Mistake(
            "unweighted",
            lambda t: float(np.mean(np.abs(_rain(t)[2] - _rain(t)[0]))),
            about=texts(
                "the plain mean of the three gaps",
                "la media semplice dei tre scarti",
                "la media simple de las tres diferencias",
                "a média simples das três diferenças",
                "kolmen eron tavallinen keskiarvo",
            ),
            hint=texts(
                "You averaged the three gaps as if each forecast value had as many days. Weight each gap by "
                "its row's share of the days.",
                "Hai fatto la media dei tre scarti come se ogni valore di previsione avesse lo stesso numero "
                "di giorni. Pesa "
                "ogni scarto con la quota di giorni della sua riga.",
                "Has promediado las tres diferencias como si cada valor del pronóstico tuviera el mismo "
                "número de días. "
                "Pondera cada una por la proporción de días de su fila.",
                "Você tirou a média das três diferenças como se cada valor de previsão tivesse o mesmo "
                "número de dias. "
                "Pondere cada uma pela proporção de dias da sua linha.",
                "Laskit kolmen eron keskiarvon ikään kuin jokaisella ennusteella olisi yhtä monta päivää. "
                "Painota jokaista eroa rivin päiväosuudella.",
            ),
        ),
        Mistake(
            "signed",
            lambda t: (lambda f, d, o: float(np.sum(d / d.sum() * (o - f))))(*_rain(t)),
            about=texts(
                "signed gaps, without the absolute value",
                "scarti con segno, senza valore assoluto",
                "diferencias con signo, sin valor absoluto",
                "diferenças com sinal, sem valor absoluto",
                "etumerkilliset erot ilman itseisarvoa",
            ),
            hint=texts(
                "Gaps of opposite sign cancel out in your sum. The ECE adds their sizes: take absolute values.",
                "Nella tua somma scarti di segno opposto si annullano. L'ECE somma invece le loro ampiezze: "
                "prendi i valori assoluti.",
                "En tu suma se anulan diferencias de signo contrario. El ECE suma sus tamaños: toma valores absolutos.",
                "Na sua soma, diferenças de sinal oposto se anulam. O ECE soma o tamanho de cada uma: use valores absolutos.",
                "Summassasi vastakkaismerkkiset erot kumoavat toisensa. ECE laskee yhteen niiden suuruudet: "
                "käytä itseisarvoja.",
            ),
        ),
        Mistake(
            "largest_gap",
            lambda t: float(np.max(np.abs(_rain(t)[2] - _rain(t)[0]))),
            about=texts(
                "the largest gap (the MCE)",
                "lo scarto massimo (l'MCE)",
                "la mayor diferencia (el MCE)",
                "a maior diferença (o MCE)",
                "suurin ero (MCE)",
            ),
            hint=texts(
                "That is the largest gap, the maximum calibration error. The ECE is a weighted average of all three.",
                "È lo scarto massimo, l'errore di calibrazione massimo. L'ECE è una media pesata di tutti e tre.",
                "Es la mayor diferencia, el error de calibración máximo. El ECE es una media ponderada de las tres.",
                "É a maior diferença, o erro de calibração máximo. O ECE é uma média ponderada das três.",
                "Tämä on suurin ero eli suurin kalibrointivirhe. ECE on kaikkien kolmen painotettu keskiarvo.",
            ),
        ),
    ),
)

temperature_decisions = Exercise(
    name="temperature_decisions",
    kind="number",
    whole=True,
    inputs=('probs[("naive Bayes", "none")]', 'probs[("naive Bayes", "temperature")]'),
    expected=_changed,
    skill=texts(
        "See that temperature scaling cannot change a decision at 0.5 but can change decisions at other thresholds.",
        "Vedere che il temperature scaling non può cambiare le decisioni a 0,5 ma può cambiare quelle a "
        "un'altra soglia.",
        "Ver que el escalado por temperatura no cambia las decisiones con el umbral 0,5, pero puede "
        "cambiar las de otros umbrales.",
        "Ver que o escalonamento por temperatura não muda as decisões no limiar 0,5, mas pode mudar as de "
        "outros limiares.",
        "Nähdä, että lämpötilaskaalaus ei muuta päätöksiä kynnysarvolla 0,5 mutta voi muuttaa niitä muilla "
        "kynnysarvoilla.",
    ),
    hint=texts(
        "Compare, biopsy by biopsy, the decision p >= 0.2 before and after temperature scaling and "
        "count the biopsies whose decision differs.",
        "Confronta, biopsia per biopsia, la decisione p >= 0.2 prima e dopo il temperature scaling e "
        "conta le biopsie la cui decisione cambia.",
        "Compara, biopsia por biopsia, la decisión p >= 0.2 antes y después del escalado por "
        "temperatura y cuenta las biopsias cuya decisión cambia.",
        "Compare, biópsia por biópsia, a decisão p >= 0.2 antes e depois do escalonamento por "
        "temperatura e conte as biópsias cuja decisão muda.",
        "Vertaa koepala kerrallaan päätöstä p >= 0.2 ennen lämpötilaskaalausta ja sen jälkeen ja laske "
        "koepalat, joiden päätös muuttuu.",
    ),
    mistakes=(
        Mistake(
            "at_half",
            lambda a, b: _changed(a, b, 0.5),
            about=texts(
                "the count at 0.5",
                "il conteggio a 0,5",
                "el recuento con el umbral 0,5",
                "a contagem no limiar 0,5",
                "lukumäärä kynnysarvolla 0,5",
            ),
            hint=texts(
                "At 0.5 no decision can change, but the exercise's threshold is 0.2, where the "
                "logit is not zero: there temperature does move some biopsies across.",
                "A 0,5 nessuna decisione può cambiare, ma la soglia dell'esercizio è 0,2, dove il logit "
                "non è zero: lì la temperatura sposta alcune biopsie dall'altra parte.",
                "Con el umbral 0,5 ninguna decisión puede cambiar, pero el del ejercicio es 0,2, donde el "
                "logit no es cero: ahí la temperatura sí hace cruzar el umbral a algunas biopsias.",
                "No limiar 0,5 nenhuma decisão pode mudar, mas o limiar do exercício é 0,2, onde o logit não "
                "é zero: ali a temperatura faz algumas biópsias cruzarem o limiar.",
                "Kynnysarvolla 0,5 mikään päätös ei voi muuttua, mutta tehtävän kynnysarvo on 0,2, jossa "
                "logit ei ole nolla: siellä lämpötila siirtää osan koepaloista toiselle puolelle.",
            ),
        ),
        Mistake(
            "flagged_after",
            lambda a, b: int(np.sum(np.asarray(b) >= EX_THRESHOLD)),
            about=texts(
                "the biopsies flagged after scaling",
                "le biopsie segnalate dopo il temperature scaling",
                "las biopsias marcadas después del escalado",
                "as biópsias sinalizadas depois do escalonamento",
                "skaalauksen jälkeen merkityt koepalat",
            ),
            hint=texts(
                "That is how many biopsies are flagged after scaling. Count only those whose decision is "
                "different from before.",
                "Questo è il numero di biopsie segnalate dopo il temperature scaling. Conta solo quelle la "
                "cui decisione è "
                "diversa da prima.",
                "Es cuántas biopsias quedan marcadas después del escalado. Cuenta solo aquellas cuya "
                "decisión cambia respecto de antes.",
                "Esse é o número de biópsias sinalizadas depois do escalonamento. Conte só aquelas cuja "
                "decisão é diferente da anterior.",
                "Näin monta koepalaa on merkitty skaalauksen jälkeen. Laske vain ne, joiden päätös on eri kuin ennen.",
            ),
        ),
    ),
)

best_calibrator = Exercise(
    name="best_calibrator",
    kind="choice",
    options=CALIBRATORS,
    inputs=("y_eval", "probs"),
    expected=_lowest(brier_score_loss),
    skill=texts(
        "Compare recalibration methods by a proper score on data that fitted neither model nor calibrator.",
        "Confrontare metodi di ricalibrazione con una regola di punteggio propria su dati che non hanno addestrato né modello né calibratore.",
        "Comparar métodos de recalibración con una regla de puntuación propia en datos que no ajustaron ni el modelo ni el calibrador.",
        "Comparar métodos de recalibração com uma regra de pontuação própria em dados que não ajustaram nem o modelo nem o calibrador.",
        "Verrata uudelleenkalibrointimenetelmiä aidolla pisteytyssäännöllä aineistossa, jolla ei sovitettu mallia eikä kalibroijaa.",
    ),
    hint=texts(
        'Compute brier_score_loss(y_eval, probs[("naive Bayes", method)]) for each of the three '
        "methods and keep the smallest.",
        'Calcola brier_score_loss(y_eval, probs[("naive Bayes", method)]) per ciascuno dei tre metodi '
        "e tieni il più piccolo.",
        'Calcula brier_score_loss(y_eval, probs[("naive Bayes", method)]) para cada uno de los tres '
        "métodos y quédate con el menor.",
        'Calcule brier_score_loss(y_eval, probs[("naive Bayes", method)]) para cada um dos três '
        "métodos e fique com o menor.",
        'Laske brier_score_loss(y_eval, probs[("naive Bayes", method)]) kaikille kolmelle menetelmälle '
        "ja valitse pienin.",
    ),
    mistakes=(
        Mistake(
            "lowest_ece",
            _lowest(lambda y, p: expected_calibration_error(y, p, n_bins=10)),
            about=texts(
                "the lowest ECE", "l'ECE più basso", "el ECE más bajo", "o ECE mais baixo", "pienin ECE"
            ),
            hint=texts(
                "That calibrator has the lowest ECE, which depends on the bins and ignores sharpness. "
                "The exercise asks for the Brier score.",
                "Quel calibratore ha l'ECE più basso, che dipende dagli intervalli e ignora la nitidezza. "
                "L'esercizio chiede il punteggio di Brier.",
                "Ese calibrador tiene el ECE más bajo, que depende de los intervalos e ignora la agudeza. "
                "El ejercicio pide la puntuación de Brier.",
                "Esse calibrador tem o ECE mais baixo, que depende das faixas e ignora a nitidez. O "
                "exercício pede o escore de Brier.",
                "Tällä kalibroijalla on pienin ECE, joka riippuu väleistä eikä huomioi terävyyttä. "
                "Tehtävä kysyy Brierin pistemäärää.",
            ),
        ),
        Mistake(
            "lowest_log_loss",
            _lowest(lambda y, p: log_loss(y, np.clip(p, 1e-15, 1 - 1e-15))),
            about=texts(
                "the lowest log loss",
                "la log-loss più bassa",
                "la pérdida logarítmica más baja",
                "a perda logarítmica mais baixa",
                "pienin logaritminen häviö",
            ),
            hint=texts(
                "That calibrator wins on log loss, which punishes confident mistakes far more. The "
                "exercise asks for the Brier score.",
                "Quel calibratore vince sulla log-loss, che punisce molto di più gli errori commessi con "
                "sicurezza. L'esercizio chiede il punteggio di Brier.",
                "Ese calibrador gana en pérdida logarítmica, que castiga mucho más los errores cometidos "
                "con seguridad. El ejercicio pide la puntuación de Brier.",
                "Esse calibrador vence na perda logarítmica, que pune muito mais os erros cometidos com "
                "confiança. O exercício pede o escore de Brier.",
                "Tämä kalibroija voittaa logaritmisella häviöllä, joka rankaisee itsevarmoja virheitä paljon "
                "enemmän. Tehtävä kysyy Brierin pistemäärää.",
            ),
        ),
    ),
)

check = Checker(rain_ece, temperature_decisions, best_calibrator)

__all__ = ["check"]
