#!/usr/bin/env python3
"""A headless Chromium, driven over the DevTools protocol, to look at a page
the way a reader's browser shows it.  Standard library only.

Chromium (Debian's 'chromium'; $SB_CHROMIUM names another) runs headless
with --remote-debugging-pipe: it reads the protocol's commands on its file
descriptor 3 and writes its answers and events on 4, each message one JSON
text ended by a NUL byte.  Everything it could fetch on its own (updates,
sync, safe browsing, metrics) is switched off, every host name resolves to
nothing, and its profile is a temporary directory removed afterwards.

    with Browser() as browser:
        page = browser.open("report.html")      # waits for the load event
        page.console, page.exceptions, page.requests
        page.evaluate("document.querySelectorAll('rect.cell').length")
        page.screenshot("report.png")           # the whole page, as PNG

Every wait has a deadline (a BrowserError when it passes), and Chromium
and its helper processes are killed however the 'with' block ends.  A
missing Chromium is an error (BrowserMissing), never a silent skip: the
project's scripts install it.

From the command line, one page: its console, its requests and optionally
a screenshot, as JSON; the exit code is 1 when the page logged an error or
threw, or asked for anything but its own file:

    browser.py PAGE.html [--screenshot OUT.png [--clip SELECTOR]] [--width 1200]
"""
import argparse
import base64
import ctypes
import fcntl
import json
import os
import pathlib
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

# Switches that keep Chromium offline, quiet and free of first-run work.
QUIET_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--disable-translate",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--disable-dev-shm-usage",
    "--disable-features=Translate,OptimizationHints,MediaRouter,"
    "DialMediaRouteProvider,InterestFeedContentSuggestions,AutofillServerCommunication",
    "--metrics-recording-only",
    "--no-pings",
    "--mute-audio",
    "--hide-scrollbars",
    "--noerrdialogs",
    "--password-store=basic",
    "--use-mock-keychain",
    # No host name resolves: a request for anything outside the page fails
    # at once instead of reaching the network (it is still seen and
    # recorded by the Network domain).
    "--host-resolver-rules=MAP * ~NOTFOUND",
]


class BrowserError(RuntimeError):
    """The browser failed, answered with an error or missed a deadline."""


class BrowserMissing(BrowserError):
    """No Chromium to run."""


def find_chromium():
    """The Chromium to run: $SB_CHROMIUM, else 'chromium' on the PATH."""
    named = os.environ.get("SB_CHROMIUM")
    if named:
        if os.access(named, os.X_OK):
            return named
        raise BrowserMissing(f"'{named}' (from SB_CHROMIUM) is not a program")
    found = shutil.which("chromium")
    if not found:
        raise BrowserMissing("'chromium' not found: install Debian's chromium "
                             "package (scripts/lib.sh lists it)")
    return found


