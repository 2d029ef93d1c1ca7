"""`python -m scene_agent` runs the CLI."""

from scene_agent.cli.main import main

main()
