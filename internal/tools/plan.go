package tools

import (
	"context"
	"encoding/json"
	"os"

	"mm/internal/atomicfile"
)

// planned runs a plan the way Run does when nobody is asked.
func planned(p Planned, ctx context.Context) string {
	if p.Done != "" || p.Apply == nil {
		return p.Done
	}
	return p.Apply(ctx)
}

// planFileCall is a write_file or edit_file call as a plan: its refusal
// or "nothing to write" decided at once, else the diff to show and the
// write to do. ctx bounds the editor's read (FileOptions.Editor): Run's
// context, or context.Background for Tool.Plan, which has none (each
// editor call is bounded by EditorTimeout anyway, and the write itself
// runs under Apply's context).
func planFileCall(ctx context.Context, o FileOptions, args json.RawMessage, plan func(context.Context, FileOptions, json.RawMessage) (FileChange, string)) Planned {
	c, failure := plan(ctx, o, args)
	if failure != "" {
		return Planned{Done: failure, Failed: true}
	}
	return c.planned(o)
}

// planned is the change as a plan: a dry run or a change that writes
// nothing is done at once; otherwise the report (header and diff) is the
// preview, and Apply writes the change, refusing when the file no longer
// holds what the plan was made from.
func (c FileChange) planned(o FileOptions) Planned {
	if c.DryRun || c.Unchanged() {
		return Planned{Done: c.Report}
	}
	if c.Existed {
		// A file mm may not replace is refused now, before anybody is
		// asked to allow a write that could not happen (Apply checks
		// again).
		if fi, err := os.Stat(c.AbsPath); err == nil {
			if err := atomicfile.CheckReplace(c.AbsPath, fi); err != nil {
				return Planned{Done: refusal(c.Path, err).Error(), Failed: true}
			}
		}
	}
	diff := &Diff{Path: c.AbsPath, Old: c.Old, New: c.New, Existed: c.Existed}
	preview := c.Preview
	if preview == "" {
		preview = c.Report
	}
	return Planned{Preview: preview, Diff: diff, Apply: func(ctx context.Context) string {
		if err := o.apply(ctx, c); err != nil {
			return err.Error()
		}
		diff.Applied = true
		return c.Report
	}}
}
