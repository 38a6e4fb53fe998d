"""What ``gh`` sends in its text fields and what it writes when it downloads.

* Text fields (``gh issue create -b "$(cat .env)"``, ``gh pr comment 12 --body "$(env)"``,
  ``--title``, ``gh release create --notes``, ``gh api -f body=...``): every argument of a
  ``gh`` command but its auth headers is text that gh posts to GitHub, where the issue's or
  pull request's readers see it. Secret data read from a file, an environment dump or a
  credential printer in such an argument is exfiltration (block: no API takes a credential
  through an issue body); a secret-named variable (``--body "$API_TOKEN"``) warns
  ``shell.secret-in-request`` (the name alone is a guess), unless it is a signing secret that
  no service ever receives (``$AWS_SECRET_ACCESS_KEY``: block). ``--body "$(cat notes.md)"``
  and ``--body "Fixes #12"`` carry nothing and pass. Files given by ``--body-file``/``-F``
  are ``_exfil._upload``'s.
* ``gh secret set NAME -R OWNER/REPO`` (or ``--org ORG``) with a value that carries a local
  secret (``-b "$AWS_SECRET_ACCESS_KEY"``, ``-f .env``, ``< ~/.aws/credentials``) stores it in
  a repository or organisation named in the command, whose workflows and admins can read it.
  Severity: warn (``shell.secret-in-request``), not block: provisioning a deploy key into
  another repository of one's own is what the command is for, and ``-R`` is how it names it;
  whether OWNER/REPO is the user's is for a human to see. Without ``-R``/``--org`` the secret
  goes to the current repository, as the user set it up: passes as before.
* ``gh release download`` (``-O FILE``, ``-D DIR``, else the working directory) and
  ``gh run download`` (``-D DIR``, else the working directory) write fetched files, like
  ``curl -o``: running one later in the command is a download run (``chmod +x`` and run, or
  ``bash FILE``); extracting one (``tar xzf``) is not. ``-O -`` prints the asset: the output
  carries the fetch.

Only ``gh`` reaches this module (one name test in ``_exfil.exfil_output``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._exfil import never_sent
from ._files import dir_key
from ._paths import norm_path
from ._values import NO_TAINT, Source, Taint, source_order
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._flow import Flow
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["gh_send"]

# Subcommand groups whose arguments are not posted as text (secrets and variables are stored
# where they belong, auth logs in, config and extensions stay local).
_NOT_TEXT = frozenset({"secret", "variable", "auth", "config", "extension", "ext", "alias",
                       "completion", "ssh-key", "gpg-key"})
_HEADERS = frozenset({"-H", "--header"})
# gh release download / gh run download options with a separate value.
_DL_VALUE = frozenset({"-A", "--archive", "-D", "--dir", "-O", "--output", "-p", "--pattern",
                       "-R", "--repo", "-n", "--name"})
# gh secret set options with a separate value.
_SECRET_VALUE = frozenset({"-b", "--body", "-f", "--env-file", "-R", "--repo", "-o", "--org",
                           "-e", "--env", "-v", "--visibility", "-r", "--repos", "-a", "--app"})


def gh_send(run: Run, inv: Invocation, stdin: Flow | None) -> Taint:
    """Findings for ``gh`` posting secrets; files a download writes; the output's taint."""
    args = inv.args
    words = [f.text for f in args if not f.text.startswith("-")][:2]
    if not words:
        return NO_TAINT
    if words[0] == "secret":
        if words[1:] == ["set"]:
            _secret_set(run, inv, stdin)
        return NO_TAINT
    if words[0] in _NOT_TEXT:
        return NO_TAINT
    if words[1:] == ["download"] and words[0] in ("release", "run"):
        return _download(run, inv, words[0] == "release")
    _text_fields(run, inv)
    return NO_TAINT


