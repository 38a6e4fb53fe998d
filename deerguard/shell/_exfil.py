"""Secret data the classifier cannot see in a literal path: searches that find secrets at run
time, uploaders other than curl's ``@file``, container secrets, cloud metadata credentials.

* Searches for secrets (``find ~ -name 'id_*'``, ``grep -rhoE 'AKIA...' ~``): ``_harvest``;
  git's searches of a repository (``git grep -l API_KEY``, ``git ls-files '*.env'``):
  ``_gitlist``.
* Uploaders that take files of their own: ``gh gist create FILE``, ``gh release upload TAG
  FILE``, ``gh issue|pr create --body-file F``, ``gh api --input F``, ``glab snippet create``.
  A sensitive or secret file (or secret stdin through ``-``) sent by them is exfiltration.
* ``docker cp CTR:/run/secrets/x -`` prints a container's secret (a file DEST holds it);
  ``docker inspect`` prints containers' environments (secret data, passes alone).
* Cloud instance metadata (hosts and paths: :mod:`._metadata`; ECS's ``169.254.170.2``
  here): a request for the instance role's credentials or an access token reads a
  credential (like ``cat ~/.aws/credentials``); other metadata paths and the IMDSv2 session
  token (``/latest/api/token``) pass.
* A search of a shell history for secret words (``grep -i token ~/.zsh_history``) prints
  what it finds: ``_histsearch`` (``shell.secret-display``).
* A login credential printed to the terminal (``git credential fill``, ``gh auth token``,
  ``security find-generic-password -w``) warns (``shell.secret-display``).

Every check is keyed by program name (:data:`EXFIL_NAMES`): other programs cost one lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._flow import Flow
from ._gitlist import git_search
from ._harvest import FDS, READERS, SEARCH_MARK, SEARCHERS, fd_exec, read_found, secret_search
from ._histsearch import HISTORY_GREPS, history_search
from ._jqenv import JQS, jq_env
from ._metadata import metadata_credential, metadata_routed, metadata_userdata
from ._pastebins import PASTE_TOOLS, paste_command, paste_files
from ._paths import norm_path
from ._projsecrets import project_search
from ._values import NO_TAINT, Field, Source, Taint, source_order
from ._words import DYN

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["EXFIL_NAMES", "exfil_output", "never_sent", "secret_display", "shown_credential"]

_UPLOADERS = frozenset({"gh", "glab"})
_CONTAINERS = frozenset({"docker", "podman", "nerdctl"})
_HTTP = frozenset({"curl", "wget", "http", "https", "xh", "httpie", "fetch", "aria2c"})
_KEYCHAINS = frozenset({"security", "secret-tool"})

EXFIL_NAMES = SEARCHERS | READERS | _UPLOADERS | _CONTAINERS | _HTTP | _KEYCHAINS | JQS | \
    PASTE_TOOLS | frozenset({"git"})
"""Programs :func:`exfil_output` looks at (any other program: nothing to do)."""

# Roots whose search covers a user's secrets: a home, the filesystem, system config.
def exfil_output(run: Run, inv: Invocation, stdin: Flow | None) -> Taint:
    """Findings for ``inv`` and the secret taint its output carries (see the module doc)."""
    name = inv.name
    if name == "git":  # git grep -l API_KEY, git ls-files '*.env': like grep -rl, find
        return git_search(run, inv)
    if name in JQS:  # jq -n env: an environment dump
        return read_found(run, inv, stdin) | jq_env(run, inv)
    if name in READERS:
        return read_found(run, inv, stdin)
    span = run.map_span(inv.word.span)
    if name in SEARCHERS:
        # grep -i token ~/.zsh_history, cat ~/.bash_history | grep pass (_histsearch)
        hist = history_search(run, inv, stdin) if name in HISTORY_GREPS else NO_TAINT
        if secret_search(name, inv.args, run.cwd):
            src = Source("secret", name + SEARCH_MARK, span)
            if name in FDS:
                fd_exec(run, inv, src)
            return frozenset({src}) | hist
        # find . -name .env, grep -rl API_KEY .: paths of secret files
        return project_search(run, inv) | hist
    if name in _UPLOADERS:
        _upload(run, inv, stdin)
        if name == "gh":  # text fields, gh secret set -R, release/run download (_ghsend)
            from ._ghsend import gh_send
            return gh_send(run, inv, stdin)
    elif name in _CONTAINERS:
        return _container(run, inv, span)
    elif name in PASTE_TOOLS:  # pastebinit .env, croc send F (_pastebins)
        code = paste_command(name, inv.args)
        if code is not None:  # wgetpaste -c 'cat .env': the command's output is pasted
            out = run.run_code(code, name, inv.word.span, None, positional=[])
            _send_files(run, inv, [Field("-", code.span)], out)
        else:
            _send_files(run, inv, paste_files(name, inv.args, stdin is not None,
                                              inv.word.span), stdin)
    elif name in _HTTP:
        _metadata(run, inv)
    elif name in _KEYCHAINS:
        texts = [f.text for f in inv.args]
        if (name == "secret-tool" and "lookup" in texts) or (
                name == "security" and any(t.startswith("find-") and t.endswith("-password")
                                           for t in texts) and any(
                    t[:1] == "-" and t[1:2] != "-" and ("w" in t or "g" in t) for t in texts)):
            src = Source("secret", name, span)
            run.printed.add(src)
            return frozenset({src})
    return NO_TAINT


# Printers of the user's own login credentials (git's stored password, a CLI's login token,
# cloud keys, the kubeconfig's client keys) and secret managers' reads (op read, vault kv
# get, aws secretsmanager, gcloud secrets, az keyvault, doppler, pass show, kubectl get
# secret -o yaml), by (program, subcommand word): shown on the terminal, either lands in the
# transcript (secret-display); captured into a variable or a pipe, it only taints.
# docker-credential-*, security and secret-tool are added by exfil_output; history is a
# printer whose output is not a credential shown.
_SHOWN_CREDENTIALS = frozenset({("git", "credential"), ("gh", "auth"), ("glab", "auth"),
                                ("aws", "configure"), ("gcloud", "auth"), ("az", "account"),
                                ("kubectl", "config"), ("heroku", "auth:token"),
                                ("vault", "print"), ("op", "read"), ("op", "item"),
                                ("vault", "kv"), ("vault", "read"), ("aws", "secretsmanager"),
                                ("aws", "ssm"), ("aws", "sts"), ("aws", "ecr"),
                                ("gcloud", "secrets"), ("az", "keyvault"),
                                ("doppler", "secrets"), ("bw", "get"),
                                ("infisical", "secrets"), ("pass", "show"),
                                ("kubectl", "get"), ("kubectl", "create"),
                                ("ansible-vault", "view"), ("aws", "iam"),
                                ("npm", "config"), ("pnpm", "config"), ("yarn", "config"),
                                ("secret-tool", "search"), ("lpass", "show"),
                                ("gopass", "show"), ("keepassxc-cli", "show")})


def shown_credential(name: str, texts: list[str]) -> bool:
    """``name texts`` (a secret printer) prints a login credential or a stored secret on
    its output (``doppler secrets download`` writes a file unless ``--no-file``)."""
    if name.startswith("docker-credential-") or name == "sops":  # sops -d: decrypted
        return True
    sub = next((t for t in texts if not t.startswith("-")), "")
    if name == "doppler" and "download" in texts and "--no-file" not in texts:
        return False
    return (name, sub) in _SHOWN_CREDENTIALS


def secret_display(run: Run) -> None:
    """A login credential a printer fetched that nothing consumed: no program read it from a
    pipe, no substitution took it as a value, no redirection put it in a file (each removes
    it from ``run.printed``). It reaches the terminal, so the agent's transcript and logs
    (``git credential fill``, ``security find-generic-password -w``, ``gh auth token``);
    ``$(gh auth token)`` and ``aws ecr get-login-password | docker login ...`` stay quiet."""
    src = min(run.printed, key=source_order)
    run.add("shell.secret-display", src.span, f"{src.program} prints a stored password or "
            "token to the terminal, where it lands in the transcript and logs", None)


_GH_FILE_OPTIONS = frozenset({"-F", "--body-file", "--notes-file", "--input", "-a", "--add"})
_GH_VALUE_OPTIONS = frozenset({"-R", "--repo", "-d", "--desc", "--description", "-f",
                               "--filename", "-n", "--notes", "-t", "--title", "--target",
                               "-b", "--body", "-B", "--base", "-H", "--head", "-l", "--label",
                               "-m", "--milestone", "-r", "--reviewer", "-X", "--method",
                               "--discussion-category", "--notes-start-tag", "--hostname",
                               "--jq", "-q", "--template", "-p", "--project", "--field",
                               "--raw-field", "--header"})
# gh/glab subcommands whose operands (after the leading ones) are files they upload.
_GH_FILE_OPERANDS = {("gist", "create"): 0, ("gist", "new"): 0, ("release", "upload"): 1,
                     ("release", "create"): 1, ("snippet", "create"): 0, ("gist", "edit"): 9}


def _upload(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """gh/glab sending a sensitive file or secret stdin to a server."""
    args = inv.args
    words = [f.text for f in args if not f.text.startswith("-")][:2]
    if len(words) < 2 or words[0] in ("secret", "variable", "auth", "ssh-key", "gpg-key"):
        return  # gh secret set -f .env stores secrets where they belong
    lead = _GH_FILE_OPERANDS.get((words[0], words[1]))
    gist_public = words[0] in ("gist", "snippet") and words[1] in ("create", "new")
    files: list[Field] = []
    named: Field | None = None  # -f/--filename of a gist or snippet
    operands = 0
    i = 0
    while i < len(args):
        f = args[i]
        t = f.text
        opt, eq, val = t.partition("=")
        if t.startswith("-") and t != "-":
            if opt in _GH_FILE_OPTIONS and (opt != "-F" or words[0] != "api"):
                if eq:
                    files.append(Field(val, f.span, f.taint))
                elif i + 1 < len(args):
                    files.append(args[i + 1])
                    i += 1
            elif opt in ("-F", "--field") and words[0] == "api":
                value = val if eq else (args[i + 1].text if i + 1 < len(args) else "")
                i += 0 if eq else 1
                if "=@" in value:
                    files.append(Field(value.partition("=@")[2], f.span, f.taint))
            elif opt in _GH_VALUE_OPTIONS and not eq and not (gist_public and opt == "-p"):
                if gist_public and opt in ("-f", "--filename") and i + 1 < len(args):
                    named = args[i + 1]
                i += 1
            elif gist_public and opt in ("-f", "--filename") and eq:
                named = Field(val, f.span, f.taint)
        else:
            operands += 1
            if lead is not None and operands > 2 + lead:
                files.append(f)
        i += 1
    if gist_public and operands == 2 and stdin is not None:
        files.append(Field("-", inv.word.span))  # gh gist create with no file reads stdin
    if gist_public and operands == 2 and named is not None:
        # glab snippet create -f .env, gh gist create --filename .env: the snippet is
        # published as that file (its text read from stdin, or the file where a client
        # version takes the name as the file to send).
        files.append(named)
    _send_files(run, inv, files, stdin)


def _send_files(run: Run, inv: Invocation, files: list[Field], stdin: Flow | None) -> None:
    from ._secrets import secret_file  # late: _secrets imports the rules tables

    for f in files:
        taint = f.taint
        if f.text in ("-", "/dev/stdin", "/dev/fd/0") and stdin is not None:
            taint = taint | stdin.taint
        path = norm_path(f.text, run.cwd) if DYN not in f.text else None
        secret = min((s for s in taint if s.kind == "secret"), key=source_order, default=None)
        if secret is None and not secret_file([f]) and not (
                path is not None and run.cp.paths.match(path, "sensitive")):
            continue
        detail = f"{secret.describe()} reaches {run._desc(inv.name, inv.word.span)}" \
            if secret is not None else None
        run.add("shell.exfiltration", f.span, f"{inv.name} uploads the secret file "
                f"{f.text}" if secret is None else f"{inv.name} uploads secret data", detail)
        return


def _container(run: Run, inv: Invocation, span: tuple[int, int]) -> Taint:
    """``docker cp CTR:/run/secrets/x -|DEST``, ``docker inspect``."""
    from ._secrets import secret_file

    args = inv.args
    words = [f for f in args if not f.text.startswith("-") or f.text == "-"]
    if words and words[0].text == "container":
        words = words[1:]
    if not words:
        return NO_TAINT
    sub = words[0].text
    if sub == "inspect":
        return frozenset({Source("secret", f"{inv.name} inspect", span)})
    if sub != "cp" or len(words) != 3:
        return NO_TAINT
    src, dest = words[1], words[2]
    ctr, colon, inner = src.text.partition(":")
    if not colon or not ctr or not inner.startswith("/"):
        return NO_TAINT
    path = norm_path(inner, None)
    if not secret_file([Field(inner, src.span)]) and not (
            path is not None and run.cp.paths.match(path, "sensitive")):
        return NO_TAINT
    taint = frozenset({Source("secret", f"{inv.name} cp", span)})
    if dest.text == "-":
        return taint
    target = norm_path(dest.text, run.cwd)
    if target is not None:
        run.files[target] = run.files.get(target, NO_TAINT) | taint
    return NO_TAINT


_NEVER_SENT_SUFFIXES = ("_PRIVATE_KEY", "_SIGNING_KEY", "_SIGNING_SECRET", "_PRIVATE_KEY_B64")


def never_sent(var: str) -> bool:
    """A secret variable no API receives as such: a signing key (``$AWS_SECRET_ACCESS_KEY``
    signs requests, ``$SSH_PRIVATE_KEY``...), so it in a URL or body is a leak, not auth."""
    name = var.lstrip("$").strip("{}").upper()
    return name in ("AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY") or name.endswith(
        _NEVER_SENT_SUFFIXES)


def _metadata(run: Run, inv: Invocation) -> None:
    """A request for the instance role's credentials or a token from cloud metadata."""
    texts = [f.text for f in inv.args]
    if any(t.startswith(("--resolve", "--connect-to", "-x", "--proxy", "--preproxy"))
           for t in texts) and metadata_routed(texts):
        run.add("shell.sensitive-read", inv.word.span, f"{inv.name} routes a request for "
                "credentials to the cloud metadata service (--resolve, --connect-to, proxy)",
                None)
        return
    for f in inv.args:
        t = f.text
        if "169.254.170.2" in t:  # ECS task credentials: the only thing it serves but /v4
            rest = t.split("169.254.170.2", 1)[1]
            hit = rest.startswith(("/v2/credentials", DYN, "/" + DYN)) or \
                metadata_credential(t)  # EKS Pod Identity's 169.254.170.23
        else:
            hit = metadata_credential(t)
        if hit:
            run.add("shell.sensitive-read", f.span, f"{inv.name} asks the cloud metadata "
                    "service for credentials (the instance role's keys or an access token)",
                    None)
            return
        if metadata_userdata(t):
            run.add("shell.secret-display", f.span, f"{inv.name} reads the instance's user "
                    "data from the cloud metadata service (bootstrap scripts often hold "
                    "secrets)", None)
