"""The table of cloud, cluster and SaaS destroyers read by ``_cloud`` (data only).

Per tool: the options that take a separate value (so the command path is found past them),
the (command path pattern, tier, what it does) entries, and the flags that skip its
confirmation prompt. Tiers and pattern syntax are described in ``_cloud``. Severity choices:
``ROUTINE`` passes (one pod, one object, one Helm release: everyday and recreated), ``ONE``
warns (a named resource: legitimate in maintenance, a human looks), ``WHOLE`` blocks when
unattended (a stack, project, resource group, repository, cluster or database instance: no
everyday agent task deletes one without a person confirming), ``ALL`` blocks (everything of a
kind at once, or a target list no one saw).
"""

from __future__ import annotations

__all__ = ["ALIASES", "ALL", "CONFIRM", "CONFIRM_ENV", "ONE", "ROUTINE", "TABLE", "VALUE_OPTS",
           "WHOLE"]

ROUTINE, ONE, WHOLE, ALL = -1, 0, 1, 2

# Options taking a separate value, per tool (global options and the common per-command ones
# that may precede the command path). Any other option is read as a flag.
VALUE_OPTS: dict[str, frozenset[str]] = {
    "aws": frozenset({"--profile", "--region", "--output", "--query", "--endpoint-url",
                      "--cli-read-timeout", "--cli-connect-timeout", "--color", "--ca-bundle",
                      "--cli-binary-format"}),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--format", "--zone",
                         "--region", "--verbosity", "--impersonate-service-account",
                         "--billing-project", "--flags-file", "--flatten", "--trace-token"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
    "doctl": frozenset({"--context", "-t", "--access-token", "-o", "--output", "--format",
                        "-c", "--config", "-u", "--api-url"}),
    "kubectl": frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster",
                          "--user", "-s", "--server", "--token", "-l", "--selector", "-o",
                          "--output", "--field-selector", "--grace-period", "--timeout", "-f",
                          "--filename", "-c", "--container", "--as", "--as-group",
                          "--request-timeout", "--cascade", "--replicas", "-k",
                          "--kustomize", "--certificate-authority", "--client-certificate",
                          "--client-key", "-v", "--v"}),
    "helm": frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "--timeout",
                       "--cascade"}),
    "gh": frozenset({"-R", "--repo", "-X", "--method", "-H", "--header", "-f", "--raw-field",
                     "-F", "--field", "--hostname", "--input", "-q", "--jq", "-t",
                     "--template"}),
    "heroku": frozenset({"-a", "--app", "-r", "--remote", "--confirm"}),
    "vercel": frozenset({"-t", "--token", "--scope", "-S", "--cwd", "-A", "--local-config",
                         "-Q", "--global-config"}),
    "firebase": frozenset({"-P", "--project", "--token", "--config"}),
    "etcdctl": frozenset({"--endpoints", "--user", "--password", "--cacert", "--cert", "--key",
                          "--dial-timeout", "--command-timeout", "-w", "--write-out"}),
    "consul": frozenset({"-http-addr", "-token", "-datacenter", "-namespace",
                         "-partition", "-ca-file", "-client-cert", "-client-key"}),
    "vault": frozenset({"-address", "-namespace", "-ns", "-format", "-mount"}),
    "terraform": frozenset({"-target", "-var", "-var-file", "-state", "-lock-timeout",
                            "-parallelism"}),
    "terragrunt": frozenset({"--terragrunt-working-dir", "--working-dir",
                             "--terragrunt-config", "--config", "--terragrunt-log-level",
                             "--log-level", "-target", "-var", "-var-file"}),
    "pulumi": frozenset({"-s", "--stack", "-C", "--cwd", "-t", "--target", "--parallel",
                         "-p", "--config-file"}),
    "cdk": frozenset({"--profile", "-a", "--app", "-c", "--context", "-o", "--output",
                      "--role-arn", "-r"}),
    "gsutil": frozenset({"-o", "-h", "-u"}),
    "bq": frozenset({"--project_id", "--location", "--format", "--dataset_id"}),
    "mysqladmin": frozenset({"-u", "--user", "-h", "--host", "-P", "--port", "-S",
                             "--socket", "-p"}),
}
VALUE_OPTS["oc"] = VALUE_OPTS["kubectl"]
VALUE_OPTS["tofu"] = VALUE_OPTS["terraform"]

_Entry = tuple[tuple[str, ...], int, str]

