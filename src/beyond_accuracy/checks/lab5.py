"""Checks of lab 5, "Hunt the bad labels".

Every expected answer is computed here with the lab's own procedure: the same clean test set
split off first (same ``random_state``), the same corrupted labels (``corrupt_labels`` with the
same seed and fraction), the same out-of-fold probabilities and the same leaked feature. If the
data, scikit-learn or the lab drift apart, the lab's stored "Correct" verdicts stop matching and
the tests say so.

In the lab: ``from beyond_accuracy.checks.lab5 import check``, then ``check.loss_by_hand(answer)``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ..datasets import corrupt_labels
from ..metrics import hunt_curve, per_example_log_loss, precision_at_k, recall_at_k, review_budget
from ._engine import DECIMAL_FORM, PROPORTION_FORM, Checker, Exercise

# The lab's settings, repeated here so that the checks reproduce its numbers.
SEED = 0
TEST_SIZE = 0.3  # share of the images set aside, before any corruption, as the clean test set
NOISE = 0.10  # share of the pool's labels corrupted
LEAK_SHARE = 0.3  # share of the pool whose leaked field copies the given label (step 10)
TAIL = 100  # size of the tails compared in step 10
HAND_PROBABILITY = 0.2  # the probability of the true class in the "loss_by_hand" exercise
K = 10  # the k of the "precision_at_10" exercise
TARGET = 0.8  # the share of wrong labels of the "budget_80" exercise


def _model():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


def _out_of_fold(X, y) -> np.ndarray:
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    return cross_val_predict(_model(), X, y, cv=cv, method="predict_proba")


def _frozen(*arrays):
    for a in arrays:
        a.setflags(write=False)
    return arrays


@lru_cache(maxsize=1)
def _hunt() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pool (steps 1, 2 and 4): its features, given labels, corrupted mask and out-of-fold losses."""
    X, y = load_digits(return_X_y=True)
    X_pool, _, y_true_pool, _ = train_test_split(X, y, test_size=TEST_SIZE, stratify=y, random_state=SEED)
    y_given, corrupted = corrupt_labels(y_true_pool, NOISE, random_state=SEED)
    loss = per_example_log_loss(y_given, _out_of_fold(X_pool, y_given))
    return _frozen(X_pool, y_given, corrupted, loss)


@lru_cache(maxsize=1)
def _leaked_hunt() -> tuple[np.ndarray, np.ndarray]:
    """Step 10: the leaked mask and the out-of-fold losses once the leaked field is added."""
    X_pool, y_given, _, _ = _hunt()
    rng = np.random.default_rng(SEED)
    leaked = np.zeros(len(y_given), dtype=bool)
    leaked[rng.choice(len(y_given), size=round(LEAK_SHARE * len(y_given)), replace=False)] = True
    field = np.eye(10)[y_given] * leaked[:, None]  # one-hot copy of the given label, empty elsewhere
    X_leaky = np.hstack([X_pool, field])
    loss = per_example_log_loss(y_given, _out_of_fold(X_leaky, y_given))
    return _frozen(leaked, loss)


# --- loss_by_hand -------------------------------------------------------------------------------


def _solve_loss_by_hand() -> float:
    # one example of class 0 whose probability row gives that class HAND_PROBABILITY
    proba = np.array([[HAND_PROBABILITY, 1 - HAND_PROBABILITY]])
    return float(per_example_log_loss(np.array([0]), proba, labels=[0, 1])[0])


def _wrong_loss_by_hand() -> tuple:
    """log base 10 or 2, the sign forgotten, the loss of the other class, and 1 - p."""
    p = HAND_PROBABILITY
    return tuple(float(x) for x in (-np.log10(p), -np.log2(p), np.log(p), -np.log(1 - p), 1 - p))


# --- precision_at_10 ----------------------------------------------------------------------------


def _solve_precision_at_10() -> float:
    _, _, corrupted, loss = _hunt()
    return precision_at_k(corrupted, loss, K)


def _wrong_precision_at_10() -> tuple:
    """A count instead of a share, recall@10, the lowest-loss end, and the share of corrupted labels."""
    _, _, corrupted, loss = _hunt()
    right = _solve_precision_at_10()
    candidates = (
        float(round(right * K)),  # the count of corrupted labels among the ten
        recall_at_k(corrupted, loss, K),  # divided by all corrupted labels
        precision_at_k(corrupted, -loss, K),  # the ten lowest losses
        float(corrupted.mean()),  # the base rate: a random ten
    )
    return tuple(c for c in candidates if abs(c - right) > 0.01)


# --- budget_80 ----------------------------------------------------------------------------------


def _solve_budget_80() -> int:
    _, _, corrupted, loss = _hunt()
    return review_budget(corrupted, loss, TARGET)


