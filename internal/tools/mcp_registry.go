package tools

// ReplaceFrom keeps the first n tools and declares ts after them instead
// of the rest: the MCP tools, which come after the built-in ones, change
// once when servers that were late at start-up are ready. The caller runs
// it between turns, when nothing reads the registry.
func (r *Registry) ReplaceFrom(n int, ts []*Tool) {
	for _, t := range r.list[n:] {
		delete(r.byName, t.Name)
	}
	r.list = r.list[:n:n]
	for _, t := range ts {
		r.Add(t)
	}
}
