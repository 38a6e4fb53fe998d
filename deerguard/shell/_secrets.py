"""Secrets that do not live in the sensitive-path lists: programs that print them, files named
like them, and which arguments of a network tool are sent as data.

``gpg --export-secret-keys`` prints private key material (a secret read); ``gh auth token``,
``aws configure get aws_secret_access_key``, ``history`` print secrets an agent may use
locally, so their output is only *tainted* as a secret and blocks when it reaches a network
tool. Files such as ``.env`` or a shell history are secret wherever they are. A credential
given to a network tool as an auth header or option is how it authenticates, not a leak.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _rules as R
from ._credpaths import store_home
from ._dests import copy_dests
from ._paths import norm_path
from ._resolve import Invocation
from ._words import Field, Source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["AGENT_HOMES", "AUTH_FILE_TOOLS", "BULK_READERS", "COPY_READERS", "HTTP_CLIENTS",
           "LOGIN_FILE_TOOLS", "PRINTER_NAMES", "SECRET_HOMES", "SHOWING_FILTERS", "auth_files",
           "bulk_secret_source", "copied_sources", "home_form", "login_tool_args", "secret_file",
           "secret_printer", "sent_args", "socat_paths", "store_copy"]

_PRINTERS: dict[str, list[tuple[tuple[str, ...], bool]]] = {}
for _name, _words, _hard in R.SECRET_PRINTERS:
    _PRINTERS.setdefault(_name, []).append((_words, _hard))
# Per program, the first word of every row (None when a row needs no word): a command
# that holds none of them prints no secret, without building a set of its arguments.
PRINTER_NAMES = frozenset(_PRINTERS)  # programs a row of R.SECRET_PRINTERS names
_FIRST_WORDS: dict[str, frozenset[str | None]] = {
    _name: frozenset(w[0] if w else None for w, _ in _rows) for _name, _rows in _PRINTERS.items()}


def secret_printer(name: str, texts: list[str]) -> bool | None:
    """None when ``name texts`` does not print a secret; else whether that alone blocks.

    ``gpg --export-secret-keys`` prints private key material (blocks); ``gh auth token``
    prints a token an agent may use locally (its output is only tainted as a secret).
    """
    rows = _PRINTERS.get(name)
    if name == "kubectl" and _kubectl_secret(texts) is not None:
        return False
    if name == "git" and _git_extraheader(texts):
        return False
    if name == "gitleaks" and any(t.startswith("--redact") for t in texts):
        return None  # findings with their secrets masked
    if rows is None or (texts and texts[-1] == "help"):
        return None  # aws iam create-access-key help: a manual page
    firsts = _FIRST_WORDS[name]
    if None not in firsts and firsts.isdisjoint(texts):
        return None
    hard: bool | None = None
    present = set(texts)
    for words, blocks in rows:
        if all(w in present for w in words):
            hard = blocks or bool(hard)
    return hard


_PKG_CONFIGS = frozenset({"npm", "pnpm", "yarn"})  # their auth settings (login_tool_args)
# npm's per-registry login settings (//registry.npmjs.org/:_authToken, _auth, _password)
# and yarn berry's npmAuthToken / npmAuthIdent.
_AUTH_KEYS = ("_authtoken", ":_auth", ":_password", "npmauthtoken", "npmauthident")


def _auth_setting(texts: list[str]) -> bool:
    """``npm config get //registry.npmjs.org/:_authToken``, ``yarn config get npmAuthToken``:
    prints a registry's login token (``npm config get registry`` prints no secret)."""
    words = [t.lower() for t in texts if t[:1] != "-"]
    if len(words) < 3 or words[0] != "config" or words[1] != "get":
        return False
    return any(w.endswith(_AUTH_KEYS) or w in ("_auth", "_authtoken", "_password")
               for w in words[2:])


_KUBE_FORMATS = ("yaml", "json", "jsonpath", "go-template", "template", "custom-columns")


