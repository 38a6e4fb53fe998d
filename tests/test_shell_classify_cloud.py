"""classify(), round-5 "cloud" slice: cloud, cluster, SaaS and database destroyers.

Two tiers: destroying one named resource warns (``shell.resource-destroy``); destroying a whole
database, stack, project or bucket unattended, everything of a kind (``--all``, a bucket's
root, ``--prefix ''``), or a target list computed at run time blocks (``shell.mass-destroy``,
overridable in ``[rules]``). Tools are read by their command path (``aws <svc> delete-*``,
``gcloud <group...> delete``), so services no table names still match.

Each test names the property it checks and holds several spellings of the class (none of the
red team's exact strings), with the everyday neighbours that must keep passing or only warn.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify
from deerguard.shell._policy import parse_policy


def _rules(command: str) -> set[str]:
    return {f.rule_id for f in classify(command).findings}


# --- mass or unattended destruction blocks ----------------------------------------------------

_MASS = [
    # everything of a kind in a cluster
    "kubectl -n prod delete deployments --all",
    "oc delete pvc --all=true -n db",
    "kubectl delete svc,ingress --all-namespaces",
    "kubectl delete customresourcedefinitions certificates.cert-manager.io",
    "kubectl delete namespace kube-system",
    "kubectl --context prod delete ns default",
    # a target list computed at run time
    "kubectl get deploy -o name -n prod | xargs -r kubectl delete -n prod",
    "helm list -q -n prod | xargs -n1 helm delete -n prod",
    "aws ec2 delete-snapshot --snapshot-id $(aws ec2 describe-snapshots --owner-ids self "
    "--query 'Snapshots[].SnapshotId' --output text)",
    "aws lambda delete-function --function-name `aws lambda list-functions --output text`",
    "terraform state rm $(terraform state list | grep module.)",
    "helm uninstall $(helm ls -q --all-namespaces)",
    "az vm delete --ids $(az vm list --query '[].id' -o tsv) --yes",
    # a stack destroyed without asking
    "tofu -chdir=infra destroy -auto-approve",
    "terraform apply -auto-approve -destroy",
    "terragrunt run --all destroy --non-interactive",
    "TERRAGRUNT_NON_INTERACTIVE=true terragrunt run-all destroy",
    "pulumi destroy -y -s acme/prod",
    "cdk destroy -f ProdStack",
    "aws cloudformation delete-stack --stack-name web --region eu-west-1",
    "aws eks delete-cluster --name prod",
    # projects, groups, clusters, databases, repositories, apps
    "gcloud --project acme projects delete acme-prod --quiet",
    "gcloud beta container clusters delete prod --region us-central1 -q",
    "az aks delete -g rg -n prod --yes",
    "az group delete --name rg-prod -y --no-wait",
    "doctl databases delete 1234abcd --force",
    "heroku pg:reset DATABASE_URL --app shop --confirm shop",
    "heroku apps:destroy -a shop --confirm=shop",
    "gh repo delete --yes acme/website",
    "gh api --method DELETE /repos/acme/website",
    "gh api repos/acme/website -XDELETE",
    "vercel rm web-app -y",
    "vault secrets disable kv/",
    "vault secrets disable -namespace=team database/",
    # whole buckets, every key, no final snapshot
    "aws s3 rm --recursive s3://logs-bucket/",
    "aws --profile prod s3 rb --force s3://assets",
    "aws rds delete-db-cluster --db-cluster-identifier main --skip-final-snapshot",
    "aws redshift delete-cluster --cluster-identifier dw --skip-final-cluster-snapshot",
    "gsutil rm -r gs://assets/",
    "gcloud storage rm gs://assets/**",
    "az storage file delete-batch --source share --account-name acct",
    "firebase database:remove / --force -P prod",
    "etcdctl --endpoints https://e:2379 del --from-key ''",
    "etcdctl del / --prefix",
    "consul kv delete -recurse",
    "consul kv delete -recurse /",
    # whole databases
    "psql -h db -U app -c 'drop schema app cascade'",
    "mysql --execute='DROP DATABASE IF EXISTS shop'",
    "cqlsh -e 'DROP KEYSPACE metrics'",
    "sqlcmd -S db -Q \"DROP DATABASE Sales\"",
    "mariadb shop <<< 'drop database shop;'",
    "psql <<'SQL'\nBEGIN;\n/* cleanup */ DROP DATABASE staging;\nCOMMIT;\nSQL",
    "psql -c 'SELECT 1; drop owned by app_user'",
    "redis-cli -u redis://prod:6379 flushall async",
    "mongosh prod --quiet --eval 'db.getSiblingDB(\"shop\").dropDatabase()'",
    "dropdb --if-exists -h db shop",
    "mysqladmin -u root -f drop shop",
    # through wrappers and nested code
    "bash -c 'terraform destroy -auto-approve'",
    "sudo -E kubectl delete ns --all",
    "env AWS_PROFILE=prod aws s3 rb --force s3://b",
    "timeout 60 gh repo delete acme/x --yes",
    "k=kubectl; $k delete ns --all",
    "kubectl exec db-0 -- psql -c 'DROP DATABASE app'",
    "docker compose exec db dropdb app",
    # package-runner names of the same tools, and tools of other clouds
    "pnpm dlx firebase-tools firestore:delete --all-collections --force",
    "npx aws-cdk destroy --all --force",
    "flyctl apps destroy my-app -y",
    "netlify sites:delete 1234 --force",
    # bucket roots and empty keys, literal or through a known value
    'aws s3 rm "s3://$BUCKET" --recursive',
    "x=s3://b; aws s3 rm $x --recursive",
    'etcdctl del "" --prefix',
    # a list computed at run time, held in a variable or a loop variable
    "ids=$(aws ec2 describe-instances --output text); aws ec2 terminate-instances "
    "--instance-ids $ids",
    'for ns in $(kubectl get ns -o name); do kubectl delete "$ns"; done',
    "kubectl get ns -o name | while IFS= read -r ns; do kubectl delete $ns; done",
    "for r in `helm ls -q`; do helm uninstall ${r}; done",
    # a confirmation prompt answered from stdin
    "yes | terraform destroy",
    "echo y | pulumi destroy -s prod",
    "az group delete -n rg <<< yes",
    "printf 'yes\\n' | gcloud sql instances delete main",
    # attached values and short clusters, as getopt and cobra read them
    "mysql -e'DROP DATABASE shop'", 'psql -c"drop schema s cascade"',
    "bq rm -rf acme:analytics", "bq rm -r -f -d acme:analytics",
    "doctl databases delete 1234 -fq",
]


@pytest.mark.parametrize("command", _MASS)
def test_mass_or_unattended_destruction_blocks(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.mass-destroy" in result.rule_ids
    assert "shell.resource-destroy" in result.rule_ids


# --- one named resource, or a prompt that stops an agent's shell: warn -------------------------

_ONE = [
    "kubectl delete deployment api -n prod",
    "kubectl delete -f ./k8s/",
    "kubectl delete -f https://example.com/x.yaml",
    "kubectl delete ns feature-x",
    "kubectl drain ip-10-0-1-2 --ignore-daemonsets",
    "kubectl scale statefulset db --replicas 0",
    "terraform destroy",
    "terraform destroy -target=module.cache -auto-approve",
    "terraform state rm aws_instance.old",
    "pulumi destroy",
    "pulumi destroy --yes --target urn:pulumi:prod::app::aws:s3/bucket:Bucket::logs",
    "cdk destroy ProdStack",
    "az group delete -n rg",
    "gcloud projects delete acme-sandbox",
    "gh repo delete acme/x",
    "gh secret delete NPM_TOKEN",
    "gh release delete v2.1.0 -y",
    "gh api -X DELETE repos/acme/api/git/refs/heads/old",
    "aws sqs purge-queue --queue-url https://sqs/q",
    "aws s3 rm s3://b/logs/ --recursive",
    "aws s3 rm s3://b --recursive --exclude '*' --include '*.tmp'",
    "aws iam delete-user --user-name bob",
    "aws dynamodb delete-table --table-name sessions",
    "aws ec2 terminate-instances --instance-ids i-1 i-2",
    "aws rds delete-db-instance --db-instance-identifier dev --final-db-snapshot-identifier s",
    "gcloud functions delete fn --region us-east1",
    "gcloud alpha run services delete api --quiet",
    "az vm delete -g rg -n vm1 --yes",
    "az storage blob delete-batch -s data --pattern 'tmp/*' --account-name a",
    "doctl compute droplet delete web-1 --force",
    "gsutil rm -r gs://b/builds/123/",
    "etcdctl del /app/config",
    "etcdctl del /app/ --prefix",
    "consul kv delete -recurse app/config",
    "vault kv delete secret/app",
    "heroku apps:destroy --app shop",
    "vercel rm my-app-abc123.vercel.app --yes",
    "firebase firestore:delete users/bob -r",
    "psql -c 'TRUNCATE TABLE sessions'",
    "psql -c 'truncate sessions, carts restart identity'",
    "mysql -e 'DELETE FROM carts'",
    "sqlite3 dev.db 'delete from jobs;'",
    "echo 'delete from audit_log' | psql app",
    "redis-cli FLUSHDB",
    "mongosh --eval 'db.sessions.deleteMany({})'",
    "dropdb -i shop",
    "mysqladmin drop shop",
    "kubectl delete pod $(kubectl get pods --field-selector=status.phase=Failed -o name)",
    # a variable that may be unset is not a literal root or empty key
    'aws s3 rm "s3://$BUCKET/$PREFIX" --recursive',
    'etcdctl del "$KEY" --prefix',
    "fly destroy my-app",
    "wrangler d1 delete prod-db",
    "hcloud server delete web-1",
    "echo no | terraform destroy",
    "terraform destroy < /dev/null",
    "bq rm -f -t acme:analytics.tmp", "bq rm -r acme:analytics",
    "id=$(cat id.txt); aws ec2 terminate-instances --instance-ids $id",
    "for ns in $(cat stale.txt); do kubectl delete ns $ns; done",
    "ZONE=$(gcloud config get-value compute/zone); gcloud compute instances delete vm1 "
    "--zone $ZONE",
]


@pytest.mark.parametrize("command", _ONE)
def test_destroying_one_named_resource_warns(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.resource-destroy" in result.rule_ids
    assert "shell.mass-destroy" not in result.rule_ids


# --- read-only and everyday neighbours pass -----------------------------------------------------

_EVERYDAY = [
    "kubectl get ns", "kubectl delete pod api-0", "kubectl delete po -l app=web -n dev",
    "kubectl scale deploy api --replicas=3", "kubectl describe node ip-10-0-1-2",
    "kubectl get pods --all-namespaces", "kubectl rollout restart deploy/api",
    "helm uninstall pr-9 -n previews", "helm list -A", "helm upgrade --install api ./chart",
    "terraform plan -destroy", "terraform apply -auto-approve", "terraform state list",
    "terraform workspace list", "terragrunt run-all plan", "pulumi preview", "cdk diff",
    "aws s3 ls s3://b", "aws s3 rm s3://b/tmp/x.zip", "aws ec2 describe-instances",
    "aws s3 cp build/ s3://b/ --recursive", "aws s3 sync dist/ s3://site --delete",
    "aws logs describe-log-groups", "aws sts get-caller-identity",
    "gcloud compute instances list", "gcloud compute instances list --filter='name~delete'",
    "gcloud config set project acme", "gsutil rm gs://b/tmp/a.txt", "gsutil ls gs://b",
    "az group list", "az vm list -o table", "gh repo view", "gh release list",
    "gh api repos/acme/api", "gh api -X POST repos/a/b/issues -f title=x",
    "gh pr create --title 'delete old files' --body 'x'", "psql -c 'SELECT 1'",
    "psql -c \"DELETE FROM sessions WHERE expires_at < now()\"",
    "sqlite3 app.db 'select * from drop_log'", "psql -c 'DROP INDEX IF EXISTS idx_x'",
    "redis-cli GET k", "redis-cli DEL session:1", "etcdctl get / --prefix --keys-only",
    "consul kv get -recurse app/", "vault kv list secret/app", "vault secrets list",
    "heroku apps:info", "vercel deploy --prod", "firebase deploy --only hosting",
    "doctl compute droplet list", "echo api-0 | xargs kubectl delete pod",
    "kubectl get pods -o name | xargs kubectl describe",
    "echo 'DROP DATABASE prod' > notes.txt", "git commit -m 'terraform destroy -auto-approve'",
    "grep -r 'kubectl delete ns --all' docs/",
    # dry runs print what would go and delete nothing
    "kubectl delete ns --all --dry-run=client", "aws s3 rm s3://b --recursive --dryrun",
    "az storage blob delete-batch -s data --account-name a --dryrun",
    "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
    # help prints and deletes nothing
    "dropdb --help", "kubectl delete --help", "aws s3 rb help", "terraform destroy -help",
    "gcloud help projects delete", "mysqladmin status", "docker compose down -v",
    "bq ls", "bq query 'SELECT 1'", "mysql -uroot -e 'select 1'",
]


@pytest.mark.parametrize("command", _EVERYDAY)
def test_read_only_and_everyday_cloud_commands_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()


# --- unseen services fit the verb table -----------------------------------------------------------

@pytest.mark.parametrize("command", [
    "aws kafka delete-cluster --cluster-arn arn", "aws bedrock delete-custom-model --model-id m",
    "aws ec2 deregister-image --image-id ami-1", "aws kms schedule-key-deletion --key-id k",
    "gcloud workstations configs delete cfg --cluster c", "az containerapp delete -n app -g rg",
    "doctl apps delete 1234 --force", "gcloud alloydb instances delete i --cluster c",
])
def test_unlisted_services_destroy_verbs_are_recognised(command: str) -> None:
    assert "shell.resource-destroy" in _rules(command), classify(command).to_dict()


# --- the tier is a rule a policy can tune --------------------------------------------------------

@pytest.mark.parametrize(("setting", "verdict"), [
    ("warn", Verdict.WARN), ("off", Verdict.WARN), ("block", Verdict.BLOCK)])
def test_mass_destroy_severity_is_overridable(setting: str, verdict: Verdict) -> None:
    policy = parse_policy(f'[rules]\n"shell.mass-destroy" = "{setting}"\n')
    for command in ("terraform destroy -auto-approve", "kubectl delete pods --all -A",
                    "psql -c 'DROP DATABASE prod'"):
        assert classify(command, policy=policy).verdict is verdict, command


def test_mass_destroy_finding_points_at_the_program_and_says_why() -> None:
    command = "cd infra && terraform destroy -auto-approve"
    result = classify(command)
    finding = next(f for f in result.findings if f.rule_id == "shell.mass-destroy")
    assert command[finding.span.start:finding.span.end] == "terraform"
    assert "without asking" in finding.message
    listed = classify("aws ec2 terminate-instances --instance-ids "
                      "$(aws ec2 describe-instances --output text)")
    assert any("computed at run time" in f.message for f in listed.findings)


@pytest.mark.parametrize("command", [
    "kubectl delete " + "x " * 3000, "aws " + "s3 " * 3000 + "rm",
    "psql -c '" + "/*" * 3000 + "'", "gcloud " + "delete " * 2000,
    "etcdctl del '' --prefix " * 200, "gh api -X DELETE " + "/" * 5000,
])
def test_hostile_destroyer_arguments_never_raise(command: str) -> None:
    assert classify(command).verdict in (Verdict.PASS, Verdict.WARN, Verdict.BLOCK)
