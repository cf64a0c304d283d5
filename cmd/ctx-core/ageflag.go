package main

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// ageFlag is a --keep style length of time: a Go duration (36h, 90m) or a
// count of days or weeks (7d, 2w), the forms --since takes for an age.
type ageFlag time.Duration

var errAge = errors.New("want a duration such as 36h, 7d or 2w")

func (a *ageFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 || v > 100000 {
				return errAge
			}
			*a = ageFlag(time.Duration(v) * unit)
			return nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return errAge
	}
	*a = ageFlag(d)
	return nil
}

func (a *ageFlag) String() string {
	d := time.Duration(*a)
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

func (a *ageFlag) Type() string { return "duration" }
