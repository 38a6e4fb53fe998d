"""git's abbreviated long options: ``git reset --har`` is ``git reset --hard``.

git's option parser (parse-options) takes any unambiguous prefix of a subcommand's long
option, with or without ``=VALUE``: ``--har``, ``--mir``, ``--del``, ``--upload-p=CMD``. The
git rules compare option texts exactly, so :func:`expand_git_options` rewrites each prefix
that names exactly one option of its subcommand to the full name before any rule reads it.
An ambiguous prefix stays as written (git refuses it), and so does anything after ``--``.

The option names are those git 2.39 lists for each subcommand (``git SUB
--git-completion-helper-all``), with the ``no-`` forms, which take part in the ambiguity. A
later git with more options makes some prefixes ambiguous there; expanding them here only
reads the command as the older git would run it. git's global options (before the
subcommand) are parsed by hand in git and take no abbreviations.
"""

from __future__ import annotations

from functools import lru_cache

from ._embedded import git_sub_index
from ._resolve import Invocation
from ._words import Field

__all__ = ["expand_git_options"]

_OPTIONS: dict[str, str] = {
    "push": (
        "all atomic delete dry-run exec follow-tags force force-if-includes force-with-lease "
        "ipv4 ipv6 mirror no-all no-atomic no-delete no-dry-run no-exec no-follow-tags no-force "
        "no-force-if-includes no-force-with-lease no-ipv4 no-ipv6 no-mirror no-porcelain "
        "no-progress no-prune no-push-option no-quiet no-receive-pack no-recurse-submodules "
        "no-repo no-set-upstream no-signed no-tags no-thin no-verbose no-verify porcelain "
        "progress prune push-option quiet receive-pack recurse-submodules repo set-upstream "
        "signed tags thin verbose verify"),
    "reset": (
        "hard intent-to-add keep merge mixed no-hard no-intent-to-add no-keep no-merge no-mixed "
        "no-patch no-pathspec-file-nul no-pathspec-from-file no-quiet no-recurse-submodules "
        "no-refresh no-soft patch pathspec-file-nul pathspec-from-file quiet recurse-submodules "
        "refresh soft"),
    "clean": (
        "dry-run exclude force interactive no-dry-run no-force no-interactive no-quiet quiet"),
    "checkout": (
        "conflict detach force guess ignore-other-worktrees ignore-skip-worktree-bits merge "
        "no-conflict no-detach no-force no-guess no-ignore-other-worktrees "
        "no-ignore-skip-worktree-bits no-merge no-orphan no-overlay no-overwrite-ignore "
        "no-patch no-pathspec-file-nul no-pathspec-from-file no-progress no-quiet "
        "no-recurse-submodules no-track orphan ours overlay overwrite-ignore patch "
        "pathspec-file-nul pathspec-from-file progress quiet recurse-submodules theirs track"),
    "switch": (
        "conflict create detach discard-changes force force-create guess ignore-other-worktrees "
        "merge no-conflict no-create no-detach no-discard-changes no-force no-force-create "
        "no-guess no-ignore-other-worktrees no-merge no-orphan no-overwrite-ignore no-progress "
        "no-quiet no-recurse-submodules no-track orphan overwrite-ignore progress quiet "
        "recurse-submodules track"),
    "restore": (
        "conflict ignore-skip-worktree-bits ignore-unmerged merge no-conflict "
        "no-ignore-skip-worktree-bits no-ignore-unmerged no-merge no-overlay no-patch "
        "no-pathspec-file-nul no-pathspec-from-file no-progress no-quiet no-recurse-submodules "
        "no-source no-staged no-worktree ours overlay patch pathspec-file-nul "
        "pathspec-from-file progress quiet recurse-submodules source staged theirs worktree"),
    "gc": (
        "aggressive auto cruft force keep-largest-pack no-aggressive no-auto no-cruft no-force "
        "no-keep-largest-pack no-prune no-quiet prune quiet"),
    "rm": (
        "cached dry-run force ignore-unmatch no-cached no-dry-run no-force no-ignore-unmatch "
        "no-pathspec-file-nul no-pathspec-from-file no-quiet no-sparse pathspec-file-nul "
        "pathspec-from-file quiet sparse"),
    "config": (
        "add blob bool bool-or-int bool-or-str default edit expiry-date file fixed-value get "
        "get-all get-color get-colorbool get-regexp get-urlmatch global includes int list local "
        "name-only no-add no-blob no-default no-edit no-file no-fixed-value no-get no-get-all "
        "no-get-color no-get-colorbool no-get-regexp no-get-urlmatch no-global no-includes "
        "no-list no-local no-name-only no-null no-remove-section no-rename-section "
        "no-replace-all no-show-origin no-show-scope no-system no-type no-unset no-unset-all "
        "no-worktree null path remove-section rename-section replace-all show-origin show-scope "
        "system type unset unset-all worktree"),
    "rebase": (
        "abort allow-empty-message apply autosquash autostash committer-date-is-author-date "
        "continue edit-todo empty exec ff force-rebase fork-point gpg-sign ignore-date "
        "ignore-whitespace interactive keep-base keep-empty merge no-allow-empty-message "
        "no-autosquash no-autostash no-committer-date-is-author-date no-exec no-ff "
        "no-force-rebase no-fork-point no-gpg-sign no-ignore-date no-ignore-whitespace "
        "no-keep-base no-keep-empty no-onto no-preserve-merges no-quiet no-reapply-cherry-picks "
        "no-rebase-merges no-rerere-autoupdate no-reschedule-failed-exec no-reset-author-date "
        "no-root no-signoff no-stat no-strategy no-strategy-option no-update-refs no-verbose "
        "no-verify no-whitespace onto preserve-merges quiet quit reapply-cherry-picks "
        "rebase-merges rerere-autoupdate reschedule-failed-exec reset-author-date root "
        "show-current-patch signoff skip stat strategy strategy-option update-refs verbose "
        "verify whitespace"),
    "difftool": (
        "dir-diff extcmd gui index no-dir-diff no-extcmd no-gui no-index no-prompt no-symlinks "
        "no-tool no-tool-help no-trust-exit-code prompt symlinks tool tool-help trust-exit-code"),
    "clone": (
        "also-filter-submodules bare branch bundle-uri checkout config depth dissociate filter "
        "hardlinks ipv4 ipv6 jobs local mirror naked no-also-filter-submodules no-bare "
        "no-branch no-bundle-uri no-checkout no-config no-depth no-dissociate no-filter "
        "no-hardlinks no-ipv4 no-ipv6 no-jobs no-local no-mirror no-naked no-origin no-progress "
        "no-quiet no-recurse-submodules no-recursive no-reference no-reference-if-able "
        "no-reject-shallow no-remote-submodules no-separate-git-dir no-server-option "
        "no-shallow-exclude no-shallow-since no-shallow-submodules no-shared no-single-branch "
        "no-sparse no-tags no-template no-upload-pack no-verbose origin progress quiet "
        "recurse-submodules recursive reference reference-if-able reject-shallow "
        "remote-submodules separate-git-dir server-option shallow-exclude shallow-since "
        "shallow-submodules shared single-branch sparse tags template upload-pack verbose"),
    "fetch": (
        "all append atomic auto-gc auto-maintenance deepen depth dry-run filter force ipv4 ipv6 "
        "jobs keep multiple negotiate-only negotiation-tip no-all no-append no-atomic "
        "no-auto-gc no-auto-maintenance no-deepen no-depth no-dry-run no-filter no-force "
        "no-ipv4 no-ipv6 no-jobs no-keep no-multiple no-negotiate-only no-negotiation-tip "
        "no-prefetch no-progress no-prune no-prune-tags no-quiet no-recurse-submodules "
        "no-recurse-submodules-default no-server-option no-set-upstream no-shallow-exclude "
        "no-shallow-since no-show-forced-updates no-stdin no-submodule-prefix no-tags "
        "no-update-head-ok no-update-shallow no-upload-pack no-verbose no-write-commit-graph "
        "no-write-fetch-head prefetch progress prune prune-tags quiet recurse-submodules "
        "recurse-submodules-default refetch refmap server-option set-upstream shallow-exclude "
        "shallow-since show-forced-updates stdin submodule-prefix tags unshallow update-head-ok "
        "update-shallow upload-pack verbose write-commit-graph write-fetch-head"),
    "pull": (
        "all allow-unrelated-histories append autostash cleanup commit deepen depth dry-run "
        "edit ff ff-only force gpg-sign ipv4 ipv6 jobs keep log negotiation-tip no-all "
        "no-allow-unrelated-histories no-append no-autostash no-cleanup no-commit no-deepen "
        "no-depth no-dry-run no-edit no-ff no-force no-gpg-sign no-ipv4 no-ipv6 no-jobs no-keep "
        "no-log no-negotiation-tip no-progress no-prune no-quiet no-rebase "
        "no-recurse-submodules no-server-option no-set-upstream no-shallow-exclude "
        "no-shallow-since no-show-forced-updates no-signoff no-squash no-stat no-strategy "
        "no-strategy-option no-summary no-tags no-update-shallow no-upload-pack no-verbose "
        "no-verify no-verify-signatures progress prune quiet rebase recurse-submodules refmap "
        "server-option set-upstream shallow-exclude shallow-since show-forced-updates signoff "
        "squash stat strategy strategy-option summary tags unshallow update-shallow upload-pack "
        "verbose verify verify-signatures"),
    "ls-remote": (
        "exec exit-code get-url heads no-exec no-exit-code no-get-url no-heads no-quiet no-refs "
        "no-server-option no-sort no-symref no-tags no-upload-pack quiet refs server-option "
        "sort symref tags upload-pack"),
    "archive": (
        "exec no-exec no-output no-remote output remote"),
    "add": (
        "all chmod dry-run edit force ignore-errors ignore-missing ignore-removal intent-to-add "
        "interactive no-all no-chmod no-dry-run no-edit no-force no-ignore-errors "
        "no-ignore-missing no-ignore-removal no-intent-to-add no-interactive no-patch "
        "no-pathspec-file-nul no-pathspec-from-file no-refresh no-renormalize no-sparse "
        "no-update no-verbose no-warn-embedded-repo patch pathspec-file-nul pathspec-from-file "
        "refresh renormalize sparse update verbose warn-embedded-repo"),
    "commit": (
        "ahead-behind all allow-empty allow-empty-message amend author branch cleanup date "
        "dry-run edit file fixup gpg-sign include interactive long message no-ahead-behind "
        "no-all no-allow-empty no-allow-empty-message no-amend no-author no-branch no-cleanup "
        "no-date no-dry-run no-edit no-file no-fixup no-gpg-sign no-include no-interactive "
        "no-long no-message no-null no-only no-patch no-pathspec-file-nul no-pathspec-from-file "
        "no-porcelain no-post-rewrite no-quiet no-reedit-message no-reset-author "
        "no-reuse-message no-short no-signoff no-squash no-status no-template "
        "no-untracked-files no-verbose no-verify null only patch pathspec-file-nul "
        "pathspec-from-file porcelain post-rewrite quiet reedit-message reset-author "
        "reuse-message short signoff squash status template trailer untracked-files verbose "
        "verify"),
    "branch": (
        "abbrev all color column contains copy create-reflog delete edit-description force "
        "format ignore-case list merged move no-abbrev no-all no-color no-column no-contains "
        "no-copy no-create-reflog no-delete no-edit-description no-force no-format "
        "no-ignore-case no-list no-merged no-move no-points-at no-quiet no-recurse-submodules "
        "no-remotes no-set-upstream no-set-upstream-to no-show-current no-sort no-track "
        "no-unset-upstream no-verbose points-at quiet recurse-submodules remotes set-upstream "
        "set-upstream-to show-current sort track unset-upstream verbose with without"),
    "tag": (
        "annotate cleanup color column contains create-reflog delete edit file force format "
        "ignore-case list local-user merged message no-annotate no-cleanup no-color no-column "
        "no-contains no-create-reflog no-edit no-file no-force no-format no-ignore-case "
        "no-local-user no-merged no-points-at no-sign no-sort points-at sign sort verify with "
        "without"),
    "merge": (
        "abort allow-unrelated-histories autostash cleanup commit continue edit ff ff-only file "
        "gpg-sign into-name log message no-abort no-allow-unrelated-histories no-autostash "
        "no-cleanup no-commit no-continue no-edit no-ff no-gpg-sign no-into-name no-log "
        "no-message no-overwrite-ignore no-progress no-quiet no-quit no-rerere-autoupdate "
        "no-signoff no-squash no-stat no-strategy no-strategy-option no-summary no-verbose "
        "no-verify no-verify-signatures overwrite-ignore progress quiet quit rerere-autoupdate "
        "signoff squash stat strategy strategy-option summary verbose verify verify-signatures"),
    "cherry-pick": (
        "abort allow-empty allow-empty-message cleanup commit continue edit ff gpg-sign "
        "keep-redundant-commits mainline no-allow-empty no-allow-empty-message no-cleanup "
        "no-commit no-edit no-ff no-gpg-sign no-keep-redundant-commits no-mainline "
        "no-rerere-autoupdate no-signoff no-strategy no-strategy-option quit rerere-autoupdate "
        "signoff skip strategy strategy-option"),
    "revert": (
        "abort cleanup commit continue edit gpg-sign mainline no-cleanup no-commit no-edit "
        "no-gpg-sign no-mainline no-reference no-rerere-autoupdate no-signoff no-strategy "
        "no-strategy-option quit reference rerere-autoupdate signoff skip strategy "
        "strategy-option"),
    "am": (
        "3way abort allow-empty binary committer-date-is-author-date continue directory empty "
        "exclude gpg-sign ignore-date ignore-space-change ignore-whitespace include interactive "
        "keep keep-cr keep-non-patch message-id no-3way no-binary "
        "no-committer-date-is-author-date no-directory no-exclude no-gpg-sign no-ignore-date "
        "no-ignore-space-change no-ignore-whitespace no-include no-interactive no-keep "
        "no-keep-cr no-keep-non-patch no-message-id no-patch-format no-quiet no-rebasing "
        "no-reject no-rerere-autoupdate no-resolvemsg no-scissors no-signoff no-utf8 "
        "no-whitespace patch-format quiet quit quoted-cr rebasing reject rerere-autoupdate "
        "resolved resolvemsg scissors show-current-patch signoff skip utf8 whitespace"),
}
_SPLIT: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}


