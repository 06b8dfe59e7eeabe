"""Run a notebook as a student would, and the Colab-like run of every lab and chapter.

:func:`run_as_student` copies a student notebook alone into an empty temporary folder outside the
repository and executes it top to bottom in a kernel of the Python it is given (a virtual
environment holding the package installed from its wheel); then, in the same kernel, it runs the
answer key's solution cells, each followed by its check cell again, and reads the answers' values
(and keeps the inputs each check cell passed, for the answer-leak test). The tests
(tests/test_editions.py) and the Colab-like run below both use it.

The Colab-like run, ``python -m tools.editions.colab`` (``make colab``; it needs the package index,
so it is not part of ``make test``):
1. a virtual environment with Colab's Python and its preinstalled packages, from the one table
   colab_runtime.csv (dated; :func:`colab_runtime`): numpy, pandas, scikit-learn 1.6.1,
   ipywidgets 7.7.1, anywidget, ipykernel 6 and the rest that the course touches;
2. the notebook's own install cell, run as Colab runs it: its code, in a kernel of that
   environment where ``google.colab`` is imported, with the built wheel in place of the git tag it
   names (what that tag will hold). It prints what it installed and whether the session must be
   restarted; the run reports which versions changed, ``pip check``, and fails if ipywidgets did
   not stay at Colab's version or if the cell asks for a restart;
3. every chapter and lab in every language (``--labs-only``: the labs) run with
   :func:`run_as_student`, each with its time, its checks ("not attempted", then "correct" with the
   answer key's answers) and every output compared with the stored one (memory addresses
   aside): a difference fails the run unless EXPLAINED lists it.

``--here`` skips step 1 and uses the running Python as it is: the publish workflow runs
``python -m tools.editions.colab --here --wheel dist/...whl`` inside Colab's own runtime image.
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

from tools.editions.wheel import kernel_spec, venv_python
from tools.project import BUILD, first_cell, install_spec, languages

RUNTIME_TABLE = Path(__file__).with_name("colab_runtime.csv")


@dataclass(frozen=True)
class ColabRuntime:
    """Google Colab's runtime as colab_runtime.csv records it: its Python (major.minor), the
    preinstalled packages that matter to the course ({name: version}) and the date of the list."""

    python: str
    packages: dict
    as_of: str

    def requirements(self) -> list[str]:
        return [f"{name}=={version}" for name, version in self.packages.items()]


def colab_runtime(path: Path = RUNTIME_TABLE) -> ColabRuntime:
    """The one table of Colab's preinstalled versions (tools/editions/colab_runtime.csv)."""
    import csv

    lines = path.read_text(encoding="utf-8").splitlines()
    as_of = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("# as_of:"))
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    python = next(r["version"] for r in rows if r["package"] == "python")
    packages = {r["package"]: r["version"] for r in rows if r["package"] != "python"}
    return ColabRuntime(python, packages, as_of)


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
    outputs: list[str] = field(default_factory=list)  # the text of each code cell's outputs, student run
    check_inputs: dict = field(default_factory=dict)  # exercise -> pickle of the inputs its check cell passed


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


def _derive():
    """tools.editions.derive, imported when needed: it imports the package, which --here installs
    first."""
    from tools.editions import derive

    return derive


def tags(cell) -> list[str]:
    return list(cell.metadata.get("tags", []))


def is_check_cell(source: str) -> bool:
    return _derive().is_check_cell(source)


def check_calls(source: str) -> list[tuple[str, list[str]]]:
    """(exercise name, source of each input expression) of every ``check.<name>(answer, *inputs)``
    call of a check cell."""
    calls = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "check"
        ):
            calls.append((node.func.attr, [ast.get_source_segment(source, a) for a in node.args[1:]]))
    return calls


