import fcntl
import os
from pathlib import Path

import hypothesis_profiles  # noqa: F401  (registers the "unit" profile that `make unit` selects)
import matplotlib
import nbval_kernels
import nbval_stored
import pytest
import sharding

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


SITES = {"site": "reader"}  # fixture: the folder of its build


def _site_root(tmp_path_factory, name: str) -> Path:
    return _shared_root(tmp_path_factory) / f"built-{name}"


def _build_once(tmp_path_factory, name: str) -> Path:
    """Build the site once per test run: the background build started after collection (see
    pytest_collection_finish), or whichever worker asks first; the others wait and reuse it."""
    from site_build import build_locked

    root = _site_root(tmp_path_factory, name)
    ok = build_locked(root, _shared_root(tmp_path_factory) / "editions")
    log = root / "build.log"
    assert ok, f"the {name} build failed or warned" + (
        f":\n{log.read_text(encoding='utf-8')[-6000:]}"
        if log.exists()
        else "; see the log of the test that built it"
    )
    return root / "site"


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The reader's site, every language, built once per test run (shared by all test modules)."""
    return _build_once(tmp_path_factory, "reader")


# Tests that build a site, execute notebooks, render figures, derive every edition or fit many models
# are "slow": `make unit` (the workflow's fast job) leaves them out, and tries at most 20 examples
# per property test (the "unit" hypothesis profile, tests/hypothesis_profiles.py); `make test` runs
# everything, with every example. Measured 2026-12-07 on a 2-core machine under load (load average
# 9-13, so its 6 min 49 s of wall clock meant little): `make unit` used 97 CPU-s (was 152), 1,737
# tests, each worker 44 CPU-s of which 11 collecting; on two idle cores that is about 50 s of wall
# time (the busier worker's CPU-s, plus lint and start-up), under the minute the fast job allows.
# Besides the tests that use these fixtures, a test marks itself with @pytest.mark.slow.
# "editions" derives the student notebook and answer key of all 50 notebooks (shared with the site
# build in `make test`, so it costs nothing more there).
SLOW_FIXTURES = {"site", "wheel_python", "rendered", "editions"}


def pytest_addoption(parser):
    parser.addoption(
        "--shard", metavar="K/N", help="run the K-th of N parts of the selected tests (tests/sharding.py)"
    )
    parser.addoption(
        "--record-scope-times",
        metavar="CSV",
        help="write the seconds each unit of work took (`make test-times`; tests/sharding.py reads them)",
    )


def pytest_configure(config):
    shard = config.getoption("shard")
    if shard:
        try:
            config.shard = sharding.parse(shard)
        except ValueError as e:
            raise pytest.UsageError(str(e)) from None
    config.addinivalue_line(
        "markers",
        "slow: builds a site, executes notebooks, renders every figure, derives every edition or fits many models (not in `make unit`)",
    )
    config.addinivalue_line(
        "markers",
        "mutation: a slow test that `make mutation` still runs (pyproject.toml's mutmut -m): it guards a mutated module",
    )
    config.addinivalue_line("markers", "browser: drives the built site in headless Chromium (tests/browser/)")
    if config.getoption("nbval", False) or config.getoption("nbval_lax", False):
        nbval_kernels.install()  # the languages of a notebook share a kernel (tests/nbval_kernels.py)
    if config.getoption("nbval", False):
        nbval_stored.install()  # the committed .ipynb is what a re-execution writes (tests/nbval_stored.py)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After the last cell of a notebook, nbval_stored compares the notebook this run would write
    with the committed one."""
    if not nbval_stored.is_cell(item) or not item.config.getoption("nbval", False):
        return (yield)
    nbval_stored.started(item)
    try:
        result = yield
    except BaseException:
        nbval_stored.ran(item, passed=False)
        raise
    nbval_stored.ran(item, passed=True)
    return result


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadscope with a notebook's languages as one unit of work (see _scope)."""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class NotebookLanguagesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope_of(nodeid)

    return NotebookLanguagesTogether(config, log)


# The fixtures that cost most, each a notebook execution or more per test: their tests start first.
EXPENSIVE_FIXTURES = {"wheel_python", "grades", "graded", "any_class", "stopped", "rendered"}


def _scope(item) -> str:
    return _scope_of(item.nodeid)


BROWSER_TESTS = Path(__file__).parent / "browser"