def _kubectl_secret(texts: list[str]) -> bool | None:
    """``kubectl get secret X -o yaml|json|jsonpath=...`` prints the secret's data (a token
    an agent may use: tainted, blocks when it reaches a network tool)."""
    if "get" not in texts or not any(t in ("secret", "secrets") or t.startswith(
            ("secret/", "secrets/", "secret,", "secrets,")) for t in texts):
        return None
    for k, t in enumerate(texts):
        value = texts[k + 1] if t in ("-o", "--output") and k + 1 < len(texts) else (
            t[2:] if t.startswith("-o") else t[9:] if t.startswith("--output=") else "")
        if value.lstrip("=").startswith(_KUBE_FORMATS) and not _kube_plain_fields(value):
            return False
    return None


# Secret keys and fields that are not credentials: a template that names only these
# (-o jsonpath='{.data.username}', '{.metadata.name}', '{.type}') prints no secret.
_KUBE_PLAIN = frozenset({"data", "stringData", "metadata", "name", "namespace", "type",
                         "items", "username", "user", "host", "hostname", "port", "database",
                         "db", "dbname", "url", "endpoint", "creationTimestamp", "labels",
                         "annotations", "kind", "apiVersion", "uid", "range", "end"})


def _kube_plain_fields(value: str) -> bool:
    """A jsonpath or go-template that names fields, every one of them plain (above)."""
    expr = value.partition("=")[2]
    if not expr.strip() or "{" not in expr:
        return False
    expr = "".join(expr.split('"')[::2])  # {"\n"}, {"\t"}: literal text between fields
    words = "".join(c if c.isalnum() or c == "_" else " " for c in expr).split()
    return all(w in _KUBE_PLAIN for w in words) and not _KUBE_MAPS.issuperset(words)


_KUBE_MAPS = frozenset({"data", "stringData", "items", "range", "end"})  # whole maps: secret


# socat addresses naming a file: FILE:/etc/shadow, OPEN:path,rdonly, GOPEN:path.
_SOCAT_FILES = frozenset({"file", "open", "gopen", "create", "creat", "pipe", "unix-connect",
                          "unix-client"})


def socat_paths(args: list[Field]) -> list[Field]:
    """socat's arguments with each file address (``FILE:/etc/shadow,rdonly``) as its path."""
    out: list[Field] = []
    for f in args:
        head, colon, rest = f.text.partition(":")
        if colon and head.lower() in _SOCAT_FILES and rest:
            out.append(Field(rest.split(",", 1)[0], f.span, f.taint))
        else:
            out.append(f)
    return out


# Project files that hold keys or secrets wherever they are: Rails' master.key, a cloud
# service account's key, Terraform state and variables, package registries' tokens.
_SECRET_FILE_SET = frozenset(R.SECRET_FILE_NAMES) | frozenset({
    "credentials.json", "client_secret.json", "client_secrets.json", "token.json",
    "key.json", "secrets.json", "secrets.yml", "secrets.yaml", "secrets.toml", "secret.json",
    "secret.yml", "secret.yaml", ".npmrc", ".pypirc", ".dockercfg", ".htpasswd",
    ".vault-token", "kaggle.json", "kubeconfig", "kubeconfig.yaml", "admin.conf"})
# Endings of private keys and keystores, Terraform state (every resource's secrets in plain
# text) and variables, and cloud key files (service-account-prod.json, sa-key.json).
_SECRET_ENDS = (".key", ".pem", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx",
                ".tfstate", ".tfstate.backup", ".tfvars", ".tfvars.json", "-key.json",
                "_key.json", "-credentials.json", "_credentials.json")
_SECRET_STARTS = ("service-account", "service_account", ".env.")
_TEMPLATES = (".example", ".sample", ".template", ".dist", ".tmpl", ".defaults", ".enc")
# A .pem named as a certificate, chain or public key is meant to be shared.
_PUBLIC_PEM = ("cert", "chain", "pub", "crt", "csr", "bundle")


