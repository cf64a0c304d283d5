package gitstore

// MachineState is where one machine of a remote stands for this store.
type MachineState struct {
	Machine string `json:"machine"`
	Remote  string `json:"remote_commit"`
	Merged  string `json:"merged_commit,omitempty"`
}
