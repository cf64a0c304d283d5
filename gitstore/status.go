package gitstore

import (
	"context"

	"ctx/core"

	"github.com/go-git/go-git/v5/plumbing"
)

// States of MachineState.State.
const (
	StateUpToDate = "up_to_date" // merged (another machine) or pushed (this one)
	StateBehind   = "behind"     // the remote holds commits of that machine not merged here
	StateNew      = "new"        // a machine never merged here
	StateAhead    = "ahead"      // this machine has a generation not pushed yet
	StateUnpushed = "not_pushed" // this machine never pushed to the remote
)

// MachineState is where one machine of a remote stands for this store.
type MachineState struct {
	Machine     string `json:"machine"`
	ThisMachine bool   `json:"this_machine"`
	State       string `json:"state"`
	Remote      string `json:"remote_commit,omitempty"`
	Merged      string `json:"merged_commit,omitempty"`
}

// StatusReport is the sync status of one remote.
type StatusReport struct {
	Remote   string         `json:"remote"`
	URL      string         `json:"url"`
	Encrypt  bool           `json:"encrypt"`
	Machines []MachineState `json:"machines"`
}

// Status compares the remote's machine refs (git ls-remote) with what this
// store merged and pushed: this machine is ahead when the view of src (the
// active generation; none when nothing was imported) is not the one last
// pushed.
func (s *Syncer) Status(ctx context.Context, r Remote, src Source, include func(core.TreeEntry) bool) (*StatusReport, error) {
	remote, err := s.Transport.MachineRefs(ctx, r.URL)
	if err != nil {
		return nil, err
	}
	st, err := loadState(s.Home)
	if err != nil {
		return nil, err
	}
	rep := &StatusReport{Remote: r.Name, URL: r.URL, Encrypt: r.Encrypt, Machines: []MachineState{}}
	own, err := s.ownState(r, remote[s.Machine], src, include)
	if err != nil {
		return nil, err
	}
	rep.Machines = append(rep.Machines, own)
	merged := st.Merged[r.Name]
	for _, machine := range sortedKeys(remote) {
		if machine == s.Machine {
			continue
		}
		ms := MachineState{Machine: machine, Remote: remote[machine].String(), Merged: merged[machine], State: StateBehind}
		switch ms.Merged {
		case ms.Remote:
			ms.State = StateUpToDate
		case "":
			ms.State = StateNew
		}
		rep.Machines = append(rep.Machines, ms)
	}
	return rep, nil
}

func (s *Syncer) ownState(r Remote, theirs plumbing.Hash, src Source, include func(core.TreeEntry) bool) (MachineState, error) {
	ms := MachineState{Machine: s.Machine, ThisMachine: true, State: StateUnpushed}
	if theirs.IsZero() {
		return ms, nil
	}
	ms.Remote, ms.State = theirs.String(), StateAhead
	m, err := OpenMirror(MirrorDir(s.Home, r.Name))
	if err != nil {
		return ms, err
	}
	mine, err := m.Ref(MachineRef(s.Machine))
	if err != nil || mine != theirs {
		return ms, err
	}
	if src.Generation == nil { // nothing imported here
		return ms, nil
	}
	v, err := buildView(src, include)
	if err != nil {
		return ms, err
	}
	key, _ := s.key(r)
	if snap, err := m.Snapshot(mine, key); err == nil && snap.Manifest.Tree == v.id {
		ms.State = StateUpToDate
	}
	return ms, nil
}
