package acp

// Stand-ins for the files of the helper "efs" (editorfs.go, content.go):
// the lead deletes this file when their branch is merged.

import (
	"context"
	"errors"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/tools"
)

// NewEditorFiles is the stand-in: the disk.
func NewEditorFiles(conn *acpsdk.AgentSideConnection, id acpsdk.SessionId) tools.Editor {
	return nil
}

// PromptText is the stand-in: text blocks only.
func PromptText(ctx context.Context, blocks []acpsdk.ContentBlock, maxOutput int, read func(ctx context.Context, abs string) (string, error)) (string, error) {
	var b strings.Builder
	for _, blk := range blocks {
		if blk.Text == nil {
			return "", errors.New("only text blocks are supported")
		}
		b.WriteString(blk.Text.Text)
	}
	return b.String(), nil
}
