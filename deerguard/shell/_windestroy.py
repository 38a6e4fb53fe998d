"""Windows programs that destroy a machine's data, recovery or configuration, read with their
own option syntax (``/x`` or ``-x`` switches in any case, ``/x:value``; cmd.exe's delete
builtins are ``_cmdcode``'s ``rm``).

Ransomware's first steps (MITRE ATT&CK T1490, "Inhibit System Recovery") block as
``shell.recovery-off``: no agent has an everyday reason to take them, and they cannot be undone:

* ``vssadmin delete shadows`` (any options), ``vssadmin resize shadowstorage`` to a size that
  cannot hold a copy (under 1 GB: it deletes the existing copies), ``wmic [...] shadowcopy
  [where ...] delete``;
* ``wbadmin delete catalog|backup|systemstatebackup`` and ``wbadmin disable backup``;
* ``bcdedit /set {id} recoveryenabled no`` and ``bootstatuspolicy ignoreallfailures``, and
  ``bcdedit /delete`` of the current or default boot entry or the boot manager.

Disks: ``format X:`` (a drive operand) and a ``diskpart`` script holding ``clean``, ``format``
or ``delete`` (a file written in the same command, a here-document or ``echo clean |``) block
as ``shell.disk-write``, like ``mkfs``; a diskpart script whose text is not known warns
(``shell.dynamic-code``). ``cipher /w:DIR`` wipes a volume's free space (deleted files can no
longer be recovered): warn, ``shell.resource-destroy``.

The registry (``reg``; ``_windefense`` reads Defender's own switches): writes (``add``,
``delete``, ``copy``'s destination, ``restore``, ``load``, ``unload``) under a key that runs
programs (``...\\CurrentVersion\\Run``/``RunOnce``, ``Winlogon``, ``Image File Execution
Options``, ``Command Processor`` AutoRun, ``shell\\open\\command`` handlers, in any hive) are
``shell.persistence``, like writing a shell startup file; any other write under ``HKLM``
(the machine's configuration, like ``/etc``) or ``HKCR`` is ``shell.system-write``.
``reg save|export`` of ``HKLM\\SAM``, ``SECURITY`` or ``SYSTEM`` copies the password hashes and
the key that opens them: ``shell.sensitive-read``. Writes under ``HKCU\\Software`` (a program's
own settings) and ``reg query`` pass.

Logs (what ransomware clears next): ``wevtutil cl LOG`` and ``fsutil usn deletejournal`` are
``shell.log-wipe``, ``wevtutil sl LOG /e:false`` is ``shell.defense-off`` (block, like
``auditctl -e 0``); ``wevtutil qe``/``el`` pass.

``robocopy SRC DST /MIR`` (or ``/PURGE``) deletes whatever DST holds beyond SRC: of a drive
root, a system or a home directory it is ``shell.recursive-delete``.

Ownership and ACLs: ``takeown /f P`` and ``icacls P /grant|/deny|/remove|/setowner|/reset``
of a Windows system directory or a drive root are ``shell.system-write``; ``icacls P /grant
Everyone:F`` (or ``Users``, ``*S-1-1-0``, full or modify rights) elsewhere is
``shell.chmod-world`` (warn), like ``chmod 777``.

Every reader is linear in the number of words; nothing runs for other programs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._cmdcode import win_path
from ._paths import is_critical, norm_path
from ._resolve import Invocation
from ._words import Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._walk import Run

__all__ = ["WIN_DESTROYERS", "win_destroy"]

_BASES = ("vssadmin", "wmic", "bcdedit", "wbadmin", "reg", "format", "diskpart", "cipher",
          "takeown", "icacls", "robocopy", "wevtutil", "fsutil")
_CAMEL = ("VSSAdmin", "VssAdmin", "WMIC", "BCDEdit", "BcdEdit", "WBAdmin", "WbAdmin", "DiskPart",
          "Diskpart", "TakeOwn", "Takeown", "ICACLS", "Icacls", "Cipher", "Format", "Reg",
          "RoboCopy", "Robocopy", "WevtUtil", "Wevtutil", "FsUtil", "Fsutil")
WIN_DESTROYERS = frozenset(
    v + ext for b in _BASES + _CAMEL for v in {b, b.lower(), b.upper(), b.capitalize()}
    for ext in ("", ".exe", ".EXE", ".Exe", ".com", ".COM"))
"""Program names :func:`win_destroy` reads (Windows names are case-insensitive)."""

_ROOTS = {"hklm": "hklm", "hkey_local_machine": "hklm", "hkcu": "hkcu",
          "hkey_current_user": "hkcu", "hkcr": "hkcr", "hkey_classes_root": "hkcr",
          "hku": "hku", "hkey_users": "hku", "hkcc": "hklm", "hkey_current_config": "hklm"}
# Keys whose values run programs (at logon, at boot, when a program or cmd.exe starts).
_RUN_KEYS = ("\\currentversion\\run", "\\currentversion\\winlogon",
             "\\currentversion\\image file execution options", "\\command processor",
             "\\shell\\open\\command", "\\currentversion\\policies\\explorer\\run",
             "\\currentversion\\explorer\\shell folders",
             "\\currentversion\\explorer\\user shell folders", "\\control\\session manager",
             "\\currentversion\\windows")
_HIVES = frozenset({"sam", "security", "system"})
_SYSTEM_TOPS = frozenset({"Windows", "Program Files", "Program Files (x86)", "ProgramData"})
_DRIVE_RE = re.compile(r"[A-Za-z]:[\\/]?\Z")
_SIZE_RE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgtpe]?)b?\Z")
_UNIT = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50,
         "e": 1 << 60}
_DISKPART_DESTROY = frozenset({"clean", "format", "delete"})
_WORLD = ("everyone:", "*s-1-1-0:", "users:", "*s-1-5-32-545:", "authenticated users:",
          "*s-1-5-11:")


def _switch(text: str) -> str | None:
    """``/All``, ``-quiet`` -> ``all``, ``quiet``; ``/maxsize=1MB`` -> ``maxsize=1mb``."""
    if len(text) > 1 and text[0] in "/-" and text[1:2].isalpha():
        return text[1:].lower()
    return None


def win_destroy(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Report what ``inv`` (its name in :data:`WIN_DESTROYERS`) destroys."""
    name = inv.name.lower().removesuffix(".exe").removesuffix(".com")
    if any(f.text.startswith("//") for f in inv.args):  # Git Bash hands //all on as /all
        inv = Invocation(inv.name, inv.word, [Field(f.text[1:], f.span, f.taint)
                                              if f.text.startswith("//") else f
                                              for f in inv.args])
    words = [f.text.lower() for f in inv.args]
    if name == "vssadmin":
        _vssadmin(run, inv, words)
    elif name == "wmic":
        if "delete" in words and any("shadowcopy" in w for w in words):
            _recovery(run, inv, "wmic deletes the volume shadow copies")
    elif name == "wbadmin":
        verbs = [w for w in words if _switch(w) is None]
        if verbs[:1] == ["delete"] or verbs[:2] == ["disable", "backup"]:
            _recovery(run, inv, f"wbadmin {' '.join(verbs[:2])} removes the backups")
    elif name == "bcdedit":
        _bcdedit(run, inv, words)
    elif name == "reg":
        _reg(run, inv, words)
    elif name == "format":
        drive = next((f for f in inv.args if _DRIVE_RE.match(f.text)), None)
        if drive is not None and not any(w in ("/?", "-?") for w in words):
            run.add("shell.disk-write", drive.span, f"format erases the volume {drive.text}",
                    None)
    elif name == "diskpart":
        _diskpart(run, inv, stdin)
    elif name == "cipher":
        wipe = next((f for f in inv.args if f.text.lower().startswith(("/w", "-w"))), None)
        if wipe is not None:
            run.add("shell.resource-destroy", wipe.span, "cipher /w wipes a volume's free "
                    "space: deleted files can no longer be recovered", None)
    elif name in ("takeown", "icacls"):
        _acl(run, inv, name, words)
    elif name == "wevtutil" and words[:1] in (["cl"], ["clear-log"]):
        run.add("shell.log-wipe", inv.word.span, f"wevtutil clears the event log "
                f"{' '.join(words[1:2])}", None)
    elif name == "wevtutil" and words[:1] in (["sl"], ["set-log"]) and any(
            w in ("/e:false", "/enabled:false", "-e:false") for w in words):
        run.add("shell.defense-off", inv.word.span, "wevtutil turns an event log off", None)
    elif name == "fsutil" and words[:2] == ["usn", "deletejournal"]:
        run.add("shell.log-wipe", inv.word.span, "fsutil deletes the volume's change journal",
                None)
    elif name == "robocopy" and any(w in ("/mir", "/purge", "-mir", "-purge") for w in words):
        dirs = [f for f in inv.args if _switch(f.text) is None]
        if len(dirs) > 1 and is_critical(win_path(dirs[1].text)):
            run.add("shell.recursive-delete", dirs[1].span, f"robocopy /mir deletes what "
                    f"{dirs[1].text} holds beyond the source", None)


