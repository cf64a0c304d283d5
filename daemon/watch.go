package daemon

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fsnotify/fsnotify"

	"ctx/core"
)

// MaxWatches bounds the directories one daemon watches; past it, the rescan
// alone finds changes.
const MaxWatches = 4096

// rooter is implemented by providers that know their default root.
type rooter interface{ Root(core.Env) string }

// watchPlan is what to watch: the directories holding source files (any
// change there triggers a pass), every other directory between them and
// their source roots (creations and removals there trigger one), and the
// nearest existing ancestor of each root, where only the creation or
// removal of the root (or of a directory on the way to it) counts, so a
// root deleted and recreated is watched again at once.
type watchPlan struct {
	fileDirs map[string]bool
	all      map[string]bool
	roots    []string
	above    map[string]bool // ancestors of roots, watched for the roots alone
}

// planWatches discovers the sources' files and returns the directories to
// watch.
func planWatches(env core.Env, srcs []core.Source) watchPlan {
	p := watchPlan{fileDirs: map[string]bool{}, all: map[string]bool{}, above: map[string]bool{}}
	for _, s := range srcs {
		root := sourceRoot(env, s)
		if root != "" {
			root = filepath.Clean(root)
			p.all[root] = true
			p.roots = append(p.roots, root)
			if up := existingAncestor(root); up != "" {
				p.above[up] = true
			}
		}
		files, _ := s.Discover(env)
		for _, f := range files {
			p.addFile(f.Path, root)
			for _, c := range f.Companions {
				p.addFile(c, root)
			}
		}
	}
	return p
}

// existingAncestor returns the nearest existing directory above path, or
// "" when that is the filesystem root (never watched).
func existingAncestor(path string) string {
	for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	return ""
}

func sourceRoot(env core.Env, s core.Source) string {
	if s.Kind == core.KindConfigured {
		return s.Dir
	}
	if r, ok := s.Provider.(rooter); ok {
		return r.Root(env)
	}
	return ""
}

// addFile adds the file's directory and its ancestors up to root (or just
// its parent when the file is not under root).
func (p *watchPlan) addFile(path, root string) {
	dir := filepath.Dir(path)
	p.fileDirs[dir] = true
	p.all[dir] = true
	root = filepath.Clean(root)
	under := root != "." && strings.HasPrefix(dir, root+string(filepath.Separator))
	if !under {
		p.all[filepath.Dir(dir)] = true
		return
	}
	for d := filepath.Dir(dir); d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
		p.all[d] = true
	}
}

// applyWatches makes w watch exactly the plan's existing directories (up to
// MaxWatches) and returns how many it watches.
func (d *daemon) applyWatches(w *fsnotify.Watcher, p watchPlan) int {
	have := map[string]bool{}
	for _, dir := range w.WatchList() {
		have[dir] = true
		if !p.all[dir] && !p.above[dir] && dir != d.opts.Home {
			_ = w.Remove(dir)
		}
	}
	n := 0
	want := maps.Clone(p.all)
	for dir := range p.above {
		want[dir] = true
	}
	all := true // every directory holding source files is watched
	for dir := range want {
		if n >= MaxWatches {
			d.log.Printf("watch limit %d reached; the rescan covers the rest", MaxWatches)
			all = false
			break
		}
		if have[dir] {
			n++
			continue
		}
		if err := w.Add(dir); err == nil {
			n++
		} else {
			all = all && !p.fileDirs[dir]
			if errors.Is(err, syscall.ENOSPC) {
				d.log.Printf("the system's inotify watch limit is reached; the rescan covers the rest")
				all = false
				break
			}
		}
	}
	above := map[string]bool{}
	for dir := range p.above {
		if !p.all[dir] {
			above[dir] = true
		}
	}
	d.mu.Lock()
	d.fileDirs, d.watching, d.roots, d.above, d.watchedAll = p.fileDirs, n, p.roots, above, all
	d.mu.Unlock()
	return n
}

// relevant reports whether a file event should lead to a pass, and adds a
// watch for a directory created under a watched one.
func (d *daemon) relevant(w *fsnotify.Watcher, ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || underDir(ev.Name, d.opts.Home) {
		return false
	}
	d.mu.Lock()
	if d.above[filepath.Dir(ev.Name)] && !d.onRootPath(ev.Name) {
		d.mu.Unlock()
		return false // a sibling of a root's ancestor: not ours
	}
	inFileDir := d.fileDirs[filepath.Dir(ev.Name)]
	structural := ev.Op.Has(fsnotify.Create) || ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename)
	if structural {
		d.rewatch = true
	}
	if inFileDir {
		if d.named == nil {
			d.named = map[string]bool{}
		}
		d.named[ev.Name] = true
	}
	d.mu.Unlock()
	if ev.Op.Has(fsnotify.Create) {
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			_ = w.Add(ev.Name)
		}
	}
	return inFileDir || structural
}

// onRootPath reports whether path is a source root or a directory above
// one. d.mu is held.
func (d *daemon) onRootPath(path string) bool {
	for _, r := range d.roots {
		if underDir(r, path) {
			return true
		}
	}
	return false
}

func underDir(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}
