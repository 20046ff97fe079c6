"""A small client for the tunnel host's /v1 API (docs/protocols/tunnel-host.md)."""
import json
import time
import urllib.error
import urllib.parse
import urllib.request

RECORDING_STARTED = "Recording started"


class HostError(Exception):
    """The host could not be reached (`unreachable`), or refused or failed a request."""

    def __init__(self, message, unreachable=False):
        super().__init__(message)
        self.unreachable = unreachable


class TunnelHost:
    def __init__(self, url, token=None, timeout=10.0):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, method, path, body=None, timeout=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                text = response.read().decode("utf-8", "replace")
                kind = response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace")
            try:
                detail = json.loads(detail)["error"]
            except (ValueError, KeyError, TypeError):
                pass
            raise HostError("%s %s answered %d: %s" % (method, path, error.code, detail)) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise HostError("no tunnel host at %s (%s)" % (self.url, reason), unreachable=True) from None
        return json.loads(text) if "json" in kind and text else text

    def health(self):
        return self._request("GET", "/v1/health", timeout=2)

    def start(self, argv):
        return self._request("POST", "/v1/commands", {"argv": argv})

    def command(self, command_id):
        return self._request("GET", "/v1/commands/" + command_id)

    def stderr(self, command_id):
        return self._request("GET", "/v1/commands/%s/output?stream=stderr" % command_id)

    def interrupt(self, command_id, timeout=60):
        query = urllib.parse.urlencode({"wait": "true", "timeout": timeout})
        return self._request("POST", "/v1/commands/%s/interrupt?%s" % (command_id, query), timeout=timeout + 15)

    def forget(self, command_id):
        try:
            self._request("DELETE", "/v1/commands/" + command_id)
        except HostError:
            pass


class Recording:
    """One `showreel io <display> recordVideo` run through the host: started, and once it
    printed "Recording started", stopped by SIGINT with a wait (the file is final then)."""

    def __init__(self, host, command, display, path):
        self.host = host
        self.path = path
        self.id = host.start([command, "io", display, "recordVideo", "--force", path])["id"]

    def wait_until_started(self, timeout=60.0):
        deadline = time.monotonic() + timeout
        while True:
            if RECORDING_STARTED in self.host.stderr(self.id):
                return
            state = self.host.command(self.id)
            if state.get("state") == "finished":
                self.host.forget(self.id)
                raise HostError("the recorder exited before recording: %s" % state.get("stderr", "").strip())
            if time.monotonic() > deadline:
                self.stop()
                raise HostError("the recorder did not start within %d s" % timeout)
            time.sleep(0.05)

    def stop(self):
        """Interrupts the recorder and waits until it has finalised the file; returns the
        recorder's stderr when it failed, else None."""
        result = self.host.interrupt(self.id)
        self.host.forget(self.id)
        if result.get("terminationReason") == "exit" and result.get("exitCode") == 0:
            return None
        return (result.get("stderr") or "").strip() or "the recorder ended with %s" % (
            result.get("signalName") or result.get("exitCode"))
