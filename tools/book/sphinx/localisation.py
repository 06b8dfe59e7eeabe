"""Sphinx extension: the typography and the words around the prose in the page's language.

Configuration (written by tools/book/build.py into each language's config from _config.yml and the
package's catalogue):

``ba_quotes``
    {docutils language tag: four quotation marks (primary open/close, secondary open/close)}, every
    language's ``typography.quotes`` from the catalogue (src/beyond_accuracy/data/strings/), given
    to docutils' smart quotes (its ``smartquotes_locales`` setting). Smart quotes turn a straight
    ``'`` that ends a word into the *secondary closing* quote, which for Italian and Spanish is ”:
    the apostrophe of an elision before markup or a space (``L'**area**``, ``un po' di``) came out as
    L”area. The course's sources use ``'`` only as an apostrophe, so those languages take ‘…’ as their
    secondary marks and every apostrophe comes out as ’.

``ba_language``
    The course's code of the language (it, es, pt, fi), which picks the column of the messages.

The words of the machinery around the prose (the theme's buttons, tooltips and labels, Sphinx's
numbered-figure prefix "Fig. %s", sphinx-exercise's "Exercise" and "Solution to") come from the
theme table of the package's catalogue (src/beyond_accuracy/data/strings/theme.csv), the one place
for them: one row per message, whose ``en`` is the English message (the gettext msgid) and whose
other columns are its translations. They are laid over every gettext catalogue Sphinx, the themes and sphinx-exercise use
(the catalogues' own translations are the fallback, so an untranslated message stays as it was), and
the template overrides in templates/ put the theme's hard-coded English through the same messages.

Figures and exercises are numbered per chapter, 3.1, 3.2 ... in chapter 3 (``on_env_get_updated``;
``item_number`` is the rule, which the derived notebooks and the slides share); a page that is not a
chapter counts its own from 1. A plot of a code cell takes as alt text the description the course's
package stores as the figure's plain text (beyond_accuracy.plots.describe_figure), in the notebook's
language.

The message "and" joins the last two authors of an author-year citation ("Chicco e Jurman"): with
``bibtex_reference_style = author_year`` the extension swaps in the same style with that word.

The reference list (and the citations' tooltips, which show its entries) is formatted by a pybtex
style registered per language, ``ba_<lang>`` (``bibtex_default_style``): pybtex's "unsrt" entries
with the words of the style ("In", "pages", "edition", "Chapter", the "and" between authors...)
taken from the messages whose msgid starts with ``bibliography:``, sorted by author
and year, and labelled the way the chapters cite: [Chicco e Jurman, 2020], [Brodersen et al., 2010],
not pybtex's alpha labels [CJ20].
"""

from __future__ import annotations

import gettext
import hashlib
import re
from pathlib import Path

from sphinx import locale

THEME = "theme"  # the catalogue's table of these messages
# The gettext catalogues of Sphinx (and pydata-sphinx-theme's templates), sphinx-book-theme and
# sphinx-exercise.
CATALOGUES = ("sphinx", "booktheme", "exercise")


def messages(lang: str) -> dict[str, str]:
    """{English message: its translation} for ``lang`` (empty for English)."""
    from beyond_accuracy.catalogue import tables
    from beyond_accuracy.language import LANGUAGES

    if lang not in LANGUAGES[1:]:
        return {}
    return {row["en"]: row[lang] for row in tables()[THEME].values()}


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
    if config.bibtex_default_style in ("alpha", "ba"):
        config.bibtex_default_style = bibliography_style(config.ba_language or "en", table)
        # The reference list is read into the environment: a change to its words re-reads it.
        words = sorted(bibliography_words(table).items())
        source = Path(__file__).read_bytes()
        config.ba_bibliography = hashlib.sha256(repr(words).encode() + source).hexdigest()[:16]
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


TOGGLE = "Toggle hidden content"  # the aria-label of sphinx-togglebutton's buttons, hard-coded


def _toggle_label(lang: str) -> tuple[str, str]:
    """(the English aria-label attribute, the same attribute in ``lang``)."""
    import html

    label = messages(lang).get(TOGGLE, TOGGLE)
    return f'aria-label="{TOGGLE}"', f'aria-label="{html.escape(label)}"'


