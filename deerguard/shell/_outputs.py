"""The output of a program that is not a sink: the data flow it passes on.

Fetchers and decoders are *sources*: their output carries taint through pipes, variables and
files. ``echo``/``printf`` output is computed when static (so ``$(printf 'r\\x6d')`` is
``rm``); ``pwd``, ``mktemp``, ``basename``, ``which``... give their static output too.
Everything else passes its stdin taint through (filters such as ``tr``, ``gunzip``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _rules as R
from ._checks import check_write
from ._copies import write_links
from ._embedded import decode_escapes, git_sub_index
from ._exfil import EXFIL_NAMES, exfil_output, never_sent, shown_credential
from ._fetchtools import RENDERERS, rendered
from ._files import (
    basename_output,
    download_target,
    file_taint,
    mktemp_output,
    output_words,
    track_writes,
)
from ._findargs import find_roots
from ._flow import EMPTY, Flow
from ._hdrdata import header_data
from ._hdrsecret import header_secrets
from ._histsearch import history_label, history_var
from ._jqenv import JQS, jq_files
from ._metadata import metadata_secret
from ._paths import candidate_paths, norm_path
from ._pidlists import PID_LISTERS, pid_listing
from ._printf import printf_format
from ._projdata import GIT_CODE_PRINTERS, PROJECT_PRINTERS, project_source
from ._projsecrets import project_upload
from ._resolve import Invocation
from ._secrets import (
    AUTH_FILE_TOOLS,
    BULK_READERS,
    HTTP_CLIENTS,
    PRINTER_NAMES,
    auth_files,
    bulk_secret_source,
    secret_file,
    secret_printer,
    sent_args,
)
from ._shellinit import SHELL_INIT, prints_shell_init
from ._textout import TEXT_TOOLS, text_output
from ._treeexport import TREE_ARCHIVERS, TREE_COPIERS, tree_copied, tree_sent, tree_source
from ._values import source_order
from ._winfetch import WIN_FETCHERS, win_download_targets
from ._words import DYN, NO_TAINT, Field, Source, secret_name

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["echo_output", "output"]

# openssl commands whose output comes from another machine (s_client prints what the
# server sends); rand, req, genpkey, x509, dgst... make or read local data.
_OPENSSL_REMOTE = frozenset({"s_client", "s_time", "ocsp"})


def _openssl_connects(texts: list[str]) -> bool:
    """Whether ``openssl ARGS`` reads from the network: its command connects, or the
    command is not known (``openssl $c``: fail closed)."""
    return bool(texts) and (texts[0] in _OPENSSL_REMOTE or DYN in texts[0])


# Decoders that decode whatever their options (uudecode -o F: F holds decoded data).
_ALWAYS_DECODE = frozenset({"rev", "gunzip", "zcat", "bunzip2", "unxz", "tr", "uudecode"})
_DECODE_FLAGS = frozenset({"-d", "--decode", "-D", "-r", "-revert", "--revert", "-u",
                          "--decrypt"})


def echo_output(inv: Invocation) -> Flow:
    """The output of echo, printf, true, test...: static text when known."""
    taint = frozenset().union(*(f.taint for f in inv.args)) if inv.args else NO_TAINT
    args = inv.args
    text: str | None = None
    if inv.name == "echo":
        escapes = False
        while args and args[0].text in ("-n", "-e", "-E", "-ne", "-en"):
            escapes = escapes or "e" in args[0].text
            args = args[1:]
        text = " ".join(f.text for f in args)
        if escapes:
            text = decode_escapes(text)
    elif inv.name == "printf" and args:
        text = printf_format(args[0].text, [f.text for f in args[1:]])
    elif inv.name in (":", "true", "false", "test", "["):
        text = ""  # no output: r"$(true)"m is rm
    if text is None:
        return Flow(taint, inv.name, inv.word.span) if taint else EMPTY
    return Flow(taint, inv.name, inv.word.span, text)


# Every program a branch of _named_output names: any other program's output is only its
# stdin's taint, the files it reads and a secret it reads (output's short path).
_OUTPUT_NAMED = PRINTER_NAMES | BULK_READERS | R.NETWORK_SENDERS | R.FETCHERS | R.DECODERS | \
    R.ENV_DUMPERS | frozenset({
        "kubectl", "export", "declare", "printenv", "pwd", "mktemp", "git", "basename",
        "dirname", "which", "command", "type", "whence", "find", "scp", "rsync", "sftp", "cat",
        "tee"}) | TEXT_TOOLS | WIN_FETCHERS


def output(run: Run, inv: Invocation, stdin: Flow | None, secret: bool) -> Flow:
    """The output flow of a plain program; ``secret`` says its arguments name a secret file."""
    name = inv.name
    args = inv.args
    taint = set(stdin.taint) if stdin is not None else set()
    if name in PID_LISTERS:  # ps -eo pid=, pgrep .: process ids; they read no file
        taint.update(pid_listing(name, args, run.map_span(inv.word.span)))
        return Flow(frozenset(taint), name, inv.word.span)
    if run.files:
        for f in args:
            for named in candidate_paths(f.text, run.cwd):
                taint.update(file_taint(run.files, named))
            for piece in (f.text, f.text.partition("=")[2], f.text.partition("@")[2]):
                if piece and not piece.startswith("-") and "/" not in piece:  # a plain name
                    taint.update(file_taint(run.files, norm_path(piece, run.cwd)))
    if name in RENDERERS:  # kubectl kustomize URL: fetched manifests (_fetchtools)
        taint.update(rendered(run, inv))
    if name in EXFIL_NAMES:  # searches for secrets, gh uploads, docker cp, cloud metadata
        taint.update(exfil_output(run, inv, stdin))
    if name == "git":  # one subcommand test for both readers (git is the commonest name)
        i = git_sub_index(args)
        sub = args[i].text if i < len(args) else ""
        if sub in ("archive", "bundle"):  # git archive HEAD: the project's tree
            taint.update(tree_source(run, inv))
        elif sub in GIT_CODE_PRINTERS:  # git diff, git format-patch --stdout: code
            taint.update(project_source(run, inv))
    else:
        if name in TREE_ARCHIVERS:  # tar czf - ., zip -r - .: the project's tree
            taint.update(tree_source(run, inv))
        if name in PROJECT_PRINTERS:  # docker save: an image
            taint.update(project_source(run, inv))
    if not taint and name in SHELL_INIT and prints_shell_init(name, [f.text for f in args]):
        return Flow(NO_TAINT, name, inv.word.span, "")  # eval "$(pyenv init -)": see module
    if name in _OUTPUT_NAMED:
        return _named_output(run, inv, stdin, secret, taint)
    # What _named_output does for a name none of its branches names (no secret printer,
    # no bulk reader: secret_printer is None and bulk_secret_source False for it).
    if name not in R.METADATA_ONLY and (secret_file(args if name not in JQS else jq_files(
            args)) or history_var(run, args)):
        taint.add(Source("secret", history_label(run, name, args),
                         run.map_span(inv.word.span)))
    if secret:
        taint.add(Source("secret", name, run.map_span(inv.word.span)))
    if taint:
        track_writes(run.files, inv, frozenset(taint), Source("fetch", name,
                     run.map_span(inv.word.span)), run.cwd)
    return Flow(frozenset(taint), name, inv.word.span,
                _listed_paths(inv, run.cwd) if name == "ls" else None)


# aws's global options that take no value (the others are followed by theirs).
_AWS_FLAGS = frozenset({"--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request",
                        "--no-cli-pager", "--cli-auto-prompt", "--no-cli-auto-prompt"})


def _aws_configure(texts: list[str]) -> bool:
    """``aws [global options] configure ...``: reads and writes the local configuration and
    credentials files (``set``, ``get``, ``list``, ``import``); it sends none of its words."""
    skip = False
    for t in texts:
        if skip:
            skip = False
        elif t.startswith("--"):
            skip = "=" not in t and t not in _AWS_FLAGS
        else:
            return t == "configure"
    return False


# ls options that keep its output one plain name a line (no long format, no headers).
_NAME_LETTERS = frozenset("aA1rtSUXvcuhFpQNBG")


def _listed_paths(inv: Invocation, cwd: str | None) -> str | None:
    """``ls -d PATHS`` prints the paths themselves (a glob: every path it matches), so
    ``ls -d /* | xargs rm -rf`` deletes them; plain ``ls DIR`` prints the names of DIR's
    entries: ``*`` (every name, relative to DIR) and an unknown rest (its dot files), so
    ``ls -A ~ | xargs -I{} rm -rf ~/{}`` deletes ``~/*``. ``ls`` alone lists the working
    directory, whose entries are named when it is known."""
    texts = [f.text for f in inv.args]
    if not any(t == "--directory" or (t[:1] == "-" and t[1:2] != "-" and "d" in t)
               for t in texts):
        operands = [t for t in texts if not t.startswith("-")]
        if len(operands) > 1 or any(c in t for t in operands for c in "*?[") or not all(
                t[1:2] != "-" and set(t[1:]) <= _NAME_LETTERS for t in texts if t[:1] == "-"):
            return None  # headers per directory, files, long format, options not modelled
        if not operands and cwd is None:
            return None  # names in an unknown directory
        return "*\n" + DYN
    return "\n".join([*(t for t in texts if not t.startswith("-")), DYN])


# Network tools that send their stdin as is (a git credential helper's stdin is secret;
# ``aws codecommit credential-helper`` and ``curl URL`` read or ignore it).
_STDIN_SENDERS = frozenset({"nc", "ncat", "netcat", "socat", "telnet", "ssh", "openssl",
                            "mail", "sendmail", "mutt", "http", "https", "xh", "httpie",
                            "ftp", "tftp"})


def _named_output(run: Run, inv: Invocation, stdin: Flow | None, secret: bool,
                  taint: set[Source]) -> Flow:
    name = inv.name
    args = inv.args
    texts = [f.text for f in args]
    printed = secret_printer(name, texts)
    if printed:
        run.add("shell.sensitive-read", inv.word.span, f"{name} prints private keys or "
                "password hashes", None)
    # curl -o .env URL writes .env: the file a download lands in is not read or sent; nor
    # is the key a tool authenticates with (curl --key client.key, scp -i deploy.pem).
    downloaded = output_words(name, texts) if name in HTTP_CLIENTS else frozenset()
    if name in AUTH_FILE_TOOLS:
        downloaded |= auth_files(name, texts)
    read = [f for k, f in enumerate(args) if k not in downloaded] if downloaded else args
    if name not in R.METADATA_ONLY and (secret_file(read) or history_var(run, read) or
                                        bulk_secret_source(name, read, run.cwd)):
        # cat ~/.bash_history | grep pass: the grep knows it searches a history
        taint.add(Source("secret", history_label(run, name, read),
                         run.map_span(inv.word.span)))
    if name in R.NETWORK_SENDERS and (name != "openssl" or _openssl_connects(texts)) and (
            name != "aws" or not _aws_configure(texts)):
        # (openssl x509 -in server.pem, openssl rsa -in k.key: local; s_client sends;
        # aws configure set aws_secret_access_key "$AWS_SECRET_ACCESS_KEY" stores it locally)
        leaked = [s for s in taint if s.kind == "secret"]
        if leaked and all(s.program == "git credentials" for s in leaked) and (
                name not in _STDIN_SENDERS if name not in ("curl", "wget") else not any(
                    t == "-" or t.endswith(("@-", "=-", "/dev/stdin", "/dev/fd/0"))
                    for t in texts)):
            leaked = []  # a credential helper's tool that does not send what it reads
        in_request = [s for f in sent_args(args, curl=name == "curl") for s in f.taint
                      if s.kind == "secret"]
        if name in HTTP_CLIENTS:
            in_request += header_data(name, args)  # -H "X: $(cat .env)": secret data in a header
            in_request += project_upload(run, inv, stdin)  # curl -d @"$(grep -rl KEY .)"
        if name in HTTP_CLIENTS and not leaked:
            header_secrets(run, inv)  # signing keys in headers, tokens to foreign hosts
            # A $SECRET variable in a URL or body is often how an API authenticates: warn.
            # Secrets read from files or the environment dump, or piped in, still block.
            by_name = [s for s in in_request if s.program.startswith("$")]
            in_request = [s for s in in_request if not s.program.startswith("$") or
                          never_sent(s.program)]  # $AWS_SECRET_ACCESS_KEY signs, never sent
            if by_name and not in_request:
                first = min(by_name, key=source_order)
                run.add("shell.secret-in-request", inv.word.span, f"a secret variable is "
                        f"sent by {name} outside an auth header",
                        f"{first.describe()} reaches {run._desc(name, inv.word.span)}")
        leaked += in_request
        if leaked:
            src = min(leaked, key=source_order)
            run.add("shell.exfiltration", inv.word.span, f"secrets reach the network tool "
                    f"{name}", f"{src.describe()} reaches {run._desc(name, inv.word.span)}")
        elif taint or run.trees or any(f.taint for f in args):
            tree_sent(run, inv, taint)  # tar czf - . | nc h p, git diff | curl -d @- URL: warn
    if name in WIN_FETCHERS:  # certutil -urlcache, bitsadmin /transfer: files, not stdout
        for written in win_download_targets(name, texts):
            where = next((f for f in args if f.text == written), inv.word)
            check_write(run.add, run.cp.paths, Field(written, where.span), run.cwd,
                        f"{name} downloads into")
            local = norm_path(written, run.cwd)
            if local is not None:
                run.files[local] = frozenset({Source("fetch", name, run.map_span(
                    inv.word.span))})
    if name in R.FETCHERS and (name not in ("openssl", "ssh") or stdin is None) and (
            name != "openssl" or _openssl_connects(texts)):
        src = Source("fetch", name, run.map_span(inv.word.span))
        if name in HTTP_CLIENTS and metadata_secret(texts):  # IMDS role credentials
            taint.add(Source("secret", name, run.map_span(inv.word.span)))
        target = download_target(name, texts)
        if target is not None:
            where = next((f for f in args if target in f.text), inv.word)
            check_write(run.add, run.cp.paths, Field(target, where.span), run.cwd,
                        f"{name} downloads into")
            path = norm_path(target, run.cwd)
            if path is not None:
                run.files[path] = frozenset({src})
                if run.links:
                    write_links(run, path, where.span)  # ln -s f l; curl -o f u: l is the download
            return EMPTY
        return Flow(frozenset({*taint, src}), name, inv.word.span)
    if name in R.DECODERS and (name in _ALWAYS_DECODE
                               or any(t in _DECODE_FLAGS or t == "enc" for t in texts)):
        taint.add(Source("decode", name, run.map_span(inv.word.span)))
        return Flow(frozenset(taint), name, inv.word.span)
    if (name in R.ENV_DUMPERS and not args) or (name in ("export", "declare") and
                                                 texts in (["-p"], ["-x"], ["-px"])) or (
            name == "printenv" and any(secret_name(t) or DYN in t for t in texts)):
        taint.add(Source("secret", name, run.map_span(inv.word.span)))
    if secret or printed is not None:
        src = Source("secret", name, run.map_span(inv.word.span))
        taint.add(src)
        if printed is not None and shown_credential(name, texts):
            run.printed.add(src)  # a login credential (secret-display if it is shown)
    passed: str | None = None
    if name == "pwd" and not any(not t.startswith("-") for t in texts):
        pwd = run.env.get("PWD")
        passed = pwd.alts[0] if pwd is not None and len(pwd.alts) == 1 else "."
        if pwd is None and run.cwd is not None:
            passed = run.cwd
    elif name == "mktemp" and all(f.static for f in args):
        passed = mktemp_output(texts, run.env)
    elif name == "git" and "rev-parse" in texts and "--show-toplevel" in texts:
        passed = "."  # the repository holding the working directory
    elif name in ("basename", "dirname") and args and all(f.static for f in args):
        passed = basename_output(name, texts)
    elif name == "dirname" and len(args) == 1 and "/" in texts[0] and \
            DYN not in texts[0].rstrip("/").rpartition("/")[0]:
        passed = basename_output(name, [texts[0].rstrip("/").rpartition("/")[0] + "/x"])
    elif name in TEXT_TOOLS:  # $(sed 's/x/r/' <<< xm), $(cut -c2-3 <<< xrm), getent passwd
        passed = text_output(name, texts, stdin.text if stdin is not None else None)
    elif name in ("which", "command", "type", "whence") and args and all(
            f.static for f in args) and (name == "which" or any(
            t in ("-v", "-p", "-P", "-a", "-pa") for t in texts)):
        # $(which rm), $(command -v rm): the named program, in a directory of PATH that is
        # not known statically (so the name resolves and still counts as dynamic).
        passed = "\n".join(t if "/" in t else DYN + "/" + t for t in texts
                           if not t.startswith("-"))
    if name == "find":
        # find prints paths under its roots: xargs after it works on them (ROOT/*).
        roots = [f.text for f in find_roots(args)[0]] or ["."]
        passed = "\n".join([*(r.rstrip("/") + "/*" for r in roots), DYN])
    if name in TREE_COPIERS:  # rsync -a . host: (_treeexport)
        tree_copied(run, inv)
    if taint or name in ("scp", "rsync", "sftp") or (name == "git" and "clone" in texts):
        track_writes(run.files, inv, frozenset(taint), Source("fetch", name,
                     run.map_span(inv.word.span)), run.cwd)
    if name in ("cat", "tee") and stdin is not None and stdin.text is not None and \
            all(f.text.startswith("-") for f in args if name == "cat"):
        passed = stdin.text  # cat <<'EOF' > f: the heredoc's text is what gets written
        # (echo 'code' | tee f.sh: f.sh holds that text, see _copies.stream_copy)
    return Flow(frozenset(taint), name, inv.word.span, passed)