def _wrong_budget_80() -> tuple:
    """Errors found instead of examples opened, the budget of a random order, other targets."""
    _, _, corrupted, loss = _hunt()
    right = _solve_budget_80()
    curve = hunt_curve(corrupted, loss)
    found = int(curve.loc[curve["k"] == right, "found"].iloc[0])
    candidates = (
        found,  # how many wrong labels were found, not how many images were opened
        int(np.ceil(TARGET * len(corrupted))),  # a random review order, on average
        review_budget(corrupted, loss, 0.9),
        review_budget(corrupted, loss, 0.5),
    )
    return tuple(sorted({c for c in candidates if c != right}))


# --- leak_tail ----------------------------------------------------------------------------------

# How a reader may name each end of the loss ranking, in the five languages of the course.
_BOTTOM = (
    "bottom",
    "the bottom",
    "bottom tail",
    "low",
    "low loss",
    "lowest",
    "lowest loss",
    "the lowest loss",
    "smallest loss",
    "near-zero loss",
    "near zero",
    "zero loss",
    "loss near zero",
    "basso",
    "in basso",
    "fondo",
    "il fondo",
    "in fondo",
    "il fondo della graduatoria",
    "fondo della graduatoria",
    "estremità inferiore",
    "l'estremità inferiore",
    "estremita inferiore",
    "coda inferiore",
    "coda bassa",
    "perdita bassa",
    "perdita più bassa",
    "perdita piu bassa",
    "perdita minima",
    "perdita quasi nulla",
    "perdita vicina a zero",
    "perdita prossima allo zero",
    "abajo",
    "inferior",
    "cola inferior",
    "cola baja",
    "el fondo",
    "final",
    "el final",
    "parte baja",
    "parte inferior",
    "extremo inferior",
    "fondo de la lista",
    "el fondo de la lista",
    "la cola inferior",
    "la cola baja",
    "el extremo inferior",
    "la parte baja",
    "la parte inferior",
    "pérdida baja",
    "perdida baja",
    "pérdida más baja",
    "perdida mas baja",
    "pérdida mínima",
    "perdida minima",
    "pérdida casi nula",
    "perdida casi nula",
    "pérdida cercana a cero",
    "perdida cercana a cero",
    "baixo",
    "embaixo",
    "fundo",
    "o fundo",
    "cauda inferior",
    "a cauda inferior",
    "parte de baixo",
    "a parte de baixo",
    "base",
    "a base",
    "menor perda",
    "a menor perda",
    "perda perto de zero",
    "cauda baixa",
    "perda baixa",
    "perda mais baixa",
    "perda mínima",
    "perda minima",
    "perda quase nula",
    "perda próxima de zero",
    "perda proxima de zero",
    "alapää",
    "alapaa",
    "alapäässä",
    "alapaassa",
    "pienet häviöt",
    "pienimmät häviöt",
    "loppupää",
    "loppupaa",
    "lopussa",
    "alhaalla",
    "alin",
    "alimmat",
    "alahäntä",
    "alempi häntä",
    "pieni häviö",
    "pieni havio",
    "pienin häviö",
    "pienin havio",
    "matala häviö",
    "lähes nolla",
    "lähes nollahäviö",
    "lähes nolla häviö",
    "häviö lähellä nollaa",
)
_TOP = (
    "top",
    "the top",
    "top tail",
    "high",
    "high loss",
    "highest",
    "highest loss",
    "the highest loss",
    "largest loss",
    "alto",
    "in alto",
    "cima",
    "in cima",
    "la cima",
    "estremità superiore",
    "coda superiore",
    "perdita alta",
    "perdita più alta",
    "perdita massima",
    "arriba",
    "superior",
    "cola superior",
    "pérdida alta",
    "pérdida más alta",
    "pérdida máxima",
    "topo",
    "o topo",
    "cauda superior",
    "perda alta",
    "perda mais alta",
    "perda máxima",
    "yläpää",
    "yläpäässä",
    "kärki",
    "kärjessä",
    "alkupää",
    "suuret häviöt",
    "suurimmat häviöt",
    "ylhäällä",
    "ylin",
    "suuri häviö",
    "suurin häviö",
    "korkea häviö",
)
_MIDDLE = ("middle", "the middle", "mezzo", "medio", "meio", "keskellä")


def _solve_leak_tail() -> tuple[str, ...]:
    """The names of the end of the ranking where the leaked examples crowd (step 10)."""
    leaked, loss = _leaked_hunt()
    order = np.argsort(-loss, kind="stable")  # highest loss first, as in the lab
    top_share, bottom_share = leaked[order[:TAIL]].mean(), leaked[order[-TAIL:]].mean()
    return _BOTTOM if bottom_share > top_share else _TOP


def _wrong_leak_tail() -> tuple[str, ...]:
    right = set(_solve_leak_tail())
    return tuple(name for name in (*_TOP, *_BOTTOM, *_MIDDLE) if name not in right)


