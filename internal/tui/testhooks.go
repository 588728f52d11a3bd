package tui

// testPanic lets the tests' own build (go build -tags mmtesthooks, see
// testhooks_on.go) make the window panic where a bug would: in a turn's
// goroutine or while drawing. In mm as shipped it is nil and costs a nil
// check per turn and per frame.
var testPanic func(where, question string)