def _options(sub: str) -> tuple[frozenset[str], tuple[str, ...]] | None:
    found = _SPLIT.get(sub)
    if found is None:
        text = _OPTIONS.get(sub)
        if text is None:
            return None
        names = tuple(text.split())
        found = _SPLIT[sub] = (frozenset(names), names)
    return found


@lru_cache(maxsize=512)
def expand(sub: str, text: str) -> str:
    """``text`` with an abbreviated long option of git ``sub`` written in full."""
    if not text.startswith("--") or len(text) < 3:
        return text
    options = _options(sub)
    if options is None:
        return text
    exact, names = options
    name, eq, value = text[2:].partition("=")
    if name in exact:
        return text
    match = [o for o in names if o.startswith(name)]
    return f"--{match[0]}{eq}{value}" if len(match) == 1 else text


def expand_git_options(inv: Invocation) -> Invocation:
    """``inv`` (a git run) with its subcommand's abbreviated long options written in full."""
    args = inv.args
    sub = git_sub_index(args)
    if sub >= len(args) or args[sub].text not in _OPTIONS:
        return inv
    name = args[sub].text
    out: list[Field] | None = None
    for k in range(sub + 1, len(args)):
        f = args[k]
        if f.text == "--":
            break
        full = expand(name, f.text)
        if full != f.text:
            if out is None:
                out = list(args)
            out[k] = Field(full, f.span, f.taint, f.proc, f.quoted)
    if out is None:
        return inv
    return Invocation(inv.name, inv.word, out, inv.wrappers, inv.assigns, inv.privileged,
                      inv.from_stdin)
