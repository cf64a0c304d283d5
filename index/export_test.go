package index

// SetGroupWindow sets the groups a text search reads per window and
// returns the previous number; no search may run meanwhile.
func SetGroupWindow(n int) int {
	old := groupWindow
	groupWindow = n
	return old
}