_CAPTURE = """
import pickle as _pickle
_course_inputs = globals().setdefault("_course_inputs", {})
try:
    _course_inputs[%r] = _pickle.dumps(%s, protocol=4)
except Exception:
    _course_inputs[%r] = None
del _pickle
"""


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
    return [name for solution, _ in pairs for name in _derive().answer_names(solution)]


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
            captured = 0.0
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
                    run.outputs.append(text_of(cell.outputs))
                    if is_check_cell(cell.source):
                        run.student_checks.append(text_of(cell.outputs))
                        begin = time.perf_counter()
                        for name, inputs in check_calls(cell.source):
                            code = _CAPTURE % (name, f"({''.join(i + ', ' for i in inputs)})", name)
                            client.execute_cell(nbformat.v4.new_code_cell(code), index)
                        captured += time.perf_counter() - begin
            run.seconds = time.perf_counter() - start - captured
            extra = []
            for solution, check in pairs:
                extra += [nbformat.v4.new_code_cell(solution), nbformat.v4.new_code_cell(check)]
            inputs_file = Path(tmp) / "inputs.pickle"
            probe = nbformat.v4.new_code_cell(
                _PROBE % (ANSWERS_MARK, answer_names_of(pairs))
                + f"import pickle\nwith open({str(inputs_file)!r}, 'wb') as _f:\n"
                + "    pickle.dump(globals().get('_course_inputs', {}), _f)\n"
            )
            base = len(nb.cells)
            nb.cells += [*extra, probe]
            for offset, cell in enumerate([*extra, probe]):
                client.execute_cell(cell, base + offset)
            run.filled_checks = [text_of(c.outputs) for c in extra[1::2]]
            found = re.search(re.escape(ANSWERS_MARK) + r"(.*)", text_of(probe.outputs))
            info = json.loads(found.group(1))
            run.answers, run.package, run.sys_path = info["answers"], info["package"], info["sys_path"]
            run.check_inputs = _read_pickle_of_bytes(inputs_file)
    return run


def _read_pickle_of_bytes(path: Path) -> dict:
    """The {exercise: pickled inputs} the probe wrote: a dict of bytes, which any Python reads (the
    inputs themselves are unpickled by whoever needs them, in an environment like the kernel's)."""
    import pickle

    if not path.exists():
        return {}
    with path.open("rb") as f:
        found = pickle.load(f)
    return {k: v for k, v in found.items() if isinstance(v, bytes)}


# --------------------------------------------------------------------------------------------
# The Colab-like run

# Outputs of a Colab-like run that may differ from the stored ones, each with its reason:
# {(notebook docname, code cell index in the student notebook): why}. Empty: every output is equal.
EXPLAINED: dict[tuple[str, int], str] = {}

SANITIZE = [(re.compile(r"\b0x[0-9a-fA-F]{4,}\b"), "0xADDRESS")]  # as tests/nbval_sanitize.cfg


def find_python(version: str) -> Path:
    """Colab's Python: one that pyenv installed, or python<version> on PATH (a pyenv shim on PATH
    only counts if it runs)."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = sorted(
        root.glob(f"{version}.*/bin/python"), key=lambda p: [int(x) for x in p.parts[-3].split(".")]
    )
    found = shutil.which(f"python{version}")
    for python in [*reversed(candidates), *([Path(found)] if found else [])]:
        if subprocess.run([str(python), "-c", "pass"], capture_output=True).returncode == 0:
            return python
    raise FileNotFoundError(f"no Python {version} here (Colab's): install it, e.g. with pyenv")


def python_version(python: Path) -> str:
    out = subprocess.run(
        [str(python), "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True
    )
    return out.stdout.strip()


def freeze(python: Path) -> dict[str, str]:
    """{distribution: version} of everything installed in ``python``'s environment."""
    code = (
        "import importlib.metadata as m, json\n"
        "print(json.dumps({d.metadata['Name'].lower().replace('_', '-'): d.version for d in m.distributions()}))"
    )
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def changes(before: dict[str, str], after: dict[str, str]) -> dict[str, tuple[str | None, str | None]]:
    """{name: (version before, version after)} of what an install added, changed or removed."""
    names = sorted(set(before) | set(after))
    return {n: (before.get(n), after.get(n)) for n in names if before.get(n) != after.get(n)}


def colab_environment(folder: Path, python: Path, runtime: ColabRuntime) -> Path:
    """A virtual environment with Colab's Python and preinstalled packages (made once, then reused
    if it still holds them); returns its Python."""
    venv = folder / "venv"
    py = venv_python(venv)
    record = venv / "colab-freeze.json"  # what the environment held when it was made
    if py.exists() and record.exists():  # undo what an earlier run installed
        made = json.loads(record.read_text(encoding="utf-8"))
        undo = changes(made, freeze(py))
        added = [n for n, (old, _) in undo.items() if old is None]
        if added:
            _pip(py, "uninstall", "--yes", *added)
        back = [f"{n}=={old}" for n, (old, _) in undo.items() if old is not None]
        if back:
            _pip(py, "install", "--no-deps", *back)
        if freeze(py) == made and _python_matches(py, runtime):
            return py
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([str(python), "-m", "venv", str(venv)], check=True)
    _pip(py, "install", *runtime.requirements())
    record.write_text(json.dumps(freeze(py), indent=1), encoding="utf-8")
    return py


