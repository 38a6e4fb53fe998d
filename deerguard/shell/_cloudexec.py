"""Cloud and platform CLIs that run a command on a remote machine, task or container.

``_remote`` and ``_elsewhere`` follow ssh, the container engines and the fleet tools; these
are the cloud providers' and hosting platforms' ways to do the same, each described by what it
does with its arguments so the remote command is classified like ssh's command string (a
recursive delete of ``/`` or a pipe into a shell blocks there as it does through ``ssh HOST
'...'``):

* ``aws ssm send-command --parameters commands=[...]`` (the lines of the shell script the
  ``AWS-RunShellScript`` document runs on each target), ``aws ssm start-session
  --document-name AWS-Start(Non)InteractiveCommand --parameters command=...`` and ``aws ecs
  execute-command --command CMD``; the ``--parameters`` value in the CLI's shorthand
  (``commands=a,b``, ``commands=["a","b"]``) or as JSON (``{"commands": [...]}``);
* ``az container exec --exec-command CMD``, ``az aks command invoke --command CMD``, ``az vm
  run-command create|update --script CMD`` and ``az ssh vm|arc ... -- CMD`` (``az vm
  run-command invoke --scripts`` is in ``_elsewhere``);
* ``heroku run[:detached] CMD...`` (the dyno runs the words as a shell command line; heroku's
  options may follow the command), ``fly``/``flyctl ssh console -C CMD`` and ``fly machine
  exec [ID] CMD``, ``doctl compute ssh DROPLET --ssh-command CMD``, ``eb ssh -c CMD`` (code
  strings);
* ``nomad alloc exec [opts] ALLOC CMD...`` (an argument vector, run in the allocation's task).

A PowerShell document or command id (``AWS-RunPowerShellScript``) is left alone, as ``az vm
run-command`` does. Every parser is linear in the number of words and in the length of the
``--parameters`` text.
"""

from __future__ import annotations

import json

from ._container import SSH_ARG_LETTERS, Remote
from ._words import Field

__all__ = ["CLOUD_EXEC", "parse_cloud_exec"]

CLOUD_EXEC = frozenset({"aws", "az", "heroku", "fly", "flyctl", "doctl", "eb", "nomad"})
"""Programs :func:`parse_cloud_exec` knows (``az`` only for the subcommands listed above;
its ``vm run-command invoke`` is ``_elsewhere``'s)."""

_PARAM_KEYS = frozenset({"commands", "command"})


def parse_cloud_exec(name: str, fields: list[Field], i: int) -> Remote | None:
    """What ``name fields[i:]`` runs remotely; None when it is not a remote execution."""
    parser = _PARSERS.get(name)
    return parser(fields, i) if parser is not None else None


def _value(fields: list[Field], j: int, names: frozenset[str]) -> Field | None:
    """The value of the last of ``names`` (``--opt V``, ``--opt=V``, ``-cV``) from ``j`` on,
    before any ``--``."""
    n = len(fields)
    found = None
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            break
        if t in names and j + 1 < n:
            found = fields[j + 1]
            j += 2
            continue
        if t.startswith("-"):
            opt, eq, val = t.partition("=")
            if eq and opt in names:
                found = Field(val, f.span, f.taint)
            elif not t.startswith("--") and len(t) > 2 and t[:2] in names:
                found = Field(t[2:], f.span, f.taint)  # -Ccmd
        j += 1
    return found


def _operands(fields: list[Field], j: int, takes: frozenset[str]) -> list[Field]:
    """The operands from ``j`` on when options may come anywhere (oclif, cobra): options in
    ``takes`` consume the next word unless written ``--opt=V``; everything after ``--`` is
    an operand."""
    out: list[Field] = []
    n = len(fields)
    while j < n:
        f = fields[j]
        t = f.text
        if t == "--":
            out.extend(fields[j + 1:])
            break
        if t.startswith("-") and len(t) > 1:
            j += 2 if t in takes else 1
            continue
        out.append(f)
        j += 1
    return out


