package workspace

import (
	"path/filepath"
	"sort"
	"strings"

	"ctx/budget"
)

// planFiles returns the plan files of root in order: PLAN.md, TODO.md, then
// docs/plan*.md (any case of the names).
func planFiles(root string) []string {
	var out []string
	for _, name := range []string{"PLAN.md", "TODO.md"} {
		if rel := findFold(root, "", name); rel != "" {
			out = append(out, rel)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(root, "docs", "*"))
	sort.Strings(matches)
	for _, m := range matches {
		base := strings.ToLower(filepath.Base(m))
		if strings.HasPrefix(base, "plan") && strings.HasSuffix(base, ".md") {
			out = append(out, "docs/"+filepath.Base(m))
		}
	}
	return out
}

// findFold returns dir/name as found in root, matching name without case.
func findFold(root, dir, name string) string {
	matches, _ := filepath.Glob(filepath.Join(root, dir, "*"))
	sort.Strings(matches)
	for _, m := range matches {
		if strings.EqualFold(filepath.Base(m), name) {
			rel, _ := filepath.Rel(root, m)
			return filepath.ToSlash(rel)
		}
	}
	return ""
}

// readPlan joins the plan files within max tokens. Each file's text is cut
// to what is left; a file of any size is read only as far as the budget
// can use.
func readPlan(root string, max int, red Redactor) (*string, []PlanFile, int) {
	files := []PlanFile{}
	var b strings.Builder
	used := 0
	for _, rel := range planFiles(root) {
		left := max - used
		if left <= 0 {
			break
		}
		text, size, cutRead, err := readText(root, rel, int64(left)*16)
		if err != nil {
			continue
		}
		if red != nil {
			text, _ = red.String(text)
		}
		header := ""
		if b.Len() > 0 {
			header = "\n\n"
		}
		header += "<!-- " + rel + " -->\n"
		text, n, cut := budget.Cut(header+text, left)
		b.WriteString(text)
		used += n
		files = append(files, PlanFile{Path: rel, Bytes: size, Tokens: n, Truncated: cut || cutRead})
	}
	if len(files) == 0 {
		return nil, files, 0
	}
	s := b.String()
	return &s, files, used
}
