"""What the grader writes next to the submissions: grades, a class summary, LMS exports, feedback.

In the output folder (``<submissions>-grades/`` unless ``OUT`` says otherwise):

- ``grades.csv``: one row per file of the submissions folder. ``status`` is the file's (see
  :data:`~.core.ROW_STATUSES`); per exercise its status (see :data:`~.core.EXERCISE_STATUSES`),
  its points and a ``_detail`` column with what the grader knows (the recognised mistake's key,
  what was wrong with the form, the cell that raised and its error, ``inputs differed``, the name
  a renamed answer was found under); ``flags`` lists what the instructor may want to look at;
  ``reason`` says it in a sentence, in the class's language.
- ``summary.csv``, ``summary.md``, ``summary.html``: per exercise, how many got it right and the
  most common mistakes (as the checks name them), the files by status, the files to look at.
- ``moodle-grades.csv`` (Moodle's offline grading worksheet: Identifier, Full name, Email address,
  Grade, Maximum Grade, Last modified (grade), Feedback comments) and ``canvas-grades.csv``
  (Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, the assignment),
  one row per student, joined to the roster when one is given.
- ``feedback/<student>.md`` and ``.html``: each student's points and, per exercise, the check's
  own feedback in the class's language, or why there was no answer.
- ``timing.json``: the grading's wall time, the CPU seconds of the kernels (the answer key's run
  included) and of the grader, the answer key's own run, the sandbox used.
"""

from __future__ import annotations

import csv
import html
import re
import statistics
import unicodedata
from collections import Counter
from pathlib import Path

from beyond_accuracy import term

from .core import (
    BAD_FORM,
    CORRECT,
    COULD_NOT_RUN,
    EMPTY,
    ERROR,
    EXERCISE_STATUSES,
    GRADED,
    KERNEL_DIED,
    MISSING,
    NOT_ATTEMPTED,
    NOT_NOTEBOOK,
    NOT_YET,
    OTHER_LAB,
    RENAMED,
    ROW_STATUSES,
    TIME_LIMIT,
    LabReference,
    Row,
    exercise_definitions,
    lab_exercises,
)

_STATUS_TERM = {
    CORRECT: "grade_status_correct",
    NOT_YET: "grade_status_not_yet",
    BAD_FORM: "grade_status_bad_form",
    NOT_ATTEMPTED: "grade_status_not_attempted",
    MISSING: "grade_status_missing",
    ERROR: "grade_status_error",
    TIME_LIMIT: "grade_status_time_limit",
    KERNEL_DIED: "grade_status_kernel_died",
    RENAMED: "grade_status_renamed",
    GRADED: "grade_row_graded",
    NOT_NOTEBOOK: "grade_row_not_notebook",
    EMPTY: "grade_row_empty",
    OTHER_LAB: "grade_row_other_lab",
    COULD_NOT_RUN: "grade_row_could_not_run",
}


def status_label(status: str, lang: str, cell=None) -> str:
    return term(_STATUS_TERM[status], lang).format(cell=cell if cell is not None else "?")


def short_status(row: Row) -> str:
    """One line for the progress log."""
    if row.status in (NOT_NOTEBOOK, EMPTY, OTHER_LAB, COULD_NOT_RUN):
        return f"{row.status}" + (f" ({row.detail})" if row.detail else "")
    counts = Counter(v.status for v in row.verdicts)
    parts = ", ".join(f"{n} {s}" for s, n in counts.items())
    return f"{row.total}/{row.max_total} points ({parts})" + (
        f", {row.status}" if row.status != GRADED else ""
    )


# ------------------------------------------------------------------------------------------------
# Per exercise: the detail (for the CSV) and the message (for the student)


def detail(v) -> str:
    parts = []
    if v.mistake:
        parts.append(f"mistake: {v.mistake}")
    if v.reason:
        parts.append(f"form: {v.reason}")
    if v.status in (ERROR, TIME_LIMIT, KERNEL_DIED) and v.cell is not None:
        parts.append(
            f"cell [{v.cell}]" + (f": {v.error}" if v.error else "") + (f" ({v.why})" if v.why else "")
        )
    if v.renamed:
        parts.append(f"renamed: {v.renamed}")
    if v.would:
        parts.append(f"as an answer: {v.would}")
    if v.inputs_differed:
        parts.append("inputs differed")
    if v.source == "variable" and v.status != NOT_ATTEMPTED:
        parts.append("no check call: the variable was graded")
    return "; ".join(parts)


