"""The grader: build a grading notebook from a submission, run it in isolation, read the verdicts."""

from __future__ import annotations

import ast
import csv
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jupytext
import nbformat

from tools.project import ROOT, first_cell, languages

CELL_TIMEOUT = 120  # seconds for any one cell of a submission
NOTEBOOK_TIMEOUT = 600  # seconds for a whole submission
STATUSES = ("correct", "not yet", "not attempted", "bad form")
_CHECK_CALL = re.compile(r"\bcheck\.([A-Za-z_]\w*)\s*\(")

# The first cell of every grading notebook: no connection leaves the machine.
NETWORK_GUARD = """import socket as _socket

def _ba_refuse(*args, **kwargs):
    raise OSError("network access is disabled while grading")

_ba_local = ("127.0.0.1", "::1", "localhost")
_ba_connect = _socket.socket.connect

def _ba_guarded_connect(self, address, *args):
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and self.family in (_socket.AF_INET, _socket.AF_INET6) and host not in _ba_local:
        _ba_refuse()
    return _ba_connect(self, address, *args)

_socket.socket.connect = _ba_guarded_connect
_socket.create_connection = _ba_refuse
del _ba_guarded_connect"""


def lab_source(lab: int, lang: str) -> Path:
    if lang not in languages():
        raise ValueError(f"unknown language {lang!r}; the course has {', '.join(languages())}")
    found = sorted((ROOT / "labs" / lang).glob(f"{int(lab):02d}-*.md"))
    if not found:
        raise ValueError(f"no lab {lab} in labs/{lang}/")
    return found[0]


def _check_cells(nb) -> dict[str, str]:
    """Exercise name -> the source of the lab's own check cell for it."""
    out = {}
    for cell in nb.cells:
        if cell.cell_type == "code":
            for name in _CHECK_CALL.findall(cell.source):
                out.setdefault(name, cell.source)
    return out


def lab_exercises(lab: int, lang: str) -> list[dict]:
    """The checked exercises of a lab in the order of the lab: name, check-call arguments, points."""
    import importlib

    from beyond_accuracy.checks._engine import exercises_of

    nb = jupytext.read(lab_source(lab, lang))
    module = importlib.import_module(f"beyond_accuracy.checks.lab{int(lab)}")
    registry = exercises_of(module.check)
    out = []
    for name, source in _check_cells(nb).items():
        if name not in registry:
            raise ValueError(f"lab {lab} ({lang}) calls check.{name}, which the checks do not define")
        call = next(
            node
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == name
        )
        args = [ast.get_source_segment(source, a) for a in call.args]
        out.append({"name": name, "args": args, "points": registry[name].points, "source": source})
    missing = set(registry) - {e["name"] for e in out}
    if missing:
        raise ValueError(f"lab {lab} ({lang}) has no check cell for {sorted(missing)}")
    return out


def verdict_cell(lab: int, lang: str, exercise: dict, path: str, expected: bool = False) -> str:
    """The grader's cell for one exercise; with ``expected``, it also records the expected answer
    computed from the notebook's own inputs (for the answer key only: the exercise sheet)."""
    args = ", ".join(exercise["args"])
    answer = exercise["args"][0]
    inputs = ", ".join(exercise["args"][1:])
    record_expected = (
        f"\n    _ba_record['expected'] = _ba_il.import_module('beyond_accuracy.checks._engine')"
        f".exercises_of(_ba_module.check)[{exercise['name']!r}].expected({inputs})"
        if expected
        else ""
    )
    return f"""import importlib as _ba_il, json as _ba_json
_ba_record = {{"exercise": {exercise["name"]!r}, "status": "not attempted", "points": 0, "max_points": {exercise["points"]}}}
try:
    _ba_module = _ba_il.reload(_ba_il.import_module("beyond_accuracy.checks.lab{int(lab)}"))
    from beyond_accuracy.checks._engine import verdict as _ba_verdict
    try:
        {answer}
    except NameError:
        _ba_record["reason"] = "no answer"
    else:
        _ba_record = _ba_verdict(_ba_module.check, {exercise["name"]!r}, {args}, lang={lang!r}){record_expected}
except Exception as _ba_error:
    _ba_record["reason"] = "could not be checked: " + type(_ba_error).__name__ + ": " + str(_ba_error)[:200]
with open({path!r}, "a", encoding="utf-8") as _ba_file:
    _ba_file.write(_ba_json.dumps(_ba_record, default=str) + "\\n")"""


