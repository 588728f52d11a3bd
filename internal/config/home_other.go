//go:build !windows

package config

// homeVars name the user's home directory, in order.
var homeVars = []string{"HOME"}
