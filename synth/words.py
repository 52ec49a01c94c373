"""Word pools the synthetic world draws names from. Combined at random they
give tens of thousands of distinct subjects, titles and file names, so
content a user clicks rarely repeats by accident (which keeps accidental
routines out of the noise)."""

from __future__ import annotations

FIRST_NAMES = (
    "Alex", "Anna", "Ben", "Carla", "Chen", "Dana", "David", "Elif", "Emma", "Farid", "Greta",
    "Hannah", "Ines", "Jakob", "Jonas", "Julia", "Kai", "Karim", "Lena", "Lukas", "Maja", "Marco",
    "Mia", "Nadia", "Niklas", "Nora", "Omar", "Paula", "Priya", "Rafael", "Sara", "Sophie",
    "Tariq", "Theo", "Uwe", "Vera", "Wei", "Yusuf", "Zoe", "Lars",
)
LAST_NAMES = (
    "Abbas", "Becker", "Costa", "Demir", "Engel", "Fischer", "Garcia", "Hoffmann", "Ivanova",
    "Jansen", "Kaya", "Lang", "Meyer", "Novak", "Okafor", "Peters", "Quinn", "Richter", "Schmidt",
    "Tanaka", "Usman", "Vogel", "Wagner", "Xu", "Yilmaz", "Zimmermann", "Brandt", "Keller",
    "Lorenz", "Nguyen",
)
ORGS = ("northwind", "acme", "hooli", "initech", "globex", "umbrella-labs", "tyrell", "cyberdyne",
        "stark-io", "wayne-data", "pied-piper", "soylent")
REPOS = ("api", "web", "infra", "docs", "billing", "auth-service", "data-pipeline", "mobile",
         "design-system", "ingest", "search", "notifications", "cli", "sdk-python", "sdk-js",
         "analytics", "scheduler", "gateway", "reporting", "ml-models", "etl", "terraform",
         "website", "admin-panel", "storage")
VERBS = ("Fix", "Add", "Remove", "Refactor", "Update", "Document", "Speed up", "Handle",
         "Deprecate", "Validate", "Cache", "Retry", "Log", "Test", "Migrate", "Split", "Rename",
         "Simplify", "Harden", "Parallelize")
OBJECTS = ("flaky test in parser", "upload client", "token refresh", "CSV export", "date parsing",
           "rate limiter", "webhook handler", "billing cron job", "search index", "user settings page",
           "password reset flow", "S3 lifecycle rules", "Dockerfile", "CI cache", "error messages",
           "pagination", "timezone handling", "invoice PDF", "feature flags", "audit log",
           "session cookies", "retry backoff", "GraphQL schema", "dark mode", "onboarding wizard",
           "metrics endpoint", "dependency pins", "logging config", "cache invalidation",
           "SQL migrations", "OAuth scopes", "email templates", "image resizing", "queue consumer",
           "admin permissions", "locale fallback", "health check", "load balancer config",
           "unicode filenames", "report generator")
QUALIFIERS = ("", "", "", " on Windows", " for large files", " in staging", " after upgrade",
              " (follow-up)", " behind flag", " for EU customers", " in CI", " on ARM",
              " when offline", " with Python 3.12", " for admins", " in the v2 API")
TOPICS = ("Q2 budget review", "offsite planning", "hiring pipeline", "customer escalation",
          "release 4.2 notes", "security audit findings", "vendor contract renewal",
          "conference travel", "team lunch on Friday", "on-call handover", "roadmap draft",
          "invoice from Hetzner", "AWS cost spike", "design review", "sprint retro notes",
          "quarterly OKRs", "laptop refresh", "pricing experiment", "SOC 2 evidence",
          "data retention policy", "interview feedback", "partner integration",
          "incident postmortem", "board deck", "expense report reminder", "newsletter",
          "product demo recording", "support backlog", "translation updates", "API deprecation",
          "GDPR request", "holiday schedule", "benchmark results", "team survey")
EMAIL_PREFIXES = ("", "", "", "Re: ", "Re: ", "Fwd: ", "[ext] ", "AW: ")
FILE_STEMS = ("report", "notes", "invoice", "contract", "slides", "budget", "export", "draft",
              "screenshot", "meeting-minutes", "roadmap", "backup", "dataset", "summary",
              "timesheet", "receipt", "proposal", "checklist", "diagram", "results", "analysis",
              "onboarding", "specs", "benchmark", "minutes", "letter", "statement", "plan")
