"""The cut-points an ordinal (cumulative-logit) regression learns on the diabetes stages of
chapter 4, whose bands of the progression score are unequally wide: two narrow bands in the
middle (100-119, 120-139) and a wide one after them (140-249)."""

from sklearn.preprocessing import StandardScaler

from beyond_accuracy import datasets, plots, term
from beyond_accuracy.ordinal import OrdinalLogisticRegression

NAME = "ordinal-cut-points"

EDGES = (100, 120, 140, 250)  # the chapter's unequal stages


def draw():
    X, y = datasets.diabetes_stages(edges=EDGES)
    Z = StandardScaler().fit_transform(X)
    model = OrdinalLogisticRegression().fit(Z, y)
    ax = plots.plot_cut_points(model, Z)
    ranges = ["< 100", "100–119", "120–139", "140–249", "≥ 250"]
    legend = "   ".join(f"{stage}: {r}" for stage, r in zip(model.classes_, ranges))
    ax.set_title(f"{term('cut_points')}\n{term('ord_progression_bands')}\n{legend}", fontsize=9, pad=14)
    ax.figure.set_size_inches(7.2, 3.4)
    ax.figure.set_layout_engine("constrained")
    return ax.figure
