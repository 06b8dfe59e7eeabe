"""Grading a folder of submitted lab notebooks: ``make grade LAB=3 LANG=it SUBMISSIONS=path/``.

Each submission runs in its own process and kernel, in an empty temporary folder, with a time
limit per cell and for the whole notebook, and without network (a new network namespace where
``unshare`` allows it; in any case a first cell that refuses connections to other hosts). The
verdicts are not read from printed text: after each exercise's check cell the grader runs its own
cell, which calls the course's check engine (:func:`beyond_accuracy.checks._engine.verdict`) on
the student's answer and inputs and appends the verdict to a file whose name the submission
cannot know. The check cells themselves are taken from the lab's source, not from the submission.

Output: ``grades.csv`` (one row per submission, its file name first; per exercise the verdict and
the points; the total; the reason when something went wrong) and ``feedback/<name>.md``, a short
note per student in the class's language.
"""

from __future__ import annotations

from .core import grade_folder, grade_submission, lab_exercises

__all__ = ["grade_folder", "grade_submission", "lab_exercises"]
