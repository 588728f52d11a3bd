package userstate

// homeVars name the user's home directory, in order: HOME where a shell
// such as Git for Windows' sets it, else the profile directory.
var homeVars = []string{"HOME", "USERPROFILE"}
