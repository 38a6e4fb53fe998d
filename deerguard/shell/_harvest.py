"""Searches for secrets: ``find ~ -name 'id_*'``, ``grep -rhoE 'AKIA[0-9A-Z]{16}' ~``,
``locate .pem``, ``rg -g '.env' PATTERN /home``, ``fd -e pem . ~``.

A search over a home directory or ``/`` (or anywhere inside a credential directory such as
``~/.ssh``) whose name pattern or regex looks for keys, credentials or tokens finds secrets at
run time, where the sensitive-path rules cannot see them. Its output is secret data (tainted:
it blocks when it reaches a network tool), and so is the ``{}`` that ``-exec`` hands a command;
a program that reads the files such a search found (``-exec cat {} +``, ``cat $(find ...)``,
``| xargs cat``, ``fd ... -x cat``) reads secrets, like ``cat ~/.ssh/id_rsa``. A search of the
working directory, or for other names, is ordinary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._credpaths import store_home
from ._findargs import find_roots
from ._flow import Flow
from ._grepargs import read_grep
from ._paths import norm_path
from ._projsecrets import project_found, project_read
from ._secrets import home_form
from ._values import Field, Source, Taint, source_order

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["FDS", "READERS", "SEARCHERS", "SEARCH_MARK", "SECRET_DIRS", "fd_exec", "found_taint",
           "read_found", "secret_regex", "secret_search"]

SEARCH_MARK = " (a search for secrets)"
"""Suffix of the program label of a search-for-secrets taint source."""

_FINDS = frozenset({"find", "gfind", "bfs"})
_GREPS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep", "pt",
                    "ugrep", "ripgrep"})
_LOCATES = frozenset({"locate", "plocate", "mlocate", "slocate"})
FDS = frozenset({"fd", "fdfind"})
# Listers print the names they are given or find in a directory: `ls ~/.ssh/id_*` lists keys.
_LISTERS = frozenset({"ls", "dir", "vdir", "exa", "eza", "lsd", "tree"})
SEARCHERS = _FINDS | _GREPS | _LOCATES | FDS | _LISTERS

# Programs that print the contents of the files named in their arguments.
READERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat",
                      "strings", "xxd", "od", "hexdump", "hd", "base64", "base32", "nl", "cp",
                      "scp", "tar", "zip", "7z", "gzip", "bzip2", "xz", "zstd", "paste", "sed",
                      "awk", "gawk", "mawk", "openssl", "column", "sort", "uniq", "jq", "yq",
                      "dd", "vim", "vi", "nano", "view", "code", "tee", "mail", "install"})
_WIDE_ROOTS = frozenset({"/", "~", "/root", "/home", "/Users", "/etc", "/var", "/opt", "/srv",
                         "/mnt", "/media", "/run", "/private", "/Volumes", "/data"})
# Directories that hold nothing but credentials: any search inside them finds secrets.
SECRET_DIRS = frozenset({"~/.ssh", "~/.aws", "~/.gnupg", "~/.kube", "~/.docker",
                          "~/.password-store", "/run/secrets", "/var/run/secrets",
                          "~/.config/gcloud", "~/.azure", "~/.config/gh"})
# Fragments of a file name pattern that looks for secrets (lowercased, glob characters kept).
_NAME_FRAGMENTS = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".pem", ".key", ".p12",
                   ".pfx", ".ppk", ".jks", ".keystore", ".kdbx", "credential", "netrc",
                   "pgpass", ".env", "secret", "token", "passw", "shadow", ".npmrc", ".pypirc",
                   "kubeconfig", ".kube", ".aws", ".ssh/", ".gnupg", "wallet", "history",
                   "private", ".vault", "htpasswd", "keyring", "keychain", "login data",
                   "cookies", "key4.db", "logins.json", ".boto", ".s3cfg", "tfstate",
                   # browsers' and apps' token stores (Slack, Discord: leveldb .ldb files)
                   "leveldb", ".ldb", "local storage", "state.vscdb", "tdata", "web data")
# Fragments of a content regex that looks for credentials (case kept for the key prefixes).
_REGEX_FRAGMENTS = ("AKIA", "ASIA", "ghp_", "gho_", "ghs_", "ghu_", "github_pat", "glpat",
                    "xox", "sk-", "sk_live", "rk_live", "AIza", "PRIVATE KEY", "BEGIN RSA",
                    "BEGIN OPENSSH", "BEGIN EC", "BEGIN DSA", "BEGIN PGP", "npm_")
_REGEX_WORDS = ("aws_secret", "aws_access", "secret_access", "password", "passwd", "api_key",
                "apikey", "api-key", "secret", "token", "bearer", "private_key", "client_secret")
_SECRET_EXTS = frozenset({"pem", "key", "p12", "pfx", "ppk", "jks", "kdbx", "env", "keystore",
                          "asc", "gpg", "tfstate"})


def _secret_name(pattern: str) -> bool:
    low = pattern.lower().replace("tokeniz", "")  # tokenizer.json is a model file
    if low.endswith((".pub", ".pub*", "known_hosts", "authorized_keys", ".example", ".sample",
                     ".template", ".dist")):
        return False  # public keys and templates of secret files hold no secret
    if low.lstrip("*./").startswith("id_"):
        return True
    return any(frag in low for frag in _NAME_FRAGMENTS)


def secret_regex(pattern: str) -> bool:
    """``pattern`` (a content regex) looks for credentials: key prefixes or secret words."""
    if any(frag in pattern for frag in _REGEX_FRAGMENTS):
        return True
    low = pattern.lower()
    return any(word in low for word in _REGEX_WORDS)


def _root_kind(text: str, cwd: str | None) -> str | None:
    """``"wide"`` for a home or system root, ``"secret"`` for a credential directory,
    ``"store"`` for a browser's or desktop app's data folder."""
    path = norm_path(text.rstrip("/") or "/", cwd)
    if path is None:
        return None
    if path in SECRET_DIRS or (path.startswith(("/root/", "/home/", "/Users/")) and
                                "/" + path.split("/", 3)[-1] in (
                                    "/.ssh", "/.aws", "/.gnupg", "/.kube", "/.docker")):
        return "secret"
    if path in _WIDE_ROOTS or (path.startswith(("/home/", "/Users/")) and path.count("/") == 2):
        return "wide"
    # grep -r 'xox[bpc]-' ~/.config/Slack: browsers' and apps' folders hold their tokens.
    return "store" if store_home(home_form(path)) else None


_STORE_EXTS = frozenset({"sqlite", "sqlite3", "db", "ldb"})
_STORE_ENDS = (".sqlite", ".sqlite*", ".sqlite3", ".db", ".db*", ".ldb", "*")
_FIND_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                         "-regex", "-iregex", "-lname", "-ilname"})


def _find_search(args: list[Field], cwd: str | None) -> bool:
    root_fields, i = find_roots(args)
    roots = [f.text for f in root_fields]
    kinds = {_root_kind(r, cwd) for r in roots or ["."]}
    if kinds == {None}:
        return False
    patterns: list[str] = []
    negated = False
    files = False  # -type f or -exec: the files themselves, not a listing of folders
    while i < len(args):
        t = args[i].text
        if t in ("-not", "!"):
            negated = True
        elif t == "-type" and i + 1 < len(args) and args[i + 1].text == "f":
            files = True
        elif t in ("-exec", "-execdir", "-ok", "-okdir"):
            files = True
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
    # ~/.mozilla, ~/.config/google-chrome: their databases (cookies.sqlite, key4.db, Login
    # Data, leveldb .ldb) are the stores; every file of the folder includes them.
    if "store" in kinds and (any(p.lower().endswith(_STORE_ENDS) for p in patterns) or
                             (files and not patterns)):
        return True
    # Inside ~/.ssh, ~/.aws...: every file is a credential unless the search names only
    # public material (*.pub, known_hosts).
    return "secret" in kinds and not (patterns and all(
        p.lower().endswith((".pub", "known_hosts", "authorized_keys", "config"))
        for p in patterns))




def _grep_search(name: str, args: list[Field], cwd: str | None) -> bool:
    g = read_grep(name, args)
    if not g.recursive or not g.operands:
        return False  # no path: the working directory (or stdin), not a home or /
    if not any(_root_kind(r, cwd) is not None for r in g.operands):
        return False
    return any(secret_regex(r) for r in g.regexes) or any(_secret_name(n) for n in g.names)


def _fd_search(args: list[Field], cwd: str | None) -> bool:
    operands: list[str] = []
    secret = False
    i = 0
    while i < len(args):
        t = args[i].text
        if t in ("-e", "--extension") and i + 1 < len(args):
            ext = args[i + 1].text.lstrip(".").lower()
            secret = secret or ext in _SECRET_EXTS or (
                ext in _STORE_EXTS and any(_root_kind(r.text, cwd) == "store" for r in args))
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
        store = operands[0].lower().endswith(_STORE_ENDS[:-1])  # fd -g '*.sqlite' ~/.mozilla
        operands = operands[1:]
        if store and any(_root_kind(r, cwd) == "store" for r in operands):
            return True
    return secret and any(_root_kind(r, cwd) is not None for r in operands)


def secret_search(name: str, args: list[Field], cwd: str | None) -> bool:
    """``name args`` searches a home, ``/`` or a credential directory for secrets."""
    if name in _FINDS:
        return _find_search(args, cwd)
    if name in _GREPS:
        return _grep_search(name, args, cwd)
    if name in _LOCATES:  # the whole filesystem's file names
        return any(_secret_name(f.text) for f in args if not f.text.startswith("-"))
    if name in FDS:
        return _fd_search(args, cwd)
    if name in _LISTERS:
        return _list_search(args, cwd)
    return False


_PUBLIC = (".pub", "known_hosts", "authorized_keys", "config")


def _list_search(args: list[Field], cwd: str | None) -> bool:
    """``ls ~/.ssh``, ``ls ~/.ssh/id_*``, ``ls ~/*.pem``: a listing of a credential directory
    (but for its public files) or of secret names in a home or root lists secrets' paths."""
    for f in args:
        text = f.text
        if not text or text.startswith("-"):
            continue
        if _root_kind(text, cwd) == "secret":
            return True  # ls ~/.ssh: every entry is a credential file
        head, slash, last = text.rstrip("/").rpartition("/")
        if not slash:
            continue
        kind = _root_kind(head or "/", cwd)
        if (kind == "secret" and not last.lower().endswith(_PUBLIC)) or (
                kind is not None and _secret_name(last)):
            return True
    return False


def found_taint(inv: Invocation, cwd: str | None) -> Taint:
    """The taint of ``{}`` in ``find ... -exec CMD {}``: secret when find searches for them."""
    if not _find_search(inv.args, cwd):
        return project_found(inv)  # find . -name .env -exec cat {} +
    return frozenset({Source("secret", inv.name + SEARCH_MARK, inv.word.span)})


def _searched(taint: Taint) -> Source | None:
    return min((s for s in taint if s.kind == "secret" and s.program.endswith(SEARCH_MARK)),
               key=source_order, default=None)


def fd_exec(run: Run, inv: Invocation, src: Source) -> None:
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
            elif tool in READERS:
                run.add("shell.sensitive-read", args[k + 1].span, f"{tool} reads the files a "
                        "search for secrets found", detail)
            return


def read_found(run: Run, inv: Invocation, stdin: Flow | None) -> Taint:
    """A reader of files a search for secrets found: ``cat {}``, ``cat $(find ...)``,
    ``find ... | xargs cat``."""
    src = None
    for f in inv.args:
        if f.taint and not f.text.startswith("-"):
            src = src or _searched(f.taint)
    if src is None and inv.from_stdin and stdin is not None:
        src = _searched(stdin.taint)
    if src is None:
        return project_read(run, inv, stdin)  # find . -name .env | xargs cat
    run.add("shell.sensitive-read", inv.word.span, f"{inv.name} reads the files a search for "
            "secrets found", f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}")
    return frozenset({src})
