"""The grader: run each submission where it cannot reach the grader, judge its answers outside it.

For one lab in one class language:

1. **The reference, once per lab** (:func:`lab_reference`): the lab's answer key (its MyST source)
   runs in a clean kernel with the real checks; at each check call the exercise's
   :meth:`~beyond_accuracy.checks._engine.Exercise.reference` (expected answer, recognised
   mistakes' values) is computed from the lab's own objects and taken out as plain data, with a
   fingerprint of the objects the check was passed.
2. **Each submission** (:func:`run_submission`) runs in a kernel of its own, in an empty folder,
   sandboxed (:mod:`.kernel`), cell by cell as "Restart & Run All" would (an error does not stop
   the cells after it; a cell over its time limit is interrupted and the next ones run; a kernel
   that dies is started again and the notebook run again without the cell that killed it). The
   labs' checks are replaced by recorders (:mod:`.kernel_side`): whatever a cell passes to
   ``check.<name>(...)`` is kept as plain data. After each cell the recorded values come out
   through the Jupyter protocol's ``user_expressions``, as JSON text the grader parses as data.
3. **The judgement** (:func:`judge`) happens in the grader's process, with the same exercise
   definitions the notebooks' checks use (tolerance, forms, mistakes, hints, language): the value
   passed to the exercise's last check call, else the ``answer_<name>`` variable, is compared with
   the reference. The submission's own objects are never trusted: when the objects an exercise
   read differ from the lab's, the answer is still judged against the reference and the row says
   that the inputs differed.

Nothing the submission does inside its kernel can raise its grade: it chooses the values it
hands in (as every student does), nothing else.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jupytext
import nbformat

from tools.project import ROOT, first_cell, languages

from .kernel import Kernel, Limits, Outcome, isolation, kernel_command, kernel_env, protect_grader

LABS = (1, 2, 3, 4, 5)
MAX_RESTARTS = 2
KERNEL_SIDE = Path(__file__).with_name("kernel_side.py")

# Exercise statuses (grades.csv keeps these keys; feedback and summaries show them localised).
CORRECT, NOT_YET, BAD_FORM, NOT_ATTEMPTED = "correct", "not yet", "bad form", "not attempted"
MISSING, ERROR, TIME_LIMIT, KERNEL_DIED, RENAMED = "missing", "error", "time limit", "kernel died", "renamed"
EXERCISE_STATUSES = (
    CORRECT,
    NOT_YET,
    BAD_FORM,
    NOT_ATTEMPTED,
    MISSING,
    ERROR,
    TIME_LIMIT,
    KERNEL_DIED,
    RENAMED,
)
# Row statuses: what happened to the file as a whole.
GRADED, NOT_NOTEBOOK, EMPTY, OTHER_LAB, COULD_NOT_RUN = (
    "graded",
    "not a notebook",
    "empty notebook",
    "other lab",
    "could not run",
)
ROW_STATUSES = (GRADED, NOT_ATTEMPTED, TIME_LIMIT, KERNEL_DIED, NOT_NOTEBOOK, EMPTY, OTHER_LAB, COULD_NOT_RUN)

_CHECK_CALL = re.compile(r"\bcheck\.([A-Za-z_]\w*)\s*\(")
_LAB_IMPORT = re.compile(r"beyond_accuracy\.checks(?:\.lab(\d)\b|\s+import\s+lab(\d)\b)")
_LANG_CELL = re.compile(r"^\s*LANG\s*=|set_language\s*\(", re.M)
# code that reaches for the checks' internals or the grader's files: worth a look by the instructor
_SUSPICIOUS = re.compile(
    r"_engine|exercises_of|lab_exercises|_TABLE|__closure__|_Checker__|\.expected\s*\(|verdicts?-|_ba_grader|sys\.modules"
    r"|builtins\.print\s*=|json\.dumps\s*=|importlib\.reload|\.\./"
)


# ------------------------------------------------------------------------------------------------
# The lab: its source, its exercises


def lab_source(lab: int, lang: str) -> Path:
    if lang not in languages():
        raise ValueError(f"unknown language {lang!r}; the course has {', '.join(languages())}")
    if int(lab) not in LABS:
        raise ValueError(f"no lab {lab}: the labs are {', '.join(map(str, LABS))}")
    found = sorted((ROOT / "labs" / lang).glob(f"{int(lab):02d}-*.md"))
    if not found:
        raise ValueError(f"no lab {lab} in labs/{lang}/")
    return found[0]


def exercise_definitions(lab: int) -> dict:
    """Exercise name -> :class:`~beyond_accuracy.checks._engine.Exercise` of a lab (the grader's
    own import: the definitions the notebooks' checks use)."""
    from beyond_accuracy.checks._engine import lab_exercises

    return lab_exercises(int(lab))


def _check_cells(nb) -> dict[str, str]:
    """Exercise name -> the source of the lab's own check cell for it."""
    out = {}
    for cell in nb.cells:
        if cell.cell_type == "code":
            for name in _CHECK_CALL.findall(cell.source):
                out.setdefault(name, cell.source)
    return out


@lru_cache(maxsize=16)
def _lab_exercises(lab: int, lang: str) -> tuple:
    nb = jupytext.read(lab_source(lab, lang))
    registry = exercise_definitions(lab)
    out = []
    for name, source in _check_cells(nb).items():
        if name not in registry:
            raise ValueError(f"lab {lab} ({lang}) calls check.{name}, which the checks do not define")
        call = next(
            node
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == name
        )
        args = tuple(ast.get_source_segment(source, a) for a in call.args)
        out.append({"name": name, "args": args, "points": registry[name].points, "source": source})
    missing = set(registry) - {e["name"] for e in out}
    if missing:
        raise ValueError(f"lab {lab} ({lang}) has no check cell for {sorted(missing)}")
    return tuple(out)


def lab_exercises(lab: int, lang: str) -> list[dict]:
    """The checked exercises of a lab in the order of the lab: name, check-call arguments (the
    answer variable first, then the inputs), points, the check cell's source."""
    return [dict(e, args=list(e["args"])) for e in _lab_exercises(int(lab), lang)]


def _inputs_expression(args) -> str:
    return "(" + ", ".join(args[1:]) + ",)" if len(args) > 1 else ""


@lru_cache(maxsize=16)
def _lab_names(lab: int, lang: str) -> frozenset:
    """Every name the lab's own code assigns (so a renamed answer is told apart from lab code)."""
    nb = jupytext.read(lab_source(lab, lang))
    names = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            names |= _assigned(cell.source)
    return frozenset(names)


def _assigned(source: str) -> set[str]:
    try:
        tree = ast.parse(_python_only(source))
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return found


def _python_only(source: str) -> str:
    """The cell without IPython's magics and shell lines (which ``ast`` cannot read)."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


# ------------------------------------------------------------------------------------------------
# Values out of a kernel: plain data in, Python values out


class Opaque:
    """An answer that was neither a number, a string nor a sequence (reported by type only)."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self):
        return f"<{self.type_name}>"


def decode(value):
    """A value reported by a kernel (JSON-able plain data) as the answer the checks judge."""
    if isinstance(value, dict):
        if value.get("__ellipsis__"):
            return Ellipsis
        if "__nonfinite__" in value:
            try:
                return float(str(value["__nonfinite__"]))
            except ValueError:
                return float("nan")
        return Opaque(str(value.get("__type__", "object"))[:60])
    if isinstance(value, list):
        return [decode(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return Opaque(type(value).__name__)


def _report(outcome: Outcome | None) -> dict | None:
    """The grader's report from an execute reply's user expressions (None if there is none or
    it cannot be read as the data it should be)."""
    if outcome is None:
        return None
    item = outcome.user_expressions.get("report")
    if not isinstance(item, dict) or item.get("status") != "ok":
        return None
    text = item.get("data", {}).get("text/plain")
    if not isinstance(text, str) or len(text) > 5_000_000:
        return None
    try:
        data = json.loads(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    for key in ("calls", "answers", "inputs_at_end", "names"):
        if not isinstance(data.get(key, {}), dict):
            return None
    # each exercise's calls a list, its other names a mapping: anything else is dropped
    data["calls"] = {k: v for k, v in data.get("calls", {}).items() if isinstance(v, list)}
    data["names"] = {k: v for k, v in data.get("names", {}).items() if isinstance(v, dict)}
    return data


def _setup_code(mode: str, labs: dict) -> str:
    source = KERNEL_SIDE.read_text(encoding="utf-8")
    return (
        "import sys as _s, types as _t\n"
        "_m = _t.ModuleType('_ba_grader')\n"
        f"exec(compile({source!r}, '<grader>', 'exec'), _m.__dict__)\n"
        "_s.modules['_ba_grader'] = _m\n"
        f"_m.install({mode!r}, {json.dumps({str(k): v for k, v in labs.items()})})\n"
        "del _s, _t, _m"
    )


_REPORT = "__import__('sys').modules['_ba_grader'].report({spec})"


def _report_expression(lab: int, lang: str, final: bool, names: dict | None = None) -> dict:
    spec = {"final": final, "exercises": {}}
    for ex in _lab_exercises(lab, lang):
        spec["exercises"][ex["name"]] = {
            "var": ex["args"][0],
            "inputs": _inputs_expression(ex["args"]),
            "names": sorted((names or {}).get(ex["name"], ())),
        }
    return {"report": _REPORT.format(spec=repr(spec))}


# ------------------------------------------------------------------------------------------------
# Running a notebook


@dataclass
class Cell:
    source: str
    position: int  # the code cell's position among the notebook's code cells, from 1
    language: bool = False
    history: bool = True


@dataclass
class Event:
    """Something that happened to one cell: an error, a time limit, a dead kernel."""

    kind: str  # "error", "time limit", "kernel died", "not run"
    count: int | None  # the cell's number as Jupyter shows it ([N])
    position: int
    ename: str = ""
    evalue: str = ""
    why: str = ""


@dataclass
class Run:
    report: dict = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)  # cell position -> execution count
    requests: dict[str, int] = field(default_factory=dict)  # execute request id -> cell position
    outcomes: dict[int, str] = field(default_factory=dict)  # cell position -> last status
    cpu: float = 0.0  # CPU seconds of the cells (what the limits count)
    kernel_cpu: float = 0.0  # CPU seconds of every kernel process, start-up included
    wall: float = 0.0
    heaviest: float = 0.0  # the CPU seconds of the cell that used most
    restarts: int = 0
    stopped: str = ""  # "time limit" or "kernel died" when cells were left unrun
    error: str = ""  # the grader could not run the notebook at all


@dataclass
class Sandbox:
    """Where kernels run: the prefix, the folders mounted read-only and the folders hidden (an
    empty folder in their place)."""

    read_only: tuple = ()
    level: str | None = None
    hidden: tuple = ()

    def prefix(self) -> list[str]:
        return kernel_command([ROOT, *self.read_only], self.level, list(self.hidden))

    @property
    def name(self) -> str:
        return isolation() if self.level is None else self.level


def submission_sandbox(folders, level: str | None = None) -> Sandbox:
    """The sandbox of the submissions' kernels. What a kernel needs of the course (its ``.venv``
    and ``src``) is read-only; everything else of the course (the answer keys in ``labs/`` and
    ``_build/``, the history in ``.git``, the checks' source, which the recorders replace) and the
    ``folders`` (the submissions, the grades) are hidden: a submission can read neither the answer
    key nor a classmate's notebook. A folder that holds what a kernel needs is only read-only."""
    import sys

    needed = [ROOT / ".venv", ROOT / "src", Path(sys.executable).parent, Path(tempfile.gettempdir())]
    needed = [p.resolve() for p in needed]
    course = [
        p for p in ROOT.iterdir() if p.is_dir() and not p.is_symlink() and p.name not in (".venv", "src")
    ]
    hidden, read_only = [], []
    for folder in [Path(f) for f in folders if f is not None]:
        inside = [n for n in needed if n == folder.resolve() or folder.resolve() in n.parents]
        (read_only if inside else hidden).append(folder)
    checks = ROOT / "src" / "beyond_accuracy" / "checks"
    return Sandbox(tuple(read_only), level, (*course, checks, *hidden))


def run_cells(
    cells: list[Cell],
    setup: str,
    expressions,
    limits: Limits,
    sandbox: Sandbox,
    final_expressions: dict | None = None,
) -> Run:
    """Run cells in a fresh kernel in an empty folder, as "Restart & Run All" would, past errors;
    ``expressions(cell)`` are the user expressions sent with a cell (the grader's report)."""
    run = Run()
    start = time.monotonic()
    deadline = start + limits.total_wall
    skip: set[int] = set()
    env = kernel_env()
    # the working folder is empty, alone in a folder of its own: nothing of the grader's is in it or
    # in its parent; the kernel's connection files are in another folder, removed once connected
    with (
        tempfile.TemporaryDirectory(prefix="ba-submission-") as parent,
        tempfile.TemporaryDirectory(prefix="ba-kernel-") as runtime,
    ):
        work = Path(parent) / "work"
        work.mkdir()
        attempt = 0
        while True:
            # a new folder of a random name for each kernel, made just before it starts
            folder = Path(tempfile.mkdtemp(prefix="k-", dir=runtime))
            kernel = Kernel(work, folder, limits, sandbox.prefix(), env)
            try:
                kernel.start()
            except RuntimeError as error:
                kernel.kill()
                run.error = str(error)
                break
            events: list[Event] = []
            restart = False
            try:
                setup_outcome = kernel.execute(setup, store_history=False, deadline=deadline)
                if setup_outcome.status != "ok":
                    run.error = f"the grader's set-up failed: {setup_outcome.ename} {setup_outcome.evalue}"
                    break
                for cell in cells:
                    if cell.position in skip:
                        continue
                    budget = limits.total_cpu - (run.cpu + kernel.cpu_used)
                    if budget <= 0 or time.monotonic() > deadline:
                        run.stopped = TIME_LIMIT
                        events.append(Event("not run", None, cell.position, why="total"))
                        continue
                    outcome = kernel.execute(
                        cell.source,
                        store_history=cell.history,
                        user_expressions=expressions(cell),
                        budget_cpu=budget,
                        deadline=deadline,
                    )
                    if outcome.count is not None and cell.history:
                        run.counts[cell.position] = outcome.count
                    run.requests[outcome.request] = cell.position
                    run.outcomes[cell.position] = outcome.status
                    run.heaviest = max(run.heaviest, outcome.cpu)
                    report = _report(outcome)
                    if report is not None:
                        run.report = report
                    if outcome.status == "error":
                        events.append(
                            Event("error", outcome.count, cell.position, outcome.ename, outcome.evalue)
                        )
                    elif outcome.status == "time limit":
                        events.append(Event(TIME_LIMIT, outcome.count, cell.position, why=outcome.why))
                    elif outcome.status in ("stuck", "kernel died"):
                        kind = TIME_LIMIT if outcome.status == "stuck" else KERNEL_DIED
                        events.append(
                            Event(kind, _expected_count(run, cells, cell), cell.position, why=outcome.why)
                        )
                        skip.add(cell.position)
                        if attempt < MAX_RESTARTS and time.monotonic() < deadline:
                            restart = True
                        else:
                            run.stopped = kind
                        break
                if not restart and kernel.alive() and final_expressions is not None:
                    final = kernel.execute("", store_history=False, user_expressions=final_expressions)
                    report = _report(final)
                    if report is not None:
                        run.report = report
            finally:
                run.cpu += kernel.cpu_used
                kernel.kill()
                run.kernel_cpu += kernel.total_cpu
            run.events = [e for e in run.events if e.kind in (TIME_LIMIT, KERNEL_DIED)] + events
            if not restart:
                break
            attempt += 1
            run.restarts = attempt
    run.events = _unique_events(run.events)
    run.wall = time.monotonic() - start
    return run


def _expected_count(run: Run, cells: list[Cell], cell: Cell) -> int | None:
    """The number Jupyter would show for a cell that never answered."""
    counts = [
        run.counts[c.position] for c in cells if c.position < cell.position and c.position in run.counts
    ]
    return (max(counts) + 1) if counts else (1 if cell.history else None)


def _unique_events(events: list[Event]) -> list[Event]:
    seen, out = set(), []
    for e in events:
        key = (e.kind, e.position)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return sorted(out, key=lambda e: e.position)


# ------------------------------------------------------------------------------------------------
# The reference: the answer key, once per lab


@dataclass
class ExerciseReference:
    name: str
    expected: object
    mistakes: tuple
    inputs: str  # fingerprint of the objects passed to the check, in the answer key
    n_inputs: int
    inputs_at_end: str  # fingerprint of the lab's input expressions at the end of the notebook
    answer: object  # the answer key's own answer


@dataclass
class LabReference:
    lab: int
    lang: str
    exercises: dict[str, ExerciseReference]
    wall: float  # the answer key's run: the time of running the lab once
    cpu: float
    heaviest: float = 0.0  # CPU seconds of its heaviest cell


@lru_cache(maxsize=16)
def lab_reference(lab: int, lang: str, limits: Limits | None = None) -> LabReference:
    """Run the lab's answer key once in a clean kernel with the real checks and capture, at each
    check call, the exercise's reference from the lab's own objects (see the module's docstring)."""
    from beyond_accuracy.checks._engine import Reference

    lab = int(lab)
    exercises = _lab_exercises(lab, lang)
    nb = jupytext.read(lab_source(lab, lang))
    cells, position = [], 0
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.strip():
            position += 1
            cells.append(Cell(cell.source, position))
    names = [e["name"] for e in exercises]
    run = run_cells(
        cells,
        _setup_code("reference", {lab: names}),
        lambda cell: {},
        limits or Limits(cell_cpu=1800, total_cpu=7200, idle=600),
        Sandbox(),
        final_expressions=_report_expression(lab, lang, final=True),
    )
    problems = list(run.events)
    if run.error or problems or run.stopped:
        detail = run.error or "; ".join(
            f"{e.kind} in cell [{e.count}] {e.ename}: {e.evalue}" for e in problems
        )
        raise RuntimeError(f"the answer key of lab {lab} ({lang}) did not run: {detail}")
    definitions = exercise_definitions(lab)
    out = {}
    for ex in exercises:
        calls = run.report.get("calls", {}).get(ex["name"])
        if not calls:
            raise RuntimeError(f"the answer key of lab {lab} ({lang}) never called check.{ex['name']}")
        call = calls[-1]
        mistakes = tuple((str(k), None if v is None else decode(v)) for k, v in call.get("mistakes", []))
        reference = ExerciseReference(
            ex["name"],
            decode(call["expected"]),
            mistakes,
            str(call["inputs"]),
            int(call["n_inputs"]),
            str(run.report.get("inputs_at_end", {}).get(ex["name"], "")),
            decode(call["answer"]),
        )
        verdict = definitions[ex["name"]].judge(
            reference.answer, Reference(reference.expected, reference.mistakes)
        )
        if verdict.status != CORRECT:
            raise RuntimeError(
                f"the answer key of lab {lab} ({lang}) fails its own check {ex['name']}: {verdict}"
            )
        out[ex["name"]] = reference
    return LabReference(lab, lang, out, run.wall, run.kernel_cpu, run.heaviest)


def answer_key_values(lab: int, lang: str = "en") -> dict:
    """The expected answers of a lab at its default settings (from :func:`lab_reference`)."""
    reference = lab_reference(int(lab), lang)
    return {name: ref.expected for name, ref in reference.exercises.items()}


# ------------------------------------------------------------------------------------------------
# A submission: plan, run, judge


@dataclass
class Plan:
    """How a submission is run: its code cells, where its check calls are, what it may have renamed."""

    cells: list[Cell]
    check_positions: dict[str, list[int]]  # exercise -> positions of the cells calling its check
    candidates: dict[str, set]  # exercise -> names that may hold a renamed answer
    language_changed: bool = False
    suspicious: list[tuple[int, str]] = field(default_factory=list)  # (position, what)
    code_hash: str = ""


def plan(nb, lab: int, lang: str) -> Plan:
    """The cells to run: every non-empty code cell in order, the language cell replaced by the
    lab's own (the class language; a changed one is noted)."""
    exercises = {e["name"]: e for e in _lab_exercises(lab, lang)}
    canonical = first_cell(lang).strip()
    code = [c for c in nb.cells if c.get("cell_type") == "code" and str(c.get("source", "")).strip()]
    language = next((c for c in code if _LANG_CELL.search(str(c.source))), None)
    cells = []
    changed = False
    if language is None:
        cells.append(Cell(canonical, 0, language=True, history=False))
        changed = True
    checks: dict[str, list[int]] = {}
    suspicious = []
    for position, cell in enumerate(code, start=1):
        source = str(cell.source)
        if cell is language:
            changed = source.strip() != canonical
            cells.append(Cell(canonical, position, language=True))
            continue
        cells.append(Cell(source, position))
        for name in _CHECK_CALL.findall(source):
            if name in exercises:
                checks.setdefault(name, []).append(position)
        for match in _SUSPICIOUS.finditer(source):
            suspicious.append((position, match.group(0)))
    lab_names = _lab_names(lab, lang)
    by_position = {c.position: c.source for c in cells}
    candidates: dict[str, set] = {}
    for name, positions in checks.items():
        var = exercises[name]["args"][0]
        last = positions[-1]
        found = set()
        for source in (by_position.get(last, ""), by_position.get(last - 1, "")):
            found |= _assigned(source) - lab_names - {var, "check"}
        for position in positions:
            found |= {a for a in _first_arguments(by_position[position], name) if a not in (var, "check")}
        candidates[name] = set(sorted(found)[:8])
    digest = hashlib.sha256("\n".join(c.source for c in cells if not c.language).encode()).hexdigest()
    return Plan(cells, checks, candidates, changed, suspicious, digest)


def _first_arguments(source: str, name: str) -> list[str]:
    """The names passed as the answer to ``check.<name>(...)`` in a cell (in source order)."""
    try:
        tree = ast.parse(_python_only(source))
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == name
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "check"
            and node.args
            and isinstance(node.args[0], ast.Name)
        ):
            found.append((node.lineno, node.col_offset, node.args[0].id))
    return [n for *_, n in sorted(found)]


def other_lab(nb, lab: int) -> int | None:
    """The lab a notebook belongs to, when it imports another lab's checks and not this one's."""
    imported = set()
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            for a, b in _LAB_IMPORT.findall(str(cell.get("source", ""))):
                imported.add(int(a or b))
    if imported and int(lab) not in imported:
        return min(imported)
    return None


class RunCache:
    """Notebooks with the same code run once (a class hands in many copies of the blank notebook)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.futures: dict[str, Future] = {}

    def get(self, key: str, compute):
        with self.lock:
            future = self.futures.get(key)
            owner = future is None
            if owner:
                future = self.futures[key] = Future()
        if owner:
            try:
                future.set_result(compute())
            except BaseException as error:
                future.set_exception(error)
                raise
        return future.result(), not owner


def run_submission(
    nb, lab: int, lang: str, limits: Limits, sandbox: Sandbox, cache: RunCache | None = None
) -> tuple[Plan, Run, bool]:
    """Plan and run a submission; the last item says whether the run was shared with an
    identical notebook's."""
    the_plan = plan(nb, lab, lang)
    all_names = {n: [e["name"] for e in _lab_exercises(n, lang)] for n in LABS}
    per_cell = _report_expression(lab, lang, final=False, names=the_plan.candidates)
    final = _report_expression(lab, lang, final=True, names=the_plan.candidates)

    def compute():
        return run_cells(
            the_plan.cells,
            _setup_code("submission", all_names),
            lambda cell: per_cell if cell.history or cell.language else {},
            limits,
            sandbox,
            final_expressions=final,
        )

    if cache is None:
        return the_plan, compute(), False
    key = f"{the_plan.code_hash}:{the_plan.language_changed}"
    run, shared = cache.get(key, compute)
    return the_plan, run, shared


@dataclass
class Verdict:
    """One exercise of one submission, as the grader judged it."""

    name: str
    status: str
    points: int
    max_points: int
    mistake: str = ""  # the recognised mistake's key
    reason: str = ""  # what was wrong with the form
    source: str = ""  # where the answer came from: "check" or "variable"
    inputs_differed: bool = False
    renamed: str = ""  # the name the answer was found under
    cell: int | None = None  # the cell an error, a time limit or a dead kernel is about
    error: str = ""  # "NameError: name 'x' is not defined"
    why: str = ""  # a time limit's cause: "cpu", "idle", "total"
    would: str = ""  # for a renamed answer the check never received: the verdict it would get
    message: str = ""  # the engine's feedback, in the class language


def judge(the_plan: Plan, run: Run, lab: int, lang: str, reference: LabReference) -> list[Verdict]:
    """Each exercise's verdict, judged here against the reference (never inside the kernel)."""
    from beyond_accuracy.checks._engine import Reference

    definitions = exercise_definitions(lab)
    report = run.report or {}
    out = []
    for ex in _lab_exercises(lab, lang):
        name, var = ex["name"], ex["args"][0]
        definition, ref = definitions[name], reference.exercises[name]
        verdict = Verdict(name, MISSING, 0, definition.points)
        calls = [c for c in report.get("calls", {}).get(name, []) if isinstance(c, dict) and "answer" in c]
        answers = report.get("answers", {})
        value, found = None, False
        if calls and not _is_ellipsis(calls[-1]["answer"]):
            call = calls[-1]
            value, found, verdict.source = call["answer"], True, "check"
            verdict.inputs_differed = call.get("inputs") != ref.inputs or call.get("n_inputs") != ref.n_inputs
            verdict.renamed = _renamed_in_call(the_plan, run, call, name, var)
        elif name in answers:
            value, found, verdict.source = answers[name], True, "variable"
            verdict.inputs_differed = _differs_at_end(report, ref, name)
        elif calls:  # only "..." was ever passed to the check
            value, found, verdict.source = calls[-1]["answer"], True, "check"
        if found:
            result = definition.judge(decode(value), Reference(ref.expected, ref.mistakes))
        else:
            result = None
            renamed = _renamed_value(report, name)
            if renamed is not None:
                candidate, candidate_value = renamed
                would = definition.judge(decode(candidate_value), Reference(ref.expected, ref.mistakes))
                verdict.status, verdict.renamed = RENAMED, candidate
                verdict.would = would.status  # what the renamed value would get, for the instructor
            _locate_problem(verdict, the_plan, run, name)
        if result is not None:
            verdict.status = result.status
            verdict.mistake = result.mistake or ""
            verdict.reason = result.reason or ""
            verdict.message = definition.message(result, lang)
            if result.status == NOT_ATTEMPTED:
                verdict.inputs_differed = False
        verdict.points = definition.points if verdict.status == CORRECT else 0
        out.append(verdict)
    return out


def _is_ellipsis(value) -> bool:
    return isinstance(value, dict) and bool(value.get("__ellipsis__"))


def _differs_at_end(report: dict, ref: ExerciseReference, name: str) -> bool:
    found = report.get("inputs_at_end", {}).get(name)
    return found is not None and found != ref.inputs_at_end


def _renamed_in_call(the_plan: Plan, run: Run, call: dict, name: str, var: str) -> str:
    """The variable passed to the check instead of ``answer_<name>``, if the student renamed it."""
    position = run.requests.get(str(call.get("request", "")))
    if position is None:
        return ""
    source = next((c.source for c in the_plan.cells if c.position == position), "")
    args = _first_arguments(source, name)
    return args[-1] if args and args[-1] != var else ""


def _renamed_value(report: dict, name: str):
    """A renamed answer the check never received: the one candidate holding a plain answer."""
    values = report.get("names", {}).get(name, {})
    usable = {
        k: v
        for k, v in values.items()
        if not (isinstance(v, dict) and "__type__" in v) and not _is_ellipsis(v)
    }
    if len(usable) == 1:
        return next(iter(usable.items()))
    return None


def _locate_problem(verdict: Verdict, the_plan: Plan, run: Run, name: str) -> None:
    """Why an exercise has no answer: its check cell raised, was stopped, or never ran."""
    positions = the_plan.check_positions.get(name, [])
    events = {e.position: e for e in run.events}
    for position in reversed(positions):
        event = events.get(position)
        if event is None:
            continue
        status = {"error": ERROR, TIME_LIMIT: TIME_LIMIT, KERNEL_DIED: KERNEL_DIED, "not run": TIME_LIMIT}[
            event.kind
        ]
        if verdict.status != RENAMED:
            verdict.status = status
        verdict.cell = event.count
        verdict.error = f"{event.ename}: {event.evalue}" if event.ename else ""
        verdict.why = event.why
        return
    if positions and run.stopped and any(p not in run.outcomes for p in positions):
        if verdict.status != RENAMED:
            verdict.status = run.stopped
        return


# ------------------------------------------------------------------------------------------------
# A row: one file


@dataclass
class Row:
    """One file of the submissions folder and what the grader made of it."""

    file: str  # its path inside the submissions folder
    student: str = ""
    student_id: str = ""
    layout: str = ""
    status: str = GRADED
    verdicts: list[Verdict] = field(default_factory=list)
    total: int = 0
    max_total: int = 0
    events: list[Event] = field(default_factory=list)
    language_changed: bool = False
    suspicious: list = field(default_factory=list)
    detail: str = ""  # for a file that was not graded: what it is
    other_lab: int | None = None
    duplicate_of: str = ""
    restarts: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    code_hash: str = ""


def read_notebook(path: Path):
    """The notebook in a file, or a ValueError whose message says what the file is: ``empty``,
    ``pdf``, ``zip``, ``text`` or ``other:<suffix>`` (see :func:`.report.kind_text`)."""
    path = Path(path)
    data = path.read_bytes()
    if not data.strip():
        raise ValueError("empty")
    if data[:5] == b"%PDF-":
        raise ValueError("pdf")
    if data[:4] == b"PK\x03\x04":
        raise ValueError("zip")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"other:{path.suffix.lower() or '?'}") from None
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception:
        raise ValueError("text") from None
    if not isinstance(nb.get("cells"), list):
        raise ValueError("text")
    return nb


def grade_file(
    path: Path,
    lab: int,
    lang: str,
    reference: LabReference | None = None,
    limits: Limits | None = None,
    sandbox: Sandbox | None = None,
    row: Row | None = None,
    reference_future=None,
    cache: RunCache | None = None,
) -> Row:
    """Grade one file (never raises for a bad submission)."""
    limits = limits or Limits()
    sandbox = sandbox or Sandbox()
    row = row or Row(Path(path).name)
    definitions = exercise_definitions(lab)
    exercises = _lab_exercises(lab, lang)
    row.max_total = sum(definitions[e["name"]].points for e in exercises)
    try:
        nb = read_notebook(path)
    except ValueError as error:
        row.status, row.detail = NOT_NOTEBOOK, str(error)
        return _empty_verdicts(row, exercises, definitions)
    if not any(c.get("cell_type") == "code" and str(c.get("source", "")).strip() for c in nb.cells):
        row.status = EMPTY
        return _empty_verdicts(row, exercises, definitions)
    other = other_lab(nb, lab)
    if other is not None:
        row.status, row.other_lab = OTHER_LAB, other
        return _empty_verdicts(row, exercises, definitions)
    the_plan, run, shared = run_submission(nb, lab, lang, limits, sandbox, cache)
    row.language_changed = the_plan.language_changed
    row.suspicious = the_plan.suspicious
    row.code_hash = the_plan.code_hash
    row.events, row.restarts = run.events, run.restarts
    row.wall, row.cpu = (0.0, 0.0) if shared else (run.wall, run.kernel_cpu)
    if run.error:
        row.status, row.detail = COULD_NOT_RUN, run.error
        return _empty_verdicts(row, exercises, definitions)
    if reference is None:
        reference = reference_future.result() if reference_future is not None else lab_reference(lab, lang)
    row.verdicts = judge(the_plan, run, lab, lang, reference)
    row.total = sum(v.points for v in row.verdicts)
    kinds = {e.kind for e in run.events}
    if KERNEL_DIED in kinds or run.stopped == KERNEL_DIED:
        row.status = KERNEL_DIED
    elif TIME_LIMIT in kinds or "not run" in kinds or run.stopped:
        row.status = TIME_LIMIT
    elif all(v.status in (NOT_ATTEMPTED, MISSING) for v in row.verdicts) and "error" not in kinds:
        row.status = NOT_ATTEMPTED
    return row


def _empty_verdicts(row: Row, exercises, definitions) -> Row:
    row.verdicts = [Verdict(e["name"], MISSING, 0, definitions[e["name"]].points) for e in exercises]
    row.total = 0
    return row


def grade_folder(
    submissions: Path,
    lab: int,
    lang: str,
    out: Path | None = None,
    jobs: int = 2,
    limits: Limits | None = None,
    roster: Path | None = None,
    progress=print,
    lms_title: str | None = None,
) -> Path:
    """Grade every file of a submissions folder (or zip); write grades.csv, the class summary,
    the LMS exports and each student's feedback into ``out``. Returns the path of grades.csv."""
    from . import report as reporting
    from .submissions import collect

    lab = int(lab)
    lab_source(lab, lang)  # a clear error for an unknown lab or language, before any work
    protect_grader()
    submissions = Path(submissions)
    out = Path(out) if out else default_out(submissions)
    limits = limits or Limits()
    found = collect(submissions, exclude=[out])
    if not found.items:
        raise ValueError(f"no file in {submissions}")
    out.mkdir(parents=True, exist_ok=True)
    sandbox = submission_sandbox((found.root, out))
    total = len(found.items)
    progress(
        f"grading lab {lab} ({lang}): {total} file(s) in {submissions}, {max(1, jobs)} at a time, "
        f"sandbox: {sandbox.name}"
    )
    if sandbox.name != "namespaces":
        progress(
            "warning: this system does not allow `unshare -rm` (user and mount namespaces): the "
            "submissions' code can write your files (the grades are still judged outside it); "
            "grade in a container or a throwaway account"
        )
    start, own_cpu = time.monotonic(), _own_cpu()
    done = [0]
    cache = RunCache()

    def one(item):
        row = Row(item.rel, item.student, item.student_id, item.layout)
        try:
            row = grade_file(item.path, lab, lang, None, limits, sandbox, row, reference_future, cache)
        except Exception as error:  # one file the grader cannot handle never costs the others their row
            if reference_future.done() and reference_future.exception() is not None:
                raise
            row.status, row.detail = (
                COULD_NOT_RUN,
                f"the grader failed: {type(error).__name__}: {error}"[:300],
            )
            row = _empty_verdicts(row, lab_exercises(lab, lang), exercise_definitions(lab))
        done[0] += 1
        progress(f"[{done[0]}/{total}] {item.rel}: {reporting.short_status(row)} ({row.wall:.0f} s)")
        return row

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        reference_future = pool.submit(lab_reference, lab, lang)
        rows = list(pool.map(one, found.items))
        reference = reference_future.result()
    mark_duplicates(rows)
    wall = time.monotonic() - start
    grader_cpu = _own_cpu() - own_cpu
    path = reporting.write_all(
        rows,
        lab,
        lang,
        out,
        reference=reference,
        found=found,
        roster=roster,
        wall=wall,
        jobs=max(1, jobs),
        limits=limits,
        lms_title=lms_title,
    )
    timing = {
        "files": len(rows),
        "jobs": max(1, jobs),
        "wall": round(wall, 2),
        "kernels_cpu": round(sum(r.cpu for r in rows), 2),
        "grader_cpu": round(grader_cpu, 2),
        "answer_key": {"wall": round(reference.wall, 2), "cpu": round(reference.cpu, 2)},
        "sandbox": sandbox.name,
    }
    (out / "timing.json").write_text(json.dumps(timing, indent=1) + "\n", encoding="utf-8")
    progress(
        f"wrote {path}, the summary, the LMS files and feedback/ in {out} "
        f"({wall:.0f} s; the answer key ran in {reference.wall:.0f} s, {reference.cpu:.0f} s of CPU, "
        f"its heaviest cell {reference.heaviest:.1f} s)"
    )
    return path


def _own_cpu() -> float:
    """CPU seconds of this process (every thread)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def default_out(submissions: Path) -> Path:
    """Where the grades go by default: next to the submissions, never inside them."""
    submissions = Path(submissions)
    name = submissions.stem if submissions.suffix.lower() == ".zip" else submissions.name
    return submissions.parent / f"{name}-grades"


def mark_duplicates(rows: list[Row]) -> None:
    """Notebooks with the same code and at least one answer: each names the first of its group."""
    first: dict[str, str] = {}
    for row in rows:
        if not row.code_hash or row.status not in (GRADED, TIME_LIMIT, KERNEL_DIED):
            continue
        if all(v.status in (NOT_ATTEMPTED, MISSING) for v in row.verdicts):
            continue
        if row.code_hash in first:
            row.duplicate_of = first[row.code_hash]
        else:
            first[row.code_hash] = row.file


def main(argv=None) -> int:
    import argparse
    import sys

    parser = argparse.ArgumentParser(
        description="Grade a folder of submitted lab notebooks (see tools/teaching/grading/__init__.py)."
    )
    parser.add_argument("--lab", type=int, required=True)
    parser.add_argument("--lang", required=True)
    parser.add_argument("--submissions", type=Path, required=True, help="a folder or a .zip of submissions")
    parser.add_argument("--out", type=Path, default=None, help="default: <submissions>-grades next to it")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--roster", type=Path, default=None, help="a CSV of the class (names, ids, emails)")
    parser.add_argument("--lms-title", default=None, help="the assignment's column in the LMS exports")
    parser.add_argument("--cell-cpu", type=float, default=Limits.cell_cpu, help="CPU seconds per cell")
    parser.add_argument("--idle", type=float, default=Limits.idle, help="seconds a cell may wait idle")
    parser.add_argument("--total-cpu", type=float, default=Limits.total_cpu, help="CPU seconds per notebook")
    parser.add_argument(
        "--total-wall", type=float, default=Limits.total_wall, help="wall seconds per notebook"
    )
    args = parser.parse_args(argv)
    try:
        limits = Limits(
            cell_cpu=args.cell_cpu, idle=args.idle, total_cpu=args.total_cpu, total_wall=args.total_wall
        )
        grade_folder(
            args.submissions,
            args.lab,
            args.lang,
            args.out,
            args.jobs,
            limits,
            roster=args.roster,
            progress=lambda text: print(text, flush=True),
            lms_title=args.lms_title,
        )
    except (ValueError, RuntimeError) as error:
        print(f"grade: {error}", file=sys.stderr)
        return 2
    return 0
