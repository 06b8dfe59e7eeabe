"""Checks of lab 2, "The fraud desk".

Every expected answer is computed from what the check cell passes: the student's out-of-fold
recall and specificity, the student's lever table and the desk's prices. A rerun with another
``SEED`` or other prices is checked against the student's own numbers.

In the lab: ``from beyond_accuracy.checks.lab2 import check``, then
``check.tau_star(answer_tau_star)``.
"""

from __future__ import annotations

from ..metrics import cost_threshold
from ._engine import Checker, Exercise, Mistake, texts

# The "tau_star" exercise: the new contract stated in the lab's prompt.
EX_INVESTIGATION = 10  # every investigation, fraud or not
EX_GOODWILL = 15  # extra cost of holding a legitimate customer's payment
EX_MISSED_FRAUD = 120  # a fraud that goes through
# The "precision_screening" exercise: the biopsy model used where one biopsy in a thousand is malignant.
EX_PREVALENCE = 0.001
LEVERS = ("baseline", "tuned_threshold", "class_weights", "smote_pipeline")  # the lever table's rows


def _tau(c_fp=EX_INVESTIGATION + EX_GOODWILL, c_fn=EX_MISSED_FRAUD, c_tp=EX_INVESTIGATION) -> float:
    return cost_threshold(c_fp=c_fp, c_fn=c_fn, c_tp=c_tp)


def _precision_at(recall, specificity, prevalence=EX_PREVALENCE, false_alarm_rate=None) -> float:
    for value in (recall, specificity):
        if not 0 <= float(value) <= 1:
            raise ValueError("pass the out-of-fold recall and specificity, two proportions")
    hits = float(recall) * prevalence
    alarms = (1 - float(specificity) if false_alarm_rate is None else false_alarm_rate) * (1 - prevalence)
    return hits / (hits + alarms)


def _lever_costs(table, costs, n, ignore_tp_cost=False) -> dict[str, float]:
    c_tp = 0.0 if ignore_tp_cost else costs.get("c_tp", 0.0)
    out = {}
    for name in table.index:
        tp, fp, fn = (float(table.loc[name, c]) for c in ("tp", "fp", "fn"))
        tn = n - tp - fp - fn
        out[str(name)] = (
            c_tp * tp + costs["c_fp"] * fp + costs["c_fn"] * fn + costs.get("c_tn", 0.0) * tn
        ) / n
    return out


def _cheapest(table, costs, n, **kw) -> str:
    found = _lever_costs(table, costs, n, **kw)
    return min(found, key=found.get)


def _best_by(column):
    def value(table, costs, n):
        return str(table[column].idxmax())

    return value