def _recovery(run: Run, inv: Invocation, what: str) -> None:
    run.add("shell.recovery-off", inv.word.span, what, None)


def _vssadmin(run: Run, inv: Invocation, words: list[str]) -> None:
    verbs = [w for w in words if _switch(w) is None]
    if verbs[:2] == ["delete", "shadows"]:
        _recovery(run, inv, "vssadmin deletes the volume shadow copies")
    elif verbs[:2] in (["resize", "shadowstorage"], ["add", "shadowstorage"]):
        for w in words:
            key, _, value = (_switch(w) or "").partition("=")
            size = _SIZE_RE.match(value.strip())
            if key == "maxsize" and size and float(size[1]) * _UNIT[size[2]] < 1 << 30:
                _recovery(run, inv, f"vssadmin shrinks the shadow storage to {value}, which "
                          "deletes the shadow copies")


def _bcdedit(run: Run, inv: Invocation, words: list[str]) -> None:
    for k, w in enumerate(words):
        option = _switch(w)
        rest = words[k + 1:k + 4]
        if option == "set" and len(rest) >= 2:
            setting, value = (rest[1], rest[2]) if rest[0].startswith("{") and len(rest) > 2 \
                else (rest[0], rest[1])
            if (setting == "recoveryenabled" and value in ("no", "off", "false", "0")) or (
                    setting == "bootstatuspolicy" and value.startswith("ignore")):
                _recovery(run, inv, f"bcdedit sets {setting} {value}: Windows recovery off")
        elif option == "delete" and rest[:1] and rest[0] in ("{current}", "{default}",
                                                             "{bootmgr}"):
            _recovery(run, inv, f"bcdedit deletes the boot entry {rest[0]}")