def _text_fields(run: Run, inv: Invocation) -> None:
    skip = False
    found: list[Source] = []
    where: Field | None = None
    for f in inv.args:
        if skip:
            skip = False
            continue
        t = f.text
        if t in _HEADERS:
            skip = True  # an auth header goes to GitHub's API, as gh's own token does
            continue
        if t.startswith(("--header=", "-H")) or not f.taint:
            continue
        secrets = [s for s in f.taint if s.kind == "secret"]
        if secrets and where is None:
            where = f
        found += secrets
    if not found or where is None:
        return
    hard = [s for s in found if not s.program.startswith("$") or s.program.startswith("$(")
            or never_sent(s.program)]  # a file read by $(< F) is no variable
    src = min(hard or found, key=source_order)
    detail = f"{src.describe()} reaches {run._desc(inv.name, inv.word.span)}"
    if hard:
        run.add("shell.exfiltration", where.span, "gh posts secret data to GitHub in an "
                "issue, pull request, release or API field", detail)
    else:
        run.add("shell.secret-in-request", where.span, "a secret variable is posted by gh as "
                "text (an issue, pull request, release or API field)", detail)


def _secret_set(run: Run, inv: Invocation, stdin: Flow | None) -> None:
    from ._secrets import secret_file  # late: _secrets imports the rules tables

    args = inv.args
    target: Field | None = None
    value: Field | None = None
    env_file = False
    i = 0
    while i < len(args):
        f = args[i]
        opt, eq, val = f.text.partition("=")
        if opt in _SECRET_VALUE and f.text.startswith("-"):
            given = Field(val, f.span, f.taint) if eq else (args[i + 1] if i + 1 < len(args)
                                                            else None)
            i += 1 if eq else 2
            if given is None:
                break
            if opt in ("-R", "--repo", "-o", "--org"):
                target = given
            elif opt in ("-b", "--body"):
                value = given
            elif opt in ("-f", "--env-file"):
                value = given
                env_file = True
            continue
        i += 1
    if target is None:  # GH_REPO=o/r gh secret set ..., export GH_REPO=o/r; gh secret set
        target = next((f for name, f in inv.assigns if name == "GH_REPO" and f.text), None)
        known = run.env.get("GH_REPO") if target is None else None
        if known is not None and any(known.alts):
            target = Field(next(a for a in known.alts if a), inv.word.span)
    if target is None:
        return  # the current repository's secrets: what gh secret set is for
    taint = value.taint if value is not None else (stdin.taint if stdin is not None
                                                    else NO_TAINT)
    secret = min((s for s in taint if s.kind == "secret"), key=source_order, default=None)
    if secret is None and not (env_file and value is not None and secret_file([value])):
        return
    what = secret.describe() if secret is not None else f"the secret file {value.text}" \
        if value is not None else "stdin"
    run.add("shell.secret-in-request", target.span, f"gh secret set stores a local secret in "
            f"{target.text.replace(DYN, '?')}, named in this command: its workflows and "
            "admins can read it", f"{what} reaches {run._desc(inv.name, inv.word.span)}")


def _download(run: Run, inv: Invocation, release: bool) -> Taint:
    """``gh release download`` / ``gh run download``: the files or directory they fill."""
    args = inv.args
    out: str | None = None
    where: str = "."
    patterns: list[str] = []
    i = 0
    while i < len(args):
        t = args[i].text
        opt, eq, val = t.partition("=")
        if opt in _DL_VALUE and t.startswith("-"):
            given = val if eq else (args[i + 1].text if i + 1 < len(args) else "")
            i += 1 if eq else 2
            if opt in ("-O", "--output") and release:
                out = given
            elif opt in ("-D", "--dir"):
                where = given
            elif opt in ("-p", "--pattern"):
                patterns.append(given)
            continue
        i += 1
    fetched = frozenset({Source("fetch", inv.name, run.map_span(inv.word.span))})
    if out == "-":
        return fetched  # the asset on stdout
    keys: list[str | None] = []
    if out is not None:
        keys.append(norm_path(out, run.cwd))
    else:
        base = norm_path(where, run.cwd) if DYN not in where else None
        literal = [p for p in patterns if p and not any(c in p for c in "*?[" + DYN)]
        if base is not None and literal and len(literal) == len(patterns) and release:
            keys += [norm_path(p, base) for p in literal]  # -p tool: exactly that asset
        elif base is not None:
            keys.append(dir_key(base))
    for key in keys:
        if key is not None and len(run.files) < 255:
            run.files[key] = run.files.get(key, NO_TAINT) | fetched
    return NO_TAINT
