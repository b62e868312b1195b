"""A small driver for headless Chromium over the DevTools protocol (CDP), for dlca's browser tests.

Chromium is started with --remote-debugging-pipe: it reads commands from file descriptor 3 and
writes replies and events to descriptor 4, each a JSON message ended by a NUL byte. No network
port, no WebSocket library.
"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time

def find_chromium():
    """The browser's path, or None: $DLCA_CHROMIUM, else chromium or chromium-browser on PATH."""
    named = os.environ.get("DLCA_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class CdpError(RuntimeError):
    pass


class Browser:
    """One headless Chromium; `open(url)` gives a Page."""

    def __init__(self, chromium, width=1280, height=1000, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="dlca-chromium-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def child_fds():  # the pipe ends become the child's descriptors 3 and 4
            # Moved above 4 first, so that neither dup2 is a no-op (which would keep close-on-exec)
            # nor overwrites the other end.
            read_end = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            write_end = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        args = [chromium, "--headless", "--remote-debugging-pipe", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking",
                "--disable-dev-shm-usage", "--mute-audio", f"--window-size={width},{height}",
                f"--user-data-dir={self.profile}", "about:blank"]
        self.log = tempfile.TemporaryFile()  # Chromium's own messages, for errors
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=self.log)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise CdpError("no reply from Chromium in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                self.log.seek(0)
                err = self.log.read().decode(errors="replace")[-2000:]
                raise CdpError("Chromium closed the pipe: " + err)
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None):
        self._next_id += 1
        command = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._read_message(deadline)
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise CdpError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.navigate(url)
        return page

    def close(self):
        try:
            self.send("Browser.close")
        except (CdpError, OSError):
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    def __init__(self, browser, session):
        self.browser = browser
        self.session = session

    def send(self, method, params=None):
        return self.browser.send(method, params, self.session)

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.browser.timeout
        while self.evaluate("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise CdpError(f"{url} did not finish loading")
            time.sleep(0.05)

    def evaluate(self, expression):
        """The value of a JavaScript expression (awaited if a promise); page errors raise."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CdpError(f"{expression[:80]}: {text}")
        return result["result"].get("value")

    def drag(self, points):
        """A mouse drag with the left button through viewport points [(x, y), ...]."""
        x, y = points[0]
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        self.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y,
                                                "button": "left", "buttons": 1, "clickCount": 1})
        for x, y in points[1:]:
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y,
                                                    "button": "left", "buttons": 1})
        self.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y,
                                                "button": "left", "buttons": 0, "clickCount": 1})

    def screenshot(self):
        """The viewport as PNG bytes."""
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])

    def console_errors(self):
        """Exceptions and console errors the page reported so far."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            if event.get("method") == "Runtime.exceptionThrown":
                found.append(event["params"]["exceptionDetails"].get("text", "exception"))
            elif (event.get("method") == "Runtime.consoleAPICalled"
                  and event["params"].get("type") == "error"):
                found.append(" ".join(str(a.get("value", a.get("description", "")))
                                      for a in event["params"].get("args", [])))
        return found
