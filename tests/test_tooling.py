"""The build tooling: derived per-language configuration, the student edition's transformations."""

import pytest

from tools.book.build import derived_config, derived_toc, localise_path
from tools.editions.derive import answer_names, placeholder, student_markdown
from tools.project import config, first_cell, install_spec, repository_url


def test_toc_is_derived_for_each_language():
    toc = derived_toc("fi")
    assert toc["root"] == "chapters/fi/index"
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    assert all("/fi/" in f for f in files)
    assert toc["parts"][0]["caption"] == "Kurssi"


def test_config_is_derived_for_each_language():
    cfg = derived_config("it")
    sc = cfg["sphinx"]["config"]
    assert sc["language"] == "it" and sc["ba_language"] == "it"
    assert derived_config("pt")["sphinx"]["config"]["language"] == "pt_BR"
    assert sc["html_theme_options"]["search_bar_text"] == "Cerca nel libro…"
    assert sc["ba_languages"] == ["en", "it", "es", "pt", "fi"]
    assert cfg["repository"]["url"] == repository_url()
    assert "course" not in cfg


def test_repository_url_drives_the_colab_install_cell():
    assert repository_url() == config()["repository"]["url"].rstrip("/")
    assert repository_url() in install_spec()
    assert install_spec() in first_cell("pt")
    assert 'LANG = "pt"' in first_cell("pt")


def test_localise_path():
    assert localise_path("chapters/en/01-confusion-matrix", "es") == "chapters/es/01-confusion-matrix"
    assert localise_path("labs/en/x", "en") == "labs/en/x"


def test_student_markdown_removes_every_solution_block():
    text = (
        "Intro\n\n````{exercise} Q\n:label: ex-a\n\nWhat?\n````\n\n"
        "````{solution} ex-a\n:class: dropdown\n\n```python\nsecret = 42\n```\n````\n\n"
        ":::{solution} ex-b\nalso secret\n:::\n\nOutro\n"
    )
    out = student_markdown(text)
    assert "secret" not in out and "{solution}" not in out
    assert "{exercise}" in out and "What?" in out and "Outro" in out


def test_student_markdown_rejects_unclosed_solution():
    with pytest.raises(ValueError, match="not closed"):
        student_markdown("````{solution} ex\nhidden\n")


def test_solution_cells_become_placeholders():
    source = "pred = scores >= 0.4\nanswer_counts = (1, 2, 3, 4)\nanswer_f1: float = 0.5\n"
    assert answer_names(source) == ["answer_counts", "answer_f1"]
    out = placeholder(source)
    assert "answer_counts = ..." in out and "answer_f1 = ..." in out and "0.4" not in out
    with pytest.raises(ValueError, match="answer_"):
        placeholder("x = 1")


def test_a_mutant_is_matched_by_the_line_it_writes_or_the_line_it_deletes():
    from tools.maintenance.mutation import mutated_lines

    changed = "--- a.py\n+++ a.py\n@@ -1 +1 @@\n-    x = 1\n+    x = 2\n"
    deleted = '--- a.py\n+++ a.py\n@@ -1,2 +1 @@\n     f(\n-        drawstyle="default",\n'
    assert mutated_lines(changed) == ["x = 2"]
    assert mutated_lines(deleted) == ['(deleted) drawstyle="default",']


def test_every_equivalent_mutant_has_its_line_and_a_reason():
    from tools.maintenance.mutation import read_equivalents

    rows = read_equivalents()
    assert len({r["mutant"] for r in rows}) == len(rows), "a mutant is listed twice"
    for row in rows:
        assert row["mutant"].startswith("beyond_accuracy.") and "__mutmut_" in row["mutant"], row
        assert row["mutated_line"].strip() and len(row["reason"].split()) >= 3, row


def test_the_block_structure_is_myst_parsers():
    """tools/myst.py: fences, colon fences, targets, comments, math and headings where myst-parser
    finds them; a `## comment` in a code cell or a `# line` in a colon fence is no heading of the page; walk
    also reads a directive's content, after its options."""
    from tools import myst

    text = (
        "# Title\n\n(sec-a)=\n## Section A ##\n\n% a comment\n"
        ":::{admonition} Careful\n:class: warning\n# not a title\n:::\n\n"
        "```{code-cell} ipython3\n## not a heading\n```\n\n"
        "$$\nx = 1\n$$\n\n"
        "````{exercise} Q\n:label: ex-a\n\n(inner)=\n### Inside\n````\n"
    )
    kinds = [(b.kind, b.name, b.start, b.end) for b in myst.blocks(text)]
    assert kinds == [
        ("heading", "", 0, 1),
        ("myst_target", "", 2, 3),
        ("heading", "", 3, 4),
        ("myst_line_comment", "", 5, 6),
        ("colon_fence", "admonition", 6, 10),
        ("fence", "code-cell", 11, 14),
        ("math_block", "", 15, 18),
        ("fence", "exercise", 19, 25),
    ]
    assert [(h.level, h.text) for h in myst.headings(text)] == [(1, "Title"), (2, "Section A")]
    assert myst.blocks(text)[-1].arg == "Q" and myst.blocks(text)[1].text == "sec-a"
    nested = [(b.kind, b.text, b.start) for b in myst.walk(text) if b.kind in ("myst_target", "heading")]
    assert nested[-2:] == [("myst_target", "inner", 22), ("heading", "Inside", 23)]
    assert (
        "heading",
        "not a title",
        8,
    ) in nested  # an admonition's content is MyST, but not the page's title
