"""Run a notebook as a student would, and the Colab-like run of every lab (a benchmark).

:func:`run_as_student` copies a student notebook alone into an empty temporary folder outside the
repository and executes it top to bottom in a kernel of the Python it is given (a virtual
environment holding the package installed from its wheel); then, in the same kernel, it runs the
answer key's solution cells, each followed by its check cell again, and reads the answers' values.
The tests (tests/test_editions.py) and the benchmark below both use it.

The benchmark, ``python -m tools.editions.colab`` (``make colab``; it needs the package index, so it is
not part of ``make test``):
1. a virtual environment with the Python closest to Colab's (3.12 when one is installed) and
   Colab's preinstalled numpy, pandas, scikit-learn, matplotlib and ipywidgets (COLAB below);
2. the notebook's own install cell, emulated: the same ``pip install`` command with the built
   wheel in place of the git tag it names (what that tag will hold), then ``pip check``;
3. every lab in every language (``--chapters``: the chapters too) run with :func:`run_as_student`,
   with the time of each.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from tools.editions.derive import is_check_cell, page_of, publish_path, sources, student_notebook, tags
from tools.editions.wheel import build_wheel, install, kernel_spec, venv_python
from tools.project import BUILD, install_spec, languages

# Google Colab's runtime, from its published lists (googlecolab/backend-info, 2026.07 runtime).
COLAB_PYTHON = "3.12"
COLAB = ("numpy==2.0.2", "pandas==2.2.2", "scikit-learn==1.6.1", "matplotlib==3.10.*", "ipywidgets==7.7.1")
COLAB_EXTRA = ("ipykernel",)  # to run notebooks at all

ANSWERS_MARK = "@@course-answers@@"
_PROBE = """
import json as _json, numbers as _numbers, sys as _sys
def _plain(v):
    if isinstance(v, (bool, str)) or v is None:
        return v
    if isinstance(v, _numbers.Integral):
        return int(v)
    if isinstance(v, _numbers.Real):
        return float(v)
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    try:
        return [_plain(x) for x in v]
    except TypeError:
        return repr(v)
import beyond_accuracy as _ba
print(%r + _json.dumps({
    "answers": {_n: _plain(globals()[_n]) for _n in %r},
    "package": _ba.__file__,
    "sys_path": _sys.path,
}))
"""


@dataclass
class StudentRun:
    notebook: Path
    seconds: float
    student_checks: list[str] = field(default_factory=list)  # output of each check cell, student run
    filled_checks: list[str] = field(default_factory=list)  # the same checks with the answers filled in
    answers: dict = field(default_factory=dict)
    package: str = ""
    sys_path: list[str] = field(default_factory=list)
    folder_files: list[str] = field(default_factory=list)


def text_of(outputs) -> str:
    parts = []
    for out in outputs:
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "text/plain" in out.get("data", {}):
            parts.append(out["data"]["text/plain"])
        elif out.get("output_type") == "error":
            parts.append(f"{out.get('ename')}: {out.get('evalue')}")
    return "".join(parts)


def solutions_and_checks(key) -> list[tuple[str, str]]:
    """(solution source, check source) of each exercise of an answer key, in order."""
    pairs, pending = [], None
    for cell in key.cells:
        if cell.cell_type != "code":
            continue
        if "solution" in tags(cell):
            pending = cell.source
        elif pending is not None and is_check_cell(cell.source):
            pairs.append((pending, cell.source))
            pending = None
    return pairs


def answer_names_of(pairs) -> list[str]:
    from tools.editions.derive import answer_names

    return [name for solution, _ in pairs for name in answer_names(solution)]


def run_as_student(student: Path, key: Path, python: Path, timeout: int = 900) -> StudentRun:
    """Execute a student notebook alone in an empty folder with ``python``'s kernel, then fill in
    the answer key's answers and run each check again, in the same kernel."""
    key_nb = nbformat.read(key, as_version=4)
    pairs = solutions_and_checks(key_nb)
    with tempfile.TemporaryDirectory(prefix="ba-student-") as tmp:
        folder = Path(tmp) / "work"
        folder.mkdir()
        copy = folder / Path(student).name
        shutil.copyfile(student, copy)
        files = sorted(p.name for p in folder.iterdir())
        nb = nbformat.read(copy, as_version=4)
        specs = Path(tmp) / "kernels"
        kernel_spec(python, specs)
        km = KernelManager(
            kernel_name="student",
            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)], ensure_native_kernel=False),
        )
        client = NotebookClient(nb, km=km, timeout=timeout, resources={"metadata": {"path": str(folder)}})
        run = StudentRun(Path(student), 0.0, folder_files=files)
        start = time.perf_counter()
        with client.setup_kernel(cleanup_kc=True):  # our KernelManager: nbclient would leave it running
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
                    if is_check_cell(cell.source):
                        run.student_checks.append(text_of(cell.outputs))
            run.seconds = time.perf_counter() - start
            extra = []
            for solution, check in pairs:
                extra += [nbformat.v4.new_code_cell(solution), nbformat.v4.new_code_cell(check)]
            probe = nbformat.v4.new_code_cell(_PROBE % (ANSWERS_MARK, answer_names_of(pairs)))
            base = len(nb.cells)
            nb.cells += [*extra, probe]
            for offset, cell in enumerate([*extra, probe]):
                client.execute_cell(cell, base + offset)
            run.filled_checks = [text_of(c.outputs) for c in extra[1::2]]
            found = re.search(re.escape(ANSWERS_MARK) + r"(.*)", text_of(probe.outputs))
            info = json.loads(found.group(1))
            run.answers, run.package, run.sys_path = info["answers"], info["package"], info["sys_path"]
    return run


# --------------------------------------------------------------------------------------------
# The Colab-like benchmark


