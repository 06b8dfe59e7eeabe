"""Sphinx extension: the typography and the words around the prose in the page's language.

Configuration (written by tools/build.py into each language's config from _config.yml and the
terminology table):

``ba_quotes``
    {docutils language tag: four quotation marks (primary open/close, secondary open/close)}, given
    to docutils' smart quotes (its ``smartquotes_locales`` setting). Smart quotes turn a straight
    ``'`` that ends a word into the *secondary closing* quote, which for Italian and Spanish is ”:
    the apostrophe of an elision before markup or a space (``L'**area**``, ``un po' di``) came out as
    L”area. The course's sources use ``'`` only as an apostrophe, so those languages take ‘…’ as their
    secondary marks and every apostrophe comes out as ’.

``ba_language``
    The course's code of the language (it, es, pt, fi), which picks the column of ``messages.csv``.

The words of the machinery around the prose (the theme's buttons, tooltips and labels, Sphinx's
numbered-figure prefix "Fig. %s", sphinx-exercise's "Exercise" and "Solution to") come from
``messages.csv`` beside this file, the one place for them: one row per English message, one column
per language. They are laid over every gettext catalogue Sphinx, the themes and sphinx-exercise use
(the catalogues' own translations are the fallback, so an untranslated message stays as it was), and
the template overrides in templates/ put the theme's hard-coded English through the same messages.

The message "and" joins the last two authors of an author-year citation ("Chicco e Jurman"): with
``bibtex_reference_style = author_year`` the extension swaps in the same style with that word.
"""

from __future__ import annotations

import csv
import gettext
from pathlib import Path

from sphinx import locale

MESSAGES = Path(__file__).with_name("messages.csv")
# The gettext catalogues of Sphinx (and pydata-sphinx-theme's templates), sphinx-book-theme and
# sphinx-exercise.
CATALOGUES = ("sphinx", "booktheme", "exercise")


def messages(lang: str) -> dict[str, str]:
    """{English message: its translation} for ``lang`` (empty for English)."""
    with MESSAGES.open(encoding="utf-8", newline="") as fh:
        return {row["msgid"]: row[lang] for row in csv.DictReader(fh) if row.get(lang)}


class Overlay(gettext.NullTranslations):
    """The course's messages first, then the catalogue it is laid over."""

    def __init__(self, table: dict[str, str], under: gettext.NullTranslations | None):
        super().__init__()
        self.table = table
        if under is not None:
            self.add_fallback(under)

    def gettext(self, message):
        if message in self.table:
            return self.table[message]
        return self._fallback.gettext(message) if self._fallback else message


def on_config_inited(app, config):
    # The template overrides of templates/ must come before the themes' components folders, which
    # sphinx-book-theme and pydata-sphinx-theme append to templates_path.
    templates = str(Path(__file__).with_name("templates"))
    config.templates_path = [templates] + [p for p in config.templates_path if p != templates]
    table = messages(config.ba_language or config.language)
    if not table:
        return
    for catalogue in CATALOGUES:
        key = ("general", catalogue)
        under = locale.translators.get(key)
        if not isinstance(under, Overlay):
            locale.translators[key] = Overlay(table, under)
    # The HTML templates translate with the application's translator (the "sphinx" catalogue).
    app.translator = locale.translators[("general", "sphinx")]
    if config.bibtex_reference_style == "author_year" and "and" in table:
        config.bibtex_reference_style = author_year_style(config.ba_language, table["and"])


def on_build_finished(app, exception):
    """Lay the messages over Sphinx's JavaScript catalogue too (the search page's "found N pages"
    line is an empty string in the it and fi catalogues, so the page showed nothing)."""
    import json

    if exception is not None or app.builder.format != "html":
        return
    table = messages(app.config.ba_language or app.config.language)
    path = Path(app.outdir) / "_static" / "translations.js"
    if not table or not path.exists():
        return
    text = path.read_text(encoding="utf-8")
    start, end = text.index("{"), text.rindex("}") + 1
    catalogue = json.loads(text[start:end])
    catalogue["messages"].update(table)
    body = json.dumps(catalogue, ensure_ascii=False, indent=4, sort_keys=True)
    path.write_text(text[:start] + body + text[end:], encoding="utf-8")


def author_year_style(lang: str, word: str) -> str:
    """Register sphinxcontrib-bibtex's author-year referencing style with ``word`` for "and";
    returns the plugin's name."""
    from dataclasses import dataclass, field

    from sphinxcontrib.bibtex.plugin import register_plugin
    from sphinxcontrib.bibtex.style.referencing import PersonStyle
    from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

    def make_person():
        return PersonStyle(sep2=f" {word} ", last_sep=f" {word} ")

    @dataclass
    class LocalAuthorYear(AuthorYearReferenceStyle):
        person: PersonStyle = field(default_factory=make_person)

    name = f"author_year_{lang}"
    register_plugin("sphinxcontrib.bibtex.style.referencing", name, LocalAuthorYear, force=True)
    return name


def on_builder_inited(app):
    quotes = app.config.ba_quotes or {}
    if quotes:
        existing = list(app.env.settings.get("smartquotes_locales") or [])
        app.env.settings["smartquotes_locales"] = existing + [(tag, marks) for tag, marks in quotes.items()]


def setup(app):
    app.add_config_value("ba_quotes", {}, "env")
    if not hasattr(app.config, "ba_language"):  # also declared by language_switcher
        app.add_config_value("ba_language", "", "html")
    # Before Sphinx (priority 800) and sphinx-exercise (500) read "Fig. %s" and "Exercise" for
    # their numfig_format defaults.
    app.connect("config-inited", on_config_inited, priority=100)
    app.connect("build-finished", on_build_finished)
    app.connect("builder-inited", on_builder_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
