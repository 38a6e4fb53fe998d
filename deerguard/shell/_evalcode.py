"""Decode or fetch, then evaluate, inside another language's code.

The in-language spellings of ``base64 -d | sh`` and ``curl u | sh``:

* a *decoder* call on a literal (``base64.b64decode('..')``, ``bytes.fromhex('..')``,
  ``Buffer.from('..', 'base64')``, ``atob``, Perl ``decode_base64``/``pack("H*", ..)``,
  PHP ``base64_decode``/``hex2bin``/``str_rot13``, Ruby ``"..".unpack1("m")``/
  ``Base64.decode64``, R/Julia ``base64decode``; under ``zlib.decompress``/``gzinflate`` the
  bytes are inflated too) is decoded statically. When the decoded text reaches an *eval sink*
  of the language (``exec``, ``eval``, ``new Function``, ``loadstring``, ``instance_eval``...)
  it is classified as code of that language (its shell-outs, paths, nested decodes); when it
  reaches a shell call (``os.system``, ``system``, ``execSync``...) it is classified as shell.
  Evaluating hidden code warns at least (``shell.dynamic-code``); what it does decides the rest.
  The context is read outwards from the decoder call (``exec(compile(b64decode(..)))``) or
  through one assignment (``c = b64decode('..'); exec(c)``);
* a decoder on data not known statically that reaches an eval sink warns;
* code fetched by the language's own HTTP clients and evaluated blocks: Perl ``eval get URL``
  (LWP::Simple, also loaded with ``-M``), R ``source(URL)``/``source_url``/``eval(parse(..url..))``,
  Julia ``include(download(URL))``, PHP ``include 'http://..'``, Ruby ``eval(open(URL).read)``
  with open-uri (``-ropen-uri``);
* a shell call whose output is fetched (``io.popen('curl u')``, ``shell_exec('curl u')``,
  Perl/Ruby backticks) evaluated in the language blocks.

Every scan is a bounded walk (at most a few hundred characters back from a literal, at most
16 payloads per code string); decoded text is shorter than its literal, so nesting ends.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._code import Snippet, literals
from ._flow import Flow
from ._gate import word_gate
from ._langpaths import chain_start
from ._receiver import DATA_METHODS, data_call
from ._values import first_source
from ._words import Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["eval_code"]

Interp = Callable[["Run", Field, str, "Invocation"], object]

# Substrings one of which any decoder call holds (lowercased): the cheap gate.
_GATE = ("decode", "b64", "hex", "atob", "base64", "pack", "rot13", "buffer", "from64")
_GATE_RE = word_gate(_GATE)

# Decoder call name (lowercased) -> encoding of its (first) literal argument.
_DECODERS = {
    "b64decode": "b64", "urlsafe_b64decode": "b64", "standard_b64decode": "b64",
    "decodebytes": "b64", "decodestring": "b64", "a2b_base64": "b64", "decode_base64": "b64",
    "base64_decode": "b64", "decode64": "b64", "strict_decode64": "b64",
    "urlsafe_decode64": "b64", "atob": "b64", "base64decode": "b64", "base64_dec": "b64",
    "frombase64string": "b64", "b32decode": "b32", "fromhex": "hex", "unhexlify": "hex",
    "a2b_hex": "hex", "hex2bin": "hex", "decode_hex": "hex", "hex_decode": "hex",
    "str_rot13": "rot13",
}
# Decoders whose encoding is a second literal: Buffer.from(s, 'base64'), codecs.decode(s, 'hex').
_ENCODING_ARG = frozenset({"from", "buffer", "decode"})
_ENCODINGS = {"base64": "b64", "base64url": "b64", "hex": "hex", "rot13": "rot13",
              "rot_13": "rot13", "base64_codec": "b64", "hex_codec": "hex", "b64": "b64"}
_INFLATE = frozenset({"decompress", "gzinflate", "gzuncompress", "gzdecode", "inflate",
                      "inflatesync", "gunzipsync", "inflaterawsync", "zlib_decode",
                      "memdecompress"})

_EVAL_COMMON = frozenset({"eval", "evalq", "loadstring", "dostring", "function",
                          "runinthiscontext", "runinnewcontext", "runincontext",
                          "instance_eval", "class_eval", "module_eval", "include_string",
                          "iex", "invoke-expression", "create_function", "eval_tidy"})
# PowerShell: Invoke-Expression (its last name part), [scriptblock]::Create(...).
_EVAL_SINKS = {"python": _EVAL_COMMON | {"exec", "execfile"},
               "lua": _EVAL_COMMON | {"load"},
               "pwsh": _EVAL_COMMON | {"expression", "create", "invoke-command", "icm"}}
_SHELL_COMMON = frozenset({"system", "popen", "spawn", "spawnsync", "execsync", "shell_exec",
                           "passthru", "proc_open", "check_output", "check_call", "call",
                           "run", "getoutput", "getstatusoutput", "capture2", "capture3",
                           "capture2e", "popen3", "qx", "execute", "execa", "execasync"})
_SHELL_SINKS = {"python": _SHELL_COMMON}
_SHELL_NOT_PYTHON = _SHELL_COMMON | {"exec", "execfile", "execfilesync"}
_STRING_PREFIX = "bBrRuUfF"
_BACK = 256  # how far back from a literal the walks read
_WHITESPACE = str.maketrans("\n\t\r", "   ")
_HIDDEN = re.compile(r"[^\x20-\x7e\u00a0-\U0010ffff]|\ufffd")


def _last_name(chain: str) -> str:
    for sep in ("->", "::", ".", ":"):
        chain = chain.rsplit(sep, 1)[-1]
    return chain.lstrip("$").lower()


def _callee(code: str, pos: int, floor: int) -> tuple[str, int] | None:
    """The call whose argument starts at ``pos``: its lowercased name and where its chain
    starts. ``f(x``, ``f([x``, ``f(text = x`` (R, Python keywords) and the bare calls of
    Perl, Ruby and PowerShell (``eval pack(..)``, ``eval "..".unpack1("m")``)."""
    j = pos
    if j > floor and code[j - 1] in _STRING_PREFIX and (
            j - 1 == floor or not (code[j - 2].isalnum() or code[j - 2] == "_")):
        j -= 1  # b'...' r"..."
    while j > floor and code[j - 1] in " \t":
        j -= 1
    spaced = j < pos
    if j > floor and code[j - 1] == "=" and (j - 1 == floor or code[j - 2] not in "=!<>"):
        k = j - 1  # a keyword argument: parse(text = x)
        while k > floor and code[k - 1] in " \t":
            k -= 1
        start = chain_start(code, k, floor)
        while start > floor and code[start - 1] in " \t":
            start -= 1
        if start < k and start > floor and code[start - 1] in "(,":
            j = start
            spaced = False
        else:
            return None
    opened = False
    for _ in range(2):
        if j > floor and code[j - 1] in "([":
            j -= 1
            opened = True
            while j > floor and code[j - 1] in " \t":
                j -= 1
    if not opened and not spaced:
        return None
    start = chain_start(code, j, floor)
    if start == j:
        return None
    name = _last_name(code[start:j])
    if name in DATA_METHODS and data_call(code, j):
        return "", start  # cur.execute(b64decode(..)): SQL, neither shell nor eval
    return name, start


def _enclosing(code: str, pos: int, levels: int = 5) -> list[str]:
    """Names of the calls around the expression starting at ``pos``, innermost first."""
    floor = max(0, pos - _BACK)
    out: list[str] = []
    for _ in range(levels):
        got = _callee(code, pos, floor)
        if got is None:
            break
        out.append(got[0])
        pos = got[1]
    return out


def _assigned(code: str, pos: int) -> str | None:
    """``NAME = <expr at pos>``: NAME (``$c`` in Perl), else None."""
    floor = max(0, pos - _BACK)
    j = pos
    while j > floor and code[j - 1] in " \t":
        j -= 1
    if j <= floor or code[j - 1] != "=" or (j > 1 and code[j - 2] in "=!<>"):
        return None
    j -= 1
    while j > floor and code[j - 1] in " \t":
        j -= 1
    k = j
    while k > floor and (code[k - 1].isalnum() or code[k - 1] in "_$"):
        k -= 1
    return code[k:j] if k < j else None


def _decode(payload: str, enc: str, inflate: bool) -> str | None:
    s = "".join(payload.split())
    if not s or len(s) > 65536:
        return None
    try:
        if enc == "b64":
            s = s.replace("-", "+").replace("_", "/")
            data = base64.b64decode(s + "=" * (-len(s) % 4))
        elif enc == "b32":
            data = base64.b32decode(s.upper() + "=" * (-len(s) % 8))
        elif enc == "hex":
            data = bytes.fromhex(s[2:] if s[:2] in ("0x", "0X") else s)
        else:
            data = codecs.encode(payload, "rot13").encode()
    except (ValueError, binascii.Error):
        return None
    if inflate:
        for wbits in (47, -15):
            try:
                data = zlib.decompressobj(wbits).decompress(data, 65536)
                break
            except zlib.error:
                continue
    if len(data) >= 4 and len(data) % 2 == 0 and data[1::2].count(0) * 4 >= len(data) * 3 // 2:
        text = data.decode("utf-16-le", "replace")  # [Text.Encoding]::Unicode.GetString
    else:
        text = data.decode("utf-8", "replace")
    if not text:
        return None
    flat = text.translate(_WHITESPACE)
    if flat.isprintable():
        return text
    hidden = len(_HIDDEN.findall(flat))  # binary: not code
    return text if hidden * 10 <= len(text) else None


def _payloads(code: str, lits: tuple[tuple[int, int, str], ...]
              ) -> list[tuple[int, str, str]]:
    """(start of the decoding expression, payload, encoding) for decoder calls on literals."""
    out: list[tuple[int, str, str]] = []
    for k, (start, end, value) in enumerate(lits[:512]):
        if value[:1] == "`" or len(value) < 5:
            continue
        floor = max(0, start - _BACK)
        got = _callee(code, start, floor)
        enc = None
        expr = start
        if got is not None:
            name, expr = got
            enc = _DECODERS.get(name)
            if name in _ENCODING_ARG and k + 1 < len(lits) and \
                    code[end:lits[k + 1][0]].strip(" \t") == ",":
                enc = _ENCODINGS.get(lits[k + 1][2][1:].lower())
        elif k > 0 and code[lits[k - 1][1]:start].strip(" \t") == ",":
            # pack("H*", "6869"), unpack("m", "aGk="): the format comes first.
            prev = _callee(code, lits[k - 1][0], max(0, lits[k - 1][0] - _BACK))
            fmt = lits[k - 1][2][1:]
            if prev is not None and prev[0] == "pack" and fmt.startswith("H"):
                enc, expr = "hex", prev[1]
            elif prev is not None and prev[0] == "unpack" and fmt.startswith("m"):
                enc, expr = "b64", prev[1]
        if enc is None:
            # Ruby: "aGk=".unpack1("m"), ["6869"].pack("H*"); Python 2: "..".decode("hex").
            expr = start
            after = code[end:end + 24].replace(" ", "")
            tail = after.lstrip("]")
            arg = tail.split("(", 1)[1][1:3] if "(" in tail else ""
            if tail.startswith((".unpack1(", ".unpack(")) and arg[:1] == "m":
                enc = "b64"
            elif tail.startswith((".unpack1'm", '.unpack1"m', ".unpack'm", '.unpack"m')):
                enc = "b64"  # "aGk=".unpack1 "m": a call without parentheses
            elif after.startswith("].pack(") and arg[:1] == "H":
                enc = "hex"
                expr = start - 1 if start > 0 and code[start - 1] == "[" else start
            elif tail.startswith(".decode(") and k + 1 < len(lits):
                enc = _ENCODINGS.get(lits[k + 1][2][1:].lower())
        if enc is not None:
            out.append((expr, value[1:], enc))
            if len(out) >= 16:
                break
    return out


def _uses(code: str, name: str, sinks: frozenset[str]) -> bool:
    """Whether ``name`` is an argument of a call in ``sinks`` (``exec(c)``, ``eval $c``)."""
    at = code.find(name)
    for _ in range(16):
        if at < 0:
            return False
        end = at + len(name)
        whole = (at == 0 or not (code[at - 1].isalnum() or code[at - 1] in "_$")) and (
            end >= len(code) or not (code[end].isalnum() or code[end] == "_"))
        if whole and code[end:end + 8].lstrip(" \t")[:1] != "=":
            names = _enclosing(code, at, 3)
            if any(n in sinks for n in names):
                return True
        at = code.find(name, end)
    return False


def _fetch_eval(lowered: str, language: str, opts: str) -> bool:
    """Language-specific download-then-evaluate spellings ``_code.eval_sources`` misses."""
    if language == "perl":
        loaded = any(m in lowered or m in opts for m in ("lwp", "http::tiny", "mojo::user",
                                                         "furl", "net::http"))
        at = lowered.find("eval")
        while loaded and at >= 0:
            nxt = lowered[at + 4:at + 40].lstrip(" \t(")
            if nxt[:1] not in ("{", ""):
                return True
            at = lowered.find("eval", at + 4)
        return False
    if language in ("R", "Rscript"):
        if "source_url(" in lowered or "source_gist(" in lowered:
            return True
        at = lowered.find("source(")
        for _ in range(8):
            if at < 0:
                break
            arg = lowered[at + 7:at + 40].replace(" ", "").removeprefix("file=")
            if arg.startswith(("url(", "'http", '"http', "'ftp", '"ftp')):
                return True
            at = lowered.find("source(", at + 7)
        return "parse(" in lowered and "eval(" in lowered and any(
            t in lowered for t in ("url(", "'http", '"http', "geturl(", "httr::", "get("))
    if language == "julia":
        squeezed = lowered.replace(" ", "")
        if any(s in squeezed for s in ("include(download(", "include(downloads.download(",
                                       "evalfile(download(")):
            return True
        return any(s in squeezed for s in ("include_string(", "eval(meta.parse(")) and any(
            f in squeezed for f in ("download(", "http.get(", "http.request("))
    if language == "ruby":
        return any(s in lowered for s in ("eval(", "eval ", "instance_eval")) and (
            "net::http" in lowered or ("open-uri" in opts and "open(" in lowered) or any(
                f in lowered for f in ("open('http", 'open("http', "httparty", "faraday",
                                       "restclient")) or ("uri(" in lowered and ".read" in
                                                          lowered))
    if language == "deno":
        # deno eval runs with every permission: a dynamic import of a URL runs remote code.
        squeezed = lowered.replace(" ", "")
        return "import('http" in squeezed or 'import("http' in squeezed or \
            "import(`http" in squeezed
    if language == "php":
        for word in ("include", "require"):
            at = lowered.find(word)
            for _ in range(8):
                if at < 0:
                    break
                arg = lowered[at + len(word):at + len(word) + 24].removeprefix("_once")
                arg = arg.lstrip(" \t(").lstrip("'\"")
                if arg.startswith(("http:", "https:", "ftp:", "php://input", "data:")):
                    return True
                at = lowered.find(word, at + len(word))
    return False


def eval_code(run: Run, code: Field, text: str, language: str, inv: Invocation,
              flows: list[tuple[Snippet, Flow | None]], interp: Interp) -> None:
    """Findings for decoded or fetched code evaluated in ``text`` (``language`` code run by
    ``inv``); ``flows`` are its shell calls with their output, ``interp`` classifies code."""
    lowered = text.lower()
    evals = _EVAL_SINKS.get(language, _EVAL_COMMON)
    shells = _SHELL_SINKS.get(language, _SHELL_NOT_PYTHON)
    opts = " ".join(f.text.lower() for f in inv.args[:8] if f.text.startswith("-")) \
        if language in ("perl", "ruby") else ""
    if _fetch_eval(lowered, language, opts):
        run.add("shell.tainted-exec", code.span, f"{inv.name} code downloads code and "
                "evaluates it", None)
    for snip, out in flows:
        src = first_source(out.taint, frozenset({"fetch", "decode"})) if out else None
        if src is not None and snip.end and any(
                n in evals for n in _enclosing(text, snip.start)):
            run.add("shell.tainted-exec", code.span, f"{inv.name} code evaluates the output "
                    "of a shell call that fetches data", f"{src.describe()} reaches an eval "
                    f"in {run._desc(inv.name, inv.word.span)}")
    if _GATE_RE.search(lowered) is None:
        return
    lits = literals(text, language in ("perl", "ruby", "php", "julia"))
    found = False
    for expr, payload, enc in _payloads(text, lits):
        names = _enclosing(text, expr)
        kind = next(("eval" if n in evals else "shell" for n in names
                     if n in evals or n in shells), None)
        if kind is None:
            var = _assigned(text, _enclosing_start(text, expr))
            if var is not None:
                kind = "eval" if _uses(text, var, evals) else \
                    "shell" if _uses(text, var, shells) else None
        if kind is None:
            continue
        found = True
        decoded = _decode(payload, enc, any(n in _INFLATE for n in names))
        if decoded is None:
            run.add("shell.dynamic-code", code.span, f"{inv.name} code runs an encoded "
                    f"literal ({enc}) that does not decode to text", None)
            continue
        sub = Field(decoded, code.span, code.taint)
        if kind == "shell":
            run.run_code(sub, f"{inv.name} shell call", inv.word.span, None, positional=[])
            continue
        run.add("shell.dynamic-code", code.span, f"{inv.name} code evaluates code hidden "
                f"in an encoded literal ({enc})", None)
        run.budget -= len(decoded) + 32
        if run.code_depth >= 12 or run.budget < 0:
            run.add("shell.nesting-too-deep", code.span, "nested code deeper or larger than "
                    "the classifier follows", None)
            return
        run.code_depth += 1  # rot13 keeps the length: the depth bounds the nesting
        try:
            interp(run, sub, language, inv)
        finally:
            run.code_depth -= 1
    if not found:
        _dynamic_decode(run, code, text, inv, evals)


def _enclosing_start(code: str, pos: int) -> int:
    """Start of the outermost call expression around ``pos`` (for ``c = zlib.decompress(
    b64decode('..'))`` the start of ``zlib.decompress``)."""
    floor = max(0, pos - _BACK)
    for _ in range(5):
        got = _callee(code, pos, floor)
        if got is None:
            break
        pos = got[1]
    return pos


def _dynamic_decode(run: Run, code: Field, text: str, inv: Invocation,
                    evals: frozenset[str]) -> None:
    """A decoder on data that is not a literal, evaluated: ``exec(b64decode(sys.argv[1]))``."""
    for name in ("b64decode(", "decode_base64(", "base64_decode(", "decode64(", "atob(",
                 "fromhex(", "unhexlify(", "hex2bin(", "frombase64string(", "base64decode("):
        at = text.lower().find(name)
        if at < 0:
            continue
        arg = text[at + len(name):at + len(name) + 4].lstrip(" \t")
        if arg[:1] in ("'", '"', "`") or arg[:2] in ("b'", 'b"'):
            continue
        start = chain_start(text, at + len(name) - 1, max(0, at - _BACK))
        if any(n in evals for n in _enclosing(text, start)):
            run.add("shell.dynamic-code", code.span, f"{inv.name} code evaluates decoded "
                    "data that is not known statically", None)
            return
