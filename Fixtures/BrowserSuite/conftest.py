"""A headed Chromium (Debian's chromium and chromium-driver) on the X display in $DISPLAY, and
page.html served over HTTP, for the browser suite that `make test` records with
pytest-showreel. Each test's last page is saved as <output>/<module>/<test>.page.png, so the
video can be compared to it."""
import functools
import http.server
import os
import threading

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="session")
def page_url():
    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=HERE))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/page.html" % server.server_address[1]
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # --no-sandbox: root in a container has no user namespaces for Chromium's sandbox. Kiosk:
    # the page fills the screen, so a video frame and the page's screenshot line up.
    for argument in ["--no-sandbox", "--kiosk", "--window-position=0,0", "--window-size=1280,800", "--no-first-run", "--test-type",
                     "--disable-dev-shm-usage", "--password-store=basic"]:
        options.add_argument(argument)
    options.add_experimental_option("excludeSwitches", ["enable-automation"])
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, page_url, request):
    browser.get(page_url)
    yield browser
    output = request.config.getoption("showreel_output")
    module = os.path.splitext(os.path.basename(str(request.node.fspath)))[0]
    os.makedirs(os.path.join(output, module), exist_ok=True)
    browser.save_screenshot(os.path.join(output, module, request.node.name + ".page.png"))
