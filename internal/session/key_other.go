//go:build !unix

package session

import "os"

// keyFileOpen: the mode bits say nothing of who may read a file here;
// the key is as private as the user's profile directory it lives in.
func keyFileOpen(os.FileInfo) string { return "" }