# (command path pattern, tier, what it destroys), per tool; the first matching entry wins.
TABLE: dict[str, tuple[_Entry, ...]] = {
    "aws": (
        # A stack or cluster deletes everything it holds; aws never asks for confirmation.
        (("cloudformation", "delete-stack"), WHOLE,
         "deletes a CloudFormation stack and its resources"),
        (("eks", "delete-cluster"), WHOLE, "deletes an EKS cluster"),
        (("organizations", "close-account"), WHOLE, "deletes an AWS account"),
        (("organizations", "delete-organization"), WHOLE, "deletes an AWS organization"),
        (("s3", "rm"), ROUTINE, "deletes S3 objects"),  # see _aws: --recursive
        (("s3", "rb"), ONE, "deletes an S3 bucket"),
        (("*", "delete-*"), ONE, "deletes cloud resources"),
        (("*", "batch-delete-*"), ONE, "deletes cloud resources"),
        (("*", "terminate-*"), ONE, "deletes cloud instances"),
        (("*", "deregister-*"), ONE, "deletes cloud resources"),
        (("*", "purge-*"), ONE, "purges a queue's messages"),
        (("*", "remove-*"), ONE, "deletes cloud resources"),
        (("*", "schedule-key-deletion"), ONE, "deletes a KMS key"),
    ),
    "gcloud": (
        (("projects", "delete"), WHOLE, "deletes a Google Cloud project"),
        (("sql", "instances", "delete"), WHOLE, "deletes a Cloud SQL instance"),
        (("container", "clusters", "delete"), WHOLE, "deletes a GKE cluster"),
        (("spanner", "instances", "delete"), WHOLE, "deletes a Spanner instance"),
        (("spanner", "databases", "delete"), WHOLE, "deletes a Spanner database"),
        (("bigtable", "instances", "delete"), WHOLE, "deletes a Bigtable instance"),
        (("firestore", "databases", "delete"), WHOLE, "deletes a Firestore database"),
        (("alloydb", "clusters", "delete"), WHOLE, "deletes an AlloyDB cluster"),
        (("storage", "rm"), ROUTINE, "deletes Cloud Storage objects"),  # see _gcs
        (("**", "delete"), ONE, "deletes cloud resources"),
    ),
    "az": (
        (("group", "delete"), WHOLE, "deletes a resource group and everything in it"),
        (("storage", "account", "delete"), WHOLE, "deletes a storage account"),
        (("aks", "delete"), WHOLE, "deletes an AKS cluster"),
        (("sql", "server", "delete"), WHOLE, "deletes a SQL server"),
        (("sql", "db", "delete"), WHOLE, "deletes a SQL database"),
        (("cosmosdb", "delete"), WHOLE, "deletes a Cosmos DB account"),
        (("**", "delete"), ONE, "deletes cloud resources"),
        (("**", "delete-batch"), ONE, "deletes storage blobs or files"),
        (("**", "purge"), ONE, "purges soft-deleted resources"),
    ),
    "doctl": (
        (("databases", "delete"), WHOLE, "deletes a managed database"),
        (("kubernetes", "cluster", "delete"), WHOLE, "deletes a Kubernetes cluster"),
        (("projects", "delete"), WHOLE, "deletes a project"),
        (("**", "delete"), ONE, "deletes cloud resources"),
        (("**", "rm"), ONE, "deletes cloud resources"),
    ),
    "gsutil": ((("rm",), ROUTINE, "deletes Cloud Storage objects"),
               (("rb",), ONE, "deletes a bucket")),
    "kubectl": (
        (("delete",), ONE, "deletes cluster resources"),
        (("drain",), ONE, "evicts every pod of a node"),
        (("scale",), ONE, "stops running workloads (0 replicas)"),  # only --replicas=0, see _kube
    ),
    "helm": tuple(((v,), ROUTINE, "uninstalls a Helm release")
                  for v in ("uninstall", "delete", "del", "un")),
    "gh": (
        (("repo", "delete"), WHOLE, "deletes a GitHub repository"),
        (("api",), ONE, "deletes a GitHub resource"),  # only -X DELETE, see _gh
        (("*", "delete"), ONE, "deletes GitHub resources"),
    ),
    "heroku": (
        (("apps:destroy",), WHOLE, "deletes a Heroku app"),
        (("destroy",), WHOLE, "deletes a Heroku app"),
        (("pg:reset",), WHOLE, "deletes a Heroku Postgres database"),
        (("addons:destroy",), ONE, "deletes a Heroku add-on"),
        (("pg:backups:delete",), ONE, "deletes a database backup"),
    ),
    "vercel": ((("remove",), WHOLE, "deletes a Vercel project"),
               (("rm",), WHOLE, "deletes a Vercel project")),
    "firebase": (
        (("firestore:delete",), ONE, "deletes Firestore documents"),
        (("database:remove",), ONE, "deletes Realtime Database data"),
        (("functions:delete",), ONE, "deletes Cloud Functions"),
        (("hosting:disable",), ONE, "takes a hosting site down"),
    ),
    "etcdctl": ((("del",), ONE, "deletes etcd keys"),),
    "consul": ((("kv", "delete"), ONE, "deletes Consul keys"),),
    "vault": (
        # Disabling a secrets engine deletes every secret stored under it; vault never asks.
        (("secrets", "disable"), WHOLE, "deletes a secrets engine and every secret in it"),
        (("auth", "disable"), ONE, "deletes an auth method"),
        (("kv", "delete"), ONE, "deletes secrets"),
        (("kv", "destroy"), ONE, "deletes secret versions"),
        (("kv", "metadata", "delete"), ONE, "deletes secrets and their history"),
        (("delete",), ONE, "deletes secrets"),
    ),
    "terraform": (
        (("destroy",), WHOLE, "deletes every resource of the Terraform state"),
        (("apply",), WHOLE, "deletes every resource of the Terraform state"),  # -destroy only
        (("state", "rm"), ONE, "forgets resources of the Terraform state"),
        (("workspace", "delete"), ONE, "deletes a Terraform workspace"),
    ),
    "terragrunt": (
        (("run-all", "destroy"), WHOLE, "deletes every module's resources"),
        (("run", "destroy"), WHOLE, "deletes the module's resources"),
        (("destroy",), WHOLE, "deletes the module's resources"),
        (("apply",), WHOLE, "deletes the module's resources"),  # -destroy only
        (("state", "rm"), ONE, "forgets resources of the Terraform state"),
    ),
    "pulumi": (
        (("destroy",), WHOLE, "deletes the stack's resources"),
        (("stack", "rm"), ONE, "deletes a Pulumi stack"),
    ),
    "cdk": ((("destroy",), WHOLE, "deletes the stack's resources"),),
    "mysqladmin": ((("drop",), WHOLE, "deletes a database"),),
    "wrangler": ((("delete",), ONE, "deletes a Worker"), (("**", "delete"), ONE,
                                                           "deletes Cloudflare resources")),
    "fly": (
        (("apps", "destroy"), WHOLE, "destroys a Fly app, its machines and volumes"),
        (("destroy",), WHOLE, "destroys a Fly app, its machines and volumes"),
        (("**", "destroy"), ONE, "destroys Fly resources"),
        (("**", "delete"), ONE, "deletes Fly resources"),
    ),
    "netlify": ((("sites:delete",), WHOLE, "deletes a Netlify site"),),
    "hcloud": ((("**", "delete"), ONE, "deletes Hetzner Cloud resources"),),
    # bq rm -r deletes a dataset with every table in it (see _cloud._bq).
    "bq": ((("rm",), ONE, "deletes BigQuery tables or datasets"),),
}
TABLE["oc"] = TABLE["kubectl"]
TABLE["tofu"] = TABLE["terraform"]

