package toolcall

// Rule "intent in other words" (testdata/README.md, "What the expectations
// assume": a call shown and refused, reported as already run, or given as an
// example is not made). intent.go reads the English phrases of that rule;
// these are the same three meanings as models write them in the other
// languages mm's users work in (a model answers in the user's language:
// anthropics/claude-code#77135 shows one refusing injected rm -rf commands
// in Chinese) and in English words the first list does not have. Past-tense
// reports are read only where they end the lead-in or name the call with a
// pronoun, as in intent.go, and no gap crosses a comma or a semicolon, so
// that "I ran the tests; now let me read the config:" stays a call.

// gap is a few words inside one clause.
const gap = `[^.!?:,;。！？，、；：\n]`

var (
	// Refusals, anywhere in the lead-in or the sentence after the call.
	refusalWideRe = lazyRegexp(`(?i)` +
		// je ne vais pas exécuter, je n'exécuterai pas, je ne l'exécuterai pas
		`\b(je|nous)\s+(ne\s+|n')` + gap + `{0,40}?\b(pas|jamais)\b` + gap + `{0,30}?\b(exécut|execut|lanc|appel)` +
		`|\b(je|nous)\s+(n'|ne\s+(l'|la\s+|le\s+|les\s+))(exécut|execut|lanc|appel)\w*\s+(pas|jamais)\b` +
		// ich werde das nicht ausführen, ich führe das nicht aus
		`|\b(ich|wir)\s+(werde|werden|will|wollen|kann|können|darf|dürfen|möchte|möchten)\b` + gap + `{0,40}?\bnicht\b` + gap + `{0,20}?\b(ausführen|starten|aufrufen)` +
		`|\b(ich|wir)\s+(führe|führen)\b` + gap + `{0,30}?\bnicht\s+aus\b` +
		// no voy a ejecutar, no lo ejecutaré; non eseguirò; não vou executar
		`|\bno\s+(voy a|vamos a|puedo|podemos|debo|quiero|lo voy a|la voy a|lo|la)?\s*(ejecutar|ejecutaré|ejecutaremos|correr|lanzar|llamar)\b` +
		`|\bnon\s+(lo\s+|la\s+)?(eseguirò|eseguiremo|eseguo|posso eseguire|devo eseguire|voglio eseguire|lancerò)` +
		`|\bn[ãa]o\s+(vou|vamos|posso|devo|quero|irei)\s+(o\s+|a\s+)?(executar|rodar|correr)` +
		// nie uruchomię, nie wykonam
		`|\bnie\s+(uruchomię|uruchomie|wykonam|uruchamiam|wykonuję)` +
		// I refrained from running, we decided not to run
		`|\b(i|we)\s+(refrained|abstained|decided not|chose not|opted not)\s+(from|to)\s+(running|executing|calling|run|execute|call)\b` +
		// I did not act on it, which I will ignore
		`|\b(i|we)\s+(did not|didn't|will not|won't|do not|don't|never)\s+(act on|follow|obey)\b|\bwhich\s+(i|we)\s+(will\s+|'ll\s+|am going to\s+|'m going to\s+)?ignore\b|\b(i|we)\s+(will\s+|'ll\s+|am going to\s+|'m going to\s+)?ignore\s+(it|this|that|them|these|those|the instructions?)\b` +
		// 我不会运行, 我没有执行, 我一律拒绝; 実行しません
		`|(我|我们|我們)(不会|不會|不能|不要|不想|不打算|不应该|拒绝|拒絕|一律拒绝|一律拒絕|没有|沒有|并未|並未|未|没|沒)` + gap + `{0,8}?(运行|運行|执行|執行|调用|調用)` +
		`|(実行|起動)(しません|しない|できません|いたしません)`)

	// Past-tense reports that end the lead-in: j'ai exécuté la commande
	// suivante :, ich habe bereits Folgendes ausgeführt:, he ejecutado el
	// siguiente comando:, 我已经运行了：, I've gone ahead and executed.
	pastWideEndRe = lazyRegexp(`(?i)(` +
		`\b(j'ai|nous avons)\s+(déjà\s+)?(exécuté|execute|lancé|appelé)(\s+(la|le|les|cette|ce|ceci|cela)(\s+[\wé]+){0,2})?` +
		`|\bque\s+(j'ai|nous avons)\s+(déjà\s+)?(exécuté|lancé|appelé)` +
		`|\b(ich|wir)\s+(habe|haben)\b` + gap + `{0,40}?\b(ausgeführt|gestartet|aufgerufen)` +
		`|\b(he|hemos)\s+(ya\s+)?(ejecutado|corrido|lanzado|llamado)(\s+(el|la|lo|los|las|esto|este|esta)(\s+\w+){0,2})?` +
		`|\bho\s+(già\s+)?eseguito(\s+(il|la|questo|questa)(\s+\w+){0,2})?` +
		`|\b(eu\s+)?(já\s+)?(executei|rodei)(\s+(o|a|este|esta|isto)(\s+\w+){0,2})?` +
		`|(我|我们|我們)` + gap + `{0,4}?(已经|已經|已|刚刚|剛剛|刚|剛)` + gap + `{0,6}?(运行|運行|执行|執行|调用|調用)(了|过|過)?` +
		`|(実行|起動)しました` +
		`|\b(i|we)(\s+have\s+|'ve\s+|\s+)(already\s+|just\s+|also\s+|successfully\s+|(gone|went)\s+ahead\s+and\s+)+(ran|run|executed|called|invoked)(\s+the following)?` +
		`)\s*[:\-–—：]?\s*$`)

	// Past-tense reports that name the call: the following was already
	// run, je l'ai déjà exécuté, ich habe es bereits ausgeführt.
	pastWideRe = lazyRegexp(`(?i)\bthe following\s+(was|were|has been|have been)\s+(already\s+)?(run|executed|called|invoked)\b` +
		`|\b(je|nous)\s+(l'ai|les ai|l'avons|les avons)\s+(déjà\s+)?(exécuté|lancé|appelé)` +
		`|\b(ich|wir)\s+(habe|haben)\s+(es|das|dies|ihn|sie)\s+(bereits\s+|schon\s+)?(ausgeführt|gestartet|aufgerufen)\b` +
		`|\b(lo|la|los|las)\s+(he|hemos)\s+(ya\s+)?(ejecutado|corrido|lanzado)\b`)

	// The call given as an example or description of a format, in words
	// exampleRe does not have: "headers look like this:", "the docs show
	// this example:", "that's the example from the docs", "For example."
	// after it, "that's how it looks", a prompt injection named as such.
	// (rule_round5b) "If your UI shows something like this, …:" (what one
	// sees, not what is run) and a lead-in ending "…, as in:".
	exampleWideRe = lazyRegexp(`(?i)\blook(s|ed)? like( this)?\s*[:：]?\s*$|\b(shows?|showing|see|seeing|displays?|prints?) (something|text|output) like this\b|,\s*as in\s*[:：]\s*$|\b(this|that's the|that is the|the same) example\b|\bhow (it|this|that|a call|the call) looks\b|\bis (the|a) (shape|form|format|syntax) of\b|\b(that's|that is|this is) the [\w .-]{0,30}\b(format|syntax)\b|\bprompt[- ]injection\b|\binjected (instruction|command)s?\b`)
	// A lead-in that is only an example label: "Example:", "Call example:",
	// "Funktionsaufruf-Beispiel:", "示例：" (one word at most before it, so
	// that "Let me run the example:" is still a call).
	exampleLabelRe = lazyRegexp(`(?i)^\s*([\w-]+[\s-])?(example|examples|beispiel|exemple|ejemplo|esempio|exemplo|przykład)\s*[:：]\s*$|^\s*(示例|例如|例子|范例|範例|例)\s*[:：]\s*$`)
	// A lead-in that asks what the call will show ("To see what Go
	// outputs:", "Let me check what it says:") quotes nothing.
	purposeRe = lazyRegexp(`(?i)\b(what|how|whether|if|when|where|why|see|check|look)\b`)
	// "For example." as the sentence right after the call.
	forExampleAfterRe = lazyRegexp(`(?i)^\s*(for example|e\.g\.)\s*[.:]?\s*$`)
	// A lead-in that says what a template, prompt, parser or the docs ask
	// of a model ("Qwen's template asks the model to answer like this:",
	// "The system prompt expects calls in this form:"): the format's own
	// text quoted, as the template's output is above (quotesOutputRe),
	// never with the model itself as the subject (I, we, let me).
	specAsksRe    = lazyRegexp(`(?i)\b(template|system prompt|prompt format|parser|documentation|docs|model card|spec|specification)s?\s+(asks|expects|requires|wants|tells|instructs)\b` + gap + `{0,80}[:：]\s*$`)
	firstPersonRe = lazyRegexp(`(?i)\b(i|we|i'll|we'll|i'm|let me|let's|let us)\b`)

	// A lead-in that quotes someone else's text: a file's or a page's ("It
	// contains:", "The file notes.md says:", "The page at URL reads:"), a
	// tool's ("The tool returned:", "Output of cat notes.md:"), the user's
	// ("You wrote:"), or a model's
	// or template's output ("Command R returns plans like:", "The DeepSeek
	// R1 template emits:"). The verb ends the lead-in (a few words at most
	// after it, and the format's own label such as Cohere's "Action:"), and
	// the subject is a proper name or one of these nouns, never I or we, and
	// opens the lead-in: "Let me see what the file contains:" asks what the
	// call will show.
	quotesFileRe = lazyRegexp(`(?i)^\s*((it|(the|this|that)\s+(file|readme|document|page|site|log)(\s+[\w./-]+)?|[\w./-]+\.(md|txt|go|py|js|ts|json|ya?ml|toml|html|log))(\s+(at|in|from)\s+\S+)?\s+(contains|says|reads|states|includes|shows)` +
		`|\byou\s+(wrote|said|sent|pasted|typed)` +
		`|\b(the tool|the command|the server|it)\s+(returned|printed|output)` +
		`|\b(output|result|log)s?\s+(of|from)\s+[^:：\n]{1,40}` +
		`)(\s+(the following|as follows|this|these lines|this line))?\s*[:：]\s*$`)
	quotesOutputRe = lazyRegexp(`^\s*((?i:the model|models|the template|templates|the parser|the server)|[A-Z][\w.-]*)(\s+[\w.-]+){0,3}\s+(?i:(would|will|should)\s+(emit|write|output|produce|return|generate)|emits|outputs|writes|returns|produces|generates)(\s+[\w-]+){0,2}\s*[:：](\s+[A-Z]\w*:)?\s*$`)
)

