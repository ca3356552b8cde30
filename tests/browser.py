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


def screenshot_steps(page: str, steps: tuple[int, ...], out: str, width: int = 900, height: int = 1400) -> None:
    """A PNG of ``page`` (a viewer HTML file) at each of ``steps``, side by side (for docs/)."""
    import pathlib
    page_uri = pathlib.Path(page).resolve().as_uri()
    frames = "".join(f'<iframe src="{page_uri}#step={n}" style="width:{width}px;height:{height}px;border:0;'
                     f'border-right:3px solid #9ca3af"></iframe>' for n in steps)
    wrapper = pathlib.Path(tempfile.mkdtemp(prefix="riftsim-shot-")) / "steps.html"
    wrapper.write_text(f'<html><body style="margin:0;display:flex">{frames}</body></html>', encoding="utf-8")
    d = start(width * len(steps) + 3 * len(steps), height)
    try:
        d.get(wrapper.as_uri())
        d.save_screenshot(str(out))
    finally:
        d.quit()
        shutil.rmtree(wrapper.parent, ignore_errors=True)


if __name__ == "__main__":     # python tests/browser.py PAGE.html OUT.png STEP STEP
    import sys
    screenshot_steps(sys.argv[1], tuple(int(x) for x in sys.argv[3:]), sys.argv[2])
