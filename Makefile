# Beyond Accuracy — every task of the project. Each target sets up what it needs first
# (a virtual environment in .venv with the pinned dependencies), so on a fresh machine with
# Python 3.11+ and access to the package index:
#   make book    builds the whole site, all five languages     -> _build/site/index.html
#   make test    runs every test (unit, checks, nbval, parity, figures, build)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
JOBS   ?= 2

.PHONY: setup book student test notebooks figures bench serve lock clean grade

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[book,test]"
	touch $@

setup: $(STAMP)            ## create .venv with the pinned dependencies

book: $(STAMP)             ## build the reader's site, every language
	$(PY) -m tools.build --jobs $(JOBS)

student: $(STAMP)          ## student notebooks and student site, solutions removed
	$(PY) -m tools.student

test: $(STAMP)             ## every test; notebooks re-executed by nbval
	$(PY) -m pytest -n $(JOBS) --dist loadscope --nbval --nbval-current-env \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg tests chapters labs

notebooks: $(STAMP)        ## re-execute every chapter/lab and re-sync its .ipynb
	$(PY) -m tools.notebooks --jobs $(JOBS)

figures: $(STAMP)          ## regenerate every figure in every language
	$(PY) -m tools.figures

grade: $(STAMP)            ## grade submissions: make grade LAB=3 LANG=it SUBMISSIONS=path/ [OUT=path/]
	$(PY) -m tools.grading --lab "$(LAB)" --lang "$(LANG)" --submissions "$(SUBMISSIONS)" \
	    $(if $(OUT),--out "$(OUT)") --jobs $(JOBS)

bench: $(STAMP)            ## build and execution timings (prints figures, asserts nothing)
	$(PY) -m tools.bench

serve: book                ## serve the built site on http://localhost:8000
	$(PY) -m http.server --directory _build/site 8000

lock: $(STAMP)             ## re-pin constraints.txt from the current environment
	$(PY) -m tools.lock

clean:
	rm -rf _build