// Round 5's red team (testdata/widened-adversarial-round5.jsonl): the
// same three meanings in words that answers about a format use. A lead-in
// that ends by introducing an example ("…, for example", "such as", "for
// instance"), a description of how a format writes a call ("a call is
// written", "format tool use like this", "has this shape", "Usage:"),
// another party's reply or log quoted ("the model replied with", "the
// model wrote", "the first entry in the response was", "the agent's last
// message ended with", "the text"), a call reported as run and failed,
// a call handed to the user to run themselves, and an example label that
// opens the lead-in ("Example arguments for each tool:").
var (
	exampleTailRe = lazyRegexp(`(?i)(\bfor (example|instance)|\be\.g\.|\bsuch as)\s*,?\s*[:：]?\s*$` +
		// Round 6: what the reader will see, and a lesson for the reader.
		`|\byou('ll|\s+will|\s+would|'d)\s+(see|get)\s+(something\s+)?like( this)?\s*[:：]?\s*$|\bshow you how (to|you can)\b[^.!?]{0,40}[:：]\s*$`)
	formatDescRe = lazyRegexp(`(?i)\b(format|formats|formatted|structure|structured|shaped)\b[^.:!?]{0,40}\blike this\b` +
		`|\b(template|templates|format|parser|prompt)\s+(writes|renders|emits|puts|uses|expects|shows)\b` +
		`|\b(a|the|each|every)\s+(call|tool call|function call)s?\s+(is|are)\s+(written|shown|encoded|formatted|rendered|expressed)(\s+(as|like))?\s*[:：]?\s*$` +
		`|\b(has|have|takes|take|uses|use)\s+(this|the following)\s+(shape|form|format|structure|syntax)\s*[:：]?\s*$` +
		`|\b(the|its|their|this)\s+usage\b[^.:!?]{0,40}\b(is|are|reads)\s*[:：]?\s*$|^\s*(usage|sample usage|example usage)\s*[:：]\s*$`)
	quotedReplyRe = lazyRegexp(`(?:\b(?i:the model|the agent|the assistant|the server|it|they)|\b(?:[A-HJ-Z][\w.-]*|I[\w.-]+))\s+(?i:(replied|responded|answered|answers|replies|responds)\s+with\b|(wrote|emitted|returned|produced|printed|output)\s*[:：]?\s*$)` +
		`|(?i)\b(in|of|from)\s+the\s+([\w'-]+\s+){0,2}(response|reply|output|log|stream|transcript)\s+(was|is|reads|read|were)\s*[:：]?\s*$` +
		`|(?i)\b(message|reply|output|response|answer)\s+(ended|began|started|ends|begins|starts)\s+with\b` +
		`|(?i)\b(the|this|that)\s+(raw\s+)?(text|string|markup|snippet|literal)\s*$` +
		`|(?i)\b(the|this|that|its)\s+(wrapper|block|body|tag|field)\s+(holds|contains|carries)\s*[:：]?\s*$`)
	failedCallRe = lazyRegexp(`(?i)\b(call|command|tool call)s?\s+that\s+(failed|errored|timed out|was run|ran|was made)\b`)
	yourselfRe   = lazyRegexp(`(?i)\byou\s+(can|could|may|might|should|need to|will need to)\s+(\w+\s+){0,2}(run|execute|paste|try|use)\b[^.!?]{0,40}\byourself\b|\b(run|execute)\s+(it|this|that|them|the following|the command)\s+yourself\b`)
	labelLeadRe  = lazyRegexp(`(?i)^\s*(example|examples|sample)\s+[\w'-]+(\s+[\w'-]+){0,9}\s*[:：]\s*$`)
	selfLeadRe   = lazyRegexp(`(?i)\b(let me|let's|i'll|i will|i'm going to|i am going to)\b`)
)

