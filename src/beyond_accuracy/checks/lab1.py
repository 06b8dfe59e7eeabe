"""Checks of lab 1, "A screening tool on real biopsies".

Every expected answer is computed from the objects the lab's check cell passes (the student's
validation labels and probabilities, the student's digits predictions), so the checks stay fair
when the lab is rerun with another ``SEED`` or with ``load_biopsies(features="mean")``.

In the lab: ``from beyond_accuracy.checks.lab1 import check``, then
``check.counts(answer_counts, y_val, proba_val["LogisticRegression"])``.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import classification_report, f1_score

from ._engine import Checker, Exercise, Mistake, texts

EX_THRESHOLD = 0.37  # the threshold of the "counts" and "precision_recall" exercises (not in the sweep)
REPORT_ROWS = ("accuracy", "macro avg", "weighted avg")  # the options of the "micro_f1" exercise


def _counts(y_true, proba, threshold: float, strict: bool = False) -> tuple[int, int, int, int]:
    y = np.asarray(y_true).astype(int)
    p = np.asarray(proba, dtype=float)
    if y.shape != p.shape or y.ndim != 1:
        raise ValueError("pass the validation labels and one probability per biopsy")
    flagged = p > threshold if strict else p >= threshold
    tp = int(np.sum(flagged & (y == 1)))
    fp = int(np.sum(flagged & (y == 0)))
    fn = int(np.sum(~flagged & (y == 1)))
    tn = int(np.sum(~flagged & (y == 0)))
    return tp, fp, fn, tn


def _pr(counts) -> tuple[float, float]:
    tp, fp, fn, _ = counts
    return tp / (tp + fp), tp / (tp + fn)


def _f_beta(counts, beta: float) -> float:
    tp, fp, fn, _ = counts
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def _best_threshold(y_true, proba, thresholds, beta: float, lowest: bool = True) -> float:
    values = [_f_beta(_counts(y_true, proba, t), beta) for t in thresholds]
    best = max(values)
    tied = [float(t) for t, v in zip(thresholds, values) if v == best]
    return min(tied) if lowest else max(tied)


def _highest_tied(y_true, proba, thresholds):
    high = _best_threshold(y_true, proba, thresholds, 2, lowest=False)
    return high if high != _best_threshold(y_true, proba, thresholds, 2) else None


def _report_rows(y_true, y_pred) -> dict[str, float]:
    report = classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    return {
        "accuracy": report["accuracy"],
        "macro avg": report["macro avg"]["f1-score"],
        "weighted avg": report["weighted avg"]["f1-score"],
    }


def _micro_row(y_true, y_pred) -> tuple[str, ...]:
    """Every report row whose f1-score equals the micro-averaged F1 (in a single-label problem,
    one row always does)."""
    micro = f1_score(y_true, y_pred, average="micro")
    return tuple(row for row, value in _report_rows(y_true, y_pred).items() if abs(value - micro) < 1e-12)


def _row_if_distinct(row: str):
    def value(y_true, y_pred):
        return None if row in _micro_row(y_true, y_pred) else row

    return value


counts = Exercise(
    name="counts",
    kind="numbers",
    size=4,
    whole=True,
    order="(tp, fp, fn, tn)",
    inputs=("y_val", 'proba_val["LogisticRegression"]'),
    expected=lambda y, p: _counts(y, p, EX_THRESHOLD),
    skill=texts(
        "Turn probabilities into decisions at a threshold and read the four cells of a confusion matrix.",
        "Trasformare probabilità in decisioni con una soglia e leggere le quattro celle di una matrice di confusione.",
        "Convertir probabilidades en decisiones con un umbral y leer las cuatro celdas de una matriz de confusión.",
        "Transformar probabilidades em decisões com um limiar e ler as quatro células de uma matriz de confusão.",
        "Muuttaa todennäköisyydet päätöksiksi kynnysarvolla ja lukea sekaannusmatriisin neljä solua.",
    ),
    hint=texts(
        "Flag a biopsy when its probability is at least the threshold (>=), count on the validation "
        "set only, and give the counts in the order TP, FP, FN, TN.",
        "Segnala una biopsia quando la sua probabilità è almeno pari alla soglia (>=), conta solo "
        "sull'insieme di validazione e scrivi i conteggi nell'ordine TP, FP, FN, TN.",
        "Marca una biopsia cuando su probabilidad es mayor o igual que el umbral (>=), cuenta solo en "
        "el conjunto de validación y da los recuentos en el orden TP, FP, FN, TN.",
        "Sinalize uma biópsia quando sua probabilidade for maior ou igual ao limiar (>=), conte apenas "
        "no conjunto de validação e informe as contagens na ordem TP, FP, FN, TN.",
        "Merkitse koepala, kun sen todennäköisyys on vähintään kynnysarvo (>=), laske vain "
        "validointiaineistosta ja anna lukumäärät järjestyksessä TP, FP, FN, TN.",
    ),
    mistakes=(
        Mistake(
            "sklearn_order",
            lambda y, p: (lambda c: (c[3], c[1], c[2], c[0]))(_counts(y, p, EX_THRESHOLD)),
            about=texts(
                "scikit-learn's order (tn, fp, fn, tp)",
                "l'ordine di scikit-learn (tn, fp, fn, tp)",
                "el orden de scikit-learn (tn, fp, fn, tp)",
                "a ordem do scikit-learn (tn, fp, fn, tp)",
                "scikit-learnin järjestys (tn, fp, fn, tp)",
            ),
            hint=texts(
                "These are the right counts in scikit-learn's order, which starts with TN. The exercise "
                "asks for (tp, fp, fn, tn).",
                "Sono i conteggi giusti nell'ordine di scikit-learn, che comincia da TN. L'esercizio "
                "chiede (tp, fp, fn, tn).",
                "Son los recuentos correctos en el orden de scikit-learn, que empieza por TN. El "
                "ejercicio pide (tp, fp, fn, tn).",
                "São as contagens certas na ordem do scikit-learn, que começa por TN. O exercício pede "
                "(tp, fp, fn, tn).",
                "Lukumäärät ovat oikeat, mutta scikit-learnin järjestyksessä, joka alkaa TN:stä. Tehtävä "
                "pyytää (tp, fp, fn, tn).",
            ),
        ),
        Mistake(
            "fp_fn_swapped",
            lambda y, p: (lambda c: (c[0], c[2], c[1], c[3]))(_counts(y, p, EX_THRESHOLD)),
            about=texts(
                "FP and FN swapped",
                "FP e FN scambiati",
                "FP y FN intercambiados",
                "FP e FN trocados",
                "FP ja FN vaihtaneet paikkaa",
            ),
            hint=texts(
                "FP and FN are swapped. A false positive is a benign biopsy that was flagged; a false "
                "negative is a malignant one that was not.",
                "FP e FN sono scambiati. Un falso positivo è una biopsia benigna segnalata; un falso "
                "negativo è una biopsia maligna non segnalata.",
                "FP y FN están intercambiados. Un falso positivo es una biopsia benigna marcada; un "
                "falso negativo, una maligna sin marcar.",
                "FP e FN estão trocados. Um falso positivo é uma biópsia benigna sinalizada; um falso "
                "negativo, uma biópsia maligna não sinalizada.",
                "FP ja FN ovat vaihtaneet paikkaa. Väärä positiivinen on merkitty hyvänlaatuinen "
                "koepala, väärä negatiivinen merkitsemättä jäänyt pahanlaatuinen.",
            ),
        ),
        Mistake(
            "default_threshold",
            lambda y, p: _counts(y, p, 0.5),
            about=texts(
                "the counts at the default threshold 0.5",
                "i conteggi alla soglia predefinita 0,5",
                "los recuentos con el umbral por defecto, 0,5",
                "as contagens no limiar padrão 0,5",
                "lukumäärät oletuskynnysarvolla 0,5",
            ),
            hint=texts(
                "These are the counts of .predict(), at the default threshold 0.5. Compare the "
                "probabilities with the exercise's threshold yourself.",
                "Sono i conteggi di .predict(), con la soglia predefinita 0,5. Confronta tu le "
                "probabilità con la soglia dell'esercizio.",
                "Son los recuentos de .predict(), con el umbral por defecto, 0,5. Compara tú las "
                "probabilidades con el umbral del ejercicio.",
                "São as contagens de .predict(), no limiar padrão 0,5. Compare você mesmo as "
                "probabilidades com o limiar do exercício.",
                "Nämä ovat .predict()-metodin lukumäärät oletuskynnysarvolla 0,5. Vertaa "
                "todennäköisyyksiä itse tehtävän kynnysarvoon.",
            ),
        ),
    ),
)

precision_recall = Exercise(
    name="precision_recall",
    kind="numbers",
    size=2,
    proportion=True,
    order="(precision, recall)",
    tol=0.005,  # by hand: two decimals are enough
    inputs=("y_val", 'proba_val["LogisticRegression"]'),
    expected=lambda y, p: _pr(_counts(y, p, EX_THRESHOLD)),
    skill=texts(
        "Compute precision and recall from the four counts, knowing which column and which row each reads.",
        "Calcolare precision e recall dai quattro conteggi, sapendo quale colonna e quale riga legge ciascuna.",
        "Calcular la precisión y la exhaustividad a partir de los cuatro recuentos, sabiendo qué columna y qué fila lee cada una.",
        "Calcular precisão e revocação a partir das quatro contagens, sabendo qual coluna e qual linha cada uma lê.",
        "Laskea täsmällisyys ja herkkyys neljästä lukumäärästä ja tietää, mitä saraketta ja riviä kumpikin lukee.",
    ),
    hint=texts(
        "Precision divides TP by everything flagged (TP + FP); recall divides TP by every malignant "
        "biopsy (TP + FN). Use the counts at the exercise's threshold.",
        "La precision divide TP per tutte le biopsie segnalate (TP + FP); la recall divide TP per "
        "tutte le biopsie maligne (TP + FN). Usa i conteggi alla soglia dell'esercizio.",
        "La precisión divide TP entre todo lo marcado (TP + FP); la exhaustividad divide TP entre "
        "todas las biopsias malignas (TP + FN). Usa los recuentos con el umbral del ejercicio.",
        "A precisão divide TP por tudo o que foi sinalizado (TP + FP); a revocação divide TP por "
        "todas as biópsias malignas (TP + FN). Use as contagens no limiar do exercício.",
        "Täsmällisyys jakaa TP:n kaikilla merkityillä (TP + FP), herkkyys kaikilla pahanlaatuisilla "
        "koepaloilla (TP + FN). Käytä tehtävän kynnysarvon lukumääriä.",
    ),
    mistakes=(
        Mistake(
            "swapped",
            lambda y, p: _pr(_counts(y, p, EX_THRESHOLD))[::-1],
            about=texts(
                "the pair in the wrong order",
                "la coppia nell'ordine sbagliato",
                "el par en el orden equivocado",
                "o par na ordem errada",
                "pari väärässä järjestyksessä",
            ),
            hint=texts(
                "The two numbers are right but in the wrong order: the exercise asks for (precision, recall).",
                "I due numeri sono giusti ma nell'ordine sbagliato: l'esercizio chiede (precision, recall).",
                "Los dos números son correctos pero están en el orden equivocado: el ejercicio pide "
                "(precisión, exhaustividad).",
                "Os dois números estão certos, mas na ordem errada: o exercício pede (precisão, revocação).",
                "Luvut ovat oikeat mutta väärässä järjestyksessä: tehtävä pyytää (täsmällisyys, herkkyys).",
            ),
        ),
        Mistake(
            "precision_with_fn",
            lambda y, p: (lambda c: (c[0] / (c[0] + c[1] + c[2]), _pr(c)[1]))(_counts(y, p, EX_THRESHOLD)),
            about=texts(
                "precision computed as TP / (TP + FP + FN)",
                "precision calcolata come TP / (TP + FP + FN)",
                "precisión calculada como TP / (TP + FP + FN)",
                "precisão calculada como TP / (TP + FP + FN)",
                "täsmällisyys laskettuna TP / (TP + FP + FN)",
            ),
            hint=texts(
                "Recall is right. Precision looks only at the flagged biopsies: the missed ones (FN) do "
                "not belong in its denominator.",
                "La recall è giusta. La precision guarda solo le biopsie segnalate: quelle mancate (FN) "
                "non vanno nel denominatore.",
                "La exhaustividad es correcta. La precisión solo mira las biopsias marcadas: las no "
                "detectadas (FN) no van en su denominador.",
                "A revocação está certa. A precisão só considera as biópsias sinalizadas: as não "
                "detectadas (FN) não entram no denominador.",
                "Herkkyys on oikein. Täsmällisyys katsoo vain merkittyjä koepaloja: ohitetut (FN) eivät "
                "kuulu sen nimittäjään.",
            ),
        ),
        Mistake(
            "default_threshold",
            lambda y, p: _pr(_counts(y, p, 0.5)),
            about=texts(
                "the scores at the default threshold 0.5",
                "i valori alla soglia predefinita 0,5",
                "los valores con el umbral por defecto, 0,5",
                "os valores no limiar padrão 0,5",
                "arvot oletuskynnysarvolla 0,5",
            ),
            hint=texts(
                "These are precision and recall at the default threshold 0.5, not at the exercise's threshold.",
                "Sono precision e recall alla soglia predefinita 0,5, non alla soglia dell'esercizio.",
                "Son la precisión y la exhaustividad con el umbral por defecto, 0,5, no con el del ejercicio.",
                "São a precisão e a revocação no limiar padrão 0,5, não no limiar do exercício.",
                "Nämä ovat täsmällisyys ja herkkyys oletuskynnysarvolla 0,5, eivät tehtävän kynnysarvolla.",
            ),
        ),
    ),
)

best_f2 = Exercise(
    name="best_f2",
    kind="number",
    proportion=True,
    tol=0.001,  # a threshold of the sweep, read off the table
    inputs=("y_val", "proba_lr", "thresholds"),
    expected=lambda y, p, ts: _best_threshold(y, p, ts, 2),
    skill=texts(
        "Choose a decision threshold on validation data by the metric that fits the costs (F2 for screening).",
        "Scegliere una soglia di decisione sui dati di validazione con la metrica adatta ai costi (F2 per lo screening).",
        "Elegir un umbral de decisión en validación con la métrica que se ajusta a los costes (la F2 para el cribado).",
        "Escolher um limiar de decisão na validação com a métrica adequada aos custos (a F2, no rastreamento).",
        "Valita päätöskynnys validointiaineistolla kustannuksiin sopivalla mittarilla (seulonnassa F2).",
    ),
    hint=texts(
        "Compute F2 = 5 TP / (5 TP + 4 FN + FP) at every threshold of the sweep (or let "
        "threshold_table(..., betas=(2,)) add it) and take the threshold where it is largest; on a tie, the lowest.",
        "Calcola F2 = 5 TP / (5 TP + 4 FN + FP) a ogni soglia della scansione (oppure fallo aggiungere "
        "a threshold_table(..., betas=(2,))) e prendi la soglia in cui è massimo; in caso di parità, la più bassa.",
        "Calcula la F2 = 5 TP / (5 TP + 4 FN + FP) en cada umbral del barrido (o deja que la añada "
        "threshold_table(..., betas=(2,))) y toma el umbral donde es máxima; si hay empate, el más bajo.",
        "Calcule a F2 = 5 TP / (5 TP + 4 FN + FP) em cada limiar da varredura (ou deixe que "
        "threshold_table(..., betas=(2,)) a acrescente) e pegue o limiar em que ela é máxima; em caso de "
        "empate, o mais baixo.",
        "Laske F2 = 5 TP / (5 TP + 4 FN + FP) jokaisella läpikäynnin kynnysarvolla (tai anna "
        "threshold_table(..., betas=(2,)) -funktion lisätä se) ja valitse kynnysarvo, jolla se on suurin; "
        "tasatilanteessa pienin.",
    ),
    mistakes=(
        Mistake(
            "best_f1",
            lambda y, p, ts: _best_threshold(y, p, ts, 1),
            about=texts(
                "the best threshold by F1",
                "la soglia migliore per F1",
                "el mejor umbral según la F1",
                "o melhor limiar pela F1",
                "paras kynnysarvo F1:n mukaan",
            ),
            hint=texts(
                "That is the threshold F1 prefers. F2 weights recall more than precision, so it usually "
                "picks a lower threshold.",
                "È la soglia preferita da F1. F2 pesa la recall più della precision, quindi di solito "
                "sceglie una soglia più bassa.",
                "Es el umbral que prefiere la F1. La F2 pondera más la exhaustividad que la precisión, así "
                "que suele elegir un umbral más bajo.",
                "É o limiar preferido pela F1. A F2 dá mais peso à revocação do que à precisão, por isso "
                "costuma escolher um limiar mais baixo.",
                "Tämä on F1:n suosima kynnysarvo. F2 painottaa herkkyyttä enemmän kuin täsmällisyyttä, "
                "joten se valitsee yleensä matalamman kynnysarvon.",
            ),
        ),
        Mistake(
            "default_threshold",
            lambda y, p, ts: 0.5,
            about=texts(
                "the default threshold 0.5",
                "la soglia predefinita 0,5",
                "el umbral por defecto, 0,5",
                "o limiar padrão 0,5",
                "oletuskynnysarvo 0,5",
            ),
            hint=texts(
                "0.5 is the default of .predict(), not a choice made by F2. Compute F2 at every threshold of the sweep.",
                "0,5 è la soglia predefinita di .predict(), non una scelta di F2. Calcola F2 lungo la scansione.",
                "0,5 es el umbral por defecto de .predict(), no una elección de la F2. Calcula la F2 a lo largo del barrido.",
                "0,5 é o limiar padrão de .predict(), não uma escolha da F2. Calcule a F2 em cada limiar da varredura.",
                "0,5 on .predict()-metodin oletus, ei F2:n valinta. Laske F2 jokaisella läpikäynnin kynnysarvolla.",
            ),
        ),
        Mistake(
            "highest_tie",
            _highest_tied,
            about=texts(
                "the highest of the tied thresholds",
                "la più alta delle soglie a pari merito",
                "el más alto de los umbrales empatados",
                "o mais alto dos limiares empatados",
                "suurin tasoihin päätyneistä kynnysarvoista",
            ),
            hint=texts(
                "Several thresholds share the best F2: the exercise asks for the lowest of them.",
                "Più soglie hanno lo stesso F2 migliore: l'esercizio chiede la più bassa.",
                "Varios umbrales comparten la mejor F2: el ejercicio pide el más bajo.",
                "Vários limiares empatam na melhor F2: o exercício pede o mais baixo.",
                "Usealla kynnysarvolla on sama paras F2: tehtävä pyytää niistä pienintä.",
            ),
        ),
    ),
)

micro_f1 = Exercise(
    name="micro_f1",
    kind="choice",
    options=REPORT_ROWS,
    inputs=("yd_test[kept]", "yd_pred[kept]"),
    expected=_micro_row,
    skill=texts(
        "Tell micro, macro and weighted averaging apart in a multi-class report.",
        "Distinguere la media micro, macro e pesata in un report a più classi.",
        "Distinguir los promedios micro, macro y ponderado en un informe multiclase.",
        "Distinguir as médias micro, macro e ponderada em um relatório multiclasse.",
        "Erottaa mikro-, makro- ja painotettu keskiarvo moniluokkaisessa raportissa.",
    ),
    hint=texts(
        'Compute f1_score(..., average="micro") on the same images as the report and compare it, to '
        "three decimals, with each number of the report's f1-score column below the rows of the ten digits.",
        'Calcola f1_score(..., average="micro") sulle stesse immagini del report e confrontalo, a tre '
        "decimali, con ogni numero della colonna f1-score sotto le righe delle dieci cifre.",
        'Calcula f1_score(..., average="micro") con las mismas imágenes que el informe y compárala, con '
        "tres decimales, con cada número de la columna f1-score que hay debajo de las filas de los diez dígitos.",
        'Calcule f1_score(..., average="micro") nas mesmas imagens do relatório e compare-a, com três '
        "casas decimais, com cada número da coluna f1-score abaixo das linhas dos dez dígitos.",
        'Laske f1_score(..., average="micro") samoista kuvista kuin raportti ja vertaa sitä kolmen '
        "desimaalin tarkkuudella f1-score-sarakkeen jokaiseen lukuun kymmenen numerorivin alla.",
    ),
    mistakes=(
        Mistake(
            "macro",
            _row_if_distinct("macro avg"),
            about=texts('"macro avg"', '"macro avg"', '"macro avg"', '"macro avg"', '"macro avg"'),
            hint=texts(
                "The macro average is the plain mean of the ten per-class F1 scores, each class a tenth "
                "of the vote. Micro-averaging pools the counts of all classes before computing one F1.",
                "La media macro è la semplice media dei dieci F1 per classe, un decimo del voto a "
                "ciascuna. La media micro somma i conteggi di tutte le classi prima di calcolare un solo F1.",
                "El promedio macro es la media simple de las diez F1 por clase, y cada clase aporta una "
                "décima parte del voto. El promedio micro suma los recuentos de todas las clases antes de "
                "calcular una sola F1.",
                "A média macro é a média simples das dez F1 por classe, em que cada classe pesa um décimo. "
                "A média micro soma as contagens de todas as classes antes de calcular uma única F1.",
                "Makrokeskiarvo on kymmenen luokkakohtaisen F1:n tavallinen keskiarvo, jossa jokaisella "
                "luokalla on kymmenesosa painosta. Mikrokeskiarvo laskee ensin kaikkien luokkien "
                "lukumäärät yhteen ja vasta sitten yhden F1:n.",
            ),
        ),
        Mistake(
            "weighted",
            _row_if_distinct("weighted avg"),
            about=texts(
                '"weighted avg"', '"weighted avg"', '"weighted avg"', '"weighted avg"', '"weighted avg"'
            ),
            hint=texts(
                "The weighted average weights each class's F1 by its support; it is close to micro-F1 "
                "but not the same number here. Compare to three decimals.",
                "La media pesata pesa l'F1 di ogni classe con il suo supporto: qui è vicina all'F1 "
                "micro ma non è lo stesso numero. Confronta a tre decimali.",
                "El promedio ponderado pondera la F1 de cada clase por su soporte: aquí se parece a la "
                "micro-F1, pero no es el mismo número. Compara con tres decimales.",
                "A média ponderada pondera a F1 de cada classe pelo seu suporte: aqui fica perto da "
                "micro-F1, mas não é o mesmo número. Compare com três casas decimais.",
                "Painotettu keskiarvo painottaa kunkin luokan F1:tä sen koolla (support); tässä se on lähellä "
                "mikro-F1:tä mutta ei sama luku. Vertaa kolmen desimaalin tarkkuudella.",
            ),
        ),
    ),
)

check = Checker(counts, precision_recall, best_f2, micro_f1)

__all__ = ["check"]
