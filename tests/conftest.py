import fcntl
import os
from pathlib import Path

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


def _shared_root(tmp_path_factory) -> Path:
    """A folder shared by every pytest-xdist worker of this run (the workers' temp folders' parent)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _build_once(tmp_path_factory, name: str, student: bool) -> Path:
    """Build the site once per test run, whichever worker asks first; the others wait and reuse it."""
    from tools.build import build

    root = _shared_root(tmp_path_factory) / f"built-{name}"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        status = root / ".status"
        if not status.exists():
            code = build(student=student, root=root)
            status.write_text("ok" if code == 0 else "failed")
        ok = status.read_text() == "ok"
    assert ok, f"the {name} build failed or warned; see the log printed by the first test that built it"
    return root / ("student-site" if student else "site")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The reader's site, every language, built once per test run (shared by all test modules)."""
    return _build_once(tmp_path_factory, "reader", student=False)


@pytest.fixture(scope="session")
def student_site(tmp_path_factory) -> Path:
    """The student site, every language, built once per test run."""
    return _build_once(tmp_path_factory, "student", student=True)


# Tests that build a site or execute notebooks are "slow": `make unit` (the workflow's fast job)
# leaves them out; `make test` runs everything.
SLOW_FIXTURES = {"site", "student_site", "wheel_python"}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: builds a site or executes notebooks (not in `make unit`)")
    config.addinivalue_line("markers", "browser: drives the built site in headless Chromium (tests/browser/)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def shared_once(tmp_path_factory, name: str, make) -> Path:
    """A folder made once per test run by ``make(folder)``, whichever xdist worker asks first."""
    root = _shared_root(tmp_path_factory) / name
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        status = root / ".status"
        if not status.exists():
            make(root)
            status.write_text("ok")
    return root


@pytest.fixture(scope="session")
def editions(tmp_path_factory) -> Path:
    """Every chapter's and lab's student notebook and answer key (tools/editions.py), derived once
    per run: <root>/publish/<kind>/<lang>/<name>.ipynb and <root>/answer-keys/<kind>/<lang>/..."""
    from tools.editions import write_editions

    return shared_once(
        tmp_path_factory,
        "editions",
        lambda root: write_editions(publish=root / "publish", keys=root / "answer-keys"),
    )


@pytest.fixture(scope="session")
def wheel_python(tmp_path_factory) -> Path:
    """The Python of a virtual environment with the package installed from its built wheel
    (non-editable; tools/wheel.py), made once per run."""
    from tools.wheel import build_wheel, venv_python, wheel_environment

    root = shared_once(
        tmp_path_factory, "wheel", lambda root: wheel_environment(root, build_wheel(root / "dist"))
    )
    return venv_python(root / "venv")
