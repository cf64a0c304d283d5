package blame

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NotesRef is the notes ref ctx writes; never refs/notes/commits.
const NotesRef = "refs/notes/ctx"

// NoteVersion is the version in the header line this ctx writes and reads.
const NoteVersion = 1

// Match kinds of a record.
const (
	MatchExactLine     = "exact_line"     // the committed line equals a line the event wrote
	MatchWhitespace    = "whitespace"     // equal once whitespace inside the line is set aside
	MatchFormatted     = "formatted"      // equal once whitespace, quote style and trailing separators are set aside
	MatchRewrap        = "rewrap"         // lines whose joined text equals the joined text of written lines
	MatchSessionActive = "session_active" // the session worked in the repository, no line matched
)

// Header is the first line of a note.
type Header struct {
	CtxNotes int `json:"ctx_notes"`
}

// Record is one line of a note after the header: the lines of one file
// (in the commit's own coordinates) that one session's events wrote, or a
// commit-level record (File nil) for a session active with no line match.
type Record struct {
	File            *string  `json:"file"`
	Lines           [][2]int `json:"lines,omitempty"`
	CtxSessionID    string   `json:"ctx_session_id"`
	CtxEventIDs     []string `json:"ctx_event_ids,omitempty"`
	Provider        string   `json:"provider"`
	NativeSessionID string   `json:"native_session_id"`
	Match           string   `json:"match"`
}

// Note is the parsed note of one commit.
type Note struct {
	Records []Record
}

// key identifies a record up to its lines, for unions.
func (r *Record) key() string {
	f := "\x00"
	if r.File != nil {
		f = *r.File
	}
	return strings.Join([]string{f, r.CtxSessionID, strings.Join(r.CtxEventIDs, ","), r.Match}, "\x01")
}

// Covers reports whether the record's ranges hold line n.
func (r *Record) Covers(n int) bool {
	for _, rg := range r.Lines {
		if n >= rg[0] && n <= rg[1] {
			return true
		}
	}
	return false
}

// LineCount is the number of lines the record's ranges hold.
func (r *Record) LineCount() int {
	n := 0
	for _, rg := range r.Lines {
		n += rg[1] - rg[0] + 1
	}
	return n
}

// ParseNote reads a note. Header lines may repeat (notes concatenated by
// git notes merge -s cat_sort_uniq or notes.rewriteMode=concatenate);
// blank lines are skipped. A note without a valid header is ErrBadNote.
// A note with a newer version is ErrNewerNote together with the records
// this version understands (readNewer): blame shows those, nothing
// rewrites the note.
func ParseNote(data []byte) (*Note, error) {
	n := &Note{}
	sawHeader := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for i := 1; sc.Scan(); i++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(line, &probe); err != nil {
			return nil, fmt.Errorf("%w: line %d is not a JSON object", ErrBadNote, i)
		}
		if v, ok := probe["ctx_notes"]; ok {
			var h Header
			if err := json.Unmarshal(v, &h.CtxNotes); err != nil || h.CtxNotes < 1 {
				return nil, fmt.Errorf("%w: line %d has a bad header", ErrBadNote, i)
			}
			if h.CtxNotes > NoteVersion {
				return readNewer(data, h.CtxNotes)
			}
			sawHeader = true
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil || r.CtxSessionID == "" {
			return nil, fmt.Errorf("%w: line %d is not a record", ErrBadNote, i)
		}
		n.Records = append(n.Records, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadNote, err)
	}
	if !sawHeader {
		return nil, fmt.Errorf("%w: no {\"ctx_notes\":%d} header", ErrBadNote, NoteVersion)
	}
	return n, nil
}

// knownKinds are the match kinds this version writes and reads.
var knownKinds = map[string]bool{MatchExactLine: true, MatchWhitespace: true, MatchFormatted: true,
	MatchRewrap: true, MatchSessionActive: true}

// readNewer reads a note of a newer format as far as this version
// understands it: the lines that are records of the shape it knows (a
// session, a known match kind, a file with line ranges or none), ignoring
// unknown fields, headers and anything else. It returns them with
// ErrNewerNote saying how many of the note's lines were left out.
func readNewer(data []byte, version int) (*Note, error) {
	n := &Note{}
	left := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || bytes.Contains(line, []byte(`"ctx_notes"`)) {
			continue
		}
		var r Record
		if json.Unmarshal(line, &r) != nil || !r.understood() {
			left++
			continue
		}
		n.Records = append(n.Records, r)
	}
	return n, fmt.Errorf("%w (format %d, this ctx reads %d; %d records read, %d lines left out): upgrade ctx",
		ErrNewerNote, version, NoteVersion, len(n.Records), left)
}

// understood reports whether a record has the shape this version reads.
func (r *Record) understood() bool {
	if r.CtxSessionID == "" || !knownKinds[r.Match] || (r.File == nil) != (len(r.Lines) == 0) {
		return false
	}
	for _, rg := range r.Lines {
		if rg[0] < 1 || rg[1] < rg[0] {
			return false
		}
	}
	return true
}

