import numpy as np
import pytest

from beyond_accuracy import datasets


def test_twenty_patients():
    df = datasets.twenty_patients()
    assert list(df.columns) == ["patient", "score", "y"]
    assert len(df) == 20 and df["y"].sum() == 10
    assert df["patient"].iloc[0] == "P01" and df["patient"].iloc[-1] == "P20"
    assert df["score"].is_monotonic_decreasing and df["score"].between(0, 1).all()


def test_thousand_patients_lazy_model():
    df = datasets.thousand_patients()
    assert len(df) == 1000 and df["y"].sum() == 10
    assert ((df["lazy"] == 1) & (df["y"] == 1)).sum() == 5
    assert ((df["lazy"] == 1) & (df["y"] == 0)).sum() == 10
    assert df.equals(datasets.thousand_patients())  # deterministic


def test_triage_counts_and_expansion():
    counts = datasets.triage_counts()
    assert counts.to_numpy().sum() == 200
    y_true, y_pred = datasets.labels_from_counts(counts)
    assert len(y_true) == 200
    assert ((y_true == "high") & (y_pred == "medium")).sum() == 8
    from sklearn.metrics import confusion_matrix

    levels = list(counts.index)
    assert (confusion_matrix(y_true, y_pred, labels=levels) == counts.to_numpy()).all()


def test_labels_from_counts_validates():
    counts = datasets.triage_counts()
    with pytest.raises(ValueError, match="square"):
        datasets.labels_from_counts(counts.iloc[:, :2])
    bad = counts.astype(float)
    bad.iloc[0, 0] = -1
    with pytest.raises(ValueError, match="non-negative"):
        datasets.labels_from_counts(bad)
    with pytest.raises(ValueError, match="DataFrame"):
        datasets.labels_from_counts([[1, 2], [3, 4]])


def test_smoke_detector_nights():
    df = datasets.smoke_detector_nights()
    assert df["actual"].value_counts().to_dict() == {"nothing": 94, "pan smoke": 3, "fire": 3}
    assert (df["predicted"] == "nothing").all()


def test_biopsies_flip_the_target():
    X, y = datasets.load_biopsies()
    assert X.shape == (569, 30) and y.name == "malignant"
    assert y.sum() == 212  # malignant is the positive class
    Xm, ym = datasets.load_biopsies(features="mean")
    assert Xm.shape == (569, 10) and all(c.startswith("mean ") for c in Xm.columns)
    assert np.array_equal(y, ym)
    with pytest.raises(ValueError, match="features"):
        datasets.load_biopsies(features="worst")


def test_transactions_are_seeded_and_rare():
    X, y = datasets.transactions()
    assert X.shape == (20_000, 10) and y.name == "fraud"
    assert abs(y.mean() - 0.01) < 0.003
    X2, y2 = datasets.transactions()
    assert X.equals(X2) and y.equals(y2)
    _, y3 = datasets.transactions(n_samples=5000, prevalence=0.05, random_state=1)
    assert abs(y3.mean() - 0.05) < 0.01


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_samples": 10}, "n_samples must be a whole number of at least 100, got 10"),
        ({"n_samples": 1000.5}, "n_samples must be a whole number of at least 100, got 1000.5"),
        ({"prevalence": 0}, r"prevalence must lie in \(0, 0.5\], got 0"),
        ({"prevalence": 0.7}, r"prevalence must lie in \(0, 0.5\], got 0.7"),
        ({"prevalence": "1%"}, r"prevalence must lie in \(0, 0.5\], got '1%'"),
    ],
)
def test_transactions_validate(kwargs, message):
    with pytest.raises(ValueError, match=message):
        datasets.transactions(**kwargs)
