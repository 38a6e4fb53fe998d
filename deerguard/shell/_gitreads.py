"""Files whose contents git reads, though git is a metadata-only program for the path rules.

Most git commands name paths of the repository (``git add``, ``git log -- f``), so git does
not read the secret files its arguments name. A few subcommands read any file's contents
and print or store them:

* ``git diff --no-index A B`` and ``git grep --no-index PAT F`` print the files;
  ``git merge-file -p A B C`` prints a merge of three; ``git blame --contents F`` prints F's
  lines; ``git config -f F --list|--get`` prints F's keys (``~/.aws/credentials`` is in the
  same ini format); ``git credential-store --file F get`` prints a stored password.
* ``git hash-object -w F`` stores F in the object database, and ``git commit|tag|notes -F F``
  makes F a commit message: a later push carries it.
* ``git send-email F`` mails F: a secret file sent is exfiltration.

A sensitive path read this way is a secret read (``shell.sensitive-read``, like ``cat``); a
project secret file (``.env``) only taints the output, which blocks when it reaches a network
tool. The subcommand is found after git's own options (``-C DIR``, ``-c k=v``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import check_args
from ._secrets import secret_file
from ._words import Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["git_reads"]

# git's own options that take the next word as their value.
_GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                            "--super-prefix", "--config-env", "--exec-path"})
_READERS = frozenset({"diff", "grep", "merge-file", "blame", "config", "credential-store",
                      "hash-object", "commit", "tag", "notes", "send-email"})
_CONFIG_GETS = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list",
                          "--get-urlmatch", "--show-origin"})
# Options of the reading subcommands that take the next word (so it is not an operand).
_VALUED = frozenset({"-e", "-f", "--file", "-F", "-m", "--message", "-C", "-c", "--author",
                     "--date", "-t", "--type", "--path", "--to", "--cc", "--bcc", "--from",
                     "--subject", "--in-reply-to", "-L", "--contents", "-S", "--blob",
                     "--ref", "-u", "--local-user", "-o", "--output", "-U", "--unified",
                     "--smtp-server", "--smtp-user", "--smtp-pass", "--cleanup"})


def git_reads(run: Run, inv: Invocation) -> bool:
    """Report the sensitive files a git command reads the contents of (see the module doc);
    True when it reads a secret (a sensitive path or a project secret file such as .env),
    so its output carries it. One pass over the words: linear."""
    args = inv.args
    k = 0
    while k < len(args) and args[k].text.startswith("-"):
        k += 2 if args[k].text in _GLOBAL_VALUES else 1
    if k >= len(args) or args[k].text not in _READERS:
        return False
    sub = args[k].text
    read = _read_files(sub, args[k + 1:])
    if not read:
        return False
    secret = check_args(run.add, run.cp.paths, f"git {sub}", read, run.cwd) or secret_file(read)
    if secret and sub == "send-email":
        run.add("shell.exfiltration", inv.word.span, "git send-email mails a secret file",
                None)
    return secret


def _read_files(sub: str, rest: list[Field]) -> list[Field]:
    """The words of ``git SUB REST`` that name a file whose contents are read."""
    texts = [f.text for f in rest]
    if sub in ("diff", "grep") and "--no-index" not in texts:
        return []
    if sub == "hash-object" and not any(t == "-w" or (t[:1] == "-" and t[1:2] != "-" and "w" in t)
                                        for t in texts):
        return []
    if sub == "config" and _CONFIG_GETS.isdisjoint(texts):
        return []  # git config -f F key value writes F (see _tools)
    files: list[Field] = []
    operands: list[Field] = []
    skip = False
    for index, f in enumerate(rest):
        t = f.text
        if skip:
            skip = False
            if rest[index - 1].text in ("-F", "--file", "-f", "--contents") and (
                    sub != "grep" or rest[index - 1].text != "-f"):
                files.append(f)
            continue
        if t == "--":
            operands.extend(g for g in rest[index + 1:] if g.text != "/dev/null")
            break
        if t in _VALUED:
            skip = True
        elif t.startswith(("--file=", "--contents=")):
            files.append(Field(t.partition("=")[2], f.span, f.taint))
        elif not t.startswith("-") and t != "/dev/null":
            operands.append(f)
    if sub in ("commit", "tag", "notes", "config", "credential-store", "blame"):
        return files
    if sub == "grep" and "-e" not in texts and "-f" not in texts:
        operands = operands[1:]  # the first operand is the pattern
    return files + operands
