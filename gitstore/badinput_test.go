package gitstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/gitstore"
	"ctx/objects"
)

// forge replaces machine's commit on the remote in dir by one whose tree is
// edited by edit (given "ls-tree -r" lines, returning new ones).
func forge(t *testing.T, dir, machine string, edit func(lines []string) []string) {
	t.Helper()
	ref := gitstore.MachineRef(machine).String()
	lines := strings.Split(strings.TrimSpace(git(t, dir, "ls-tree", "-r", "--full-tree", ref)), "\n")
	lines = edit(lines)
	// rebuild the nested tree bottom-up with mktree
	type node map[string]string // name -> "mode type hash"
	trees := map[string]node{"": {}}
	for _, l := range lines {
		meta, path, _ := strings.Cut(l, "\t")
		parts := strings.Split(path, "/")
		for i := 1; i < len(parts); i++ {
			d := strings.Join(parts[:i], "/")
			if trees[d] == nil {
				trees[d] = node{}
			}
		}
		dir := strings.Join(parts[:len(parts)-1], "/")
		trees[dir][parts[len(parts)-1]] = meta
	}
	var build func(d string) string
	build = func(d string) string {
		var in strings.Builder
		for name, meta := range trees[d] {
			in.WriteString(meta + "\t" + name + "\n")
		}
		for sub := range trees {
			if parent, _, _ := cutLast(sub); sub != "" && parent == d {
				_, base, _ := cutLast(sub)
				in.WriteString("040000 tree " + build(sub) + "\t" + base + "\n")
			}
		}
		return strings.TrimSpace(gitIn(t, dir, in.String(), "mktree"))
	}
	tree := build("")
	commit := strings.TrimSpace(gitIn(t, dir, "", "-c", "user.name=x", "-c", "user.email=x@x", "commit-tree", tree, "-m", "forged"))
	git(t, dir, "update-ref", ref, commit)
}

func TestForgedObjectIsRejectedAndNothingImported(t *testing.T) {
	dir, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/a", "alpha's own", 2)
	a.importOnce()
	b.session("/w/b", "beta's forged", 70)
	b.importOnce()
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	// Swap the blobs of two objects: each is a valid object file, under the
	// name of another.
	forge(t, dir, b.id, func(lines []string) []string {
		var objs []int
		for i, l := range lines {
			if strings.Contains(l, "\tobjects/") {
				objs = append(objs, i)
			}
		}
		i, j := objs[0], objs[1]
		hi, hj := strings.Fields(lines[i])[2], strings.Fields(lines[j])[2]
		lines[i] = strings.Replace(lines[i], hi, hj, 1)
		lines[j] = strings.Replace(lines[j], hj, hi, 1)
		return lines
	})
	before := a.source().GenerationID
	_, err := a.pull(r)
	if !errors.Is(err, objects.ErrCorrupt) {
		t.Fatalf("pull of a forged object: %v, want objects.ErrCorrupt", err)
	}
	if a.source().GenerationID != before || len(a.tree()) != 1 {
		t.Fatal("a forged pull changed the local store")
	}
}

func TestFutureFormatIsRefused(t *testing.T) {
	dir, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/a", "x", 1)
	a.importOnce()
	b.session("/w/b", "y", 1)
	b.importOnce()
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	future := strings.TrimSpace(gitIn(t, dir, `{"kind":"ctx-sync","format":2,"machine":"`+b.id+`","encryption":"none"}`, "hash-object", "-w", "--stdin"))
	forge(t, dir, b.id, func(lines []string) []string {
		for i, l := range lines {
			if strings.HasSuffix(l, "\tctx-sync") {
				lines[i] = "100644 blob " + future + "\tctx-sync"
			}
		}
		return lines
	})
	_, err := a.pull(r)
	var re *gitstore.RefError
	if !errors.Is(err, gitstore.ErrFutureFormat) || !errors.As(err, &re) || re.Machine != b.id {
		t.Fatalf("pull of a future format: %v", err)
	}
	if len(a.tree()) != 1 {
		t.Fatal("the local store changed")
	}
}

func TestEncryptedRemoteWithoutTheKey(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "vault", URL: url, Encrypt: true}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/a", "x", 1)
	a.importOnce()
	b.session("/w/b", "sealed words", 3)
	b.importOnce()
	key, err := gitstore.EnsureKey(b.ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := a.pull(r); !errors.Is(err, gitstore.ErrNoKey) {
		t.Fatalf("pull without the key: %v, want ErrNoKey", err)
	}
	if len(a.tree()) != 1 {
		t.Fatal("the local store changed")
	}
	if _, err := gitstore.ImportKey(a.ctx, "not a key", time.Now()); !errors.Is(err, gitstore.ErrInvalidKey) {
		t.Fatalf("import of a bad key: %v", err)
	}
	if _, err := gitstore.ImportKey(a.ctx, key.Export(), time.Now()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(a.ctx, "sync", gitstore.IdentityFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("identity file: %v %v", fi.Mode(), err)
	}
	if _, err := a.pull(r); err != nil {
		t.Fatal(err)
	}
	if len(a.search("sealed")) != 1 {
		t.Fatal("the decrypted session is not searchable")
	}
}

func TestRewrittenRemoteHistoryIsDetected(t *testing.T) {
	dir, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/a", "x", 1)
	a.importOnce()
	native := b.session("/w/b", "first", 2)
	b.importOnce()
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	first := strings.TrimSpace(git(t, dir, "rev-parse", gitstore.MachineRef(b.id).String()))
	b.appendSession(native, "/w/b", "first", 2, 4)
	b.importOnce()
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := a.pull(r); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "update-ref", gitstore.MachineRef(b.id).String(), first) // a forced push
	_, err := a.pull(r)
	if !errors.Is(err, gitstore.ErrRewritten) {
		t.Fatalf("pull of a rewritten history: %v, want ErrRewritten", err)
	}
	for _, e := range a.tree() {
		if e.Machine == b.id && e.Events != 4 {
			t.Fatalf("local copy lost events: %+v", e)
		}
	}
}

func TestMachineIDCollision(t *testing.T) {
	_, url := bare(t)
	r := gitstore.Remote{Name: "team", URL: url}
	a, b := newMachine(t, "alpha"), newMachine(t, "beta")
	a.session("/w/a", "x", 1)
	a.importOnce()
	b.session("/w/b", "y", 1)
	b.importOnce()
	if _, err := a.push(r); err != nil {
		t.Fatal(err)
	}
	if _, err := b.push(r); err != nil {
		t.Fatal(err)
	}
	// beta's store copied alpha's machine id (a copied $CTX_HOME without
	// its sync directory is caught at the next push of both).
	if err := os.WriteFile(filepath.Join(b.ctx, gitstore.MachineFile), []byte(a.id+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b.id = a.id
	b.session("/w/b", "z", 1)
	b.importOnce()
	if _, err := b.push(r); err != nil { // no mirror of that ref: resumes from the remote
		t.Fatal(err)
	}
	a.session("/w/a", "w", 1)
	a.importOnce()
	if _, err := a.push(r); !errors.Is(err, gitstore.ErrMachineCollision) {
		t.Fatalf("push under a shared machine id: %v, want ErrMachineCollision", err)
	}
}

// cutLast splits a tree path at its last slash ("" when there is none).
func cutLast(p string) (dir, base string, ok bool) {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return "", p, false
	}
	return p[:i], p[i+1:], true
}
