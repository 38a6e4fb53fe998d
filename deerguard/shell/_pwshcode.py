"""PowerShell code read as the shell commands it amounts to.

``pwsh -c 'Remove-Item -Recurse -Force ~'`` is ``rm -r -f ~``; ``iwr URL -OutFile x.ps1;
./x.ps1`` is a download then a run; ``Get-Content ~/.ssh/id_rsa | iwr URL -Method Post`` sends
a key. :func:`pwsh_snippets` reads PowerShell statements (quotes, backtick escapes,
subexpressions, script blocks, ``&`` and ``.`` calls, Windows paths and environment
variables), binds each cmdlet's parameters the way PowerShell does (case-insensitive,
unambiguous prefixes, ``-Name:value``, positions), and writes the bash command line each
statement amounts to, so the classifier's own rules judge it: deletes, reads of secrets,
writes to startup files (``$PROFILE``), fetches, uploads, ``Invoke-Expression`` of fetched
text, ``Start-Process -Verb RunAs`` (sudo), disk formatting and shutdown.

Native programs (``bash``, ``curl.exe``) pass through as themselves; cmdlets this module does
not know (``Get-Process``, ``Write-Output``) and expression statements (``$x = 1``) are left
out: they run no program of the shell's kind. Values that are not known statically become
unset variables in the bash text (unknown, never guessed). One pass over the code per nesting
level, at most :data:`_MAX_DEPTH` levels: linear, never raises on any text.
"""

from __future__ import annotations

from ._pwshcmd import UNKNOWN, Tok, command, q
from ._pwshenv import env_ref, piped_value
from ._pwshnet import dotnet_command
from ._pwshwmi import shadow_step

__all__ = ["pwsh_snippets"]

_MAX_DEPTH = 6

# Environment and automatic variables with a known meaning for paths.
_VARS = {
    "home": "~", "env:home": "~", "env:userprofile": "~", "env:homepath": "~",
    "env:systemroot": "/Windows", "env:windir": "/Windows",
    "env:programfiles": "/Program Files", "env:programdata": "/ProgramData",
    "env:appdata": "~/AppData/Roaming", "env:localappdata": "~/AppData/Local",
    "env:temp": "/tmp", "env:tmp": "/tmp",
    "profile": "~/.config/powershell/Microsoft.PowerShell_profile.ps1",
    "true": "True", "false": "False", "null": "",
}


def pwsh_snippets(code: str) -> list[str]:
    """The bash command lines that the PowerShell ``code`` amounts to (one per script
    block or piece of top-level code, statements separated by newlines)."""
    out: list[str] = []
    _Reader(code, out, 0).script(0, len(code))
    return out


