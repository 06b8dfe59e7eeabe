"""The instructor's pack: what a teacher hands out, grades with and shows in class, per language.

    python -m tools.teaching.instructor             # every language -> _build/instructor/<lang>/ and a zip each
    python -m tools.teaching.instructor --lang it

For every lab of a language the pack holds, in ``lab<N>/``:
- the student notebook: the very file the Colab, Binder and download buttons open (copied from the
  published tree that tools/editions/derive.py writes, _build/publish/),
- the answer key (Colab-ready, with the solutions and their outputs),
- the exercise sheet ``lab<N>-exercises.md`` (what each checked exercise asks, the skill it tests,
  its points, the answer and the mistakes the check recognises), from tools/teaching/exercise_sheet.py when
  that module is present;
and, in ``slides/``, the reveal.js deck of every chapter (tools/teaching/slides.py) with reveal.js beside it;
and ``quiz-answer-key.md``, the key of the chapters' quizzes (every question, its right option and
the feedback of each option), from the same definitions the pages use (data/quizzes/);
``quizzes/``, the same quizzes for a learning management system (tools/teaching/quiz_export.py:
Moodle XML, GIFT, QTI 1.2 for Canvas); and ``handouts/``, the PDFs of the decks and exercise
sheets (tools/teaching/handouts.py, `make handouts`, headless Chromium) when they have been made:
``make instructor`` makes them where Chromium is installed and says so where it is not.
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

from beyond_accuracy.explorers.quiz import chapters as quiz_chapters
from beyond_accuracy.explorers.quiz import questions
from beyond_accuracy.language import term
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
from tools.teaching.handouts import HANDOUTS
from tools.teaching.quiz_export import FORMATS, write_exports
from tools.teaching.slides import write_decks

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


def readme(lang: str, entries: list[tuple[int, str, list[str]]]) -> str:
    lines = [
        f"# {config()['title']} — {term('pack_title', lang)}",
        "",
        term("pack_intro", lang),
        "",
    ]
    for _number, title, files in entries:
        lines += [f"## {title}", ""]
        lines += [f"- `{name}`: {what}" for name, what in files]
        lines.append("")
    lines += [f"- `{QUIZ_KEY}`: {term('pack_quizzes', lang)}"]
    lines += [f"- `quizzes/*{ext}`: {term(f'pack_quiz_{fmt}', lang)}" for fmt, ext in FORMATS.items()]
    lines.append("")
    return "\n".join(lines)


def build_pack(
    lang: str,
    out: Path = INSTRUCTOR,
    publish: Path = PUBLISH,
    keys: Path = ANSWER_KEYS,
    handouts: Path | None = None,
) -> Path:
    """The pack of one language in out/<lang>/ (from scratch) and out/<pack>-<lang>.zip, with the
    handouts of ``handouts/<lang>/`` (tools/teaching/handouts.py) when given."""
    printed = handouts / lang if handouts is not None and (handouts / lang).is_dir() else None
    dest = out / lang
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    sheet = exercise_sheets()
    entries = []
    for src in labs(lang):
        page = page_of(src)
        number = lab_number(page.stem)
        folder = dest / f"lab{number}"
        folder.mkdir()
        student = publish_path(page, publish)
        shutil.copyfile(student, folder / student.name)
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
        for name, what in (
            (f"slides/{chapter.stem}.pdf", "pack_handout_slides"),
            (f"lab{number}-exercises.pdf", "pack_handout_sheet"),
        ):
            if printed is not None and (printed / name).exists():
                (dest / "handouts" / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(printed / name, dest / "handouts" / name)
                files.append((f"handouts/{name}", term(what, lang)))
        entries.append((number, doc_title(page.docname), files))
    write_decks(lang, dest / "slides")
    (dest / QUIZ_KEY).write_text(quiz_key(lang), encoding="utf-8")
    write_exports(lang, dest / "quizzes")
    (dest / "README.md").write_text(readme(lang, entries), encoding="utf-8")
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


def build_packs(langs: list[str] | None = None, root: Path = BUILD, handouts: bool = True) -> list[Path]:
    """The student notebooks and answer keys of the languages (written afresh), the handouts where
    Chromium is installed (``handouts``), then their packs."""
    langs = langs or languages()
    publish, keys = root / "publish", root / "answer-keys"
    write_editions(langs, publish=publish, keys=keys)
    printed = None
    if handouts:
        from tools.maintenance.weight import chromium_paths
        from tools.teaching.handouts import write_handouts

        if all(chromium_paths()):
            printed = root / HANDOUTS.name
            for lang in langs:
                write_handouts(lang, printed / lang)
        else:
            print(
                "no Chromium (apt-get install chromium chromium-driver): the packs have no handouts",
                file=sys.stderr,
            )
    return [build_pack(lang, root / "instructor", publish, keys, printed) for lang in langs]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    parser.add_argument(
        "--no-handouts", action="store_true", help="without the PDF handouts (no Chromium needed)"
    )
    args = parser.parse_args(argv)
    if exercise_sheets() is None:
        print(
            "tools/teaching/exercise_sheet.py is not there: the packs have no exercise sheets",
            file=sys.stderr,
        )
    for path in build_packs(args.lang, handouts=not args.no_handouts):
        print(f"{path.relative_to(ROOT)}  ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