def _joined(words: list[Field], sep: str = " ") -> Field | None:
    if not words:
        return None
    return Field(sep.join(f.text for f in words), (words[0].span[0], words[-1].span[1]),
                 frozenset().union(*(f.taint for f in words)))


# -- aws ----------------------------------------------------------------------------------

_AWS_GLOBAL_ARG = frozenset({"--profile", "--region", "--output", "--endpoint-url", "--query",
                             "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout",
                             "--color", "--cli-binary-format"})


def _aws(fields: list[Field], j: int) -> Remote | None:
    words: list[str] = []
    n = len(fields)
    k = j
    while k < n and len(words) < 2:
        t = fields[k].text
        if t.startswith("-"):
            k += 2 if t in _AWS_GLOBAL_ARG else 1
            continue
        words.append(t)
        k += 1
    if words == ["ecs", "execute-command"]:
        return Remote(code=_value(fields, k, frozenset({"--command"})))
    if words not in (["ssm", "send-command"], ["ssm", "start-session"]):
        return None
    doc = _value(fields, k, frozenset({"--document-name"}))
    if doc is not None and "powershell" in doc.text.lower():
        return None
    params = _value(fields, k, frozenset({"--parameters"}))
    if params is None:
        return Remote()
    lines = ssm_commands(params.text)
    return Remote(code=Field("\n".join(lines), params.span, params.taint) if lines else None)


def ssm_commands(text: str) -> list[str]:
    """The values of the ``commands``/``command`` keys of an SSM ``--parameters`` value, in
    the CLI's JSON or shorthand syntax. Linear in ``len(text)``."""
    s = text.strip()
    if s.startswith("{"):
        try:
            data = json.loads(s)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            out: list[str] = []
            for key, value in data.items():
                if key in _PARAM_KEYS:
                    items = value if isinstance(value, list) else [value]
                    out.extend(v for v in items if isinstance(v, str))
            return out
    return _shorthand(s)


def _shorthand(s: str) -> list[str]:
    """``key=value,key2=[a,b],key3="q"``: the values of the keys in :data:`_PARAM_KEYS`.
    A comma followed by ``word=`` starts the next key; other commas separate list items."""
    out: list[str] = []
    n = len(s)
    i = 0
    key = ""
    while i < n:
        eq = _key_end(s, i)
        if eq >= 0:
            key = s[i:eq].strip()
            i = eq + 1
        values, i = _shorthand_values(s, i)
        if key in _PARAM_KEYS:
            out.extend(values)
        i += 1  # the comma
    return out


def _key_end(s: str, i: int) -> int:
    """The index of the ``=`` of a ``key=`` starting at ``i`` (letters, digits, ``_.-``);
    -1 when none starts there. Bounded by the key's length."""
    k = i
    n = len(s)
    while k < n and s[k] == " ":
        k += 1
    start = k
    while k < n and (s[k].isalnum() or s[k] in "_.-"):
        k += 1
    return k if k > start and k < n and s[k] == "=" else -1


def _shorthand_values(s: str, i: int) -> tuple[list[str], int]:
    """The value at ``i`` (a ``[...]`` list, a quoted string or a bare word up to a comma)
    and the index of the comma after it."""
    n = len(s)
    if i < n and s[i] == "[":
        values: list[str] = []
        i += 1
        while i < n and s[i] != "]":
            value, i = _item(s, i, ",]")
            values.append(value)
            if i < n and s[i] == ",":
                i += 1
        i += 1
        while i < n and s[i] != ",":
            i += 1
        return values, i
    value, i = _item(s, i, ",")
    return [value], i


def _item(s: str, i: int, stops: str) -> tuple[str, int]:
    """A quoted (``"..."`` with backslash escapes, ``'...'``) or bare item at ``i``."""
    n = len(s)
    while i < n and s[i] == " ":
        i += 1
    if i < n and s[i] in "\"'":
        quote = s[i]
        i += 1
        chars: list[str] = []
        while i < n and s[i] != quote:
            if s[i] == "\\" and quote == '"' and i + 1 < n:
                i += 1
            chars.append(s[i])
            i += 1
        i += 1
        while i < n and s[i] not in stops:
            i += 1
        return "".join(chars), i
    start = i
    while i < n and s[i] not in stops:
        i += 1
    return s[start:i], i