def _needs(item) -> set[str]:
    """The fixtures an item's test uses: its own, and the built site for a browser test, which
    asks for it only when it runs (tests/browser/conftest.py, unless BA_SITE names a built site)."""
    names = set(getattr(item, "fixturenames", ()))
    if Path(item.path).is_relative_to(BROWSER_TESTS) and not os.environ.get("BA_SITE"):
        names.add("site")
    return names


# Tests of a module that are a unit of work of their own: (module, parameter). The trial classes of
# tests/test_grading.py other than lab 2's (lab 4 in Finnish; lab 2's notebooks that loop, wait or
# kill their kernel), each a module fixture of its own, are graded on another worker, or in another
# part of `make test SHARD=k/N`, than lab 2's.
OWN_UNITS = {("tests/test_grading.py", "grades_fi"), ("tests/test_grading.py", "grades_stopped")}


def _scope_of(nodeid: str) -> str:
    """The unit of work that `--dist loadscope` sends to one worker (pytest_xdist_make_scheduler):
    a class, or else a module (or the tests of one parameter, OWN_UNITS); a chapter's or lab's
    notebook in every language, which nbval runs in one kernel (tests/nbval_kernels.py).
    `make test SHARD=k/N` splits the run by them."""
    family = nbval_kernels.family(nodeid)
    if family:
        return family
    name, _, param = nodeid.partition("[")
    module = name.split("::", 1)[0]
    if (module, param.removesuffix("]")) in OWN_UNITS:
        return f"{module}[{param}"
    return name.rsplit("::", 1)[0]


def _run_order(items) -> dict[str, tuple]:
    """Each scope's place in the run, longest work first so that both workers stay busy until the
    end: the scopes with an expensive fixture, then the notebooks that nbval executes, then the
    rest, and last the scopes that read a built site, which the background build makes meanwhile;
    within each group, the scopes with more tests first."""
    fixtures, sizes, notebooks = {}, {}, set()
    for item in items:
        scope = _scope(item)
        fixtures.setdefault(scope, set()).update(_needs(item))
        sizes[scope] = sizes.get(scope, 0) + 1
        if item.nodeid.split("::", 1)[0].endswith(".ipynb"):
            notebooks.add(scope)
    order = {}
    for scope, names in fixtures.items():
        if SITES.keys() & names:
            group = 3
        elif EXPENSIVE_FIXTURES & names:
            group = 0
        else:
            group = 1 if scope in notebooks else 2
        order[scope] = (group, -sizes[scope], scope)
    return order


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    # The same order in every xdist worker, as xdist requires; `make test` passes
    # --no-loadscope-reorder so that xdist keeps it (instead of sorting scopes by size alone).
    # Within a notebook's unit, its languages one after another, each first (in a fresh kernel)
    # in turn.
    if getattr(config, "shard", None):
        _keep_shard(config, items)
    order = _run_order(items)
    families = sorted({f for f in map(nbval_kernels.family, (i.nodeid for i in items)) if f})

    def key(item):
        notebook = nbval_kernels.family(item.nodeid)
        return (*order[_scope(item)], nbval_kernels.language_rank(item.nodeid, families) if notebook else 0)

    items.sort(key=key)


def _keep_shard(config, items) -> None:
    """Deselect what is not in this run's part (--shard K/N, tests/sharding.py)."""
    k, n = config.shard
    units: dict[str, tuple[int, set]] = {}
    for item in items:
        count, fixtures = units.get(_scope(item), (0, set()))
        units[_scope(item)] = (count + 1, fixtures | _needs(item))
    part = sharding.assign(units, n, sharding.read_times())
    kept = [item for item in items if part[_scope(item)] == k]
    config.hook.pytest_deselected(items=[item for item in items if part[_scope(item)] != k])
    items[:] = kept


_scope_seconds: dict[str, float] = {}  # --record-scope-times: seconds per unit of work


def pytest_runtest_logreport(report):
    _scope_seconds[_scope_of(report.nodeid)] = (
        _scope_seconds.get(_scope_of(report.nodeid), 0.0) + report.duration
    )


_background = []  # the site builds this process started: (name, Popen)