FILE_EXTS = (".pdf", ".ods", ".odt", ".png", ".csv", ".txt", ".md", ".py", ".json", ".zip",
             ".docx", ".xlsx", ".svg", ".log")
WIKI_TOPICS = ("SQLite", "Write-ahead logging", "Levenshtein distance", "Gittins index",
               "Beta distribution", "Accessibility (computing)", "X Window System", "D-Bus",
               "Zipf's law", "Bloom filter", "B-tree", "Unicode equivalence", "ISO 8601",
               "Daylight saving time in Europe", "Berlin", "Kreuzberg", "Markov chain",
               "N-gram", "Process mining", "Robotic process automation", "Sessionization",
               "Public Suffix List", "Content-addressable storage", "SHA-2", "Shannon entropy",
               "Coefficient of variation", "Multi-armed bandit", "Reservoir sampling",
               "Interval scheduling", "Cosine similarity", "Sentence embedding",
               "Regular expression", "Systemd", "Wayland", "GNOME", "Mozilla Thunderbird",
               "LibreOffice Calc", "Tempelhofer Feld", "Spree", "Deutsche Bahn", "Pomodoro Technique")
SEARCH_TERMS = ("apsw executemany", "sqlite wal checkpoint", "python zoneinfo dst",
                "pyatspi get extents", "xlib focus events", "orjson sort keys", "pytest tmp_path",
                "hypothesis stateful", "rapidfuzz ratio", "dbus-fast example", "systemd user unit",
                "berlin weather", "train to hamburg", "bvg strike", "levenshtein normalized",
                "gittins index bisection", "beta prior bandit", "numpy stable argsort",
                "mss screenshot multi monitor", "pillow webp quality", "xtest fake input",
                "css grid center", "react useeffect cleanup", "git rebase onto", "docker prune",
                "kubectl rollout restart", "terraform import", "postgres jsonb index",
                "cheap flights lisbon", "coffee grinder review", "standing desk", "usb-c dock",
                "thunderbird filters", "libreoffice vlookup", "gedit plugins", "nautilus scripts")
VIDEO_TOPICS = ("SQLite internals", "Rust for Python developers", "Designing data-intensive apps",
                "Home espresso basics", "Berlin walking tour", "Keyboard shortcuts you should know",
                "Intro to process mining", "How WAL works", "Lo-fi beats to code to",
                "Conference keynote", "Bandits explained", "Accessibility on Linux",
                "Kubernetes in 10 minutes", "Typography for developers", "Git internals")
PRODUCTS = ("USB-C hub", "mechanical keyboard", "monitor arm", "noise cancelling headphones",
            "laptop stand", "webcam", "desk lamp", "ethernet cable", "SSD 2TB", "ergonomic mouse",
            "notebook A5", "fountain pen", "coffee beans 1kg", "water bottle", "backpack")
PAPER_TOPICS = ("deterministic activity compilation", "screen agents", "GUI grounding",
                "routine mining from logs", "bandit stopping rules", "accessibility trees for agents",
                "web navigation benchmarks", "process discovery", "episodic memory for LLM agents",
                "token cost models", "UI drift robustness", "desktop automation")
SLACK_PHRASES = ("can someone review my PR?", "deploy is done", "lunch?", "standup in 5",
                 "LGTM", "thanks!", "I'll take a look after lunch", "is staging down?",
                 "new build is out", "meeting moved to 15:00", "see thread", "on it",
                 "who owns the billing job?", "PTO tomorrow", "numbers look good",
                 "coffee anyone?", "docs updated", "rolling back", "fixed in main",
                 "great demo today", "reminder: retro at 16:00", "the invoice is in the drive")
CHANNELS = ("general", "random", "engineering", "design", "product", "support", "deploys",
            "incidents", "berlin-office", "hiring", "data", "frontend", "backend", "ops",
            "announcements", "watercooler", "book-club", "security", "marketing", "sales")
SEARCH_EXTRA = ("example", "tutorial", "error", "python", "linux", "2026", "vs", "best practice", "docs",
                "github", "not working", "performance", "reddit", "alternative", "benchmark", "default", "config",
                "unicode", "timeout", "windows", "debian", "arm64", "migration", "release notes", "license",
                "examples", "changelog", "issue", "faq", "cheat sheet")
