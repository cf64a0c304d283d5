package ingest

// SetPendingObjects bounds the objects a run leaves uncommitted to n for
// a test, and returns the restore.
func SetPendingObjects(n int) (restore func()) {
	old := pendingObjects
	pendingObjects = n
	return func() { pendingObjects = old }
}
