"""The selection hand-off: sessions, the selection file, answering from the viewer, waiting in the agent."""
