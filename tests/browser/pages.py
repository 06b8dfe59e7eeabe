"""Helpers of the browser tests (import as `from pages import console_errors`)."""


def console_errors(browser) -> list[str]:
    """The SEVERE entries of the console since the last call (page errors, failed requests)."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