def secret_file(args: list[Field]) -> bool:
    """An argument names a file that is secret wherever it is (``.env``, a shell history,
    a repository's ``.git/config``, where CI checkouts keep the job's token, a private key
    ``server.key``, ``terraform.tfstate``, a service account's ``credentials.json``)."""
    for f in args:
        text = f.text.partition("=")[2] if f.text.startswith(("--", "if=")) else f.text
        if ":" in text:
            head, _, rest = text.partition(":")
            if head.lower() in _SOCAT_FILES:  # socat FILE:.env,rdonly; file://.env
                text = rest.split(",", 1)[0]
            elif _remote(head, rest):
                continue  # https://x/ca.pem, s3://b/terraform.tfstate, host:.env: not read
        if ";" in text:  # curl -F 'f=@.env;type=text/plain'
            text = text.split(";", 1)[0]
        base = text.rsplit("/", 1)[-1].rsplit("@", 1)[-1]  # --post-file=.env, -d @.env
        if "<" in base:  # curl -F 'f=<.env' sends the file's text as the field
            base = base.rpartition("<")[2]
        if base in _SECRET_FILE_SET or (base == "config" and _git_config(text)) or (
                base.endswith(_SECRET_ENDS) or base.startswith(_SECRET_STARTS)) and \
                _secret_name(base):
            return True
    return False


def _remote(head: str, rest: str) -> bool:
    """``HEAD:REST`` is a URL or a remote copy's ``[user@]host:path`` / ``remote:path`` (not
    ``fileb://``): the file it names is on another machine, so no local secret is read."""
    if rest.startswith("//"):
        return head.lower() != "fileb"
    return len(head) > 1 and head[0] not in "-@" and not any(c in head for c in "/=;<\\")


def _secret_name(base: str) -> bool:
    """``base`` (already ending or starting like a secret) is not a template or a
    certificate: ``.env.example``, ``fullchain.pem``, ``service-account.json.sample``."""
    low = base.lower()
    if low.endswith(_TEMPLATES) or any(t + "." in low for t in _TEMPLATES):
        return False
    if low.endswith(".json") and low.startswith(_SECRET_STARTS[:2]):
        return True
    if low.startswith(_SECRET_STARTS):
        return low.startswith(".env.")
    return not low.endswith(".pem") or "key" in low or not any(p in low for p in _PUBLIC_PEM)


# Options whose file a network tool authenticates with (a client key, a CA bundle, ssh's
# identity file and options, rsync's remote shell): it proves who the tool is to the host
# it is given, like -H "Authorization: ..." (see sent_args); the file is not sent out.
_AUTH_FILE_OPTIONS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("curl",), frozenset({
        "--cert", "-E", "--key", "--cacert", "--capath", "--proxy-cert", "--proxy-key",
        "--proxy-cacert", "--proxy-capath", "--crlfile", "--pinnedpubkey", "--netrc-file"})),
    "wget": frozenset({"--certificate", "--private-key", "--ca-certificate", "--ca-directory",
                       "--crl-file"}),
    **dict.fromkeys(("http", "https", "xh", "httpie"), frozenset({"--cert", "--cert-key",
                                                                  "--verify"})),
    **dict.fromkeys(("scp", "sftp", "ssh"), frozenset({"-i", "-F", "-o"})),
    "rsync": frozenset({"-e", "--rsh"}),
    **dict.fromkeys(("ncat", "nc"), frozenset({"--ssl-cert", "--ssl-key", "--ssl-trustfile"})),
    "openssl": frozenset({"-cert", "-key", "-CAfile", "-CApath", "-pass", "-cert_chain"}),
    # The account's own secret and certificate stores keep what they are given (aws acm
    # import-certificate --private-key fileb://server.key, secretsmanager --secret-string).
    "aws": frozenset({"--ca-bundle", "--private-key", "--certificate", "--certificate-chain",
                      "--certificate-body", "--secret-string", "--secret-binary",
                      "--plaintext"}),
}
AUTH_FILE_TOOLS = frozenset(_AUTH_FILE_OPTIONS)


def auth_files(name: str, texts: list[str]) -> frozenset[int]:
    """The words of ``name``'s options that name a file it authenticates with
    (``curl --key client.key``, ``scp -i deploy.pem``, ``rsync -e 'ssh -i k.pem'``)."""
    opts = _AUTH_FILE_OPTIONS.get(name)
    if opts is None or (name == "aws" and any(t.startswith("--endpoint-url") for t in texts)):
        return frozenset()  # (another endpoint is not the account's own store)
    out: set[int] = set()
    for k, t in enumerate(texts):
        if t in opts:
            out.add(k + 1)
        elif t[:1] == "-" and (t.split("=", 1)[0] in opts or (
                t[1:2] != "-" and len(t) > 2 and t[:2] in opts and name != "openssl")):
            out.add(k)  # --cert=client.pem, -ikey.pem
    return frozenset(out)


