"""Three browser tests, recorded one video each; the last fails on purpose (make test checks it
fails, and that its video is the one retain-on-failure keeps)."""
import time

from selenium.webdriver.common.by import By


def test_title(page):
    assert page.find_element(By.ID, "title").text == "Showreel"
    time.sleep(0.5)  # a moment on screen, as a human-paced test has


def test_clicks(page):
    button = page.find_element(By.ID, "add")
    for _ in range(3):
        button.click()
        time.sleep(0.2)
    assert page.find_element(By.ID, "count").text == "Clicked 3 times"


def test_fails_on_purpose(page):
    page.find_element(By.ID, "add").click()
    time.sleep(0.3)
    assert page.find_element(By.ID, "count").text == "Clicked 2 times", "fails on purpose: one click counts one"
