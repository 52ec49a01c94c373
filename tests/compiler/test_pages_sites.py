"""Table tests for the bespoke site parsers (layer "site").

Each row is (url, kind, site, entity).  Every parser in SITE_PARSERS must
own at least two rows, and test_pages_kinds.py checks that these tables,
together with the generic and fallback ones, produce every kind in KINDS.
"""

from __future__ import annotations

from collections import Counter

import pytest

from compiler.pages import SITE_PARSERS, PageRef
from compiler.pages.resolve import resolve
from compiler.pages.sites import parser_for
from core.urls import parse_url

UUID = "6789abcd-1234-5678-9abc-def012345678"
NOTION_ID = "0123456789abcdef0123456789abcdef"

SITE_CASES = [
    # GitHub
    ("https://github.com/Octocat/Hello-World", "github_repo", "github.com", "octocat/hello-world"),
    ("https://github.com/octocat/hello-world.git", "github_repo", "github.com", "octocat/hello-world"),
    ("https://github.com/octocat/hello-world/tree/main", "github_repo", "github.com", "octocat/hello-world"),
    ("https://github.com/Octocat", "github_profile", "github.com", "octocat"),
    ("https://github.com/orgs/Python/people", "github_profile", "github.com", "python"),
    ("https://github.com/octocat/Hello-World/pull/12/files",
     "github_pull_request", "github.com", "octocat/hello-world#12"),
    ("https://github.com/octocat/hello-world/issues/7#issuecomment-1",
     "github_issue", "github.com", "octocat/hello-world#7"),
    ("https://github.com/octocat/hello-world/commit/ABCDEF1234567890",
     "github_commit", "github.com", "octocat/hello-world@abcdef1"),
    ("https://github.com/octocat/hello-world/blob/main/src/App.py",
     "github_file", "github.com", "octocat/hello-world:src/App.py"),
    ("https://github.com/octocat/hello-world/releases/tag/v1.2.0",
     "github_release", "github.com", "octocat/hello-world@v1.2.0"),
    ("https://gist.github.com/octocat/6cad326836d38bd3a7ae", "github_gist", "github.com", "6cad326836d38bd3a7ae"),
    ("https://github.com/search?q=lru+cache&type=code", "search_query", "github.com", "lru cache"),
    # GitLab
    ("https://gitlab.com/gitlab-org/gitlab", "gitlab_project", "gitlab.com", "gitlab-org/gitlab"),
    ("https://gitlab.com/Group/Sub/Project/-/merge_requests/42",
     "gitlab_merge_request", "gitlab.com", "group/sub/project!42"),
    ("https://gitlab.com/gitlab-org/gitlab/-/issues/1234", "gitlab_issue", "gitlab.com", "gitlab-org/gitlab#1234"),
    ("https://gitlab.com/gitlab-org/gitlab/issues/5", "gitlab_issue", "gitlab.com", "gitlab-org/gitlab#5"),
    ("https://gitlab.com/gitlab-org/gitlab/-/commit/0123ABCD4567",
     "gitlab_commit", "gitlab.com", "gitlab-org/gitlab@0123abc"),
    ("https://gitlab.com/gitlab-org/gitlab/-/blob/master/doc/README.md",
     "gitlab_file", "gitlab.com", "gitlab-org/gitlab:doc/README.md"),
    ("https://gitlab.com/Gitlab-Org", "gitlab_namespace", "gitlab.com", "gitlab-org"),
    ("https://gitlab.com/groups/gitlab-org/-/epics", "gitlab_namespace", "gitlab.com", "gitlab-org"),
    ("https://gitlab.com/search?search=merge+train", "search_query", "gitlab.com", "merge train"),
    # Stack Exchange network
    ("https://stackoverflow.com/questions/11227809/why-is-processing-a-sorted-array-faster",
     "stackexchange_question", "stackoverflow.com", "11227809"),
    ("https://unix.stackexchange.com/q/12345", "stackexchange_question", "unix.stackexchange.com", "12345"),
    ("https://stackoverflow.com/questions/tagged/Python", "stackexchange_tag", "stackoverflow.com", "python"),
    ("https://superuser.com/a/98765", "stackexchange_answer", "superuser.com", "98765"),
    ("https://askubuntu.com/users/1234/someone", "stackexchange_user", "askubuntu.com", "1234"),
    ("https://stackoverflow.com/search?q=asyncio+gather", "search_query", "stackoverflow.com", "asyncio gather"),
    # Package registries
    ("https://pypi.org/project/Requests_OAuthlib/", "pypi_package", "pypi.org", "requests-oauthlib"),
    ("https://pypi.org/project/requests/2.31.0/", "pypi_package", "pypi.org", "requests==2.31.0"),
    ("https://pypi.org/search/?q=http+client", "search_query", "pypi.org", "http client"),
    ("https://www.npmjs.com/package/React", "npm_package", "npmjs.com", "react"),
    ("https://www.npmjs.com/package/@types/node/v/20.1.0", "npm_package", "npmjs.com", "@types/node"),
    ("https://crates.io/crates/Serde_JSON", "rust_crate", "crates.io", "serde-json"),
    ("https://crates.io/crates/tokio/1.35.0", "rust_crate", "crates.io", "tokio"),
    ("https://docs.rs/serde/latest/serde/de/trait.Deserialize.html",
     "rust_docs_page", "docs.rs", "serde::de::Deserialize"),
    ("https://docs.rs/tokio-util/0.7.10/tokio_util/", "rust_docs_page", "docs.rs", "tokio_util"),
    ("https://docs.rs/crate/serde/latest", "rust_crate", "docs.rs", "serde"),
    # Reference
    ("https://en.wikipedia.org/wiki/Python_(programming_language)",
     "wikipedia_article", "wikipedia.org", "en:Python (programming language)"),
    ("https://de.m.wikipedia.org/wiki/Berlin", "wikipedia_article", "wikipedia.org", "de:Berlin"),
    ("https://fr.wikipedia.org/wiki/caf%C3%A9", "wikipedia_article", "wikipedia.org", "fr:Café"),
    ("https://en.wikipedia.org/w/index.php?search=lambda+calculus", "search_query", "wikipedia.org", "lambda calculus"),
    ("https://en.wikipedia.org/wiki/Special:Search/lambda_calculus",
     "search_query", "wikipedia.org", "lambda calculus"),
    ("https://arxiv.org/abs/2301.01234v2", "arxiv_paper", "arxiv.org", "2301.01234"),
    ("https://arxiv.org/pdf/2301.01234.pdf", "arxiv_paper", "arxiv.org", "2301.01234"),
    ("https://arxiv.org/abs/hep-th/9901001", "arxiv_paper", "arxiv.org", "hep-th/9901001"),
    ("https://arxiv.org/list/cs.AI/recent", "arxiv_listing", "arxiv.org", "cs.AI"),
    ("https://medium.com/@Someone/my-great-post-1a2b3c4d5e6f", "medium_article", "medium.com", "1a2b3c4d5e6f"),
    ("https://towardsdatascience.medium.com/some-title-0123456789ab", "medium_article", "medium.com", "0123456789ab"),
    ("https://medium.com/@Someone", "medium_profile", "medium.com", "@someone"),
    ("https://docs.python.org/3/library/os.path.html", "python_docs_page", "docs.python.org", "library/os.path"),
    ("https://docs.python.org/ja/3.12/tutorial/index.html", "python_docs_page", "docs.python.org", "tutorial"),
    ("https://docs.python.org/3/search.html?q=asyncio", "search_query", "docs.python.org", "asyncio"),
    ("https://developer.mozilla.org/en-US/docs/Web/API/fetch", "mdn_page", "developer.mozilla.org", "Web/API/fetch"),
    ("https://developer.mozilla.org/fr/docs/Web/CSS/display", "mdn_page", "developer.mozilla.org", "Web/CSS/display"),
    ("https://developer.mozilla.org/en-US/search?q=flexbox", "search_query", "developer.mozilla.org", "flexbox"),
    # Google Search and Maps
    ("https://www.google.com/search?q=hello+world&oq=hello&sourceid=chrome",
     "search_query", "google.com", "hello world"),
    ("https://www.google.co.uk/search?q=weather", "search_query", "google.co.uk", "weather"),
    ("https://www.google.com/maps/place/Eiffel+Tower/@48.85,2.29,17z",
     "google_maps_place", "google.com", "Eiffel Tower"),
    ("https://www.google.com/maps/dir/Paris/Lyon/@46,4,7z", "google_maps_directions", "google.com", "Paris → Lyon"),
    ("https://www.google.com/maps/@48.85,2.29,15z", "google_maps", "google.com", None),
    ("https://www.google.com/maps/search/coffee+near+me", "search_query", "google.com", "coffee near me"),
    ("https://maps.google.com/?q=Berlin", "search_query", "maps.google.com", "Berlin"),
    # Google Workspace
    ("https://docs.google.com/document/d/1AbC_dEf/edit", "google_doc", "docs.google.com", "1AbC_dEf"),
    ("https://docs.google.com/spreadsheets/u/1/d/1XyZ/edit#gid=0", "google_sheet", "docs.google.com", "1XyZ"),
    ("https://docs.google.com/presentation/d/1PqR/edit", "google_slides", "docs.google.com", "1PqR"),
    ("https://docs.google.com/forms/d/e/1FAIpQL/viewform", "google_form", "docs.google.com", "1FAIpQL"),
    ("https://docs.google.com/", "google_doc", "docs.google.com", None),
    ("https://drive.google.com/file/d/1FiLe/view?usp=sharing", "google_drive_file", "drive.google.com", "1FiLe"),
    ("https://drive.google.com/open?id=1OpEn", "google_drive_file", "drive.google.com", "1OpEn"),
    ("https://drive.google.com/drive/u/0/folders/1FoLdEr", "google_drive_folder", "drive.google.com", "1FoLdEr"),
    ("https://drive.google.com/drive/my-drive", "google_drive_folder", "drive.google.com", "my-drive"),
    ("https://mail.google.com/mail/u/0/", "gmail_inbox", "mail.google.com", "inbox"),
    ("https://mail.google.com/mail/u/0/#label/Work+Stuff", "gmail_inbox", "mail.google.com", "Work Stuff"),
    ("https://mail.google.com/mail/u/0/#inbox/FMfcgzGxSbbmWxYz", "gmail_thread", "mail.google.com", "FMfcgzGxSbbmWxYz"),
    ("https://mail.google.com/mail/u/0/#search/from%3Abob+invoice",
     "search_query", "mail.google.com", "from:bob invoice"),
    ("https://calendar.google.com/calendar/u/0/r/week/2024/5/1", "google_calendar", "calendar.google.com", "week"),
    ("https://calendar.google.com/calendar/r", "google_calendar", "calendar.google.com", None),
    ("https://calendar.google.com/calendar/r/eventedit/NWJ2c2Zl", "google_calendar_event", "calendar.google.com", None),
    ("https://meet.google.com/abc-defg-hij?authuser=0", "google_meet_call", "meet.google.com", "abc-defg-hij"),
    ("https://meet.google.com/lookup/TeamSync", "google_meet_call", "meet.google.com", "teamsync"),
    # Other search engines
    ("https://www.bing.com/search?q=rust+borrow+checker&form=QBLH", "search_query", "bing.com", "rust borrow checker"),
    ("https://www.bing.com/images/search?q=cats", "search_query", "bing.com", "cats"),
    ("https://duckduckgo.com/?q=privacy+browser&ia=web", "search_query", "duckduckgo.com", "privacy browser"),
    ("https://html.duckduckgo.com/html/?q=linux", "search_query", "duckduckgo.com", "linux"),
    # Video, streaming, music
    ("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "youtube_video", "youtube.com", "dQw4w9WgXcQ"),
    ("https://youtu.be/dQw4w9WgXcQ?si=AbCdEf", "youtube_video", "youtube.com", "dQw4w9WgXcQ"),
    ("https://music.youtube.com/watch?v=dQw4w9WgXcQ", "youtube_video", "music.youtube.com", "dQw4w9WgXcQ"),
    ("https://m.youtube.com/shorts/AbCdEfGhIjK", "youtube_short", "youtube.com", "AbCdEfGhIjK"),
    ("https://www.youtube.com/@LinusTechTips/videos", "youtube_channel", "youtube.com", "@linustechtips"),
    ("https://www.youtube.com/channel/UC_x5XG1OV2P6uZZ5FSM9Ttw",
     "youtube_channel", "youtube.com", "UC_x5XG1OV2P6uZZ5FSM9Ttw"),
    ("https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf",
     "youtube_playlist", "youtube.com", "PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf"),
    ("https://www.youtube.com/results?search_query=lofi+hip+hop", "search_query", "youtube.com", "lofi hip hop"),
    ("https://www.youtube.com/feed/subscriptions", "youtube_feed", "youtube.com", "subscriptions"),
    ("https://www.twitch.tv/Shroud", "twitch_channel", "twitch.tv", "shroud"),
    ("https://www.twitch.tv/videos/123456789", "twitch_video", "twitch.tv", "123456789"),
    ("https://clips.twitch.tv/FunnyClipSlug-abc", "twitch_clip", "twitch.tv", "FunnyClipSlug-abc"),
    ("https://www.twitch.tv/shroud/clip/AwesomeClip", "twitch_clip", "twitch.tv", "AwesomeClip"),
    ("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=xyz",
     "spotify_track", "spotify.com", "4uLU6hMCjMI75M1A2tKUQC"),
    ("https://open.spotify.com/intl-de/album/1ATL5GLyefJaxhQzSPVrLX",
     "spotify_album", "spotify.com", "1ATL5GLyefJaxhQzSPVrLX"),
    ("https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF",
     "spotify_artist", "spotify.com", "0OdUWJ0sBjDrqHygGUXeCF"),
    ("https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M",
     "spotify_playlist", "spotify.com", "37i9dQZF1DXcBWIGoYBM5M"),
    ("https://open.spotify.com/episode/512ojhOuo1ktJprKbVcKyQ",
     "spotify_episode", "spotify.com", "512ojhOuo1ktJprKbVcKyQ"),
    ("https://open.spotify.com/show/2MAi0BvDc6GTFvKFPXnkCL", "spotify_show", "spotify.com", "2MAi0BvDc6GTFvKFPXnkCL"),
    ("https://open.spotify.com/search/daft%20punk", "search_query", "spotify.com", "daft punk"),
    ("https://www.netflix.com/title/80057281", "netflix_title", "netflix.com", "80057281"),
    ("https://www.netflix.com/gb/title/80057281", "netflix_title", "netflix.com", "80057281"),
    ("https://www.netflix.com/watch/80057281?trackId=14170286", "netflix_playback", "netflix.com", "80057281"),
    # Social networks
    ("https://x.com/home", "x_timeline", "x.com", None),
    ("https://twitter.com/jack/status/20", "x_post", "x.com", "20"),
    ("https://x.com/i/web/status/1234567890", "x_post", "x.com", "1234567890"),
    ("https://mobile.twitter.com/NASA", "x_profile", "x.com", "nasa"),
    ("https://x.com/search?q=%23python&src=typed_query", "search_query", "x.com", "#python"),
    ("https://x.com/hashtag/rustlang", "search_query", "x.com", "#rustlang"),
    ("https://www.facebook.com/Zuck", "facebook_profile", "facebook.com", "zuck"),
    ("https://www.facebook.com/profile.php?id=100000123", "facebook_profile", "facebook.com", "100000123"),
    ("https://www.facebook.com/groups/PythonUsers/", "facebook_group", "facebook.com", "pythonusers"),
    ("https://www.facebook.com/groups/pythonusers/posts/987654", "facebook_post", "facebook.com", "987654"),
    ("https://m.facebook.com/zuck/posts/pfbid0abc", "facebook_post", "facebook.com", "pfbid0abc"),
    ("https://www.facebook.com/watch?v=1234567", "facebook_video", "facebook.com", "1234567"),
    ("https://www.instagram.com/NatGeo/", "instagram_profile", "instagram.com", "natgeo"),
    ("https://www.instagram.com/p/CxYz123AbC/", "instagram_post", "instagram.com", "CxYz123AbC"),
    ("https://www.instagram.com/natgeo/p/CxYz123AbC/", "instagram_post", "instagram.com", "CxYz123AbC"),
    ("https://www.instagram.com/reel/C1a2B3c4D5e/", "instagram_reel", "instagram.com", "C1a2B3c4D5e"),
    ("https://www.linkedin.com/in/Jane-Doe-123/", "linkedin_profile", "linkedin.com", "jane-doe-123"),
    ("https://www.linkedin.com/company/Anthropic/", "linkedin_company", "linkedin.com", "anthropic"),
    ("https://www.linkedin.com/jobs/view/senior-engineer-at-acme-3912345678/",
     "linkedin_job", "linkedin.com", "3912345678"),
    ("https://www.linkedin.com/jobs/collections/recommended/?currentJobId=3900000001",
     "linkedin_job", "linkedin.com", "3900000001"),
    ("https://www.linkedin.com/feed/", "linkedin_feed", "linkedin.com", None),
    ("https://www.linkedin.com/feed/update/urn:li:activity:7123456789012345678/",
     "linkedin_post", "linkedin.com", "7123456789012345678"),
    ("https://www.linkedin.com/posts/jane-doe_ai-activity-7123456789012345678-AbCd",
     "linkedin_post", "linkedin.com", "7123456789012345678"),
    ("https://www.linkedin.com/messaging/thread/2-abc/", "linkedin_messaging", "linkedin.com", None),
    ("https://www.linkedin.com/search/results/all/?keywords=rust%20developer",
     "search_query", "linkedin.com", "rust developer"),
    # Forums
    ("https://www.reddit.com/r/Python/", "reddit_subreddit", "reddit.com", "r/python"),
    ("https://old.reddit.com/r/python/comments/1ABCDE/some_title/", "reddit_post", "reddit.com", "1abcde"),
    ("https://redd.it/1abcde", "reddit_post", "reddit.com", "1abcde"),
    ("https://www.reddit.com/user/Spez", "reddit_user", "reddit.com", "u/spez"),
    ("https://www.reddit.com/r/linux/search?q=wayland", "search_query", "reddit.com", "wayland"),
    ("https://news.ycombinator.com/item?id=38000000", "hackernews_item", "news.ycombinator.com", "38000000"),
    ("https://news.ycombinator.com/user?id=pg", "hackernews_user", "news.ycombinator.com", "pg"),
    ("https://news.ycombinator.com/", "hackernews_listing", "news.ycombinator.com", "news"),
    ("https://news.ycombinator.com/newest", "hackernews_listing", "news.ycombinator.com", "newest"),
    # Team workspaces
    (f"https://www.notion.so/acme/Roadmap-Q3-{NOTION_ID}", "notion_page", "notion.so", NOTION_ID),
    (f"https://acme.notion.site/Public-Page-{NOTION_ID}", "notion_page", "acme.notion.site", NOTION_ID),
    (f"https://www.notion.so/acme/Tasks-{'a' * 32}?p={NOTION_ID}&pm=s", "notion_page", "notion.so", NOTION_ID),
    (f"https://www.notion.so/{NOTION_ID.upper()}?v={'f' * 32}", "notion_database", "notion.so", NOTION_ID),
    ("https://acme.atlassian.net/browse/proj-123", "jira_issue", "acme.atlassian.net", "PROJ-123"),
    ("https://acme.atlassian.net/jira/software/projects/PROJ/boards/1?selectedIssue=PROJ-7",
     "jira_issue", "acme.atlassian.net", "PROJ-7"),
    ("https://acme.atlassian.net/jira/software/c/projects/proj/boards/1", "jira_project", "acme.atlassian.net", "PROJ"),
    ("https://acme.atlassian.net/wiki/spaces/ENG/pages/123456/Onboarding+Guide",
     "confluence_page", "acme.atlassian.net", "ENG/123456"),
    ("https://acme.atlassian.net/wiki/spaces/ENG/overview", "confluence_space", "acme.atlassian.net", "ENG"),
    ("https://www.figma.com/file/AbCdEf123456/My-Design?node-id=1-2", "figma_file", "figma.com", "AbCdEf123456"),
    ("https://www.figma.com/design/AbCdEf123456/My-Design", "figma_file", "figma.com", "AbCdEf123456"),
    ("https://www.figma.com/board/XyZ1234567890/Brainstorm", "figma_board", "figma.com", "XyZ1234567890"),
    ("https://www.figma.com/proto/XyZ1234567890/Flow", "figma_prototype", "figma.com", "XyZ1234567890"),
    ("https://trello.com/b/AbCd1234/roadmap", "trello_board", "trello.com", "AbCd1234"),
    ("https://trello.com/c/XyZ98765/42-fix-login", "trello_card", "trello.com", "XyZ98765"),
    # Messaging, meetings, mail
    ("https://app.slack.com/client/T01234567/C0123456789", "slack_channel", "slack.com", "T01234567/C0123456789"),
    ("https://app.slack.com/client/T01234567/activity", "slack_workspace", "slack.com", "T01234567"),
    ("https://acme.slack.com/", "slack_workspace", "slack.com", "acme"),
    ("https://acme.slack.com/archives/C0123456789", "slack_channel", "slack.com", "acme/C0123456789"),
    ("https://acme.slack.com/archives/C0123456789/p1700000000123456",
     "slack_message", "slack.com", "acme/C0123456789/p1700000000123456"),
    ("https://us02web.zoom.us/j/81234567890?pwd=Zm9vYmFy", "zoom_meeting", "zoom.us", "81234567890"),
    ("https://zoom.us/wc/join/81234567890", "zoom_meeting", "zoom.us", "81234567890"),
    ("https://zoom.us/my/JaneDoe", "zoom_meeting", "zoom.us", "janedoe"),
    ("https://zoom.us/rec/share/Zm9vYmFyYmF6", "zoom_recording", "zoom.us", None),
    ("https://outlook.office.com/mail/", "outlook_mail", "outlook.office.com", "inbox"),
    ("https://outlook.office.com/mail/SentItems", "outlook_mail", "outlook.office.com", "sentitems"),
    ("https://outlook.live.com/mail/0/inbox/id/AQMkADAwATM0MDAAMS1iNTcwLWI4ODQtMDACLTAwCgBGAAAD",
     "outlook_message", "outlook.live.com", None),
    ("https://outlook.office365.com/calendar/view/week", "outlook_calendar", "outlook.office365.com", "week"),
    # AI assistants
    (f"https://chatgpt.com/c/{UUID}", "chatgpt_conversation", "chatgpt.com", UUID),
    (f"https://chat.openai.com/c/{UUID.upper()}", "chatgpt_conversation", "chatgpt.com", UUID),
    (f"https://chatgpt.com/g/g-AbCdEf123-data-analyst/c/{UUID}", "chatgpt_conversation", "chatgpt.com", UUID),
    ("https://chatgpt.com/g/g-AbCdEf123-data-analyst", "chatgpt_gpt", "chatgpt.com", "g-AbCdEf123"),
    (f"https://chatgpt.com/share/{UUID}", "chatgpt_shared_chat", "chatgpt.com", UUID),
    (f"https://claude.ai/chat/{UUID}", "claude_conversation", "claude.ai", UUID),
    (f"https://claude.ai/project/{UUID}", "claude_project", "claude.ai", UUID),
    ("https://gemini.google.com/app/1a2b3c4d5e6f7a8b", "gemini_conversation", "gemini.google.com", "1a2b3c4d5e6f7a8b"),
    ("https://gemini.google.com/u/1/app/1A2B3C4D5E6F7A8B",
     "gemini_conversation", "gemini.google.com", "1a2b3c4d5e6f7a8b"),
    # Shopping
    ("https://www.amazon.com/Some-Product-Name/dp/B08N5WRWNW/ref=sr_1_1?keywords=x",
     "amazon_product", "amazon.com", "B08N5WRWNW"),
    ("https://www.amazon.de/gp/product/b08n5wrwnw", "amazon_product", "amazon.de", "B08N5WRWNW"),
    ("https://www.amazon.co.uk/s?k=usb+c+cable", "search_query", "amazon.co.uk", "usb c cable"),
    ("https://www.ebay.com/itm/Vintage-Camera/123456789012", "ebay_item", "ebay.com", "123456789012"),
    ("https://www.ebay.co.uk/itm/123456789012", "ebay_item", "ebay.co.uk", "123456789012"),
    ("https://www.ebay.com/sch/i.html?_nkw=film+camera", "search_query", "ebay.com", "film camera"),
    ("https://www.etsy.com/listing/123456789/handmade-mug", "etsy_listing", "etsy.com", "123456789"),
    ("https://www.etsy.com/shop/CozyPottery", "etsy_shop", "etsy.com", "cozypottery"),
    ("https://www.etsy.com/search?q=ceramic+mug", "search_query", "etsy.com", "ceramic mug"),
]


@pytest.mark.parametrize(("url", "kind", "site", "entity"), SITE_CASES)
def test_site_parser(url: str, kind: str, site: str, entity: str | None) -> None:
    assert resolve(url) == PageRef(kind, site, entity, "site")


def _owning_parser(url: str):
    parsed = parse_url(url)
    assert parsed is not None
    return parser_for(parsed.site)


def test_every_site_parser_has_at_least_two_rows() -> None:
    rows = Counter(_owning_parser(url) for url, *_ in SITE_CASES)
    for row in SITE_PARSERS:
        assert rows[row.parse] >= 2, f"{row.parse.__qualname__} has {rows[row.parse]} rows"


def test_registry_lists_at_least_25_sites() -> None:
    assert len({row.parse for row in SITE_PARSERS}) >= 25


# Pages on parsed sites that the parser deliberately leaves to the generic
# layer, so that /login or /settings is typed the same everywhere.
HANDED_OVER = [
    ("https://github.com/login", "sign_in"),
    ("https://github.com/settings/profile", "settings"),
    ("https://docs.github.com/en/actions", "docs_page"),
    ("https://x.com/", "homepage"),
    ("https://www.amazon.com/gp/cart/view.html", "shopping_cart"),
    ("https://www.linkedin.com/uas/login", "sign_in"),
    ("https://x.com/i/flow/login", "sign_in"),
    ("https://www.instagram.com/accounts/login/", "sign_in"),
    ("https://www.facebook.com/login.php", "sign_in"),
    ("https://gitlab.com/users/sign_in", "sign_in"),
    ("https://stackoverflow.com/users/login", "sign_in"),
    ("https://www.twitch.tv/login", "sign_in"),
    ("https://www.amazon.com/ap/signin?openid.return_to=x", "sign_in"),
    ("https://www.youtube.com/account", "settings"),
    ("https://hooks.slack.com/services/T000/B000/XXXX", "api_endpoint"),
]


@pytest.mark.parametrize(("url", "kind"), HANDED_OVER)
def test_site_parser_hands_unknown_pages_to_generic_layer(url: str, kind: str) -> None:
    ref = resolve(url)
    assert (ref.kind, ref.layer) == (kind, "generic")
