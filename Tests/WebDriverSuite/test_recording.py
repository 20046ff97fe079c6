"""Video: Appium's start/stop recording (a playable MP4), and a whole session with showreel:record."""
import base64
import json
import os
import subprocess

from appium.webdriver.common.appiumby import AppiumBy

from conftest import COUNTRIES


def chapters(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", path],
                         capture_output=True, text=True, check=True).stdout
    return [chapter["tags"]["title"] for chapter in json.loads(out)["chapters"]]


def probe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height:format=duration,format_name",
                          "-of", "json", path], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_start_stop_recording_returns_a_playable_mp4(countries, tmp_path):
    countries.start_recording_screen(timeLimit=60)
    countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").click()
    countries.back()
    video = base64.b64decode(countries.stop_recording_screen())
    path = tmp_path / "session.mp4"
    path.write_bytes(video)
    info = probe(str(path))
    assert "mp4" in info["format"]["format_name"]
    assert info["streams"][0]["codec_name"] == "h264"
    assert float(info["format"]["duration"]) > 0.2
    # Nothing left running: a second stop has nothing.
    assert countries.stop_recording_screen() == ""


def test_start_without_force_restart_returns_the_previous_video(countries):
    countries.start_recording_screen()
    countries.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").click()
    previous = countries.start_recording_screen(forceRestart=False)
    assert base64.b64decode(previous)[4:8] == b"ftyp"
    assert countries.stop_recording_screen() != ""


def test_showreel_record_writes_the_session_video_and_manifest(start):
    output = os.environ["SHOWREEL_WEBDRIVER_OUTPUT"]
    driver = start(COUNTRIES, **{"showreel:record": True, "showreel:name": "countries-canada",
                                 "appium:arguments": ["--countries-datasource", "local-mock"]})
    driver.find_element(AppiumBy.ACCESSIBILITY_ID, "Canada").click()
    assert driver.find_element(AppiumBy.ACCESSIBILITY_ID, "countryName").text == "Canada"
    driver.quit()
    video = os.path.join(output, "countries-canada.mov")
    assert float(probe(video)["format"]["duration"]) > 0.2
    with open(os.path.join(output, "manifest.json")) as file:
        entries = {entry["name"]: entry for entry in json.load(file)["entries"]}
    entry = entries["countries-canada"]
    assert entry["status"] == "passed"
    assert entry["video"] == "countries-canada.mov"
    assert any("Canada" in step["title"] for step in entry["steps"])
    assert os.path.exists(os.path.join(output, "report.html"))
    assert "countries-canada" in open(os.path.join(output, "junit.xml")).read()

    # What a flow's video has, a session's has: its steps as chapters, a trace, a preview.
    titles = [step["title"] for step in entry["steps"]]
    assert titles[0] == f"launch {COUNTRIES}"
    click = next(title for title in titles if title.startswith("click") and "Canada" in title)
    # Steps that begin at the same device time share a chapter (the launch and the first click).
    assert any(click in chapter for chapter in chapters(video))
    with open(os.path.join(output, "countries-canada.trace.json")) as file:
        trace = json.load(file)
    assert [step["title"] for step in trace["steps"]] == titles
    traced = trace["steps"][titles.index(click)]
    assert traced["status"] == "passed"
    # The click's target is the Canada row, and the pictures show the list, then the details.
    assert traced["target"]["width"] > 300 and 0 < traced["target"]["y"] < trace["screen"]["height"]
    assert traced["before"] != traced["after"]
    assert trace["pictures"][traced["before"]].startswith("data:image/jpeg;base64,")
    assert any(node for node in traced["tree"])
    assert entry["preview"] == "countries-canada.webp"
    preview = os.path.join(output, "countries-canada.webp")
    assert open(preview, "rb").read(12)[8:12] == b"WEBP"


def test_a_failed_command_is_a_failed_step_of_the_session_video(start):
    from selenium.common.exceptions import NoSuchElementException
    output = os.environ["SHOWREEL_WEBDRIVER_OUTPUT"]
    driver = start(COUNTRIES, **{"showreel:record": True, "showreel:name": "countries-missing",
                                 "appium:arguments": ["--countries-datasource", "local-mock"]})
    driver.implicitly_wait(0.5)
    try:
        driver.find_element(AppiumBy.ACCESSIBILITY_ID, "Nowhere Land")
        raise AssertionError("Nowhere Land was found")
    except NoSuchElementException:
        pass
    driver.quit()
    with open(os.path.join(output, "manifest.json")) as file:
        entry = {entry["name"]: entry for entry in json.load(file)["entries"]}["countries-missing"]
    failed = [step for step in entry["steps"] if step["status"] == "failed"]
    assert [step["title"] for step in failed] == ["find accessibility id 'Nowhere Land'"], entry["steps"]
    with open(os.path.join(output, "countries-missing.trace.json")) as file:
        trace = json.load(file)
    step = next(step for step in trace["steps"] if step["title"] == failed[0]["title"])
    assert step["status"] == "failed" and "Nowhere Land" in step["error"]
    # The half second it waited is on the device clock, in the video.
    assert abs((step["end"] - step["start"]) - 0.5) < 0.05
