"""Mercurial and Subversion options whose value is a command line (mirrors ``git -c``).

* ``hg --config SECTION.NAME=VALUE`` (a global option, accepted anywhere on the line): the
  keys that name a program run it through the shell: ``ui.ssh``, ``ui.editor``,
  ``ui.remotecmd`` (run on the remote host), ``pager.pager``, ``hooks.*`` (unless
  ``python:``, which loads a Python file), ``alias.*=!CMD`` (a shell alias),
  ``merge-tools.*.executable``, ``extdiff.*``; ``extensions.NAME=/path.py`` loads a Python
  file into hg. Like ``git -c`` with such a key, these warn (``shell.vcs-config-exec``) and
  their command line is classified as code (``hooks.pre-pull='curl u|sh'`` blocks).
  ``extensions.rebase=`` (a bundled extension) and ``ui.username=`` are everyday and pass.
* ``hg clone|pull|push|incoming|outgoing|identify -e/--ssh CMD`` and ``--remotecmd CMD``:
  the command hg runs to reach the remote (like ``rsync -e``): classified as code, no warning.
* ``svn --config-option FILE:SECTION:OPTION=VALUE``: ``config:tunnels:NAME`` (the tunnel
  program for ``svn+NAME://``, optionally led by ``$ENVVAR`` that overrides it) and
  ``config:helpers:editor-cmd|diff-cmd|diff3-cmd|merge-tool-cmd`` warn and are classified;
  ``svn --editor-cmd|--diff-cmd|--diff3-cmd CMD`` are classified as code.

Backup and sync tools take the command that reaches the remote the same way (``rsync -e``):
``borg --rsh CMD``, ``rclone --sftp-ssh CMD``, ``unison -sshcmd CMD``, ``restic -o
sftp.command=CMD``, ``sshfs -o ssh_command=CMD``: classified as code, no warning.

Linear in the number of words.
"""

from __future__ import annotations

from collections.abc import Callable

from ._words import Field

__all__ = ["VCS_PROGRAMS", "vcs_option_codes"]

# Tools whose option names the command that reaches the remote: (options, `-o KEY=` keys).
_TUNNELS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "borg": (frozenset({"--rsh"}), ()),
    "rclone": (frozenset({"--sftp-ssh"}), ()),
    "unison": (frozenset({"-sshcmd", "-servercmd"}), ()),
    "restic": (frozenset(), ("sftp.command=",)),
    "sshfs": (frozenset(), ("ssh_command=", "sftp_server=")),
}
VCS_PROGRAMS = frozenset({"hg", "chg", "svn"}) | frozenset(_TUNNELS)
"""Programs :func:`vcs_option_codes` reads."""

_HG_GLOBAL_ARG = frozenset({"-R", "--repository", "--cwd", "--config", "--encoding",
                            "--encodingmode", "--color", "--pager", "--config-file"})
_HG_REMOTE = frozenset({"clone", "pull", "push", "incoming", "in", "outgoing", "out",
                        "identify", "id", "fetch", "summary", "sum"})
_HG_EXEC_KEYS = frozenset({"ui.ssh", "ui.editor", "ui.remotecmd", "pager.pager", "ui.merge"})
_SVN_HELPERS = frozenset({"editor-cmd", "diff-cmd", "diff3-cmd", "merge-tool-cmd"})
_SVN_CODE_OPTS = frozenset({"--editor-cmd", "--diff-cmd", "--diff3-cmd"})

Found = tuple[Field, "str | None"]
"""A command line and, when it is set through configuration, why that warns."""


def vcs_option_codes(name: str, args: list[Field]) -> list[Found]:
    """The command lines ``name args`` runs through its options, each with the reason to warn
    (None for a plain ``--ssh CMD``)."""
    if name in _TUNNELS:
        return _tunnel(_TUNNELS[name], args)
    return _svn(args) if name == "svn" else _hg(args)


def _tunnel(spec: tuple[frozenset[str], tuple[str, ...]], args: list[Field]) -> list[Found]:
    opts, keys = spec
    out: list[Found] = []
    for k in range(len(args)):
        if args[k].text == "--":
            break
        value, _ = _opt(args, k, opts) if opts else (None, 0)
        if value is not None:
            out.append((value, None))
        elif keys and args[k].text in ("-o", "--option") and k + 1 < len(args):
            nxt = args[k + 1]
            for item in nxt.text.split(","):
                item = item.strip()
                if item.startswith(keys):
                    out.append((Field(item.partition("=")[2], nxt.span, nxt.taint), None))
    return out


