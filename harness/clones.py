"""The real Minesweeper clones as data, and how to start one on a display.

Used by tests, benchmarks, the demo and the recordings script: never by the
bot's reading or playing path (the bot only sees pixels). Each clone is a
`CloneSpec` value: its command line per board size, environment and files it
needs, how to find its window. `launch_clone` starts it in a private temporary
folder (settings, logs and high scores never touch the user's or the
installed package's files), waits for its window, moves it where asked and
gives it the focus when it needs it; `RunningClone.close` kills it by PID.

Window handling uses the `xdotool` command line (~0.1 s per call): fine here,
far too slow for play.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from types import TracebackType

from bot.errors import MsbotError
from harness.xdisplay import VirtualDisplay, stop_process

#: Standard board names, beginner to expert.
SIZE_NAMES = ("beginner", "intermediate", "expert")

#: Where Debian installs games; often not on PATH.
GAMES_DIR = Path("/usr/games")


class CloneError(MsbotError):
    """A clone is not installed, did not start, or its window did not appear."""


@dataclass(frozen=True)
class BoardSize:
    """Rows (height), columns (width) and mine count of a board."""

    rows: int
    cols: int
    mines: int

    def __str__(self) -> str:
        return f"{self.cols}x{self.rows}/{self.mines}"


#: minegauler reads its settings from, and writes them and its high-score
#: database into, the installed package folder. This launcher points those
#: paths at the clone's temporary folder before the app is imported, and
#: writes the wanted board size there: the installed package is never edited.
#: It also switches off posting wins to a remote server and the high-score
#: window that would cover the board after a win.
MINEGAULER_LAUNCHER = """
import pathlib, sys
import minegauler.app.paths as paths
work = pathlib.Path(sys.argv[1])
paths.SETTINGS_FILE = work / "settings.cfg"
paths.DATA_DIR = work / "data"
paths.HIGHSCORES_FILE = work / "data" / "highscores.db"
paths.DATA_DIR.mkdir(exist_ok=True)
from minegauler.app import shared
opts = shared.AllOptsStruct(
    x_size=int(sys.argv[2]), y_size=int(sys.argv[3]), mines=int(sys.argv[4]),
    first_success=True, btn_size=int(sys.argv[5]),
)
shared.write_settings_to_file(opts, paths.SETTINGS_FILE)
# No network (it would post each win to its author's server) and no high-score
# pop-up over the board after a win (it also crashes under PyQt6 6.11).
import minegauler.app.highscores as highscores
highscores._post_highscore_to_remote = lambda *args, **kwargs: None
highscores.is_highscore_new_best = lambda *args, **kwargs: None
from minegauler.app.__main__ import main
sys.exit(main())
"""


@dataclass(frozen=True)
class CloneSpec:
    """Everything needed to start one clone, as data.

    `argv` and the values of `env` and `files` are `string.Template`s filled
    with `$rows $cols $mines` (the board), `$size_flag` (from `size_flags`,
    for clones that only have presets), `$win_w $win_h` (window size, for
    clones whose window size is a setting), `$cell` (cell size in pixels, for
    clones where it is a setting), `$workdir` (the private temporary folder,
    also the current directory) and `$python` (this interpreter).
    """

    name: str
    #: Skin name in templates/ (what `msbot replay --skin` calls it).
    skin: str
    #: Program name, looked up on PATH then in /usr/games; "$python" for Python apps.
    program: str
    argv: tuple[str, ...]
    presets: Mapping[str, BoardSize]
    #: Preset-only clones: the command-line flag of each preset.
    size_flags: Mapping[str, str] = field(default_factory=dict)
    #: Whether any rows/cols/mines can be asked for (within `min_cols`).
    custom_sizes: bool = True
    min_cols: int = 1
    env: Mapping[str, str] = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    #: Window size (w, h) per preset when it is a setting (`$win_w`, `$win_h`).
    window_sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: Default cell size in pixels (`$cell`) for clones where it is a setting
    #: (sgt-mines' MINES_TILESIZE, minegauler's btn_size); None: not a setting.
    cell_size: int | None = None
    #: `xdotool search --classname` pattern, for programs that do not set _NET_WM_PID.
    window_class: str | None = None
    #: `xdotool search --name` pattern, for programs that set neither (ace-minesweeper).
    window_name: str | None = None
    #: A folder (template) served on 127.0.0.1 while the clone runs (`$port` in
    #: `argv`): a web clone's page and scripts.
    serve: str | None = None
    #: Whether msbot has a built-in skin for it (the others are learned: `bot.learning`).
    builtin: bool = True
    #: Pauses when it loses the focus (GNOME Mines): focus it after moving.
    needs_focus: bool = False
    #: Seconds the window's picture must stay unchanged, once it shows more than
    #: one flat colour, to count as fully drawn (`RunningClone.wait_drawn`).
    settle: float = 0.3

    def board_size(self, size: str | BoardSize) -> BoardSize:
        """A preset by name, or a custom size checked against what the clone allows."""
        if isinstance(size, BoardSize):
            for preset in self.presets.values():
                if preset == size:
                    return size
            if not self.custom_sizes:
                raise CloneError(
                    f"{self.name} only has the sizes {', '.join(self.presets)}, not {size}"
                )
            if size.cols < self.min_cols:
                raise CloneError(f"{self.name} needs at least {self.min_cols} columns, not {size}")
            if not (0 < size.mines < size.rows * size.cols):
                raise CloneError(f"{size}: the mine count does not fit the board")
            return size
        if size not in self.presets:
            raise CloneError(f"{self.name} has no size {size!r} (known: {', '.join(self.presets)})")
        return self.presets[size]

    def preset_name(self, board: BoardSize) -> str | None:
        for name, preset in self.presets.items():
            if preset == board:
                return name
        return None

    def size_flag(self, board: BoardSize) -> str:
        return self.size_flags.get(self.preset_name(board) or "", "")

    def window_size(self, board: BoardSize) -> tuple[int, int] | None:
        """The default window size for a board, for clones where it is a setting."""
        return self.window_sizes.get(self.preset_name(board) or "")


XDEMINEUR = CloneSpec(
    name="xdemineur",
    skin="xdemineur",
    program="xdemineur",
    argv=("-geometry", "${cols}x${rows}", "-m", "$mines"),
    # xdemineur refuses fewer than 12 columns: 12x9/10 is its nearest beginner.
    presets={
        "beginner": BoardSize(9, 12, 10),
        "intermediate": BoardSize(16, 16, 40),
        "expert": BoardSize(16, 30, 99),
    },
    min_cols=12,
    # Its WM_CLASS is argv[0] (a full path when started by path), no _NET_WM_PID.
    window_class="xdemineur",
)

GNOME_MINES = CloneSpec(
    name="gnome-mines",
    skin="gnome-mines",
    program="gnome-mines",
    argv=("$size_flag",),
    presets={
        "beginner": BoardSize(8, 8, 10),
        "intermediate": BoardSize(16, 16, 40),
        "expert": BoardSize(16, 30, 99),
    },
    size_flags={"beginner": "--small", "intermediate": "--medium", "expert": "--big"},
    # Custom sizes need clicks in its own dialog: not offered.
    custom_sizes=False,
    # No dconf/dbus on a bare machine: settings in a keyfile in the private folder.
    # Its high scores too (XDG_DATA_HOME): each run starts with none, so a win
    # opens the "Congratulations!" window over the board, as a person's first
    # wins do (with the user's own list full of faster times it never would).
    env={
        "GSETTINGS_BACKEND": "keyfile",
        "XDG_CONFIG_HOME": "$workdir/config",
        "XDG_DATA_HOME": "$workdir/data",
    },
    files={
        "config/glib-2.0/settings/keyfile": (
            "[org/gnome/Mines]\n"
            "use-question-marks=true\n"
            "use-animations=false\n"
            "window-width=$win_w\n"
            "window-height=$win_h\n"
            "window-is-maximized=false\n"
        )
    },
    # Beginner: its own default (600x400 asked; the window comes out 610x460
    # with its title bar). Bigger boards are clipped in that window: bigger ones.
    window_sizes={
        "beginner": (600, 400),
        "intermediate": (800, 700),
        "expert": (1300, 720),
    },
    needs_focus=True,
    settle=0.3,
)

SGT_MINES = CloneSpec(
    name="sgt-mines",
    skin="sgt-mines",
    program="sgt-mines",
    argv=("${cols}x${rows}n${mines}",),
    presets={
        "beginner": BoardSize(9, 9, 10),
        "intermediate": BoardSize(16, 16, 40),
        "expert": BoardSize(16, 30, 99),
    },
    # Pinned so a user's ~/.config or environment cannot change the tile size.
    env={"MINES_TILESIZE": "$cell", "HOME": "$workdir"},
    cell_size=20,
    settle=0.3,
)

MINEGAULER = CloneSpec(
    name="minegauler",
    skin="minegauler",
    program="$python",
    argv=("-c", MINEGAULER_LAUNCHER, "$workdir", "$cols", "$rows", "$mines", "$cell"),
    presets={
        "beginner": BoardSize(9, 9, 10),
        "intermediate": BoardSize(16, 16, 40),
        "expert": BoardSize(16, 30, 99),
    },
    env={"QT_QPA_PLATFORM": "xcb"},
    cell_size=16,
    settle=0.3,
)

#: KMines (KDE): Qt 5 on X11, a D-Bus session of its own; Easy (9x9/10) is its
#: default level (the others are set in its dialogs). Its window has no PID.
KMINES = CloneSpec(
    name="kmines",
    skin="kmines",
    program="dbus-run-session",
    argv=("--", "/usr/games/kmines"),
    presets={"beginner": BoardSize(9, 9, 10)},
    custom_sizes=False,
    env={"QT_QPA_PLATFORM": "xcb", "HOME": "$workdir", "XDG_CONFIG_HOME": "$workdir/config"},
    window_class="kmines",
    settle=0.3,
    builtin=False,
)

#: xbomb: `-1`, `-2`, `-3` are its levels (8x8/10, 16x16/40, 30x16/99); restart
#: key `s`, quit key `q`. It maps a high-score window and hides it at once.
XBOMB = CloneSpec(
    name="xbomb",
    skin="xbomb",
    program="xbomb",
    argv=("$size_flag",),
    presets={
        "beginner": BoardSize(8, 8, 10),
        "intermediate": BoardSize(16, 16, 40),
        "expert": BoardSize(16, 30, 99),
    },
    size_flags={"beginner": "-1", "intermediate": "-2", "expert": "-3"},
    custom_sizes=False,
    env={"HOME": "$workdir"},
    window_class="xbomb",
    settle=0.3,
    builtin=False,
)

#: ace-minesweeper (The Ace of Penguins): one board, 32x32 with 200 mines;
#: its window sets no class and no PID, only a name.
ACE = CloneSpec(
    name="ace-minesweeper",
    skin="ace-minesweeper",
    program="ace-minesweeper",
    argv=(),
    presets={"beginner": BoardSize(32, 32, 200)},
    custom_sizes=False,
    env={"HOME": "$workdir"},
    window_name="ace-minesweeper",
    settle=0.3,
    builtin=False,
)

#: A web clone: npm's minesweeper-for-web (a custom element, standard rules:
#: flags with Ctrl+click, a long press, or nothing: no right click) on a page
#: of ours (`scripts/web/`) served on 127.0.0.1, in Debian's Chromium. The
#: page puts a mines-left text above the board and a restart button below.
WEB_MINES = CloneSpec(
    name="web-mines",
    skin="web-mines",
    program="chromium",
    argv=(
        "--no-sandbox",
        "--test-type",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-features=Translate,MediaRouter",
        "--force-device-scale-factor=1",
        "--user-data-dir=$workdir/profile",
        "--window-position=0,0",
        "--window-size=$win_w,$win_h",
        "--app=http://127.0.0.1:$port/minesweeper-for-web.html?rows=$rows&columns=$cols&bombs=$mines",
    ),
    presets={
        "beginner": BoardSize(9, 9, 10),
        "intermediate": BoardSize(16, 16, 40),
        "expert": BoardSize(16, 30, 99),
    },
    window_sizes={
        "beginner": (640, 640),
        "intermediate": (900, 900),
        "expert": (1300, 900),
    },
    serve="$web",
    settle=0.3,
    builtin=False,
)

CLONES: Mapping[str, CloneSpec] = {
    spec.name: spec
    for spec in (XDEMINEUR, GNOME_MINES, SGT_MINES, MINEGAULER, KMINES, XBOMB, ACE, WEB_MINES)
}

#: Where `make` installs the web clones (npm packages and our pages).
WEB_DIR = Path(__file__).resolve().parents[1] / ".venv" / "web"


def clone_spec(name: str) -> CloneSpec:
    """The spec of a clone by name; `CloneError` naming the known ones otherwise."""
    try:
        return CLONES[name]
    except KeyError:
        raise CloneError(f"unknown clone {name!r} (known: {', '.join(CLONES)})") from None


def find_program(program: str) -> str:
    """The full path of a clone's program (PATH, then /usr/games)."""
    if program == "$python":
        return sys.executable
    found = shutil.which(program)
    if found is None and (GAMES_DIR / program).exists():
        found = str(GAMES_DIR / program)
    if found is None:
        raise CloneError(f"{program} is not installed (run scripts/install-system-deps)")
    return found


