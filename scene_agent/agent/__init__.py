"""The agent: planners that call the tools, the disambiguation decision, events, and the conversation."""
