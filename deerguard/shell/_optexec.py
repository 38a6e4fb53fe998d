"""Programs that run a command given in an option: tar's filters, emacs --eval, tcpdump -z.

``tar --to-command=CMD`` runs CMD once per archive member with the member's contents on
its stdin (``tar xf x.tar --to-command=sh`` runs every archived file as a shell script,
like ``tar -xOf x.tar | sh``); ``tar -I CMD``/``--use-compress-program=CMD`` pipes the
archive through CMD. The command is classified as shell code whose stdin is the archive's
data (fetched when the archive was, or when tar reads a fetched stdin), so a shell or an
interpreter there is a pipe into a shell; a real compressor (``-I zstd``) or a checksum
(``--to-command=md5sum``) reads data and passes. tar's other command options
(``--checkpoint-action=exec=CMD``, ``--info-script``...) feed no data: ``_embedded`` finds
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._files import file_taint
from ._flow import Flow
from ._paths import norm_path
from ._resolve import Invocation
from ._rules import INTERPRETER_CODE_FLAGS, SHELLS
from ._words import DYN, NO_TAINT, Field, Source

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["RUNNER_NAMES", "TAR_NAMES", "emacs_eval", "filter_codes", "hook_script",
           "tar_exec_values", "tar_filters"]

TAR_NAMES = frozenset({"tar", "gtar", "bsdtar"})
_FILTER_LONG = ("--to-command", "--use-compress-program")
# tar's short options that take an argument (GNU tar), apart from -f and -I.
_SHORT_ARG = "bCgHKLNTVX"


def filter_codes(args: list[Field]) -> tuple[list[Field], Field | None]:
    """The filter commands of a tar command line, and its archive operand (``-f X``)."""
    codes: list[Field] = []
    archive: Field | None = None
    k = 0
    n = len(args)
    while k < n:
        f = args[k]
        t = f.text
        nxt = args[k + 1] if k + 1 < n else None
        if t == "--":
            break
        if t.startswith("--"):
            opt, eq, value = t.partition("=")
            if opt in _FILTER_LONG:
                if eq:
                    codes.append(Field(value, f.span, f.taint))
                elif nxt is not None:
                    codes.append(nxt)
                    k += 1
            elif opt == "--file":
                if eq:
                    archive = Field(value, f.span, f.taint)
                elif nxt is not None:
                    archive = nxt
                    k += 1
        elif t.startswith("-") or k == 0:
            # -xzf X, or the old style first word `xf X` (its letters take the next words).
            letters = t[1:] if t.startswith("-") else t
            taken = 0
            for pos, c in enumerate(letters):
                if c in "fI" and (t.startswith("-") or k > 0):
                    rest = letters[pos + 1:]
                    if rest:
                        value_f = Field(rest, f.span, f.taint)
                    elif k + 1 + taken < n:
                        taken += 1
                        value_f = args[k + taken]
                    else:
                        break
                    if c == "f":
                        archive = value_f
                    else:
                        codes.append(value_f)
                    if rest:
                        break
                elif c in "fI":  # old style: each letter takes the next word in order
                    if k + 1 + taken < n:
                        taken += 1
                        if c == "f":
                            archive = args[k + taken]
                        else:
                            codes.append(args[k + taken])
                elif c in _SHORT_ARG and t.startswith("-"):
                    if pos + 1 == len(letters):
                        taken += 1
                    break
            k += taken
        k += 1
    return codes, archive


def tar_filters(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Classify tar's filter commands with the archive's data on their stdin; warn when a
    command option runs a script whose content is not known."""
    args = inv.args
    if any(f.text.startswith(("--checkpoint-a", "--info", "--new-v", "--rsh")) or f.text == "-F"
           for f in args):
        for code in tar_exec_values(args):
            hook_script(run, code, f"{inv.name} option")
    if not any(f.text.startswith(("--to-command", "--use-compress-program")) or (
            "I" in f.text and not f.text.startswith("--")) for f in args):
        return
    codes, archive = filter_codes(args)
    if not codes:
        return
    if archive is None or archive.text == "-":
        taint = stdin.taint if stdin is not None else NO_TAINT
    else:
        taint = file_taint(run.files, norm_path(archive.text, run.cwd)) | archive.taint
    data = Flow(taint, f"{inv.name} (the archive's contents)", inv.word.span)
    for code in codes[:8]:
        run.run_code(code, f"{inv.name} filter", inv.word.span, data, positional=[])


RUNNER_NAMES = frozenset({"emacs", "emacs-nox", "emacsclient", "tcpdump"})
# Elisp functions that run a shell command string (its first argument).
_ELISP_SHELL = frozenset({"shell-command", "shell-command-to-string", "async-shell-command",
                          "call-process-shell-command", "start-process-shell-command",
                          "process-file-shell-command"})
# Elisp functions that run a program with arguments: index of PROGRAM, index of the first
# argument (call-process PROGRAM INFILE DESTINATION DISPLAY ARGS...).
_ELISP_ARGV = {"call-process": (0, 4), "process-lines": (0, 1), "start-process": (2, 3),
               "process-file": (0, 4)}


