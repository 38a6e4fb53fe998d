"""Paste and file-transfer clients: the files (or stdin) they publish.

``pastebinit .env``, ``wgetpaste ~/.aws/credentials``, ``fpaste F``, ``haste F``, ``ix F``,
``gist F`` (the Ruby client) post a file, or their stdin when no file is named, to a public
paste site; ``croc send F``, ``wormhole send F``, ``ffsend upload F`` and ``pbincli send -f F``
hand a file to anyone with the code or link. A sensitive or secret file (or secret stdin)
sent by them is exfiltration, as ``gh gist create .env`` (``_exfil`` checks the files).
``wgetpaste -c CMD`` (``--command CMD``) runs CMD with bash and pastes its output:
:func:`paste_command` finds CMD, which ``_exfil`` runs as shell code whose output is sent
(``wgetpaste -c 'cat .env'`` is ``cat .env | wgetpaste``).

:func:`paste_files` reads only the argument words of the :data:`PASTE_TOOLS`; linear.
"""

from __future__ import annotations

from typing import NamedTuple

from ._words import Field

__all__ = ["PASTE_TOOLS", "paste_command", "paste_files"]


class _Spec(NamedTuple):
    valued: frozenset[str]  # options that take a separate value
    file_opts: frozenset[str]  # options whose value is a file sent
    sub: str  # the subcommand that sends ("" when the program itself sends)
    stdin: bool  # with no file, it sends its stdin


def _s(valued: str, files: str = "", sub: str = "", stdin: bool = True) -> _Spec:
    return _Spec(frozenset(valued.split()), frozenset(files.split()), sub, stdin)


_SPECS: dict[str, _Spec] = {
    "pastebinit": _s("-a -b -f -i -j -m -t -u -p", "-i"),
    "wgetpaste": _s("-l -d -n -s -e -c -t -X --language --description --nick --service "
                    "--expiration --command --tee"),
    "fpaste": _s("-l -t -d -x -P --lang --title --desc --expire --password"),
    "haste": _s(""),
    "ix": _s("-d -i -n"),
    "gist": _s("-d -f -t -u -R --description --filename --type --update"),
    "croc": _s("--code -c --relay --pass --text -t --exclude --hash --relay6 --socks5 "
               "--connect --curve --ip --port --transfers", sub="send", stdin=False),
    "wormhole": _s("--code -c --code-length --text --relay-url --transit-helper",
                   sub="send", stdin=False),
    "ffsend": _s("--password --downloads -d --expiry -e --name -n --host -H --archive-name",
                 sub="upload", stdin=False),
    "pbincli": _s("-t --text -E --expire -B --burn -F --format -s --server --password",
                  "-f --file", sub="send", stdin=False),
}
PASTE_TOOLS = frozenset(_SPECS)
"""Programs that publish files to a paste or transfer service."""


def paste_files(name: str, args: list[Field], stdin_given: bool, span: tuple[int, int]
                ) -> list[Field]:
    """The files ``name args`` sends (``-`` at ``span`` for its stdin), in order; none when
    it sends nothing (another subcommand, ``croc`` receiving)."""
    spec = _SPECS[name]
    i = 0
    n = len(args)
    if spec.sub:
        while i < n and args[i].text.startswith("-"):
            i += 2 if args[i].text in spec.valued else 1  # croc --relay R send F
        if i >= n or args[i].text != spec.sub:
            return []
        i += 1
    files: list[Field] = []
    ended = False
    while i < n:
        f = args[i]
        t = f.text
        if not ended and t == "--":
            ended = True
        elif not ended and t.startswith("-") and len(t) > 1:
            opt, eq, value = t.partition("=")
            if opt in spec.file_opts:
                if eq:
                    files.append(Field(value, f.span, f.taint))
                elif i + 1 < n:
                    files.append(args[i + 1])
            if opt in spec.valued and not eq:
                i += 1
        else:
            files.append(f)
        i += 1
    if not files and spec.stdin and stdin_given:
        files.append(Field("-", span))
    return files[:32]


def paste_command(name: str, args: list[Field]) -> Field | None:
    """The shell command ``wgetpaste -c CMD`` / ``--command[=]CMD`` runs to paste its
    output; None for any other paste tool or without the option."""
    if name != "wgetpaste":
        return None
    valued = _SPECS[name].valued
    i = 0
    n = len(args)
    while i < n:
        f = args[i]
        t = f.text
        if t == "--" or not t.startswith("-") or len(t) < 2:
            i += 1
            continue
        if t.startswith("--"):
            opt, eq, value = t.partition("=")
            if opt == "--command":
                return Field(value, f.span, f.taint) if eq else (
                    args[i + 1] if i + 1 < n else None)
            i += 2 if opt in valued and not eq else 1
            continue
        for k in range(1, len(t)):
            letter = "-" + t[k]
            if letter == "-c":
                if k + 1 < len(t):
                    return Field(t[k + 1:], f.span, f.taint)
                return args[i + 1] if i + 1 < n else None
            if letter in valued:
                i += 1 if k + 1 < len(t) else 2
                break
        else:
            i += 1
    return None
