"""Recordings/manifest.json in the format Showreel's Swift side writes (RunManifest), so
`showreel report merge` turns it into report.html and junit.xml."""
import datetime
import fcntl
import json
import os


def timestamp(moment=None):
    # ISO-8601 without fractions: what Swift's JSONDecoder .iso8601 reads.
    moment = moment or datetime.datetime.now(datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _write(path, manifest):
    temporary = path + ".tmp-%d" % os.getpid()
    with open(temporary, "w") as handle:
        json.dump(manifest, handle, indent=2, sort_keys=True)
        handle.write("\n")
    os.replace(temporary, path)  # atomic: a reader never sees half a file


class Manifest:
    def __init__(self, folder, title):
        self.folder = folder
        self.path = os.path.join(folder, "manifest.json")
        self.title = title

    def start(self):
        """A new run: an empty manifest (the previous run's entries are gone)."""
        os.makedirs(self.folder, exist_ok=True)
        with self._locked():
            _write(self.path, {"title": self.title, "createdAt": timestamp(), "entries": []})

    def add(self, entry):
        """Adds an entry, replacing one with the same id; safe across pytest-xdist workers."""
        os.makedirs(self.folder, exist_ok=True)
        with self._locked():
            try:
                with open(self.path) as handle:
                    manifest = json.load(handle)
            except (OSError, ValueError):
                manifest = {"title": self.title, "createdAt": timestamp(), "entries": []}
            entries = [e for e in manifest.get("entries", []) if e.get("id") != entry["id"]]
            manifest["entries"] = entries + [entry]
            _write(self.path, manifest)

    def _locked(self):
        return _Lock(os.path.join(self.folder, ".manifest.lock"))


class _Lock:
    def __init__(self, path):
        self.path = path

    def __enter__(self):
        self.handle = open(self.path, "a")
        fcntl.flock(self.handle, fcntl.LOCK_EX)

    def __exit__(self, *exc):
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def entry(nodeid, name, suite, status, duration, video=None, failures=()):
    result = {"id": nodeid, "name": name, "suite": suite, "status": status, "duration": round(duration, 3),
              "failures": list(failures), "steps": [], "attachments": []}
    if video:
        result["video"] = video
    return result
