"""The bottom layer every other package shares: the store (schema,
migrations, connections, the batched writer), accessibility paths, role
names and bounded tree walks, the clock, the session-bus client and the
error family. `core` imports nothing of Phantom's own; everything else may
import it."""
