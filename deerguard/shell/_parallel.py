"""GNU parallel: the command lines it composes from its template and its input sources.

``parallel [OPTIONS] [TEMPLATE...] [::: ARGS | :::: FILES]...`` joins the template words with
spaces and runs the result with a shell (``-q`` quotes each word instead), once per input
item: the item replaces ``{}`` (and ``{.}``, ``{/}``, ``{1}``...) or is appended, quoted
as one word. Items come from ``::: ARGS``, the lines of ``:::: FILE``/``-a FILE``/
``--arg-file FILE`` (one source each; several sources combine), else from stdin. With no
template each item is itself a command line. ``--pipe`` feeds stdin to the template instead.

So ``echo 'rm -rf ~' > c; parallel :::: c`` runs ``rm -rf ~``, ``parallel -a list rm -rf``
deletes every listed path, ``parallel sh -c :::: fetched`` runs fetched lines, and
``parallel 'curl -s {} | sh' ::: URL`` pipes a download into a shell; ``parallel gzip ::::
files.txt`` only passes file names. Each composed line is classified as shell code with the
items bound to variables holding their text and taint (``sh -c "$item"`` of a fetched line is
a tainted run, ``gzip "$item"`` is not). A file written with fetched data and run line by line
with no template is a download run. ``sem`` (``--semaphore``) runs its command once. At most
:data:`_MAX_ITEMS` items a source and :data:`_MAX_RUNS` composed lines: linear, never raises.
"""

from __future__ import annotations

import re
import shlex
from itertools import islice, product
from typing import TYPE_CHECKING

from ._files import file_taint
from ._paths import norm_path
from ._sinks import STDIN_PATHS, download_exec, stdin_sink
from ._words import DYN, Field, Taint, Var, first_source
from ._written import read_written

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["parallel_tool"]

_MAX_ITEMS = 16
_MAX_RUNS = 16
_SEPARATORS = frozenset({":::", ":::+", "::::", "::::+"})
# Short options taking a value (attached, or else the next word).
_SHORT_VALUE = frozenset("aCdEIjJLnNPSsU")
# Short options whose value, if any, is only ever attached (-i[R], -l[N], -e[EOF]).
_SHORT_OPTIONAL = frozenset("ile")
_LONG_VALUE = frozenset({
    "--arg-file", "--arg-file-sep", "--arg-sep", "--basefile", "--bf", "--block",
    "--block-size", "--colsep", "--compress-program", "--decompress-program", "--delay",
    "--delimiter", "--env", "--halt", "--halt-on-error", "--header", "--jobs", "--max-procs",
    "--joblog", "--limit", "--load", "--max-args", "--max-chars", "--memfree", "--memsuspend",
    "--nice", "--profile", "--recstart", "--recend", "--results", "--res", "--retries",
    "--return", "--rpl", "--sshdelay", "--sshlogin", "--sshloginfile", "--slf", "--ssh",
    "--tagstring", "--termseq", "--timeout", "--tmpdir", "--tempdir", "--transferfile",
    "--transfer-file", "--tf", "--trc", "--workdir", "--wd", "--semaphorename", "--id",
    "--sqlmaster", "--sqlworker", "--sqlandworker", "--tmpl", "--match", "--seqreplace",
    "--ctagstring", "--group-by", "--rsync-opts", "--ssh-delay", "--cr", "--shard",
    "--fifo-file", "--sshlogin-file", "--retry-failed-file"})
# {}, {.}, {/}, {//}, {/.}, {N} and {N.}..., {#} and {%}. (A perl expression {= ... =} is
# not one: the item is then appended, which still puts it in the command line.)
_REPLACEMENT = re.compile(r"\{([0-9]{0,6})(?:\.|/|//|/\.)?\}|\{[#%]\}")
_VAR = "_deerguard_parallel_"


class _Source:
    """One input source: its items (static text or DYN, with taint) and the file it is."""

    __slots__ = ("items", "file")

    def __init__(self, items: list[Field], file: Field | None = None) -> None:
        self.items = items
        self.file = file


