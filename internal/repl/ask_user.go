package repl

// ask_user in line mode: each question in turn, `❓ <question>`, its
// numbered options (`(default)` after the default), a help line and
// ` ? `; a typed line answers. In the terminal the keys of the turn
// (the router's) make the answer line, as they make the permission
// prompt's key: Esc and Ctrl-C still stop the turn, and the type-ahead
// of the next question is set aside while the answer is typed.

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"mm/internal/termsafe"
	"mm/internal/tools"
)

var _ tools.UserAsker = (*replUI)(nil)

// askState is a question waiting for its answer line in the terminal
// (r.mu guards it).
type askState struct {
	wait  chan string // the line typed, or askEOF; nil: no question waits
	line  []rune      // the answer typed so far
	open  bool        // the " ? " line is not ended yet
	saved []rune      // the type-ahead set aside
	// stop stops the plain session's running turn (a /abort typed at a
	// question): there no key handler holds the turn's cancel.
	stop context.CancelFunc
}

// askEOF is Ctrl-D on an empty answer line: it declines, as it refuses
// at a permission prompt.
const askEOF = "\x04"

// AskUser puts the questions one after the other. asker, when not "",
// is the asked agent whose question this is.
func (u *replUI) AskUser(ctx context.Context, asker string, qs []tools.Question) ([]tools.Answer, error) {
	r := u.r
	r.p.Status("") // nothing runs while mm waits for the user
	prefix := ""
	if asker != "" {
		prefix = asker + " asks: "
	}
	answers := make([]tools.Answer, 0, len(qs))
	for _, q := range qs {
		a, err := r.askQuestion(ctx, prefix, q)
		if err != nil {
			return nil, err
		}
		answers = append(answers, a)
	}
	return answers, nil
}

// askQuestion asks one question until it is answered, declined (/skip,
// Ctrl-D) or cancelled.
func (r *REPL) askQuestion(ctx context.Context, prefix string, q tools.Question) (tools.Answer, error) {
	show := func() {
		// The question and each option on one line: a newline the model
		// wrote would draw a line that looks like an option, and the
		// numbers the user reads must be the ones mm takes.
		r.p.Line("❓ " + prefix + oneLine(q.Text))
		for i, o := range q.Options {
			mark := ""
			if q.HasDefault && o == q.Default {
				mark = " (default)"
			}
			r.p.Line(fmt.Sprintf(" %d. %s%s", i+1, oneLine(o), mark))
		}
		r.p.DimLine(askHelp(q))
	}
	show()
	for {
		line, err := r.readAnswer(ctx)
		if err != nil {
			return tools.Answer{}, err
		}
		switch s := strings.TrimSpace(line); {
		case s == "/skip" || line == askEOF:
			r.p.DimLine("   → declined")
			return tools.Answer{}, tools.ErrDeclined
		case s == "/abort" || s == "/quit" || s == "/exit":
			// Only in the plain session: in the terminal the key
			// handler stops the turn on these.
			if s != "/abort" {
				r.mu.Lock()
				r.quit = true
				r.mu.Unlock()
			}
			if r.question.stop != nil {
				r.question.stop()
			}
			return tools.Answer{}, context.Canceled
		case s == "":
			if q.HasDefault {
				a := tools.Answer{Values: []string{q.Default}}
				r.p.DimLine("   → " + oneLine(q.Default))
				return a, nil
			}
			show() // no default: the question is asked again
			continue
		}
		if a, ok := parseAnswer(q, line); ok {
			r.p.DimLine("   → " + oneLine(strings.Join(a.Values, ", ")))
			return a, nil
		}
		if msg := outOfRange(q, line); msg != "" {
			r.p.DimLine(msg)
		}
		r.p.DimLine(askHelp(q))
	}
}

// oneLine is s with its runs of white space (newlines included) made one
// space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// askHelp is the line under a question: how to answer it.
func askHelp(q tools.Question) string {
	var s string
	switch q.Type {
	case tools.QuestionChoice:
		s = "   answer with a number or an option, or type your own answer"
	case tools.QuestionMulti:
		s = "   answer with one or more numbers or options, e.g. 1, 3"
	case tools.QuestionConfirm:
		s = "   answer y or n"
	default:
		s = "   type your answer"
	}
	if q.HasDefault {
		if q.Type == tools.QuestionChoice {
			s += " · Enter takes the default"
		} else {
			s += " · Enter: " + oneLine(q.Default)
		}
	}
	return s + " · /skip declines"
}