def message(v, var: str, lang: str, limits_cpu: float = 0.0, limits_idle: float = 0.0) -> list[str]:
    """The sentences a student reads about one exercise (the first is the verdict)."""
    out = []
    if v.status in (CORRECT, NOT_YET, BAD_FORM, NOT_ATTEMPTED) and v.message:
        out.append(v.message)
    elif v.status == RENAMED:
        out.append("✏️ " + term("grade_hint_renamed", lang).format(var=var, found=v.renamed))
    elif v.status == ERROR:
        out.append(
            "⚠️ " + term("grade_hint_error", lang).format(cell=v.cell, error=v.error.split(":")[0] or "?")
        )
    elif v.status == TIME_LIMIT:
        out.append("⏱️ " + _time_text(v.why, v.cell, lang, limits_cpu, limits_idle))
    elif v.status == KERNEL_DIED:
        out.append("⚠️ " + term("grade_hint_stopped", lang).format(cell=v.cell if v.cell is not None else "?"))
    else:
        out.append("✏️ " + term("grade_hint_missing", lang).format(name=v.name, var=var))
    if v.renamed and v.status != RENAMED:
        out.append(term("grade_note_renamed", lang).format(found=v.renamed, var=var))
    if v.inputs_differed:
        out.append(term("grade_note_inputs", lang))
    return out


def kind_text(kind: str, lang: str) -> str:
    """What a file that is not a notebook is, in words (from :func:`.core.read_notebook`)."""
    if kind.startswith("other:"):
        return term("grade_kind_other", lang).format(suffix=kind.partition(":")[2])
    if kind in ("empty", "pdf", "zip", "text"):
        return term(f"grade_kind_{kind}", lang)
    return kind


def _time_text(why: str, cell, lang: str, cpu: float, idle: float) -> str:
    cell = cell if cell is not None else "?"
    if why == "idle":
        return term("grade_hint_time_idle", lang).format(cell=cell, seconds=_seconds(idle))
    if why == "total":
        return term("grade_hint_time_total", lang).format(cell=cell, seconds=_seconds(cpu))
    return term("grade_hint_time_cpu", lang).format(cell=cell, seconds=_seconds(cpu))


def _seconds(value: float) -> str:
    return str(int(round(value)))


def row_notes(row: Row, lab: int, lang: str, limits=None) -> list[str]:
    """The sentences about the file as a whole (errors elsewhere, time limits, the language cell)."""
    notes = []
    if row.status == NOT_NOTEBOOK:
        return [term("grade_not_notebook", lang).format(what=kind_text(row.detail, lang))]
    if row.status == EMPTY:
        return [term("grade_empty_notebook", lang)]
    if row.status == OTHER_LAB:
        return [term("grade_other_lab", lang).format(other=row.other_lab, lab=lab)]
    if row.status == COULD_NOT_RUN:
        return [term("grade_could_not_run", lang).format(detail=row.detail)]
    about = {v.cell for v in row.verdicts if v.cell is not None}
    errors = [e for e in row.events if e.kind == "error" and e.count not in about]
    if errors:
        cells = ", ".join(f"[{e.count}] {e.ename}" for e in errors[:8]) + (" …" if len(errors) > 8 else "")
        notes.append(term("grade_errors_elsewhere", lang).format(cells=cells))
    cpu = limits.cell_cpu if limits else 0.0
    idle = limits.idle if limits else 0.0
    total = limits.total_cpu if limits else 0.0
    for e in row.events:
        if e.kind == TIME_LIMIT and e.count not in about:
            notes.append("⏱️ " + _time_text(e.why, e.count, lang, total if e.why == "total" else cpu, idle))
        elif e.kind == KERNEL_DIED:
            notes.append(
                "⚠️ "
                + term("grade_hint_kernel_died", lang).format(cell=e.count if e.count is not None else "?")
            )
    if row.language_changed:
        notes.append(term("grade_language_changed", lang))
    return notes


