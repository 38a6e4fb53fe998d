"""``cmd /c CODE`` read with cmd.exe's own syntax and written as the bash text it amounts to.

cmd.exe does not read a command line like sh: ``\\`` is a path separator (never an escape),
``'`` and ``$`` are plain characters, ``^`` escapes the next character, only ``"`` quotes,
``%NAME%`` expands an environment variable (also inside quotes) and ``&`` separates
commands. :func:`cmd_bash` tokenizes CODE that way and writes bash text whose words are the
ones cmd.exe would pass, so the classifier's rules judge it:

* the delete builtins become ``rm``: ``rd /s /q P`` and ``rmdir /S /Q P`` (switches in any
  order and case, clustered as ``/s/q``, glued as ``rd/s``) are ``rm -r -f -- P``; ``del /s``
  and ``erase /s`` (files in the whole tree) are ``rm -r -f``, and ``del DIR\\*`` of a Windows
  system directory deletes what keeps Windows running: the directory's delete;
* Windows paths of those operands and of redirections take the form PowerShell code gets
  (``C:\\Windows`` is ``/Windows``, ``C:\\`` is ``/``, ``%USERPROFILE%`` is ``~``), which the
  rules know as system, home and drive-root directories;
* known environment variables (``%SystemRoot%``, ``%windir%``, ``%ProgramFiles%``,
  ``%SystemDrive%``, ``%USERPROFILE%``, ``%HOMEDRIVE%%HOMEPATH%``, ``%APPDATA%``...) are the
  paths they name; any other ``%X%`` (and a ``for`` variable ``%i``) is not known
  statically: ``"$X"``, so ``rd /s /q %X%`` warns like ``rm -rf "$X"``; ``set X=V`` is an
  assignment;
* ``@``, ``call``, ``start [options] ["title"]``, ``if [/i] [not] COND`` and
  ``for ... do`` run the command after them; ``(...)`` groups commands;
* ``type F`` is ``cat F``; every other program keeps its words as cmd.exe passes them
  (``reg delete HKLM\\Software /f``), a Windows path as its name is its last component.

One pass over the text, linear in its length; never raises.
"""

from __future__ import annotations

import re

from ._bashword import bash_literal
from ._resolve import Invocation
from ._words import Field

__all__ = ["cmd_bash", "start_argv", "win_path"]

_VAR_MARK = "\ue000"  # a word's placeholder for a variable not known statically
_DRIVE = "C:"
_KNOWN: dict[str, str] = {
    "userprofile": "~", "homepath": "~", "home": "~", "systemdrive": _DRIVE,
    "homedrive": _DRIVE, "systemroot": "C:\\Windows", "windir": "C:\\Windows",
    "programfiles": "C:\\Program Files", "programw6432": "C:\\Program Files",
    "programfiles(x86)": "C:\\Program Files (x86)",
    "commonprogramfiles": "C:\\Program Files\\Common Files",
    "programdata": "C:\\ProgramData", "allusersprofile": "C:\\ProgramData",
    "public": "C:\\Users\\Public", "appdata": "~\\AppData\\Roaming",
    "localappdata": "~\\AppData\\Local", "temp": "~\\AppData\\Local\\Temp",
    "tmp": "~\\AppData\\Local\\Temp", "comspec": "C:\\Windows\\System32\\cmd.exe",
    "cd": ".",
}
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SAFE_RE = re.compile(r"[A-Za-z0-9_./:@+,-]+\Z")  # left bare by bash_literal: read as they are
# Canonical spelling of the Windows directories the rules know (paths are case-insensitive).
_CANON = {"windows": "Windows", "program files": "Program Files",
          "program files (x86)": "Program Files (x86)", "programdata": "ProgramData",
          "users": "Users"}
_DELETES = frozenset({"rd", "rmdir", "del", "erase"})
_RD_SWITCH = re.compile(r"(?:/[sq])+\Z")
_DEL_SWITCH = re.compile(r"(?:/[pfsq]|/a:?[-rhsailo]*)+\Z")
_ADMIN_SHARE = re.compile(r"\\\\[^\\/]+\\([A-Za-z])\$(?=\\|\Z)")
_SYSTEM_TOPS = frozenset({"Windows", "Program Files", "Program Files (x86)", "ProgramData"})


class _Word:
    __slots__ = ("text", "names", "quoted")

    def __init__(self) -> None:
        self.text = ""  # the word, a _VAR_MARK where a variable not known statically stands
        self.names: list[str] = []  # the unknown variables' names, in order
        self.quoted = False


