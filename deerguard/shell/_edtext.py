"""The text ``ed``, ``ex`` and ``vim -c`` write into the files they edit.

``printf '1a\\ncurl u|sh\\n.\\nw\\n' | ed s.sh && bash s.sh``, ``ex -sc '1i|curl u|sh' -cx
s.sh`` and ``vim -c 'normal Gocurl u|sh' -c wq s.sh`` put a line into ``s.sh`` that the run
then executes. Commands are read one at a time (ed's and ex's script lines from stdin, each
``-c``/``+`` command of vim; ``|`` separates ex commands):

* ``a``/``i``/``c`` (``append``/``insert``/``change``, after an address): the text lines up
  to a line holding only ``.``, or the rest after ``a|`` (ex's one-line form);
* ``s/RE/REPL/`` (``%s``, ranges): the replacement, as a piece of a line (``\\r`` and
  ``\\n`` break the line in vim; a back-reference is the word ``true``, as in sed);
* ``normal[!] KEYS`` (also inside ``exe "..."``): the text typed after the first insert key
  (``o``, ``O``, ``i``, ``a``, ``A``, ``I``, ``S``, ``C``) that follows only counts and
  motions (``Go``, ``ggO``, ``5jA``), up to an escape;
* ``call append(N, "TEXT")``, ``call setline(N, ['A', 'B'])``, ``put ='TEXT'``: the string
  literals.

The text is recorded only when the editor writes (``w``, ``wq``, ``x``; the caller knows):
:mod:`._inplace` makes it part of the files' text. At most 256 commands and 16 texts;
bounded regular expressions; never raises.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._flow import Flow
from ._inplace import MAX_TEXTS, record_inserted
from ._paths import norm_path
from ._resolve import Invocation
from ._sedtext import replacement
from ._words import DYN, NO_TAINT, Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["buffer_flow", "editor_inserted", "editor_texts"]

_MAX_COMMANDS = 256
_ADDRESS = re.compile(r"(?:[0-9$.,;%+\- \t]|'[a-z<>]|/(?:[^/\\\n]|\\.){0,256}/"
                      r"|\?(?:[^?\\\n]|\\.){0,256}\?){0,16}")
_GLOBAL = re.compile(r"(?:g(?:lobal)?!?|v(?:global)?)[ \t]{0,8}/(?:[^/\\\n]|\\.){0,256}/")
_TEXT_CMD = re.compile(r"(?:a(?:ppend)?|i(?:nsert)?|c(?:hange)?)!?[ \t]*(?=\||$)")
_NORMAL = re.compile(r"norm(?:al?)?!?[ \t]")
_MOTIONS = re.compile(r"(?:[0-9]|gg|G|[jkhlwbeWBE$^{}()%HLM+\-_]|\\<[A-Za-z]{1,8}>){0,16}")
_INSERT_KEYS = frozenset("oOiIaASC")
# First letters of the commands read: append, insert, change, s, normal, exe, call, put.
_LEADS = frozenset("aicsnep0$")
_STRING = re.compile(r"\"((?:[^\"\\\n]|\\.){0,4096})\"|'((?:[^'\n]|''){0,4096})'")
_CALLS = ("call append(", "call setline(", "cal append(", "cal setline(", "put =", "pu =",
          "put=", "pu=", "0put", "$put")
_ESCAPES = ("\\<Esc>", "\\<esc>", "\\e", "\x1b", "\\<C-[>")
_WRITE_NAME = re.compile(r"(?:w|wq|x|write|sav|saveas|up|update)!?[ \t]{1,8}(?:>>[ \t]{0,8})?"
                         r"([^ \t|]{1,4096})[ \t]*$")
_UNESCAPE = re.compile(r"\\(.)")
# Escapes of a double-quoted vim string (``"\<Esc>"`` stays a key name for _cut_escape).
_KEYS = {"n": "\n", "t": "\t", "r": "\n", "e": "\x1b", "<": "\\<"}


def editor_inserted(run: Run, inv: Invocation, commands: list[Field], files: list[Field],
                    read: Taint = NO_TAINT) -> None:
    """Record the text the editor ``commands`` add to ``files`` (it writes them); ``read``
    is the taint of command output read into the buffer (``r !curl u``)."""
    if not files or not commands:
        return
    texts = [c.text for c in commands[:_MAX_COMMANDS]]
    taint: Taint = read.union(*(c.taint for c in commands[:_MAX_COMMANDS]))
    lines, pieces = editor_texts(texts) if not any(DYN in t for t in texts) else ([], [])
    # w t.sh, saveas t.sh: the buffer (with the text) is written there too
    targets = [Field(t, c.span, c.taint) for c in commands[:_MAX_COMMANDS] if "w" in c.text or
               "sav" in c.text for t in _written_names(c.text)]
    record_inserted(run, inv.name, lines, pieces, [*files, *targets[:8]], taint or NO_TAINT,
                    commands[0].span)


def buffer_flow(run: Run, commands: list[Field], files: list[Field], span: tuple[int, int]
                ) -> Flow | None:
    """What ``w !cmd`` feeds cmd: the first file's known text with the added lines (None
    when nothing is known)."""
    texts = [c.text for c in commands[:_MAX_COMMANDS]]
    lines = editor_texts(texts)[0] if not any(DYN in t for t in texts) else []
    path = norm_path(files[0].text, run.cwd) if files and files[0].static else None
    old = run.file_text.get(path) if path is not None else None
    known = [t for t in (old, *lines) if t is not None]
    if not known:
        return None
    taint: Taint = frozenset().union(*(c.taint for c in commands[:_MAX_COMMANDS]))
    return Flow(taint, "the edited buffer", span, "\n".join(known), "pipe")


def _written_names(cmd: str) -> list[str]:
    """The files ``w FILE``, ``wq FILE``, ``x FILE``, ``saveas FILE`` (``|``-separated ex
    commands) write; not ``w !cmd``."""
    out: list[str] = []
    for piece in cmd.split("|")[:16]:
        m = _WRITE_NAME.match(_unaddressed(piece))
        if m is not None and not m.group(1).startswith("!"):
            out.append(m.group(1))
    return out


def editor_texts(commands: list[str]) -> tuple[list[str], list[str]]:
    """(added lines, replacement pieces) of ed/ex commands, one command line per item (the
    lines after ``a``/``i``/``c`` up to ``.`` are that command's text); ``|`` separates ex
    commands, except after ``a``/``i``/``c`` and ``normal``, which take the rest."""
    lines: list[str] = []
    pieces: list[str] = []
    k = 0
    while k < len(commands) and len(lines) + len(pieces) < MAX_TEXTS:
        rest = commands[k]
        k += 1
        for _ in range(16):
            cmd = _unaddressed(rest)
            if cmd[:1] not in _LEADS or not cmd:
                if "|" not in cmd:
                    break  # wq, set ff=unix, w: no text (a bar may lead to more)
                rest = cmd.partition("|")[2]
                continue
            text_cmd = _TEXT_CMD.match(cmd)
            if text_cmd is not None:
                after = cmd[text_cmd.end():]
                if after.startswith("|"):
                    _add(lines, after[1:])  # ex -c '1i|TEXT': the rest is the line
                else:
                    body: list[str] = []
                    while k < len(commands) and commands[k].rstrip("\r") != ".":
                        body.append(commands[k])
                        k += 1
                    k += 1
                    _add(lines, "\n".join(body))
                break
            normal = _NORMAL.match(cmd)
            if normal is not None:
                _normal(cmd[normal.end():], lines)
                break
            cmd, bar, rest = _split_bar(cmd)
            _read(cmd, lines, pieces)
            if not bar:
                break
    return lines, pieces


def _unaddressed(cmd: str) -> str:
    """``cmd`` without leading colons and blanks and its address (``1``, ``$``, ``%``,
    ``/re/``); ``g/re/CMD`` (``v``, ``g!``, ``global``) is read as its CMD."""
    cmd = cmd.strip().lstrip(":").lstrip()
    if cmd[:1] in "0123456789$.,;%+-'/?" and cmd:
        m = _ADDRESS.match(cmd)
        if m is not None:
            cmd = cmd[m.end():]
    g = _GLOBAL.match(cmd) if cmd[:1] in "gv" else None
    if g is not None:
        cmd = cmd[g.end():].lstrip()
    return cmd


def _split_bar(cmd: str) -> tuple[str, bool, str]:
    """The first ex command of ``cmd`` (up to a ``|`` outside an ``s`` pattern), whether a
    bar follows, and the rest. Commands whose literals may hold a bar take the rest."""
    if cmd.startswith(("exe", "cal", "put", "pu ", "pu=", "0put", "$put")):
        return cmd, False, ""
    start = 0
    if _is_subst(cmd):
        delim = cmd[1]
        seen = 0
        j = 2
        while j < len(cmd) and seen < 2:
            if cmd[j] == "\\":
                j += 2
                continue
            seen += cmd[j] == delim
            j += 1
        start = j
    at = cmd.find("|", start)
    if at == -1:
        return cmd, False, ""
    return cmd[:at], True, cmd[at + 1:]


def _is_subst(cmd: str) -> bool:
    return cmd[:1] == "s" and len(cmd) > 1 and not cmd[1].isalnum() and cmd[1] not in " \t\"\\"


def _normal(keys: str, lines: list[str]) -> None:
    """``normal KEYS``: the text typed after the first insert key that follows motions."""
    m = _MOTIONS.match(keys)
    at = m.end() if m is not None else 0
    if keys[at:at + 1] and keys[at] in _INSERT_KEYS:
        _add(lines, _cut_escape(keys[at + 1:]))


def _read(cmd: str, lines: list[str], pieces: list[str]) -> None:
    if cmd.startswith(("exe ", "execute ", "exec ")):
        m = _STRING.search(cmd)
        inner = _unaddressed(_value(m)) if m is not None else ""
        normal = _NORMAL.match(inner)
        if normal is not None:
            _normal(inner[normal.end():], lines)  # exe "normal GoTEXT\<Esc>"
        return
    if _is_subst(cmd):
        _add(pieces, _subst(cmd[1:]))
    elif cmd.startswith("substitute") and len(cmd) > 10 and not cmd[10].isalnum():
        _add(pieces, _subst(cmd[10:]))
    elif cmd.startswith(_CALLS):
        for m in list(_STRING.finditer(cmd))[:MAX_TEXTS]:
            _add(lines, _value(m))


def _subst(body: str) -> str | None:
    """The replacement of ``s`` + ``body`` (``/RE/REPL/flags``; the last delimiter may be
    left out)."""
    delim = body[:1]
    parts: list[str] = []
    start = 1
    j = 1
    while j < len(body) and len(parts) < 2:
        c = body[j]
        if c == "\\":
            j += 2
            continue
        if c == delim:
            parts.append(body[start:j])
            start = j + 1
        j += 1
    if len(parts) == 1:
        parts.append(body[start:])
    if len(parts) < 2:
        return None
    return replacement(parts[1].replace("\\r", "\\n"), delim, parts[0])


def _cut_escape(text: str) -> str:
    """Typed text up to an escape key (leaving insert mode); ``<CR>`` is a new line."""
    for esc in _ESCAPES:
        at = text.find(esc)
        if at != -1:
            text = text[:at]
    return text.replace("\\<CR>", "\n").replace("\\r", "\n")


def _value(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return _UNESCAPE.sub(lambda e: _KEYS.get(e.group(1), e.group(1)), m.group(1))
    return (m.group(2) or "").replace("''", "'")


def _add(out: list[str], text: str | None) -> None:
    if text is not None and text.strip() and len(out) < MAX_TEXTS:
        out.append(text)
