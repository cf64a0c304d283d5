package integrations

import "errors"

// change is the edit an operation makes to a file.
type change int

const (
	changeNone change = iota
	changeAdd
	changeReplace
	changeRemove
)

// outcome is the result of planning an operation on a file's contents.
type outcome struct {
	state  State  // the entry's state before the operation
	change change // the edit made
	action Action
	schema string
	out    []byte // the new contents; nil when the file is not written
	err    error
}

// failed is the outcome of an error that leaves the file untouched.
func failed(err error) outcome {
	res := outcome{state: StateAbsent, action: ActionFailed, err: err}
	if errors.As(err, new(*InvalidConfigError)) {
		res.state = StateInvalid
	}
	return res
}

// failedIn is failed for an entry whose state is already known.
func failedIn(state State, err error) outcome {
	res := failed(err)
	if res.state != StateInvalid {
		res.state = state
	}
	return res
}

// decide chooses the change for op given the entry's state: install adds a
// missing entry, remove deletes ours, and a conflicting entry is touched
// only when forced.
func decide(res outcome, op Op, force bool, conflict *ConflictError) outcome {
	switch {
	case op == OpStatus:
	case res.state == StateConflicting && !force:
		res.action, res.err = ActionSkipped, conflict
	case op == OpInstall && res.state == StateAbsent:
		res.change, res.action = changeAdd, ActionAdded
	case op == OpInstall && res.state == StateConflicting:
		res.change, res.action = changeReplace, ActionReplaced
	case op == OpRemove && res.state != StateAbsent:
		res.change, res.action = changeRemove, ActionRemoved
	default:
		res.action = ActionUnchanged
	}
	return res
}
