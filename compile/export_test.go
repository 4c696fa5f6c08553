package compile

// SetMaxBytes lowers the size over which Write refuses a policy, so that
// a test need not build 64 MiB, and returns the function that restores it.
func SetMaxBytes(n int) (restore func()) {
	old := maxBytes
	maxBytes = n
	return func() { maxBytes = old }
}
