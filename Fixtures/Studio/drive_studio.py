"""Drives `showreel studio`'s page in headless Chromium (Selenium and chromedriver), as a person
would: clicks, drags and keys on the live screen. Run by Tests/ShowreelStudioTests with a
scenario name and the URL the studio printed; prints what it saw as JSON on stdout."""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# Bounds for hangs, not speeds: the machine may be loaded.
WAIT = 120


def browser(width=1500, height=1400):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % (width, height), "--password-store=basic", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


class Studio:
    def __init__(self, driver, url):
        self.driver = driver
        driver.get(url)
        self.until("the page has its state and a frame",
                   "return !!(window.studio && studio.state && document.getElementById('screen').dataset.frame)")
        self.idle()
        self.screen = driver.find_element(By.CSS_SELECTOR, "[data-testid=screen]")

    def until(self, what, script):
        try:
            WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script(script))
        except Exception:
            raise SystemExit("timed out waiting for %s; error shown: %r; page: %s" % (what, self.error(), self.driver.execute_script(
                "const ids = []; const walk = (ns) => ns.forEach((n) => { ids.push(n.id || n.label); walk(n.children); }); walk(studio.tree);"
                "return JSON.stringify({generation: studio.generation, shown: studio.shown, stream: document.getElementById('screen').dataset.stream,"
                " steps: studio.state && studio.state.steps, sent: studio.sent.slice(-3), elements: ids.slice(0, 40)})")))

    def error(self):
        return self.driver.execute_script("return document.getElementById('error').textContent")

    def idle(self):
        self.until("the page to be idle", "return document.body.dataset.busy === '0'")

    def steps(self):
        return self.driver.execute_script("return studio.state.steps")

    def wait_steps(self, count):
        self.idle()
        self.until("%d steps" % count, "return document.getElementById('flow').dataset.count === '%d'" % count)

    def wait_element(self, key):
        """Waits until the live tree has an element whose identifier or label is `key`."""
        script = ("const all = []; const walk = (ns) => ns.forEach((n) => { all.push(n); walk(n.children); }); walk(studio.tree);"
                  "return all.find((n) => n.id === %s || n.label === %s) || null") % (json.dumps(key), json.dumps(key))
        self.until("an element %r on the live screen" % key, script)
        return self.driver.execute_script(script)

    def centre(self, key):
        node = self.wait_element(key)
        return node["x"] + node["width"] / 2, node["y"] + node["height"] / 2

    def offset(self, x, y):
        # Selenium's offsets count from the centre of the element's part in view: the window is
        # tall enough for the whole page, scrolled to the top, so that is the screen's centre.
        self.driver.execute_script("window.scrollTo(0, 0)")
        box = self.screen.rect
        return int(round(x - box["width"] / 2)), int(round(y - box["height"] / 2))

    def click(self, x, y, modifier=None):
        dx, dy = self.offset(x, y)
        chain = ActionChains(self.driver).move_to_element_with_offset(self.screen, dx, dy)
        if modifier:
            chain = chain.key_down(modifier)
        chain = chain.click()
        if modifier:
            chain = chain.key_up(modifier)
        chain.perform()

    def tap(self, key, steps):
        x, y = self.centre(key)
        self.click(x, y)
        self.wait_steps(steps)

    def drag(self, x1, y1, x2, y2):
        dx, dy = self.offset(x1, y1)
        (ActionChains(self.driver).move_to_element_with_offset(self.screen, dx, dy).click_and_hold()
         .move_by_offset(int((x2 - x1) / 2), int((y2 - y1) / 2)).move_by_offset(int((x2 - x1) / 2), int((y2 - y1) / 2))
         .release().perform())

    def type(self, text, steps):
        ActionChains(self.driver).send_keys(text).perform()
        self.wait_steps(steps)

    def button(self, testid_or_action, index=None):
        if index is None:
            self.driver.find_element(By.CSS_SELECTOR, "[data-testid=%s]" % testid_or_action).click()
        else:
            self.driver.find_element(
                By.CSS_SELECTOR, "#flow li[data-index='%d'] button[data-action=%s]" % (index, testid_or_action)).click()
        self.idle()

    def edit(self, index, text):
        """Edits step `index` on the timeline to `text` and saves it."""
        self.button("edit", index)
        editor = self.driver.find_element(By.CSS_SELECTOR, "[data-testid=step-editor]")
        editor.clear()
        editor.send_keys(text)
        self.button("save", index)


