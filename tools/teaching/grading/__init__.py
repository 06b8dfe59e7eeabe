"""Grading a class's lab notebooks: ``make grade LAB=3 LANG=it SUBMISSIONS=path/ [ROSTER=class.csv]``.

The answers are judged where the submissions cannot reach (see :mod:`.core`): the lab's answer
key runs once in a clean kernel and gives each exercise's reference; each submission runs in a
sandboxed kernel of its own, in an empty folder, with the labs' checks replaced by recorders; the
values it passed to its checks (or left in ``answer_<name>``) come out as plain data and are
judged in the grader's process by the same exercise definitions the notebooks' checks use.
Every file of the submissions folder (Moodle's and Canvas's downloads included) gets one row in
``grades.csv``; the class summary, the Moodle and Canvas imports and each student's feedback
(Markdown and HTML, in the class's language) are written next to it (see :mod:`.report`).
"""

from __future__ import annotations

from .core import grade_file, grade_folder, lab_exercises, lab_reference

__all__ = ["grade_file", "grade_folder", "lab_exercises", "lab_reference"]
