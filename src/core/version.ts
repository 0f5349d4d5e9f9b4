/** The version of memory-transfer (CLI `--version`, the MCP server's name and version). */
export const VERSION = '0.1.0';
