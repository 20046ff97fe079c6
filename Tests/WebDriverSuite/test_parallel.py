"""Two sessions at once, each on its own device."""
from concurrent.futures import ThreadPoolExecutor

from appium.webdriver.common.appiumby import AppiumBy

from conftest import COUNTRIES, SIGNUP


def test_two_sessions_in_parallel_have_their_own_devices(start):
    countries = start(COUNTRIES, **{"appium:arguments": ["--countries-datasource", "local-mock"]})
    signup = start(SIGNUP)
    assert countries.capabilities["appium:udid"] != signup.capabilities["appium:udid"]

    def drive_countries():
        countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").click()
        return countries.find_element(AppiumBy.ACCESSIBILITY_ID, "countryName").text

    def drive_signup():
        signup.find_element(AppiumBy.ACCESSIBILITY_ID, "email").send_keys("a@b.co\n")
        return signup.find_element(AppiumBy.ACCESSIBILITY_ID, "result").text

    with ThreadPoolExecutor(2) as pool:
        canada, signed = pool.submit(drive_countries), pool.submit(drive_signup)
        assert canada.result() == "Canada"
        assert signed.result() == "Signed up as a@b.co"
    assert countries.find_elements(AppiumBy.ACCESSIBILITY_ID, "email") == []
