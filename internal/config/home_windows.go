package config

// homeVars name the user's home directory, in order: HOME where a shell
// such as Git for Windows' sets it, else the profile directory Windows
// always sets (C:\Users\NAME).
var homeVars = []string{"HOME", "USERPROFILE"}
