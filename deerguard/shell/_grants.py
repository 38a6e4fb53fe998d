"""Access to the project given away, and a private repository made public.

An injected agent that adds its own key or account to a repository or a package keeps a way
in after the session, as a key in ``authorized_keys`` does on a host; one that makes a
private repository public publishes the code. Each is sometimes the task (onboarding a
colleague, open-sourcing), so each warns and a human looks:

* ``shell.privilege`` (access granted; ``glab``'s ``api``, ``deploy-key add`` and ``ssh-key
  add`` alike, with GitLab's ``members``/``deploy_keys`` endpoints): ``gh repo deploy-key
  add KEY`` (read access to the repository, write with ``--allow-write``), ``gh ssh-key
  add KEY`` (a key on the user's
  account), ``gh api`` writes (``-X PUT|POST|PATCH``, or fields without ``-X``) to
  ``collaborators``, ``memberships``, ``members``, ``invitations``, ``keys`` or a team's
  ``repos`` endpoint, ``gh auth refresh|login -s`` with a scope that deletes repositories
  or administers (``delete_repo``, ``admin:*``), ``npm owner add``, ``npm access grant``,
  ``gsutil iam ch MEMBER:ROLE`` and ``gsutil iam set``.
* ``shell.repo-export`` (the project published): ``gh repo edit --visibility public``,
  ``gh api -X PATCH repos/O/R -F private=false`` (or ``visibility=public``), ``gh repo
  create --public`` with ``--source``/``--push`` (the local project, not an empty repo).
* ``shell.network-expose`` (a bucket opened to everyone, as ``_cloudguard`` says for aws
  and az): ``gsutil iam ch allUsers:...``, ``gsutil acl ch -u AllUsers:R``, ``gsutil
  acl|defacl set public-read``.
* ``shell.resource-destroy`` (a published package removed from its users): ``npm
  unpublish``, ``gem yank``.

Reading (``gh api repos/O/R/collaborators``, ``gh ssh-key list``, ``npm owner ls``, ``gsutil
iam get``) passes. Only :data:`GRANT_PROGRAMS` reach :func:`grant_program`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cloudopts import option_text
from ._optwalk import operand_words

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["GRANT_PROGRAMS", "grant_program"]

GRANT_PROGRAMS = frozenset({"gh", "glab", "npm", "pnpm", "yarn", "gem", "gsutil"})
"""Programs :func:`grant_program` looks at."""

# gh options with a separate value (so that their value is not read as a subcommand).
_GH_VALUES = frozenset({"-R", "--repo", "-X", "--method", "-H", "--header", "-f", "-F",
                        "--field", "--raw-field", "--input", "-q", "--jq", "-t", "--template",
                        "--hostname", "-p", "--preview", "--cache", "-s", "--scopes", "-d",
                        "--description", "--title", "--visibility", "-h", "--homepage",
                        "--source", "-r", "--remote", "-g", "--gitignore", "-l", "--license",
                        "--team", "-T", "-w", "--with-token"})
_GH_FIELDS = frozenset({"-f", "-F", "--field", "--raw-field"})
# Path segments of GitHub API endpoints that give people or keys access.
_ACCESS_SEGMENTS = frozenset({"collaborators", "memberships", "members", "invitations",
                              "keys", "outside_collaborators", "permissions", "deploy_keys",
                              "share"})
_GRAPHQL_GRANTS = ("DeployKey", "Collaborator", "addEnterpriseAdmin", "inviteEnterpriseAdmin",
                   "updateTeamRepository", "addTeamRepository")
_WIDE_SCOPES = ("delete_repo", "admin:", "site_admin")
_GSUTIL_VALUES = frozenset({"-o", "-h", "-u", "-i"})
_EVERYONE = ("allusers", "allauthenticatedusers", "-uallusers", "-uallauthenticatedusers",
             "-gallusers", "-gallauthenticatedusers")


def grant_program(run: Run, inv: Invocation) -> None:
    """Findings for ``inv`` (see the module doc)."""
    name = inv.name
    if name in ("gh", "glab"):
        _gh(run, inv)
        return
    words = operand_words(inv.args, _GSUTIL_VALUES if name == "gsutil" else frozenset(), 3)
    if len(words) < 2 and not (words and words[0] in ("unpublish", "yank")):
        return
    span = inv.word.span
    if name == "gsutil":
        if len(words) >= 2:
            _gsutil(run, inv, words)
    elif (words[0] == "owner" and words[1] in ("add", "grant")) or (
            words[0] == "access" and words[1] == "grant"):
        run.add("shell.privilege", span, f"{name} {words[0]} {words[1]} gives another account "
                "rights to publish the package", None)
    elif (words[0] == "unpublish" and name != "gem") or (words[0] == "yank" and name == "gem"):
        run.add("shell.resource-destroy", span, f"{name} {words[0]} removes a published "
                "package that others may depend on", None)


def _gh(run: Run, inv: Invocation) -> None:
    words = operand_words(inv.args, _GH_VALUES, 3)
    if len(words) < 2:
        return
    group, sub = words[0], words[1]
    texts = [f.text for f in inv.args]
    span = (inv.word.span[0], inv.args[-1].span[1])
    if group == "api":
        _gh_api(run, inv, sub, span)
    elif (group == "repo" and sub == "deploy-key" and words[2:3] == ["add"]) or (
            group == "deploy-key" and sub == "add"):  # gh repo deploy-key, glab deploy-key
        write = any(t in ("-w", "--allow-write", "--can-push") for t in texts)
        run.add("shell.privilege", span, f"{inv.name} deploy-key add gives a key "
                f"{'write' if write else 'read'} access to the repository", None)
    elif group == "ssh-key" and sub == "add":
        run.add("shell.privilege", span, f"{inv.name} ssh-key add gives a key access to every "
                "repository of the account", None)
    elif inv.name == "glab":
        return  # glab: its api, deploy-key and ssh-key only
    elif group == "auth" and sub in ("refresh", "login"):
        scopes = ",".join(t.partition("=")[2] for t in texts if t.startswith("--scopes="))
        scopes += "," + ",".join(texts[k + 1] for k, t in enumerate(texts[:-1])
                                 if t in ("-s", "--scopes"))
        wide = [s for s in scopes.split(",") if s.strip().startswith(_WIDE_SCOPES)]
        if wide:
            run.add("shell.privilege", span, f"gh auth {sub} widens the token's scopes to "
                    f"{', '.join(wide)}", None)
    elif group == "repo" and sub == "edit":
        vis = option_text(inv.args, ("--visibility",))
        if vis == "public":
            run.add("shell.repo-export", span, "gh repo edit makes the repository public",
                    None)
    elif group == "repo" and sub == "create" and "--public" in texts and any(
            t in ("--push", "-s") or t.startswith("--source") for t in texts):
        run.add("shell.repo-export", span, "gh repo create publishes the local project as a "
                "public repository", None)


def _gh_api(run: Run, inv: Invocation, endpoint: str, span: tuple[int, int]) -> None:
    method = (option_text(inv.args, ("-X", "--method")) or next(
        (f.text[2:] for f in inv.args if f.text.startswith("-X") and len(f.text) > 2),
        "")).upper()  # -X PUT, --method=PUT, -XPUT
    fields = [inv.args[k + 1].text for k, f in enumerate(inv.args[:-1])
              if f.text in _GH_FIELDS]
    fields += [f.text.partition("=")[2] for f in inv.args
               if f.text.startswith(("--field=", "--raw-field="))]
    if not method:
        method = "POST" if fields or any(f.text == "--input" for f in inv.args) else "GET"
    if method not in ("PUT", "POST", "PATCH"):
        return
    if endpoint == "graphql":
        _graphql(run, fields, span)
        return
    parts = [p for p in endpoint.split("?", 1)[0].split("/") if p]
    if any(p in _ACCESS_SEGMENTS for p in parts) or (
            "teams" in parts and "repos" in parts[parts.index("teams"):]):
        run.add("shell.privilege", span, f"{inv.name} api {method} {endpoint} gives an "
                "account or a key access", None)
    elif any(f.replace(" ", "").lower() in ("private=false", "visibility=public")
             for f in fields):
        run.add("shell.repo-export", span, f"{inv.name} api {method} {endpoint} makes the "
                "repository public", None)


def _graphql(run: Run, fields: list[str], span: tuple[int, int]) -> None:
    """A GraphQL mutation that adds a collaborator or deploy key, or makes a repository
    public (``gh api graphql -f query='mutation { addDeployKey(...) }'``)."""
    text = " ".join(fields)
    if "mutation" not in text:
        return
    flat = text.replace(" ", "")
    if any(w in text for w in _GRAPHQL_GRANTS):
        run.add("shell.privilege", span, "a gh api graphql mutation gives an account or a key "
                "access", None)
    elif "visibility:PUBLIC" in flat:
        run.add("shell.repo-export", span, "a gh api graphql mutation makes a repository "
                "public", None)


def _gsutil(run: Run, inv: Invocation, words: list[str]) -> None:
    sub, verb = words[0], words[1]
    if sub not in ("iam", "acl", "defacl") or verb not in ("ch", "set"):
        return
    texts = [f.text.lower() for f in inv.args]
    span = (inv.word.span[0], inv.args[-1].span[1])
    everyone = any(t.startswith(_EVERYONE) for t in texts) or (
        sub != "iam" and verb == "set" and any(t in ("public-read", "public-read-write")
                                               for t in texts))
    if everyone:
        run.add("shell.network-expose", span, f"gsutil {sub} {verb} opens the bucket or its "
                "objects to everyone", None)
    elif sub == "iam":
        run.add("shell.privilege", span, f"gsutil iam {verb} changes who holds rights on the "
                "bucket", None)