class _Reader:
    def __init__(self, code: str, out: list[str], depth: int,
                 refs: dict[str, str] | None = None) -> None:
        self.code = code
        self.out = out
        self.depth = depth
        self.refs: dict[str, str] = {} if refs is None else refs  # $t = $env:X: "$X"

    # -- scanning ---------------------------------------------------------------------

    def script(self, start: int, end: int) -> str:
        """Translate ``code[start:end]``; append its bash text to ``out`` and return it."""
        lines: list[str] = []
        pipeline: list[str] = []
        words: list[Tok] = []
        code = self.code
        i = start
        first = start  # where the current command's first word starts
        shadow = [False]  # the pipeline has read shadow copies (Get-WmiObject ...)

        def end_command() -> None:
            wmi = shadow_step(words, code[first:i], shadow[0]) if words else None
            if wmi is not None:  # gwmi Win32_ShadowCopy | Remove-WmiObject
                shadow[0] = True
                if wmi:
                    pipeline.append(wmi)
                words.clear()
            if words:
                cmd = command(words)
                if cmd is None and words[0].value is None:
                    cmd = dotnet_command(code[first:i], _VARS)  # $wc.DownloadFile(u, p)
                if cmd is None and words[0].value is None:
                    cmd = piped_value(words, code[first:i], self.refs)  # $env:TOKEN | irm
                if cmd is not None:
                    pipeline.append(cmd)
                words.clear()

        def end_pipeline() -> None:
            end_command()
            shadow[0] = False
            if pipeline:
                lines.append(" | ".join(pipeline))
                pipeline.clear()

        while i < end:
            c = code[i]
            if not words:
                first = i
            if c in " \t\r":
                i += 1
            elif c in "\n;":
                end_pipeline()
                i += 1
            elif c == "|":
                if code.startswith("||", i):
                    end_pipeline()
                    i += 2
                else:
                    end_command()
                    i += 1
            elif c == "&":
                if code.startswith("&&", i):
                    end_pipeline()
                    i += 2
                else:
                    if not words:  # the call operator (& cmd); after words, a background job
                        words.append(Tok("&", "&", True))
                    i += 1
            elif c == "#":
                i = _line_end(code, i, end)
            elif c == "<" and code.startswith("<#", i):
                close = code.find("#>", i + 2, end)
                i = end if close < 0 else close + 2
            elif c in ")}":
                i += 1  # a stray closing bracket
            elif c == "{":
                close = _match(code, i, end, "{", "}")
                self._nested(i + 1, close)
                words.append(Tok(None, UNKNOWN, False))
                i = close + 1
            else:
                tok, i = self._word(i, end)
                words.append(tok)
        end_pipeline()
        text = "\n".join(lines)
        if text:
            self.out.append(text)
        return text

    def _nested(self, start: int, end: int) -> str:
        if self.depth >= _MAX_DEPTH:
            return ""
        return _Reader(self.code, self.out, self.depth + 1, self.refs).script(start, end)

    def _word(self, i: int, end: int) -> tuple[Tok, int]:
        """One argument-mode word starting at ``i`` (quotes, ``$`` expansions, ``(...)``)."""
        code = self.code
        static: list[str] = []
        bash: list[str] = []
        known = True
        bare = code[i] not in "'\""
        while i < end:
            c = code[i]
            if c in " \t\r\n;|&{})":
                break
            if c == "'":
                close = i + 1
                parts: list[str] = []
                while close < end:
                    if code[close] == "'":
                        if code.startswith("''", close):
                            parts.append("'")
                            close += 2
                            continue
                        break
                    parts.append(code[close])
                    close += 1
                text = "".join(parts)
                static.append(text)
                bash.append(q(text))
                i = close + 1
            elif c == '"':
                value, ref, i = self._double(i + 1, end)
                if value is None:
                    known = False
                    if ref:  # "https://x/?k=$env:GITHUB_TOKEN": keep the variable's name
                        bash.append(ref)
                else:
                    static.append(value)
                    bash.append(q(value))
            elif c == "`":
                if i + 1 < end and code[i + 1] != "\n":
                    static.append(code[i + 1])
                    bash.append(q(code[i + 1]))
                i += 2
            elif c == "$" or c == "(" or (c == "@" and code.startswith("@(", i)):
                value, bash_text, i = self._dollar(i, end)
                if value is None:
                    known = False
                    bash.append(bash_text)
                else:
                    static.append(value)
                    bash.append(q(value))
            else:
                j = i
                while j < end and code[j] not in " \t\r\n;|&{}'\"`$()":
                    j += 1
                static.append(code[i:j])
                bash.append(q(code[i:j]))
                i = j
        if not known:
            return Tok(None, "".join(bash) or UNKNOWN, bare), i
        text = "".join(static)
        return Tok(text, q(text), bare), i

    def _double(self, i: int, end: int) -> tuple[str | None, str, int]:
        """A double-quoted string from after its quote: (value or None, bash text when the
        value is not known but holds a secret environment variable, else "", index after)."""
        code = self.code
        parts: list[str] = []
        pieces: list[str] = []  # bash text: quoted runs of known text and "$SECRET" refs
        known = True
        secret = False
        while i < end:
            c = code[i]
            if c == '"':
                if code.startswith('""', i):
                    parts.append('"')
                    i += 2
                    continue
                return _string(parts, pieces, known, secret, i + 1)
            if c == "`" and i + 1 < end:
                parts.append(_BACKTICK.get(code[i + 1], code[i + 1]))
                i += 2
            elif c == "$" and i + 1 < end and (code[i + 1].isalnum() or code[i + 1] in "_{("):
                value, bash, i = self._dollar(i, end)
                if value is None:
                    known = False
                    secret = secret or bash != UNKNOWN and bash.startswith('"$') and \
                        not bash.startswith('"$(')
                    pieces.extend((q("".join(parts)) if parts else "", bash))
                    parts = []
                else:
                    parts.append(value)
            else:
                parts.append(c)
                i += 1
        return _string(parts, pieces, known, secret, end)

    def _dollar(self, i: int, end: int) -> tuple[str | None, str, int]:
        """``$name``, ``${name}``, ``$env:NAME``, ``$(...)``, ``@(...)`` or ``(...)`` at
        ``i``: (static value or None, bash text, index after)."""
        code = self.code
        if code.startswith("$(", i) or code.startswith("@(", i) or code[i] == "(":
            open_at = i if code[i] == "(" else i + 1
            close = _match(code, open_at, end, "(", ")")
            inner = self._nested(open_at + 1, close)
            bash = f'"$({inner})"' if inner and "\n" not in inner else UNKNOWN
            return None, bash, close + 1
        if code.startswith("${", i):
            close = code.find("}", i + 2, end)
            close = end if close < 0 else close
            name, after = code[i + 2:close], close + 1
        else:
            j = i + 1
            while j < end and (code[j].isalnum() or code[j] in "_:?"):
                j += 1
            name, after = code[i + 1:j], j
        if not name:
            return "$", "'$'", after
        value = _VARS.get(name.lower())
        if value is not None:
            return value, q(value), after
        return None, self.refs.get(name.lower()) or env_ref(name) or UNKNOWN, after


def _string(parts: list[str], pieces: list[str], known: bool, secret: bool, after: int
            ) -> tuple[str | None, str, int]:
    """The result of :meth:`_Reader._double` (see there)."""
    if known:
        return "".join(parts), "", after
    if not secret:
        return None, "", after
    return None, "".join((*pieces, q("".join(parts)) if parts else "")), after


_BACKTICK = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "e": "\x1b"}


def _line_end(code: str, i: int, end: int) -> int:
    nl = code.find("\n", i, end)
    return end if nl < 0 else nl


def _match(code: str, i: int, end: int, open_c: str, close_c: str) -> int:
    """Index of the bracket closing the one at ``i`` (quotes skipped), or ``end``."""
    depth = 0
    k = i
    while k < end:
        c = code[k]
        if c == "'" or c == '"':
            close = code.find(c, k + 1, end)
            k = end if close < 0 else close + 1
            continue
        if c == "`":
            k += 2
            continue
        if c == open_c:
            depth += 1
        elif c == close_c:
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return end
