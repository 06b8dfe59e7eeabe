"""Kernel-free explorers and quizzes: each is one ES module (js/<name>.js, with the component library
js/core.js) that renders on the book's static page and, as an anywidget, in Jupyter and Colab.
The Python side only exports data; the browser computes what the reader sees."""

from ._widget import BrowserWidget, esm, loader, modules
from .calibration import CalibrationExplorer
from .cost import CostExplorer
from .kappa import KappaParadoxExplorer
from .prevalence import PrevalenceExplorer
from .quiz import Quiz
from .review import ReviewBudgetExplorer
from .threshold import ThresholdExplorer

__all__ = [
    "BrowserWidget",
    "CalibrationExplorer",
    "KappaParadoxExplorer",
    "ReviewBudgetExplorer",
    "CostExplorer",
    "PrevalenceExplorer",
    "Quiz",
    "ThresholdExplorer",
    "esm",
    "loader",
    "modules",
]
