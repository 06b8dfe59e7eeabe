"""A git merge driver for the string catalogue (src/beyond_accuracy/data/strings/*.csv).

A row of the catalogue holds one string in every language, so two translators who improve the
Italian and the Finnish of the same row change the same line, and git's line merge calls it a
conflict. This driver merges cell by cell instead: for every key and column it takes the side that
changed the cell; a cell both sides changed to different texts is a conflict. Rows added on one
side are kept (in that side's order), rows deleted on one side are deleted unless the other side
changed them.

Set it up once per clone (``.gitattributes`` already names it for the catalogue's tables):

    git config merge.catalogue.name "cell-by-cell merge of the string catalogue"
    git config merge.catalogue.driver ".venv/bin/python -m tools.language.merge_strings %O %A %B %P"

Without that configuration git merges the tables line by line, as before.

    python -m tools.language.merge_strings BASE OURS THEIRS [PATH]
        writes the merge into OURS; exit 0 if clean, 1 if a cell conflicted (OURS keeps our text
        for it, and every conflict is printed with both texts)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from beyond_accuracy.catalogue import KEY, format_table, parse_table


def _read(path: str, name: str) -> tuple[list[str], dict[str, dict[str, str]]]:
    text = Path(path).read_text(encoding="utf-8")
    if not text.strip():  # the file is new on both sides, or deleted
        return [], {}
    header = next(iter(text.splitlines()), "").split(",")
    return header, parse_table(text, name)


def merge(base: str, ours: str, theirs: str, name: str = "table") -> tuple[str, list[str]]:
    """The cell-by-cell merge of three versions (files) of one table: ``(text, conflicts)``."""
    (hb, b), (ho, o), (ht, t) = (_read(x, name) for x in (base, ours, theirs))
    header = ho or ht or hb
    for extra in ht:
        if extra not in header:
            header.append(extra)
    conflicts: list[str] = []
    order = list(o) + [k for k in t if k not in o]
    merged: list[dict[str, str]] = []
    for key in order:
        row_b, row_o, row_t = b.get(key), o.get(key), t.get(key)
        if row_o is None:  # added by them, or deleted by us
            if row_b is None or row_t != row_b:
                if row_b is not None:
                    conflicts.append(f"{key}: deleted on our side, changed on theirs")
                merged.append(row_t)
            continue
        if row_t is None:  # added by us, or deleted by them
            if row_b is None or row_o != row_b:
                if row_b is not None:
                    conflicts.append(f"{key}: changed on our side, deleted on theirs")
                merged.append(row_o)
            continue
        row = {}
        for col in header:
            cb, co, ct = (r.get(col, "") if r else "" for r in (row_b, row_o, row_t))
            if co == ct or ct == cb:
                row[col] = co
            elif co == cb:
                row[col] = ct
            else:
                row[col] = co
                if col != KEY:
                    conflicts.append(f"{key} [{col}]:\n  ours:   {co}\n  theirs: {ct}")
        merged.append(row)
    return format_table(header, [{c: row.get(c, "") for c in header} for row in merged]), conflicts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("base")
    parser.add_argument("ours")
    parser.add_argument("theirs")
    parser.add_argument("path", nargs="?", default="table.csv")
    args = parser.parse_args(argv)
    name = Path(args.path).stem
    text, conflicts = merge(args.base, args.ours, args.theirs, name)
    Path(args.ours).write_text(text, encoding="utf-8")
    for c in conflicts:
        print(f"{args.path}: conflict in {c}", file=sys.stderr)
    return 1 if conflicts else 0


if __name__ == "__main__":
    sys.exit(main())
