"""The study's progress line on stderr: a bar, done / running / failed of the total, and an ETA.

On a terminal the line is redrawn in place every second; otherwise (a log, a CI job) one line is
printed at each tenth of the study and at the end, so logs stay short.
"""
import sys
import threading
import time


def format_duration(seconds):
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


def progress_text(total, cached, done, failed, running, elapsed_s, width=30, label="study"):
    """done counts runs finished in this session (cached ones are separate); ETA from their rate."""
    finished = cached + done + failed
    filled = int(width * finished / total) if total else width
    bar = "#" * filled + "." * (width - filled)
    fresh = done + failed
    remaining = total - finished
    if remaining == 0:
        eta = f"took {format_duration(elapsed_s)}"
    elif fresh and elapsed_s > 0:
        eta = f"ETA {format_duration(remaining * elapsed_s / fresh)}"
    else:
        eta = "ETA ?"
    extra = f", {cached} reused" if cached else ""
    return (f"{label} [{bar}] {cached + done}/{total} done, {running} running, {failed} failed{extra}, {eta}")


class progress_meter:
    def __init__(self, total, cached, running_probe, stream=sys.stderr, label="study"):
        self.total, self.cached, self.label = total, cached, label
        self.done = self.failed = 0
        self._running_probe = running_probe
        self._stream = stream
        self._tty = stream.isatty()
        self._start = time.time()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last_tenth = -1
        self._last_text = None
        self._thread = threading.Thread(target=self._tick, daemon=True) if self._tty else None

    def start(self):
        if self._thread:
            self._thread.start()
        self._show(force=True)

    def record(self, ok, reused=False):
        """A run finished (reused: taken from an earlier session's result, counted with the cached)."""
        with self._lock:
            if reused:
                self.cached += 1
            elif ok:
                self.done += 1
            else:
                self.failed += 1
        self._show()

    def note(self, message):
        """A message (a failure) on its own line, the progress line redrawn after it."""
        with self._lock:
            self._stream.write(("\r\033[K" if self._tty else "") + message + "\n")
            self._stream.flush()
        self._show(force=True)

    def finish(self):
        self._stop.set()
        if self._thread:
            self._thread.join()
        self._show(force=True, final=True)

    def _tick(self):
        while not self._stop.wait(1.0):
            self._show()

    def _show(self, force=False, final=False):
        with self._lock:
            try:
                running = 0 if final else self._running_probe()
            except Exception:  # the scheduler may be gone at the very end
                running = 0
            text = progress_text(self.total, self.cached, self.done, self.failed, running,
                                 time.time() - self._start, label=self.label)
            if self._tty:
                self._stream.write("\r\033[K" + text + ("\n" if final else ""))
            else:
                tenth = (self.cached + self.done + self.failed) * 10 // max(1, self.total)
                if text == self._last_text or not (force or tenth != self._last_tenth):
                    return
                self._last_tenth, self._last_text = tenth, text
                self._stream.write(text + "\n")
            self._stream.flush()
