// The entry of dist/mcp.js: the MCP endpoint and its tools, bundled apart and loaded only when
// the user turns the endpoint on, so activation never pays for the MCP SDK (nor for the
// configurations handed out, which hold the OpenCode plugin's source).
export { McpEndpoint } from './mcpEndpoint';
export { approveDecider, createToolServer } from './mcpTools';
export { agentConfigs } from '../agents/configRegistry';
// Written only while the endpoint listens, so it loads with it.
export { EndpointDiscoveryFile } from './endpointDiscoveryFile';
