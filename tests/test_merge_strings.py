"""The catalogue's merge driver (tools/language/merge_strings.py): two translators who change
different languages of the same row merge without a conflict; the same cell changed two ways is a
conflict; added and deleted rows survive as a line merge would keep them."""

from __future__ import annotations

from beyond_accuracy.catalogue import format_table, parse_table
from tools.language.merge_strings import main, merge

HEADER = ["key", "en", "it", "es", "pt", "fi", "note"]


def row(key, word, note=""):
    return {"key": key, **{lang: f"{word} {lang}" for lang in HEADER[1:6]}, "note": note}


def write(path, rows):
    path.write_text(format_table(HEADER, rows), encoding="utf-8")
    return str(path)


def test_two_languages_of_one_row_merge_cell_by_cell(tmp_path):
    base = [row("quiz.a.prompt", "one"), row("quiz.b.prompt", "two")]
    ours = [dict(r) for r in base]
    theirs = [dict(r) for r in base]
    ours[0]["it"] = "uno, meglio"
    theirs[0]["fi"] = "yksi, parempi"
    text, conflicts = merge(
        write(tmp_path / "b.csv", base),
        write(tmp_path / "o.csv", ours),
        write(tmp_path / "t.csv", theirs),
        "quiz",
    )
    assert conflicts == []
    merged = parse_table(text, "quiz")
    assert merged["quiz.a.prompt"]["it"] == "uno, meglio"
    assert merged["quiz.a.prompt"]["fi"] == "yksi, parempi"
    assert merged["quiz.b.prompt"] == base[1]


def test_one_cell_changed_two_ways_is_a_conflict_and_keeps_ours(tmp_path, capsys):
    base = [row("quiz.a.prompt", "one")]
    ours, theirs = [dict(base[0])], [dict(base[0])]
    ours[0]["es"] = "uno (nuestro)"
    theirs[0]["es"] = "uno (suyo)"
    paths = [write(tmp_path / n, rows) for n, rows in (("b.csv", base), ("o.csv", ours), ("t.csv", theirs))]
    assert main([*paths, "src/beyond_accuracy/data/strings/quiz.csv"]) == 1
    assert (
        parse_table((tmp_path / "o.csv").read_text(encoding="utf-8"), "quiz")["quiz.a.prompt"]["es"]
        == "uno (nuestro)"
    )
    assert "quiz.a.prompt [es]" in capsys.readouterr().err


def test_rows_added_on_either_side_are_kept_and_a_deletion_wins_over_no_change(tmp_path):
    base = [row("quiz.a.prompt", "one"), row("quiz.b.prompt", "two")]
    ours = [base[0], row("quiz.c.prompt", "three")]  # deleted b, added c
    theirs = [base[0], base[1], row("quiz.d.prompt", "four")]  # added d
    text, conflicts = merge(
        write(tmp_path / "b.csv", base),
        write(tmp_path / "o.csv", ours),
        write(tmp_path / "t.csv", theirs),
        "quiz",
    )
    assert conflicts == []
    assert list(parse_table(text, "quiz")) == ["quiz.a.prompt", "quiz.c.prompt", "quiz.d.prompt"]


def test_a_row_deleted_on_one_side_and_changed_on_the_other_is_a_conflict(tmp_path):
    base = [row("quiz.a.prompt", "one"), row("quiz.b.prompt", "two")]
    ours = [base[0]]
    theirs = [base[0], {**base[1], "pt": "dois, melhor"}]
    _, conflicts = merge(
        write(tmp_path / "b.csv", base),
        write(tmp_path / "o.csv", ours),
        write(tmp_path / "t.csv", theirs),
        "quiz",
    )
    assert conflicts == ["quiz.b.prompt: deleted on our side, changed on theirs"]