def png_size(data):
    """(width, height) of a PNG image, after checking its signature, that
    every chunk's CRC is right and that it ends with IEND; ValueError when
    it is not a whole PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG: wrong signature")
    pos, size, seen = 8, None, []
    while pos < len(data):
        if pos + 12 > len(data):
            raise ValueError("PNG cut inside a chunk header")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            raise ValueError(f"PNG cut inside chunk {kind!r}")
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"PNG chunk {kind!r}: wrong CRC")
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        seen.append(kind)
        pos += 12 + length
    if not seen or seen[0] != b"IHDR" or seen[-1] != b"IEND" or b"IDAT" not in seen:
        raise ValueError("PNG without IHDR first, IDAT and IEND last")
    return size


def _die_with_parent():
    """In the child before exec: its own process group (so that its helper
    processes are killed with it), and SIGKILL when this process dies, so
    that a killed test leaves no browser behind."""
    os.setpgid(0, 0)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))      # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Page:
    """One page opened in the browser: what it logged and asked for while
    it loaded (and since), and ways to look at it."""

    def __init__(self, browser, session, url):
        self.browser = browser
        self.session = session
        self.url = url
        self.console = []       # {"source", "level", "text"}
        self.exceptions = []    # the text of each uncaught exception
        self.requests = []      # every URL the page asked for, in order
        self.loaded = False

    def event(self, method, params):
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", "")))
                            for a in params.get("args", []))
            level = params.get("type", "log")
            if level == "assert":
                level = "error"
            self.console.append({"source": "console-api", "level": level,
                                 "text": text})
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            exc = details.get("exception", {})
            self.exceptions.append(exc.get("description")
                                   or details.get("text", "exception"))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            self.console.append({"source": entry.get("source", "other"),
                                 "level": entry.get("level", "info"),
                                 "text": entry.get("text", "")
                                 + (f" ({entry['url']})" if entry.get("url") else "")})
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Page.loadEventFired":
            self.loaded = True

    def errors(self):
        """The console's errors and the uncaught exceptions, as text."""
        return ([f"{m['source']}: {m['text']}" for m in self.console
                 if m["level"] == "error"]
                + [f"exception: {e}" for e in self.exceptions])

    def foreign_requests(self):
        """Every request for something other than the page itself."""
        return [u for u in self.requests if u.split("#")[0] != self.url]

    def command(self, method, params=None, timeout=None):
        return self.browser.command(method, params, session=self.session,
                                    timeout=timeout)

    def evaluate(self, expression, timeout=None):
        """The value of a JavaScript expression in the page (JSON-able)."""
        answer = self.command("Runtime.evaluate",
                              {"expression": expression, "returnByValue": True,
                               "awaitPromise": True}, timeout)
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") \
                or details.get("text")
            raise BrowserError(f"evaluating '{expression[:60]}': {text}")
        return answer["result"].get("value")

    def screenshot(self, path=None, selector=None, timeout=None):
        """The whole page (not only the window), or the first element that
        matches a CSS 'selector' with a margin of 8 px, as PNG bytes,
        written to 'path' when given."""
        if selector is None:
            metrics = self.command("Page.getLayoutMetrics", timeout=timeout)
            content = metrics.get("cssContentSize") or metrics["contentSize"]
            clip = {"x": 0, "y": 0, "width": max(1, content["width"]),
                    "height": max(1, content["height"]), "scale": 1}
        else:
            box = self.evaluate(
                f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                " if (!e) return null; const r = e.getBoundingClientRect();"
                " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()",
                timeout)
            if box is None:
                raise BrowserError(f"no element matches '{selector}'")
            x, y = max(0, box[0] - 8), max(0, box[1] - 8)
            clip = {"x": x, "y": y, "width": box[2] + 16,
                    "height": box[3] + 16, "scale": 1}
        answer = self.command("Page.captureScreenshot",
                              {"format": "png", "clip": clip,
                               "captureBeyondViewport": True}, timeout)
        data = base64.b64decode(answer["data"])
        if path is not None:
            tmp = f"{path}.tmp"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        return data