def find_python(version: str = COLAB_PYTHON) -> Path:
    """The Python closest to Colab's: one that pyenv installed, or python<version> on PATH (a pyenv
    shim on PATH only counts if it runs)."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = sorted(
        root.glob(f"{version}.*/bin/python"), key=lambda p: [int(x) for x in p.parts[-3].split(".")]
    )
    found = shutil.which(f"python{version}")
    for python in [*reversed(candidates), *([Path(found)] if found else [])]:
        if subprocess.run([str(python), "-c", "pass"], capture_output=True).returncode == 0:
            return python
    print(f"no Python {version} here: using {sys.version.split()[0]}", file=sys.stderr)
    return Path(sys.executable)


def python_version(python: Path) -> str:
    out = subprocess.run(
        [str(python), "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True
    )
    return out.stdout.strip()


def pip_versions(python: Path, names: tuple[str, ...]) -> dict[str, str]:
    code = "import importlib.metadata as m, json, sys; print(json.dumps({n: m.version(n) for n in sys.argv[1:]}))"
    out = subprocess.run([str(python), "-c", code, *names], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def install_command(first_cell: str) -> list[str]:
    """The pip arguments of a notebook's install cell (what runs in Colab)."""
    tree = ast.parse(first_cell)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run":
            args = node.args[0]
            if isinstance(args, ast.List):
                return [
                    ast.literal_eval(e) if not isinstance(e, ast.Attribute) else "<python>" for e in args.elts
                ]
    raise ValueError("the first cell has no install command")


def colab_environment(folder: Path, python: Path, wheel: Path) -> tuple[Path, dict]:
    """Colab's preinstalled packages, then the install cell with the wheel; returns (python, facts)."""
    venv = folder / "venv"
    if not venv_python(venv).exists():
        subprocess.run([str(python), "-m", "venv", str(venv)], check=True)
        install(venv_python(venv), *COLAB, *COLAB_EXTRA)
    py = venv_python(venv)
    names = ("numpy", "pandas", "scikit-learn", "matplotlib", "ipywidgets")
    before = pip_versions(py, names)
    cell = next(p for p in sources(["en"]) if p.parent.parent.name == "labs")
    command = install_command(nbformat.read(cell, as_version=4).cells[1].source)
    if command[-1] != install_spec():
        raise ValueError(f"the install cell installs {command[-1]!r}, not {install_spec()!r}")
    pip_args = [a for a in command[3:] if a not in ("install",)][:-1]  # e.g. ["-q"]
    start = time.perf_counter()
    subprocess.run([str(py), "-m", "pip", "install", *pip_args, str(wheel)], check=True)
    seconds = time.perf_counter() - start
    after = pip_versions(py, names)
    check = subprocess.run([str(py), "-m", "pip", "check"], capture_output=True, text=True)
    return py, {
        "python": python_version(py),
        "before": before,
        "after": after,
        "install_seconds": seconds,
        "install_command": command,
        "pip_check": (check.stdout + check.stderr).strip(),
        "pip_check_ok": check.returncode == 0,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    parser.add_argument("--chapters", action="store_true", help="run the chapters too")
    parser.add_argument("--python", type=Path, help="the Python to use (default: the closest to Colab's)")
    parser.add_argument("--environment", type=Path, help="reuse this Colab-like virtual environment")
    args = parser.parse_args(argv)
    langs = args.lang or languages()
    out = BUILD / "colab"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    python = args.python or find_python()
    wheel = build_wheel(out / "dist")
    if args.environment:  # a Colab-like environment made earlier (its packages are checked below)
        (out / "venv").symlink_to(args.environment.resolve())
    py, facts = colab_environment(out, python, wheel)
    print(f"Python {facts['python']} ({python}); Colab runs {COLAB_PYTHON}")
    print("preinstalled (Colab's):  " + ", ".join(f"{k} {v}" for k, v in facts["before"].items()))
    print(f"install cell, emulated: {' '.join(facts['install_command'][3:-1])} {wheel.name} "
          f"(in Colab: {install_spec()}) — {facts['install_seconds']:.1f} s")  # fmt: skip
    print("after the install cell:  " + ", ".join(f"{k} {v}" for k, v in facts["after"].items()))
    print(f"pip check: {facts['pip_check']}")
    failures = 0
    rows = []
    for src in sources(langs):
        page = page_of(src)
        if page.kind == "chapters" and not args.chapters:
            continue
        student = publish_path(page, out / "publish")
        student_notebook(src, student)
        try:
            run = run_as_student(student, src, py)
        except Exception as exc:  # report every notebook, then fail
            failures += 1
            print(f"  FAILED  {page.docname}: {type(exc).__name__}: {str(exc)[:300]}")
            continue
        ok = all("✏️" in c for c in run.student_checks) and all(
            c.strip() and all(line.startswith("✅") for line in c.strip().splitlines())
            for c in run.filled_checks
        )
        failures += not ok
        rows.append((page.docname, run.seconds, ok))
        print(f"  {run.seconds:6.1f} s  {page.docname}  checks: {len(run.student_checks)} not attempted -> "
              f"{'all correct' if ok else 'NOT ALL CORRECT'}", flush=True)  # fmt: skip
    times = [s for _, s, _ in rows]
    if times:
        print(f"  {len(times)} notebooks: min {min(times):.1f} s, median {sorted(times)[len(times) // 2]:.1f} s, "
              f"max {max(times):.1f} s, total {sum(times):.0f} s")  # fmt: skip
    (out / "report.json").write_text(json.dumps({**facts, "runs": rows}, indent=1), encoding="utf-8")
    return 1 if failures or not facts["pip_check_ok"] else 0


if __name__ == "__main__":
    sys.exit(main())
