"""Deriving editions: the student notebooks and answer keys (derive), the wheel the notebooks
install (wheel), the Colab-like run (colab), JupyterLab on the student notebooks (lab) and what the
publish workflow uploads (publish)."""