# tcpdump's short options that take a value (the rest of the cluster or the next word).
_TCPDUMP_VALUES = "BcCDEFGijmMrsTVwWyzZ"


def _tcpdump_values(args: list[Field]) -> dict[str, Field]:
    """``-w FILE`` and ``-z CMD`` of a tcpdump command line, in any short spelling
    (``-z CMD``, ``-zCMD``, ``-nz CMD``)."""
    out: dict[str, Field] = {}
    take = ""
    for f in args[:64]:
        t = f.text
        if take:
            out[take] = f
            take = ""
        elif t == "--":
            break
        elif t.startswith("-") and not t.startswith("--"):
            for k, letter in enumerate(t[1:], 2):
                if letter in _TCPDUMP_VALUES:
                    if k < len(t):
                        out[letter] = Field(t[k:], f.span, f.taint)
                    else:
                        take = letter
                    break
    return out


def _tcpdump(run: Run, args: list[Field]) -> None:
    """``tcpdump -w FILE`` writes captured traffic (data from the network: running the file
    is a download run); ``-z CMD`` runs CMD with each saved file as its argument (``-z sh``
    runs the capture as a script)."""
    values = _tcpdump_values(args)
    saved = values.get("w")
    name = "savefile"
    if saved is not None:
        path = norm_path(saved.text, run.cwd)
        if path is not None and path != "/dev/null" and len(run.files) < 256:
            run.files[path] = frozenset({Source("fetch", "tcpdump", run.map_span(saved.span))})
        if path is not None:
            name = saved.text
    hook = values.get("z")
    if hook is not None:
        run.invoke([hook, Field(name, hook.span)], None, [])
        hook_script(run, hook, "tcpdump -z")


def emacs_eval(run: Run, inv: Invocation) -> None:
    """``emacs --batch --eval '(shell-command "CMD")'`` (``-eval``, ``--eval=``,
    ``emacsclient -e``): classify the shell commands and programs the Lisp runs;
    ``tcpdump -z CMD`` runs CMD with each saved file as its argument."""
    args = inv.args
    if inv.name == "tcpdump":
        _tcpdump(run, args)
        return
    for k, f in enumerate(args):
        t = f.text
        expr: Field | None = None
        if t in ("--eval", "-eval") or (t == "-e" and inv.name == "emacsclient"):
            expr = args[k + 1] if k + 1 < len(args) else None
        elif t.startswith("--eval="):
            expr = Field(t[7:], f.span, f.taint)
        if expr is None:
            continue
        if "url-" in expr.text:
            _elisp_fetch_eval(run, inv, expr)
        for fn, strings in _elisp_calls(expr.text):
            if fn in _ELISP_SHELL and strings:
                # A computed command ((concat "rm " x)) is code not known statically.
                code = strings[0] if strings[0] is not None else DYN
                run.run_code(Field(code, expr.span, expr.taint), f"emacs ({fn})",
                             inv.word.span, None, positional=[])
            elif fn in _ELISP_ARGV:
                prog, first = _ELISP_ARGV[fn]
                program = strings[prog] if len(strings) > prog else None
                if program is not None:
                    argv = [program, *(s for s in strings[first:] if s is not None)]
                    run.invoke([Field(s, expr.span, expr.taint) for s in argv], None, [])


# Elisp that fetches a URL, and that evaluates a buffer, region or file as Lisp.
_ELISP_FETCH = ("(url-insert-file-contents", "(url-retrieve", "(url-copy-file",
                "(url-insert ")
_ELISP_EVAL = ("(eval-buffer", "(eval-region", "(load ", "(load-file", "(eval (read",
               "(package-install-file", "(eval-current-buffer", "(byte-compile-file")


def _elisp_fetch_eval(run: Run, inv: Invocation, expr: Field) -> None:
    """``(url-insert-file-contents URL) (eval-buffer)``: Lisp fetched and evaluated."""
    text = expr.text
    if any(f in text for f in _ELISP_FETCH) and any(e in text for e in _ELISP_EVAL):
        run.add("shell.download-exec", expr.span, f"{inv.name} --eval fetches Lisp from a "
                "URL and evaluates it", None)


def _elisp_calls(text: str) -> list[tuple[str, list[str | None]]]:
    """Each ``(FUNCTION ARG...)`` form of ``text`` whose function runs commands, with its
    literal arguments up to the form's end (a string's text, else None); linear."""
    out: list[tuple[str, list[str | None]]] = []
    n = len(text)
    i = text.find("(")
    while 0 <= i < n and len(out) < 8:
        j = i + 1
        while j < n and (text[j].isalnum() or text[j] in "-*/_"):
            j += 1
        name = text[i + 1:j]
        if name in _ELISP_SHELL or name in _ELISP_ARGV:
            values: list[str | None] = []
            depth = 0
            end = min(n, j + 4096)  # a form's literal arguments: bounded work per form
            while j < end and len(values) < 64:
                c = text[j]
                if c == '"':
                    chars: list[str] = []
                    j += 1
                    while j < n and text[j] != '"':
                        if text[j] == "\\" and j + 1 < n:
                            j += 1
                            chars.append({"n": "\n", "t": "\t"}.get(text[j], text[j]))
                        else:
                            chars.append(text[j])
                        j += 1
                    if depth == 0:
                        values.append("".join(chars))
                elif c == "(":
                    depth += 1
                    if depth == 1:
                        values.append(None)
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0 and c not in " \t\n":
                    k = j
                    while k < n and text[k] not in " \t\n()\"":
                        k += 1
                    values.append(None)
                    j = k - 1
                j += 1
            out.append((name, values))
        i = text.find("(", i + 1)
    return out


