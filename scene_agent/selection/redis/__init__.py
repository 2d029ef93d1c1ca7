"""The Redis backend of the selection channel: sessions, outcomes and picks in Redis, for many machines."""
