"""Secret data the classifier cannot see in a literal path: searches that find secrets at run
time, uploaders other than curl's ``@file``, container secrets, cloud metadata credentials.

* A *search for secrets* (``find ~ -name 'id_*'``, ``grep -rhoE 'AKIA[0-9A-Z]{16}' ~``,
  ``locate .pem``, ``rg -g '.env' ...``): a search over a home directory or ``/`` (or inside
  a credential directory such as ``~/.ssh``) whose name pattern or regex looks for keys,
  credentials or tokens. Its output is secret data (tainted: it blocks when it reaches a
  network tool), and so is the ``{}`` that ``-exec`` hands a command; a program that reads
  the files such a search found (``-exec cat {} +``, ``cat $(find ...)``, ``| xargs cat``)
  reads secrets, like ``cat ~/.ssh/id_rsa``.
* Uploaders that take files of their own: ``gh gist create FILE``, ``gh release upload TAG
  FILE``, ``gh issue|pr create --body-file F``, ``gh api --input F``, ``glab snippet create``.
  A sensitive or secret file (or secret stdin through ``-``) sent by them is exfiltration.
* ``docker cp CTR:/run/secrets/x -`` prints a container's secret (a file DEST holds it);
  ``docker inspect`` prints containers' environments (secret data, passes alone).
* Cloud instance metadata (``169.254.169.254``, ``metadata.google.internal``,
  ``fd00:ec2::254``, ECS's ``169.254.170.2``): a request for the instance role's credentials
  or an access token reads a credential (like ``cat ~/.aws/credentials``); other metadata
  paths and the IMDSv2 session token (``/latest/api/token``) pass.

Every check is keyed by program name (:data:`EXFIL_NAMES`): other programs cost one lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._flow import Flow
from ._paths import norm_path
from ._values import NO_TAINT, Field, Source, Taint
from ._words import DYN

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["EXFIL_NAMES", "SEARCH_MARK", "exfil_output", "found_taint", "never_sent",
           "secret_display", "secret_search", "shown_credential"]

SEARCH_MARK = " (a search for secrets)"
"""Suffix of the program label of a search-for-secrets taint source."""

_FINDS = frozenset({"find", "gfind", "bfs"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep", "pt",
                    "ugrep", "ripgrep"})
_RECURSIVE_GREPS = frozenset({"rg", "ag", "ack", "ack-grep", "pt", "ripgrep"})
_LOCATES = frozenset({"locate", "plocate", "mlocate", "slocate"})
_FDS = frozenset({"fd", "fdfind"})
SEARCHERS = _FINDS | _GREPS | _LOCATES | _FDS

# Programs that print the contents of the files named in their arguments.
_READERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat",
                      "strings", "xxd", "od", "hexdump", "hd", "base64", "base32", "nl", "cp",
                      "scp", "tar", "zip", "7z", "gzip", "bzip2", "xz", "zstd", "paste", "sed",
                      "awk", "gawk", "mawk", "openssl", "column", "sort", "uniq", "jq", "yq",
                      "dd", "vim", "vi", "nano", "view", "code", "tee", "mail", "install"})
_UPLOADERS = frozenset({"gh", "glab"})
_CONTAINERS = frozenset({"docker", "podman", "nerdctl"})
_HTTP = frozenset({"curl", "wget", "http", "https", "xh", "httpie", "fetch", "aria2c"})
_KEYCHAINS = frozenset({"security", "secret-tool"})

EXFIL_NAMES = SEARCHERS | _READERS | _UPLOADERS | _CONTAINERS | _HTTP | _KEYCHAINS
"""Programs :func:`exfil_output` looks at (any other program: nothing to do)."""

# Roots whose search covers a user's secrets: a home, the filesystem, system config.
_WIDE_ROOTS = frozenset({"/", "~", "/root", "/home", "/Users", "/etc", "/var", "/opt", "/srv",
                         "/mnt", "/media", "/run", "/private", "/Volumes", "/data"})
# Directories that hold nothing but credentials: any search inside them finds secrets.
_SECRET_DIRS = frozenset({"~/.ssh", "~/.aws", "~/.gnupg", "~/.kube", "~/.docker",
                          "~/.password-store", "/run/secrets", "/var/run/secrets",
                          "~/.config/gcloud", "~/.azure", "~/.config/gh"})
# Fragments of a file name pattern that looks for secrets (lowercased, glob characters kept).
_NAME_FRAGMENTS = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".pem", ".key", ".p12",
                   ".pfx", ".ppk", ".jks", ".keystore", ".kdbx", "credential", "netrc",
                   "pgpass", ".env", "secret", "token", "passw", "shadow", ".npmrc", ".pypirc",
                   "kubeconfig", ".kube", ".aws", ".ssh/", ".gnupg", "wallet", "history",
                   "private", ".vault", "htpasswd", "keyring", "keychain", "login data",
                   "cookies", "key4.db", "logins.json", ".boto", ".s3cfg", "tfstate")
# Fragments of a content regex that looks for credentials (case kept for the key prefixes).
_REGEX_FRAGMENTS = ("AKIA", "ASIA", "ghp_", "gho_", "ghs_", "ghu_", "github_pat", "glpat",
                    "xox", "sk-", "sk_live", "rk_live", "AIza", "PRIVATE KEY", "BEGIN RSA",
                    "BEGIN OPENSSH", "BEGIN EC", "BEGIN DSA", "BEGIN PGP", "npm_")
_REGEX_WORDS = ("aws_secret", "aws_access", "secret_access", "password", "passwd", "api_key",
                "apikey", "api-key", "secret", "token", "bearer", "private_key", "client_secret")
_SECRET_EXTS = frozenset({"pem", "key", "p12", "pfx", "ppk", "jks", "kdbx", "env", "keystore",
                          "asc", "gpg", "tfstate"})


def _secret_name(pattern: str) -> bool:
    low = pattern.lower()
    if low.endswith((".pub", ".pub*", "known_hosts", "authorized_keys")):
        return False
    if low.lstrip("*./").startswith("id_"):
        return True
    return any(frag in low for frag in _NAME_FRAGMENTS)


def _secret_regex(pattern: str) -> bool:
    if any(frag in pattern for frag in _REGEX_FRAGMENTS):
        return True
    low = pattern.lower()
    return any(word in low for word in _REGEX_WORDS)


def _root_kind(text: str, cwd: str | None) -> str | None:
    """``"wide"`` for a home or system root, ``"secret"`` for a credential directory."""
    path = norm_path(text.rstrip("/") or "/", cwd)
    if path is None:
        return None
    if path in _SECRET_DIRS or (path.startswith(("/root/", "/home/", "/Users/")) and
                                "/" + path.split("/", 3)[-1] in (
                                    "/.ssh", "/.aws", "/.gnupg", "/.kube", "/.docker")):
        return "secret"
    if path in _WIDE_ROOTS or (path.startswith(("/home/", "/Users/")) and path.count("/") == 2):
        return "wide"
    return None


_FIND_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                         "-regex", "-iregex", "-lname", "-ilname"})


def _find_search(args: list[Field], cwd: str | None) -> bool:
    roots: list[str] = []
    i = 0
    while i < len(args) and not args[i].text.startswith(("-", "(", "!")):
        roots.append(args[i].text)
        i += 1
    kinds = {_root_kind(r, cwd) for r in roots or ["."]}
    if kinds == {None}:
        return False
    patterns: list[str] = []
    negated = False
    while i < len(args):
        t = args[i].text
        if t in ("-not", "!"):
            negated = True
        elif t in ("-exec", "-execdir", "-ok", "-okdir"):
            while i < len(args) and args[i].text not in (";", "+"):
                i += 1
        elif t in _FIND_TESTS and i + 1 < len(args):
            if not negated:
                patterns.append(args[i + 1].text)
            i += 1
            negated = False
        else:
            negated = False
        i += 1
    if any(_secret_name(p) for p in patterns):
        return True
    # Inside ~/.ssh, ~/.aws...: every file is a credential unless the search names only
    # public material (*.pub, known_hosts).
    return "secret" in kinds and not (patterns and all(
        p.lower().endswith((".pub", "known_hosts", "authorized_keys", "config"))
        for p in patterns))


# Short options that take a value: grep's, and the recursive searchers' (rg -g GLOB, -E ENC).
_GREP_VALUE_SHORT = "efmABCdD"
_RG_VALUE_SHORT = "efmABCgtTEMjr"
_GREP_VALUE_LONG = frozenset({"--regexp", "--file", "--include", "--exclude", "--exclude-dir",
                              "--glob", "--iglob", "--type", "--type-not", "--max-count",
                              "--context", "--after-context", "--before-context",
                              "--max-depth", "--encoding", "--ignore-file", "--pre",
                              "--pre-glob", "--replace", "--sort", "--sortr", "--threads",
                              "--max-filesize", "--type-add", "--devices", "--directories",
                              "--binary-files", "--label", "--color", "--colors"})
_GREP_NAME_OPTIONS = frozenset({"--include", "--glob", "--iglob", "-g"})


def _grep_search(name: str, args: list[Field], cwd: str | None) -> bool:
    recursive = name in _RECURSIVE_GREPS
    regexes: list[str] = []
    names: list[str] = []
    operands: list[str] = []
    i = 0
    ended = False
    while i < len(args):
        t = args[i].text
        nxt = args[i + 1].text if i + 1 < len(args) else ""
        if ended or not t.startswith("-") or t == "-":
            operands.append(t)
        elif t == "--":
            ended = True
        elif t.startswith("--"):
            opt, eq, val = t.partition("=")
            if opt in ("--recursive", "--dereference-recursive") or t == "--directories=recurse":
                recursive = True
            if opt in _GREP_VALUE_LONG and not eq:
                val = nxt
                i += 1
            if opt in ("--regexp",):
                regexes.append(val)
            elif opt in _GREP_NAME_OPTIONS:
                names.append(val)
        else:
            for k in range(1, len(t)):
                c = t[k]
                if c in "rR" and (name not in _RECURSIVE_GREPS or c == "R"):
                    recursive = True
                if c in (_RG_VALUE_SHORT if name in _RECURSIVE_GREPS else _GREP_VALUE_SHORT):
                    val = t[k + 1:]
                    if not val:
                        val = nxt
                        i += 1
                    if c == "e":
                        regexes.append(val)
                    elif c == "g":
                        names.append(val)
                    break
        i += 1
    if not regexes and operands:
        regexes.append(operands.pop(0))
    if not recursive or not operands:
        return False  # no path: the working directory (or stdin), not a home or /
    if not any(_root_kind(r, cwd) is not None for r in operands):
        return False
    return any(_secret_regex(r) for r in regexes) or any(_secret_name(n) for n in names)


def _fd_search(args: list[Field], cwd: str | None) -> bool:
    operands: list[str] = []
    secret = False
    i = 0
    while i < len(args):
        t = args[i].text
        if t in ("-e", "--extension") and i + 1 < len(args):
            secret = secret or args[i + 1].text.lstrip(".").lower() in _SECRET_EXTS
            i += 2
            continue
        if t.startswith("--extension="):
            secret = secret or t.partition("=")[2].lstrip(".").lower() in _SECRET_EXTS
        elif t in ("-t", "--type", "-d", "--max-depth", "-E", "--exclude", "-x", "--exec",
                   "-X", "--exec-batch", "-S", "--size", "-j", "--threads", "-c", "--color"):
            if t in ("-x", "--exec", "-X", "--exec-batch"):
                break
            i += 1
        elif not t.startswith("-"):
            operands.append(t)
        i += 1
    if operands:
        secret = secret or _secret_name(operands[0])
        operands = operands[1:]
    return secret and any(_root_kind(r, cwd) is not None for r in operands)


def secret_search(name: str, args: list[Field], cwd: str | None) -> bool:
    """``name args`` searches a home, ``/`` or a credential directory for secrets."""
    if name in _FINDS:
        return _find_search(args, cwd)
    if name in _GREPS:
        return _grep_search(name, args, cwd)
    if name in _LOCATES:  # the whole filesystem's file names
        return any(_secret_name(f.text) for f in args if not f.text.startswith("-"))
    if name in _FDS:
        return _fd_search(args, cwd)
    return False


def found_taint(inv: Invocation, cwd: str | None) -> Taint:
    """The taint of ``{}`` in ``find ... -exec CMD {}``: secret when find searches for them."""
    if not _find_search(inv.args, cwd):
        return NO_TAINT
    return frozenset({Source("secret", inv.name + SEARCH_MARK, inv.word.span)})


def _searched(taint: Taint) -> Source | None:
    return next((s for s in taint if s.kind == "secret" and s.program.endswith(SEARCH_MARK)),
                None)


def exfil_output(run: Run, inv: Invocation, stdin: Flow | None) -> Taint:
    """Findings for ``inv`` and the secret taint its output carries (see the module doc)."""
    name = inv.name
    if name in _READERS:
        return _read_found(run, inv, stdin)
    span = run.map_span(inv.word.span)
    if name in SEARCHERS and secret_search(name, inv.args, run.cwd):
        src = Source("secret", name + SEARCH_MARK, span)
        if name in _FDS:
            _fd_exec(run, inv, src)
        return frozenset({src})
    if name in _UPLOADERS:
        _upload(run, inv, stdin)
    elif name in _CONTAINERS:
        return _container(run, inv, span)
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
# cloud keys, the kubeconfig's client keys) by (program, subcommand word). Secret-manager
# reads (aws secretsmanager, vault kv get, pass show, kubectl get secret...) fetch secrets an
# agent uses for its task: they only taint. docker-credential-*, security and secret-tool
# are added by exfil_output.
_SHOWN_CREDENTIALS = frozenset({("git", "credential"), ("gh", "auth"), ("glab", "auth"),
                                ("aws", "configure"), ("gcloud", "auth"), ("az", "account"),
                                ("kubectl", "config"), ("heroku", "auth:token"),
                                ("vault", "print")})


def shown_credential(name: str, texts: list[str]) -> bool:
    """``name texts`` (a secret printer) prints a login credential, not a stored secret."""
    if name.startswith("docker-credential-"):
        return True
    sub = next((t for t in texts if not t.startswith("-")), "")
    return (name, sub) in _SHOWN_CREDENTIALS


def secret_display(run: Run, out: Flow) -> None:
    """The command's output holds a stored password or token a printer fetched that no
    program read from a pipe (``run.printed`` loses what a program reads): it lands in the
    agent's transcript and logs (``git credential fill``, ``security find-generic-password
    -w``, ``gh auth token``). ``$(gh auth token)`` in a value, ``> file`` and ``aws ecr
    get-login-password | docker login ...`` stay quiet."""
    src = next((s for s in out.taint if s in run.printed), None)
    if src is not None:
        run.add("shell.secret-display", src.span, f"{src.program} prints a stored password "
                "or token to the terminal, where it lands in the transcript and logs", None)


def _fd_exec(run: Run, inv: Invocation, src: Source) -> None:
    """``fd -e pem . ~ -x cat``: fd runs the command on every file it found."""
    from ._resolve import program_name
    from ._rules import NETWORK_SENDERS

    args = inv.args
    for k, f in enumerate(args[:-1]):
        if f.text in ("-x", "--exec", "-X", "--exec-batch"):
            tool = program_name(args[k + 1].text)
            detail = f"{src.describe()} reaches {run._desc(tool, args[k + 1].span)}"
            if tool in NETWORK_SENDERS:
                run.add("shell.exfiltration", args[k + 1].span, f"{tool} sends the files a "
                        "search for secrets found", detail)
            elif tool in _READERS:
                run.add("shell.sensitive-read", args[k + 1].span, f"{tool} reads the files a "
                        "search for secrets found", detail)
            return


def _read_found(run: Run, inv: Invocation, stdin: Flow | None) -> Taint:
    """A reader of files a search for secrets found: ``cat {}``, ``cat $(find ...)``,
    ``find ... | xargs cat``."""
    src = None
    for f in inv.args:
        if f.taint and not f.text.startswith("-"):
            src = src or _searched(f.taint)
    if src is None and inv.from_stdin and stdin is not None:
        src = _searched(stdin.taint)
    if src is None:
        return NO_TAINT
    run.add("shell.sensitive-read", inv.word.span, f"{inv.name} reads the files a search for "
            "secrets found", f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")
    return frozenset({src})


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
                i += 1
        else:
            operands += 1
            if lead is not None and operands > 2 + lead:
                files.append(f)
        i += 1
    if gist_public and operands == 2 and stdin is not None:
        files.append(Field("-", inv.word.span))  # gh gist create with no file reads stdin
    _send_files(run, inv, files, stdin)


def _send_files(run: Run, inv: Invocation, files: list[Field], stdin: Flow | None) -> None:
    from ._secrets import secret_file  # late: _secrets imports the rules tables

    for f in files:
        taint = f.taint
        if f.text in ("-", "/dev/stdin", "/dev/fd/0") and stdin is not None:
            taint = taint | stdin.taint
        path = norm_path(f.text, run.cwd) if DYN not in f.text else None
        secret = next((s for s in taint if s.kind == "secret"), None)
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


_METADATA_HOSTS = ("169.254.169.254", "metadata.google.internal", "fd00:ec2::254",
                   "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "a9fe:a9fe",
                   "metadata.goog", "100.100.100.200")
_CREDENTIAL_PATHS = ("/security-credentials", "/identity/oauth2/token", "/token",
                     "/identity?", "/identity-credentials", "/ram/security-credentials")


def _metadata(run: Run, inv: Invocation) -> None:
    """A request for the instance role's credentials or a token from cloud metadata."""
    for f in inv.args:
        t = f.text
        if "169.254.170.2" in t:  # ECS task credentials: the only thing it serves but /v4
            rest = t.split("169.254.170.2", 1)[1]
            hit = rest.startswith(("/v2/credentials", DYN, "/" + DYN))
        elif any(h in t for h in _METADATA_HOSTS):
            path = t.split("?", 1)[0] if "/identity?" not in t else t
            hit = any(p in path for p in _CREDENTIAL_PATHS) and "/latest/api/token" not in t
        else:
            continue
        if hit:
            run.add("shell.sensitive-read", f.span, f"{inv.name} asks the cloud metadata "
                    "service for credentials (the instance role's keys or an access token)",
                    None)
            return
