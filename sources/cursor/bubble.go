package cursor

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"ctx/core"
)

// Bubble types of composer bubbles.
const (
	bubbleUser      = 1
	bubbleAssistant = 2
)

// bubble is one message of a composer: a bubbleId:<composer>:<bubble> row
// or an entry of an inline conversation. Fields whose shape varies between
// versions are kept raw and read leniently.
type bubble struct {
	V          flexInt         `json:"_v"`
	Type       flexInt         `json:"type"`
	BubbleID   string          `json:"bubbleId"`
	Text       string          `json:"text"`
	RichText   json.RawMessage `json:"richText"`
	CreatedAt  msTime          `json:"createdAt"`
	TimingInfo json.RawMessage `json:"timingInfo"`
	ModelInfo  json.RawMessage `json:"modelInfo"`
	Thinking   json.RawMessage `json:"thinking"`
	Tool       *toolFormer     `json:"toolFormerData"`
	CodeBlocks json.RawMessage `json:"codeBlocks"`
}

// codeBlockRef points a 2024 composer bubble at a code block version.
type codeBlockRef struct {
	URI     *fileURI `json:"uri"`
	Version int      `json:"version"`
}

// sessionBuilder collects the events of one session.
type sessionBuilder struct {
	p          *parser
	ps         core.ParsedSession
	codeBlocks map[string][]codeBlock
	model      string // the first model a bubble names
	newer      bool   // an unknown bubble version was counted
	err        error  // the first store failure
}

func (b *sessionBuilder) add(e core.Event) int { return b.ps.Append(e) }

// key derives an event key from the bubble id; without an id the ordinal
// is used.
func key(id, suffix string) string {
	if id == "" {
		return ""
	}
	return id + suffix
}

// bubble adds the events of one bubble value; id is its id from the header
// or row key when the value lacks one.
func (b *sessionBuilder) bubble(value []byte, id string) {
	var bu bubble
	if !b.p.decode(value, &bu) {
		return
	}
	if bu.BubbleID == "" {
		bu.BubbleID = id
	}
	if (bu.V.Bad || bu.V.N > maxBubbleVersion) && !b.newer {
		b.newer = true
		b.p.problem(ProblemUnknownVersion)
	}
	model := bu.model()
	if b.model == "" {
		b.model = model
	}
	switch {
	case bu.Type.Set && bu.Type.N == bubbleUser:
		if text := bu.plainText(); text != "" {
			b.add(core.Event{Timestamp: bu.time(), Role: core.RoleUser, Type: core.TypeMessage,
				Text: text, Key: key(bu.BubbleID, "")})
		}
	case bu.Type.Set && bu.Type.N == bubbleAssistant:
		b.assistant(&bu, model)
	default:
		b.p.problem(core.ProblemUnknownRecord)
		b.add(core.Event{Timestamp: bu.time(), Role: core.RoleSystem, Type: core.TypeOther,
			Native: "bubble_type_" + strconv.Itoa(bu.Type.N), Text: bu.plainText(), Key: key(bu.BubbleID, "")})
	}
}

// assistant adds an assistant bubble's reasoning, text and tool call.
func (b *sessionBuilder) assistant(bu *bubble, model string) {
	ts := bu.time()
	if t := bu.thinking(); t != "" {
		b.add(core.Event{Timestamp: ts, Role: core.RoleAssistant, Type: core.TypeReasoning, Text: t,
			Model: model, Key: key(bu.BubbleID, "/thinking")})
	}
	text, files := bu.plainText(), b.codeBlockFiles(bu)
	if text != "" || len(files) > 0 {
		b.add(core.Event{Timestamp: ts, Role: core.RoleAssistant, Type: core.TypeMessage, Text: text,
			Files: files, Model: model, Key: key(bu.BubbleID, "")})
	}
	if bu.Tool != nil {
		b.tool(bu, ts, model)
	}
}

// codeBlockFiles returns the files a 2024 composer bubble's code blocks
// wrote, with the code each block holds.
func (b *sessionBuilder) codeBlockFiles(bu *bubble) []core.FileTouch {
	var refs []codeBlockRef
	if len(b.codeBlocks) == 0 || json.Unmarshal(bu.CodeBlocks, &refs) != nil {
		return nil
	}
	var out []core.FileTouch
	for _, ref := range refs {
		if ref.URI == nil {
			continue
		}
		for _, cb := range b.codeBlocks[ref.URI.External] {
			path := ref.URI.localPath()
			if cb.Version == ref.Version && cb.Content != "" && path != "" {
				out = append(out, core.FileTouch{Path: path, Op: core.OpEdit, NewText: cb.Content})
				break
			}
		}
	}
	return out
}

// time is the bubble's creation time, else its client start time.
func (bu *bubble) time() time.Time {
	if !bu.CreatedAt.IsZero() {
		return bu.CreatedAt.Time
	}
	var ti struct {
		Start msTime `json:"clientStartTime"`
	}
	_ = json.Unmarshal(bu.TimingInfo, &ti)
	return ti.Start.Time
}

// plainText is the bubble's text, else the text of its rich text.
func (bu *bubble) plainText() string {
	if t := strings.TrimSpace(bu.Text); t != "" {
		return bu.Text
	}
	var doc string
	if json.Unmarshal(bu.RichText, &doc) != nil || doc == "" {
		return ""
	}
	return richTextPlain(doc)
}

// model is the model named by the bubble.
func (bu *bubble) model() string {
	var mi struct {
		Name string `json:"modelName"`
	}
	_ = json.Unmarshal(bu.ModelInfo, &mi)
	return mi.Name
}

// thinking is the bubble's visible reasoning ({"text"} or a plain string).
func (bu *bubble) thinking() string {
	var th struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(bu.Thinking, &th) == nil && th.Text != "" {
		return th.Text
	}
	var s string
	_ = json.Unmarshal(bu.Thinking, &s)
	return s
}