loss_by_hand = Exercise(
    name="loss_by_hand",
    solve=_solve_loss_by_hand,
    kind="number",
    hint={
        "en": "The per-example loss is minus the natural logarithm of the probability the model gave "
        "the true class. Use np.log (the natural logarithm, not log10 or log2) and keep the "
        "minus sign: a loss is never negative. The probabilities of the other classes play no "
        "part.",
        "it": "La perdita per esempio è il logaritmo naturale della probabilità che il modello ha dato "
        "alla classe vera, cambiato di segno. Usa np.log (il logaritmo naturale, non log10 né "
        "log2) e non dimenticare il segno meno: una perdita non è mai negativa. Le probabilità "
        "delle altre classi non contano.",
        "es": "La pérdida por ejemplo es menos el logaritmo natural de la probabilidad que el modelo "
        "asignó a la clase verdadera. Usa np.log (el logaritmo natural, no log10 ni log2) y no "
        "olvides el signo menos: una pérdida nunca es negativa. Las probabilidades de las demás "
        "clases no intervienen.",
        "pt": "A perda por exemplo é menos o logaritmo natural da probabilidade que o modelo deu à "
        "classe verdadeira. Use np.log (o logaritmo natural, não log10 nem log2) e mantenha o "
        "sinal de menos: uma perda nunca é negativa. As probabilidades das outras classes não "
        "entram na conta.",
        "fi": "Esimerkkikohtainen häviö on miinus sen todennäköisyyden luonnollinen logaritmi, jonka "
        "malli antoi oikealle luokalle. Käytä funktiota np.log (luonnollinen logaritmi, ei log10 "
        "eikä log2) ja muista miinusmerkki: häviö ei ole koskaan negatiivinen. Muiden luokkien "
        "todennäköisyyksillä ei ole merkitystä.",
    },
    form=DECIMAL_FORM,
    tol=0.005,  # accepts answers rounded to two decimals; the wrong examples lie much further
    wrong_examples=lambda: _wrong_loss_by_hand(),
)

precision_at_10 = Exercise(
    name="precision_at_10",
    solve=_solve_precision_at_10,
    kind="number",
    hint={
        "en": "Sort the pool's images by out-of-fold loss from the highest down "
        "(np.argsort(-loss_oof)), keep the first ten and take the share of them whose label was "
        "corrupted (the mask `corrupted`). Give a share of the ten, not a count, and do not "
        "divide by all the corrupted labels.",
        "it": "Ordina le immagini dell'insieme di lavoro per perdita fuori dal fold (out-of-fold), dalla più "
        "alta in giù (np.argsort(-loss_oof)), tieni le prime dieci e calcola la quota di quelle "
        "con l'etichetta corrotta (la maschera `corrupted`). Serve una quota delle dieci, non un "
        "conteggio, e non va divisa per tutte le etichette corrotte.",
        "es": "Ordena las imágenes del conjunto de trabajo por pérdida fuera de pliegue (out-of-fold), "
        "de la más alta hacia abajo (np.argsort(-loss_oof)), quédate con las diez primeras y "
        "calcula la proporción de ellas cuya etiqueta fue corrompida (la máscara `corrupted`). "
        "Da una proporción de las diez, no un recuento, y no dividas por todas las etiquetas "
        "corrompidas.",
        "pt": "Ordene as imagens do conjunto de trabalho pela perda fora do fold (out-of-fold), da "
        "maior para baixo (np.argsort(-loss_oof)), fique com as dez primeiras e calcule a "
        "proporção delas cujo rótulo foi corrompido (a máscara `corrupted`). Informe uma "
        "proporção das dez, não uma contagem, e não divida pelo total de rótulos corrompidos.",
        "fi": "Järjestä työaineiston kuvat out-of-fold-häviön mukaan "
        "suurimmasta alkaen (np.argsort(-loss_oof)), ota kymmenen ensimmäistä ja laske, kuinka "
        "suuri osuus niistä on turmeltuja nimiöitä (maski `corrupted`). Anna osuus kymmenestä, "
        "ei lukumäärää, äläkä jaa kaikkien turmeltujen nimiöiden määrällä.",
    },
    form=PROPORTION_FORM,
    tol=0.005,  # shares of ten images are tenths apart
    wrong_examples=lambda: _wrong_precision_at_10(),
)

