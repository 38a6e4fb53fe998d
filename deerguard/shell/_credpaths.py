"""Credential paths the sensitive-read lists are built from: folders that hold keys, and
the login token files of coding agents, developer CLIs and data tools.

Reading any of them is a secret read (``_rules.SENSITIVE_READ_GLOBS`` includes both), but
creating a credential folder (``mkdir -p ~/.kube``) or writing a tool's login token file
(``cp kaggle.json ~/.kaggle/``) is everyday setup, not persistence (:func:`setup_write`).
"""

from __future__ import annotations

__all__ = ["APP_STORE_GLOBS", "CREDENTIAL_DIRS", "STORE_HOMES", "TOKEN_FILE_GLOBS", "setup_write",
           "store_home"]

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
    # Build tools' and package registries' logins: Maven's servers, Gradle's publishing and
    # signing passwords, Ivy/sbt realms, NuGet feeds, the 1Password CLI's session.
    "~/.m2/settings.xml", "~/.gradle/gradle.properties", "~/.ivy2/.credentials",
    "~/.sbt/*credentials*", "~/.nuget/NuGet/NuGet.Config", "~/.config/NuGet/NuGet.Config",
    "~/.config/op/config", "~/.op/config", "~/.wakatime.cfg",
    # git's XDG credential store, Terraform CLI tokens, registry logins of podman/buildah and
    # helm, yarn berry's npmAuthToken, CI and error-tracker CLIs, Teleport's keys.
    "~/.config/git/credentials", "~/.terraformrc", "~/.config/containers/auth.json",
    "/run/user/*/containers/auth.json", "~/.config/helm/repositories.yaml",
    "~/.config/helm/registry/config.json", "~/.yarnrc.yml", "~/.circleci/cli.yml",
    "~/.sentryclirc", "~/.tsh/keys/*",
)
"""Login tokens of coding agents and developer CLIs, cloud SSO caches, cluster admin
kubeconfigs and node keys, data platforms' connection profiles, deploy tools' auth, wallets
and mail password stores. Reading one is a secret read (like ``~/.aws/credentials``);
writing one is the everyday setup of a tool's login (CI writes ``~/.kaggle/kaggle.json``,
``~/.databrickscfg``, ``~/.dbt/profiles.yml``), not a way to run code later."""

_MAC = "~/Library/Application Support/"

APP_STORE_GLOBS = (
    # Electron and Chromium apps keep their login tokens in Local Storage's leveldb (Slack's
    # xoxc, Discord's token, Teams, Signal), wallet extensions in Local Extension Settings,
    # autofill and cards in Web Data; VS Code and its forks keep extension logins (Cursor's
    # access token) in state.vscdb.
    "~/.config/*/Local Storage*", "~/.config/*/Local Extension Settings*",
    "~/.config/*/Web Data", "~/.config/*/User/globalStorage/state.vscdb*",
    _MAC + "*/Local Storage*", _MAC + "*/Local Extension Settings*", _MAC + "*/Web Data",
    _MAC + "*/User/globalStorage/state.vscdb*",
    # Firefox (also macOS and the snap), Safari's cookies, Telegram's session, wallets.
    _MAC + "Firefox/*/cookies.sqlite", "~/.mozilla/firefox/*/signons.sqlite",
    "~/.mozilla/firefox/*/key3.db", "~/snap/firefox/common/.mozilla/firefox/*/logins.json",
    "~/snap/firefox/common/.mozilla/firefox/*/key4.db",
    "~/snap/firefox/common/.mozilla/firefox/*/cookies.sqlite", "~/Library/Cookies/*",
    "~/.local/share/TelegramDesktop/tdata*", _MAC + "Telegram Desktop/tdata*",
    "~/.config/Exodus/exodus.wallet", _MAC + "Exodus", _MAC + "Exodus/*", "~/.electrum/wallets",
    _MAC + "Electrum/wallets*", _MAC + "Bitcoin/wallet*", "~/.local/share/kwalletd/*",
)
"""Token and password stores of browsers and desktop apps: reading one is a secret read."""

STORE_HOMES = frozenset({
    "~/.mozilla", "~/.mozilla/firefox", "~/.config/google-chrome", "~/.config/chromium",
    "~/.config/google-chrome-beta", "~/.config/google-chrome-unstable",
    "~/.config/BraveSoftware", "~/.config/BraveSoftware/Brave-Browser",
    "~/.config/microsoft-edge", "~/.config/vivaldi", "~/.config/opera", "~/.config/Slack",
    "~/.config/discord", "~/.config/Signal", "~/.config/Microsoft/Microsoft Teams",
    "~/.config/Code", "~/.config/Cursor", "~/.config/Exodus", "~/.electrum",
    "~/.local/share/TelegramDesktop", "~/.thunderbird", "~/snap/firefox",
    "~/Library", "~/Library/Application Support", "~/Library/Keychains", "~/Library/Cookies",
    _MAC + "Google", _MAC + "Google/Chrome", _MAC + "BraveSoftware", _MAC + "Firefox",
    _MAC + "Firefox/Profiles", _MAC + "Microsoft Edge", _MAC + "Slack", _MAC + "discord",
    _MAC + "Code", _MAC + "Cursor", _MAC + "Signal", _MAC + "Telegram Desktop",
})
"""Browser profiles and desktop apps' data folders: settings and caches an agent may list,
size or clear, and the cookie, password and token stores beside them. Named alone they are
ordinary; archived, synced or copied out whole to the network they carry those stores."""

# A browser's profile folders one level down (~/.config/google-chrome/Default, Profile 1,
# ~/.mozilla/firefox/abc.default-release) hold the stores themselves.
_PROFILE_PARENTS = frozenset({"~/.config/google-chrome", "~/.config/chromium",
                              "~/.config/BraveSoftware/Brave-Browser", "~/.config/microsoft-edge",
                              "~/.config/vivaldi", "~/.mozilla/firefox", _MAC + "Google/Chrome",
                              _MAC + "Firefox/Profiles", _MAC + "Microsoft Edge"})


def store_home(path: str) -> bool:
    """``path`` (in ``~/`` form) is a browser's or desktop app's data folder or profile."""
    if path in STORE_HOMES:
        return True
    parent, slash, _ = path.rpartition("/")
    return bool(slash) and parent in _PROFILE_PARENTS


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
