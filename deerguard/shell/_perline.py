"""Interpreter code that runs each line of its input as a shell command.

``perl -ne 'system $_'``, ``ruby -pe 'system $_'``, ``awk '{system($0)}'``,
``php -R 'system($argn);'``, ``python3 -c 'import os,sys; [os.system(l) for l in sys.stdin]'``,
``node -e 'rl.on("line", l => execSync(l))'``, ``lua -e 'for l in io.lines() do
os.execute(l) end'``: the code is a loop whose body hands the whole input line to a shell
call, so the *input* is the code, the same as ``| sh`` (stdin) or ``sh FILE`` (the files
named after the code). :func:`line_names` finds the names bound to an input line;
:func:`runs_lines` says whether one of them is the whole argument of a shell call.

Token-based (``_strfold.tokens``) and regular expressions without nested quantifiers over
at most 20,000 characters: linear.
"""

from __future__ import annotations

import re

from ._code import _CALLS_COMMON, _CALLS_NOT_PYTHON
from ._receiver import DATA_METHODS, data_receiver
from ._strfold import Tok, tokens
from ._words import Field

__all__ = ["line_operands", "line_names", "runs_lines"]

_SHELL = frozenset(_CALLS_COMMON + _CALLS_NOT_PYTHON + ("popen", "execute", "getline"))
# The language's own eval, by language: the input is code of that language.
_EVALS = {"python": frozenset({"exec", "eval"}), "perl": frozenset({"eval"}),
          "ruby": frozenset({"eval", "instance_eval"}), "node": frozenset({"eval"}),
          "php": frozenset({"eval"}), "lua": frozenset({"load", "loadstring", "dostring"})}
_WRAPPERS = frozenset({"trim", "chomp", "chop", "str", "rtrim", "strip", "String", "chomp!"})
_LINE_END = frozenset({")", ",", ";", "\n", "}", "if", "unless", "or", "and", "for", "end",
                       "|", "]"})

_W = r"[ \t]{0,8}"
_NAME = r"([A-Za-z_$][\w]{0,63})"
_BIND = {
    "python": (re.compile(r"\bfor" + _W + _NAME + _W + r"in" + _W +
                          r"(?:sys\.stdin|fileinput\.input|open\(0|open\([\"']/dev/stdin|"
                          r"iter\(input|iter\(sys\.stdin)"),
               re.compile(_NAME + _W + r"=" + _W + r"(?:input\(|sys\.stdin\.read)")),
    "perl": (re.compile(_NAME.replace("A-Za-z_$", "$") + _W + r"=" + _W +
                        r"<(?:STDIN|ARGV|stdin)?>"),),
    "ruby": (re.compile(r"(?:STDIN|\$stdin|ARGF|readlines|gets)[\w.]{0,24}" + _W +
                        r"(?:\{|do)" + _W + r"\|" + _W + _NAME + _W + r"\|"),
             re.compile(_NAME + _W + r"=" + _W + r"(?:gets|STDIN\.|\$stdin\.|ARGF\.)")),
    "node": (re.compile(r"on\(" + _W + r"[\"'](?:line|data)[\"']" + _W + r"," + _W +
                        r"(?:async" + _W + r")?(?:function" + _W + r")?\(?" + _W + _NAME),
             re.compile(r"for" + _W + r"await" + _W + r"\(" + _W + r"(?:const|let|var)" +
                        _W + _NAME + _W + r"of"),
             re.compile(_NAME + _W + r"=" + _W +
                        r"(?:require\([\"']fs[\"']\)\.|fs\.)?readFileSync\((?:0|[\"']/dev/std"
                        r"in)")),
    "php": (re.compile(r"(\$\w{1,63})" + _W + r"=" + _W +
                       r"(?:trim\(|rtrim\()?(?:fgets\(STDIN|stream_get_contents\(STDIN|"
                       r"file_get_contents\([\"']php://stdin|readline\()"),
            re.compile(r"as" + _W + r"(\$\w{1,63})")),
    "lua": (re.compile(r"for" + _W + _NAME + _W + r"in" + _W +
                       r"(?:io\.lines\(\)|io\.stdin:lines\(\))"),
            re.compile(_NAME + _W + r"=" + _W + r"io\.read\(")),
    "awk": (re.compile(_NAME.replace("A-Za-z_$", "A-Za-z_") + _W + r"=" + _W +
                       r"\$0(?![\w])"),),
}
_BIND["deno"] = _BIND["bun"] = _BIND["node"]
_PHP_STDIN_LOOPS = ("php://stdin", "STDIN")


