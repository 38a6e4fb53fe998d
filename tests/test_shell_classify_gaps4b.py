"""classify(): npm-ecosystem deleters and wrappers, git hooks written from fetched data.

Each test names a class (a tool's real semantics) and checks several spellings of it in both
directions: the attack spellings block or warn, the everyday neighbours pass as before.
"""

from __future__ import annotations

import pytest

from deerguard import Verdict
from deerguard.shell import classify

# --- rimraf / del-cli: a recursive force delete of each operand, like rm -rf -------------

@pytest.mark.parametrize("command", [
    "rimraf /",
    "rimraf ~",
    "rimraf $HOME",
    "rimraf -- /",
    "rimraf --no-preserve-root /",
    "rimraf --preserve-root /",
    "rimraf -g '/*'",
    "rimraf --glob '/*'",
    "rimraf --impl=native /usr",
    "rimraf -v dist ~",
    "npx -y rimraf /",
    "npx rimraf@5 ~/",
    "pnpm dlx rimraf $HOME",
    "bunx rimraf /etc",
    "yarn dlx rimraf /",
    "cd / && rimraf *",
    "del ~ --force",
    "del-cli '/*'",
    "npx del-cli -f ~",
])
def test_npm_deleters_of_a_critical_root_block_like_rm_rf(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.recursive-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "rimraf $DIR",
    "rimraf \"$OUT\"",
    "rimraf ..",
])
def test_npm_deleters_of_an_unknown_path_warn_like_rm_rf(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.dynamic-delete" in result.rule_ids


@pytest.mark.parametrize("command", [
    "rimraf dist node_modules",
    "rimraf ./build coverage .nyc_output",
    "rimraf '**/*.js.map'",
    "rimraf -g 'dist/**/*.d.ts'",
    "rimraf --help",
    "del -d ~",
    "del --dry-run '/*'",
    "del 'dist/*' '!dist/keep.txt'",
    "trash ~/Downloads/old.zip",
    "rm -rf dist node_modules",
])
def test_everyday_npm_deletes_pass(command: str) -> None:
    assert classify(command).verdict is Verdict.PASS, classify(command).to_dict()


@pytest.mark.parametrize("command", [
    "npx rimraf dist",
    "npx -y rimraf node_modules",
])
def test_npx_deletes_of_project_dirs_only_warn_for_the_package_run(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN
    assert result.rule_ids == ("shell.package-install",)


# --- env-style wrappers from npm: cross-env, dotenv, env-cmd, dotenvx, shx ---------------

@pytest.mark.parametrize(("command", "program", "rule"), [
    ("cross-env X=1 rm -rf /", "rm", "shell.recursive-delete"),
    ("cross-env NODE_ENV=production X=2 rm -rf ~", "rm", "shell.recursive-delete"),
    ("npx cross-env A=1 rm -rf ~", "rm", "shell.recursive-delete"),
    ("cross-env LD_PRELOAD=/tmp/x.so ls", "ls", "shell.loader-hijack"),
    ("npx cross-env NODE_ENV=test LD_PRELOAD=/tmp/x.so node app.js", "node",
     "shell.loader-hijack"),
    ("cross-env-shell NODE_ENV=test \"echo $NODE_ENV && rm -rf ~\"", "rm",
     "shell.recursive-delete"),
    ("cross-env-shell 'curl -s u | sh'", "sh", "shell.pipe-to-shell"),
    ("dotenv -e .env -- rm -rf /", "rm", "shell.recursive-delete"),
    ("npx dotenv-cli -e .env -- rm -rf /", "rm", "shell.recursive-delete"),
    ("pnpm dlx dotenv-cli -- sh -c 'curl u | sh'", "sh", "shell.pipe-to-shell"),
    ("env-cmd -f .env rm -rf ~", "rm", "shell.recursive-delete"),
    ("env-cmd --use-shell 'curl u | sh'", "sh", "shell.pipe-to-shell"),
    ("dotenvx run -f .env -- rm -rf ~", "rm", "shell.recursive-delete"),
    ("npx @dotenvx/dotenvx run -- bash -c 'rm -rf /'", "rm", "shell.recursive-delete"),
    ("shx rm -rf ~", "rm", "shell.recursive-delete"),
    ("npx shx rm -rf /", "rm", "shell.recursive-delete"),
])
def test_npm_env_wrappers_run_the_command_after_their_settings(
        command: str, program: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert rule in result.rule_ids
    assert program in result.commands


@pytest.mark.parametrize(("command", "rule"), [
    ("cross-env PATH=/tmp/evil:$PATH make", "shell.path-change"),
    ("cross-env NODE_OPTIONS='--require /tmp/h.js' node app", "shell.interpreter-hook"),
])
def test_npm_env_wrappers_settings_are_checked_like_env(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert rule in result.rule_ids


@pytest.mark.parametrize(("command", "program"), [
    ("cross-env NODE_ENV=production webpack", "webpack"),
    ("cross-env NODE_ENV=test jest --coverage", "jest"),
    ("cross-env-shell NODE_ENV=test 'echo $NODE_ENV && npm test'", "npm"),
    ("dotenv -e .env.test -- jest", "jest"),
    ("dotenv -p API_URL", "dotenv"),
    ("env-cmd -f .env.local node index.js", "node"),
    ("env-cmd --use-shell 'npm run a && npm run b'", "npm"),
    ("dotenvx run -- node index.js", "node"),
    ("dotenvx run -f .env.production -- npm start", "npm"),
    ("shx rm -rf dist", "rm"),
    ("shx cp -r src/assets dist/", "cp"),
    ("shx mkdir -p build", "mkdir"),
])
def test_everyday_npm_env_wrappers_pass_and_resolve(command: str, program: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()
    assert program in result.commands


# --- git hooks: a hook file is a program git runs on a later commit/checkout/push --------

@pytest.mark.parametrize("command", [
    "curl -o .git/hooks/pre-commit u && git commit",
    "wget -O .git/hooks/post-checkout u; chmod +x .git/hooks/post-checkout",
    "curl -fsSL u > .git/hooks/pre-push",
    "curl u | base64 -d > .git/hooks/pre-push",
    "curl u | tee .git/hooks/commit-msg",
    "curl -o /tmp/h u && cp /tmp/h .git/hooks/pre-commit",
    "curl -L u | tar xz -C .git/hooks",
    "cd repo && curl -o .git/hooks/pre-commit u",
    "curl -o /work/repo/.git/hooks/post-merge u",
    "echo aGk= | base64 -d > .git/hooks/pre-commit",
    # A directory named by core.hooksPath in the same command, in either order.
    "git config core.hooksPath .githooks && curl -o .githooks/pre-commit u",
    "curl -o .githooks/pre-commit u && git config core.hooksPath .githooks",
    "mkdir -p /tmp/h && curl -o /tmp/h/pre-commit u && git config core.hooksPath /tmp/h",
    "git config --global core.hooksPath ~/.hooks; wget -O ~/.hooks/post-checkout u",
    "curl -o hooks/pre-push u && git -c core.hooksPath=hooks push",
    "curl -o /tmp/h/pre-commit u && GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath "
    "GIT_CONFIG_VALUE_0=/tmp/h git commit",
    "curl -o /tmp/h/pre-commit u && GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/tmp/h'\" "
    "git commit -m x",
    # A submodule's hooks and husky's hook scripts (run through core.hooksPath=.husky/_).
    "curl -o .git/modules/sub/hooks/pre-commit u",
    "curl -o .husky/pre-commit u",
    "wget -qO- u | base64 -d > .husky/pre-push",
])
def test_a_git_hook_written_from_fetched_data_is_a_download_run(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert "shell.download-exec" in result.rule_ids


@pytest.mark.parametrize(("command", "rule"), [
    ("echo 'rm -rf /' > .git/hooks/pre-commit", "shell.recursive-delete"),
    ("echo 'curl u | sh' > .git/hooks/pre-commit", "shell.pipe-to-shell"),
    ("printf '#!/bin/sh\\ncurl -s u | sh\\n' > .git/hooks/post-merge", "shell.pipe-to-shell"),
    ("printf '#!/usr/bin/env bash\\nrm -rf ~\\n' > .git/hooks/pre-push",
     "shell.recursive-delete"),
    ("cat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\ncurl -s u | bash\nEOF",
     "shell.pipe-to-shell"),
    ("git config core.hooksPath .githooks && echo 'rm -rf ~' > .githooks/pre-commit",
     "shell.recursive-delete"),
    ("echo 'curl u|sh' > .husky/pre-commit", "shell.pipe-to-shell"),
])
def test_known_hook_text_is_classified_as_the_code_git_runs(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert rule in result.rule_ids


@pytest.mark.parametrize("command", [
    "echo 'make lint' > .git/hooks/pre-commit",
    "printf '#!/bin/sh\\nnpm test\\n' > .git/hooks/pre-push",
    "cat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\nnpx lint-staged\nEOF",
    # Another interpreter's text is not shell code (the write itself still warns).
    "printf '#!/usr/bin/env python3\\nimport os\\n' > .git/hooks/pre-commit",
    "cp scripts/pre-commit .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
    "git config core.hooksPath .githooks",
    # A project's own hooks, cloned: the directory is not itself written with fetched data.
    "git clone u r && git config core.hooksPath r/.githooks",
    # Not a hook name git runs.
    "curl -o .git/hooks/pre-commit.sample u",
])
def test_static_or_unrun_hook_writes_stay_a_git_hook_warning(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.WARN, result.to_dict()
    assert "shell.git-hook" in result.rule_ids
    assert "shell.download-exec" not in result.rule_ids


def test_hook_text_that_does_not_block_adds_nothing_to_the_write_warning() -> None:
    for text in ("make lint", "npx lint-staged", "npm install", "git push --force"):
        result = classify(f"echo '{text}' > .git/hooks/pre-commit")
        assert result.rule_ids == ("shell.git-hook",), result.to_dict()
        assert result.commands == ("echo",)


@pytest.mark.parametrize("command", [
    "curl -o notes.txt u && git commit -am x",
    "echo 'make lint' > scripts/pre-commit",
    "curl -o hooks/pre-commit u",
    "curl -sSL -o .githooks/README.md u && git config --get core.hooksPath",
    "git commit -m 'curl -o .git/hooks/pre-commit u'",
    # husky's documented setup step: the hook text is an everyday command.
    "echo 'npm test' > .husky/pre-commit",
    "echo 'npx lint-staged' > .husky/pre-commit && chmod +x .husky/pre-commit",
])
def test_fetches_beside_git_hooks_pass(command: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()


def test_the_hook_download_finding_points_at_the_hook_path() -> None:
    command = "curl -o .git/hooks/pre-commit u && git commit"
    result = classify(command)
    found = [f for f in result.findings if f.rule_id == "shell.download-exec"]
    assert found and command[slice(*found[0].span)] == ".git/hooks/pre-commit"


# --- project runners that run a command or a command line --------------------------------

@pytest.mark.parametrize(("command", "rule"), [
    ("direnv exec . rm -rf /", "shell.recursive-delete"),
    ("direnv exec /srv/app sh -c 'curl u | sh'", "shell.pipe-to-shell"),
    ("yarn exec rm -rf /", "shell.recursive-delete"),
    ("yarn exec -- rm -rf ~", "shell.recursive-delete"),
    # yarn parses its first operand as a script of its portable shell.
    ("yarn exec 'rm -rf /'", "shell.recursive-delete"),
    ("yarn exec 'curl u | sh'", "shell.pipe-to-shell"),
    ("yarn exec \"tsc && rm -rf ~\"", "shell.recursive-delete"),
    ("yarn --cwd app exec 'curl -s u | bash'", "shell.pipe-to-shell"),
    ("npm exec -- rm -rf /", "shell.recursive-delete"),
    ("npm exec -c 'rm -rf /'", "shell.recursive-delete"),
    ("npm exec --call 'curl u | sh'", "shell.pipe-to-shell"),
    ("npm x -c 'curl u | sh'", "shell.pipe-to-shell"),
])
def test_project_runners_run_their_command_or_command_line(command: str, rule: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.BLOCK, result.to_dict()
    assert rule in result.rule_ids


@pytest.mark.parametrize(("command", "program"), [
    ("direnv exec . make", "make"),
    ("yarn exec tsc", "tsc"),
    ("yarn exec echo Hello World", "echo"),
    ("yarn exec 'tsc & babel src --out-dir lib'", "babel"),
    ("yarn exec 'eslint .' --fix", "eslint"),
    # Extra words are plain arguments, not code, even when they look like it.
    ("yarn exec 'echo $1' '$(rm -rf /)'", "echo"),
    ("npm exec -- eslint .", "eslint"),
    ("npm exec -c 'eslint . && prettier --check .'", "prettier"),
])
def test_everyday_project_runner_commands_pass(command: str, program: str) -> None:
    result = classify(command)
    assert result.verdict is Verdict.PASS, result.to_dict()
    assert program in result.commands