def win_path(text: str) -> str:
    """A Windows path in the slash form the rules read: ``C:\\Windows\\`` -> ``/Windows``,
    ``D:`` -> ``/``, ``~\\AppData`` -> ``~/AppData``; the known system directories in their
    canonical case (``c:\\WINDOWS`` is ``/Windows``). Other text is kept."""
    if text.startswith(("\\\\?\\", "\\\\.\\")):
        text = text[4:]  # \\?\C:\ is C:\ read without Win32's path rewriting
    elif text.startswith("\\\\") and _ADMIN_SHARE.match(text):
        text = _ADMIN_SHARE.sub(r"\1:", text, count=1)  # \\host\c$\Windows is C:\Windows
    if len(text) >= 2 and text[1] == ":" and text[0].isalpha():
        rest = text[2:]
        text = rest if rest[:1] in ("\\", "/") else "/" + rest
    text = text.replace("\\", "/")
    if text.startswith("/") and not text.startswith("//"):
        parts = text.split("/")
        top = _CANON.get(parts[1].lower()) if len(parts) > 1 else None
        if top is not None:
            parts[1] = top
            if top == "Windows" and len(parts) > 2 and parts[2].lower() == "system32":
                parts[2] = "System32"
            text = "/".join(parts)
    if len(text) > 1:
        text = text.rstrip("/") or "/"
    return text


_Tok = tuple[str, str, _Word | None]  # ("w", "", word), ("r" or "o", operator, None), ("("...)


def _lex(code: str) -> list[_Tok]:
    """cmd.exe's tokens: words, operators (``& && || |``), redirections (``>``, ``>>``,
    ``<``, ``2>``, ``2>&1``) and group parentheses (at a command's start, or after ``if``
    ``COND``, ``for ... do`` and ``else``)."""
    out: list[_Tok] = []
    cur: list[_Word] = []  # the words of the command being read
    word: _Word | None = None
    quoted = False
    depth = 0
    i = 0
    n = len(code)

    def flush() -> None:
        nonlocal word
        if word is not None:
            out.append(("w", "", word))
            cur.append(word)
            word = None

    while i < n:
        c = code[i]
        if c == "%":
            value, i = _percent(code, i, n)
            word = word or _Word()
            if value[:1] == _VAR_MARK:
                word.text += _VAR_MARK
                word.names.append(value[1:])
            else:
                word.text += value
            continue
        if quoted:
            if c == '"':
                quoted = False
            else:
                assert word is not None
                word.text += c
        elif c == '"':
            quoted = True
            word = word or _Word()
            word.quoted = True
        elif c == "^":
            if i + 1 < n and code[i + 1] not in "\r\n":
                word = word or _Word()
                word.text += code[i + 1]
            i += 1
        elif c in " \t\r\n\x0b\x0c":
            flush()
        elif c in "&|":
            flush()
            op = code[i:i + 2] if code[i:i + 2] in ("&&", "||") else c
            out.append(("o", op, None))
            cur = []
            i += len(op) - 1
        elif c in "<>":
            fd = ""
            if word is not None and word.text in ("0", "1", "2") and not word.quoted:
                fd, word = word.text, None
            flush()
            op = code[i:i + 2] if code[i:i + 2] in (">>", ">&", "<&") else c
            i += len(op) - 1
            if op.endswith("&") and i + 1 < n and code[i + 1].isdecimal():
                op += code[i + 1]  # 2>&1
                i += 1
            out.append(("r", fd + op, None))
        elif c == "(" and word is None and _for_set(cur):
            end = code.find(")", i)  # for %i in (SET) do: SET is data
            end = n - 1 if end < 0 else end
            w = _Word()
            w.text = code[i:end + 1]
            out.append(("w", "", w))
            cur.append(w)
            i = end
        elif c == "(" and word is None and _group_here(cur):
            depth += 1
            out.append(("(", "", None))
            cur = []
        elif c == ")" and depth > 0:
            flush()
            depth -= 1
            out.append((")", "", None))
            cur = []
        else:
            word = word or _Word()
            word.text += c
        i += 1
    flush()
    out.extend((")", "", None) for _ in range(depth))
    return out