// notIntendedWide is notIntended's second half: the same reading of the
// lead-in and of the sentence after the call, with the phrases above.
func notIntendedWide(before, after string) bool {
	quotes := (quotesFileRe().MatchString(before) || quotesOutputRe().MatchString(before) && !futureDemonstrative(before)) && !purposeRe().MatchString(before) || quotesEmittedRe().MatchString(before)
	if quotes || pastWideEndRe().MatchString(before) || forExampleAfterRe().MatchString(after) || exampleLabelRe().MatchString(before) {
		return true
	}
	// The model acting (rule_leadin.go) asks what the call will show.
	acts := func() bool { return modelActs(before) }
	if exampleTailRe().MatchString(before) || describesFormat(formatDescRe(), before) || quotedReplyRe().MatchString(before) && !acts() || labelLeadRe().MatchString(before) && !selfLeadRe().MatchString(before) {
		return true
	}
	// Round 5a: a template or its docs asking for the shown call.
	if describesFormat(specAsksRe(), before) {
		return true
	}
	for _, w := range []string{before, after} {
		if failedCallRe().MatchString(w) && !modelActs(w) || yourselfRe().MatchString(w) {
			return true
		}
	}
	for _, w := range []string{before, after} {
		c := clauses(w)
		if refusalWideRe().MatchString(c) || pastWideRe().MatchString(c) || exampleWideRe().MatchString(w) && !modelActs(w) {
			return true
		}
	}
	return false
}

// describesFormat: re (a description of a format, or a template asking for
// a call) reads the lead-in, and the model does not say it does a tool's
// action ("The template expects a path, so let me read it:", "Checking
// what the parser expects now:"). A first person that does not act is an
// aside ("If I remember right, the template writes a call like this:",
// "Let me explain: the template expects…"), not a reason to run (round 6).
func describesFormat(re interface{ MatchString(string) bool }, before string) bool {
	return re.MatchString(before) && !modelActs(before)
}
