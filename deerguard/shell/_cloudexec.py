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
* ``nomad alloc exec [opts] ALLOC CMD...`` (an argument vector, run in the allocation's task);
* boot scripts, run by a new machine: ``aws ec2 run-instances --user-data '#!...'``,
  ``gcloud compute instances create|add-metadata --metadata startup-script=CODE``, ``az vm
  extension set --settings '{"commandToExecute": CODE}'`` (the Custom Script extension).

Local VMs, WSL and the other fleet tools are in ``_vmexec``.

A PowerShell document or command id (``AWS-RunPowerShellScript``, ``az vm run-command invoke
--command-id RunPowerShellScript``) is read as PowerShell (``pwsh -Command CODE``), so
Defender turned off on a Windows host blocks as it does locally. Every parser is linear in
the number of words and in the length of the ``--parameters`` text.
"""

from __future__ import annotations

import json
import shlex

from ._container import SSH_ARG_LETTERS, Remote
from ._vmexec import VM_PARSERS, joined, operands, option_value
from ._words import Field

__all__ = ["CLOUD_EXEC", "SHARED", "parse_cloud_exec"]

SHARED = frozenset({"az", "gcloud", "podman", "kubectl"})
"""Programs whose other subcommands ``_remote``/``_elsewhere`` read (when
:func:`parse_cloud_exec` finds nothing, they are asked next)."""

_PARAM_KEYS = frozenset({"commands", "command"})


def parse_cloud_exec(name: str, fields: list[Field], i: int) -> Remote | None:
    """What ``name fields[i:]`` runs remotely; None when it is not a remote execution."""
    parser = _PARSERS.get(name)
    return parser(fields, i) if parser is not None else None


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
        return Remote(code=option_value(fields, k, frozenset({"--command"})))
    if words in (["ec2", "run-instances"], ["lightsail", "create-instances"],
                 ["ec2", "modify-instance-attribute"]):
        return Remote(code=boot_script(option_value(fields, k, frozenset({"--user-data"}))))
    if words not in (["ssm", "send-command"], ["ssm", "start-session"]):
        return None
    doc = option_value(fields, k, frozenset({"--document-name"}))
    params = option_value(fields, k, frozenset({"--parameters"}))
    if params is None:
        params = option_value(fields, k, frozenset({"--cli-input-json"}))
        if params is None:
            return Remote()
        doc, params = _input_json(params, doc)
        if params is None:
            return Remote()
    lines = ssm_commands(params.text)
    if not lines:
        return Remote()
    text = "\n".join(lines)
    if doc is not None and "powershell" in doc.text.lower():
        text = _as_pwsh(text)  # AWS-RunPowerShellScript: PowerShell on a Windows host
    return Remote(code=Field(text, params.span, params.taint))


def _input_json(value: Field, doc: Field | None) -> tuple[Field | None, Field | None]:
    """``--cli-input-json '{"DocumentName": D, "Parameters": {...}}'``: (the document name,
    the parameters as JSON text), each None when absent."""
    try:
        data = json.loads(value.text)
    except (ValueError, RecursionError):
        return doc, None
    if not isinstance(data, dict):
        return doc, None
    name = data.get("DocumentName")
    if isinstance(name, str):
        doc = Field(name, value.span, value.taint)
    params = data.get("Parameters")
    if not isinstance(params, dict):
        return doc, None
    return doc, Field(json.dumps(params), value.span, value.taint)


def _as_pwsh(code: str) -> str:
    """PowerShell ``code`` as a command line that the classifier reads as PowerShell."""
    return "pwsh -Command " + shlex.quote(code)


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


def boot_script(value: Field | None) -> Field | None:
    """User data or a startup script given inline: the shell script a new machine runs at
    boot (cloud-init runs a ``#!`` script; a ``#cloud-config`` document, a ``file://`` or
    ``fileb://`` name and base64 text are not read here)."""
    if value is None:
        return None
    text = value.text.strip().removeprefix("Value=")
    if text.startswith(("#cloud-config", "file://", "fileb://")) or " " not in text:
        return None
    return Field(text, value.span, value.taint)


def _gcloud(fields: list[Field], j: int) -> Remote | None:
    """``gcloud compute instances create|add-metadata --metadata startup-script=CODE``."""
    texts = [f.text for f in fields[j:j + 3]]
    if texts[:2] != ["compute", "instances"] or len(texts) < 3 or texts[2] not in (
            "create", "add-metadata", "create-with-container"):
        return None
    meta = option_value(fields, j + 3, frozenset({"--metadata"}))
    if meta is None:
        return Remote()
    for key in ("startup-script=", "shutdown-script=", "user-data="):
        at = meta.text.find(key)
        if at == 0 or (at > 0 and meta.text[at - 1] == ","):
            return Remote(code=boot_script(Field(meta.text[at + len(key):], meta.span,
                                                 meta.taint)))
    return Remote()


# -- az -----------------------------------------------------------------------------------


def _az(fields: list[Field], j: int) -> Remote | None:
    texts = [f.text for f in fields[j:j + 3]]
    if texts[:2] == ["container", "exec"]:
        return Remote(code=option_value(fields, j + 2, frozenset({"--exec-command"})))
    if texts == ["aks", "command", "invoke"]:
        return Remote(code=option_value(fields, j + 3, frozenset({"--command", "-c"})))
    if texts[:2] in (["vm", "run-command"], ["vmss", "run-command"]) and \
            len(texts) > 2 and texts[2] in ("create", "update"):
        return Remote(code=option_value(fields, j + 3, frozenset({"--script"})))
    if texts[1:] == ["run-command", "invoke"] and texts[0] in ("vm", "vmss"):
        cid = option_value(fields, j + 3, frozenset({"--command-id"}))
        if cid is None or "powershell" not in cid.text.lower():
            return None  # RunShellScript: _elsewhere's
        script = _scripts(fields, j + 3)
        return Remote(code=Field(_as_pwsh(script.text), script.span, script.taint)
                      if script is not None else None)
    if texts == ["vm", "extension", "set"] or texts == ["vmss", "extension", "set"]:
        return Remote(code=_extension_command(fields, j + 3))
    if texts[:1] == ["ssh"] and len(texts) > 1 and texts[1] in ("vm", "arc"):
        for k in range(j + 2, len(fields)):
            if fields[k].text == "--":
                return Remote(code=_ssh_args(fields, k + 1))
        return Remote()
    return None


def _scripts(fields: list[Field], j: int) -> Field | None:
    """``--scripts LINE...`` (up to the next ``--`` option) or ``--scripts=LINE``."""
    for k in range(j, len(fields)):
        t = fields[k].text
        if t.startswith("--scripts="):
            return Field(t[10:], fields[k].span, fields[k].taint)
        if t == "--scripts":
            words: list[Field] = []
            for f in fields[k + 1:]:
                if f.text.startswith("--"):
                    break
                words.append(f)
            return joined(words, "\n")
    return None


def _extension_command(fields: list[Field], j: int) -> Field | None:
    """``--settings``/``--protected-settings '{"commandToExecute": CMD}'`` of the Custom
    Script extension: the command it runs on the VM."""
    for name in ("--protected-settings", "--settings"):
        value = option_value(fields, j, frozenset({name}))
        if value is None or not value.text.lstrip().startswith("{"):
            continue
        try:
            doc = json.loads(value.text)
        except (ValueError, RecursionError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("commandToExecute"), str):
            return Field(doc["commandToExecute"], value.span, value.taint)
    return None


def _ssh_args(fields: list[Field], j: int) -> Field | None:
    """ssh arguments (options, then the remote command): the command string."""
    n = len(fields)
    while j < n:
        t = fields[j].text
        if not t.startswith("-") or len(t) < 2:
            break
        j += 2 if t[-1] in SSH_ARG_LETTERS and len(t) == 2 else 1
    return joined(fields[j:])


# -- heroku, fly, doctl, eb ---------------------------------------------------------------

_HEROKU_ARG = frozenset({"-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env",
                         "--type"})


def _heroku(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields):
        return None
    sub = fields[j].text
    if sub not in ("run", "run:detached", "run:inside"):
        return None
    words = operands(fields, j + 1, _HEROKU_ARG)
    if sub == "run:inside":
        words = words[1:]  # run:inside DYNO CMD...
    return Remote(code=joined(words))


_FLY_ARG = frozenset({"-a", "--app", "-c", "--config", "-r", "--region", "-u", "--user",
                      "-A", "--address", "-o", "--org", "--machine", "--process-group",
                      "--timeout", "-C", "--command", "--container"})


def _fly(fields: list[Field], j: int) -> Remote | None:
    texts = [f.text for f in fields[j:j + 2]]
    if texts == ["ssh", "console"]:
        return Remote(code=option_value(fields, j + 2, frozenset({"-C", "--command"})))
    if texts in (["machine", "exec"], ["machines", "exec"], ["m", "exec"]):
        words = operands(fields, j + 2, _FLY_ARG)
        return Remote(code=words[-1] if words else None)  # exec [MACHINE_ID] CMD
    return None


def _doctl(fields: list[Field], j: int) -> Remote | None:
    if [f.text for f in fields[j:j + 2]] != ["compute", "ssh"]:
        return None
    return Remote(code=option_value(fields, j + 2, frozenset({"--ssh-command"})))


def _eb(fields: list[Field], j: int) -> Remote | None:
    if j >= len(fields) or fields[j].text != "ssh":
        return None
    return Remote(code=option_value(fields, j + 1, frozenset({"-c", "--command"})))


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


_PARSERS = {"aws": _aws, "az": _az, "gcloud": _gcloud, "heroku": _heroku, "fly": _fly,
            "flyctl": _fly, "doctl": _doctl, "eb": _eb, "nomad": _nomad, **VM_PARSERS}

CLOUD_EXEC = frozenset(_PARSERS)
"""Programs :func:`parse_cloud_exec` knows (``az``, ``gcloud``, ``podman``, ``kubectl`` only
for the subcommands listed here and in ``_vmexec``)."""
