"""The nbval sanitiser blanks only what is volatile: memory addresses, not figure sizes."""

import configparser
import re

from tools.project import ROOT


def rules() -> list[tuple[re.Pattern, str]]:
    config = configparser.ConfigParser()
    config.read(ROOT / "tests" / "nbval_sanitize.cfg")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


def sanitise(text: str) -> str:
    for pattern, replace in rules():
        text = pattern.sub(replace, text)
    return text


def test_figure_sizes_are_compared():
    assert sanitise("<Figure size 480x560 with 2 Axes>") == "<Figure size 480x560 with 2 Axes>"


def test_memory_addresses_are_blanked():
    assert sanitise("<object at 0x7f3a12bc90d0>") == "<object at 0xADDRESS>"
