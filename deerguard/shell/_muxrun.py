"""Commands that ``screen -X`` and ``nix run`` run without showing them as a program word.

``screen [-S NAME] -X stuff 'CMD\\n'`` types CMD into a session's window, where its shell runs
it (like ``tmux send-keys``, ``_embedded``): the string is shell code (screen reads ``\\n``,
``\\r``, ``^M``, ``^J`` and octal escapes in it as the keys Enter and newline).
``screen -X exec [FDPAT] CMD ARGS`` runs CMD in the window, ``screen -X screen CMD`` in a new
one; every other ``-X`` command (``quit``, ``detach``, ``title T``...) runs no program.

``nix run INSTALLABLE [ARGS] [-- ARGS]`` runs the installable's main program with ARGS:
for a nixpkgs attribute (``nixpkgs#bash``, ``github:NixOS/nixpkgs/nixos-24.05#python3``,
``nixpkgs#python3Packages.black``) that is the attribute's program (``bash``, ``python3``,
``black``), so ``nix run nixpkgs#bash -- -c 'rm -rf ~'`` is ``bash -c 'rm -rf ~'``. Another
flake's app (``nix run .#test``) is not known statically and stays as before.

:func:`mux_step` tells ``_resolve`` where the command starts; linear in the words.
"""

from __future__ import annotations

import re

from ._termctl import TERMCTL_NAMES, termctl_step
from ._words import Field

__all__ = ["MUX_NAMES", "mux_step"]

MUX_NAMES = frozenset({"screen", "nix"}) | TERMCTL_NAMES

# screen options taking a separate value (before -X).
_SCREEN_VALUED = frozenset({"-S", "-p", "-c", "-T", "-t", "-e", "-h", "-s", "-Logfile"})
_SESSION_FLAGS = frozenset("rRxdD")
_SCREEN_RUN = frozenset({"exec", "screen"})
_FDPAT = frozenset(".!|:")

# nix options with one or two values; any other option is a flag.
_NIX_ONE = frozenset({
    "--extra-experimental-features", "--experimental-features", "--inputs-from",
    "--update-input", "--expr", "-f", "--file", "--include", "-I", "--store", "--eval-store",
    "--log-format", "--reference-lock-file", "--output-lock-file", "--max-jobs", "-j",
    "--cores", "--system", "--builders", "--substituters", "--extra-substituters",
    "--trusted-public-keys", "--extra-trusted-public-keys", "--arg-from-stdin", "--keep", "-k",
    "--unset", "-u", "--chdir", "-C", "--profile", "--priority", "--nix-path"})
_NIX_TWO = frozenset({"--option", "--override-input", "--arg", "--argstr", "--override-flake",
                      "--arg-from-file"})
# Packages whose main program has another name.
_MAIN = {"nodejs": "node", "nodejs-slim": "node", "bashInteractive": "bash", "gnused": "sed",
         "gnutar": "tar", "gnugrep": "grep", "ripgrep": "rg", "python3Full": "python3",
         "pythonFull": "python", "perl5": "perl", "ruby_3": "ruby", "openssh": "ssh",
         "netcat-gnu": "nc", "netcat-openbsd": "nc", "libressl": "openssl", "gawk": "gawk"}
_VERSIONED = re.compile(r"(python3|nodejs|ruby|perl|php|lua)_?[0-9][0-9_]*")


def mux_step(name: str, fields: list[Field], i: int
             ) -> tuple[int, Field | None, list[Field]] | None:
    """For ``fields[i]`` (screen, nix, or a terminal's control command: ``_termctl``):
    (index where the command starts, or -1 for none; a command string it runs; the fields
    to read from there), or None for the usual wrapper handling."""
    if name == "screen":
        return _screen(fields, i)
    if name == "nix":
        return _nix_run(fields, i)
    return termctl_step(name, fields, i, _keys)  # kitty @ launch, zellij run... (_termctl)


