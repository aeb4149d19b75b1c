export { MCP_PATH, mcpMount } from './http.js';
export { createMcpServer, type McpIdentity } from './server.js';
export { serveStdio } from './stdio.js';
export { inputFromArguments, listedFor, type ToolDescription, toolFor, toolsFor } from './tools.js';