def pytest_collection_finish(session):
    """Start building the sites that the selected tests need, in the background, once per run
    (whichever xdist worker gets here first): the workers execute notebooks meanwhile. Each
    build takes its lock before the others may ask for it (site_build.LOCKED), so no worker
    builds a second copy."""
    import subprocess
    import sys
    import time

    from site_build import LOCKED

    nbval_stored.collected(session.items)  # after -k and -m have deselected what they deselect
    config = session.config
    if config.option.collectonly or not session.items:
        return
    wanted = set().union(*(SITES.keys() & _needs(i) for i in session.items))
    if not wanted:
        return
    factory = config._tmp_path_factory
    shared = _shared_root(factory)
    root_dir = Path(__file__).resolve().parent.parent
    with open(shared / ".site-builds.lock", "w") as spawn:
        fcntl.flock(spawn, fcntl.LOCK_EX)
        for fixture in sorted(wanted):
            name = SITES[fixture]
            root = _site_root(factory, name)
            if root.exists():
                continue  # started by another worker
            root.mkdir(parents=True)
            env = dict(
                os.environ,
                PYTHONPATH=os.pathsep.join(filter(None, [str(root_dir), os.environ.get("PYTHONPATH")])),
            )
            cmd = [sys.executable, str(root_dir / "tests" / "site_build.py"), str(root), "--jobs", "1"]
            cmd += ["--editions", str(shared / "editions")]
            with open(root / "build.log", "w", encoding="utf-8") as log:
                proc = subprocess.Popen(
                    cmd, cwd=root_dir, env=env, stdout=log,
                    stderr=subprocess.STDOUT, start_new_session=True,
                )  # fmt: skip
            _background.append((name, proc))
            while not (root / LOCKED).exists() and proc.poll() is None:
                time.sleep(0.05)


def pytest_sessionfinish(session, exitstatus):
    """A background build outlives no run: wait for it (other workers' tests may still need it),
    unless the run was interrupted. Nor does a shared nbval kernel."""
    import signal

    nbval_kernels.stop_shared_kernel()
    record = session.config.getoption("record_scope_times")
    if record and not hasattr(session.config, "workerinput") and _scope_seconds:
        sharding.write_times(_scope_seconds, Path(record))

    for _, proc in _background:
        if exitstatus == pytest.ExitCode.INTERRUPTED and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Translated pages behind their English page are on main with a notice in their language, as
    the README promises: the run reports them here (translations.json, `make translations`), and no
    test fails for it."""
    if hasattr(config, "workerinput"):
        return
    from tools.language.translations import report_lines

    late = report_lines()
    if late:
        terminalreporter.section("translations behind English", sep="-", yellow=True)
        for line in late:
            terminalreporter.write_line(line)
        terminalreporter.write_line(
            f"{len(late)} translated page(s) behind English: their pages show a notice. Once a page is "
            "brought up to date: make translations RECORD=1 PAGES=<its .md>"
        )


def shared_once(tmp_path_factory, name: str, make) -> Path:
    """A folder made once per test run by ``make(folder)``, whichever xdist worker asks first."""
    from site_build import once

    return once(_shared_root(tmp_path_factory) / name, make)


@pytest.fixture(scope="session")
def editions(tmp_path_factory) -> Path:
    """Every chapter's and lab's student notebook and answer key (tools/editions/derive.py), derived once
    per run (and copied into both site builds): <root>/publish/<kind>/<lang>/<name>.ipynb and
    <root>/answer-keys/<kind>/<lang>/..."""
    from site_build import write_editions_once

    return write_editions_once(_shared_root(tmp_path_factory) / "editions")


@pytest.fixture(scope="session")
def wheel_python(tmp_path_factory) -> Path:
    """The Python of a virtual environment with the package installed from its built wheel
    (non-editable; tools/editions/wheel.py), made once per run."""
    from tools.editions.wheel import build_wheel, venv_python, wheel_environment

    root = shared_once(
        tmp_path_factory, "wheel", lambda root: wheel_environment(root, build_wheel(root / "dist"))
    )
    return venv_python(root / "venv")


@pytest.fixture(scope="session")
def printed_handouts(tmp_path_factory):
    """``printed_handouts(lang)``: the folder where the language's handouts were printed once per run
    by write_handouts: ``decks/`` the decks and sheets printed, ``pdf/`` the handouts. Skips a
    language this run does not print (handout_languages) or a machine without Chromium."""
    from site_build import handout_languages

    from tools.teaching.handouts import missing, write_handouts

    def of(lang: str) -> Path:
        if lang not in handout_languages():
            pytest.skip(f"{lang}: handouts are printed with BA_ALL_HANDOUTS=1 (make handouts-test)")
        if missing():
            pytest.skip(missing())
        return shared_once(
            tmp_path_factory,
            f"handouts-{lang}",
            lambda root: write_handouts(lang, root / "pdf", decks=root / "decks"),
        )

    return of
