//go:build !windows

package userstate

// homeVars name the user's home directory, in order.
var homeVars = []string{"HOME"}
