"""PowerShell cmdlets as the bash commands they amount to (for :mod:`._pwshcode`).

Each modelled cmdlet (and its aliases) has a parameter spec: the parameters that take a
value, the switches, and the parameter each position binds. :func:`command` binds a
command's words the way PowerShell does (case-insensitive, unambiguous prefixes,
``-Name:value``, comma lists, positions) and writes the equivalent bash command line:
``Remove-Item -Recurse -Force P`` is ``rm -rf -- P``, ``Invoke-WebRequest U -OutFile F`` is
``curl U -o F``, ``Start-Process P -Verb RunAs`` is ``sudo P``. Aliases that name native
programs on Linux and macOS (``rm``, ``cp``, ``curl``) are read as the cmdlet only when
their arguments use its long parameters.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["UNKNOWN", "Tok", "command", "path_form", "q"]

UNKNOWN = '"$DG_PWSH_VALUE"'  # bash text for a value not known statically


class Tok(NamedTuple):
    """One PowerShell word as the reader saw it."""

    value: str | None  # the static text (quotes removed), or None when not known
    bash: str  # the same value as one bash word
    bare: bool  # an unquoted word (only those can be parameters or operators)


def q(value: str) -> str:
    """``value`` as one bash word; a leading ``~`` stays unquoted so that it still names
    the home directory."""
    if value.startswith("~"):
        head, sep, rest = value.partition("/")
        if head == "~":
            return "~" + (shlex.quote(sep + rest) if sep else "")
    return shlex.quote(value)


_COMMON_VALUE = ("erroraction", "warningaction", "informationaction", "errorvariable",
                 "warningvariable", "informationvariable", "outvariable", "outbuffer",
                 "pipelinevariable", "ea", "wa", "ev", "ov", "credential")
_COMMON_SWITCH = ("verbose", "debug", "whatif", "confirm")


class _Spec(NamedTuple):
    values: tuple[str, ...]  # parameters that take a value
    switches: tuple[str, ...]
    positions: tuple[str, ...]  # parameter bound by each position


class _Bound(NamedTuple):
    named: dict[str, list[Tok]]
    switches: set[str]


def _bind(spec: _Spec, args: list[Tok]) -> _Bound:
    """Bind ``args`` to ``spec`` like PowerShell: a ``-name`` (an unambiguous prefix, in any
    case, ``-name:value`` too), then positions in order; comma lists give several values."""
    values = spec.values + _COMMON_VALUE
    switches = spec.switches + _COMMON_SWITCH
    named: dict[str, list[Tok]] = {}
    on: set[str] = set()
    pos = 0
    k = 0
    while k < len(args):
        tok = args[k]
        k += 1
        text = tok.value
        if tok.bare and text and text.startswith("-") and len(text) > 1 and \
                not text[1].isdecimal():
            name, colon, attached = text[1:].partition(":")
            full = _resolve(name.lower(), values + switches)
            if full in switches:
                if not colon or attached.lower() not in ("false", "$false", "0"):
                    on.add(full)
            elif full is not None:
                if colon:
                    named.setdefault(full, []).extend(_split(Tok(attached, q(
                        attached), True)))
                elif k < len(args):
                    named.setdefault(full, []).extend(_split(args[k]))
                    k += 1
            continue
        if pos < len(spec.positions):
            named.setdefault(spec.positions[pos], []).extend(_split(tok))
            pos += 1
    return _Bound(named, on)


def _resolve(name: str, known: tuple[str, ...]) -> str | None:
    if name in known:
        return name
    hits = [k for k in known if k.startswith(name)]
    return hits[0] if len(hits) == 1 else None


def _split(tok: Tok) -> list[Tok]:
    """A comma list (``a,b``) as its items; Windows paths in the forward-slash form."""
    if tok.value is None:
        return [tok]
    items = tok.value.split(",") if tok.bare and "," in tok.value else [tok.value]
    return [Tok(p, q(p), tok.bare) for p in (_path(v) for v in items) if p]


def _path(text: str) -> str:
    """``C:\\Users\\me\\x`` -> ``/Users/me/x``, ``~\\.ssh`` -> ``~/.ssh``; other text kept."""
    if len(text) >= 2 and text[1] == ":" and text[0].isalpha() and (
            len(text) == 2 or text[2] in "\\/"):
        text = text[2:] or "/"
    return text.replace("\\", "/") if "\\" in text else text


path_form = _path


def _bash(toks: list[Tok] | None) -> list[str]:
    return [t.bash for t in toks] if toks else []


def _first(toks: list[Tok] | None) -> list[str]:
    return [toks[0].bash] if toks else []


def _remove(b: _Bound) -> list[str]:
    letters = ("r" if "recurse" in b.switches else "") + ("f" if "force" in b.switches else "")
    flags = "-" + letters if letters else ""
    paths = _bash(b.named.get("path")) + _bash(b.named.get("literalpath"))
    return ["rm", flags, "--", *paths]


def _read(b: _Bound) -> list[str]:
    return ["cat", "--", *_bash(b.named.get("path")), *_bash(b.named.get("literalpath"))]


def _write(append: bool) -> Callable[[_Bound], list[str]]:
    def build(b: _Bound) -> list[str]:
        paths = _bash(b.named.get("path")) + _bash(b.named.get("literalpath")) + \
            _bash(b.named.get("filepath"))
        tee = ["tee", "-a" if append or "append" in b.switches else "", "--", *paths]
        value = b.named.get("value")
        if value:
            return ["printf", "%s", *_bash(value), "|", *tee]
        return tee
    return build


def _copy(name: str) -> Callable[[_Bound], list[str]]:
    def build(b: _Bound) -> list[str]:
        flag = "-r" if "recurse" in b.switches and name == "cp" else ""
        return [name, flag, "--", *_bash(b.named.get("path")),
                *_bash(b.named.get("literalpath")), *_first(b.named.get("destination"))]
    return build


def _fetch(b: _Bound) -> list[str]:
    argv = ["curl", *_first(b.named.get("uri")), *_first(b.named.get("source"))]
    out = b.named.get("outfile") or b.named.get("destination")
    if out:
        argv += ["-o", out[0].bash]
    if b.named.get("infile"):
        argv += ["-T", b.named["infile"][0].bash]
    if b.named.get("body"):
        argv += ["--data", b.named["body"][0].bash]
    return argv


def _invoke(b: _Bound) -> list[str]:
    command = b.named.get("command")
    return ["eval", command[0].bash] if command else ["sh"]  # no argument: the pipeline


def _start(b: _Bound) -> list[str]:
    program = b.named.get("filepath")
    if not program:
        return []
    argv: list[str] = []
    for tok in b.named.get("argumentlist") or []:
        if tok.value is None:
            argv.append(tok.bash)
        elif "," in tok.value:  # -ArgumentList "-c","curl u|sh": an array, one item each
            argv += [q(w) for w in tok.value.split(",") if w]
        else:
            argv += [q(w) for w in tok.value.split()]
    verb = b.named.get("verb")
    sudo = ["sudo"] if verb and (verb[0].value or "").lower() == "runas" else []
    return [*sudo, _native(program[0]), *argv]


def _new_item(b: _Bound) -> list[str]:
    paths = _bash(b.named.get("path"))
    name = b.named.get("name")
    if name and paths:
        paths = [paths[0] + "/" + name[0].bash]
    elif name:
        paths = _bash(name)
    kind = ((b.named.get("itemtype") or [Tok("file", "file", True)])[0].value or "").lower()
    if kind in ("directory", "d", "dir"):
        return ["mkdir", "-p", "--", *paths]
    if kind in ("symboliclink", "hardlink", "junction"):
        return ["ln", "-sf", *_first(b.named.get("target") or b.named.get("value")), *paths[:1]]
    value = b.named.get("value")
    if value:
        return ["printf", "%s", *_bash(value), "|", "tee", "--", *paths]
    return ["touch", "--", *paths]


def _fixed(*argv: str) -> Callable[[_Bound], list[str]]:
    return lambda b: list(argv)


_P, _LP, _DEST = "path", "literalpath", "destination"
_FILTERS = ("include", "exclude", "filter", "stream")
_CMDLETS: dict[str, tuple[_Spec, Callable[[_Bound], list[str]]]] = {}


def _add(names: str, spec: _Spec, build: Callable[[_Bound], list[str]]) -> None:
    for name in names.split():
        _CMDLETS[name] = (spec, build)


_add("remove-item del erase rd ri rm rmdir",
     _Spec((_P, _LP, *_FILTERS), ("recurse", "force"), (_P,)), _remove)
_add("get-content gc cat type",
     _Spec((_P, _LP, "totalcount", "head", "first", "tail", "last", "encoding", "delimiter",
            "readcount", *_FILTERS), ("raw", "wait", "asbytestream", "force"), (_P,)), _read)
_add("set-content sc",
     _Spec((_P, _LP, "value", "encoding", *_FILTERS), ("force", "passthru", "nonewline"),
           (_P, "value")), _write(False))
_add("add-content ac",
     _Spec((_P, _LP, "value", "encoding", *_FILTERS), ("force", "passthru", "nonewline"),
           (_P, "value")), _write(True))
_add("out-file",
     _Spec(("filepath", _LP, "encoding", "width", "inputobject"),
           ("append", "force", "noclobber", "nonewline"), ("filepath", "encoding")),
     _write(False))
_add("copy-item cp copy cpi",
     _Spec((_P, _LP, _DEST, *_FILTERS), ("recurse", "force", "container", "passthru"),
           (_P, _DEST)), _copy("cp"))
_add("move-item mv move mi",
     _Spec((_P, _LP, _DEST, *_FILTERS), ("force", "passthru"), (_P, _DEST)), _copy("mv"))
_add("invoke-webrequest iwr invoke-restmethod irm curl wget",
     _Spec(("uri", "outfile", "infile", "body", "method", "headers", "contenttype",
            "useragent", "websession", "sessionvariable", "proxy", "timeoutsec", "form",
            "maximumredirection", "certificate", "certificatethumbprint", "authentication",
            "token", "transferencoding", "custommethod"),
           ("usebasicparsing", "usedefaultcredentials", "passthru", "skipcertificatecheck",
            "disablekeepalive", "resume", "skipheadervalidation"), ("uri",)), _fetch)
_add("start-bitstransfer",
     _Spec(("source", "destination", "displayname", "description", "priority",
            "transfertype"), ("asynchronous",), ("source", "destination")), _fetch)
_add("new-item ni",
     _Spec((_P, "name", "itemtype", "value", "target", "type"), ("force",), (_P,)), _new_item)
_add("invoke-expression iex", _Spec(("command",), (), ("command",)), _invoke)
_add("start-process saps start",
     _Spec(("filepath", "argumentlist", "verb", "workingdirectory", "windowstyle",
            "redirectstandardinput", "redirectstandardoutput", "redirectstandarderror"),
           ("wait", "nonewwindow", "passthru", "loaduserprofile", "usenewenvironment"),
           ("filepath", "argumentlist")), _start)
_MP = ("disablerealtimemonitoring", "disablebehaviormonitoring", "disableioavprotection",
       "disablescriptscanning", "disableintrusionpreventionsystem", "disableblockatfirstseen",
       "disablearchivescanning", "disableremovabledrivescanning", "disableemailscanning",
       "disablescanningnetworkfiles", "exclusionpath", "exclusionextension",
       "exclusionprocess", "exclusionipaddress", "mapsreporting", "submitsamplesconsent",
       "puaprotection", "enablenetworkprotection", "enablecontrolledfolderaccess",
       "attacksurfacereductionrules_actions", "attacksurfacereductionrules_ids",
       "severethreatdefaultaction", "highthreatdefaultaction", "moderatethreatdefaultaction",
       "lowthreatdefaultaction", "unknownthreatdefaultaction")


def _mp(b: _Bound) -> list[str]:
    """Defender settings, for ``_windefense`` (``set-mppreference -opt value...``)."""
    argv = ["set-mppreference"]
    for key, toks in b.named.items():
        for tok in toks:
            argv += ["-" + key, tok.bash]
    return argv


def _firewall(b: _Bound) -> list[str]:
    enabled = b.named.get("enabled")
    if enabled and (enabled[0].value or "").lower().lstrip("$") in ("false", "0"):
        return ["netsh", "advfirewall", "set", "allprofiles", "state", "off"]
    return []


def _service(stop: bool) -> Callable[[_Bound], list[str]]:
    def build(b: _Bound) -> list[str]:
        names = _bash(b.named.get("name")) + _bash(b.named.get("displayname"))
        startup = (b.named.get("startuptype") or [Tok("", "", True)])[0].value or ""
        status = (b.named.get("status") or [Tok("", "", True)])[0].value or ""
        if stop or status.lower() == "stopped":
            return ["sc", "stop", *names[:1]]
        if startup.lower() == "disabled":
            return ["sc", "config", *names[:1], "start=", "disabled"]
        return []
    return build


def _registry(b: _Bound) -> list[str]:
    path = (b.named.get("path") or b.named.get("literalpath") or [Tok(None, "", True)])[0]
    name = b.named.get("name")
    value = b.named.get("value")
    if path.value is None or not name or not value:
        return []
    return ["reg", "add", q(path.value), "/v", name[0].bash, "/d", value[0].bash]


_add("set-mppreference add-mppreference", _Spec(_MP, (), ()), _mp)
_add("set-netfirewallprofile", _Spec(("enabled", "profile", "name"), ("all",), ("name",)),
     _firewall)
_add("stop-service spsv", _Spec(("name", "displayname", "inputobject", "include", "exclude"),
                                ("force", "nowait", "passthru"), ("name",)), _service(True))
_add("set-service", _Spec(("name", "displayname", "startuptype", "status", "description",
                           "inputobject"), ("force", "passthru"), ("name",)), _service(False))
_add("set-itemproperty sp new-itemproperty",
     _Spec((_P, _LP, "name", "value", "type", "propertytype"), ("force", "passthru"),
           (_P, "name", "value")), _registry)
_add("clear-eventlog remove-eventlog",
     _Spec(("logname", "computername", "source"), (), ("logname",)),
     lambda b: ["wevtutil", "cl", *(_bash(b.named.get("logname")) or [UNKNOWN])])
_add("format-volume clear-disk initialize-disk", _Spec((), (), ()), _fixed("mkfs"))
_add("stop-computer", _Spec((), (), ()), _fixed("shutdown"))
_add("restart-computer", _Spec((), (), ()), _fixed("reboot"))


# Aliases that name a native program in pwsh on Linux and macOS (where only Windows maps
# them to cmdlets): read as the cmdlet only when the arguments use its parameters.
_DUAL = frozenset({"rm", "rmdir", "cp", "mv", "cat", "type", "curl", "wget"})


# Aliases of cmdlets not modelled here (ForEach-Object, Where-Object, Get-ChildItem...):
# they run no program, and must not be read as native programs of those names.
_OTHER_ALIASES = frozenset({
    "%", "?", "foreach", "where", "select", "measure", "group", "sort", "gci", "gi", "gp",
    "gm", "gps", "gsv", "sleep", "cls", "ft", "fl", "fw", "oh", "write", "h", "r", "gcm",
    "gal", "sal", "nal", "set", "sv", "gv", "rv", "clv", "cd", "sl", "chdir", "pushd", "popd",
    "icm", "gwmi", "iwmi", "ipmo", "gmo", "ls", "dir", "echo"})


def _cmdlet_style(spec: _Spec, args: list[Tok]) -> bool:
    """Whether some argument is a long cmdlet parameter of ``spec`` (``-Recurse``,
    ``-Destination:x``) rather than a native option (``-rf``, ``-o``)."""
    known = spec.values + spec.switches
    for tok in args:
        text = tok.value
        if tok.bare and text and text.startswith("-") and not text.startswith("--"):
            name = text[1:].partition(":")[0].lower()
            if len(name) > 2 and _resolve(name, known) is not None:
                return True
    return False


def _native(tok: Tok) -> str:
    """A native program's bash word (``curl.exe`` is ``curl``, a Windows path in /-form)."""
    if tok.value is None:
        return tok.bash
    name = _path(tok.value)
    if name.lower().endswith(".exe") and "/" not in name:  # a path keeps its file name
        name = name[:-4]
    return q(name)


