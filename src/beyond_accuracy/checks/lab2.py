"""Checks of lab 2, "The fraud desk".

Every expected answer is computed here with the lab's own procedure: the same transactions, the
same three-way split (same ``random_state``), the same models, costs and thresholds, and the same
out-of-fold predictions on the biopsies. If the data, scikit-learn or the lab drift apart, the
lab's stored "Correct" verdicts stop matching and the tests say so.

In the lab: ``from beyond_accuracy.checks.lab2 import check``, then ``check.tau_star(answer)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from imblearn.over_sampling import SMOTE
from imblearn.pipeline import make_pipeline as make_imb_pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import (
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_val_predict,
    train_test_split,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ..datasets import load_biopsies, transactions
from ..metrics import confusion_counts, cost_threshold, expected_cost
from ._engine import Checker, Exercise

# The lab's settings, repeated here so that the checks reproduce its numbers.
SEED = 0
C_INVESTIGATION = 5  # every flagged transaction is investigated, fraud or not
C_MISSED_FRAUD = 200  # a fraud that goes through unflagged
COSTS = {"c_fp": C_INVESTIGATION, "c_tp": C_INVESTIGATION, "c_fn": C_MISSED_FRAUD, "c_tn": 0}
THRESHOLDS = np.round(np.linspace(0.005, 0.5, 100), 3)  # 0.005, 0.010, ..., 0.500

# The "tau_star" exercise: a new contract with the desk.
EX_INVESTIGATION = 10  # every investigation, fraud or not
EX_GOODWILL = 15  # extra cost of holding a legitimate customer's payment
EX_MISSED_FRAUD = 120  # a fraud that goes through

# The "precision_screening" exercise: the biopsy model used on a population with this prevalence.
EX_PREVALENCE = 0.001  # one malignant tumour in a thousand biopsies

LEVERS = ("baseline", "tuned_threshold", "class_weights", "smote_pipeline")


# --- the exercise on the cost-optimal threshold -------------------------------------------------


def _solve_tau_star() -> float:
    return cost_threshold(c_fp=EX_INVESTIGATION + EX_GOODWILL, c_fn=EX_MISSED_FRAUD, c_tp=EX_INVESTIGATION)


def _wrong_tau_star() -> tuple:
    """Forgetting that a caught fraud is investigated too, forgetting the goodwill, the ratio of
    the two error costs, the complement, and the lab's own threshold."""
    c_fp, c_fn, c_tp = EX_INVESTIGATION + EX_GOODWILL, EX_MISSED_FRAUD, EX_INVESTIGATION
    tau = _solve_tau_star()
    return (
        c_fp / (c_fp + c_fn),
        EX_INVESTIGATION / (EX_INVESTIGATION + (c_fn - c_tp)),
        c_fp / c_fn,
        1 - tau,
        cost_threshold(**COSTS),
    )


# --- the exercise on precision at a low prevalence ----------------------------------------------


@lru_cache(maxsize=1)
def _biopsy_out_of_fold() -> tuple[np.ndarray, np.ndarray]:
    """Step 4: every biopsy's decision from a logistic regression that never saw it."""
    X, y = load_biopsies()
    model = make_pipeline(StandardScaler(), LogisticRegression())
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    pred = cross_val_predict(model, X, y, cv=cv)
    y = y.to_numpy()
    y.setflags(write=False)
    pred.setflags(write=False)
    return y, pred


def _biopsy_rates() -> tuple[float, float]:
    tp, fp, fn, tn = confusion_counts(*_biopsy_out_of_fold())
    return tp / (tp + fn), tn / (tn + fp)


def _precision_at(prevalence: float) -> float:
    sensitivity, specificity = _biopsy_rates()
    hits = sensitivity * prevalence
    false_alarms = (1 - specificity) * (1 - prevalence)
    return hits / (hits + false_alarms)


def _solve_precision_screening() -> float:
    return _precision_at(EX_PREVALENCE)


def _wrong_precision_screening() -> tuple:
    """The precision measured in the clinic, the share of true alarms among everybody
    (sensitivity x prevalence), specificity used in place of the false positive rate, and the
    precision at the simulation's lowest prevalence."""
    y, pred = _biopsy_out_of_fold()
    tp, fp, fn, tn = confusion_counts(y, pred)
    sensitivity, specificity = _biopsy_rates()
    hits = sensitivity * EX_PREVALENCE
    return (
        tp / (tp + fp),
        hits,
        hits / (hits + specificity * (1 - EX_PREVALENCE)),
        _precision_at(0.01),
    )


