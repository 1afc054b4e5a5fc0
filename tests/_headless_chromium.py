"""Drive headless Chromium through the Chrome DevTools Protocol: open a page, evaluate, click, screenshot.

Used by the viewer's browser tests and ``benchmarks/bench_viewer.py``. Needs
a ``chromium`` executable (Debian's package) and ``websocket-client``.
WebGL runs on SwiftShader, the software renderer (there is no GPU here).
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

EXECUTABLES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in EXECUTABLES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Chromium:
    """One headless browser with one page; use as a context manager. ``extra``: more command-line switches."""

    def __init__(self, *, width: int = 1000, height: int = 800, timeout: float = 30.0, extra: tuple = ()):
        import websocket

        executable = find_chromium()
        if executable is None:
            raise RuntimeError("no chromium executable on PATH")
        self.timeout = timeout
        self.folder = tempfile.mkdtemp(prefix="vosim-chromium-")
        log = Path(self.folder) / "stderr.txt"
        self._log = open(log, "wb")
        arguments = [executable, "--headless", "--no-sandbox", "--no-first-run", "--no-default-browser-check",
                     "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                     "--force-device-scale-factor=1", "--hide-scrollbars", "--mute-audio",
                     "--remote-debugging-port=0", "--remote-allow-origins=*",
                     f"--user-data-dir={self.folder}/profile", f"--window-size={width},{height}",
                     *extra, "about:blank"]
        self.process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=self._log)
        port = None
        deadline = time.monotonic() + timeout
        while port is None:
            found = re.search(rb"DevTools listening on ws://[^:]+:(\d+)/", log.read_bytes())
            if found:
                port = int(found.group(1))
            elif self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"chromium did not start: {log.read_text(errors='replace')[-2000:]}")
            else:
                time.sleep(0.05)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout) as reply:
            targets = [t for t in json.load(reply) if t.get("type") == "page"]
        self.socket = websocket.create_connection(targets[0]["webSocketDebuggerUrl"], timeout=timeout,
                                                  suppress_origin=True)
        self._next = 0
        self.console = []
        self.call("Runtime.enable")
        self.call("Page.enable")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        socket = getattr(self, "socket", None)
        if socket is not None:
            try:
                socket.close()
            except Exception:
                pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def call(self, method: str, **params):
        """Send one command and wait for its answer (events meanwhile: console messages kept, rest dropped)."""
        self._next += 1
        ident = self._next
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", a.get("description", "")))
                                             for a in message["params"]["args"]))
            elif message.get("method") == "Runtime.exceptionThrown":
                self.console.append("exception: " + json.dumps(message["params"]["exceptionDetails"])[:2000])
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (awaited when a promise)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, path, *, fragment: str = "", ready: str = "window.vosimViewers && window.vosimViewers.length > 0",
             timeout: float | None = None):
        """Load a file (``fragment``: what follows ``#`` in its address) and wait until ``ready`` is true in it."""
        # Through a blank page, so that the old page cannot answer ``ready`` and a new fragment reloads.
        self.call("Page.navigate", url="about:blank")
        self.wait_for("document.readyState === 'complete' && location.href === 'about:blank'", timeout=timeout)
        self.call("Page.navigate", url=Path(path).resolve().as_uri() + (f"#{fragment}" if fragment else ""))
        self.wait_for(ready, timeout=timeout)

    def wait_for(self, expression: str, *, timeout: float | None = None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while not self.evaluate(f"Boolean({expression})"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{expression} still false; console: {self.console[-5:]}")
            time.sleep(0.05)

    def click(self, x: float, y: float):
        """A left click at page coordinates (CSS pixels), as a mouse would."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1,
                      buttons=0 if kind == "mouseReleased" else 1)

    def center_of(self, selector: str) -> tuple[float, float]:
        box = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        return box[0], box[1]

    def screenshot(self, selector: str | None = None):
        """The page (or the element ``selector`` picks) as a PIL image (RGB)."""
        from PIL import Image

        clip = {}
        if selector is not None:
            box = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                                ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
            clip = {"clip": dict(x=box[0], y=box[1], width=box[2], height=box[3], scale=1)}
        data = self.call("Page.captureScreenshot", format="png", **clip)["data"]
        return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")


def in_ci() -> bool:
    """Whether this is CI's run of the source tree (.ci/run installs chromium), not a wheel's own test run
    (cibuildwheel sets CIBUILDWHEEL=1; its machines have no chromium)."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes") and os.environ.get("CIBUILDWHEEL") != "1"