tau_star = Exercise(
    name="tau_star",
    kind="number",
    proportion=True,
    tol=0.005,  # by hand: two decimals are enough
    expected=lambda: _tau(),
    skill=texts(
        "Derive the cost-optimal threshold from the costs of the four outcomes.",
        "Ricavare la soglia di costo minimo dai costi dei quattro esiti.",
        "Obtener el umbral de coste mínimo a partir de los costes de los cuatro resultados.",
        "Obter o limiar de custo mínimo a partir dos custos dos quatro resultados.",
        "Johtaa kustannusoptimaalinen kynnysarvo neljän lopputuloksen kustannuksista.",
    ),
    hint=texts(
        "Write the cost of each of the four outcomes first, then use "
        "tau* = (c_FP - c_TN) / ((c_FP - c_TN) + (c_FN - c_TP)), or cost_threshold(c_fp=..., c_fn=..., c_tp=...).",
        "Scrivi prima il costo di ciascuno dei quattro esiti, poi usa "
        "tau* = (c_FP - c_TN) / ((c_FP - c_TN) + (c_FN - c_TP)), oppure cost_threshold(c_fp=..., c_fn=..., c_tp=...).",
        "Escribe primero el coste de cada uno de los cuatro resultados y usa después "
        "tau* = (c_FP - c_TN) / ((c_FP - c_TN) + (c_FN - c_TP)), o cost_threshold(c_fp=..., c_fn=..., c_tp=...).",
        "Escreva primeiro o custo de cada um dos quatro resultados e depois use "
        "tau* = (c_FP - c_TN) / ((c_FP - c_TN) + (c_FN - c_TP)), ou cost_threshold(c_fp=..., c_fn=..., c_tp=...).",
        "Kirjoita ensin jokaisen neljän lopputuloksen kustannus ja käytä sitten kaavaa "
        "tau* = (c_FP - c_TN) / ((c_FP - c_TN) + (c_FN - c_TP)) tai cost_threshold(c_fp=..., c_fn=..., c_tp=...).",
    ),
    mistakes=(
        Mistake(
            "caught_fraud_free",
            lambda: _tau(c_tp=0),
            about=texts(
                "a caught fraud treated as free",
                "una frode intercettata considerata gratuita",
                "un fraude detectado tratado como gratuito",
                "uma fraude detectada tratada como gratuita",
                "kiinni saatu petos ilmaisena",
            ),
            hint=texts(
                "A stopped fraud is investigated too: c_TP is the price of an investigation, not zero.",
                "Anche una frode bloccata viene esaminata: c_TP è il prezzo di un'indagine, non zero.",
                "Un fraude detenido también se investiga: c_TP es el precio de una investigación, no cero.",
                "Uma fraude barrada também é investigada: c_TP é o preço de uma investigação, não zero.",
                "Myös pysäytetty petos tutkitaan: c_TP on tutkinnan hinta, ei nolla.",
            ),
        ),
        Mistake(
            "no_goodwill",
            lambda: _tau(c_fp=EX_INVESTIGATION),
            about=texts(
                "the goodwill forgotten",
                "la perdita di fiducia dimenticata",
                "olvidar la pérdida de confianza",
                "esquecer a perda de confiança",
                "luottamuksen menetys unohtunut",
            ),
            hint=texts(
                "Holding a legitimate payment costs the investigation plus the goodwill: both belong in c_FP.",
                "Bloccare un pagamento legittimo costa l'indagine più la perdita di fiducia: entrambe vanno in c_FP.",
                "Retener un pago legítimo cuesta la investigación más la pérdida de confianza: ambas van en c_FP.",
                "Reter um pagamento legítimo custa a investigação mais a perda de confiança: ambas entram em c_FP.",
                "Rehellisen maksun pysäyttäminen maksaa tutkinnan ja luottamuksen menetyksen: molemmat kuuluvat c_FP:hen.",
            ),
        ),
        Mistake(
            "ratio",
            lambda: (EX_INVESTIGATION + EX_GOODWILL) / EX_MISSED_FRAUD,
            about=texts("c_FP / c_FN", "c_FP / c_FN", "c_FP / c_FN", "c_FP / c_FN", "c_FP / c_FN"),
            hint=texts(
                "The ratio c_FP / c_FN is not the threshold: the denominator adds the two cost differences, "
                "(c_FP - c_TN) + (c_FN - c_TP).",
                "Il rapporto c_FP / c_FN non è la soglia: il denominatore somma le due differenze di costo, "
                "(c_FP - c_TN) + (c_FN - c_TP).",
                "El cociente c_FP / c_FN no es el umbral: el denominador suma las dos diferencias de coste, "
                "(c_FP - c_TN) + (c_FN - c_TP).",
                "A razão c_FP / c_FN não é o limiar: o denominador soma as duas diferenças de custo, "
                "(c_FP - c_TN) + (c_FN - c_TP).",
                "Suhde c_FP / c_FN ei ole kynnysarvo: nimittäjä on kahden virheen lisäkustannusten summa "
                "(c_FP - c_TN) + (c_FN - c_TP).",
            ),
        ),
        Mistake(
            "complement",
            lambda: 1 - _tau(),
            about=texts("1 − τ*", "1 − τ*", "1 − τ*", "1 − τ*", "1 − τ*"),
            hint=texts(
                "That is the complement: tau* is the probability of fraud above which flagging is cheaper, "
                "so it has the cost of a false alarm in its numerator.",
                "È il complemento: tau* è la probabilità di frode sopra la quale segnalare conviene, quindi "
                "ha al numeratore il costo di un falso allarme.",
                "Es el complemento: tau* es la probabilidad de fraude por encima de la cual marcar sale más "
                "barato, así que lleva en el numerador el coste de una falsa alarma.",
                "É o complemento: tau* é a probabilidade de fraude acima da qual sinalizar sai mais barato, "
                "por isso tem no numerador o custo de um alarme falso.",
                "Tämä on komplementti: tau* on petoksen todennäköisyys, jonka yläpuolella merkitseminen on "
                "halvempaa, joten sen osoittajassa on väärän hälytyksen kustannus.",
            ),
        ),
    ),
)

