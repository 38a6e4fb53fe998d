"""The Casbin boundary: the only deerguard module that imports ``casbin`` (pycasbin 2.8).

What it fences:

* **Logging.** ``casbin.Enforcer.__init__`` either runs ``logging.config.dictConfig`` (with
  ``enable_log=True``) or sets ``disabled = True`` on the global ``casbin*`` loggers; both
  change process-wide logging. We never call that constructor: enforcers are assembled
  with ``init_with_model_and_adapter`` and given a private, unregistered, disabled logger.
* **``enable_enforce(False)``** (which allows everything) is never exposed; the enforcer
  object does not leave this module except inside :class:`CasbinEngine`.
* **Effects.** Only ``some(where (p.eft == allow))`` and the deny-wins
  ``some(where (p.eft == allow)) && !some(where (p.eft == deny))`` are accepted: Casbin's
  "deny-override" effect allows requests that no rule matches.
* **Errors.** Every Casbin/parse error becomes :class:`~deerguard.errors.PolicyError`.

Reload safety: an engine is immutable after construction; a reload builds a new engine and
the authorizer swaps the reference, so ``load_policy()`` never clears links under readers.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

import casbin  # type: ignore[import-untyped]
from casbin.model import Model  # type: ignore[import-untyped]

from .._resources import read_policy_text
from ..errors import PolicyError
from ._compiled import NO_MATCH, Match, row_match
from ._glob import glob_match
from ._types import AuthzReason, PolicySet

__all__ = [
    "CANONICAL_MODEL",
    "MATCH_FUNCTION",
    "CasbinEngine",
    "build_enforcer",
    "canonical_model_text",
    "is_canonical_model",
    "load_model",
]

MATCH_FUNCTION = "nameMatch"
CANONICAL_MODEL = "authz/model.conf"
_ALLOWED_EFFECTS = frozenset(
    {
        "some(where (p_eft == allow))",
        "some(where (p_eft == allow)) && !some(where (p_eft == deny))",
    }
)
_REQUEST_TOKENS = ("r_sub", "r_dom", "r_typ", "r_obj", "r_act")
_SPACES = re.compile(r"\s+")
# pycasbin is not thread-safe: every enforce() re-parses the matcher with ast.parse, which in
# CPython 3.11 fails under concurrency ("SystemError: AST constructor recursion depth
# mismatch", seen here with 4 threads plus a reloading thread), and enforce() mutates the
# enforcer's function map and lazily adds role-manager entries. Every Casbin call in this
# module (model loading, enforcer building, enforce) holds this one lock. The compiled
# fast path never calls Casbin and takes no lock.
_CASBIN_LOCK = threading.RLock()
_CASBIN_ALLOW = Match(
    True, None, "casbin", (AuthzReason("allowed-by-rule", "casbin.Enforcer allowed it"),)
)


def _silent_logger() -> logging.Logger:
    # Created directly, not via logging.getLogger: it is not registered in the logging
    # manager, so it touches no global state and no application handler ever sees it.
    logger = logging.Logger("deerguard.authz.casbin")
    logger.disabled = True
    return logger


def canonical_model_text() -> str:
    """Return the text of the shipped model (``policies/authz/model.conf``)."""
    return read_policy_text(CANONICAL_MODEL)


def load_model(text: str, /, *, file: str = "<model>") -> Model:
    """Parse Casbin model ``text``; refuse unsupported effects and request shapes."""
    model = Model()
    model.logger = _silent_logger()
    try:
        with _CASBIN_LOCK:
            model.load_model_from_text(text)
        effect = model["e"]["e"].value
        matcher = model["m"]["m"].value
        request = tuple(model["r"]["r"].tokens)
        policy = tuple(model["p"]["p"].tokens)
    except PolicyError:
        raise
    except Exception as exc:  # casbin raises bare Exception/KeyError/RuntimeError
        raise PolicyError(
            f"not a valid Casbin model: {type(exc).__name__}: {exc}",
            file=file,
            hint="sections r, p, e and m are required; see policies/authz/model.conf",
        ) from None
    if effect not in _ALLOWED_EFFECTS:
        raise PolicyError(
            f"unsupported policy_effect {effect.replace('_', '.')!r}",
            file=file,
            key="policy_effect.e",
            hint="use some(where (p.eft == allow)) && !some(where (p.eft == deny))",
        )
    if request != _REQUEST_TOKENS:
        raise PolicyError(
            f"request_definition must be 'r = sub, dom, typ, obj, act', got {request!r}",
            file=file,
            key="request_definition.r",
            hint="deerguard sends (role, tenant, resource type, name, action)",
        )
    if len(policy) != 6 or policy[-1] != "p_eft":
        raise PolicyError(
            "policy_definition must have 6 fields ending in eft",
            file=file,
            key="policy_definition.p",
            hint="write p = sub, dom, typ, obj, act, eft",
        )
    if not matcher:
        raise PolicyError("the matcher is empty", file=file, key="matchers.m")
    return model


def _signature(model: Model) -> tuple[str, ...]:
    parts = []
    for section, key in (("r", "r"), ("p", "p"), ("e", "e"), ("m", "m")):
        parts.append(_SPACES.sub("", model[section][key].value))
    graph = model["g"]["g"].value if "g" in model.keys() and "g" in model["g"] else ""
    parts.append(_SPACES.sub("", graph))
    return tuple(parts)


def is_canonical_model(model: Model) -> bool:
    """Return True if ``model`` is the shipped model (whitespace aside)."""
    return _signature(model) == _signature(load_model(canonical_model_text()))


def build_enforcer(model_text: str, policy: PolicySet, /, *, file: str = "<model>") -> Any:
    """Build a ``casbin.Enforcer`` for ``model_text`` holding ``policy``'s rows and links.

    Logging-neutral (no handlers, levels or ``disabled`` flags change anywhere) and with
    ``nameMatch`` registered as deerguard's whole-pattern glob. Errors -> PolicyError.
    """
    model = load_model(model_text, file=file)
    enforcer = casbin.Enforcer.__new__(casbin.Enforcer)
    enforcer.logger = _silent_logger()
    rows = [row.values() for row in policy.rows]
    links = [[link.member, link.parent] for link in policy.links]
    with _CASBIN_LOCK:
        try:
            enforcer.init_with_model_and_adapter(model, None)
            for manager in (enforcer.rm_map or {}).values():
                manager.logger = enforcer.logger  # role managers log every link at INFO
            enforcer.add_function(MATCH_FUNCTION, glob_match)
            if rows:
                enforcer.add_policies(rows)
            if links and "g" in model.keys():
                enforcer.add_grouping_policies(links)
            for assertion in _assertions(model):
                assertion.logger = enforcer.logger
        except Exception as exc:
            raise PolicyError(
                f"Casbin could not load the policy: {type(exc).__name__}: {exc}", file=file
            ) from None
    return enforcer


def _assertions(model: Model) -> list[Any]:
    found = []
    for section in model.keys():
        found.extend(model[section].values())
    return found


class CasbinEngine:
    """Answers requests with a real ``casbin.Enforcer`` (for models that are not the shipped one).

    Immutable after construction (a reload builds a new engine); every call into Casbin holds
    the module's Casbin lock (see ``_CASBIN_LOCK``). A principal's roles are asked one by
    one; any role whose matched row is a deny makes the answer deny (deny wins across roles,
    as in the compiled path), otherwise any allowing role allows.
    """

    __slots__ = ("_enforcer", "_rows", "policy", "roles")

    def __init__(self, model_text: str, policy: PolicySet, /, *, file: str = "<model>") -> None:
        self.policy = policy
        self.roles = policy.roles
        self._enforcer = build_enforcer(model_text, policy, file=file)
        try:  # Casbin parses the matcher lazily: evaluate it once now, not on a user's request
            with _CASBIN_LOCK:
                self._enforcer.enforce_ex("-", "", "tool", "-", "call")
        except Exception as exc:
            raise PolicyError(
                f"the matcher cannot be evaluated: {type(exc).__name__}: {exc}",
                file=file,
                key="matchers.m",
                hint="check the [matchers] expression (functions: g, nameMatch, keyMatch...)",
            ) from None
        self._rows = {tuple(row.values()): row_match(row) for row in policy.rows}

    def decide(
        self, roles: tuple[str, ...], tenant: str, typ: str, name: str, action: str
    ) -> Match:
        """Return the deciding row for a request (see the class docstring)."""
        allowed: Match | None = None
        for role in roles:
            try:
                with _CASBIN_LOCK:
                    result, explain = self._enforcer.enforce_ex(role, tenant, typ, name, action)
            except Exception as exc:
                raise RuntimeError(f"casbin enforce failed: {type(exc).__name__}") from exc
            match = self._rows.get(tuple(explain)) if explain else None
            if match is not None and not match.allow:
                return match
            if result and allowed is None:
                allowed = match if match is not None else _CASBIN_ALLOW
        return allowed if allowed is not None else NO_MATCH
