"""The one way the end-to-end tests start Chromium (headless, driven by Selenium and
chromium-driver), so that every web test sees the same phone, the same desktop and keeps its
screenshots in the same place.

Use (conftest.py makes the fixtures `phone`, `desktop` and `artifacts` known to every test file):

    from browsers import set_offline, console_errors

    def test_today_on_a_phone(web_box, phone, artifacts):
        web_box.start_web()
        phone.get(web_box.url)                  # the pairing link: the phone is let in
        artifacts.shoot(phone, "today")         # today-390x844.png, and fails if wider than 390 px
        artifacts.shoot(phone, "today", dark=True)   # also today-390x844-dark.png
        set_offline(phone, True)                # DevTools: the network is gone for this tab
        ...
        set_offline(phone, False)
        assert console_errors(phone) == []      # the page's script threw nothing, logged no error

- `phone`: 390×844 at pixel ratio 1, touch, an Android Chrome's user agent (Chromium's own mobile
  emulation, so `pointer: coarse` and touch events are real). `desktop`: a 1280×800 window, mouse
  and keyboard. Both are quit after the test.
- A test that restarts the browser on one profile (cookies, history and service workers kept)
  starts it itself: `driver = start_chromium(PHONE, profile=tmp_path / "profile")`, then
  `driver.quit()` in a `finally`.
- A click or key that loads a page goes in `with next_page(driver):`, so that what is read after it
  is read on the new page; a value read while a page may be loading goes through `read`, which
  takes a page torn down under the read for "not there yet". No fixed sleeps: wait for what the
  page shows (`wait_until`).
- `driver.execute_cdp_cmd(method, params)` reaches any other DevTools command (the emulated
  media, the app manifest, the network); `set_offline` is the one the offline tests need.
- Screenshots go to `$WEB_ARTIFACTS/<test file>/` (`/tmp/leitner-web-artifacts` by default), named
  after the page and the device's size; the folder is printed, so `pytest -s` shows it.
"""
import contextlib
import dataclasses
import os
import pathlib
import shutil

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from web_box import wait_until


@dataclasses.dataclass(frozen=True)
class Device:
    name: str
    width: int
    height: int
    touch: bool


PHONE = Device("phone", 390, 844, touch=True)
DESKTOP = Device("desktop", 1280, 800, touch=False)
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/120.0.0.0 Mobile Safari/537.36")
ARTIFACTS = pathlib.Path(os.environ.get("WEB_ARTIFACTS", "/tmp/leitner-web-artifacts"))


def start_chromium(device: Device, profile: pathlib.Path | None = None):
    """Headless Chromium as `device`; with `profile`, its cookies and history live there and
    outlast a restart. The caller quits it."""
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "install the Debian packages 'chromium' and 'chromium-driver'"
    options = Options()
    options.binary_location = chromium
    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--force-device-scale-factor=1", f"--window-size={device.width},{device.height}"]
    if profile is not None:
        arguments.append(f"--user-data-dir={profile}")
    for argument in arguments:
        options.add_argument(argument)
    if device.touch:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": device.width, "height": device.height, "pixelRatio": 1.0, "touch": True},
            "userAgent": ANDROID})
    # The console's messages, for console_errors.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    driver.device = device
    return driver


@pytest.fixture
def phone():
    driver = start_chromium(PHONE)
    yield driver
    driver.quit()


@pytest.fixture
def desktop():
    driver = start_chromium(DESKTOP)
    yield driver
    driver.quit()


def set_offline(driver, offline: bool):
    """Takes the tab's network away (or gives it back) as DevTools' "Offline" does: the page's
    requests fail as they do on a phone without signal; the servers keep running."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def replaced_by_a_load(error: WebDriverException) -> bool:
    """Whether reading an element failed only because a click's page load replaced it. ChromeDriver
    says so as a stale element, a missing one, or, when the read falls in the instant the old
    document is torn down, an inspector error naming a node that no longer belongs to it."""
    if isinstance(error, (StaleElementReferenceException, NoSuchElementException)):
        return True
    return "does not belong to the document" in (error.msg or "")


def read(driver, by, value, what, absent):
    """`what(element)` of the first element found by `by` and `value`, or `absent` while there is
    none: not on the page, or on a page that a load replaces as it is read."""
    try:
        found = driver.find_elements(by, value)
        return what(found[0]) if found else absent
    except WebDriverException as error:
        if replaced_by_a_load(error):
            return absent
        raise


def replaced(element) -> bool:
    """Whether `element`'s document is gone: a page load took its place."""
    try:
        element.is_enabled()
        return False
    except WebDriverException as error:
        if replaced_by_a_load(error):
            return True
        raise


@contextlib.contextmanager
def next_page(driver, timeout=10.0):
    """Waits, once the block has run, until the page it began on is replaced by another: what a
    click or a key does on a link or a form. A read right after the click could still fall on the
    old page (ChromeDriver may not have seen the load begin), and a wait for an element the old
    page has too would end at once; after this wait, every read is of the new page.

        with next_page(phone):
            phone.find_element(By.ID, "right").click()
    """
    page = driver.find_element(By.TAG_NAME, "html")
    yield
    assert wait_until(lambda: replaced(page), timeout), f"no page came after {driver.current_url}"


def console_errors(driver) -> list[str]:
    """The console's errors since the last call (an uncaught exception, a failed load)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


class Artifacts:
    """Where a test file's screenshots go."""

    def __init__(self, directory: pathlib.Path):
        self.directory = directory

    def shoot(self, driver, name: str, dark: bool = False) -> pathlib.Path:
        """The page as `name-WxH.png` (and `name-WxH-dark.png` with `dark`, the page in its dark
        colours); a page wider than the device's screen fails the test, as it would scroll
        sideways there."""
        device = driver.device
        path = self.directory / f"{name}-{device.width}x{device.height}.png"
        driver.save_screenshot(str(path))
        if dark:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            driver.save_screenshot(str(path.with_name(path.stem + "-dark.png")))
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= device.width, f"{name} is {width} px wide on a {device.width} px {device.name}"
        return path


@pytest.fixture
def artifacts(request):
    directory = ARTIFACTS / request.module.__name__
    directory.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {directory}")
    return Artifacts(directory)