def _display_name(display: str | VirtualDisplay) -> str:
    return display.display if isinstance(display, VirtualDisplay) else display


def xdotool(display: str, *args: str, timeout: float = 10.0) -> str:
    """Run one xdotool command on `display`; its standard output."""
    env = dict(os.environ, DISPLAY=display)
    try:
        out = subprocess.run(
            ["xdotool", *args], env=env, capture_output=True, text=True, timeout=timeout
        )
    except FileNotFoundError:
        raise CloneError("xdotool is not installed (run scripts/install-system-deps)") from None
    except subprocess.TimeoutExpired:
        raise CloneError(f"xdotool {' '.join(args)} hung for {timeout} s") from None
    return out.stdout


def window_geometry(display: str, window: str) -> tuple[int, int, int, int]:
    """(x, y, width, height) of a window, from `xdotool getwindowgeometry --shell`."""
    out = xdotool(display, "getwindowgeometry", "--shell", window)
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    try:
        return (int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))
    except KeyError:
        raise CloneError(f"window {window} has gone") from None


@dataclass
class RunningWindow:
    """A program started by `launch_window`, with its main window; close() kills it."""

    name: str
    display: str
    proc: subprocess.Popen[bytes]
    window: str
    workdir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def geometry(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) of the window on the screen."""
        return window_geometry(self.display, self.window)

    def move(self, x: int, y: int, timeout: float = 5.0) -> None:
        """Move the window's top-left corner to (x, y) and wait until it is there."""
        xdotool(self.display, "windowmove", self.window, str(x), str(y))
        deadline = time.monotonic() + timeout
        while self.geometry()[:2] != (x, y):
            if time.monotonic() > deadline:
                raise CloneError(f"{self.name}: the window did not move to {x},{y}")
            time.sleep(0.05)

    def focus(self) -> None:
        """Give the window the keyboard focus (no window manager does it for us)."""
        xdotool(self.display, "windowfocus", "--sync", self.window)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Kill the program by PID (SIGTERM, then SIGKILL), then what is left of
        its process group (it was started in a session of its own: Chromium's
        helpers outlive it for a moment, still writing into its profile), and
        remove its folder; never raises."""
        stop_process(self.proc)
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.workdir is not None:
            for _ in range(20):
                try:
                    self.workdir.cleanup()
                    break
                except OSError:  # a helper still writing into it: once more, shortly
                    time.sleep(0.05)
            else:
                shutil.rmtree(self.workdir.name, ignore_errors=True)
            self.workdir = None

    def __enter__(self) -> RunningWindow:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


@dataclass
class RunningClone(RunningWindow):
    """A clone started by `launch_clone`: its spec and board size besides the window."""

    spec: CloneSpec = XDEMINEUR
    size: BoardSize = field(default_factory=lambda: XDEMINEUR.presets["beginner"])
    #: Seconds from starting the program to the window being ready at its position.
    startup_seconds: float = 0.0
    #: The web server of a web clone (`CloneSpec.serve`).
    server: subprocess.Popen[bytes] | None = None

    def wait_drawn(self, still: float | None = None, timeout: float = 20.0) -> None:
        """Wait until the window shows a picture (not one flat colour: a window
        mapped but not drawn yet, a web page still loading) that stays unchanged
        for `still` seconds (the spec's `settle`). A clock ticking in the window
        leaves such moments between its ticks; a window still blank after
        `timeout` seconds is a `CloneError`."""
        from bot.learning.settle import after_change
        from vision.capture import Region
        from vision.capture.live import LiveScreen

        wait = self.spec.settle if still is None else still
        with LiveScreen(self.display) as screen:
            x, y, w, h = self.geometry()
            width, height = screen.size
            region = Region(max(x, 0), max(y, 0), max(w, 1), max(h, 1)).clipped(width, height)
            shot = after_change(screen, region, _drawn, timeout=timeout, still=wait)
        if shot is None:
            raise CloneError(f"{self.name}: its window stayed one flat colour for {timeout:.0f} s")

    def close(self) -> None:
        super().close()
        if self.server is not None:
            stop_process(self.server)
            self.server = None


def _drawn(picture: object) -> bool:
    """More than one colour: something is drawn."""
    import numpy as np

    pixels = np.asarray(picture)
    return pixels.size > 0 and bool((pixels != pixels[0, 0]).any())


def _free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_folder(folder: str, port: int, timeout: float = 10.0) -> subprocess.Popen[bytes]:
    """Python's own HTTP server for `folder` on 127.0.0.1:`port`, once it answers."""
    import socket

    if not Path(folder).is_dir():
        raise CloneError(f"{folder} is missing: the web clones are installed by `make venv`")
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CloneError(f"the web server for {folder} exited with code {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.05)
    stop_process(proc)
    raise CloneError(f"the web server for {folder} did not answer within {timeout:.0f} s")


def _search(display: str, pid: int, window_class: str | None, window_name: str | None) -> str:
    if window_class:
        return xdotool(display, "search", "--onlyvisible", "--classname", window_class)
    if window_name:
        return xdotool(display, "search", "--onlyvisible", "--name", window_name)
    return xdotool(display, "search", "--onlyvisible", "--pid", str(pid))


def _find_window(
    display: str,
    proc: subprocess.Popen[bytes],
    window_class: str | None,
    known: set[str],
    window_name: str | None = None,
) -> str:
    """The largest new visible window of the program (not in `known`), or "" if none yet."""
    found = _search(display, proc.pid, window_class, window_name)
    best, best_area = "", 0
    for window in found.split():
        if window in known:
            continue
        try:
            _, _, w, h = window_geometry(display, window)
        except CloneError:
            continue
        if w * h > best_area:
            best, best_area = window, w * h
    return best


def launch_window(
    name: str,
    argv: list[str],
    display: str | VirtualDisplay,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    window_class: str | None = None,
    timeout: float = 30.0,
    window_name: str | None = None,
) -> RunningWindow:
    """Start any X program and wait for its window (e.g. a second window beside a clone).

    The window is found by the program's PID (_NET_WM_PID), or by `window_class`
    for programs that do not set it (plain Xt/Xlib ones: xdemineur, xmessage),
    or by `window_name` for those that set no class either.
    """
    shown = _display_name(display)
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env["DISPLAY"] = shown
    known = set()
    if window_class or window_name:
        known = set(_search(shown, 0, window_class, window_name).split())
    try:
        proc = subprocess.Popen(
            argv,
            env=full_env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        raise CloneError(f"cannot start {name}: {exc}") from None
    deadline = time.monotonic() + timeout
    try:
        while True:
            if proc.poll() is not None:
                raise CloneError(f"{name} exited with code {proc.returncode} before its window")
            window = _find_window(shown, proc, window_class, known, window_name)
            if window:
                return RunningWindow(name, shown, proc, window)
            if time.monotonic() > deadline:
                raise CloneError(f"{name}: no window after {timeout:.0f} s")
            time.sleep(0.05)
    except BaseException:
        stop_process(proc)
        raise


def launch_clone(
    spec: CloneSpec | str,
    size: str | BoardSize,
    display: str | VirtualDisplay,
    position: tuple[int, int] = (0, 0),
    *,
    window_size: tuple[int, int] | None = None,
    cell_size: int | None = None,
    timeout: float = 30.0,
) -> RunningClone:
    """Start a clone with a board size, its window at `position`, ready to be clicked.

    `window_size` is only for clones whose window size is a setting (GNOME
    Mines), `cell_size` (pixels) for those whose cell size is one (sgt-mines,
    minegauler). Raises `CloneError` when the program is missing, exits, or shows
    no window within `timeout` seconds; nothing is left running then.
    """
    if isinstance(spec, str):
        spec = clone_spec(spec)
    board = spec.board_size(size)
    if window_size is not None and not spec.window_sizes:
        raise CloneError(f"{spec.name}: the window size is not a setting")
    if cell_size is not None and spec.cell_size is None:
        raise CloneError(f"{spec.name}: the cell size is not a setting")
    if cell_size is not None and not 4 <= cell_size <= 200:
        raise CloneError(f"{spec.name}: cell size {cell_size} px is not between 4 and 200")
    cell = cell_size if cell_size is not None else spec.cell_size
    win_w, win_h = window_size or spec.window_size(board) or (0, 0)
    started = time.monotonic()
    workdir = tempfile.TemporaryDirectory(prefix=f"msbot-{spec.name}-")
    port = _free_port() if spec.serve else 0
    values = {
        "rows": str(board.rows),
        "cols": str(board.cols),
        "mines": str(board.mines),
        "size_flag": spec.size_flag(board),
        "win_w": str(win_w),
        "win_h": str(win_h),
        "cell": str(cell or ""),
        "workdir": workdir.name,
        "python": sys.executable,
        "port": str(port),
        "web": str(WEB_DIR),
    }
    server: subprocess.Popen[bytes] | None = None
    try:
        if spec.serve:
            server = serve_folder(Template(spec.serve).substitute(values), port)
        for rel, text in spec.files.items():
            path = Path(workdir.name) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(text).substitute(values))
        argv = [find_program(spec.program)]
        argv += [Template(arg).substitute(values) for arg in spec.argv]
        env = {key: Template(value).substitute(values) for key, value in spec.env.items()}
        running = launch_window(
            spec.name,
            [arg for arg in argv if arg],
            display,
            env=env,
            cwd=workdir.name,
            window_class=spec.window_class,
            timeout=timeout,
            window_name=spec.window_name,
        )
    except BaseException:
        if server is not None:
            stop_process(server)
        workdir.cleanup()
        raise
    clone = RunningClone(
        running.name, running.display, running.proc, running.window, workdir, spec, board
    )
    clone.server = server
    try:
        clone.move(*position)
        if spec.needs_focus:
            clone.focus()
        clone.wait_drawn()
    except BaseException:
        clone.close()
        raise
    clone.startup_seconds = time.monotonic() - started
    return clone
