"""Build the whole site: one Jupyter Book per language plus a landing page to choose one.

For every language the build stages a book in _build/stage/<lang>/ that mirrors the repository's
paths: the rendered, verified .ipynb of each chapter and lab, the plain .md pages, figures, the
bibliography and a generated glossary, with a _config.yml and _toc.yml derived from the ones at
the top of the repository. Then it runs `jupyter-book build -W -n --keep-going` on each (two at a
time) and assembles _build/site/.

Every launch and download button opens the student notebook (tools/book/launch.py): the build first
writes the student notebooks and answer keys of the languages it builds (tools/editions/derive.py) into
_build/publish/ and _build/answer-keys/, points the launch buttons at the notebooks branch that the
publish workflow fills from _build/publish/, and puts the same files behind the download button.
Each chapter page links to its slides (tools/teaching/slides.py), served at <lang>/slides/. A translated page
that is behind its English source (tools/language/translations.py) gets a localised notice under its title.

The labs are shown as students get them: the student edition's cell rules (tools/editions/derive.py:
no ``solution`` cell's code, no ``{solution}`` block, no stored output of a check cell or of a cell
tagged ``hide-output-student``, no ``remove-student`` cell), with MyST kept for Sphinx; their
answers live in the answer keys (_build/answer-keys/, the instructor pack). The chapters keep their
worked solutions, for self-study. There is one site: the separate student site is gone.

    python -m tools.book.build             # the reader's site        -> _build/site/
"""

from __future__ import annotations

import argparse
import html
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

from beyond_accuracy.language import quotes, term
from tools.book.glossary import glossary_markdown
from tools.book.launch import install_downloads, install_figures, launch_settings
from tools.book.sphinx.explorers import FOLDER as EXPLORERS  # where the pages load loader.js from
from tools.editions.derive import lab_page_notebook, student_markdown, write_editions
from tools.language.translations import add_notice_to_notebook, behind_pages, notice, with_notice
from tools.project import BUILD, KINDS, ROOT, config, languages, reference_language, site_url, toc
from tools.teaching.slides import slides_link, write_decks


def localise_path(path: str, lang: str) -> str:
    ref = reference_language()
    return "/".join(lang if part == ref else part for part in path.split("/"))


def derived_toc(lang: str) -> dict:
    def walk(node):
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key in ("file", "root"):
                    out[key] = localise_path(value, lang)
                elif key == "caption":
                    out[key] = term("toc_" + value.lower(), lang)
                else:
                    out[key] = walk(value)
            return out
        if isinstance(node, list):
            return [walk(x) for x in node]
        return node

    return walk(toc())


def smart_quotes() -> dict[str, str]:
    """{docutils language tag: quotation marks} of every language, from the catalogue's
    typography.quotes (their one home); tools/book/sphinx/localisation.py gives them to docutils'
    smart quotes (its ``smartquotes_locales``), so the HTML has the marks the sources have."""
    locales = config()["course"].get("sphinx_locales", {})
    return {locales.get(lang, lang).lower().replace("_", "-"): quotes(lang) for lang in languages()}


def derived_config(lang: str) -> dict:
    cfg = config()
    cfg.pop("course", None)
    sphinx = cfg.setdefault("sphinx", {})
    sphinx["recursive_update"] = True
    sphinx["local_extensions"] = {
        name: str(ROOT / path) for name, path in (sphinx.get("local_extensions") or {}).items()
    }
    sc = sphinx.setdefault("config", {})
    sc["language"] = config()["course"].get("sphinx_locales", {}).get(lang, lang)
    sc["ba_language"] = lang
    sc["ba_quotes"] = smart_quotes()
    sc["ba_languages"] = languages()
    sc["ba_site_url"] = site_url()  # the language-alternate links are absolute
    sc["ba_language_names"] = {code: term("language_name", code) for code in languages()}
    sc["ba_switcher_label"] = term("language_label", lang)
    sc["ba_search_label"] = term("search_label", lang)
    sc["nb_code_prompt_show"] = term("code_prompt_show", lang)
    sc["nb_code_prompt_hide"] = term("code_prompt_hide", lang)
    sc["togglebutton_hint"] = term("toggle_show", lang)
    sc["togglebutton_hint_hide"] = term("toggle_hide", lang)
    sc["html_theme_options"] = {"search_bar_text": term("search_placeholder", lang)}
    cfg["bibtex_bibfiles"] = [str(ROOT / b) for b in cfg.get("bibtex_bibfiles", [])]
    return cfg


