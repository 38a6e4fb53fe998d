"""Credential paths the sensitive-read lists are built from: folders that hold keys, and
the login token files of coding agents, developer CLIs and data tools.

Reading any of them is a secret read (``_rules.SENSITIVE_READ_GLOBS`` includes both), but
creating a credential folder (``mkdir -p ~/.kube``) or writing a tool's login token file
(``cp kaggle.json ~/.kaggle/``) is everyday setup, not persistence (:func:`setup_write`).
"""

from __future__ import annotations

__all__ = ["CREDENTIAL_DIRS", "TOKEN_FILE_GLOBS", "setup_write"]

CREDENTIAL_DIRS = ("~/.ssh", "~/.aws", "~/.gnupg", "~/.kube", "~/.docker", "~/.config/gh",
                   "~/.config/gcloud", "~/.azure", "~/.password-store", "~/.aws/sso/cache",
                   "~/.aws/cli/cache", "~/.ethereum/keystore", "~/.config/sops/age",
                   "/etc/kubernetes", "/etc/kubernetes/pki")
"""Folders that hold credentials and little else: reading one whole (``tar``, ``rsync``,
``rclone``, a container mount) reads the keys in it; creating one is everyday."""

TOKEN_FILE_GLOBS = (
    "~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json",
    "~/.config/github-copilot/hosts.json",
    "~/.config/github-copilot/apps.json", "~/.aws/sso/cache/*", "~/.aws/cli/cache/*",
    "/etc/kubernetes/*.conf", "/etc/kubernetes/pki/*.key", "/var/lib/kubelet/pki/*.key",
    "/var/lib/kubelet/pki/kubelet-client*.pem", "/etc/rancher/k3s/k3s.yaml",
    "~/.cache/huggingface/token", "~/.huggingface/token", "~/.kaggle/kaggle.json",
    "~/.vercel/auth.json", "~/.local/share/com.vercel.cli/auth.json",
    "~/Library/Application Support/com.vercel.cli/auth.json", "~/.netlify/config.json",
    "~/.config/netlify/config.json", "~/.fly/config.yml", "~/.databrickscfg",
    "~/.snowsql/config", "~/.dbt/profiles.yml", "~/.ansible/vault_pass*",
    "~/.vault_pass", "~/.vault_pass.txt", "~/.config/sops/age/keys.txt", "~/.sops/age/keys.txt",
    "~/Library/Application Support/sops/age/keys.txt", "~/.bitcoin/wallet.dat",
    "~/.bitcoin/wallets/*", "~/.ethereum/keystore/*", "~/.config/solana/id.json",
    "~/.thunderbird/*/logins.json", "~/.thunderbird/*/key4.db",
    "~/.config/filezilla/recentservers.xml", "~/.config/filezilla/sitemanager.xml",
    "~/.config/hcloud/cli.toml", "~/.config/linode-cli", "~/.config/scw/config.yaml",
    "~/.config/openstack/clouds.yaml", "~/.aliyun/config.json", "~/.bluemix/config.json",
    "~/.pulumi/credentials.json", "~/.config/glab-cli/config.yml",
    "~/.config/ngrok/ngrok.yml", "~/.ngrok2/ngrok.yml", "~/.cloudflared/cert.pem",
    "~/.wrangler/config/default.toml", "~/.config/.wrangler/config/default.toml",
    "~/.supabase/access-token", "~/.config/configstore/firebase-tools.json",
    "~/.railway/config.json", "~/.config/stripe/config.toml", "~/.composer/auth.json",
    "~/.config/composer/auth.json", "~/.m2/settings-security.xml", "~/.jfrog/jfrog-cli.conf*",
    "~/.electrum/wallets/*", "~/.config/Exodus/exodus.wallet/*",
)
"""Login tokens of coding agents and developer CLIs, cloud SSO caches, cluster admin
kubeconfigs and node keys, data platforms' connection profiles, deploy tools' auth, wallets
and mail password stores. Reading one is a secret read (like ``~/.aws/credentials``);
writing one is the everyday setup of a tool's login (CI writes ``~/.kaggle/kaggle.json``,
``~/.databrickscfg``, ``~/.dbt/profiles.yml``), not a way to run code later."""


# mkdir -p ~/.kube (a credential folder) and cp kaggle.json ~/.kaggle/ (a tool's login
# token) are everyday setup: only the credential files that decide keys or logins persist.
_TOKEN_ENDS = tuple(g[1:] for g in TOKEN_FILE_GLOBS if g.startswith("~/") and "*" not in g)
_SETUP_ENDS = tuple(d[1:] if d.startswith("~/") else d for d in CREDENTIAL_DIRS) + _TOKEN_ENDS
_TOKEN_DIRS = tuple(sorted({e.rpartition("/")[0] for e in _TOKEN_ENDS if e.count("/") > 1}))


def setup_write(path: str) -> bool:
    """A write that creates a credential folder or a tool's login token file (``cp
    kaggle.json ~/.kaggle/`` writes ``~/.kaggle/*``)."""
    if path.endswith(_SETUP_ENDS):
        return True
    parent, _, last = path.rpartition("/")
    return last == "*" and parent.endswith(_TOKEN_DIRS)