def grading_notebook(submission, lab: int, lang: str, verdicts_path: str, expected: bool = False):
    """The notebook the grader runs, and notes on what was changed in the submission.

    The language cell is the lab's own; each check cell is replaced by the grader's verdict cell;
    an exercise whose check cell was deleted is graded at the end of the notebook."""
    exercises = lab_exercises(lab, lang)
    notes = []
    cells = []
    code = [c for c in submission.cells if c.cell_type == "code"]
    if not code or not any(c.source.strip() for c in code):
        raise ValueError("empty notebook")
    canonical = first_cell(lang).strip()
    if code[0].source.strip() != canonical:
        notes.append("language cell changed (the lab's own was used)")
    cells.append(nbformat.v4.new_code_cell(NETWORK_GUARD))
    cells.append(nbformat.v4.new_code_cell(canonical))
    by_name = {e["name"]: e for e in exercises}
    graded = set()
    for cell in submission.cells:
        if cell.cell_type != "code" or cell is code[0]:
            continue
        names = [n for n in _CHECK_CALL.findall(cell.source) if n in by_name]
        if names:
            for name in names:
                if name not in graded:
                    cells.append(
                        nbformat.v4.new_code_cell(
                            verdict_cell(lab, lang, by_name[name], verdicts_path, expected)
                        )
                    )
                    graded.add(name)
            continue
        cells.append(nbformat.v4.new_code_cell(cell.source))
    for name in by_name:
        if name not in graded:
            notes.append(f"check cell of {name} missing (graded at the end)")
            cells.append(
                nbformat.v4.new_code_cell(verdict_cell(lab, lang, by_name[name], verdicts_path, expected))
            )
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb, notes


def _read_submission(path: Path):
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as error:
        raise ValueError(f"not a notebook ({type(error).__name__})") from None
    if not nb.get("cells"):
        raise ValueError("empty notebook")
    return nb


