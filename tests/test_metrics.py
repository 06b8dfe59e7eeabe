import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis_profiles import examples
from sklearn import metrics as skm

from beyond_accuracy import datasets
from beyond_accuracy.metrics import ConfusionCounts, binary_scores, confusion_counts, threshold_table

labels01 = st.lists(st.sampled_from([0, 1]), min_size=1, max_size=60)


@st.composite
def pairs(draw, min_size=1):
    n = draw(st.integers(min_size, 60))
    y = draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n))
    p = draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n))
    return np.array(y), np.array(p)


def test_twenty_patients_at_half():
    df = datasets.twenty_patients()
    counts = confusion_counts(df["y"], (df["score"] >= 0.5).astype(int))
    assert counts == ConfusionCounts(tp=7, fp=2, fn=3, tn=8)


@examples(200)
@given(pairs())
def test_confusion_counts_match_sklearn(pair):
    y, p = pair
    assume(1 in set(y) | set(p))
    tp, fp, fn, tn = confusion_counts(y, p)
    assert [[tp, fn], [fp, tn]] == skm.confusion_matrix(y, p, labels=[1, 0]).tolist()


def test_confusion_counts_with_strings_and_other_pos_label():
    y = ["spam", "ham", "spam", "ham"]
    p = ["spam", "spam", "ham", "ham"]
    assert confusion_counts(y, p, pos_label="spam") == (1, 1, 1, 1)
    assert confusion_counts([0, 1, 1], [0, 0, 1], pos_label=0) == (1, 1, 0, 1)


def by_hand(y, p):
    """The scoreboard from the four counts, each formula typed from its definition (not scikit-learn,
    which binary_scores calls); an undefined ratio is 0."""
    tp, fp = int(np.sum((y == 1) & (p == 1))), int(np.sum((y == 0) & (p == 1)))
    fn, tn = int(np.sum((y == 1) & (p == 0))), int(np.sum((y == 0) & (p == 0)))
    n = tp + fp + fn + tn

    def ratio(a, b):
        return a / b if b else 0.0

    precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
    po = (tp + tn) / n
    pe = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / n**2
    return {
        "accuracy": po,
        "precision": precision,
        "recall": recall,
        "specificity": ratio(tn, tn + fp),
        "npv": ratio(tn, tn + fn),
        "f1": ratio(2 * precision * recall, precision + recall),
        "balanced_accuracy": (recall + ratio(tn, tn + fp)) / 2,
        "mcc": ratio(tp * tn - fp * fn, np.sqrt(float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))),
        "kappa": (po - pe) / (1 - pe),
    }


@examples(150)
@given(pairs())
def test_binary_scores_match_the_formulas(pair):
    y, p = pair
    assume(len(set(y)) == 2)
    s = binary_scores(y, p)
    expected = by_hand(y, p)
    assert list(s.index) == list(expected)
    for name, value in expected.items():
        assert s[name] == pytest.approx(value, abs=1e-12), name


def test_binary_scores_by_hand():
    # TP 3, FP 1, FN 2, TN 4 (n = 10): precision 3/4, recall 3/5, specificity 4/5, NPV 4/6,
    # F1 2*3/(2*3 + 1 + 2) = 6/9; MCC (12 - 2) / sqrt(4*5*5*6) = 10/sqrt(600);
    # kappa: po = 0.7, pe = (4*5 + 6*5) / 100 = 0.5, so (0.7 - 0.5) / 0.5 = 0.4
    y = np.array([1, 1, 1, 1, 1, 0, 0, 0, 0, 0])
    p = np.array([1, 1, 1, 0, 0, 1, 0, 0, 0, 0])
    s = binary_scores(y, p)
    assert s.to_dict() == pytest.approx(
        {
            "accuracy": 0.7,
            "precision": 0.75,
            "recall": 0.6,
            "specificity": 0.8,
            "npv": 4 / 6,
            "f1": 6 / 9,
            "balanced_accuracy": 0.7,
            "mcc": 10 / 600**0.5,
            "kappa": 0.4,
        }
    )


def test_binary_scores_accuracy_paradox():
    df = datasets.thousand_patients()
    s = binary_scores(df["y"], df["lazy"]).round(3)
    assert (s["accuracy"], s["recall"], s["precision"]) == (0.985, 0.5, 0.333)
    assert (s["balanced_accuracy"], s["mcc"], s["kappa"]) == (0.745, 0.401, 0.393)


