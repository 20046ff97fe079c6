"""Each W3C error, as Appium's Python client raises it, with a message that helps."""
import json
import urllib.error
import urllib.request

import pytest
from appium import webdriver
from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import (InvalidArgumentException, InvalidSelectorException, NoSuchElementException,
                                        SessionNotCreatedException, StaleElementReferenceException, WebDriverException)

from conftest import COUNTRIES, options


def raw(server_url, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server_url + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_no_such_element_says_what_the_screen_shows(countries):
    with pytest.raises(NoSuchElementException) as raised:
        countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Narnia")
    assert "accessibility id 'Narnia'" in raised.value.msg
    assert "Canada" in raised.value.msg


def test_implicit_wait_then_no_such_element(countries):
    countries.implicitly_wait(0.5)
    with pytest.raises(NoSuchElementException):
        countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Narnia")
    assert countries.find_elements(AppiumBy.ACCESSIBILITY_ID, "Narnia") == []


def test_stale_element_reference(countries):
    canada = countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada")
    canada.click()
    with pytest.raises(StaleElementReferenceException) as raised:
        canada.click()
    assert "no longer on the screen" in raised.value.msg


def test_invalid_selector_names_what_is_unsupported(countries):
    with pytest.raises(InvalidSelectorException) as raised:
        countries.find_element(AppiumBy.XPATH, "//XCUIElementTypeCell[matches(@name, 'C.*')]")
    assert "matches()" in raised.value.msg
    with pytest.raises(InvalidSelectorException):
        countries.find_element(AppiumBy.IOS_CLASS_CHAIN, "**/XCUIElementTypeCell[$name == 'x'$]")
    with pytest.raises(InvalidSelectorException) as raised:
        countries.find_element(AppiumBy.ANDROID_UIAUTOMATOR, "new UiSelector()")
    assert "not supported" in raised.value.msg


def test_invalid_session_id(server_url):
    status, body = raw(server_url, "GET", "/session/nope/source")
    assert status == 404
    assert body["value"]["error"] == "invalid session id"
    assert body["value"]["stacktrace"] == ""


def test_unknown_command_and_method(server_url):
    status, body = raw(server_url, "GET", "/session/x/frobnicate")
    assert (status, body["value"]["error"]) == (404, "unknown command")
    status, body = raw(server_url, "GET", "/session")
    assert (status, body["value"]["error"]) == (405, "unknown method")


def test_legacy_wd_hub_prefix(server_url):
    status, body = raw(server_url, "GET", "/wd/hub/status")
    assert status == 200 and body["value"]["ready"] is True


def test_session_not_created_with_reason(server_url):
    with pytest.raises(SessionNotCreatedException) as raised:
        webdriver.Remote(server_url, options=options(COUNTRIES, **{"appium:arguments": ["--countries-datasource", "atlantis"]}))
    assert "Unknown countries datasource requested: atlantis" in raised.value.msg


def test_bad_capability_value_is_invalid_argument_naming_it(server_url):
    with pytest.raises(InvalidArgumentException) as raised:
        webdriver.Remote(server_url, options=options(COUNTRIES, **{"showreel:clock": "sundial"}))
    assert "showreel:clock" in raised.value.msg
    with pytest.raises(InvalidArgumentException) as raised:
        webdriver.Remote(server_url, options=options("com.example.missing"))
    assert "appium:bundleId 'com.example.missing'" in raised.value.msg
    # Unknown capabilities are ignored.
    driver = webdriver.Remote(server_url, options=options(COUNTRIES, **{"appium:somethingNew": 42, "vendor:other": True}))
    driver.quit()


def test_invalid_argument_in_a_command(countries):
    with pytest.raises(WebDriverException) as raised:
        countries.execute_script("mobile: swipe", {"direction": "sideways"})
    assert "direction" in raised.value.msg
    with pytest.raises(InvalidArgumentException):
        countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").send_keys("\ue00c")  # Escape: no such key


def test_web_pages_are_refused_without_allow_cors(server_url):
    request = urllib.request.Request(server_url + "/status", headers={"Origin": "https://evil.example"})
    try:
        urllib.request.urlopen(request)
        raise AssertionError("a request with an Origin was answered")
    except urllib.error.HTTPError as error:
        assert error.code == 403
        assert "--allow-cors" in json.loads(error.read())["value"]["message"]