precision_screening = Exercise(
    name="precision_screening",
    kind="number",
    proportion=True,
    tol=0.005,  # by hand: two decimals are enough
    inputs=("oof_recall", "oof_specificity"),
    expected=lambda r, s: _precision_at(r, s),
    skill=texts(
        "Carry recall and specificity to a new prevalence and compute the precision there.",
        "Portare recall e specificità a una nuova prevalenza e calcolarvi la precision.",
        "Llevar la exhaustividad y la especificidad a otra prevalencia y calcular allí la precisión.",
        "Levar a revocação e a especificidade a outra prevalência e calcular a precisão nessa prevalência.",
        "Siirtää herkkyys ja spesifisyys uuteen esiintyvyyteen ja laskea siellä täsmällisyys.",
    ),
    hint=texts(
        "Imagine a million biopsies at the new prevalence: recall says how many malignant ones are "
        "flagged, 1 - specificity how many benign ones. Precision is the first count over the sum of both.",
        "Immagina un milione di biopsie con la nuova prevalenza: la recall dice quante maligne vengono "
        "segnalate, 1 - specificità quante benigne. La precision è il primo conteggio diviso per la somma dei due.",
        "Imagina un millón de biopsias con la nueva prevalencia: la exhaustividad dice cuántas malignas se "
        "marcan; 1 - especificidad, cuántas benignas. La precisión es el primer recuento entre la suma de ambos.",
        "Imagine um milhão de biópsias na nova prevalência: a revocação diz quantas malignas são "
        "sinalizadas; 1 - especificidade, quantas benignas. A precisão é a primeira contagem dividida pela soma das duas.",
        "Kuvittele miljoona koepalaa uudella esiintyvyydellä: herkkyys kertoo, montako pahanlaatuista "
        "merkitään, 1 - spesifisyys montako hyvänlaatuista. Täsmällisyys on ensimmäinen määrä jaettuna molempien summalla.",
    ),
    mistakes=(
        Mistake(
            "hits_only",
            lambda r, s: float(r) * EX_PREVALENCE,
            about=texts(
                "the share of true alarms in the whole population",
                "la quota di allarmi veri in tutta la popolazione",
                "la proporción de alarmas verdaderas en toda la población",
                "a proporção de alarmes verdadeiros em toda a população",
                "oikeiden hälytysten osuus koko populaatiossa",
            ),
            hint=texts(
                "That is the share of the whole population that is malignant and flagged. Precision divides "
                "it by everybody flagged, benign ones included.",
                "È la quota dell'intera popolazione che è maligna e segnalata. La precision la divide per "
                "tutti i segnalati, benigni compresi.",
                "Es la proporción de toda la población que es maligna y está marcada. La precisión la divide "
                "entre todos los marcados, benignos incluidos.",
                "É a proporção de toda a população que é maligna e sinalizada. A precisão a divide por todos "
                "os sinalizados, benignos incluídos.",
                "Tämä on koko populaation pahanlaatuisten ja merkittyjen osuus. Täsmällisyys jakaa sen kaikilla "
                "merkityillä, myös hyvänlaatuisilla.",
            ),
        ),
        Mistake(
            "specificity_as_fpr",
            lambda r, s: _precision_at(r, s, false_alarm_rate=float(s)),
            about=texts(
                "the specificity used as the false alarm rate",
                "la specificità usata come tasso di falsi allarmi",
                "la especificidad usada como tasa de falsas alarmas",
                "a especificidade usada como taxa de alarmes falsos",
                "spesifisyys väärien hälytysten osuutena",
            ),
            hint=texts(
                "The benign biopsies that are flagged are a share 1 - specificity of the benign ones, not "
                "the specificity itself.",
                "Le biopsie benigne segnalate sono una quota 1 - specificità delle benigne, non la specificità stessa.",
                "Las biopsias benignas marcadas son una proporción 1 - especificidad de las benignas, no la "
                "especificidad misma.",
                "As biópsias benignas sinalizadas são uma proporção 1 - especificidade das benignas, não a "
                "própria especificidade.",
                "Merkittyjä hyvänlaatuisia on osuus 1 - spesifisyys hyvänlaatuisista, ei spesifisyys itse.",
            ),
        ),
        Mistake(
            "lowest_simulated",
            lambda r, s: _precision_at(r, s, prevalence=0.01),
            about=texts(
                "the precision at a prevalence of 1%",
                "la precision all'1 %",
                "la precisión con una prevalencia del 1 %",
                "a precisão com prevalência de 1%",
                "täsmällisyys 1 %:n esiintyvyydellä",
            ),
            hint=texts(
                "That is the precision at a prevalence of 1%, the simulation's lowest. The exercise's "
                "population has one malignant biopsy in a thousand.",
                "È la precision all'1 %, la prevalenza più bassa della simulazione. La popolazione "
                "dell'esercizio ha una biopsia maligna su mille.",
                "Es la precisión con una prevalencia del 1 %, la más baja de la simulación. La población del "
                "ejercicio tiene una biopsia maligna de cada mil.",
                "É a precisão com prevalência de 1%, a menor prevalência da simulação. A população do exercício tem uma "
                "biópsia maligna em cada mil.",
                "Tämä on täsmällisyys 1 %:n esiintyvyydellä, simulaation pienimmällä. Tehtävän populaatiossa "
                "pahanlaatuinen on yksi koepala tuhannesta.",
            ),
        ),
    ),
)

