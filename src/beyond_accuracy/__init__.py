"""Helper package of the Beyond Accuracy course.

Thin by design: scikit-learn computes, this package adds the course's data sets, localisation,
plots and exercise checks, and the few metrics no library offers.
"""

from .language import LANGUAGES, fmt, get_language, glue, set_language, term, terms_table

__version__ = "0.2.0"

__all__ = ["LANGUAGES", "fmt", "glue", "get_language", "set_language", "term", "terms_table", "__version__"]