# -- az -----------------------------------------------------------------------------------


def _az(fields: list[Field], j: int) -> Remote | None:
    texts = [f.text for f in fields[j:j + 3]]
    if texts[:2] == ["container", "exec"]:
        return Remote(code=_value(fields, j + 2, frozenset({"--exec-command"})))
    if texts == ["aks", "command", "invoke"]:
        return Remote(code=_value(fields, j + 3, frozenset({"--command", "-c"})))
    if texts[:2] in (["vm", "run-command"], ["vmss", "run-command"]) and \
            len(texts) > 2 and texts[2] in ("create", "update"):
        return Remote(code=_value(fields, j + 3, frozenset({"--script"})))
    if texts[:1] == ["ssh"] and len(texts) > 1 and texts[1] in ("vm", "arc"):
        for k in range(j + 2, len(fields)):
            if fields[k].text == "--":
                return Remote(code=_ssh_args(fields, k + 1))
        return Remote()
    return None


def _ssh_args(fields: list[Field], j: int) -> Field | None:
    """ssh arguments (options, then the remote command): the command string."""
    n = len(fields)
    while j < n:
        t = fields[j].text
        if not t.startswith("-") or len(t) < 2:
            break
        j += 2 if t[-1] in SSH_ARG_LETTERS and len(t) == 2 else 1
    return _joined(fields[j:])


# -- heroku, fly, doctl, eb ---------------------------------------------------------------

_HEROKU_ARG = frozenset({"-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env",
                         "--type"})


def _heroku(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields):
        return None
    sub = fields[j].text
    if sub not in ("run", "run:detached", "run:inside"):
        return None
    words = _operands(fields, j + 1, _HEROKU_ARG)
    if sub == "run:inside":
        words = words[1:]  # run:inside DYNO CMD...
    return Remote(code=_joined(words))


_FLY_ARG = frozenset({"-a", "--app", "-c", "--config", "-r", "--region", "-u", "--user",
                      "-A", "--address", "-o", "--org", "--machine", "--process-group",
                      "--timeout", "-C", "--command", "--container"})


def _fly(fields: list[Field], j: int) -> Remote | None:
    texts = [f.text for f in fields[j:j + 2]]
    if texts == ["ssh", "console"]:
        return Remote(code=_value(fields, j + 2, frozenset({"-C", "--command"})))
    if texts in (["machine", "exec"], ["machines", "exec"], ["m", "exec"]):
        words = _operands(fields, j + 2, _FLY_ARG)
        return Remote(code=words[-1] if words else None)  # exec [MACHINE_ID] CMD
    return None


def _doctl(fields: list[Field], j: int) -> Remote | None:
    if [f.text for f in fields[j:j + 2]] != ["compute", "ssh"]:
        return None
    return Remote(code=_value(fields, j + 2, frozenset({"--ssh-command"})))


def _eb(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    return Remote(code=_value(fields, j + 1, frozenset({"-c", "--command"})))


# -- nomad --------------------------------------------------------------------------------

_NOMAD_ARG = frozenset({"task", "e", "address", "region", "namespace", "ca-cert", "ca-path",
                        "client-cert", "client-key", "tls-server-name", "token"})


def _nomad(fields: list[Field], j: int) -> Remote | None:
    n = len(fields)
    if j < n and fields[j].text == "alloc":
        j += 1
    if j >= n or fields[j].text != "exec":
        return None
    j += 1
    while j < n:  # Go's flag package: options before the operands, -opt or --opt
        t = fields[j].text
        if t == "--":
            j += 1
            break
        if not t.startswith("-") or len(t) < 2:
            break
        opt, eq, _ = t.lstrip("-").partition("=")
        j += 2 if opt in _NOMAD_ARG and not eq else 1
    j += 1  # the allocation (or the job, with -job)
    return Remote(start=j) if j < n else None


_PARSERS = {"aws": _aws, "az": _az, "heroku": _heroku, "fly": _fly, "flyctl": _fly,
            "doctl": _doctl, "eb": _eb, "nomad": _nomad}
