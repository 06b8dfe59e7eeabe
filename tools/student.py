"""The student edition: the student notebooks and the student site (`make student`).

The transformations live in tools/editions.py (one pipeline for every derived notebook); this
module keeps the names other tools and tests use.

    python -m tools.student   # student notebooks -> _build/publish/{chapters,labs}/<lang>/,
                              # student site      -> _build/student-site/
"""

from __future__ import annotations

import sys

from .editions import (  # noqa: F401  (the public names of the student edition)
    answer_names,
    placeholder,
    student_markdown,
    student_notebook,
    student_site_notebook,
)


def main() -> int:
    from .build import build

    return build(student=True)


if __name__ == "__main__":
    sys.exit(main())
