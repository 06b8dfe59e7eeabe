"""Sphinx extension: the kernel-free explorers on the static pages.

The notebooks store each explorer as a ``text/html`` output (a ``.ba-widget`` element holding the
exported JSON; see src/beyond_accuracy/explorers/_widget.py). This extension

- adds the loader, ``_static/explorers/loader.js``, to every page as a module script (it imports a
  bundle only where a page has an explorer, so a page without one loads 2 kB); tools/book/build.py
  writes the loader and the bundles (``install_explorers``) once per site, after Sphinx: importing
  the explorers here would cost each language's Sphinx process 1.4 s of CPU (scikit-learn, pandas);
- makes myst-nb render ``text/html`` rather than the widget view: the stored view refers to a
  kernel-side model that does not exist on a static page.
"""

from __future__ import annotations

FOLDER = "explorers"
# text/html before the widget view (myst-nb sorts ascending; its default gives the view 10, html 30)
MIME_OVERRIDES = [
    ("html", "text/html", 5),
    ("html", "application/vnd.jupyter.widget-view+json", 35),
]


def on_config_inited(app, config):
    overrides = list(config.nb_mime_priority_overrides or [])
    present = {(b, m) for b, m, _ in overrides}
    overrides += [o for o in MIME_OVERRIDES if (o[0], o[1]) not in present]
    config.nb_mime_priority_overrides = overrides


def setup(app):
    app.setup_extension("myst_nb")
    app.connect("config-inited", on_config_inited, priority=600)
    app.add_js_file(f"{FOLDER}/loader.js", type="module")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
