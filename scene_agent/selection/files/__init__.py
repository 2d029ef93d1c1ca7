"""The file backend of the selection channel: sessions, outcomes and picks as files on this machine."""