# Options naming the credential file a tool logs in or decrypts with, as it would read its
# default one (curl --netrc-file ~/.netrc like curl --netrc, mvn -s ~/.m2/settings.xml,
# twine --config-file ~/.pypirc, ansible --vault-password-file): the tool uses it, nothing
# is shown or sent. (ssh and git are metadata-only programs already; aws's options keep
# what they are given in the account, so they stay read.)
_ANSIBLE = frozenset({"--vault-password-file", "--vault-pass-file", "--vault-id"})
_LOGIN_FILE_OPTIONS: dict[str, frozenset[str]] = {
    **{n: o for n, o in _AUTH_FILE_OPTIONS.items() if n != "aws"},
    **dict.fromkeys(("mvn", "mvnw", "mvnDebug"), frozenset({
        "-s", "--settings", "-gs", "--global-settings"})),
    "twine": frozenset({"--config-file"}),
    **dict.fromkeys(("npm", "pnpm", "npx", "yarn"), frozenset({"--userconfig",
                                                                "--globalconfig"})),
    "s3cmd": frozenset({"-c", "--config"}),
    "gcloud": frozenset({"--key-file", "--cred-file"}),  # gcloud auth activate-service-account
    **dict.fromkeys(("age", "rage"), frozenset({"-i", "--identity"})),  # age -d -i KEY F
    **dict.fromkeys(("ansible", "ansible-playbook", "ansible-vault", "ansible-pull",
                     "ansible-inventory", "ansible-console"), _ANSIBLE),
}
LOGIN_FILE_TOOLS = frozenset(_LOGIN_FILE_OPTIONS)
"""Tools that log in with a credential file named by an option (:func:`login_file_args`);
npm, pnpm and yarn also print their registry tokens (:func:`login_tool_args`)."""


def login_tool_args(run: Run, inv: Invocation, args: list[Field]) -> tuple[list[Field], bool]:
    """(the words of a login tool that name files it reads, whether it prints a login token).

    ``npm config get //registry.npmjs.org/:_authToken`` prints the registry's token: its
    output is secret (a pipe to a network tool blocks) and, left on the terminal, shown
    (``shell.secret-display``, like ``gh auth token``). Kept off the secret-printer table so
    that everyday npm commands stay on the cheap output path."""
    name = inv.name
    opts = _LOGIN_FILE_OPTIONS.get(name, frozenset())
    options = config = False
    for f in args:  # one pass, no list: npm install, curl -s URL stay cheap
        t = f.text
        if t[:1] == "-":
            # One of the tool's login-file options (--netrc-file F, -iKEY, --key=F): the
            # precise reading is login_file_args'; any other option needs none.
            options = options or t in opts or t.partition("=")[0] in opts or t[:2] in opts
        elif t == "config":
            config = True
    printed = config and name in _PKG_CONFIGS and _auth_setting([f.text for f in args])
    if printed:
        run.printed.add(Source("secret", name, run.map_span(inv.word.span)))
    return (login_file_args(name, args) if options else args), printed


def login_file_args(name: str, args: list[Field]) -> list[Field]:
    """``args`` without the words naming a file ``name`` logs in with (``curl --netrc-file
    ~/.netrc``, ``scp -i ~/.ssh/id_rsa``, ``mvn -s ~/.m2/settings.xml``); the rest are read
    as any program's arguments are (``curl -d @~/.netrc`` still sends the file)."""
    opts = _LOGIN_FILE_OPTIONS.get(name)
    if opts is None:
        return args
    out: list[Field] = []
    skip = False
    for f in args:
        t = f.text
        if skip:
            skip = False
            continue
        if t in opts:
            skip = True
        elif not (t[:1] == "-" and (t.split("=", 1)[0] in opts or (
                t[1:2] != "-" and len(t) > 2 and t[:2] in opts and name != "openssl"))):
            out.append(f)
    return out


