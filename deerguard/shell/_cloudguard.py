"""Cloud security settings turned off or opened up, and the dispatch of the cloud access
rules (``_cloudiam``), for ``aws``, ``gcloud``, ``az``, ``kubectl`` and ``oc``.

* Audit and threat detection off (``shell.defense-off``, block: it hides whatever the agent
  does next, as ``auditctl -D`` does on a host): ``aws cloudtrail stop-logging|delete-trail``,
  ``guardduty delete-detector`` / ``update-detector --no-enable``, ``securityhub
  disable-security-hub``, ``configservice stop-configuration-recorder``, ``ec2 delete-flow-logs``,
  ``macie2 disable-macie``, ``gcloud logging sinks delete``, ``az monitor
  diagnostic-settings delete``, ``az security pricing create --tier free``...
* A guard weakened (``shell.defense-weaken``, warn): ``ec2 modify-instance-metadata-options
  --http-tokens optional`` (IMDSv1 back, the SSRF path to instance credentials), an S3
  public access block deleted or set to false, ``iam deactivate-mfa-device``.
* Opened to the internet (``shell.network-expose``, warn: serving a website is a real use, a
  human should know): an ingress rule from ``0.0.0.0/0``/``::/0`` (``aws ec2
  authorize-security-group-ingress``, ``gcloud compute firewall-rules create`` whose source
  ranges default to everything, ``az network nsg rule create`` whose source defaults to
  ``*``), a bucket made public (``put-bucket-acl --acl public-read``, a bucket policy for
  ``"Principal": "*"``, ``az storage container set-permission --public-access``), a public
  snapshot or image, a database made publicly accessible.

Reading and everything else pass. The command path is the tool's operands (its value
options skipped, as ``_cloud`` reads them); each check is a dictionary lookup or a pass over
the words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cloudiam import aws_iam, az_access, gcloud_access, kube_access
from ._cloudopts import as_list, document, option, option_text, statements
from ._cloudtable import VALUE_OPTS
from ._optwalk import operand_words
from ._words import Field

if TYPE_CHECKING:
    from ._resolve import Invocation
    from ._walk import Run

__all__ = ["CLOUD_CONTROL_PROGRAMS", "cloud_controls"]

CLOUD_CONTROL_PROGRAMS = frozenset({"aws", "gcloud", "az", "kubectl", "oc"})

_AWS_OFF = {
    ("cloudtrail", "stop-logging"): "stops CloudTrail logging",
    ("cloudtrail", "delete-trail"): "deletes a CloudTrail trail",
    ("guardduty", "delete-detector"): "deletes the GuardDuty detector",
    ("guardduty", "disassociate-from-master-account"): "leaves GuardDuty's administrator",
    ("guardduty", "disassociate-from-administrator-account"): "leaves GuardDuty's "
                                                                "administrator",
    ("securityhub", "disable-security-hub"): "turns off Security Hub",
    ("securityhub", "batch-disable-standards"): "turns off Security Hub standards",
    ("configservice", "stop-configuration-recorder"): "stops the AWS Config recorder",
    ("configservice", "delete-configuration-recorder"): "deletes the AWS Config recorder",
    ("configservice", "delete-delivery-channel"): "deletes AWS Config's delivery channel",
    ("macie2", "disable-macie"): "turns off Macie",
    ("inspector2", "disable"): "turns off Inspector",
    ("detective", "delete-graph"): "deletes the Detective graph",
    ("accessanalyzer", "delete-analyzer"): "deletes an IAM Access Analyzer",
    ("ec2", "delete-flow-logs"): "deletes VPC flow logs",
    ("logs", "delete-subscription-filter"): "stops forwarding a log group",
}
_OPEN = ("0.0.0.0/0", "::/0")
_PUBLIC_ACLS = frozenset({"public-read", "public-read-write", "authenticated-read"})


def _operands(name: str, args: list[Field]) -> list[str]:
    """The first operands (the command path and its first arguments), value options
    skipped; ``gcloud alpha|beta`` dropped."""
    out = operand_words(args, VALUE_OPTS.get(name, frozenset()), 6)
    if name == "gcloud" and out[:1] in (["alpha"], ["beta"], ["preview"]):
        out = out[1:]
    return out


def cloud_controls(run: Run, inv: Invocation, stdin_text: str | None) -> None:
    """Report access grants, audit turned off and security settings opened up by ``inv``."""
    name = inv.name
    args = inv.args
    path = _operands(name, args)
    if not path or any(f.text in ("help", "--help", "-h") for f in args):
        return
    span = inv.word.span
    if name == "aws":
        if len(path) >= 2:
            _aws(run, path[0], path[1], args, span)
    elif name == "gcloud":
        gcloud_access(run, path, args, span)
        _gcloud(run, path, args, span)
    elif name == "az":
        az_access(run, path, args, span)
        _az(run, path, args, span)
    else:
        kube_access(run, name, path, args, span, stdin_text)


def _off(run: Run, span: tuple[int, int], what: str) -> None:
    run.add("shell.defense-off", span, f"{what}: turns off the account's audit or threat "
            "detection, hiding what follows", None)


def _weaken(run: Run, span: tuple[int, int], what: str) -> None:
    run.add("shell.defense-weaken", span, f"{what}: weakens a cloud security control", None)


def _expose(run: Run, span: tuple[int, int], what: str) -> None:
    run.add("shell.network-expose", span, f"{what}: reachable by anyone on the internet",
            None)


def _aws(run: Run, service: str, op: str, args: list[Field], span: tuple[int, int]) -> None:
    what = _AWS_OFF.get((service, op))
    if what is not None:
        _off(run, span, f"aws {service} {op} {what}")
    elif service == "iam":
        aws_iam(run, op, args, span)
        if op == "deactivate-mfa-device":
            _weaken(run, span, "aws iam deactivate-mfa-device removes a user's MFA")
    elif service == "guardduty" and op == "update-detector" and \
            any(f.text == "--no-enable" for f in args):
        _off(run, span, "aws guardduty update-detector --no-enable turns off GuardDuty")
    elif service == "ec2":
        _ec2(run, op, args, span)
    elif service in ("s3api", "s3control"):
        _s3(run, service, op, args, span)
    if "policy" in op and op.startswith(("put-", "set-", "create-", "update-", "add-")) and \
            service != "iam":
        _public_policy(run, service, op, args, span)
    elif service == "lambda" and op == "add-permission" and \
            option_text(args, ("--principal",)) == "*":
        _expose(run, span, "aws lambda add-permission --principal '*' lets anyone invoke it")
    elif service == "rds" and op.startswith(("modify-db-", "create-db-", "restore-db-")) and \
            any(f.text == "--publicly-accessible" for f in args):
        _expose(run, span, f"aws rds {op} --publicly-accessible opens a database")


def _ec2(run: Run, op: str, args: list[Field], span: tuple[int, int]) -> None:
    if op == "modify-instance-metadata-options" and \
            option_text(args, ("--http-tokens",)) == "optional":
        _weaken(run, span, "aws ec2 modify-instance-metadata-options --http-tokens optional "
                "turns IMDSv1 back on (instance credentials reachable through SSRF)")
    elif op in ("authorize-security-group-ingress", "modify-security-group-rules"):
        if any(o in f.text for f in args for o in _OPEN):
            _expose(run, span, f"aws ec2 {op} allows ingress from everywhere")
    elif op in ("modify-snapshot-attribute", "modify-image-attribute",
                "modify-db-snapshot-attribute"):
        if any(f.text.lower() in ("group=all", "all") or "group=all" in f.text.lower()
               for f in args):
            _expose(run, span, f"aws ec2 {op} shares it with every AWS account")


def _s3(run: Run, service: str, op: str, args: list[Field], span: tuple[int, int]) -> None:
    if op == "delete-public-access-block":
        _weaken(run, span, f"aws {service} delete-public-access-block lets buckets be made "
                "public")
    elif op == "put-public-access-block":
        conf = (option_text(args, ("--public-access-block-configuration",)) or "").lower()
        if "false" in conf:
            _weaken(run, span, f"aws {service} put-public-access-block turns off a public "
                    "access block")
    elif op == "put-bucket-acl":
        acl = option_text(args, ("--acl",)) or ""
        grant = " ".join(f.text for f in args if f.text.startswith("--grant") or
                         "acs.amazonaws.com/groups/global/" in f.text)
        if acl in _PUBLIC_ACLS or "/groups/global/AllUsers" in grant or \
                "/groups/global/AuthenticatedUsers" in grant:
            _expose(run, span, f"aws s3api put-bucket-acl {acl or grant} makes a bucket public")


_POLICY_OPTS = ("--policy", "--policy-text", "--resource-policy", "--policy-document",
                "--policy-in-json")


def _public_policy(run: Run, service: str, op: str, args: list[Field],
                   span: tuple[int, int]) -> None:
    """A resource policy (``put-bucket-policy``, ``put-resource-policy``, ``set-repository-
    policy``, ``put-key-policy``...) allowing ``"Principal": "*"`` with no condition: the
    bucket, secret, key or repository is open to every AWS account and the internet."""
    for s in statements(document(run, option(args, _POLICY_OPTS))):
        who = s.get("Principal")
        aws = who.get("AWS") if isinstance(who, dict) else None
        if s.get("Effect") == "Allow" and "Condition" not in s and (
                who == "*" or "*" in as_list(aws)):
            _expose(run, span, f"aws {service} {op} allows Principal * without a condition")
            return


def _gcloud(run: Run, path: list[str], args: list[Field], span: tuple[int, int]) -> None:
    if path[:2] == ["compute", "firewall-rules"] and path[2:3] in (["create"], ["update"]):
        direction = (option_text(args, ("--direction",)) or "ingress").lower()
        action = (option_text(args, ("--action",)) or "allow").lower()
        if direction in ("egress", "out") or action == "deny":
            return
        ranges = option_text(args, ("--source-ranges",))
        scoped = option(args, ("--source-tags", "--source-service-accounts")) is not None
        if (ranges is not None and any(o in ranges for o in _OPEN)) or (
                ranges is None and path[2] == "create" and not scoped):
            _expose(run, span, f"gcloud compute firewall-rules {path[2]} allows ingress "
                    "from 0.0.0.0/0")
    elif path[:2] == ["logging", "sinks"] and path[2:3] == ["delete"] or \
            path[:3] == ["logging", "sinks", "update"] and any(f.text == "--disabled"
                                                               for f in args):
        _off(run, span, f"gcloud logging sinks {path[2]} stops exporting the project's logs")
    elif any(o in (option_text(args, ("--authorized-networks",)) or "") for o in _OPEN):
        _expose(run, span, "gcloud --authorized-networks=0.0.0.0/0 opens a database")
    elif path[:3] == ["storage", "buckets", "update"] and \
            any(f.text == "--no-public-access-prevention" for f in args):
        _weaken(run, span, "gcloud storage buckets update --no-public-access-prevention "
                "lets a bucket be made public")


def _az(run: Run, path: list[str], args: list[Field], span: tuple[int, int]) -> None:
    if path[:4] == ["network", "nsg", "rule", "create"] or \
            path[:4] == ["network", "nsg", "rule", "update"]:
        direction = (option_text(args, ("--direction",)) or "inbound").lower()
        access = (option_text(args, ("--access",)) or "allow").lower()
        source = option_text(args, ("--source-address-prefixes",
                                    "--source-address-prefix"))
        if direction != "inbound" or access != "allow":
            return
        if (source is None and path[3] == "create") or (source is not None and (
                source.strip().lower() in ("*", "internet", "any") or
                any(o in source for o in _OPEN))):
            _expose(run, span, f"az network nsg rule {path[3]} allows inbound traffic from "
                    "any address")
    elif path[:2] == ["storage", "container"] and \
            (option_text(args, ("--public-access",)) or "off").lower() in ("blob", "container"):
        _expose(run, span, "az storage container allows public access")
    elif path[:3] == ["storage", "account", "update"] and \
            (option_text(args, ("--allow-blob-public-access",)) or "").lower() == "true":
        _weaken(run, span, "az storage account update --allow-blob-public-access true")
    elif path[:3] in (["monitor", "diagnostic-settings", "delete"],
                      ["monitor", "log-profiles", "delete"]):
        _off(run, span, f"az monitor {path[1]} delete stops exporting the platform's logs")
    elif path[:3] == ["security", "pricing", "create"] and \
            (option_text(args, ("--tier",)) or "").lower() == "free":
        _off(run, span, "az security pricing create --tier free turns off Defender for Cloud")
