"""Programs that run a file they are given: ``java -jar x.jar``, ``wine x.exe``, installers.

``curl -o x u && ./x`` runs the fetched file by name; these programs run (or install, running
its scripts) a file named by an option or operand, so a file the command wrote with fetched
or decoded data and then handed to one of them is a download run (``shell.download-exec``),
as ``rpm -i x.rpm`` already is (``_tools``):

* ``java -jar F``, ``java -cp A:B Main`` (``-classpath``, ``--class-path``, ``-cp=``),
  ``-javaagent:F``, and ``java F.java`` (the source launcher);
* ``wine F`` / ``wine64 F`` (``wine start F`` too), ``mono F``, ``dotnet F.dll``;
* macOS ``installer -pkg F`` (its scripts run as root), ``open F.app``/``F.pkg``;
  ``hdiutil attach F`` mounts a fetched disk image, so what runs from its mount point
  (``/Volumes/...``, or ``-mountpoint DIR``) is fetched data too;
* ``snap install F.snap`` and ``flatpak install F.flatpak`` (a local package's hooks run);
* ``code --install-extension F.vsix`` (and VS Code's forks): the extension runs later, when
  the editor activates it, so a fetched one warns (``shell.deferred-exec``).

Running a file nothing fetched passes (``java -jar target/app.jar`` is everyday). Linear in
the number of words; the caller gates on the command having written files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import dir_key, file_taint
from ._paths import norm_path
from ._sinks import download_exec
from ._words import DYN, Field, first_source

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["FILE_RUNNERS", "file_runner"]

_EDITORS = frozenset({"code", "codium", "code-insiders", "cursor", "windsurf"})
FILE_RUNNERS = frozenset({"java", "wine", "wine64", "mono", "dotnet", "installer", "hdiutil",
                          "open", "snap", "flatpak"}) | _EDITORS
"""Programs :func:`file_runner` reads."""

_FETCHED = frozenset({"fetch", "decode", "exec", "file"})
_CLASSPATH = frozenset({"-cp", "-classpath", "--class-path"})
_JAVA_VALUE = frozenset({"-p", "--module-path", "--add-modules", "-d", "--describe-module",
                         "--add-opens", "--add-exports", "--add-reads", "--enable-native-access"})
_OPENED = (".app", ".app/", ".pkg", ".mpkg", ".command", ".tool")
_MAX_WORDS = 64


def file_runner(run: Run, inv: Invocation) -> None:
    """Report ``inv`` running a file the command wrote with fetched or decoded data."""
    name = inv.name
    args = inv.args[:_MAX_WORDS]
    if name == "hdiutil":
        _attach(run, args)
        return
    if name in _EDITORS:
        _extension(run, name, args)
        return
    for f, text in _targets(name, args):
        if DYN in text:
            continue
        taint = file_taint(run.files, norm_path(text, run.cwd))
        if taint:
            download_exec(run, Field(text, f.span, f.taint), taint, name)


def _targets(name: str, args: list[Field]) -> list[tuple[Field, str]]:
    """The files ``name`` runs, as (word, path)."""
    if name == "java":
        return _java(args)
    operands = [f for f in args if not f.text.startswith("-")]
    if name in ("wine", "wine64"):
        if operands and operands[0].text.lower() in ("start", "start.exe", "cmd", "cmd.exe"):
            operands = [f for f in operands[1:] if not f.text.startswith("/")] or \
                operands[1:]  # wine start /unix x.exe
        return [(operands[0], operands[0].text)] if operands else []
    if name in ("mono", "dotnet"):
        return [(f, f.text) for f in operands[:1] if f.text.lower().endswith((".exe", ".dll"))]
    if name == "installer":
        return [(args[k + 1], args[k + 1].text) for k, f in enumerate(args[:-1])
                if f.text in ("-pkg", "-package")]
    if name == "open":
        return [(f, f.text) for f in operands if f.text.endswith(_OPENED)]
    if name in ("snap", "flatpak"):
        if not operands or operands[0].text not in ("install", "ack"):
            return []
        return [(f, f.text) for f in operands[1:] if f.text.endswith((".snap", ".flatpak",
                                                                     ".flatpakref"))]
    return []


def _java(args: list[Field]) -> list[tuple[Field, str]]:
    """``-jar F`` (the rest are the program's arguments), class path entries, agents, and a
    ``.java`` source file run by the launcher."""
    out: list[tuple[Field, str]] = []
    k = 0
    while k < len(args):
        f = args[k]
        t = f.text
        nxt = args[k + 1] if k + 1 < len(args) else None
        if t == "-jar":
            if nxt is not None:
                out.append((nxt, nxt.text))
            break
        if t in _CLASSPATH or t.startswith(("-cp=", "--class-path=")):
            value = nxt if t in _CLASSPATH else Field(t.partition("=")[2], f.span, f.taint)
            if value is not None:
                out.extend((value, entry) for entry in value.text.split(":")[:16] if entry)
            k += 2 if t in _CLASSPATH else 1
            continue
        if t.startswith(("-javaagent:", "-agentpath:")):
            out.append((f, t.partition(":")[2].split("=", 1)[0]))
        elif t in _JAVA_VALUE:
            k += 2
            continue
        elif not t.startswith("-"):
            if t.endswith((".java", ".jar", ".class")):
                out.append((f, t))  # java X.java: the launcher compiles and runs it
            break  # the main class: the rest are its arguments
        k += 1
    return out


def _attach(run: Run, args: list[Field]) -> None:
    """``hdiutil attach F`` (``mount``): a fetched image's files are fetched data where it
    is mounted (``-mountpoint DIR``, else under ``/Volumes``)."""
    if not args or args[0].text not in ("attach", "mount"):
        return
    point = "/Volumes"
    image = None
    k = 1
    while k < len(args):
        t = args[k].text
        if t in ("-mountpoint", "-mountroot") and k + 1 < len(args):
            point = args[k + 1].text
            k += 2
            continue
        if not t.startswith("-") and image is None:
            image = args[k]
        k += 1
    if image is None or DYN in image.text:
        return
    taint = file_taint(run.files, norm_path(image.text, run.cwd))
    mount = norm_path(point, run.cwd)
    if taint and mount is not None and len(run.files) < 256:
        key = dir_key(mount)
        run.files[key] = run.files.get(key, frozenset()) | taint


def _extension(run: Run, name: str, args: list[Field]) -> None:
    """``code --install-extension F.vsix``: a fetched extension runs in the editor later,
    when it activates (a deferred run: it warns, as a fetched Makefile does)."""
    for k, f in enumerate(args[:-1]):
        if f.text != "--install-extension":
            continue
        target = args[k + 1]
        taint = file_taint(run.files, norm_path(target.text, run.cwd)) if \
            target.text.endswith(".vsix") else frozenset()
        src = first_source(taint, _FETCHED)
        if src is not None:
            run.add("shell.deferred-exec", target.span, f"{name} installs {target.text}, an "
                    "extension written with fetched data, which runs in the editor later",
                    f"{src.describe()} was written to {target.text}")
