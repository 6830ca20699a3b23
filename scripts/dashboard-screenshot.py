#!/usr/bin/env python3
"""Makes docs/images/dashboard.png, README's picture of the dashboard, from the real thing.

Runs `hrvmon demo` in a private tmux server at 100x32 with a home of its own (no session bus, so
no desktop notification), waits for the stress prompt, captures the screen with its colours
(`tmux capture-pane -e`), turns the escape sequences into HTML and has headless Chromium
screenshot it.

    swift build --product hrvmon && python3 scripts/dashboard-screenshot.py [OUTPUT.png]

HRVMON=path picks the binary (default: .build/release/hrvmon, else .build/debug/hrvmon). Needs
tmux and chromium (scripts/install-deps.sh installs both).
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH, HEIGHT = 100, 32
CELL_WIDTH, LINE_HEIGHT, FONT_SIZE, MARGIN = 8.4, 17, 14, 12
# The 16 colours of a dark terminal theme (xterm's order: black, red, green, yellow, blue,
# magenta, cyan, white, then the bright ones).
PALETTE = ["#1e1e1e", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d0d0d0",
           "#5c6370", "#ff7b86", "#b5e890", "#ffd68a", "#82c4ff", "#de9bf0", "#7fd8e3", "#ffffff"]
FOREGROUND, BACKGROUND = "#d0d0d0", "#1e1e1e"


def xterm256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    level = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    # SGR codes that switch an attribute on, and those that switch attributes off.
    ATTRIBUTE_ON = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "reverse"}
    ATTRIBUTE_OFF = {22: ("bold", "dim"), 23: ("italic",), 24: ("underline",), 27: ("reverse",)}

    def apply(self, codes):
        codes = codes or [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c in self.ATTRIBUTE_ON:
                setattr(self, self.ATTRIBUTE_ON[c], True)
            elif c in self.ATTRIBUTE_OFF:
                for name in self.ATTRIBUTE_OFF[c]:
                    setattr(self, name, False)
            elif 30 <= c <= 37:
                self.fg = PALETTE[c - 30]
            elif 90 <= c <= 97:
                self.fg = PALETTE[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = PALETTE[c - 40]
            elif 100 <= c <= 107:
                self.bg = PALETTE[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    colour, i = xterm256(codes[i + 2]), i + 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    colour, i = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5]), i + 4
                else:
                    colour = None
                if c == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1

    def css(self):
        fg, bg = self.fg or FOREGROUND, self.bg or BACKGROUND
        if self.reverse:
            fg, bg = bg, fg
        rules = [f"color:{fg}"]
        if bg != BACKGROUND:
            rules.append(f"background:{bg}")
        if self.bold:
            rules.append("font-weight:bold")
        if self.dim:
            rules.append("opacity:0.6")
        if self.italic:
            rules.append("font-style:italic")
        if self.underline:
            rules.append("text-decoration:underline")
        return ";".join(rules)


def to_html(screen):
    """The captured lines as one <pre>, each run of text in a span of its style."""
    style, rows = Style(), []
    for line in screen.split("\n")[:HEIGHT]:
        parts, position = [], 0
        for match in re.finditer(r"\x1b\[([0-9;:]*)m", line):
            text = line[position:match.start()]
            if text:
                parts.append(f'<span style="{style.css()}">{html.escape(text)}</span>')
            style.apply([int(c) for c in re.split(r"[;:]", match.group(1)) if c != ""])
            position = match.end()
        text = line[position:]
        if text:
            parts.append(f'<span style="{style.css()}">{html.escape(text)}</span>')
        rows.append("".join(parts))
    return f"""<!doctype html><meta charset="utf-8"><style>
html, body {{ margin: 0; background: {BACKGROUND}; }}
pre {{ margin: {MARGIN}px; font: {FONT_SIZE}px/{LINE_HEIGHT}px "DejaVu Sans Mono", monospace; color: {FOREGROUND}; }}
</style><pre>{chr(10).join(rows)}</pre>"""


def tmux(socket, *arguments):
    return subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", *arguments], check=True,
                          capture_output=True, text=True).stdout


def capture_demo(hrvmon, home):
    socket = f"hrvmon-screenshot-{os.getpid()}"
    os.makedirs(os.path.join(home, "run"), mode=0o700)
    command = (f"env -u NO_COLOR TERM=xterm-256color HOME={home} XDG_CONFIG_HOME={home}/config "
               f"XDG_DATA_HOME={home}/data XDG_RUNTIME_DIR={home}/run DBUS_SESSION_BUS_ADDRESS= {hrvmon} demo")
    tmux(socket, "new-session", "-d", "-s", "demo", "-x", str(WIDTH), "-y", str(HEIGHT))
    try:
        tmux(socket, "send-keys", "-t", "demo", "-l", command)
        tmux(socket, "send-keys", "-t", "demo", "Enter")
        # The stress prompt comes about 28 s into the demo; a few seconds more fill its charts.
        deadline, prompted = time.time() + 120, None
        while time.time() < deadline:
            screen = tmux(socket, "capture-pane", "-p", "-t", "demo")
            if prompted is None and "press b to start the pacer" in screen:
                prompted = time.time()
            if prompted is not None and time.time() - prompted > 4:
                return tmux(socket, "capture-pane", "-p", "-e", "-t", "demo")
            time.sleep(0.5)
        sys.exit("hrvmon demo showed no stress prompt within 120 s:\n" + screen)
    finally:
        subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "send-keys", "-t", "demo", "q"], capture_output=True)
        time.sleep(0.5)
        subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "kill-server"], capture_output=True)


def screenshot(page, output, scratch):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("chromium is not installed (scripts/install-deps.sh installs it)")
    width = round(WIDTH * CELL_WIDTH + 2 * MARGIN)
    height = HEIGHT * LINE_HEIGHT + 2 * MARGIN
    subprocess.run(["timeout", "--kill-after=5", "60", chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1",
                    f"--user-data-dir={scratch}/profile", f"--window-size={width},{height}",
                    f"--screenshot={output}", "file://" + page], check=True, capture_output=True)


def main():
    output = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs/images/dashboard.png"))
    hrvmon = os.environ.get("HRVMON") or next(
        (path for path in (os.path.join(ROOT, ".build", kind, "hrvmon") for kind in ("release", "debug")) if os.path.exists(path)),
        None)
    if not hrvmon:
        sys.exit("no hrvmon built: swift build --product hrvmon (or set HRVMON=path)")
    scratch = tempfile.mkdtemp(prefix="hrvmon-screenshot-")
    try:
        screen = capture_demo(os.path.abspath(hrvmon), os.path.join(scratch, "home"))
        page = os.path.join(scratch, "dashboard.html")
        with open(page, "w", encoding="utf-8") as file:
            file.write(to_html(screen))
        os.makedirs(os.path.dirname(output), exist_ok=True)
        screenshot(page, output, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{output}: {os.path.getsize(output)} bytes")


if __name__ == "__main__":
    main()
