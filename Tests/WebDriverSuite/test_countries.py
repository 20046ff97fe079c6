"""The Countries scenario as an Appium suite writes it: find, tap, read text, page source, screenshot."""
import base64
import xml.etree.ElementTree as ET

from appium.webdriver.common.appiumby import AppiumBy


def test_canada_details_by_accessibility_id(countries):
    countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").click()
    assert countries.find_element(AppiumBy.ACCESSIBILITY_ID, "countryName").text == "Canada"
    assert countries.find_element(AppiumBy.ID, "countryArea").text == "9984670.0 sq km"
    assert countries.find_element(AppiumBy.ACCESSIBILITY_ID, "countryPopulation").text == "36155487 people"


def test_canada_by_xpath_and_back(countries):
    cell = countries.find_element(AppiumBy.XPATH, '//XCUIElementTypeCell[@name="Canada"]')
    assert cell.tag_name == "XCUIElementTypeCell"
    assert cell.is_displayed()
    cell.click()
    region = countries.find_element(AppiumBy.XPATH, '//*[@name="countryRegion"]')
    assert region.text == "Northern America, Americas"
    countries.back()
    assert countries.find_element(AppiumBy.XPATH, '//XCUIElementTypeCell[contains(@label, "Canad")]').text == "Canada"


def test_predicate_and_class_chain(countries):
    assert countries.find_element(AppiumBy.IOS_PREDICATE, "type == 'XCUIElementTypeCell' AND label BEGINSWITH 'Can'").text == "Canada"
    cells = countries.find_elements(AppiumBy.IOS_CLASS_CHAIN, "**/XCUIElementTypeCell")
    assert len(cells) > 3
    assert countries.find_element(AppiumBy.IOS_CLASS_CHAIN, '**/XCUIElementTypeCell[`label == "Canada"`]').text == "Canada"
    assert len(countries.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeCell")) == len(cells)


def test_page_source_parses_and_names_elements(countries):
    root = ET.fromstring(countries.page_source.encode("utf-8"))
    assert root.tag == "XCUIElementTypeApplication"
    assert root.get("name") == "dev.showreel.countries"
    cells = [cell for cell in root.iter("XCUIElementTypeCell")]
    assert "Canada" in [cell.get("label") for cell in cells]
    for cell in cells:
        assert cell.get("type") == "XCUIElementTypeCell"
        assert cell.get("visible") in ("true", "false")
        assert int(cell.get("width")) > 0


def test_screenshot_decodes_as_png(countries):
    png = base64.b64decode(countries.get_screenshot_as_base64())
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") > 300  # the screen's width in pixels
    element_png = countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").screenshot_as_png
    assert element_png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(element_png[20:24], "big") < int.from_bytes(png[20:24], "big")  # a cell is shorter than the screen


def test_rect_attributes_and_window(countries):
    canada = countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada")
    rect = canada.rect
    size = countries.get_window_size()
    assert 0 <= rect["y"] < size["height"] and rect["width"] > 0
    assert canada.get_attribute("type") == "XCUIElementTypeCell"
    assert canada.get_attribute("enabled") == "true"
    assert canada.get_attribute("nonsense") is None


def test_swipe_and_tap_through_actions(countries):
    countries.execute_script("mobile: swipe", {"direction": "up"})
    countries.execute_script("mobile: scroll", {"direction": "up"})
    canada = countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada")
    x = canada.rect["x"] + canada.rect["width"] / 2
    y = canada.rect["y"] + canada.rect["height"] / 2
    countries.tap([(int(x), int(y))])
    assert countries.find_element(AppiumBy.ACCESSIBILITY_ID, "countryName").text == "Canada"


def test_app_management(countries):
    assert countries.query_app_state("dev.showreel.countries") == 4
    assert countries.is_app_installed("dev.showreel.countries")
    assert not countries.is_app_installed("com.example.missing")
    countries.terminate_app("dev.showreel.countries")
    assert countries.query_app_state("dev.showreel.countries") == 1
    countries.execute_script("mobile: launchApp", {"bundleId": "dev.showreel.countries",
                                                   "arguments": ["--countries-datasource", "local-mock"]})
    assert countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").is_displayed()


def test_w3c_drag_from_the_left_edge_goes_back(countries):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").click()
    assert countries.find_element(AppiumBy.ACCESSIBILITY_ID, "countryName").is_displayed()
    size = countries.get_window_size()
    actions = ActionBuilder(countries, mouse=PointerInput(POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(2, size["height"] // 2).pointer_down()
    actions.pointer_action.move_to_location(int(size["width"] * 0.65), size["height"] // 2).release()
    actions.perform()
    assert countries.find_elements(AppiumBy.ACCESSIBILITY_ID, "countryName") == []
    assert countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").is_displayed()
