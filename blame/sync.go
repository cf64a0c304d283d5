package blame

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Sync conditions.
var (
	ErrNoRemote      = errors.New("no remote to sync notes with: give REMOTE, or add one (git remote add origin URL)")
	ErrUnknownRemote = errors.New("no such remote")
	ErrPushRejected  = errors.New("the remote kept moving: notes push rejected after fetching and merging each time")
)

// TrackingPrefix holds, per remote, the notes last fetched from it
// (refs/notes/ctx-remote/<remote>); fetch merges them into NotesRef.
const TrackingPrefix = "refs/notes/ctx-remote/"

// DefaultPushAttempts bounds fetch+merge+push rounds when a push is
// rejected because a teammate pushed meanwhile.
const DefaultPushAttempts = 4

// SyncResult says what a notes fetch or push did.
type SyncResult struct {
	Remote string `json:"remote"`
	// Tracking is the ref the remote's notes were fetched into.
	Tracking string `json:"tracking_ref"`
	// RemoteHadNotes is false when the remote has no refs/notes/ctx yet.
	RemoteHadNotes bool `json:"remote_had_notes"`
	// Merged is true when the remote's notes brought something new into
	// refs/notes/ctx (a fast-forward or a cat_sort_uniq merge).
	Merged bool `json:"merged"`
	// Pushed is true when push updated the remote's refs/notes/ctx; false
	// for fetch and when the remote was already up to date.
	Pushed bool `json:"pushed"`
	// Attempts is the number of push rounds (push only).
	Attempts int    `json:"attempts,omitempty"`
	Local    string `json:"local_notes,omitempty"` // refs/notes/ctx after the sync ("" when absent)
}

// DefaultRemote is the remote of the current branch's upstream, else
// origin; ErrNoRemote when the repository has neither.
func (r *Repo) DefaultRemote(ctx context.Context) (string, error) {
	remotes, err := r.remotes(ctx)
	if err != nil {
		return "", err
	}
	if branch, err := r.Git(ctx, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		if rm, err := r.Git(ctx, "config", "--get", "branch."+strings.TrimSpace(branch)+".remote"); err == nil {
			if rm = strings.TrimSpace(rm); rm != "" && rm != "." && remotes[rm] {
				return rm, nil
			}
		}
	}
	if remotes["origin"] {
		return "origin", nil
	}
	return "", ErrNoRemote
}

func (r *Repo) remotes(ctx context.Context) (map[string]bool, error) {
	out, err := r.Git(ctx, "remote")
	if err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, f := range strings.Fields(out) {
		m[f] = true
	}
	return m, nil
}

// syncRemote checks remote (or picks the default) and names its tracking
// ref.
func (r *Repo) syncRemote(ctx context.Context, remote string) (string, string, error) {
	remotes, err := r.remotes(ctx)
	if err != nil {
		return "", "", err
	}
	if !remotes[remote] {
		if len(remotes) == 0 {
			return "", "", fmt.Errorf("%s: %w", remote, ErrNoRemote)
		}
		return "", "", fmt.Errorf("%w %q (git remote lists the names)", ErrUnknownRemote, remote)
	}
	tracking := TrackingPrefix + remote
	if _, err := r.Git(ctx, "check-ref-format", tracking); err != nil {
		return "", "", fmt.Errorf("%w %q: not usable in a ref name", ErrUnknownRemote, remote)
	}
	return remote, tracking, nil
}

// FetchNotes fetches the remote's refs/notes/ctx into its tracking ref and
// merges it into refs/notes/ctx with git notes merge -s cat_sort_uniq:
// notes of different commits are kept side by side, notes of the same
// commit are concatenated line by line (JSON Lines stay valid; identical
// records collapse, readers union the rest). Nothing is forced over local
// notes; only the tracking ref follows the remote.
func FetchNotes(ctx context.Context, repo *Repo, remote string) (*SyncResult, error) {
	remote, tracking, err := repo.syncRemoteDefault(ctx, remote)
	if err != nil {
		return nil, err
	}
	res := &SyncResult{Remote: remote, Tracking: tracking}
	if err := repo.fetchMerge(ctx, res); err != nil {
		return nil, err
	}
	res.Local = repo.notesHead(ctx)
	return res, nil
}

func (r *Repo) syncRemoteDefault(ctx context.Context, remote string) (string, string, error) {
	if remote == "" {
		d, err := r.DefaultRemote(ctx)
		if err != nil {
			return "", "", err
		}
		remote = d
	}
	return r.syncRemote(ctx, remote)
}

