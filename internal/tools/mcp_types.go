package tools

import (
	"context"
	"encoding/json"
	"strings"
)

// MCPTool is one tool an MCP server offers (mcp.servers), as mm knows it.
type MCPTool struct {
	// Server is the server's name in mcp.servers; Name the tool's name on
	// the server.
	Server, Name string
	Description  string
	// InputSchema is the schema's JSON text as the server sent it: its
	// property order is kept on the wire (llama.cpp's grammar follows it).
	InputSchema string
	// ReadOnly is the server's readOnlyHint annotation (ACP kind read).
	ReadOnly bool
}

// MCPServers is what the MCP tools need of the running servers
// (internal/mcp): the tools of the servers that are ready, and a call.
type MCPServers interface {
	// Tools lists the ready servers' tools in a fixed order: the servers
	// in mcp.servers order, each server's tools in its own order.
	Tools() []MCPTool
	// Call runs one tool. output is what the model reads (text as is,
	// cut to maxOutput; structured content as compact JSON; a one-line
	// placeholder for images and audio; resource links as their URI);
	// failed says the result is an error (isError, a server that died,
	// a timeout).
	Call(ctx context.Context, server, tool string, args json.RawMessage) (output string, failed bool)
}

// MCPShown is server/tool as the 🔌 and 🔐 lines and an editor's title
// show it. A server names its tools as it likes: a line break in a name
// is written \n (\r for a carriage return), as JSON writes it, so that
// the line stays one line and shows where the name ends.
func MCPShown(server, tool string) string {
	return mcpNameLine.Replace(server + "/" + tool)
}

var mcpNameLine = strings.NewReplacer("\n", `\n`, "\r", `\r`)
