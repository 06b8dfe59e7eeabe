"""Try the lower bounds of the package's dependencies: `make bounds` (needs the package index).

pyproject.toml says which versions of numpy, pandas, scikit-learn ... the package works with. A
bound that admits a version the package cannot import is a trap: pip keeps an older copy that is
already installed (Colab's, a conda environment's) because it satisfies the bound, and a lab fails
on its first import. So every bound is tried, and the versions just below it too:

- a **trial** is a throwaway virtual environment under /tmp, made with one of pyenv's Pythons,
  holding the package's wheel (built from this checkout) and its dependencies as pyproject.toml
  declares them, except that the package under trial is pinned to the version tried and
  scikit-learn to the version of constraints.txt (unless scikit-learn is under trial). Wheels only
  (``--only-binary=:all:``): a student never compiles numpy;
- in it, every third-party import statement of the package and of the chapters' and labs' code
  runs, then the package's fast tests (:data:`FAST_TESTS`);
- the result is one of :data:`RESULTS`; each trial is a row of bound_trials.csv (beside this
  file): date, package, version, Python, scikit-learn, result, detail. A joint trial (every
  dependency at its lower bound, or Colab's versions) is one row whose version lists them all.

tests/test_environment.py reads that table offline: no bound admits a version that failed, and each
lower bound passed.

    python -m tools.maintenance.bounds              # every trial of PLAN (about 3 minutes each)
    python -m tools.maintenance.bounds numpy pandas # only the trials of these packages
"""

from __future__ import annotations

import argparse
import ast
import csv
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomllib
from packaging.requirements import Requirement
from packaging.version import Version

from tools.project import ROOT

TABLE = Path(__file__).with_name("bound_trials.csv")
FIELDS = ("date", "package", "version", "python", "scikit_learn", "result", "detail")
PASS, IMPORT_FAILS, TESTS_FAIL, NOT_INSTALLABLE = "pass", "fails to import", "tests fail", "not installable"
RESULTS = (PASS, IMPORT_FAILS, TESTS_FAIL, NOT_INSTALLABLE)
FAILURES = (IMPORT_FAILS, TESTS_FAIL)  # what a bound must exclude
EVERY_LOWER_BOUND = "(every lower bound)"  # a trial with every dependency at its lower bound
COLAB_RUNTIME = (
    "(Colab's runtime)"  # a trial with Colab's preinstalled versions (tools/editions/colab_runtime.csv)
)

# The package's fast tests: no notebook, no site build (the files `make mutation` runs, with the
# data sets and the explorers).
FAST_TESTS = (
    "tests/test_metrics.py",
    "tests/test_language.py",
    "tests/test_ordinal.py",
    "tests/test_checks.py",
    "tests/test_plots.py",
    "tests/test_calibration.py",
    "tests/test_error_inspection.py",
    "tests/test_sklearn_user.py",
    "tests/test_datasets.py",
    "tests/test_explorers.py",
)
TEST_TOOLS = ("pytest", "hypothesis", "pyyaml", "nbformat", "nbclient", "jupytext", "ipykernel")