def on_build_finished(app, exception):
    """Lay the messages over Sphinx's JavaScript catalogue too (the search page's "found N pages"
    line is an empty string in the it and fi catalogues, so the page showed nothing), and put the
    aria-label of sphinx-togglebutton's buttons (a solution's chevron, which has no text) in the
    page's language. (myst-nb's folded cells had the same English label on a <summary>; the reader
    site drops it there, since the summary's visible text names it: reader_site.py.)"""
    import json

    if exception is not None or app.builder.format != "html":
        return
    lang = app.config.ba_language or app.config.language
    toggle = Path(app.outdir) / "_static" / "togglebutton.js"
    english, local = _toggle_label(lang)
    if toggle.exists() and english != local:
        toggle.write_text(toggle.read_text(encoding="utf-8").replace(english, local), encoding="utf-8")
    table = messages(lang)
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


# pybtex's templates hold the style's words as plain strings ("In", "pages", "volume"): while a
# ba_<lang> style formats an entry, template._format_data gives them in the page's language.
_WORDS: dict[str, str] = {}
PREFIX = "bibliography:"
ET_AL = " et al."


def _patch_pybtex_templates():
    from pybtex.style import template

    if getattr(template._format_data, "ba_localised", False):
        return

    def _format_data(node, data):
        try:
            f = node.format_data
        except AttributeError:
            return _WORDS.get(node, node) if isinstance(node, str) else node
        return f(data)

    _format_data.ba_localised = True
    template._format_data = _format_data


def _cache_pybtex_plugin_lookup():
    """pybtex finds each plugin (a style, a backend) by scanning every installed package's entry
    points, on every lookup: about 200 lookups per language built (0.7 s of its 8 s). The entry
    points do not change during a build, so each scan's result is kept."""
    from functools import cache

    from pybtex import plugin

    if getattr(plugin.entry_points, "ba_cached", False):
        return
    scan = plugin.entry_points

    @cache
    def entry_points(**selection):
        return tuple(scan(**selection))

    entry_points.ba_cached = True
    plugin.entry_points = entry_points


def _patch_citation_year():
    """In-text author-year citations print the year with the letter of its label (2025a), so that
    two works of the same authors and year are told apart as in the reference list."""
    import re

    from pybtex.richtext import Text
    from pybtex.style.template import node
    from sphinxcontrib.bibtex.style.referencing import basic_author_year
    from sphinxcontrib.bibtex.style.template import year

    if getattr(basic_author_year.year, "ba_localised", False):
        return

    @node
    def year_with_letter(children, data):
        text = year.format_data(data)
        entry = data.get("formatted_entry")
        match = re.search(r"(\d{4})([a-z])$", str(getattr(entry, "label", "")))
        if match and str(text) == match.group(1):
            return Text(text, match.group(2))
        return text

    year_with_letter.ba_localised = True
    basic_author_year.year = year_with_letter


def bibliography_words(table: dict[str, str]) -> dict[str, str]:
    """{English word of the bibliography style: its translation} from the ``bibliography:`` rows
    (plus "and")."""
    words = {k[len(PREFIX) :]: v for k, v in table.items() if k.startswith(PREFIX)}
    if "and" in table:
        words.setdefault("and", table["and"])
    return words


def english_ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def author_year_label(entry, word_and: str) -> str:
    """The label of an entry as the chapters cite it: "Brier, 1950", "Chicco e Jurman, 2020",
    "Brodersen et al., 2010" (the surname with its "van"/"von", as in-text citations print it)."""
    from pybtex.richtext import Text

    people = entry.persons.get("author") or entry.persons.get("editor") or []
    surnames = [Text.from_latex(" ".join(p.prelast_names + p.last_names)).render_as("text") for p in people]
    if surnames and surnames[-1] == "others":  # "Pedregosa and others": Pedregosa et al.
        return f"{surnames[0]}{ET_AL}, {entry.fields.get('year', '')}".rstrip(", ")
    if not surnames:
        who = Text.from_latex(entry.fields.get("title", entry.key)).render_as("text")
    elif len(surnames) == 1:
        who = surnames[0]
    elif len(surnames) == 2:
        who = f"{surnames[0]} {word_and} {surnames[1]}"
    else:
        who = surnames[0] + ET_AL
    return f"{who}, {entry.fields.get('year', '')}".rstrip(", ")