best_lever = Exercise(
    name="best_lever",
    kind="choice",
    options=LEVERS,
    inputs=("lever_table", "COSTS", "len(y_val)"),
    expected=lambda table, costs, n: _cheapest(table, costs, n),
    points=2,
    skill=texts(
        "Compare ways of handling class imbalance by the expected cost of their decisions, not by F1.",
        "Confrontare modi di gestire lo sbilanciamento con il costo atteso delle decisioni, non con l'F1.",
        "Comparar formas de tratar el desequilibrio de clases por el coste esperado de sus decisiones, no por la F1.",
        "Comparar formas de lidar com o desbalanceamento de classes pelo custo esperado das decisões, não pela F1.",
        "Verrata luokkaepätasapainon käsittelytapoja päätösten odotetulla kustannuksella, ei F1:llä.",
    ),
    hint=texts(
        "For each lever, add up c_TP·TP + c_FP·FP + c_FN·FN + c_TN·TN with the desk's COSTS and divide "
        "by the number of validation transactions; keep the lever with the smallest cost.",
        "Per ogni leva somma c_TP·TP + c_FP·FP + c_FN·FN + c_TN·TN con i COSTS dell'ufficio e dividi "
        "per il numero di transazioni di validazione; tieni la leva con il costo minore.",
        "Para cada palanca suma c_TP·TP + c_FP·FP + c_FN·FN + c_TN·TN con los COSTS del equipo y divide "
        "entre el número de transacciones de validación; quédate con la de menor coste.",
        "Para cada alavanca some c_TP·TP + c_FP·FP + c_FN·FN + c_TN·TN com os COSTS da equipe e divida "
        "pelo número de transações de validação; fique com a de menor custo.",
        "Laske jokaiselle vivulle c_TP·TP + c_FP·FP + c_FN·FN + c_TN·TN petostiimin hinnoilla (COSTS) ja "
        "jaa validointitapahtumien määrällä; valitse vipu, jonka kustannus on pienin.",
    ),
    mistakes=(
        Mistake(
            "best_f1",
            _best_by("f1"),
            about=texts(
                "the lever with the best F1",
                "la leva con l'F1 migliore",
                "la palanca con la mejor F1",
                "a alavanca com a melhor F1",
                "vipu, jolla on paras F1",
            ),
            hint=texts(
                "That lever has the best F1, which prices a false alarm and a missed fraud alike. The bank "
                "does not: compute the expected cost.",
                "Quella leva ha l'F1 migliore, che dà lo stesso prezzo a un falso allarme e a una frode "
                "mancata. La banca no: calcola il costo atteso.",
                "Esa palanca tiene la mejor F1, que pone el mismo precio a una falsa alarma y a un fraude "
                "no detectado. El banco no: calcula el coste esperado.",
                "Essa alavanca tem a melhor F1, que dá o mesmo preço a um alarme falso e a uma fraude não "
                "detectada. O banco, não: calcule o custo esperado.",
                "Tällä vivulla on paras F1, joka hinnoittelee väärän hälytyksen ja ohitetun petoksen "
                "samoin. Pankki ei hinnoittele niitä samoin: laske odotettu kustannus.",
            ),
        ),
        Mistake(
            "best_recall",
            _best_by("recall"),
            about=texts(
                "the lever with the best recall",
                "la leva con la recall migliore",
                "la palanca con la mejor exhaustividad",
                "a alavanca com a melhor revocação",
                "vipu, jolla on paras herkkyys",
            ),
            hint=texts(
                "Catching the most frauds is not the same as costing least: every flagged transaction "
                "costs an investigation.",
                "Intercettare più frodi non significa spendere meno: ogni transazione segnalata costa un'indagine.",
                "Detectar más fraudes no es lo mismo que costar menos: cada transacción marcada cuesta una investigación.",
                "Detectar mais fraudes não significa gastar menos: cada transação sinalizada custa uma investigação.",
                "Se, että kiinni saadaan eniten petoksia, ei ole sama asia kuin pienin kustannus: jokainen merkitty "
                "tapahtuma maksaa tutkinnan.",
            ),
        ),
        Mistake(
            "caught_fraud_free",
            lambda table, costs, n: _cheapest(table, costs, n, ignore_tp_cost=True),
            about=texts(
                "costs computed without c_TP",
                "costi calcolati senza c_TP",
                "costes calculados sin c_TP",
                "custos calculados sem c_TP",
                "kustannukset ilman c_TP:tä",
            ),
            hint=texts(
                "A caught fraud is investigated too: include c_TP·TP in each lever's cost.",
                "Anche una frode intercettata viene esaminata: includi c_TP·TP nel costo di ogni leva.",
                "Un fraude detectado también se investiga: incluye c_TP·TP en el coste de cada palanca.",
                "Uma fraude detectada também é investigada: inclua c_TP·TP no custo de cada alavanca.",
                "Myös kiinni saatu petos tutkitaan: ota c_TP·TP mukaan jokaisen vivun kustannukseen.",
            ),
        ),
    ),
)

check = Checker(tau_star, precision_screening, best_lever)

__all__ = ["check"]
