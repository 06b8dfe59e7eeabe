# Beyond Accuracy — every task of the project. Each target sets up what it needs first
# (a virtual environment in .venv with the pinned dependencies), so on a fresh machine with
# Python 3.11+ and access to the package index:
#   make book    builds the whole site, all five languages     -> _build/site/index.html
#   make test    lint (ruff), then every test (unit, checks, nbval, parity, figures, build)
#   make mutation  mutation score of the helper package's fast tests (not part of make test)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
JOBS   ?= 2

.PHONY: setup book test notebooks figures bench serve lock clean grade \
        test-times editions instructor slides handouts handouts-test quizzes lab colab bounds publish unit lint linkcheck wheel translations typography \
        mutation notebook prose code check

# LANG is also the shell's locale (C.UTF-8, en_US.UTF-8, ...): only a LANG given on make's command
# line (`make lab LANG=it`) names a course language, and the commands it runs keep the shell's locale.
COURSE_LANG := $(if $(filter command line,$(origin LANG)),$(LANG))
ifeq ($(origin LANG),command line)
unexport LANG
endif

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[book,test]"
	touch $@

setup: $(STAMP)            ## create .venv with the pinned dependencies

book: $(STAMP)             ## build the reader's site, every language
	$(PY) -m tools.book.build --jobs $(JOBS)

editions: $(STAMP)         ## student notebooks + answer keys of every chapter and lab -> _build/publish/, _build/answer-keys/
	$(PY) -m tools.editions.derive

instructor: $(STAMP)       ## instructor's pack per language -> _build/instructor/<lang>/ and a .zip each
	$(PY) -m tools.teaching.instructor

slides: $(STAMP)           ## reveal.js decks of every chapter -> _build/slides/<lang>/
	$(PY) -m tools.teaching.slides

handouts: $(STAMP)         ## PDFs of the decks and exercise sheets (headless Chromium) -> _build/handouts/<lang>/
	$(PY) -m tools.teaching.handouts

handouts-test: $(STAMP)    ## the handouts' tests in every language (make test prints one language's; minutes a language)
	BA_ALL_HANDOUTS=1 $(PY) -m pytest -n $(JOBS) -p no:cacheprovider -m "" tests/browser/test_handouts.py

quizzes: $(STAMP)          ## the chapters' quizzes as Moodle XML, GIFT and QTI 1.2 -> _build/quizzes/<lang>/
	$(PY) -m tools.teaching.quiz_export

