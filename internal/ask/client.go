package ask

import (
	"context"
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/acp"
)

// client is mm's side of a child's connection: the ACP client the child
// talks to. Each request is routed to the ask of its session.
type client struct{ c *child }

var _ acpsdk.Client = (*client)(nil)
var _ acpsdk.ExtensionMethodHandler = (*client)(nil)

// joined is the ask's context, also cancelled when the SDK cancels the
// request (the child withdrew it).
func joined(reqCtx, callCtx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(callCtx)
	stop := context.AfterFunc(reqCtx, cancel)
	return ctx, func() { stop(); cancel() }
}

func (cl *client) SessionUpdate(_ context.Context, n acpsdk.SessionNotification) error {
	defer cl.c.order.done()
	if c := cl.c.callOf(n.SessionId); c != nil {
		c.event(n.Update)
	}
	return nil
}

// HandleExtensionMethod takes the child's _mm/progress notifications
// (announced by mm in initialize, acp.ProgressMethod): its model moves
// without showing anything yet (it reads the prompt, loads, reasons
// unseen, composes a call), or an agent it asks does. Each is a sign of
// life for the ask's watch, with the limit of the moment.
func (cl *client) HandleExtensionMethod(_ context.Context, method string, params json.RawMessage) (any, error) {
	if method != acp.ProgressMethod {
		return nil, acpsdk.NewMethodNotFound(method)
	}
	var p acp.ProgressParams
	if json.Unmarshal(params, &p) == nil {
		if c := cl.c.callOf(acpsdk.SessionId(p.SessionID)); c != nil {
			c.progress()
		}
	}
	return nil, nil
}

func (cl *client) RequestPermission(ctx context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	cl.c.order.wait(permissionKey(string(p.SessionId), string(p.ToolCall.ToolCallId)))
	c := cl.c.callOf(p.SessionId)
	if c == nil {
		return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	ctx, cancel := joined(ctx, c.ctx)
	defer cancel()
	resp := c.permission(ctx, p)
	c.watch.alive()
	return resp, nil
}

// The child reads and writes the disk itself (mm announces no fs/*) and
// runs its own commands (no terminal/*): these are never asked.
func (cl *client) ReadTextFile(context.Context, acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	return acpsdk.ReadTextFileResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodFsReadTextFile)
}
func (cl *client) WriteTextFile(context.Context, acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	return acpsdk.WriteTextFileResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodFsWriteTextFile)
}
func (cl *client) CreateTerminal(context.Context, acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	return acpsdk.CreateTerminalResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodTerminalCreate)
}
func (cl *client) KillTerminal(context.Context, acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	return acpsdk.KillTerminalResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodTerminalKill)
}
func (cl *client) TerminalOutput(context.Context, acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	return acpsdk.TerminalOutputResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodTerminalOutput)
}
func (cl *client) ReleaseTerminal(context.Context, acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	return acpsdk.ReleaseTerminalResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodTerminalRelease)
}
func (cl *client) WaitForTerminalExit(context.Context, acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	return acpsdk.WaitForTerminalExitResponse{}, acpsdk.NewMethodNotFound(acpsdk.ClientMethodTerminalWaitForExit)
}
