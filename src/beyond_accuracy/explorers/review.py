"""Chapter 5: the review budget. The examples are opened from the most suspicious down (the
package's ranking: highest score first, ties in data order); the browser (js/review.js) counts the
wrong labels found among the first k and computes precision@k and recall@k."""

from __future__ import annotations

from .. import _validation as v
from ..language import fmt, get_language, term
from ..metrics import _ranking, hunt_curve
from ._widget import BrowserWidget, counted, labels

_LABELS = (
    "examples_reviewed",
    "review_found",
    "precision_at_k",
    "recall_at_k",
    "review_summary",
    "review_examples_one",
    "review_examples_other",
    "review_plot",
    "metric_value",
    "random_order",
)


class ReviewBudgetExplorer(BrowserWidget):
    """Choose how many examples to review, k, and see the known wrong labels found among them.

    ``is_error`` marks the examples whose label is known to be wrong, ``scores`` how suspicious
    each one is (a per-example loss); ``max_k`` bounds the slider (default: every example).

        ReviewBudgetExplorer(digits_wrong, oof_loss, max_k=400)
    """

    module = "review"

    def __init__(self, is_error, scores, k: int | None = None, max_k: int | None = None):
        ranked = _ranking(is_error, scores)  # validates both
        n = len(ranked)
        max_k = n if max_k is None else max_k
        k = min(50, max_k) if k is None else k
        if isinstance(max_k, bool) or not isinstance(max_k, int) or not 1 <= max_k <= n:
            raise ValueError(f"max_k must be a whole number between 1 and {n}, got {v.show(max_k)}")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= max_k:
            raise ValueError(f"k must be a whole number between 1 and max_k = {max_k}, got {v.show(k)}")
        self.ranked, self.k, self.max_k = ranked, k, max_k
        self.curve = hunt_curve(is_error, scores)
        lang = get_language()
        super().__init__(data=self._export(lang), lang=lang)

    def _export(self, lang: str) -> dict:
        return {
            # the examples in review order, 1 where the label is wrong
            "ranked": "".join("1" if e else "0" for e in self.ranked),
            "k": self.k,
            "max_k": self.max_k,
            "labels": labels(_LABELS, lang),
        }

    def text_summary(self) -> str:
        """The text summary of the starting position (shown without JavaScript)."""
        row = self.curve.iloc[self.k - 1]
        return term("review_summary", self.lang).format(
            reviewed=counted("review_examples", self.k, self.lang, fmt(self.k, 0, lang=self.lang)),
            found=int(row["found"]),
            total=int(self.ranked.sum()),
            precision=fmt(row["precision"], 3, lang=self.lang),
            recall=fmt(row["recall"], 3, lang=self.lang),
        )
