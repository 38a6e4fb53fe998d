"""Cloud and cluster access grants: who may do what in an account, and new credentials.

An agent that grants an identity admin rights, or mints a credential that outlives its
session, leaves a way back into the account after the task, as a key added to
``authorized_keys`` or a line in ``sudoers`` does on a host: ``shell.persistence`` (block).
A narrower grant is legitimate in operations (a deploy role gets a bucket policy) but changes
who holds privileges: ``shell.privilege`` (warn, a human looks).

Block (admin or owner to someone, or a new long-lived credential):

* ``aws iam attach-{user,role,group}-policy`` of ``AdministratorAccess``/``IAMFullAccess``;
  ``put-{user,role,group}-policy`` and ``create-policy-version --set-as-default`` whose
  document allows ``*`` or ``iam:*`` (inline or a ``file://`` written earlier);
  ``update-assume-role-policy``/``create-role`` trusting any principal (``"AWS": "*"``);
  ``create-access-key``, ``create-login-profile``, ``update-login-profile``,
  ``create-service-specific-credential``, ``upload-ssh-public-key``; ``add-user-to-group``
  of an admin group;
* ``gcloud ... add-iam-policy-binding --role=roles/owner`` (or an IAM/resource-manager
  admin role, or the token creator/key admin roles); ``gcloud iam service-accounts keys
  create|upload``;
* ``az role assignment create --role Owner`` (or User Access Administrator); ``az ad sp
  create-for-rbac`` and ``az ad sp|app credential reset`` (each prints a new secret);
* ``kubectl|oc create clusterrolebinding|rolebinding --clusterrole=cluster-admin``, ``oc adm
  policy add-cluster-role-to-user|group cluster-admin``.

Warn: every other attach/put/binding/assignment, a new OIDC or SAML provider,
``set-iam-policy``, ``keyvault set-policy``, a cluster-wide binding or an ``admin``/``edit``
one in a namespace, ``create clusterrole`` with ``*`` verbs, ``oc adm policy add-scc-to-*``.
A grant to ``allUsers`` is ``shell.network-expose`` (``_cloudguard``'s public-data rule).

Reading (``list-*``, ``get-*``, ``get-iam-policy``, ``auth can-i``, ``get
clusterrolebindings``) and ``view`` bindings pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._cloudopts import as_list, document, option, option_text, statements
from ._paths import norm_path
from ._words import DYN, Field

if TYPE_CHECKING:
    from ._walk import Run

__all__ = ["aws_iam", "az_access", "gcloud_access", "kube_access"]

_ADMIN_POLICIES = ("/AdministratorAccess", "/IAMFullAccess")
_OUTSIDE_IDP = frozenset({"create-open-id-connect-provider", "create-saml-provider",
                          "update-saml-provider", "add-client-id-to-open-id-connect-provider"})
_ADMIN_ACTIONS = frozenset({"*", "*:*", "iam:*"})
_MINTS = {
    "create-access-key": "mints a long-lived access key",
    "create-login-profile": "gives an IAM user a console password",
    "update-login-profile": "sets an IAM user's console password",
    "create-service-specific-credential": "mints a long-lived service credential",
    "upload-ssh-public-key": "adds an SSH key to an IAM user",
    "upload-signing-certificate": "adds a signing certificate to an IAM user",
}


def _grant(run: Run, span: tuple[int, int], what: str, *, admin: bool) -> None:
    if admin:
        run.add("shell.persistence", span, f"{what}: admin rights or a credential that "
                "outlives the session", None)
    else:
        run.add("shell.privilege", span, f"{what}: changes who holds privileges in the "
                "account", None)


def aws_iam(run: Run, op: str, args: list[Field], span: tuple[int, int]) -> None:
    """``aws iam OP ...``: grants and credentials."""
    if op in _MINTS:
        _grant(run, span, f"aws iam {op} {_MINTS[op]}", admin=True)
    elif op.startswith("attach-") and op.endswith("-policy"):
        arn = option_text(args, ("--policy-arn",)) or ""
        _grant(run, span, f"aws iam {op} attaches {arn.rpartition('/')[2] or 'a policy'}",
               admin=arn.endswith(_ADMIN_POLICIES))
    elif op in ("put-user-policy", "put-role-policy", "put-group-policy",
                "create-policy-version"):
        doc = document(run, option(args, ("--policy-document",)))
        admin = _allows_all(doc) and (op != "create-policy-version" or any(
            f.text == "--set-as-default" for f in args))
        _grant(run, span, f"aws iam {op} " + ("allows every action" if admin else
                                              "sets a permission policy"), admin=admin)
    elif op in ("update-assume-role-policy", "create-role"):
        doc = document(run, option(args, ("--policy-document", "--assume-role-policy-document")))
        anyone = _trusts_anyone(doc)
        if anyone or op == "update-assume-role-policy":
            _grant(run, span, f"aws iam {op} " + ("lets any AWS principal assume the role"
                                                  if anyone else "changes who may assume "
                                                  "a role"), admin=anyone)
    elif op in _OUTSIDE_IDP:
        _grant(run, span, f"aws iam {op} trusts an outside identity provider", admin=False)
    elif op == "add-user-to-group":
        group = option_text(args, ("--group-name",)) or ""
        _grant(run, span, f"aws iam add-user-to-group {group}", admin="admin" in group.lower())


def _allows_all(doc: Any) -> bool:
    """An Allow statement for every action (``*``, ``iam:*``) or with ``NotAction``."""
    for s in statements(doc):
        if s.get("Effect") != "Allow":
            continue
        if "NotAction" in s:
            return True
        if any(isinstance(a, str) and a.lower() in _ADMIN_ACTIONS
               for a in as_list(s.get("Action"))):
            return True
    return False


def _trusts_anyone(doc: Any) -> bool:
    for s in statements(doc):
        if s.get("Effect") != "Allow":
            continue
        who = s.get("Principal")
        if who == "*":
            return True
        if isinstance(who, dict) and any(p == "*" for p in as_list(who.get("AWS"))):
            return True
    return False


# -- gcloud -------------------------------------------------------------------------------

_GCP_ADMIN_ROLES = frozenset({
    "roles/owner", "roles/iam.securityadmin", "roles/iam.serviceaccountadmin",
    "roles/iam.serviceaccountkeyadmin", "roles/iam.serviceaccounttokencreator",
    "roles/iam.workloadidentitypooladmin", "roles/iam.organizationroleadmin",
    "roles/iam.roleadmin", "roles/resourcemanager.projectiamadmin",
    "roles/resourcemanager.organizationadmin", "roles/resourcemanager.folderadmin",
    "roles/resourcemanager.folderiamadmin"})
_PUBLIC_MEMBERS = ("allusers", "allauthenticatedusers")


def gcloud_access(run: Run, path: list[str], args: list[Field],
                  span: tuple[int, int]) -> None:
    """``gcloud ... add-iam-policy-binding|set-iam-policy`` and service account keys."""
    if "add-iam-policy-binding" in path:
        role = (option_text(args, ("--role",)) or "").lower()
        member = (option_text(args, ("--member",)) or "").lower()
        if member.startswith(_PUBLIC_MEMBERS):
            run.add("shell.network-expose", span, f"gcloud grants {role or 'a role'} to "
                    f"{member}: anyone on the internet", None)
        _grant(run, span, f"gcloud add-iam-policy-binding grants {role or 'a role'} to "
               f"{member or 'a member'}", admin=role in _GCP_ADMIN_ROLES)
    elif "set-iam-policy" in path:
        _grant(run, span, "gcloud set-iam-policy replaces an IAM policy", admin=False)
    elif path[:3] == ["iam", "service-accounts", "keys"] and len(path) > 3 and \
            path[3] in ("create", "upload"):
        _grant(run, span, f"gcloud iam service-accounts keys {path[3]} adds a long-lived "
               "service account key", admin=True)


# -- az -----------------------------------------------------------------------------------

_AZ_ADMIN_ROLES = frozenset({
    "owner", "user access administrator", "role based access control administrator",
    "8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9",
    "f58310d9-a9f6-439a-9e8d-f62e7b41a168"})


def az_access(run: Run, path: list[str], args: list[Field], span: tuple[int, int]) -> None:
    """``az role assignment create``, service principal secrets, key vault policies."""
    if path[:3] == ["role", "assignment", "create"]:
        role = (option_text(args, ("--role",)) or "").lower()
        role = role.rpartition("/")[2]  # a role definition id's trailing GUID
        _grant(run, span, f"az role assignment create grants {role or 'a role'}",
               admin=role in _AZ_ADMIN_ROLES)
    elif path[:3] == ["ad", "sp", "create-for-rbac"]:
        _grant(run, span, "az ad sp create-for-rbac creates a service principal and prints "
               "its new secret", admin=True)
    elif path[:1] == ["ad"] and path[2:4] == ["credential", "reset"] and \
            path[1:2] in (["sp"], ["app"]):
        _grant(run, span, f"az ad {path[1]} credential reset mints a new secret", admin=True)
    elif path[:2] == ["keyvault", "set-policy"]:
        _grant(run, span, "az keyvault set-policy grants access to a key vault", admin=False)


# -- kubectl / oc -------------------------------------------------------------------------

_KUBE_ADMIN = frozenset({"cluster-admin", "system:masters"})
_KUBE_BROAD = frozenset({"admin", "edit"})


def kube_access(run: Run, name: str, path: list[str], args: list[Field],
                span: tuple[int, int], stdin_text: str | None) -> None:
    """``kubectl create clusterrolebinding|rolebinding|clusterrole``, ``oc adm policy``, and
    a binding in a manifest given to ``apply|create|replace -f`` (stdin or a file written
    earlier in the command)."""
    if path[:1] in (["apply"], ["create"], ["replace"]) and any(
            f.text.startswith(("-f", "--filename")) for f in args):
        _manifest_binding(run, name, args, span, stdin_text)
    elif path[:1] == ["create"] and path[1:2] in (["clusterrolebinding"], ["rolebinding"]):
        role = (option_text(args, ("--clusterrole", "--role")) or "").lower()
        cluster = path[1] == "clusterrolebinding"
        if role in _KUBE_ADMIN or cluster or role in _KUBE_BROAD:
            _grant(run, span, f"{name} create {path[1]} binds {role or 'a role'}",
                   admin=role in _KUBE_ADMIN)
    elif path[:2] == ["create", "clusterrole"]:
        verbs = ",".join(f.text for f in args if f.text.startswith("--verb"))
        if "*" in verbs:
            _grant(run, span, f"{name} create clusterrole allows every verb", admin=False)
    elif name == "oc" and path[:2] == ["adm", "policy"] and len(path) > 3:
        verb, role = path[2], path[3].lower()
        if verb.startswith(("add-cluster-role-to-", "add-role-to-")):
            _grant(run, span, f"oc adm policy {verb} {role}", admin=role in _KUBE_ADMIN)
        elif verb.startswith("add-scc-to-"):
            _grant(run, span, f"oc adm policy {verb} {role} lets pods run with the "
                   "constraints lifted", admin=False)


def _manifest_binding(run: Run, name: str, args: list[Field], span: tuple[int, int],
                      stdin_text: str | None) -> None:
    value = option_text(args, ("-f", "--filename"))
    text: str | None = None
    if value == "-":
        text = stdin_text
    elif value and DYN not in value:
        path = norm_path(value, run.cwd)
        text = run.file_text.get(path) if path is not None else None
    if not text or "RoleBinding" not in text:
        return  # one substring test for every other manifest
    role = _bound_role(text)
    if role is not None:
        _grant(run, span, f"{name} {args[0].text if args else 'apply'} of a binding to "
               f"{role}", admin=role in _KUBE_ADMIN)


def _bound_role(text: str) -> str | None:
    """The role a (Cluster)RoleBinding manifest binds, as far as a line scan sees it: the
    ``name:`` under ``roleRef:`` (YAML), or ``cluster-admin`` named anywhere (JSON)."""
    in_ref = -1
    role = ""
    for line in text.splitlines():
        body = line.strip()
        indent = len(line) - len(line.lstrip())
        if body.startswith("roleRef:"):
            in_ref = indent
            continue
        if in_ref >= 0 and indent <= in_ref and body:
            in_ref = -1
        if in_ref >= 0 and body.startswith("name:"):
            role = body[5:].strip().strip("\"'").lower()
            if role in _KUBE_ADMIN:
                return role
    if '"cluster-admin"' in text:
        return "cluster-admin"
    if "ClusterRoleBinding" in text or role in _KUBE_BROAD:
        return role or "a cluster role"
    return None