def bibliography_style(lang: str, table: dict[str, str]) -> str:
    """Register the pybtex formatting style of ``lang``'s reference list; returns its name."""
    import re

    from pybtex.plugin import register_plugin
    from pybtex.richtext import String, Text
    from pybtex.style.formatting.unsrt import Style as UnsrtStyle
    from pybtex.style.labels import BaseLabelStyle
    from pybtex.style.template import field, names, optional, sentence

    _cache_pybtex_plugin_lookup()
    _patch_pybtex_templates()
    _patch_citation_year()
    words = bibliography_words(table)
    word_and = words.get("and", "and")
    edition = words.get("{n} edition")
    # Words inside the bibliography's own fields (note, howpublished): "Chapter 7", "section 3.4".
    others = re.compile(rf",? {re.escape(word_and)} others\b\.?")
    in_fields = [
        (re.compile(r"\b" + re.escape(msg).replace(r"\{n\}", r"(\d[\d.]*)") + r"(?![\w])"), words[msg])
        for msg in ("Chapter {n}", "section {n}")
        if msg in words
    ]

    class Labels(BaseLabelStyle):
        def format_labels(self, sorted_entries):
            labels = [author_year_label(e, word_and) for e in sorted_entries]
            count: dict[str, int] = {}
            for label in labels:
                if labels.count(label) > 1:  # two works of the same authors and year: 2025a, 2025b
                    count[label] = count.get(label, 0) + 1
                    label += "abcdefghijklmnopqrstuvwxyz"[count[label] - 1]
                yield label

    def localise_fields(text):
        for part in getattr(text, "parts", ()):
            if isinstance(part, String):
                part.value = others.sub(ET_AL, part.value)
                for pattern, replacement in in_fields:
                    part.value = pattern.sub(
                        lambda m, r=replacement: r.replace("{n}", m.group(1)), part.value
                    )
            else:
                localise_fields(part)
        return text

    def edition_text(value):
        number = str(value).strip().rstrip(".")
        if number.isdigit():
            if edition:
                return Text(edition.replace("{n}", number))
            return Text(f"{english_ordinal(int(number))} edition")
        return Text(f"{str(value).lower()} {words.get('edition', 'edition')}")

    class LocalStyle(UnsrtStyle):
        default_label_style = f"ba_author_year_{lang}"
        default_sorting_style = "author_year_title"

        def format_names(self, role, as_sentence=True):
            last = f", {word_and} " if lang == "en" else f" {word_and} "
            formatted = names(role, sep=", ", sep2=f" {word_and} ", last_sep=last)
            return sentence[formatted] if as_sentence else formatted

        def format_edition(self, e):
            return optional[field("edition", apply_func=edition_text)]

        def format_entry(self, label, entry, bib_data=None):
            _WORDS.clear()
            _WORDS.update({k: v for k, v in words.items() if "{n}" not in k and k != "and"})
            try:
                formatted = super().format_entry(label, entry, bib_data=bib_data)
            finally:
                _WORDS.clear()
            localise_fields(formatted.text)
            return formatted

    register_plugin("pybtex.style.labels", f"ba_author_year_{lang}", Labels, force=True)
    register_plugin("pybtex.style.formatting", f"ba_{lang}", LocalStyle, force=True)
    return f"ba_{lang}"


CHAPTER = re.compile(r"^chapters/[^/]+/(\d+)-")  # chapters/it/03-calibration: chapter 3


def chapter_number(docname: str) -> int | None:
    """The number of a chapter (its file's prefix, its place among the toc's chapters 1-5), or
    None for every other page (how-to-use, the labs, the glossary)."""
    match = CHAPTER.match(docname)
    return int(match.group(1)) if match else None


def item_number(docname: str, position: int) -> str:
    """How the site numbers the ``position``-th figure (or exercise, table...) of a page: "3.2" in
    chapter 3, "2" on any other page (a lab's figures are counted within the lab)."""
    chapter = chapter_number(docname)
    return f"{chapter}.{position}" if chapter is not None else str(position)