def _isolation_prefix() -> list[str]:
    """``unshare`` into a new user and network namespace when the system allows it."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-rn", "true"], capture_output=True).returncode == 0:
        return [unshare, "-rn"]
    return []


def grade_submission(
    path: Path,
    lab: int,
    lang: str,
    cell_timeout: int = CELL_TIMEOUT,
    notebook_timeout: int = NOTEBOOK_TIMEOUT,
    isolation: list[str] | None = None,
    expected: bool = False,
) -> dict:
    """Grade one submission; never raises for a bad submission. Returns the row's data."""
    path = Path(path)
    exercises = lab_exercises(lab, lang)
    row = {"file": path.name, "verdicts": {}, "notes": [], "error": ""}
    with tempfile.TemporaryDirectory(prefix="ba-grade-") as tmp:
        tmp = Path(tmp)
        verdicts_path = tmp / f"verdicts-{secrets.token_hex(8)}.jsonl"
        workdir = tmp / "work"
        workdir.mkdir()
        try:
            nb, notes = grading_notebook(_read_submission(path), lab, lang, str(verdicts_path), expected)
            row["notes"] += notes
        except ValueError as error:
            row["error"] = str(error)
            return _finish(row, exercises)
        graded = tmp / "grading.ipynb"
        nbformat.write(nb, graded)
        status = tmp / "status.json"
        env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
        prefix = _isolation_prefix() if isolation is None else isolation
        cmd = [
            *prefix,
            sys.executable,
            "-m",
            "tools.teaching.grading.run_one",
            str(graded),
            str(workdir),
            str(status),
            str(cell_timeout),
        ]
        proc = subprocess.Popen(
            cmd,
            env=env,
            cwd=tmp,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            proc.wait(timeout=notebook_timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            row["error"] = f"time limit: the notebook ran longer than {notebook_timeout} s"
        if status.exists():
            info = json.loads(status.read_text(encoding="utf-8"))
            row["error"] = row["error"] or info.get("error", "")
            row["notes"] += info.get("notes", [])
        elif not row["error"]:
            row["error"] = "the grading process stopped without a report"
        if verdicts_path.exists():
            for line in verdicts_path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                row["verdicts"][record["exercise"]] = record
    return _finish(row, exercises)


def answer_key_values(lab: int, lang: str = "en") -> dict:
    """The expected answers of a lab at its default settings, computed by the checks from the
    answer key's own objects (the answer key is executed as a submission)."""
    row = grade_submission(lab_source(lab, lang).with_suffix(".ipynb"), lab, lang, expected=True)
    if row["error"] or any(r["status"] != "correct" for r in row["verdicts"].values()):
        raise ValueError(f"the answer key of lab {lab} ({lang}) does not pass its own checks: {row}")
    return {name: record["expected"] for name, record in row["verdicts"].items()}


def _finish(row: dict, exercises: list[dict]) -> dict:
    for ex in exercises:
        record = row["verdicts"].setdefault(
            ex["name"],
            {"exercise": ex["name"], "status": "not attempted", "points": 0, "max_points": ex["points"]},
        )
        if record["status"] not in STATUSES:
            record["status"] = "not attempted"
        record["points"] = ex["points"] if record["status"] == "correct" else 0
        record["max_points"] = ex["points"]
    row["total"] = sum(r["points"] for r in row["verdicts"].values())
    row["max_total"] = sum(ex["points"] for ex in exercises)
    return row


def grade_folder(
    submissions: Path,
    lab: int,
    lang: str,
    out: Path | None = None,
    jobs: int = 2,
    cell_timeout: int = CELL_TIMEOUT,
    notebook_timeout: int = NOTEBOOK_TIMEOUT,
) -> Path:
    """Grade every ``*.ipynb`` in ``submissions``; write ``grades.csv`` and ``feedback/`` in ``out``."""
    submissions = Path(submissions)
    if not submissions.is_dir():
        raise ValueError(f"{submissions} is not a folder of submissions")
    out = Path(out) if out else submissions
    files = sorted(p for p in submissions.iterdir() if p.suffix == ".ipynb" and p.is_file())
    if not files:
        raise ValueError(f"no .ipynb file in {submissions}")
    exercises = lab_exercises(lab, lang)
    isolation = _isolation_prefix()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        rows = list(
            pool.map(
                lambda p: grade_submission(p, lab, lang, cell_timeout, notebook_timeout, isolation), files
            )
        )
    out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, exercises, out / "grades.csv")
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    for row in rows:
        (feedback / f"{Path(row['file']).stem}.md").write_text(
            feedback_text(row, exercises, lab, lang), encoding="utf-8"
        )
    return out / "grades.csv"


def write_csv(rows: list[dict], exercises: list[dict], path: Path) -> None:
    header = ["file"]
    for ex in exercises:
        header += [ex["name"], f"{ex['name']}_points"]
    header += ["total", "max_total", "reason"]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for row in rows:
            line = [row["file"]]
            for ex in exercises:
                record = row["verdicts"][ex["name"]]
                line += [record["status"], record["points"]]
            reasons = [row["error"], *row["notes"]]
            line += [row["total"], row["max_total"], "; ".join(r for r in reasons if r)]
            writer.writerow(line)


def feedback_text(row: dict, exercises: list[dict], lab: int, lang: str) -> str:
    from beyond_accuracy import term

    lines = [f"# {term('grade_feedback_title', lang).format(lab=lab)} — {row['file']}", ""]
    lines.append(f"{term('grade_total', lang)}: {row['total']} / {row['max_total']}")
    lines.append("")
    if row["error"]:
        lines += [f"{term('grade_problem', lang)} {row['error']}", ""]
    for ex in exercises:
        record = row["verdicts"][ex["name"]]
        message = record.get("message") or "✏️ " + term("check_not_attempted", lang)
        lines.append(f"- **{ex['name']}** ({record['points']} / {record['max_points']}): {message}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Grade a folder of submitted lab notebooks.")
    parser.add_argument("--lab", type=int, required=True)
    parser.add_argument("--lang", required=True)
    parser.add_argument("--submissions", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cell-timeout", type=int, default=CELL_TIMEOUT)
    parser.add_argument("--notebook-timeout", type=int, default=NOTEBOOK_TIMEOUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        path = grade_folder(
            args.submissions,
            args.lab,
            args.lang,
            args.out,
            args.jobs,
            args.cell_timeout,
            args.notebook_timeout,
        )
    except ValueError as error:
        print(f"grade: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path} and {path.parent / 'feedback'}/ in {time.perf_counter() - start:.1f} s")
    return 0
