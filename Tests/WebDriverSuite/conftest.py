"""Fixtures for the WebDriver suite: Appium's Python client against `showreel webdriver`.

The server's URL comes from SHOWREEL_WEBDRIVER_URL (the Swift test that runs this suite starts
the server on a free port and sets it).
"""
import os

import pytest
from appium import webdriver
from appium.options.common import AppiumOptions

COUNTRIES = "dev.showreel.countries"
SIGNUP = "dev.showreel.signup"


@pytest.fixture(scope="session")
def server_url():
    url = os.environ.get("SHOWREEL_WEBDRIVER_URL")
    if not url:
        pytest.fail("SHOWREEL_WEBDRIVER_URL is not set: start `showreel webdriver` and point this suite at it")
    return url


def options(bundle_id, **extra):
    caps = AppiumOptions()
    caps.platform_name = "iOS"
    caps.set_capability("appium:automationName", "XCUITest")
    caps.set_capability("appium:bundleId", bundle_id)
    for key, value in extra.items():
        caps.set_capability(key, value)
    return caps


@pytest.fixture
def start(server_url, request):
    """Starts sessions (`start(bundle, **capabilities)`) and ends each after the test.

    With SHOWREEL_WEBDRIVER_RECORD_ALL set (`make bench`), every session is recorded, named
    after its test."""
    drivers = []

    def make(bundle_id, **extra):
        if os.environ.get("SHOWREEL_WEBDRIVER_RECORD_ALL") and "showreel:record" not in extra:
            extra = dict(extra, **{"showreel:record": True, "showreel:name": f"{request.node.name}-{len(drivers)}"})
        driver = webdriver.Remote(server_url, options=options(bundle_id, **extra))
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        try:
            driver.quit()
        except Exception:
            pass


@pytest.fixture
def countries(start):
    return start(COUNTRIES, **{"appium:processArguments": {"args": ["--countries-datasource", "local-mock"], "env": {}}})