def _python_matches(py: Path, runtime: ColabRuntime) -> bool:
    return python_version(py).startswith(runtime.python + ".")


def _pip(py: Path, *args: str) -> None:
    done = subprocess.run(
        [str(py), "-m", "pip", *args[:1], "--quiet", "--disable-pip-version-check", *args[1:]],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"pip {' '.join(args[:3])} ... failed:\n{done.stderr[-3000:]}")


_FAKE_COLAB = """
import sys, types
try:
    import google.colab  # Colab's own runtime image
except ImportError:  # elsewhere: what the install cell looks for
    sys.modules["google.colab"] = types.ModuleType("google.colab")
"""


def install_cell(wheel: Path, lang: str = "en") -> str:
    """The notebook's install cell with the wheel in place of the release tag it installs."""
    cell = first_cell(lang)
    if f'"{install_spec()}"' not in cell:
        raise ValueError(f"the install cell does not install {install_spec()!r}")
    return cell.replace(install_spec(), f"beyond-accuracy @ {Path(wheel).resolve().as_uri()}")


def run_install_cell(python: Path, wheel: Path, timeout: int = 900) -> dict:
    """Run the install cell as Colab runs it (``google.colab`` imported) in a kernel of ``python``;
    returns what it printed, whether it raised, and the modules imported before it ran."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(_FAKE_COLAB),
        nbformat.v4.new_code_cell("import sys, json; print(json.dumps(sorted(sys.modules)))"),
        nbformat.v4.new_code_cell(install_cell(wheel)),
    ]
    with tempfile.TemporaryDirectory(prefix="ba-install-") as tmp:
        specs = Path(tmp) / "kernels"
        kernel_spec(python, specs)
        km = KernelManager(
            kernel_name="student",
            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)], ensure_native_kernel=False),
        )
        client = NotebookClient(nb, km=km, timeout=timeout, resources={"metadata": {"path": tmp}})
        start = time.perf_counter()
        with client.setup_kernel(cleanup_kc=True):
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index, store_history=True)
        seconds = time.perf_counter() - start
    outputs = nb.cells[2].outputs
    printed = "".join(o.get("text", "") for o in outputs if o.get("name") == "stdout")  # pip's warnings aside
    error = next((o for o in outputs if o.get("output_type") == "error"), None)
    return {
        "printed": printed,
        "error": f"{error['ename']}: {error['evalue']}" if error else "",
        "modules_before": json.loads(text_of(nb.cells[1].outputs)),
        "seconds": seconds,
    }


def _modules_of(python: Path, distributions) -> set[str]:
    """The top-level modules of these distributions in ``python``'s environment."""
    code = (
        "import importlib.metadata as m, json, sys\n"
        "names = {n.lower().replace('_', '-') for n in sys.argv[1:]}\n"
        "print(json.dumps(sorted(k for k, v in m.packages_distributions().items()"
        " if {x.lower().replace('_', '-') for x in v} & names)))"
    )
    out = subprocess.run(
        [str(python), "-c", code, *distributions], capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout))


def sanitized(text: str) -> str:
    for pattern, replacement in SANITIZE:
        text = pattern.sub(replacement, text)
    return text


def output_differences(student: Path, run: StudentRun) -> list[tuple[int, str, str]]:
    """(code cell index, stored, printed) of every code cell whose stored output in the student
    notebook differs from the run's (cells stored without output, cleared for the student, are
    not compared)."""
    stored = [text_of(c.outputs) for c in nbformat.read(student, as_version=4).cells if c.cell_type == "code"]
    return [
        (i, s, r)
        for i, (s, r) in enumerate(zip(stored, run.outputs, strict=True))
        if s.strip() and sanitized(s) != sanitized(r)
    ]