def command(words: list[Tok]) -> str | None:
    """One command of a pipeline as bash text; None for an expression or unknown cmdlet."""
    head = words[0]
    args = words[1:]
    if head.bare and head.value in (".", "&") and args:
        head, args = args[0], args[1:]
        if words[0].value == "." and head.value is not None:
            return " ".join(["source", _native(head), *(a.bash for a in args)])
    elif head.value is None or not head.bare or not head.value or \
            head.value[0] in "$[-@" or head.value[0].isdecimal():
        return None  # $x = ..., [IO.File]::Delete(...), "text", 1..10: expressions
    if head.value is None:
        return " ".join([head.bash, *(a.bash for a in args)])  # & $cmd: not known
    name = head.value.lower()
    entry = _CMDLETS.get(name)
    if entry is not None and name in _DUAL and not _cmdlet_style(entry[0], args):
        entry = None  # rm -rf x: pwsh on Linux and macOS runs the native program
    if entry is not None:
        spec, build = entry
        bound = _bind(spec, args)
        if "whatif" in bound.switches:
            return None  # -WhatIf only describes what the cmdlet would do
        argv = [a for a in build(bound) if a]
        return " ".join(argv) if argv else None
    if name in _OTHER_ALIASES or ("-" in name and name.split("-", 1)[0].isalpha()):
        return None  # Verb-Noun: a cmdlet this module does not model (Get-Process...)
    return " ".join([_native(head), *(_native(a) if a.value is not None and "\\" in a.value
                                      else a.bash for a in args)])