def parallel_tool(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    """The command lines ``parallel`` runs (``inv.name`` is parallel; see the module doc)."""
    args = inv.args[:256]
    files: list[Field] = []
    quote = pipe = False
    once = inv.name == "sem"  # sem (parallel --semaphore) runs its command once
    repl: str | None = None
    sep_args, sep_files = ":::", "::::"
    k = 0
    n = len(args)
    while k < n:
        f = args[k]
        t = f.text
        if t in _SEPARATORS or t in (sep_args, sep_files) or not t.startswith("-") or t == "-":
            break
        k += 1
        if t == "--":
            break
        if t.startswith("--"):
            key, eq, value = t.partition("=")
            if key in _LONG_VALUE and not eq:
                value = args[k].text if k < n else ""
                val_field = args[k] if k < n else None
                k += 1
            else:
                val_field = Field(value, f.span, f.taint, f.proc)
            if key == "--arg-file" and val_field is not None:
                files.append(val_field)
            elif key == "--arg-sep":
                sep_args = value
            elif key == "--arg-file-sep":
                sep_files = value
            elif key == "--quote":
                quote = True
            elif key in ("--pipe", "--pipepart"):
                pipe = True
            elif key == "--semaphore":
                once = True
            elif key == "--replace":
                repl = value or "{}"
            continue
        for pos in range(1, len(t)):
            letter = t[pos]
            if letter == "q":
                quote = True
            if letter in _SHORT_OPTIONAL:
                if letter == "i":
                    repl = t[pos + 1:] or "{}"
                break
            if letter in _SHORT_VALUE:
                attached = t[pos + 1:]
                value_field = Field(attached, f.span, f.taint, f.proc) if attached else (
                    args[k] if k < n else None)
                if not attached:
                    k += 1
                if letter == "a" and value_field is not None:
                    files.append(value_field)
                elif letter == "I" and value_field is not None:
                    repl = value_field.text
                break
    stops = _SEPARATORS | {sep_args, sep_files}
    template: list[Field] = []
    while k < n and args[k].text not in stops:
        template.append(args[k])
        k += 1
    sources = [_file_source(run, f, stdin) for f in files[:8]]
    while k < n and len(sources) < 8:
        kind = args[k].text
        k += 1
        words: list[Field] = []
        while k < n and args[k].text not in stops:
            words.append(args[k])
            k += 1
        if kind in (sep_files, "::::", "::::+"):
            sources.extend(_file_source(run, f, stdin) for f in words[:8])
        else:
            sources.append(_Source(words[:_MAX_ITEMS]))
    if (pipe or once) and template:
        _run_line(run, inv, template, quote, repl, [], stdin if pipe else None)
        return
    if pipe:
        return
    if not template:
        _no_template(run, inv, sources, stdin)
        return
    if not sources:
        sources = [_stdin_source(stdin)]
    for items in islice(product(*(s.items or [Field(DYN, inv.word.span)] for s in sources)),
                        _MAX_RUNS):
        _run_line(run, inv, template, quote, repl, list(items), None)


def _no_template(run: Run, inv: Invocation, sources: list[_Source], stdin: Flow | None
                 ) -> None:
    """Each input item is a command line (``parallel :::: cmds``, ``parallel -a cmds``)."""
    if not sources:
        if stdin is not None:
            stdin_sink(run, stdin, inv, language="sh")  # curl u | parallel
        return
    for source in sources:
        for item in source.items:
            fetched = first_source(item.taint) is not None
            if fetched and item.text == DYN and source.file is not None and \
                    not source.file.proc:
                download_exec(run, source.file, item.taint, inv.name)  # a fetched file
            elif fetched or item.text.strip(DYN + " \t"):
                run.run_code(item, inv.name, inv.word.span, None, positional=[])


def _file_source(run: Run, f: Field, stdin: Flow | None) -> _Source:
    """The lines of an argument file (``-`` and /dev/stdin read stdin)."""
    if f.text in STDIN_PATHS:
        return _stdin_source(stdin)
    text: str | None = None
    taint = f.taint
    if f.proc:
        text = run.proc_output(f.span)
    elif f.static:
        path = norm_path(f.text, run.cwd)
        if path is not None:
            text = read_written(run, path, f.span)
            taint = taint | file_taint(run.files, path)
    if text is None or (taint and DYN in text):
        return _Source([Field(DYN, f.span, taint)], f)
    return _Source(_lines(text, f.span, taint), f)


def _stdin_source(stdin: Flow | None) -> _Source:
    if stdin is None:
        return _Source([])
    if stdin.text is None:
        return _Source([Field(DYN, stdin.span, stdin.taint)])
    return _Source(_lines(stdin.text, stdin.span, stdin.taint))


def _lines(text: str, span: tuple[int, int], taint: Taint) -> list[Field]:
    out: list[Field] = []
    for line in text.splitlines()[:64]:
        if line.strip():
            out.append(Field(line, span, taint))
            if len(out) >= _MAX_ITEMS:
                break
    return out


def _run_line(run: Run, inv: Invocation, template: list[Field], quote: bool,
              repl: str | None, items: list[Field], stdin: Flow | None) -> None:
    """Classify one composed command line, the items bound to variables (quoted words)."""
    texts = [f.text for f in template]
    code = " ".join(shlex.quote(t) for t in texts) if quote else " ".join(texts)
    if repl is not None and repl != "{}":
        code = code.replace(repl, "{}")
    refs = [f'"${_VAR}{index}"' for index in range(len(items))]

    def ref(match: re.Match[str]) -> str:
        whole = match.group(0)
        if whole in ("{#}", "{%}"):
            return "1"
        number = match.group(1)
        if number and 0 < int(number) <= len(refs):  # at most 6 ASCII digits
            return refs[int(number) - 1]
        return " ".join(refs)

    if refs:
        composed = _REPLACEMENT.sub(ref, code)
        if composed == code:
            composed = f"{code} {' '.join(refs)}"  # no replacement string: appended
    else:
        composed = code
    span = (template[0].span[0], template[-1].span[1])
    taint = frozenset().union(*(f.taint for f in template))
    mark = run.env.checkpoint()
    try:
        for index, item in enumerate(items):
            run.env[f"{_VAR}{index}"] = Var(alts=(item.text,), taint=item.taint)
        run.env_version += 1
        run.run_code(Field(composed, span, taint), inv.name, inv.word.span, stdin,
                     positional=[])
    finally:
        run.env.rollback(mark)
        run.env_version += 1
