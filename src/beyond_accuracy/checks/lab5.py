"""Checks of lab 5, "The label hunt".

Every expected answer is computed from what the check cell passes: the student's corruption mask,
out-of-fold losses, leaked mask and leaky losses. A rerun with another ``NOISE`` or ``SEED`` is
checked against the student's own hunt.

In the lab: ``from beyond_accuracy.checks.lab5 import check``, then
``check.precision_at_30(answer_precision_at_30, corrupted, loss_oof)``.
"""

from __future__ import annotations

import math

import numpy as np

from ._engine import Checker, Exercise, Mistake, texts

HAND_PROBABILITY = 0.2  # the probability of the true class in the "loss_by_hand" exercise
K = 30  # the k of the "precision_at_30" exercise
TARGET = 0.75  # the share of wrong labels of the "budget_75" exercise
TAIL = 100  # the size of the tails compared in the "leak_tail" exercise
TAILS = ("top", "bottom", "neither")  # the options of "leak_tail": top = the highest losses


def _ranking(mask, loss):
    mask = np.asarray(mask, dtype=bool)
    loss = np.asarray(loss, dtype=float)
    if mask.shape != loss.shape or mask.ndim != 1:
        raise ValueError("pass the mask and the losses of the same images")
    return mask, np.argsort(-loss, kind="stable")  # highest loss first, as in the lab


def _precision_at(mask, loss, k=K, lowest=False) -> float:
    mask, order = _ranking(mask, loss)
    chosen = order[::-1][:k] if lowest else order[:k]
    return float(mask[chosen].mean())


def _budget(mask, loss, target=TARGET) -> int:
    mask, order = _ranking(mask, loss)
    found = np.cumsum(mask[order])
    return int(np.argmax(found >= math.ceil(target * mask.sum() - 1e-9)) + 1)


def _leak_tail(leaked, loss_leaky) -> str:
    leaked, order = _ranking(leaked, loss_leaky)
    top, bottom = leaked[order[:TAIL]].mean(), leaked[order[-TAIL:]].mean()
    share = leaked.mean()
    if max(top, bottom) < share + 0.1:
        return "neither"
    return "bottom" if bottom > top else "top"


