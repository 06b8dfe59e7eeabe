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
"""

from __future__ import annotations


def on_builder_inited(app):
    quotes = app.config.ba_quotes or {}
    if quotes:
        existing = list(app.env.settings.get("smartquotes_locales") or [])
        app.env.settings["smartquotes_locales"] = existing + [(tag, marks) for tag, marks in quotes.items()]


def setup(app):
    app.add_config_value("ba_quotes", {}, "env")
    app.connect("builder-inited", on_builder_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