# The trials, (package, version, Python). Two joint trials: every dependency at its lower bound
# (scikit-learn 1.8.0 among them) on the oldest Python, and Colab's preinstalled versions on
# Colab's Python; each records a row per dependency. Then the versions just below each bound,
# with the other dependencies as pyproject.toml allows (pip takes the newest), which show why the
# bound is where it is.
PLAN = [
    (EVERY_LOWER_BOUND, "", "3.11"),
    (COLAB_RUNTIME, "", "3.13"),
    ("scikit-learn", "1.8.0", "3.10"),
    ("numpy", "1.25.1", "3.11"),
    ("imbalanced-learn", "0.14.0", "3.11"),
    ("imbalanced-learn", "0.13.0", "3.11"),
    ("statsmodels", "0.14.1", "3.11"),
    ("scipy", "1.14.1", "3.11"),
    ("matplotlib", "3.8.4", "3.11"),
    ("scikit-learn", "1.7.2", "3.11"),
    ("pandas", "2.1.4", "3.11"),
    ("anywidget", "0.8.1", "3.11"),
]
# Tests of the book's tooling, not of the package (they need Sphinx and the build's packages).
NOT_PACKAGE_TESTS = (
    "tests/test_explorers.py::test_the_static_files_are_the_bundles",
    "tests/test_explorers.py::test_the_book_registers_the_extension_and_prefers_html",
)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dependencies() -> list[Requirement]:
    """The package's dependencies as pyproject.toml declares them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(spec) for spec in project["dependencies"]]


def pinned(name: str) -> str:
    """The version constraints.txt pins for a package."""
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if "==" in line and canonical(line.split("==")[0]) == canonical(name):
            return line.split("==")[1].strip()
    raise KeyError(f"constraints.txt does not pin {name}")


def lower_bound(req: Requirement) -> str | None:
    found = [s.version for s in req.specifier if s.operator in (">=", "==", "~=")]
    return found[0] if found else None


def pyenv_python(version: str) -> Path:
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(
        root.glob(f"{version}.*/bin/python"), key=lambda p: [int(x) for x in p.parts[-3].split(".")]
    )
    if not found:
        raise FileNotFoundError(f"no Python {version} under {root}")
    return found[-1]


def _stdlib(name: str) -> bool:
    return name in sys.stdlib_module_names or name == "__future__"


def import_statements() -> list[str]:
    """Every distinct import statement of a third-party module in the package's source and in the
    code of the chapters and labs (English: the code is the same in every language)."""
    sources = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "src").rglob("*.py"))]
    cell = re.compile(r"```\{code-cell\}[^\n]*\n(?::[^\n]*\n)*(.*?)\n```", re.S)
    for md in sorted((ROOT / "chapters" / "en").glob("*.md")) + sorted((ROOT / "labs" / "en").glob("*.md")):
        sources += [c for c in cell.findall(md.read_text(encoding="utf-8")) if not c.lstrip().startswith("%")]
    found = []
    for text in sources:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        optional = {  # imports guarded by `try: ... except ImportError` (cleanlab, if installed)
            id(n)
            for t in ast.walk(tree)
            if isinstance(t, ast.Try)
            for n in ast.walk(ast.Module(body=t.body, type_ignores=[]))
        }
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names if not _stdlib(a.name.split(".")[0])]
                found += [f"import {n}" for n in names if not n.startswith("beyond_accuracy")]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                top = node.module.split(".")[0]
                if not _stdlib(top) and top != "beyond_accuracy" and top != "explorers":
                    names = ", ".join(a.name for a in node.names)
                    found.append(f"from {node.module} import {names}")
    return sorted(set(found))


IMPORT_PACKAGE = """
import importlib, pkgutil
import beyond_accuracy
for module in pkgutil.walk_packages(beyond_accuracy.__path__, "beyond_accuracy."):
    importlib.import_module(module.name)