def _opt(args: list[Field], k: int, names: frozenset[str]) -> tuple[Field | None, int]:
    """The value of option ``args[k]`` when it is one of ``names`` (``--opt V``,
    ``--opt=V``), and the index after it; (None, k + 1) otherwise."""
    f = args[k]
    t = f.text
    if t in names:
        return (args[k + 1], k + 2) if k + 1 < len(args) else (None, k + 1)
    opt, eq, val = t.partition("=")
    if eq and opt in names and opt.startswith("--"):
        return Field(val, f.span, f.taint), k + 1
    return None, k + 1


_HG_SSH = frozenset({"--ssh", "--remotecmd"})
_HG_SSH_REMOTE = frozenset({"-e", "--ssh", "--remotecmd"})  # after a remote subcommand


def _hg(args: list[Field]) -> list[Found]:
    return _walk_options(args, frozenset({"--config"}), _hg_setting, hg=True)


def _walk_options(args: list[Field], config: frozenset[str],
                  setting: Callable[[Field], Found | None], *, hg: bool) -> list[Found]:
    """One pass over hg's or svn's words: each configuration option's setting (``setting``
    says whether it runs a program) and each option whose value is a command line."""
    out: list[Found] = []
    code_opts = _HG_SSH if hg else _SVN_CODE_OPTS
    sub = None
    n = len(args)
    k = 0
    while k < n:
        f = args[k]
        t = f.text
        if t == "--":
            break
        if hg and (not t.startswith("-") or len(t) < 2):
            if sub is None:  # hg's subcommand: a remote one takes -e CMD too
                sub = t
                code_opts = _HG_SSH_REMOTE if t in _HG_REMOTE else code_opts
            k += 1
            continue
        value, nxt = _opt(args, k, config)
        if value is not None:
            found = setting(value)
            if found is not None:
                out.append(found)
            k = nxt
            continue
        value, nxt = _opt(args, k, code_opts)
        if value is not None:
            out.append((value, None))
            k = nxt
            continue
        if hg and t.startswith("-e") and len(t) > 2 and "-e" in code_opts:
            out.append((Field(t[2:], f.span, f.taint), None))  # -eCMD
        k += 2 if hg and t in _HG_GLOBAL_ARG else 1
    return out


def _hg_setting(value: Field) -> Found | None:
    key, eq, text = value.text.partition("=")
    key = key.strip().lower()
    if not eq:
        return None
    section = key.partition(".")[0]
    why = f"hg --config {key} names a program hg runs"
    if section == "extensions":
        if "/" in text or "\\" in text or text.endswith(".py"):
            return Field("", value.span, value.taint), \
                f"hg --config {key}={text} loads a Python file into hg"
        return None
    if section == "hooks":
        if text.startswith("python:"):
            return Field("", value.span, value.taint), \
                f"hg --config {key} loads a Python file into hg"
        return Field(text, value.span, value.taint), f"hg --config {key} runs a hook command"
    if section == "alias":
        if text.startswith("!"):
            return Field(text[1:], value.span, value.taint), \
                f"hg --config {key} defines a shell alias"
        return None
    if key == "ui.merge" and text.startswith((":", "internal:")):
        return None  # a built-in merge tool
    if key in _HG_EXEC_KEYS or (section == "merge-tools" and key.endswith(".executable")) \
            or section == "extdiff":
        return Field(text.removeprefix("cmd.").strip(), value.span, value.taint), why
    return None


def _svn(args: list[Field]) -> list[Found]:
    return _walk_options(args, frozenset({"--config-option"}), _svn_setting, hg=False)


def _svn_setting(value: Field) -> Found | None:
    where, eq, text = value.text.partition("=")
    if not eq:
        return None
    parts = [p.strip().lower() for p in where.split(":")]
    if len(parts) != 3 or parts[0] != "config":
        return None
    if parts[1] == "tunnels":
        text = text.strip()
        if text.startswith("$"):
            text = text.partition(" ")[2]  # $SVN_SSH ssh -q: the variable overrides the rest
        return Field(text, value.span, value.taint), \
            f"svn --config-option {where} sets the program svn runs for svn+{parts[2]}://"
    if parts[1] == "helpers" and parts[2] in _SVN_HELPERS:
        return Field(text, value.span, value.taint), \
            f"svn --config-option {where} names a program svn runs"
    return None