def _flags(inv_args: list[Field], code: Field) -> tuple[str, int]:
    """The short-option letters before the code argument, and the code's index (-1)."""
    letters: list[str] = []
    for index, f in enumerate(inv_args[:16]):
        if f.span == code.span:
            if f.text.startswith("-") and not f.text.startswith("--"):
                letters.append(f.text[1:3])
            return "".join(letters), index
        t = f.text
        if t.startswith("-") and not t.startswith("--"):
            letters.append(t[1:6])
    return "".join(letters), -1


_AWK_GETLINE = re.compile(r"getline[ \t]{1,8}([A-Za-z_]\w{0,63})(?![\w\[])[ \t]{0,8}(<?)")


def _awk_getline(code: str) -> set[str]:
    """awk ``getline NAME``: NAME holds the next input line (``CMD | getline NAME`` reads a
    command's output and ``getline NAME < FILE`` a file's: not the input)."""
    out: set[str] = set()
    for m in _AWK_GETLINE.finditer(code):
        if m.group(2) or code[max(0, m.start() - 16):m.start()].rstrip(" \t(").endswith("|"):
            continue
        out.add(m.group(1))
        if len(out) >= 8:
            break
    return out


def line_names(code: str, language: str, letters: str) -> set[str]:
    """Names that hold one input line (or the whole input) in ``code``."""
    names: set[str] = set()
    if language in ("perl", "ruby") and ("n" in letters or "p" in letters):
        names.add("$_")
    if language == "perl" and any(m in code for m in ("<STDIN>", "<>", "<ARGV>", "<stdin>")):
        names.add("$_")
    if language == "ruby" and "gets" in code:
        names.add("$_")
    if language == "php" and ("R" in letters or "F" in letters):
        names.add("$argn")
    if language == "awk":
        names.add("$0")
        names.update(_awk_getline(code))
    for pattern in _BIND.get(language, ()):
        for m in pattern.finditer(code):
            names.add(m.group(1))
            if len(names) >= 16:
                return names
    if language == "php" and "$" in code and not any(s in code for s in _PHP_STDIN_LOOPS):
        names = {n for n in names if n == "$argn"}  # foreach (.. as $x): only over stdin
    return names


# Reads of the input given straight to a shell call: os.system(sys.stdin.read()).
_READS = ("sys.stdin.read", "input(", "raw_input(", "STDIN.read", "STDIN.gets", "$stdin.read",
          "$stdin.gets", "gets", "ARGF.read", "<STDIN>", "<>", "<ARGV>", "fgets(STDIN",
          "stream_get_contents(STDIN", "file_get_contents(\"php://stdin", "readline(",
          "file_get_contents('php://stdin", "io.read(", "io.stdin:read(", "readFileSync(0",
          "fs.readFileSync(0", "require(\"fs\").readFileSync(0", "require('fs').readFileSync(0",
          "readFileSync(\"/dev/stdin", "readFileSync('/dev/stdin", "open(0).read",
          "open(\"/dev/stdin\").read", "open('/dev/stdin').read", "trim(fgets(STDIN")


# Substrings one of which a shell or eval call holds, and one of which code reading its input
# line by line holds (besides perl/ruby -n/-p and php -R/-F): the cheap gates.
_RUN_GATE = ("system", "exec", "popen", "spawn", "getline", "execute", "`", "qx", "call",
             "run", "passthru", "eval", "load", "dostring", "Popen", "output")
_INPUT_GATE = ("stdin", "STDIN", "input", "$0", "<>", "<ARGV>", "gets", "ARGF", "readlines",
               "line", "data", "readFileSync", "argn", "io.read", "io.lines")


# The gates as one C-level search each (a substring test per entry, in Python, cost more
# than the rest of the check on ordinary code).
_RUN_RE = re.compile("|".join(map(re.escape, _RUN_GATE)))
_INPUT_RE = re.compile("|".join(map(re.escape, _INPUT_GATE)))
_READS_RE = re.compile("|".join(map(re.escape, _READS)))