def on_env_get_updated(app, env):
    """Figures and exercises numbered per chapter: 3.1, 3.2 ... in chapter 3 (Sphinx numbers them
    across the whole book unless the toc numbers its sections, which would put "2." before chapter
    1's headings, how-to-use being the toc's first page). Runs after Sphinx's toc collector has
    assigned its numbers (``env.toc_fignumbers``, read by the HTML writer, {numref} and
    sphinx-exercise) and renumbers each page's items in their order, prefixed by the chapter's
    number (see item_number)."""
    for docname, figtypes in env.toc_fignumbers.items():
        chapter = chapter_number(docname)
        prefix = (chapter,) if chapter is not None else ()
        for numbers in figtypes.values():
            for position, ident in enumerate(sorted(numbers, key=numbers.__getitem__), start=1):
                numbers[ident] = (*prefix, position)
    return []


PLOT_ALT = "Plot drawn by the code above: %s"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg", ".gif")
FIGURE_REPR = re.compile(r"^<Figure size [^>]*>$")  # matplotlib's own plain text of a figure


def _described_plots(document) -> None:
    """A plot of a code cell's output takes as alt text what its figure says it shows: the
    notebook stores beside the image a plain-text form that the course's package writes from the
    figure's own texts in the notebook's language (beyond_accuracy.plots.describe_figure). MyST-NB
    keeps every form of an output in a mime bundle until its SelectMimeType post-transform
    (priority 4) keeps the image; this runs just before it."""
    from docutils import nodes

    for bundle in document.findall(nodes.container):
        if bundle.get("nb_element") != "mime_bundle":
            continue
        forms = {
            child.get("mime_type"): child for child in bundle.children if isinstance(child, nodes.container)
        }
        plain = forms.get("text/plain")
        text = " ".join(plain.astext().split()) if plain is not None else ""
        if not text or FIGURE_REPR.match(text):
            continue
        for mime_type, form in forms.items():
            if mime_type and mime_type.startswith("image/"):
                for image in form.findall(nodes.image):
                    image["alt"] = text


def _plot_descriptions_transform():
    from sphinx.transforms.post_transforms import SphinxPostTransform

    class DescribedPlots(SphinxPostTransform):
        default_priority = 3  # before MyST-NB's SelectMimeType (4) drops the plain text

        def run(self, **kwargs):
            _described_plots(self.document)

    return DescribedPlots


def on_doctree_resolved(app, doctree, docname):
    """A plot of a code cell's output that carries no description of its own (MyST-NB gives it no
    alt text, so the HTML said the image's file path) is described in the page's language:
    "Grafico prodotto dal codice qui sopra: <the title of the section it is in>". The course's
    plots describe themselves (_described_plots); this is the fallback."""
    from docutils import nodes

    template = messages(app.config.ba_language or app.config.language).get(PLOT_ALT, PLOT_ALT)
    for image in doctree.findall(nodes.image):
        alt = image.get("alt", "")
        if alt and not alt.lower().endswith(IMAGE_SUFFIXES):
            continue
        section = image.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        title = section[0].astext() if section is not None and len(section) else app.config.project
        image["alt"] = template.replace("%s", title)


def on_builder_inited(app):
    quotes = app.config.ba_quotes or {}
    if quotes:
        existing = list(app.env.settings.get("smartquotes_locales") or [])
        app.env.settings["smartquotes_locales"] = existing + [(tag, marks) for tag, marks in quotes.items()]


def setup(app):
    app.add_config_value("ba_quotes", {}, "env")
    app.add_config_value("ba_bibliography", "", "env")
    if not hasattr(app.config, "ba_language"):  # also declared by language_switcher
        app.add_config_value("ba_language", "", "html")
    # Before Sphinx (priority 800) and sphinx-exercise (500) read "Fig. %s" and "Exercise" for
    # their numfig_format defaults.
    app.connect("config-inited", on_config_inited, priority=100)
    app.connect("build-finished", on_build_finished)
    app.connect("builder-inited", on_builder_inited)
    app.connect("doctree-resolved", on_doctree_resolved)
    app.add_post_transform(_plot_descriptions_transform())
    app.connect("env-get-updated", on_env_get_updated, priority=900)  # after the toc collector (500)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
