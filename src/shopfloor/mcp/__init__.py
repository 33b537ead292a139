"""The MCP server of both apps' guarded tools, above both apps (docs/mcp.md)."""
