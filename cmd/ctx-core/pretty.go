package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// Colour modes of --color.
const (
	colorAuto   = "auto"
	colorAlways = "always"
	colorNever  = "never"
)

// style renders emphasis on a terminal and nothing elsewhere: colour is on
// with --color always, or with auto (the default) when stdout is a
// terminal and NO_COLOR is unset.
type style struct{ on bool }

func (e *Env) style() style {
	switch e.Color {
	case colorAlways:
		return style{on: true}
	case colorNever:
		return style{}
	}
	return style{on: e.Getenv("NO_COLOR") == "" && e.IsTTY(e.Stdout) && e.Getenv("TERM") != "dumb"}
}

func (s style) wrap(code, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) bold(t string) string   { return s.wrap("1", t) }
func (s style) dim(t string) string    { return s.wrap("2", t) }
func (s style) green(t string) string  { return s.wrap("32", t) }
func (s style) yellow(t string) string { return s.wrap("33", t) }
func (s style) cyan(t string) string   { return s.wrap("36", t) }
func (s style) red(t string) string    { return s.wrap("31", t) }

// width is the terminal's width in columns: $COLUMNS, else the size of
// stdout's terminal; 0 (no limit) when stdout is not a terminal.
func (e *Env) width() int {
	if n, err := strconv.Atoi(e.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := e.Stdout.(*os.File); ok && e.IsTTY(e.Stdout) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 0
}

// plural is "1 file", "2 files"; word's plural adds s unless given.
func plural(n int, word string, pl ...string) string {
	if n == 1 {
		return "1 " + word
	}
	if len(pl) > 0 {
		return fmt.Sprintf("%d %s", n, pl[0])
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// humanDuration prints a duration as people write it: 45s, 12m, 3h 5m,
// 2d 4h. A negative or zero duration is "0s".
func humanDuration(d time.Duration) string {
	if d < time.Second {
		return "0s"
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm", s/60)
	case s < 86400:
		if m := s % 3600 / 60; m > 0 {
			return fmt.Sprintf("%dh %dm", s/3600, m)
		}
		return fmt.Sprintf("%dh", s/3600)
	}
	if h := s % 86400 / 3600; h > 0 {
		return fmt.Sprintf("%dd %dh", s/86400, h)
	}
	return fmt.Sprintf("%dd", s/86400)
}

// humanTime prints a time for a listing: today's as 15:04, this year's as
// Jan 02 15:04, older ones with the year; the zero time as "-".
func humanTime(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	t = t.In(now.Location())
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return "today " + t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("Jan 02 15:04")
	}
	return t.Format("2006-01-02")
}

// humanCount prints 1234567 as 1,234,567.
func humanCount[T int | int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fit cuts s to n columns (runes), marking the cut; n <= 0 is no limit.
func fit(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// fitLeft cuts s to n runes from its left, keeping the end (of a path).
func fitLeft(s string, n int) string {
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// stamp formats t in the local zone by layout, or "-" padded to the
// layout's width for the zero time (a record without a time), never
// 0001-01-01.
func stamp(t time.Time, layout string) string {
	if t.IsZero() {
		return fmt.Sprintf("%-*s", len(layout), "-")
	}
	return t.Local().Format(layout)
}

// idPrefix is an evt_ or ses_ id cut to hex digits after its prefix: what
// a listing prints, and what show takes back (a unique prefix).
func idPrefix(id string, hex int) string {
	pre, rest, ok := strings.Cut(id, "_")
	if !ok || len(rest) <= hex {
		return id
	}
	return pre + "_" + rest[:hex]
}
