"""Maintaining the repository: benchmarks (bench), re-pinning dependencies (lock) and mutation
testing (mutation)."""