# --- the exercise on the lever with the lowest validation cost -----------------------------------


@lru_cache(maxsize=1)
def _lever_costs() -> dict[str, float]:
    """Steps 1, 6, 7, 8 and 9: each lever fitted on the training set, its expected cost per
    transaction on the validation set."""
    X, y = transactions()
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=0.4, stratify=y, random_state=SEED)
    X_val, _, y_val, _ = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=SEED)
    cost_scorer = make_scorer(expected_cost, greater_is_better=False, **COSTS)
    levers = {
        "baseline": make_pipeline(StandardScaler(), LogisticRegression()),
        "tuned_threshold": TunedThresholdClassifierCV(
            make_pipeline(StandardScaler(), LogisticRegression()),
            scoring=cost_scorer,
            thresholds=THRESHOLDS,
            cv=5,
        ),
        "class_weights": make_pipeline(StandardScaler(), LogisticRegression(class_weight="balanced")),
        "smote_pipeline": make_imb_pipeline(StandardScaler(), SMOTE(random_state=SEED), LogisticRegression()),
    }
    return {
        name: expected_cost(y_val, model.fit(X_train, y_train).predict(X_val), **COSTS)
        for name, model in levers.items()
    }


def _best_lever() -> str:
    costs = _lever_costs()
    return min(LEVERS, key=lambda name: costs[name])  # ties: the cheaper lever, earlier in LEVERS


# What a reader may call each lever, in the five languages of the course (accents optional).
_LEVER_NAMES = {
    "baseline": (
        "baseline",
        "baseline at 0.5",
        "default threshold",
        "threshold 0.5",
        "logistic regression",
        "linea di base",
        "modello di riferimento",
        "soglia 0.5",
        "soglia 0,5",
        "soglia predefinita",
        "regressione logistica",
        "referencia",
        "línea base",
        "linea base",
        "umbral 0.5",
        "umbral 0,5",
        "regresión logística con 0,5",
        "umbral por defecto",
        "regresión logística",
        "regresion logistica",
        "linha de base",
        "limiar 0.5",
        "limiar 0,5",
        "limiar padrão",
        "limiar padrao",
        "regressão logística",
        "regressao logistica",
        "vertailutaso",
        "lähtötaso",
        "lahtotaso",
        "kynnysarvo 0.5",
        "kynnysarvo 0,5",
        "oletuskynnys",
        "logistinen regressio",
    ),
    "tuned_threshold": (
        "tuned_threshold",
        "tuned threshold",
        "threshold",
        "cost threshold",
        "moving the threshold",
        "move the threshold",
        "TunedThresholdClassifierCV",
        "soglia",
        "soglia ottimizzata",
        "soglia ottimale",
        "soglia tarata",
        "spostare la soglia",
        "umbral",
        "umbral ajustado",
        "umbral optimizado",
        "umbral óptimo",
        "umbral optimo",
        "mover el umbral",
        "limiar",
        "limiar ajustado",
        "limiar otimizado",
        "limiar ótimo",
        "limiar otimo",
        "mover o limiar",
        "kynnysarvo",
        "kynnys",
        "viritetty kynnysarvo",
        "optimoitu kynnysarvo",
        "kynnysarvon siirto",
        "kynnysarvon siirtäminen",
        "kynnysarvon siirtaminen",
    ),
    "class_weights": (
        "class_weights",
        "class weights",
        "class weight",
        "class_weight",
        "balanced",
        'class_weight="balanced"',
        "class_weight='balanced'",
        "weights",
        "reweighting",
        "pesi delle classi",
        "pesi di classe",
        "pesi",
        "pesatura delle classi",
        "pesos de clase",
        "pesos de las clases",
        "pesos",
        "pesos das classes",
        "pesos de classe",
        "ponderação",
        "ponderacao",
        "ponderação das classes",
        "ponderacao das classes",
        "reponderação",
        "reponderacao",
        "luokkapainot",
        "luokkien painot",
        "painotus",
        "painot",
    ),
    "smote_pipeline": (
        "smote_pipeline",
        "smote pipeline",
        "smote",
        "resampling",
        "oversampling",
        "smote nella pipeline",
        "ricampionamento",
        "sovracampionamento",
        "smote en el pipeline",
        "smote en la pipeline",
        "remuestreo",
        "sobremuestreo",
        "smote no pipeline",
        "reamostragem",
        "sobreamostragem",
        "smote putkessa",
        "smote-putki",
        "uudelleenotanta",
        "ylinäytteistys",
        "ylinaytteistys",
    ),
}