// Encode writes the note: the header, then records sorted by file and
// session, one per line.
func (n *Note) Encode() []byte {
	var b bytes.Buffer
	h, _ := json.Marshal(Header{CtxNotes: NoteVersion})
	b.Write(h)
	b.WriteByte('\n')
	recs := slices.Clone(n.Records)
	slices.SortStableFunc(recs, func(a, c Record) int { return strings.Compare(a.key(), c.key()) })
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Merge adds other's records: records with the same file, session, events
// and match kind union their lines.
func (n *Note) Merge(other *Note) {
	at := map[string]int{}
	for i := range n.Records {
		at[n.Records[i].key()] = i
	}
	for _, r := range other.Records {
		if i, ok := at[r.key()]; ok {
			n.Records[i].Lines = unionRanges(n.Records[i].Lines, r.Lines)
			continue
		}
		at[r.key()] = len(n.Records)
		n.Records = append(n.Records, r)
	}
	n.dropRedundantActive()
}

// dropRedundantActive removes session_active records of sessions that have
// line evidence.
func (n *Note) dropRedundantActive() {
	lined := map[string]bool{}
	for _, r := range n.Records {
		if r.File != nil {
			lined[r.CtxSessionID] = true
		}
	}
	n.Records = slices.DeleteFunc(n.Records, func(r Record) bool { return r.File == nil && lined[r.CtxSessionID] })
}

// ReadNote returns the note of commit, nil when it has none.
func (r *Repo) ReadNote(ctx context.Context, commit string) (*Note, error) {
	out, err := r.Git(ctx, "notes", "--ref", NotesRef, "show", commit)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "no note found") {
			return nil, nil
		}
		return nil, err
	}
	return ParseNote([]byte(out))
}

// WriteNote replaces the note of commit.
func (r *Repo) WriteNote(ctx context.Context, commit string, n *Note) error {
	_, err := r.GitIn(ctx, n.Encode(), "notes", "--ref", NotesRef, "add", "-f", "-F", "-", commit)
	return err
}

// ranges folds sorted line numbers into inclusive ranges.
func ranges(lines []int) [][2]int {
	slices.Sort(lines)
	lines = slices.Compact(lines)
	var out [][2]int
	for _, l := range lines {
		if k := len(out); k > 0 && out[k-1][1] == l-1 {
			out[k-1][1] = l
			continue
		}
		out = append(out, [2]int{l, l})
	}
	return out
}

// expand lists the lines of ranges.
func expand(rs [][2]int) []int {
	var out []int
	for _, rg := range rs {
		for l := rg[0]; l <= rg[1]; l++ {
			out = append(out, l)
		}
	}
	return out
}

func unionRanges(a, b [][2]int) [][2]int { return ranges(append(expand(a), expand(b)...)) }

// WriteNotes replaces the notes of many commits with one git fast-import
// run: one commit on the notes ref, a fast-forward of its current value.
// The committer is the user's (git var GIT_COMMITTER_IDENT), as for git
// notes add.
func (r *Repo) WriteNotes(ctx context.Context, notes map[string]*Note) error {
	if len(notes) == 0 {
		return nil
	}
	if len(notes) == 1 {
		for c, n := range notes {
			return r.WriteNote(ctx, c, n)
		}
	}
	ident, err := r.Git(ctx, "var", "GIT_COMMITTER_IDENT")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	msg := "Notes added by 'ctx hooks'\n"
	fmt.Fprintf(&b, "commit %s\ncommitter %s\ndata %d\n%s", NotesRef, strings.TrimSpace(ident), len(msg), msg)
	if _, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", NotesRef); err == nil {
		fmt.Fprintf(&b, "from %s^0\n", NotesRef)
	}
	commits := make([]string, 0, len(notes))
	for c := range notes {
		commits = append(commits, c)
	}
	slices.Sort(commits)
	for _, c := range commits {
		data := notes[c].Encode()
		fmt.Fprintf(&b, "N inline %s\ndata %d\n", c, len(data))
		b.Write(data)
		b.WriteByte('\n')
	}
	b.WriteString("done\n")
	_, err = r.GitIn(ctx, b.Bytes(), "fast-import", "--quiet", "--done")
	return err
}

// readNotes reads the notes of commits with two git processes (the notes
// listing and one cat-file --batch). A commit without a note is in neither
// map; one whose note cannot be used (ErrBadNote, ErrNewerNote) is in bad.
func (r *Repo) readNotes(ctx context.Context, commits []string) (notes map[string]*Note, bad map[string]error, err error) {
	notes, bad = map[string]*Note{}, map[string]error{}
	list, err := r.Git(ctx, "notes", "--ref", NotesRef, "list")
	if err != nil {
		return notes, bad, nil // no notes ref yet
	}
	blobs := map[string]string{}
	for _, l := range strings.Split(list, "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			blobs[f[1]] = f[0]
		}
	}
	var want []string
	var in bytes.Buffer
	for _, c := range commits {
		if b, ok := blobs[c]; ok && !slices.Contains(want, c) {
			want = append(want, c)
			in.WriteString(b + "\n")
		}
	}
	if len(want) == 0 {
		return notes, bad, nil
	}
	out, err := r.GitIn(ctx, in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, nil, err
	}
	rest := out
	for _, c := range want {
		head, body, ok := strings.Cut(rest, "\n")
		f := strings.Fields(head)
		if !ok || len(f) != 3 {
			return nil, nil, fmt.Errorf("notes of %s: cat-file: %q", short(c), head)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size+1 > len(body) {
			return nil, nil, fmt.Errorf("notes of %s: cat-file: %q", short(c), head)
		}
		n, perr := ParseNote([]byte(body[:size]))
		if perr != nil {
			bad[c] = perr
		} else {
			notes[c] = n
		}
		rest = body[size+1:]
	}
	return notes, bad, nil
}