# GNU tar options whose value is a command line run by /bin/sh, by their full name; any
# unambiguous prefix is accepted (--checkpoint-a, --info, --new-vol, --rsh).
_TAR_EXEC_LONG = {"--checkpoint-action": 14, "--info-script": 6, "--new-volume-script": 7,
                  "--rsh-command": 5}


def tar_exec_values(args: list[Field]) -> list[Field]:
    """The command lines tar's options run: ``--checkpoint-action=exec=CMD`` (also as two
    words, ``--checkpoint-action exec=CMD``), ``--info-script``/``-F``/``--new-volume-script``
    and ``--rsh-command``, in full or abbreviated (``--checkpoint-a``). Other checkpoint
    actions (``dot``, ``echo``, ``ttyout=``, ``sleep=``) run nothing."""
    out: list[Field] = []
    n = len(args)
    k = 0
    while k < n and len(out) < 8:
        f = args[k]
        t = f.text
        k += 1
        if t == "--":
            break
        if t == "-F" and k < n:
            out.append(args[k])
            k += 1
            continue
        if not t.startswith("--"):
            continue
        opt, eq, value = t.partition("=")
        full = next((o for o, least in _TAR_EXEC_LONG.items()
                     if len(opt) >= least and o.startswith(opt)), None)
        if full is None:
            continue
        vf = Field(value, f.span, f.taint)
        if not eq:
            if k >= n:
                break
            vf = args[k]
            k += 1
        if full == "--checkpoint-action":
            if not vf.text.startswith("exec="):
                continue
            vf = Field(vf.text[5:], vf.span, vf.taint)
        if vf.text:
            out.append(vf)
    return out


# Programs a hook may run on its own files without running unknown code: compressors
# (tcpdump -z gzip), printers and notifiers.
_HOOK_PLAIN = frozenset({"gzip", "bzip2", "xz", "zstd", "lz4", "pigz", "pbzip2", "lzma",
                         "brotli", "echo", "printf", "true", "false", "date", "sync",
                         "logger", "sleep", "touch", "notify-send", "md5sum", "sha1sum",
                         "sha256sum", "sha512sum", "wc", "ls", "du", "df", "stat", "cat"})


_SYSTEM_BINS = ("/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/",
                "/usr/local/sbin/", "/opt/homebrew/bin/")


def _script_named(text: str) -> str | None:
    """The script a hook command line runs when its content is not known: ``sh x.sh``,
    ``python3 /tmp/x.py``, ``./x.sh``, ``/tmp/hook``; None for inline code (``sh -c ..``),
    a known program (``gzip``) or a command the classifier reads in full."""
    words = text.split()
    if not words or DYN in text:
        return None
    prog = words[0].strip("'\"")
    base = prog.rsplit("/", 1)[-1]
    family = base.rstrip("0123456789.")
    if base in SHELLS or family in INTERPRETER_CODE_FLAGS or family in ("python", "perl",
                                                                        "ruby", "node"):
        flags = INTERPRETER_CODE_FLAGS.get(family, frozenset())
        for w in words[1:]:
            if w == "-c" or w in flags or (w.startswith("-") and not w.startswith("--")
                                           and ("c" in w[1:] if base in SHELLS else False)):
                return None
            if not w.startswith("-"):
                return w.strip("'\"")
        return None
    if "/" in prog and base not in _HOOK_PLAIN and not prog.startswith(_SYSTEM_BINS):
        return prog  # ./hook, /tmp/x: not an installed program
    if base.endswith((".sh", ".py", ".pl", ".rb", ".bash")):
        return prog
    return None


def hook_script(run: Run, code: Field, how: str) -> None:
    """Warn when a command an option runs is a script of unknown content.

    ``bash x.sh`` passes, but ``tar --checkpoint-action=exec='sh x.sh'`` and ``tcpdump -z
    ./x.sh`` are the known ways (GTFOBins) to run a program from inside a tool an allowlist
    or a reviewer sees as harmless; their everyday values are non-executing actions (``dot``,
    ``echo``) and compressors (``-z gzip``). Inline code is classified in full elsewhere."""
    script = _script_named(code.text)
    if script is not None:
        run.add("shell.dynamic-code", code.span, f"{how} runs the script {script}, whose "
                "content is not known", None)
