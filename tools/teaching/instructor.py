"""The instructor's pack: what a teacher hands out, grades with and shows in class, per language.

    python -m tools.teaching.instructor             # every language -> _build/instructor/<lang>/ and a zip each
    python -m tools.teaching.instructor --lang it

For every lab of a language the pack holds, in ``lab<N>/``:
- the student notebook: the very file the Colab, Binder and download buttons open (copied from the
  published tree that tools/editions/derive.py writes, _build/publish/),
- the answer key (Colab-ready, with the solutions and their outputs),
- the exercise sheet ``lab<N>-exercises.md`` (what each checked exercise asks, the tables it refers
  to, the skill it tests, its points, the answer and the mistakes the check recognises), from
  tools/teaching/exercise_sheet.py when that module is present;
in ``chapters/``, the student notebook of every chapter (the file its buttons open); in
``slides/``, the reveal.js deck of every chapter (tools/teaching/slides.py) with reveal.js beside it;
``quiz-answer-key.md``, the key of the chapters' quizzes (every question, its right option and the
feedback of each option), from the same definitions the pages use (data/quizzes/); and
``README.md``: what the pack holds, the course week by week (chapter, deck, quiz and lab of each
week, with each lab's measured run time from tools/teaching/lab_times.csv), the grading guide
(collecting submissions, ``make grade``, the statuses, the time per submission from
tools/teaching/grading_time.csv, what a grade measures), all in the pack's language from the
string catalogue. The handouts (``handouts/``) and quiz exports (``quizzes/``) have their place in
the README (:data:`EXTRAS`): listed when their builder is there, announced as missing otherwise.
Everything is derived from the same sources by this command, nothing is written twice, and the
folder is rebuilt from scratch each time (a test rebuilds it and compares).
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import zipfile
from pathlib import Path

import nbformat

from beyond_accuracy.explorers.quiz import chapters as quiz_chapters
from beyond_accuracy.explorers.quiz import questions
from beyond_accuracy.language import fmt, term
from tools.editions.derive import (
    ANSWER_KEYS,
    PUBLISH,
    doc_title,
    page_of,
    publish_path,
    sources,
    write_editions,
)
from tools.project import BUILD, ROOT, config, languages
from tools.teaching.grading.core import (
    CORRECT,
    COULD_NOT_RUN,
    EMPTY,
    EXERCISE_STATUSES,
    NOT_NOTEBOOK,
    OTHER_LAB,
)
from tools.teaching.grading.kernel import Limits
from tools.teaching.grading.report import status_label
from tools.teaching.lab_times import prose_words, read_grading, read_times
from tools.teaching.slides import chapters, write_decks

INSTRUCTOR = BUILD / "instructor"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed timestamps: the same sources give the same zip
QUIZ_KEY = "quiz-answer-key.md"


def exercise_sheets():
    """``sheet_markdown(lab, lang)`` of tools/teaching/exercise_sheet.py, or None where it is not there yet."""
    try:
        module = importlib.import_module("tools.teaching.exercise_sheet")
    except ModuleNotFoundError as exc:
        if exc.name != "tools.teaching.exercise_sheet":
            raise
        return None
    return module.sheet_markdown


def lab_number(stem: str) -> int:
    return int(stem.split("-")[0])


def labs(lang: str) -> list[Path]:
    return [p for p in sources([lang]) if p.parent.parent.name == "labs"]


def key_name(stem: str) -> str:
    return f"{stem}-answer-key.ipynb"


def quiz_key(lang: str) -> str:
    """The answer key of the chapters' quizzes in ``lang`` (Markdown): per chapter, every question,
    its options with the right one marked, and the feedback of each option."""
    lines = [f"# {term('quiz_key_title', lang)}", "", term("quiz_key_intro", lang), ""]
    for chapter in quiz_chapters():
        lines += [f"## {doc_title(f'chapters/{lang}/{chapter}')}", ""]
        for n, q in enumerate(questions(chapter, lang), 1):
            lines += [f"{n}. {q['prompt']}", ""]
            for o in q["options"]:
                if o["correct"]:
                    lines.append(f"   - ✔ **{o['text']}** ({term('quiz_key_right', lang)})")
                else:
                    lines.append(f"   - ✘ {o['text']}")
                lines += [f"     {o['feedback']}", ""]
    return "\n".join(lines)


# The handouts (PDF of each deck and sheet) and the LMS quiz exports: folders of the pack filled by
# another tool (``module``'s ``function(lang, folder)``, writing the files); until it is there the
# README keeps their place and says they are missing.
EXTRAS = {
    "handouts": ("tools.teaching.handouts", "write_handouts"),
    "quizzes": ("tools.teaching.quiz_export", "write_quiz_exports"),
}


ROW_MEANINGS = {
    NOT_NOTEBOOK: "not_notebook",
    EMPTY: "empty",
    OTHER_LAB: "other_lab",
    COULD_NOT_RUN: "could_not_run",
}


def extra_builders() -> dict:
    """{folder: function(lang, folder)} of the extras whose tool is there and can run here (a tool
    whose module's ``missing()`` returns a reason, as the handouts without Chromium, is left
    out and the reason printed)."""
    found = {}
    for folder, (module, function) in EXTRAS.items():
        try:
            tool = importlib.import_module(module)
            builder = getattr(tool, function)
        except (ModuleNotFoundError, AttributeError):
            continue
        missing = tool.missing() if hasattr(tool, "missing") else None
        if missing:
            print(f"{folder}: {missing}", file=sys.stderr)
            continue
        found[folder] = builder
    return found


# What an extra's file is, by the end of its name (the catalogue's words for it).
EXTRA_KINDS = {
    ".moodle.xml": "pack_quiz_moodle",
    ".gift.txt": "pack_quiz_gift",
    ".qti.zip": "pack_quiz_qti",
    "-exercises.pdf": "pack_handout_sheet",
    ".pdf": "pack_handout_slides",
}


def _extra_lines(names: list[str], lang: str) -> list[str]:
    """The README's lines of an extra's files: grouped by what they are (the catalogue's words),
    each file under its group; a file of no known kind on a line of its own."""
    groups: dict[str | None, list[str]] = {}
    for name in names:
        groups.setdefault(next((k for end, k in EXTRA_KINDS.items() if name.endswith(end)), None), []).append(
            name
        )
    lines = []
    order = list(EXTRA_KINDS.values())
    for kind, files in sorted(groups.items(), key=lambda g: order.index(g[0]) if g[0] else len(order)):
        if kind is None:
            lines += [f"- `{name}`" for name in files]
        else:
            lines.append(f"- {term(kind, lang)}:")
            lines += [f"  - `{name}`" for name in files]
    return lines


def week_table(lang: str, entries: list[tuple[int, str, list]], words: dict[int, int]) -> list[str]:
    """The week-by-week plan: one row per chapter, with its deck, quiz and lab, the lab's measured
    run time (tools/teaching/lab_times.csv) and the words of its student notebook (``words``)."""
    times = read_times()
    quizzes = set(quiz_chapters())
    head = ["week", "chapter", "slides", "quiz", "lab", "run", "words"]
    lines = [
        "| " + " | ".join(term(f"pack_col_{h}", lang) for h in head) + " |",
        "|" + "---|" * len(head),
    ]
    labs_by_number = {number: (title, files) for number, title, files in entries}
    for week, chapter in enumerate(chapters(lang), 1):
        number = int(chapter.stem.split("-")[0])
        quiz = (
            term("pack_quiz_cell", lang).format(n=len(questions(chapter.stem, lang)))
            if chapter.stem in quizzes
            else "—"
        )
        title, files = labs_by_number.get(number, ("—", []))
        lab = f"{title} (`{files[0][0]}`)" if files else "—"
        row = times.get(number)
        run = (
            term("pack_run_cell", lang).format(
                wall=fmt(float(row["wall_seconds"]), digits=0, lang=lang),
                cpu=fmt(float(row["kernel_cpu_seconds"]), digits=0, lang=lang),
            )
            if row
            else "—"
        )
        prose = fmt(words[number], digits=0, lang=lang) if number in words else "—"
        lines.append(
            f"| {week} | {doc_title(f'chapters/{lang}/{chapter.stem}')} (`chapters/{chapter.stem}.ipynb`) "
            f"| `slides/{chapter.stem}.html` | {quiz} | {lab} | {run} | {prose} |"
        )
    first = times[min(times)]
    lines += [
        "",
        term("pack_times_how", lang).format(
            date=first["measured"], python=first["python"], sklearn=first["scikit_learn"]
        ),
    ]
    return lines


def grading_guide(lang: str) -> list[str]:
    """How to grade a class: collecting submissions, ``make grade``, the statuses, the time it
    takes, what a grade measures."""
    limits = Limits()
    timing = read_grading()
    lines = [f"## {term('pack_grading', lang)}", "", f"### {term('pack_collect_title', lang)}", ""]
    lines += [term("pack_collect", lang), "", "### `make grade`", "", "```bash"]
    lines += [
        f"make grade LAB=2 LANG={lang} SUBMISSIONS=~/Downloads/lab2.zip",
        f"make grade LAB=2 LANG={lang} SUBMISSIONS=lab2/ ROSTER=class.csv OUT=lab2-grades/",
        "```",
        "",
        term("pack_grade_args", lang),
        "",
        term("pack_grade_outputs", lang),
        "",
        f"### {term('pack_statuses_title', lang)}",
        "",
        term("pack_statuses_intro", lang).format(correct=status_label(CORRECT, lang)),
        "",
    ]
    for status in EXERCISE_STATUSES:
        key = status.replace(" ", "_")
        means = term(f"pack_means_{key}", lang).format(
            cpu=fmt(limits.cell_cpu, digits=0, lang=lang), idle=fmt(limits.idle, digits=0, lang=lang)
        )
        lines.append(f"- **{status_label(status, lang, cell='n')}**: {means}")
    lines += ["", term("pack_rows_intro", lang), ""]
    for status, key in ROW_MEANINGS.items():
        lines.append(f"- **{status_label(status, lang)}**: {term(f'pack_means_{key}', lang)}")
    lines += [
        "",
        f"### {term('pack_time_title', lang)}",
        "",
        term("pack_time", lang).format(
            lab=timing["lab"],
            n=timing["submissions"],
            per=fmt(float(timing["per_submission_seconds"]), digits=0, lang=lang),
            date=timing["measured"],
        ),
        "",
        f"### {term('pack_tries_title', lang)}",
        "",
        term("pack_tries", lang),
        "",
    ]
    return lines


def readme(
    lang: str,
    entries: list[tuple[int, str, list]],
    chapter_files: list[str],
    extras: dict,
    words: dict[int, int],
) -> str:
    """The pack's README in ``lang``: what it holds (``extras``: {folder: its files}, a folder
    not built said missing), the course week by week (``words``: lab -> words of its student
    notebook), the grading guide."""
    lines = [
        f"# {config()['title']} — {term('pack_title', lang)}",
        "",
        term("pack_intro", lang),
        "",
        term("pack_solutions", lang),
        "",
        f"## {term('pack_contents', lang)}",
        "",
    ]
    for _number, title, files in entries:
        lines += [f"### {title}", ""]
        lines += [f"- `{name}`: {what}" for name, what in files]
        lines.append("")
    lines += [f"### {term('pack_chapters', lang)}", ""]
    lines += [f"- `{name}`: {term('pack_chapter', lang)}" for name in chapter_files]
    lines += ["", f"- `{QUIZ_KEY}`: {term('pack_quizzes', lang)}", ""]
    lines += [f"### {term('pack_extras', lang)}", ""]
    if any(extras.values()):
        for folder in EXTRAS:
            if extras.get(folder):
                lines.append(f"- `{folder}/`")
                lines += ["  " + line for line in _extra_lines(extras[folder], lang)]
            else:
                lines.append(f"- `{folder}/`: {term('pack_extra_absent', lang)}")
    else:
        lines.append(term("pack_extras_missing", lang))
    lines += ["", f"## {term('pack_weeks', lang)}", "", term("pack_weeks_intro", lang), ""]
    lines += week_table(lang, entries, words)
    lines.append("")
    lines += grading_guide(lang)
    return "\n".join(lines)


def build_pack(lang: str, out: Path = INSTRUCTOR, publish: Path = PUBLISH, keys: Path = ANSWER_KEYS) -> Path:
    """The pack of one language in out/<lang>/ (from scratch) and out/<pack>-<lang>.zip."""
    dest = out / lang
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    sheet = exercise_sheets()
    entries, words = [], {}
    for src in labs(lang):
        page = page_of(src)
        number = lab_number(page.stem)
        folder = dest / f"lab{number}"
        folder.mkdir()
        student = publish_path(page, publish)
        shutil.copyfile(student, folder / student.name)
        words[number] = prose_words(nbformat.read(student, as_version=4))
        shutil.copyfile(publish_path(page, keys), folder / key_name(page.stem))
        files = [
            (f"lab{number}/{student.name}", term("pack_student", lang)),
            (f"lab{number}/{key_name(page.stem)}", term("pack_key", lang)),
        ]
        if sheet is not None:
            name = f"lab{number}-exercises.md"
            (folder / name).write_text(sheet(number, lang), encoding="utf-8")
            files.append((f"lab{number}/{name}", term("pack_sheet", lang)))
        chapter = next((ROOT / "chapters" / lang).glob(f"{page.stem.split('-')[0]}-*.ipynb"))
        files.append((f"slides/{chapter.stem}.html", term("pack_slides", lang)))
        entries.append((number, doc_title(page.docname), files))
    chapter_files = []
    for src in chapters(lang):
        target = dest / "chapters" / f"{src.stem}.ipynb"
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(publish_path(page_of(src), publish), target)
        chapter_files.append(f"chapters/{src.stem}.ipynb")
    write_decks(lang, dest / "slides")
    (dest / QUIZ_KEY).write_text(quiz_key(lang), encoding="utf-8")
    extras = {}
    for folder, write in extra_builders().items():
        write(lang, dest / folder)
        extras[folder] = sorted(str(p.relative_to(dest)) for p in (dest / folder).rglob("*") if p.is_file())
    (dest / "README.md").write_text(readme(lang, entries, chapter_files, extras, words), encoding="utf-8")
    return zip_pack(dest, out / f"beyond-accuracy-instructor-{lang}.zip")


def zip_pack(folder: Path, target: Path) -> Path:
    """A zip of the folder with fixed timestamps and sorted entries (byte-identical on a rebuild)."""
    target.unlink(missing_ok=True)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(str(Path(folder.name) / path.relative_to(folder)), ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
    return target


def build_packs(langs: list[str] | None = None, root: Path = BUILD) -> list[Path]:
    """The student notebooks and answer keys of the languages (written afresh), then their packs."""
    langs = langs or languages()
    publish, keys = root / "publish", root / "answer-keys"
    write_editions(langs, publish=publish, keys=keys)
    return [build_pack(lang, root / "instructor", publish, keys) for lang in langs]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    args = parser.parse_args(argv)
    if exercise_sheets() is None:
        print(
            "tools/teaching/exercise_sheet.py is not there: the packs have no exercise sheets",
            file=sys.stderr,
        )
    for path in build_packs(args.lang):
        print(f"{path.relative_to(ROOT)}  ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
