"""An installed msbot (a wheel, `pip install .`, pipx) works from any folder.

The wheel is built from the checkout, installed into a fresh virtual
environment, and run from a folder outside the checkout: it must read the
four clones' recordings with its own built-in skins (`templates/`, shipped
as `vision._skins`), not the checkout's. Its dependencies come from the
suite's own environment (no download), added to the fresh one by a path
file, which does not run the checkout's editable-install hook.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
RECORDINGS = ["xdemineur-beginner-1", "gnome-mines-beginner-1", "minegauler-beginner-1"]
RECORDINGS += ["sgt-mines-beginner-1"]


def _packages_on_disk() -> set[str]:
    found = set()
    for top in ("bot", "vision"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT).parts))
    return found


def test_the_package_list_names_every_package() -> None:
    """pyproject.toml lists the packages (to map `templates/` into the wheel):
    a package added to the tree but not to the list would be left out."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _packages_on_disk() | {"vision._skins"}
    assert config["package-dir"] == {"vision._skins": "templates"}


def test_the_wheel_installed_elsewhere_reads_every_clone(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-q"]
    subprocess.run([*build, "-w", str(wheels), str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("msbot-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {
        str(p.relative_to(ROOT)) for top in ("bot", "vision") for p in (ROOT / top).rglob("*.py")
    }
    skins = {
        "vision/_skins/" + str(p.relative_to(ROOT / "templates"))
        for p in (ROOT / "templates").rglob("*")
        if p.is_file()
    }
    assert sources - names == set() and skins - names == set()
    # Test, demo and benchmark infrastructure stays in the checkout.
    infra = ("tests/", "templates/", "benchmarks/", "harness/", "scripts/")
    assert not any(n.startswith(infra) for n in names)

    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q"]
    subprocess.run([*install, str(wheel)], check=True, capture_output=True)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "suite-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")

    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(away), "XDG_DATA_HOME": str(away / "data")}
    where = subprocess.run(
        [str(python), "-c", "import vision.skin as s; print(s.BUILTIN_DIR)"],
        cwd=away,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert Path(where) == Path(site) / "vision" / "_skins"
    folders = [str(ROOT / "recordings" / name) for name in RECORDINGS]
    out = subprocess.run(
        [str(env_dir / "bin" / "msbot"), "replay", "--check", *folders],
        cwd=away,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:] + out.stdout[-2000:]
    assert " 0 frames with mismatches, 0 errors" in out.stderr, out.stderr[-2000:]
    # Each clone's frames read by its own skin.
    for name in RECORDINGS:
        skin = name.rsplit("-", 2)[0]
        assert f"/{name}/frames/0000.png: {skin} " in out.stdout, out.stdout[-2000:]
