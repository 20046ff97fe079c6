"""The sign-up scenario: an email address typed key by key on the software keyboard."""
from appium.webdriver.common.appiumby import AppiumBy
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import SIGNUP


def test_type_email_and_submit_with_return(start):
    driver = start(SIGNUP)
    field = driver.find_element(AppiumBy.XPATH, '//XCUIElementTypeTextField[@name="email"]')
    field.send_keys("UITestExample@example.com" + Keys.RETURN)
    assert driver.find_element(AppiumBy.ACCESSIBILITY_ID, "result").text == "Signed up as UITestExample@example.com"


def test_clear_and_backspace(start):
    driver = start(SIGNUP)
    field = driver.find_element(By.ID, "email")  # Selenium sends this as a css selector
    field.send_keys("abc" + Keys.BACKSPACE)
    assert driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeTextField").text == "ab"
    driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeTextField").clear()
    assert driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeTextField").get_attribute("value") in (None, "")


def test_invalid_email_shows_alert(start):
    driver = start(SIGNUP)
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "email").send_keys("nope" + Keys.ENTER)
    assert driver.find_element(AppiumBy.XPATH, '//XCUIElementTypeAlert').is_displayed()
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "OK").click()


def test_key_actions_type_into_the_focused_field(start):
    from selenium.webdriver.common.action_chains import ActionChains

    driver = start(SIGNUP)
    driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeTextField").click()
    ActionChains(driver).send_keys("hi@x.io").perform()
    assert driver.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeTextField").text == "hi@x.io"