// parseAnswer reads a typed line as the answer to q, by the reference's
// rules; ok is false for a line that does not answer.
func parseAnswer(q tools.Question, line string) (tools.Answer, bool) {
	s := strings.TrimSpace(line)
	if s == "" {
		return tools.Answer{}, false
	}
	one := func(v string) (tools.Answer, bool) { return tools.Answer{Values: []string{v}}, true }
	switch q.Type {
	case tools.QuestionText:
		return one(s)
	case tools.QuestionConfirm:
		if v, ok := tools.ConfirmWord(s); ok {
			return one(v)
		}
		return tools.Answer{}, false
	case tools.QuestionMulti:
		return parseMulti(q, s)
	}
	// choice: a number, an option's text, the start of only one option,
	// or any other text, taken as the answer.
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 1 && n <= len(q.Options) {
			return one(q.Options[n-1])
		}
		// Not an option's number: an option's text that is a number
		// (a year, a port), else no answer.
		for _, o := range q.Options {
			if o == s {
				return one(o)
			}
		}
		return tools.Answer{}, false
	}
	var starts []string
	for _, o := range q.Options {
		if strings.EqualFold(o, s) {
			return one(o)
		}
		if len(s) <= len(o) && strings.EqualFold(o[:len(s)], s) {
			starts = append(starts, o)
		}
	}
	if len(starts) == 1 {
		return one(starts[0])
	}
	return one(s)
}

// parseMulti reads a multi answer: items separated by commas,
// semicolons or spaces, each a number, an option's text or the start of
// only one option, as a choice takes them; an option whose text holds
// spaces is taken whole between commas. Every item must name an option.
func parseMulti(q tools.Question, s string) (tools.Answer, bool) {
	var values []string
	seen := map[string]bool{}
	add := func(o string) {
		if !seen[o] {
			seen[o] = true
			values = append(values, o)
		}
	}
	for _, part := range strings.FieldsFunc(s, func(c rune) bool { return c == ',' || c == ';' }) {
		part = strings.TrimSpace(part)
		if o, ok := optionNamed(q, part); ok {
			add(o)
			continue
		}
		for _, w := range strings.Fields(part) {
			o, ok := optionItem(q, w)
			if !ok {
				return tools.Answer{}, false
			}
			add(o)
		}
	}
	return tools.Answer{Values: values}, len(values) > 0
}

// optionNamed is the option whose text is s (case aside).
func optionNamed(q tools.Question, s string) (string, bool) {
	for _, o := range q.Options {
		if s != "" && strings.EqualFold(o, s) {
			return o, true
		}
	}
	return "", false
}

// optionItem is the option one item names: its number, its text (an
// option's text that is a number, a year or a port, too), or the start
// of it alone.
func optionItem(q tools.Question, s string) (string, bool) {
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(q.Options) {
		return q.Options[n-1], true
	}
	if o, ok := optionNamed(q, s); ok {
		return o, true
	}
	if _, err := strconv.Atoi(s); err == nil {
		return "", false // a number out of range is no option's start
	}
	var starts []string
	for _, o := range q.Options {
		if len(s) <= len(o) && strings.EqualFold(o[:len(s)], s) {
			starts = append(starts, o)
		}
	}
	if len(starts) == 1 {
		return starts[0], true
	}
	return "", false
}

// outOfRange is the message for a line that did not answer because it
// names an option by a number there is no option for ("" when it does
// not): it says which.
func outOfRange(q tools.Question, line string) string {
	if q.Type != tools.QuestionChoice && q.Type != tools.QuestionMulti {
		return ""
	}
	for _, f := range strings.FieldsFunc(line, func(c rune) bool { return c == ',' || c == ';' || c == ' ' || c == '\t' }) {
		n, err := strconv.Atoi(f)
		if err != nil || (n >= 1 && n <= len(q.Options)) {
			continue
		}
		if _, ok := optionNamed(q, f); ok {
			continue
		}
		return fmt.Sprintf("   %d is out of range: the options are numbered 1 to %d", n, len(q.Options))
	}
	return ""
}

