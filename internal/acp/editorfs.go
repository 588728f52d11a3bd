package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/termsafe"
	"mm/internal/tools"
)

// NewEditorFiles is the editor of one session as the file tools see it
// (tools.FileOptions.Editor): fs/read_text_file and fs/write_text_file
// sent to the client, so unsaved buffers are what the model reads and its
// edits appear in the editor. The facade uses it only when the client
// announced both fs.readTextFile and fs.writeTextFile.
func NewEditorFiles(conn *acpsdk.AgentSideConnection, id acpsdk.SessionId) tools.Editor {
	return editorFiles{conn: conn, id: id}
}

type editorFiles struct {
	conn *acpsdk.AgentSideConnection
	id   acpsdk.SessionId
}

// ReadTextFile asks for the whole file: line and limit stay unset.
func (e editorFiles) ReadTextFile(ctx context.Context, abs string) (string, error) {
	resp, err := e.conn.ReadTextFile(ctx, acpsdk.ReadTextFileRequest{SessionId: e.id, Path: abs})
	if err != nil {
		return "", e.failure(ctx, err)
	}
	return resp.Content, nil
}

func (e editorFiles) WriteTextFile(ctx context.Context, abs, content string) error {
	if _, err := e.conn.WriteTextFile(ctx, acpsdk.WriteTextFileRequest{SessionId: e.id, Path: abs, Content: content}); err != nil {
		return e.failure(ctx, err)
	}
	return nil
}

// failure is the error the file tools put in the model's text: "the
// editor refused: <why>" for a JSON-RPC error from the client. The
// client is untrusted like any peer: its message is made one short line
// with no control characters. A context that ended or a connection that
// closed is said as such, not as a refusal.
func (e editorFiles) failure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	select {
	case <-e.conn.Done():
		return errors.New("the editor closed the connection")
	default:
	}
	var re *acpsdk.RequestError
	if !errors.As(err, &re) {
		return fmt.Errorf("the editor did not answer: %s", clientLine(err.Error()))
	}
	why := re.Message
	if d := refusalDetail(re.Data); d != "" && d != why {
		why += ": " + d
	}
	if why = clientLine(why); why == "" {
		why = fmt.Sprintf("error %d", re.Code)
	}
	return errors.New("the editor refused: " + why)
}

// refusalDetail is the readable part of an error's data: a string, or the
// string a client puts under one of the usual keys.
func refusalDetail(data any) string {
	switch d := data.(type) {
	case string:
		return d
	case map[string]any:
		for _, k := range []string{"details", "message", "error", "reason"} {
			if s, ok := d[k].(string); ok {
				return s
			}
		}
	}
	return ""
}

// maxClientLine bounds what one client message adds to the model's text.
const maxClientLine = 200

// clientLine makes a client's text one short, inert line.
func clientLine(s string) string {
	s = termsafe.Text(strings.Join(strings.Fields(s), " "))
	if utf8.RuneCountInString(s) > maxClientLine {
		s = string([]rune(s)[:maxClientLine]) + "…"
	}
	return s
}