def _git_config(text: str) -> bool:
    path = text.rsplit("@", 1)[-1] if text.startswith("@") or "=@" in text else text
    return path == ".git/config" or path.endswith("/.git/config")


# git config forms that print values (the other forms set, unset or edit them).
_GIT_CONFIG_GETS = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "get",
                              "list", "--get-urlmatch"})


def _git_extraheader(texts: list[str]) -> bool:
    """``git config --get-regexp 'http.*extraheader'``: the auth header a CI checkout stores
    for the job's token (``http.https://github.com/.extraheader``)."""
    return "config" in texts and not _GIT_CONFIG_GETS.isdisjoint(texts) and any(
        "extraheader" in t.lower() for t in texts)


HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "httpie"})
_AUTH_OPTIONS = frozenset({"-H", "--header", "-u", "--user", "--oauth2-bearer", "--proxy-user",
                           "-U", "--password", "--http-password", "--ftp-password",
                           "--proxy-password", "-a", "--auth", "-A"})


# Short options of curl that take no value (-s -S -f -L -k -v...), which may come first in a
# cluster whose last option is the header or credential option: ``-su USER:KEY``. curl's
# only: in nc, telnet or ssh ``-u``/``-H`` are no credential (``nc -vu HOST`` sends HOST).
_FLAG_LETTERS = frozenset("sSfLkvgGiIjJlMnNqRZ0123456#")


def _cluster_auth(t: str) -> int:
    """The index of ``-H`` or ``-u`` in a short option cluster of value-less flags
    (``-fsSu`` -> 4), or 0 when the cluster holds neither."""
    k = 1
    while k < len(t) and t[k] in _FLAG_LETTERS:
        k += 1
    return k if k < len(t) and t[k] in "Hu" else 0


def sent_args(args: list[Field], *, curl: bool = False) -> list[Field]:
    """Arguments a network tool sends as data: a credential given as an auth header or
    option (``-H "Authorization: Bearer $TOKEN"``, ``-u user:$PASSWORD``) is how the tool
    authenticates to the URL it is given, not a leak; bodies, uploads and URLs are sent.
    Secret *data* in a header or credential option (``-H "X: $(cat .env)"``) is sent all
    the same: :func:`._hdrdata.header_data` adds it."""
    out: list[Field] = []
    skip = False
    for f in args:
        t = f.text
        if skip:
            skip = False
            continue
        opt = t.split("=", 1)[0]
        if opt in _AUTH_OPTIONS:
            skip = "=" not in t
            continue
        if t.startswith("-") and not t.startswith("--") and len(t) > 2 and t[1] in "Hu":
            continue  # -H'X: y' attached
        if curl and len(t) > 2 and t[0] == "-" and t[1] in _FLAG_LETTERS:
            at = _cluster_auth(t)
            if at:  # -su USER:KEY, -fsSH 'X-Key: v', -sH'X: y'
                skip = at == len(t) - 1
                continue
        head = t.split(":", 1)[0]
        if ":" in t and head and head.replace("-", "").isalpha() and not t.startswith("-") \
                and "://" not in t and head.lower() in ("authorization", "x-api-key",
                                                        "private-token", "api-key"):
            continue  # httpie / xh header item: Authorization:Bearer\ $TOKEN
        out.append(f)
    return out


SHOWING_FILTERS = frozenset({"cat", "base64", "base32", "basenc", "jq", "yq", "gojq", "jaq",
                             "tr", "cut", "head", "tail", "sed", "gsed", "awk", "gawk", "mawk",
                             "grep", "egrep", "fgrep", "rg", "sort", "uniq", "tee", "xxd", "od",
                             "rev", "fold", "column", "less", "more", "bat", "batcat", "nl"})
"""Filters that print what they read: a credential piped through one (``kubectl get secret x
-o jsonpath=... | base64 -d``, ``op read ... | jq -r .``) is still shown on the terminal,
unless what they print is itself captured, piped on or written to a file."""

COPY_READERS = frozenset({"cp", "mv", "install", "gcp", "gmv", "ginstall"})