def _solve_best_lever() -> tuple[str, ...]:
    """The accepted names of the lever with the lowest expected cost on the validation set."""
    return _LEVER_NAMES[_best_lever()]


def _wrong_best_lever() -> tuple:
    """The other levers, by their code identifier and their plain English name."""
    best = _best_lever()
    return tuple(name for lever in LEVERS if lever != best for name in _LEVER_NAMES[lever][:2])


# --- the exercises ----------------------------------------------------------------------------------

tau_star = Exercise(
    name="tau_star",
    solve=_solve_tau_star,
    kind="number",
    hint={
        "en": "Write the cost of each of the four outcomes first: a caught fraud is investigated too, "
        "and a held legitimate payment costs the investigation plus the goodwill. Then flag when "
        "the expected cost of flagging is at most that of letting the payment through; "
        "cost_threshold(c_fp=..., c_fn=..., c_tp=...) does the algebra.",
        "it": "Scrivi prima il costo di ciascuno dei quattro esiti: anche una frode intercettata viene "
        "esaminata, e un pagamento legittimo bloccato costa l'indagine più la perdita di fiducia del "
        "cliente. Poi segnala quando il costo atteso della segnalazione non supera quello di lasciar "
        "passare il pagamento; cost_threshold(c_fp=..., c_fn=..., c_tp=...) fa i conti.",
        "es": "Escribe primero el coste de cada uno de los cuatro resultados: un fraude detectado también "
        "se investiga, y un pago legítimo retenido cuesta la investigación más la pérdida de "
        "confianza del cliente. Después marca cuando el coste esperado de marcar no supera el de "
        "dejar pasar el pago; cost_threshold(c_fp=..., c_fn=..., c_tp=...) hace las cuentas.",
        "pt": "Escreva primeiro o custo de cada um dos quatro resultados: uma fraude detectada também é "
        "investigada, e um pagamento legítimo retido custa a investigação mais a perda de confiança "
        "do cliente. Depois sinalize quando o custo esperado de sinalizar não for maior que o de deixar o "
        "pagamento seguir; cost_threshold(c_fp=..., c_fn=..., c_tp=...) faz as contas.",
        "fi": "Kirjoita ensin neljän lopputuloksen kustannukset: myös kiinni saatu petos tutkitaan, "
        "ja rehellisen asiakkaan pysäytetty maksu aiheuttaa tutkinnan lisäksi luottamuksen menetyksen. "
        "Merkitse sitten, kun merkitsemisen odotettu kustannus on enintään yhtä suuri kuin maksun "
        "läpi päästämisen; cost_threshold(c_fp=..., c_fn=..., c_tp=...) laskee loput puolestasi.",
    },
    form={
        "en": "one number between zero and one, written as a Python decimal (for example 0.35).",
        "it": "un solo numero tra zero e uno, scritto come decimale Python, con il punto (per esempio 0.35).",
        "es": "un solo número entre cero y uno, escrito como número decimal de Python, con punto (p. ej., 0.35).",
        "pt": "um único número entre zero e um, escrito como decimal do Python, com ponto (por exemplo 0.35).",
        "fi": "yksi luku väliltä 0–1 Pythonin desimaalilukuna, pisteellä (esimerkiksi 0.35).",
    },
    tol=0.002,  # accepts answers rounded to three decimals
    wrong_examples=_wrong_tau_star,
)

