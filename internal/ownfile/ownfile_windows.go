package ownfile

// native: Windows has neither openat nor O_NOFOLLOW in the os package;
// the portable checks (ownfile_portable.go) stand in.
var native = portable