def _group_here(cur: list[_Word]) -> bool:
    """Whether a ``(`` opens a group: at a command's start or after the head of an ``if``,
    ``for ... do`` or ``else`` (``if exist x (rd /s /q x)``)."""
    if not cur:
        return True
    first = cur[0].text.lower().lstrip("@")
    return first in ("if", "else") or (first == "for" and cur[-1].text.lower() == "do")


def _for_set(cur: list[_Word]) -> bool:
    """After ``for ... in``: the parenthesized set of a for loop."""
    return len(cur) >= 2 and cur[0].text.lower().lstrip("@") == "for" and \
        cur[-1].text.lower() == "in"


def _percent(code: str, i: int, n: int) -> tuple[str, int]:
    """``%NAME%`` at ``i``: (the expansion, or _VAR_MARK + name when not known; next index).
    ``%i`` / ``%%i`` (a for variable) is not known; a lone ``%`` is itself."""
    end = code.find("%", i + 1, min(n, i + 130))
    if end > i + 1:
        body = code[i + 1:end]
        if not any(ch in body for ch in " \t\r\n\"&|<>^"):
            name = body.split(":", 1)[0]
            low = name.lower()
            if low == "homedrive" and code[end + 1:end + 11].lower() == "%homepath%":
                return "~", end + 11
            if ":" not in body and low in _KNOWN:
                return _KNOWN[low], end + 1
            return _VAR_MARK + name, end + 1  # %X%, %X:~0,2%, %X:a=b%: not known
    j = i + 1
    if j < n and code[j] == "%":
        j += 1
    if j < n and code[j].isalpha():
        return _VAR_MARK + "DG_CMD_FOR", j + 1
    return "%", i + 1


def _q(text: str) -> str:
    """A literal piece as bash text: single-quoted; a leading ``~`` stays bare (the home
    directory), and so does a dynamic marker (a value the outer command does not know)."""
    return bash_literal(text, _SAFE_RE)


def _bash_word(text: str, names: list[str]) -> str:
    pieces = text.split(_VAR_MARK)
    out = [_q(pieces[0])]
    for k, piece in enumerate(pieces[1:]):
        name = names[k] if k < len(names) else ""
        out.append('"${' + name + '}"' if _NAME_RE.match(name) else '"${DG_CMD_VAR}"')
        out.append(_q(piece))
    return "".join(out) or "''"


def _render(w: _Word, *, path: bool = False) -> str:
    return _bash_word(win_path(w.text) if path else w.text, w.names)


def _strip_prefix(words: list[_Word]) -> list[_Word]:
    """The command that runs after ``@``, ``call``, ``start [opts] ["title"]``, ``if COND``,
    ``for ... do`` and ``else`` (bounded: each step drops at least one word or character)."""
    while words:
        first = words[0]
        low = first.text.lower()
        if low.startswith("@") and not first.quoted:
            first.text = first.text[1:]
            if not first.text:
                words = words[1:]
        elif low in ("call", "else"):
            words = words[1:]
        elif low == "start":
            k = 1
            title = False
            while k < len(words):
                if words[k].quoted and not title:
                    title = True  # start "title" program
                    k += 1
                elif words[k].text.startswith("/") and not words[k].quoted:
                    k += 2 if words[k].text.lower() in ("/d", "/node", "/affinity") else 1
                else:
                    break
            words = words[k:]
        elif low == "if":
            k = 1
            while k < len(words) and words[k].text.lower() in ("/i", "not"):
                k += 1
            cond = words[k].text.lower() if k < len(words) else ""
            if cond in ("exist", "defined", "errorlevel", "cmdextversion"):
                k += 2
            elif k + 1 < len(words) and words[k + 1].text.lower() in (
                    "==", "equ", "neq", "lss", "leq", "gtr", "geq"):
                k += 3
            else:
                k += 1  # A==B
            words = words[k:]
        elif low == "for":
            k = next((k for k, w in enumerate(words) if w.text.lower() == "do"), len(words))
            words = words[k + 1:]
        else:
            return words
    return words


