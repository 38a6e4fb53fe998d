"""Package runners: the program a one-shot package run starts, or its shell command string.

``npx [opts] PKG ARGS``, ``pnpm dlx``, ``pnpx``, ``yarn dlx``, ``bunx``, ``bun x``, ``uvx``,
``pipx run`` and ``npm exec`` download (or reuse) a package and run its program with ARGS.
Their option arity is data in ``_wrappers``; this module adds what is special to them:

* the word after the options names a *package*, which runs the program of the same name:
  ``@scope/`` and an ``@version`` (``http-server@14``) or, for Python runners, a version
  specifier or extras (``black==24.1``, ``ruff>=0.4``, ``black[jupyter]``) are removed
  (``npx -p PKG CMD`` and ``uvx --from PKG CMD`` name the program itself: the same rule
  leaves it unchanged); a package whose program has another name maps to it
  (``npx dotenv-cli`` runs ``dotenv``);
* ``pnpm dlx -c``/``pnpm exec -c``/``pnpx -c`` (``--shell-mode``) run their operands as a
  command line in a shell (``npx -c``/``npm exec -c`` take the string as the option's
  argument: that is ``code_flag`` data);
* ``yarn exec SCRIPT ARGS`` parses SCRIPT with yarn's portable shell (ARGS are appended as
  plain words), so ``yarn exec 'a && b'`` is a command line.
"""

from __future__ import annotations

import shlex

from ._words import DYN, Field

__all__ = ["PACKAGE_RUNNERS", "runner_program", "runner_shell_code", "runner_stops"]

PACKAGE_RUNNERS = frozenset({"npx", "pnpx", "bunx", "uvx", "pnpm", "yarn", "bun", "pipx",
                             "npm"})
"""Wrappers whose command word names a package (the resolver asks :func:`runner_program`)."""

# Programs whose -c/--shell-mode is a flag that makes the operands one shell command line.
_SHELL_MODE = frozenset({"pnpm", "pnpx"})
# Characters that end a package name: an npm @version, a Python version specifier or extras.
_SPEC_END = "@=<>!~[;"
# Packages whose program has another name than the package (its package.json "bin").
_PACKAGE_BINS = {"dotenv-cli": "dotenv"}


# Subcommands whose operand names an initializer: `npm create X` runs the package create-X.
_INIT_SUBS = frozenset({"create", "init", "innit", "c"})


def runner_program(word: Field, sub: str = "") -> Field | None:
    """The program run by the package ``word`` names, when it differs from the word:
    ``@scope/pkg@1.2`` -> ``pkg``, ``black==24.1`` -> ``black``; else None. After an
    initializer subcommand ``sub`` (``npm create vite``), the package is ``create-vite``
    (``@scope/x`` -> ``@scope/create-x``, ``@scope`` -> ``@scope/create``): its program."""
    text = word.text
    if DYN in text or not text or text.startswith("-"):
        return None
    if sub in _INIT_SUBS:
        return _initializer(word)
    base = text.rstrip("/").rsplit("/", 1)[-1] if "/" in text else text
    cut = next((k for k, c in enumerate(base) if k > 0 and c in _SPEC_END), len(base))
    name = base[:cut]
    name = _PACKAGE_BINS.get(name, name)
    if name == text or not name or name.startswith("@"):
        return None
    return Field(name, word.span, word.taint, word.proc, word.quoted)


def runner_stops(word: Field, sub: str) -> bool:
    """``bun create ./Comp.tsx``, ``bun create user/repo``: the operand of an initializer
    subcommand is a template (a file or a repository), not a program that runs."""
    return sub in _INIT_SUBS and DYN not in word.text and not word.text.startswith("-") \
        and _initializer(word) is None


def _initializer(word: Field) -> Field | None:
    """``vite@5`` -> ``create-vite``, ``@scope/x@1`` -> ``create-x`` (the program of
    ``@scope/create-x``), ``@scope`` -> ``create``; None for a path or a GitHub repository
    (``bun create ./T.tsx``, ``bun create user/repo``)."""
    text = word.text
    if text.startswith("@"):
        scope, slash, rest = text.partition("/")
        rest = rest.split("@", 1)[0]
        name = f"create-{rest}" if slash and rest else "create"
    else:
        base = text.split("@", 1)[0]
        if not base or "/" in base or base.startswith((".", "~")):
            return None
        name = f"create-{base}"
    return Field(name, word.span, word.taint, word.proc, word.quoted)


def runner_shell_code(name: str, fields: list[Field], start: int, command: int
                      ) -> Field | None:
    """``pnpm dlx -c 'a | b'``: the operands from ``command`` joined into a command line
    when ``-c``/``--shell-mode`` is among the options ``fields[start:command]``.
    ``yarn exec 'a && b' ARGS``: yarn parses its first operand as a shell script (its
    portable shell, ARGS appended as plain words)."""
    if name == "yarn" and command < len(fields):
        return _yarn_exec(fields, start, command)
    if name not in _SHELL_MODE or command >= len(fields):
        return None
    if not any(f.text in ("-c", "--shell-mode") for f in fields[start:command]):
        return None
    ops = fields[command:]
    text = " ".join(f.text for f in ops)
    taint = frozenset().union(*(f.taint for f in ops))
    return Field(text, (ops[0].span[0], ops[-1].span[1]), taint)


# Characters that make a word shell code rather than a program name.
_SHELL_SYNTAX = frozenset(" \t\n;&|<>()$`'\"\\*?[{~#=")


def _yarn_exec(fields: list[Field], start: int, command: int) -> Field | None:
    """``yarn exec SCRIPT ARGS`` when SCRIPT is more than a program name (a plain word
    resolves as the program, like any wrapper's command)."""
    if not any(f.text == "exec" for f in fields[start:command]):
        return None
    script = fields[command]
    if not script.static or not any(c in _SHELL_SYNTAX for c in script.text):
        return None
    rest = fields[command + 1:]
    words = [script.text, *(shlex.quote(f.text) if f.static else f.text for f in rest)]
    taint = frozenset().union(script.taint, *(f.taint for f in rest))
    end = rest[-1].span[1] if rest else script.span[1]
    return Field(" ".join(words), (script.span[0], end), taint)