# `make lab LANG=it` opens the student notebooks of a language in JupyterLab (workspace/<lang>/);
# without LANG=, English.
LAB_LANG := $(or $(COURSE_LANG),en)
LAB_STAMP := $(VENV)/.lab-installed
$(LAB_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt -e ".[lab]"
	touch $@

lab: $(LAB_STAMP)          ## JupyterLab on the student notebooks of a language: make lab LANG=it
	$(PY) -m tools.editions.lab --lang $(LAB_LANG)

# `make translations` lists the translated pages that are behind their English source (exit 0);
# CHECK=1 exits 1 if any is; RECORD=1 records them as up to date, optionally only LANG=it and/or
# PAGES="chapters/en/02-imbalance.md labs/it/03-trust-lab.md" (English or translated paths).
TR_LANG := $(if $(filter $(COURSE_LANG),it es pt fi),--lang $(COURSE_LANG))
translations: $(STAMP)     ## translated pages behind English: CHECK=1 fails on any; RECORD=1 [LANG=it] [PAGES=...] records
	$(PY) -m tools.language.translations $(if $(CHECK),--check) $(if $(RECORD),--record $(PAGES)) $(TR_LANG)

# `make typography` applies the typographic rules of each language to the prose of the chapter and
# lab sources and to every string of the catalogue, src/beyond_accuracy/data/strings/
# (tools/language/typography.py); CHECK=1 changes nothing and exits 1 if anything needs changes.
typography: $(STAMP)       ## per-language typography of the pages' prose and the catalogue: CHECK=1 fails if any needs it
	$(PY) -m tools.language.typography $(if $(CHECK),--check)

# `make colab`: Colab's runtime (tools/editions/colab_runtime.csv: Python, numpy, scikit-learn 1.6.1,
# ipywidgets 7.7.1 ...) in _build/colab/venv, the notebooks' install cell run in it as Colab runs it,
# then every chapter and lab in every language from a folder holding only the student notebook,
# each with its time; fails if a check, an output or ipywidgets 7 is not as stored/kept.
# ARGS="--labs-only", "--lang it", "--only 03-trust" for less. Needs the package index; heavy: nice it.
colab: $(STAMP)            ## Colab-like run of every chapter and lab (needs the package index)
	$(PY) -m tools.editions.colab $(ARGS)

# `make bounds` tries the lower bounds of pyproject.toml's dependencies in throwaway environments
# (pyenv's Pythons) and records each trial in tools/maintenance/bound_trials.csv, which
# tests/test_environment.py reads. Needs the package index; about 3 minutes a trial.
bounds: $(STAMP)           ## try the dependency bounds (needs the package index) -> bound_trials.csv
	$(PY) -m tools.maintenance.bounds $(ARGS)

wheel: $(STAMP)            ## the package's wheel -> dist/
	$(PY) -m tools.editions.wheel

publish: $(STAMP)          ## what the publish workflow uploads: the site -> _build/pages/, notebooks -> _build/publish/, packs
	$(PY) -m tools.editions.publish

lint: $(STAMP)             ## ruff check and ruff format --check (settings in pyproject.toml; changes nothing)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

unit: lint                 ## lint, then the fast tests: no notebook execution, no site build
	$(PY) -m pytest -n $(JOBS) --dist loadscope --no-loadscope-reorder -m "not slow" --hypothesis-profile=unit tests

# `make mutation` plants one-line bugs in metrics, language, ordinal, checks/_engine and plots with
# mutmut, runs the fast tests that call each mutated function, and prints the score (equivalent
# mutants, listed in tools/maintenance/mutation_equivalents.csv, left out) and every surviving mutant.
# A complete run (4,349 mutants) took 28 minutes on 2 cores (1,657 s, 2026-12-02);
# ARGS='beyond_accuracy.ordinal*' for one module, ARGS=--resume to finish a stopped run.
MUT_STAMP := $(VENV)/.mutation-installed
$(MUT_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt -e ".[mutation]"
	touch $@

mutation: $(MUT_STAMP)     ## mutation testing of the helper package (mutmut): score and surviving mutants
	$(PY) -m tools.maintenance.mutation --max-children $(JOBS) $(ARGS)

linkcheck: $(STAMP)        ## check the site's external links and the published notebooks (needs the network)
	$(PY) -m tools.editions.publish --linkcheck

# `make test`: one module or test class per worker at a time (--dist loadscope; a chapter's or lab's
# notebook in all five languages is one unit, run by nbval in one kernel: tests/nbval_kernels.py),
# in the order that tests/conftest.py sets (longest work first, the tests of the built sites last,
# while the sites build in the background), which --no-loadscope-reorder keeps.
# SHARD=k/N runs the k-th of N parts of it (CI's jobs side by side; tests/sharding.py): the N parts
# together are exactly `make test`.
TEST_ARGS = -n $(JOBS) --dist loadscope --no-loadscope-reorder --nbval --nbval-current-env \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg tests chapters labs

test: lint                 ## lint, then every test; notebooks re-executed by nbval ([SHARD=k/N]: one part of them)
	$(PY) -m pytest $(TEST_ARGS) $(if $(SHARD),--shard $(SHARD))

test-times: $(STAMP)       ## every test, writing the seconds each unit took to tests/scope_times.csv (SHARD's weights)
	$(PY) -m pytest $(TEST_ARGS) --record-scope-times tests/scope_times.csv

# The edit loop (README, "Everyday tasks"): one command per edit. NB= names a notebook's source
# (chapters/en/02-imbalance.md); ALL=1 means the same notebook in every language, LANGS="it es" in
# these. Before executing, the English code cells are copied into the translations (code is written
# once, in English). A path that is not a notebook source is refused.
NB_LANGS := $(if $(ALL),--languages all,$(if $(LANGS),--languages "$(LANGS)"))

notebooks: $(STAMP)        ## re-execute every chapter/lab and re-sync its .ipynb ([LANGS="it es"]: only these)
	$(PY) -m tools.book.notebooks --jobs $(JOBS) $(NB_LANGS)

notebook: $(STAMP)         ## re-execute one notebook: NB=chapters/en/02-imbalance.md [ALL=1 | LANGS="it es"]
	$(if $(NB),,$(error make notebook needs NB=<a chapter or lab .md>; make notebooks runs them all))
	$(PY) -m tools.book.notebooks --jobs $(JOBS) $(NB_LANGS) $(NB)

prose: $(STAMP)            ## copy Markdown edits into the .ipynb, nothing executed: [NB=path [ALL=1 | LANGS=..]]
	$(PY) -m tools.book.notebooks --prose-only $(NB_LANGS) $(NB)

code: $(STAMP)             ## copy the English code cells into the translations' .md: [NB=chapters/en/x.md]
	$(PY) -m tools.book.notebooks --code-only $(NB_LANGS) $(NB)

check: $(STAMP)            ## the tests of one page, with nbval of its notebook: NB=path [ALL=1 | LANGS=..]
	$(if $(NB),,$(error make check needs NB=<a page's .md>))
	$(PY) -m tools.book.check $(NB_LANGS) $(NB)

figures: $(STAMP)          ## regenerate every figure in every language
	$(PY) -m tools.book.figures

grade: $(STAMP)            ## grade submissions: make grade LAB=3 LANG=it SUBMISSIONS=folder-or.zip [OUT=path/] [ROSTER=class.csv]
	$(if $(COURSE_LANG),,$(error make grade needs the submissions' language: LANG=en|it|es|pt|fi))
	$(PY) -m tools.teaching.grading --lab "$(LAB)" --lang "$(COURSE_LANG)" --submissions "$(SUBMISSIONS)" \
	    $(if $(OUT),--out "$(OUT)") $(if $(ROSTER),--roster "$(ROSTER)") --jobs $(JOBS)

bench: $(STAMP)            ## build and execution timings (prints figures, asserts nothing)
	$(PY) -m tools.maintenance.bench

serve: book                ## serve the built site on http://localhost:8000
	$(PY) -m http.server --directory _build/site 8000

lock: $(STAMP)             ## re-pin constraints.txt from the current environment
	$(PY) -m tools.maintenance.lock

clean:
	rm -rf _build
