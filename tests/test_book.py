"""The whole site builds without a single Sphinx warning (-W -n --keep-going), in every language,
with a working language switcher, localised search, launch and download buttons that open the
published student notebooks, and a student edition without solutions."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from site_html import pages

from beyond_accuracy import term
from tools.project import ROOT, install_spec, languages, notebooks_branch, repository_url
from tools.student import student_notebook


def resolve(page: Path, href: str) -> Path:
    return (page.parent / unquote(href.split("#")[0])).resolve()


def test_landing_page_links_every_language(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    for lang in languages():
        hrefs = re.findall(rf'<a href="([^"]+)" hreflang="{lang}"', html)
        assert hrefs and resolve(site / "index.html", hrefs[0]).exists(), f"landing link to {lang} is broken"
        assert term("language_name", lang) in html


@pytest.mark.parametrize("lang", languages())
def test_switcher_reaches_the_same_page_in_every_language(site, lang):
    for page in pages(site, lang, index=False):
        html = page.read_text(encoding="utf-8")
        assert 'class="ba-language-switcher"' in html, f"{page} has no language switcher"
        for other in languages():
            if other == lang:
                continue
            links = re.findall(rf'<a class="ba-language" href="([^"]+)" hreflang="{other}"', html)
            assert links, f"{page.relative_to(site)} has no link to {other}"
            target = resolve(page, links[0])
            assert target.exists(), f"{page.relative_to(site)} links to a missing {other} page"
            expected = str(page.relative_to(site / lang)).replace(f"/{lang}/", f"/{other}/")
            assert target == (site / other / expected).resolve()
            assert f'<link rel="alternate" hreflang="{other}"' in html


@pytest.mark.parametrize("lang", languages())
def test_pages_speak_the_language(site, lang):
    chapter = next((site / lang / "chapters" / lang).glob("01-*.html"))
    html = chapter.read_text(encoding="utf-8")
    assert re.search(rf'<html lang="{lang}(-[A-Z]+)?"', html), "the page does not declare its language"
    assert f'placeholder="{term("search_placeholder", lang)}"' in html
    options = (site / lang / "_static" / "documentation_options.js").read_text(encoding="utf-8")
    assert re.search(rf"LANGUAGE: '{lang}([-_][A-Z]+)?'", options)
    glossary = (site / lang / "chapters" / lang / "glossary.html").read_text(encoding="utf-8")
    assert term("confusion_matrix", lang) in glossary


@pytest.mark.parametrize("lang", languages())
def test_glued_numbers_reach_the_page(site, lang):
    """Every value glued in a notebook appears, localised, in its rendered page."""
    for kind in ("chapters", "labs"):
        for nb_path in (ROOT / kind / lang).glob("*.ipynb"):
            html = (site / lang / kind / lang / f"{nb_path.stem}.html").read_text(encoding="utf-8")
            nb = nbformat.read(nb_path, as_version=4)
            for cell in nb.cells:
                for out in cell.get("outputs", []):
                    if "scrapbook" in out.get("metadata", {}):
                        text = eval(out["data"]["application/papermill.record/text/plain"])  # a str repr
                        assert text.replace("\u00a0", "&nbsp;") in html or text in html, (
                            f"{kind}/{lang}/{nb_path.name}: glued {text!r} not rendered"
                        )


BUTTONS = {
    "colab": re.compile(
        r'https://colab\.research\.google\.com/github/([^/"]+/[^/"]+)/blob/([^/"]+)/([^"]+\.ipynb)'
    ),
    "binder": re.compile(
        r'https://mybinder\.org/v2/gh/([^/"]+/[^/"]+)/([^/?"]+)\?urlpath=lab/tree/([^"]+\.ipynb)'
    ),
}


@pytest.mark.parametrize("which", ["reader", "student"])
def test_every_button_opens_the_student_notebook(which, site, student_site, tmp_path):
    """On both sites, the Colab, Binder and download buttons of every chapter and lab in every
    language lead to the published student notebook (what the notebooks branch holds), at the path
    they name, and that file is what tools/editions.py derives from the chapter or lab."""
    built = site if which == "reader" else student_site
    publish = built.parent / "publish"
    repo = urlparse(repository_url()).path.strip("/")
    notebook_pages = 0
    for lang in languages():
        for kind in ("chapters", "labs"):
            for src in sorted((ROOT / kind / lang).glob("*.ipynb")):
                page = built / lang / kind / lang / f"{src.stem}.html"
                html = page.read_text(encoding="utf-8")
                notebook_pages += 1
                path = f"{kind}/{lang}/{src.name}"
                for name, pattern in BUTTONS.items():
                    found = pattern.findall(html)
                    assert found, f"{which} {path}: no {name} button"
                    for owner_repo, branch, target in found:
                        assert (owner_repo, branch, target) == (repo, notebooks_branch(), path), (
                            f"{which} {path}: the {name} button opens {owner_repo}@{branch}:{target}"
                        )
                downloads = set(re.findall(r'href="((?:\.\./)*_sources/[^"]+\.ipynb)"', html))
                assert downloads, f"{which} {path}: no download button"
                published = publish / path
                expected = student_notebook(src, tmp_path / path).read_bytes()
                assert published.read_bytes() == expected, f"{path}: the published notebook is stale"
                for href in downloads:
                    assert resolve(page, href).read_bytes() == expected, f"{which} {path}: download {href}"
    assert notebook_pages == len(list(ROOT.glob("*/*/*.ipynb"))) >= 10 * len(languages())
    requirements = (publish / "requirements.txt").read_text(encoding="utf-8")
    assert install_spec() in requirements.splitlines(), "Binder would not install the pinned release"


def test_student_site_has_no_solutions(student_site, site):
    for lang in languages():
        reader_has = any(
            'class="solution' in p.read_text(encoding="utf-8") for p in pages(site, lang, index=False)
        )
        assert reader_has, f"the reader's {lang} site shows no solution at all: nothing was tested"
        for page in pages(student_site, lang, index=False):
            assert 'class="solution' not in page.read_text(encoding="utf-8"), f"{page} still shows a solution"


def test_student_notebooks_keep_checks_and_drop_solutions(editions):
    for original_path in sorted(ROOT.glob("labs/*/*.ipynb")):
        path = editions / "publish" / "labs" / original_path.parent.name / original_path.name
        original = nbformat.read(original_path, as_version=4)
        student = nbformat.read(path, as_version=4)
        solutions = [c.source for c in original.cells if "solution" in c.metadata.get("tags", [])]
        assert solutions, f"{path.name} has no solution cells to remove"
        text = "\n".join(c.source for c in student.cells)
        for source in solutions:
            assert source not in text
        assert "check." in text and "= ..." in text
        assert "{solution}" not in text
