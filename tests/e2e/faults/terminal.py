"""A job on a terminal, for the output tests: run a command on a pseudo-terminal (rich draws its live progress bar
there, as for a user) and replay what it wrote the way a terminal shows it."""
from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
import threading

CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")
COLUMNS = 400        # wide: no line is wrapped, so a log line is one screen line when it is shown whole


class TerminalJob:
    """``subprocess.Popen`` on a pty; :attr:`output` is everything it wrote, once it has ended."""

    def __init__(self, cmd: list[str], **popen):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
        env = {**popen.pop("env", os.environ), "TERM": "xterm-256color", "COLUMNS": str(COLUMNS)}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env, **popen)
        os.close(slave)
        self._master, self._chunks = master, []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 1 << 16)
            except OSError:        # the pty closes when the process (and its children) have exited
                break
            if not chunk:
                break
            self._chunks.append(chunk)

    def wait(self, timeout: float) -> int:
        rc = self.proc.wait(timeout=timeout)
        self._reader.join(10)
        os.close(self._master)
        return rc

    @property
    def output(self) -> str:
        return b"".join(self._chunks).decode("utf-8", "replace")


def screen_lines(raw: str) -> list[str]:
    """What a terminal shows of ``raw``, scrollback included, top to bottom: text, carriage return, newline, erase
    in line (CSI K) and cursor up (CSI A), which is what rich's live display uses; other escapes (colours, cursor
    visibility) change nothing here."""
    lines, row, col, i = [""], 0, 0, 0
    while i < len(raw):
        m = CSI.match(raw, i) if raw[i] == "\x1b" else None
        if m:
            arg, cmd = m.groups()
            if cmd == "K":
                lines[row] = "" if arg == "2" else lines[row][:col] if arg in ("", "0") else lines[row]
            elif cmd == "A":
                row = max(0, row - int(arg or 1))
            i = m.end()
            continue
        ch = raw[i]
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row, col = row + 1, 0
            if row == len(lines):
                lines.append("")
        elif ch >= " ":
            line = lines[row].ljust(col)
            lines[row] = line[:col] + ch + line[col + 1:]
            col += 1
        i += 1
    return lines
