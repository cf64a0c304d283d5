package maint

// SetSweepRound sets how many objects gc deletes in one hold of the lock,
// and returns a function that puts it back.
func SetSweepRound(n int) (restore func()) {
	old := sweepRound
	sweepRound = n
	return func() { sweepRound = old }
}

// BetweenRounds runs fn between gc's rounds of deletes until the test
// ends.
func BetweenRounds(fn func()) (restore func()) {
	afterRound = fn
	return func() { afterRound = nil }
}