@examples(100)
@given(
    st.lists(st.tuples(st.sampled_from([0, 1]), st.floats(0, 1, allow_nan=False)), min_size=2, max_size=40),
    st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=5),
)
def test_threshold_table_matches_sklearn_at_each_threshold(rows, thresholds):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows])
    assume(len(set(y)) == 2)
    table = threshold_table(y, s, thresholds, betas=(1, 2))
    for _, row in table.iterrows():
        pred = (s >= row["threshold"]).astype(int)
        tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1]).ravel()
        assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (tp, fp, fn, tn)
        assert row["precision"] == pytest.approx(skm.precision_score(y, pred, zero_division=0))
        assert row["recall"] == pytest.approx(skm.recall_score(y, pred))
        assert row["f1"] == pytest.approx(skm.f1_score(y, pred, zero_division=0))
        assert row["f2"] == pytest.approx(skm.fbeta_score(y, pred, beta=2, zero_division=0))


def test_threshold_table_brief_values():
    df = datasets.twenty_patients()
    t = threshold_table(df["y"], df["score"], [0.3, 0.7]).set_index("threshold")
    assert tuple(t.loc[0.3, ["tp", "fp", "fn", "tn"]]) == (9, 4, 1, 6)
    assert tuple(t.loc[0.7, ["tp", "fp", "fn", "tn"]]) == (5, 1, 5, 9)


# --- validation: every public function names what was wrong --------------------------------

BAD_LABELS = [
    (([0, 1, 1], [0, 1]), "same length"),
    (([], []), "empty"),
    (([0, np.nan, 1], [0, 1, 1]), "missing"),
    (([0, 1, 2], [0, 1, 1]), "at most two labels"),
    (([0, 2, 2], [0, 0, 2]), "pos_label=1 does not occur"),  # two labels, neither the positive one
    (([[0, 1], [1, 0]], [0, 1]), "1-D"),
    ((5, [0, 1]), "single value"),
]


@pytest.mark.parametrize("args, message", BAD_LABELS, ids=[m for _, m in BAD_LABELS])
@pytest.mark.parametrize("func", [confusion_counts, binary_scores])
def test_label_functions_reject_bad_input(func, args, message):
    with pytest.raises(ValueError, match=message):
        func(*args)


@pytest.mark.parametrize(
    "y, scores, thresholds, message",
    [
        ([0, 1, 1], [0.2, 0.4], [0.5], "same length"),
        ([0, 1], [0.2, np.nan], [0.5], "missing"),
        ([0, 1], [0.2, np.inf], [0.5], "infinite"),
        ([0, 1], ["a", "b"], [0.5], "numeric"),
        ([1, 1], [0.2, 0.4], [0.5], "both classes"),
        ([0, 0], [0.2, 0.4], [0.5], "pos_label=1 does not occur"),
        ([0, 1], [0.2, 0.4], [], "empty"),
    ],
)
def test_threshold_table_rejects_bad_input(y, scores, thresholds, message):
    with pytest.raises(ValueError, match=message):
        threshold_table(y, scores, thresholds)


def test_threshold_table_rejects_bad_beta():
    with pytest.raises(ValueError, match="beta"):
        threshold_table([0, 1], [0.2, 0.4], [0.5], betas=(0,))


# --- costs (chapter 2) ----------------------------------------------------------------------

from beyond_accuracy.metrics import cost_threshold, expected_cost, expected_cost_by_threshold  # noqa: E402


def test_cost_threshold_simple_and_general_forms():
    assert cost_threshold(1, 100) == pytest.approx(1 / 101)
    assert cost_threshold(c_fp=5, c_fn=5) == pytest.approx(0.5)
    # Elkan's general form: only the differences wrong - right matter
    assert cost_threshold(c_fp=3, c_fn=10, c_tp=2, c_tn=1) == pytest.approx((3 - 1) / ((3 - 1) + (10 - 2)))
    assert cost_threshold(c_fp=11, c_fn=17, c_tp=7, c_tn=10) == pytest.approx(cost_threshold(1, 10))
    # a revenue for a correct flag (negative cost) moves the threshold down
    assert cost_threshold(1, 10, c_tp=-5) < cost_threshold(1, 10)


@pytest.mark.parametrize("costs", [(0, 1), (1, 0), (1, 1, 2, 0), (1, 1, 0, 1), (-1, 5)])
def test_cost_threshold_rejects_degenerate_costs(costs):
    with pytest.raises(ValueError, match="degenerate costs"):
        cost_threshold(*costs)