def flags(row: Row) -> list[str]:
    out = []
    if any(v.inputs_differed for v in row.verdicts):
        out.append("inputs differed")
    if any(v.renamed for v in row.verdicts):
        out.append("renamed")
    if row.suspicious:
        out.append("suspicious code")
    if row.duplicate_of:
        out.append("duplicate")
    if row.language_changed:
        out.append("language changed")
    if row.restarts:
        out.append("kernel restarted")
    return out


# ------------------------------------------------------------------------------------------------
# grades.csv


def write_grades(rows: list[Row], lab: int, lang: str, path: Path, limits=None) -> None:
    exercises = lab_exercises(lab, lang)
    header = ["student", "student_id", "file", "status"]
    for ex in exercises:
        header += [ex["name"], f"{ex['name']}_points", f"{ex['name']}_detail"]
    header += ["total", "max_total", "flags", "reason"]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for row in rows:
            by_name = {v.name: v for v in row.verdicts}
            line = [row.student, row.student_id, row.file, row.status]
            for ex in exercises:
                v = by_name[ex["name"]]
                line += [v.status, v.points, detail(v)]
            reason = row_notes(row, lab, lang, limits)
            if row.suspicious:
                what = ", ".join(sorted({w for _, w in row.suspicious}))
                reason.append(term("grade_summary_suspicious", lang).format(what=what))
            if row.duplicate_of:
                reason.append(term("grade_summary_duplicate", lang).format(other=row.duplicate_of))
            line += [row.total, row.max_total, "; ".join(flags(row)), " ".join(reason)]
            writer.writerow(line)


# ------------------------------------------------------------------------------------------------
# Feedback


def feedback_blocks(row: Row, lab: int, lang: str, limits=None) -> dict:
    exercises = lab_exercises(lab, lang)
    by_name = {v.name: v for v in row.verdicts}
    items = []
    if row.status not in (NOT_NOTEBOOK, EMPTY, OTHER_LAB, COULD_NOT_RUN):
        for ex in exercises:
            v = by_name[ex["name"]]
            cpu = limits.cell_cpu if limits else 0.0
            if v.why == "total" and limits:
                cpu = limits.total_cpu
            items.append(
                (
                    ex["name"],
                    v.points,
                    v.max_points,
                    message(v, ex["args"][0], lang, cpu, limits.idle if limits else 0),
                )
            )
    title = term("grade_feedback_title", lang).format(lab=lab)
    return {
        "title": f"{title} — {row.student or row.file}",
        "file": row.file,
        "points": f"{term('grade_total', lang)}: {row.total} / {row.max_total}",
        "items": items,
        "notes": row_notes(row, lab, lang, limits),
    }


def feedback_markdown(blocks: dict, lang: str) -> str:
    lines = [
        f"# {blocks['title']}",
        "",
        f"{term('grade_file', lang)}: `{blocks['file']}`",
        "",
        blocks["points"],
        "",
    ]
    for name, points, max_points, sentences in blocks["items"]:
        lines.append(f"- **{name}** ({points} / {max_points}): {sentences[0]}")
        lines += [f"  - {s}" for s in sentences[1:]]
    if blocks["notes"]:
        lines += ["", f"## {term('grade_feedback_notes', lang)}", ""]
        lines += [f"- {n}" for n in blocks["notes"]]
    return "\n".join(lines) + "\n"


def _inline(text: str) -> str:
    """Markdown's ``code`` and **bold** as HTML (the only inline marks the messages use)."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)


_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}"
    "code{background:#f2f2f2;padding:0 .2em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}"
    "@media (prefers-color-scheme:dark){body{background:#111;color:#eee}code{background:#333}}"
)


def _page(title: str, body: str, lang: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def feedback_html(blocks: dict, lang: str) -> str:
    body = [f"<h1>{_inline(blocks['title'])}</h1>"]
    body.append(f"<p>{_inline(term('grade_file', lang))}: <code>{html.escape(blocks['file'])}</code></p>")
    body.append(f"<p><strong>{_inline(blocks['points'])}</strong></p>")
    if blocks["items"]:
        body.append("<ul>")
        for name, points, max_points, sentences in blocks["items"]:
            more = "".join(f"<li>{_inline(s)}</li>" for s in sentences[1:])
            body.append(
                f"<li><strong><code>{html.escape(name)}</code></strong> ({points} / {max_points}): "
                f"{_inline(sentences[0])}" + (f"<ul>{more}</ul>" if more else "") + "</li>"
            )
        body.append("</ul>")
    if blocks["notes"]:
        body.append(f"<h2>{_inline(term('grade_feedback_notes', lang))}</h2><ul>")
        body += [f"<li>{_inline(n)}</li>" for n in blocks["notes"]]
        body.append("</ul>")
    return _page(blocks["title"], "\n".join(body) + "\n", lang)


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")
    return text[:80] or "submission"


def feedback_names(rows: list[Row]) -> list[str]:
    """A file name per row: the student's, made unique (two files of one student: -2, -3…)."""
    seen: Counter = Counter()
    out = []
    for row in rows:
        base = slug(row.student or Path(row.file).stem)
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