loss_by_hand = Exercise(
    name="loss_by_hand",
    kind="number",
    tol=0.005,  # by hand: two decimals are enough
    expected=lambda: -math.log(HAND_PROBABILITY),
    skill=texts(
        "Compute one example's log loss, −ln of the probability given to its label.",
        "Calcolare la log-loss di un esempio, −ln della probabilità data alla sua etichetta.",
        "Calcular la pérdida logarítmica de un ejemplo, −ln de la probabilidad dada a su etiqueta.",
        "Calcular a perda logarítmica de um exemplo, −ln da probabilidade dada ao seu rótulo.",
        "Laskea yhden esimerkin logaritminen häviö eli −ln sen nimiölle annetusta todennäköisyydestä.",
    ),
    hint=texts(
        "The per-example loss is minus the natural logarithm of the probability of the label: np.log is ln.",
        "La perdita di un esempio è meno il logaritmo naturale della probabilità dell'etichetta: np.log è ln.",
        "La pérdida de un ejemplo es menos el logaritmo natural de la probabilidad de la etiqueta: np.log es ln.",
        "A perda de um exemplo é menos o logaritmo natural da probabilidade do rótulo: np.log é ln.",
        "Esimerkin häviö on miinus nimiön todennäköisyyden luonnollinen logaritmi: np.log on ln.",
    ),
    mistakes=(
        Mistake(
            "log10",
            lambda: -math.log10(HAND_PROBABILITY),
            about=texts(
                "base-10 logarithm",
                "logaritmo in base 10",
                "logaritmo en base 10",
                "logaritmo na base 10",
                "10-kantainen logaritmi",
            ),
            hint=texts(
                "That is the base-10 logarithm. The loss uses the natural logarithm (np.log).",
                "È il logaritmo in base 10. La perdita usa il logaritmo naturale (np.log).",
                "Es el logaritmo en base 10. La pérdida usa el logaritmo natural (np.log).",
                "É o logaritmo na base 10. A perda usa o logaritmo natural (np.log).",
                "Tämä on 10-kantainen logaritmi. Häviö käyttää luonnollista logaritmia (np.log).",
            ),
        ),
        Mistake(
            "log2",
            lambda: -math.log2(HAND_PROBABILITY),
            about=texts(
                "base-2 logarithm",
                "logaritmo in base 2",
                "logaritmo en base 2",
                "logaritmo na base 2",
                "2-kantainen logaritmi",
            ),
            hint=texts(
                "That is the base-2 logarithm (bits). The loss uses the natural logarithm (np.log).",
                "È il logaritmo in base 2 (bit). La perdita usa il logaritmo naturale (np.log).",
                "Es el logaritmo en base 2 (bits). La pérdida usa el logaritmo natural (np.log).",
                "É o logaritmo na base 2 (bits). A perda usa o logaritmo natural (np.log).",
                "Tämä on 2-kantainen logaritmi (bitit). Häviö käyttää luonnollista logaritmia (np.log).",
            ),
        ),
        Mistake(
            "sign",
            lambda: math.log(HAND_PROBABILITY),
            about=texts(
                "the minus sign forgotten",
                "il segno meno dimenticato",
                "el signo menos olvidado",
                "o sinal de menos esquecido",
                "miinusmerkki unohtunut",
            ),
            hint=texts(
                "A loss is never negative: the formula has a minus sign in front of the logarithm.",
                "Una perdita non è mai negativa: la formula ha un segno meno davanti al logaritmo.",
                "Una pérdida nunca es negativa: la fórmula lleva un signo menos delante del logaritmo.",
                "Uma perda nunca é negativa: a fórmula tem um sinal de menos antes do logaritmo.",
                "Häviö ei ole koskaan negatiivinen: kaavassa on miinusmerkki logaritmin edessä.",
            ),
        ),
        Mistake(
            "other_classes",
            lambda: -math.log(1 - HAND_PROBABILITY),
            about=texts(
                "the probability of the other classes",
                "la probabilità delle altre classi",
                "la probabilidad de las otras clases",
                "a probabilidade das outras classes",
                "muiden luokkien todennäköisyys",
            ),
            hint=texts(
                "Only the probability given to the true class enters the loss, not the rest shared among the others.",
                "Nella perdita entra solo la probabilità data alla classe vera, non il resto diviso tra le altre.",
                "En la pérdida solo entra la probabilidad dada a la clase verdadera, no el resto repartido entre las otras.",
                "Na perda entra só a probabilidade dada à classe verdadeira, não o resto dividido entre as outras.",
                "Häviöön vaikuttaa vain oikealle luokalle annettu todennäköisyys, ei muille jaettu loppuosa.",
            ),
        ),
    ),
)

precision_at_30 = Exercise(
    name="precision_at_30",
    kind="number",
    proportion=True,
    tol=0.005,  # shares of thirty images are 1/30 apart
    inputs=("corrupted", "loss_oof"),
    expected=_precision_at,
    skill=texts(
        "Measure how well a loss ranking finds wrong labels: precision@k.",
        "Misurare quanto bene una graduatoria per perdita trova le etichette sbagliate: la precision@k.",
        "Medir lo bien que una ordenación por pérdida encuentra etiquetas erróneas: la precisión@k.",
        "Medir quão bem um ranking por perda encontra rótulos errados: a precisão@k.",
        "Mitata, kuinka hyvin häviöjärjestys löytää väärät nimiöt: täsmällisyys@k.",
    ),
    hint=texts(
        "Sort the images by decreasing loss, take the first 30 and compute the share of them whose label was corrupted.",
        "Ordina le immagini per perdita decrescente, prendi le prime 30 e calcola la quota con l'etichetta corrotta.",
        "Ordena las imágenes por pérdida decreciente, toma las 30 primeras y calcula la proporción con la etiqueta corrompida.",
        "Ordene as imagens por perda decrescente, pegue as 30 primeiras e calcule a proporção delas cujo rótulo foi corrompido.",
        "Järjestä kuvat laskevan häviön mukaan, ota 30 ensimmäistä ja laske, kuinka suurella osalla nimiö oli "
        "muutettu virheelliseksi.",
    ),
    mistakes=(
        Mistake(
            "lowest",
            lambda m, loss: _precision_at(m, loss, lowest=True),
            about=texts(
                "the 30 lowest losses",
                "le 30 perdite più basse",
                "las 30 pérdidas más bajas",
                "as 30 menores perdas",
                "30 pienintä häviötä",
            ),
            hint=texts(
                "You took the 30 lowest losses. The hunt starts from the highest: sort by -loss.",
                "Hai preso le 30 perdite più basse. La caccia parte dalle più alte: ordina per -loss.",
                "Has tomado las 30 pérdidas más bajas. La búsqueda empieza por las más altas: ordena por -loss.",
                "Você pegou as 30 menores perdas. A busca começa pelas maiores: ordene por -loss.",
                "Otit 30 pienintä häviötä. Jahti alkaa suurimmista: järjestä -loss-arvon mukaan.",
            ),
        ),
        Mistake(
            "k10",
            lambda m, loss: _precision_at(m, loss, k=10),
            about=texts("precision@10", "precision@10", "precisión@10", "precisão@10", "täsmällisyys@10"),
            hint=texts(
                "That is the share among the first 10 images; the exercise asks for the first 30.",
                "È la quota tra le prime 10 immagini; l'esercizio chiede le prime 30.",
                "Es la proporción entre las 10 primeras imágenes; el ejercicio pide las 30 primeras.",
                "É a proporção entre as 10 primeiras imagens; o exercício pede as 30 primeiras.",
                "Tämä on osuus 10 ensimmäisen kuvan joukossa; tehtävä kysyy 30 ensimmäistä.",
            ),
        ),
        Mistake(
            "recall",
            lambda m, loss: float(np.asarray(m)[_ranking(m, loss)[1][:K]].sum() / np.asarray(m).sum()),
            about=texts("recall@30", "recall@30", "exhaustividad@30", "revocação@30", "herkkyys@30"),
            hint=texts(
                "You divided by all the corrupted labels (that is recall@30). Precision@30 divides by the 30 opened images.",
                "Hai diviso per tutte le etichette corrotte (è la recall@30). La precision@30 divide per le 30 immagini aperte.",
                "Has dividido entre todas las etiquetas corrompidas (es la exhaustividad@30). La precisión@30 divide entre las 30 imágenes abiertas.",
                "Você dividiu por todos os rótulos corrompidos (é a revocação@30). A precisão@30 divide pelas 30 imagens abertas.",
                "Jaoit kaikkien virheelliseksi muutettujen nimiöiden määrällä (se on herkkyys@30). Täsmällisyys@30 jakaa "
                "30 avatulla kuvalla.",
            ),
        ),
    ),
)