def record(studio, result):
    """Mail: open a thread (a list row), a message, reply, type, cancel, swipe back to the thread."""
    box = studio.screen.rect
    result["screenBox"] = [box["width"], box["height"]]
    x, y = studio.centre("Lunch on Friday?")
    ActionChains(studio.driver).move_to_element_with_offset(studio.screen, *studio.offset(x, y)).perform()
    studio.until("the hover outline", "return !document.getElementById('hover').hidden")
    result["hovered"] = studio.driver.execute_script("return document.getElementById('screen').dataset.hover")
    studio.tap("Lunch on Friday?", 2)
    studio.tap("message0", 3)
    studio.tap("reply", 4)
    studio.tap("replyBody", 5)
    studio.wait_element("keyboard")
    studio.type("Hi", 6)
    studio.until("one inputText with all of it", "return studio.state.steps[5] === '- inputText: \"Hi\"'")
    studio.tap("cancelReply", 7)
    studio.wait_element("reply")
    studio.drag(4, 420, 320, 430)
    studio.wait_steps(8)
    studio.wait_element("message0")
    # The tree: search, select, see every selector with its uniqueness.
    search = studio.driver.find_element(By.CSS_SELECTOR, "[data-testid=search]")
    search.send_keys("Anna")
    studio.until("search results", "return document.querySelectorAll('#tree [data-testid=element]').length > 0")
    studio.driver.find_element(By.CSS_SELECTOR, "#tree [data-testid=element]").click()
    studio.until("the selectors", "return document.querySelectorAll('[data-testid=selector]').length > 0")
    result["selected"] = studio.driver.execute_script("return studio.selected")
    result["selectedOutlined"] = studio.driver.execute_script("return !document.getElementById('selected').hidden")
    result["selectors"] = studio.driver.execute_script(
        "return [...document.querySelectorAll('[data-testid=selector]')].map((e) => [e.textContent, e.dataset.unique])")


def reopen(studio, result):
    """A reopened flow: replayed (the thread is back), then more steps appended."""
    result["before"] = studio.steps()
    result["notice"] = studio.driver.execute_script("return studio.state.notice || null")
    studio.tap("message0", len(result["before"]) + 1)
    studio.wait_element("reply")
    # Alt-click asserts the element under the pointer visible.
    x, y = studio.centre("reply")
    studio.click(x, y, Keys.ALT)
    studio.wait_steps(len(result["before"]) + 2)
    result["after"] = studio.steps()


def branch(studio, result):
    """Branch at step 3 (the open message): replayed to there on a fresh device, recording on."""
    studio.button("branch", 2)
    studio.wait_steps(3)
    studio.wait_element("reply")
    result["afterBranch"] = studio.steps()
    # Text before identifiers from now on (saved in the flow's header).
    priority = studio.driver.find_element(By.CSS_SELECTOR, "[data-testid=priority]")
    priority.clear()
    priority.send_keys("text, id, type, point")
    studio.button("save-priority")
    studio.until("the new priority", "return studio.state.priority.join(',') === 'text,id,type,point'")
    studio.tap("reply", 4)
    studio.wait_element("replyBody")
    # A long press: held for most of a second.
    x, y = studio.centre("cancelReply")
    (ActionChains(studio.driver).move_to_element_with_offset(studio.screen, *studio.offset(x, y)).click_and_hold()
     .pause(0.9).release().perform())
    studio.wait_steps(5)
    result["after"] = studio.steps()


def flag(studio, result):
    """A step edited to a selector that finds nothing: the replay says where it stopped, and Run
    flags the step with the moment in the video."""
    studio.edit(1, '- tapOn: {id: "nowhere"}')
    studio.until("the replay's notice", "return !!studio.state.notice")
    result["notice"] = studio.driver.execute_script("return studio.state.notice")
    studio.button("run")
    studio.until("the run's result", "return !!document.getElementById('run-result').dataset.status")
    result["status"] = studio.driver.execute_script("return document.getElementById('run-result').dataset.status")
    result["flags"] = studio.driver.execute_script(
        "return [...document.querySelectorAll('[data-testid=flag]')].map((e) => [e.dataset.step, e.textContent])")
    result["flaggedSteps"] = studio.driver.execute_script(
        "return [...document.querySelectorAll('#flow li.flagged')].map((e) => e.dataset.index)")