# ------------------------------------------------------------------------------------------------
# Summary


def summary_rows(rows: list[Row], lab: int, lang: str) -> list[dict]:
    definitions = exercise_definitions(lab)
    out = []
    run = [r for r in rows if r.status not in (NOT_NOTEBOOK, EMPTY, OTHER_LAB, COULD_NOT_RUN)]
    for ex in lab_exercises(lab, lang):
        name = ex["name"]
        verdicts = [v for r in run for v in r.verdicts if v.name == name]
        statuses = Counter(v.status for v in verdicts)
        mistakes = Counter(v.mistake for v in verdicts if v.status == NOT_YET and v.mistake)
        unrecognised = sum(1 for v in verdicts if v.status == NOT_YET and not v.mistake)
        forms = Counter(v.reason for v in verdicts if v.status == BAD_FORM and v.reason)
        about = {m.key: m.about.get(lang) or m.key for m in definitions[name].mistakes}
        out.append(
            {
                "exercise": name,
                "points": definitions[name].points,
                "notebooks": len(verdicts),
                **{s.replace(" ", "_"): statuses.get(s, 0) for s in EXERCISE_STATUSES},
                "inputs_differed": sum(1 for v in verdicts if v.inputs_differed),
                "mistakes": mistakes.most_common(),
                "unrecognised": unrecognised,
                "forms": forms.most_common(),
                "about": about,
            }
        )
    return out


