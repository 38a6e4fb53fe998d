"""``jq`` printing the environment: ``jq -n env``, ``jq -n '$ENV'``, ``jq -rn 'env |
to_entries[] | "\\(.key)=\\(.value)"'``, ``jq -n '$ENV.AWS_SECRET_ACCESS_KEY'``.

jq's ``env`` builtin and its ``$ENV`` variable are the process environment, so a filter that
reads them is an environment dump like ``env`` or ``printenv``: its output is secret data
(tainted: it blocks when it reaches a network tool, passes alone). A jq filter is a language,
so the builtin is found as a token outside string literals (string interpolation ``\\(...)``
is code again): ``.env`` (a field), ``{env: $e}`` or ``{env}`` (object keys), ``$env`` (a
variable of that name) and ``"env"`` are not the environment. ``env.HOME`` or
``$ENV["PATH"]``, a single variable whose name does not hold a secret, is not a dump.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._values import NO_TAINT, Field, Source, Taint, secret_name

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["JQS", "jq_env", "jq_files", "jq_parts"]

JQS = frozenset({"jq", "gojq", "jaq", "yq"})
"""jq and its reimplementations (python yq passes its filter to jq)."""

# Options that take one value (--arg/--argjson/--slurpfile/--rawfile take two).
_ONE_VALUE = frozenset({"--indent", "-L", "--library-path", "--from-file", "-f",
                        "--output-format", "-o", "--input-format", "-p", "--front-matter"})
_TWO_VALUES = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile"})
_MAX_FILTER = 20_000
_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_ENV_TOKEN = re.compile(r"(?<![\w$])env(?!\w)|\$ENV(?!\w)")
_WORD = re.compile(r"\$?\w+")
_STRING_TEXT = re.compile(r'[^"\\]+')
_PLAIN = re.compile(r'[^"#{}\[\](),$\w]+')


def _filter(texts: list[str]) -> int | None:
    """The index of the filter argument of ``jq ARGS`` (None when it comes from a file or
    is missing)."""
    i = 0
    while i < len(texts):
        t = texts[i]
        if t == "--":
            return i + 1 if i + 1 < len(texts) else None
        if t in _TWO_VALUES:
            i += 3
            continue
        if t in ("-f", "--from-file") or t.startswith("--from-file="):
            return None  # the filter is in a file
        if t in _ONE_VALUE:
            i += 2
            continue
        if t.startswith("-") and t != "-":
            if not t.startswith("--") and "f" in t[1:]:
                return None  # -rf FILE: the filter is in a file
            i += 2 if not t.startswith("--") and t.endswith("L") else 1  # -rL DIR
            continue
        return i
    return None


def _string_rest(code: str, i: int, stack: list[str]) -> int:
    """Skip a string's text from ``i``: past its closing quote, or past ``\\(`` (an
    interpolation: code again, pushed on ``stack``)."""
    n = len(code)
    while i < n:
        m = _STRING_TEXT.match(code, i)
        if m is not None:
            i = m.end()
            continue
        if code[i] == '"':
            return i + 1
        if code.startswith("\\(", i):
            stack.append("\\(")
            return i + 2
        i += 2  # an escape
    return n


def _reads_env(code: str) -> bool:
    """Whether the jq filter ``code`` reads the environment (see the module doc)."""
    if _ENV_TOKEN.search(code) is None:
        return False
    n = len(code)
    i = 0
    # Open brackets in code ("{", "[", "(") and "\\(" (an interpolation inside a string).
    stack: list[str] = []
    key_next = False  # the next token is an object key ({env: 1}, {a: 1, env})
    while i < n:
        c = code[i]
        if c == '"':
            i = _string_rest(code, i + 1, stack)
            key_next = False
        elif c == "#":
            k = code.find("\n", i)
            i = n if k == -1 else k
        elif c in "{[(":
            stack.append(c)
            key_next = c == "{"
            i += 1
        elif c in "}])":
            top = stack.pop() if stack else ""
            i = _string_rest(code, i + 1, stack) if top == "\\(" else i + 1
            key_next = False
        elif c == "," and stack and stack[-1] == "{":
            key_next = True
            i += 1
        elif c in _IDENT or c == "$":
            m = _WORD.match(code, i)
            start = i
            i = m.end() if m is not None else i + 1
            key = key_next
            key_next = False
            if i - start not in (3, 4) or code[start:i] not in ("env", "$ENV"):
                continue
            back = start - 1
            while back >= 0 and code[back] in " \t\r\n":
                back -= 1
            after = i
            while after < n and code[after] in " \t\r\n":
                after += 1
            if code[start] == "e" and (key or code[after:after + 1] == ":"):
                continue  # {env: 1}, {env}, def env: ...
            if (back >= 0 and code[back] == ".") or _one_plain_variable(code, after):
                continue  # .env (a field), env.HOME (one variable)
            return True
        else:
            m = _PLAIN.match(code, i)
            run = m.group() if m is not None else c
            if not run.isspace():
                key_next = False
            i += len(run)
    return False


def _one_plain_variable(code: str, at: int) -> bool:
    """``env.HOME``, ``$ENV.PATH``, ``env["USER"]`` (at ``at``): one variable that holds
    no secret."""
    if code.startswith(".", at):
        start = end = at + 1
    elif code.startswith('["', at):
        start = end = at + 2
    else:
        return False
    while end < len(code) and code[end] in _IDENT and end - start < 128:
        end += 1
    if end == start or (code[at] == "[" and not code.startswith('"]', end)):
        return False
    return not secret_name(code[start:end])


def jq_env(run: Run, inv: Invocation) -> Taint:
    """Secret taint for the output of a jq whose filter reads the environment."""
    texts = [f.text for f in inv.args]
    at = _filter(texts)
    code = texts[at] if at is not None else None
    if code is None or "env" not in code and "ENV" not in code or len(code) > _MAX_FILTER:
        return NO_TAINT
    if not _reads_env(code):
        return NO_TAINT
    return frozenset({Source("secret", inv.name, run.map_span(inv.word.span))})


# jq/yq options with one value and with two (``--arg NAME VALUE``), for :func:`jq_parts`.
_PART_ONE = frozenset({"--indent", "-L", "--library-path", "-o", "--output-format", "-p",
                       "--input-format", "-I", "--front-matter", "--expression",
                       "--split-exp", "--xml-attribute-prefix"})
_FROM_FILE = frozenset({"-f", "--from-file"})


def jq_parts(args: list[Field]) -> tuple[Field | None, list[Field],
                                         list[tuple[str, str, str]]]:
    """(the filter, the input files, the ``(option, name, value)`` of each ``--arg``-like
    option) of ``jq``/``yq`` ``args``. With ``-f FILE`` the filter is in FILE: None, and
    every positional is an input. Arguments after ``--args``/``--jsonargs`` are values."""
    filt: Field | None = None
    files: list[Field] = []
    pairs: list[tuple[str, str, str]] = []
    from_file = False
    k, n = 0, len(args)
    while k < n:
        t = args[k].text
        if t in _TWO_VALUES and k + 2 < n:
            pairs.append((t, args[k + 1].text, args[k + 2].text))
            k += 3
            continue
        if t in ("--args", "--jsonargs"):
            break
        if t in _FROM_FILE:
            from_file = True
            k += 1  # its FILE is read as the filter: not an input
            if k < n:
                k += 1
            continue
        if t.startswith("-") and len(t) > 1:
            k += 2 if t in _PART_ONE else 1
            continue
        if filt is None and not from_file:
            filt = args[k]
        else:
            files.append(args[k])
        k += 1
    return filt, files, pairs


def jq_files(args: list[Field]) -> list[Field]:
    """jq's arguments but its filter: ``jq .env config.json`` reads no ``.env`` file."""
    at = _filter([f.text for f in args])
    return args if at is None else args[:at] + args[at + 1:]