// readAnswer shows ` ? ` and reads one line: from the keys of the turn in
// the terminal, else from the input.
func (r *REPL) readAnswer(ctx context.Context) (string, error) {
	if r.rt == nil {
		return r.plainAnswer(ctx)
	}
	wait := make(chan string, 1)
	r.mu.Lock()
	r.question.wait, r.question.line, r.question.saved = wait, nil, r.typed
	r.typed = nil
	r.mu.Unlock()
	r.p.SetInput("")
	r.p.Status("")
	r.mu.Lock()
	io.WriteString(r.opts.Out, " ? ")
	r.question.open = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		if r.question.open {
			io.WriteString(r.opts.Out, "\n")
		}
		r.typed = r.question.saved
		r.question = askState{stop: r.question.stop}
		typed := string(r.typed)
		r.mu.Unlock()
		r.p.SetInput(typed)
	}()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case line := <-wait:
		return line, nil
	}
}

// askKey handles a key of the turn while a question waits (r.mu held);
// it reports whether it took the key. Esc and Ctrl-C are left to the
// turn: they stop it, and so cancel the question.
func (r *REPL) askKey(k key, cancel context.CancelFunc) bool {
	a := &r.question
	if a.wait == nil || k.kind == keyEsc || k.kind == keyInterrupt {
		return false
	}
	out := r.opts.Out
	switch k.kind {
	case keyRune:
		a.line = append(a.line, k.r)
		io.WriteString(out, termsafe.Text(string(k.r)))
	case keyText:
		t := typeable(k.text)
		a.line = append(a.line, t...)
		io.WriteString(out, termsafe.Text(string(t)))
	case keyBackspace:
		if len(a.line) > 0 {
			a.line = a.line[:len(a.line)-1]
			io.WriteString(out, "\b \b")
		}
	case keyKill:
		io.WriteString(out, strings.Repeat("\b \b", len(a.line)))
		a.line = nil
	case keyEOF:
		if len(a.line) == 0 {
			io.WriteString(out, "\n")
			a.open = false
			a.deliver(askEOF)
		}
	case keyEnter:
		line := r.rt.expand(string(a.line))
		a.line = nil
		io.WriteString(out, "\n")
		a.open = false
		switch s := strings.TrimSpace(line); {
		case s == "/abort":
			cancel()
		case s == "/quit" || s == "/exit":
			r.quit = true
			cancel()
		case s != "/skip" && isCommand(s):
			// The other commands keep their meaning in a turn: they stop
			// it and run next.
			r.next = s
			cancel()
		default:
			a.deliver(line)
		}
	}
	return true
}

// deliver hands the waiting question its line, once.
func (a *askState) deliver(line string) {
	select {
	case a.wait <- line:
	default:
	}
}

// isCommand reports whether s is one of the slash commands /help lists.
func isCommand(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	for _, c := range commands {
		if c.name == f[0] {
			return true
		}
	}
	return false
}

// plainAnswer reads the answer as a line of the input, the transcript
// showing it after its ` ? `. The read goes on in the background when the
// turn is stopped first (a signal): the line it gets is the session's
// next.
func (r *REPL) plainAnswer(ctx context.Context) (string, error) {
	fmt.Fprint(r.opts.Out, " ? ")
	type read struct {
		line string
		ok   bool
	}
	got := make(chan read, 1)
	next := r.readLine
	go func() {
		s, ok := next()
		got <- read{s, ok}
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(r.opts.Out)
		r.readLine = func() (string, bool) {
			r.readLine = next
			res := <-got
			return res.line, res.ok
		}
		return "", ctx.Err()
	case res := <-got:
		if !res.ok {
			fmt.Fprintln(r.opts.Out)
			return "", tools.ErrCannotAsk // the input ended: nobody is there
		}
		fmt.Fprintln(r.opts.Out, termsafe.Text(res.line))
		return res.line, nil
	}
}