def stage(lang: str, out: Path) -> Path:
    """Lay out the sources of one language's book in out/<lang>/ (the labs as students get them)."""
    dest = out / lang
    if dest.exists():
        shutil.rmtree(dest)
    behind = behind_pages(lang) if lang != reference_language() else set()
    for kind in KINDS:
        src = ROOT / kind / lang
        if not src.exists():
            continue
        target = dest / kind / lang
        target.mkdir(parents=True)
        for path in sorted(src.iterdir()):
            if path.is_dir():
                shutil.copytree(path, target / path.name)
            elif path.suffix == ".ipynb":
                if kind == "labs":
                    lab_page_notebook(path, target / path.name)
                else:
                    shutil.copy2(path, target / path.name)
                if kind == "chapters":
                    link_slides(target / path.name, lang)
                if f"{kind}/{lang}/{path.stem}" in behind:
                    add_notice_to_notebook(target / path.name, notice(f"{kind}/{lang}/{path.stem}", lang))
            elif path.suffix == ".md" and not path.with_suffix(".ipynb").exists():
                text = path.read_text(encoding="utf-8")
                text = student_markdown(text) if kind == "labs" else text
                if f"{kind}/{lang}/{path.stem}" in behind:
                    text = with_notice(text, notice(f"{kind}/{lang}/{path.stem}", lang))
                (target / path.name).write_text(text, encoding="utf-8")
    glossary = dest / "chapters" / lang / "glossary.md"
    glossary.write_text(glossary_markdown(lang), encoding="utf-8")
    (dest / "_config.yml").write_text(
        yaml.safe_dump(launch_settings(derived_config(lang)), allow_unicode=True, sort_keys=False),
        encoding="utf-8",
    )
    (dest / "_toc.yml").write_text(
        yaml.safe_dump(derived_toc(lang), allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return dest


def link_slides(notebook: Path, lang: str) -> None:
    """Add the link to the chapter's slides under the title of a staged chapter notebook."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    first = nb.cells[0]
    if first.cell_type != "markdown" or not first.source.startswith("# "):
        raise ValueError(f"{notebook.name}: a chapter starts with a Markdown cell holding its title")
    first.source = first.source.rstrip() + "\n\n" + slides_link(lang, notebook.stem)
    nbformat.write(nb, notebook)


def install_explorers(lang_site: Path) -> dict[str, str]:
    """The explorers' scripts, which every page loads (tools/book/sphinx/explorers.py), in
    <lang_site>/_static/explorers/: the bundle of each explorer module (exactly the text anywidget
    loads in a notebook) and the loader. Returns {file name: text}."""
    from beyond_accuracy.explorers import esm, loader, modules

    files = {f"{name}.js": esm(name) for name in modules()} | {"loader.js": loader()}
    out = lang_site / "_static" / EXPLORERS
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return files


def finish_language_site(lang_site: Path, lang: str, publish: Path) -> None:
    """What the pages, buttons and links of a built language site need beside Sphinx's output: the
    explorers' scripts, the student notebooks behind the download buttons, the figures at their
    repository paths, the slides."""
    install_explorers(lang_site)
    install_downloads(lang_site, lang, publish)
    install_figures(lang_site, lang)
    write_decks(lang, lang_site / "slides")


def build_one(source: Path, output: Path, log: Path) -> tuple[int, float]:
    start = time.perf_counter()
    cmd = [
        sys.executable,
        "-c",
        "from jupyter_book.cli.main import main; main()",
        "build",
        str(source),
        "--path-output",
        str(output),
        "-W",
        "-n",
        "--keep-going",
        "--builder",
        "html",
    ]
    with log.open("w", encoding="utf-8") as fh:
        code = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT).returncode
    return code, time.perf_counter() - start


def landing_page() -> str:
    root_page = localise_path(toc()["root"], "en")
    items = []
    for lang in languages():
        page = localise_path(root_page, lang)
        items.append(
            f'<li><a href="{lang}/{page}.html" hreflang="{lang}" lang="{lang}">'
            f'<span class="name">{html.escape(term("language_name", lang))}</span>'
            f'<span class="sub">{html.escape(term("book_subtitle", lang))}</span></a></li>'
        )
    alternates = "\n".join(
        f'<link rel="alternate" hreflang="{lang}" href="{lang}/{localise_path(root_page, lang)}.html">'
        for lang in languages()
    )
    template = (ROOT / "tools" / "book" / "templates" / "landing.html").read_text(encoding="utf-8")
    title = config()["title"]
    prompt = " · ".join(html.escape(term("choose_language", lang)) for lang in languages())
    return (
        template.replace("{{title}}", html.escape(title))
        .replace("{{alternates}}", alternates)
        .replace("{{prompt}}", prompt)
        .replace("{{languages}}", "\n".join(items))
    )


def build(
    langs: list[str] | None = None,
    jobs: int = 2,
    root: Path = BUILD,
    editions: Path | None = None,
) -> int:
    """Build the site into root/site; returns 0 on success. ``editions``: a folder where
    write_editions already wrote publish/ and answer-keys/, copied instead of written again (the
    tests write them once per run)."""
    stage_root = root / "stage" / "reader"
    lang_root = root / "books" / "reader"
    site = root / "site"
    langs = langs or languages()
    publish = root / "publish"
    if editions is None:
        write_editions(langs, publish=publish, keys=root / "answer-keys")
    else:
        for folder in ("publish", "answer-keys"):
            shutil.copytree(Path(editions) / folder, root / folder, dirs_exist_ok=True)
    sources = {lang: stage(lang, stage_root) for lang in langs}
    lang_root.mkdir(parents=True, exist_ok=True)
    failures = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {
            lang: pool.submit(build_one, sources[lang], lang_root / lang, lang_root / f"{lang}.log")
            for lang in langs
        }
        for lang, fut in futures.items():
            code, seconds = fut.result()
            status = "ok" if code == 0 else f"FAILED (exit {code}); see {lang_root / f'{lang}.log'}"
            print(f"{seconds:6.1f} s  {lang}: {status}")
            if code:
                failures += 1
                print((lang_root / f"{lang}.log").read_text(encoding="utf-8")[-4000:], file=sys.stderr)
    if failures:
        return 1
    if site.exists() and set(langs) == set(languages()):
        shutil.rmtree(site)  # a full build starts clean; a partial one replaces its languages only
    site.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        shutil.rmtree(site / lang, ignore_errors=True)
        shutil.copytree(lang_root / lang / "_build" / "html", site / lang)
        finish_language_site(site / lang, lang, publish)
    (site / "index.html").write_text(landing_page(), encoding="utf-8")
    shutil.copy2(ROOT / "tools" / "book" / "sphinx" / "static" / "favicon.svg", site / "favicon.svg")
    print(f"site: {site / 'index.html'}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", action="append", help="only these languages (repeatable)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    return build(langs=args.lang, jobs=args.jobs)


if __name__ == "__main__":
    sys.exit(main())