# Flags that skip the tool's confirmation prompt; a tool absent from this table never asks.
CONFIRM: dict[str, tuple[str, ...]] = {
    "terraform": ("-auto-approve", "--auto-approve"),
    "terragrunt": ("-auto-approve", "--auto-approve", "--terragrunt-non-interactive",
                   "--non-interactive"),
    "pulumi": ("--yes", "-y"),
    "cdk": ("--force", "-f"),
    "gcloud": ("--quiet", "-q"),
    "az": ("--yes", "-y"),
    "gh": ("--yes", "--confirm"),
    "heroku": ("--confirm",),
    "vercel": ("--yes", "-y"),
    "firebase": ("--force", "-f"),
    "doctl": ("--force", "-f"),
    "mysqladmin": ("--force", "-f"),
    "fly": ("--yes", "-y"),
    "netlify": ("--force", "-f"),
    "bq": ("--force", "-f"),
}
CONFIRM["tofu"] = CONFIRM["terraform"]
CONFIRM_ENV = {"terragrunt": "TERRAGRUNT_NON_INTERACTIVE", "pulumi": "PULUMI_SKIP_CONFIRMATIONS"}

CLOUD_TOOLS = frozenset(TABLE)

# Other names of the same tools (package-runner names: npx aws-cdk, pnpm dlx firebase-tools).
ALIASES = {"firebase-tools": "firebase", "aws-cdk": "cdk", "flyctl": "fly",
           "netlify-cli": "netlify", "vercel-cli": "vercel"}
