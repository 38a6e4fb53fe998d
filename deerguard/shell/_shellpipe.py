"""A shell opened for writing from interpreter code, then fed commands on its stdin.

``perl -e 'open(P, "|sh"); print P "rm -rf ~"'``, PHP ``popen("sh", "w")``, Python
``os.popen("sh", "w").write(...)`` and ``Popen(["sh"], stdin=PIPE)``, Ruby ``IO.popen("sh",
"w")`` and node ``spawn("sh")`` with ``.stdin.write`` run whatever the code writes as shell
commands: a shell call like ``system(...)``, with its command in a later string. When the
code opens one, the string literals after the opening are read as the commands it may write
(their findings are kept when they block), and the call itself warns like a shell call
built at run time (``shell.dynamic-code``). A pipe to any other program (``open(P,
"|sort")``) is not a shell; Perl's piped opens (``open(F, "CMD |")``, ``"| CMD"``, ``"-|",
"CMD"``) run CMD through the shell like ``system`` and are classified as that command.

Linear: one bounded regex search per language, behind a substring gate.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._code import literals
from ._keep import keep_if_blocking
from ._words import Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["perl_piped_commands", "shell_writer"]

_SHELL = r"""["'](?:/usr)?(?:/bin/)?(?:sh|bash|dash|zsh|ksh|ash)(?:\s+-[a-z]+)*["']"""
_PIPED_SHELL = r"""["']\|\s*+(?:/usr)?(?:/bin/)?(?:sh|bash|dash|zsh|ksh|ash)\b"""
_OPENERS = {
    # open(FH, "|sh"), open(my $p, "|-", "sh"), open my $p, '|-', 'bash'
    "perl": re.compile(r"\bopen\s*+\(?\s*+(?:my\s++)?[$\w]{1,64}\s*+,\s*+(?:" + _PIPED_SHELL +
                       r"""|["']\|-["']\s*+,\s*+""" + _SHELL + ")"),
    "php": re.compile(r"\b(?:popen|proc_open)\s*+\(\s*+" + _SHELL),
    "python": re.compile(r"\b(?:os\.popen\s*+\(\s*+" + _SHELL + r"""\s*+,\s*+["'][wa]""" +
                         r"|Popen\s*+\(\s*+\[?\s*+" + _SHELL + r"|spawn\s*+\(\s*+" + _SHELL + ")"),
    "ruby": re.compile(r"(?:\bIO\.popen|\bOpen3\.popen[23e]?|\bPTY\.spawn)\s*+\(?\s*+\[?\s*+" +
                       _SHELL),
    "node": re.compile(r"\bspawn\s*+\(\s*+" + _SHELL),
}
_GATES = {"perl": "open", "php": "open", "python": "open", "ruby": "open", "node": ".stdin"}
_MODES = frozenset({"w", "r", "r+", "w+", "a", "wb", "rb", "|-", "-|", "-c", "-s", "-i"})
_MAX_LITERALS = 64


# Perl's piped opens run their command through the shell: open(FH, "CMD |"), open(FH,
# "| CMD"), open(FH, "-|", "CMD"), open(FH, "|-", "CMD").
_PERL_PIPED = re.compile(r"""\bopen\s*+\(?\s*+(?:my\s++)?[$\w]{1,64}\s*+,\s*+(?:"""
                         r"""(["'])(?:-\||\|-)\1\s*+,\s*+(["'])([^"'\n]{1,2000})\2"""
                         r"""|(["'])(\|[^"'\n]{1,2000}|[^"'\n|]{1,2000}\|)\4)""")


def perl_piped_commands(text: str) -> list[str]:
    """The commands of Perl's piped opens in ``text`` (at most 16)."""
    if "open" not in text or "|" not in text:
        return []
    out: list[str] = []
    for m in _PERL_PIPED.finditer(text):
        command = m.group(3) if m.group(3) is not None else m.group(5)
        out.append(command.strip().strip("|").strip())
        if len(out) >= 16:
            break
    return [c for c in out if c]


def shell_writer(run: Run, code: Field, text: str, language: str, inv: Invocation) -> None:
    """The commands ``text`` writes to a shell it opens (see the module doc), and the
    commands of Perl's piped opens, which run like ``system``'s."""
    if language == "perl":
        for command in perl_piped_commands(text):
            run.run_code(Field(command, code.span, code.taint), f"{inv.name} piped open",
                         inv.word.span, None, positional=[])
    family = "node" if language in ("node", "deno", "bun") else language
    pattern = _OPENERS.get(family)
    if pattern is None or _GATES[family] not in text and "spawn" not in text:
        return
    opened = pattern.search(text)
    if opened is None:
        return
    if family == "python" and opened.group(0).startswith("Popen") and "stdin" not in text:
        return  # Popen(["sh", ...]) with no stdin pipe: a shell call, read elsewhere
    run.add("shell.dynamic-code", code.span, f"{inv.name} code opens a shell and writes "
            "commands to its stdin", None)
    words = [value[1:] for start, _end, value in literals(text, language in (
        "perl", "ruby", "php"))[:256] if start >= opened.end()]
    lines = [w for w in words if w.strip() and w.strip() not in _MODES][:_MAX_LITERALS]
    if lines:
        keep_if_blocking(run, run.run_code, Field("\n".join(lines), code.span, code.taint),
                         f"{inv.name} code written to a shell", inv.word.span, None,
                         positional=[])
