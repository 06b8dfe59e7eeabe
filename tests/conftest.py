import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def english_and_closed_figures():
    """Every test starts in English and leaves no open figure behind."""
    import matplotlib.pyplot as plt

    from beyond_accuracy import set_language

    set_language("en")
    yield
    set_language("en")
    plt.close("all")
