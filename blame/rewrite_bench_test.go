package blame

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRewriteRebase carries the notes of a 50-commit branch rebased
// onto a moved main (what post-rewrite does after git rebase): each commit
// added 20 lines to one of 5 files and has a note naming them.
func BenchmarkRewriteRebase(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	b.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(dir, ".gitconfig"))
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("config", "user.name", "Bench")
	git("config", "user.email", "bench@example.com")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	write("README.md", "readme\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "feature")
	repo, err := OpenRepo(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	files := map[string][]string{}
	var olds []string
	for i := range 50 {
		name := fmt.Sprintf("f%d.go", i%5)
		start := len(files[name]) + 1
		for j := range 20 {
			files[name] = append(files[name], fmt.Sprintf("var v%d_%d = %d", i, j, i*j))
		}
		write(name, strings.Join(files[name], "\n")+"\n")
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprintf("c%d", i))
		id := git("rev-parse", "HEAD")
		f := name
		n := &Note{Records: []Record{{File: &f, Lines: [][2]int{{start, start + 19}}, CtxSessionID: "ses_" + strings.Repeat("a", 32),
			CtxEventIDs: []string{fmt.Sprintf("evt_%032x", i)}, Provider: "codex", NativeSessionID: "n", Match: MatchExactLine}}}
		if err := repo.WriteNote(ctx, id, n); err != nil {
			b.Fatal(err)
		}
		olds = append(olds, id)
	}
	git("checkout", "-q", "main")
	write("README.md", "readme\nmoved on\n")
	git("commit", "-q", "-a", "-m", "main moves")
	git("checkout", "-q", "feature")
	git("rebase", "-q", "main")
	news := strings.Fields(git("rev-list", "--reverse", "main..feature"))
	if len(news) != len(olds) {
		b.Fatalf("%d new commits for %d old", len(news), len(olds))
	}
	pairs := make([]Pair, len(olds))
	for i := range olds {
		pairs[i] = Pair{Old: olds[i], New: news[i]}
	}
	logf := func(f string, a ...any) { b.Logf(f, a...) }
	before := git("rev-parse", NotesRef)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		git("update-ref", NotesRef, before) // each run starts with only the old notes
		b.StartTimer()
		if err := Rewrite(ctx, repo, pairs, logf); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n, err := repo.ReadNote(ctx, news[49])
	if err != nil || n == nil || n.Records[0].LineCount() != 20 {
		b.Fatalf("last commit's note %+v %v", n, err)
	}
}