class Browser:
    """Headless Chromium over a pipe; use as a context manager."""

    def __init__(self, width=1200, height=900, timeout=60):
        self.width, self.height, self.timeout = width, height, timeout
        self.proc = None
        self.profile = None
        self.log = None
        self.to_browser = self.from_browser = None
        self.buffer = b""
        self.next_id = 0
        self.pages = {}         # session id -> Page

    # -- starting and stopping
    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def start(self):
        program = find_chromium()
        # Chromium's helpers are forked twice; when killed, they would be
        # left to init as zombies.  Made their reaper here, this process
        # collects them in close().
        try:
            ctypes.CDLL(None, use_errno=True).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            pass
        self.profile = tempfile.mkdtemp(prefix="sb-chromium-")
        self.log = open(os.path.join(self.profile, "stderr.log"), "w+b")
        # Chromium reads on 3 and writes on 4: the child's ends are moved
        # there after the fork; every other descriptor of this process is
        # non-inheritable (Python's default), so none leaks into it.
        cmd_r, cmd_w = os.pipe()
        ans_r, ans_w = os.pipe()
        # Out of the way of 3 and 4, so that moving one cannot overwrite
        # the other.
        child_r = fcntl_dup_high(cmd_r)
        child_w = fcntl_dup_high(ans_w)
        os.close(cmd_r)
        os.close(ans_w)

        def child_setup():
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)
            _die_with_parent()

        args = [program, *QUIET_FLAGS, "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}/profile",
                f"--window-size={self.width},{self.height}", "about:blank"]
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                         stdout=self.log, stderr=self.log,
                                         close_fds=False,
                                         preexec_fn=child_setup)
        finally:
            os.close(child_r)
            os.close(child_w)
        self.to_browser, self.from_browser = cmd_w, ans_r
        self.command("Browser.getVersion")

    def close(self):
        """Close the browser, kill whatever of it is left, and remove its
        profile; safe to call more than once, and after any failure."""
        if self.proc is not None:
            if self.proc.poll() is None and self.to_browser is not None:
                try:
                    self.send("Browser.close")
                except (BrowserError, OSError):
                    pass
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            # The helper processes (zygote, renderer) share its group.
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
            # Reap the helpers of its group that were handed to this
            # process as it died.
            while True:
                try:
                    os.waitpid(-self.proc.pid, 0)
                except ChildProcessError:
                    break
            self.proc = None
        for fd in (self.to_browser, self.from_browser):
            if fd is not None:
                os.close(fd)
        self.to_browser = self.from_browser = None
        if self.log is not None:
            self.log.close()
            self.log = None
        if self.profile is not None:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    def stderr(self):
        """The last lines Chromium wrote, for an error message."""
        if self.log is None:
            return ""
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    # -- the protocol
    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self.to_browser, data)
            data = data[written:]
        return self.next_id

    def receive(self, deadline, waiting_for):
        """The next message from the browser, by 'deadline'."""
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"no answer from chromium to {waiting_for} "
                                   "in time")
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise BrowserError(f"chromium closed its pipe (waiting for "
                                   f"{waiting_for}):\n{self.stderr()}")
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        message = json.loads(text)
        page = self.pages.get(message.get("sessionId"))
        if page is not None and "method" in message:
            page.event(message["method"], message.get("params", {}))
        return message

    def command(self, method, params=None, session=None, timeout=None):
        """Send a command and return its result, handling the events that
        arrive before it."""
        ident = self.send(method, params, session)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            message = self.receive(deadline, method)
            if message.get("id") == ident:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})

    def open(self, path, timeout=None):
        """Open a file in a new tab and wait for its load event: a Page."""
        url = pathlib.Path(path).resolve().as_uri()
        target = self.command("Target.createTarget", {"url": "about:blank"})
        session = self.command("Target.attachToTarget",
                               {"targetId": target["targetId"],
                                "flatten": True})["sessionId"]
        page = Page(self, session, url)
        self.pages[session] = page
        for domain in ("Network", "Runtime", "Log", "Page"):
            page.command(f"{domain}.enable")
        page.command("Emulation.setDeviceMetricsOverride",
                     {"width": self.width, "height": self.height,
                      "deviceScaleFactor": 1, "mobile": False})
        answer = page.command("Page.navigate", {"url": url})
        if answer.get("errorText"):
            raise BrowserError(f"'{path}': {answer['errorText']}")
        deadline = time.monotonic() + (timeout or self.timeout)
        while not page.loaded:
            self.receive(deadline, f"the load of '{path}'")
        # Everything queued up to now (late console messages, requests made
        # by the load handlers) is read before anyone looks.
        page.evaluate("document.readyState")
        return page


def fcntl_dup_high(fd):
    """A close-on-exec copy of 'fd' numbered 10 or more."""
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page")
    parser.add_argument("--screenshot", metavar="PNG")
    parser.add_argument("--clip", metavar="SELECTOR",
                        help="the screenshot shows this element only")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args(argv)
    # A terminating signal still runs the clean-up of the 'with'.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with Browser(width=args.width, timeout=args.timeout) as browser:
        page = browser.open(args.page)
        result = {"url": page.url, "console": page.console,
                  "exceptions": page.exceptions, "requests": page.requests}
        if args.screenshot:
            width, height = png_size(page.screenshot(args.screenshot, args.clip))
            result["screenshot"] = {"file": args.screenshot,
                                    "width": width, "height": height}
    print(json.dumps(result, indent=2))
    return 1 if page.errors() or page.foreign_requests() else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrowserError as e:
        print(f"browser.py: {e}", file=sys.stderr)
        sys.exit(2)
