"""The fraud desk of chapter 2, shared by its figures: the chapter's split of 100,000 synthetic
transactions (about 1% frauds) and its logistic regression's validation probabilities.
(Files starting with "_" are helpers, not figures: tools/book/figures.py skips them.)"""

from functools import lru_cache

from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from beyond_accuracy import datasets


@lru_cache(maxsize=1)
def validation_probabilities():
    """(y_val, p_val) of the chapter's model, exactly as the chapter splits and fits it."""
    X, y = datasets.transactions(n_samples=100_000)
    X_rest, _, y_rest, _ = train_test_split(X, y, test_size=0.20, stratify=y, random_state=0)
    X_train, X_val, y_train, y_val = train_test_split(
        X_rest, y_rest, test_size=0.25, stratify=y_rest, random_state=0
    )
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    return y_val.to_numpy(), model.predict_proba(X_val)[:, 1]
