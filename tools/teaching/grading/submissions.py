"""The files of a submissions folder (or zip), each with the student it belongs to.

Every file becomes one item; the student comes from the layout the learning platform downloads:

- **Moodle** ("Download all submissions"): one folder per student and submission plugin,
  ``Anna Rossi_1234567_assignsubmission_file`` (Moodle 3.1 and later; older versions end the name
  with ``_``), or, without folders, files named ``Anna Rossi_1234567_assignsubmission_file_lab2.ipynb``.
  The number is the participant's identifier, which Moodle's grading worksheet calls
  ``Participant 1234567``.
- **Canvas** ("Download submissions"): files named ``rossianna_123456_7890123_lab2.ipynb`` (the
  student's sortable name without spaces, the Canvas user id, the file's id, the name the student
  gave), with ``_LATE`` after the name for a late submission.
- **Any other folder per student**: the top folder's name is the student.
- **Files side by side**: the file's name (without its extension) is the student.

System files that archivers and file browsers add (``__MACOSX/``, ``.DS_Store``, ``Thumbs.db``,
``.ipynb_checkpoints/``, hidden files) are not submissions: they are listed as skipped, not graded.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

MOODLE_FOLDER = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_?$")
MOODLE_FILE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_[a-z]+_(?P<file>.+)$")
CANVAS_FILE = re.compile(r"^(?P<login>[^_\s]+?)(?P<late>_LATE)?_(?P<uid>\d+)_(?P<fid>\d+)_(?P<file>.+)$")
SYSTEM = {"__MACOSX", ".DS_Store", "Thumbs.db", "desktop.ini", ".ipynb_checkpoints"}
MAX_UNZIPPED = 2 * 1024**3  # bytes a zip of submissions may expand to


@dataclass
class Item:
    path: Path
    rel: str  # the path inside the submissions folder, with "/"
    student: str
    student_id: str = ""  # Moodle's participant id or Canvas's user id, when the layout has one
    layout: str = "file"  # "moodle", "canvas", "folder" or "file"
    late: bool = False


@dataclass
class Found:
    root: Path | None
    items: list[Item] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    _tmp: object = None  # the unzipped copy, kept while the grader needs it


def is_system(parts) -> bool:
    return any(part in SYSTEM or part.startswith(".") for part in parts)


def describe(rel_parts: tuple[str, ...]) -> tuple[str, str, str, bool]:
    """(student, student id, layout, late) for a file at ``rel_parts`` inside the folder."""
    name = rel_parts[-1]
    if len(rel_parts) > 1:
        top = rel_parts[0]
        moodle = MOODLE_FOLDER.match(top)
        if moodle:
            return moodle["name"].strip(), moodle["id"], "moodle", False
        return top, "", "folder", False
    moodle = MOODLE_FILE.match(name)
    if moodle:
        return moodle["name"].strip(), moodle["id"], "moodle", False
    canvas = CANVAS_FILE.match(name)
    if canvas:
        return canvas["login"], canvas["uid"], "canvas", bool(canvas["late"])
    stem = name.rsplit(".", 1)[0] if "." in name.strip(".") else name
    return stem, "", "file", False


def collect(submissions: Path, exclude=()) -> Found:
    """Every file of a folder of submissions (or of a .zip of one), one item each, in path order."""
    submissions = Path(submissions)
    if submissions.is_file() and submissions.suffix.lower() == ".zip":
        tmp = tempfile.TemporaryDirectory(prefix="ba-submissions-")
        _unzip(submissions, Path(tmp.name))
        found = collect(Path(tmp.name), exclude)
        found._tmp = tmp
        return found
    if not submissions.is_dir():
        raise ValueError(f"{submissions} is neither a folder nor a .zip of submissions")
    root = submissions.resolve()
    excluded = [Path(p).resolve() for p in exclude]
    found = Found(root)
    for path in sorted(root.rglob("*")):
        if any(path == e or e in path.parents for e in excluded):
            continue
        if not path.is_file():
            continue
        rel = path.relative_to(root).parts
        if is_system(rel):
            found.skipped.append("/".join(rel))
            continue
        student, student_id, layout, late = describe(rel)
        found.items.append(Item(path, "/".join(rel), student, student_id, layout, late))
    return found


def _unzip(archive: Path, dest: Path) -> None:
    """Extract a zip of submissions safely: no path leaves ``dest``, no more than MAX_UNZIPPED bytes."""
    with zipfile.ZipFile(archive) as zipped:
        members = [m for m in zipped.infolist() if not m.is_dir()]
        if sum(m.file_size for m in members) > MAX_UNZIPPED:
            raise ValueError(f"{archive} expands to more than {MAX_UNZIPPED // 1024**3} GB")
        for member in members:
            # "..", "." and absolute paths are dropped: every member lands inside dest
            parts = [p for p in member.filename.replace("\\", "/").split("/") if p not in ("", ".", "..")]
            if not parts:
                continue
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with zipped.open(member) as source, open(target, "wb") as out:
                out.write(source.read())