func (r *Repo) fetchMerge(ctx context.Context, res *SyncResult) error {
	_, err := r.gitRemote(ctx, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--end-of-options", res.Remote,
		"+"+NotesRef+":"+res.Tracking)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "couldn't find remote ref") {
			res.RemoteHadNotes = false
			return nil
		}
		return fmt.Errorf("fetch notes from %s: %w", res.Remote, err)
	}
	res.RemoteHadNotes = true
	before := r.notesHead(ctx)
	if _, err := r.Git(ctx, "notes", "--ref", NotesRef, "merge", "--quiet", "-s", "cat_sort_uniq", res.Tracking); err != nil {
		return fmt.Errorf("merge notes of %s into %s: %w", res.Remote, NotesRef, err)
	}
	res.Merged = res.Merged || r.notesHead(ctx) != before
	return nil
}

// notesHead is the commit of refs/notes/ctx, "" when there is none.
func (r *Repo) notesHead(ctx context.Context) string {
	out, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", NotesRef)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// PushNotes fetches and merges the remote's notes, then pushes
// refs/notes/ctx without force. A push rejected because the remote moved
// meanwhile fetches and merges again, up to attempts rounds
// (DefaultPushAttempts when zero), then fails with ErrPushRejected; a
// teammate's notes are never overwritten.
func PushNotes(ctx context.Context, repo *Repo, remote string, attempts int) (*SyncResult, error) {
	remote, tracking, err := repo.syncRemoteDefault(ctx, remote)
	if err != nil {
		return nil, err
	}
	if attempts <= 0 {
		attempts = DefaultPushAttempts
	}
	res := &SyncResult{Remote: remote, Tracking: tracking}
	for res.Attempts < attempts {
		res.Attempts++
		if err := repo.fetchMerge(ctx, res); err != nil {
			return nil, err
		}
		res.Local = repo.notesHead(ctx)
		if res.Local == "" {
			return res, nil // nothing here, nothing there
		}
		pushed, rejected, err := repo.pushOnce(ctx, res.Remote)
		if err != nil {
			return nil, err
		}
		if !rejected {
			res.Pushed = pushed
			if _, err := repo.Git(ctx, "update-ref", tracking, res.Local); err != nil {
				return nil, fmt.Errorf("tracking ref: %w", err)
			}
			return res, nil
		}
	}
	return nil, fmt.Errorf("%s, %d attempts: %w; run ctx notes push again", remote, attempts, ErrPushRejected)
}

// pushOnce pushes refs/notes/ctx without force. It reports whether the
// remote ref changed and whether the push was rejected as not a
// fast-forward (the remote moved); other failures are errors.
func (r *Repo) pushOnce(ctx context.Context, remote string) (pushed, rejected bool, err error) {
	out, err := r.gitRemote(ctx, "push", "--porcelain", "--no-verify", "--end-of-options", remote, NotesRef+":"+NotesRef)
	for _, l := range strings.Split(out, "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) < 3 || !strings.HasSuffix(f[1], ":"+NotesRef) {
			continue
		}
		switch {
		case f[0] == "=":
			return false, false, nil
		case f[0] == "!" && (strings.Contains(f[2], "fetch first") || strings.Contains(f[2], "non-fast-forward")):
			return false, true, nil
		case f[0] == "!":
			return false, false, fmt.Errorf("push notes to %s: %s", remote, strings.TrimSpace(f[2]))
		default:
			if err == nil {
				return true, false, nil
			}
		}
	}
	if err != nil {
		return false, false, fmt.Errorf("push notes to %s: %w", remote, err)
	}
	return true, false, nil
}

// ConfigureRemote adds, in the repository's own config and only when
// missing, a fetch refspec that brings the remote's notes into its tracking
// ref on every git fetch, and notes.displayRef so git log shows the notes.
// It returns the settings it added.
func ConfigureRemote(ctx context.Context, repo *Repo, remote string) ([]string, error) {
	remote, tracking, err := repo.syncRemoteDefault(ctx, remote)
	if err != nil {
		return nil, err
	}
	var added []string
	for _, kv := range [][2]string{{"remote." + remote + ".fetch", "+" + NotesRef + ":" + tracking},
		{"notes.displayRef", NotesRef}} {
		out, _ := repo.Git(ctx, "config", "--local", "--get-all", kv[0])
		if strings.Contains("\n"+out, "\n"+kv[1]+"\n") {
			continue
		}
		if _, err := repo.Git(ctx, "config", "--local", "--add", kv[0], kv[1]); err != nil {
			return added, fmt.Errorf("configure %s: %w", kv[0], err)
		}
		added = append(added, kv[0]+"="+kv[1])
	}
	return added, nil
}

// Dedupe unions the records of a note that share file, session, events
// and match kind: two clones that linked the same commit give, after a
// cat_sort_uniq merge, the same record twice or with different lines.
func Dedupe(n *Note) *Note {
	if n == nil {
		return nil
	}
	d := &Note{}
	d.Merge(n)
	return d
}
