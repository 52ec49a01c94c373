"""Code hosting and developer Q&A: GitHub, GitLab, the Stack Exchange network.

Entities use the notation developers already write in commit messages and
chat: ``owner/repo#12`` for issues and pull requests, ``group/project!7``
for GitLab merge requests, ``owner/repo@abc1234`` for commits (the usual
seven-character short hash) and ``owner/repo:path/to/file`` for files.
GitHub and GitLab resolve owner and project names case-insensitively, so
those are lowercased; file paths and git refs are case-sensitive and kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

GITHUB_REPO = "github_repo"
GITHUB_PROFILE = "github_profile"
GITHUB_PULL_REQUEST = "github_pull_request"
GITHUB_ISSUE = "github_issue"
GITHUB_COMMIT = "github_commit"
GITHUB_FILE = "github_file"
GITHUB_RELEASE = "github_release"
GITHUB_GIST = "github_gist"
GITLAB_PROJECT = "gitlab_project"
GITLAB_NAMESPACE = "gitlab_namespace"
GITLAB_MERGE_REQUEST = "gitlab_merge_request"
GITLAB_ISSUE = "gitlab_issue"
GITLAB_COMMIT = "gitlab_commit"
GITLAB_FILE = "gitlab_file"
STACKEXCHANGE_QUESTION = "stackexchange_question"
STACKEXCHANGE_ANSWER = "stackexchange_answer"
STACKEXCHANGE_TAG = "stackexchange_tag"
STACKEXCHANGE_USER = "stackexchange_user"

KINDS = (
    GITHUB_REPO, GITHUB_PROFILE, GITHUB_PULL_REQUEST, GITHUB_ISSUE,
    GITHUB_COMMIT, GITHUB_FILE, GITHUB_RELEASE, GITHUB_GIST,
    GITLAB_PROJECT, GITLAB_NAMESPACE, GITLAB_MERGE_REQUEST, GITLAB_ISSUE,
    GITLAB_COMMIT, GITLAB_FILE, STACKEXCHANGE_QUESTION, STACKEXCHANGE_ANSWER,
    STACKEXCHANGE_TAG, STACKEXCHANGE_USER,
)

_SHA = re.compile(r"[0-9a-fA-F]{7,40}")
_GIST_ID = re.compile(r"[0-9a-f]{20,32}")

# Top-level GitHub paths that are product pages rather than user or
# organisation names.  Returning None for them lets the generic layer type
# /login, /settings, /notifications... the same way as on any other site.
_GITHUB_RESERVED = frozenset(
    {
        "about", "account", "apps", "codespaces", "collections", "contact",
        "copilot", "customer-stories", "dashboard", "enterprise", "events",
        "explore", "features", "home", "issues", "join", "login", "logout",
        "marketplace", "new", "notifications", "organizations", "password_reset",
        "pricing", "pulls", "readme", "resources", "security", "sessions",
        "settings", "signup", "site", "solutions", "sponsors", "team",
        "topics", "trending",
    }
)
_GITLAB_RESERVED = frozenset(
    {"users", "explore", "dashboard", "help", "admin", "profile", "-",
     "api", "projects", "snippets", "uploads", "oauth"}
)
_GITLAB_RESOURCES = frozenset(
    {"merge_requests", "issues", "commit", "commits", "blob", "tree", "pipelines"}
)


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


@dataclass(frozen=True, slots=True)
class _RepoKinds:
    """The kinds one forge uses for the pages under a repository."""

    numbered: dict[str, tuple[str, str]]  # resource -> (kind, separator)
    commit: str
    file: str
    repo: str


_GITHUB_KINDS = _RepoKinds(
    numbered={"pull": (GITHUB_PULL_REQUEST, "#"), "issues": (GITHUB_ISSUE, "#")},
    commit=GITHUB_COMMIT, file=GITHUB_FILE, repo=GITHUB_REPO,
)
_GITLAB_KINDS = _RepoKinds(
    numbered={"merge_requests": (GITLAB_MERGE_REQUEST, "!"), "issues": (GITLAB_ISSUE, "#")},
    commit=GITLAB_COMMIT, file=GITLAB_FILE, repo=GITLAB_PROJECT,
)


def _repo_resource(url: Url, repo: str, rest: tuple[str, ...], kinds: _RepoKinds) -> PageRef:
    """Type the part of a repository URL after the repository name.

    GitHub and GitLab share this shape once GitLab's "/-/" separator is
    removed, so one function serves both.
    """
    section = rest[0] if rest else ""
    target = rest[1] if len(rest) > 1 else ""
    if section in kinds.numbered and _is_number(target):
        kind, separator = kinds.numbered[section]
        return site_ref(url, kind, f"{repo}{separator}{target}")
    if section == "commit" and _SHA.fullmatch(target):
        return site_ref(url, kinds.commit, f"{repo}@{target[:7].lower()}")
    if section in ("blob", "tree") and len(rest) > 2:
        # rest[1] is the ref; a ref containing "/" shifts into the path, an
        # ambiguity the URL itself does not resolve.
        return site_ref(url, kinds.file, f"{repo}:{'/'.join(rest[2:])}")
    return site_ref(url, kinds.repo, repo)


def github(url: Url) -> PageRef | None:
    """github.com and gist.github.com; other subdomains go to the generic layer."""
    if url.host == "gist.github.com":
        return _github_gist(url)
    segs = url.segments
    if url.host != "github.com" or not segs:
        return None
    head = segs[0].lower()
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    if head == "orgs" and len(segs) > 1:
        return site_ref(url, GITHUB_PROFILE, segs[1].lower())
    if head in _GITHUB_RESERVED:
        return None
    if len(segs) == 1:
        return site_ref(url, GITHUB_PROFILE, head)
    repo = f"{head}/{segs[1].lower().removesuffix('.git')}"
    rest = segs[2:]
    if len(rest) > 2 and rest[0] == "releases" and rest[1] == "tag":
        return site_ref(url, GITHUB_RELEASE, f"{repo}@{rest[2]}")
    return _repo_resource(url, repo, rest, _GITHUB_KINDS)


def _github_gist(url: Url) -> PageRef | None:
    for seg in url.segments[:2]:
        if _GIST_ID.fullmatch(seg.lower()):
            return site_ref(url, GITHUB_GIST, seg.lower())
    if url.segments:
        return site_ref(url, GITHUB_PROFILE, url.segments[0].lower())
    return None


def gitlab(url: Url) -> PageRef | None:
    """gitlab.com: nested groups, with or without the "/-/" separator."""
    segs = url.segments
    if url.host != "gitlab.com" or not segs:
        return None
    head = segs[0].lower()
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("search"))
    if head == "groups" and len(segs) > 1:
        group = segs[1:segs.index("-")] if "-" in segs else segs[1:]
        return site_ref(url, GITLAB_NAMESPACE, "/".join(group).lower())
    if head in _GITLAB_RESERVED:
        return None
    if len(segs) == 1:
        return site_ref(url, GITLAB_NAMESPACE, head)
    if "-" in segs:
        cut = segs.index("-")
        project, rest = segs[:cut], segs[cut + 1:]
    else:
        # Legacy URLs without "/-/": the first resource word after at least
        # namespace/project ends the project path.
        cut = next(
            (i for i in range(2, len(segs)) if segs[i] in _GITLAB_RESOURCES),
            len(segs),
        )
        project, rest = segs[:cut], segs[cut:]
    if not project:
        return None
    return _repo_resource(url, "/".join(project).lower(), rest, _GITLAB_KINDS)


def stackexchange(url: Url) -> PageRef | None:
    """Stack Overflow and every Stack Exchange community (same URL scheme).

    Entities are numeric ids: titles in the slug can be edited, ids cannot.
    """
    segs = url.segments
    if not segs:
        return None
    head = segs[0].lower()
    second = segs[1] if len(segs) > 1 else ""
    if head in ("questions", "q") and _is_number(second):
        return site_ref(url, STACKEXCHANGE_QUESTION, second)
    if head == "questions" and second == "tagged" and len(segs) > 2:
        return site_ref(url, STACKEXCHANGE_TAG, segs[2].lower())
    if head == "tags" and second:
        return site_ref(url, STACKEXCHANGE_TAG, second.lower())
    if head == "a" and _is_number(second):
        return site_ref(url, STACKEXCHANGE_ANSWER, second)
    if head in ("users", "u") and _is_number(second):
        return site_ref(url, STACKEXCHANGE_USER, second)
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None
