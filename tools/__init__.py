"""Build tooling of the course: the book, notebooks, figures, student version, benchmarks."""