budget_75 = Exercise(
    name="budget_75",
    kind="number",
    whole=True,
    inputs=("corrupted", "loss_oof"),
    expected=_budget,
    skill=texts(
        "Turn a ranking into a review budget: how many examples to open to find a given share of errors.",
        "Trasformare una graduatoria in un budget di revisione: quanti esempi aprire per trovare una data quota di errori.",
        "Convertir una ordenación en un presupuesto de revisión: cuántos ejemplos abrir para encontrar una proporción dada de errores.",
        "Transformar um ranking em um orçamento de revisão: quantos exemplos abrir para achar uma dada proporção de erros.",
        "Muuttaa järjestys tarkastusbudjetiksi: montako esimerkkiä avata, jotta löytyy tietty osuus virheistä.",
    ),
    hint=texts(
        'In curve, take the first row whose recall is at least 0.75 and read its "k" (k counts images from 1).',
        'In curve prendi la prima riga con recall almeno 0,75 e leggi la sua "k" (k conta le immagini da 1).',
        'En curve, toma la primera fila cuya exhaustividad sea al menos 0,75 y lee su "k" (k cuenta las imágenes desde 1).',
        'Em curve, pegue a primeira linha cuja revocação seja pelo menos 0,75 e leia o seu "k" (k conta as imagens a partir de 1).',
        "Ota curve-taulukosta ensimmäinen rivi, jonka recall-sarake (herkkyys) on vähintään 0,75, ja lue sen k-sarake (k laskee kuvat ykkösestä).",
    ),
    mistakes=(
        Mistake(
            "zero_based",
            lambda m, loss: _budget(m, loss) - 1,
            about=texts(
                "a position counted from 0",
                "una posizione contata da 0",
                "una posición contada desde 0",
                "uma posição contada a partir de 0",
                "nollasta laskettu sijainti",
            ),
            hint=texts(
                "Off by one: that is the position counted from 0. The budget counts opened images from 1.",
                "C'è uno scarto di uno: è la posizione contata da 0. Il budget conta le immagini aperte da 1.",
                "Te has desviado en uno: esa es la posición contada desde 0. El presupuesto cuenta las imágenes abiertas desde 1.",
                "Errou por um: é a posição contada a partir de 0. O orçamento conta as imagens abertas a partir de 1.",
                "Yhdellä pielessä: tämä on nollasta laskettu sijainti. Budjetti laskee avatut kuvat ykkösestä.",
            ),
        ),
        Mistake(
            "errors_to_find",
            lambda m, loss: math.ceil(TARGET * np.asarray(m, dtype=bool).sum() - 1e-9),
            about=texts(
                "the number of wrong labels to find",
                "il numero di etichette sbagliate da trovare",
                "el número de etiquetas erróneas por encontrar",
                "o número de rótulos errados a encontrar",
                "löydettävien väärien nimiöiden määrä",
            ),
            hint=texts(
                "That is how many wrong labels must be found. The budget is how many images must be opened to find them.",
                "Questo è il numero di etichette sbagliate da trovare. Il budget è quante immagini bisogna aprire per trovarle.",
                "Es cuántas etiquetas erróneas hay que encontrar. El presupuesto es cuántas imágenes hay que abrir para encontrarlas.",
                "Esse é o número de rótulos errados a encontrar. O orçamento é o número de imagens que é preciso abrir "
                "para encontrá-los.",
                "Näin monta väärää nimiötä pitää löytää. Budjetti kertoo, montako kuvaa pitää avata niiden löytämiseksi.",
            ),
        ),
        Mistake(
            "random_order",
            lambda m, loss: round(TARGET * len(np.asarray(m))),
            about=texts(
                "the budget in random order",
                "il budget in ordine casuale",
                "el presupuesto en orden aleatorio",
                "o orçamento em ordem aleatória",
                "budjetti satunnaisessa järjestyksessä",
            ),
            hint=texts(
                "That is what a random order needs on average. Use the ranking by loss (curve).",
                "È ciò che serve in media in ordine casuale. Usa la graduatoria per perdita (curve).",
                "Es lo que hace falta en promedio en orden aleatorio. Usa la ordenación por pérdida (curve).",
                "É o que uma ordem aleatória exige em média. Use o ranking por perda (curve).",
                "Tämä tarvitaan keskimäärin satunnaisessa järjestyksessä. Käytä häviöjärjestystä (curve).",
            ),
        ),
        Mistake(
            "target_80",
            lambda m, loss: _budget(m, loss, 0.8),
            about=texts(
                "the budget for 80%",
                "il budget per l'80 %",
                "el presupuesto para el 80 %",
                "o orçamento para 80%",
                "budjetti 80 %:lle",
            ),
            hint=texts(
                "That is the budget for 80% of the wrong labels; the exercise asks for 75%.",
                "È il budget per l'80 % delle etichette sbagliate; l'esercizio chiede il 75 %.",
                "Es el presupuesto para el 80 % de las etiquetas erróneas; el ejercicio pide el 75 %.",
                "É o orçamento para 80% dos rótulos errados; o exercício pede 75%.",
                "Tämä on budjetti 80 %:lle vääristä nimiöistä; tehtävä kysyy 75 %:a.",
            ),
        ),
    ),
)

