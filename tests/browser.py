"""Headless Chromium for the viewer tests: Debian's ``chromium`` and ``chromium-driver`` (installed by
``.ci/run``) driven by Selenium; no browser download, no network.

:func:`start` returns a driver, or raises :class:`Missing` naming what is missing.
"""
from __future__ import annotations

import os
import shutil
import tempfile

CHROMIUM = os.environ.get("RIFTSIM_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("RIFTSIM_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


class Missing(RuntimeError):
    pass


def start(width: int = 1400, height: int = 1000):
    """A headless Chromium driven by Selenium, with a fresh profile (``driver.profile`` is removed by quit)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise Missing("selenium is not installed (pip install -e '.[test]')") from None
    for path, package in ((CHROMIUM, "chromium"), (DRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise Missing(f"{path} is missing (apt-get install {package})")
    profile = tempfile.mkdtemp(prefix="riftsim-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={width},{height}")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    except Exception:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    quit_ = driver.quit

    def quit() -> None:
        try:
            quit_()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit
    return driver
