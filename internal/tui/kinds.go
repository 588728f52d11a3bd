package tui

// What shows under a call's `‣` line follows its ACP kind, as the
// reference gives it for "ACP / fenêtre" (the permissions themselves are
// the agent's: the window only draws the zone it is asked for):
//
//   - execute (bash): the output folded to previewLines;
//   - read (read_file, read_skill, lsp's navigation, an MCP read): the
//     content is for the model, as in the line mode; the window says how
//     many lines were read, and shows a failed read's text (the file does
//     not exist …); lsp's answers show as a command's output;
//   - edit (write_file, edit_file, lsp rename): the change, its diff
//     coloured (diff.go); the header alone when the permission zone has
//     just shown the diff;
//   - fetch (fetch_content): the page's Markdown folded, or the one line
//     that says where it was saved;
//   - other (MCP tools, ask_user, ask_agent): the output folded.
//   - think (plan): the whole checklist, as the line mode's printer
//     shows it.
//
// The line itself is `‣ <tool> <summary>`, the summary the line mode's
// (a file tool's path and range, a fetch's URL and `→ <file>`, an lsp
// action and its symbol, an MCP tool's arguments), its name `server/tool`
// for an MCP tool.

import (
	"fmt"
	"strings"

	"mm/internal/agent"
	"mm/internal/ui"
)

// readPreview is what shows under a read the line mode's printer shows
// nothing for (read_file, read_skill): a failed one's text, folded and
// sanitised by the printer as any output, or how many lines were read.
func readPreview(c *agent.Call, previewLines int) string {
	if c.Name != "read_file" && c.Name != "read_skill" || previewLines <= 0 {
		return ""
	}
	if c.Failed {
		shown := *c
		shown.Name = "" // the printer shows the output of any other tool
		return printed(previewLines, func(p *ui.Printer) { p.ToolEnd(&shown) })
	}
	out := strings.TrimRight(c.Output, "\n")
	if out == "" {
		return "   (empty)"
	}
	return fmt.Sprintf("   (%d line(s) read, for the model)", strings.Count(out, "\n")+1)
}