"""


def requirements_of(package: str, version: str, colab: dict[str, str] | None = None) -> list[str]:
    """The requirements of a trial: the declared dependencies, the one under trial pinned to
    ``version`` (every one at its lower bound for EVERY_LOWER_BOUND, Colab's versions for
    COLAB_RUNTIME), scikit-learn at the version of constraints.txt unless it is under trial."""
    out = []
    for req in dependencies():
        name = canonical(req.name)
        if package == EVERY_LOWER_BOUND:
            out.append(f"{req.name}=={lower_bound(req)}")
        elif colab is not None and name in colab:
            out.append(f"{req.name}=={colab[name]}")
        elif name == canonical(package):
            out.append(f"{req.name}=={version}")
        elif name == "scikit-learn":
            out.append(f"scikit-learn=={pinned('scikit-learn')}")
        else:
            out.append(str(req))
    if colab is not None:  # the rest of Colab's preinstalled set that the package touches
        out += [f"{n}=={v}" for n, v in colab.items() if n not in {canonical(r.name) for r in dependencies()}]
    if colab is not None:
        out = [
            r if not r.startswith("scikit-learn==") else f"scikit-learn=={pinned('scikit-learn')}"
            for r in out
        ]
    return out


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^(ERROR|\w*Error|\w*Exception)\b", line)]
    return (errors or lines or [""])[-1][:300]


def snapshot(dest: Path) -> Path:
    """A copy of the checkout's files (tracked and new, not ignored) whose tests every trial runs:
    edits made while the trials run do not mix with the wheel they were built with."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def run_trial(package: str, version: str, python_version: str, wheel: Path, work: Path, tests: Path) -> dict:
    """Make the trial's environment, import, test; returns its row of the table."""
    row = {
        "date": datetime.date.today().isoformat(),
        "package": package,
        "version": version,
        "python": python_version,
        "scikit_learn": "",
        "result": "",
        "detail": "",
    }
    try:
        python = pyenv_python(python_version)
    except FileNotFoundError as exc:
        row.update(result=NOT_INSTALLABLE, detail=str(exc))
        return row
    row["python"] = python.parts[-3]
    venv = work / re.sub(r"[^\w.]+", "_", f"{package}-{version}-{python_version}")
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(python), "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    colab = None
    if package == COLAB_RUNTIME:
        from tools.editions.colab import colab_runtime

        colab = {canonical(n): v for n, v in colab_runtime().packages.items()}
    reqs = requirements_of(package, version, colab)
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:"]
    done = subprocess.run([*pip, *reqs, *TEST_TOOLS], capture_output=True, text=True)
    if done.returncode != 0:
        row.update(result=NOT_INSTALLABLE, detail=_last_line(done.stderr))
        return row
    subprocess.run([*pip, "--no-deps", str(wheel)], check=True, capture_output=True)
    version_of = subprocess.run(
        [str(py), "-c", "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))", "scikit-learn"],
        capture_output=True,
        text=True,
    )
    row["scikit_learn"] = version_of.stdout.strip()
    if package not in (EVERY_LOWER_BOUND, COLAB_RUNTIME):
        got = subprocess.run(
            [str(py), "-c", "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))", package],
            capture_output=True,
            text=True,
        ).stdout.strip()
        if got != version:
            row.update(result=NOT_INSTALLABLE, detail=f"pip installed {package} {got}")
            return row
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    env.pop("PYTHONPATH", None)
    code = "\n".join(import_statements()) + "\n" + IMPORT_PACKAGE
    with tempfile.TemporaryDirectory() as empty:  # not the checkout: the package from the wheel
        imported = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=empty, env=env)
    if imported.returncode != 0:
        row.update(result=IMPORT_FAILS, detail=_last_line(imported.stderr))
        return row
    tests = subprocess.run(
        [
            str(py),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow",
            "--maxfail=10",
            "-rf",
            *FAST_TESTS,
            *(f"--deselect={t}" for t in NOT_PACKAGE_TESTS),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        cwd=tests,
        env=env,
    )
    summary = _last_line(tests.stdout)
    failed = re.findall(r"^FAILED (\S+)", tests.stdout, re.M)
    if tests.returncode != 0:
        row.update(result=TESTS_FAIL, detail=f"{summary}; {' '.join(failed)}" if failed else summary)
    else:
        row.update(result=PASS, detail=summary.strip("= "))
    return row


def _joint_versions(package: str) -> dict[str, str]:
    """{dependency: version} of a joint trial."""
    if package == EVERY_LOWER_BOUND:
        return {canonical(r.name): str(Version(lower_bound(r))) for r in dependencies()}
    from tools.editions.colab import colab_runtime

    colab = {canonical(n): v for n, v in colab_runtime().packages.items()}
    out = {canonical(r.name): colab[canonical(r.name)] for r in dependencies() if canonical(r.name) in colab}
    out["scikit-learn"] = pinned("scikit-learn")  # what the install cell brings
    return out


def read_table(path: Path = TABLE) -> list[dict]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


HEADER = (
    "# Trials of the package's dependency bounds, written by `make bounds` (tools/maintenance/bounds.py).\n"
    "# Each row: a throwaway environment with the package's wheel, its dependencies as pyproject.toml\n"
    "# declares them but the one tried pinned to `version` and scikit-learn to `scikit_learn`, wheels only;\n"
    "# every import statement of the package, chapters and labs, then the package's fast tests.\n"
)


def write_table(rows: list[dict], path: Path = TABLE) -> None:
    key = lambda r: (r["package"].startswith("("), canonical(r["package"]), r["python"], r["version"])  # noqa: E731
    with path.open("w", encoding="utf-8", newline="") as f:
        f.write(HEADER)
        writer = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(sorted(rows, key=key))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("packages", nargs="*", help="only the trials of these packages")
    args = parser.parse_args(argv)
    from tools.editions.wheel import build_wheel

    plan = [t for t in PLAN if not args.packages or t[0] in args.packages]
    rows = read_table()
    with tempfile.TemporaryDirectory(prefix="ba-bounds-") as tmp:
        checkout = snapshot(Path(tmp) / "checkout")
        wheel = build_wheel(Path(tmp) / "dist")
        for package, version, python_version in plan:
            start = time.perf_counter()
            try:
                row = run_trial(package, version, python_version, wheel, Path(tmp) / "venvs", checkout)
            finally:  # a trial's environment is about half a gigabyte
                shutil.rmtree(Path(tmp) / "venvs", ignore_errors=True)
            if package in (EVERY_LOWER_BOUND, COLAB_RUNTIME):  # one row, the versions it held
                row["version"] = " ".join(f"{d}=={v}" for d, v in _joint_versions(package).items())
            key = (row["package"], row["version"], row["python"].rsplit(".", 1)[0])
            rows = read_table()  # another `make bounds` may have written meanwhile
            rows = [r for r in rows if (r["package"], r["version"], r["python"].rsplit(".", 1)[0]) != key]
            rows.append(row)
            write_table(rows)
            print(
                f"{time.perf_counter() - start:5.0f} s  {package} {version} on Python {row['python']}"
                f" (scikit-learn {row['scikit_learn'] or '-'}): {row['result']}  {row['detail'][:120]}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