def _reg_key(text: str) -> tuple[str, str] | None:
    """(hive, rest of the key in lower case) of ``HKLM\\Software\\X`` (also
    ``\\\\HOST\\HKLM\\...``, ``HKLM:\\...`` and ``Registry::HKEY_...``); None for no key."""
    key = text.lower().replace("/", "\\")
    key = key.removeprefix("registry::").removeprefix("microsoft.powershell.core\\registry::")
    if key.startswith("\\\\"):
        key = key[2:].partition("\\")[2]  # a remote machine's registry
    root, _, rest = key.partition("\\")
    hive = _ROOTS.get(root.rstrip(":"))
    return (hive, "\\" + rest) if hive else None


def _reg(run: Run, inv: Invocation, words: list[str]) -> None:
    plain = [(f, w) for f, w in zip(inv.args, words, strict=True) if _switch(w) is None]
    if not plain:
        return
    verb = plain[0][1]
    if verb in ("save", "export") and len(plain) > 1:
        key = _reg_key(plain[1][0].text)
        if key and key[0] == "hklm" and key[1].strip("\\") in _HIVES:
            run.add("shell.sensitive-read", plain[1][0].span, f"reg {verb} copies the "
                    f"{key[1].strip(chr(92)).upper()} hive (password hashes and their keys)",
                    None)
        return
    if verb not in ("add", "delete", "copy", "restore", "load", "unload") or len(plain) < 2:
        return
    target = plain[2][0] if verb == "copy" and len(plain) > 2 else plain[1][0]
    key = _reg_key(target.text)
    if key is None:
        return
    hive, rest = key
    if any(k in rest for k in _RUN_KEYS):
        run.add("shell.persistence", target.span, f"reg {verb} changes {target.text}, a key "
                "whose values Windows runs as programs", None)
    elif hive in ("hklm", "hkcr"):
        run.add("shell.system-write", target.span, f"reg {verb} changes the machine's "
                f"configuration under {target.text}", None)


def _diskpart(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    texts = [f.text for f in inv.args]
    script: str | None = None
    named = False
    for k, t in enumerate(texts[:-1]):
        if t.lower() in ("/s", "-s"):
            named = True
            path = norm_path(win_path(texts[k + 1]), run.cwd)
            script = run.file_text.get(path or "")
    if not named:
        if stdin is None:
            return  # interactive
        script = stdin.text
    if script is None:
        run.add("shell.dynamic-code", inv.word.span, "diskpart runs a script whose commands "
                "are not known statically", None)
        return
    for line in script.splitlines():
        first = line.strip().split(" ", 1)[0].lower()
        if first in _DISKPART_DESTROY:
            run.add("shell.disk-write", inv.word.span, f"diskpart runs {line.strip()[:40]!r},"
                    " which erases a disk or a volume", None)
            return


def _system(f: Field) -> bool:
    path = win_path(f.text)
    parts = path.split("/")
    return path in ("/", "/Users") or (len(parts) > 1 and parts[0] == "" and
                                      parts[1] in _SYSTEM_TOPS)


def _acl(run: Run, inv: Invocation, name: str, words: list[str]) -> None:
    args = inv.args
    if name == "takeown":
        for k, w in enumerate(words[:-1]):
            if w in ("/f", "-f") and _system(args[k + 1]):
                run.add("shell.system-write", args[k + 1].span, f"takeown takes ownership of "
                        f"the system path {args[k + 1].text}", None)
        return
    changes = any(w.startswith(("/grant", "/deny", "/remove", "/setowner", "/reset",
                                "/inheritance", "/setintegritylevel", "/restore"))
                  for w in words)
    if not changes or not args:
        return
    if _system(args[0]):
        run.add("shell.system-write", args[0].span, f"icacls changes who may write the "
                f"system path {args[0].text}", None)
        return
    for k, w in enumerate(words[:-1]):
        grant = words[k + 1]
        if w.startswith("/grant") and grant.startswith(_WORLD) and (
                "f" in grant.rpartition(":")[2] or "m" in grant.rpartition(":")[2]):
            run.add("shell.chmod-world", args[k + 1].span, f"icacls gives {args[k + 1].text}"
                    " (everyone may write)", None)