precision_screening = Exercise(
    name="precision_screening",
    solve=_solve_precision_screening,
    kind="number",
    hint={
        "en": "Imagine a large population, say a million biopsies, with the given prevalence. Recall "
        "says how many of the malignant ones are flagged; one minus the specificity says how many "
        "of the benign ones are flagged. Precision is the first count divided by the sum of both. "
        "Use the recall and specificity of the out-of-fold decisions, unrounded.",
        "it": "Immagina una popolazione grande, per esempio un milione di biopsie, con la prevalenza data. "
        "La recall dice quante delle maligne vengono segnalate; uno meno la specificità dice quante "
        "delle benigne vengono segnalate. La precision è il primo conteggio diviso la somma dei due. "
        "Usa recall e specificità delle decisioni fuori dal fold (out-of-fold), senza arrotondarle.",
        "es": "Imagina una población grande, por ejemplo un millón de biopsias, con la prevalencia dada. "
        "La exhaustividad dice cuántas de las malignas se marcan; uno menos la especificidad dice "
        "cuántas de las benignas se marcan. La precisión es el primer recuento dividido entre la "
        "suma de ambos. Usa la exhaustividad y la especificidad de las decisiones fuera de pliegue "
        "(out-of-fold), sin redondear.",
        "pt": "Imagine uma população grande, por exemplo um milhão de biópsias, com a prevalência dada. "
        "A revocação diz quantas das malignas são sinalizadas; um menos a especificidade diz "
        "quantas das benignas são sinalizadas. A precisão é a primeira contagem dividida pela soma "
        "das duas. Use a revocação e a especificidade das decisões fora do fold (out-of-fold), sem "
        "arredondar.",
        "fi": "Kuvittele suuri joukko, vaikkapa miljoona koepalaa, jossa on annettu esiintyvyys. Herkkyys "
        "kertoo, kuinka moni pahanlaatuisista merkitään; yksi miinus spesifisyys kertoo, "
        "kuinka moni hyvänlaatuisista merkitään. Täsmällisyys on ensimmäinen lukumäärä jaettuna "
        "molempien summalla. Käytä out-of-fold-päätösten (kunkin koepalan päätös tulee mallilta, "
        "joka ei nähnyt sitä) herkkyyttä ja spesifisyyttä pyöristämättöminä.",
    },
    form={
        "en": "one proportion between zero and one, written as a Python decimal (for example 0.35).",
        "it": "una sola proporzione tra zero e uno, scritta come decimale Python, con il punto (per esempio 0.35).",
        "es": "una sola proporción entre cero y uno, escrita como número decimal de Python, con punto (p. ej., 0.35).",
        "pt": "uma única proporção entre zero e um, escrita como decimal do Python, com ponto (por exemplo 0.35).",
        "fi": "yksi osuus väliltä 0–1 Pythonin desimaalilukuna, pisteellä (esimerkiksi 0.35).",
    },
    tol=0.005,  # accepts answers rounded to two decimals; the wrong examples lie much further
    wrong_examples=_wrong_precision_screening,
)

best_lever = Exercise(
    name="best_lever",
    solve=_solve_best_lever,
    kind="choice",
    hint={
        "en": "Read the expected-cost column of the lever table, which was computed on the validation "
        "set, and take the row with the smallest cost per transaction. Accuracy, F1 and the test "
        "set play no part in this choice.",
        "it": "Leggi la colonna del costo atteso nella tabella delle leve, calcolata sull'insieme di "
        "validazione, e prendi la riga con il costo per transazione più basso. Accuratezza, F1 e "
        "insieme di test non c'entrano con questa scelta.",
        "es": "Lee la columna del coste esperado en la tabla de palancas, calculada en el conjunto de "
        "validación, y toma la fila con el menor coste por transacción. La exactitud, la F1 y el "
        "conjunto de prueba no intervienen en esta elección.",
        "pt": "Leia a coluna do custo esperado na tabela de alavancas, calculada no conjunto de "
        "validação, e escolha a linha com o menor custo por transação. A acurácia, o F1 e o "
        "conjunto de teste não entram nessa escolha.",
        "fi": "Lue vipujen taulukon odotetun kustannuksen sarake, joka on laskettu validointiaineistosta, "
        "ja valitse rivi, jolla kustannus tapahtumaa kohden on pienin. Tarkkuus (accuracy), F1 ja "
        "testiaineisto eivät vaikuta tähän valintaan.",
    },
    form={
        "en": "the name of a lever (a row of the lever table), as a string in quotes.",
        "it": "il nome di una leva (una riga della tabella delle leve), come stringa tra virgolette.",
        "es": "el nombre de una palanca (una fila de la tabla de palancas), como cadena entre comillas.",
        "pt": "o nome de uma alavanca (uma linha da tabela de alavancas), como uma string entre aspas.",
        "fi": "vivun nimi (vipujen taulukon rivi) merkkijonona lainausmerkeissä.",
    },
    wrong_examples=_wrong_best_lever,
)

check = Checker(tau_star, precision_screening, best_lever)

__all__ = ["check"]
