package webmd

import "fmt"

// Code is the number of a fetch error; each code has a class.
type Code int

// The error codes of the reference.
const (
	// ErrConversion: not an HTML page, over 5 MiB, impossible to decode,
	// or an output file that cannot be written.
	ErrConversion Code = 1
	// ErrInput: unreachable host, timeout, HTTP status ≥ 300 after
	// redirects, more than 10 redirects, forbidden by robots.txt or an
	// unreadable robots.txt.
	ErrInput Code = 2
	// ErrUsage: an empty or unreadable url, a scheme other than http or
	// https, an unknown `tables` value, a baseUrl that is not absolute.
	ErrUsage Code = 3
)

// Class is the code's name: conversion, input or usage.
func (c Code) Class() string {
	switch c {
	case ErrConversion:
		return "conversion"
	case ErrInput:
		return "input"
	case ErrUsage:
		return "usage"
	}
	return "unknown"
}

// Error is a fetch or conversion failure, told the way the model reads
// it.
type Error struct {
	Code   Code
	Reason string
}

// Error returns "error N (<class>) — <reason>"; the tool wraps it as
// "[fetch_content: error N (<class>) — <reason>]".
func (e *Error) Error() string {
	return fmt.Sprintf("error %d (%s) — %s", e.Code, e.Code.Class(), e.Reason)
}

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Reason: fmt.Sprintf(format, args...)}
}
