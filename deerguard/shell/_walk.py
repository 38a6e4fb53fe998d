"""The classifier's walk over a parsed script: commands, pipes, redirections, flow of data.

One :class:`Run` holds the state of a classification: known variables (constant
propagation), functions, files written with fetched data, the working directory, and the
findings so far. It visits every command that would run (including command substitutions,
process substitutions, function bodies at their call sites and nested code strings), follows
data from fetchers and decoders to execution sinks, and applies the program rules.
"""

from __future__ import annotations

from .._result import Finding, Span
from . import _codevars as CV
from . import _compound as C
from . import _programs as P
from . import _redirect as RD
from . import _sinks as S
from . import ast
from ._arith import code_hook
from ._assign import assign_node, assignment_word, store
from ._chain import CHAIN_CHECKED, chain_checks
from ._env import Env
from ._flow import EMPTY, Flow
from ._flow import union as _union
from ._frames import Frame as _Frame
from ._listing import Compiled, policy_check
from ._raw import RAW_DETAIL
from ._resolve import Invocation, Resolution, resolve
from ._traps import note_trap
from ._varcheck import check_assignment
from ._words import NO_TAINT, Expander, Field, Source, Taint, Var, first_source
from ._written import xargs_runs

__all__ = ["Run"]

_MAX_CODE_DEPTH = 12
_MAX_NODE_DEPTH = 150
_MAX_VALUE = 4096


_BUDGET_FLOOR = 3 * 10_000 + 4096

_ASSIGN_BUILTINS = frozenset({"export", "declare", "typeset", "local", "readonly"})