@pytest.mark.parametrize("bad", [np.nan, np.inf, "1", None, True])
def test_cost_threshold_rejects_non_numbers(bad):
    with pytest.raises(ValueError, match="finite number"):
        cost_threshold(bad, 1)


@examples(60)
@given(
    st.lists(st.tuples(st.sampled_from([0, 1]), st.floats(0, 1, allow_nan=False)), min_size=2, max_size=50),
    st.floats(0.1, 50),
    st.floats(0.1, 50),
    st.floats(-5, 0),
    st.floats(-5, 0),
)
def test_expected_cost_by_threshold_matches_a_direct_computation(rows, c_fp, c_fn, c_tp, c_tn):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    assume(len(set(y)) == 2)
    grid = np.linspace(0, 1, 21)
    table = expected_cost_by_threshold(y, p, grid, c_fp=c_fp, c_fn=c_fn, c_tp=c_tp, c_tn=c_tn)
    for t, cost in zip(grid, table["cost"]):
        flag = p >= t
        direct = np.mean(np.where(flag, np.where(y == 1, c_tp, c_fp), np.where(y == 1, c_fn, c_tn)))
        assert cost == pytest.approx(direct)
        assert expected_cost(y, flag.astype(int), c_fp, c_fn, c_tp, c_tn) == pytest.approx(direct)


def test_cost_threshold_minimises_expected_cost_for_calibrated_probabilities():
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 1, 200_000)
    y = (rng.uniform(0, 1, p.size) < p).astype(int)  # calibrated by construction
    grid = np.round(np.linspace(0.01, 0.99, 99), 2)
    table = expected_cost_by_threshold(y, p, grid, c_fp=1, c_fn=4)
    best = table.loc[table["cost"].idxmin(), "threshold"]
    assert best == pytest.approx(cost_threshold(1, 4), abs=0.03)


def test_expected_cost_validates_labels_and_probabilities():
    with pytest.raises(ValueError, match="same length"):
        expected_cost([0, 1], [1], 1, 1)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        expected_cost_by_threshold([0, 1], [0.2, 1.4], [0.5], 1, 1)
    with pytest.raises(ValueError, match="at most two labels"):
        expected_cost([0, 1, 2], [0, 1, 1], 1, 1)


# --- found by mutation testing (make mutation): messages that name the problem ----------------------


def test_degenerate_costs_name_the_offending_pair():
    with pytest.raises(ValueError, match=r"^degenerate costs \(c_fp <= c_tn\): being wrong"):
        cost_threshold(c_fp=1, c_fn=5, c_tn=1)
    with pytest.raises(ValueError, match=r"^degenerate costs \(c_fn <= c_tp\): being wrong"):
        cost_threshold(c_fp=1, c_fn=5, c_tp=6)
    assert cost_threshold(c_fp=1, c_fn=5, c_tp=-1, c_tn=0.5) == pytest.approx(0.5 / 6.5)  # 0.5 / (0.5 + 6)


def test_binary_scores_with_string_labels():
    # TP 2, FP 1, FN 1, TN 1; kappa: po = 3/5, pe = (3*3 + 2*2) / 25 = 13/25, so (2/25) / (12/25)
    y = ["spam", "ham", "spam", "ham", "spam"]
    p = ["spam", "spam", "ham", "ham", "spam"]
    assert binary_scores(y, p, pos_label="spam").to_dict() == pytest.approx(
        {
            "accuracy": 0.6,
            "precision": 2 / 3,
            "recall": 2 / 3,
            "specificity": 0.5,
            "npv": 0.5,
            "f1": 2 / 3,
            "balanced_accuracy": 7 / 12,
            "mcc": 1 / 6,
            "kappa": 1 / 6,
        }
    )


def test_binary_scores_without_any_positive():
    s = binary_scores([0, 0, 0], [0, 0, 0])
    assert list(s.index) == list(by_hand(np.array([0, 1]), np.array([0, 1])))
    assert s.to_dict() == {
        "accuracy": 1.0,
        "precision": 0.0,
        "recall": 0.0,
        "specificity": 1.0,
        "npv": 1.0,
        "f1": 0.0,
        "balanced_accuracy": 1.0,
        "mcc": 0.0,
        "kappa": 0.0,
    }


@pytest.mark.filterwarnings("ignore:A single label was found")
def test_binary_scores_when_everything_is_positive():
    assert binary_scores([1, 1], [1, 1]).to_dict() == {
        "accuracy": 1.0,
        "precision": 1.0,
        "recall": 1.0,
        "specificity": 0.0,
        "npv": 0.0,
        "f1": 1.0,
        "balanced_accuracy": 1.0,
        "mcc": 0.0,
        "kappa": 0.0,
    }