def timeline(studio, result):
    """Delete and edit steps, pause (only assertions recorded), run the flow and see its video."""
    count = len(studio.steps())
    studio.button("delete", count - 1)
    studio.wait_steps(count - 1)
    result["afterDelete"] = studio.steps()
    studio.edit(1, '- tapOn: {id: "Release 5.1 notes"}')
    studio.until("the edit", "return studio.state.steps[1] === '- tapOn: {id: \"Release 5.1 notes\"}'")
    studio.wait_element("reply")
    result["afterEdit"] = studio.steps()
    studio.button("pause")
    studio.until("paused", "return studio.state.paused === true")
    x, y = studio.centre("reply")
    studio.click(x, y)
    studio.idle()
    result["pausedTapError"] = studio.error()
    studio.click(x, y, Keys.CONTROL)
    studio.wait_steps(count)
    result["afterPausedAssert"] = studio.steps()
    studio.button("pause")
    studio.button("run")
    studio.until("the run's result", "return !!document.getElementById('run-result').dataset.status")
    result["run"] = studio.driver.execute_script(
        "return {status: document.getElementById('run-result').dataset.status, video: document.getElementById('run-video').src,"
        " chapters: [...document.querySelectorAll('#chapters li')].map((e) => e.textContent),"
        " flags: [...document.querySelectorAll('[data-testid=flag]')].map((e) => e.textContent)}")
    result["report"] = studio.driver.execute_script("return document.getElementById('run-report').href")
    result["reportPage"] = studio.driver.execute_async_script(
        "const done = arguments[0]; fetch(document.getElementById('run-report').href)"
        ".then(async (r) => done([r.status, (await r.text()).includes('<video')])).catch((e) => done([0, String(e)]))")
    # The report, trace and all, shown in the page itself.
    studio.until("the report in the page",
                 "const f = document.getElementById('run-report-view');"
                 " return !f.hidden && !!f.contentDocument && !!f.contentDocument.querySelector('script.trace-data')")
    result["reportView"] = studio.driver.execute_script(
        "const d = document.getElementById('run-report-view').contentDocument;"
        " return {video: !!d.querySelector('video'), trace: JSON.parse(d.querySelector('script.trace-data').textContent).steps.length}")
    studio.until("the video's metadata or an error",
                  "const v = document.getElementById('run-video'); return v.readyState >= 1 || !!v.error")
    result["videoDuration"] = studio.driver.execute_script("return document.getElementById('run-video').duration")
    result["videoError"] = studio.driver.execute_script(
        "const v = document.getElementById('run-video'); return v.error ? v.error.code : null")


def pictures(studio, result):
    """Screenshots of the page for docs/studio.md: the inspector open on a row, then a run."""
    folder = sys.argv[3]
    studio.wait_element("inbox")
    search = studio.driver.find_element(By.CSS_SELECTOR, "[data-testid=search]")
    search.send_keys("Lunch")
    studio.until("search results", "return document.querySelectorAll('#tree [data-testid=element]').length > 0")
    studio.driver.find_element(By.CSS_SELECTOR, "#tree [data-testid=element]").click()
    studio.until("the selectors", "return document.querySelectorAll('[data-testid=selector]').length > 0")
    x, y = studio.centre("Release 5.1 notes")
    ActionChains(studio.driver).move_to_element_with_offset(studio.screen, *studio.offset(x, y)).perform()
    studio.until("the hover outline", "return !document.getElementById('hover').hidden")
    studio.driver.save_screenshot(folder + "/studio.png")
    studio.button("run")
    studio.until("the run's result", "return !!document.getElementById('run-result').dataset.status")
    studio.until("the video", "return document.getElementById('run-video').readyState >= 2")
    studio.driver.execute_script("const v = document.getElementById('run-video'); v.currentTime = v.duration / 2;")
    studio.until("the seek", "return !document.getElementById('run-video').seeking")
    studio.driver.save_screenshot(folder + "/studio-run.png")
    result["saved"] = [folder + "/studio.png", folder + "/studio-run.png"]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench(studio, result):
    """`make bench`: frame delays while recording 10 steps (the studio's CPU meanwhile), then
    10 s idle with the page open: events sent and the studio's CPU (argv[3]: its pid)."""
    pid = int(sys.argv[3])
    studio.driver.execute_script("studio.delays = []")
    count = len(studio.steps())
    start, cpu = time.monotonic(), cpu_seconds(pid)
    for _ in range(5):
        count += 1
        studio.tap("Lunch on Friday?", count)
        studio.wait_element("message0")
        studio.drag(4, 420, 320, 430)
        count += 1
        studio.wait_steps(count)
        studio.wait_element("inbox")
    result["busyCPU"] = (cpu_seconds(pid) - cpu) / (time.monotonic() - start)
    time.sleep(1)
    result["delays"] = studio.driver.execute_script("return studio.delays")
    events = studio.driver.execute_script("return studio.events")
    start, cpu = time.monotonic(), cpu_seconds(pid)
    time.sleep(10)
    result["idleCPU"] = (cpu_seconds(pid) - cpu) / (time.monotonic() - start)
    result["idleEvents"] = studio.driver.execute_script("return studio.events") - events


def main():
    scenario, url = sys.argv[1], sys.argv[2]
    # The pictures: as tall as the page, no taller.
    driver = browser(height=1100) if scenario == "pictures" else browser()
    result = {}
    try:
        studio = Studio(driver, url)
        globals()[scenario](studio, result)
        result["final"] = studio.steps()
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