class Run:
    """The state of one classification (not thread-safe; one per call)."""

    __slots__ = ("source", "cp", "findings", "seen", "commands", "env", "funcs", "called",
                 "active", "files", "cwd", "cond", "code_depth", "node_depth", "too_deep",
                 "budget", "frames", "subst_cache", "proc_text", "proc_cache", "file_text",
                 "aliases", "calls_done", "env_version", "exp", "text_stack", "raw_mode",
                 "keep", "serials", "next_serial", "fds", "stdin_now", "prefix", "locals",
                 "config_options", "hook_dirs", "printed", "runner_copies", "secret_repos",
                 "dirstack", "cwd_text", "traps", "links", "remote_state", "trees")

    def __init__(self, source: str, compiled: Compiled) -> None:
        self.source = source
        # Whether the text names a tool's own config option at all (--kubeconfig, --homedir):
        # read once here, not per command (that would be quadratic in the input).
        self.config_options = "--kubeconfig" in source or "--homedir" in source or \
            "--defaults-" in source or "--config" in source
        self.cp = compiled
        self.findings: list[Finding] = []
        self.seen: set[tuple[str, int, int]] = set()
        self.commands: list[str] = []
        self.env = Env()
        self.funcs: dict[str, ast.FunctionDef] = {}
        self.called: set[str] = set()
        self.active: list[str] = []
        self.files: dict[str, Taint] = {}
        self.fds: dict[str, Flow] = {}  # descriptors opened for reading (exec 3< f)
        self.stdin_now: Flow | None = None  # the stdin $(cat) inherits while expanding
        self.cwd: str | None = None
        self.dirstack: list[str | None] = []  # pushd's saved directories (_cwd)
        self.cwd_text: str | None = None  # cd "$X": the directory's text, not known (_cwd)
        self.cond = 0
        self.code_depth = 0
        self.node_depth = 0
        self.too_deep = False
        # Nested work (function calls, nested code, files run): proportional to the input,
        # with a floor of what a command of the default max_length (10,000) gets, so a
        # short script calling a function 20-80 times is followed at every call instead of
        # blocking as too deep. The floor keeps any input's work under that of a 10,000-
        # character one: it raises no worst case, only short inputs' share of it.
        self.budget = max(3 * len(source) + 4096, _BUDGET_FLOOR)
        self.frames: list[_Frame] = []
        self.subst_cache: dict[int, tuple[Taint, str | None]] = {}
        self.proc_text: dict[tuple[int, int, int], str] = {}  # (frame serial, span) -> text
        self.serials: list[int] = [0]
        self.next_serial = 1
        self.proc_cache: dict[int, Taint] = {}
        self.file_text: dict[str, str] = {}  # files written with static text (echo > f)
        self.links: dict[str, str] = {}  # link -> target made by ln (_copies)
        self.hook_dirs: list[str] = []  # git core.hooksPath directories set (_githooks)
        self.printed: set[Source] = set()  # outputs of password/token printers (_exfil)
        self.runner_copies: set[str] = set()  # copies of shells/interpreters made (_setuid)
        self.secret_repos: dict[str, str] = {}  # work trees git added secrets to (_gitpush)
        self.remote_state: dict[str, str] = {}  # config path NUL remote: first|moved (_gitremote)
        self.trees: dict[str, Source] = {}  # archives of the working tree written (_treeexport)
        self.aliases: dict[str, str] = {}
        self.calls_done: set[tuple[object, ...]] = set()
        self.keep: list[ast.Script] = []  # every parse tree walked, alive for the whole run
        self.env_version = 0  # bumped on every variable write (memo key for function calls)
        self.exp = Expander(self.env, self._subst, self._proc, self._arith, self._code,
                            self._assign_default)
        self.text_stack: list[str] = [source]
        self.raw_mode = False
        self.prefix: list[tuple[str, Field]] = []  # VAR=x of the command being run
        self.locals: list[dict[str, Var | None]] = []  # per function call: saved globals
        self.traps: list[tuple[Field, tuple[int, int], int]] = []  # run later (_traps)

    def push_frame(self, offset: int | None, clamp: tuple[int, int], index: list[int] | None,
                   text: str) -> None:
        """Enter nested code whose spans map into the current text by offset or index."""
        self.frames.append(_Frame(offset, clamp, index))
        self.text_stack.append(text)
        self.serials.append(self.next_serial)
        self.next_serial += 1

    def pop_frame(self) -> None:
        self.frames.pop()
        self.text_stack.pop()
        self.serials.pop()

    def proc_output(self, span: tuple[int, int]) -> str | None:
        """Static output of a ``<( )`` inside the word at ``span`` (current frame only)."""
        serial = self.serials[-1]
        hit = self.proc_text.get((serial, span[0], span[1]))
        if hit is not None:
            return hit
        for count, ((ser, start, end), text) in enumerate(self.proc_text.items()):
            if count >= 64:
                break  # bounded: a word rarely holds more than the substitution itself
            if ser == serial and span[0] <= start and end <= span[1]:
                return text
        return None

    # --- reporting ------------------------------------------------------------------------

    def map_span(self, span: tuple[int, int]) -> tuple[int, int]:
        for frame in reversed(self.frames):
            span = frame.outer(span)
        return span

    def add(self, rule_id: str, span: tuple[int, int], message: str, detail: str | None
            ) -> None:
        severity = self.cp.severity(rule_id)
        if severity is None:
            return
        mapped = self.map_span(span)
        if not 0 <= mapped[0] <= mapped[1] <= len(self.text_stack[0]):
            mapped = self._fallback_span(mapped)
        key = (rule_id, mapped[0], mapped[1])
        if key in self.seen:
            return
        self.seen.add(key)
        if detail is None and self.raw_mode:
            detail = RAW_DETAIL
        elif self.frames and detail is None and self.frames[-1].offset is None \
                and self.frames[-1].index is None:
            detail = "inside a nested code string"
        self.findings.append(Finding(rule_id, severity, message, Span(*mapped), detail))

    def _fallback_span(self, mapped: tuple[int, int]) -> tuple[int, int]:
        """A span that fell outside the command: data from an outer frame (a here-string
        fed through ``xargs sh -c sh``) located by a nested frame's offset. The outermost
        nested code's span holds the finding instead; spans always index the command."""
        n = len(self.text_stack[0])
        if self.frames:
            s, e = self.frames[0].clamp
            if 0 <= s <= e <= n:
                return (s, e)
        s = min(max(mapped[0], 0), n)
        return (s, min(max(mapped[1], s), n))

    def _desc(self, name: str, span: tuple[int, int]) -> str:
        s = self.map_span(span)
        return f"{name} ({s[0]}-{s[1]})"

    # --- expansion hooks --------------------------------------------------------------------

    def _subst(self, node: ast.CmdSubst) -> tuple[Taint, str | None]:
        key = id(node)
        hit = self.subst_cache.get(key)
        if hit is None and not node.body:
            hit = self.subst_cache[key] = (NO_TAINT, "")  # $() is empty: r$()m is rm
        if hit is None:
            mark = self.env.checkpoint()
            stdin = self.stdin_now  # $(cat) reads the stdin of the shell expanding it
            try:
                out = RD.subst_read(self, node.body) or self.body(node.body, stdin)
            finally:
                # A substitution runs in a subshell: its assignments do not leak out.
                self.env.rollback(mark)
            self.stdin_now = stdin
            self.printed.difference_update(out.taint)  # x=$(gh auth token): not shown
            hit = (out.taint, out.text)
            self.subst_cache[key] = hit
        return hit

    def _proc(self, node: ast.ProcSubst) -> Taint:
        key = id(node)
        hit = self.proc_cache.get(key)
        if hit is not None:
            return hit
        # >(cmd): cmd reads what the outer command writes, like the right side of a pipe.
        feed = Flow(producer="the command writing into >( )", span=node.span) \
            if node.op == ">" else None
        out = self.body(node.body, feed)
        self.printed.difference_update(out.taint)  # <(gh auth token): read, not shown
        if node.op == "<" and out.text is not None:
            self.proc_text[(self.serials[-1], node.span[0], node.span[1])] = out.text
        taint = out.taint if node.op == "<" else NO_TAINT
        self.proc_cache[key] = taint
        return taint

    def _arith(self, node: ast.ArithExp | ast.ParamExp, taint: Taint) -> None:
        src = first_source(taint)
        if src is not None:
            self.add("shell.tainted-exec", node.span, "fetched or decoded data is evaluated "
                     "as arithmetic or prompt expansion, which runs command substitutions",
                     f"{src.describe()} reaches an arithmetic or ${{x@P}} context "
                     f"({self.map_span(node.span)[0]}-{self.map_span(node.span)[1]})")

    def _assign_default(self, name: str, value: Field, var: Var) -> None:
        store(self, name, value, var, value.span)

    def _code(self, slot: str, text: str, taint: Taint, span: tuple[int, int]) -> None:
        code_hook(self, slot, text, taint, span)

    # --- walking ----------------------------------------------------------------------------

    def body(self, statements: tuple[ast.Statement, ...], stdin: Flow | None) -> Flow:
        out = EMPTY
        command = self.command
        alts = self.exp.alts_seen  # $(..), <(..), code: their readings are not the word's
        for st in statements:
            if st.terminator == "&":
                # cmd &: a subshell, whose assignments do not reach the script.
                mark = self.env.checkpoint()
                try:
                    out = _union(out, command(st.command, stdin))
                finally:
                    self.env.rollback(mark)
            else:
                out = _union(out, command(st.command, stdin))
        self.exp.alts_seen = alts
        return out

    def script(self, script: ast.Script) -> Flow:
        # Node ids key the run's caches, so every tree walked stays alive for the whole run.
        # The caller's reference is not enough: compiled code (mypyc) may release a local
        # after its last use, and a new tree could then reuse a freed node's id.
        self.keep.append(script)
        out = self.body(script.statements, None)
        for name, fn in list(self.funcs.items()):
            if name not in self.called:
                # Never classified (never called, or only past the call-depth limit).
                self.active.clear()
                self.call_function(fn, [])
        return out

    def command(self, cmd: ast.Command, stdin: Flow | None, *, background: bool = False
                ) -> Flow:
        self.node_depth += 1
        try:
            if self.node_depth > _MAX_NODE_DEPTH:
                if not self.too_deep:
                    self.too_deep = True
                    self.add("shell.nesting-too-deep", cmd.span, "syntax nested deeper than "
                             "the classifier follows", None)
                return EMPTY
            if type(cmd) is ast.SimpleCommand:
                return self.simple(cmd, stdin)  # the common case, without _command's frame
            return self._command(cmd, stdin)
        finally:
            self.node_depth -= 1

    def _command(self, cmd: ast.Command, stdin: Flow | None) -> Flow:
        if isinstance(cmd, ast.SimpleCommand):
            return self.simple(cmd, stdin)
        if isinstance(cmd, ast.Pipeline):
            RD.fifo_shell(self, cmd)
            flow = stdin
            last = len(cmd.commands) - 1
            for index, sub in enumerate(cmd.commands):
                if index < last:
                    # Each element runs in a subshell: x=ls | true leaves x alone.
                    mark = self.env.checkpoint()
                    try:
                        out = self.command(sub, flow)
                    finally:
                        self.env.rollback(mark)
                else:
                    # The last one too, unless shopt -s lastpipe: either may hold.
                    self.cond += last > 0
                    out = self.command(sub, flow)
                    self.cond -= last > 0
                if index < last:
                    flow = out if (out.producer or out.taint) else Flow(
                        producer=_first_name(sub), span=sub.span)
                else:
                    flow = out
            return flow or EMPTY
        if isinstance(cmd, ast.AndOr):
            out = EMPTY
            for index, sub in enumerate(cmd.commands):
                if index:
                    self.cond += 1
                out = _union(out, self.command(sub, stdin))
                if index:
                    self.cond -= 1
            return out
        redirects = getattr(cmd, "redirects", ())
        stdin = self.redirect_input(redirects, stdin)
        out = self._compound(cmd, stdin)
        return self.redirect_output(redirects, out)

    def _compound(self, cmd: ast.Command, stdin: Flow | None) -> Flow:
        return C.compound(self, cmd, stdin)

    def redirect_input(self, redirects: tuple[ast.Redirect, ...], stdin: Flow | None
                       ) -> Flow | None:
        return RD.redirect_input(self, redirects, stdin)

    def redirect_output(self, redirects: tuple[ast.Redirect, ...], out: Flow) -> Flow:
        return RD.redirect_output(self, redirects, out)

    def assign(self, a: ast.Assignment, *, persist: bool) -> Field:
        return assign_node(self, a, persist=persist)

    def simple(self, cmd: ast.SimpleCommand, stdin: Flow | None) -> Flow:
        self.stdin_now = stdin
        if not cmd.words:
            for a in cmd.assignments:
                self.assign(a, persist=True)
            self.redirect_input(cmd.redirects, None)
            self.redirect_output(cmd.redirects, EMPTY)
            return EMPTY
        prefix = [(a.name, self.assign(a, persist=False)) for a in cmd.assignments] \
            if cmd.assignments else []
        exp = self.exp
        exp.alts_seen = 1
        fields: list[Field] = []
        literal = ast.Literal
        for w in cmd.words:
            parts = w.parts
            if len(parts) == 1 and type(parts[0]) is literal:
                # The Expander's first fast path, inlined: one literal is one field.
                fields.append(Field(parts[0].value, w.span))
            elif fields and fields[0].text in _ASSIGN_BUILTINS and assignment_word(w):
                fields.append(exp.expand_one(w))  # local x=$1: an assignment, not split
            else:
                fields.extend(exp.expand(w))
        if cmd.redirects:
            stdin = self.redirect_input(cmd.redirects, stdin)
        self.prefix = prefix
        alts = exp.alts_seen  # the words' (not nested code's): classify each alternative too
        out = self.invoke(fields, stdin, prefix) if fields else EMPTY
        for choice in range(1, min(alts, 8)) if alts > 1 else ():
            alt: list[Field] = []
            for w in cmd.words:
                if alt and alt[0].text in _ASSIGN_BUILTINS and assignment_word(w):
                    alt.append(exp.expand_one(w, choice))
                else:
                    alt.extend(exp.expand(w, choice))
            if alt:
                out = _union(out, self.invoke(alt, stdin, prefix, record=False))
        return self.redirect_output(cmd.redirects, out) if cmd.redirects else out

    def invoke(self, fields: list[Field], stdin: Flow | None,
               prefix: list[tuple[str, Field]], *, record: bool = True) -> Flow:
        res = resolve(fields, stdin)
        if prefix:
            CV.git_config_pairs(self, prefix)
        assigns = False
        for inv in res.chain:
            self.policy_check(inv, record=record)
            if inv.assigns:
                for name, value in inv.assigns:
                    check_assignment(self, name, value, value.span)
                assigns = True
                CV.git_config_pairs(self, inv.assigns)
            if inv.name in CHAIN_CHECKED:  # most programs: no chain rule names them
                chain_checks(self, inv, wrapper=inv is not res.chain[-1])
        if not prefix and not assigns:
            last = res.chain[-1]
            if res.code is None and not last.from_stdin:
                return P.program(self, last, stdin)  # the common case, without _dispatch
            return self._dispatch(res, stdin)
        scoped = [*prefix, *(a for inv in res.chain for a in inv.assigns)]
        # x=rm f, env x=rm bash -c '$x': the command (function, child shell) sees them.
        env = self.env
        saved = {name: env.get(name) for name, _ in scoped}
        for name, value in scoped:
            env[name] = Var(alts=(value.text,), taint=value.taint)
        self.env_version += 1
        try:
            return self._dispatch(res, stdin)
        finally:
            for name, old in saved.items():
                if old is None:
                    env.pop(name, None)
                else:
                    env[name] = old
            self.env_version += 1

    def _dispatch(self, res: Resolution, stdin: Flow | None) -> Flow:
        if res.code is not None:
            owner = res.chain[-1]
            if owner.name == "trap":
                note_trap(self, res.code, owner.word.span)
            self.run_code(res.code, owner.name, owner.word.span, stdin, positional=[])
            if owner.name == "ssh":
                # ssh's own options still run local code (-o ProxyCommand=...) and its
                # output is remote data.
                return self.program(owner, stdin)
            return EMPTY
        last = res.chain[-1]
        if last.from_stdin:
            # xargs appends words read from stdin (or its -a FILE): one run per batch.
            *runs, last = xargs_runs(self, res.chain, stdin)
            for inv in runs:
                self.program(inv, stdin)
        return self.program(last, stdin)

    def policy_check(self, inv: Invocation, *, record: bool) -> None:
        policy_check(self, inv, record=record)

    def program(self, inv: Invocation, stdin: Flow | None) -> Flow:
        return P.program(self, inv, stdin)

    def run_code(self, code: Field, owner: str, owner_span: tuple[int, int],
                 stdin: Flow | None, *, positional: list[Field], shared_env: bool = False
                 ) -> Flow | None:
        return S.run_code(self, code, owner, owner_span, stdin, positional=positional,
                          shared_env=shared_env)

    def call_function(self, fn: ast.FunctionDef, args: list[Field],
                      stdin: Flow | None = None) -> Flow:
        return P.call_function(self, fn, args, stdin)


def _first_name(cmd: ast.Command) -> str | None:
    if isinstance(cmd, ast.SimpleCommand) and cmd.words:
        v = cmd.words[0].literal_value()
        return v.rsplit("/", 1)[-1] if v else "a command"
    return "a command"


