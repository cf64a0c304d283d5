package ui

import (
	"net/http"
	"strconv"
	"time"

	"ctx/app"
)

// statsData is the stats page: the filter form, the stats model's tables
// and its periods drawn as bars.
type statsData struct {
	*windowFilter
	Period  string
	Periods []string
	Stats   *app.Stats
	Charts  []chart
	Legend  []string // the agents, in the order the bars stack them
	Files   []fileBar
}

// fileBar is one of the files edited most, with its bar's width.
type fileBar struct {
	app.FileStats
	W float64
}

// fileBarW is the width of the files' bars (SVG user units).
const fileBarW = 160

// chart is one measure per period as horizontal bars stacked per agent,
// drawn by the server as SVG (no script).
type chart struct {
	ID, Title string
	Height    int
	Rows      []barRow
}

// barRow is one period's bar.
type barRow struct {
	Label string
	Y     int
	Total int
	Segs  []barSeg
}

// barSeg is one agent's part of a bar, in the chart's coordinates.
type barSeg struct {
	Provider string
	X, W     float64
	Value    int
}

// Chart geometry (SVG user units): the label column, the bar area and a
// row's height.
const (
	chartLabelW = 96
	chartBarW   = 480
	chartRowH   = 20
)

func (s *Server) stats(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	d := &statsData{windowFilter: readWindow(q), Period: q.Get("period"), Periods: []string{app.PeriodDay, app.PeriodWeek}}
	if d.Period == "" {
		d.Period = app.PeriodDay
	}
	f, err := d.filter(time.Now())
	if err != nil {
		return err
	}
	if d.Stats, err = s.app.Stats(r.Context(), app.StatsRequest{Filter: f, Period: d.Period, Location: time.Local}); err != nil {
		return err
	}
	for _, a := range d.Stats.Agents {
		d.Legend = append(d.Legend, a.Provider)
	}
	d.Charts = []chart{
		barChart("events", "Events", d.Stats, d.Legend, func(r app.StatsRow) int { return r.Events }),
		barChart("tools", "Tool calls", d.Stats, d.Legend, func(r app.StatsRow) int { return r.ToolCalls }),
		barChart("sessions", "Sessions", d.Stats, d.Legend, func(r app.StatsRow) int { return r.Sessions }),
	}
	for _, f := range d.Stats.Files {
		d.Files = append(d.Files, fileBar{FileStats: f, W: float64(f.Sessions) / float64(d.Stats.Files[0].Sessions) * fileBarW})
	}
	gen := d.Stats.Generation
	return s.render(w, r, http.StatusOK, "stats", pageData{Title: "Stats", Nav: "stats", Gen: &gen, Data: d})
}

// barChart lays out one measure of every period, each bar's agents in the
// legend's order, scaled to the largest period.
func barChart(id, title string, st *app.Stats, legend []string, value func(app.StatsRow) int) chart {
	c := chart{ID: id, Title: title}
	top := 0
	for _, p := range st.Periods {
		top = max(top, value(p.Total))
	}
	for i, p := range st.Periods {
		row := barRow{Label: p.Period, Y: i * chartRowH, Total: value(p.Total)}
		x := float64(chartLabelW)
		for _, prov := range legend {
			for _, a := range p.Agents {
				if a.Provider != prov || value(a) == 0 {
					continue
				}
				wd := float64(value(a)) / float64(top) * chartBarW
				row.Segs = append(row.Segs, barSeg{Provider: prov, X: x, W: wd, Value: value(a)})
				x += wd
			}
		}
		c.Rows = append(c.Rows, row)
	}
	c.Height = max(1, len(c.Rows)) * chartRowH
	return c
}

// thousands prints n with thin separators: 1 234 567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := ""
	for len(s) > 3 {
		out = "\u2009" + s[len(s)-3:] + out
		s = s[:len(s)-3]
	}
	if neg {
		s = "-" + s
	}
	return s + out
}