budget_80 = Exercise(
    name="budget_80",
    solve=_solve_budget_80,
    kind="number",
    hint={
        "en": "Walk down the ranking from the highest loss. The answer is the first k at which the "
        "corrupted labels found so far reach 80% of all the corrupted labels in the pool, that "
        "is the first row of hunt_curve whose recall is at least 0.8. Count the images opened, "
        "not the wrong labels found.",
        "it": "Scendi lungo la graduatoria partendo dalla perdita più alta. La risposta è il primo k "
        "per cui le etichette corrotte trovate fin lì raggiungono l'80% di tutte quelle "
        "dell'insieme di lavoro, cioè la prima riga di hunt_curve con recall almeno 0.8. Conta "
        "le immagini aperte, non le etichette sbagliate trovate.",
        "es": "Recorre la lista ordenada desde la pérdida más alta. La respuesta es el primer k en el "
        "que las etiquetas corrompidas encontradas hasta ese punto llegan al 80 % de todas las "
        "del conjunto de trabajo, es decir, la primera fila de hunt_curve cuya exhaustividad "
        "(recall) es al menos 0.8. Cuenta las imágenes abiertas, no las etiquetas erróneas "
        "encontradas.",
        "pt": "Percorra o ranking a partir da maior perda. A resposta é o primeiro k em que os rótulos "
        "corrompidos encontrados até ali chegam a 80% de todos os do conjunto de trabalho, ou "
        "seja, a primeira linha de hunt_curve cuja revocação (recall) é pelo menos 0.8. Conte as "
        "imagens abertas, não os rótulos errados encontrados.",
        "fi": "Käy järjestystä läpi suurimmasta häviöstä alkaen. Vastaus on ensimmäinen k, jolla siihen "
        "mennessä löydetyt turmellut nimiöt kattavat 80 % kaikista työaineiston turmelluista "
        "nimiöistä, eli hunt_curve-taulukon ensimmäinen rivi, jonka herkkyys (recall) on "
        "vähintään 0.8. Laske avatut kuvat, älä löydettyjä virheellisiä nimiöitä.",
    },
    form={
        "en": "one whole number: how many images are opened.",
        "it": "un solo numero intero: quante immagini vengono aperte.",
        "es": "un solo número entero: cuántas imágenes se abren.",
        "pt": "um único número inteiro: quantas imagens são abertas.",
        "fi": "yksi kokonaisluku: kuinka monta kuvaa avataan.",
    },
    tol=0.0,
    wrong_examples=lambda: _wrong_budget_80(),
)

leak_tail = Exercise(
    name="leak_tail",
    solve=_solve_leak_tail,
    kind="choice",
    hint={
        "en": "A leaked feature lets the model read the label instead of inferring it. How surprised "
        "is a model at a label it can read? Look at where the leaked images landed in the "
        "ranking of step 10, compared with their share of the pool.",
        "it": "Una feature che fa trapelare l'etichetta permette al modello di leggerla invece di "
        "dedurla. Quanto può sorprendersi un modello di un'etichetta che sa leggere? Guarda dove "
        "sono finite nella graduatoria del passo 10 le immagini con la fuga, rispetto alla loro "
        "quota nell'insieme di lavoro.",
        "es": "Una variable que filtra la etiqueta permite al modelo leerla en lugar de deducirla. "
        "¿Cuánto puede sorprenderse un modelo ante una etiqueta que puede leer? Mira dónde "
        "quedaron en la ordenación del paso 10 las imágenes con la fuga, en comparación con "
        "su proporción en el conjunto de trabajo.",
        "pt": "Uma variável que vaza o rótulo deixa o modelo lê-lo em vez de deduzi-lo. Quanto um "
        "modelo pode se surpreender com um rótulo que ele consegue ler? Veja onde as imagens com "
        "vazamento foram parar no ranking do passo 10, em comparação com a proporção delas no "
        "conjunto de trabalho.",
        "fi": "Vuotava piirre antaa mallin lukea nimiön sen sijaan, että malli päättelisi sen. Kuinka "
        "paljon malli voi yllättyä nimiöstä, jonka se pystyy lukemaan? Katso, mihin vaiheen 10 "
        "järjestyksessä vuotoa sisältävät kuvat päätyivät, ja vertaa niiden osuuteen koko "
        "työaineistossa.",
    },
    form={
        "en": "the name of one end of the loss ranking, as a string in quotes (a word or a short phrase).",
        "it": "il nome di una delle due estremità della graduatoria per perdita, come stringa tra "
        "virgolette (una parola o una breve espressione).",
        "es": "el nombre de uno de los dos extremos de la ordenación por pérdida, como cadena entre "
        "comillas (una palabra o una expresión breve).",
        "pt": "o nome de uma das duas pontas do ranking por perda, como uma string entre aspas (uma "
        "palavra ou uma expressão curta).",
        "fi": "häviöjärjestyksen toisen pään nimi merkkijonona lainausmerkeissä (sana tai lyhyt ilmaus).",
    },
    wrong_examples=lambda: _wrong_leak_tail(),
)

check = Checker(loss_by_hand, precision_at_10, budget_80, leak_tail)

__all__ = ["check"]