def copied_sources(inv: Invocation) -> list[Field]:
    """The files a local copy reads: its sources, not its destination (``cp kaggle.json
    ~/.kaggle/`` writes a login token, which the write checks judge; ``cp CLAUDE.md
    ~/.claude/`` names a credential folder only as the place it writes). Without ``-t``
    the last word is the destination (options before it name no file)."""
    args = inv.args
    if any(f.text[:1] == "-" and ("t" in f.text if f.text[1:2] != "-" else
                                  f.text.startswith("--target")) for f in args):
        return copy_dests(inv)[1]
    return args[:-1]


BULK_READERS = frozenset({"tar", "bsdtar", "gtar", "zip", "7z", "7za", "cpio", "rsync", "scp",
                           "sftp", "rclone", "gsutil", "s3cmd", "aws", "restic", "borg"})
SECRET_HOMES = frozenset({"/", "~", "/root", "/etc", "/home", "/Users", "~/.config",
                           "/var/run/secrets", "/run/secrets", "~/.local/share"})
"""Folders that hold secrets among much else: read whole, their keys go along (browser and
app data folders are :data:`._credpaths.STORE_HOMES`)."""


def bulk_secret_source(name: str, args: list[Field], cwd: str | None) -> bool:
    """An archiver or copier reading a whole directory that holds secrets (``tar cz ~``,
    ``rsync -a ~/ host:``, ``aws s3 sync /etc s3://b``): its output carries them."""
    if name not in BULK_READERS:
        return False
    texts = [f.text for f in args]
    if name in ("tar", "bsdtar", "gtar") and not any(
            t in ("-c", "--create") or (t[:1] != "-" and k == 0 and "c" in t) or (
                t.startswith("-") and not t.startswith("--") and "c" in t)
            for k, t in enumerate(texts)):
        return False
    operands = [f for f in args if not f.text.startswith("-")]
    if name in ("rsync", "scp", "sftp", "rclone", "gsutil", "s3cmd", "aws") and operands:
        operands = operands[:-1]  # the last operand is the destination
    return any(_whole_store(f.text, cwd) for f in operands)


def _whole_store(text: str, cwd: str | None) -> bool:
    """``text`` names a folder holding secrets among much else: a home, ``~/.config``, an
    agent's home, a browser profile, ``~/Library``."""
    path = norm_path(text.rstrip("/") or "/", cwd)
    if path is None:
        return False
    if path in SECRET_HOMES or (path.startswith(("/home/", "/Users/")) and path.count("/") == 2):
        return True
    home = home_form(path)
    return home in AGENT_HOMES or home in SECRET_HOMES or store_home(home)


def store_copy(inv: Invocation, cwd: str | None) -> str | None:
    """Where ``cp -r ~/.config/BraveSoftware /tmp/x`` (or ``mv``) puts a whole folder that
    holds secrets: the copy carries them (sending it later is exfiltration)."""
    texts = [f.text for f in inv.args]
    if inv.name not in ("mv", "gmv") and not any(
            t[:1] == "-" and ("r" in t or "R" in t or "a" in t) for t in texts):
        return None  # cp without -r/-R/-a copies no folder
    sources = copied_sources(inv)
    if not any(_whole_store(f.text, cwd) for f in sources if f.text[:1] != "-"):
        return None
    kept = {id(f) for f in sources}
    rest = [f.text.partition("=")[2] if f.text.startswith("--target-directory=") else f.text
            for f in inv.args if id(f) not in kept]
    rest = [t for t in rest if t and t[:1] != "-"]
    return norm_path(rest[-1], cwd) if rest else None


AGENT_HOMES = frozenset({"~/.claude", "~/.codex", "~/.gemini", "~/.config/github-copilot"})
"""Coding agents' folders: settings and transcripts an agent edits every day, and the
login token beside them. Named alone they are ordinary; archived, synced or mounted whole
they carry the token."""


def home_form(path: str) -> str:
    """``/root/.claude`` and ``/home/u/.claude`` as ``~/.claude`` (other paths unchanged)."""
    if path.startswith("/root/"):
        return "~" + path[5:]
    if path.startswith(("/home/", "/Users/")):
        user_end = path.find("/", path.index("/", 1) + 1)
        return "~" + path[user_end:] if user_end > 0 else path
    return path
