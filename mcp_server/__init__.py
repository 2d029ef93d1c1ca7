"""scene-agent as an MCP server: the agent's tools, `ask`, and picks in our viewer through elicitation."""