def _command(words: list[_Word]) -> str:
    words = _strip_prefix(words)
    if not words:
        return ":"
    head = words[0]
    low = head.text.lower()
    if "/" in low and not head.quoted and low.split("/", 1)[0] in _DELETES:
        base, _, rest = head.text.partition("/")  # rd/s/q: the builtin, then its switches
        glued = _Word()
        glued.text = "/" + rest
        head = _Word()
        head.text = base
        words = [head, glued, *words[1:]]
        low = base.lower()
    if low in _DELETES:
        return _delete(low, words[1:])
    if low == "set" and len(words) == 2 and not words[1].text.startswith("/"):
        name, eq, value = words[1].text.partition("=")  # set d=C:\ (also set "d=C:\")
        if eq and _NAME_RE.match(name) and _VAR_MARK not in name:
            return name + "=" + _bash_word(win_path(value), words[1].names)
        return ":"
    if low == "type":
        return " ".join(["cat", "--", *(_render(w, path=True) for w in words[1:])])
    name = head.text.rsplit("\\", 1)[-1] if "\\" in head.text else head.text
    return " ".join([_bash_word(name, head.names), *(_render(w) for w in words[1:])])


def _system(path: str) -> bool:
    parts = path.split("/")
    return len(parts) > 1 and parts[0] == "" and parts[1] in _SYSTEM_TOPS


def _delete(builtin: str, args: list[_Word]) -> str:
    """``rd``/``rmdir``/``del``/``erase`` as the ``rm`` they amount to."""
    switches = ""
    operands: list[_Word] = []
    valid = _RD_SWITCH if builtin in ("rd", "rmdir") else _DEL_SWITCH
    for w in args:
        # /s/q, /S /Q; a word that is no switch of the builtin is a path (PowerShell code
        # hands cmd C:\ as /, and C:\* as /*)
        if w.text.startswith("/") and not w.quoted and valid.match(w.text.lower()):
            switches += w.text.lower().replace("/", "")
        else:
            operands.append(w)
    recursive = "s" in switches
    if builtin in ("rd", "rmdir"):
        head = "rm -r -f --" if recursive else "rmdir --"
        return " ".join([head, *(_render(w, path=True) for w in operands)])
    targets: list[str] = []
    for w in operands:
        path = win_path(w.text)
        parent, sep, last = path.rpartition("/")
        if "*" in last and not last.strip("*.?") and sep:
            path = parent or "/"  # DIR\*, DIR\*.*: every file of DIR
            recursive = recursive or _system(path)  # del C:\Windows\System32\*
        elif _system(path) and not any(ch in last for ch in "*?."):
            recursive = True  # del C:\Windows: the directory's files
        targets.append(_bash_word(path, w.names))
    return " ".join(["rm", "-r -f --" if recursive else "-f --", *targets])


def cmd_bash(code: Field) -> Field:
    """``cmd /c`` CODE (a field) as bash text with the same commands and words."""
    out: list[str] = []
    words: list[_Word] = []
    redirect = ""
    last = ""  # what the bash text ends with: "" (nothing), "cmd", "op", "(" or ")"

    def end_command() -> None:
        nonlocal words, last
        if words or last in ("", "op", "("):
            if last == ")":
                out.append(";")
            out.append(_command(words) if words else ":")
            last = "cmd"
        words = []

    for kind, op, w in _lex(code.text):
        if kind == "w" and w is not None:
            if redirect:
                rendered = "/dev/null" if w.text.lower() == "nul" else _render(w, path=True)
                out.append(redirect + rendered)
                redirect = ""
            else:
                words.append(w)
        elif kind == "r":
            if op[-1].isdecimal():
                out.append(op)  # 2>&1
            else:
                redirect = op
        elif kind == "(":
            if words:
                end_command()
            if last in ("cmd", ")"):
                out.append(";")
            out.append("(")
            last = "("
        elif kind == ")":
            if words or last == "(":
                end_command()
            out.append(")")
            last = ")"
        else:
            end_command()
            out.append(";" if op == "&" else op)
            last = "op"
    if words or last in ("", "op", "("):
        end_command()
    bash = " ".join(out)
    return code if bash == code.text else Field(bash, code.span, code.taint)


def start_argv(inv: Invocation) -> list[Field] | None:
    """The command ``start [/options] [""] PROG ARGS`` runs from bash (Git Bash's ``start``
    hands it to cmd.exe's builtin), or None (``./start`` is some other program)."""
    if inv.name not in ("start", "START", "start.exe") or "/" in inv.word.text:
        return None
    args = inv.args
    k = 0
    while k < len(args):
        low = args[k].text.lower()
        low = low[1:] if low.startswith("//") else low  # //b: Git Bash's /b
        if low.startswith("/") and len(low) > 1 and low[1:2].isalpha():
            k += 2 if low in ("/d", "/node", "/affinity") else 1
        elif not args[k].text:
            k += 1  # start "" prog: an empty title
        else:
            return args[k:]
    return None