@pytest.mark.filterwarnings("error::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize(
    "y, p, name",
    [
        ([0, 1], [0, 0], "precision"),  # nothing flagged
        ([0, 0], [0, 1], "recall"),  # no true positive exists
        ([1, 1], [0, 1], "specificity"),  # no true negative exists
        ([0, 1], [1, 1], "npv"),  # nothing passed
    ],
)
def test_undefined_ratios_are_zero_without_a_warning(y, p, name):
    assert binary_scores(y, p)[name] == 0.0


def test_threshold_table_specificity_and_string_labels():
    df = datasets.twenty_patients()
    t = threshold_table(df["y"], df["score"], [0.3, 0.7]).set_index("threshold")
    assert t["specificity"].tolist() == [0.6, 0.9]  # tn / 10 negatives
    t = threshold_table(["spam", "ham", "spam", "ham"], [0.9, 0.2, 0.4, 0.6], 0.5, pos_label="spam")
    assert t[["tp", "fp", "fn", "tn"]].values.tolist() == [[1, 1, 1, 1]]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"y_score": [0.2, np.inf]}, r"^y_score contains infinite values$"),
        ({"thresholds": [np.inf]}, r"^thresholds contains infinite values$"),
        (
            {"thresholds": "0.5"},
            r"^thresholds must be a number or a sequence of numbers, got the string '0.5'$",
        ),
        ({"betas": "1"}, r"^betas must be a number or a sequence of numbers, got the string '1'$"),
        ({"betas": (0,)}, r"^beta must lie in \[1e-12, None\], got 0$"),
    ],
)
def test_threshold_table_messages(kwargs, message):
    args = {"y_true": [0, 1], "y_score": [0.2, 0.4], "thresholds": [0.5]} | kwargs
    with pytest.raises(ValueError, match=message):
        threshold_table(**args)


@pytest.mark.parametrize("name", ["c_fp", "c_fn", "c_tp", "c_tn"])
def test_cost_messages_name_the_cost(name):
    costs = {"c_fp": 1, "c_fn": 2, "c_tp": 0, "c_tn": 0} | {name: "1"}
    with pytest.raises(ValueError, match=f"^{name} must be a finite number, got '1'$"):
        cost_threshold(**costs)


def test_cost_threshold_near_the_largest_float():
    # c_fp - c_tn = 2e308 overflows; the threshold is 2e308 / (2e308 + 2e307) = 10/11
    assert cost_threshold(c_fp=1e308, c_fn=3e307, c_tp=1e307, c_tn=-1e308) == pytest.approx(10 / 11)
    # c_fn > c_tp, so not degenerate, however small c_fn is next to the other costs
    assert cost_threshold(c_fp=1e308, c_fn=1e-300, c_tn=-1e308) == 1.0
    message = (
        r"^degenerate costs \(c_fn <= c_tp\): being wrong must cost more than being right for both "
        r"classes, otherwise the best decision ignores the probability$"
    )
    with pytest.raises(ValueError, match=message):
        cost_threshold(c_fp=1e308, c_fn=1e-300, c_tp=1e-300, c_tn=-1e308)


def test_expected_cost_by_hand():
    y, pred = [1, 1, 0, 0], [1, 0, 1, 0]  # one of each cell: (c_tp + c_fp + c_fn + c_tn) / 4
    assert expected_cost(y, pred, c_fp=1, c_fn=5) == 1.5
    assert expected_cost(y, pred, c_fp=1, c_fn=5, c_tp=2, c_tn=4) == 3.0
    assert expected_cost(["a", "b", "b"], ["a", "a", "b"], c_fp=2, c_fn=7, pos_label="a") == 2 / 3


def test_expected_cost_by_threshold_with_string_labels_and_message():
    table = expected_cost_by_threshold(["a", "b"], [0.9, 0.6], [0.5, 0.95], c_fp=2, c_fn=7, pos_label="a")
    assert table.values.tolist() == [[0.5, 1, 1, 0, 0, 1.0], [0.95, 0, 0, 1, 1, 3.5]]
    with pytest.raises(ValueError, match=r"^y_prob must hold probabilities in \[0, 1\]; found \[1.4\]$"):
        expected_cost_by_threshold([0, 1], [0.2, 1.4], [0.5], 1, 1)