def _screen(fields: list[Field], i: int) -> tuple[int, Field | None, list[Field]] | None:
    n = len(fields)
    j = i + 1
    while j < n:
        f = fields[j]
        t = f.text
        if not f.static or not t.startswith("-") or t == "--":
            return None  # screen CMD: the usual wrapper handling
        if t == "-X":
            break
        if len(t) > 1 and set(t[1:]) <= _SESSION_FLAGS and j + 1 < n and \
                not fields[j + 1].text.startswith("-"):
            j += 2  # -r NAME, -x NAME, -dr NAME: an optional session name
            continue
        j += 2 if t in _SCREEN_VALUED else 1
    else:
        return None
    j += 1
    if j >= n or not fields[j].static:
        return None
    command = fields[j].text
    if command == "stuff":
        if j + 1 >= n:
            return -1, None, fields
        f = fields[j + 1]
        text = _keys(f.text)
        return -1, Field(text, f.span, f.taint), fields
    if command == "eval":
        typed: list[Field] = []  # eval 'stuff "CMD\n"' ...: screen command lines, in order
        for f in fields[j + 1:j + 17]:
            verb, _, rest = f.text.strip().partition(" ")
            rest = rest.strip()
            if verb == "stuff" and len(rest) > 1 and rest[0] == rest[-1] and rest[0] in "'\"":
                rest = rest[1:-1]
            if verb == "stuff" and rest:
                typed.append(Field(_keys(rest), f.span, f.taint))
        if not typed:
            return -1, None, fields
        return -1, Field("".join(t.text for t in typed), (typed[0].span[0], typed[-1].span[1]),
                         frozenset().union(*(t.taint for t in typed))), fields
    if command in _SCREEN_RUN:
        k = j + 1
        if command == "exec" and k < n and fields[k].text and set(fields[k].text) <= _FDPAT:
            k += 1  # exec !.. CMD: which descriptors connect to the window
        if command == "screen":
            return j, None, fields  # a new window: screen's own options, then CMD
        return (k, None, fields) if k < n else (-1, None, fields)
    return -1, None, fields  # quit, detach, title T, hardcopy F...: no program runs


def _keys(text: str) -> str:
    """The characters screen types for a ``stuff`` string (Enter is a newline): ``^M``,
    ``^J``, ``\\n``, ``\\r``, ``\\t``, ``\\\\`` and octal ``\\NNN``."""
    text = text.replace("^M", "\n").replace("^J", "\n").replace("\r", "\n")
    if "\\" not in text:
        return text
    out: list[str] = []
    k = 0
    n = len(text)
    while k < n:
        c = text[k]
        if c != "\\" or k + 1 >= n:
            out.append(c)
            k += 1
            continue
        nxt = text[k + 1]
        end = k + 1
        while end < n and end < k + 4 and text[end] in "01234567":
            end += 1
        if end > k + 1:
            code = int(text[k + 1:end], 8) & 0xFF
            out.append("\n" if code == 13 else chr(code))
            k = end
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        k += 2
    return "".join(out)


_ESCAPES = {"n": "\n", "r": "\n", "t": "\t"}


def _nix_run(fields: list[Field], i: int) -> tuple[int, Field | None, list[Field]] | None:
    n = len(fields)
    j = _nix_operand(fields, i + 1)
    if j >= n or fields[j].text != "run":
        return None
    k = _nix_operand(fields, j + 1)
    if k >= n or not fields[k].static:
        return None
    installable = fields[k]
    program = _main_program(installable.text)
    if program is None:
        return None
    args: list[Field] = []
    m = k + 1
    while m < n:
        f = fields[m]
        t = f.text
        if t == "--":
            args.extend(fields[m + 1:])
            break
        if f.static and t.startswith("-") and len(t) > 1:
            m += 3 if t in _NIX_TWO else 2 if t in _NIX_ONE else 1
            continue
        args.append(f)
        m += 1
    word = Field(program, installable.span, installable.taint)
    return k, None, [*fields[:k], word, *args]


def _nix_operand(fields: list[Field], j: int) -> int:
    """The index of the next operand of nix from ``j`` (past its options)."""
    n = len(fields)
    while j < n:
        f = fields[j]
        t = f.text
        if not f.static or not t.startswith("-") or len(t) == 1:
            return j
        if t == "--":
            return n
        j += 3 if t in _NIX_TWO else 2 if t in _NIX_ONE else 1
    return n


def _main_program(ref: str) -> str | None:
    """The program a nixpkgs installable runs (``nixpkgs#bash`` -> ``bash``), else None."""
    flake, sep, attr = ref.partition("#")
    if not sep or "nixpkgs" not in flake.lower() or not attr:
        return None
    attr = attr.partition("^")[0]
    for prefix in ("legacyPackages.", "packages."):
        if attr.startswith(prefix):
            attr = attr[len(prefix):].partition(".")[2]  # the system name comes next
    attr = attr.rpartition(".")[2].strip('"')
    if not attr:
        return None
    if attr in _MAIN:
        return _MAIN[attr]
    m = _VERSIONED.fullmatch(attr)
    if m:
        base = m.group(1)
        return {"nodejs": "node"}.get(base, base)
    return attr
