"""Sphinx extension: the kernel-free explorers on the static pages.

The notebooks store each explorer as a ``text/html`` output (a ``.ba-widget`` element holding the
exported JSON; see src/beyond_accuracy/explorers/_widget.py). This extension

- writes the bundle of every explorer module (``beyond_accuracy.explorers.esm(name)``, exactly the
  text anywidget loads in a notebook) and the loader to ``_static/explorers/`` of the HTML output;
- adds the loader to every page as a module script (it imports a bundle only where a page has an
  explorer, so a page without one loads 2 kB);
- makes myst-nb render ``text/html`` rather than the widget view: the stored view refers to a
  kernel-side model that does not exist on a static page.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = "explorers"
# text/html before the widget view (myst-nb sorts ascending; its default gives the view 10, html 30)
MIME_OVERRIDES = [
    ("html", "text/html", 5),
    ("html", "application/vnd.jupyter.widget-view+json", 35),
]


def bundles() -> dict[str, str]:
    """{file name: text} of what goes to _static/explorers/: one bundle per module and the loader."""
    from beyond_accuracy.explorers import esm, loader, modules

    files = {f"{name}.js": esm(name) for name in modules()}
    files["loader.js"] = loader()
    return files


def on_config_inited(app, config):
    overrides = list(config.nb_mime_priority_overrides or [])
    present = {(b, m) for b, m, _ in overrides}
    overrides += [o for o in MIME_OVERRIDES if (o[0], o[1]) not in present]
    config.nb_mime_priority_overrides = overrides


def on_build_finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir) / "_static" / FOLDER
    out.mkdir(parents=True, exist_ok=True)
    for name, text in bundles().items():
        (out / name).write_text(text, encoding="utf-8")


def setup(app):
    app.setup_extension("myst_nb")
    app.connect("config-inited", on_config_inited, priority=600)
    app.connect("build-finished", on_build_finished)
    app.add_js_file(f"{FOLDER}/loader.js", type="module")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