def _reads_input(code: str, at: int) -> bool:
    """Whether the argument at offset ``at`` of ``code`` reads the program's input."""
    head = code[at:at + 40]
    return any(head.startswith(r) for r in _READS) and not head.startswith(("getsize",
                                                                            "gets_"))


def _arg_is(toks: list[Tok], j: int, names: set[str]) -> bool:
    """Whether the argument starting at token ``j`` is one of ``names`` (through wrappers
    such as ``trim(..)`` and methods such as ``.strip()``), ending the argument."""
    n = len(toks)
    opened = 0
    while j < n and toks[j][0] == "name" and toks[j][1] in _WRAPPERS and j + 1 < n and \
            toks[j + 1][1] == "(":
        j += 2
        opened += 1
    if j >= n:
        return False
    tok = toks[j]
    if tok[0] == "str":
        value = tok[1].strip()
        hit = value in names or value[2:-1] in names if value[:2] in ("#{", "${") else \
            value in names
        if not hit:
            return False
    elif tok[0] != "name" or tok[1] not in names:
        return False
    j += 1
    for _ in range(8):  # .strip() .rstrip("\n") .chomp .trim()
        if j + 1 < n and toks[j][1] == "." and toks[j + 1][0] == "name":
            j += 2
            if j < n and toks[j][1] == "(":
                k = j + 1
                while k < n and k < j + 4 and toks[k][1] != ")":
                    k += 1
                j = k + 1
            continue
        break
    while opened and j < n and toks[j][1] == ")":
        j += 1
        opened -= 1
    return j >= n or toks[j][1] in _LINE_END


def runs_lines(code: str, language: str, names: set[str]) -> str | None:
    """``sh`` when a shell call of ``code`` takes one of ``names`` (or a read of the input)
    as its whole argument, ``language`` when the language's own eval does; else None."""
    if len(code) > 20000:
        return None
    toks = tokens(code, language)
    if not toks:
        return None
    n = len(toks)
    for k, tok in enumerate(toks):
        if tok[0] == "bt":
            value = tok[1].strip()
            if value in names or (value[:2] == "#{" and value[2:-1] in names):
                return "sh"
            continue
        if tok[0] != "name":
            continue
        if tok[1] in names and k + 2 < n and toks[k + 1][1] == "|" and \
                toks[k + 2][1] == "getline" and language == "awk":
            return "sh"  # awk: $0 | getline runs $0
        evals = _EVALS.get(language, frozenset())
        if (tok[1] not in _SHELL and tok[1] not in evals) or (k > 0 and toks[k - 1][1] in ("->",)):
            continue
        if tok[1] in DATA_METHODS and data_receiver(code, tok[2]):
            continue  # for l in sys.stdin: cur.execute(l); re.exec(line): not a shell call
        j = k + 1
        if j < n and toks[j][1] == "(":
            j += 1
        elif language not in ("perl", "ruby") or j >= n or toks[j][2] == tok[3]:
            continue
        if j < n and (_arg_is(toks, j, names) or _reads_input(code, toks[j][2])):
            return language if tok[1] in evals else "sh"
    return None


def line_operands(args: list[Field], code: Field, text: str, language: str
                  ) -> tuple[str | None, list[Field]]:
    """The language ``text`` (the code of ``code``, an argument of ``args``) runs its input
    as (``sh`` for shell calls; None when it does not), and the input files named after it
    (awk's ``NAME=VALUE`` operands left out)."""
    if _RUN_RE.search(text) is None:
        return None, []
    letters, index = _flags(args, code)
    names = line_names(text, language, letters) if _INPUT_RE.search(text) or (
        "n" in letters or "p" in letters or "R" in letters or "F" in letters) else set()
    if not names and _READS_RE.search(text) is None:
        return None, []
    kind = runs_lines(text, language, names | {"\0"})
    if kind is None:
        return None, []
    files = [f for f in args[index + 1:] if index >= 0 and f.static and
             not f.text.startswith("-") and not (language == "awk" and "=" in f.text)]
    return kind, files[:4]