leak_tail = Exercise(
    name="leak_tail",
    kind="choice",
    options=TAILS,
    inputs=("leaked", "loss_leaky"),
    expected=_leak_tail,
    points=2,
    skill=texts(
        "Recognise leakage in a loss ranking: examples the model finds suspiciously easy.",
        "Riconoscere una fuga di informazioni in una graduatoria per perdita: esempi che il modello trova sospettamente facili.",
        "Reconocer una fuga de datos en una ordenación por pérdida: ejemplos que el modelo encuentra sospechosamente fáciles.",
        "Reconhecer vazamento de dados em um ranking por perda: exemplos que o modelo acha suspeitamente fáceis.",
        "Tunnistaa vuoto häviöjärjestyksestä: esimerkit, jotka malli kokee epäilyttävän helpoiksi.",
    ),
    hint=texts(
        "Compute the share of leaked images among the 100 highest and among the 100 lowest losses "
        "and compare both with their share in the whole pool.",
        "Calcola la quota di immagini con fuga tra le 100 perdite più alte e tra le 100 più basse e "
        "confrontale con la loro quota nell'intero insieme di lavoro.",
        "Calcula la proporción de imágenes con fuga entre las 100 pérdidas más altas y entre las 100 "
        "más bajas y compáralas con su proporción en todo el conjunto de trabajo.",
        "Calcule a proporção de imagens com vazamento entre as 100 maiores perdas e entre as 100 "
        "menores e compare-as com a sua proporção em todo o conjunto de trabalho.",
        "Laske vuotaneiden kuvien osuus 100 suurimman ja 100 pienimmän häviön joukossa ja vertaa "
        "molempia niiden osuuteen koko aineistossa.",
    ),
)

check = Checker(loss_by_hand, precision_at_30, budget_75, leak_tail)

__all__ = ["check"]