def first_difference(stored: str, printed: str) -> str:
    for a, b in zip(stored.splitlines(), printed.splitlines()):
        if a != b:
            return f"stored {a.strip()[:90]!r} / printed {b.strip()[:90]!r}"
    return f"stored {len(stored.splitlines())} lines / printed {len(printed.splitlines())}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    parser.add_argument("--labs-only", action="store_true", help="the labs, not the chapters")
    parser.add_argument(
        "--only", action="append", help="only notebooks whose name contains this (repeatable)"
    )
    parser.add_argument("--python", type=Path, help="Colab's Python (default: pyenv's or python3.13 on PATH)")
    parser.add_argument("--here", action="store_true", help="use the running Python as it is (Colab's image)")
    parser.add_argument("--wheel", type=Path, help="the package's wheel (default: built from the checkout)")
    args = parser.parse_args(argv)
    runtime = colab_runtime()
    langs = args.lang or languages()
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel 6's debugger, on Python 3.13
    out = BUILD / "colab"
    out.mkdir(parents=True, exist_ok=True)
    if args.wheel:
        wheel = args.wheel
    else:
        from tools.editions.wheel import build_wheel

        shutil.rmtree(out / "dist", ignore_errors=True)
        wheel = build_wheel(out / "dist")
    if args.here:
        py = Path(sys.executable)
    else:
        python = args.python or find_python(runtime.python)
        py = colab_environment(out, python, runtime)
    before = freeze(py)
    install = run_install_cell(py, wheel)
    after = freeze(py)
    changed = changes(before, after)
    check = subprocess.run([str(py), "-m", "pip", "check"], capture_output=True, text=True)
    widgets = runtime.packages.get("ipywidgets")
    widgets_kept = after.get("ipywidgets") == widgets
    print(f"Python {python_version(py)} ({py}); Colab's, as of {runtime.as_of}: {runtime.python}")
    print("preinstalled, as Colab's:  " + ", ".join(f"{n} {before.get(n.lower().replace('_', '-'))}"
          for n in ("numpy", "pandas", "scikit-learn", "ipywidgets", "anywidget")))  # fmt: skip
    print(f"install cell (in Colab: {install_spec()}), {install['seconds']:.0f} s; it printed:")
    print("    " + (install["printed"].strip() or "(nothing)").replace("\n", "\n    "))
    if install["error"]:
        print(f"    and stopped: {install['error']}")
    tops = {m.split(".")[0] for m in install["modules_before"]}
    print(f"modules imported before it, of the distributions it changed: "
          f"{sorted(tops & _modules_of(py, changed)) or 'none'} ({len(tops)} top-level modules imported)")  # fmt: skip
    print(
        "versions it changed:  "
        + (", ".join(f"{n} {a or '-'} -> {b or '-'}" for n, (a, b) in changed.items()) or "none")
    )
    print(
        f"ipywidgets after it: {after.get('ipywidgets')} ({'kept' if widgets_kept else 'NOT KEPT'}, Colab has {widgets})"
    )
    print(f"pip check: {(check.stdout + check.stderr).strip()}")
    failures = int(bool(install["error"])) + int(not widgets_kept) + int(check.returncode != 0)
    derive = _derive()
    rows = []
    for src in derive.sources(langs):
        page = derive.page_of(src)
        if (page.kind == "chapters" and args.labs_only) or (
            args.only and not any(o in src.stem for o in args.only)
        ):
            continue
        student = derive.publish_path(page, out / "publish")
        derive.student_notebook(src, student)
        try:
            run = run_as_student(student, src, py)
        except Exception as exc:  # report every notebook, then fail
            failures += 1
            print(f"  FAILED  {page.docname}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
            continue
        checks_ok = all("✏️" in c for c in run.student_checks) and all(
            c.strip() and all(line.startswith("✅") for line in c.strip().splitlines())
            for c in run.filled_checks
        )
        differences = [d for d in output_differences(student, run) if (page.docname, d[0]) not in EXPLAINED]
        ok = checks_ok and not differences
        failures += not ok
        rows.append({"notebook": page.docname, "seconds": round(run.seconds, 1), "checks": len(run.student_checks),
                     "checks_ok": checks_ok, "outputs_differing": len(differences)})  # fmt: skip
        print(f"  {run.seconds:6.1f} s  {page.docname:<38} checks {len(run.student_checks)}: "
              f"{'all correct' if checks_ok else 'NOT ALL CORRECT'}; outputs: "
              f"{'as stored' if not differences else f'{len(differences)} DIFFER'}", flush=True)  # fmt: skip
        for index, stored, printed in differences:
            print(f"           code cell {index}: {first_difference(stored, printed)}")
    times = [r["seconds"] for r in rows]
    if times:
        print(f"  {len(times)} notebooks: min {min(times):.1f} s, median {sorted(times)[len(times) // 2]:.1f} s, "
              f"max {max(times):.1f} s, total {sum(times):.0f} s")  # fmt: skip
    report = {"runtime_as_of": runtime.as_of, "python": python_version(py), "install": install,
              "changed": changed, "pip_check": (check.stdout + check.stderr).strip(), "runs": rows}  # fmt: skip
    (out / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
