"""Replay: compiled programs run on the live desktop, step by step, only
where guards match (phantom.md §4, Algorithm 1). Resolution is a visible
ladder — direct accessibility path, local embedding match, escalation — and
every step is logged with its policy, scores and latency. Replay never calls
a remote model."""
