package query

import "ctx/core"

// Forgotten returns the pinned generation's forgotten set (ctx forget):
// the sessions no import brings back, and the undone ones.
func (r *Reader) Forgotten() (core.ForgottenSet, error) {
	r.forgotOnce.Do(func() {
		r.forgot, r.forgotErr = core.LoadForgotten(r.store, r.gen.Forgotten)
		r.forgotErr = wrapObjErr(r.forgotErr)
	})
	return r.forgot, r.forgotErr
}

// IsForgotten reports whether the session was forgotten (and not undone).
func (r *Reader) IsForgotten(id core.SessionID) bool {
	set, err := r.Forgotten()
	return err == nil && set.Has(id)
}