def write_summary(
    rows: list[Row],
    lab: int,
    lang: str,
    out: Path,
    reference: LabReference | None,
    found,
    roster_missing,
    wall,
    jobs,
) -> None:
    table = summary_rows(rows, lab, lang)
    with open(out / "summary.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        keys = [s.replace(" ", "_") for s in EXERCISE_STATUSES]
        writer.writerow(["exercise", "points", "notebooks", *keys, "inputs_differed", "mistakes", "forms"])
        for item in table:
            writer.writerow(
                [
                    item["exercise"],
                    item["points"],
                    item["notebooks"],
                    *[item[k] for k in keys],
                    item["inputs_differed"],
                ]
                + [
                    "; ".join(f"{k}: {n}" for k, n in item["mistakes"])
                    + (f"; other: {item['unrecognised']}" if item["unrecognised"] else ""),
                    "; ".join(f"{k}: {n}" for k, n in item["forms"]),
                ]
            )
    model = _summary_model(rows, table, lab, lang, reference, found, roster_missing, wall, jobs)
    (out / "summary.md").write_text(_summary_markdown(model), encoding="utf-8")
    (out / "summary.html").write_text(_summary_html(model, lang), encoding="utf-8")


def _summary_model(rows, table, lab, lang, reference, found, roster_missing, wall, jobs) -> dict:
    t = lambda key: term(key, lang)  # noqa: E731
    graded = [r for r in rows if r.status not in (NOT_NOTEBOOK, EMPTY, OTHER_LAB, COULD_NOT_RUN)]
    max_total = rows[0].max_total if rows else 0
    mean = statistics.mean(r.total for r in graded) if graded else 0.0
    overview = [
        [t("grade_summary_files"), str(len(rows))],
        [t("grade_summary_notebooks"), str(len(graded))],
        [t("grade_summary_mean"), f"{_number(mean, lang)} / {max_total}"],
    ]
    statuses = Counter(r.status for r in rows)
    by_status = [[status_label(s, lang), str(statuses[s])] for s in ROW_STATUSES if statuses.get(s)]
    exercises = []
    for item in table:
        mistakes = [f"{item['about'].get(k, k)} ({n})" for k, n in item["mistakes"][:3]]
        if item["unrecognised"]:
            mistakes.append(f"{t('grade_summary_other_wrong')} ({item['unrecognised']})")
        if item["bad_form"]:
            mistakes.append(f"{t('grade_status_bad_form')} ({item['bad_form']})")
        no_answer = sum(
            item[k] for k in ("not_attempted", "missing", "error", "time_limit", "kernel_died", "renamed")
        )
        if no_answer:
            mistakes.append(f"{t('grade_status_not_attempted')} / {t('grade_status_missing')} ({no_answer})")
        if item["inputs_differed"]:
            mistakes.append(f"{t('grade_summary_inputs')} ({item['inputs_differed']})")
        exercises.append(
            [
                f"`{item['exercise']}`",
                str(item["points"]),
                f"{item['correct']} / {item['notebooks']}",
                "; ".join(mistakes),
            ]
        )
    look = []
    for r in rows:
        reasons = []
        if any(v.inputs_differed for v in r.verdicts):
            names = ", ".join(v.name for v in r.verdicts if v.inputs_differed)
            reasons.append(f"{t('grade_summary_inputs')}: {names}")
        if r.suspicious:
            reasons.append(
                t("grade_summary_suspicious").format(what=", ".join(sorted({w for _, w in r.suspicious})))
            )
        if r.duplicate_of:
            reasons.append(t("grade_summary_duplicate").format(other=f"`{r.duplicate_of}`"))
        for v in r.verdicts:
            if v.status == RENAMED or v.renamed:
                reasons.append(f"`{v.name}`: {t('grade_status_renamed')} (`{v.renamed}`)")
        if r.status in (NOT_NOTEBOOK, OTHER_LAB, COULD_NOT_RUN, TIME_LIMIT, KERNEL_DIED):
            reasons.append(status_label(r.status, lang))
        if reasons:
            look.append(f"`{r.file}`: " + "; ".join(reasons))
    per = (wall * max(1, jobs) / len(rows)) if rows else 0.0
    timing = t("grade_summary_time").format(
        wall=_seconds(wall),
        per=_seconds(per),
        jobs=jobs,
        reference=_seconds(reference.wall if reference else 0),
    )
    return {
        "title": t("grade_summary_title").format(lab=lab),
        "overview": overview,
        "status_header": [t("grade_summary_status"), t("grade_summary_count")],
        "by_status": by_status,
        "statuses_title": t("grade_summary_statuses"),
        "exercise_header": [
            t("grade_summary_exercise"),
            t("grade_total"),
            t("grade_summary_right"),
            t("grade_summary_mistakes"),
        ],
        "exercises": exercises,
        "look_title": t("grade_summary_look"),
        "look": look,
        "skipped_title": t("grade_summary_skipped"),
        "skipped": [f"`{s}`" for s in (found.skipped if found else [])],
        "missing_title": t("grade_summary_no_submission"),
        "missing": roster_missing,
        "timing": timing,
    }


def _number(value: float, lang: str) -> str:
    from beyond_accuracy import fmt

    return fmt(value, digits=1, lang=lang)


def _md_table(header, rows) -> list[str]:
    esc = lambda s: str(s).replace("|", "\\|")  # noqa: E731
    out = ["| " + " | ".join(map(esc, header)) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(map(esc, r)) + " |" for r in rows]
    return out


def _summary_markdown(m: dict) -> str:
    lines = [f"# {m['title']}", ""]
    lines += [f"- {label}: {value}" for label, value in m["overview"]] + [""]
    lines += _md_table(m["exercise_header"], m["exercises"]) + [""]
    lines += [f"## {m['statuses_title']}", ""] + _md_table(m["status_header"], m["by_status"]) + [""]
    for key in ("look", "missing", "skipped"):
        if m[key]:
            lines += [f"## {m[key + '_title']}", ""] + [f"- {x}" for x in m[key]] + [""]
    lines += [m["timing"], ""]
    return "\n".join(lines)


def _html_table(header, rows) -> str:
    head = "".join(f"<th>{_inline(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _summary_html(m: dict, lang: str) -> str:
    overview = "".join(f"<li>{_inline(label)}: {_inline(value)}</li>" for label, value in m["overview"])
    parts = [f"<h1>{_inline(m['title'])}</h1>", f"<ul>{overview}</ul>"]
    parts.append(_html_table(m["exercise_header"], m["exercises"]))
    parts.append(f"<h2>{_inline(m['statuses_title'])}</h2>" + _html_table(m["status_header"], m["by_status"]))
    for key in ("look", "missing", "skipped"):
        if m[key]:
            items = "".join(f"<li>{_inline(x)}</li>" for x in m[key])
            parts.append(f"<h2>{_inline(m[key + '_title'])}</h2><ul>{items}</ul>")
    parts.append(f"<p>{_inline(m['timing'])}</p>")
    return _page(m["title"], "\n".join(parts) + "\n", lang)


# ------------------------------------------------------------------------------------------------
# The roster and the LMS exports

_ROSTER_COLUMNS = {
    "name": ("name", "full name", "student", "student name", "fullname"),
    "first": ("first name", "firstname", "given name"),
    "last": ("last name", "lastname", "surname", "family name"),
    "email": ("email", "email address", "e-mail", "mail"),
    "id": ("id", "user id", "canvas id", "student id", "participant", "identifier", "moodle id"),
    "sis_id": ("sis user id", "id number", "idnumber", "matriculation number"),
    "login": ("sis login id", "login", "login id", "username", "user name"),
    "section": ("section",),
}


def read_roster(path: Path) -> list[dict]:
    """A class list: any CSV with a header naming some of name (or first and last name), email,
    id, SIS user id / ID number, login / username, section (Moodle's and Canvas's exports work)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no roster file {path}")
    text = path.read_text(encoding="utf-8-sig")
    dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    reader = csv.DictReader(text.splitlines(), dialect=dialect)
    columns = {}
    for field in reader.fieldnames or []:
        key = field.strip().casefold()
        for name, aliases in _ROSTER_COLUMNS.items():
            if key in aliases and name not in columns:
                columns[name] = field
    if not ({"name", "email", "id", "login", "sis_id"} & set(columns) or {"first", "last"} <= set(columns)):
        raise ValueError(
            f"{path}: the roster needs a column for the name, the email or an id "
            f"(found {', '.join(reader.fieldnames or [])})"
        )
    out = []
    for record in reader:
        entry = {k: (record.get(c) or "").strip() for k, c in columns.items()}
        if not entry.get("name"):
            entry["name"] = " ".join(x for x in (entry.get("first", ""), entry.get("last", "")) if x)
        if entry.get("id", "").lower().startswith(("participant", "partecipante")):
            entry["id"] = re.sub(r"\D", "", entry["id"])
        if any(entry.values()):
            out.append(entry)
    return out


def _keys(text: str) -> set[str]:
    """Ways a name is written in downloads: "Anna Rossi", "Rossi, Anna", "rossianna", "anna.rossi"."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    text = text.split("@")[0]
    words = re.findall(r"[a-z0-9]+", text)
    if not words:
        return set()
    return {"".join(words), "".join(reversed(words)), " ".join(sorted(words))}


def match_roster(rows: list[Row], roster: list[dict]) -> dict[int, dict]:
    """Row index -> roster entry: by the id in the download's names, else by email, else by name."""
    out = {}
    for i, row in enumerate(rows):
        entry = None
        if row.student_id:
            entry = next((e for e in roster if row.student_id in (e.get("id"), e.get("sis_id"))), None)
        if entry is None and "@" in row.student:
            entry = next((e for e in roster if e.get("email", "").casefold() == row.student.casefold()), None)
        if entry is None:
            keys = _keys(row.student)
            entry = next(
                (
                    e
                    for e in roster
                    if keys
                    & (_keys(e.get("name", "")) | _keys(e.get("email", "")) | _keys(e.get("login", "")))
                ),
                None,
            )
        if entry is not None:
            out[i] = entry
    return out


def best_per_student(rows: list[Row], matched: dict[int, dict]) -> list[tuple[Row, dict | None]]:
    """One row per student (their best file when they handed in several)."""
    best: dict[str, tuple[Row, dict | None]] = {}
    for i, row in enumerate(rows):
        entry = matched.get(i)
        key = (
            f"roster:{id(entry)}"
            if entry is not None
            else f"file:{row.student_id or row.student or row.file}"
        )
        if key not in best or row.total > best[key][0].total:
            best[key] = (row, entry)
    return list(best.values())


def write_lms(
    rows: list[Row], lab: int, lang: str, out: Path, roster: list[dict] | None, title: str | None
) -> list[str]:
    """moodle-grades.csv and canvas-grades.csv; returns the roster's students without a file."""
    roster = roster or []
    matched = match_roster(rows, roster)
    students = best_per_student(rows, matched)
    used = {id(e) for _, e in students if e is not None}
    absent = [e for e in roster if id(e) not in used]
    title = title or term("grade_lms_title", lang).format(lab=lab)
    max_total = rows[0].max_total if rows else 0
    with open(out / "moodle-grades.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(
            [
                "Identifier",
                "Full name",
                "Email address",
                "Grade",
                "Maximum Grade",
                "Last modified (grade)",
                "Feedback comments",
            ]
        )
        for row, entry in students:
            entry = entry or {}
            moodle_id = row.student_id if row.layout == "moodle" else entry.get("id", "")
            writer.writerow(
                [
                    f"Participant {moodle_id}" if moodle_id else "",
                    entry.get("name") or row.student,
                    entry.get("email", ""),
                    row.total,
                    max_total,
                    "",
                    _feedback_line(row, lang),
                ]
            )
        for entry in absent:
            writer.writerow(
                [
                    f"Participant {entry['id']}" if entry.get("id") else "",
                    entry.get("name", ""),
                    entry.get("email", ""),
                ]
                + ["", max_total, "", ""]
            )
    with open(out / "canvas-grades.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title])
        writer.writerow(["Points Possible", "", "", "", "", max_total])
        for row, entry in students:
            entry = entry or {}
            canvas_id = row.student_id if row.layout == "canvas" else entry.get("id", "")
            writer.writerow(
                [
                    _sortable(entry.get("name") or row.student),
                    canvas_id,
                    entry.get("sis_id", ""),
                    entry.get("login", ""),
                    entry.get("section", ""),
                    row.total,
                ]
            )
        for entry in absent:
            writer.writerow(
                [
                    _sortable(entry.get("name", "")),
                    entry.get("id", ""),
                    entry.get("sis_id", ""),
                    entry.get("login", ""),
                    entry.get("section", ""),
                    "",
                ]
            )
    return [e.get("name") or e.get("email") or e.get("id", "") for e in absent]


def _sortable(name: str) -> str:
    """Canvas lists students as "Last, First"."""
    if "," in name or " " not in name.strip():
        return name
    first, _, last = name.strip().rpartition(" ")
    return f"{last}, {first}"


def _feedback_line(row: Row, lang: str) -> str:
    parts = [f"{term('grade_total', lang)}: {row.total} / {row.max_total}"]
    if row.status not in (GRADED, NOT_ATTEMPTED):
        parts.append(status_label(row.status, lang))
    for v in row.verdicts:
        parts.append(f"{v.name}: {status_label(v.status, lang, v.cell)} ({v.points} / {v.max_points})")
    return "; ".join(parts)


# ------------------------------------------------------------------------------------------------


def write_all(
    rows: list[Row],
    lab: int,
    lang: str,
    out: Path,
    reference: LabReference | None = None,
    found=None,
    roster: Path | None = None,
    wall: float = 0.0,
    jobs: int = 2,
    limits=None,
    lms_title: str | None = None,
) -> Path:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_grades(rows, lab, lang, out / "grades.csv", limits)
    entries = read_roster(roster) if roster else None
    missing = write_lms(rows, lab, lang, out, entries, lms_title)
    write_summary(rows, lab, lang, out, reference, found, missing, wall, jobs)
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    for row, name in zip(rows, feedback_names(rows)):
        blocks = feedback_blocks(row, lab, lang, limits)
        (feedback / f"{name}.md").write_text(feedback_markdown(blocks, lang), encoding="utf-8")
        (feedback / f"{name}.html").write_text(feedback_html(blocks, lang), encoding="utf-8")
    return out / "grades.csv"
