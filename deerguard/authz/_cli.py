"""``deerguard authz``: check, explain and lint authorization policies from the shell.

``check`` prints the decision as JSON; ``explain`` prints it for people; both exit 0 on
allow and 2 on deny. ``lint`` validates a roles file or Casbin policy and exits 0, or 65
with ``file:line: key: message (fix: ...)`` on stderr. Usage mistakes exit 64.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cli import EXIT_BLOCK, EXIT_PASS, EXIT_USAGE, UsageError
from ..errors import ConfigError
from ._authorizer import Authorizer
from ._principal import Principal
from ._types import RESOURCE_ACTIONS

__all__ = ["register"]

_PERMISSIONS = ", ".join(f"{t}:{a}" for t, acts in RESOURCE_ACTIONS.items() for a in acts)


def _load(policy: str, model: str | None) -> Authorizer:
    if policy.lower().endswith(".csv"):
        return Authorizer.from_casbin(model, policy)
    if model is not None:
        raise UsageError("--model is only for a Casbin policy .csv file")
    return Authorizer.from_file(policy)


def _request(args: argparse.Namespace) -> tuple[Authorizer, Principal]:
    if args.action not in RESOURCE_ACTIONS[args.resource_type]:
        raise UsageError(
            f"{args.resource_type} has no action {args.action!r}; "
            f"use one of {', '.join(RESOURCE_ACTIONS[args.resource_type])}"
        )
    authz = _load(args.policy, args.model)
    principal = Principal(roles=tuple(args.role), tenant=args.tenant or None)
    try:
        authz.authorize(principal, args.resource_type, "probe", args.action)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    return authz, principal


def _check(args: argparse.Namespace) -> int:
    authz, principal = _request(args)
    decision = authz.authorize(principal, args.resource_type, args.name, args.action)
    print(json.dumps(decision.to_dict(), indent=2, sort_keys=True))
    return EXIT_PASS if decision.allow else EXIT_BLOCK


def _explain(args: argparse.Namespace) -> int:
    authz, principal = _request(args)
    print(authz.explain(principal, args.resource_type, args.name, args.action))
    allowed = authz.authorize(principal, args.resource_type, args.name, args.action).allow
    return EXIT_PASS if allowed else EXIT_BLOCK


def _lint(args: argparse.Namespace) -> int:
    authz = _load(args.file, args.model)
    policy = authz.policy
    print(
        f"{args.file}: ok: {len(policy.roles)} roles ({', '.join(sorted(policy.roles))}), "
        f"{len(policy.rows)} rows, {len(policy.links)} inheritance links"
    )
    return EXIT_PASS


def _usage(parser: argparse.ArgumentParser) -> Any:
    def handler(args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return EXIT_USAGE

    return handler


def register(subparsers: Any) -> None:
    """Add the ``authz`` verb (sub-verbs ``check``, ``explain``, ``lint``) to the CLI."""
    parser = subparsers.add_parser(
        "authz",
        help="check, explain or lint authorization policies (Casbin RBAC)",
        description="Authorization for models, sandboxes, tools, MCP servers and skills. "
        f"Permissions: {_PERMISSIONS}.",
    )
    parser.set_defaults(handler=_usage(parser))
    verbs = parser.add_subparsers(dest="authz_verb", metavar="SUBVERB")
    for name, handler, text in (
        ("check", _check, "print the decision as JSON; exit 0 allow, 2 deny"),
        ("explain", _explain, "explain the decision and every matching rule; exit 0/2"),
    ):
        sub = verbs.add_parser(name, help=text, description=text)
        sub.add_argument(
            "--policy", required=True, metavar="FILE",
            help="roles file (.yaml/.yml/.toml) or Casbin policy (.csv)",
        )
        sub.add_argument(
            "--model", metavar="FILE", help="Casbin model.conf for a .csv policy (default: shipped)"
        )
        sub.add_argument(
            "--role", required=True, action="append", metavar="ROLE",
            help="a role of the principal (repeat for several)",
        )
        sub.add_argument("--tenant", metavar="TENANT", help="the principal's tenant")
        sub.add_argument("resource_type", choices=sorted(RESOURCE_ACTIONS), metavar="RESOURCE_TYPE")
        sub.add_argument("name", metavar="NAME")
        sub.add_argument("action", metavar="ACTION")
        sub.set_defaults(handler=handler)
    lint = verbs.add_parser(
        "lint", help="validate a roles file or Casbin policy; exit 0 or 65",
        description="validate a roles file or Casbin policy; exit 0 or 65",
    )
    lint.add_argument("file", metavar="FILE")
    lint.add_argument("--model", metavar="FILE", help="Casbin model.conf for a .csv policy")
    lint.set_defaults(handler=_lint)
